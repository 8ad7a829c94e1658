#!/usr/bin/env python3
"""Generates numeval.json: N(expr) / N(expr, d) cases for evaluate_expression,
each with the value mpmath computes (through SymPy's parser and lambdify,
never through codecalc), at two working precisions far above the digits
asked for. A part that shrinks as the precision grows is a true zero.

The cases are drawn, not picked: families of functions, magnitudes,
cancellations and complex values, with random arguments from a seed.

Usage: python3 make_numeval.py [--seed N] [--count N] [--out FILE]
(the committed numeval.json is --seed 1 --count 400; a fresh seed gives
cases the evaluator was not fitted to, and --trees random nested
expressions of another shape altogether).
"""
import argparse
import json
import os
import random
import sys

import mpmath
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))

REAL_FNS = ["exp", "log", "sin", "cos", "tan", "sqrt", "atan", "sinh", "cosh", "tanh",
            "asinh", "gamma", "erf", "erfc", "cot", "sec", "csc"]
UNIT_FNS = ["asin", "acos", "atanh"]        # real inside [-1, 1], complex outside
COMPLEX_FNS = ["exp", "log", "sin", "cos", "tan", "sqrt", "sinh", "cosh", "tanh", "asin",
               "acos", "atan", "asinh", "acosh", "atanh"]
DIGITS = [None, None, None, 5, 10, 15, 20, 30, 50, 100]


def rat(r):
    p = r.randint(-40, 40) or 1
    q = r.choice([1, 2, 3, 4, 5, 7, 10, 16, 100])
    return "%d" % p if q == 1 else "%d/%d" % (p, q)


def pos_rat(r):
    return "%d/%d" % (r.randint(1, 60), r.choice([1, 2, 3, 7, 10, 13]))


def cplx(r):
    a, b = rat(r), rat(r)
    return "(%s) + (%s)*I" % (a, b)


