#!/usr/bin/env python3
"""Cross-checks codecalc's CAS tools against SymPy (used only as a test
oracle, when it is installed).

Every case of corpus.json is sent to one long-lived `codecalc` server over
MCP stdio; SymPy recomputes the same thing; the answers are compared by
equivalence, never by string: the difference simplifies to 0, or both sides
agree numerically at random points. Antiderivatives are compared through
their derivatives, series through their polynomial part and O term,
solution lists as multisets.

Exit status: 0 when agreement >= the threshold (99%), no answer is
confidently wrong (refuted by numerics: identical true for a false
identity, a root that does not satisfy its equation, a wrong value) and no
case failed in a way not listed in known.json; 1 otherwise; 0 with a SKIP message when
sympy is not importable. --json FILE writes per-case results and timings
(scripts/bench-symbolic reads them).

Usage: python3 tests/crosscheck/run.py --bin build/bin/codecalc [-v] [--json F]
"""
import argparse
import json
import os
import random
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from mcp_stdio import Server  # noqa: E402 - also imported from here by other scripts

THRESHOLD = 0.99
CASE_LIMIT_S = 20  # per-case budget for the SymPy side

try:
    import sympy as sp
    from sympy.parsing.sympy_parser import parse_expr
except ImportError:  # pragma: no cover - depends on the host
    print("crosscheck: SKIP: sympy is not importable (apt install python3-sympy)")
    sys.exit(0)

NAMES = "x y z a b c d n t k p q".split()
SYMS = {s: sp.Symbol(s) for s in NAMES}


def parse(text):
    return parse_expr(text, local_dict=dict(SYMS))


class Timeout(Exception):
    pass


def _alarm(_sig, _frm):
    raise Timeout()


# ---- equivalence ---------------------------------------------------------

def _num(e, pts):
    v = sp.N(e.subs(pts), 30)
    return complex(v)


def equiv(a, b):
    """True when a and b denote the same value (numerically at random points
    first, then symbolically)."""
    if a == b:
        return True
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b)
                and all(equiv(x, y) for x, y in zip(a, b)))
    a, b = sp.sympify(a), sp.sympify(b)
    if a.has(sp.zoo, sp.oo, -sp.oo, sp.nan) or b.has(sp.zoo, sp.oo, -sp.oo, sp.nan):
        return sp.simplify(a - b) == 0 if a.free_symbols or b.free_symbols else a == b
    free = sorted(a.free_symbols | b.free_symbols, key=str)
    rng = random.Random(12345)
    try:
        for _ in range(4):
            pts = {s: sp.Rational(rng.randint(30, 170), 100) for s in free}
            va, vb = _num(a, pts), _num(b, pts)
            if abs(va - vb) > 1e-9 * max(1.0, abs(va), abs(vb)):
                return sp.simplify(a - b) == 0
        return True
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return sp.simplify(a - b) == 0


def same_multiset(ours, theirs):
    left = list(theirs)
    for o in ours:
        hit = next((i for i, t in enumerate(left) if equiv(o, t)), None)
        if hit is None:
            return False
        left.pop(hit)
    return not left


# ---- per-tool oracles: (sympy seconds, verdict function of our result) ----

def sides(text):
    if "==" not in text and "=" in text:
        lhs, rhs = text.split("=", 1)
        return parse(lhs), parse(rhs)
    return parse(text), sp.Integer(0)


def o_simplify(case):
    e = parse(case["args"]["expr"])
    want = {"simplified": sp.simplify(e), "factored": sp.factor(e), "expanded": sp.expand(e)}
    key = {"simplify": "simplified", "factor": "factored", "expand": "expanded"}[case["category"]]

    def check(r):
        return equiv(parse(r[key]), want[key]) and equiv(parse(r["original"]), e)
    return check


def o_solve(case):
    lhs, rhs = sides(case["args"]["expr"])
    var = SYMS[case["args"].get("var", "x")]
    want = sp.solve(sp.Eq(lhs, rhs), var)
    return lambda r: same_multiset([parse(s) for s in r["solutions"]], want)


