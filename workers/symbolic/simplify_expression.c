/* simplify_expression (TOOLS.md 3.3.18): simplified, factored and expanded
 * forms of one expression. */
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
