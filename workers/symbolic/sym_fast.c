/* The symbolic fast paths (see sym_fast.h). */
#include "workers/symbolic/sym_fast.h"

#include <stdlib.h>
#include <string.h>

#include "workers/symbolic/sym_factor.h"
#include "workers/symbolic/sym_poly.h"
#include "workers/symbolic/sym_print.h"

bool sym_fast_enabled(void) {
    static int on = -1;
    if (on < 0) {
        const char *v = getenv("CODECALC_SYMBOLIC_FASTPATH");
        on = !(v && !strcmp(v, "0"));
    }
    return on;
}

/* The polynomial of root when it is one the CAS keeps as written: a number,
 * or a polynomial written expanded. 0, or -1 (nothing to free). */
static int kept_polynomial(const struct cc_node *root, struct sym_vars *v, struct sym_poly *p) {
    memset(v, 0, sizeof *v);
    if (sym_poly_from_ast(root, v, p) < 0)
        return -1;
    if (v->n == 0 || sym_poly_written_expanded(root))
        return 0;
    sym_poly_clear(p);
    return -1;
}

struct sym_node *sym_fast_value(const struct cc_node *root) {
    struct sym_vars v;
    struct sym_poly p;
    if (kept_polynomial(root, &v, &p) < 0)
        return NULL;
    struct sym_node *t = sym_poly_tree(&p, &v);
    sym_poly_clear(&p);
    return t;
}

/* Names simplify_expression's rewritings look for in the printed input
 * (simplify_expression.c REWRITES): a symbol spelled with one of them
 * would trigger a rewriting, whose answer this path does not know. */
static bool rewrite_free(const char *text) {
    static const char *const names[] = {"sin", "cos", "tan", "sec", "exp", "log", "/", "I"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strstr(text, names[i]))
            return false;
    return true;
}

json_t *sym_fast_simplify(const struct cc_node *root) {
    struct sym_vars v;
    struct sym_poly p;
    if (kept_polynomial(root, &v, &p) < 0)
        return NULL;
    json_t *out = NULL;
    char *text = NULL, *factored = NULL;
    struct sym_node *t = NULL, *f = NULL;
    if (v.n == 1 && sym_poly_nvars_used(&p, &v) == 1 && sym_poly_integral(&p)) {
        t = sym_poly_tree(&p, &v);
        text = t ? sym_print(t) : NULL;
        f = text && rewrite_free(text) ? sym_factor_univariate(&p, &v, 0) : NULL;
        factored = f ? sym_print(f) : NULL;
    }
    if (factored)
        out = json_pack("{s:b, s:s, s:s, s:s, s:s}", "ok", 1, "original", text, "simplified", text,
                        "factored", factored, "expanded", text);
    free(factored);
    free(text);
    sym_free(f);
    sym_free(t);
    sym_poly_clear(&p);
    return out;
}