def o_limit(case):
    a = case["args"]
    e, v = parse(a["expr"]), SYMS[a["var"]]
    pt = sp.oo if a["point"].strip() == "oo" else parse(a["point"])
    want = sp.limit(e, v, pt) if pt in (sp.oo, -sp.oo) else sp.limit(e, v, pt, "+")
    return lambda r: equiv(parse(r["limit"]), want)


def like_evaluate(want):
    """The SymPy work evaluate_expression does (simplified and expanded
    forms, and a value for a number), so that timings compare like with
    like."""
    if isinstance(want, sp.Expr):
        sp.simplify(want)
        sp.expand(want)
        if want.is_number:
            sp.N(want, 12)


def o_evaluate(case):
    text = case["args"]["expression"]
    x = SYMS["x"]
    if case["category"] == "integrate" and ", x)" in text:
        f = parse(text[len("integrate("):-len(", x)")])
        sp.integrate(f, x)  # timed like the other oracles

        def check(r):
            return equiv(sp.diff(parse(r["expression"]), x), f)
        return check
    want = sp.sympify(parse(text))
    like_evaluate(want)
    if case["category"] == "series":
        def check_series(r):
            got = parse(r["expression"])
            return equiv(got.removeO(), want.removeO()) and got.getO() == want.getO()
        return check_series

    def check_value(r):
        got = parse(r["expression"])
        if isinstance(want, (list, dict, tuple, bool)) or isinstance(got, (list, dict, tuple)):
            return got == want
        ok = equiv(got, want)
        if ok and "value" in r and not want.free_symbols:
            v = complex(sp.N(parse(r["value"].replace("*I", "*I")), 15))
            w = complex(sp.N(want, 15))
            ok = abs(v - w) <= 1e-10 * max(1.0, abs(w))
        return ok
    return check_value


def o_linear(case):
    a = case["args"]
    eqs = []
    for piece in a["system"].split(";"):
        if piece.strip():
            lhs, rhs = sides(piece)
            eqs.append(sp.Eq(lhs, rhs))
    vs = [SYMS[v.strip()] for v in a["variables"].split(",") if v.strip()]
    want = sp.solve(eqs, vs, dict=True)

    def check(r):
        got = [parse(s) for s in r["solutions"]]
        if len(got) != len(want):
            return False
        left = list(want)
        for g in got:
            hit = next((i for i, w in enumerate(left) if set(g) == set(w)
                        and all(equiv(g[k], w[k]) for k in g)), None)
            if hit is None:
                return False
            left.pop(hit)
        return r["count"] == len(want)
    return check


def entry(v):
    if isinstance(v, str):
        return parse(v)
    return sp.Float(v) if isinstance(v, float) else sp.Integer(v)


def o_matrix(case):
    a = case["args"]
    m = sp.Matrix([[entry(v) for v in row] for row in a["rows"]])
    op = a["op"]
    if op in ("det", "trace", "rank"):
        want = {"det": m.det, "trace": m.trace, "rank": m.rank}[op]()
        return lambda r: equiv(parse(r["value"]), want)
    if op in ("inverse", "transpose"):
        want = m.inv() if op == "inverse" else m.T

        def check_m(r):
            got = sp.Matrix([[parse(s) for s in row] for row in r["matrix"]])
            return got.shape == want.shape and all(equiv(g, w) for g, w in zip(got, want))
        return check_m
    want = m.eigenvals()

    def check_e(r):
        got = [(parse(k), v) for k, v in r["eigenvalues"].items()]
        flat_got = [k for k, v in got for _ in range(v)]
        flat_want = [k for k, v in want.items() for _ in range(v)]
        return same_multiset(flat_got, flat_want)
    return check_e


ORACLES = {"simplify_expression": o_simplify, "solve_expression": o_solve,
           "limit_expression": o_limit, "evaluate_expression": o_evaluate,
           "solve_linear": o_linear, "matrix": o_matrix}


# ---- issue 12 oracles ------------------------------------------------------
# Each new category is judged by SymPy and by an independent numeric check
# (mpmath at random complex / negative points). "confident wrong" marks an
# answer numerics refute: identical true for a false identity, a root that
# does not satisfy its equation, a wrong value.

import mpmath

