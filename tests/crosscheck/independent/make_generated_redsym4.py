#!/usr/bin/env python3
"""Builds generated-redsym4.json: the fourth red-team round on the symbolic
tools, classes the first three did not generate, every expectation from an
oracle (SymPy, mpmath at 60-120 digits, Python ints), none picked by looking
at codecalc's answer.

Classes (cat prefix rs4/):
  special4     the functions SymPy knows and codecalc did not (fibonacci,
               bernoulli, uppergamma/lowergamma, expint, elliptic_k,
               fresnels/fresnelc, Shi/Chi, catalan, lucas): the exact value
               where SymPy has one (no float unless asked); complex zeta,
               Ei, digamma, LambertW through N (the value to the digits
               shown). A refusal is not wrong; a wrong value is
  sumprod      finite sums and products with a symbolic bound (polynomial,
               geometric, telescoping, factorial products) and infinite
               series with closed forms, compared as values
  piecewise    floor/ceiling/sign/Abs/Max/Min of exact constants at
               near-ties (floor(exp(pi*sqrt(163))), sign(pi - 355/113)):
               the exact integer or sign, never a float's rounding
  denest       nested radicals sqrt(p + q*sqrt(r)) that denest: simplify
               keeps the value; a form longer than SymPy's sqrtdenest is
               short
  nill         N(expr, d) of ill-conditioned constants (cancellation of
               40+ digits, huge arguments of sin): right to the digits shown
  bighuge      huge exact integers inside symbolic tools: expand, factor,
               diff, integrate, limit, series with 30-80 digit coefficients
               (exact, compared as values with no tolerance hiding a digit)
  limosc       limits of compound and oscillating expressions at oo and 0
               (SymPy's, confirmed numerically; AccumBounds = does not exist)
  solveexp     exponential equations: b**(m*x) = c (general solution checked
               at k = -1..2) and exp(a*x) = b, a**x = b with parameters
               (roots satisfy the equation at random complex parameters)

Usage: python3 make_generated_redsym4.py [--seed N] [--out NAME]
The default seed (20261204) builds the corpus `make check` runs
(report-only); a different seed builds a fresh batch never used while
fixing.

Results (seed 20261204, the committed corpus, 188 cases):
  main ff25672:  144 agree, 1 confident wrong (1000**x = 10**(3*x + 1)
                 solved to zoo), 40 refusals (unknown functions, complex
                 digamma/Ei), 3 floor(...) left unevaluated
  redsym4:       178 agree, 0 wrong, 10 refusals (catalan, limits giac
                 cannot take of bounded oscillating factors, a 31-digit
                 exponent)
Fresh seed 777 (186 cases, generated after the fixes, never looked at
while fixing): main 4d1aca0 152 agree, 1 confident wrong (4**x = 2**(2*x +
1) solved to zoo), 33 refusals; redsym4 179 agree, 0 wrong, 7 refusals
(complex LambertW, catalan, 31-digit exponents, floor(x)/x at -oo).
Hunting outside this corpus found floor(exp(100) + 1 - exp(100)) = 0 and
floor(2*sin(pi/6)) valued 0.0 on main (both 1 now).
"""
import os
import sys

import mpmath
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_corpus as mc  # noqa: E402  (the helpers; its own cases are dropped)
from make_corpus import case, chk, simp, solve, ev  # noqa: E402
from oracle import parse, timed, start_generator, run_generator, tends_to_signed_infinity, x, a, b, n, k  # noqa: E402,F401
from oracle import show as s  # noqa: E402
import make_generated_redsym2 as r2  # noqa: E402  (its oracle: lim_case)

start_generator(mc)


def exact_case(text, cat):
    """evaluate_expression of text: SymPy's value, exact (no float in the
    answer) when SymPy's is exact; skipped when SymPy leaves it unevaluated."""
    try:
        v = timed(sp.sympify, text, locals={"x": x, "n": n, "k": k, "a": a, "b": b})
    except Exception:  # noqa: BLE001 - SymPy has no value
        return
    if v is None or v.has(sp.zoo, sp.nan) or v.atoms(sp.core.function.AppliedUndef):
        return
    known = {"exp", "log", "erf", "erfc", "Ei", "gamma", "factorial", "zeta"}
    if any(type(f).__name__ not in known for f in v.atoms(sp.Function)):
        return  # unevaluated (expint(1, 2)): the oracle's parser cannot read it back
    checks = [chk("expression", "expr", s(v))]
    if not v.atoms(sp.Float):
        checks.append(chk("expression", "no_float", sev="short"))
    case("evaluate_expression", {"expression": text}, *checks,
         chk("value", "num12", s(v), optional=True), cat=cat)


