/* calc_exact's fast path against the full pipeline, byte for byte
 * (tests/unit/calc_fast_diff.h), over a large generated set of expressions:
 * integers from 0 to past 2**63 and past 18 digits, every operator the fast
 * path reads and many it must decline (floats, names, functions,
 * comparisons, bitwise operators, '^', leading zeros, underscores),
 * division and modulo by zero, powers near the exponent limit and near
 * overflow, negative and fractional exponents, deep nesting, odd spacing.
 * Also the worker hook: which args it takes. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/mp_write.h"
#include "tests/unit/calc_fast_diff.h"
#include "tests/unit/check.h"

static uint64_t rng = 0x9E3779B97F4A7C15u;

static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static unsigned pick(unsigned n) { return (unsigned)(next() % n); }

/* Half the set is written in the fast path's grammar only (small literals,
 * its operators, spaces and tabs), so that long expressions reach it; the
 * other half mixes in everything else. */
static bool clean;

struct text {
    char s[1200];
    size_t n;
    bool full;
};

static void put(struct text *t, const char *s) {
    size_t k = strlen(s);
    if (t->n + k >= sizeof t->s) {
        t->full = true;
        return;
    }
    memcpy(t->s + t->n, s, k);
    t->n += k;
    t->s[t->n] = '\0';
}

static void space(struct text *t) {
    static const char *const sp[] = {"", "", "", " ", " ", "  ", "\t", "\n"};
    put(t, sp[pick(clean ? 7 : 8)]);
}

/* Boundary literals: 63-bit edges, squares near them, the exponent limit,
 * the 18-digit cap, and literals the fast path must decline. */
static const char *const special[] = {
    "0", "1", "2", "3", "7", "10", "255", "256", "9999", "10000", "10001", "3037000499", "3037000500",
    "4294967296", "4611686018427387904", "9223372036854775807", "9223372036854775808",
    "999999999999999999", "1000000000000000000", "123456789012345678901234567890", "00", "01", "007",
    "1_000", "0x1F", "0b101", "0o17", "1.5", "0.1", "2.", ".5", "1e3", "1E-3", "2j", "pi", "e", "tau",
    "sqrt(16)", "sqrt(2)", "abs(-3)", "max(2,5)", "floor(7/2)", "factorial(5)", "True", "x", "_a",
};

static const char *const clean_special[] = {
    "0", "1", "2", "3037000499", "4611686018427387904", "9223372036854775807", "999999999999999999",
    "10000", "0.5", "0.1", "0.2", "1.25", ".5", "3.", "2.50", "0.000001", "123456789.123456789",
    "99999999999999999.9", "0.999999999999999999", "1.0", "00.5", "0.0", ".0",
};

static void literal(struct text *t) {
    char buf[48];
    if (clean) {
        if (pick(20) == 0) put(t, clean_special[pick(sizeof clean_special / sizeof clean_special[0])]);
        else {
            unsigned whole = pick(pick(4) ? 100 : 100000);
            if (pick(4) == 0) snprintf(buf, sizeof buf, "%u.%0*u", whole, (int)(1 + pick(6)), pick(1000000));
            else snprintf(buf, sizeof buf, "%u", whole);
            put(t, buf);
        }
        return;
    }
    switch (pick(6)) {
    case 0: put(t, special[pick(sizeof special / sizeof special[0])]); return;
    case 1: snprintf(buf, sizeof buf, "%" PRIu64, next() % 10); break;
    case 2: snprintf(buf, sizeof buf, "%" PRIu64, next() % 1000); break;
    case 3: snprintf(buf, sizeof buf, "%" PRIu64, next() % 1000000000u); break;
    case 4: {
        unsigned shift = pick(64); /* drawn first: the order of operands is unspecified */
        snprintf(buf, sizeof buf, "%" PRIu64, next() >> shift);
        break;
    }
    default: snprintf(buf, sizeof buf, "%" PRIu64, next() % 100000); break;
    }
    put(t, buf);
}

static const char *const binops[] = {"+", "-", "*", "/", "//", "%", "+", "-", "*", "/",
                                     "//", "%", "**", "^", "&", "|", "<<", ">>", "==",
                                     "<", ">=", "!=", "* *", "///", "and", ","};

/* the first 13 are the fast path's */
#define CLEAN_BINOPS 13

