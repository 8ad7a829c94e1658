/* Injection attempts against every CAS tool: each must be refused with the
 * code TOOLS.md 2.1-2.3 gives it, and nothing may be read or written. The
 * hostile text is placed in every string argument each tool evaluates. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/check.h"
#include "workers/symbolic/sym_tools.h"

typedef json_t *(*tool_fn)(json_t *, cc_wctx *);

/* One way of handing an expression to a tool. */
struct slot {
    const char *label;
    tool_fn fn;
    json_t *(*args)(const char *text);
};

static json_t *a_eval(const char *t) { return json_pack("{s:s}", "expression", t); }
static json_t *a_simp(const char *t) { return json_pack("{s:s}", "expr", t); }
static json_t *a_solve(const char *t) { return json_pack("{s:s, s:s}", "expr", t, "var", "x"); }
static json_t *a_lim_expr(const char *t) { return json_pack("{s:s, s:s}", "expr", t, "point", "0"); }
static json_t *a_lim_pt(const char *t) { return json_pack("{s:s, s:s}", "expr", "x", "point", t); }
static json_t *a_equiv_a(const char *t) { return json_pack("{s:s, s:s}", "a", t, "b", "1"); }
static json_t *a_equiv_b(const char *t) { return json_pack("{s:s, s:s}", "a", "1", "b", t); }
static json_t *a_linear(const char *t) { return json_pack("{s:s, s:s}", "system", t, "variables", "x"); }
static json_t *a_matrix(const char *t) {
    return json_pack("{s:[[s, i], [i, i]], s:s}", "rows", t, 1, 2, 3, "op", "det");
}

static const struct slot SLOTS[] = {
    {"evaluate_expression", cc_tool_evaluate_expression, a_eval},
    {"simplify_expression", cc_tool_simplify_expression, a_simp},
    {"solve_expression", cc_tool_solve_expression, a_solve},
    {"limit_expression.expr", cc_tool_limit_expression, a_lim_expr},
    {"limit_expression.point", cc_tool_limit_expression, a_lim_pt},
    {"algebraic_equiv.a", cc_tool_algebraic_equiv, a_equiv_a},
    {"algebraic_equiv.b", cc_tool_algebraic_equiv, a_equiv_b},
    {"solve_linear", cc_tool_solve_linear, a_linear},
    {"matrix", cc_tool_matrix, a_matrix},
};
#define NSLOTS (sizeof SLOTS / sizeof SLOTS[0])

/* Runs text through every slot and checks the code (and, when want_msg is
 * not NULL, that the message contains it). */
static void refused_everywhere(const char *text, const char *code, const char *want_msg) {
    for (size_t i = 0; i < NSLOTS; i++) {
        json_t *args = SLOTS[i].args(text);
        json_t *r = args ? SLOTS[i].fn(args, NULL) : NULL;
        const char *got = json_string_value(json_object_get(r, "code"));
        const char *msg = json_string_value(json_object_get(r, "error"));
        CHECK(json_is_false(json_object_get(r, "ok")));
        if (!got || strcmp(got, code) != 0 || (want_msg && (!msg || !strstr(msg, want_msg))))
            fprintf(stderr, "  %s: %.60s... -> %s / %s\n", SLOTS[i].label, text,
                    got ? got : "(none)", msg ? msg : "(none)");
        CHECK_STREQ(got, code);
        if (want_msg)
            CHECK(msg && strstr(msg, want_msg));
        json_decref(r);
        json_decref(args);
    }
}

static bool exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 || errno != ENOENT;
}

