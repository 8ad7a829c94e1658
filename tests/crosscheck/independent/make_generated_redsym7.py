#!/usr/bin/env python3
"""Builds generated-redsym7.json: the seventh red-team round on the symbolic
tools. Every expectation comes from an oracle (SymPy, mpmath at 30-60
digits, or a truth that holds by construction), none picked by looking at
codecalc's answer.

Classes (cat prefix rs7/):
  ineq       one-variable real inequalities through solve_expression
             (polynomial, rational, perfect squares, positive definite
             quadratics, exp/log/sqrt/atan/Abs, >= and <= and !=): the
             union of the returned regions must equal the set where the
             inequality as written holds (both sides real), compared by
             run.py's ineq_set at every bound of either set (exactly),
             between and beyond them and on a grid
  ineqparam  inequalities with a parameter (a*x > 1, x**2 < a): the same
             comparison at several values of the parameter; an honest
             refusal is accepted, a set right for a > 0 only is wrong
  sumconv    convergent infinite sums: the value (mpmath.nsum at 40
             digits), or an honest non-answer (unevaluated)
  sumdiv     divergent infinite sums: any finite number is wrong
  sumparam   sums with a parameter in the region of convergence: the value
             at sample parameter values
  system     nonlinear systems through solve_linear: every solution
             substituted, the count at least SymPy's

Usage: python3 make_generated_redsym7.py [--seed N] [--out NAME]
The default seed (20261207) builds the corpus `make check` runs
(report-only); a different seed builds a fresh batch never used while
fixing.

Results (--report-only; main = 8ae422b, redsym7 = this branch, final =
after every fix):
  seed 20261207 (seed A, the committed corpus, 153 cases; the seed the
  fixes were made on): main 92/153 with 12 confident wrong (11 inequality
  sets: x**2 > -3, (x - 4)**4 > 0, x**2 + 3*x + 3 > 0 answered [] because
  giac decided them True as it built them; a*x > 1, x**2 < a, x/a > 1 ...
  right for no or only some values of a; summation((-1)**n/n**3, (n, 2,
  oo)) = -1 + 3*zeta(3)/4, the wrong sign) and 43 refusals (>= and <=
  split at their '=': a parse error); final 147/153, 0 wrong, 6 short
  (convergent sums left unevaluated).
  seed 7717 (seed B, generated after the first fixes; its 5 refusals, the
  isolated points of a non-strict set such as ["-2", "x >= 0"], led to the
  Eq(x, -2) fix): main 101/157 with 13 confident wrong; first fixes 146/157,
  0 wrong, 5 refusals; final 151/157, 0 wrong, 6 short.
  seed 9393 (seed C, generated after those; its 2 refusals led to the
  last fixes: a tie taken for a sign at x = -10**6 in x*exp(x) >= 0, giac's
  bare ["x"] for exp(x) >= x): main 90/156 with 10 confident wrong; before
  the last fixes 148/156, 0 wrong, 2 refusals; final 150/156, 0 wrong, 1
  format (solve_linear prints giac's rootof), 5 short.
  seed 4141 (seed D, generated after every fix, never looked at): main
  88/152 with 13 confident wrong (all inequalities: -x**2 - 1 < 0 and
  (x + 4)**2 > 0 answered [], 7 sets with a parameter) and 46 refusals;
  final 147/152, 0 wrong, 5 short (convergent sums left unevaluated).
"""
import os
import sys

import mpmath
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_corpus as mc  # noqa: E402  (the helpers; its own cases are dropped)
from make_corpus import case, chk, ev_diverge  # noqa: E402
from oracle import parse, timed, start_generator, run_generator, x  # noqa: E402
from oracle import show as s  # noqa: E402
from redsym_common import fill as _fill, system_solutions  # noqa: E402

start_generator(mc)

OPS = [">", "<", ">=", "<="]


def _lin(r):
    return "x" if r == 0 else ("x - %d" % r if r > 0 else "x + %d" % -r)


def _poly_factored(R):
    roots = R.sample(range(-4, 5), R.randint(2, 3))
    mult = [R.choice([1, 1, 2]) for _ in roots]
    parts = []
    for r, m in zip(roots, mult):
        f = "(%s)" % _lin(r)
        parts.append(f if m == 1 else "%s**%d" % (f, m))
    return "*".join(parts)


