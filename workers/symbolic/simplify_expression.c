/* simplify_expression (TOOLS.md 3.3.18) and algebraic_equiv (3.4.2): both
 * are "parse, then ask the CAS for canonical forms". */
#include <stdlib.h>
#include <string.h>

#include "workers/symbolic/sym_input.h"
#include "workers/symbolic/sym_tools.h"

/* Sets out[key] = printed(op(g)); returns 0, or -1 with *err. */
static int set_form(json_t *out, const char *key, enum cc_giac_op op, cc_gexpr *g, json_t **err) {
    struct cc_sym_err se = {0};
    cc_gexpr *r = cc_giac_apply(op, &g, 1, &se);
    if (!r) {
        *err = sym_err_json(&se, "");
        return -1;
    }
    json_t *s = sym_print_json(r, err);
    cc_gexpr_free(r);
    if (!s)
        return -1;
    json_object_set_new(out, key, s);
    return 0;
}

json_t *cc_tool_simplify_expression(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *err = NULL;
    const char *text = sym_arg_str(args, "expr", NULL, &err);
    if (!text)
        return err;
    cc_gexpr *g = sym_input(text, strlen(text), "", &err);
    if (!g)
        return err;
    json_t *orig = sym_print_json(g, &err);
    json_t *out = orig ? json_pack("{s:b, s:o}", "ok", 1, "original", orig) : NULL;
    if (out && (set_form(out, "simplified", CC_G_SIMPLIFY, g, &err) < 0 ||
                set_form(out, "factored", CC_G_FACTOR, g, &err) < 0 ||
                set_form(out, "expanded", CC_G_EXPAND, g, &err) < 0)) {
        json_decref(out);
        out = NULL;
    }
    cc_gexpr_free(g);
    return out ? out : err;
}

#define EQUIV_CAVEAT \
    "identity over symbolic reals says nothing about float rounding, integer truncation or modular overflow"

static json_t *equiv(cc_gexpr *a, cc_gexpr *b) {
    json_t *err = NULL;
    struct cc_sym_err se = {0};
    cc_gexpr *ab[2] = {a, b};
    cc_gexpr *d = cc_giac_apply(CC_G_SUB, ab, 2, &se);
    cc_gexpr *sd = d ? cc_giac_apply(CC_G_SIMPLIFY, &d, 1, &se) : NULL;
    cc_gexpr_free(d);
    if (!sd)
        return sym_err_json(&se, "");
    json_t *pa = sym_print_json(a, &err);
    json_t *pb = pa ? sym_print_json(b, &err) : NULL;
    char *pd = pb ? sym_print_str(sd, &err) : NULL;
    cc_gexpr_free(sd);
    if (!pd) {
        json_decref(pa);
        json_decref(pb);
        return err;
    }
    bool same = strcmp(pd, "0") == 0;
    json_t *out = json_pack("{s:b, s:o, s:o, s:b, s:s, s:s?}", "ok", 1, "a", pa, "b", pb,
                            "identical", same, "difference", pd, "caveat",
                            same ? NULL : EQUIV_CAVEAT);
    free(pd);
    return out;
}

json_t *cc_tool_algebraic_equiv(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *err = NULL;
    const char *ta = sym_arg_str(args, "a", NULL, &err);
    const char *tb = ta ? sym_arg_str(args, "b", NULL, &err) : NULL;
    if (!tb)
        return err;
    cc_gexpr *a = sym_input(ta, strlen(ta), "a: ", &err);
    if (!a)
        return err;
    cc_gexpr *b = sym_input(tb, strlen(tb), "b: ", &err);
    json_t *out = b ? equiv(a, b) : err;
    cc_gexpr_free(a);
    cc_gexpr_free(b);
    return out;
}