DOMAIN_SYM = {"positive": dict(positive=True), "nonnegative": dict(nonnegative=True),
              "real": dict(real=True), "integer": dict(integer=True)}


# branch-cut witnesses first (a false identity may fail only on a cut, e.g.
# sqrt(1/x) vs 1/sqrt(x) on the negative reals), then random points
WITNESS = [-1, -2, 1j, -1 + 4j, 2 - 5j]


def _points(names, assume, rng, n=24):
    pts = []
    for k in range(len(WITNESS)):
        if all(assume.get(v) is None for v in names):
            pts.append({v: mpmath.mpmathify(WITNESS[(k + i) % len(WITNESS)]) for i, v in enumerate(names)})
    for _ in range(n):
        pt = {}
        for v in names:
            d = assume.get(v)
            if d == "positive":
                pt[v] = mpmath.mpf(rng.randint(1, 40)) / 8
            elif d == "nonnegative":
                pt[v] = mpmath.mpf(rng.randint(0, 40)) / 8
            elif d == "real":
                pt[v] = mpmath.mpf(rng.randint(-40, 40)) / 8
            elif d == "integer":
                pt[v] = mpmath.mpf(rng.randint(-6, 6))
            else:
                pt[v] = mpmath.mpc(rng.randint(-48, 48) / 8, rng.randint(-48, 48) / 8)
        pts.append(pt)
    return pts


def numerically_equal(a, b, assume):
    """True / False by mpmath at branch-cut witnesses and 24 random points (domain per assume), None
    when fewer than 3 points evaluate."""
    free = sorted((a.free_symbols | b.free_symbols), key=str)
    fa = sp.lambdify(free, a, "mpmath")
    fb = sp.lambdify(free, b, "mpmath")
    rng = random.Random(4242)
    good = 0
    mpmath.mp.dps = 40
    for pt in _points([str(v) for v in free], assume, rng):
        try:
            va = mpmath.mpc(fa(*[pt[str(v)] for v in free]))
            vb = mpmath.mpc(fb(*[pt[str(v)] for v in free]))
        except Exception:  # noqa: BLE001 - a pole or a branch mpmath refuses
            continue
        if not (mpmath.isfinite(va.real) and mpmath.isfinite(va.imag) and mpmath.isfinite(vb.real)
                and mpmath.isfinite(vb.imag)):
            continue
        good += 1
        if abs(va - vb) > mpmath.mpf(10) ** -20 * max(1, abs(va), abs(vb)):
            return False
    return True if good >= 3 or (not free and good) else None


def parse_assumed(text, assume):
    loc = dict(SYMS)
    for v, d in assume.items():
        loc[v] = sp.Symbol(v, **DOMAIN_SYM[d])
    for name in "abcdnkpqtxyz":
        loc.setdefault(name, sp.Symbol(name))
    return parse_expr(text, local_dict=loc)


def o_equiv(case):
    a_ = case["args"]
    assume = a_.get("assume", {})
    ea, eb = parse_assumed(a_["a"], assume), parse_assumed(a_["b"], assume)
    truth = numerically_equal(ea, eb, assume)
    proved = sp.simplify(ea - eb) == 0

    def check(r):
        ident = r.get("identical")
        if truth is False:
            if ident is True:
                return "confident-wrong"
            return ident is False
        if truth is True:
            return ident is True or (ident is None and r.get("numerically_equal") is True)
        return ident == proved or ident is None
    return check


def count_ops(text):
    return sp.count_ops(parse(text))


def o_simplify_finish(case):
    e = parse(case["args"]["expr"])
    want = sp.simplify(e)
    sp.factor(e)  # the tool returns all three forms: time the same work
    sp.expand(e)

    def check(r):
        got = parse(r["simplified"])
        if numerically_equal(got, e, {}) is False:
            return "confident-wrong"
        return equiv(got, want) and sp.count_ops(got) <= sp.count_ops(want) + 1
    return check


def o_limit_sided(case):
    a = case["args"]
    e, v = parse(a["expr"]), SYMS[a["var"]]
    pt = parse(a["point"])
    right = sp.limit(e, v, pt, "+")
    left = sp.limit(e, v, pt, "-")

    def check(r):
        ok = equiv(parse(r["limit"]), right) and r.get("direction") == "+"
        two = r.get("two_sided")
        if equiv(left, right):
            return ok and two is not None and two != "does not exist" and equiv(parse(two), right)
        return ok and two == "does not exist"
    return check


