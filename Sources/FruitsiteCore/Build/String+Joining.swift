extension String {
    /// The parts one after another, made in one allocation: `+` and interpolation grow the
    /// string part by part. Every listed fruit has two addresses made this way, and every
    /// listed file its path.
    init(joining parts: String...) {
        let count = parts.reduce(0) { $0 + $1.utf8.count }
        self.init(unsafeUninitializedCapacity: count) { buffer in
            var offset = 0
            for var part in parts {
                part.withUTF8 { bytes in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[offset...]).initialize(
                        fromContentsOf: bytes)
                    offset += bytes.count
                }
            }
            return offset
        }
    }
}
