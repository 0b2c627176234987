/// What a source picture's header says, read without decoding its pixels.
public struct PictureHeader: Sendable, Hashable {
    /// A format fruitsite reads pictures in.
    public enum Format: String, Sendable, Hashable {
        case jpeg, png, webp, avif
        /// HEIF with HEVC, as phones take photos; browsers other than Safari do not show it,
        /// so it is read but never written.
        case heic

        /// Its name as people write it: "JPEG", "WebP".
        public var name: String {
            switch self {
            case .jpeg: "JPEG"
            case .png: "PNG"
            case .webp: "WebP"
            case .avif: "AVIF"
            case .heic: "HEIC"
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
    /// or PNG; for other sources PNG when there is transparency to keep, JPEG otherwise.
    public var fallbackFormat: PictureFormat {
        switch format {
        case .jpeg: .jpeg
        case .png: .png
        case .webp, .avif, .heic: hasAlpha ? .png : .jpeg
        }
    }
}
