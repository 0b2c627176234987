import CVips
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// libvips, loaded and started once per process, at the first picture.
///
/// libvips is loaded with `dlopen` rather than linked: its hundred libraries would slow the
/// start of every run, even one with no picture. All unsafe libvips calls live in this file,
/// through the functions `Sources/CVips/shim.h` loads, and its variadic operations through
/// that file's fixed-argument wrappers.
struct Vips: @unchecked Sendable {  // its functions are filled once, then only read
    /// libvips's functions, loaded for the life of the process, for the wrappers of shim.h.
    let functions: UnsafePointer<FruitsiteVips>

    /// libvips's functions, to call.
    var c: FruitsiteVips { functions.pointee }

    /// Why a libvips call failed, in libvips's words.
    struct Failure: Error {
        var message: String?
    }

    /// The message libvips left for the last failure, which is then cleared. The buffer is
    /// shared by every thread: when two pictures fail at once, either may get both.
    var lastFailure: Failure {
        guard let buffer = c.vips_error_buffer_copy() else { return Failure() }
        defer { c.g_free(buffer) }
        let message = String(cString: buffer).trimmingCharacters(in: .whitespacesAndNewlines)
        return Failure(message: message.isEmpty ? nil : message)
    }

    /// An image libvips holds, released with the last reference to it.
    final class Image {
        let vips: Vips
        fileprivate let pointer: OpaquePointer

        fileprivate init(_ pointer: OpaquePointer, in vips: Vips) {
            self.pointer = pointer
            self.vips = vips
        }

        deinit { vips.c.g_object_unref(UnsafeMutableRawPointer(pointer)) }

        var width: Int { Int(vips.c.vips_image_get_width(pointer)) }
        var height: Int { Int(vips.c.vips_image_get_height(pointer)) }
        /// Its channels: 3 for sRGB, 4 with alpha.
        var bands: Int { Int(vips.c.vips_image_get_bands(pointer)) }
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

    /// libvips once loaded and started, or why it could not be.
    private static let started: Result<Vips, PictureError> = startOnce()

    private static func startOnce() -> Result<Vips, PictureError> {
        let functions = UnsafeMutablePointer<FruitsiteVips>.allocate(capacity: 1)
        if let missing = fruitsite_vips_load(functions) {
            functions.deallocate()  // partly filled
            return .failure(PictureError(.libvipsMissing, underlying: String(cString: missing)))
        }
        let vips = Vips(functions: functions)
        let c = vips.c
        guard (c.vips_version(0), c.vips_version(1)) >= (8, 14) else {
            return .failure(
                PictureError(.libvipsMissing, underlying: "found libvips \(vips.version)"))
        }
        guard c.vips_init("fruitsite") == 0 else {
            return .failure(PictureError(.unavailable, underlying: vips.lastFailure.message))
        }
        // Debian's libvips also loads through ImageMagick, poppler, librsvg, OpenSlide and
        // others, far larger attack surfaces than the JPEG, PNG, WebP and HEIF loaders;
        // libvips marks those untrusted, and this keeps them from ever running.
        c.vips_block_untrusted_set(1)
        // Each source is decoded once, so cached operations would only hold memory.
        c.vips_cache_set_max(0)
        // One worker per picture: callers encode a picture per core, and every thread more
        // holds more pixels at once. (aom, under libheif, may add threads of its own at
        // efforts above 4.)
        c.vips_concurrency_set(1)
        // Loaders warn on stderr about what they ignore ("ignoring nclx profile"); a build
        // reports what fails through its errors instead.
        let levels = FRUITSITE_G_LOG_LEVEL_WARNING | FRUITSITE_G_LOG_LEVEL_MESSAGE
        _ = c.g_log_set_handler("VIPS", levels, { _, _, _, _ in }, nil)
        return .success(vips)
    }

