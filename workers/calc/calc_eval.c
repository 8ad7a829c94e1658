/* calc_exact's closed evaluator (TOOLS.md 3.3.1): walks the parsed tree
 * over GMP rationals. Only the constructs below have a meaning; everything
 * else the parser accepts is refused with Python's wording.
 *
 * Hostile input is bounded before it costs anything: the screen and the
 * parser bound the text and its nesting, every power and shift is priced
 * (exponent size and predicted bits) before it is computed, the functions
 * price themselves (calc_funcs.c), and binary64 functions run on doubles. So
 * no input makes this evaluator allocate more than a few megabytes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "workers/calc/calc_internal.h"
#include "workers/calc/numfmt.h"

typedef struct cc_node node;

/* Whether a function's value on a look is approximated: a binary64
 * function says so itself (e->fn_exact), a step function is exact unless
 * the look was too close to its step (which voids the look), and the exact
 * functions carry their arguments' approximation. */
static bool call_inexact(const struct calc_ev *e, const struct calc_fdef *f,
                         const struct calc_val *a, int argc) {
    if (f->kind == CALC_F_FLOAT) return !e->fn_exact;
    if (calc_is_step(f)) return false;
    for (int i = 0; i < argc; i++)
        if (a[i].inexact) return true;
    return false;
}

/* The b64 pass: Python's math functions take their arguments as doubles
 * (an int past the doubles is an error there, except for the logarithms,
 * which read a big int whole). */
static int b64_arguments(struct calc_ev *e, const struct calc_fdef *f, struct calc_val *a, int argc) {
    if (f->kind != CALC_F_FLOAT) return 0;
    bool big_ok = strncmp(f->name, "log", 3) == 0 && strcmp(f->name, "log1p") != 0;
    for (int i = 0; i < argc; i++) {
        if (a[i].isfloat) continue;
        mpq_t t;
        mpq_init(t);
        mpq_set(t, a[i].q);
        int rc = calc_b64_round(e, t);
        if (rc == 0) mpq_set(a[i].q, t);
        mpq_clear(t);
        if (rc != 0 && !(big_ok && calc_is_int(a[i].q))) return -1;
        if (rc != 0) {
            free(e->msg); /* the pass goes on: log reads the int whole */
            e->msg = NULL;
            e->code = NULL;
        }
    }
    return 0;
}

/* A binary64 function's value is a float; abs, min, max and round(x, n)
 * of a float are floats (round(x) and the steps are ints); the b64 pass
 * rounds them to doubles. */
static int b64_result(struct calc_ev *e, const struct calc_fdef *f, const struct calc_val *a, int argc,
                      struct calc_val *out) {
    bool any_float = false;
    for (int i = 0; i < argc; i++) any_float |= a[i].isfloat;
    /* min and max return the argument they chose (the first of equals),
     * int or float as it was: factorial(max(2, 1.5)) is factorial(2) */
    if (f->exact && (strcmp(f->name, "min") == 0 || strcmp(f->name, "max") == 0))
        for (int i = 0; i < argc; i++)
            if (mpq_equal(a[i].q, out->q)) {
                any_float = a[i].isfloat;
                break;
            }
    if (f->kind == CALC_F_FLOAT) out->isfloat = true;
    else if (f->kind == CALC_F_EXACT && any_float && !calc_is_step(f)) out->isfloat = true;
    else if (strcmp(f->name, "round") == 0 && argc == 2 && a[0].isfloat) out->isfloat = true;
    return out->isfloat && e->b64 ? calc_b64_round(e, out->q) : 0;
}

/* A value held as the integer beside its true value (calc_val.tiny) used
 * by anything but a negation or a comparison: the look cannot follow it. */
static void void_tiny(struct calc_ev *e, struct calc_val *v) {
    if (!v->tiny) return;
    e->close = true;
    v->tiny = 0;
}

/* calc_val.unproven of a call's value: none for a step function, else
 * its arguments' and, for a binary64 function, its own. */
static bool call_unproven(const struct calc_ev *e, const struct calc_fdef *f,
                          const struct calc_val *a, int argc) {
    if (calc_is_step(f)) return false;
    if (f->kind == CALC_F_FLOAT && e->unproven) return true;
    for (int i = 0; i < argc; i++)
        if (a[i].unproven) return true;
    return false;
}