def o_solve_general(case):
    lhs, rhs = sides(case["args"]["expr"])
    x = SYMS["x"]
    f = sp.lambdify([x], lhs - rhs, "mpmath")
    sp.solve(sp.Eq(lhs, rhs), x)  # the same work as the tool: principal roots
    sp.solveset(sp.Eq(lhs, rhs), x, sp.S.Reals)  # and the periodic family

    def check(r):
        # principal roots: each must satisfy the equation (their choice of
        # representatives differs between CAS, see hard-002)
        for sol in r["solutions"]:
            if abs(complex(f(complex(sp.N(parse(sol), 30))))) > 1e-9:
                return "confident-wrong"
        gen = r.get("general_solution")
        if not gen:
            return False
        ks = {n: sp.Symbol(n) for n in ("k", "k2", "k3", "k4")}
        for g in gen:
            ge = parse_expr(g, local_dict=dict(SYMS, **ks))
            for kv in range(-2, 3):
                val = complex(sp.N(ge.subs({s_: kv for s_ in ks.values()}), 30))
                if abs(complex(f(val))) > 1e-9:
                    return "confident-wrong"
        return True
    return check


def o_solve_exact(case):
    lhs, rhs = sides(case["args"]["expr"])
    x = SYMS["x"]
    f = sp.lambdify([x], lhs - rhs, "mpmath")
    want = sp.solve(sp.Eq(lhs, rhs), x)

    def check(r):
        for sol in r["solutions"]:
            v = complex(sp.N(parse(sol), 30))
            if abs(complex(f(v))) > 1e-8 * max(1, abs(v)):
                return "confident-wrong"
        exact_want = all(not w.has(sp.Float) for w in want)
        if exact_want and any("." in sol for sol in r["solutions"]):
            return False
        return same_multiset([parse(t) for t in r["solutions"]], want)
    return check


def o_value(case):
    text = case["args"]["expression"]
    if case["category"] == "resource":
        return lambda r: False  # must have been refused (see run_case)
    if text.startswith("cbrt("):
        want = sp.real_root(parse(text[5:-1]), 3)
    else:
        want = sp.sympify(parse(text))
    like_evaluate(want)
    digits = None
    if text.startswith("N(") and "," in text:
        digits = int(text.rsplit(",", 1)[1].strip(" )"))

    def check(r):
        got_text = r["expression"]
        if want.is_number and not want.free_symbols:
            w = sp.N(want, (digits or 15) + 5)
            g = sp.N(parse(got_text), (digits or 15) + 5)
            tol = sp.Float(10) ** (-(digits - 2) if digits else -12) * max(1, abs(w))
            if abs(complex(g) - complex(w)) > 1e-9 * max(1, abs(complex(w))):
                return "confident-wrong"
            if digits:
                return abs(g - w) <= tol and len(got_text.replace("-", "").replace(".", "")) >= digits
            return "." not in got_text or "." in text
        return equiv(parse(got_text), want)
    return check


def o_calc(case):
    expr = case["args"]["expr"]
    if "^" in expr:
        return lambda r: "confident-wrong" if r.get("ok") else (
            r.get("code") == "validation" and "**" in r.get("remedy", "") and "xor" in r.get("remedy", ""))
    want = sp.nsimplify(parse(expr.replace("xor(", "XOR(")) if "xor" not in expr else 0)
    if "xor" in expr:
        args = [int(eval(t, {"__builtins__": {}})) for t in expr[4:-1].split(",")]  # noqa: S307
        acc = 0
        for t in args:
            acc ^= t
        want = sp.Integer(acc)
    else:
        want = sp.Rational(str(sp.nsimplify(parse(expr), rational=True)))
    return lambda r: r.get("ok") and sp.Rational(r["value"]) == want


