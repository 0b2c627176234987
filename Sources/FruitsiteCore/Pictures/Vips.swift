import CVips
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// libvips, started once per process.
///
/// All unsafe libvips calls live in this file; its variadic operations are called through
/// the fixed-argument wrappers of `Sources/CVips/shim.h`.
enum Vips {
    /// Why a libvips call failed, in libvips's words.
    struct Failure: Error {
        var message: String?

        /// The message libvips left for the last failure, which is then cleared. The buffer
        /// is shared by every thread: when two pictures fail at once, either may get both.
        static var last: Failure {
            guard let buffer = vips_error_buffer_copy() else { return Failure() }
            defer { g_free(buffer) }
            let message = String(cString: buffer).trimmingCharacters(in: .whitespacesAndNewlines)
            return Failure(message: message.isEmpty ? nil : message)
        }
    }

    /// An image libvips holds, released with the last reference to it.
    final class Image {
        fileprivate let pointer: UnsafeMutablePointer<VipsImage>

        fileprivate init(_ pointer: UnsafeMutablePointer<VipsImage>) {
            self.pointer = pointer
        }

        deinit { g_object_unref(pointer) }

        var width: Int { Int(vips_image_get_width(pointer)) }
        var height: Int { Int(vips_image_get_height(pointer)) }
        /// Its channels: 3 for sRGB, 4 with alpha.
        var bands: Int { Int(vips_image_get_bands(pointer)) }
    }

    /// What a picture's header says, before any pixel is decoded.
    struct Header {
        /// The size as stored, before the EXIF orientation turns it.
        var width: Int
        var height: Int
        /// Whether the EXIF orientation turns the picture a quarter, swapping its sides.
        var isTurned: Bool
        var hasAlpha: Bool
        /// Whether it embeds an ICC profile.
        var hasProfile: Bool
        /// The libvips loader that read it: "jpegload_buffer", "heifload_buffer" …
        var loader: String
    }

    // MARK: - Starting

    /// Nil once libvips has started, or why it could not.
    private static let startFailure: Failure? = startOnce()

    private static func startOnce() -> Failure? {
        guard vips_init("fruitsite") == 0 else { return Failure.last }
        // Debian's libvips also loads through ImageMagick, poppler, librsvg, OpenSlide and
        // others, far larger attack surfaces than the JPEG, PNG, WebP and HEIF loaders;
        // libvips marks those untrusted, and this keeps them from ever running.
        vips_block_untrusted_set(1)
        // Each source is decoded once, so cached operations would only hold memory.
        vips_cache_set_max(0)
        // One worker per picture: callers encode a picture per core, and every thread more
        // holds more pixels at once. (aom, under libheif, may add threads of its own at
        // efforts above 4.)
        vips_concurrency_set(1)
        // Loaders warn on stderr about what they ignore ("ignoring nclx profile"); a build
        // reports what fails through its errors instead.
        let levels = G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_MESSAGE.rawValue
        g_log_set_handler("VIPS", GLogLevelFlags(rawValue: levels), { _, _, _, _ in }, nil)
        return nil
    }

    /// Starts libvips, once.
    /// - Throws: Why it could not start.
    static func start() throws(Failure) {
        if let startFailure { throw startFailure }
    }

    /// Whether this libvips has the operation: "heifload_buffer", "heifsave_buffer".
    static func has(_ operation: String) -> Bool {
        vips_type_find("VipsOperation", operation) != 0
    }

    // MARK: - Decoding

    /// Reads the header of a picture in memory without decoding its pixels.
    /// - Throws: libvips's message when no trusted loader reads it.
    static func header(of bytes: Data) throws(Failure) -> Header {
        let result = bytes.withUnsafeBytes { buffer -> Result<Header, Failure> in
            guard let image = fruitsite_vips_open_buffer(buffer.baseAddress, buffer.count) else {
                return .failure(.last)
            }
            defer { g_object_unref(image) }
            var loader: UnsafePointer<CChar>?
            _ = vips_image_get_string(image, "vips-loader", &loader)
            return .success(
                Header(
                    width: Int(vips_image_get_width(image)),
                    height: Int(vips_image_get_height(image)),
                    isTurned: vips_image_get_orientation_swap(image) != 0,
                    hasAlpha: vips_image_hasalpha(image) != 0,
                    hasProfile: vips_image_get_typeof(image, "icc-profile-data") != 0,
                    loader: loader.map { String(cString: $0) } ?? ""))
        }
        return try result.get()
    }

    /// Decodes a picture in memory, upright, in 8-bit sRGB, `width` pixels wide (or its own
    /// width when narrower), and keeps its pixels in memory for every variant to share.
    /// - Parameter hasProfile: Whether the header says it embeds an ICC profile, which
    ///   converts it to sRGB.
    /// - Throws: libvips's message when the data is damaged.
    static func decode(_ bytes: Data, width: Int, hasProfile: Bool) throws(Failure) -> Image {
        let result = bytes.withUnsafeBytes { buffer -> Result<Image, Failure> in
            var decoded: UnsafeMutablePointer<VipsImage>?
            let start = UnsafeMutableRawPointer(mutating: buffer.baseAddress)
            guard
                fruitsite_vips_thumbnail_buffer(
                    start, buffer.count, Int32(width), hasProfile ? 1 : 0, &decoded) == 0,
                let decoded
            else { return .failure(.last) }
            defer { g_object_unref(decoded) }
            var srgb: UnsafeMutablePointer<VipsImage>?
            guard fruitsite_vips_srgb(decoded, &srgb) == 0, let srgb else {
                return .failure(.last)
            }
            defer { g_object_unref(srgb) }
            // The pipeline reads `bytes`, so it runs here, while they are alive.
            guard let pixels = vips_image_copy_memory(srgb) else { return .failure(.last) }
            return .success(Image(pixels))
        }
        return try result.get()
    }

