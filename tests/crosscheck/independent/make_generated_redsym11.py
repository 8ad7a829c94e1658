#!/usr/bin/env python3
"""Builds generated-redsym11.json: the eleventh generated red-team round on
the symbolic tools (written in the redsym12 session). Every expectation
comes from an oracle (SymPy's limit confirmed by mpmath, mpmath at 50
digits, sampled truth over a domain), none picked by looking at
codecalc's answer.

Classes (cat prefix rs11/):
  remsing   limits of rational functions at a removable singularity
            (a common factor (x - c)**k cancelled, the remaining factors
            expanded so the cancellation is hidden): right, left and
            two-sided limits by SymPy, confirmed numerically
  abslim    one-sided and two-sided limits of abs/sign/piecewise-like
            quotients at their kink (Abs(x**2 - c**2)/(x - c), sqrt of a
            square over a linear factor, floor near an integer): the two
            sides differ, so "does not exist" two-sided
  nestrad   algebraic_equiv of nested radicals against their denesting
            (sqrt(a + 2*sqrt(b)) = sqrt(m) + sqrt(n) when m + n = a, m*n = b),
            true, and against a near-denesting (m, n off by one), false;
            truth by mpmath at 50 digits
  absform   algebraic_equiv of forms that differ on a branch of a real
            variable (sqrt(x**2) against x, Abs(x)/x against 1, log(x**2)
            against 2*log(x)) under the stated assumption (real, positive
            or none): truth by sampling the domain

Usage: python3 make_generated_redsym11.py [--seed N] [--out NAME]
The default seed (20261211) builds the corpus `make check` runs
(report-only); a different seed builds a fresh batch.

Results (--report-only; main = 779d36b, redsym12 = the branch that wrote
this file):
  seed 20261211 (seed A, the committed corpus, 114 cases; the fix was made
  on it): main 104/114 with 1 confident wrong (Sum(1/(k*(k + 4)), (k, 2,
  oo)) simplified to 31/120, it is 77/240), 2 refusals (CPU limit on
  Sum(1/((3*k - 1)*(3*k + 1)))), 7 short (telescoping sums left inert);
  redsym12 110/114, 0 wrong.
  seed 7713 (seed B, drawn after the fix): main 107/115 with 2 confident
  wrong (Sum((-1)**k/k**4, (k, 2, oo)) = -1 + 7*pi**4/720, the sign
  wrong; Sum(1/((k + 3)*(k + 7)), (k, 1, oo)) = 107/840, it is
  0.18988...), 6 short; redsym12 114/115, 0 wrong, 1 short
  (Sum(1/k**2, (k, 2, oo)) left inert).
  The limit, nested-radical and branch classes agreed on main at both
  seeds (the earlier rounds' fixes hold on fresh cases).
"""
import os
import sys

import mpmath
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_corpus as mc  # noqa: E402  (the helpers; its own cases are dropped)
from oracle import limit_case, parse, start_generator, run_generator  # noqa: E402
from oracle import show as s  # noqa: E402
from redsym_common import fill, sampled_truth, traced  # noqa: E402

start_generator(mc)


# ---- removable singularities ------------------------------------------------------------------

OTHER = ["x + Q", "x**2 + 1", "x - P", "x**2 + x + 1", "2*x + 1", "x**3 - P"]


def remsing(R, used):
    x = sp.Symbol("x")
    c = sp.Rational(R.choice([1, 2, 3, -1, -2]), R.choice([1, 1, 2]))
    k = R.choice([1, 1, 2])
    num = (x - c) ** k * parse(fill(R, R.choice(OTHER)))
    den = (x - c) ** R.choice([k, k, k + 1 if k == 1 else k]) * parse(fill(R, R.choice(OTHER)))
    if R.random() < 0.3:  # a trig or exp removable factor instead
        num = sp.sin(x - c) * parse(fill(R, R.choice(OTHER)))
        den = (x - c) * parse(fill(R, R.choice(OTHER)))
        text = "(%s)*sin(x - (%s))/(%s)" % (s(sp.expand(num / sp.sin(x - c))), s(c), s(sp.expand(den)))
    else:
        text = "(%s)/(%s)" % (s(sp.expand(num)), s(sp.expand(den)))
    if text in used or len(text) > 200:
        return
    used.add(text)
    limit_case(mc, text, s(c), "remsing", why="a removable (or pole) factor hidden by expansion (SymPy, confirmed numerically)")