UNIT_Q = {"nm": "1e-9", "m": "1", "eV": "1.602176634e-19", "J": "1", "mW": "0.001", "W": "1", "MW": "1e6",
          "MB": "1e6", "GB": "1e9", "MiB": "1048576", "mph": "1609.344/3600", "km/h": "1000/3600",
          "psi": "4.4482216152605/0.00064516", "kPa": "1000", "ms": "0.001", "s": "1", "ft": "0.3048",
          "in": "0.0254", "knot": "1852/3600", "kWh": "3.6e6", "ug": "1e-9", "kg": "1", "mm": "0.001",
          "acre": "4046.8564224", "m2": "1"}
FOLD_OK = {"gb": "GB", "KM": "km"}
UNIT_Q["km"] = "1000"


def q_of(text):
    num, _, den = text.partition("/")
    return sp.Rational(num) / (sp.Rational(den) if den else 1)


def o_units(case):
    a = case["args"]
    f, t, v = a["from_unit"], a["to_unit"], sp.Rational(str(a["value"]))
    if f in ("mw", "Mm", "Mb", "Mw"):  # ambiguous (mW/MW) or mixed case: must be refused
        return lambda r: "confident-wrong" if r.get("ok") else r.get("code") == "validation"
    if f == "F":
        want = (v - 32) * sp.Rational(5, 9)
    elif f == "K":
        want = (v - sp.Rational("273.15")) * sp.Rational(9, 5) + 32
    else:
        fu = FOLD_OK.get(f, f)
        want = v * q_of(UNIT_Q[fu]) / q_of(UNIT_Q[t])

    def check(r):
        if not r.get("ok"):
            return False
        if abs(sp.Float(r["value"], 30) - want) > abs(want) * sp.Float("1e-15"):
            return "confident-wrong"
        if f in FOLD_OK and (r.get("interpreted_as") or {}).get("from_unit") != FOLD_OK[f]:
            return False
        return sp.Rational(r["exact"]) == want
    return check


def o_bigint(case):
    def check(r):
        for k, v in r.items():
            if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 2 ** 53:
                return "confident-wrong"  # digits lost in a JavaScript client
        return r.get("ok") is True
    return check


def o_duration(case):
    sec = case["args"]["seconds"]
    us = round(sp.Rational(str(sec)) * 10 ** 6)
    whole, frac = divmod(int(us), 10 ** 6)

    def check(r):
        h = r["human"]
        if "1000ms" in h or "1000000us" in h:
            return "confident-wrong"
        total = 0
        for part in h.split():
            for unit, mult in (("ms", 1000), ("us", 1), ("d", 86400 * 10 ** 6), ("h", 3600 * 10 ** 6),
                               ("m", 60 * 10 ** 6), ("s", 10 ** 6)):
                if part.endswith(unit):
                    total += sp.Rational(part[:-len(unit)]) * mult
                    break
        return total == whole * 10 ** 6 + frac
    return check


CATEGORY_ORACLES = {"simplify-finish": o_simplify_finish, "limit-two-sided": o_limit_sided,
                    "solve-general": o_solve_general, "solve-exact": o_solve_exact,
                    "special": o_value, "multi-integral": o_value, "tower": o_value,
                    "resource": o_value}
ORACLES.update({"algebraic_equiv": o_equiv, "calc_exact": o_calc, "convert_units": o_units,
                "bitop": o_bigint, "base_repr": o_bigint, "int_widths": o_bigint,
                "data_sizes": o_bigint, "bit_analysis": o_bigint, "human_duration": o_duration})
# tools whose refusal is the expected answer for some cases
REFUSAL_OK = {"calc-caret", "units", "resource"}


# The cheapest symbolic request: its round trip is the transport's share of
# every case (pipes, two process hops, JSON and msgpack), not CAS work.
FLOOR_CALL = ("evaluate_expression", {"expression": "1"})


