"""Cross-checks the corpus's hand-written truths against SymPy, mpmath and
z3's Python API (make_corpus.py --verify). Prints every case where an
oracle disagrees with the stated truth; the author then decides (and says
why in the case's `why`). Not run by `make check`."""
import sympy as sp

from oracle import parse, numeq, equiv


def _sym_eval(text):
    e = parse(text.replace("^", "**"))
    return e.doit() if hasattr(e, "doit") else e


def run(cases):
    issues = 0
    try:
        import z3
    except ImportError:
        z3 = None
    for c in cases:
        t, a = c["tool"], c["args"]
        msg = None
        try:
            if t == "evaluate_expression":
                ck = next((k for k in c["checks"] if k["cmp"] == "expr"), None)
                if ck:
                    mine = _sym_eval(a["expression"])
                    want = parse(ck["want"])
                    alts = [parse(w) for w in ck.get("alt") or []]
                    if not any(equiv(mine, w, ck.get("domain") or {}) for w in [want] + alts):
                        msg = "sympy gives %s" % mine
            elif t == "algebraic_equiv":
                truth = c["checks"][0]["want"]
                dom = {k: v for k, v in (a.get("assume") or {}).items()}
                v, det = numeq(parse(a["a"]), parse(a["b"]), dom, count=16, seed=3)
                if truth and v is False:
                    msg = "numerics refute the identity at %s" % det
                if not truth and v is True:
                    msg = "numerics find no counterexample"
            elif t == "limit_expression":
                ck = c["checks"][0]
                var = sp.Symbol(a.get("var", "x"))
                pt = parse(a.get("point", "oo"))
                lim = sp.limit(parse(a["expr"]), var, pt, "+") if pt not in (sp.oo, -sp.oo) \
                    else sp.limit(parse(a["expr"]), var, pt)
                if ck["want"] == "does not exist":
                    if not isinstance(lim, sp.AccumBounds):
                        msg = "sympy gives %s" % lim
                elif not equiv(lim, parse(ck["want"])):
                    msg = "sympy gives %s" % lim
            elif t == "solve_expression":
                ck = c["checks"][0]
                if ck.get("want") is not None:
                    text = a["expr"]
                    lhs, _, rhs = text.partition("=")
                    eq = parse(lhs) - (parse(rhs) if rhs else 0)
                    sols = sp.solve(eq, sp.Symbol(a.get("var", "x")))
                    want = [parse(w) for w in ck["want"]]
                    if len(sols) != len(want) or not all(any(equiv(s, w) for w in want) for s in sols):
                        msg = "sympy solve gives %s" % sols
            elif t == "z3_check" and z3 is not None:
                want = c["checks"][0]["want"]
                s = z3.Solver()
                s.from_string(a["smt2"])
                got = str(s.check())
                if got != want:
                    msg = "z3 says %s" % got
        except Exception as ex:  # noqa: BLE001
            msg = "oracle error %s: %s" % (type(ex).__name__, ex)
        if msg:
            issues += 1
            print("verify: %s %s %s: %s" % (c["id"], t, a, msg))
    print("verify: %d case(s) where an oracle differs from the stated truth" % issues)