def _ineq_text(R):
    kind = R.choice(["poly", "polyx", "square", "square", "posdef", "rat", "rat", "trans", "trans", "abs", "ne"])
    op = R.choice(OPS)
    r, t = R.randint(-4, 4), R.randint(1, 5)
    if kind == "poly":
        return "%s %s 0" % (_poly_factored(R), op)
    if kind == "polyx":
        e = sp.expand(parse(_poly_factored(R)))
        c = R.randint(-3, 3)
        return "%s %s %d" % (s(e + c), op, c)
    if kind == "square":
        return R.choice(["(%s)**2 %s 0" % (_lin(r), op), "%s %s 0" % (s(sp.expand((x - r) ** 2)), op),
                         "(%s)**2*(%s) %s 0" % (_lin(r), _lin(r + t), op), "(%s)**4 %s 0" % (_lin(r), op),
                         "x**2 %s %d*x - %d" % (op, 2 * r, r * r)])
    if kind == "posdef":
        b = R.randint(-3, 3)
        c = b * b // 4 + R.randint(1, 4)
        return R.choice(["x**2 + %d %s 0" % (t, op), "%s %s 0" % (s(x ** 2 + b * x + c), op),
                         "x**2 %s -%d" % (op, t), "x**4 + %d %s 0" % (t, op), "-x**2 - %d %s 0" % (t, op)])
    if kind == "rat":
        return R.choice(["(%s)/(%s) %s %d" % (_lin(r), _lin(r + t), op, R.randint(-2, 2)),
                         "1/(%s) %s %d" % (_lin(r), op, R.randint(-2, 2)),
                         "(x**2 - %d)/(%s) %s 0" % (t * t, _lin(r), op),
                         "x + %d/x %s %d" % (t, op, R.randint(-3, 3)),
                         "1/(%s)**2 %s %d" % (_lin(r), op, t)])
    if kind == "trans":
        return R.choice(["exp(x) %s %d" % (op, t), "exp(-x) %s %d" % (op, t), "log(%s) %s 0" % (_lin(r), op),
                         "log(x) %s %d" % (op, r), "sqrt(x + %d) %s x - %d" % (t, op, R.randint(0, 3)),
                         "sqrt(%s) %s %d" % (_lin(r), op, t), "2**x %s %d" % (op, 2 ** t),
                         "atan(x) %s %d" % (op, R.choice([-1, 0, 1, 2])), "x*exp(x) %s 0" % op,
                         "exp(x) %s x" % op, "log(x) %s x" % op, "x**3 %s %d" % (op, t ** 3)])
    if kind == "abs":
        return R.choice(["Abs(%s) %s %d" % (_lin(r), op, t), "Abs(%s) %s -%d" % (_lin(r), op, t),
                         "Abs(%s) %s Abs(%s)" % (_lin(r), op, _lin(r + t))])
    return R.choice(["x**2 != %d" % (t * t), "(%s)*(%s) != 0" % (_lin(r), _lin(r + t)), "x != %d" % r])


def ineq(R, used):
    text = _ineq_text(R)
    if text in used:
        return
    used.add(text)
    case("solve_expression", {"expr": text}, chk("solutions", "ineq_set", None, ineq=text, var="x"),
         cat="ineq", why="the returned regions are exactly where the inequality holds (real x)")


PARAM = ["a*x > 1", "a*x < a", "x**2 < a", "x**2 > a", "x > a", "a*x + 1 >= 0", "(x - a)*(x - 1) < 0",
         "x/a > 1", "exp(a*x) > 1", "a*x**2 > 0", "x**2 + a > 0", "(x - a)**2 >= 0", "x + a <= 2*a"]


def ineqparam(R, used):
    text = R.choice(PARAM)
    if text in used:
        return
    used.add(text)
    case("solve_expression", {"expr": text}, chk("solutions", "ineq_set", None, ineq=text, var="x", params=["a"]),
         cat="ineqparam", accept_refusal=True, why="the set must be right at every value of the parameter")


# ---- infinite sums --------------------------------------------------------------------------------------

CONV = ["1/n**P", "(-1)**n/n**P", "1/(n*(n + Q))", "n**Q/P**n", "P**n/factorial(n)", "1/(n**2 + Q)",
        "(-1)**n/(2*n + 1)", "1/((2*n - 1)*(2*n + 1))", "n/(n**4 + Q)", "1/(P**n + 1)", "(-1)**n*n/P**n",
        "1/binomial(2*n, n)", "1/(n**2*(n + Q))", "(n + Q)/(P**n)", "1/(4*n**2 - 1)", "sin(n)/n**P",
        "cos(n)/P**n", "1/(n*2**n)", "(-1)**(n + 1)/n"]
DIV = ["1/n", "1/sqrt(n)", "n/(n**2 + Q)", "1/(P*n + Q)", "log(n)/n", "1/log(n)", "(1 + 1/n)**n",
       "1/(n*log(n))", "sin(n)", "n**Q/P**(1/n)", "1/n**(1/P)", "(-1)**n*n/(n + Q)", "P**n/n**Q",
       "factorial(n)/P**n", "cos(1/n)", "(n + 1)/(Q*n)"]


def _start(t):
    return 2 if "log(n)" in t else 1


