#!/usr/bin/env python3
"""Builds heldout.json: cases in the classes of defects fixed after the
first run of corpus.json, written after those fixes and never run while
fixing (so their agreement is the honest figure for the fixes). Same case
format and oracles as make_corpus.py; ids start with "heldout-".

Batch 1 classes: definite integrals across poles and of piecewise integrands;
real-only rewrites in simplify's three forms; oscillating limits; N(x, d)
correctly rounded to d digits (and no domain note on a constant);
identities false by an exact difference below the numeric check's
resolution; exact decimal literals, correctly rounded binary64 functions,
the stats median and the exact birthday probability. Batch 2 (cases
marked "batch": 2) was written after batch 1 had run, for the fixes made
after that run; batches 3 and 4 likewise.

Usage: python3 make_heldout.py   (writes heldout.json beside it)
"""
import json
import os
import sys
from fractions import Fraction

import mpmath

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_corpus as mc  # noqa: E402  (defines the helpers; its own cases are dropped)
from make_corpus import case, chk, ev, ev_diverge, simp, lim, eq, exact, f64fn, stats, coll  # noqa: E402
from oracle import crf  # noqa: E402

del mc.CASES[:]

# ---- definite integrals: across a pole, of piecewise integrands -----------
for e, why in (("integrate(1/x**2, (x, -1, 1))", "pole of order 2 at 0"),
               ("integrate(1/sin(x), (x, 1, 4))", "pole at pi"),
               ("integrate(1/(x**2 - 1), (x, 0, 2))", "pole at 1"),
               ("integrate(tan(x), (x, 1, 2))", "pole at pi/2"),
               ("integrate(1/(x - 2)**3, (x, 0, 3))", "odd pole at 2: a principal value would be finite"),
               ("integrate(x/(x**2 - 9), (x, -4, 4))", "poles at -3 and 3, symmetric"),
               ("integrate(1/cos(x), (x, 0, 2))", "pole at pi/2"),
               ("integrate(1/x**3, (x, -2, 1))", "odd pole at 0")):
    ev_diverge(e, why)
ev("integrate(log(Abs(x)), (x, -1, 1))", "-2", cat="evaluate/integral", why="integrable log singularity")
ev("integrate(sign(x)*x, (x, -1, 2))", "5/2", cat="evaluate/integral", why="x*sign(x) = |x|")
ev("integrate(sign(x - 1), (x, 0, 3))", "1", cat="evaluate/integral", why="-1 on [0,1), +1 on (1,3]")
ev("integrate(1/sqrt(x), (x, 0, 4))", "4", cat="evaluate/integral", why="integrable 1/sqrt singularity")
ev("integrate(x*log(x), (x, 0, 1))", "-1/4", cat="evaluate/integral")

# ---- simplify: no real-only rewrite in any of the three forms ------------
for e in ("asin(sin(2*x))", "acos(cos(x + 1))", "atan(tan(x/2))", "sqrt(4*x**2)", "sqrt(x**2*y**4)",
          "log(exp(2*x))", "sqrt(x**6)", "(x**4)**(1/4)", "sqrt(x**2 + 2*x + 1)", "sqrt(9*x**2*y**2)"):
    simp(e, None, cat="simplify/branch", why="a real-only rewrite is wrong over C")

# ---- limits that oscillate, and their bounded controls ---------------------
lim("cos(x)", "does not exist", why="oscillates in [-1, 1]")
lim("sin(x**2)", "does not exist")
lim("cos(1/x)", "does not exist", "0")
lim("sin(1/x)**2", "does not exist", "0")
lim("x*sin(x)", "does not exist", why="unbounded oscillation")
lim("sin(x)/x", "0", why="bounded over unbounded")
lim("x*sin(1/x)", "0", "0")


