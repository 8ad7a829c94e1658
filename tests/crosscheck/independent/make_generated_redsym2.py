#!/usr/bin/env python3
"""Builds generated-redsym2.json: the second red-team round on the symbolic
tools, new classes generated from seeded random choices, every expectation
from an oracle (mpmath.quad, numeric differentiation, SymPy, fractions),
none picked by looking at codecalc's answer.

Classes (cat prefix rs2/):
  defint       definite integrals of random integrands over finite and
               infinite ranges, poles inside or at an end, integrable
               singularities, piecewise integrands (Abs, sign, floor,
               Heaviside, Max): the value is mpmath.quad's (split at the
               breakpoints) confirmed by SymPy; a divergent one (SymPy's oo
               or a non-integrable singularity) must not get a finite value
  defint-param definite integrals with a free parameter: the answer, at
               sample parameter values where the integral converges, is
               mpmath.quad's value there; an unevaluated or refused answer
               is not wrong, a hang is a refusal
  antideriv    indefinite integrals of random compositions: d/dx of the
               answer equals the integrand (mpmath.diff at real points)
  limit        limits with parameters, at poles (one-sided, two-sided),
               towers at infinity, oscillating ones (SymPy, confirmed near
               the point)
  solve        products of factors (every root, nothing missing), equations
               in exp/log with their general solutions (every general
               solution checked at k = -1..2)
  simplify     random compositions through simplify_expression: every form
               equals the input at complex points
  diff         derivatives of special and piecewise functions (SymPy's,
               compared at real points)
  sum          finite sums with a symbolic bound (checked at n = 1..6),
               convergent and divergent infinite series
  matrix       random integer and rational matrices: det, inverse,
               eigenvalues exactly (fractions and SymPy)
  special      exact special values (SymPy/mpmath)

Usage: python3 make_generated_redsym2.py [--seed N] [--out NAME]
The default seed builds the corpus `make check` runs (report-only); a
different seed builds a fresh batch never used while fixing.
"""
import argparse
import json
import os
import random
import sys
from fractions import Fraction

import mpmath
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_corpus as mc  # noqa: E402  (the helpers; its own cases are dropped)
from make_corpus import case, chk, simp, lim, solve, ev, ev_diverge, mat  # noqa: E402
from oracle import parse, limit_oracle, timed, start_generator, x, y, a, n, k  # noqa: E402,F401
from oracle import show as s  # noqa: E402

start_generator(mc)


def mpf_of(text):
    if text == "oo":
        return mpmath.inf
    if text == "-oo":
        return -mpmath.inf
    return mpmath.mpf(sp.N(parse(text), 40))


def quad(f, lo, hi, breaks=()):
    """mpmath.quad of f over [lo, hi] split at breaks; None when it does
    not settle (two precisions disagree)."""
    pts = [lo] + sorted(b for b in breaks if lo < b < hi) + [hi]
    vals = []
    for dps in (20, 30):
        with mpmath.workdps(dps):
            try:
                q = timed(mpmath.quad, f, pts, maxdegree=8)
                if q is None:
                    return None
                vals.append(q)
            except Exception:  # noqa: BLE001 - the oracle declines
                return None
    if abs(vals[0] - vals[1]) > 1e-12 * max(1, abs(vals[1])):
        return None
    return vals[1]


def tag(start, cat):
    for c in mc.CASES[start:]:
        c["cat"] = "rs2/" + cat


