/// What a source picture's header says, read without decoding its pixels.
public struct PictureHeader: Sendable, Hashable {
    /// A format fruitsite reads pictures in.
    public enum Format: String, Sendable, Hashable {
        case jpeg, png, webp, avif
        /// HEIF with HEVC, as phones take photos; browsers other than Safari do not show it,
        /// so it is read but never written.
        case heic
        /// Published as they are (`isPublishedAsIs`): a GIF may be animated, and an SVG is
        /// sharp at every width.
        case gif, svg

        /// Whether a source of this format is published as it is, at its own size, rather
        /// than encoded at the settings' widths and formats. A GIF loses only its metadata
        /// (`GIFContainer`); an SVG is read for its size and for script (`SVGSource`).
        public var isPublishedAsIs: Bool { self == .gif || self == .svg }

        /// Its name as people write it: "JPEG", "WebP".
        public var name: String {
            switch self {
            case .jpeg: "JPEG"
            case .png: "PNG"
            case .webp: "WebP"
            case .avif: "AVIF"
            case .heic: "HEIC"
            case .gif: "GIF"
            case .svg: "SVG"
            }
        }
    }

    /// The source's format.
    public var format: Format
    /// The width in pixels, upright: after the EXIF orientation turns the picture.
    public var width: Int
    /// The height in pixels, upright.
    public var height: Int
    /// Whether the picture has an alpha channel.
    public var hasAlpha: Bool

    /// Creates a header.
    /// - Parameters:
    ///   - format: The source's format.
    ///   - width: The upright width in pixels.
    ///   - height: The upright height in pixels.
    ///   - hasAlpha: Whether it has an alpha channel.
    public init(format: Format, width: Int, height: Int, hasAlpha: Bool) {
        self.format = format
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
    }

    /// The format every browser shows, written beside the modern ones: the source's own JPEG
    /// or PNG; for other sources PNG when there is transparency to keep, JPEG otherwise; a
    /// source published as it is, its own format alone.
    public var fallbackFormat: PictureFormat {
        switch format {
        case .jpeg: .jpeg
        case .png: .png
        case .gif: .gif
        case .svg: .svg
        case .webp, .avif, .heic: hasAlpha ? .png : .jpeg
        }
    }
}