# ---- N(x, d): the d digits are the correctly rounded ones -----------------
def n_digits(expr, value, d):
    with mpmath.workdps(d + 30):
        want = mpmath.nstr(value(), d, min_fixed=-30, max_fixed=30)
    case("evaluate_expression", {"expression": "N(%s, %d)" % (expr, d)},
         chk("expression", "digits", want, digits=d), chk("domain_note", "null"),
         cat="evaluate/precision", why="the last printed digit is correctly rounded")


n_digits("E", lambda: mpmath.e, 25)
n_digits("pi", lambda: mpmath.pi, 30)
n_digits("sqrt(3)", lambda: mpmath.sqrt(3), 40)
n_digits("log(2)", lambda: mpmath.log(2), 22)
n_digits("exp(2)", lambda: mpmath.exp(2), 18)
n_digits("E*pi", lambda: mpmath.e * mpmath.pi, 33)
n_digits("sqrt(2)", lambda: mpmath.sqrt(2), 17)
n_digits("4*atan(1)", lambda: mpmath.pi, 60)

# ---- identities false by an exact difference the numbers cannot see -------
eq("x + 10**-35", "x", False, holds=False, why="differ by 1e-35 everywhere")
eq("x**2*(1 + 10**-30)", "x**2", False, holds=False)
eq("(x + 10**-20)**2", "x**2 + 2*x/10**20", False, holds=False, why="differ by 1e-40")
eq("1/(x + 10**-30)", "1/x", False, holds=False)
eq("(x + 10**-20)**2", "x**2 + 2*x/10**20 + 1/10**40", True)
eq("y/(1 + 10**-30)", "y", False, holds=False)

# ---- calculator: exact literals, correctly rounded functions --------------
exact("0.30000000000000000001 * 10", Fraction("3.0000000000000000001"), cat="calc_exact/precision")
exact("1.0000000000000000001 - 1", Fraction(1, 10**19), cat="calc_exact/precision")
exact("123456789012345678.9 * 10", 1234567890123456789, cat="calc_exact/precision")
f64fn("sqrt(2)", crf(mpmath.sqrt, 2))
f64fn("cbrt(64)", 4.0)
f64fn("exp(0.1)", crf(mpmath.exp, "0.1"))
f64fn("log(1000, 10)", 3.0)
f64fn("atan2(1, 3)", crf(mpmath.atan2, 1, 3))
stats([1.5e308, 1.6e308], "the median of two huge values overflows a naive (a + b) / 2")
coll(4, 2, "4 items, 4 buckets: 1 - 4!/4^4")
coll(100, 12)
coll(2 ** 20, 40)


# ---- batch 2: written after batch 1 ran, for the fixes made after it (the
# input kept as written when giac's value is a real-only rewrite; integer
# assumptions reaching the CAS; exponential quotients combined; sums
# measured with subtractions). Never run while fixing.
B2 = len(mc.CASES)
ev("sqrt(4*y**2)", "sqrt(4*y**2)", cat="b2/evaluate-written", value=False)
ev("log(exp(3*x))", "log(exp(3*x))", cat="b2/evaluate-written", value=False)
ev("(y**2)**(1/2) + 1", "sqrt(y**2) + 1", cat="b2/evaluate-written", value=False)
ev("atan(tan(y))", "atan(tan(y))", cat="b2/evaluate-written", value=False)
ev("exp(log(x))", "x", cat="b2/evaluate-written", value=False)
for e in ("sqrt(x**2)*y", "log(x**3)", "(x*y)**(1/2)", "sqrt(x**4*y**2)", "acos(cos(2*x))",
          "log(exp(x)) + 1", "(x**6)**(1/3)", "asin(sin(x)) + x"):
    simp(e, None, cat="b2/simplify-written", why="a real-only rewrite is wrong over C")