static int eval_call(struct calc_ev *e, const node *n, struct calc_val *out) {
    int argc = (int)n->nchild;
    const struct calc_fdef *f = n->v.name[0] ? calc_find_call(n->v.name, argc) : NULL;
    if (!f) return calc_fail(e, "validation", "only whitelisted math functions are callable");
    if (calc_check_arity(e, f, argc) != 0) return -1;
    struct calc_val *a = calloc(argc ? (size_t)argc : 1, sizeof *a);
    if (!a) return calc_fail(e, "resource_exhausted", "expression exhausted the memory ceiling");
    for (int i = 0; i < argc; i++) mpq_init(a[i].q);
    int rc = 0;
    for (int i = 0; i < argc && rc == 0; i++) rc = calc_eval(e, n->child[i], &a[i]);
    e->fn_exact = false;
    e->tiny = 0;
    e->dist.known = false;
    e->unproven = false;
    /* a monotone function of a value held beside an integer, at a proven
     * distance, can hold its own value so (sqrt(tanh(300))) */
    bool through = rc == 0 && argc == 1 && a[0].tiny && calc_tiny_through(e, f, &a[0], out->q);
    for (int i = 0; i < argc && rc == 0 && !through; i++) void_tiny(e, &a[i]);
    if (rc == 0 && e->b64) rc = b64_arguments(e, f, a, argc);
    e->want_tiny = f->kind == CALC_F_FLOAT;
    if (rc == 0 && !through) rc = calc_apply(e, f, a, argc, out->q);
    e->want_tiny = false;
    out->tiny = rc == 0 ? e->tiny : 0;
    out->dist = e->dist;
    out->dist.known &= out->tiny != 0;
    out->unproven = call_unproven(e, f, a, argc);
    if (rc == 0) out->inexact = call_inexact(e, f, a, argc);
    out->negzero = false;
    if (rc == 0) rc = b64_result(e, f, a, argc, out);
    for (int i = 0; i < argc; i++) mpq_clear(a[i].q);
    free(a);
    return rc;
}

/* A decimal literal is the decimal it spells, exactly: 0.1 is 1/10 and
 * 0.1000000000000000000001 is not rounded to the double 0.1 (an exact
 * calculator that rounded its input through binary64 would answer
 * 1.0000000000000001 - 1 = 0 and call it exact). */
static int eval_literal(struct calc_ev *e, const node *n, mpq_t out) {
    if (n->kind == CC_N_INT) {
        mpq_set_z(out, n->v.z);
        return 0;
    }
    if (n->flags & CC_NF_IMAG)
        return calc_fail(e, "validation", "unsupported literal %s", n->v.f.text);
    size_t len = strlen(n->v.f.text), k = 0;
    char *digits = malloc(len + 1);
    if (!digits) return calc_fail(e, "resource_exhausted", "expression exhausted the memory ceiling");
    for (size_t i = 0; i < len; i++)
        if (n->v.f.text[i] != '_') digits[k++] = n->v.f.text[i];
    int rc = cc_nf_parse_decimal(digits, k, out);
    free(digits);
    if (rc == -2)
        return calc_fail(e, "resource_exhausted",
                         "decimal literal %.60s has an exponent beyond +-%ld", n->v.f.text,
                         CC_NF_EXP_MAX);
    if (rc != 0) return calc_fail(e, "validation", "unsupported literal %.60s", n->v.f.text);
    return 0;
}

/* Constant i (pi, e, tau) to e->prec bits, as an exact rational. */
static void constant_at_precision(const struct calc_ev *e, int i, mpq_t out) {
    mpfr_t c;
    mpfr_init2(c, e->prec);
    if (i == 1) {
        mpfr_set_ui(c, 1, MPFR_RNDN);
        mpfr_exp(c, c, MPFR_RNDN);
    } else {
        mpfr_const_pi(c, MPFR_RNDN);
        if (i == 2) mpfr_mul_2ui(c, c, 1, MPFR_RNDN);
    }
    mpfr_get_q(out, c);
    mpfr_clear(c);
}

/* pi, e and tau are the exact values of their doubles, and mark the result
 * as approximated (at the second look's precision there). */
static int eval_name(struct calc_ev *e, const node *n, mpq_t out) {
    static const char *const names[] = {"pi", "e", "tau"};
    static const double values[] = {M_PI, M_E, 2 * M_PI};
    for (int i = 0; i < 3; i++)
        if (strcmp(n->v.name, names[i]) == 0) {
            if (e->prec) constant_at_precision(e, i, out);
            else mpq_set_d(out, values[i]);
            e->consts |= 1u << i;
            return 0;
        }
    return calc_fail(e, "validation", "unknown name '%.200s'", n->v.name);
}

static int eval_unary(struct calc_ev *e, const node *n, struct calc_val *out) {
    if (n->op == CC_OP_NOT) return calc_fail(e, "validation", "unsupported unary op");
    if (n->op == CC_OP_FACT)
        return calc_fail(e, "validation", "unsupported syntax: factorial '!'");
    if (calc_eval(e, n->child[0], out) != 0) return -1;
    out->is_bool = false;
    if (n->op == CC_OP_NEG) {
        mpq_neg(out->q, out->q);
        out->tiny = (signed char)-out->tiny;
        out->negzero = mpq_sgn(out->q) == 0 && out->isfloat && !out->negzero;
    } else if (n->op == CC_OP_INVERT) {
        void_tiny(e, out);
        out->negzero = false;
        /* ~x = -(trunc(x)) - 1 */
        mpz_t z;
        mpz_init(z);
        mpz_tdiv_q(z, mpq_numref(out->q), mpq_denref(out->q));
        mpz_com(z, z);
        mpq_set_z(out->q, z);
        mpz_clear(z);
    }
    return 0;
}

