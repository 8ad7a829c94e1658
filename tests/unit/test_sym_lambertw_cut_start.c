/* Regression test: N(LambertW(-pi/2)) was refused ("a LambertW branch whose
 * iteration finds no root") although LambertW(-pi/2) is I*pi/2 exactly.
 * Newton's start near the origin is log(1 + z); for z = -pi/2, 1 + z is
 * negative and its log, -0.56 + pi i, lies nearer W_-1's root -pi i/2,
 * where the iteration settled, and the branch check refused it. A start
 * that fails the branch check is now followed by the asymptotic start. The
 * values are mpmath's lambertw at 40 digits. */
#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tools.h"

static void test_lambertw_of_minus_pi_over_2_was_refused(void) {
    sym_expect("N(im(LambertW(-pi/2)), 30)", "1.57079632679489661923132169164");
    sym_expect("N(LambertW(-pi/2) - I*pi/2, 20)", "0");
    /* the literal is its binary64 value here (mpmath of float(-1.5707963)) */
    sym_expect("N(LambertW(-1.5707963), 15)", "-1.21385799503804e-8 + 1.57079631906724*I");
    sym_expect("N(LambertW(-pi/2, -1), 20)", "-1.5707963267948966192*I");
}

/* Other points where 1 + z is negative, on both sides of the cut;
 * N(LambertW(-9/5)) was refused as "beyond 10**39" (the iteration from the
 * cut's start ran away). */
static void test_lambertw_where_one_plus_z_is_negative(void) {
    sym_expect("N(LambertW(-9/5), 20)", "0.097214937548799985453 + 1.630353926426572494*I");
    sym_expect("N(LambertW(-3/2), 20)", "-0.032783735915572522991 + 1.5496438233501592257*I");
    sym_expect("N(LambertW(-7/5 + I/10), 20)", "-0.045647922429116718572 + 1.4684122855952435592*I");
    sym_expect("N(LambertW(-7/5 - I/10), 20)", "-0.045647922429116718572 - 1.4684122855952435592*I");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(test_lambertw_of_minus_pi_over_2_was_refused);
    RUN(test_lambertw_where_one_plus_z_is_negative);
    return check_summary("test_sym_lambertw_cut_start");
}
