#!/usr/bin/env python3
"""Runs the independent cross-check corpus (corpus.json, built by
make_corpus.py) through one codecalc server over MCP stdio and judges every
answer by value against the oracle's expectation.

Each disagreement is one of:
  wrong    a confident wrong answer: a value, root, verdict, factor or bit
           pattern the oracle refutes (or an answer where only a refusal is
           right)
  refusal  ok:false where an answer exists
  short    an answer that stops short: undecided (identical: null) where the
           truth is known, an unreduced simplification, an exact value given
           as a float
  caveat   a real-only rewrite returned with a domain_note saying so
  format   the value is right but its representation is not (wrong error
           code, last-ulp rounding, an unparseable printed form)

Exit status 0 when agreement >= THRESHOLD and every disagreement is listed
in known.json with the category it has; 1 otherwise (a new confident wrong
answer always fails). Skips (exit 0) when SymPy or mpmath is missing.

Usage: python3 run.py --bin build/bin/codecalc [-v] [--json OUT] [--only TOOL]
       [--md]   (rewrite disagreements.md from this run and known.json)
       [--corpus heldout.json --known '' --report-only]   (the held-out set:
                fails only on a confident wrong answer)
"""
import argparse
import cmath
import ast
import json
import math
import os
import re
import sys
import time
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
THRESHOLD = 0.97

try:
    import mpmath
    import sympy as sp
except ImportError:  # pragma: no cover - depends on the host
    print("crosscheck-independent: SKIP: sympy/mpmath not importable (apt install python3-sympy)")
    sys.exit(0)

sys.path.insert(0, HERE)
import oracle  # noqa: E402
from oracle import parse, numeq, equiv, frac  # noqa: E402
import smt_eval  # noqa: E402


