#!/usr/bin/env python3
"""Builds generated-redsym6.json: the sixth red-team round on the symbolic
tools. Every expectation comes from an oracle (SymPy, mpmath at 30-1500
digits, or a truth that holds by construction and is confirmed by the
numbers), none picked by looking at codecalc's answer.

Classes (cat prefix rs6/):
  oscinf     an oscillating factor with zeros (sin(g)**2, cos(g)**2,
             Abs(sin(g)), 1 - cos(g), 1 + sin(g)) times an unbounded one,
             plus a term C, at oo, -oo and 0 from the right, where the
             phase g passes through every k*pi. By construction f = B*R + C
             with B >= 0 and R -> +oo: when C -> +oo, f >= C and the limit
             is oo; when C is bounded or tends to -oo more slowly than R
             grows, f = C at the zeros of B and f -> oo where B is largest:
             the limit does not exist. Both are confirmed numerically (f at
             the zeros of B, at up to 1500 digits, and where B is largest);
             with a factor bounded away from 0 (2 + sin(g), 1 + sin(g)**2)
             the limit is R's. The case the oracle used to drop
             (cos(x)**2*exp(x) at oo: oo to giac)
  squeezeq   quotients and sums a bounded oscillation cannot move
             (sin(x)/(x + cos(x)), (x + sin(x))/(x - cos(x)), 1/x +
             sin(x)/x): SymPy's limit, confirmed near the point
  tower      towers and compositions at 0+ and oo (x**x**x, (sin(x))**x,
             (1 + a/x)**(b*x), x**(1/log(x))), and one-sided limits at poles
             of tan, cot, sec and log: SymPy's, confirmed near the point
             (an infinite one by oracle.numeric_limit_confirms)
  growev     limit(...) inside evaluate_expression at -oo of expressions
             that turn non-real (cos(sqrt(x))/x): giac's 0 is wrong; the
             right answer is non-finite, so any finite number is wrong
  simpnum    simplify_expression of random compositions: simplified,
             factored and expanded equal the input as values at complex
             points (oracle.numeq)
  antid      indefinite integrals: the derivative of the answer equals the
             integrand at positive points
  singint    definite integrals over an interval holding a non-integrable
             singularity (a pole of tan, sec, csc, cot, 1/(x**2 - c**2),
             1/log(x)): any finite number is wrong
  radsolve   equations with radicals and logs whose squared or combined
             forms have extraneous roots: every root is checked by
             substitution at 40 digits, none missing
  bigpow     expand/factor of large powers and of products of cyclotomic
             factors: the value
  cancel     N() of expressions that cancel catastrophically (near
             integers such as exp(pi*sqrt(163)), sqrt(10**k + 1) -
             10**(k/2)): right to the digits shown
  catalan    Catalan's constant through N, and in sums

Usage: python3 make_generated_redsym6.py [--seed N] [--out NAME]
The default seed (20261206) builds the corpus `make check` runs
(report-only); a different seed builds a fresh batch never used while
fixing.

Results (--report-only; main = c3f2c87, redsym6 = this branch):
  seed 20261206 (seed A, the committed corpus, 214 cases; the seed the
  fixes were made on): main 182 agree, 26 confident wrong (17 infinite
  limits of an oscillation with zeros times an unbounded factor, such as
  cos(x)**2*exp(x) - 2 and sin(x)**2*x**2 at -oo, 4 "undefined" for sums
  tending to oo, 4 limit(cos(sqrt(x))/x, x, -oo) = 0 inside evaluate, the
  divergent integrate(cos(x)/x, (x, -2, 3)) = -Ci(-2) + Ci(3)); redsym6
  211 agree, 0 wrong, 3 refusals (Abs(sin(x))*x**2 - 2 at -oo, (1 +
  sin(x)/x)**x: giac cannot expand them; a simplify timeout).
  seed 7373 (seed B, generated after the first fixes; it found
  x*sin(a*x)**2 at oo = oo by hand beside it and the oo - oo sums, fixed
  then): main 191/231, 28 wrong; redsym6 225/231, 0 wrong, 6 refusals.
  seed 4242 (seed C, generated after every fix, never looked at while
  fixing): main 207/252, 34 confident wrong (19 oscillating limits
  answered +-oo, 14 "undefined"/nan for limits that are +-oo, 3 growth
  limits in evaluate answered 0, the Ci integral); redsym6 247/252, 0
  wrong, 5 refusals (Abs(sin(...)) products giac cannot expand, (1 +
  sin(x)/x)**x).
  After the last fix (two sequences with different limits where giac
  fails: Abs(sin(x))*x**2 - 2 at -oo, (1 + sin(x)/x)**x, prompted by the
  refusals above): seed A 213/214 (a simplify timeout), B 231/231, C
  252/252, all 0 wrong.
  seed 9191 (seed D, generated after every fix including that one, never
  looked at): main 191/239, 39 confident wrong; redsym6 238/239, 0 wrong,
  1 refusal (simplify: giac's "Bad Argument Type").
The oracle keeps the cases SymPy answers with AccumBounds or drops (the
numbers near the point show growth and miss the zeros): the verdict
holds by construction and is confirmed at the zeros themselves.
"""
import os
import sys

