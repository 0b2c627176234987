import CVips
import Foundation
import Testing

@testable import FruitsiteCore

/// Source pictures made in the tests with libvips, and encoded ones read back.
enum TestPictures {
    /// Metadata to write into a source.
    struct Metadata {
        var orientation: Int?
        /// libvips's `exif-ifd…` fields, which it writes as EXIF: "exif-ifd3-GPSLatitude".
        var exif: [String: String] = [:]
        var xmp: String?
        var iptc: [UInt8]?
        var iccProfile: [UInt8]?
    }

    /// A picture `width` x `height` whose pixels `color` gives (`bands` bytes, x, y), saved
    /// as `format` with `metadata`, which libvips keeps.
    static func make(
        width: Int, height: Int, bands: Int = 3, as format: FruitsiteVipsFormat,
        interpretation: Int32 = FRUITSITE_VIPS_INTERPRETATION_sRGB,
        metadata: Metadata = Metadata(), color: (Int, Int) -> [UInt8]
    ) throws -> Data {
        // As the encoder does, one thread at a time (`Vips.exclusively`).
        try Vips.exclusively { () throws in
            try made(
                width: width, height: height, bands: bands, as: format,
                interpretation: interpretation, metadata: metadata, color: color)
        }
    }

    private static func made(
        width: Int, height: Int, bands: Int, as format: FruitsiteVipsFormat,
        interpretation: Int32, metadata: Metadata, color: (Int, Int) -> [UInt8]
    ) throws -> Data {
        let vips = try Vips.start()
        let c = vips.c
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * bands)
        for y in 0..<height {
            for x in 0..<width { pixels += color(x, y) }
        }
        let image = try #require(
            c.vips_image_new_from_memory_copy(
                pixels, pixels.count, Int32(width), Int32(height), Int32(bands),
                FRUITSITE_VIPS_FORMAT_UCHAR))
        defer { c.g_object_unref(UnsafeMutableRawPointer(image)) }
        // The same fields but the interpretation, which new_from_memory_copy guesses.
        c.vips_image_init_fields(
            image, Int32(width), Int32(height), Int32(bands), FRUITSITE_VIPS_FORMAT_UCHAR,
            FRUITSITE_VIPS_CODING_NONE, interpretation, 1, 1)
        if let orientation = metadata.orientation {
            c.vips_image_set_int(image, "orientation", Int32(orientation))
        }
        for (name, value) in metadata.exif { c.vips_image_set_string(image, name, value) }
        if let xmp = metadata.xmp {
            c.vips_image_set_blob_copy(image, "xmp-data", xmp, xmp.utf8.count)
        }
        if let iptc = metadata.iptc {
            c.vips_image_set_blob_copy(image, "iptc-data", iptc, iptc.count)
        }
        if let profile = metadata.iccProfile {
            c.vips_image_set_blob_copy(image, "icc-profile-data", profile, profile.count)
        }
        var bytes: UnsafeMutableRawPointer?
        var count = 0
        guard
            fruitsite_vips_save(vips.functions, image, format, 90, 0, 0, &bytes, &count) == 0,
            let bytes
        else { throw vips.lastFailure }
        defer { c.g_free(bytes) }
        return Data(bytes: bytes, count: count)
    }

    /// A photo-like picture: smooth gradients with fine noise, the same for the same seed.
    static func photo(width: Int, height: Int, as format: FruitsiteVipsFormat, seed: UInt64 = 1)
        throws -> Data
    {
        var state = seed
        return try make(width: width, height: height, as: format) { x, y in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = Int(state >> 60)
            return [
                UInt8(min(255, 40 + x * 180 / width + noise)),
                UInt8(min(255, 90 + y * 120 / height + noise)),
                UInt8(min(255, 200 - (x + y) * 150 / (width + height) + noise)),
            ]
        }
    }

    /// What libvips reads back from an encoded picture: its size, channels, colour space and
    /// the names of its metadata fields.
    struct ReadBack {
        var width: Int
        var height: Int
        var bands: Int
        var interpretation: Int32
        var fields: [String]
    }

    static func readBack(_ bytes: Data) throws -> ReadBack {
        try Vips.exclusively { () throws in try readingBack(bytes) }
    }

    private static func readingBack(_ bytes: Data) throws -> ReadBack {
        let vips = try Vips.start()
        let c = vips.c
        return try bytes.withUnsafeBytes { buffer in
            guard
                let image = fruitsite_vips_open_buffer(
                    vips.functions, buffer.baseAddress, buffer.count)
            else { throw vips.lastFailure }
            defer { c.g_object_unref(UnsafeMutableRawPointer(image)) }
            var fields: [String] = []
            if let names = c.vips_image_get_fields(image) {
                var index = 0
                while let name = names[index] {
                    fields.append(String(cString: name))
                    index += 1
                }
                c.g_strfreev(names)
            }
            return ReadBack(
                width: Int(c.vips_image_get_width(image)),
                height: Int(c.vips_image_get_height(image)),
                bands: Int(c.vips_image_get_bands(image)),
                interpretation: c.vips_image_get_interpretation(image), fields: fields)
        }
    }

    /// A PNG made by hand whose header declares `width` x `height` pixels and whose data is
    /// one empty compressed block: a few dozen bytes claiming gigabytes of pixels.
    static func pngDeclaring(width: UInt32, height: UInt32) -> Data {
        func bigEndian(_ value: UInt32) -> [UInt8] {
            [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
        }
        // 8-bit RGB, deflate, no filter, no interlace.
        let header = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        // A zlib stream of one empty stored block, and the Adler-32 of nothing.
        let data: [UInt8] = [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0, 0, 0, 1]
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        return Data(
            signature + chunk("IHDR", header) + chunk("IDAT", data) + chunk("IEND", []))
    }

    /// A 16-bit RGB PNG made by hand, `width` x `height`, each pixel `color` (x, y) at 16 bits
    /// a channel, its data in stored (uncompressed) deflate blocks: libvips writes 8 bits.
    static func sixteenBitPNG(width: Int, height: Int, color: (Int, Int) -> [UInt16]) -> Data {
        func bigEndian(_ value: UInt32) -> [UInt8] {
            [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
        }
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)  // No filter.
            for x in 0..<width {
                for channel in color(x, y) { raw += [UInt8(channel >> 8), UInt8(channel & 0xFF)] }
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65_535, raw.count)
            let length = UInt16(end - start)
            zlib += [end == raw.count ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8)]
            zlib += [UInt8(~length & 0xFF), UInt8(~length >> 8)]
            zlib += raw[start..<end]
            start = end
        } while start < raw.count
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in raw {
            (a, b) = ((a + UInt32(byte)) % 65_521, (b + (a + UInt32(byte)) % 65_521) % 65_521)
        }
        zlib += bigEndian(b << 16 | a)
        // 16-bit RGB, deflate, no filter, no interlace.
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [16, 2, 0, 0, 0]
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        return Data(
            signature + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", []))
    }

    /// An ICC profile (version 2, matrix and gamma 2.2) with sRGB's primaries but red and
    /// green swapped: a pixel stored as pure red is pure green, if the profile is applied.
    static func swappedPrimariesProfile() -> [UInt8] {
        func bigEndian(_ value: UInt32) -> [UInt8] {
            [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
        }
        func fixed(_ value: Double) -> [UInt8] {
            bigEndian(UInt32(bitPattern: Int32((value * 65536).rounded())))
        }
        func xyz(_ x: Double, _ y: Double, _ z: Double) -> [UInt8] {
            Array("XYZ ".utf8) + [0, 0, 0, 0] + fixed(x) + fixed(y) + fixed(z)
        }
        // D50 exactly as ICC writes it (libpng drops a profile with any other illuminant),
        // and sRGB's primaries adapted to it.
        let d50 = bigEndian(0xF6D6) + bigEndian(0x1_0000) + bigEndian(0xD32D)
        let gamma: [UInt8] = Array("curv".utf8) + [0, 0, 0, 0] + bigEndian(1) + [0x02, 0x33, 0, 0]
        let tags: [(String, [UInt8])] = [
            ("wtpt", Array("XYZ ".utf8) + [0, 0, 0, 0] + d50),
            ("rXYZ", xyz(0.3851, 0.7169, 0.0971)),  // sRGB's green
            ("gXYZ", xyz(0.4361, 0.2225, 0.0139)),  // sRGB's red
            ("bXYZ", xyz(0.1431, 0.0606, 0.7141)),
            ("rTRC", gamma), ("gTRC", gamma), ("bTRC", gamma),
        ]
        var table = bigEndian(UInt32(tags.count))
        var data: [UInt8] = []
        let dataStart = 128 + 4 + 12 * tags.count
        for (signature, tag) in tags {
            table +=
                Array(signature.utf8) + bigEndian(UInt32(dataStart + data.count))
                + bigEndian(UInt32(tag.count))
            data += tag
        }
        var header = [UInt8](repeating: 0, count: 128)
        let fields: [(Int, [UInt8])] = [
            (0, bigEndian(UInt32(dataStart + data.count))), (8, [0x02, 0x10, 0, 0]),
            (12, Array("mntrRGB XYZ ".utf8)), (36, Array("acsp".utf8)),
            (68, d50),
        ]
        for (offset, bytes) in fields {
            header.replaceSubrange(offset..<offset + bytes.count, with: bytes)
        }
        return header + table + data
    }

    /// The CRC-32 PNG chunks end with (ISO 3309, as zlib computes it).
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
