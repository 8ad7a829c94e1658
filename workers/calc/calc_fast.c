/* calc_exact's fast path (calc_fast.h): plain rational arithmetic read and
 * evaluated in one pass over the text, on 64-bit parts.
 *
 * What it takes is a strict subset of what the full pipeline accepts, with
 * the same meaning: decimal integer literals and decimal literals with a
 * point and no exponent (exact: 0.1 is 1/10), + - * / // % ** (unary + - ~),
 * brackets, spaces and tabs, at most CALC_FAST_MAX_LEN bytes and
 * CALC_FAST_MAX_DEPTH nested brackets or unary and power chains (far inside
 * the parser's and evaluator's depth limits, so neither can trip). Anything
 * else declines: another character or token, a literal beyond 18 digits or
 * with a leading zero or an exponent, a value or intermediate whose numerator or
 * denominator leaves 63 bits, a failure of any kind (division by zero, an
 * exponent past the limit, a non-integer exponent). A declined expression
 * goes through the full pipeline from the start, so the fast path never
 * has to reproduce an error or a GMP result: it answers only where its
 * exact value is the full evaluator's (tests/unit/test_calc_fast.c and the
 * calc fuzz target compare the two byte for byte).
 *
 * Operators are read by precedence climbing: one loop per binary level
 * instead of a descent through every level per operand. Values are kept in
 * lowest terms with a positive denominator (GMP's canonical form), the
 * operations done in 128 bits and reduced, so a result that fits is the
 * same rational mpq arithmetic gives. */
#include "workers/calc/calc_fast.h"

#include <string.h>

#include "protocol/frame.h"
#include "protocol/mp_raw.h"
#include "protocol/mp_write.h"
#include "protocol/msg.h"
#include "workers/calc/calc_internal.h"

#define CALC_FAST_MAX_LEN 1000
#define CALC_FAST_MAX_DEPTH 64
#define CALC_FAST_MAX_DIGITS 18 /* 10**18 - 1 < 2**63 */

typedef __int128 i128;
typedef unsigned __int128 u128;

/* n/d in lowest terms, d >= 1, |n| and d at most INT64_MAX. */
struct fq {
    int64_t n, d;
};

struct fp {
    const char *s;
    size_t i, len;
    int depth;
};

enum fop { F_NONE, F_ADD, F_SUB, F_MUL, F_DIV, F_FLOORDIV, F_MOD };

static u128 gcd128(u128 a, u128 b) {
    while (b > UINT64_MAX || a > UINT64_MAX) {
        if (b == 0) return a;
        u128 t = a % b;
        a = b;
        b = t;
    }
    uint64_t x = (uint64_t)a, y = (uint64_t)b;
    while (y) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    return x;
}

/* out = n/d reduced; false when d is 0 or a part leaves 63 bits. |n| and
 * |d| are below 2**127 (sums of two products of 63-bit parts). */
static bool reduce(i128 n, i128 d, struct fq *out) {
    if (d == 0) return false;
    if (d < 0) n = -n, d = -d;
    bool neg = n < 0;
    u128 un = neg ? (u128)-n : (u128)n, ud = (u128)d;
    u128 g = gcd128(un, ud);
    if (g > 1) un /= g, ud /= g;
    if (un > INT64_MAX || ud > INT64_MAX) return false;
    out->n = neg ? -(int64_t)un : (int64_t)un;
    out->d = (int64_t)ud;
    return true;
}

static bool integral(const struct fq *a) { return a->d == 1; }

/* Python's floor division and modulo of N by M (M != 0). */
static i128 floor_div(i128 n, i128 m, i128 *rem) {
    i128 q = n / m, r = n % m;
    if (r != 0 && ((r < 0) != (m < 0))) q -= 1, r += m;
    *rem = r;
    return q;
}

static bool apply(enum fop op, const struct fq *a, const struct fq *b, struct fq *out) {
    if (integral(a) && integral(b) && op <= F_MUL) {
        int64_t r;
        bool over = op == F_ADD ? __builtin_add_overflow(a->n, b->n, &r)
                  : op == F_SUB ? __builtin_sub_overflow(a->n, b->n, &r)
                                : __builtin_mul_overflow(a->n, b->n, &r);
        if (over || r == INT64_MIN) return false;
        *out = (struct fq){r, 1};
        return true;
    }
    i128 an = a->n, ad = a->d, bn = b->n, bd = b->d;
    switch (op) {
    case F_ADD: return reduce(an * bd + bn * ad, ad * bd, out);
    case F_SUB: return reduce(an * bd - bn * ad, ad * bd, out);
    case F_MUL: return reduce(an * bn, ad * bd, out);
    case F_DIV: return bn != 0 && reduce(an * bd, ad * bn, out);
    case F_FLOORDIV:
    case F_MOD: {
        if (bn == 0) return false;
        /* a/b = N/M; a // b = floor(N/M); a % b = a - b*floor(a/b) = (N mod M)/(ad*bd) */
        i128 rem, q = floor_div(an * bd, ad * bn, &rem);
        if (op == F_MOD) return reduce(rem, ad * bd, out);
        if (q > INT64_MAX || q < -INT64_MAX) return false;
        *out = (struct fq){(int64_t)q, 1};
        return true;
    }
    case F_NONE: break;
    }
    return false;
}

