/* truth_table against the grammar, limits and examples of TOOLS.md 3.3.23. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "tests/unit/check.h"
#include "workers/common/dispatch.h"

static json_t *tt_page(const char *expr, const char *cursor) {
    json_t *args = json_pack("{s:s}", "expression", expr);
    if (cursor) json_object_set_new(args, "cursor", json_string(cursor));
    json_t *r = NULL;
    for (const struct cc_tool_def *d = cc_dispatch_calc; d->op; d++)
        if (strcmp(d->op, "truth_table") == 0) r = d->fn(args, NULL);
    json_decref(args);
    return r;
}

static json_t *tt(const char *expr) { return tt_page(expr, NULL); }

/* Every page of a table joined into one result (rows appended). */
static json_t *tt_all(const char *expr) {
    json_t *r = tt(expr);
    while (r && json_is_string(json_object_get(r, "next_cursor"))) {
        char cursor[32];
        snprintf(cursor, sizeof cursor, "%s", json_string_value(json_object_get(r, "next_cursor")));
        json_t *next = tt_page(expr, cursor);
        json_array_extend(json_object_get(r, "rows"), json_object_get(next, "rows"));
        json_object_set(r, "next_cursor", json_object_get(next, "next_cursor"));
        json_decref(next);
    }
    return r;
}

static const char *str(const json_t *r, const char *key) {
    return json_string_value(json_object_get(r, key));
}

/* Number of rows whose result is true. */
static int true_rows(const json_t *r) {
    int n = 0;
    json_t *rows = json_object_get(r, "rows");
    for (size_t i = 0; i < json_array_size(rows); i++)
        n += json_is_true(json_object_get(json_array_get(rows, i), "result"));
    return n;
}

/* The result column as a string of T/F, row by row. */
static char *column(const json_t *r) {
    json_t *rows = json_object_get(r, "rows");
    size_t n = json_array_size(rows);
    char *s = calloc(n + 1, 1);
    for (size_t i = 0; s && i < n; i++)
        s[i] = json_is_true(json_object_get(json_array_get(rows, i), "result")) ? 'T' : 'F';
    return s;
}

static void check_column(const char *expr, const char *want) {
    json_t *r = tt(expr);
    char *col = column(r);
    CHECK_STREQ(col, want);
    free(col);
    json_decref(r);
}

static void test_example_and_or_not(void) {
    json_t *r = tt("a and b or not c");
    CHECK(json_is_true(json_object_get(r, "ok")));
    CHECK_STREQ(str(r, "expression"), "a and b or not c");
    CHECK_INTEQ(json_integer_value(json_object_get(r, "row_count")), 8);
    CHECK(json_is_true(json_object_get(r, "satisfiable")));
    CHECK(json_is_false(json_object_get(r, "tautology")));
    CHECK_INTEQ(true_rows(r), 5);
    json_t *vars = json_object_get(r, "variables");
    CHECK_INTEQ(json_array_size(vars), 3);
    CHECK_STREQ(json_string_value(json_array_get(vars, 2)), "c");
    json_decref(r);
}

static void test_example_xor_rows(void) {
    json_t *r = tt("p xor q");
    json_t *rows = json_object_get(r, "rows");
    CHECK_INTEQ(json_array_size(rows), 4);
    static const int want[4][3] = {{0, 0, 0}, {0, 1, 1}, {1, 0, 1}, {1, 1, 0}};
    for (size_t i = 0; i < 4; i++) {
        json_t *row = json_array_get(rows, i);
        CHECK_INTEQ(json_object_size(row), 3);
        CHECK(json_is_true(json_object_get(row, "p")) == want[i][0]);
        CHECK(json_is_true(json_object_get(row, "q")) == want[i][1]);
        CHECK(json_is_true(json_object_get(row, "result")) == want[i][2]);
        /* keys in variable order, then result */
        const char *keys[3];
        size_t k = 0;
        for (void *it = json_object_iter(row); it && k < 3; it = json_object_iter_next(row, it))
            keys[k++] = json_object_iter_key(it);
        CHECK(k == 3 && strcmp(keys[0], "p") == 0 && strcmp(keys[1], "q") == 0 &&
              strcmp(keys[2], "result") == 0);
    }
    json_decref(r);
}

