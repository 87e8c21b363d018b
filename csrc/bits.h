/* The lowest set bit of a nonzero mask, for the C cores that find separators 16 bytes at a time
 * (csrc/agree.c, csrc/conll.c): one definition for every compiler. */
#ifndef NERVE_BITS_H
#define NERVE_BITS_H

#if defined(_MSC_VER)
#include <intrin.h>
static inline unsigned nerve_lowest_bit(unsigned m) {
    unsigned long i;
    _BitScanForward(&i, m);
    return (unsigned)i;
}
#elif defined(__GNUC__) || defined(__clang__)
#define nerve_lowest_bit(m) ((unsigned)__builtin_ctz(m))
#else
static inline unsigned nerve_lowest_bit(unsigned m) {
    unsigned i = 0;
    while (!(m & 1u)) {
        m >>= 1;
        i++;
    }
    return i;
}
#endif

#endif