/* x**k for k >= 0, false on overflow. */
static bool ipow(int64_t x, int64_t k, int64_t *out) {
    int64_t r = 1;
    for (;;) {
        if (k & 1 && (__builtin_mul_overflow(r, x, &r) || r == INT64_MIN)) return false;
        k >>= 1;
        if (!k) break;
        if (__builtin_mul_overflow(x, x, &x)) return false;
    }
    *out = r;
    return true;
}

/* The power rules of calc_eval.c for an integer exponent within the limit;
 * any other exponent, and 0 to a negative power, decline. */
static bool power_of(const struct fq *a, const struct fq *b, struct fq *out) {
    if (!integral(b) || b->n > CALC_POW_EXP_LIMIT || b->n < -CALC_POW_EXP_LIMIT) return false;
    int64_t k = b->n < 0 ? -b->n : b->n;
    if (a->n == 0) {
        if (b->n < 0) return false;
        *out = (struct fq){b->n == 0, 1};
        return true;
    }
    int64_t n, d;
    if (!ipow(a->n, k, &n) || !ipow(a->d, k, &d)) return false;
    if (b->n >= 0) *out = (struct fq){n, d};
    else *out = n < 0 ? (struct fq){-d, -n} : (struct fq){d, n};
    return true;
}

static char peek(const struct fp *p) { return p->i < p->len ? p->s[p->i] : '\0'; }

static char peek_at(const struct fp *p, size_t k) {
    return p->i + k < p->len ? p->s[p->i + k] : '\0';
}