def build(R):
    # ---- definite integrals with constant limits -------------------------
    B = len(mc.CASES)
    SMOOTH = ["x**2 + 1", "exp(-x)", "sin(x)", "cos(2*x)", "x*exp(-x**2)", "1/(x**2 + 1)", "log(x + 2)",
              "x**3 - 2*x", "sqrt(x + 3)", "atan(x)", "exp(x)*cos(x)", "x/(x**2 + 4)", "sinh(x)/(1 + x**2)"]
    FINITE = [("0", "1"), ("-1", "2"), ("0", "pi"), ("1", "3"), ("-2", "0"), ("0", "pi/2")]
    done = set()
    for _ in range(14):
        f = R.choice(SMOOTH)
        g = R.choice(SMOOTH)
        e = R.choice(["(%s)*(%s)" % (f, g), "(%s) + (%s)" % (f, g), "(%s)/(%s + 2)" % (f, "x**2")])
        lo, hi = R.choice(FINITE)
        if (e, lo, hi) in done:
            continue
        done.add((e, lo, hi))
        defint(e, lo, hi)
    # improper at infinity: convergent and divergent tails
    TAILS = [("1/(x**2 + %d)", True), ("x/(x**2 + %d)", False), ("x**2/(x**4 + %d)", True),
             ("x**3/(x**4 + %d)", False), ("exp(-x/%d)", True), ("1/sqrt(x**2 + %d)", False),
             ("x/(x**3 + %d)", True), ("1/(x + %d)", False), ("x*exp(-x**2/%d)", True),
             ("1/(x**2 + %d)**(1/3)", False), ("atan(x)/(x**2 + %d)", True), ("log(x + %d)/x**2", True)]
    for _ in range(16):
        t, conv = R.choice(TAILS)
        e = t % R.randint(1, 5)
        lo, hi = R.choice([("0", "oo"), ("-oo", "oo"), ("1", "oo"), ("-oo", "0")])
        if "log" in e and lo in ("-oo", "0"):
            lo = "1"
        if "exp(-x/" in e and lo == "-oo":
            lo = "0"
        if (e, lo, hi) in done:
            continue
        done.add((e, lo, hi))
        defint(e, lo, hi)
    # poles inside or at an end of the range, integrable singularities
    for _ in range(14):
        c = R.choice([0, 1, -1, 2])
        m = R.choice([1, 2, 3])
        form = R.choice(["1/(x - (%d))**%d" % (c, m), "x/(x - (%d))**%d" % (c, m),
                         "1/Abs(x - (%d))**(1/%d)" % (c, m + 1), "log(Abs(x - (%d)))" % c,
                         "1/((x - (%d))*(x + 5))" % c, "exp(x)/(x - (%d))**%d" % (c, m),
                         "1/sqrt(Abs(x - (%d)))" % c, "cos(x)/(x - (%d))**%d" % (c, m)])
        lo, hi = R.choice([(c - 1, c + 2), (c, c + 1), (c - 2, c), (c - 3, c + 3)])
        defint(form, str(lo), str(hi), breaks=(c,))
    # piecewise integrands
    for _ in range(12):
        c = R.choice([0, 1, -1, sp.Rational(1, 2)])
        form = R.choice(["Abs(x - (%s))" % c, "sign(x - (%s))*x" % c, "floor(x)", "floor(2*x) - x",
                         "Heaviside(x - (%s))*x**2" % c, "Max(x, %s)" % c, "Min(x**2, 1)",
                         "Abs(sin(x))", "x*Abs(x - (%s))" % c, "ceiling(x)*x", "Abs(x**2 - 1)"])
        lo, hi = R.choice([(-2, 2), (0, 3), (-1, 1), (-3, 1)])
        defint(form, str(lo), str(hi), breaks=tuple(sp.Rational(i, 2) for i in range(-8, 9)))
    # trig over periods, where a pole of tan/sec sits inside
    for e, lo, hi in (("tan(x)", "0", "pi"), ("1/cos(x)**2", "0", "pi"), ("1/sin(x)", "1", "4"),
                      ("tan(x)**2", "0", "2"), ("1/(2 + cos(x))", "0", "2*pi"), ("1/(1 + sin(x)**2)", "0", "pi"),
                      ("1/(5 - 4*cos(x))", "0", "2*pi"), ("cot(x)", "1", "2"), ("1/(1 - cos(x))", "0", "1")):
        defint(e, lo, hi)
    tag(B, "defint")

    # ---- definite integrals with a free parameter -------------------------
    B = len(mc.CASES)
    PARAM = [("exp(-a*x)", "0", "oo"), ("x*exp(-a*x**2)", "0", "oo"), ("x**a", "0", "1"),
             ("1/(x**2 + a**2)", "0", "oo"), ("exp(-a*x**2)", "-oo", "oo"), ("x**2*exp(-a*x)", "0", "oo"),
             ("sin(a*x)", "0", "pi"), ("1/(x + a)", "0", "1"), ("exp(-a*x)*sin(x)", "0", "oo"),
             ("x**(a - 1)*exp(-x)", "0", "oo"), ("1/(a + x**2)", "-oo", "oo"), ("log(a*x)", "1", "2"),
             ("x/(x**2 + a)", "0", "1"), ("cos(a*x)*exp(-x)", "0", "oo"), ("1/(1 + a*x)**2", "0", "oo"),
             ("exp(-x)*x**a", "0", "oo"), ("(a*x + 1)**2", "0", "a")]
    for e, lo, hi in R.sample(PARAM, 12):
        param_int(e, lo, hi)
    tag(B, "defint-param")

    # ---- antiderivatives -------------------------------------------------------
    B = len(mc.CASES)
    OUTER = ["sin", "cos", "exp", "log", "sqrt", "atan", "sinh", "tanh"]
    INNER = ["x", "2*x + 1", "x**2", "x/3", "3*x - 2"]
    for _ in range(18):
        shape = R.choice(["f(u)", "x*f(u)", "f(u)**2", "f(u)/x", "x**2*f(u)", "f(u)*g(v)"])
        f, g = R.sample(OUTER, 2)
        e = shape.replace("f(u)", "%s(%s)" % (f, R.choice(INNER))).replace("g(v)", "%s(%s)" % (g, R.choice(INNER)))
        case("evaluate_expression", {"expression": "integrate(%s, x)" % e},
             chk("expression", "antideriv", e, var="x"), cat="antideriv")
    for e in ("Abs(x)", "sign(x)*x**2", "floor(x)", "Heaviside(x)", "Max(x, 0)", "1/(x**2 - 1)", "1/(x**3 + 1)",
              "x/(x**4 + 1)", "exp(-x**2)", "sin(x)/x", "exp(x)/x", "1/log(x)", "sqrt(1 - x**2)",
              "1/sqrt(x**2 + 1)", "asin(x)", "x*atan(x)", "log(x**2 + 1)", "sec(x)", "cot(x)"):
        case("evaluate_expression", {"expression": "integrate(%s, x)" % e},
             chk("expression", "antideriv_real", e, var="x"), cat="antideriv")
    tag(B, "antideriv")

    # ---- limits -----------------------------------------------------------------
    B = len(mc.CASES)
    for _ in range(6):
        p, q = R.choice([1, 2, 3, -1]), R.choice([1, 2, 5])
        lim("(1 + %d*a/x)**(%d*x)" % (p, q), s(sp.exp(p * q * a)), "oo")
    for e, want, pt in (("(x**a - 1)/x", None, "0"), ("(a**x - 1)/x", "log(a)", "0"), ("sin(a*x)/sin(x)", "a", "0"),
                        ("(exp(a*x) - exp(x))/x", "a - 1", "0"), ("x*(a**(1/x) - 1)", "log(a)", "oo"),
                        ("(sqrt(x + a) - sqrt(x))*sqrt(x)", "a/2", "oo"), ("log(1 + a/x)*x", "a", "oo"),
                        ("(x**2 - a**2)/(x - a)", "2*a", "a"), ("(cos(a*x) - 1)/x**2", "-a**2/2", "0"),
                        ("tan(a*x)/x", "a", "0"), ("(1 + a*x)**(1/x)", "exp(a)", "0")):
        if want:
            lim(e, want, pt)
    for _ in range(10):
        c = R.choice([-1, 0, 1, 2])
        m = R.randint(1, 3)
        lim_case(R.choice(["(x - (%d))**%d/Abs(x - (%d))**%d" % (c, m, c, m), "1/(x - (%d))**%d" % (c, m),
                           "exp(1/(x - (%d)))*(x - (%d))" % (c, c), "atan(1/(x - (%d))**%d)" % (c, m),
                           "floor(x - (%d))*(x - (%d))" % (c, c), "sin(x - (%d))/Abs(x - (%d))" % (c, c),
                           "(x - (%d))*log(Abs(x - (%d)))" % (c, c), "exp(-1/(x - (%d))**2)" % c,
                           "sqrt(x - (%d))/x" % c if c else "sqrt(x)*log(x)"]), str(c))
    for e in ("exp(exp(x))/exp(x**2)", "x**(x**(1/x))/x", "exp(x)/x**x", "log(log(x))/log(x)",
              "(x**x)**(1/x)/x", "exp(sqrt(x))/x**10", "log(x)**x/x**log(x)", "x**(1/log(x))",
              "(log(x)/x)**(1/x)", "exp(x - sqrt(x**2 + 1))", "x*(exp(1/x) - 1)", "x**2*(cos(1/x) - 1)",
              "(exp(x) + x)**(1/x)", "x - log(cosh(x))", "x*(atan(x) - pi/2)", "gamma(x + 1)/x**x"):
        lim_case(e, "oo")
    for e, pt in (("sin(x)*sin(1/x)", "0"), ("x*sin(x)", "oo"), ("cos(x)/x", "oo"), ("sin(x)**2/x", "oo"),
                  ("exp(-x)*cos(exp(x))", "oo"), ("sin(1/x)/x", "0"), ("x**2*sin(1/x)", "0"),
                  ("sin(exp(x))", "oo"), ("cos(1/x)*x", "0"), ("sin(x**2)/x", "oo")):
        lim_case(e, pt)
    tag(B, "limit")

    # ---- solve -----------------------------------------------------------------
    B = len(mc.CASES)
    FACT = ["x - %d", "x + %d", "x**2 - %d", "2*x - %d", "x**2 + %d", "x**3 - %d"]
    for _ in range(10):
        fs = [R.choice(FACT) % R.randint(1, 5) for _ in range(R.randint(2, 3))]
        P = "*".join("(%s)" % f for f in fs)
        w = verified_roots(P)
        if w is not None:
            solve(P, w, cat="solve")
    for e in ("(x - 1)*log(x + 2)", "x*(sqrt(x + 4) - 3)", "(x**2 - 4)/(x - 2)", "(x - 3)*(1/x - 1)",
              "x**2*(x - 1)/(x**2 - x)", "log(x**2) - 2", "sqrt(x**2 + 9) - 5", "x**4 - 13*x**2 + 36",
              "(x + 1)*sqrt(x - 1)", "x/(x + 1) - 2/(x**2 - 1)", "Abs(2*x - 1) - 5", "x**(1/3) - 2",
              "log(x) + log(x - 3) - log(4)", "sqrt(x) - sqrt(2*x - 3)", "x - 2*sqrt(x) - 3"):
        w = verified_roots(e)
        if w is not None:
            solve(e, w, cat="solve")
    PER = ["exp(%d*x) = %d", "exp(x) = %d*exp(-x)", "%d**x = %d", "exp(x)**2 - %d*exp(x) = 0", "sin(%d*x) = 1",
           "cos(x) = 1/%d", "tan(%d*x) = 1", "exp(%d*x) - 1 = %d", "sinh(x) = %d", "cosh(%d*x) = 2",
           "exp(I*x) = %d", "log(x) = %d*I/4"]
    for _ in range(14):
        t = R.choice(PER)
        e = t % tuple(R.randint(2, 7) for _ in range(t.count("%d")))
        solve(e, None, periodic=True, cat="solve-periodic")
    tag(B, "solve")

    # ---- simplify: every form equals the input ------------------------------------------
    B = len(mc.CASES)
    FUN = ["sin", "cos", "exp", "log", "sqrt", "tan", "atan", "asin", "acos", "sinh", "cosh", "Abs", "gamma",
           "asinh", "acosh", "atanh"]
    ARG = ["x", "2*x", "x**2", "x + 1", "1 - x", "x/2", "x*y", "-x", "1/x", "x**2 - 1"]
    for _ in range(28):
        f, g = R.sample(FUN, 2)
        u = R.choice(ARG)
        shape = R.choice(["f(g(u))", "f(u)**2 - g(u)**2", "f(u)*g(u)/f(u)", "f(g(u)) - g(u)", "(f(u) + 1)**2",
                          "f(u)**2*g(u) + f(u)", "f(u)/(f(u)**2 + f(u))"])
        e = shape.replace("f(g(u))", "%s(%s(%s))" % (f, g, u)).replace("f(u)", "%s(%s)" % (f, u)) \
            .replace("g(u)", "%s(%s)" % (g, u))
        simp(e, None, cat="simplify")
    for e in ("sin(acos(x))", "cos(asin(x))", "tan(asin(x))", "sin(atan(x))", "cos(atan(x))", "tan(acos(x))",
              "sinh(acosh(x))", "cosh(asinh(x))", "tanh(asinh(x))", "exp(asinh(x))", "exp(acosh(x))",
              "sqrt(3 + 2*sqrt(2))", "sqrt(x**2 + 2*x + 1)", "(x**3)**(2/3)", "x**(2/3)*x**(1/3)",
              "gamma(x)*gamma(1 - x)", "binomial(n, 2)", "factorial(n + 2)/factorial(n)",
              "floor(x) + ceiling(-x)", "Abs(x)/x", "sign(x)**2", "Max(x, y) + Min(x, y)",
              "exp(log(x)*2)", "log(exp(x)*exp(y))", "sqrt(x)*sqrt(1/x)", "atan(x) + atan(1/x)",
              "acos(x) + acos(-x)", "asin(x) + asin(-x)", "log(x**2)/2 - log(x)", "exp(x/2)**2"):
        simp(e, None, cat="simplify")
    tag(B, "simplify")

    # ---- derivatives of special and piecewise functions -------------------------------
    B = len(mc.CASES)
    for e in ("gamma(x)", "erf(2*x)", "erfc(x**2)", "LambertW(x)", "besselj(1, x)", "besselj(0, 2*x)",
              "Ei(x)", "Si(x)", "Ci(x)", "digamma(x)", "loggamma(x)", "acosh(x)", "atanh(x)", "acot(x)",
              "asec(x)", "zeta(x)", "polygamma(1, x)", "besseli(1, x)", "besselk(0, x)", "bessely(1, x)",
              "x**x", "x**sin(x)", "log(x, 2)", "Abs(x)", "sign(x)*x", "Max(x, x**2)", "floor(x)*x",
              "Heaviside(x)*x**2", "Abs(x**2 - 1)", "Abs(sin(x))"):
        try:
            d = timed(sp.diff, parse(e), x)
        except Exception:  # noqa: BLE001 - the oracle declines
            continue
        case("evaluate_expression", {"expression": "diff(%s, x)" % e},
             chk("expression", "deriv_real", e, var="x"), cat="diff")
    tag(B, "diff")

    # ---- sums ---------------------------------------------------------------------------
    B = len(mc.CASES)
    for _ in range(8):
        p = R.randint(0, 4)
        term = R.choice(["k**%d" % p, "k**%d*2**k" % (p % 2), "(-1)**k*k**%d" % p, "1/(k*(k + %d))" % (p + 1),
                         "binomial(n, k)*%d**k" % (p + 1), "k*(k + %d)" % p, "%d**k" % (p + 2)])
        lo = R.choice([0, 1])
        if "1/(k*" in term:
            lo = 1
        case("evaluate_expression", {"expression": "summation(%s, (k, %d, n))" % (term, lo)},
             chk("expression", "finite_sum", term, var="k", lo=lo), cat="sum")
    for e in ("1/k**2", "1/k**4", "(-1)**k/k", "(-1)**(k + 1)/k**2", "1/(k*(k + 1))", "1/(k**2 + 1)", "k/2**k",
              "1/factorial(k)", "x**k/factorial(k)", "1/(4*k**2 - 1)", "(-1)**k/(2*k + 1)", "1/k**3",
              "k**2/3**k", "1/(k*(k + 2))", "1/binomial(2*k, k)"):
        series_case(e)
    for e in ("1/k", "1/sqrt(k)", "k/(k**2 + 1)", "1/(k*log(k + 1))", "log(k)/k", "1/log(k + 1)", "(-1)**k",
              "k/(k + 1)", "sin(k)", "2**k/k**2", "1/(2*k + 1)"):
        ev_diverge("summation(%s, (k, 1, oo))" % e, "a divergent series")
    tag(B, "sum")

    # ---- matrices ---------------------------------------------------------------------------
    B = len(mc.CASES)
    for _ in range(12):
        m = R.randint(2, 4)
        M = sp.Matrix(m, m, lambda i, j: sp.Rational(R.randint(-5, 5), R.choice([1, 1, 1, 2, 3])))
        rows = [[s(v) for v in M.row(i)] for i in range(m)]
        op = R.choice(["det", "inverse", "eigenvalues", "rank", "det"])
        if op == "det":
            mat(rows, "det", "value", s(M.det()))
        elif op == "rank":
            mat(rows, "rank", "value", str(M.rank()))
        elif op == "inverse":
            if M.det() == 0:
                case("matrix", {"rows": rows, "op": "inverse"}, mc.refuse("validation"), cat="matrix")
            else:
                inv = M.inv()
                mat(rows, "inverse", "matrix", [[s(v) for v in inv.row(i)] for i in range(m)])
        else:
            if m > 3:
                continue
            ev_ = M.eigenvals()
            mat(rows, "eigenvalues", "eig", {s(kk): int(v) for kk, v in ev_.items()})
    for M in (sp.Matrix([[1, 1, 0], [0, 1, 1], [0, 0, 1]]), sp.Matrix([[2, -1], [1, 0]]),
              sp.Matrix([[0, 1, 0], [0, 0, 1], [1, 0, 0]]), sp.Matrix([[3, 1], [-1, 1]])):
        rows = [[s(v) for v in M.row(i)] for i in range(M.rows)]
        mat(rows, "eigenvalues", "eig", {s(kk): int(v) for kk, v in M.eigenvals().items()})
    tag(B, "matrix")

    # ---- exact special values -------------------------------------------------------------
    B = len(mc.CASES)
    for e in ("gamma(7/2)", "gamma(-3/2)", "zeta(6)", "zeta(-3)", "zeta(0)", "polylog(2, 1)", "polylog(2, -1)",
              "LambertW(-exp(-1))", "LambertW(2*exp(2))", "erf(0)", "besselj(0, 0)", "digamma(1)",
              "digamma(1/2)", "polygamma(1, 1)", "beta(2, 3)", "factorial(0)", "binomial(10, 3)",
              "catalan", "Ei(0)", "Si(0)", "loggamma(1)", "gamma(1/2)**2", "zeta(2)*6/pi**2",
              "harmonic(5)", "fibonacci(30)", "lucas(10)", "bernoulli(6)", "euler(4)", "acot(1)",
              "asec(2)", "acsc(-2)", "acoth(3)", "atanh(1/2)", "asinh(1)"):
        try:
            v = parse(e)
        except Exception:  # noqa: BLE001 - a name SymPy lacks
            continue
        if v.free_symbols or v.has(sp.zoo, sp.nan):
            continue
        case("evaluate_expression", {"expression": e}, chk("expression", "expr", s(v)),
             chk("value", "num12", s(v), optional=True), cat="special")
    tag(B, "special")


