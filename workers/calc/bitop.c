/* bitop (TOOLS.md 3.3.15): programmer-mode bit operations at a fixed width
 * of 8/16/32/64 bits, shown as unsigned, signed, hex, octal and binary. */
#include "workers/calc/numfmt.h"
#include "workers/calc/programmer_tools.h"
#include "workers/common/tool_api.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(unsigned long) * CHAR_BIT >= 64, "mpz_get_ui must carry 64 bits");

enum op_kind { OP_BITWISE, OP_NOT, OP_COUNT, OP_UNKNOWN };

static enum op_kind classify(const char *op) {
    static const char *const bitwise[] = {"and", "or", "xor", "nand", "nor", "xnor"};
    static const char *const counted[] = {"shl", "shr", "sar", "rol", "ror"};
    for (size_t i = 0; i < 6; i++)
        if (strcmp(op, bitwise[i]) == 0) return OP_BITWISE;
    for (size_t i = 0; i < 5; i++)
        if (strcmp(op, counted[i]) == 0) return OP_COUNT;
    return strcmp(op, "not") == 0 ? OP_NOT : OP_UNKNOWN;
}

/* What the operation produced before display. */
struct outcome {
    uint64_t u;         /* result masked to w bits */
    bool shr_past;      /* shr by >= w: unpadded hex/oct */
    json_t *overflow;   /* NULL, true, or the "shift b >= width w" text */
    mpz_t unbounded;    /* exact shl result when overflow is true */
    bool failed;        /* an allocation failed: answer internal */
};

static uint64_t bitwise(const char *op, uint64_t a, uint64_t b) {
    if (strcmp(op, "and") == 0) return a & b;
    if (strcmp(op, "or") == 0) return a | b;
    if (strcmp(op, "xor") == 0) return a ^ b;
    if (strcmp(op, "nand") == 0) return ~(a & b);
    if (strcmp(op, "nor") == 0) return ~(a | b);
    return ~(a ^ b); /* xnor */
}

static void shift_left(struct outcome *o, uint64_t a, const mpz_t b, unsigned w, uint64_t mask) {
    if (mpz_cmp_ui(b, w) >= 0) {
        char *digits = malloc(mpz_sizeinbase(b, 10) + 2), *msg = NULL;
        if (digits && asprintf(&msg, "shift %s >= width %u", mpz_get_str(digits, 10, b), w) >= 0)
            o->overflow = json_string(msg);
        o->failed = o->overflow == NULL;
        free(msg);
        free(digits);
        o->u = 0;
        return;
    }
    mpz_set_ui(o->unbounded, a);
    mpz_mul_2exp(o->unbounded, o->unbounded, mpz_get_ui(b));
    mpz_t m;
    mpz_init_set_ui(m, mask);
    if (mpz_cmp(o->unbounded, m) > 0) o->overflow = json_true();
    mpz_clear(m);
    o->u = (a << mpz_get_ui(b)) & mask;
}

/* Shifts and rotates: b is a count >= 0, never masked. */
static void counted(struct outcome *o, const char *op, uint64_t a, const mpz_t b, unsigned w, uint64_t mask) {
    bool past = mpz_cmp_ui(b, w) >= 0;
    unsigned k = past ? 0 : (unsigned)mpz_get_ui(b);
    if (strcmp(op, "shl") == 0) {
        shift_left(o, a, b, w, mask);
    } else if (strcmp(op, "shr") == 0) {
        o->u = past ? 0 : a >> k;
        o->shr_past = past;
    } else if (strcmp(op, "sar") == 0) {
        bool negative = (a >> (w - 1)) & 1;
        /* Fill from the sign bit by hand: right-shifting a negative signed
         * value is implementation-defined in C. */
        uint64_t fill = negative ? mask & ~(mask >> k) : 0; /* the top k bits */
        o->u = past ? (negative ? mask : 0) : (a >> k) | fill;
    } else {
        unsigned r = (unsigned)mpz_fdiv_ui(b, w);
        if (strcmp(op, "ror") == 0) r = (w - r) % w;
        o->u = r == 0 ? a : ((a << r) | (a >> (w - r))) & mask;
    }
}

