/// Why a source picture cannot be published.
public struct PictureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// The file is none of the formats read; holds what it looks like instead
        /// ("a PDF document", "text").
        case notAPicture(looksLike: String)
        /// The format is recognised, but this libvips was built without its decoder.
        case noDecoder(PictureHeader.Format)
        /// The header declares more pixels than the settings allow.
        case tooManyPixels(width: Int, height: Int, limit: Int)
        /// The pixels could not be decoded: the file is damaged or truncated.
        case damaged(PictureHeader.Format)
        /// An SVG that is not one, has no size, or holds what could run script where it is
        /// opened; at its line and column.
        case svg(line: Int, column: Int, message: String)
        /// libvips could not write the format.
        case encodingFailed(PictureFormat)
        /// libvips is not installed, or is older than 8.14.
        case libvipsMissing
        /// libvips could not start.
        case unavailable
    }

    /// What went wrong.
    public var reason: Reason
    /// libvips's own words, when it gave any.
    public var underlying: String?

    /// Creates an error.
    /// - Parameters:
    ///   - reason: What went wrong.
    ///   - underlying: libvips's message.
    public init(_ reason: Reason, underlying: String? = nil) {
        self.reason = reason
        self.underlying = underlying
    }

    public var description: String {
        let message =
            switch reason {
            case .notAPicture(let looksLike):
                "not a JPEG, PNG, WebP, AVIF, HEIC, GIF or SVG picture: it looks like \(looksLike)"
            case .noDecoder(let format):
                "\(format.name) pictures cannot be read: libvips was built without their decoder"
            case .tooManyPixels(let width, let height, let limit):
                "the picture declares \(width) × \(height) pixels "
                    + "(\(megapixels(width * height)) megapixels), more than the "
                    + "\(megapixels(limit)) a picture may have; scale it down"
            case .damaged(let format):
                "the \(format.name) picture could not be decoded: it is damaged or truncated"
            case .svg(_, _, let message):
                message
            case .encodingFailed(let format):
                "libvips could not encode \(format.rawValue.uppercased())"
            case .libvipsMissing:
                "pictures need libvips 8.14 or later: install libvips "
                    + "(apt-get install libvips42, brew install vips)"
            case .unavailable:
                "libvips could not start"
            }
        return underlying.map { "\(message) (\($0))" } ?? message
    }

    /// Whole megapixels, rounded up, so that a picture just over a limit is not said to be
    /// at it.
    private func megapixels(_ pixels: Int) -> Int { (pixels + 999_999) / 1_000_000 }
}