static void exponent(struct text *t) {
    static const char *const ex[] = {"0", "1", "2", "3", "-1", "-2", "-3", "62", "63", "64", "-63",
                                     "10000", "10001", "-10000", "(1/2)", "0.5", "(-1)", "(2**3)"};
    if (pick(3)) {
        char buf[16];
        snprintf(buf, sizeof buf, "%u", pick(40));
        put(t, buf);
    } else {
        put(t, ex[pick(sizeof ex / sizeof ex[0])]);
    }
}

static void expr(struct text *t, int depth) {
    space(t);
    unsigned k = depth > 12 ? 0 : pick(10);
    switch (k) {
    case 0: case 1: case 2: literal(t); break;
    case 3: put(t, (const char *const[]){"-", "+", "~", "--", "-+"}[pick(5)]); expr(t, depth + 1); break;
    case 4: case 5: case 6:
        expr(t, depth + 1);
        space(t);
        put(t, binops[pick(clean ? CLEAN_BINOPS : sizeof binops / sizeof binops[0])]);
        expr(t, depth + 1);
        break;
    case 7: put(t, "("); expr(t, depth + 1); space(t); put(t, ")"); break;
    case 8: expr(t, depth + 1); space(t); put(t, "**"); space(t); exponent(t); break;
    default:
        /* small rationals, where every operator gets fractions */
        literal(t);
        put(t, "/");
        literal(t);
        break;
    }
    space(t);
}

static int compare(const char *s, size_t n, int *taken) {
    enum calc_fast_diff d = calc_fast_compare(s, n);
    if (d == CALC_FAST_DIFFERS) {
        fprintf(stderr, "fast path differs from the full pipeline on: %.*s\n", (int)n, s);
        return -1;
    }
    *taken += d == CALC_FAST_SAME;
    return 0;
}

static void test_generated_expressions_answer_alike(void) {
    int taken = 0, differs = 0, total = 400000;
    for (int i = 0; i < total; i++) {
        struct text t = {.n = 0};
        clean = i % 2;
        expr(&t, 0);
        if (t.full) continue;
        if (compare(t.s, t.n, &taken) < 0 && ++differs > 20) break;
    }
    CHECK_INTEQ(differs, 0);
    /* not vacuous: a good share of the set is taken by the fast path */
    printf("calc_fast: %d of %d generated expressions taken by the fast path\n", taken, total);
    CHECK(taken > total / 4);
}

/* Hand-picked: each must be taken (1) or declined (0), and a taken one
 * must answer as the full pipeline does. */