static void skip_space(struct fp *p) {
    while (p->i < p->len && (p->s[p->i] == ' ' || p->s[p->i] == '\t')) p->i++;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* A character that would make the literal before it something else (a
 * float, an imaginary, a prefixed or underscored literal, a name). */
static bool continues_literal(char c) {
    return is_digit(c) || c == '_' || c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (unsigned char)c >= 0x80;
}

/* Digits into *v (after what it holds), at most CALC_FAST_MAX_DIGITS in
 * all (*count); false past that. */
static bool digits(struct fp *p, int64_t *v, size_t *count) {
    while (is_digit(peek(p))) {
        if (++*count > CALC_FAST_MAX_DIGITS) return false;
        *v = *v * 10 + (p->s[p->i++] - '0');
    }
    return true;
}

/* A decimal integer, or a decimal literal with a point and no exponent
 * ("2.5", "3.", ".5"): the exact rational it spells, as calc_eval.c reads
 * it (0.1 is 1/10). */
static bool literal(struct fp *p, struct fq *out) {
    size_t start = p->i, count = 0;
    int64_t v = 0;
    if (!digits(p, &v, &count)) return false;
    size_t int_digits = p->i - start;
    /* 012 is refused by the parser; 01.5 is not, but is rare enough to leave */
    if (int_digits > 1 && p->s[start] == '0') return false;
    if (peek(p) != '.') {
        if (int_digits == 0 || continues_literal(peek(p))) return false;
        *out = (struct fq){v, 1};
        return true;
    }
    p->i++;
    size_t frac_at = p->i;
    if (!digits(p, &v, &count)) return false;
    size_t frac_digits = p->i - frac_at;
    if (int_digits + frac_digits == 0 || continues_literal(peek(p))) return false;
    int64_t scale = 1;
    for (size_t k = 0; k < frac_digits; k++) scale *= 10; /* <= 10**18: the digits are capped */
    return reduce(v, scale, out);
}

static bool expr(struct fp *p, int min_prec, struct fq *out);
static bool unary(struct fp *p, struct fq *out);

static bool nest(struct fp *p) { return ++p->depth <= CALC_FAST_MAX_DEPTH; }

static bool atom(struct fp *p, struct fq *out) {
    skip_space(p);
    if (peek(p) != '(') return literal(p, out);
    p->i++;
    if (!nest(p) || !expr(p, 1, out)) return false;
    p->depth--;
    skip_space(p);
    if (peek(p) != ')') return false;
    p->i++;
    return true;
}

/* power: atom ['**' unary], right-associative; binds tighter than a unary
 * minus on its left (-2**2 = -4), not on its right (2**-1). */
static bool power(struct fp *p, struct fq *out) {
    if (!atom(p, out)) return false;
    skip_space(p);
    if (peek(p) != '*' || peek_at(p, 1) != '*') return true;
    p->i += 2;
    struct fq e;
    if (!nest(p) || !unary(p, &e)) return false;
    p->depth--;
    return power_of(out, &e, out);
}

static bool unary(struct fp *p, struct fq *out) {
    skip_space(p);
    char c = peek(p);
    if (c != '-' && c != '+' && c != '~') return power(p, out);
    p->i++;
    if (!nest(p) || !unary(p, out)) return false;
    p->depth--;
    if (c == '-') {
        out->n = -out->n;
    } else if (c == '~') {
        /* ~x = -trunc(x) - 1; trunc(x) is within 63 bits, so is this */
        int64_t t = out->n / out->d;
        *out = (struct fq){-t - 1, 1};
        if (out->n == INT64_MIN) return false;
    }
    return true;
}

/* The binary operator at p (its precedence into *prec, its length into
 * *len), or F_NONE. '**' is the power's, read there. */
static enum fop binary_op(const struct fp *p, int *prec, size_t *len) {
    char c = peek(p), c1 = peek_at(p, 1);
    *len = 1;
    *prec = 2;
    switch (c) {
    case '+': *prec = 1; return F_ADD;
    case '-': *prec = 1; return F_SUB;
    case '*': return c1 == '*' ? F_NONE : F_MUL;
    case '%': return F_MOD;
    case '/':
        if (c1 != '/') return F_DIV;
        *len = 2;
        return F_FLOORDIV;
    default: return F_NONE;
    }
}

/* Operands joined by binary operators of precedence min_prec and above. */
static bool expr(struct fp *p, int min_prec, struct fq *out) {
    if (!unary(p, out)) return false;
    for (;;) {
        skip_space(p);
        int prec;
        size_t len;
        enum fop op = binary_op(p, &prec, &len);
        if (op == F_NONE || prec < min_prec) return true;
        p->i += len;
        struct fq r;
        if (!expr(p, prec + 1, &r) || !apply(op, out, &r, out)) return false;
    }
}

bool cc_calc_fast_value(const char *src, size_t len, int64_t *num, int64_t *den) {
    if (len == 0 || len > CALC_FAST_MAX_LEN) return false;
    struct fp p = {.s = src, .len = len};
    struct fq v;
    if (!expr(&p, 1, &v)) return false;
    skip_space(&p);
    if (p.i != len) return false;
    *num = v.n;
    *den = v.d;
    return true;
}

static void key(msgpack_sbuffer *sb, const char *k) { cc_mpw_str(sb, k, strlen(k)); }

/* The answer's constant runs, written once with the same writer calls the
 * frame builders make (so the same bytes), then copied: calc_render_number's
 * object for an exact value, in its member order, with the contract_version
 * the worker loop appends. */
enum { RUN_HEAD, RUN_APPROX, RUN_EXACT, RUN_TAIL, RUNS };
static msgpack_sbuffer runs[RUNS];

static void write_runs(void) {
    msgpack_sbuffer *r = runs;
    cc_mpw_map(&r[RUN_HEAD], 7);
    key(&r[RUN_HEAD], "ok");
    cc_mpw_bool(&r[RUN_HEAD], 1);
    key(&r[RUN_HEAD], "value");
    key(&r[RUN_APPROX], "approx");
    key(&r[RUN_EXACT], "exact");
    cc_mpw_bool(&r[RUN_EXACT], 1);
    key(&r[RUN_EXACT], "differs_from_decimal");
    key(&r[RUN_TAIL], "type");
    key(&r[RUN_TAIL], "rational");
    key(&r[RUN_TAIL], "contract_version");
    key(&r[RUN_TAIL], CC_CONTRACT_VERSION);
}

static void put_run(msgpack_sbuffer *sb, int k) { msgpack_sbuffer_write(sb, runs[k].data, runs[k].size); }

int cc_calc_fast_answer(msgpack_sbuffer *sb, uint64_t id, int64_t num, int64_t den) {
    if (!runs[RUN_HEAD].size) write_runs();
    char value[CALC_SMALL_Q_TEXT], approx[CALC_SMALL_APPROX_TEXT];
    size_t vn = calc_small_q_text(num, (uint64_t)den, value);
    uint64_t mag = num < 0 ? 0 - (uint64_t)num : (uint64_t)num;
    size_t an = calc_small_approx_text(mag, (uint64_t)den, num < 0, approx);
    size_t start = cc_msg_result_begin(sb, id);
    put_run(sb, RUN_HEAD);
    cc_mpw_str(sb, value, vn);
    put_run(sb, RUN_APPROX);
    cc_mpw_str(sb, approx, an);
    put_run(sb, RUN_EXACT);
    cc_mpw_bool(sb, vn != an || memcmp(value, approx, vn) != 0);
    put_run(sb, RUN_TAIL);
    return cc_frame_end_at(sb, start);
}

bool cc_calc_fast_serve(uint64_t id, const char *args, size_t args_len, msgpack_sbuffer *out) {
    const char *expr_text;
    size_t expr_len;
    int64_t num, den;
    if (!cc_mp_raw_only_str(args, args_len, "expr", &expr_text, &expr_len) ||
        !cc_calc_fast_value(expr_text, expr_len, &num, &den))
        return false;
    return cc_calc_fast_answer(out, id, num, den) == 0;
}
