/* evaluate_expression's answer to N(e) / N(e, d) from our own evaluator
 * (sym_nval.h), for a constant e the evaluator covers; the CAS only
 * decides whether a part that will not settle is exactly 0. */
#include "workers/symbolic/sym_nanswer.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workers/common/tool_api.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_numeric.h"
#include "workers/symbolic/sym_numeval.h"
#include "workers/symbolic/sym_nval.h"
#include "workers/symbolic/sym_print.h"

static void free_stripped(struct cc_node *n);

static bool is_n_call(const struct cc_node *n) {
    return n->kind == CC_N_CALL && !strcmp(n->v.name, "N") && n->nchild >= 1 && n->nchild <= 2;
}

/* A copy of n with every N(e[, d]) replaced by a copy of e: the exact
 * expression whose value the N calls round. The nodes are new; literal
 * payloads (integers, names) are shared with n. NULL on OOM. */
static struct cc_node *strip_n(const struct cc_node *n) {
    while (is_n_call(n))
        n = n->child[0];
    struct cc_node *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *n;
    c->child = NULL;
    if (!n->nchild)
        return c;
    c->child = calloc(n->nchild, sizeof *c->child);
    if (!c->child) {
        free(c);
        return NULL;
    }
    for (uint32_t i = 0; i < n->nchild; i++)
        if (n->child[i] && !(c->child[i] = strip_n(n->child[i]))) {
            c->nchild = i;
            free_stripped(c);
            return NULL;
        }
    return c;
}

static void free_stripped(struct cc_node *n) {
    if (!n)
        return;
    for (uint32_t i = 0; i < n->nchild && n->child; i++)
        free_stripped(n->child[i]);
    free(n->child);
    free(n);
}

/* re(arg) or im(arg) is exactly 0 by the CAS's exact simplification. Not
 * asked of an argument with a float: giac rounds those to its epsilon.
 * N calls inside arg are asked without their N (giac's evalf of N(pi) -
 * pi is not 0). */
static bool cas_part_zero(const struct cc_node *arg, int part, void *ctx) {
    (void)ctx;
    if (cc_node_any(arg, cc_node_is_float))
        return false;
    struct cc_node *bare = NULL;
    if (cc_node_any(arg, is_n_call) && !(arg = bare = strip_n(arg)))
        return false;
    struct cc_node *kid = (struct cc_node *)arg;
    struct cc_node call = {.kind = CC_N_CALL, .nchild = 1, .child = &kid};
    call.v.name = part ? "im" : "re";
    struct cc_sym_err se = {0};
    cc_gexpr *g = cc_giac_from_ast(&call, &se);
    bool zero = g && cc_giac_is_zero(g);
    cc_gexpr_free(g);
    free_stripped(bare);
    return zero;
}

/* N's digits argument: absent (15), or a positive integer literal. */
static int requested_digits(const struct cc_node *n) {
    if (n->nchild == 1)
        return SYM_NV_DEFAULT_DIGITS;
    const struct cc_node *d = n->child[1];
    if (d->kind != CC_N_INT || mpz_sgn(d->v.z) <= 0 || !mpz_fits_sint_p(d->v.z))
        return -1;
    return (int)mpz_get_si(d->v.z);
}

/* The 12-digit `value` (TOOLS.md 2.3) of the printed parts. */
static char *value_of(const struct sym_nv *v) {
    if (!v->re && !v->im)
        return strdup("0");
    char *re = sym_nv_decimal(v->re, v->exp_re);
    char *im = v->im ? sym_nv_decimal(v->im, v->exp_im) : NULL;
    char *out = re && (im || !v->im) ? sym_numeric_value(re, im, false) : NULL;
    free(re);
    free(im);
    return out;
}

static const char *type_of(const struct sym_nv *v) {
    if (!v->re && !v->im)
        return "Zero";
    return !v->im ? "Float" : !v->re ? "Mul" : "Add";
}

static json_t *n_result(enum sym_nv_rc rc, struct sym_nv *vp);

static json_t *answer(const struct sym_nv *v) {
    struct sym_node *t = sym_nv_tree(v);
    char *printed = t ? sym_print(t) : NULL;
    char *value = value_of(v);
    sym_free(t);
    json_t *out = printed && value
                      ? json_pack("{s:b, s:s, s:s, s:s, s:s, s:s}", "ok", 1, "expression", printed,
                                  "simplified", printed, "expanded", printed, "type", type_of(v),
                                  "value", value)
                      : NULL;
    free(printed);
    free(value);
    return out ? out
               : cc_err("resource_exhausted",
                        "expression exceeded a resource limit while evaluating: out of memory");
}

/* The fewest digits any N call in n asks for (a float literal counts as
 * 15, what SymPy prints of one, or its own digits when it has more);
 * INT_MAX when n holds neither; -1 when an
 * N's digits are not a positive integer literal. */
