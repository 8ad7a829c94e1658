/* The `assume` argument of the symbolic tools: a map from symbol name to a
 * domain ("positive", "nonnegative", "real", "integer"), applied to the CAS
 * for the duration of one request and used to draw numeric test points. */
#ifndef CC_SYM_ASSUME_H
#define CC_SYM_ASSUME_H

#include <jansson.h>
#include <stddef.h>

#include "workers/symbolic/giac_shim.h"

struct sym_assume {
    size_t n;
    const char **names;    /* borrowed from the request's JSON */
    enum cc_num_dom *doms;
};

/* Reads v (absent/null = no assumptions). 0, or -1 with *err (validation:
 * not an object, a bad name or an unknown domain). */
int sym_assume_read(const json_t *v, struct sym_assume *out, json_t **err);
void sym_assume_clear(struct sym_assume *as);

/* Declares every assumption to the CAS; undo with cc_giac_forget_all().
 * 0, or -1 with *err (nothing stays declared). */
int sym_assume_apply(const struct sym_assume *as, json_t **err);

#endif
