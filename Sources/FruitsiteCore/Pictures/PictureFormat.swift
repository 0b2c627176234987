/// A format fruitsite writes pictures in.
public enum PictureFormat: String, Sendable, Hashable, CaseIterable, Codable {
    case avif, webp, jpeg, png
    /// A GIF or an SVG is published as it is (`PictureHeader.Format.isPublishedAsIs`).
    case gif, svg

    /// The file name extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .avif: "avif"
        case .webp: "webp"
        case .jpeg: "jpg"
        case .png: "png"
        case .gif: "gif"
        case .svg: "svg"
        }
    }

    /// The media type, as a `<source type>` or a `data:` URI gives it.
    public var mediaType: String {
        switch self {
        case .avif: "image/avif"
        case .webp: "image/webp"
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .svg: "image/svg+xml"
        }
    }
}
