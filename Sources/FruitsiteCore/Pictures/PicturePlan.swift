/// The files a picture is published as, with their sizes and names, known before any is
/// encoded: pages name them while the encoder works, and a variant the cache or the output
/// holds already is never encoded again.
///
/// Each name is `images/<name>-<width>.<stamp>.<ext>`, the stamp made from the source's
/// bytes and the settings that shape the variant: the encoder is deterministic, so a name
/// means the same bytes wherever it is built, a host may cache it for good, and a new photo,
/// width or quality is a new name. (The encoder's version keys the cache of variants, not
/// the names: see `PicturePublisher`.)
public struct PicturePlan: Sendable, Equatable {
    /// One variant to publish.
    public struct Variant: Sendable, Equatable {
        public var format: PictureFormat
        public var width: Int
        public var height: Int
        /// Its path in the output folder.
        public var path: String
        /// What its name is made from: the source's bytes and the settings that shape it.
        public var stamp: UInt64
    }

    /// Every variant, format by format in the settings' order (the fallback last), each
    /// format's from the narrowest: the order `PictureEncoder.encode` gives them in.
    public var variants: [Variant]

    /// The folder of every variant, below the output folder.
    public static let folder = "images/"

    /// - Parameters:
    ///   - image: The picture, as the scan read it.
    ///   - settings: How pictures are published.
    public init(_ image: FruitImage, settings: PictureSettings) {
        let header = image.header
        let widths = settings.variantWidths(for: header)
        // As the encoder makes them: the widest from the source, the others from the widest.
        let widest = widths[widths.count - 1]
        let widestHeight = Self.scaled(header.height, by: widest, of: header.width)
        let file = image.path.split(separator: "/").last ?? ""
        let name = Slug.make(from: String(file.lastIndex(of: ".").map { file[..<$0] } ?? file))
        variants = settings.variantFormats(for: header).flatMap { format in
            widths.map { width in
                var hasher = StableHasher()
                hasher.combine(image.sourceHash)
                hasher.combine("\(format.rawValue) \(width) \(settings.quality(of: format))")
                if format == .avif { hasher.combine(UInt64(settings.avifEffort)) }
                let path = ContentName.path(
                    "\(Self.folder)\(name)-\(width).\(format.fileExtension)", hash: hasher.value)
                return Variant(
                    format: format, width: width,
                    height: width == widest
                        ? widestHeight : Self.scaled(widestHeight, by: width, of: widest),
                    path: path, stamp: hasher.value)
            }
        }
    }

    /// The width a thumbnail is chosen for: a 64-pixel box at three device pixels a pixel.
    public static let thumbnailWidth = 192

    /// Each format's narrowest variant at least `thumbnailWidth` wide, or its widest when
    /// none is, the fallback last: what a card shows, and the search index holds.
    public var thumbnails: [Variant] {
        var chosen: [Variant] = []
        for variant in variants {
            if let last = chosen.last, last.format == variant.format {
                if last.width < Self.thumbnailWidth { chosen[chosen.count - 1] = variant }
            } else {
                chosen.append(variant)
            }
        }
        return chosen
    }

    /// `length` scaled as a side `from` pixels long becomes `to`: rounded to the nearest
    /// pixel, never below one, as libvips's thumbnail rounds.
    static func scaled(_ length: Int, by to: Int, of from: Int) -> Int {
        max(1, Int((Double(length) * Double(to) / Double(from)).rounded()))
    }
}
