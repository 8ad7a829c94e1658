#!/usr/bin/env python3
"""Builds generated-redsym15.json (ids rs15-): the classes lead25 changed,
each judged by its own oracle, none picked by looking at codecalc's answer.

Classes (cat prefix rs15/):
  floatlim  limit_expression of expressions with float coefficients whose
            limit is a constant: the value of the floats as binary64
            numbers, to 1e-13 (giac's exact() rationals of the floats,
            1607521*I/1136689 for sqrt(2)*I, are 1e-12 off and read as
            exact)
  floatsum  summation and product over k to oo with float parameters
            (geometric, exponential, zeta, sine product): the value to
            1e-13
  cubic3    irreducible integer cubics with three real roots (casus
            irreducibilis): every root (mpmath.polyroots at 40 digits),
            and no `approximate` flag (a short answer, not a wrong one)
  cubic1    irreducible integer cubics with one real root: the same
  powmod    calc_exact pow(a, b, m): Python's own pow, or a validation
            refusal where Python raises (m = 0, no inverse)
  fuel      convert_units between fuel economy and consumption (mpg,
            mpg_imp, km/L, mi/gal, L/100km, gal/mi): the exact reciprocal
            from the unit definitions
  angle     convert_units between angle units and bit rates: exact
            (deg, arcmin, arcsec, grad, turn, rpm in deg/s; Mbps in
            MB/s) or, through the radian, to 1e-15

Usage: python3 make_generated_redsym15.py [--seed N] [--out NAME]
The default seed (20261205) builds the corpus `make check` runs
(report-only); another seed builds a fresh batch.
"""
import os
import sys
from fractions import Fraction

import mpmath
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_corpus as mc  # noqa: E402  (the helpers; its own cases are dropped)
from make_corpus import case, chk, qs  # noqa: E402
from oracle import start_generator, run_generator  # noqa: E402

start_generator(mc)


def flt(R, lo, hi, digits=None):
    """A float literal in [lo, hi] with 2 to 4 significant digits, and its
    binary64 value as an mpmath number."""
    d = digits or R.randint(2, 4)
    t = "%.*g" % (d, R.uniform(lo, hi))
    if "e" not in t and "." not in t:
        t += ".0"
    return t, mpmath.mpf(float(t))


def nstr(v):
    if isinstance(v, mpmath.mpc) and v.imag != 0:
        return "%s + %s*I" % (mpmath.nstr(v.real, 30), mpmath.nstr(v.imag, 30))
    return mpmath.nstr(mpmath.re(v) if isinstance(v, mpmath.mpc) else v, 30)


# ---- limits of floats ---------------------------------------------------------------------------

def floatlim(R, used):
    a, av = flt(R, 0.11, 2.9)
    b, bv = flt(R, -3.0, 3.0)
    c = R.choice(["1", "2", "1/2", "3"])
    cv = mpmath.mpf(Fraction(c).numerator) / Fraction(c).denominator
    kinds = [
        ("sin(%s*x)/x" % a, "0", av),
        ("(1 + %s/x)**x" % a, "oo", mpmath.exp(av)),
        ("(exp(%s*x) - 1)/x" % a, "0", av),
        ("log(1 + %s*x)/x" % a, "0", av),
        ("atan(%s*x)/x" % a, "0", av),
        ("(%s**x - 1)/x" % a, "0", mpmath.log(av)),
        ("%s*x**2 + %s" % (a, b), c, av * cv ** 2 + bv),
        ("sqrt(-%s)*x" % a, c, mpmath.sqrt(-av) * cv),
        # x**2 - a*x, not x**2 - a**2: a**2 rounded to binary64 is not
        # a*a, so that numerator does not vanish at a and the limit of the
        # floats as written is infinite (its first draft's oracle said 2*a)
        ("(x**2 - %s*x)/(x - %s)" % (a, a), a, av),
        ("x*sin(%s/x)" % a, "oo", av),
        ("(1 - cos(%s*x))/x**2" % a, "0", av ** 2 / 2),
        ("%s*x/(x + %s)" % (a, c), "oo", av),
    ]
    expr, point, want = R.choice(kinds)
    if (expr, point) in used:
        return
    used.add((expr, point))
    case("limit_expression", {"expr": expr, "var": "x", "point": point},
         chk("limit", "value_or_open", nstr(want), rel=1e-13), cat="x",
         why="the limit of the floats' binary64 values (mpmath at 30 digits)")


