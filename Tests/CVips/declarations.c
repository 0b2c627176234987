// Sources/CVips/shim.h declares what fruitsite uses of libvips and GLib, which are loaded
// with dlopen, so no compiler sees their headers. This file sets the two side by side:
// `make shim-test` compiles it with `cc -fsyntax-only $(pkg-config --cflags vips)`, and any
// declaration that differs from libvips's fails to compile.
#include <vips/vips.h>

// After libvips's headers: a type the shim declares differently is a conflicting typedef.
#include "../../Sources/CVips/shim.h"

// Each field has the type of a pointer to the function it is loaded from.
#define FRUITSITE_VIPS_CHECK(result, name, parameters)                                      \
    _Static_assert(__builtin_types_compatible_p(result(*) parameters, __typeof__(&name)),   \
                   #name " does not match its libvips or GLib header");
FRUITSITE_VIPS_FUNCTIONS(FRUITSITE_VIPS_CHECK)

// Each value is libvips's or GLib's.
#define FRUITSITE_VIPS_SAME(value)                                                           \
    _Static_assert(FRUITSITE_##value == value, #value " has another value in its header");
FRUITSITE_VIPS_SAME(VIPS_MAX_COORD)
FRUITSITE_VIPS_SAME(VIPS_INTERPRETATION_CMYK)
FRUITSITE_VIPS_SAME(VIPS_INTERPRETATION_sRGB)
FRUITSITE_VIPS_SAME(VIPS_FORMAT_UCHAR)
FRUITSITE_VIPS_SAME(VIPS_CODING_NONE)
FRUITSITE_VIPS_SAME(VIPS_SIZE_DOWN)
FRUITSITE_VIPS_SAME(VIPS_FAIL_ON_ERROR)
FRUITSITE_VIPS_SAME(VIPS_FOREIGN_HEIF_COMPRESSION_AV1)
FRUITSITE_VIPS_SAME(G_LOG_LEVEL_WARNING)
FRUITSITE_VIPS_SAME(G_LOG_LEVEL_MESSAGE)
