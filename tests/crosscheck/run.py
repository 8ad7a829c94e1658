#!/usr/bin/env python3
"""Cross-checks codecalc's CAS tools against SymPy (used only as a test
oracle, when it is installed).

Every case of corpus.json is sent to one long-lived `codecalc` server over
MCP stdio; SymPy recomputes the same thing; the answers are compared by
equivalence, never by string: the difference simplifies to 0, or both sides
agree numerically at random points. Antiderivatives are compared through
their derivatives, series through their polynomial part and O term,
solution lists as multisets.

Exit status: 0 when agreement >= the threshold (97%) and no case failed in
a way not listed in known.json; 1 otherwise; 0 with a SKIP message when
sympy is not importable. --json FILE writes per-case results and timings
(scripts/bench-symbolic reads them).

Usage: python3 tests/crosscheck/run.py --bin build/bin/codecalc [-v] [--json F]
"""
import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
THRESHOLD = 0.97
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


class Server:
    """One codecalc process spoken to with newline-delimited JSON-RPC."""

    def __init__(self, binary):
        # A private state directory unless the caller chose one: only one
        # server may hold a state directory, and another may be running.
        env = dict(os.environ)
        self.home = None
        if not env.get("CODECALC_HOME"):
            self.home = tempfile.TemporaryDirectory(prefix="codecalc-crosscheck-")
            env["CODECALC_HOME"] = self.home.name
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1, env=env)
        self.next_id = 1
        self.rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "crosscheck", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()

    def rpc(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("codecalc exited")
            msg = json.loads(line)
            if msg.get("id") == rid:
                return msg

    def call(self, tool, args):
        t0 = time.perf_counter()
        msg = self.rpc("tools/call", {"name": tool, "arguments": args})
        dt = time.perf_counter() - t0
        res = msg.get("result") or {}
        sc = res.get("structuredContent")
        if sc is None:
            sc = {"ok": False, "code": "rpc", "error": json.dumps(msg.get("error", msg))[:300]}
        return sc, dt

    def close(self):
        self.p.stdin.close()
        try:
            self.p.wait(5)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        if self.home:
            self.home.cleanup()


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
    if isinstance(want, sp.Expr):
        # the same work the tool does (simplified and expanded forms, and a
        # value for a number), so that the timing compares like with like
        sp.simplify(want)
        sp.expand(want)
        if want.is_number:
            sp.N(want, 12)
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


# The cheapest symbolic request: its round trip is the transport's share of
# every case (pipes, two process hops, JSON and msgpack), not CAS work.
FLOOR_CALL = ("evaluate_expression", {"expression": "1"})


def run_case(server, case, floor=False):
    res = {"id": case["id"], "category": case["category"], "tool": case["tool"]}
    ours, res["ours_s"] = server.call(case["tool"], case["args"])
    res["ours"] = ours
    signal.alarm(CASE_LIMIT_S)
    try:
        t0 = time.perf_counter()
        check = ORACLES[case["tool"]](case)
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
        # the same cold caches and sleeping processes
        res["floor_s"] = server.call(*FLOOR_CALL)[1]
    if not ours.get("ok"):
        res.update(status="error", detail=f"{ours.get('code')}: {ours.get('error')}")
        return res
    signal.alarm(CASE_LIMIT_S)
    try:
        res["status"] = "agree" if check(ours) else "disagree"
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
                    help="also time a trivial symbolic call per case (floor_s in --json)")
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
            results.append(run_case(server, c, opt.floor))
    finally:
        server.close()
    elapsed = time.perf_counter() - t0
    judged = [r for r in results if r["status"] in ("agree", "disagree", "error", "compare-timeout")]
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
          f"{len(unexpected)} unexpected, {elapsed:.1f}s")
    if opt.json:
        with open(opt.json, "w") as f:
            json.dump(results, f, indent=1)
    if rate < THRESHOLD or unexpected:
        print(f"crosscheck: FAIL (need >= {100 * THRESHOLD:.0f}% and no unexpected failure)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
