/// A 64-bit hash that is the same in every process and on every machine, unlike `Hasher`,
/// which is seeded randomly per run. It tells changed pages from unchanged ones between builds;
/// it is not meant to resist deliberate collisions.
struct StableHasher {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// Mixes in raw bytes, eight at a time.
    mutating func combine(bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset + 8 <= bytes.count {
            mix(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        mix(tail ^ (UInt64(bytes.count) << 56))
    }

    mutating func combine(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { combine(bytes: $0) }
    }

    mutating func combine(_ text: String) {
        var text = text
        text.withUTF8 { combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    mutating func combine(_ value: UInt64) { mix(value) }

    var value: UInt64 {
        var result = state
        result ^= result >> 33
        result &*= 0xFF51_AFD7_ED55_8CCD
        result ^= result >> 33
        return result
    }

    private mutating func mix(_ word: UInt64) {
        state = (state ^ word) &* 0x0000_0100_0000_01B3 &+ 0x2545_F491_4F6C_DD1D
        state ^= state >> 29
    }

    /// The hash of a large run of bytes, such as a block of the saved model, which is read
    /// and written whole on every build: four lanes of 8 bytes each, so that their
    /// multiplications overlap rather than wait for one another. About three times as fast as
    /// `combine(bytes:)`, and a different value.
    static func hash(wide bytes: UnsafeRawBufferPointer) -> UInt64 {
        var lanes = (StableHasher(), StableHasher(), StableHasher(), StableHasher())
        var offset = 0
        while offset + 32 <= bytes.count {
            lanes.0.mix(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            lanes.1.mix(bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            lanes.2.mix(bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
            lanes.3.mix(bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
            offset += 32
        }
        lanes.0.combine(bytes: UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        for lane in [lanes.1, lanes.2, lanes.3] { lanes.0.combine(lane.value) }
        return lanes.0.value
    }

    /// The hash of `bytes` alone.
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hasher = StableHasher()
        hasher.combine(bytes)
        return hasher.value
    }
}
