/* Fuzz target: the SMT-LIB2 command scanner z3_check runs before z3 reads
 * a script (workers/symbolic/smt2_scan.c), without z3.
 *
 * The input is the script. Properties: no sanitizer report; the scan
 * changes only bytes it blanks (to spaces), never a newline, never the
 * length; every label is a NUL-terminated string no longer than the
 * script; there are no more asserts than '(' characters; and scanning the
 * scanned text again blanks nothing more. */
#include <string.h>

#include "workers/symbolic/smt2_scan.h"
#include "tests/fuzz/fz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = malloc(size ? size : 1), *again = malloc(size ? size : 1);
    if (!text || !again) {
        free(text);
        free(again);
        return 0;
    }
    memcpy(text, data, size);
    struct cc_smt2_scan s;
    FZ_ASSERT(cc_smt2_scan(text, size, &s) == 0, "scan failed on %zu bytes", size);
    size_t opens = 0;
    for (size_t i = 0; i < size; i++) {
        opens += data[i] == '(';
        FZ_ASSERT(text[i] == (char)data[i] || (text[i] == ' ' && data[i] != '\n'),
                  "byte %zu changed from 0x%02x to 0x%02x", i, data[i], (unsigned char)text[i]);
    }
    FZ_ASSERT(s.n_asserts <= opens, "%zu asserts from %zu '('", s.n_asserts, opens);
    for (size_t i = 0; i < s.n_asserts; i++)
        FZ_ASSERT(!s.names[i] || strlen(s.names[i]) <= size, "label %zu longer than the script", i);
    memcpy(again, text, size);
    struct cc_smt2_scan t;
    FZ_ASSERT(cc_smt2_scan(again, size, &t) == 0, "second scan failed");
    FZ_ASSERT(memcmp(again, text, size) == 0, "a second scan blanked more");
    cc_smt2_scan_free(&t);
    cc_smt2_scan_free(&s);
    free(text);
    free(again);
    return 0;
}