def run_case(server, case, floor=False):
    res = {"id": case["id"], "category": case["category"], "tool": case["tool"]}
    ours, res["ours_s"] = server.call(case["tool"], case["args"])
    res["ours"] = ours
    if floor:
        # the same call again at once: caches and processes warm (the
        # symbolic worker keeps no results, so it does the same work)
        res["warm_s"] = server.call(case["tool"], case["args"])[1]
    signal.alarm(CASE_LIMIT_S)
    try:
        t0 = time.perf_counter()
        check = CATEGORY_ORACLES.get(case["category"], ORACLES[case["tool"]])(case)
        res["sympy_s"] = time.perf_counter() - t0
    except Timeout:
        res.update(status="oracle-timeout")
        return res
    except Exception as e:  # noqa: BLE001 - any SymPy failure is reported, not fatal
        res.update(status="oracle-error", detail=repr(e)[:200])
        return res
    finally:
        signal.alarm(0)
    if floor:
        # right after SymPy's work, like the case's own call, so both see
        # the same cold caches and sleeping processes; every other case a
        # JSON-RPC ping instead, which no worker and no CAS answers: the
        # host's and the client's share of any call made after a pause
        if floor == "ping":
            t0 = time.perf_counter()
            server.rpc("ping", {})
            res["ping_s"] = time.perf_counter() - t0
        else:
            res["floor_s"] = server.call(*FLOOR_CALL)[1]
    if case["category"] == "resource":
        ok = not ours.get("ok") and ours.get("code") == "resource_exhausted"
        res["status"] = "agree" if ok else "disagree"
        return res
    if not ours.get("ok") and case["category"] not in REFUSAL_OK:
        res.update(status="error", detail=f"{ours.get('code')}: {ours.get('error')}")
        return res
    signal.alarm(CASE_LIMIT_S)
    try:
        verdict = check(ours)
        res["status"] = ("confident-wrong" if verdict == "confident-wrong"
                         else "agree" if verdict else "disagree")
    except Timeout:
        res["status"] = "compare-timeout"
    except Exception as e:  # noqa: BLE001
        res.update(status="disagree", detail=f"could not compare: {e!r}"[:200])
    finally:
        signal.alarm(0)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="build/bin/codecalc")
    ap.add_argument("--corpus", default=os.path.join(HERE, "corpus.json"))
    ap.add_argument("--known", default=os.path.join(HERE, "known.json"))
    ap.add_argument("--json", help="write per-case results here")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--only", help="run only case ids with this prefix")
    ap.add_argument("--floor", action="store_true",
                    help="also time, right after each case's oracle, a trivial symbolic call "
                         "(floor_s in --json; every other case a JSON-RPC ping, ping_s) and "
                         "each case's call repeated at once (warm_s)")
    opt = ap.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    cases = json.load(open(opt.corpus))
    if opt.only:
        cases = [c for c in cases if c["id"].startswith(opt.only)]
    known = json.load(open(opt.known)) if os.path.exists(opt.known) else {}
    server = Server(opt.bin)
    t0 = time.perf_counter()
    results = []
    try:
        for c in cases:
            results.append(run_case(server, c, opt.floor and ("ping" if len(results) % 2 else True)))
    finally:
        server.close()
    elapsed = time.perf_counter() - t0
    judged = [r for r in results if r["status"] in ("agree", "disagree", "error", "compare-timeout",
                                                    "confident-wrong")]
    wrong = [r for r in results if r["status"] == "confident-wrong"]
    agree = sum(r["status"] == "agree" for r in judged)
    unexpected = [r for r in results if r["status"] != "agree" and r["id"] not in known]
    for r in results:
        if r["status"] != "agree" and (opt.verbose or r["id"] not in known):
            tag = "known" if r["id"] in known else "NEW"
            ours = {k: v for k, v in r["ours"].items() if k not in ("ok", "contract_version", "remedy")}
            print(f"[{tag}] {r['id']} {r['status']}: {json.dumps(ours)[:300]} {r.get('detail', '')}")
    rate = agree / len(judged) if judged else 0.0
    print(f"crosscheck: {agree}/{len(judged)} agree ({100 * rate:.1f}%), "
          f"{len(results) - len(judged)} not judged (oracle failed), "
          f"{len(unexpected)} unexpected, {len(wrong)} confident wrong, {elapsed:.1f}s")
    if opt.json:
        with open(opt.json, "w") as f:
            json.dump(results, f, indent=1)
    if rate < THRESHOLD or unexpected or wrong:
        print(f"crosscheck: FAIL (need >= {100 * THRESHOLD:.0f}% and no unexpected failure)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