# ---- special functions SymPy has ------------------------------------------------------

def special4(R, used):
    fam = R.choice(["fib", "bern", "ugam", "lgam", "expint", "misc", "nz"])
    if fam == "fib":
        m = R.choice([R.randint(-12, 30), R.randint(60, 400)])
        text = "fibonacci(%d)" % m if m >= 0 else "fibonacci(%d)" % m
    elif fam == "bern":
        text = "bernoulli(%d)" % R.choice([0, 1, 2, 3, R.randint(4, 40)])
    elif fam in ("ugam", "lgam"):
        sv = R.choice(["1", "2", "3", "4", "5", "1/2"])
        xv = R.choice(["2", "1/3", "x", "5", "pi"])
        text = "%s(%s, %s)" % ("uppergamma" if fam == "ugam" else "lowergamma", sv, xv)
    elif fam == "expint":
        text = "expint(%s, %s)" % (R.choice(["0", "0", "2", "1"]), R.choice(["x", "3", "1/2"]))
    elif fam == "misc":
        text = R.choice(["elliptic_k(0)", "fresnels(0)", "fresnelc(0)", "Shi(0)", "catalan(%d)" % R.randint(0, 30),
                         "lucas(%d)" % R.randint(0, 40), "fibonacci(%d) + lucas(%d)" % (R.randint(1, 9), R.randint(1, 9)),
                         "bernoulli(%d)*fibonacci(%d)" % (R.randint(2, 12), R.randint(1, 20))])
    else:  # complex values through N: the digits shown must be right
        f = R.choice(["zeta", "Ei", "digamma", "LambertW", "gamma", "erf"])
        z = "%s + %s*I" % (R.choice(["2", "1/2", "-3/2", "3"]), R.choice(["1", "2", "-1", "1/3"]))
        d = R.choice([15, 20, 30])
        text = "N(%s(%s), %d)" % (f, z, d)
        if text in used:
            return
        used.add(text)
        w = parse("%s(%s)" % (f, z))
        case("evaluate_expression", {"expression": text}, chk("expression", "ndigits", s(w), digits=d),
             cat="special4", why="the value of %s(%s) to %d digits" % (f, z, d))
        return
    if text in used:
        return
    used.add(text)
    exact_case(text, "special4")


# ---- sums and products -------------------------------------------------------------------

def sumprod(R):
    form = R.choice(["summation(k**P, (k, 1, n))", "summation(Q**k, (k, 0, n))", "summation(1/(k*(k + 1)), (k, 1, n))",
                     "summation(k*Q**k, (k, 1, n))", "product(k, (k, 1, n))", "product((k + 1)/k, (k, 1, n))",
                     "summation(binomial(n, k), (k, 0, n))", "summation(1/k**2, (k, 1, oo))",
                     "summation(1/Q**k, (k, 0, oo))", "summation((-1)**k/(2*k + 1), (k, 0, oo))",
                     "summation(1/factorial(k), (k, 0, oo))", "summation(k/Q**k, (k, 1, oo))",
                     "summation(1/(k**2 - 1/4), (k, 1, oo))", "product(1 + 1/k, (k, 1, P))",
                     "summation(k**P, (k, 1, 10**Q))", "summation(1/k**(2*P), (k, 1, oo))",
                     "product(Q, (k, 1, n))", "summation((-1)**k*x**k/factorial(k), (k, 0, oo))"])
    text = form.replace("P", str(R.randint(1, 4))).replace("Q", str(R.choice([2, 3, 5, 10])))
    loc = {"k": k, "n": n, "x": x}
    try:
        v = timed(sp.sympify, text, locals=loc)
    except Exception:  # noqa: BLE001
        return
    if v is None or v.has(sp.Sum, sp.Product, sp.Piecewise, sp.zoo, sp.nan):
        return
    if sp.count_ops(v) > 40:
        v = timed(sp.simplify, v, secs=10) or v
    ev(text, s(v), cat="sumprod", domain={"n": "positive", "x": "real"})