def _project_runner():
    """The project's cross-check runner (tests/crosscheck/run.py), for its
    MCP stdio client: the transport is shared, the oracles are not."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("crosscheck_project_run",
                                                  os.path.join(os.path.dirname(HERE), "run.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Server(_project_runner().Server):
    """One codecalc process; call() returns the structured result alone, or
    a schema-shaped failure carrying the text of an unstructured one."""

    def call(self, tool, args):
        msg = self.rpc("tools/call", {"name": tool, "arguments": args})
        res = msg.get("result") or {}
        sc = res.get("structuredContent")
        if sc is None:
            text = ((res.get("content") or [{}])[0].get("text")) or json.dumps(msg.get("error"))
            sc = {"ok": False, "code": "schema", "error": text[:300]}
        return sc


# ---- result access ----------------------------------------------------------

MISSING = object()


def get(res, path):
    cur = res
    if not path:
        return cur
    for part in path.split("."):
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        elif isinstance(cur, list) and part.isdigit() and int(part) < len(cur):
            cur = cur[int(part)]
        else:
            return MISSING
    return cur


class Judged(Exception):
    """A comparison that could not be made: the output is unparseable."""


def p_expr(text):
    if not isinstance(text, str):
        text = str(text)
    try:
        e = parse(text)
    except Exception as ex:  # noqa: BLE001 - any parse failure is a format problem
        raise Judged("unparseable %r (%s)" % (text[:80], type(ex).__name__))
    if isinstance(e, sp.Basic) and e.atoms(sp.core.function.AppliedUndef):
        raise Judged("unknown function in %r" % text[:80])
    return e


def num_of(v):
    if isinstance(v, bool):
        raise Judged("boolean where a number was expected")
    if isinstance(v, (int, float)):
        return v
    return float(v)


# ---- comparators: return (passed, detail) -------------------------------------

def c_rational(got, ck, res, case):
    return frac(got) == frac(ck["want"]), "got %s, want %s" % (got, ck["want"])


def c_rational_in(got, ck, res, case):
    return frac(got) in [frac(w) for w in ck["want"]], "got %s, want one of %s" % (got, ck["want"])


def c_int(got, ck, res, case):
    return int(str(got)) == int(ck["want"]), "got %r, want %s" % (got, ck["want"])


def c_json(got, ck, res, case):
    return got == ck["want"], "got %s, want %s" % (json.dumps(got)[:200], json.dumps(ck["want"])[:200])


def c_str(got, ck, res, case):
    return got == ck["want"], "got %r, want %r" % (got, ck["want"])


def c_prefix(got, ck, res, case):
    return isinstance(got, str) and got.startswith(ck["want"]), "got %r" % (got,)


def c_null(got, ck, res, case):
    return got is None or got is MISSING, "got %r, want null" % (got,)


def c_present(got, ck, res, case):
    return got is not None and got is not MISSING, "missing"


def c_len(got, ck, res, case):
    return isinstance(got, list) and len(got) == ck["want"], "got %d entries" % (len(got) if isinstance(got, list) else -1)


def _close(g, w, ck):
    if isinstance(g, str):
        g = float(g)
    if w is None:
        return g is None
    if g is None:
        return False
    if math.isinf(w) or math.isinf(g):
        return g == w
    tol = max(ck.get("abs", 0.0), ck.get("rel", 0.0) * abs(w))
    return abs(g - w) <= tol


def c_float(got, ck, res, case):
    if isinstance(got, str):
        try:
            got = float(p_expr(got))
        except (TypeError, ValueError):
            raise Judged("not a number: %r" % got)
    if got is None:
        return False, "null"
    return _close(num_of(got), float(ck["want"]), ck), "got %r, want %r" % (got, ck["want"])


def c_float_in(got, ck, res, case):
    g = num_of(got)
    return any(_close(g, w, ck) for w in ck["want"]), "got %r, want one of %r" % (got, ck["want"])


def ulps_apart(a, b):
    if a == b:
        return 0
    import struct
    ia = struct.unpack("<q", struct.pack("<d", a))[0]
    ib = struct.unpack("<q", struct.pack("<d", b))[0]
    if ia < 0:
        ia = -(ia & 0x7FFFFFFFFFFFFFFF)
    if ib < 0:
        ib = -(ib & 0x7FFFFFFFFFFFFFFF)
    return abs(ia - ib)


def c_f64(got, ck, res, case):
    q = frac(got)
    d = q.numerator / q.denominator
    want = float(ck["want"])
    u = ulps_apart(d, want)
    return u <= ck.get("ulps", 0), "got %s (= %r, %d ulp from the correctly rounded %r)" % (got, d, u, want)


def c_digits(got, ck, res, case):
    """A value printed to ck["digits"] significant digits: it must be the
    correctly rounded one (want), digit for digit."""
    if not isinstance(got, str):
        raise Judged("not a decimal string: %r" % (got,))
    with mpmath.workdps(ck["digits"] + 20):
        try:
            g = mpmath.mpf(got.replace("*10**", "e"))
        except (ValueError, TypeError):
            raise Judged("not a decimal: %r" % got)
        return g == mpmath.mpf(ck["want"]), "got %s, want %s" % (got, ck["want"])


def c_hexval(got, ck, res, case):
    return int(got, 16) == int(ck["want"], 16), "got %s, want %s" % (got, ck["want"])


def c_pyval(got, ck, res, case):
    try:
        v = ast.literal_eval(got) if isinstance(got, str) else got
    except (ValueError, SyntaxError):
        raise Judged("not a plain value: %r" % got)
    if isinstance(v, dict):
        v = {str(k): val for k, val in v.items()}
    return v == ck["want"], "got %r, want %r" % (got, ck["want"])


def c_expr(got, ck, res, case):
    want_text = ck["want"]
    if ck.get("input"):
        want_text = case["args"].get("expr") or case["args"].get("expression")
    g = p_expr(got)
    wants = [want_text] + (ck.get("alt") or [])
    for w in wants:
        v = equiv(g, parse(w), ck.get("domain") or {})
        if v:
            return True, ""
    return False, "got %s, want %s" % (got, want_text)


def c_num12(got, ck, res, case):
    if got is MISSING or got is None:
        return True, ""
    w = parse(ck["want"])
    if w.free_symbols or w.has(sp.oo, sp.zoo, sp.nan, -sp.oo):
        return True, ""
    g = complex(p_expr(got).evalf(20))
    wv = complex(w.evalf(30))
    return abs(g - wv) <= 1e-10 * max(1.0, abs(wv)), "value %s, want %s" % (got, wv)


def c_no_float(got, ck, res, case):
    g = p_expr(got)
    return not g.atoms(sp.Float), "a float in %s" % got


NON_FINITE = {"oo", "-oo", "zoo", "nan", "undef", "undefined", "infinity", "-infinity"}


def c_not_finite(got, ck, res, case):
    t = str(got).strip()
    if t in NON_FINITE or "diverg" in t.lower() or "does not exist" in t:
        return True, ""
    try:
        g = p_expr(t)
    except Judged:
        return True, "unparsed %r" % t  # not a finite number either
    if g.has(sp.oo, sp.zoo, sp.nan, -sp.oo, sp.Integral, sp.Sum):
        return True, ""
    return False, "a divergent integral/sum answered %s" % t


def c_antideriv(got, ck, res, case):
    """An antiderivative: its derivative equals the integrand (at positive
    points: log(Abs(x)) and log(x) are both accepted)."""
    var = sp.Symbol(ck["var"])
    g = p_expr(got)
    if g.has(sp.Integral):
        return "short", "left unevaluated: %s" % got
    v, det = numeq(sp.diff(g, var), parse(ck["want"]), {"*": "positive"})
    return v is not False, "d/d%s %s is not %s (%s)" % (var, got, ck["want"], det)


OPEN_FORMS = ("Integral(", "Limit(", "Sum(", "Product(", "Derivative(")


def _open_or_nan(t):
    """'short' for an unevaluated operator or an undefined value (an honest
    non-answer), None otherwise."""
    if any(f in t for f in OPEN_FORMS) or t in ("nan", "undefined", "undef"):
        return "short"
    return None


def _rel_close(g, w, rel):
    return abs(g - w) <= rel * max(1.0, abs(w))


def c_value_or_open(got, ck, res, case):
    """A convergent definite integral: its value (mpmath.quad's), or an
    honest non-answer (unevaluated, undefined); a divergence claimed (oo)
    or another number is wrong."""
    t = str(got).strip()
    if _open_or_nan(t):
        return _open_or_nan(t), "left open: %s" % t[:80]
    g = p_expr(t)
    if g.has(sp.oo, -sp.oo, sp.zoo):
        return False, "a convergent integral answered %s" % t
    if g.free_symbols:
        return False, "the answer %s still holds %s" % (t, g.free_symbols)
    w = parse(ck["want"])
    return _rel_close(complex(g.evalf(30)), complex(w.evalf(30)), ck.get("rel", 1e-9)), \
        "got %s, want %s" % (t, ck["want"])


def c_param_value(got, ck, res, case):
    """A definite integral with a parameter: at each sampled parameter value
    (where it converges) the answer is mpmath.quad's value there."""
    t = str(got).strip()
    if _open_or_nan(t):
        return _open_or_nan(t), "left open: %s" % t[:80]
    g = p_expr(t)
    p = sp.Symbol(ck["param"])
    for pv, want in ck["want"].items():
        try:
            gv = complex(sp.N(g.subs(p, parse(pv)), 30))
        except (TypeError, ValueError):
            return False, "the answer %s has no value at %s = %s" % (t, p, pv)
        if not _rel_close(gv, complex(mpmath.mpf(want)), ck.get("rel", 1e-9)):
            return False, "at %s = %s: got %s = %s, want %s" % (p, pv, t, gv, want)
    return True, ""


def _real_points(f, count=6):
    """Real points (off the integers and simple fractions, where piecewise
    functions break) at which f is real and finite."""
    out = []
    for t in ("-2.3137", "-1.4142", "-0.6931", "-0.2718", "0.3183", "0.5772", "1.2599", "1.7321",
              "2.7183", "3.1416", "4.4721"):
        try:
            v = mpmath.mpc(f(mpmath.mpf(t)))
        except (ZeroDivisionError, ValueError, TypeError, OverflowError):
            continue
        if mpmath.isfinite(v.real) and mpmath.isfinite(v.imag) and abs(v.imag) < 1e-25 * max(1, abs(v)):
            out.append(mpmath.mpf(t))
        if len(out) >= count:
            break
    return out


def _answer_and_function(got, ck):
    """(text, var, answer as an mpmath function, ck's function); the answer
    function is None when the answer is left open."""
    var = sp.Symbol(ck["var"])
    t = str(got).strip()
    if _open_or_nan(t):
        return t, var, None, None
    fn = lambda e: sp.lambdify(var, e, modules=["mpmath"])  # noqa: E731
    return t, var, fn(p_expr(t)), fn(parse(ck["want"]))


def c_antideriv_real(got, ck, res, case):
    """An antiderivative of a possibly piecewise or real-only integrand:
    its numeric derivative equals the integrand at real points where the
    integrand is real (mpmath.diff of the answer, no symbolic step)."""
    t, var, fg, ff = _answer_and_function(got, ck)
    if fg is None:
        return "short", "left open: %s" % t[:80]
    checked = 0
    for pt in _real_points(ff):
        try:
            d = mpmath.diff(fg, pt)
        except (ZeroDivisionError, ValueError, TypeError, OverflowError):
            continue
        w = ff(pt)
        if not mpmath.isfinite(abs(d)):
            continue
        checked += 1
        if abs(d - w) > mpmath.mpf("1e-8") * max(1, abs(w)):
            return False, "d/d%s %s at %s is %s, the integrand is %s" % (var, t, mpmath.nstr(pt, 6),
                                                                       mpmath.nstr(d, 10), mpmath.nstr(w, 10))
    return True, "" if checked else "not checked"


def c_deriv_real(got, ck, res, case):
    """A derivative: equals mpmath.diff of the function at real points where
    the function is real (off its breakpoints)."""
    t, var, fg, ff = _answer_and_function(got, ck)
    if fg is None:
        return "short", "left open: %s" % t[:80]
    for pt in _real_points(ff):
        try:
            w = mpmath.diff(ff, pt)
            v = mpmath.mpc(fg(pt))
        except (ZeroDivisionError, ValueError, TypeError, OverflowError):
            continue
        if not (mpmath.isfinite(abs(w)) and mpmath.isfinite(abs(v))):
            continue
        if abs(v - w) > mpmath.mpf("1e-8") * max(1, abs(w)):
            return False, "%s at %s = %s is %s; d/d%s is %s" % (t, var, mpmath.nstr(pt, 6), mpmath.nstr(v, 10),
                                                                var, mpmath.nstr(w, 10))
    return True, ""


def c_finite_sum(got, ck, res, case):
    """summation(term, (k, lo, n)): the closed form at n = lo..lo+5 equals
    the sum of the terms."""
    t = str(got).strip()
    if _open_or_nan(t):
        return "short", "left open: %s" % t[:80]
    g = p_expr(t)
    kv, nv = sp.Symbol(ck["var"]), sp.Symbol("n")
    term = parse(ck["want"])
    for m in range(ck["lo"], ck["lo"] + 6):
        want = sum(term.subs({kv: j, nv: m}) for j in range(ck["lo"], m + 1))
        try:
            gv = complex(sp.N(g.subs(nv, m), 30))
        except (TypeError, ValueError):
            return False, "the closed form %s has no value at n = %d" % (t, m)
        if not _rel_close(gv, complex(sp.N(want, 30)), 1e-12):
            return False, "at n = %d: %s = %s, the sum is %s" % (m, t, gv, want)
    return True, ""


def c_not_nan(got, ck, res, case):
    t = str(got).strip()
    return t not in ("nan", "undef", "undefined"), "answered %r for an expression defined almost everywhere" % t


def c_ops_le(got, ck, res, case):
    g, w = p_expr(got), parse(ck["want"])
    return sp.count_ops(g) <= sp.count_ops(w), "got %s, reducible to %s" % (got, ck["want"])


def _sides(text):
    if "==" not in text and "=" in text:
        lhs, rhs = text.split("=", 1)
        return parse(lhs), parse(rhs)
    return parse(text), sp.Integer(0)


def _satisfies(lhs, rhs, var, root, extra=None):
    subs = {var: root}
    if extra:
        subs.update(extra)
    tol = mpmath.mpf("1e-20") if not root.atoms(sp.Float) else mpmath.mpf("1e-9")
    try:
        with mpmath.workdps(40):
            lv = complex(sp.N(lhs.subs(subs), 40))
            rv = complex(sp.N(rhs.subs(subs), 40))
    except (TypeError, ValueError, ZeroDivisionError):
        return False
    if any(math.isnan(c.real) or math.isnan(c.imag) or math.isinf(abs(c)) for c in (lv, rv)):
        return False
    return abs(lv - rv) <= float(tol) * max(1.0, abs(lv), abs(rv))


def _const_eq(a, b):
    try:
        return abs(complex(sp.N(a - b, 30))) <= 1e-12 * max(1.0, abs(complex(sp.N(b, 30))))
    except (TypeError, ValueError):
        return sp.simplify(a - b) == 0


def c_roots(got, ck, res, case):
    lhs, rhs = _sides(ck["eq"])
    var = sp.Symbol(ck["var"])
    roots = [p_expr(r) for r in got]
    for r, text in zip(roots, got):
        if r.free_symbols - {sp.Symbol(n) for n in "abc"}:
            continue
        if not r.free_symbols and not _satisfies(lhs, rhs, var, r):
            return False, "root %s does not satisfy %s" % (text, ck["eq"])
    for text in (res.get("general_solution") or []):
        g = p_expr(text)
        ks = sorted(s for s in g.free_symbols if str(s).startswith("k"))
        for kv in (-1, 0, 1, 2):
            r = g.subs({k: kv for k in ks})
            if not r.free_symbols and not _satisfies(lhs, rhs, var, r):
                return False, "general solution %s at k=%d does not satisfy %s" % (text, kv, ck["eq"])
    if ck.get("want") is None:
        if ck.get("periodic") and not got:
            return False, "no principal root of a periodic equation"
        return True, ""
    wants = [parse(w) for w in ck["want"]]
    left = list(wants)
    for r in roots:
        hit = next((i for i, w in enumerate(left) if (_const_eq(r, w) if not (r.free_symbols or w.free_symbols)
                                                       else equiv(r, w))), None)
        if hit is None:
            return False, "root %s is not among %s" % (r, ck["want"])
        left.pop(hit)
    if left:
        return False, "missing roots %s (got %s)" % ([str(w) for w in left], got)
    return True, ""


LIMIT_DNE = {"does not exist", "undefined", "undef", "nan"}


def c_limit(got, ck, res, case):
    want = ck["want"]
    t = str(got).strip()
    if want == "does not exist":
        if t in LIMIT_DNE or t.startswith("AccumBounds"):
            return True, ""
        g = p_expr(t)
        return False, "an oscillating limit answered %s" % t
    if t in LIMIT_DNE:
        return False, "answered %r, the limit is %s" % (t, want)
    g, w = p_expr(t), parse(want)
    if g == sp.zoo and (w.has(sp.oo) or w.has(-sp.oo)) and w.is_extended_real is not True:
        # a directed complex infinity (-oo*(-1)**(1/3)) is zoo on the
        # Riemann sphere: right, without the direction
        return "format", "got zoo, want the directed infinity %s" % want
    if g.has(sp.oo, -sp.oo, sp.zoo) or w.has(sp.oo, -sp.oo, sp.zoo):
        return g == w, "got %s, want %s" % (t, want)
    return bool(equiv(g, w)), "got %s, want %s" % (t, want)


def _dict_of(text):
    t = text.strip()
    if not (t.startswith("{") and t.endswith("}")):
        raise Judged("not a solution dict: %r" % text)
    out, depth, cur = {}, 0, ""
    parts = []
    for ch in t[1:-1]:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    for p in parts:
        k, _, v = p.partition(":")
        out[k.strip()] = p_expr(v)
    return out


def c_linsol(got, ck, res, case):
    eqs = [_sides(e) for e in ck["system"].split(";") if e.strip()]
    sols = [_dict_of(s) for s in got]
    for s, text in zip(sols, got):
        subs = {sp.Symbol(k): v for k, v in s.items()}
        floats = any(v.atoms(sp.Float) for v in s.values())
        for lhs, rhs in eqs:
            lv, rv = lhs.subs(subs), rhs.subs(subs)
            if floats and not (lv.free_symbols | rv.free_symbols):
                # a numeric root carries about 15 digits (the answer says
                # approximate): checked as solve_expression's are, to 1e-9
                d, m = complex(sp.N(lv - rv, 30)), max(1.0, abs(complex(sp.N(lv, 30))))
                if abs(d) > 1e-9 * m:
                    return False, "solution %s does not satisfy the system" % text
                continue
            v, _ = numeq(lv, rv)
            if v is False:
                return False, "solution %s does not satisfy the system" % text
    if len(sols) < len(ck["want"]):
        return False, "got %d solution(s), the system has %d" % (len(sols), len(ck["want"]))
    if not ck["want"] and sols:
        return False, "an inconsistent system answered %s" % got
    return True, ""


def c_exprmat(got, ck, res, case):
    if not isinstance(got, list) or len(got) != len(ck["want"]):
        return False, "shape"
    for grow, wrow in zip(got, ck["want"]):
        if len(grow) != len(wrow):
            return False, "shape"
        for g, w in zip(grow, wrow):
            if not equiv(p_expr(g), parse(w)):
                return False, "entry %s, want %s" % (g, w)
    return True, ""


def c_eig(got, ck, res, case):
    if not isinstance(got, dict):
        raise Judged("eigenvalues not a dict")
    left = [(parse(k), v) for k, v in ck["want"].items()]
    for k, m in got.items():
        g = p_expr(k)
        hit = next((i for i, (w, wm) in enumerate(left) if wm == int(m) and _const_eq(g, w)), None)
        if hit is None:
            return False, "eigenvalue %s (x%s) not among %s" % (k, m, ck["want"])
        left.pop(hit)
    return not left, "missing %s" % left


def c_verdict(got, ck, res, case):
    truth = ck["want"]
    if got is truth:
        return True, ""
    if got is None:
        return "short", "undecided (null) where the identity is %s" % truth
    return False, "identical: %s for an identity that is %s" % (got, truth)


def _claim_domain(claim):
    dom, kind = {}, None
    for part in [p.strip() for p in claim.split(",")]:
        m = re.fullmatch(r"(real|integer|positive|nonnegative|complex) (\w+)", part)
        if m:
            kind = m.group(1)
            dom[m.group(2)] = kind
            continue
        m = re.fullmatch(r"(\w+) (>|>=) 0", part)
        if m:
            dom[m.group(1)] = "positive" if m.group(2) == ">" else "nonnegative"
            kind = None
            continue
        if kind and re.fullmatch(r"\w+", part):
            dom[part] = kind
            continue
        raise Judged("unparsed holds_for %r" % claim)
    return dom


def c_holds_for(got, ck, res, case):
    if got is MISSING or got is None:
        return True, ""
    dom = dict(case["args"].get("assume") or {})
    dom.update(_claim_domain(got))
    dom.pop("complex", None)
    v, det = numeq(parse(ck["a"]), parse(ck["b"]), {k: v for k, v in dom.items() if v != "complex"}, seed=11)
    return v is not False, "holds_for %r is refuted at %s" % (got, det)


def _sig_digits(text):
    """Significant digits printed in the floats of text (the most of any
    part); 0 when it prints none."""
    best = 0
    for m in re.finditer(r"(\d+)\.(\d*)(?:e[-+]?\d+)?", text):
        ds = (m.group(1) + m.group(2)).lstrip("0")
        best = max(best, len(ds) if ds else 1)
    return best


def c_ndigits(got, ck, res, case):
    """A numeric value printed with p significant digits where d were asked
    for: right to min(p, d) - 2 digits (a digit or two of rounding slack),
    or wrong; p < d - 1 prints fewer digits than asked (short). A zero for a
    non-zero value is wrong however few digits it shows."""
    t = str(got).strip()
    # every decimal read exactly: a part printed with fewer digits than
    # another (trailing zeros dropped) was read at its own digit count, and
    # 1 - 5e-41 shown in 41 decimals beside a 50-digit part was judged off
    # by that reading's rounding
    g = p_expr(re.sub(r"\d+\.\d*(?:e[-+]?\d+)?", lambda m: "Rational('%s')" % m.group(0), t))
    if g.free_symbols:
        return False, "the value %s still holds a symbol" % t
    w = parse(ck["want"])
    with mpmath.workdps(120):
        gv = mpmath.mpc(complex(sp.N(g, 60))) if False else sp.N(g, 100)
        wv = sp.N(w, 100)
        gc = mpmath.mpc(mpmath.mpf(str(sp.re(gv))), mpmath.mpf(str(sp.im(gv))))
        wc = mpmath.mpc(mpmath.mpf(str(sp.re(wv))), mpmath.mpf(str(sp.im(wv))))
        if gc == 0:
            return wc == 0, "0 for the non-zero value %s" % mpmath.nstr(wc, 20)
        err = abs(gc - wc) / abs(wc)
        p = _sig_digits(t) or ck["digits"]
        need = min(p, ck["digits"]) - 2
        if need > 0 and err > mpmath.mpf(10) ** -need:
            return False, "%s is right to about %.1f digits, it shows %d (want %s)" % (
                t[:60], float(-mpmath.log10(err)) if err else 99, p, mpmath.nstr(wc, 25))
    if p < ck["digits"] - 1:
        return "short", "%d digits shown, %d asked for" % (p, ck["digits"])
    return True, ""


def _param_points(params, count, seed):
    import random as _r
    rng = _r.Random(seed)
    return [{sp.Symbol(p): sp.Rational(rng.randint(-40, 40), 7) + sp.I * sp.Rational(rng.randint(1, 30), 11)
             for p in params} for _ in range(count)]


def _distinct(vals, tol=1e-12):
    out = []
    for v in vals:
        if not any(abs(v - u) <= tol * max(1, abs(u)) for u in out):
            out.append(v)
    return out


def c_roots_param(got, ck, res, case):
    """Roots with parameters: at random complex parameter values every root
    satisfies the equation and the set of root values is the oracle's."""
    lhs, rhs = _sides(ck["eq"])
    var = sp.Symbol(ck["var"])
    roots = [p_expr(r) for r in got]
    # a root the answer itself says holds only for some parameter values
    # (with a failing assignment) is not claimed everywhere
    conditional = {c.get("solution") for c in (res.get("conditional_solutions") or [])}
    for pt in _param_points(ck["params"], 3, 5):
        vals = []
        for r, text in zip(roots, got):
            if text in conditional:
                vals.append(complex(sp.N(r.subs(pt), 30)))
                continue
            rv = r.subs(pt)
            if rv.free_symbols - {var}:
                raise Judged("root %s holds %s" % (text, rv.free_symbols))
            if not _satisfies(lhs.subs(pt), rhs.subs(pt), var, rv):
                return False, "root %s does not satisfy %s at %s" % (text, ck["eq"], pt)
            vals.append(complex(sp.N(rv, 30)))
        for text in (res.get("general_solution") or []):
            g = p_expr(text)
            ks = sorted(s for s in g.free_symbols if str(s).startswith("k"))
            for kv in (-1, 0, 1):
                r = g.subs({kk: kv for kk in ks}).subs(pt)
                if not r.free_symbols and not _satisfies(lhs.subs(pt), rhs.subs(pt), var, r):
                    return False, "general solution %s at k=%d does not satisfy %s" % (text, kv, ck["eq"])
        wants = _distinct([complex(sp.N(parse(w).subs(pt), 30)) for w in ck["want"]])
        gots = _distinct(vals)
        missing = [w for w in wants if not any(abs(w - g) <= 1e-9 * max(1, abs(w)) for g in gots)]
        if missing and not ck.get("periodic"):
            return False, "missing roots %s at %s (got %s)" % (missing, pt, got)
    return True, ""


def c_eig_param(got, ck, res, case):
    """Eigenvalues of a symbolic matrix: at random parameter values the
    multiset of values (with multiplicities) is the oracle's."""
    if not isinstance(got, dict):
        raise Judged("eigenvalues not a dict")
    syms = set()
    for row in ck["rows"]:
        for e in row:
            syms |= parse(e).free_symbols
    gk = [(p_expr(kk), int(m)) for kk, m in got.items()]
    if sum(m for _, m in gk) != ck["n"]:
        return False, "multiplicities sum to %d for a %dx%d matrix" % (sum(m for _, m in gk), ck["n"], ck["n"])
    for pt in _param_points(sorted(str(v) for v in syms), 3, 9):
        gv = sorted([complex(sp.N(e.subs(pt), 30)) for e, m in gk for _ in range(m)], key=lambda z: (z.real, z.imag))
        wv = sorted([complex(sp.N(parse(kk).subs(pt), 30)) for kk, m in ck["want"].items() for _ in range(m)],
                    key=lambda z: (z.real, z.imag))
        used = [False] * len(wv)
        for g in gv:
            hit = next((i for i, w in enumerate(wv) if not used[i] and abs(g - w) <= 1e-9 * max(1, abs(w))), None)
            if hit is None:
                return False, "eigenvalue %s at %s not among %s" % (g, pt, wv)
            used[hit] = True
    return True, ""


def c_smt_model(got, ck, res, case):
    if not isinstance(got, dict):
        return False, "no model"
    v = smt_eval.check_model(ck["want"], got)
    if v is None:
        return True, "model not evaluated"
    return v, "the model %s violates an assertion" % json.dumps(got)


def c_smt_verdict(got, ck, res, case):
    """sat/unsat as the enumeration decided; z3's "unknown" decides
    nothing, so it is a short answer, never a wrong one."""
    if got == ck["want"]:
        return True, ""
    if got == "unknown":
        return "short", "unknown where the enumeration says %s" % ck["want"]
    return False, "%s where the enumeration says %s" % (got, ck["want"])


def _big_ints(v, path=""):
    """Every JSON integer of magnitude 2^53 or more in a result (they must
    be decimal strings: docs/contract.md, "integers beyond 2^53")."""
    if isinstance(v, bool):
        return []
    if isinstance(v, int):
        return [path] if abs(v) >= 2**53 else []
    if isinstance(v, dict):
        return [p for k, x in v.items() for p in _big_ints(x, path + "." + k if path else k)]
    if isinstance(v, list):
        return [p for i, x in enumerate(v) for p in _big_ints(x, "%s[%d]" % (path, i))]
    return []


def c_ints53(got, ck, res, case):
    bad = _big_ints(res)
    return not bad, "JSON integer(s) past 2^53 at %s" % ", ".join(bad[:5])


def c_f64str(got, ck, res, case):
    """A decimal string that reads back (Python's float()) as the double want."""
    try:
        g = float(got)
    except (TypeError, ValueError):
        raise Judged("not a decimal: %r" % (got,))
    return g == float(ck["want"]), "got %s (reads as %r), want %r" % (got, g, float(ck["want"]))


def c_refuse(got, ck, res, case):
    if res.get("ok"):
        return False, "answered %s where a refusal is right" % json.dumps(
            {k: v for k, v in res.items() if k not in ("ok", "contract_version")})[:240]
    if res.get("code") in ck["codes"]:
        return True, ""
    return "format", "refused with %s, want %s" % (res.get("code"), ck["codes"])


def c_param_cond(got, ck, res, case):
    """A definite integral whose convergence depends on the parameter
    (redsym5): at each sampled value where it converges the answer is the
    integral's value there; where it diverges the answer may not be a finite
    number unless the result's note says the value holds only conditionally
    (a note with "only"). A note "for a > 0 only" limits the check to
    positive values."""
    t = str(got).strip()
    if _open_or_nan(t):
        return _open_or_nan(t), "left open: %s" % t[:80]
    g = p_expr(t)
    p = sp.Symbol(ck["param"])
    note = res.get("note") or ""
    conditional = "only" in note
    pos_only = "> 0 only" in note
    for pv, want in ck["want"].items():
        q = parse(pv)
        if pos_only and not q > 0:
            continue
        try:
            gv = complex(sp.N(g.subs(p, q), 30))
        except (TypeError, ValueError, ZeroDivisionError):
            gv = None
        finite = gv is not None and cmath.isfinite(gv)
        if want == "diverges":
            if finite and not conditional:
                return False, "at %s = %s the integral diverges; the answer %s is %s there, no condition stated" % (
                    p, pv, t, gv)
            continue
        if not finite:
            return False, "at %s = %s the integral converges to %s; the answer %s is not finite there" % (
                p, pv, want, t)
        if not _rel_close(gv, complex(mpmath.mpf(want)), ck.get("rel", 1e-9)):
            return False, "at %s = %s: got %s = %s, want %s" % (p, pv, t, gv, want)
    return True, ""


def c_series_poly(got, ck, res, case):
    """A series answer (redsym5): the polynomial before its O() term equals
    the oracle's truncated series as values (at real points)."""
    t = str(got).strip()
    cut = t.find("O(")
    if cut == 0:
        return False, "only the order term: %s" % t[:80]
    if cut > 0:
        head = t[:cut].rstrip()
        if not head.endswith("+"):
            raise Judged("an order term not added last: %r" % t[:80])
        t = head[:-1]
    g, w = p_expr(t), parse(ck["want"])
    return bool(equiv(g, w, {"*": "real"})), "got %s, want %s + O(...)" % (t[:120], ck["want"][:120])


def c_assoc(got, ck, res, case):
    """A gcd or lcm of polynomials (redsym5): the oracle's up to a non-zero
    constant factor (both are gcds over Q[x])."""
    g, w = p_expr(got), parse(ck["want"])
    r = sp.cancel(g / w)
    return bool(not r.free_symbols and r != 0), "got %s, want %s up to a constant" % (got, ck["want"])


def _rel_text(text):
    """SymPy reads a != b as Python's structural inequality (a bool): write
    it Ne(a, b) first."""
    if "!=" in text:
        lhs, rhs = text.split("!=", 1)
        return "Ne(%s, %s)" % (lhs, rhs)
    return text


def _holds(rel, var, v):
    """The inequality at var = v (exact): True, False (also where a side is
    non-real or undefined: no real solution there), None when SymPy cannot
    decide."""
    try:
        t = rel.subs(var, v)
        if t in (sp.true, sp.false):
            return bool(t)
        sides = [sp.N(s, 50) for s in t.args]
        if any(not s.is_number or s.has(sp.zoo, sp.nan, sp.oo, -sp.oo) or abs(sp.im(s)) > 1e-40 for s in sides):
            return False
        return bool(type(t)(*[sp.re(s) for s in sides])) if abs(sides[0] - sides[1]) > 1e-35 else None
    except (TypeError, ValueError, ZeroDivisionError):
        return False


def _in_answer(sols, var, v):
    """v in the union of the returned regions: True/False, None when a
    region cannot be decided there."""
    out = False
    for s in sols:
        try:
            t = s.subs(var, v)
        except (TypeError, ValueError):
            return None
        if t == sp.true:
            return True
        if t != sp.false:
            return None
    return out


def _bounds(e):
    """The real numbers a relation tree compares var with (its bounds)."""
    out = []
    for r in e.atoms(sp.core.relational.Relational):
        for side in r.args:
            if side.is_number and not side.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
                v = complex(sp.N(side, 30))
                if abs(v.imag) < 1e-20:
                    out.append(sp.nsimplify(side) if side.is_Rational else side)
    return out


def c_ineq_set(got, ck, res, case):
    """An inequality's solution set (redsym7): the union of the returned
    regions (relations, And/Or of them, True/False) equals the set of real
    var where the inequality as written holds with both sides real. Both
    are compared at every bound of either set (SymPy's solveset boundary,
    the answer's bounds, exactly), between consecutive bounds, beyond them
    and on a fixed grid; with parameters at several values of them."""
    var = sp.Symbol(ck["var"])
    rel0 = parse(_rel_text(ck["ineq"]))
    sols0 = []
    for t in got:
        t = str(t).strip()
        sols0.append(sp.true if t == "True" else sp.false if t == "False" else p_expr(t))
    params = [sp.Symbol(p) for p in ck.get("params", [])]
    assigns = [{}] if not params else [
        {p: v for p, v in zip(params, vals)} for vals in
        ([sp.Integer(2)] * len(params), [sp.Rational(-3, 2)] * len(params), [sp.Rational(1, 3)] * len(params),
         [sp.Integer(-1)] * len(params), [sp.Integer(3 - i) for i in range(len(params))])]
    grid = [sp.Rational(v) for v in ("-97.3", "-7.31", "-2.93", "-1.13", "-0.37", "0.23", "0.61", "1.07",
                                    "1.73", "2.51", "3.31", "5.9", "8.93", "101.1")]
    for asg in assigns:
        rel = rel0.subs(asg)
        sols = [s.subs(asg) if hasattr(s, "subs") else s for s in sols0]
        bounds = []
        for s in sols:
            bounds += _bounds(s)
        try:
            truth = oracle.timed(sp.solveset, rel, var, sp.S.Reals, secs=10)
            if truth is not None and truth.boundary.is_FiniteSet:
                bounds += [b for b in truth.boundary if b.is_real and b.is_finite]
        except Exception:  # noqa: BLE001 - the grid still judges
            pass
        vals = sorted({float(sp.N(b, 20)): b for b in bounds}.items())
        pts = [b for _, b in vals] + grid
        fl = [f for f, _ in vals]
        for lo, hi in zip(fl, fl[1:]):
            for w in (sp.Rational(1, 2), sp.Rational(1, 7), sp.Rational(6, 7)):
                pts.append(sp.Rational(lo) + (sp.Rational(hi) - sp.Rational(lo)) * w)
        if fl:
            pts += [sp.Rational(fl[0]) - d for d in (sp.Rational(1, 100), 1, 10)]
            pts += [sp.Rational(fl[-1]) + d for d in (sp.Rational(1, 100), 1, 10)]
        for v in pts:
            want = _holds(rel, var, v)
            have = _in_answer(sols, var, v)
            if want is None or have is None:
                continue
            if want != have:
                where = ", ".join("%s = %s" % kv for kv in asg.items())
                return False, "at %s = %s%s the inequality %s but the answer %s it" % (
                    var, v, " (%s)" % where if where else "", "holds" if want else "fails",
                    "includes" if have else "excludes")
    return True, ""


def c_approx_true(got, ck, res, case):
    """calc_exact's approx of an approximated value (make_heldout_redcalc5.py):
    the true value's text wherever approx_checked is true (else a wrong
    answer); where the result does not say so (approx_checked false, or a
    server without the field), approx is the double's and a mismatch only
    short."""
    if got == ck["want"]:
        return True, ""
    if res.get("approx_checked") is True:
        return False, "approx %r is not the true value's %r" % (got, ck["want"])
    return "short", "approx %r is the double's; the true value's is %r" % (got, ck["want"])


def c_nonzero_count(got, ck, res, case):
    """A system with an equation that is a condition on symbols other than
    its variables (x + y = 1 for z) is not inconsistent: count 0 is wrong
    (the case accepts a refusal)."""
    if got == 0:
        return False, "count 0 (inconsistent) for a system that has solutions where its condition holds"
    return True, ""


def c_bool_or_open(got, ck, res, case):
    """A relation between constants: True/False as the numbers say; left
    unevaluated (the relation printed back) is short."""
    t = str(got).strip()
    if t in ("True", "False"):
        return t == ck["want"], "%s where the relation is %s" % (t, ck["want"])
    return "short", "left unevaluated: %s (it is %s)" % (t, ck["want"])


CMP = {n[2:]: f for n, f in globals().items() if n.startswith("c_")}


def judge(case, res):
    """(category, [details])."""
    checks = case["checks"]
    refusal_check = next((c for c in checks if c["cmp"] == "refuse"), None)
    if refusal_check:
        ok, det = c_refuse(None, refusal_check, res, case)
        if ok is True:
            return "agree", []
        return ("format" if ok == "format" else "wrong"), [det]
    if not res.get("ok"):
        if case.get("accept_refusal"):
            return "agree", []
        return "refusal", ["%s: %s" % (res.get("code"), (res.get("error") or "")[:200])]
    fails = {"wrong": [], "short": [], "format": []}
    for ck in checks:
        got = get(res, ck["at"])
        if got is MISSING and ck["cmp"] not in ("null", "present", "num12", "holds_for"):
            fails["format" if ck["sev"] == "format" else "short"].append("%s missing" % ck["at"])
            continue
        try:
            ok, det = CMP[ck["cmp"]](got, ck, res, case)
        except Judged as ex:
            fails["format"].append("%s: %s" % (ck["at"], ex))
            continue
        except Exception as ex:  # noqa: BLE001 - an oracle failure is reported, not hidden
            fails["format"].append("%s: oracle error %s: %s" % (ck["at"], type(ex).__name__, ex))
            continue
        if ok is True:
            continue
        sev = ck["sev"] if ok is False else ok
        fails[sev].append("%s: %s" % (ck["at"], det))
    if fails["wrong"]:
        if res.get("domain_note") and all(f.startswith(("expression", "simplified", "factored", "expanded",
                                                         "original")) for f in fails["wrong"]):
            return "caveat", fails["wrong"]
        return "wrong", fails["wrong"]
    if fails["short"]:
        return "short", fails["short"]
    if fails["format"]:
        return "format", fails["format"]
    return "agree", []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("-v", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--only")
    ap.add_argument("--md", action="store_true")
    ap.add_argument("--corpus", default=os.path.join(HERE, "corpus.json"))
    ap.add_argument("--known", default=os.path.join(HERE, "known.json"),
                    help="disagreements explained so far ('' for none: a held-out set)")
    ap.add_argument("--report-only", action="store_true",
                    help="fail only on a confident wrong answer (for a held-out set)")
    args = ap.parse_args()
    corpus = json.load(open(args.corpus, encoding="utf-8"))
    known = json.load(open(args.known, encoding="utf-8")) if args.known else {}
    cases = [c for c in corpus["cases"] if not args.only or c["tool"] == args.only or c["id"] == args.only]
    srv = Server(args.bin)
    out, t0 = [], time.perf_counter()
    try:
        for case in cases:
            res = srv.call(case["tool"], case["args"])
            cat, det = judge(case, res)
            out.append({"id": case["id"], "tool": case["tool"], "cat": case["cat"], "category": cat,
                        "details": det, "args": case["args"], "why": case.get("why"),
                        "result": {k: v for k, v in res.items() if k != "contract_version"}})
    finally:
        srv.close()
    dt = time.perf_counter() - t0
    report(out, known, dt, args)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1, ensure_ascii=False)
    if args.md:
        write_md(out, known, len(corpus["cases"]))
    agree = sum(1 for r in out if r["category"] == "agree")
    # a confident wrong answer is never excused by known.json
    unexpected = [r for r in out if r["category"] == "wrong" or (r["category"] != "agree" and
                  known.get(r["id"], {}).get("category") != r["category"])]
    rate = agree / max(1, len(out))
    if args.report_only:
        unexpected = [r for r in unexpected if r["category"] == "wrong"]
    ok = not unexpected and (args.only or args.report_only or rate >= THRESHOLD)
    if unexpected:
        print("crosscheck-independent: %d disagreement(s) not in known.json:" % len(unexpected))
        for r in unexpected:
            print("  %s [%s] %s %s -> %s" % (r["id"], r["category"], r["tool"], json.dumps(r["args"])[:100],
                                              "; ".join(r["details"])[:300]))
    fixed = [i for i in known if i not in {r["id"] for r in out if r["category"] != "agree"}
             and any(r["id"] == i for r in out)]
    if fixed:
        print("crosscheck-independent: now agreeing, drop from known.json: %s" % ", ".join(fixed))
    print("crosscheck-independent: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


def report(out, known, dt, args):
    from collections import Counter
    cats = Counter(r["category"] for r in out)
    agree = cats.get("agree", 0)
    print("crosscheck-independent: %d cases in %.1fs; agreement %d/%d = %.1f%%; confident wrong answers: %d" % (
        len(out), dt, agree, len(out), 100.0 * agree / max(1, len(out)), cats.get("wrong", 0)))
    print("  by category: " + ", ".join("%s %d" % kv for kv in sorted(cats.items())))
    by_tool = {}
    for r in out:
        t = by_tool.setdefault(r["tool"], [0, 0])
        t[0] += r["category"] == "agree"
        t[1] += 1
    print("  by tool: " + ", ".join("%s %d/%d" % (k, v[0], v[1]) for k, v in sorted(by_tool.items())))
    for r in out:
        if r["category"] != "agree" and (args.v or r["category"] == "wrong"):
            print("  [%s] %s %s %s\n      -> %s" % (r["category"], r["id"], r["tool"], json.dumps(r["args"])[:160],
                                                   "; ".join(r["details"])[:400]))


def write_md(out, known, total):
    agree = sum(1 for r in out if r["category"] == "agree")
    lines = ["# Independent cross-check: disagreements", "",
             "Generated by `python3 tests/crosscheck/independent/run.py --bin build/bin/codecalc --md`",
             "from this run and the reasons in `known.json`. Agreement: %d/%d = %.1f%%." % (
                 agree, total, 100.0 * agree / max(1, total)), ""]
    for cat, title in (("wrong", "Confident wrong answers"), ("refusal", "Refusals where an answer exists"),
                       ("short", "Answers that stop short"), ("caveat", "Real-only rewrites, caveated"),
                       ("format", "Representation only")):
        rows = [r for r in out if r["category"] == cat]
        lines.append("## %s (%d)" % (title, len(rows)))
        lines.append("")
        for r in rows:
            reason = known.get(r["id"], {}).get("reason", "(not yet explained)")
            lines.append("* `%s` %s `%s`: %s. %s" % (r["id"], r["tool"], json.dumps(r["args"], ensure_ascii=False)[:140],
                                                    "; ".join(r["details"])[:240], reason))
        lines.append("")
    path = os.path.join(HERE, "disagreements.md")
    kept = ""
    if os.path.exists(path):  # the report-only corpora's sections, written by hand, stay
        old = open(path, encoding="utf-8").read()
        if KEPT_MARK in old:
            kept = old[old.index(KEPT_MARK):]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
        if kept:
            f.write("\n" + kept)


KEPT_MARK = "<!-- kept by run.py --md: the report-only corpora below -->"


if __name__ == "__main__":
    sys.exit(main())
