#!/usr/bin/env python3
"""Builds generated-redsym16.json (ids rs16-): random SMT-LIB2 scripts
through z3_check, each decided by brute force over a bounded domain the
script itself states, none picked by looking at codecalc's (or z3's)
answer. A sat answer's model is substituted by run.py's own evaluator
(smt_eval.py); the verdict must be the enumeration's.

Classes (cat prefix rs16/):
  intbox   two or three Int variables, each bounded to a small box by the
           script, and random constraints over them: + - *, div and mod
           by non-zero constants of either sign (SMT-LIB's Euclidean
           division, written here from the standard, not from smt_eval),
           abs, ite, and the Boolean connectives: sat iff the enumeration
           finds a point
  frames   push and pop of one or two scopes between asserts, and two to
           four (check-sat): each check's answer (checks[k]) for the
           assertions in scope at its place, by enumeration
  bv       one or two bit-vectors of width 4, 6 or 8 and random
           constraints over every bit-vector operation of the standard
           (the signed divisions and shifts, division by zero as defined,
           signed and unsigned comparisons, extract and concat): the
           enumeration of every value decides
  bigint   linear equations with constants far past 2**64: sat with the
           one exact solution, or unsat by divisibility or parity
  pigeon   n distinct Int variables in m values: sat iff n <= m
  realeq   a Real variable times a constant equal to a rational (the
           exact model), a square equal to a negative number (unsat)

Usage: python3 make_generated_redsym16.py [--seed N] [--out NAME]
The default seed (20261206) builds the corpus `make check` runs
(report-only); another seed builds a fresh batch.
"""
import itertools
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_corpus as mc  # noqa: E402  (the helpers; its own cases are dropped)
from make_corpus import case, chk  # noqa: E402
from oracle import start_generator, run_generator  # noqa: E402

start_generator(mc)


def z3case(smt, sat, cat_why):
    checks = [chk("result", "smt_verdict", "sat" if sat else "unsat")]
    if sat:
        checks.append(chk("model", "smt_model", smt))
    case("z3_check", {"smt2": smt}, *checks, cat="z3_check", why=cat_why)


def ilit(v):
    return str(v) if v >= 0 else "(- %d)" % -v


# ---- Int terms: (SMT text, python function of the environment) ----------------------------------

def euclid(a, b):
    """SMT-LIB Ints: a = b*q + r with 0 <= r < |b|."""
    r = a % abs(b)
    return (a - r) // b, r


def int_term(R, vs, depth):
    if depth == 0 or R.random() < 0.25:
        if R.random() < 0.7:
            v = R.choice(vs)
            return v, (lambda e, v=v: e[v])
        c = R.randint(-7, 7)
        return ilit(c), (lambda e, c=c: c)
    op = R.choice(["+", "-", "*", "div", "mod", "abs", "neg", "ite", "+", "*"])
    if op in ("div", "mod"):
        a, fa = int_term(R, vs, depth - 1)
        c = R.choice([-5, -3, -2, 2, 3, 4, 7])
        k = 0 if op == "div" else 1
        return "(%s %s %s)" % (op, a, ilit(c)), (lambda e, fa=fa, c=c, k=k: euclid(fa(e), c)[k])
    if op == "abs":
        a, fa = int_term(R, vs, depth - 1)
        return "(abs %s)" % a, (lambda e, fa=fa: abs(fa(e)))
    if op == "neg":
        a, fa = int_term(R, vs, depth - 1)
        return "(- %s)" % a, (lambda e, fa=fa: -fa(e))
    if op == "ite":
        p, fp = int_pred(R, vs, depth - 1)
        a, fa = int_term(R, vs, depth - 1)
        b, fb = int_term(R, vs, depth - 1)
        return "(ite %s %s %s)" % (p, a, b), (lambda e, fp=fp, fa=fa, fb=fb: fa(e) if fp(e) else fb(e))
    a, fa = int_term(R, vs, depth - 1)
    b, fb = int_term(R, vs, depth - 1)
    fn = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y}[op]
    return "(%s %s %s)" % (op, a, b), (lambda e, fa=fa, fb=fb, fn=fn: fn(fa(e), fb(e)))


CMP = {"<": lambda x, y: x < y, "<=": lambda x, y: x <= y, ">": lambda x, y: x > y,
       ">=": lambda x, y: x >= y, "=": lambda x, y: x == y, "distinct": lambda x, y: x != y}