/* Power rule 1: |exponent| <= CALC_POW_EXP_LIMIT. */
static int exponent_too_big(struct calc_ev *e, mpq_srcptr b) {
    mpq_t mag;
    mpq_init(mag);
    mpq_abs(mag, b);
    bool too_big = mpq_cmp_ui(mag, CALC_POW_EXP_LIMIT, 1) > 0;
    mpq_clear(mag);
    if (!too_big) return 0;
    char *s = calc_show(b);
    calc_fail(e, "resource_exhausted", "exponent %s exceeds the limit (%d) for exact exponentiation",
              s ? s : "?", CALC_POW_EXP_LIMIT);
    free(s);
    return -1;
}

/* Power rule 2: the result's predicted size, bits(a) * |k|. */
static int result_too_big(struct calc_ev *e, mpq_srcptr a, mpq_srcptr b, long k) {
    size_t bl = mpz_sizeinbase(mpq_numref(a), 2), dl = mpz_sizeinbase(mpq_denref(a), 2);
    unsigned long bits = (unsigned long)(bl > dl ? bl : dl) * (unsigned long)labs(k);
    if (bits <= CALC_POW_BITS_LIMIT) return 0;
    char *sa = calc_show(a), *sb = calc_show(b);
    calc_fail(e, "resource_exhausted",
              "%s**%s would need ~%lu bits to represent, exceeding the limit (%lu) for exact "
              "exponentiation", sa ? sa : "?", sb ? sb : "?", bits, CALC_POW_BITS_LIMIT);
    free(sa);
    free(sb);
    return -1;
}

/* a**k for an integer k, exactly. */
static int integer_power(struct calc_ev *e, mpq_srcptr a, mpq_srcptr b, mpq_t out) {
    long k = mpz_get_si(mpq_numref(b));
    if (mpq_sgn(a) == 0) {
        if (k < 0) return calc_fail(e, "validation", "division by zero");
        mpq_set_ui(out, k == 0 ? 1 : 0, 1);
        return 0;
    }
    if (result_too_big(e, a, b, k)) return -1;
    mpz_pow_ui(mpq_numref(out), mpq_numref(a), (unsigned long)labs(k));
    mpz_pow_ui(mpq_denref(out), mpq_denref(a), (unsigned long)labs(k));
    mpq_canonicalize(out);
    if (k < 0) mpq_inv(out, out);
    return 0;
}

/* Power rules of 3.3.1, all checked before anything is computed; a
 * non-integer exponent goes to binary64. */
static int eval_pow(struct calc_ev *e, mpq_srcptr a, mpq_srcptr b, bool inexact, mpq_t out) {
    if (exponent_too_big(e, b)) return -1;
    if (calc_is_int(b)) return integer_power(e, a, b, out);
    if (mpq_sgn(a) < 0)
        return calc_fail(e, "validation",
                         "negative base with a non-integer exponent has no real value");
    if (mpq_sgn(a) == 0 && mpq_sgn(b) < 0) return calc_fail(e, "validation", "division by zero");
    return calc_pow_binary64(e, a, b, inexact, out);
}

static const char *op_text(enum cc_op op) {
    switch (op) {
    case CC_OP_BITAND: return "&";
    case CC_OP_BITOR: return "|";
    case CC_OP_BITXOR: return "^";
    case CC_OP_LSHIFT: return "<<";
    case CC_OP_RSHIFT: return ">>";
    default: return "?";
    }
}

static int eval_shift(struct calc_ev *e, enum cc_op op, const mpz_t a, const mpz_t b, mpz_t out) {
    if (mpz_sgn(b) < 0) {
        char *s = mpz_get_str(NULL, 10, b);
        calc_fail(e, "validation", "negative shift count %s", s ? s : "?");
        if (s) calc_gmp_str_free(s);
        return -1;
    }
    if (op == CC_OP_RSHIFT) {
        if (!mpz_fits_ulong_p(b)) mpz_set_si(out, mpz_sgn(a) < 0 ? -1 : 0);
        else mpz_fdiv_q_2exp(out, a, mpz_get_ui(b));
        return 0;
    }
    if (mpz_sgn(a) == 0) {
        mpz_set_ui(out, 0);
        return 0;
    }
    if (!mpz_fits_ulong_p(b) || mpz_get_ui(b) > CALC_SHIFT_BITS_LIMIT)
        return calc_fail(e, "resource_exhausted",
                         "a left shift by more than %lu bits exceeds the limit for exact results",
                         CALC_SHIFT_BITS_LIMIT);
    mpz_mul_2exp(out, a, mpz_get_ui(b));
    return 0;
}