import mpmath
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_corpus as mc  # noqa: E402  (the helpers; its own cases are dropped)
from make_corpus import case, chk, lim, ev, ev_diverge, simp, solve  # noqa: E402
from oracle import parse, timed, start_generator, run_generator, limit_case, x, a  # noqa: E402
from oracle import show as s  # noqa: E402
import oracle  # noqa: E402

start_generator(mc)


# ---- an oscillation with zeros times an unbounded factor ------------------------------------------

# B(g) >= 0 with zeros at a known phase g0 + k*pi (or 2*k*pi): (text, zero phase, period, max phase)
ZERO_B = [("sin(G)**2", 0, "pi", "pi/2"), ("cos(G)**2", "pi/2", "pi", 0), ("Abs(sin(G))", 0, "pi", "pi/2"),
          ("(1 - cos(G))", 0, "2*pi", "pi"), ("(1 + sin(G))", "-pi/2", "2*pi", "pi/2"),
          ("sin(G)**4", 0, "pi", "pi/2"), ("(1 + cos(G))", "pi", "2*pi", 0), ("sin(G)**2*cos(G)**2", 0, "pi/2", "pi/4")]
# B bounded away from 0: the limit is R's
POS_B = ["(2 + sin(G))", "(1 + sin(G)**2)", "(3 + cos(G))", "(2 + sin(G)*cos(G))", "exp(sin(G))"]
# (R at oo, R at -oo, R at 0+ (phase 1/x)); each -> +oo
R_OO = ["x", "sqrt(x)", "log(x)", "exp(x)", "x**2", "x*log(x)", "exp(x)/x"]
R_MOO = ["-x", "x**2", "exp(-x)", "sqrt(-x)", "-x**3"]
R_0 = ["1/x", "1/x**2", "exp(1/x)", "-log(x)", "1/sqrt(x)"]
# C: (text, kind) with kind "up" (-> +oo more slowly than every R), "bdd" or "down" (-> -oo more slowly)
C_OO = [("0", "bdd"), ("1", "bdd"), ("-2", "bdd"), ("log(log(x))", "up"), ("-log(log(x))", "down"), ("atan(x)", "bdd")]
C_0 = [("0", "bdd"), ("1", "bdd"), ("log(-log(x))", "up"), ("-log(-log(x))", "down"), ("x", "bdd")]


def _f_at(e, xv, dps):
    """e at x = xv (an mpmath number) at dps digits, or None."""
    with mpmath.workdps(dps):
        try:
            v = mpmath.mpc(sp.lambdify(x, e, "mpmath")(xv))
        except Exception:  # noqa: BLE001 - the numbers cannot reach it
            return None
    if not mpmath.isfinite(v.real) or not mpmath.isfinite(v.imag):
        return None
    return v


def _phase_points(g_inv, phase, period, ks, dps):
    """x where g = phase + k*period, for k in ks (g_inv maps a phase to x)."""
    out = []
    with mpmath.workdps(dps):
        for kk in ks:
            t = mpmath.mpf(sp.N(parse(str(phase)), dps + 10)) + kk * mpmath.mpf(sp.N(parse(period), dps + 10))
            out.append(g_inv(t))
    return out