static void test_chosen_expressions(void) {
    static const struct {
        const char *expr;
        int taken;
    } cases[] = {
        {"12*3+1/7", 1}, {"1/3", 1}, {"-1/3", 1}, {"2**-1", 1}, {"-2**2", 1}, {"(-2)**2", 1}, {"2**3**2", 1},
        {"7//2", 1}, {"-7//2", 1}, {"7//-2", 1}, {"7%3", 1}, {"-7%3", 1}, {"7%-3", 1}, {"(1/3)%(1/4)", 1},
        {"(-7/3)//(2/5)", 1}, {"~5", 1}, {"~(7/2)", 1}, {"~(-7/2)", 1}, {"+5", 1}, {"0**0", 1}, {"0**5", 1},
        {"1**10000", 1}, {"(-1)**9999", 1}, {"2**62", 1}, {"-(2**62)*2+1", 0}, {" 1 + 2 ", 1},
        {"9223372036854775807", 0}, {"999999999999999999", 1}, {"1000000000000000000", 0},
        {"2**63", 0}, {"-2**63", 0}, {"1/0", 0}, {"1//0", 0}, {"1%0", 0}, {"0**-1", 0}, {"2**10001", 0},
        {"1**10001", 0}, {"2**(1/2)", 0}, {"2^3", 0}, {"1<2", 0}, {"sqrt(4)", 0}, {"pi", 0}, {"0.5", 1},
        {"01", 0}, {"1_0", 0}, {"", 0}, {" ", 0}, {"()", 0}, {"(1", 0}, {"1)", 0}, {"1 2", 0},
        {"3037000500*3037000500", 0}, {"3037000499*3037000499", 1}, {"1/3037000500/3037000500", 0},
        {"9223372036854775807//1", 0}, {"4611686018427387904*2", 0}, {"4611686018427387904*2-1", 0},
        {"-4611686018427387904*2", 0}, {"(1/2)**62", 1}, {"(1/2)**63", 0}, {"(-1/3)**-3", 1},
        {"0.1+0.2", 1}, {"0.1+0.2-0.3", 1}, {"1.5*2", 1}, {".5", 1}, {"3.", 1}, {"2.50/0.5", 1},
        {"2**0.5", 0}, {"2**2.0", 1}, {"1e3", 0}, {"1.5e3", 0}, {"1.5j", 0}, {"1.5.2", 0}, {".", 0},
        {"1_0.5", 0}, {"0.1234567890123456789", 0}, {"01.5", 0}, {"1.__", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *s = cases[i].expr;
        enum calc_fast_diff d = calc_fast_compare(s, strlen(s));
        if (d != (cases[i].taken ? CALC_FAST_SAME : CALC_FAST_DECLINED))
            fprintf(stderr, "case %s: %s\n", s, d == CALC_FAST_DIFFERS ? "differs" : d == CALC_FAST_SAME ? "taken" : "declined");
        CHECK(d == (cases[i].taken ? CALC_FAST_SAME : CALC_FAST_DECLINED));
    }
}

/* Nesting past the fast path's depth is declined, and the full pipeline's
 * own depth errors are never answered by the fast path. */
static void test_deep_nesting(void) {
    int taken = 0;
    for (int depth = 1; depth <= 260; depth += 7) {
        char s[1200];
        size_t n = 0;
        for (int i = 0; i < depth && n < 500; i++) s[n++] = '(';
        s[n++] = '1';
        for (int i = 0; i < depth && n < 1100; i++) s[n++] = ')';
        CHECK(compare(s, n, &taken) == 0);
        n = 0;
        for (int i = 0; i < depth; i++) s[n++] = '-';
        s[n++] = '3';
        CHECK(compare(s, n, &taken) == 0);
    }
    /* a long flat chain is taken at any length the fast path reads */
    char chain[1001];
    size_t n = 0;
    chain[n++] = '1';
    while (n + 2 <= 1000) chain[n++] = '+', chain[n++] = '1';
    CHECK(compare(chain, n, &taken) == 0);
    CHECK(taken > 0);
}

static size_t args_map(char *buf, const char *key, const char *val, bool extra) {
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    cc_mpw_map(&sb, extra ? 2 : 1);
    cc_mpw_str(&sb, key, strlen(key));
    cc_mpw_str(&sb, val, strlen(val));
    if (extra) {
        cc_mpw_str(&sb, "x", 1);
        cc_mpw_int(&sb, 1);
    }
    memcpy(buf, sb.data, sb.size);
    size_t n = sb.size;
    msgpack_sbuffer_destroy(&sb);
    return n;
}

static void test_worker_hook_takes_only_the_plain_form(void) {
    char args[64];
    msgpack_sbuffer out;
    msgpack_sbuffer_init(&out);
    size_t n = args_map(args, "expr", "12*3+1/7", false);
    CHECK(cc_calc_fast_serve(7, args, n, &out));
    msgpack_sbuffer want;
    msgpack_sbuffer_init(&want);
    CHECK(calc_full_frame("12*3+1/7", 8, &want) == 0);
    CHECK(out.size == want.size && memcmp(out.data, want.data, out.size) == 0);
    msgpack_sbuffer_destroy(&want);
    out.size = 0;
    n = args_map(args, "expr", "12*3+1/7", true);
    CHECK(!cc_calc_fast_serve(9, args, n, &out));
    n = args_map(args, "exp", "12*3+1/7", false);
    CHECK(!cc_calc_fast_serve(9, args, n, &out));
    n = args_map(args, "expr", "sqrt(2)", false);
    CHECK(!cc_calc_fast_serve(9, args, n, &out));
    CHECK(out.size == 0); /* a declined request writes nothing */
    msgpack_sbuffer_destroy(&out);
}

int main(void) {
    RUN(test_chosen_expressions);
    RUN(test_deep_nesting);
    RUN(test_worker_hook_takes_only_the_plain_form);
    RUN(test_generated_expressions_answer_alike);
    return check_summary("test_calc_fast");
}