    /// `image` shrunk to `width` pixels wide, never enlarged. Its pixels are computed when it
    /// is encoded.
    /// - Throws: libvips's message.
    static func shrink(_ image: Image, toWidth width: Int) throws(Failure) -> Image {
        try shrink(image, toFit: width, Int(VIPS_MAX_COORD))
    }

    /// `image` shrunk so that its longer side is `side` pixels, never enlarged.
    /// - Throws: libvips's message.
    static func shrink(_ image: Image, toFitSquare side: Int) throws(Failure) -> Image {
        try shrink(image, toFit: side, side)
    }

    private static func shrink(_ image: Image, toFit width: Int, _ height: Int) throws(Failure)
        -> Image
    {
        var shrunk: UnsafeMutablePointer<VipsImage>?
        guard
            fruitsite_vips_thumbnail_image(image.pointer, Int32(width), Int32(height), &shrunk)
                == 0, let shrunk
        else { throw .last }
        return Image(shrunk)
    }

    /// The pixels of an 8-bit image, row by row, `bands` bytes each.
    /// - Throws: libvips's message.
    static func pixels(of image: Image) throws(Failure) -> [UInt8] {
        var count = 0
        guard let pixels = vips_image_write_to_memory(image.pointer, &count) else { throw .last }
        defer { g_free(pixels) }
        return Array(UnsafeRawBufferPointer(start: pixels, count: count))
    }

    // MARK: - Encoding

    /// Encodes `image` with no metadata at all: no EXIF (and so no GPS position), XMP, IPTC
    /// or ICC profile.
    /// - Parameters:
    ///   - quality: libvips's Q, from 1 to 100; PNG ignores it.
    ///   - effort: The encoder's effort: AVIF from 0 to 9, WebP 0 to 6; JPEG and PNG ignore it.
    /// - Throws: libvips's message.
    static func encode(_ image: Image, as format: PictureFormat, quality: Int, effort: Int)
        throws(Failure) -> Data
    {
        let vipsFormat: FruitsiteVipsFormat =
            switch format {
            case .avif: FRUITSITE_VIPS_AVIF
            case .webp: FRUITSITE_VIPS_WEBP
            case .jpeg: FRUITSITE_VIPS_JPEG
            case .png: FRUITSITE_VIPS_PNG
            }
        var bytes: UnsafeMutableRawPointer?
        var count = 0
        let strip: gboolean = 1
        guard
            fruitsite_vips_save(
                image.pointer, vipsFormat, Int32(quality), Int32(effort), strip, &bytes, &count)
                == 0, let bytes
        else { throw .last }
        defer { g_free(bytes) }
        let encoded = Data(bytes: bytes, count: count)
        return format == .webp ? WebPContainer.removingMetadata(from: encoded) : encoded
    }

    // MARK: - Versions

    /// libvips's version and those of the codecs it loaded that say theirs:
    /// "libvips 8.14.1, libheif 1.15.1, aom 3.6.0, libwebp 1.2.4, libpng 1.6.39".
    static let versions: String = {
        _ = startFailure  // the HEIF module is loaded as libvips starts
        var versions = ["libvips " + String(cString: vips_version_string())]
        // The codecs are found by name among the loaded libraries, as libvips offers no
        // way to ask them; one not found is left out.
        let process = dlopen(nil, RTLD_LAZY)
        func symbol<Function>(_ name: String, as type: Function.Type) -> Function? {
            dlsym(process, name).map { unsafeBitCast($0, to: type) }
        }
        typealias VersionString = @convention(c) () -> UnsafePointer<CChar>?
        if let heif = symbol("heif_get_version", as: VersionString.self), let text = heif() {
            versions.append("libheif " + String(cString: text))
        }
        if let aom = symbol("aom_codec_version_str", as: VersionString.self), let text = aom() {
            let version = String(cString: text)  // "v3.6.0"
            versions.append("aom " + (version.hasPrefix("v") ? version.dropFirst() : version[...]))
        }
        typealias VersionNumber = @convention(c) () -> Int32
        if let webp = symbol("WebPGetEncoderVersion", as: VersionNumber.self) {
            let number = webp()
            versions.append("libwebp \(number >> 16).\((number >> 8) & 0xFF).\(number & 0xFF)")
        }
        typealias PNGVersion = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
        if let png = symbol("png_get_libpng_ver", as: PNGVersion.self), let text = png(nil) {
            versions.append("libpng " + String(cString: text))
        }
        return versions.joined(separator: ", ")
    }()
}