# ---- floor/sign/Max near ties ------------------------------------------------------------

NEAR = [("exp(pi*sqrt(163))", None), ("pi", "355/113"), ("E", "2721/1001"), ("sqrt(2)", "1393/985"),
        ("pi**4 + pi**5", "exp(6)"), ("exp(pi) - pi", "20"), ("log(640320**3 + 744)/sqrt(163)", "pi"),
        ("163*(pi - E)", "69"), ("sqrt(5) + sqrt(7)", "sqrt(3) + sqrt(11)"), ("2**(1/3) + 3**(1/3)", "2.5"),
        ("exp(pi*sqrt(67))", None), ("sin(10**10)", "0"), ("cos(355)", "-1"), ("tan(355/226)", "-7497258"),
        ("10**20*pi", None), ("gamma(1/3)", "E"), ("(1 + 1/10**15)**(10**15)", "E"), ("sqrt(10**40 + 1)", None)]


def piecewise(R):
    p, q = R.choice(NEAR)
    f = R.choice(["floor", "ceiling", "sign", "Abs", "Max", "Min", "frac"])
    if q is None:
        if f in ("sign", "Abs", "Max", "Min"):
            f = "floor"
        text = "%s(%s)" % (f, p) if f != "frac" else "%s - floor(%s)" % (p, p)
    elif f in ("Max", "Min"):
        text = "%s(%s, %s)" % (f, p, q)
    elif f == "frac":
        text = "floor(%s - (%s))" % (p, q)
    else:
        text = "%s(%s - (%s))" % (f, p, q)
    try:
        v = timed(sp.sympify, text)
    except Exception:  # noqa: BLE001
        return
    if v is None or v.atoms(sp.Float) or v.has(sp.floor, sp.ceiling, sp.sign) or not v.is_number:
        return
    with mpmath.workdps(150):  # the oracle itself checked at 150 digits
        vv = timed(sp.N, v, 120, secs=20)
        if vv is None or (not vv.is_real and not vv.is_number):
            return
    checks = [chk("expression", "expr", s(v)), chk("value", "num12", s(v), optional=True)]
    if v.is_Integer:  # exact where exact exists: floor(exp(pi*sqrt(163))) is an integer, not floor(...)
        checks.append(chk("expression", "rational", s(v), sev="short"))
    case("evaluate_expression", {"expression": text}, *checks, cat="piecewise",
         why="a near-tie decided at 120 digits")


# ---- nested radicals --------------------------------------------------------------------

def denest(R):
    while True:
        u, v = R.randint(1, 9), R.randint(1, 9)
        r = R.choice([2, 3, 5, 6, 7, 10])
        sgn = R.choice([1, -1])
        # (u + sgn*v*sqrt(r))**2 = u**2 + r*v**2 + 2*sgn*u*v*sqrt(r)
        P, Q = u * u + r * v * v, 2 * sgn * u * v
        if P - abs(Q) * sp.sqrt(r) > 0 or sgn > 0:
            break
    shape = R.choice(["sqrt(P + Q*sqrt(R))", "sqrt(P + Q*sqrt(R)) + sqrt(P - Q*sqrt(R))",
                      "sqrt(P + Q*sqrt(R))*sqrt(P - Q*sqrt(R))", "1/sqrt(P + Q*sqrt(R))",
                      "sqrt(P + Q*sqrt(R)) - S"])
    text = shape.replace("P", str(P)).replace("Q", "(%d)" % Q).replace("R", str(r)) \
        .replace("S", s(abs(u + sgn * v * sp.sqrt(r))))
    e = parse(text)
    try:
        t = timed(lambda z: sp.simplify(sp.sqrtdenest(z)), e, secs=8)
    except Exception:  # noqa: BLE001
        t = None
    target = s(t) if t is not None and sp.count_ops(t) + 2 <= sp.count_ops(e) else None
    simp(text, target, cat="denest")
    ev(text, s(t if t is not None else e), cat="denest")