def oscinf(R, used):
    where = R.choice(["oo", "oo", "oo", "-oo", "0"])
    pos = R.random() < 0.2
    if where == "oo":
        rr, (cc, kind) = R.choice(R_OO), R.choice(C_OO)
        g, g_inv = R.choice([("x", lambda t: t), ("2*x", lambda t: t / 2), ("x**2", mpmath.sqrt)])
    elif where == "-oo":
        rr, (cc, kind) = R.choice(R_MOO), R.choice(C_OO[:3])
        g, g_inv = "x", lambda t: -t
    else:
        rr, (cc, kind) = R.choice(R_0), R.choice(C_0)
        g, g_inv = "1/x", lambda t: 1 / t
    if pos:
        bt = R.choice(POS_B).replace("G", g)
    else:
        bt, z0, per, m0 = R.choice(ZERO_B)
        bt = bt.replace("G", g)
    sign = R.choice([1, 1, -1])
    body = "%s*%s" % (bt, rr if rr[0] != "-" and "/" not in rr else "(%s)" % rr)
    if cc != "0":
        body += " - %s" % cc[1:] if cc[0] == "-" else " + %s" % cc
    text = body if sign == 1 else "-(%s)" % body
    if (text, where) in used:
        return
    used.add((text, where))
    e = parse(text)
    p = parse(where)
    d = "+" if where == "0" else ("-" if where == "oo" else "+")
    if pos:
        want = sp.oo if sign == 1 else -sp.oo
        if not oracle.numeric_limit_confirms(e, p, d, want):
            return
        want = s(want)
    else:
        # the zeros of B: f there is sign*C; where B is largest f -> sign*oo
        ks = [10, 100, 1000]
        dps = 1500 if "exp" in rr else 60
        zs = _phase_points(g_inv, z0, per, ks, dps)
        ms = _phase_points(g_inv, m0, per, ks, dps)
        at_z = [_f_at(e, t, dps) for t in zs]
        at_m = [_f_at(e, t, dps) for t in ms]
        if any(v is None for v in at_z + at_m):
            return
        big = [sign * v.real for v in at_m]
        if not (big[0] > 10 and big[1] > 5 * big[0] and big[2] > 5 * big[1]):
            return  # the numbers do not show the growth where B is largest
        ce = sign * parse(cc)
        with mpmath.workdps(60):
            want_c = [_f_at(ce, t, 60) for t in zs]
        if any(w is None or abs(v - w) > mpmath.mpf(10) ** -20 * max(1, abs(w)) for v, w in zip(at_z, want_c)):
            return  # f at the zeros of B is not C there: the construction failed
        want = (s(sp.oo if sign == 1 else -sp.oo) if kind == "up" else "does not exist")
    if where == "0":
        lim(text, want, "0", cat="oscinf", why="B*R + C with B >= 0 vanishing at points tending to 0+")
    else:
        lim(text, want, where, cat="oscinf", why="B*R + C with B >= 0 vanishing at points tending to %s" % where)
    # the same limit inside evaluate_expression
    if R.random() < 0.35:
        expr = "limit(%s, x, %s)" % (text, where if where != "0" else "0")
        if want == "does not exist":
            case("evaluate_expression", {"expression": expr}, chk("expression", "limit", want), cat="oscinf",
                 why="limit(...) inside evaluate_expression")
        else:
            case("evaluate_expression", {"expression": expr}, chk("expression", "limit", want), cat="oscinf",
                 why="limit(...) inside evaluate_expression")


# ---- quotients and sums a bounded oscillation cannot move ------------------------------------------

SQQ = ["sin(x)/(x + cos(x))", "(x + sin(x))/(x - cos(x))", "1/x + sin(x)/x", "(sin(x) + cos(x))/sqrt(x)",
       "x/(x + sin(x))", "(x**2 + sin(x))/(x**2 + 1)", "sin(x)/(x + 2*sin(x))", "(exp(x) + sin(x))/(exp(x) + x)",
       "cos(x)/(x**2 + sin(x))", "(P*x + cos(x))/(x + sin(x))", "(x + sin(x)**2)/(2*x + 1)", "sin(x**2)/x + 1/x",
       "(log(x) + sin(x))/log(x)", "x*sin(1/x) + cos(x)/x", "(x + cos(x))/(x + exp(-x))", "atan(x)*sin(x)/x",
       "sin(P*x)/(x**2 + cos(x))", "sqrt(x + sin(x)) - sqrt(x)", "(1 + sin(x)/x)**x"]


