/* The validator's helper programs, embedded in the binary at build time
 * (.incbin), so the exec worker can put them into each run directory
 * wherever the repository or the binaries live. The list must name every
 * file of workers/exec/validate/helpers/ (a unit test checks it). */
#include "workers/exec/validate/validate.h"

#define CCV_HELPERS(X)                 \
    X(ccv_host, "ccv_host.py")         \
    X(ccv_common, "ccv_common.py")     \
    X(ccv_examples, "ccv_examples.py") \
    X(ccv_python, "ccv_python.py")     \
    X(ccv_pycheck, "ccv_pycheck.py")   \
    X(ccv_pyfix, "ccv_pyfix.py")       \
    X(ccv_pyrun, "ccv_pyrun.py")       \
    X(ccv_pyedits, "ccv_pyedits.py")   \
    X(ccv_pysearch, "ccv_pysearch.py") \
    X(ccv_transpile, "ccv_transpile.py") \
    X(ccv_optimize, "ccv_optimize.py") \
    X(ccv_jsdrive, "ccv_jsdrive.py")   \
    X(ccv_js_host, "ccv_js_host.js")   \
    X(ccv_pyjs_runtime, "ccv_pyjs_runtime.js")

/* One read-only blob per file, with a symbol at each end. The path is
 * relative to the repository root, where make runs the compiler. */
#define CCV_INCBIN(sym, file)                                                    \
    __asm__(".section .rodata\n"                                                 \
            ".balign 8\n"                                                        \
            ".global ccv_blob_" #sym "\n"                                        \
            "ccv_blob_" #sym ":\n"                                               \
            ".incbin \"workers/exec/validate/helpers/" file "\"\n"               \
            ".global ccv_blob_" #sym "_end\n"                                    \
            "ccv_blob_" #sym "_end:\n"                                           \
            ".byte 0\n"                                                          \
            ".previous\n");                                                      \
    extern const char ccv_blob_##sym[], ccv_blob_##sym##_end[];
CCV_HELPERS(CCV_INCBIN)

#define CCV_ROW(sym, file) {file, ccv_blob_##sym, 0},
static struct ccv_asset table[] = {CCV_HELPERS(CCV_ROW)};

const struct ccv_asset *ccv_assets(size_t *n) {
    /* Lengths are only known at link time; fill them once. */
    static bool sized;
    if (!sized) {
        size_t i = 0;
#define CCV_LEN(sym, file) table[i++].len = (size_t)(ccv_blob_##sym##_end - ccv_blob_##sym);
        CCV_HELPERS(CCV_LEN)
#undef CCV_LEN
        sized = true;
    }
    *n = sizeof table / sizeof table[0];
    return table;
}