def connective(R, sub, depth):
    op = R.choice(["and", "or", "not", "=>", "xor"])
    if op == "not":
        p, fp = sub(depth - 1)
        return "(not %s)" % p, (lambda e, fp=fp: not fp(e))
    p, fp = sub(depth - 1)
    q, fq = sub(depth - 1)
    fn = {"and": lambda x, y: x and y, "or": lambda x, y: x or y, "=>": lambda x, y: (not x) or y,
          "xor": lambda x, y: x != y}[op]
    return "(%s %s %s)" % (op, p, q), (lambda e, fp=fp, fq=fq, fn=fn: fn(fp(e), fq(e)))


def int_pred(R, vs, depth):
    if depth > 0 and R.random() < 0.3:
        return connective(R, lambda d: int_pred(R, vs, d), depth)
    op = R.choice(list(CMP))
    a, fa = int_term(R, vs, max(depth, 1))
    b, fb = int_term(R, vs, max(depth - 1, 0))
    fn = CMP[op]
    return "(%s %s %s)" % (op, a, b), (lambda e, fa=fa, fb=fb, fn=fn: fn(fa(e), fb(e)))


def enumerate_sat(names, domains, preds):
    for pt in itertools.product(*domains):
        e = dict(zip(names, pt))
        if all(f(e) for f in preds):
            return True
    return False


def intbox(R):
    n = R.choice([2, 2, 3])
    vs = ["x", "y", "z"][:n]
    boxes = []
    for _ in vs:
        lo = R.randint(-6, 0)
        boxes.append((lo, lo + R.randint(2, 8)))
    preds = [int_pred(R, vs, R.randint(1, 3)) for _ in range(R.randint(1, 3))]
    text = "".join("(declare-const %s Int)" % v for v in vs)
    text += "".join("(assert (and (<= %s %s) (<= %s %s)))" % (ilit(lo), v, v, ilit(hi))
                    for v, (lo, hi) in zip(vs, boxes))
    text += "".join("(assert %s)" % p for p, _ in preds) + "(check-sat)"
    sat = enumerate_sat(vs, [range(lo, hi + 1) for lo, hi in boxes], [f for _, f in preds])
    z3case(text, sat, "brute force over the box")


def frames(R):
    """push/pop scopes and several (check-sat): each check is answered for
    the assertions in scope at its place, checked by enumeration; its model
    by smt_eval on the script up to that check."""
    vs = ["x", "y"]
    lo = R.randint(-4, 0)
    hi = lo + R.randint(3, 6)
    text = "".join("(declare-const %s Int)" % v for v in vs)
    text += "".join("(assert (and (<= %s %s) (<= %s %s)))" % (ilit(lo), v, v, ilit(hi)) for v in vs)
    stack, checks, n_checks = [[]], [], R.randint(2, 4)
    while len(checks) < n_checks:
        k = R.random()
        if k < 0.25:
            n = R.choice([1, 1, 2])
            text += "(push %d)" % n
            stack.extend([] for _ in range(n))
        elif k < 0.4 and len(stack) > 1:
            n = R.randint(1, len(stack) - 1)
            text += "(pop %d)" % n
            del stack[len(stack) - n:]
        elif k < 0.75:
            p, f = int_pred(R, vs, R.randint(1, 2))
            text += "(assert %s)" % p
            stack[-1].append(f)
        else:
            text += "(check-sat)"
            live = [f for frame in stack for f in frame]
            checks.append((enumerate_sat(vs, [range(lo, hi + 1)] * 2, live), text))
    out = []
    for i, (sat, upto) in enumerate(checks):
        out.append(chk("checks.%d.result" % i, "smt_verdict", "sat" if sat else "unsat"))
        if sat:
            out.append(chk("checks.%d.model" % i, "smt_model", upto))
    case("z3_check", {"smt2": text}, *out, cat="z3_check", why="each check by enumeration of its scope")


# ---- bit-vectors --------------------------------------------------------------------------------

def signed(v, w):
    return v - (1 << w) if v >> (w - 1) else v


def bv_udiv(s, t, w):
    return s // t if t else (1 << w) - 1


def bv_urem(s, t, w):
    return s % t if t else s


