/* Sixteen bytes at a time: which bytes would end a plain run inside a JSON
 * string ('"', '\\', a control byte, a byte >= 0x80), as a bit mask (bit i
 * for byte i). The hot JSON paths scan with it where sixteen bytes are
 * there to read, and byte by byte elsewhere; CC_HAVE_ASCII16 is 0 where
 * SSE2 is missing (the byte loops then do all the work). */
#ifndef CC_ASCII16_H
#define CC_ASCII16_H

#ifdef __SSE2__
#include <emmintrin.h>
#define CC_HAVE_ASCII16 1

static inline unsigned cc_json_stops16(const void *p) {
    __m128i v = _mm_loadu_si128((const __m128i *)p);
    /* signed: bytes >= 0x80 are negative, so below 0x20 too */
    __m128i ctl = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
    __m128i q = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(ctl, q));
}
#else
#define CC_HAVE_ASCII16 0
static inline unsigned cc_json_stops16(const void *p) {
    (void)p;
    return 0xffff;
}
#endif

#endif
