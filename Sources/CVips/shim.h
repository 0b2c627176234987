// libvips, loaded with dlopen at the first picture rather than linked: its hundred libraries
// (ImageMagick, poppler, OpenEXR …) would otherwise slow the start of every fruitsite run,
// even one with no picture. So this file does not include libvips's headers, whose GLib
// headers need pkg-config's paths: it declares the types, values and functions fruitsite
// uses, and Tests/CVips/declarations.c checks each against libvips 8.14's own headers
// (`make shim-test`).
#include <dlfcn.h>
#include <stddef.h>

// The struct's function pointers say they are never null; other pointers are left unsaid, as
// in libvips's headers.
#ifdef __clang__
#pragma clang diagnostic ignored "-Wnullability-completeness"
#else
#define _Nonnull  // gcc, which compiles this file for that check, has no nullability
#endif

// MARK: - Types (vips/image.h, glib/gtypes.h, gobject/gtype.h)

typedef struct _VipsImage VipsImage;  // opaque: only pointers to it are passed
typedef int gboolean;
typedef size_t GType;  // gsize
// libvips's enums (VipsInterpretation, VipsBandFormat, VipsCoding) and GLib's
// GLogLevelFlags are passed as int, the type C gives enums with a negative value.

// MARK: - Values, from Debian 12's libvips 8.14 and GLib 2.74

#define FRUITSITE_VIPS_MAX_COORD 10000000               // vips/image.h
#define FRUITSITE_VIPS_INTERPRETATION_CMYK 15           // vips/image.h, VipsInterpretation
#define FRUITSITE_VIPS_INTERPRETATION_sRGB 22           // vips/image.h, VipsInterpretation
#define FRUITSITE_VIPS_FORMAT_UCHAR 0                   // vips/image.h, VipsBandFormat
#define FRUITSITE_VIPS_CODING_NONE 0                    // vips/image.h, VipsCoding
#define FRUITSITE_VIPS_SIZE_DOWN 2                      // vips/resample.h, VipsSize
#define FRUITSITE_VIPS_FAIL_ON_ERROR 2                  // vips/foreign.h, VipsFailOn
#define FRUITSITE_VIPS_FOREIGN_HEIF_COMPRESSION_AV1 4   // vips/foreign.h
#define FRUITSITE_G_LOG_LEVEL_WARNING (1 << 4)          // glib/gmessages.h, GLogLevelFlags
#define FRUITSITE_G_LOG_LEVEL_MESSAGE (1 << 5)          // glib/gmessages.h, GLogLevelFlags

// MARK: - Functions