static json_t *padded(const char *prefix, uint64_t u, int base, size_t width) {
    mpz_t z;
    mpz_init_set_ui(z, u);
    char *digits = cc_nf_mpz_padded(z, base, width), *s = NULL;
    mpz_clear(z);
    json_t *j = digits && asprintf(&s, "%s%s", prefix, digits) >= 0 ? json_string(s) : NULL;
    free(s);
    free(digits);
    return j;
}

static json_t *display(const char *op, unsigned w, struct outcome *o) {
    uint64_t top = UINT64_C(1) << (w - 1);
    mpz_t u, s;
    mpz_init_set_ui(u, o->u);
    mpz_init_set(s, u);
    if (o->u & top) {
        mpz_t mod;
        mpz_init(mod);
        mpz_setbit(mod, w);
        mpz_sub(s, u, mod);
        mpz_clear(mod);
    }
    json_t *r = cc_ok();
    bool ok = cc_nf_set(r, "op", json_string(op));
    ok &= cc_nf_set(r, "width", json_integer(w));
    ok &= cc_nf_set(r, "unsigned", cc_json_mpz(u));
    ok &= cc_nf_set(r, "signed", cc_json_mpz(s));
    ok &= cc_nf_set(r, "hex", o->shr_past ? json_string("0x0") : padded("0x", o->u, 16, w / 4));
    ok &= cc_nf_set(r, "oct", o->shr_past ? json_string("0o0") : padded("0o", o->u, 8, (w + 2) / 3));
    ok &= cc_nf_set(r, "bin", padded("", o->u, 2, w));
    if (o->overflow) {
        bool flag = json_is_true(o->overflow);
        ok &= cc_nf_set(r, "overflow", json_incref(o->overflow));
        if (flag) ok &= cc_nf_set(r, "unbounded", cc_json_mpz(o->unbounded));
    }
    mpz_clears(u, s, NULL);
    return cc_nf_finish(r, ok);
}

/* Whether v lies outside what w bits hold in either reading,
 * -2^(w-1)..2^w-1. */
static bool wider_than(const mpz_t v, unsigned w) {
    if (mpz_sgn(v) >= 0) return mpz_sizeinbase(v, 2) > w;
    mpz_t t;
    mpz_init(t);
    mpz_neg(t, v);
    mpz_sub_ui(t, t, 1); /* -v - 1 < 2^(w-1) */
    bool wide = mpz_sgn(t) > 0 && mpz_sizeinbase(t, 2) > w - 1;
    mpz_clear(t);
    return wide;
}

/* The smallest width of 8/16/32/64 that holds v, or 0. */
static unsigned width_holding(const mpz_t v) {
    static const unsigned ws[] = {8, 16, 32, 64};
    for (int i = 0; i < 4; i++)
        if (!wider_than(v, ws[i])) return ws[i];
    return 0;
}

/* TOOLS.md masks an operand wider than the width to its low w bits; the
 * answer was silent about it, so bitop(256, and, 255, 8) read as 0 with
 * nothing to say that 256 was not the operand used. The result now lists
 * the masked operands and a note with the value used. */
static bool note_masked(const char *name, const mpz_t v, unsigned w, json_t *list, char **note) {
    if (!wider_than(v, w)) return true;
    mpz_t low;
    mpz_init(low);
    mpz_fdiv_r_2exp(low, v, w);
    char *given = mpz_get_str(NULL, 10, v), *used = mpz_get_str(NULL, 10, low), *s = NULL;
    unsigned hold = width_holding(v);
    char fix[64];
    if (hold)
        snprintf(fix, sizeof fix, "pass width=%u to keep it", hold);
    else
        snprintf(fix, sizeof fix, "no width up to 64 holds it");
    /* a huge operand is named by its first digits and its length, so the
     * note stays short */
    char shown[64];
    size_t len = given ? strlen(given) : 0;
    if (len > 40)
        snprintf(shown, sizeof shown, "%.20s... (%zu digits)", given, len - (given[0] == '-'));
    else
        snprintf(shown, sizeof shown, "%s", given ? given : "");
    bool ok = given && used &&
              asprintf(&s, "%s%s%s = %s does not fit in %u bits (-2^%u..2^%u-1): its low %u bits, %s, were used; %s",
                       *note ? *note : "", *note ? "; " : "", name, shown, w, w - 1, w, w, used, fix) >= 0;
    void (*gfree)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &gfree);
    if (given) gfree(given, strlen(given) + 1);
    if (used) gfree(used, strlen(used) + 1);
    mpz_clear(low);
    if (!ok) return false;
    free(*note);
    *note = s;
    return json_array_append_new(list, json_string(name)) == 0;
}