static int need_int_operands(struct calc_ev *e, enum cc_op op, mpq_srcptr a, mpq_srcptr b) {
    for (int side = 0; side < 2; side++) {
        mpq_srcptr v = side ? b : a;
        if (calc_is_int(v)) continue;
        char *s = calc_show(v);
        calc_fail(e, "validation", "bitwise %s needs integers; %s operand is %s", op_text(op),
                  side ? "right" : "left", s ? s : "?");
        free(s);
        return -1;
    }
    return 0;
}

/* Python refuses a float operand of & | << >> (TypeError), even an
 * integral one: 5.0 & 3 and 1 << 2.0 are refused, as 4/2 & 1 is, in
 * TOOLS.md's wording for a non-integer operand. */
static int refuse_float_operands(struct calc_ev *e, enum cc_op op, const struct calc_val *a,
                                 const struct calc_val *b) {
    for (int side = 0; side < 2; side++) {
        const struct calc_val *v = side ? b : a;
        if (!v->isfloat) continue;
        char *s = calc_show(v->q);
        e->remedy = calc_float_remedy;
        calc_fail(e, "validation",
                  "bitwise %s needs integers; %s operand is %s, a float ('float' object cannot be "
                  "interpreted as an integer, as in Python)", op_text(op), side ? "right" : "left", s ? s : "?");
        free(s);
        return -1;
    }
    return 0;
}

static int eval_bitwise(struct calc_ev *e, enum cc_op op, mpq_srcptr a, mpq_srcptr b, mpq_t out) {
    if (need_int_operands(e, op, a, b)) return -1;
    mpz_t z;
    mpz_init(z);
    int rc = 0;
    mpz_srcptr x = mpq_numref(a), y = mpq_numref(b);
    switch (op) {
    case CC_OP_BITAND: mpz_and(z, x, y); break;
    case CC_OP_BITOR: mpz_ior(z, x, y); break;
    case CC_OP_BITXOR: mpz_xor(z, x, y); break;
    default: rc = eval_shift(e, op, x, y, z); break;
    }
    if (rc == 0) mpq_set_z(out, z);
    mpz_clear(z);
    return rc;
}

/* a // b = floor(a/b), and a % b = a - b*floor(a/b), as in Python. */
static void floor_div_mod(enum cc_op op, mpq_srcptr a, mpq_srcptr b, mpq_t out) {
    mpq_t t;
    mpz_t fl;
    mpq_init(t);
    mpz_init(fl);
    mpq_div(t, a, b);
    mpz_fdiv_q(fl, mpq_numref(t), mpq_denref(t));
    mpq_set_z(t, fl);
    if (op == CC_OP_FLOORDIV) {
        mpq_set(out, t);
    } else {
        mpq_mul(t, t, b);
        mpq_sub(out, a, t);
    }
    mpq_clear(t);
    mpz_clear(fl);
}

/* Both integers: a canonical rational with denominator 1. Their sum,
 * difference and product are then the integer operation on the numerators
 * over 1, already canonical, without the gcds mpq_add and mpq_mul compute
 * (about a thousand instructions of a typical call's evaluation). */
static bool both_integers(mpq_srcptr a, mpq_srcptr b) {
    return mpz_cmp_ui(mpq_denref(a), 1) == 0 && mpz_cmp_ui(mpq_denref(b), 1) == 0;
}

static void integer_arith(enum cc_op op, mpq_srcptr a, mpq_srcptr b, mpq_t out) {
    if (op == CC_OP_ADD) mpz_add(mpq_numref(out), mpq_numref(a), mpq_numref(b));
    else if (op == CC_OP_SUB) mpz_sub(mpq_numref(out), mpq_numref(a), mpq_numref(b));
    else mpz_mul(mpq_numref(out), mpq_numref(a), mpq_numref(b));
    mpz_set_ui(mpq_denref(out), 1);
}

/* inexact: an operand is approximated (struct calc_val) */
static int eval_arith(struct calc_ev *e, enum cc_op op, mpq_srcptr a, mpq_srcptr b, bool inexact,
                      mpq_t out) {
    if ((op == CC_OP_ADD || op == CC_OP_SUB || op == CC_OP_MUL) && both_integers(a, b)) {
        integer_arith(op, a, b, out);
        return 0;
    }
    switch (op) {
    case CC_OP_ADD: mpq_add(out, a, b); return 0;
    case CC_OP_SUB: mpq_sub(out, a, b); return 0;
    case CC_OP_MUL: mpq_mul(out, a, b); return 0;
    case CC_OP_POW: return eval_pow(e, a, b, inexact, out);
    default: break;
    }
    if (mpq_sgn(b) == 0) return calc_fail(e, "validation", "division by zero");
    if (op == CC_OP_DIV) {
        mpq_div(out, a, b);
    } else {
        calc_near_step(e, a, b);
        floor_div_mod(op, a, b, out);
    }
    return 0;
}

/* Evaluates both operands of n: out receives the left, r the right. */
static int eval_operands(struct calc_ev *e, const node *n, struct calc_val *out,
                         struct calc_val *r) {
    if (calc_eval(e, n->child[0], out) != 0) return -1;
    return calc_eval(e, n->child[1], r);
}

