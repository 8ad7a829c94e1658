/* The `assume` argument (see sym_assume.h). */
#include "workers/symbolic/sym_assume.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workers/common/expr_funcs.h"
#include "workers/common/tool_api.h"
#include "workers/symbolic/sym_input.h"

static const struct {
    const char *word;
    enum cc_num_dom dom;
} DOMAINS[] = {
    {"positive", CC_DOM_POSITIVE}, {"nonnegative", CC_DOM_NONNEG},
    {"real", CC_DOM_REAL},         {"integer", CC_DOM_INTEGER},
};

static int domain_of(const char *w, enum cc_num_dom *d) {
    for (size_t i = 0; i < sizeof DOMAINS / sizeof *DOMAINS; i++)
        if (!strcmp(DOMAINS[i].word, w)) {
            *d = DOMAINS[i].dom;
            return 0;
        }
    return -1;
}

int sym_assume_read(const json_t *v, struct sym_assume *out, json_t **err) {
    memset(out, 0, sizeof *out);
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_object(v)) {
        *err = cc_err("validation", "'assume' must be an object such as {\"x\": \"positive\"}");
        return -1;
    }
    size_t n = json_object_size(v);
    out->names = calloc(n + 1, sizeof *out->names);
    out->doms = calloc(n + 1, sizeof *out->doms);
    if (!out->names || !out->doms) {
        sym_assume_clear(out);
        *err = cc_err("resource_exhausted", "expression exhausted the memory ceiling");
        return -1;
    }
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)v, key, val) {
        enum cc_num_dom d;
        if (!sym_valid_name(key) || cc_expr_is_function(key) || cc_expr_is_constant(key)) {
            *err = cc_err("validation", "assume: '%s' is not a variable name", key);
        } else if (!json_is_string(val) || domain_of(json_string_value(val), &d) < 0) {
            *err = cc_err("validation",
                          "assume: the domain of '%s' must be one of positive, nonnegative, real, "
                          "integer", key);
        } else {
            out->names[out->n] = key;
            out->doms[out->n++] = d;
            continue;
        }
        sym_assume_clear(out);
        return -1;
    }
    return 0;
}

void sym_assume_clear(struct sym_assume *as) {
    free(as->names);
    free(as->doms);
    memset(as, 0, sizeof *as);
}

int sym_assume_apply(const struct sym_assume *as, json_t **err) {
    (void)err;
    for (size_t i = 0; i < as->n; i++) {
        /* giac already treats every symbol as real; and an assumption giac
         * refuses only weakens the CAS side (the numeric check still draws
         * from the stated domain), so it is not an error */
        if (as->doms[i] == CC_DOM_REAL)
            continue;
        struct cc_sym_err se = {0};
        (void)cc_giac_assume(as->names[i], as->doms[i], &se);
    }
    return 0;
}