def floatsum(R, used):
    r, rv = flt(R, 0.05, 0.95)
    kinds = [
        ("summation(%s**k, (k, 0, oo))" % r, 1 / (1 - rv)),
        ("summation(%s**k/factorial(k), (k, 0, oo))" % r, mpmath.exp(rv)),
        ("summation((-%s)**k, (k, 0, oo))" % r, 1 / (1 + rv)),
        ("summation(1/k**%s, (k, 1, oo))" % R.choice(["2.0", "4.0", "6.0"]), None),
        ("product(1 - %s/k**2, (k, 1, oo))" % r,
         mpmath.sin(mpmath.pi * mpmath.sqrt(rv)) / (mpmath.pi * mpmath.sqrt(rv))),
    ]
    text, want = R.choice(kinds)
    if want is None:
        p = int(float(text.split("**")[1].split(",")[0]))
        want = mpmath.zeta(p)
    if text in used:
        return
    used.add(text)
    case("evaluate_expression", {"expression": text},
         chk("expression", "value_or_open", nstr(want), rel=1e-13), cat="x",
         why="a series or product of floats: its value (mpmath at 30 digits)")


# ---- cubics -----------------------------------------------------------------------------------------

def _cubic(R, three_real):
    x = sp.Symbol("x")
    for _ in range(200):
        a = R.choice([1, 1, 1, 2, 3, -1, 4])
        b, c, d = (R.randint(-9, 9) for _ in range(3))
        p = a * x ** 3 + b * x ** 2 + c * x + d
        if d == 0 or len(sp.factor_list(p)[1]) != 1 or sp.degree(sp.factor_list(p)[1][0][0], x) != 3:
            continue
        disc = sp.discriminant(p, x)
        if (disc > 0) == three_real and disc != 0:
            return p
    return None


def _cubic_case(R, used, three_real, why):
    x = sp.Symbol("x")
    p = _cubic(R, three_real)
    if p is None:
        return
    extra = R.choice([None, None, x - R.randint(-3, 3), x ** 2 - R.choice([2, 3, 5])])
    poly = sp.expand(p * extra) if extra is not None else p
    text = str(poly)
    if R.random() < 0.3:
        text = "%s = %d" % (str(sp.expand(poly + 7)), 7)
    if text in used:
        return
    used.add(text)
    with mpmath.workdps(40):
        want = []
        for f, _ in sp.factor_list(poly)[1]:
            cs = [mpmath.mpf(int(k)) for k in sp.Poly(f, x).all_coeffs()]
            want += list(mpmath.polyroots(cs, maxsteps=200, extraprec=200))
    case("solve_expression", {"expr": text},
         chk("solutions", "roots", [nstr(w) for w in want], eq=text, var="x"),
         chk("approximate", "null", sev="short"), cat="x", why=why)


def cubic3(R, used):
    _cubic_case(R, used, True, "an irreducible cubic with three real roots: every root, in closed form")


def cubic1(R, used):
    _cubic_case(R, used, False, "an irreducible cubic with one real root: every root, in closed form")


# ---- calc_exact pow(a, b, m) ----------------------------------------------------------------------

def powmod(R, used):
    a = R.choice([R.randint(-50, 50), R.randint(2, 10 ** 30)])
    b = R.choice([R.randint(0, 100), R.randint(10 ** 20, 10 ** 40), -R.randint(1, 5)])
    m = R.choice([R.randint(1, 1000), -R.randint(1, 1000), 10 ** 9 + 7, 2 ** 61 - 1, 0, 1])
    text = "pow(%d, %d, %d)" % (a, b, m)
    if text in used:
        return
    used.add(text)
    try:
        want = pow(a, b, m)
    except ValueError:
        case("calc_exact", {"expr": text}, mc.refuse("validation"), cat="x",
             why="Python raises ValueError (modulus 0, or no inverse)")
        return
    case("calc_exact", {"expr": text}, chk("value", "rational", str(want)), chk("exact", "json", True),
         cat="x", why="Python's pow(a, b, m)")


