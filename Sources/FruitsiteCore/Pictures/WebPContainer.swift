import Foundation

/// The RIFF container of a WebP file, read far enough to take its metadata out.
///
/// libvips before 8.14.2 (Debian 12 has 8.14.1) ignores `strip` when it writes WebP, and
/// always adds an EXIF chunk, with any EXIF, XMP and ICC profile the picture had.
enum WebPContainer {
    /// The chunks that hold metadata, and the flag of each in the `VP8X` chunk.
    private static let metadataChunks: [String: UInt8] = ["ICCP": 0x20, "EXIF": 0x08, "XMP ": 0x04]

    /// `webp` without its ICC, EXIF and XMP chunks; as it is when it is not a WebP file
    /// this can read.
    static func removingMetadata(from webp: Data) -> Data {
        let bytes = [UInt8](webp)
        guard bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)),
            bytes[8..<12].elementsEqual("WEBP".utf8)
        else { return webp }
        var chunks: [(fourCC: String, payload: ArraySlice<UInt8>)] = []
        var offset = 12
        while offset + 8 <= bytes.count {
            let fourCC = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = (0..<4).reduce(0) { $0 | Int(bytes[offset + 4 + $1]) << (8 * $1) }
            guard offset + 8 + size <= bytes.count else { return webp }
            chunks.append((fourCC, bytes[offset + 8..<offset + 8 + size]))
            offset += 8 + size + size % 2
        }
        guard offset == bytes.count, chunks.contains(where: { metadataChunks[$0.fourCC] != nil })
        else { return webp }
        chunks.removeAll { metadataChunks[$0.fourCC] != nil }
        if let index = chunks.firstIndex(where: { $0.fourCC == "VP8X" }) {
            var payload = chunks[index].payload
            payload[payload.startIndex] &= ~metadataChunks.values.reduce(0, |)
            chunks[index].payload = payload
            // With no flag left (no alpha, no animation) the extended header says nothing,
            // and the simple format is 18 bytes smaller.
            if payload.first == 0 { chunks.remove(at: index) }
        }
        var body = Array("WEBP".utf8)
        for (fourCC, payload) in chunks {
            body += Array(fourCC.utf8) + littleEndian(payload.count) + payload
            if payload.count % 2 == 1 { body.append(0) }
        }
        return Data(Array("RIFF".utf8) + littleEndian(body.count) + body)
    }

    private static func littleEndian(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