# ---- oracles -----------------------------------------------------------------------

def pole_in(e, lo_v, hi_v):
    """True when a real zero s of e's (polynomial) denominator in [lo, hi]
    is a non-integrable singularity ((x - s)*e does not tend to 0); None
    when undecided."""
    den = sp.denom(sp.together(e))
    if not den.has(x):
        return False
    try:
        roots = sp.Poly(den, x).real_roots()
    except (sp.PolynomialError, NotImplementedError):
        return None
    for r in set(roots):
        rv = mpmath.mpf(sp.N(r, 30))
        if not (lo_v <= rv <= hi_v):
            continue
        for d in ("+", "-"):
            lim = timed(sp.limit, (x - r) * e, x, r, dir=d)
            if lim is None:
                return None
            if lim != 0:
                return True
    return False


def defint(integrand, lo, hi, breaks=()):
    e = parse(integrand)
    f = sp.lambdify(x, e, "mpmath")
    lo_v, hi_v = mpf_of(lo), mpf_of(hi)
    expr = "integrate(%s, (x, %s, %s))" % (integrand, lo, hi)
    pole = pole_in(e, lo_v, hi_v)
    if pole is None:
        return
    if pole:
        # quad integrates through a pole it does not know of (x/(x**3 + 1)
        # over (-oo, 0) "is" 0.6026): the integral diverges
        ev_diverge(expr, "a non-integrable singularity in the range")
        return
    try:
        v = timed(sp.integrate, e, (x, parse(lo), parse(hi)))
    except Exception:  # noqa: BLE001 - SymPy declines
        v = None
    bl = [mpmath.mpf(sp.N(b, 40)) for b in breaks]

    def safe(t):
        try:
            return f(t)
        except (ZeroDivisionError, ValueError):
            return mpmath.mpf(0)
    q = quad(safe, lo_v, hi_v, bl)
    if v is not None and (v.has(sp.oo, -sp.oo, sp.zoo) or v is sp.nan):
        # SymPy's divergence, unless quad settles (SymPy called the odd,
        # absolutely convergent atan(x)/(x**2 + 4) over R divergent)
        if q is None:
            ev_diverge(expr, "SymPy: %s" % s(v))
        return
    if q is None:
        return
    if v is not None and not v.has(sp.Integral):
        try:
            vn = complex(sp.N(v, 30))
        except (TypeError, ValueError):
            return
        if abs(vn - complex(q)) > 1e-8 * max(1, abs(vn)):
            # quad misses a divergence SymPy missed too: leave it out
            return
    want = s(v) if v is not None and not v.has(sp.Integral) else mpmath.nstr(q, 25)
    case("evaluate_expression", {"expression": expr}, chk("expression", "value_or_open", want, rel=1e-9),
         cat="defint")


