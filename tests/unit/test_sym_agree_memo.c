/* The seventh symbolic pass removed repeated work from the checks; each
 * test here locks out an answer the shortcut could have changed.
 *
 * sym_agree_memo: simplify's forms are checked against the input once per
 * distinct text (x + 1 as simplified, factored and expanded). A memo that
 * answered a text with another text's verdict, or kept answering once
 * full, would pass a form that disagrees with the input.
 *
 * differ() in sym_numcheck.c skips the two moduli when |a - b| is within
 * the tolerance itself; a difference above it must still be measured
 * against max(1, |a|, |b|). */
#include <stdio.h>
#include <string.h>

#include "tests/unit/check.h"
#include "workers/common/expr_arena.h"
#include "workers/common/expr_parse.h"
#include "workers/symbolic/sym_input.h"
#include "workers/symbolic/sym_numcheck.h"

static struct cc_node *parse(struct cc_arena *ar, const char *text) {
    struct cc_expr_error err = {0};
    return cc_expr_screen_parse(ar, text, strlen(text), CC_DIALECT_SYMBOLIC, &err);
}

/* forms of each input: agreeing ones, real-only and wrong ones, repeated,
 * more distinct ones than the memo holds */
static const char *const FORMS[] = {
    "log(x/(x + 1))", "-log(x + 1) + log(x)", "log(x) - log(x + 1)", "log(x)", "0",
    "x + 1",          "(x - 1)*(x + 1)",      "x**2 - 1",            "x**2 + 1", "Abs(x)**2 - 1",
    "log(x*(x + 1))", "sqrt(x**2)",           "x",                   "floor(x)", "log(x/(x + 1))",
    "x + 1",          "x**2 - 1",             "0",
};
#define NFORMS (sizeof FORMS / sizeof *FORMS)

static void memo_gives_sym_agrees_verdicts(const char *input) {
    struct cc_arena *ar = cc_arena_new();
    struct cc_node *in = parse(ar, input);
    CHECK(in != NULL);
    if (!in) {
        cc_arena_free(ar);
        return;
    }
    struct sym_agree_memo m, t;
    sym_agree_memo_init(&m, in);
    sym_agree_memo_init_text(&t, input);
    int agreeing = 0, refused = 0;
    for (int round = 0; round < 2; round++)
        for (size_t i = 0; i < NFORMS; i++) {
            bool want = sym_agrees(in, FORMS[i]);
            CHECK_INTEQ(sym_agrees_memo(&m, FORMS[i]), want);
            CHECK_INTEQ(sym_agrees_memo(&t, FORMS[i]), want);
            CHECK_INTEQ(sym_text_agrees(input, FORMS[i]), want);
            agreeing += want;
            refused += !want;
        }
    /* both verdicts occur, or the comparison shows nothing */
    CHECK(agreeing > 0);
    CHECK(refused > 0);
    sym_agree_memo_clear(&m);
    sym_agree_memo_clear(&t);
    cc_arena_free(ar);
}

static void test_agree_memo_never_answers_for_another_text(void) {
    memo_gives_sym_agrees_verdicts("-log(x + 1) + log(x)"); /* branch cuts: 16 points */
    memo_gives_sym_agrees_verdicts("x**2 - 1");             /* entire: 4 points */
    memo_gives_sym_agrees_verdicts("(x**2 - 1)/(x - 1)");
}

/* an input that does not parse agrees with nothing, as sym_text_agrees */
static void test_agree_memo_unparsable_input_agrees_with_nothing(void) {
    struct sym_agree_memo t;
    sym_agree_memo_init_text(&t, "log(x");
    CHECK(!sym_agrees_memo(&t, "log(x)"));
    CHECK(!sym_agrees_memo(&t, "log(x"));
    CHECK(!sym_text_agrees("log(x", "log(x)"));
    sym_agree_memo_clear(&t);
    /* a memo never checked holds nothing to free (lazily parsed) */
    sym_agree_memo_init_text(&t, "x + 1");
    sym_agree_memo_clear(&t);
}

static int mismatches(const char *a, const char *b) {
    struct cc_arena *ar = cc_arena_new();
    struct cc_node *na = parse(ar, a), *nb = parse(ar, b);
    CHECK(na && nb);
    struct sym_domains d = {0, NULL, NULL, CC_DOM_COMPLEX};
    struct sym_num_verdict v = {0};
    if (na && nb)
        sym_numcheck(na, nb, &d, 16, &v);
    cc_arena_free(ar);
    return v.points == 16 ? v.mismatches : -1;
}

/* 1e-25 relative to max(1, |a|, |b|): below it agree, above it differ,
 * whether the absolute difference is below 1e-25 or not */
static void test_differ_large_values_still_relative(void) {
    CHECK_INTEQ(mismatches("x", "x + 10**(-30)"), 0);
    CHECK_INTEQ(mismatches("x", "x + 10**(-20)"), 16);
    /* |a - b| = 1, far above 1e-25, but 1e-31 of |a|: agree */
    CHECK_INTEQ(mismatches("10**30*x + 10**31", "10**30*x + 10**31 + 1"), 0);
    /* 1e-19 of |a|: differ */
    CHECK_INTEQ(mismatches("10**20*x + 10**21", "10**20*x + 10**21 + 100"), 16);
    /* the boundary's neighbourhood at |a| near 1: 2e-25 differs, 5e-26 not */
    CHECK_INTEQ(mismatches("1 + x/10**30", "1 + x/10**30 + 2/10**25"), 16);
    CHECK_INTEQ(mismatches("1 + x/10**30", "1 + x/10**30 + 5/10**26"), 0);
}

int main(void) {
    RUN(test_agree_memo_never_answers_for_another_text);
    RUN(test_agree_memo_unparsable_input_agrees_with_nothing);
    RUN(test_differ_large_values_still_relative);
    return check_summary("sym_agree_memo");
}