/// Every libvips and GLib function fruitsite calls: F(result, name, parameters). The one
/// list makes the struct's fields, their loading and their check.
#define FRUITSITE_VIPS_FUNCTIONS(F)                                                          \
    /* Starting: vips/vips.h, vips/operation.h, vips/object.h, glib/gmessages.h */           \
    F(int, vips_init, (const char *argv0))                                                   \
    F(int, vips_version, (int flag))                                                         \
    F(const char *, vips_version_string, (void))                                             \
    F(void, vips_block_untrusted_set, (gboolean state))                                      \
    F(void, vips_cache_set_max, (int max))                                                   \
    F(void, vips_concurrency_set, (int concurrency))                                         \
    F(GType, vips_type_find, (const char *basename, const char *nickname))                   \
    F(unsigned, g_log_set_handler,                                                           \
      (const char *log_domain, int log_levels,                                               \
       void (*log_func)(const char *, int, const char *, void *), void *user_data))          \
    /* Errors and memory: vips/error.h, glib/gmem.h, gobject/gobject.h */                    \
    F(char *, vips_error_buffer_copy, (void))                                                \
    F(void, g_free, (void *mem))                                                             \
    F(void, g_object_unref, (void *object))                                                  \
    /* Pictures: vips/image.h, vips/header.h, vips/resample.h, vips/colour.h */              \
    F(VipsImage *, vips_image_new_from_buffer,                                               \
      (const void *buf, size_t len, const char *option_string, ...))                         \
    F(int, vips_image_get_width, (const VipsImage *image))                                   \
    F(int, vips_image_get_height, (const VipsImage *image))                                  \
    F(int, vips_image_get_bands, (const VipsImage *image))                                   \
    F(int, vips_image_get_string,                                                            \
      (const VipsImage *image, const char *name, const char **out))                          \
    F(gboolean, vips_image_get_orientation_swap, (VipsImage *image))                         \
    F(gboolean, vips_image_hasalpha, (VipsImage *image))                                     \
    F(GType, vips_image_get_typeof, (const VipsImage *image, const char *name))              \
    F(int, vips_thumbnail_buffer, (void *buf, size_t len, VipsImage **out, int width, ...))  \
    F(int, vips_thumbnail_image, (VipsImage *in, VipsImage **out, int width, ...))           \
    F(int, vips_colourspace, (VipsImage *in, VipsImage **out, int space, ...))               \
    F(VipsImage *, vips_image_copy_memory, (VipsImage *image))                               \
    F(void *, vips_image_write_to_memory, (VipsImage *in, size_t *size))                     \
    F(VipsImage *, vips_image_new_from_memory_copy,                                          \
      (const void *data, size_t size, int width, int height, int bands, int format))         \
    F(void, vips_image_init_fields,                                                          \
      (VipsImage *image, int xsize, int ysize, int bands, int format, int coding,            \
       int interpretation, double xres, double yres))                                        \
    /* Encoding: vips/foreign.h */                                                           \
    F(int, vips_heifsave_buffer, (VipsImage *in, void **buf, size_t *len, ...))              \
    F(int, vips_webpsave_buffer, (VipsImage *in, void **buf, size_t *len, ...))              \
    F(int, vips_jpegsave_buffer, (VipsImage *in, void **buf, size_t *len, ...))              \
    F(int, vips_pngsave_buffer, (VipsImage *in, void **buf, size_t *len, ...))               \
    /* Making sources and reading results in the tests: vips/image.h, vips/header.h,         \
       glib/gstrfuncs.h */                                                                   \
    F(void, vips_image_set_int, (VipsImage *image, const char *name, int i))                 \
    F(void, vips_image_set_string, (VipsImage *image, const char *name, const char *str))    \
    F(void, vips_image_set_blob_copy,                                                        \
      (VipsImage *image, const char *name, const void *data, size_t length))                 \
    F(int, vips_image_get_interpretation, (const VipsImage *image))                          \
    F(char **, vips_image_get_fields, (VipsImage *image))                                    \
    F(void, g_strfreev, (char **str_array))

/// libvips's functions, filled by fruitsite_vips_load.
typedef struct {
#define FRUITSITE_VIPS_FIELD(result, name, parameters) result(*_Nonnull name) parameters;
    FRUITSITE_VIPS_FUNCTIONS(FRUITSITE_VIPS_FIELD)
#undef FRUITSITE_VIPS_FIELD
} FruitsiteVips;

