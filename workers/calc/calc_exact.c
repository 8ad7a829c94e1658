/* calc_exact (TOOLS.md 3.3.1): the pipeline (screen, parse, evaluate, format
 * limit) and the tool handler. The evaluator is calc_eval.c, the functions
 * calc_funcs.c and calc_binary64.c, the success object calc_render.c. */
#include "workers/calc/calc_exact.h"

#include <stdlib.h>
#include <string.h>

#include "workers/calc/calc_internal.h"
#include "workers/common/expr_parse.h"

void cc_calc_outcome_init(struct cc_calc_outcome *o) {
    memset(o, 0, sizeof *o);
    mpq_init(o->q);
}

void cc_calc_outcome_clear(struct cc_calc_outcome *o) {
    free(o->message);
    o->message = NULL;
    mpq_clear(o->q);
}

/* msg NULL means the copy or an earlier step ran out of memory. */
static void set_failure(struct cc_calc_outcome *o, const char *code, const char *msg) {
    o->ok = false;
    o->code = code;
    free(o->message);
    o->message = strdup(msg ? msg : "expression exhausted the memory ceiling");
}

/* |x| >= 10**4300 means more than 4300 decimal digits. */
static bool too_large_to_format(const mpq_t q) {
    if (mpz_sizeinbase(mpq_numref(q), 10) <= CALC_FORMAT_DIGITS &&
        mpz_sizeinbase(mpq_denref(q), 10) <= CALC_FORMAT_DIGITS)
        return false;
    mpz_t lim;
    mpz_init(lim);
    mpz_ui_pow_ui(lim, 10, CALC_FORMAT_DIGITS);
    bool big = mpz_cmpabs(mpq_numref(q), lim) >= 0 || mpz_cmp(mpq_denref(q), lim) >= 0;
    mpz_clear(lim);
    return big;
}

/* Moves an evaluated value (or the evaluation's failure) into o. */
static void settle(struct cc_calc_outcome *o, const struct calc_ev *e, int rc,
                   const struct calc_val *v) {
    if (rc != 0) {
        set_failure(o, e->code, e->msg);
        o->remedy = e->remedy;
    } else if (v->is_bool) {
        o->ok = true;
        o->is_bool = true;
        o->truth = mpq_sgn(v->q) != 0;
    } else if (too_large_to_format(v->q)) {
        set_failure(o, "resource_exhausted", "result too large to format");
    } else {
        o->ok = true;
        mpq_set(o->q, v->q);
        o->funcs = e->funcs;
        o->consts = e->consts;
    }
}

static void evaluate_tree(const struct cc_node *root, struct cc_calc_outcome *o) {
    struct calc_ev e = {0};
    struct calc_val v;
    mpq_init(v.q);
    v.is_bool = false;
    settle(o, &e, calc_eval(&e, root, &v), &v);
    free(e.msg);
    mpq_clear(v.q);
}

void cc_calc_evaluate(const char *src, size_t len, struct cc_calc_outcome *o) {
    /* One arena for every evaluation of this (single-threaded) worker,
     * reset after each: the values leave it copied into o. */
    static struct cc_arena *a;
    if (!a && !(a = cc_arena_new())) {
        set_failure(o, "resource_exhausted", NULL);
        return;
    }
    struct cc_expr_error err = {0};
    const struct cc_node *root = cc_expr_screen_parse(a, src, len, CC_DIALECT_PYTHON, &err);
    if (root) evaluate_tree(root, o);
    else set_failure(o, err.code, err.message);
    cc_arena_reset(a);
}

json_t *cc_tool_calc_exact(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *j = json_object_get(args, "expr");
    if (!json_is_string(j)) return cc_err("validation", "expr must be a string");
    struct cc_calc_outcome o;
    cc_calc_outcome_init(&o);
    cc_calc_evaluate(json_string_value(j), json_string_length(j), &o);
    json_t *r;
    if (!o.ok) {
        r = cc_err(o.code, "%s", o.message ? o.message : "evaluation failed");
        if (o.remedy) json_object_set_new(r, "remedy", json_string(o.remedy));
    } else if (o.is_bool) {
        r = cc_ok();
        json_object_set_new(r, "value", json_boolean(o.truth));
        json_object_set_new(r, "type", json_string("bool"));
    } else {
        r = calc_render_number(&o);
    }
    cc_calc_outcome_clear(&o);
    return r;
}