static void test_example_implies(void) {
    check_column("a implies b", "TTFT");
    json_t *r = tt("a implies b implies a");
    CHECK(json_is_true(json_object_get(r, "tautology")));
    json_decref(r);
    /* right associativity: (a -> b) -> c differs from a -> (b -> c) */
    check_column("a implies b implies c", "TTTTTTFT");
    check_column("(a implies b) implies c", "FTFTTTFT");
}

static void test_precedence(void) {
    check_column("a or b and c", "FFFTTTTT");     /* a or (b and c) */
    check_column("a xor b or c", "FTTTTFFF");     /* a xor (b or c) */
    check_column("a iff b xor c", "TFFTFTTF");    /* a iff (b xor c) */
    check_column("not a and b", "FTFF");          /* (not a) and b */
    check_column("not not a", "FT");
    check_column("a iff b iff c", "FTTFTFFT");    /* left: (a iff b) iff c */
    check_column("A AND NoT a", "FF");            /* identifiers and keywords fold case */
    check_column("x_1 Or X_1", "FT");
}

static void test_constants_only(void) {
    json_t *r = tt("true and not false");
    CHECK_INTEQ(json_integer_value(json_object_get(r, "row_count")), 1);
    CHECK_INTEQ(json_array_size(json_object_get(r, "variables")), 0);
    CHECK(json_is_true(json_object_get(r, "tautology")));
    CHECK_INTEQ(json_object_size(json_array_get(json_object_get(r, "rows"), 0)), 1);
    json_decref(r);
    check_column("false", "F");
}

static void check_err(const char *expr, const char *code, const char *msg) {
    json_t *r = tt(expr);
    CHECK(json_is_false(json_object_get(r, "ok")));
    CHECK_STREQ(str(r, "code"), code);
    CHECK_STREQ(str(r, "error"), msg);
    json_decref(r);
}

static void test_errors(void) {
    check_err("A &&& B", "validation", "parse error: unexpected character '&' at position 2");
    check_err("", "validation", "parse error: empty expression");
    check_err("   ", "validation", "parse error: empty expression");
    check_err("a b", "validation", "parse error: unexpected token 'b'");
    check_err("a and or b", "validation", "parse error: unexpected token 'or'");
    check_err(")", "validation", "parse error: unexpected token ')'");
    check_err("(a and b", "validation", "parse error: missing closing parenthesis");
    check_err("a and", "validation", "parse error: unexpected end of expression");
    /* positions count characters, not bytes */
    check_err("\xc3\xa9 and b", "validation", "parse error: unexpected character '\xc3\xa9' at position 0");
    check_err("a \xc3\xa9\xe2\x82\xac", "validation",
              "parse error: unexpected character '\xc3\xa9' at position 2");
    check_err("a and b\xe2\x82\xac", "validation",
              "parse error: unexpected character '\xe2\x82\xac' at position 7");
}

static void check_remedy(const char *expr, const char *msg, const char *remedy) {
    json_t *r = tt(expr);
    CHECK(json_is_false(json_object_get(r, "ok")));
    CHECK_STREQ(str(r, "error"), msg);
    CHECK_STREQ(str(r, "remedy"), remedy);
    json_decref(r);
}

#define WORDS "; the operators are the words and, or, not, xor, implies, iff (and true, false)"

/* Regression (an agent writing `p -> q` or `a & !b` got "unexpected
 * character" and a remedy that said only "fix the arguments"): the
 * symbols stay refused (their precedence differs between languages) and
 * the remedy names the word for each. */