# ---- N of ill-conditioned constants ----------------------------------------------------------

ILL = ["exp(pi*sqrt(163)) - 640320**3 - 744", "exp(1/10**20) - 1 - 1/10**20", "sin(10**22)", "cos(10**30)",
       "tan(355/226) + 7497258", "sqrt(10**40 + 1) - 10**20", "exp(100) - (exp(50))**2 + 1/3",
       "log(1 + 10**-30)*10**30 - 1", "pi - 355/113", "1 - cos(10**-10)", "sinh(10**-15) - 10**-15",
       "(sqrt(2) + 1)**40 - (sqrt(2) - 1)**-40 + 1",
       "gamma(1/2)**2 - pi + 10**-40", "atan(10**25) - pi/2", "exp(-1000)", "10**50 + 1 - 10**50",
       "sin(pi*10**15 + 1/10**5)", "cos(2*pi*10**12 + 1)", "(E**(pi) - pi**E)*10**3"]


def nill(R, used):
    left = [t for t in ILL if t not in used]
    if not left:
        return
    t = R.choice(left)
    used.add(t)
    d = R.choice([10, 15, 25, 40])
    v = parse(t)
    with mpmath.workdps(200):
        w = timed(sp.N, v, 150, secs=20)  # un-timed, a seed-777 run spent 8 minutes here
    if w is None or w == 0:
        return
    case("evaluate_expression", {"expression": "N(%s, %d)" % (t, d)},
         chk("expression", "ndigits", s(v), digits=d), cat="nill",
         why="cancellation: the digits shown must be right")


# ---- huge integers in symbolic tools --------------------------------------------------------------

def bighuge(R):
    A = R.randint(10 ** 29, 10 ** 31)
    B = R.randint(10 ** 39, 10 ** 41)
    form = R.choice(["expand((x + A)**3)", "factor(x**2 - B**2)", "diff(A*x**3 + B*x, x)", "integrate(A*x**2, x)",
                     "integrate(B*x, (x, 0, A))", "limit((A*x + B)/(x + 1), x, oo)", "cancel((x**2 - A**2)/(x - A))",
                     "series(B/(1 - x), x, 0, 3)", "diff(x**A, x)", "expand((A*x + 1)*(B*x - 1))",
                     "factor(A*B*x + A*x**2)", "limit((x**2 + A)/(B*x**2 + x), x, oo)"])
    text = form.replace("A", str(A)).replace("B", str(B))
    loc = {"x": x}
    try:
        v = timed(sp.sympify, text, locals=loc)
    except Exception:  # noqa: BLE001
        return
    if v is None:
        return
    if v.has(sp.Order):
        v = v.removeO()
        return  # series answers carry O(); compared elsewhere
    ev(text, s(v), cat="bighuge", domain={"x": "real"}, value=not v.free_symbols)


# ---- limits of compound and oscillating expressions ------------------------------------------------

def limosc(R):
    p = R.randint(1, 3)
    form = R.choice(["sin(x)/x**P", "x**P*sin(1/x)", "sin(x**P)/x", "x*sin(x)", "(x + sin(x))/x", "sin(x) + x",
                     "exp(-x)*sin(exp(x))", "cos(x)/(x + cos(x))", "x**2*(1 - cos(1/x))", "sin(x)**2 - x**(1/P)",
                     "(2 + sin(x))**(1/x)", "x*(2 + sin(x))", "floor(x)/x", "sin(sqrt(x + 1)) - sin(sqrt(x))",
                     "x**P*exp(-x)*cos(x)", "log(x)*sin(x)", "cos(1/x)*x**P", "exp(sin(x))/x",
                     "atan(x)*sin(x)", "(x**P + sin(x))/(x**P*cos(1/x))"])
    e = form.replace("P", str(p))
    pt = "0" if "1/x" in e and R.random() < 0.7 else R.choice(["oo", "oo", "-oo"])
    if pt == "-oo" and ("sqrt(" in e or "log(" in e or "x**(1/" in e):
        pt = "oo"
    start = len(mc.CASES)
    r2.lim_case(e, pt)
    if len(mc.CASES) > start and not _dne_confirmed(mc.CASES[-1], e, pt):
        del mc.CASES[start:]