PARAM_VALUES = ["1/2", "1", "3/2", "3"]


def param_int(integrand, lo, hi):
    e = parse(integrand)
    wants = {}
    for pv in PARAM_VALUES:
        ea = e.subs(a, parse(pv))
        f = sp.lambdify(x, ea, "mpmath")
        lo_t = lo.replace("a", "(%s)" % pv)
        hi_t = hi.replace("a", "(%s)" % pv)
        q = quad(f, mpf_of(lo_t), mpf_of(hi_t))
        if q is None:
            return
        wants[pv] = mpmath.nstr(q, 25)
    case("evaluate_expression", {"expression": "integrate(%s, (x, %s, %s))" % (integrand, lo, hi)},
         chk("expression", "param_value", wants, param="a", rel=1e-9), cat="defint-param",
         accept_refusal=True, why="a parameter: the answer must hold at a > 0, where the integral converges")


def lim_oracle(e, p, d):
    def limit(*args, **kw):
        return timed(sp.limit, *args, **kw)
    return timed(limit_oracle, e, p, d, s, [mpmath.mpf(10) ** 3, mpmath.mpf(10) ** 4],
                 mpmath.mpf(10) ** -12, tol_inf=1e-2, tol_fin=1e-4, limit=limit, secs=8)


def lim_case(expr, point):
    e = parse(expr)
    p = parse(point)
    if point in ("oo", "-oo"):
        v = lim_oracle(e, p, "-" if point == "oo" else "+")
        if v is not None:
            lim(expr, v, point)
        return
    right = lim_oracle(e, p, "+")
    if right is None:
        return
    left = lim_oracle(e, p, "-")
    two = None
    if left is not None:
        two = right if left == right and right != "does not exist" else "does not exist"
    lim(expr, right, point, left=left, two=two)