def squeezeq(R, used):
    t = R.choice(SQQ).replace("P", str(R.randint(2, 3)))
    pt = "oo" if "sqrt" in t or "log" in t else R.choice(["oo", "oo", "-oo"])
    if "(1 + sin(x)/x)**x" in t:
        pt = "oo"
    if (t, pt) in used:
        return
    used.add((t, pt))
    limit_case(mc, t, pt, "squeezeq", "a bounded oscillation against a growing denominator")


# ---- towers, compositions, one-sided limits at poles ------------------------------------------------

TOWER = [("x**x**x", "0"), ("x**(x**2)", "0"), ("sin(x)**x", "0"), ("x**sin(x)", "0"), ("(1 + P/x)**(Q*x)", "oo"),
         ("x**(1/log(x))", "oo"), ("(x**x)**x", "0"), ("x**(1/x)", "oo"), ("(1 + x)**(1/x)", "0"), ("log(x)**x", "oo"),
         ("(log(x))**(1/x)", "oo"), ("(P**x + Q**x)**(1/x)", "oo"), ("x**(P/log(x))", "0"), ("(1 - cos(x))**x", "0"),
         ("(tan(x))**(tan(2*x))", "pi/4"), ("(cos(x))**(1/x**2)", "0"), ("x*log(x)**2", "0"), ("(exp(x) + x)**(1/x)", "oo"),
         ("tan(x)", "pi/2"), ("exp(tan(x))", "pi/2"), ("tan(x)*cos(x)", "pi/2"), ("1/(1 + exp(tan(x)))", "pi/2"),
         ("cot(x)", "0"), ("cot(x) - 1/x", "0"), ("x*cot(x)", "0"), ("sec(x)", "pi/2"), ("log(sin(x))", "0"),
         ("log(x)*sin(x)", "0"), ("atan(1/x)", "0"), ("exp(1/x)/(1 + exp(1/x))", "0"), ("log(Abs(x - 1))", "1"),
         ("1/log(x)", "1"), ("x/log(x)", "1"), ("log(cos(x))", "pi/2"), ("tan(x)**2 - sec(x)**2", "pi/2"),
         ("exp(-1/x**2)/x**P", "0"), ("atan(tan(x))", "pi/2"), ("sqrt(x**2 + x) - x", "oo"), ("x - sqrt(x**2 - x)", "-oo")]


def tower(R, used):
    t, pt = R.choice(TOWER)
    t = t.replace("P", str(R.randint(2, 4))).replace("Q", str(R.randint(1, 3)))
    if (t, pt) in used:
        return
    used.add((t, pt))
    limit_case(mc, t, pt, "tower", "a tower or composition; a one-sided limit at a pole")


# ---- limit(...) at -oo where the expression turns non-real, inside evaluate ---------------------------------

GROWEV = ["cos(sqrt(x))/x", "sin(sqrt(x))/x", "cos(sqrt(x))/x**2", "sin(sqrt(x))*exp(x)", "cos(sqrt(P*x))/x",
          "cosh(sqrt(x))/x**P", "cos(sqrt(x))/(x**2 + 1)"]


def growev(R, used):
    t = R.choice(GROWEV).replace("P", str(R.randint(2, 3)))
    if t in used:
        return
    used.add(t)
    e = parse(t)
    # the values at -10**k grow without bound (cos(I*t) = cosh(t))
    vals = [_f_at(e, -mpmath.mpf(10) ** kk, 60) for kk in (4, 8, 16)]
    if any(v is None for v in vals) or not (abs(vals[2]) > 10 * abs(vals[1]) > 100 * abs(vals[0])):
        return
    case("evaluate_expression", {"expression": "limit(%s, x, -oo)" % t}, chk("expression", "not_finite"),
         cat="growev", why="|f| grows without bound at -oo: no finite limit", accept_refusal=True)


# ---- simplify of random compositions, checked as values ---------------------------------------------------

