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

/// CLDR's plural rules for a BCP 47 language tag (cardinal numbers); a language without rules
/// of its own gets the root's, where every number is `other`. NULL when ICU cannot open them.
void *fs_plural_rules_open(const char *language);
void fs_plural_rules_close(void *rules);
/// Writes the plural category of `count` (`zero`, `one`, `two`, `few`, `many` or `other`),
/// NUL-terminated, into `out`; returns its length, or -1 when ICU fails or it does not fit.
int32_t fs_plural_select(const void *rules, int64_t count, char *out, int32_t capacity);

/// A decimal number format for a BCP 47 language tag: its digits and grouping separators.
/// NULL when ICU cannot open one.
void *fs_number_format_open(const char *language);
void fs_number_format_close(void *format);
/// Writes `number` as the language writes it, UTF-16, into `out`; returns its length, or -1
/// when ICU fails or it does not fit.
int32_t fs_number_format(const void *format, int64_t number, uint16_t *out, int32_t capacity);