def verified_roots(text):
    lhs = parse(text)
    try:
        roots = timed(sp.solve, lhs, x)
        if roots is None:
            return None
    except (NotImplementedError, ValueError):
        return None
    good = []
    for r in roots:
        try:
            d = complex(sp.N(lhs.subs(x, r), 40))
        except (TypeError, ValueError):
            return None
        if abs(d) < 1e-25:
            good.append(s(r))
    return good if len(good) == len(roots) else None


def series_case(e):
    f = parse(e)
    try:
        v = timed(sp.summation, f, (k, 1, sp.oo))
        if v is None:
            return
    except Exception:  # noqa: BLE001
        return
    if v.has(sp.Sum) or v.free_symbols:
        if f.free_symbols - {k}:
            ev("summation(%s, (k, 1, oo))" % e, s(v), cat="sum")
        return
    with mpmath.workdps(30):
        try:
            q = mpmath.nsum(sp.lambdify(k, f, "mpmath"), [1, mpmath.inf])
        except Exception:  # noqa: BLE001
            return
    if abs(complex(sp.N(v, 30)) - complex(q)) > 1e-12:
        return
    ev("summation(%s, (k, 1, oo))" % e, s(v), cat="sum")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=20261202)
    ap.add_argument("--out", default="generated-redsym2.json")
    args = ap.parse_args()
    build(random.Random(args.seed))
    for i, c in enumerate(mc.CASES):
        c["id"] = "rs2-%d-%s-%03d" % (args.seed % 1000, c["tool"], i + 1)
        c["batch"] = "redsym2"
    mc.write_cases(args.out, "redsym2: generated symbolic cases by class (seed %d); built by "
                   "make_generated_redsym2.py" % args.seed)


if __name__ == "__main__":
    main()