def bv_sdiv(s, t, w):
    m = 1 << w
    ns, nt = s >> (w - 1), t >> (w - 1)
    a, b = (-s) % m if ns else s, (-t) % m if nt else t
    q = bv_udiv(a, b, w)
    return (-q) % m if ns != nt else q


def bv_srem(s, t, w):
    m = 1 << w
    ns, nt = s >> (w - 1), t >> (w - 1)
    a, b = (-s) % m if ns else s, (-t) % m if nt else t
    r = bv_urem(a, b, w)
    return (-r) % m if ns else r


def bv_smod(s, t, w):
    m = 1 << w
    ns, nt = s >> (w - 1), t >> (w - 1)
    a, b = (-s) % m if ns else s, (-t) % m if nt else t
    u = bv_urem(a, b, w)
    if u == 0 or (not ns and not nt):
        return u
    if ns and not nt:
        return (-u + t) % m
    if not ns and nt:
        return (u + t) % m
    return (-u) % m


BV2 = {
    "bvadd": lambda s, t, w: (s + t) % (1 << w),
    "bvsub": lambda s, t, w: (s - t) % (1 << w),
    "bvmul": lambda s, t, w: (s * t) % (1 << w),
    "bvand": lambda s, t, w: s & t,
    "bvor": lambda s, t, w: s | t,
    "bvxor": lambda s, t, w: s ^ t,
    "bvudiv": bv_udiv, "bvurem": bv_urem, "bvsdiv": bv_sdiv, "bvsrem": bv_srem, "bvsmod": bv_smod,
    "bvshl": lambda s, t, w: (s << t) % (1 << w) if t < w else 0,
    "bvlshr": lambda s, t, w: s >> t if t < w else 0,
    "bvashr": lambda s, t, w: (signed(s, w) >> min(t, w)) % (1 << w),
}
BVCMP = {
    "bvult": lambda s, t, w: s < t, "bvule": lambda s, t, w: s <= t,
    "bvugt": lambda s, t, w: s > t, "bvuge": lambda s, t, w: s >= t,
    "bvslt": lambda s, t, w: signed(s, w) < signed(t, w), "bvsle": lambda s, t, w: signed(s, w) <= signed(t, w),
    "bvsgt": lambda s, t, w: signed(s, w) > signed(t, w), "bvsge": lambda s, t, w: signed(s, w) >= signed(t, w),
    "=": lambda s, t, w: s == t, "distinct": lambda s, t, w: s != t,
}