static json_t *add_masked(json_t *r, enum op_kind kind, const mpz_t a, const mpz_t b, unsigned w) {
    if (!r) return NULL;
    json_t *list = json_array();
    char *note = NULL;
    bool ok = list && note_masked("a", a, w, list, &note);
    if (ok && kind == OP_BITWISE) ok = note_masked("b", b, w, list, &note);
    if (ok && json_array_size(list)) {
        ok = cc_nf_set(r, "masked", json_incref(list)) && cc_nf_set(r, "note", json_string(note));
    }
    json_decref(list);
    free(note);
    return cc_nf_finish(r, ok);
}

/* a, b already read; op lower-cased and known. */
static json_t *compute(const char *op, enum op_kind kind, const mpz_t a, const mpz_t b, unsigned w) {
    uint64_t mask = w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
    mpz_t t;
    mpz_init(t);
    mpz_fdiv_r_2exp(t, a, w); /* two's complement of a negative a */
    uint64_t A = mpz_get_ui(t);
    struct outcome o = {0};
    mpz_init(o.unbounded);
    if (kind == OP_NOT) {
        o.u = ~A & mask;
    } else if (kind == OP_BITWISE) {
        mpz_fdiv_r_2exp(t, b, w);
        o.u = bitwise(op, A, mpz_get_ui(t)) & mask;
    } else {
        counted(&o, op, A, b, w, mask);
    }
    json_t *r = o.failed ? NULL : add_masked(display(op, w, &o), kind, a, b, w);
    json_decref(o.overflow);
    mpz_clears(t, o.unbounded, NULL);
    return r;
}

/* Validation in the spec's order: width, missing b, negative count, op. */
static json_t *checked(json_t *args, char *op, const mpz_t a) {
    json_t *jw = json_object_get(args, "width"), *jb = json_object_get(args, "b");
    mpz_t w, b;
    mpz_inits(w, b, NULL);
    mpz_set_ui(w, 64);
    bool has_b = jb && !json_is_null(jb);
    enum op_kind kind = classify(op);
    json_t *r;
    if (jw && !json_is_null(jw) && cc_json_get_mpz(jw, w))
        r = cc_err("validation", "width must be 8/16/32/64");
    else if (mpz_cmp_ui(w, 8) && mpz_cmp_ui(w, 16) && mpz_cmp_ui(w, 32) && mpz_cmp_ui(w, 64))
        r = cc_err("validation", "width must be 8/16/32/64");
    else if (kind != OP_NOT && !has_b)
        r = cc_err("validation", "%s needs two operands", op);
    else if (has_b && cc_json_get_int_exact(jb, b))
        r = cc_err("validation", "b must be an integer or null");
    else if (kind == OP_COUNT && mpz_sgn(b) < 0) {
        char *digits = malloc(mpz_sizeinbase(b, 10) + 2);
        r = digits ? cc_err("validation", "negative shift/rotate count %s", mpz_get_str(digits, 10, b)) : NULL;
        free(digits);
    } else if (kind == OP_UNKNOWN)
        r = cc_err("validation", "unknown op '%s'; use and, or, xor, nand, nor, xnor, not, shl, shr, sar, rol, ror",
                   op);
    else
        r = compute(op, kind, a, b, (unsigned)mpz_get_ui(w));
    mpz_clears(w, b, NULL);
    return r;
}

json_t *cc_tool_bitop(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *jop = json_object_get(args, "op");
    if (!json_is_string(jop) || cc_json_is_bigint(jop)) return cc_err("validation", "op must be a string");
    mpz_t a;
    mpz_init(a);
    if (cc_json_get_int_exact(json_object_get(args, "a"), a)) {
        mpz_clear(a);
        return cc_err("validation", "a must be an integer");
    }
    /* Lower-cased copy; an embedded NUL just makes the op unknown. */
    char *op = strndup(json_string_value(jop), json_string_length(jop));
    json_t *r = NULL;
    if (op) {
        for (char *p = op; *p; p++) *p = (char)tolower((unsigned char)*p);
        r = checked(args, op, a);
        free(op);
    }
    mpz_clear(a);
    return r;
}