/* Python reads a ^ b as XOR, but nearly every caller writing 2^100 means a
 * power: answering 102 would be a confident wrong answer, so '^' is refused
 * before anything is evaluated. */
static int refuse_caret(struct calc_ev *e) {
    e->remedy = "write a power as a ** b (2**100); for bitwise XOR use xor(a, b) here or the "
                "bitop tool (op xor)";
    return calc_fail(e, "validation",
                     "'^' is ambiguous (power in math, XOR in Python) and is not accepted by "
                     "calc_exact: use ** for a power or xor(a, b) for bitwise XOR");
}

/* Whether a op b is a float in Python (a float operand, a true division,
 * an int to a negative power); in the b64 pass a float operation first
 * turns an int operand into a double, as Python does. */
static int b64_operands(struct calc_ev *e, enum cc_op op, struct calc_val *a, struct calc_val *b,
                        bool *fl) {
    if (op >= CC_OP_BITAND && op <= CC_OP_RSHIFT) return 0;
    bool any = a->isfloat || b->isfloat;
    *fl = any || op == CC_OP_DIV || (op == CC_OP_POW && (!calc_is_int(b->q) || mpq_sgn(b->q) < 0));
    if (!any || !e->b64) return 0;
    if (!a->isfloat && calc_b64_round(e, a->q) != 0) return -1;
    if (!b->isfloat && calc_b64_round(e, b->q) != 0) return -1;
    return 0;
}

/* IEEE's sign of a zero result of a float operation (of which only
 * copysign and atan2 take notice): a product or quotient is negative when
 * one operand is, a sum -0.0 only of two negative zeros (x - y: of -0.0
 * and +0.0). */
static bool zero_sign(enum cc_op op, const struct calc_val *a, const struct calc_val *b) {
    bool na = mpq_sgn(a->q) < 0 || a->negzero, nb = mpq_sgn(b->q) < 0 || b->negzero;
    switch (op) {
    case CC_OP_MUL:
    case CC_OP_DIV: return na != nb;
    case CC_OP_ADD: return mpq_sgn(a->q) == 0 && mpq_sgn(b->q) == 0 && a->negzero && b->negzero;
    case CC_OP_SUB: return mpq_sgn(a->q) == 0 && mpq_sgn(b->q) == 0 && a->negzero && !b->negzero;
    default: return false;
    }
}

/* The same expression written twice (exp(1) - exp(1)): the same true
 * value, whatever a look holds of it. Bounded by the evaluator's depth. */
static bool same_tree(const node *a, const node *b) {
    if (a->kind != b->kind || a->op != b->op || a->nchild != b->nchild || a->flags != b->flags) return false;
    switch (a->kind) {
    case CC_N_INT: if (mpz_cmp(a->v.z, b->v.z) != 0) return false; break;
    case CC_N_FLOAT: if (strcmp(a->v.f.text, b->v.f.text) != 0) return false; break;
    case CC_N_NAME:
    case CC_N_CALL: if (strcmp(a->v.name, b->v.name) != 0) return false; break;
    case CC_N_COMPARE: return false;
    default: break;
    }
    for (uint32_t i = 0; i < a->nchild; i++)
        if (!same_tree(a->child[i], b->child[i])) return false;
    return true;
}

/* An operation whose value is proven whatever its operands' approximation:
 * x - x is 0, x / x is 1 (x nonzero: the division checked it) and x * 0 is
 * 0 (exp(-745) * 0). */
static bool proven_anyway(const node *n, const struct calc_val *a, const struct calc_val *b) {
    if ((n->op == CC_OP_SUB || n->op == CC_OP_DIV) && same_tree(n->child[0], n->child[1])) return true;
    if (n->op != CC_OP_MUL) return false;
    return (mpq_sgn(a->q) == 0 && !a->inexact && !a->unproven) ||
           (mpq_sgn(b->q) == 0 && !b->inexact && !b->unproven);
}