/// Loads libvips and fills `vips` with its functions. Returns NULL, or why it could not: the
/// loader's message, which names the library or the function missing.
///
/// The library stays loaded for the life of the process. It is loaded RTLD_GLOBAL, as when
/// linked, so that its codecs' version functions can be found by name among the loaded
/// libraries (Vips.swift).
static inline const char *fruitsite_vips_load(FruitsiteVips *vips) {
    int mode = RTLD_LAZY | RTLD_GLOBAL;
#ifdef __APPLE__
    void *library = dlopen("libvips.42.dylib", mode);
    // Homebrew's prefix on Apple silicon, which dlopen does not search by itself.
    if (!library) library = dlopen("/opt/homebrew/lib/libvips.42.dylib", mode);
#else
    void *library = dlopen("libvips.so.42", mode);
#endif
    if (!library) return dlerror();
#define FRUITSITE_VIPS_LOAD(result, name, parameters)                                       \
    if (!(vips->name = (__typeof__(vips->name))dlsym(library, #name))) return dlerror();
    FRUITSITE_VIPS_FUNCTIONS(FRUITSITE_VIPS_LOAD)
#undef FRUITSITE_VIPS_LOAD
    return NULL;
}

// MARK: - Wrappers of the variadic operations

// libvips's operations take their optional arguments as a NULL-terminated list of name and
// value pairs, which Swift cannot call. These wrappers fix the arguments fruitsite uses; each
// returns 0 on success and -1 on failure, with the reason in vips_error_buffer_copy().

/// The formats fruitsite_vips_save writes.
typedef enum {
    FRUITSITE_VIPS_AVIF,
    FRUITSITE_VIPS_WEBP,
    FRUITSITE_VIPS_JPEG,
    FRUITSITE_VIPS_PNG,
} FruitsiteVipsFormat;

/// Opens a picture in memory, reading its header only: pixels are decoded when first asked
/// for, so `buf` must outlive any use of them.
static inline VipsImage *fruitsite_vips_open_buffer(const FruitsiteVips *vips, const void *buf,
                                                    size_t len) {
    return vips->vips_image_new_from_buffer(buf, len, "", NULL);
}

/// Decodes a picture in memory, upright (EXIF orientation applied), shrunk to `width` pixels
/// wide, never enlarged; JPEG, WebP and HEIF decoders shrink as they load. Fails on damaged
/// data rather than returning a partly grey picture.
///
/// With `has_profile` (the picture embeds an ICC profile: Display P3, Adobe RGB, CMYK …) it
/// is converted to sRGB with that profile; without export_profile libvips would keep the
/// values and only label them, and the label is stripped on save. An untagged picture is
/// already taken as sRGB: sending it through the sRGB profile too would shift its colours.
static inline int fruitsite_vips_thumbnail_buffer(const FruitsiteVips *vips, void *buf,
                                                  size_t len, int width, gboolean has_profile,
                                                  VipsImage **out) {
    if (has_profile)
        return vips->vips_thumbnail_buffer(buf, len, out, width,
                                           "height", FRUITSITE_VIPS_MAX_COORD,
                                           "size", FRUITSITE_VIPS_SIZE_DOWN,
                                           "fail_on", FRUITSITE_VIPS_FAIL_ON_ERROR,
                                           "export_profile", "srgb",
                                           NULL);
    return vips->vips_thumbnail_buffer(buf, len, out, width,
                                       "height", FRUITSITE_VIPS_MAX_COORD,
                                       "size", FRUITSITE_VIPS_SIZE_DOWN,
                                       "fail_on", FRUITSITE_VIPS_FAIL_ON_ERROR,
                                       NULL);
}

/// Shrinks a decoded, upright picture to fit `width` x `height`, never enlarged.
static inline int fruitsite_vips_thumbnail_image(const FruitsiteVips *vips, VipsImage *in,
                                                 int width, int height, VipsImage **out) {
    return vips->vips_thumbnail_image(in, out, width,
                                      "height", height,
                                      "size", FRUITSITE_VIPS_SIZE_DOWN,
                                      "no_rotate", 1,
                                      NULL);
}

/// Converts to 8-bit sRGB (from greyscale, CMYK, 16-bit RGB …), keeping any alpha.
static inline int fruitsite_vips_srgb(const FruitsiteVips *vips, VipsImage *in,
                                      VipsImage **out) {
    return vips->vips_colourspace(in, out, FRUITSITE_VIPS_INTERPRETATION_sRGB, NULL);
}

/// Encodes a picture. `quality` is libvips's Q (1 to 100; PNG ignores it); `effort` is the
/// encoder's CPU effort (AVIF 0 to 9, WebP 0 to 6; JPEG and PNG ignore it); `strip` leaves
/// out every metadata block: EXIF (GPS with it), XMP, IPTC and the ICC profile, except that
/// libvips before 8.14.2 ignores it for WebP (see WebPContainer.swift).
/// The buffer is allocated with g_malloc: free it with g_free.
static inline int fruitsite_vips_save(const FruitsiteVips *vips, VipsImage *in,
                                      FruitsiteVipsFormat format, int quality, int effort,
                                      gboolean strip, void **buf, size_t *len) {
    switch (format) {
    case FRUITSITE_VIPS_AVIF:
        return vips->vips_heifsave_buffer(in, buf, len,
                                          "compression",
                                          FRUITSITE_VIPS_FOREIGN_HEIF_COMPRESSION_AV1,
                                          "Q", quality, "effort", effort, "strip", strip, NULL);
    case FRUITSITE_VIPS_WEBP:
        return vips->vips_webpsave_buffer(in, buf, len,
                                          "Q", quality, "effort", effort, "strip", strip, NULL);
    case FRUITSITE_VIPS_JPEG:
        return vips->vips_jpegsave_buffer(in, buf, len,
                                          "Q", quality, "optimize_coding", 1, "interlace", 1,
                                          "strip", strip, NULL);
    case FRUITSITE_VIPS_PNG:
        return vips->vips_pngsave_buffer(in, buf, len, "strip", strip, NULL);
    }
    return -1;
}
