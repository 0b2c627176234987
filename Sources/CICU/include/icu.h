// The few ICU services fruitsite uses, behind plain C types: Swift cannot import ICU's own
// headers beside Foundation's copy of them, whose declarations differ.
#include <stdint.h>

/// A collator for a BCP 47 language tag, at secondary strength (case ignored, accents
/// not); a language without rules of its own gets CLDR's root order. NULL when ICU cannot
/// open one.
void *fs_collator_open(const char *language);
void fs_collator_close(void *collator);
/// Writes the sort key of `text` (UTF-16) into `key` and returns its length, which is more
/// than `capacity` when the key did not fit.
int32_t fs_collator_sort_key(
    const void *collator, const uint16_t *text, int32_t length, uint8_t *key, int32_t capacity);
