import Foundation

/// What a file's first bytes say it is. Only the formats read get as far as libvips, so no
/// other loader runs on a file whatever its name says; an SVG never does (`SVGSource`).
enum PictureSignature {
    /// The picture format `bytes` begin as.
    /// - Throws: `notAPicture`, with what the file looks like instead.
    static func format(of bytes: Data) throws(PictureError) -> PictureHeader.Format {
        let head = [UInt8](bytes.prefix(1024))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + signature.count
                && head[offset..<offset + signature.count].elementsEqual(signature)
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("ftyp".utf8), at: 4) {
            let brands = Self.brands(of: head)
            if !brands.isDisjoint(with: ["avif", "avis"]) { return .avif }
            if !brands.isDisjoint(with: ["heic", "heix", "heim", "heis", "mif1", "msf1"]) {
                return .heic
            }
            throw PictureError(.notAPicture(looksLike: "a video or another ISO media file"))
        }
        let kind = Self.kind(of: head)
        if kind == Self.svgKind { return .svg }
        throw PictureError(.notAPicture(looksLike: kind))
    }

    private static let svgKind = "an SVG drawing"

    /// The major and compatible brands of an ISO media file's `ftyp` box.
    private static func brands(of head: [UInt8]) -> Set<String> {
        let size = head.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        let end = min(size, head.count)
        let offsets = [8] + Array(stride(from: 16, to: end - 3, by: 4))
        return Set(
            offsets.filter { $0 + 4 <= end }.map {
                String(decoding: head[$0..<$0 + 4], as: UTF8.self)
            })
    }

    /// What a file that is no picture read looks like: "a PDF document", "text".
    private static func kind(of head: [UInt8]) -> String {
        let signatures: [(bytes: [UInt8], kind: String)] = [
            (Array("%PDF".utf8), "a PDF document"),
            ([0x49, 0x49, 0x2A, 0x00], "a TIFF picture"),
            ([0x4D, 0x4D, 0x00, 0x2A], "a TIFF picture"),
            ([0xFF, 0x0A], "a JPEG XL picture"),
            ([0x00, 0x00, 0x00, 0x0C] + Array("JXL ".utf8), "a JPEG XL picture"),
            (Array("8BPS".utf8), "a Photoshop document"),
            (Array("PK".utf8) + [0x03, 0x04], "a ZIP archive"),
        ]
        if head.isEmpty { return "an empty file" }
        if let known = signatures.first(where: { head.starts(with: $0.bytes) }) {
            return known.kind
        }
        // Text, unless a control character other than blanks says otherwise. A multi-byte
        // character cut off at the end of `head` still counts as text.
        let isText =
            !head.contains { $0 < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains($0) }
            && (0...3).contains { String(validating: head.dropLast($0), as: UTF8.self) != nil }
        guard isText else { return "data of another kind" }
        let text = String(decoding: head, as: UTF8.self).lowercased()
        if text.contains("<svg") { return svgKind }
        if text.contains("<html") || text.contains("<!doctype html") { return "an HTML page" }
        return "text"
    }
}
