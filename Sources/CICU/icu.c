#include "icu.h"

#include <unicode/ucol.h>
#include <unicode/uloc.h>

void *fs_collator_open(const char *language) {
    UErrorCode status = U_ZERO_ERROR;
    char locale[ULOC_FULLNAME_CAPACITY];
    uloc_forLanguageTag(language, locale, sizeof locale, NULL, &status);
    if (U_FAILURE(status)) return NULL;
    UCollator *collator = ucol_open(locale, &status);
    if (U_FAILURE(status)) return NULL;
    ucol_setStrength(collator, UCOL_SECONDARY);
    return collator;
}

void fs_collator_close(void *collator) { ucol_close(collator); }

int32_t fs_collator_sort_key(
    const void *collator, const uint16_t *text, int32_t length, uint8_t *key, int32_t capacity) {
    return ucol_getSortKey(collator, text, length, key, capacity);
}