eq("sin(2*pi*k)", "0", True, assume={"k": "integer"})
eq("cos(2*pi*k)", "1", True, assume={"k": "integer"})
eq("(-1)**(2*k + 1)", "-1", True, assume={"k": "integer"})
eq("sin(pi*k)", "0", False, assume={"k": "real"}, holds=False, why="k = 1/2")
eq("exp(2*pi*I*k)", "1", True, assume={"k": "integer"})
simp("exp(2*x)/exp(x)", "exp(x)", cat="b2/simplify-exp")
simp("exp(a)/exp(b)", "exp(a - b)", cat="b2/simplify-exp")
simp("exp(x + 1)/exp(1)", "exp(x)", cat="b2/simplify-exp")
simp("x - y + y", "x", cat="b2/simplify-exp")
for c in mc.CASES[B2:]:
    c["batch"] = 2

# ---- batch 3: written before running, for the fixes made after batch 2
# (a real-only rewrite of an operator's argument is flagged; 0**0 = 1).
B3 = len(mc.CASES)


def ev_real_only(expr, why=None):
    """A derivative/antiderivative of an input giac rewrites for real values
    only: the answer must carry a domain_note (else it is a confident answer
    that is wrong over C)."""
    case("evaluate_expression", {"expression": expr}, chk("domain_note", "present"),
         cat="b3/operator-argument", why=why)


ev_real_only("diff(sqrt(y**2), y)", "d/dy sqrt(y**2) = y/sqrt(y**2), not Abs(y)/y, at y = I")
ev_real_only("integrate(sqrt(4*x**2), x)")
ev_real_only("diff(log(exp(x)), x)", "1 for real x; over C log(exp(x)) is x minus a 2*pi*I jump")
# (written as ev_real_only; corrected after the first run: giac does not
# rewrite this argument and its derivative is right over C; the defect was
# a real-only `simplified`/`expanded`, so those are checked)
case("evaluate_expression", {"expression": "diff(sqrt(x**2*y**2), x)"},
     *[chk(k, "expr", "x*y**2/sqrt(x**2*y**2)") for k in ("expression", "simplified", "expanded")],
     cat="b3/operator-argument")
ev_real_only("integrate((x**2)**(1/2)*x, x)")
ev("diff(x**3, x)", "3*x**2", cat="b3/operator-control")
ev("integrate(cos(x), x)", "sin(x)", cat="b3/operator-control")
case("evaluate_expression", {"expression": "diff(exp(2*x), x)"}, chk("domain_note", "null"),
     chk("expression", "expr", "2*exp(2*x)"), cat="b3/operator-control", why="no rewrite, no note")
ev("0**0", "1", cat="b3/zero-power", why="SymPy and Python: 0**0 = 1")
ev("0**0 + x**0", "2", cat="b3/zero-power")
ev("(x - x)**0", "1", cat="b3/zero-power")
ev("0**2", "0", cat="b3/zero-power")
for c in mc.CASES[B3:]:
    c["batch"] = 3

# ---- batch 4: written before running, for the symbolic dialect's long
# decimal literals (a literal longer than a double keeps its digits).
B4 = len(mc.CASES)
for expr, want, d in (("2.00000000000000000000000001 * 3", "6.00000000000000000000000003", 27),
                      ("0.1000000000000000000000001 * 10", "1.000000000000000000000001", 25),
                      ("1.23456789012345678901234567 + 1", "2.23456789012345678901234567", 27),
                      ("3.000000000000000000003 / 3", "1.000000000000000000001", 22)):
    case("evaluate_expression", {"expression": expr}, chk("expression", "digits", want, digits=d),
         cat="b4/long-literal", why="a literal longer than a double is the decimal it spells")
for c in mc.CASES[B4:]:
    c["batch"] = 4


def main():
    for c in mc.CASES:
        c["id"] = "heldout-" + c["id"]
    out = os.path.join(HERE, "heldout.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"about": "held-out cases for the fixed classes; built by make_heldout.py",
                   "count": len(mc.CASES), "cases": mc.CASES}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("wrote %d cases to %s" % (len(mc.CASES), out))


if __name__ == "__main__":
    main()