static int fewest_digits(const struct cc_node *n) {
    int best = INT_MAX;
    if (is_n_call(n))
        best = requested_digits(n);
    else if (n->kind == CC_N_FLOAT) /* a long literal keeps its digits, as SymPy's Float */
        best = sym_literal_digits(n->v.f.text) > SYM_NV_DEFAULT_DIGITS
                   ? sym_literal_digits(n->v.f.text)
                   : SYM_NV_DEFAULT_DIGITS;
    if (best < 1)
        return -1;
    for (uint32_t i = 0; i < n->nchild; i++) {
        if (!n->child[i] || (is_n_call(n) && i == 1))
            continue;
        int d = fewest_digits(n->child[i]);
        if (d < 0)
            return -1;
        if (d < best)
            best = d;
    }
    return best;
}

/* A constant holding N calls or float literals below its top: the value of
 * the whole, rounded to the fewest digits asked for (its N calls and
 * literals taken as their exact values: 1 + N(exp(100) + 1 - exp(100)) is
 * 2., where giac's evalf gave 1.0; N(tanh(2 + I)) + E got giac's wrong
 * complex tanh; 2*N(I/10**20) was 0.0). What our evaluator cannot value
 * goes on to the CAS as before, or is refused as N itself is. */
static json_t *nested_answer(const struct cc_node *root) {
    int digits = fewest_digits(root);
    if (digits < 1 || digits == INT_MAX)
        return NULL;
    const char *names[1];
    size_t nsyms = 0;
    sym_numeval_symbols(root, names, &nsyms, 1);
    if (nsyms > 0)
        return NULL;
    if (!cc_node_any(root, is_n_call))
        return NULL; /* float literals alone: sym_float_check, after the CAS */
    struct sym_nv v;
    return n_result(sym_nvalue(root, digits, cas_part_zero, NULL, &v), &v);
}

json_t *sym_n_answer(const struct cc_node *root) {
    if (!is_n_call(root))
        return nested_answer(root);
    int digits = requested_digits(root);
    int inner = fewest_digits(root->child[0]);
    if (inner < 0)
        return NULL;
    if (inner < digits)
        digits = inner;
    const char *names[1];
    size_t nsyms = 0;
    sym_numeval_symbols(root->child[0], names, &nsyms, 1);
    if (digits < 1 || nsyms > 0)
        return NULL;
    struct sym_nv v;
    return n_result(sym_nvalue(root->child[0], digits, cas_part_zero, NULL, &v), &v);
}

static json_t *n_result(enum sym_nv_rc rc, struct sym_nv *vp) {
    struct sym_nv v = *vp;
    switch (rc) {
    case SYM_NV_DECLINE: return NULL;
    case SYM_NV_UNRESOLVED:
        return cc_err("resource_exhausted",
                      "the digits of the value did not settle within the precision limit "
                      "(a part may be exactly 0 without the CAS being able to show it, or "
                      "need more than %d bits)",
                      SYM_NV_MAX_BITS);
    case SYM_NV_RANGE:
        return cc_err("validation",
                      "N cannot evaluate this: the value, a part of it or a step of it is "
                      "beyond 10**39456 (or below 10**-39456) in magnitude");
    case SYM_NV_COMPLEX_GAP:
        return cc_err("validation",
                      "N cannot evaluate this: it applies a function to a complex number "
                      "where neither our evaluator nor the CAS has a reliable value (erf, "
                      "erfc beyond |z| = 12, Ei beyond |z| = 60, zeta beyond |Im z| = 1000, "
                      "a LambertW branch whose iteration finds no root)");
    case SYM_NV_OK: break;
    }
    json_t *out = answer(&v);
    sym_nv_clear(&v);
    return out;
}

bool sym_n_value(const struct cc_node *root, json_t *out, enum sym_nv_rc *why) {
    const char *names[1];
    size_t nsyms = 0;
    *why = SYM_NV_DECLINE;
    sym_numeval_symbols(root, names, &nsyms, 1);
    if (nsyms > 0 || cc_node_any(root, cc_node_is_float))
        return false;
    struct sym_nv v;
    enum sym_nv_rc rc = sym_nvalue(root, 12, cas_part_zero, NULL, &v);
    *why = rc;
    if (rc != SYM_NV_OK)
        return false;
    char *value = value_of(&v);
    sym_nv_clear(&v);
    if (!value)
        return false;
    json_object_set_new(out, "value", json_string(value));
    free(value);
    return true;
}

json_t *sym_float_answer(const struct cc_node *root) {
    if (!cc_node_any(root, cc_node_is_float) || cc_node_any(root, is_n_call))
        return NULL;
    int digits = fewest_digits(root);
    const char *names[1];
    size_t nsyms = 0;
    sym_numeval_symbols(root, names, &nsyms, 1);
    if (digits < 1 || digits == INT_MAX || nsyms > 0)
        return NULL;
    struct sym_nv v;
    if (sym_nvalue(root, digits, cas_part_zero, NULL, &v) != SYM_NV_OK)
        return NULL;
    json_t *out = answer(&v);
    sym_nv_clear(&v);
    if (out && !json_is_true(json_object_get(out, "ok"))) {
        json_decref(out);
        return NULL;
    }
    return out;
}