static int eval_binary(struct calc_ev *e, const node *n, struct calc_val *out) {
    if (n->op == CC_OP_AND || n->op == CC_OP_OR)
        return calc_fail(e, "validation", "unsupported syntax: BoolOp");
    if (n->op == CC_OP_BITXOR) return refuse_caret(e);
    struct calc_val r;
    mpq_init(r.q);
    r.is_bool = false;
    r.isfloat = false;
    r.tiny = 0;
    int rc = eval_operands(e, n, out, &r);
    if (rc == 0) {
        void_tiny(e, out);
        void_tiny(e, &r);
    }
    bool fl = false;
    if (rc == 0) rc = b64_operands(e, n->op, out, &r, &fl);
    bool negzero = rc == 0 && fl && zero_sign(n->op, out, &r);
    if (rc == 0) {
        out->is_bool = false;
        bool inexact = out->inexact || r.inexact;
        bool proven = proven_anyway(n, out, &r);
        e->fn_exact = false;
        e->unproven = false;
        out->unproven |= r.unproven;
        if (n->op >= CC_OP_BITAND && n->op <= CC_OP_RSHIFT)
            rc = refuse_float_operands(e, n->op, out, &r) ? -1 : eval_bitwise(e, n->op, out->q, r.q, out->q);
        else
            rc = eval_arith(e, n->op, out->q, r.q, inexact, out->q);
        /* a // b is a step (calc_near_step); a power with a fractional
         * exponent is pow(), which says itself whether it was exact */
        if (n->op == CC_OP_FLOORDIV) inexact = false;
        else if (n->op == CC_OP_POW && !calc_is_int(r.q)) inexact |= !e->fn_exact;
        if (n->op == CC_OP_FLOORDIV || proven) out->unproven = false;
        else out->unproven |= e->unproven;
        /* a proven value is the true value on every look too, so it
         * compares exactly (exp(1) - exp(1) == 0 was null in calc_exact,
         * true in compare_threshold, which reads the proven 0) */
        out->inexact = inexact && !proven;
        out->isfloat = fl;
        out->negzero = negzero && mpq_sgn(out->q) == 0;
        if (rc == 0 && fl && e->b64) rc = calc_b64_round(e, out->q);
    }
    mpq_clear(r.q);
    return rc;
}

int cc_calc_relation_holds(enum cc_op op, int c) {
    switch (op) {
    case CC_OP_EQ: return c == 0;
    case CC_OP_NE: return c != 0;
    case CC_OP_LT: return c < 0;
    case CC_OP_LE: return c <= 0;
    case CC_OP_GT: return c > 0;
    case CC_OP_GE: return c >= 0;
    default: return -1;
    }
}

/* What a look cannot tell in a comparison: this look voids itself. */
#define CMP_OPEN 3
/* The ordinary comparison of two rationals (after calc_near_equal). */
#define CMP_ORDINARY 2

/* mpq_cmp's answer as -1, 0 or 1 (GMP promises only its sign, and 2 and 3
 * mean something here). */
static int cmp_sign(mpq_srcptr a, mpq_srcptr b) {
    int c = mpq_cmp(a, b);
    return (c > 0) - (c < 0);
}

/* The sign of a - b where a and/or b is held beside one integer
 * (calc_val.tiny) and they are within the look's reach of each other, by
 * the proven distance of a held value from its integer (calc_val.dist):
 * tanh(300) > 1 - 10**-300 is false (2e-261 below 1), erf(389) > 1 -
 * 10**-157 true, tanh(300) < erf(30) true (e^-900 below 1). Another true
 * value on the far side of the integer needs no distance (tanh(300) < 1 +
 * 10**-300). CMP_OPEN where the distance is unknown, the bounds do not
 * separate them, or the other side is an approximation. */
static int distance_sign(struct calc_ev *e, const struct calc_val *a, const struct calc_val *b) {
    int s;
    if (a->tiny && b->tiny) {
        /* one integer (values beyond reach of each other were decided) */
        if (!mpq_equal(a->q, b->q)) return CMP_OPEN;
        if (a->tiny != b->tiny) s = a->tiny;
        else if ((s = calc_dist_order(&a->dist, &b->dist)) == 0) return CMP_OPEN;
        else s *= a->tiny; /* farther from the integer on side tiny */
    } else {
        const struct calc_val *t = a->tiny ? a : b, *o = a->tiny ? b : a;
        if (o->inexact) return CMP_OPEN;
        mpq_t d;
        mpq_init(d);
        mpq_sub(d, o->q, t->q);
        int side = mpq_sgn(d), c = 0;
        if (side != t->tiny) c = 1; /* o on the far side: t's true value is the farther out */
        else {
            mpq_abs(d, d);
            c = calc_dist_against(&t->dist, d);
        }
        mpq_clear(d);
        if (c == 0) return CMP_OPEN;
        /* c > 0: t's true value lies beyond o, on side tiny */
        s = c > 0 ? t->tiny : -t->tiny;
        if (t == b) s = -s;
    }
    e->no_distance = true;
    return s;
}

/* A comparison with a value held as the integer beside its true value
 * (calc_val.tiny): when the other side is that very integer and no
 * approximation (tanh(300) < 1, exp(-10**10) > 0), or such a value from
 * the other side, the side decides it (e->no_distance); a distance within
 * the look's reach is decided by the held value's proven distance
 * (distance_sign), else CMP_OPEN: the true value's distance from the
 * integer is not known. The sign of a - b, CMP_ORDINARY when neither side
 * is so held. This is the one place the rule lives: compare_threshold
 * evaluates a op b as a comparison node too. */