    /// One picture at a time goes through libvips. Two at once, a picture read on one
    /// thread while others were encoded, once corrupted the heap (glibc: "malloc_consolidate():
    /// unaligned fastbin chunk detected"); libvips's own worker (`vips_concurrency_set`) still
    /// works beside the caller.
    private static let lock = NSLock()

    /// Runs `body`, which uses libvips, while no other thread does.
    static func exclusively<Value, Failure: Error>(
        _ body: () throws(Failure) -> Value
    ) throws(Failure) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Loads and starts libvips, once: later calls return the same.
    /// - Throws: `PictureError` when libvips is not installed, is older than 8.14 or cannot
    ///   start.
    static func start() throws(PictureError) -> Vips {
        try started.get()
    }

    /// Whether this libvips has the operation: "heifload_buffer", "heifsave_buffer".
    func has(_ operation: String) -> Bool {
        c.vips_type_find("VipsOperation", operation) != 0
    }

    // MARK: - Decoding

    /// Reads the header of a picture in memory without decoding its pixels.
    /// - Throws: libvips's message when no trusted loader reads it.
    func header(of bytes: Data) throws(Failure) -> Header {
        let result = bytes.withUnsafeBytes { buffer -> Result<Header, Failure> in
            guard
                let image = fruitsite_vips_open_buffer(functions, buffer.baseAddress, buffer.count)
            else { return .failure(lastFailure) }
            defer { c.g_object_unref(UnsafeMutableRawPointer(image)) }
            var loader: UnsafePointer<CChar>?
            _ = c.vips_image_get_string(image, "vips-loader", &loader)
            return .success(
                Header(
                    width: Int(c.vips_image_get_width(image)),
                    height: Int(c.vips_image_get_height(image)),
                    isTurned: c.vips_image_get_orientation_swap(image) != 0,
                    hasAlpha: c.vips_image_hasalpha(image) != 0,
                    hasProfile: c.vips_image_get_typeof(image, "icc-profile-data") != 0,
                    loader: loader.map { String(cString: $0) } ?? ""))
        }
        return try result.get()
    }

    /// Decodes a picture in memory, upright, in 8-bit sRGB, `width` pixels wide (or its own
    /// width when narrower), and keeps its pixels in memory for every variant to share.
    /// - Parameter hasProfile: Whether the header says it embeds an ICC profile, which
    ///   converts it to sRGB.
    /// - Throws: libvips's message when the data is damaged.
    func decode(_ bytes: Data, width: Int, hasProfile: Bool) throws(Failure) -> Image {
        let result = bytes.withUnsafeBytes { buffer -> Result<Image, Failure> in
            var decoded: OpaquePointer?
            let start = UnsafeMutableRawPointer(mutating: buffer.baseAddress)
            guard
                fruitsite_vips_thumbnail_buffer(
                    functions, start, buffer.count, Int32(width), hasProfile ? 1 : 0, &decoded)
                    == 0,
                let decoded
            else { return .failure(lastFailure) }
            defer { c.g_object_unref(UnsafeMutableRawPointer(decoded)) }
            var srgb: OpaquePointer?
            guard fruitsite_vips_srgb(functions, decoded, &srgb) == 0, let srgb else {
                return .failure(lastFailure)
            }
            defer { c.g_object_unref(UnsafeMutableRawPointer(srgb)) }
            // The pipeline reads `bytes`, so it runs here, while they are alive.
            guard let pixels = c.vips_image_copy_memory(srgb) else {
                return .failure(lastFailure)
            }
            return .success(Image(pixels, in: self))
        }
        return try result.get()
    }

    /// `image` shrunk to `width` pixels wide, never enlarged. Its pixels are computed when it
    /// is encoded.
    /// - Throws: libvips's message.
    func shrink(_ image: Image, toWidth width: Int) throws(Failure) -> Image {
        try shrink(image, toFit: width, Int(FRUITSITE_VIPS_MAX_COORD))
    }

    /// `image` shrunk so that its longer side is `side` pixels, never enlarged.
    /// - Throws: libvips's message.
    func shrink(_ image: Image, toFitSquare side: Int) throws(Failure) -> Image {
        try shrink(image, toFit: side, side)
    }

