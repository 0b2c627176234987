import Foundation

/// Publishes a source picture: decodes it once, shrunk as it loads to the widest variant,
/// then encodes every width in every format from those pixels, and makes its placeholder.
///
/// The variants are upright, in sRGB, and carry no metadata (EXIF, GPS, XMP, IPTC). The
/// same source, settings and `encoderVersion` give the same bytes.
public struct PictureEncoder: Sendable {
    /// The widths, formats and qualities.
    public var settings: PictureSettings

    /// Creates an encoder.
    /// - Parameter settings: The widths, formats and qualities.
    public init(settings: PictureSettings = PictureSettings()) {
        self.settings = settings
    }

    /// What else than the source and the settings the variants' bytes depend on: the
    /// versions of libvips and of the codecs it uses, for a cache of variants to key on.
    /// - Throws: `PictureError` when libvips cannot be loaded.
    public static var encoderVersion: String {
        get throws(PictureError) { try Vips.start().versions }
    }

    /// Reads a source picture's header, without decoding its pixels.
    /// - Parameter source: The source file's bytes.
    /// - Throws: `PictureError` when it is no picture read, has no decoder here, is damaged
    ///   or declares more pixels than the settings allow.
    public func readHeader(of source: Data) throws(PictureError) -> PictureHeader {
        if try PictureSignature.format(of: source) == .svg {
            return try Self.svgHeader(of: source, allowsScripts: true)
        }
        return try Vips.exclusively { () throws(PictureError) in
            try readHeaders(of: source).header
        }
    }

    /// The source's header, and what libvips read of it.
    private func readHeaders(of source: Data) throws(PictureError) -> (
        header: PictureHeader, read: Vips.Header
    ) {
        let format = try PictureSignature.format(of: source)
        let vips = try Vips.start()
        if [.avif, .heic].contains(format), !vips.has("heifload_buffer") {
            throw PictureError(.noDecoder(format))
        }
        let read = try attempt(.damaged(format)) { () throws(Vips.Failure) in
            try vips.header(of: source)
        }
        // The signature chose the loader libvips should have; another would mean a loader
        // this file was not checked for.
        let loader = [.avif, .heic].contains(format) ? "heifload" : format.rawValue + "load"
        guard read.loader.hasPrefix(loader) else {
            throw PictureError(.damaged(format), underlying: "read by \(read.loader)")
        }
        let header = PictureHeader(
            format: format,
            width: read.isTurned ? read.height : read.width,
            height: read.isTurned ? read.width : read.height,
            hasAlpha: read.hasAlpha)
        let pixels = header.width.multipliedReportingOverflow(by: header.height)
        guard !pixels.overflow, pixels.partialValue <= settings.maximumPixelCount else {
            throw PictureError(
                .tooManyPixels(
                    width: header.width, height: header.height,
                    limit: settings.maximumPixelCount))
        }
        return (header, read)
    }

    /// Reads a source's header and makes its placeholder, decoding the picture at a few
    /// pixels only (the decoders shrink as they load): what a page that shows the picture
    /// needs, known before any variant is encoded.
    /// An SVG is read for its size and for script, and has no placeholder.
    /// - Parameters:
    ///   - source: The source file's bytes.
    ///   - allowsScripts: Whether an SVG may hold script (the config's `rawHTML`).
    /// - Throws: `PictureError`, as `readHeader(of:)` does, or when it cannot be decoded.
    public func describe(_ source: Data, allowsScripts: Bool) throws(PictureError) -> (
        header: PictureHeader, placeholder: PicturePlaceholder
    ) {
        if try PictureSignature.format(of: source) == .svg {
            return (try Self.svgHeader(of: source, allowsScripts: allowsScripts), .none)
        }
        return try Vips.exclusively { () throws(PictureError) in try describing(source) }
    }

    private func describing(_ source: Data) throws(PictureError) -> (
        header: PictureHeader, placeholder: PicturePlaceholder
    ) {
        let (header, read) = try readHeaders(of: source)
        let vips = try Vips.start()
        let small = try attempt(.damaged(header.format)) { () throws(Vips.Failure) in
            try vips.decode(
                source, width: min(header.width, 4 * PicturePlaceholder.previewSide),
                hasProfile: read.hasProfile)
        }
        let placeholder = try attempt(.encodingFailed(.webp)) { () throws(Vips.Failure) in
            try PicturePlaceholder(of: small)
        }
        return (header, placeholder)
    }