static void test_symbol_refused_without_naming_the_word(void) {
    check_remedy("p -> q", "parse error: unexpected character '-' at position 2", "write implies for '->'" WORDS);
    check_remedy("a <=> b", "parse error: unexpected character '<' at position 2", "write iff for '<=>'" WORDS);
    check_remedy("a && !b", "parse error: unexpected character '&' at position 2", "write and for '&&'" WORDS);
    check_remedy("!a", "parse error: unexpected character '!' at position 0", "write not for '!'" WORDS);
    check_remedy("a | b", "parse error: unexpected character '|' at position 2", "write or for '|'" WORDS);
    check_remedy("a \xe2\x86\x92 b", "parse error: unexpected character '\xe2\x86\x92' at position 2",
                 "write implies for '\xe2\x86\x92'" WORDS);
    check_remedy("a ^ b", "parse error: unexpected character '^' at position 2",
                 "write xor or and for '^' (xor in C and Python, and in logic notation)" WORDS);
    check_remedy("a != b", "parse error: unexpected character '!' at position 2",
                 "write xor for '!=', with parentheses (xor binds looser than or here)" WORDS);
    check_remedy("a $ b", "parse error: unexpected character '$' at position 2",
                 "the operators are the words and, or, not, xor, implies, iff (and true, false); parentheses group");
    /* A formula of words is untouched by the table of symbols. */
    check_column("a implies b", "TTFT");
}

static char *nested(int depth) {
    char *s = malloc((size_t)depth * 2 + 2);
    memset(s, '(', (size_t)depth);
    s[depth] = 'a';
    memset(s + depth + 1, ')', (size_t)depth);
    s[depth * 2 + 1] = '\0';
    return s;
}

static void test_limits(void) {
    char *ok100 = nested(100), *deep = nested(101);
    check_column(ok100, "FT");
    check_err(deep, "resource_exhausted", "parse error: expression nesting too deep (max 100)");
    free(ok100);
    free(deep);

    char *longer = malloc(2002);
    memset(longer, ' ', 2001);
    longer[0] = 'a';
    longer[2001] = '\0';
    check_err(longer, "resource_exhausted", "expression too long (max 2000 chars)");
    longer[2000] = '\0'; /* exactly 2000 is fine */
    check_column(longer, "FT");
    free(longer);

    check_err("a or b or c or d or e or f or g or h or i or j or k or l or m or n or o or p or q",
              "resource_exhausted", "too many variables (17 > 16); table would have 2^17 rows");

    /* 16 variables: paged under the size bound (issue 11 item 7), whole when joined */
    json_t *r = tt("a or b or c or d or e or f or g or h or i or j or k or l or m or n or o or p");
    CHECK(json_array_size(json_object_get(r, "rows")) < 65536);
    CHECK(json_is_string(json_object_get(r, "next_cursor")));
    json_decref(r);
    r = tt_all("a or b or c or d or e or f or g or h or i or j or k or l or m or n or o or p");
    CHECK_INTEQ(json_array_size(json_object_get(r, "rows")), 65536);
    CHECK_INTEQ(json_integer_value(json_object_get(r, "row_count")), 65536);
    CHECK_INTEQ(true_rows(r), 65535);
    json_t *last = json_array_get(json_object_get(r, "rows"), 65535);
    CHECK(json_is_true(json_object_get(last, "p")) && json_is_true(json_object_get(last, "a")));
    json_t *second = json_array_get(json_object_get(r, "rows"), 1);
    CHECK(json_is_true(json_object_get(second, "p")) && json_is_false(json_object_get(second, "o")));
    json_decref(r);

    /* a long chain of nots and of right-associative implies stays on the stack */
    char chain[2001];
    size_t n = 0;
    while (n + 4 <= 1996) memcpy(chain + n, "not ", 4), n += 4;
    chain[n++] = 'a';
    chain[n] = '\0';
    check_column(chain, "TF"); /* 499 nots */

    r = tt("a implies a implies a implies a implies a implies a implies a implies a");
    CHECK(json_is_true(json_object_get(r, "tautology")));
    json_decref(r);
}

static void test_bad_args(void) {
    json_t *args = json_pack("{s:i}", "expression", 5);
    json_t *r = NULL;
    for (const struct cc_tool_def *d = cc_dispatch_calc; d->op; d++)
        if (strcmp(d->op, "truth_table") == 0) r = d->fn(args, NULL);
    CHECK_STREQ(str(r, "code"), "validation");
    json_decref(r);
    json_decref(args);
}

int main(void) {
    RUN(test_example_and_or_not);
    RUN(test_example_xor_rows);
    RUN(test_example_implies);
    RUN(test_precedence);
    RUN(test_constants_only);
    RUN(test_errors);
    RUN(test_symbol_refused_without_naming_the_word);
    RUN(test_limits);
    RUN(test_bad_args);
    return check_summary("truth_table");
}