def family(r):
    """One expression of a randomly chosen family: (family name, text)."""
    k = r.randrange(12)
    if k == 0:
        return "function", "%s(%s)" % (r.choice(REAL_FNS[:4] + ["atan", "sinh", "cosh", "tanh",
                                                               "asinh", "erf", "erfc"]), rat(r))
    if k == 1:
        return "function", "%s(%s)" % (r.choice(["log", "sqrt", "gamma"]), pos_rat(r))
    if k == 2:
        return "branch", "%s(%s)" % (r.choice(UNIT_FNS + ["log", "sqrt", "acosh"]), rat(r))
    if k == 3:
        return "complex", "%s(%s)" % (r.choice(COMPLEX_FNS), cplx(r))
    if k == 4:
        e = r.randint(1, 400) * r.choice([1, -1])
        return "magnitude", r.choice(["10**(%d)" % e, "%d*10**(%d)" % (r.randint(2, 99), e),
                                      "exp(%d)" % e, "pi**(%d)" % (e // 4 or 1)])
    if k == 5:
        e = r.randint(20, 300)
        return "tiny_part", r.choice(["I/10**%d" % e, "exp(-%d)*I" % e,
                                      "1 + exp(-%d)*I" % e, "exp(-%d) + I" % e,
                                      "(1 + I)/10**%d" % e, "%s + I*10**(-%d)" % (rat(r), e)])
    if k == 6:
        e = r.randint(10, 400)
        c = rat(r)
        return "cancellation", r.choice(["exp(%d) + (%s) - exp(%d)" % (e, c, e),
                                         "(1 + 10**(-%d)) - 1" % e,
                                         "sqrt(10**%d + 1) - sqrt(10**%d)" % (e, e),
                                         "cos(10**(-%d)) - 1" % (e // 10 + 1),
                                         "exp(10**(-%d)) - 1" % e,
                                         "log(1 + 10**(-%d))" % e])
    if k == 7:
        e = r.randint(16, 200)
        return "huge_argument", "%s(10**%d)" % (r.choice(["sin", "cos", "tan"]), e)
    if k == 8:
        n = r.randint(2, 50) * r.choice([1, -1])
        q = r.choice([2, 3, 4, 5, 7])
        p = r.choice([1, 2, 3]) if q > 3 else 1
        return "root", "(%d)**(%d/%d)" % (n, p, q)
    if k == 9:
        return "constant", r.choice(["pi", "E", "pi*E", "E**pi", "pi**E", "sqrt(pi)",
                                     "log(pi)", "exp(pi*sqrt(163))", "zeta(3)", "LambertW(1)",
                                     "%s*pi" % rat(r), "atan(1)*4", "gamma(%s)" % pos_rat(r)])
    if k == 10:
        a, b = rat(r), rat(r)
        return "arith", r.choice(["(%s)/(%s)" % (a, b if b != "0" else "3"),
                                  "sqrt(%s)*sqrt(%s)" % (pos_rat(r), pos_rat(r)),
                                  "(%s)**%d" % (a, r.randint(-30, 30)),
                                  "%s + %s*sqrt(2)" % (a, b)])
    return "mixed", "%s(%s) + %s(%s)*I" % (r.choice(REAL_FNS[:6]), pos_rat(r),
                                           r.choice(REAL_FNS[:6]), pos_rat(r))


TREE_FNS = ["exp", "log", "sin", "cos", "tan", "sqrt", "atan", "asin", "acos", "sinh", "cosh",
            "tanh", "asinh", "acosh", "atanh", "cot", "sec", "csc", "Abs"]


def tree(r, depth):
    """A random nested expression: operators, functions, constants."""
    if depth == 0 or r.random() < 0.2:
        return r.choice([rat(r), rat(r), "pi", "E", "I", "(%s)*I" % rat(r), "10**(%d)" %
                         r.randint(-60, 60)])
    k = r.randrange(6)
    a = tree(r, depth - 1)
    if k == 0:
        return "%s(%s)" % (r.choice(TREE_FNS), a)
    if k == 1:
        return "(%s)**(%s)" % (a, r.choice(["2", "3", "-1", "1/2", "1/3", "-2", rat(r)]))
    return "(%s) %s (%s)" % (a, "+-*/"[k - 2], tree(r, depth - 1))


MP_FUNCS = {"exp": mpmath.exp, "log": mpmath.log, "sin": mpmath.sin, "cos": mpmath.cos,
            "tan": mpmath.tan, "cot": mpmath.cot, "sec": mpmath.sec, "csc": mpmath.csc,
            "asin": mpmath.asin, "acos": mpmath.acos, "atan": mpmath.atan, "sinh": mpmath.sinh,
            "cosh": mpmath.cosh, "tanh": mpmath.tanh, "asinh": mpmath.asinh,
            "acosh": mpmath.acosh, "atanh": mpmath.atanh, "gamma": mpmath.gamma,
            "erf": mpmath.erf, "erfc": mpmath.erfc, "zeta": mpmath.zeta,
            "LambertW": mpmath.lambertw, "Abs": abs, "sqrt": mpmath.sqrt,
            "coth": mpmath.coth, "sech": mpmath.sech, "csch": mpmath.csch,
            "acot": mpmath.acot, "asec": mpmath.asec, "acsc": mpmath.acsc,
            "acoth": mpmath.acoth, "asech": mpmath.asech, "acsch": mpmath.acsch}


def mp_eval(e):
    """e (a SymPy tree) in mpmath at the working precision, every number
    exact until mpmath rounds it (lambdify turns 10**38 - 2*I into a
    Python complex, a double)."""
    if e.is_Integer:
        return mpmath.mpf(int(e))
    if e.is_Rational:
        return mpmath.mpf(int(e.p)) / int(e.q)
    if e is sp.pi:
        return +mpmath.pi
    if e is sp.E:
        return mpmath.e + 0
    if e is sp.I:
        return mpmath.mpc(0, 1)
    if e.is_Float:
        return mpmath.mpf(e._mpf_)
    args = [mp_eval(a) for a in e.args]
    if e.is_Add:
        return mpmath.fsum(args)
    if e.is_Mul:
        return mpmath.fprod(args)
    if e.is_Pow:
        b, x = e.args
        if x.is_Integer:
            return mpmath.power(args[0], int(x))
        return mpmath.power(args[0], args[1])
    name = type(e).__name__
    if name in MP_FUNCS and len(args) == 1:
        return MP_FUNCS[name](args[0])
    raise TypeError("no mpmath for %s" % name)


def truth(text, digits):
    """(re, im) as decimal strings of digits+10 significant digits, "0" for
    a part that is zero; None when mpmath cannot evaluate it or does not
    settle. mpmath is run at doubling precision (from digits + 60 to
    MAX_DPS) until two runs agree on a part to digits + 20 digits; a part
    that is exactly 0 or keeps shrinking at every precision is 0."""
    try:
        expr = sp.sympify(text, locals={"LambertW": sp.LambertW})
        if expr.free_symbols or expr.has(sp.zoo, sp.oo, sp.nan):
            return None
        f = lambda: mp_eval(expr)  # noqa: E731
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return None
    out = [None, None]
    prev = None
    dps = digits + 60
    while dps <= MAX_DPS and None in out:
        with mpmath.workdps(dps):
            try:
                v = mpmath.mpc(f())
            except (ValueError, ZeroDivisionError, TypeError, OverflowError):
                return None
        cur = (v.real, v.imag)
        if prev is not None:
            with mpmath.workdps(dps + 10):
                for i in (0, 1):
                    lo, hi = prev[i], cur[i]
                    if out[i] is not None or hi == 0 or lo == 0:
                        continue
                    if abs(hi - lo) <= abs(hi) * mpmath.mpf(10) ** -(digits + 20):
                        out[i] = mpmath.nstr(hi, digits + 10, strip_zeros=False, min_fixed=1,
                                             max_fixed=0)
        prev = cur
        dps *= 2
    # what never settled: 0 when it is 0 or noise at the last precision
    scale = max(abs(prev[0]), abs(prev[1]), 1)
    for i in (0, 1):
        if out[i] is None:
            if prev[i] == 0 or abs(prev[i]) < scale * mpmath.mpf(10) ** -(MAX_DPS // 2):
                out[i] = "0"
            else:
                return None
    return out


MAX_DPS = 8000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--out", default=os.path.join(HERE, "numeval.json"))
    ap.add_argument("--trees", action="store_true",
                    help="random nested expressions instead of the families")
    args = ap.parse_args()
    r = random.Random(args.seed)
    draw = (lambda: ("tree", tree(r, 4))) if args.trees else (lambda: family(r))
    cases, seen = [], set()
    while len(cases) < args.count:
        fam, text = draw()
        d = r.choice(DIGITS)
        call = "N(%s)" % text if d is None else "N(%s, %d)" % (text, d)
        if call in seen:
            continue
        seen.add(call)
        t = truth(text, d or 15)
        if t is None:
            continue
        cases.append({"id": "numeval-%d-%03d" % (args.seed, len(cases)), "family": fam,
                      "expression": call, "digits": d or 15, "re": t[0], "im": t[1]})
    with open(args.out, "w") as fh:
        json.dump({"seed": args.seed, "oracle": "mpmath %s via sympy %s lambdify" %
                   (mpmath.__version__, sp.__version__), "cases": cases}, fh, indent=1)
        fh.write("\n")
    print("wrote %d cases to %s" % (len(cases), args.out), file=sys.stderr)


if __name__ == "__main__":
    main()