    /// Encodes a source picture's variants and placeholder. A GIF's one variant is itself
    /// without its metadata, an SVG's itself.
    /// - Parameter source: The source file's bytes: JPEG, PNG, WebP, AVIF, HEIC, GIF or SVG.
    /// - Returns: Its header, its variants and its placeholder.
    /// - Throws: `PictureError`, as `readHeader(of:)` does, or when it cannot be decoded or
    ///   encoded.
    public func encode(_ source: Data) throws(PictureError) -> EncodedPicture {
        if try PictureSignature.format(of: source) == .svg {
            // Checked for script as its entry was read: the publisher checks the bytes are those.
            let header = try Self.svgHeader(of: source, allowsScripts: true)
            return EncodedPicture(
                header: header,
                variants: [
                    PictureVariant(
                        format: .svg, width: header.width, height: header.height, bytes: source)
                ],
                placeholder: .none)
        }
        return try Vips.exclusively { () throws(PictureError) in try encoding(source) }
    }

    private func encoding(_ source: Data) throws(PictureError) -> EncodedPicture {
        if try PictureSignature.format(of: source) == .gif {
            let (header, placeholder) = try describing(source)
            guard let bytes = GIFContainer.removingMetadata(from: [UInt8](source)) else {
                throw PictureError(.damaged(.gif), underlying: "its blocks are not a GIF's")
            }
            let variant = PictureVariant(
                format: .gif, width: header.width, height: header.height, bytes: Data(bytes))
            return EncodedPicture(header: header, variants: [variant], placeholder: placeholder)
        }
        let (header, read) = try readHeaders(of: source)
        let vips = try Vips.start()
        let widths = settings.variantWidths(for: header)
        let formats = settings.variantFormats(for: header)
        if formats.contains(.avif), !vips.has("heifsave_buffer") {
            throw PictureError(
                .encodingFailed(.avif), underlying: "libvips was built without an AVIF encoder")
        }
        let widest = try attempt(.damaged(header.format)) { () throws(Vips.Failure) in
            try vips.decode(source, width: widths[widths.count - 1], hasProfile: read.hasProfile)
        }
        // Each narrower width is shrunk from the widest, not decoded again.
        let sized = try widths.dropLast().map { width throws(PictureError) in
            try attempt(.damaged(header.format)) { () throws(Vips.Failure) in
                try vips.shrink(widest, toWidth: width)
            }
        }
        var variants: [PictureVariant] = []
        for format in formats {
            for image in sized + [widest] {
                let bytes = try attempt(.encodingFailed(format)) { () throws(Vips.Failure) in
                    try vips.encode(
                        image, as: format, quality: settings.quality(of: format),
                        effort: format == .avif ? settings.avifEffort : 4)
                }
                variants.append(
                    PictureVariant(
                        format: format, width: image.width, height: image.height, bytes: bytes))
            }
        }
        let placeholder = try attempt(.encodingFailed(.webp)) { () throws(Vips.Failure) in
            try PicturePlaceholder(of: widest)
        }
        return EncodedPicture(header: header, variants: variants, placeholder: placeholder)
    }

    /// An SVG's header: its size, as its root element gives it.
    private static func svgHeader(of source: Data, allowsScripts: Bool) throws(PictureError)
        -> PictureHeader
    {
        do {
            let svg = try SVGSource([UInt8](source), allowsScripts: allowsScripts)
            return PictureHeader(format: .svg, width: svg.width, height: svg.height, hasAlpha: true)
        } catch {
            throw PictureError(
                .svg(line: error.line, column: error.column, message: error.message))
        }
    }

    /// Runs a libvips step, giving its failure the reason for this step.
    private func attempt<Value>(
        _ reason: PictureError.Reason, _ step: () throws(Vips.Failure) -> Value
    ) throws(PictureError) -> Value {
        do {
            return try step()
        } catch {
            throw PictureError(reason, underlying: error.message)
        }
    }
}
