/* UTF-8 as Python's strict decoder reads it, for the C cores that read users' files (csrc/agree.c,
 * csrc/columns.c, csrc/conll.c): one check, so that every core refuses the same bytes. */
#ifndef NERVE_UTF8_H
#define NERVE_UTF8_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Whether p[0, n) is UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF); runs of
 * ASCII are skipped 8 bytes at a time. */
static inline int nerve_valid_utf8(const unsigned char *p, size_t n) {
    size_t i = 0;
    while (i < n) {
        if (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, p + i, 8);
            if (!(w & 0x8080808080808080ULL)) {
                i += 8;
                continue;
            }
        }
        unsigned c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t k; /* continuation bytes */
        unsigned lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            k = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            k = 2;
            if (c == 0xE0) lo = 0xA0;
            if (c == 0xED) hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            k = 3;
            if (c == 0xF0) lo = 0x90;
            if (c == 0xF4) hi = 0x8F;
        } else {
            return 0;
        }
        if (n - i <= k) return 0; /* cut short by the end */
        if (p[i + 1] < lo || p[i + 1] > hi) return 0;
        for (size_t j = 2; j <= k; j++) {
            if ((p[i + j] & 0xC0) != 0x80) return 0;
        }
        i += k + 1;
    }
    return 1;
}

#endif