ATOMS = ["x", "y", "x + 1", "2*x", "x*y", "x - y", "x**2"]
UN = ["sin(%s)", "cos(%s)", "exp(%s)", "tan(%s)", "sinh(%s)", "cosh(%s)", "(%s)**2", "1/(%s)", "sqrt(%s)",
      "log(%s)", "(%s)**3", "atan(%s)", "exp(2*%s)"]
BIN = ["%s + %s", "%s - %s", "%s*%s", "%s/%s", "%s**2 - %s**2"]


def _rexpr(R, depth):
    if depth == 0:
        return R.choice(ATOMS)
    if R.random() < 0.5:
        return R.choice(UN) % _rexpr(R, depth - 1)
    return R.choice(BIN) % ("(%s)" % _rexpr(R, depth - 1), "(%s)" % _rexpr(R, depth - 1))


IDENT = ["sin(U)**2 + cos(U)**2 - 1", "cosh(U)**2 - sinh(U)**2", "exp(U)*exp(-U)", "sin(2*U) - 2*sin(U)*cos(U)",
         "tan(U)*cos(U) - sin(U)", "(exp(U) - exp(-U))/2 - sinh(U)", "(U)**2 - (U - 1)*(U + 1)", "cos(2*U) + 2*sin(U)**2"]


def _stable(e):
    """True when e's values at the judge's points (oracle.points, as numeq
    draws them) agree at 40 and 90 digits: cosh(u)**2 - sinh(u)**2 with
    |u| ~ 500 cancels every digit at 40, and the judge would then call the
    right answer 1 wrong."""
    syms = sorted(e.free_symbols, key=str)
    f = sp.lambdify(syms, e, "mpmath")
    for pt in oracle.points(syms, {}, 20, 7):
        vals = []
        for dps in (40, 90):
            with mpmath.workdps(dps):
                try:
                    vals.append(mpmath.mpc(f(*pt)))
                except Exception:  # noqa: BLE001 - a point the judge skips too
                    vals.append(None)
        if None in vals:
            continue
        if abs(vals[0] - vals[1]) > mpmath.mpf(10) ** -25 * max(1, abs(vals[1])):
            return False
    return True


def simpnum(R, used):
    if R.random() < 0.4:
        u = _rexpr(R, 1)
        t = "%s + %s" % (R.choice(IDENT).replace("U", "(%s)" % u), _rexpr(R, 1))
    else:
        t = _rexpr(R, R.randint(2, 3))
    if t in used or len(t) > 120:
        return
    used.add(t)
    try:
        e = parse(t)
    except Exception:  # noqa: BLE001
        return
    if not e.free_symbols or e.has(sp.zoo, sp.nan) or not _stable(e):
        return
    simp(t, None, cat="simpnum", why="simplify must keep the value at complex points")


# ---- antiderivatives -----------------------------------------------------------------------------------------

ANTI = ["x*exp(P*x)", "x**2*sin(x)", "exp(x)*cos(P*x)", "log(x)**2", "x*log(x)", "1/(x**2 + P)", "1/(x**2 - P)",
        "x/(x**2 + P)", "sqrt(x**2 + 1)", "1/sqrt(x**2 + P)", "atan(x)", "x*atan(x)", "sin(x)**3", "cos(x)**4",
        "tan(x)**2", "1/(x*(x + P))", "x**3/(x**2 + 1)", "exp(sqrt(x))", "sin(log(x))", "1/(1 + exp(x))",
        "x/(x**4 + 1)", "sec(x)", "log(x**2 + 1)", "x**2*exp(-x)", "1/(x**3 + 1)", "asin(x)", "sinh(x)*cos(x)",
        "x*sqrt(x + P)", "1/(x*log(x))", "(x + 1)/(x**2 + P*x + 5)"]


def antid(R, used):
    f = R.choice(ANTI).replace("P", str(R.randint(1, 3)))
    if f in used:
        return
    used.add(f)
    case("evaluate_expression", {"expression": "integrate(%s, x)" % f}, chk("expression", "antideriv", f, var="x"),
         cat="antid", why="the derivative of the answer is the integrand")


# ---- definite integrals over a non-integrable singularity ---------------------------------------------------------