def bvlit(R, v, w):
    k = R.random()
    if w % 4 == 0 and k < 0.4:
        return "#x%0*x" % (w // 4, v)
    if k < 0.7:
        return "#b" + format(v, "0%db" % w)
    return "(_ bv%d %d)" % (v, w)


def bv_term(R, vs, w, depth):
    if depth == 0 or R.random() < 0.25:
        if R.random() < 0.6:
            v = R.choice(vs)
            return v, (lambda e, v=v: e[v])
        c = R.choice([0, 1, (1 << w) - 1, 1 << (w - 1), R.randrange(1 << w), R.randrange(w + 2)])
        return bvlit(R, c, w), (lambda e, c=c: c)
    k = R.random()
    if k < 0.12:
        op = R.choice(["bvnot", "bvneg"])
        a, fa = bv_term(R, vs, w, depth - 1)
        fn = (lambda x: ~x % (1 << w)) if op == "bvnot" else (lambda x: -x % (1 << w))
        return "(%s %s)" % (op, a), (lambda e, fa=fa, fn=fn: fn(fa(e)))
    if k < 0.2 and w >= 4:
        # ((_ extract hi lo) a) zero-extended back to w by concat with zeros.
        a, fa = bv_term(R, vs, w, depth - 1)
        lo = R.randrange(w - 1)
        hi = R.randrange(lo, w)
        width = hi - lo + 1
        ext = "((_ extract %d %d) %s)" % (hi, lo, a)
        fx = (lambda e, fa=fa, lo=lo, width=width: (fa(e) >> lo) & ((1 << width) - 1))
        if width == w:
            return ext, fx
        return "(concat (_ bv0 %d) %s)" % (w - width, ext), fx
    op = R.choice(list(BV2))
    a, fa = bv_term(R, vs, w, depth - 1)
    b, fb = bv_term(R, vs, w, depth - 1)
    fn = BV2[op]
    return "(%s %s %s)" % (op, a, b), (lambda e, fa=fa, fb=fb, fn=fn: fn(fa(e), fb(e), w))


def bv_pred(R, vs, w, depth):
    if depth > 0 and R.random() < 0.25:
        return connective(R, lambda d: bv_pred(R, vs, w, d), depth)
    op = R.choice(list(BVCMP))
    a, fa = bv_term(R, vs, w, max(depth, 1))
    b, fb = bv_term(R, vs, w, max(depth - 1, 0))
    fn = BVCMP[op]
    return "(%s %s %s)" % (op, a, b), (lambda e, fa=fa, fb=fb, fn=fn: fn(fa(e), fb(e), w))


def bv(R):
    w = R.choice([4, 6, 8, 8])
    vs = ["a", "b"][:R.choice([1, 2, 2])]
    preds = [bv_pred(R, vs, w, R.randint(1, 3)) for _ in range(R.randint(1, 3))]
    text = "".join("(declare-const %s (_ BitVec %d))" % (v, w) for v in vs)
    text += "".join("(assert %s)" % p for p, _ in preds) + "(check-sat)"
    sat = enumerate_sat(vs, [range(1 << w)] * len(vs), [f for _, f in preds])
    z3case(text, sat, "every value of width %d enumerated" % w)


# ---- big integers, distinctness, reals ----------------------------------------------------------

def bigint(R):
    kind = R.choice(["mul", "mul", "pair"])
    if kind == "mul":
        c = R.randint(2, 1 << R.randint(8, 40))
        k = R.randint(1 << 60, 1 << 100) * R.choice([1, -1])
        rem = 0 if R.random() < 0.6 else R.randint(1, c - 1)
        text = "(declare-const x Int)(assert (= (* %s x) %s))(check-sat)" % (ilit(c), ilit(c * k + rem))
        z3case(text, rem == 0, "c*x = c*k + r: integral iff r = 0")
        return
    s = R.randint(1 << 64, 1 << 90) * R.choice([1, -1])
    d = R.randint(1 << 64, 1 << 90) * R.choice([1, -1])
    if R.random() < 0.5:
        d += (s - d) % 2  # same parity: x = (s + d)/2, y = (s - d)/2
    text = ("(declare-const x Int)(declare-const y Int)(assert (= (+ x y) %s))(assert (= (- x y) %s))"
            "(check-sat)" % (ilit(s), ilit(d)))
    z3case(text, (s - d) % 2 == 0, "x + y = s, x - y = d: integral iff s, d of one parity")


def pigeon(R):
    n = R.randint(2, 7)
    m = R.choice([n - 1, n, n + 1]) if n > 2 else n
    vs = ["p%d" % i for i in range(n)]
    lo = R.randint(-3, 3)
    text = "".join("(declare-const %s Int)" % v for v in vs)
    text += "".join("(assert (and (>= %s %s) (< %s %s)))" % (v, ilit(lo), v, ilit(lo + m)) for v in vs)
    text += "(assert (distinct %s))(check-sat)" % " ".join(vs)
    z3case(text, n <= m, "%d distinct values among %d" % (n, m))


def realeq(R):
    if R.random() < 0.6:
        c = R.randint(1, 10 ** R.randint(1, 25)) * R.choice([1, -1])
        p = R.randint(-10 ** 20, 10 ** 20)
        q = R.randint(1, 10 ** 12)
        text = ("(declare-const x Real)(assert (= (* %s x) (/ %s %d)))(check-sat)"
                % (ilit(c), ilit(p), q))
        z3case(text, True, "x = p/(q*c), exact")
        return
    c = R.randint(1, 10 ** 6)
    a = R.randint(-5, 5)
    text = ("(declare-const x Real)(assert (= (+ (* x x) %d) (- %s %d)))(check-sat)"
            % (c, ilit(a), 0)) if a < 0 else \
        "(declare-const x Real)(assert (< (* x x) (- %d)))(check-sat)" % c
    z3case(text, False, "a square is never negative")


if __name__ == "__main__":
    run_generator(mc, 16, 20261206, classes=[
        (intbox, 60, "intbox"), (frames, 20, "frames"), (bv, 50, "bv"), (bigint, 20, "bigint"), (pigeon, 12, "pigeon"),
        (realeq, 12, "realeq")])
