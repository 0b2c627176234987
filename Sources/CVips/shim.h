// libvips's operations take their optional arguments as a NULL-terminated list of name and
// value pairs, which Swift cannot call. These wrappers fix the arguments fruitsite uses; each
// returns 0 on success and -1 on failure, with the reason in vips_error_buffer().
#include <vips/vips.h>

/// The formats fruitsite_vips_save writes.
typedef enum {
    FRUITSITE_VIPS_AVIF,
    FRUITSITE_VIPS_WEBP,
    FRUITSITE_VIPS_JPEG,
    FRUITSITE_VIPS_PNG,
} FruitsiteVipsFormat;

/// Opens a picture in memory, reading its header only: pixels are decoded when first asked
/// for, so `buf` must outlive any use of them.
static inline VipsImage *fruitsite_vips_open_buffer(const void *buf, size_t len) {
    return vips_image_new_from_buffer(buf, len, "", NULL);
}

/// Decodes a picture in memory, upright (EXIF orientation applied), shrunk to `width` pixels
/// wide, never enlarged; JPEG, WebP and HEIF decoders shrink as they load. Fails on damaged
/// data rather than returning a partly grey picture.
///
/// With `has_profile` (the picture embeds an ICC profile: Display P3, Adobe RGB, CMYK …) it
/// is converted to sRGB with that profile; without export_profile libvips would keep the
/// values and only label them, and the label is stripped on save. An untagged picture is
/// already taken as sRGB: sending it through the sRGB profile too would shift its colours.
static inline int fruitsite_vips_thumbnail_buffer(void *buf, size_t len, int width,
                                                  gboolean has_profile, VipsImage **out) {
    if (has_profile)
        return vips_thumbnail_buffer(buf, len, out, width,
                                     "height", VIPS_MAX_COORD,
                                     "size", VIPS_SIZE_DOWN,
                                     "fail_on", VIPS_FAIL_ON_ERROR,
                                     "export_profile", "srgb",
                                     NULL);
    return vips_thumbnail_buffer(buf, len, out, width,
                                 "height", VIPS_MAX_COORD,
                                 "size", VIPS_SIZE_DOWN,
                                 "fail_on", VIPS_FAIL_ON_ERROR,
                                 NULL);
}

/// Shrinks a decoded, upright picture to fit `width` x `height`, never enlarged.
static inline int fruitsite_vips_thumbnail_image(VipsImage *in, int width, int height,
                                                 VipsImage **out) {
    return vips_thumbnail_image(in, out, width,
                                "height", height,
                                "size", VIPS_SIZE_DOWN,
                                "no_rotate", TRUE,
                                NULL);
}

/// Converts to 8-bit sRGB (from greyscale, CMYK, 16-bit RGB …), keeping any alpha.
static inline int fruitsite_vips_srgb(VipsImage *in, VipsImage **out) {
    return vips_colourspace(in, out, VIPS_INTERPRETATION_sRGB, NULL);
}

/// Encodes a picture. `quality` is libvips's Q (1 to 100; PNG ignores it); `effort` is the
/// encoder's CPU effort (AVIF 0 to 9, WebP 0 to 6; JPEG and PNG ignore it); `strip` leaves
/// out every metadata block: EXIF (GPS with it), XMP, IPTC and the ICC profile, except that
/// libvips before 8.14.2 ignores it for WebP (see WebPContainer.swift).
/// The buffer is allocated with g_malloc: free it with g_free.
static inline int fruitsite_vips_save(VipsImage *in, FruitsiteVipsFormat format, int quality,
                                      int effort, gboolean strip, void **buf, size_t *len) {
    switch (format) {
    case FRUITSITE_VIPS_AVIF:
        return vips_heifsave_buffer(in, buf, len,
                                    "compression", VIPS_FOREIGN_HEIF_COMPRESSION_AV1,
                                    "Q", quality, "effort", effort, "strip", strip, NULL);
    case FRUITSITE_VIPS_WEBP:
        return vips_webpsave_buffer(in, buf, len,
                                    "Q", quality, "effort", effort, "strip", strip, NULL);
    case FRUITSITE_VIPS_JPEG:
        return vips_jpegsave_buffer(in, buf, len,
                                    "Q", quality, "optimize_coding", TRUE, "interlace", TRUE,
                                    "strip", strip, NULL);
    case FRUITSITE_VIPS_PNG:
        return vips_pngsave_buffer(in, buf, len, "strip", strip, NULL);
    }
    return -1;
}