# ---- kinks: abs, sqrt of squares, sign --------------------------------------------------------

KINKS = [("Abs(x**2 - Q**2)/(x - Q)", "Q"), ("sqrt(x**2 - 2*Q*x + Q**2)/(x - Q)", "Q"), ("(x - Q)/Abs(x - Q)", "Q"),
         ("Abs(sin(x))/x", "0"), ("x/sqrt(1 - cos(x))", "0"), ("(Abs(x) - x)/x", "0"), ("sign(x - Q)*(x - Q)", "Q"),
         ("Abs(x**3 - Q**3)/(x**2 - Q**2)", "Q"), ("sqrt(x**4)/x**2", "0"), ("(sqrt(x**2 + P*x) - x)", "oo"),
         ("Abs(x - Q)*x/(x**2 - Q**2)", "Q"), ("exp(1/(x - Q))", "Q"), ("atan(1/(x - Q))", "Q"),
         ("Abs(x)**(1/x)", "0"), ("Abs(tan(x))/sin(x)", "0")]


def abslim(R, used):
    t0, p0 = R.choice(KINKS)
    qv = str(R.randint(1, 3))  # one value of Q for the expression and the point
    t, pt = fill(R, t0.replace("Q", qv)), p0.replace("Q", qv)
    if (t, pt) in used:
        return
    used.add((t, pt))
    limit_case(mc, t, pt, "abslim", why="a kink: both sides by SymPy, confirmed numerically")


# ---- nested radicals ---------------------------------------------------------------------------

def _num_equal(a, b):
    with mpmath.workdps(50):
        va = mpmath.mpc(sp.N(parse(a), 60))
        vb = mpmath.mpc(sp.N(parse(b), 60))
        return abs(va - vb) < mpmath.mpf(10) ** -40


def nestrad(R, used):
    m, n = R.randint(1, 12), R.randint(1, 12)
    if m == n or sp.sqrt(m).is_Rational and sp.sqrt(n).is_Rational:
        return
    if m < n:
        m, n = n, m
    form = R.choice(["plus", "minus", "cube", "fourth"])
    if form == "plus":
        a, b = "sqrt(%d + 2*sqrt(%d))" % (m + n, m * n), "sqrt(%d) + sqrt(%d)" % (m, n)
    elif form == "minus":
        a, b = "sqrt(%d - 2*sqrt(%d))" % (m + n, m * n), "sqrt(%d) - sqrt(%d)" % (m, n)
    elif form == "cube":  # (sqrt(m) + 1)**3 = m*sqrt(m) + 3*m + 3*sqrt(m) + 1
        a, b = "(%d + %d*sqrt(%d))**(1/3)" % (3 * m + 1, m + 3, m), "sqrt(%d) + 1" % m
    else:
        a, b = "sqrt(%d + sqrt(%d))*sqrt(%d - sqrt(%d))" % (m + n, 4 * m * n, m + n, 4 * m * n), "%d" % (m - n)
    if R.random() < 0.4:  # a near-denesting: one integer off
        b = b.replace(str(m), str(m + 1), 1) if str(m) in b else b + " + 1"
    if R.random() < 0.5:
        a, b = b, a
    if (a, b) in used:
        return
    used.add((a, b))
    truth = _num_equal(a, b)
    mc.eq(a, b, truth, cat="nestrad", why="a nested radical against %s denesting (mpmath, 50 digits)"
          % ("its" if truth else "a near"))


# ---- forms that differ on a branch ------------------------------------------------------------