SING = [("tan(x)", "0", "P"), ("sec(x)", "0", "P"), ("1/sin(x)", "-1", "1"), ("cot(x)", "-1", "2"), ("1/(x**2 - Q**2)", "0", "2*Q"),
        ("1/log(x)", "1/2", "2"), ("x/(x**2 - Q)", "0", "Q"), ("1/(x**3 - Q**3)", "0", "2*Q"), ("1/(exp(x) - 1)", "-1", "1"),
        ("1/(1 - cos(x))", "-1", "1"), ("sec(x)**2", "1", "2"), ("1/(x*(x - Q))", "1", "2*Q"), ("1/(sin(x) - cos(x))", "0", "2"),
        ("exp(x)/x", "-1", "1"), ("1/(x - Q)**3", "0", "2*Q"), ("cos(x)/x", "-2", "3")]


def singint(R, used):
    f, lo, hi = R.choice(SING)
    P = R.choice(["2", "3", "4"])
    Q = str(R.randint(1, 3))
    f, lo, hi = (t.replace("P", P).replace("Q", Q) for t in (f, lo, hi))
    text = "integrate(%s, (x, %s, %s))" % (f, lo, hi)
    if text in used:
        return
    used.add(text)
    # confirm a non-integrable singularity inside: (x - s)*f(x) does not tend to 0 at a real zero of 1/f
    e = parse(f)
    den = sp.denom(sp.together(e.rewrite(sp.sin).rewrite(sp.cos)))
    lov, hiv = float(sp.N(parse(lo))), float(sp.N(parse(hi)))
    found = False
    for guess in [lov + (hiv - lov) * j / 16 for j in range(17)]:
        try:
            r = sp.nsolve(den, x, guess, prec=30)
        except Exception:  # noqa: BLE001
            continue
        r = sp.re(r)
        if not lov < float(r) < hiv:
            continue
        with mpmath.workdps(40):
            fl = sp.lambdify(x, e, "mpmath")
            h = mpmath.mpf(10) ** -12
            try:
                v = fl(mpmath.mpf(sp.N(r, 40)) + h) * h
            except Exception:  # noqa: BLE001
                continue
        if abs(v) > 1e-3:
            found = True
            break
    if not found:
        return
    ev_diverge(text, "a non-integrable singularity inside the interval")


# ---- equations with radicals and logs --------------------------------------------------------------------------------

RADS = ["sqrt(x + A) = x - B", "sqrt(x) + sqrt(x - A) = B", "sqrt(A*x + 1) = x - B", "log(x) + log(x - A) = log(B)",
        "log(x - A) = 2*log(x - B)", "sqrt(x + A) + sqrt(x) = B", "x - sqrt(x) = A", "sqrt(x**2 + A) = x + B",
        "log(x**2) = 2*log(B)", "2*log(x) = log(A*x + B)", "sqrt(x + A) = -x", "sqrt(2*x + A) - sqrt(x) = 1",
        "x + sqrt(x) = A", "exp(2*x) - A*exp(x) = B", "log(x, 2) + log(x - A, 2) = B"]


def radsolve(R, used):
    eq = R.choice(RADS)
    A, B = R.randint(1, 6), R.randint(1, 5)
    eq = eq.replace("A", str(A)).replace("B", str(B))
    if eq in used:
        return
    used.add(eq)
    lhs, rhs = (parse(t) for t in eq.split("=")) if "log(x, 2)" not in eq else (None, None)
    if lhs is None:
        l2, r2 = eq.split("=")
        lhs = parse(l2.replace("log(x, 2)", "log(x)/log(2)").replace("log(x - %d, 2)" % A, "log(x - %d)/log(2)" % A))
        rhs = parse(r2)
    cand = timed(sp.solve, sp.Eq(lhs, rhs), x, secs=20)
    if cand is None:
        return
    if "exp(" in eq:
        solve(eq, None, periodic=True, cat="radsolve", why="each root checked by substitution")
        return
    good = []
    for r in cand:
        with mpmath.workdps(50):
            try:
                lv, rv = complex(sp.N(lhs.subs(x, r), 50)), complex(sp.N(rhs.subs(x, r), 50))
            except (TypeError, ValueError):
                continue
        if abs(lv - rv) <= 1e-25 * max(1, abs(lv)):
            good.append(s(r))
    solve(eq, good, cat="radsolve", why="extraneous roots of the squared/combined form dropped")


