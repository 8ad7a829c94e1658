/* solve_expression (TOOLS.md 3.3.16): roots of one equation over C. */
#include <stdlib.h>
#include <string.h>

#include "workers/symbolic/sym_input.h"
#include "workers/symbolic/sym_print.h"
#include "workers/symbolic/sym_tools.h"

/* lhs and rhs of "a = b" (split at the first '=' when there is no "=="),
 * or of "a = 0". *rhs is NULL for the latter. */
static int parse_sides(const char *text, cc_gexpr **lhs, cc_gexpr **rhs, json_t **err) {
    const char *eq = strstr(text, "==") ? NULL : strchr(text, '=');
    *rhs = NULL;
    *lhs = sym_input(text, eq ? (size_t)(eq - text) : strlen(text), "", err);
    if (!*lhs)
        return -1;
    if (!eq)
        return 0;
    *rhs = sym_input(eq + 1, strlen(eq + 1), "", err);
    if (!*rhs) {
        cc_gexpr_free(*lhs);
        return -1;
    }
    return 0;
}

/* "Eq(<lhs>, <rhs>)" as a new JSON string. */
static json_t *equation(cc_gexpr *lhs, cc_gexpr *rhs, json_t **err) {
    struct cc_sym_err se = {0};
    struct sym_node *l = cc_giac_tree(lhs, &se);
    struct sym_node *r = l ? (rhs ? cc_giac_tree(rhs, &se) : sym_int(0)) : NULL;
    if (!r) {
        sym_free(l);
        *err = sym_err_json(&se, "");
        return NULL;
    }
    struct sym_node *e = sym_rel(SYM_EQ, l, r);
    char *s = e ? sym_print(e) : NULL;
    sym_free(e);
    json_t *j = s ? json_string(s) : NULL;
    free(s);
    if (!j)
        *err = cc_err("resource_exhausted", "expression exhausted the memory ceiling");
    return j;
}

static json_t *solve(cc_gexpr *lhs, cc_gexpr *rhs, cc_gexpr *var, const char *name) {
    json_t *err = NULL;
    struct cc_sym_err se = {0};
    cc_gexpr *lr[2] = {lhs, rhs};
    cc_gexpr *e = rhs ? cc_giac_apply(CC_G_SUB, lr, 2, &se) : lhs;
    cc_gexpr *ev[2] = {e, var};
    cc_gexpr *sol = e ? cc_giac_apply(CC_G_SOLVE, ev, 2, &se) : NULL;
    if (e != lhs)
        cc_gexpr_free(e);
    if (!sol)
        return sym_err_json(&se, "");
    json_t *eqn = equation(lhs, rhs, &err);
    json_t *arr = eqn ? sym_print_list(sol, &err) : NULL;
    cc_gexpr_free(sol);
    if (!arr) {
        json_decref(eqn);
        return err;
    }
    return json_pack("{s:b, s:o, s:s, s:o}", "ok", 1, "equation", eqn, "variable", name,
                     "solutions", arr);
}

json_t *cc_tool_solve_expression(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *err = NULL;
    const char *text = sym_arg_str(args, "expr", NULL, &err);
    if (!text)
        return err;
    if (strlen(text) > 2000 * 4)
        return cc_err("resource_exhausted", "expression too long (max 2000 chars)");
    char *name = NULL;
    cc_gexpr *var = sym_var(args, "var", &name, &err);
    if (!var)
        return err;
    cc_gexpr *lhs, *rhs;
    json_t *out = parse_sides(text, &lhs, &rhs, &err) < 0 ? err : solve(lhs, rhs, var, name);
    if (out != err) {
        cc_gexpr_free(lhs);
        cc_gexpr_free(rhs);
    }
    cc_gexpr_free(var);
    free(name);
    return out;
}