BRANCH = [("sqrt(x**2)", "x"), ("sqrt(x**2)", "Abs(x)"), ("Abs(x)/x", "1"), ("log(x**2)", "2*log(x)"),
          ("log(x**2)", "2*log(Abs(x))"), ("(x**3)**(1/3)", "x"), ("sqrt(x)*sqrt(x)", "x"), ("sqrt(x*y)", "sqrt(x)*sqrt(y)"),
          ("exp(log(x))", "x"), ("log(exp(x))", "x"), ("atan(tan(x))", "x"), ("sqrt(x**2*y**2)", "x*y"),
          ("(x**2)**(3/2)", "x**3"), ("sqrt(1/x)", "1/sqrt(x)"), ("log(x/y)", "log(x) - log(y)"),
          ("asin(sin(x))", "x"), ("x**(1/2)*x**(1/2)", "Abs(x)"), ("sqrt(x**4)", "x**2")]


def absform(R, used):
    a, b = R.choice(BRANCH)
    kind = R.choice(["real", "positive", "complex"])
    if (a, b, kind) in used:
        return
    used.add((a, b, kind))
    syms = sorted({str(v) for v in (parse(a).free_symbols | parse(b).free_symbols)})
    dom = {v: kind for v in syms}
    truth = sampled_truth(a, b, dom, R.randint(1, 10**6))
    if truth is None:
        return
    assume = None if kind == "complex" else {v: kind for v in syms}
    mc.eq(a, b, truth, assume=assume, cat="absform",
          why="a branch: sampled over %s values (%s)" % (kind, "equal" if truth else "a mismatch"))


# ---- infinite sums written Sum(...) -----------------------------------------------------------

CONV = ["1/(k*(k + P))", "1/((k + Q)*(k + P + Q))", "(-1)**k/(k + Q)", "k/P**k", "1/k**P", "1/((P*k - 1)*(P*k + 1))",
        "k**2/P**k", "1/(k**2 + Q*k)", "(-1)**k/k**P", "1/(k*(k + 1)*(k + P))", "1/factorial(k + Q)"]
DIV = ["cos(k)", "(-1)**k", "k/(k + Q)", "1/k", "1/(P*k + Q)", "sin(k)**2", "(-1)**k*k/(k + Q)", "P**k/k**Q",
       "1/sqrt(k)", "log(1 + 1/k)"]


def infsum(R, used):
    t = fill(R, R.choice(CONV))
    lo = R.choice([1, 1, 2, 3])
    text = "Sum(%s, (k, %d, oo))" % (t, lo)
    if text in used:
        return
    used.add(text)
    k = sp.Symbol("k")
    f = sp.lambdify(k, parse(t), "mpmath")
    with mpmath.workdps(50):
        try:
            v = mpmath.nsum(f, [lo, mpmath.inf])
            w = sp.summation(parse(t), (k, lo, sp.oo))
            if w.has(sp.Sum) or abs(mpmath.mpc(complex(sp.N(w, 50))) - v) > mpmath.mpf(10) ** -12:
                return  # the two oracles must agree
        except (TypeError, ValueError, ZeroDivisionError):
            return
    mc.case("evaluate_expression", {"expression": text}, mc.chk("simplified", "value_or_open", mpmath.nstr(v, 35)),
            cat="infsum", why="a convergent series written Sum(...): its value (mpmath.nsum and SymPy agree)")


def divsum(R, used):
    t = fill(R, R.choice(DIV))
    text = "Sum(%s, (k, 1, oo))" % t
    if text in used:
        return
    used.add(text)
    mc.case("evaluate_expression", {"expression": text}, mc.chk("simplified", "not_finite"), cat="divsum",
            why="a divergent series written Sum(...): its terms do not tend to 0, or it is harmonic-like")


CLASSES = ()
USED_CLASSES = tuple((traced(f), n, c) for f, n, c in (
    (remsing, 24, "remsing"), (abslim, 20, "abslim"), (nestrad, 30, "nestrad"), (absform, 30, "absform"),
    (infsum, 24, "infsum"), (divsum, 14, "divsum")))

if __name__ == "__main__":
    run_generator(mc, 11, 20261211, CLASSES, USED_CLASSES)
