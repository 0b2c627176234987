/// How pictures are published: the widths and formats of their variants, and how hard each
/// encoder works.
public struct PictureSettings: Sendable, Hashable, Codable {
    /// The widths in pixels of the variants, in any order. Those wider than a source are
    /// published at its own width instead: never enlarged, and never less than it has.
    public var widths: [Int] = [320, 640, 960, 1280]
    /// The formats written besides the fallback (see `PictureHeader.fallbackFormat`), which
    /// a page offers in this order.
    public var formats: [PictureFormat] = [.avif, .webp]
    /// The AVIF quality, from 1 to 100 (libvips's `Q`).
    public var avifQuality = 50
    /// The WebP quality, from 1 to 100.
    public var webpQuality = 75
    /// The JPEG quality, from 1 to 100. (PNG is lossless.)
    public var jpegQuality = 80
    /// How hard the AV1 encoder tries, from 0 (fastest) to 9 (smallest files). libvips's
    /// default, 4, takes 2 to 3 times as long for files no smaller on detailed photos and
    /// a fifth smaller on smooth ones (Benchmarks/README.md, "Pictures"); 3 keeps a build
    /// of hundreds of photos within minutes.
    public var avifEffort = 3
    /// The most pixels a source may declare. Its header is checked before any pixel is
    /// decoded, so a small file that declares a huge picture cannot exhaust memory.
    public var maximumPixelCount = 100_000_000

    /// Creates the default settings.
    public init() {}

    /// The widths of a source's variants, ascending: those of `widths` no wider than it, and
    /// its own width when one is wider. Pictures are never enlarged. A source published as it
    /// is has its own width alone.
    /// - Parameter header: The source's header.
    public func variantWidths(for header: PictureHeader) -> [Int] {
        if header.format.isPublishedAsIs { return [header.width] }
        return Set(widths.filter { $0 > 0 }.map { min($0, header.width) }).sorted()
    }

    /// The formats of a source's variants: `formats`, then its fallback; of a source
    /// published as it is, its own format alone.
    /// - Parameter header: The source's header.
    public func variantFormats(for header: PictureHeader) -> [PictureFormat] {
        let fallback = header.fallbackFormat
        if header.format.isPublishedAsIs { return [fallback] }
        var chosen: [PictureFormat] = []
        for format in formats where format != fallback && !chosen.contains(format) {
            chosen.append(format)
        }
        return chosen + [fallback]
    }

    /// Sets the quality of `format` (PNG has none).
    mutating func setQuality(_ quality: Int, of format: PictureFormat) {
        switch format {
        case .avif: avifQuality = quality
        case .webp: webpQuality = quality
        case .jpeg: jpegQuality = quality
        case .png, .gif, .svg: break
        }
    }

    /// The quality libvips is given for `format`.
    func quality(of format: PictureFormat) -> Int {
        switch format {
        case .avif: avifQuality
        case .webp: webpQuality
        case .jpeg: jpegQuality
        case .png, .gif, .svg: 100
        }
    }
}