# ---- expand/factor of large powers --------------------------------------------------------------------------

def bigpow(R, used):
    kind = R.choice(["expand", "factor", "expand2", "factor2"])
    n = R.randint(12, 40)
    if kind == "expand":
        t = "expand((x + %d)**%d)" % (R.randint(1, 3), n)
    elif kind == "expand2":
        t = "expand((x**2 - %d*x + 1)**%d - (x - 1)**%d)" % (R.randint(1, 3), n // 2, n // 2)
    elif kind == "factor":
        t = "factor(x**%d - 1)" % n
    else:
        t = "factor(x**%d + x**%d)" % (n, n // 3)
    if t in used:
        return
    used.add(t)
    want = timed(sp.sympify, t, locals={"x": x}, secs=20)
    if want is None:
        return
    ev(t, s(want), cat="bigpow", domain={"x": "real"})


# ---- N() of expressions that cancel catastrophically ----------------------------------------------------------

CANCEL = ["exp(pi*sqrt(163)) - 640320**3 - 744", "sqrt(10**K + 1) - 10**(K/2)", "exp(10**K*log(1 + 10**-K)) - E",
          "sin(10**K)", "cos(10**K)", "exp(10**-K) - 1", "log(1 + 10**-K)", "10**K*(exp(10**-K) - 1) - 1",
          "tan(pi/2 - 10**-K)", "1 - cos(10**-K)", "sqrt(10**K + 1) - sqrt(10**K)", "exp(pi*sqrt(67)) - 5280**3 - 744",
          "(pi**4 + pi**5)**(1/6) - E", "atan(10**K) - pi/2", "sinh(10**-K) - 10**-K", "gamma(10**-K) - 10**K"]


def cancel(R, used):
    t = R.choice(CANCEL).replace("K", str(R.choice([8, 12, 16, 20, 24])))
    d = R.choice([10, 15, 20, 30])
    text = "N(%s, %d)" % (t, d)
    if text in used:
        return
    used.add(text)
    w = timed(parse, t, secs=10)
    if w is None:
        return
    with mpmath.workdps(200):
        wv = timed(sp.N, w, 80, secs=20)
    if wv is None or not wv.is_number or wv == 0:
        return
    case("evaluate_expression", {"expression": text}, chk("expression", "ndigits", str(wv), digits=d),
         cat="cancel", why="the value to %d digits, past a catastrophic cancellation" % d)


# ---- Catalan's constant ------------------------------------------------------------------------------

def catalan(R, used):
    d = R.choice([15, 20, 30, 40])
    t = R.choice(["Catalan", "2*Catalan - 1", "Catalan/pi", "Catalan**2", "exp(Catalan)", "Catalan - pi/4",
                  "sqrt(Catalan)", "1/Catalan"])
    text = "N(%s, %d)" % (t, d)
    if text in used:
        return
    used.add(text)
    w = sp.sympify(t, locals={"Catalan": sp.Catalan})
    wv = sp.N(w, 60)
    case("evaluate_expression", {"expression": text}, chk("expression", "ndigits", str(wv), digits=d),
         cat="catalan", why="Catalan's constant 0.9159655941...")


def _progress(fn):
    """fn, printing its class name and the time the previous class took."""
    import time

    def wrapped(R, used):
        if not used and not getattr(wrapped, "started", False):
            wrapped.started = True
            print("%s: %.0fs so far" % (fn.__name__, time.process_time()), file=sys.stderr)
        return fn(R, used)
    return wrapped


CLASSES = ()
USED_CLASSES = ((oscinf, 70, "oscinf"), (squeezeq, 24, "squeezeq"), (tower, 40, "tower"), (growev, 8, "growev"),
                (simpnum, 30, "simpnum"), (antid, 24, "antid"), (singint, 24, "singint"), (radsolve, 30, "radsolve"),
                (bigpow, 14, "bigpow"), (cancel, 24, "cancel"), (catalan, 10, "catalan"))

if __name__ == "__main__":
    run_generator(mc, 6, 20261206, CLASSES, tuple((_progress(f), n, c) for f, n, c in USED_CLASSES))
