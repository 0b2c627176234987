/// The blocks of a GIF file, read far enough to take its metadata out. A GIF is published as
/// it is, since it may be animated, but for its comments and its application extensions
/// other than the one that makes it loop: XMP packets and ICC profiles are kept in those.
enum GIFContainer {
    /// The application extensions kept: the loop count, Netscape's and its older twin.
    private static let keptApplications = ["NETSCAPE2.0", "ANIMEXTS1.0"]

    /// `gif` without its comments and metadata, and with its trailer when it had lost it
    /// (browsers show such files); nil when its blocks are not a GIF's.
    static func removingMetadata(from gif: [UInt8]) -> [UInt8]? {
        guard gif.count >= 13, gif.starts(with: "GIF87a".utf8) || gif.starts(with: "GIF89a".utf8)
        else { return nil }
        // The header and the logical screen, then its colour table.
        var offset = 13 + colorTableSize(gif[10])
        guard offset <= gif.count else { return nil }
        var kept = Array(gif[..<offset])
        while offset < gif.count {
            let start = offset
            switch gif[offset] {
            case 0x3B:  // the trailer
                return kept + [0x3B]
            case 0x2C:  // an image: its descriptor, colour table, code size, then its data
                guard offset + 10 <= gif.count else { return nil }
                guard
                    let end = subBlocksEnd(gif, from: offset + 11 + colorTableSize(gif[offset + 9]))
                else { return nil }
                kept += gif[start..<end]
                offset = end
            case 0x21:  // an extension: its label, then its data
                guard offset + 2 <= gif.count, let end = subBlocksEnd(gif, from: offset + 2)
                else { return nil }
                let label = gif[offset + 1]
                var isKept = label != 0xFE  // a comment
                if label == 0xFF {
                    isKept =
                        gif[offset + 2] == 11
                        && keptApplications.contains(
                            String(decoding: gif[offset + 3..<offset + 14], as: UTF8.self))
                }
                if isKept { kept += gif[start..<end] }
                offset = end
            default:
                return nil
            }
        }
        return kept + [0x3B]
    }

    /// The bytes of the colour table a packed field announces: none, or 2^(n+1) colours.
    private static func colorTableSize(_ packed: UInt8) -> Int {
        packed & 0x80 == 0 ? 0 : 3 << (Int(packed & 0x07) + 1)
    }

    /// Where the data sub-blocks from `offset` end: after the empty one; nil past the file.
    private static func subBlocksEnd(_ bytes: [UInt8], from offset: Int) -> Int? {
        var offset = offset
        while offset < bytes.count {
            let size = Int(bytes[offset])
            offset += 1 + size
            if size == 0 { return offset }
        }
        return nil
    }
}
