/* The work of the numeric evaluator as a count (see sym_nwork.h). The
 * weights are CPU time per term over n = 1..4000 on the reference host
 * (redsym8, 46 kinds of term: scripts/bench-sumest prints the charge beside
 * the time), rounded up: a charge may exceed the time, which costs terms,
 * but should not fall short of it, which would cost time. */
#include "workers/symbolic/sym_nwork.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

static unsigned long units;

unsigned long sym_nwork(void) { return units; }
void sym_nwork_reset(void) { units = 0; }
void sym_nwork_node(void) { units += 4; }
void sym_nwork_pow(void) { units += 150; }

/* per function: the charge at a real argument and at a complex one */
static const struct {
    const char *name;
    unsigned real, complex;
} WEIGHTS[] = {
    {"gamma", 300, 4000},  {"factorial", 300, 4000}, {"erf", 100, 2000},  {"erfc", 100, 2000},
    {"Ei", 600, 2000},     {"digamma", 800, 4000},   {"LambertW", 350, 1500},
    {"zeta", 2500, 35000}, {"atan", 80, 500},        {"asin", 80, 500},   {"acos", 80, 500},
    {"asinh", 80, 500},    {"acosh", 80, 500},       {"atanh", 80, 500},
};

/* periodic functions reduce their argument at its full size: sin(10**400)
 * works with 1300 more bits than sin(2) */
static bool reduces(const char *name) {
    static const char *const P[] = {"sin", "cos", "tan", "cot", "sec", "csc"};
    for (size_t i = 0; i < sizeof P / sizeof *P; i++)
        if (!strcmp(name, P[i]))
            return true;
    return false;
}

/* the binary exponent of |x| beyond 64 bits, 0 below */
static unsigned long beyond(mpfr_srcptr x) {
    if (!mpfr_regular_p(x) || mpfr_get_exp(x) <= 64)
        return 0;
    return (unsigned long)mpfr_get_exp(x) - 64;
}

static unsigned long zeta_charge(mpc_srcptr s) {
    mpfr_srcptr re = mpc_realref(s), im = mpc_imagref(s);
    if (mpfr_zero_p(im)) {
        /* MPFR's zeta: Bernoulli numbers at an integer, a short series far
         * right of the pole, Borwein-like sums near it */
        if (mpfr_integer_p(re) || mpfr_cmp_ui(re, 20) > 0)
            return 30;
        return 2500;
    }
    /* Borwein's series (sym_czeta.c) grows with |Im s|: zeta(2 + I/n)
     * takes 3.6 ms, zeta(1/2 + I*n) 45 ms on average over n <= 1000 */
    double t = fabs(mpfr_get_d(im, MPFR_RNDN));
    return (unsigned long)(35000.0 * (1 + fmin(t, 1e9) / 40));
}

void sym_nwork_call(const char *name, mpc_srcptr a) {
    if (!strcmp(name, "zeta")) {
        units += zeta_charge(a);
        return;
    }
    bool real = mpfr_zero_p(mpc_imagref(a));
    unsigned long w = real ? 40 : 100;
    for (size_t i = 0; i < sizeof WEIGHTS / sizeof *WEIGHTS; i++)
        if (!strcmp(WEIGHTS[i].name, name))
            w = real ? WEIGHTS[i].real : WEIGHTS[i].complex;
    if (reduces(name))
        w += (beyond(mpc_realref(a)) + beyond(mpc_imagref(a))) / 8;
    units += w;
}