def sumconv(R, used):
    t = _fill(R, R.choice(CONV))
    lo = _start(t) if R.random() < 0.8 else R.randint(1, 3)
    text = "summation(%s, (n, %d, oo))" % (t, lo)
    if text in used:
        return
    used.add(text)
    f = sp.lambdify(sp.Symbol("n"), parse(t), "mpmath")
    with mpmath.workdps(40):
        try:
            if t.startswith("(-1)") or "sin(" in t or "cos(" in t:
                v = timed(mpmath.nsum, f, [lo, mpmath.inf], method="alternating" if t.startswith("(-1)") else "direct",
                          secs=20)
                if "sin(" in t and t.endswith("/n**2"):
                    v = None  # a slow oscillating tail: the direct sum is not to 20 digits
            else:
                v = timed(mpmath.nsum, f, [lo, mpmath.inf], secs=20)
        except Exception:  # noqa: BLE001
            v = None
        if v is None or not mpmath.isfinite(v):
            return
        v2 = None
        try:
            v2 = timed(sp.N, sp.Sum(parse(t), (sp.Symbol("n"), lo, sp.oo)).doit(), 40, secs=20)
        except Exception:  # noqa: BLE001
            pass
        if v2 is not None and v2.is_number and not v2.has(sp.Sum):
            if abs(complex(v2) - complex(v)) > 1e-12 * max(1, abs(complex(v))):
                return  # the two oracles disagree: no case
    case("evaluate_expression", {"expression": text}, chk("expression", "value_or_open", mpmath.nstr(v, 35)),
         cat="sumconv", why="a convergent series: its value (mpmath.nsum)")


def sumdiv(R, used):
    t = _fill(R, R.choice(DIV))
    text = "summation(%s, (n, %d, oo))" % (t, _start(t))
    if text in used:
        return
    used.add(text)
    ev_diverge(text, "a divergent series")
    mc.CASES[-1]["cat"] = "sumdiv"


SPARAM = [("x**n/factorial(n)", "0", ["1/2", "-3", "2"]), ("x**n", "0", ["1/2", "-1/3", "3/4"]),
          ("x**n/n", "1", ["1/2", "-1/2", "1/3"]), ("n*x**n", "1", ["1/2", "-1/3"]),
          ("(-1)**n*x**(2*n)/factorial(2*n)", "0", ["1", "2", "1/2"]), ("x**(2*n)/factorial(2*n + 1)", "0", ["1", "3"]),
          ("x**n/n**2", "1", ["1/2", "-1/2"]), ("1/(n**2 + x**2)", "1", ["1", "2", "1/2"]),
          ("x**n/(n + 1)", "0", ["1/2", "-1/2"]), ("n**2*x**n", "0", ["1/2", "-1/3"])]


def sumparam(R, used):
    t, lo, vals = R.choice(SPARAM)
    text = "summation(%s, (n, %s, oo))" % (t, lo)
    if text in used:
        return
    used.add(text)
    want = {}
    e = parse(t)
    for pv in vals:
        f = sp.lambdify(sp.Symbol("n"), e.subs(x, parse(pv)), "mpmath")
        with mpmath.workdps(40):
            v = timed(mpmath.nsum, f, [int(lo), mpmath.inf], secs=20)
        if v is None:
            return
        want[pv] = mpmath.nstr(v, 30)
    case("evaluate_expression", {"expression": text}, chk("expression", "param_value", want, param="x"),
         cat="sumparam", why="the closed form at values of x where the series converges")


# ---- nonlinear systems --------------------------------------------------------------------------------------

SYSTEMS = ["x**2 + y**2 = P; x - y = Q", "x*y = P; x + y = Q", "x**2 - y = Q; x + y = P", "x**2 = y; y**2 = x",
           "x**2 + y**2 = P; x*y = Q", "x**3 = y; x = y", "x**2 + y = P; y**2 + x = P", "x*y = 0; x + y = Q",
           "exp(x) = y; y = P", "x**2 - y**2 = P; x + y = Q", "x + y + z = P; x*y*z = 0; x - y = Q",
           "x**2 + y**2 + z**2 = P; x = y; y = z", "log(x) + log(y) = log(P); x + y = P + 1",
           "x**2*y = Q; x*y**2 = Q", "sqrt(x) = y; x + y = P"]


def system(R, used):
    t = _fill(R, R.choice(SYSTEMS))
    if t in used:
        return
    used.add(t)
    names = sorted({str(v) for part in t.split(";") for side in part.split("=") for v in parse(side).free_symbols})
    # SymPy's solutions that satisfy the system as written (sqrt, log)
    good = system_solutions(t, names)
    if good is None:
        return
    case("solve_linear", {"system": t, "variables": ", ".join(names)},
         chk("solutions", "linsol", good, system=t, variables=", ".join(names)),
         cat="system", why="every solution satisfies the system; none missing")


CLASSES = ()
USED_CLASSES = ((ineq, 90, "ineq"), (ineqparam, 14, "ineqparam"), (sumconv, 30, "sumconv"), (sumdiv, 16, "sumdiv"),
                (sumparam, 10, "sumparam"), (system, 20, "system"))

if __name__ == "__main__":
    run_generator(mc, 7, 20261207, CLASSES, USED_CLASSES)
