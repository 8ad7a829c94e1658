/* The symbolic worker's warm-up, also used by the unit tests. */
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

void cc_symbolic_warmup(void) {
    struct cc_sym_err err;
    /* a failure here resurfaces as a coded error on the first request */
    (void)cc_giac_init(&err);
}