# ---- units --------------------------------------------------------------------------------------

MI, GAL, IMP = Fraction("1609.344"), Fraction("0.003785411784"), Fraction("0.00454609")
ECONOMY = {"mpg": MI / GAL, "mi/gal": MI / GAL, "mpg_imp": MI / IMP, "km/L": Fraction(1000) / Fraction("0.001")}
CONSUMPTION = {"L/100km": Fraction("0.001") / 100000, "L/100 km": Fraction("0.001") / 100000,
               "gal/mi": GAL / MI, "L/km": Fraction("0.001") / 1000}


def fuel(R, used):
    v = R.choice(["%d" % R.randint(5, 80), "%.1f" % R.uniform(3, 60)])
    if R.random() < 0.5:
        fu, tu = R.choice(sorted(ECONOMY)), R.choice(sorted(CONSUMPTION))
        want = 1 / (Fraction(v) * ECONOMY[fu]) / CONSUMPTION[tu]
    else:
        fu, tu = R.choice(sorted(CONSUMPTION)), R.choice(sorted(ECONOMY))
        want = 1 / (Fraction(v) * CONSUMPTION[fu]) / ECONOMY[tu]
    if (v, fu, tu) in used:
        return
    used.add((v, fu, tu))
    case("convert_units", {"value": float(v) if "." in v else int(v), "from_unit": fu, "to_unit": tu},
         chk("exact", "rational", qs(want)), cat="x",
         why="economy and consumption are reciprocals: exact from the unit definitions")


TURNS = {"deg": Fraction(1, 360), "degrees": Fraction(1, 360), "arcmin": Fraction(1, 21600),
         "arcsec": Fraction(1, 1296000), "grad": Fraction(1, 400), "turn": Fraction(1), "rev": Fraction(1)}


def angle(R, used):
    v = "%d" % R.randint(1, 720)
    k = R.choice(["exact", "exact", "rad", "rpm", "rate"])
    if k == "exact":
        fu, tu = R.sample(sorted(TURNS), 2)
        want = Fraction(v) * TURNS[fu] / TURNS[tu]
        checks = [chk("exact", "rational", qs(want))]
    elif k == "rad":
        fu, tu = R.choice([("deg", "rad"), ("rad", "deg"), ("turn", "rad"), ("rad", "arcmin")])
        with mpmath.workdps(40):
            def turns(u):
                return 1 / (2 * mpmath.pi) if u == "rad" else mpmath.mpf(TURNS[u].numerator) / TURNS[u].denominator
            want = mpmath.mpf(int(v)) * turns(fu) / turns(tu)
        checks = [chk("value", "float", float(want), rel=1e-15)]
    elif k == "rpm":
        fu, tu = "rpm", "deg/s"
        checks = [chk("exact", "rational", qs(Fraction(v) * 6))]
    else:
        fu, tu = R.choice([("Mbps", "MB/s"), ("Gbps", "Mbit/s"), ("kbps", "B/s"), ("MB/s", "Mbps")])
        per = {"Mbps": Fraction(125000), "Gbps": Fraction(125000000), "kbps": Fraction(125),
               "MB/s": Fraction(10 ** 6), "Mbit/s": Fraction(125000), "B/s": Fraction(1)}
        checks = [chk("exact", "rational", qs(Fraction(v) * per[fu] / per[tu]))]
    if (v, fu, tu) in used:
        return
    used.add((v, fu, tu))
    case("convert_units", {"value": int(v), "from_unit": fu, "to_unit": tu}, *checks, cat="x",
         why="angles in turns and bit rates in bytes per second, from their definitions")


if __name__ == "__main__":
    mpmath.mp.dps = 30
    run_generator(mc, 15, 20261205, used_classes=[
        (floatlim, 30, "floatlim"), (floatsum, 20, "floatsum"), (cubic3, 20, "cubic3"),
        (cubic1, 15, "cubic1"), (powmod, 20, "powmod"), (fuel, 15, "fuel"), (angle, 20, "angle")])