static int tiny_compare(struct calc_ev *e, const struct calc_val *a, const struct calc_val *b) {
    if (!a->tiny && !b->tiny) return CMP_ORDINARY;
    if (!mpq_equal(a->q, b->q))
        return calc_within_reach(e, a->q, b->q) ? distance_sign(e, a, b) : cmp_sign(a->q, b->q);
    if (a->tiny && b->tiny && a->tiny == b->tiny) return distance_sign(e, a, b);
    if (!(a->tiny && b->tiny) && (a->tiny ? b : a)->inexact) return CMP_OPEN;
    e->no_distance = true;
    return a->tiny ? a->tiny : -b->tiny;
}

/* The sign of x - y for two arguments this look holds: exactly for true
 * values, by the side of a value held beside an integer that the other
 * side is exactly (tiny_compare), else when they are beyond the look's
 * reach of each other; CMP_OPEN otherwise. Nothing is recorded
 * (calc_near_equal is not asked). */
static int argument_sign(struct calc_ev *e, const struct calc_val *x, const struct calc_val *y) {
    if (x->tiny || y->tiny) return tiny_compare(e, x, y);
    if ((x->inexact || y->inexact) && calc_within_reach(e, x->q, y->q)) return CMP_OPEN;
    return cmp_sign(x->q, y->q);
}

/* Both a and b calls of one strictly monotonic function f of one argument
 * (calc_monotone), negated alike (-f(x) and -f(y) are ordered the other
 * way: -tanh(300) > -tanh(400)): a and b become the calls and the
 * direction (+1 or -1) is returned; 0 when they are not such a pair. */
static int monotone_pair(const node **pa, const node **pb, const struct calc_fdef **f) {
    const node *a = *pa, *b = *pb;
    int flip = 1;
    while (a->kind == CC_N_UNARY && b->kind == CC_N_UNARY && a->op == b->op &&
           (a->op == CC_OP_NEG || a->op == CC_OP_POS)) {
        if (a->op == CC_OP_NEG) flip = -flip;
        a = a->child[0];
        b = b->child[0];
    }
    if (a->kind != CC_N_CALL || b->kind != CC_N_CALL || a->nchild != 1 || b->nchild != 1 ||
        strcmp(a->v.name, b->v.name) != 0)
        return 0;
    *f = calc_find_function(a->v.name);
    int dir = *f ? calc_monotone(*f) : 0;
    *pa = a;
    *pb = b;
    return dir * flip;
}

/* Both sides a call of one strictly monotonic function of one argument
 * (monotone_pair): f(x) and f(y) are ordered as x and y are, whatever the
 * looks hold of the values themselves. tanh(300) == tanh(400) and
 * exp(-10**10) < exp(-10**9) are held at one integer from one side by
 * every look, and atan(10**200) == atan(10**201) at one rational; their
 * arguments tell them apart. The arguments are evaluated again, on the
 * looks only; where this look cannot order them either and they are such
 * a pair themselves, theirs decide, to any depth (tanh(tanh(300)) <
 * tanh(tanh(400)): the look holds both inner values at 1 from below).
 * values_void: this look voided itself evaluating a and b (a function of
 * a value held beside an integer: tanh(tanh(300))); the rule then holds
 * for a function defined on every real, or for one whose arguments the
 * look holds inside its domain beyond reach of its edges, as the true
 * argument may lie outside the domain the look held it in
 * (acosh(tanh(300)) is not real; sqrt(tanh(300)) is).
 * The sign of f(x) - f(y), or CMP_OPEN, which leaves no trace on e (a
 * failure to evaluate again, a bug, voids the look). */
static int monotone_compare(struct calc_ev *e, const node *a, const node *b, bool values_void) {
    const struct calc_fdef *f = NULL;
    int dir = monotone_pair(&a, &b, &f);
    if (e->prec == 0 || dir == 0) return CMP_OPEN;
    bool close0 = e->close;
    int ncmp0 = e->ncmp;
    struct calc_val x = {0}, y = {0};
    mpq_inits(x.q, y.q, NULL);
    int s = CMP_OPEN;
    bool failed = calc_eval(e, a->child[0], &x) != 0 || calc_eval(e, b->child[0], &y) != 0;
    bool void_args = !failed && e->close && !close0;
    /* f not defined on every real: the arguments the look holds must be
     * inside its domain, beyond reach of its edges (sqrt(tanh(300)) <
     * sqrt(tanh(400)) is decided, acosh(tanh(300)) is not real) */
    bool outside = values_void && !calc_monotone_total(f) &&
                   (void_args || !calc_inside_domain(e, f, &x) || !calc_inside_domain(e, f, &y));
    if (!failed && outside) {
        calc_near_truncate(e, ncmp0);
        e->close = close0;
    } else if (!failed) {
        if (!void_args) s = argument_sign(e, &x, &y);
        if (s == CMP_OPEN) {
            calc_near_truncate(e, ncmp0);
            e->close = close0;
            if (e->depth < CALC_EVAL_DEPTH_LIMIT) {
                e->depth++;
                s = monotone_compare(e, a->child[0], b->child[0], void_args);
                e->depth--;
            }
        }
    }
    mpq_clears(x.q, y.q, NULL);
    if (failed) e->close = true;
    return s == CMP_OPEN ? s : s * dir;
}

