/* Shared helpers of the fuzz targets (tests/fuzz/fuzz_*.c).
 *
 * Every target defines LLVMFuzzerTestOneInput. It is linked either with
 * libFuzzer (`make fuzz`: clang, -fsanitize=fuzzer) or with replay.c (`make
 * check`: the corpora are replayed once under ASan+UBSan, no fuzzing).
 * A target reports a broken property with FZ_ASSERT, which aborts: both
 * drivers treat that like a sanitizer report. */
#ifndef CC_FZ_H
#define CC_FZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define FZ_ASSERT(cond, ...)                                                     \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "fuzz property broken at %s:%d: %s\n  ", __FILE__,  \
                    __LINE__, #cond);                                            \
            fprintf(stderr, __VA_ARGS__);                                        \
            fputc('\n', stderr);                                                 \
            abort();                                                             \
        }                                                                        \
    } while (0)

/* Strict RFC 8259 check of one JSON text (any value at the top, surrounding
 * whitespace allowed), UTF-8 validity included. Independent of jansson and
 * of protocol/json_convert.c on purpose: it is the oracle for what we emit.
 * Nesting deeper than 10000 counts as invalid. */
bool fz_json_valid(const char *s, size_t n);

/* A bounded cursor over the fuzzer's bytes. */
struct fz_in {
    const uint8_t *p;
    size_t n;
};
/* Next byte (0 once exhausted). */
uint8_t fz_byte(struct fz_in *in);
/* Up to n bytes (fewer at the end); *len receives the count. */
const uint8_t *fz_take(struct fz_in *in, size_t n, size_t *len);

#endif
