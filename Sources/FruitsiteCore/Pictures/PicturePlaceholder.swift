import Foundation

/// What a page shows where a picture will be until it loads, with no script: its average
/// colour and a preview of a few pixels, small enough to write into the page, which a theme
/// sets as the `<img>`'s CSS background for the browser to stretch and blur.
public struct PicturePlaceholder: Sendable, Hashable {
    /// The longer side of the preview, in pixels.
    static let previewSide = 16
    /// The most bytes `dataURI` should have, so that pages stay light with many pictures.
    static let dataURIBudget = 200
    /// The preview's WebP qualities, tried in turn until one fits the budget. The first
    /// gives 74 to 86 bytes of WebP (119 to 139 of `data:` URI) on photos 16 x 11 pixels;
    /// the others are for pictures noisier than those.
    static let previewQualities = [50, 25, 5]

    /// An SVG's: it draws itself at once, on no background.
    static let none = PicturePlaceholder(
        color: "transparent", preview: Data(), previewWidth: 0, previewHeight: 0)

    /// The picture's average colour, as `#rrggbb`; `transparent` when it has none (`none`).
    public var color: String
    /// The preview, a WebP `previewSide` pixels on its longer side.
    public var preview: Data
    /// The preview's width in pixels.
    public var previewWidth: Int
    /// The preview's height in pixels.
    public var previewHeight: Int

    /// The preview as a `data:` URI, for a `style` attribute or a stylesheet.
    public var dataURI: String { Self.dataURI(of: preview) }

    private static func dataURI(of webp: Data) -> String {
        "data:\(PictureFormat.webp.mediaType);base64,\(webp.base64EncodedString())"
    }

    /// A placeholder as made before.
    public init(color: String, preview: Data, previewWidth: Int, previewHeight: Int) {
        self.color = color
        self.preview = preview
        self.previewWidth = previewWidth
        self.previewHeight = previewHeight
    }

    /// Makes the placeholder of a decoded picture.
    /// - Throws: libvips's message.
    init(of picture: Vips.Image) throws(Vips.Failure) {
        let vips = picture.vips
        let small = try vips.shrink(picture, toFitSquare: Self.previewSide)
        var preview = Data()
        for quality in Self.previewQualities {
            preview = try vips.encode(small, as: .webp, quality: quality, effort: 6)
            if Self.dataURI(of: preview).utf8.count <= Self.dataURIBudget { break }
        }
        self.preview = preview
        (previewWidth, previewHeight) = (small.width, small.height)
        // The preview's pixels are averages of the picture's areas, so theirs is the
        // picture's average too.
        color = Self.averageColor(of: try vips.pixels(of: small), bands: small.bands)
    }

    /// The average of 8-bit sRGB pixels (`bands` 3, or 4 with alpha) as `#rrggbb`, each
    /// pixel counted as much as it is opaque.
    static func averageColor(of pixels: [UInt8], bands: Int) -> String {
        var sums = [0, 0, 0]
        var weight = 0
        for start in stride(from: 0, to: pixels.count - bands + 1, by: bands) {
            let opacity = bands == 4 ? Int(pixels[start + 3]) : 255
            for channel in 0..<3 { sums[channel] += Int(pixels[start + channel]) * opacity }
            weight += opacity
        }
        guard weight > 0 else { return "#000000" }
        // Rounded to the nearest value, not down.
        let channels = sums.map { ($0 * 2 + weight) / (weight * 2) }
        return "#" + channels.map { String(format: "%02x", $0) }.joined()
    }
}