/* The operands' values cannot be compared: their look voided itself while
 * evaluating them. The monotone rule may still order them, with what the
 * operands recorded dropped (its own evaluation records what it uses);
 * else the look stays void. The sign of l - r, or CMP_OPEN. */
static int compare_void_operands(struct calc_ev *e, const node *n, bool close0, int ncmp0) {
    calc_near_truncate(e, ncmp0);
    e->close = close0;
    int m = monotone_compare(e, n->child[0], n->child[1], true);
    if (m == CMP_OPEN) {
        e->close = true;
    } else {
        e->no_distance = true;
        calc_cmp_rule(e, m);
    }
    return m;
}

int calc_compare_values(struct calc_ev *e, const node *n, struct calc_val *out, struct calc_val *r,
                        bool close0, int ncmp0) {
    int c;
    if (e->prec && e->close && !close0) {
        c = compare_void_operands(e, n, close0, ncmp0);
    } else {
        c = tiny_compare(e, out, r);
        bool by_rule = c != CMP_OPEN && c != CMP_ORDINARY;
        if (c == CMP_OPEN || (c == CMP_ORDINARY && (out->inexact || r->inexact))) {
            int m = monotone_compare(e, n->child[0], n->child[1], false);
            /* the values this look holds may not tell the distance either */
            if (m != CMP_OPEN && (c == CMP_OPEN || calc_within_reach(e, out->q, r->q))) e->no_distance = true;
            if (m != CMP_OPEN) c = m, by_rule = true;
        }
        if (by_rule) calc_cmp_rule(e, c);
    }
    if (c == CMP_OPEN) {
        e->close = true;
        c = 0;
    }
    /* two true values compare exactly; only an approximation can be too
     * close to tell */
    bool approximated = out->inexact || r->inexact, ordinary = c == CMP_ORDINARY;
    if (ordinary && approximated) calc_near_equal(e, out->q, r->q);
    if (ordinary) c = cmp_sign(out->q, r->q);
    /* a comparison of true values on one look can be one of approximations
     * on the other (sqrt(10**160) is exact at 384 bits, not at 256): it is
     * recorded too, as decided, so that the looks' comparisons pair up */
    if (ordinary && !approximated && e->prec) calc_cmp_rule(e, c);
    out->inexact = false;
    out->tiny = 0;
    out->unproven = false;
    int t = cc_calc_relation_holds(n->cmp_ops[0], c);
    /* A comparison used as a number is 0 or 1, as in Python. */
    mpq_set_ui(out->q, t > 0, 1);
    out->is_bool = true;
    out->isfloat = false;
    if (t < 0) return calc_fail(e, "internal", "unknown comparison operator");
    return 0;
}

static int eval_compare(struct calc_ev *e, const node *n, struct calc_val *out) {
    if (n->nchild != 2) return calc_fail(e, "validation", "chained comparisons not supported");
    struct calc_val r;
    mpq_init(r.q);
    r.inexact = false;
    r.tiny = 0;
    r.unproven = false;
    bool close0 = e->close;
    int ncmp0 = e->ncmp;
    int rc = eval_operands(e, n, out, &r);
    if (rc == 0) rc = calc_compare_values(e, n, out, &r, close0, ncmp0);
    mpq_clear(r.q);
    return rc;
}

static int eval_node(struct calc_ev *e, const node *n, struct calc_val *out) {
    out->is_bool = false;
    out->inexact = false;
    out->negzero = false;
    out->tiny = 0;
    out->unproven = false;
    out->isfloat = n->kind == CC_N_FLOAT || n->kind == CC_N_NAME;
    switch (n->kind) {
    case CC_N_INT: return eval_literal(e, n, out->q);
    case CC_N_FLOAT:
        if (eval_literal(e, n, out->q) != 0) return -1;
        return e->b64 ? calc_b64_round(e, out->q) : 0;
    case CC_N_BOOL:
        return calc_fail(e, "validation", "unsupported literal %s", n->v.b ? "True" : "False");
    case CC_N_NAME: out->inexact = true; return eval_name(e, n, out->q);
    case CC_N_UNARY: return eval_unary(e, n, out);
    case CC_N_BINARY: return eval_binary(e, n, out);
    case CC_N_COMPARE: return eval_compare(e, n, out);
    case CC_N_CALL: return eval_call(e, n, out);
    case CC_N_TUPLE: return calc_fail(e, "validation", "unsupported syntax: Tuple");
    }
    return calc_fail(e, "internal", "unknown expression node");
}

int calc_eval(struct calc_ev *e, const node *n, struct calc_val *out) {
    if (++e->depth > CALC_EVAL_DEPTH_LIMIT)
        return calc_fail(e, "resource_exhausted", "expression too deeply nested");
    int rc = eval_node(e, n, out);
    e->depth--;
    return rc;
}