def _dne_confirmed(cs, e, pt):
    """SymPy's AccumBounds is not always an oscillation: sin(sqrt(x + 1)) -
    sin(sqrt(x)) tends to 0 (the mean value theorem), SymPy says
    AccumBounds(-2, 2). A "does not exist" verdict is kept only when the
    values near the point still spread by more than 1e-3."""
    if not any(c.get("want") == "does not exist" for c in cs["checks"]):
        return True
    f = sp.lambdify(x, parse(e), "mpmath")
    with mpmath.workdps(60):
        if pt in ("oo", "-oo"):
            sgn = 1 if pt == "oo" else -1
            ts = [sgn * (mpmath.mpf(10) ** 6 + j * mpmath.mpf("0.37")) for j in range(40)]
        else:
            ts = [mpmath.mpf(10) ** -6 / (1 + j * mpmath.mpf("0.0137")) for j in range(40)]
            ts += [-t for t in ts]
        try:  # sin(exp(x)) at x = 10**6 wants 430,000 digits: timed
            vs = timed(lambda: [complex(f(t)) for t in ts], secs=20)
        except Exception:  # noqa: BLE001 - the numbers cannot reach it: keep SymPy's
            return True
        if vs is None:
            return False
    finite = [v for v in vs if abs(v) < 1e12]
    if not (len(finite) < 2 or max(abs(u - v) for u in finite for v in finite) > 1e-3):
        return False
    # a spread is not an oscillation when the values only grow with one
    # sign (redsym5): x*(2 + sin(x)) at -oo tends to -oo, SymPy says
    # AccumBounds(-oo, oo) and this corpus expected "does not exist"
    return not tends_to_signed_infinity(parse(e), parse(pt), "-" if pt == "oo" else "+")


# ---- exponential equations with parameters ---------------------------------------------------------------

def solveexp(R):
    kind = R.choice(["num", "num", "param"])
    if kind == "num":
        bb = R.choice([2, 3, 10, 5])
        m_ = R.randint(2, 4)
        c_ = bb ** R.randint(1, 6)
        text = R.choice(["B**(M*x) = C", "B**(M*x + 1) = C", "B**(M*x)*B**x = C", "exp(M*x) = C", "C**x = B**(M*x + 1)"]) \
            .replace("B", str(bb)).replace("M", str(m_)).replace("C", str(c_))
        lhs, rhs = (parse(side) for side in text.split("="))
        # log(lhs/rhs) is linear in x, u*x + v: with u = 0 and v != 0 (1000**x
        # = 10**(3*x + 1)) there is no solution at all, and SymPy's solve
        # cannot say so (multiple generators)
        d = sp.expand(sp.expand_log(sp.log(lhs) - sp.log(rhs), force=True))
        u, v = d.coeff(x, 1), d.coeff(x, 0)
        if sp.simplify(u) == 0 and sp.simplify(v) != 0:
            solve(text, [], cat="solveexp", why="log of both sides: 0*x = %s, no solution" % s(sp.simplify(v)))
        else:
            solve(text, None, periodic=True, cat="solveexp")
        return
    text = R.choice(["exp(a*x) = b", "a**x = b", "exp(a*x + b) = 2", "b*exp(a*x) = 1", "exp(a*x) = exp(b)",
                     "a**(2*x) = b", "exp(x/a) = b"])
    lhs, rhs = text.split("=")
    try:
        roots = timed(sp.solve, parse(lhs) - parse(rhs), x)
    except Exception:  # noqa: BLE001
        return
    if not roots:
        return
    case("solve_expression", {"expr": text},
         chk("solutions", "roots_param", [s(r) for r in roots], eq=text, var="x", periodic=True,
             params=["a", "b"]), cat="solveexp")


CLASSES = ((sumprod, 24, "sumprod"), (piecewise, 24, "piecewise"), (denest, 16, "denest"),
           (bighuge, 20, "bighuge"), (limosc, 30, "limosc"), (solveexp, 20, "solveexp"))
USED_CLASSES = ((special4, 40, "special4"), (nill, 14, "nill"))

if __name__ == "__main__":
    run_generator(mc, 4, 20261204, CLASSES, USED_CLASSES)