    private func shrink(_ image: Image, toFit width: Int, _ height: Int) throws(Failure) -> Image {
        var shrunk: OpaquePointer?
        guard
            fruitsite_vips_thumbnail_image(
                functions, image.pointer, Int32(width), Int32(height), &shrunk) == 0,
            let shrunk
        else { throw lastFailure }
        return Image(shrunk, in: self)
    }

    /// The pixels of an 8-bit image, row by row, `bands` bytes each.
    /// - Throws: libvips's message.
    func pixels(of image: Image) throws(Failure) -> [UInt8] {
        var count = 0
        guard let pixels = c.vips_image_write_to_memory(image.pointer, &count) else {
            throw lastFailure
        }
        defer { c.g_free(pixels) }
        return Array(UnsafeRawBufferPointer(start: pixels, count: count))
    }

    // MARK: - Encoding

    /// Encodes `image` with no metadata at all: no EXIF (and so no GPS position), XMP, IPTC
    /// or ICC profile.
    /// - Parameters:
    ///   - quality: libvips's Q, from 1 to 100; PNG ignores it.
    ///   - effort: The encoder's effort: AVIF from 0 to 9, WebP 0 to 6; JPEG and PNG ignore it.
    /// - Throws: libvips's message.
    func encode(_ image: Image, as format: PictureFormat, quality: Int, effort: Int)
        throws(Failure) -> Data
    {
        let vipsFormat: FruitsiteVipsFormat =
            switch format {
            case .avif: FRUITSITE_VIPS_AVIF
            case .webp: FRUITSITE_VIPS_WEBP
            case .jpeg: FRUITSITE_VIPS_JPEG
            case .png: FRUITSITE_VIPS_PNG
            case .gif, .svg: preconditionFailure("a GIF or an SVG is published as it is")
            }
        // A new image of the pixels alone, with no metadata field to write: libvips 8.14.1's
        // WebP saver rebuilds the EXIF block of the image it is given, whatever `strip`
        // says, and read a block freed under it (AddressSanitizer), and ignores `strip`.
        let pixels = try pixels(of: image)
        guard
            let bare = c.vips_image_new_from_memory_copy(
                pixels, pixels.count, Int32(image.width), Int32(image.height),
                Int32(image.bands), FRUITSITE_VIPS_FORMAT_UCHAR)
        else { throw lastFailure }
        defer { c.g_object_unref(UnsafeMutableRawPointer(bare)) }
        c.vips_image_init_fields(
            bare, Int32(image.width), Int32(image.height), Int32(image.bands),
            FRUITSITE_VIPS_FORMAT_UCHAR, FRUITSITE_VIPS_CODING_NONE,
            FRUITSITE_VIPS_INTERPRETATION_sRGB, 1, 1)
        var bytes: UnsafeMutableRawPointer?
        var count = 0
        let strip: gboolean = 1
        guard
            fruitsite_vips_save(
                functions, bare, vipsFormat, Int32(quality), Int32(effort), strip, &bytes,
                &count) == 0,
            let bytes
        else { throw lastFailure }
        defer { c.g_free(bytes) }
        let encoded = Data(bytes: bytes, count: count)
        return format == .webp ? WebPContainer.removingMetadata(from: encoded) : encoded
    }

    // MARK: - Versions

    /// libvips's version: "8.14.1".
    var version: String { c.vips_version_string().map { String(cString: $0) } ?? "" }

    /// libvips's version and those of the codecs it loaded that say theirs:
    /// "libvips 8.14.1, libheif 1.15.1, aom 3.6.0, libwebp 1.2.4, libpng 1.6.39".
    var versions: String {
        var versions = ["libvips " + version]
        // The codecs are found by name among the loaded libraries (libvips is loaded
        // RTLD_GLOBAL, and its HEIF module as it starts), as libvips offers no way to ask
        // them; one not found is left out.
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
    }
}
