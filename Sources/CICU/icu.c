#include "icu.h"

#include <unicode/ucol.h>
#include <unicode/uloc.h>
#include <unicode/unum.h>
#include <unicode/upluralrules.h>
#include <unicode/ustring.h>

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

// MARK: - Plural rules and numbers

/// ICU's locale ID for a BCP 47 tag, in `locale`; false when ICU cannot read the tag.
static int locale_of(const char *language, char *locale, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    uloc_forLanguageTag(language, locale, capacity, NULL, &status);
    return U_SUCCESS(status);
}

void *fs_plural_rules_open(const char *language) {
    char locale[ULOC_FULLNAME_CAPACITY];
    if (!locale_of(language, locale, sizeof locale)) return NULL;
    UErrorCode status = U_ZERO_ERROR;
    UPluralRules *rules = uplrules_open(locale, &status);
    return U_SUCCESS(status) ? rules : NULL;
}

void fs_plural_rules_close(void *rules) { uplrules_close(rules); }

int32_t fs_plural_select(const void *rules, int64_t count, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UChar keyword[16];
    // uplrules_select takes a double: exact for every count below 2^53.
    int32_t length = uplrules_select(rules, (double)count, keyword, 16, &status);
    if (U_FAILURE(status) || length >= capacity || length >= 16) return -1;
    u_UCharsToChars(keyword, out, length);
    out[length] = '\0';
    return length;
}

void *fs_number_format_open(const char *language) {
    char locale[ULOC_FULLNAME_CAPACITY];
    if (!locale_of(language, locale, sizeof locale)) return NULL;
    UErrorCode status = U_ZERO_ERROR;
    UNumberFormat *format = unum_open(UNUM_DECIMAL, NULL, 0, locale, NULL, &status);
    return U_SUCCESS(status) ? format : NULL;
}

void fs_number_format_close(void *format) { unum_close(format); }

int32_t fs_number_format(const void *format, int64_t number, uint16_t *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = unum_formatInt64(format, number, out, capacity, NULL, &status);
    return U_SUCCESS(status) && length <= capacity ? length : -1;
}
