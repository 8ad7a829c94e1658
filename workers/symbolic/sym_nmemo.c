/* The numeric evaluator's memo of function values (see sym_nmemo.h). */
#include "workers/symbolic/sym_nmemo.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/flag.h"
#include "workers/symbolic/sym_fast.h"
#include "workers/symbolic/sym_numeval.h"

/* 4,096 entries of three 128-bit complex numbers: about 1.2 MB once full.
 * The corpus's checks meet a few thousand distinct (function, argument)
 * pairs, most of them in every request with the same symbols. */
#define SLOTS 4096

struct entry {
    bool used, two;
    int rc;
    char name[SYM_NMEMO_NAME];
    mpc_t a, b, out;
};

static struct entry *table;
static unsigned long n_lookups, n_hits;
static int on = -1;

void sym_nmemo_enable(bool yes) { on = yes; }

/* CODECALC_SYMBOLIC_FASTPATH=0 turns the memo off too: fastpath.py then
 * compares every answer with and without it */
bool sym_nmemo_enabled(void) {
    if (on < 0) {
        on = cc_flag(CC_FLAG_SYMBOLIC_NMEMO) && sym_fast_enabled();
    }
    return on;
}

void sym_nmemo_stats(unsigned long *lookups, unsigned long *hits) {
    *lookups = n_lookups;
    *hits = n_hits;
}

/* MurmurHash3's finaliser: every input bit reaches the low bits the slot
 * is taken from (a multiplication alone moves bits only upwards, and a
 * significand's differences sit in its top limb) */
static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ULL;
    return h ^ (h >> 33);
}

/* a hash of x's value: sign, exponent and significand limbs */
static uint64_t hash_fr(uint64_t h, mpfr_srcptr x) {
    h = mix(h, (uint64_t)mpfr_signbit(x));
    if (!mpfr_regular_p(x))
        return mix(h, mpfr_zero_p(x) ? 1 : 2);
    h = mix(h, (uint64_t)mpfr_get_exp(x));
    const mp_limb_t *d = mpfr_custom_get_significand((mpfr_ptr)x);
    size_t n = ((size_t)mpfr_get_prec(x) + GMP_NUMB_BITS - 1) / GMP_NUMB_BITS;
    for (size_t i = 0; i < n; i++)
        h = mix(h, (uint64_t)d[i]);
    return h;
}

static size_t slot_of(const char *name, mpc_srcptr a, mpc_srcptr b) {
    uint64_t h = 0;
    for (const char *p = name; *p; p++)
        h = mix(h, (unsigned char)*p);
    h = hash_fr(hash_fr(h, mpc_realref(a)), mpc_imagref(a));
    if (b)
        h = hash_fr(hash_fr(mix(h, 1), mpc_realref(b)), mpc_imagref(b));
    return (size_t)(h % SLOTS);
}

static bool at_bits(mpc_srcptr z) {
    return mpfr_get_prec(mpc_realref(z)) == SYM_NUM_BITS &&
           mpfr_get_prec(mpc_imagref(z)) == SYM_NUM_BITS;
}

/* an argument the memo takes: finite parts at SYM_NUM_BITS (NaN equals
 * nothing, so a NaN key could never be found again) */
static bool storable(mpc_srcptr z) {
    return at_bits(z) && mpfr_number_p(mpc_realref(z)) && mpfr_number_p(mpc_imagref(z));
}

/* the same bits: equal values with the same signs (of zeros too) */
static bool same_fr(mpfr_srcptr x, mpfr_srcptr y) {
    return mpfr_signbit(x) == mpfr_signbit(y) && mpfr_equal_p(x, y);
}

static bool same_c(mpc_srcptr x, mpc_srcptr y) {
    return same_fr(mpc_realref(x), mpc_realref(y)) && same_fr(mpc_imagref(x), mpc_imagref(y));
}

static bool key_ok(const char *name, mpc_srcptr a, mpc_srcptr b) {
    return sym_nmemo_enabled() && strlen(name) < SYM_NMEMO_NAME && storable(a) &&
           (!b || storable(b));
}

bool sym_nmemo_get(const char *name, mpc_srcptr a, mpc_srcptr b, mpc_ptr out, int *rc) {
    if (!table || !key_ok(name, a, b) || !at_bits(out))
        return false;
    n_lookups++;
    const struct entry *s = &table[slot_of(name, a, b)];
    if (!s->used || s->two != (b != NULL) || strcmp(s->name, name) || !same_c(s->a, a) ||
        (b && !same_c(s->b, b)))
        return false;
    n_hits++;
    *rc = s->rc;
    if (s->rc == 0)
        mpc_set(out, s->out, MPC_RNDNN); /* same precision: an exact copy */
    return true;
}

void sym_nmemo_put(const char *name, mpc_srcptr a, mpc_srcptr b, mpc_srcptr out, int rc) {
    /* a value may be infinite or NaN (gamma at a pole): the caller reads
     * it as no value, and reads the copy the same way */
    if (!key_ok(name, a, b) || (rc == 0 && !at_bits(out)))
        return;
    if (!table) {
        table = calloc(SLOTS, sizeof *table);
        if (!table)
            return; /* no memo: every value is computed, as without one */
    }
    struct entry *s = &table[slot_of(name, a, b)];
    if (!s->used) {
        mpc_init2(s->a, SYM_NUM_BITS);
        mpc_init2(s->b, SYM_NUM_BITS);
        mpc_init2(s->out, SYM_NUM_BITS);
        s->used = true;
    }
    strcpy(s->name, name); /* fits: key_ok */
    s->two = b != NULL;
    s->rc = rc;
    mpc_set(s->a, a, MPC_RNDNN);
    if (b)
        mpc_set(s->b, b, MPC_RNDNN);
    if (rc == 0)
        mpc_set(s->out, out, MPC_RNDNN);
}