static void test_file_access(void) {
    char marker[64];
    snprintf(marker, sizeof marker, "/tmp/cc_sym_inject_%ld", (long)getpid());
    bool tmp_x_before = exists("/tmp/x");
    refused_everywhere("read(\"/etc/passwd\")", "permission_denied", "string literals");
    refused_everywhere("write(\"/tmp/x\",1)", "permission_denied", "string literals");
    refused_everywhere("open('/tmp/x','w')", "permission_denied", "string literals");
    char w[160];
    snprintf(w, sizeof w, "write('%s', 1)", marker);
    refused_everywhere(w, "permission_denied", NULL);
    /* without quotes a path is not even a token sequence we accept */
    refused_everywhere("read(/etc/passwd)", "validation", NULL);
    CHECK(!exists(marker));
    if (!tmp_x_before)
        CHECK(!exists("/tmp/x"));
}

static void test_python_escapes(void) {
    refused_everywhere("system(\"id\")", "permission_denied", NULL);
    refused_everywhere("__import__('os')", "permission_denied", NULL);
    refused_everywhere("__import__", "permission_denied", "leading underscores");
    refused_everywhere("().__class__", "permission_denied", NULL);
    refused_everywhere("x.real", "permission_denied", "attribute access");
    refused_everywhere("lambda: 1", "permission_denied", "keyword 'lambda'");
    refused_everywhere("Matrix([[1,2],[3,4]])", "permission_denied", "matrix");
    refused_everywhere("x := 1", "permission_denied", NULL);
}

/* giac commands that exist in giac's own language but not in ours: an
 * unknown function, never a call into giac. */
static void test_giac_commands(void) {
    static const char *const cmds[] = {
        "system(1)", "purge(x)", "read(x)", "write(x, 1)", "fopen(x)", "restart(1)",
        "cas_setup(0)", "shell(x)", "eval(x)", "sto(1, x)", "assume(x > 0)", "Pause(1)",
        "subst(x, x, 1)", "evalf(x)", "input(x)", "print(x)", "time(x)", "readrgb(x)",
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        refused_everywhere(cmds[i], "validation", "unknown function");
}

static char *repeat3(const char *a, size_t na, const char *mid, const char *b, size_t nb) {
    size_t la = strlen(a), lm = strlen(mid), lb = strlen(b);
    char *s = malloc(la * na + lm + lb * nb + 1);
    if (!s)
        return NULL;
    char *p = s;
    for (size_t i = 0; i < na; i++, p += la)
        memcpy(p, a, la);
    memcpy(p, mid, lm);
    p += lm;
    for (size_t i = 0; i < nb; i++, p += lb)
        memcpy(p, b, lb);
    *p = '\0';
    return s;
}

static void test_sizes(void) {
    char *deep = repeat3("(", 50000, "x", ")", 50000);
    char *longx = repeat3("x+", 60000, "1", "", 0);
    char *nested = repeat3("(", 999, "x", ")", 999);   /* under the length cap */
    char *towers = repeat3("x**", 600, "x", "", 0);
    CHECK(deep && longx && nested && towers);
    if (deep && longx && nested && towers) {
        refused_everywhere(deep, "resource_exhausted", "too long");
        refused_everywhere(longx, "resource_exhausted", "too long");
        refused_everywhere(nested, "resource_exhausted", NULL);
        refused_everywhere(towers, "resource_exhausted", NULL);
    }
    free(deep);
    free(longx);
    free(nested);
    free(towers);
    refused_everywhere("9**9**9", "resource_exhausted", "power tower");
    refused_everywhere("2**100000", "resource_exhausted", "30103 digits");
    refused_everywhere("(x+1)**300", "resource_exhausted", NULL);
    refused_everywhere("factorial(100000)", "resource_exhausted", "1463");
}

/* Bad input gets clear errors that name what is wrong. */
static void test_bad_input(void) {
    refused_everywhere("x +", "validation", "position");
    refused_everywhere("sinx(2)", "validation", "sinx");
    refused_everywhere("foo(3)", "validation", "foo");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_file_access);
    RUN(test_python_escapes);
    RUN(test_giac_commands);
    RUN(test_sizes);
    RUN(test_bad_input);
    return check_summary("sym_security");
}
