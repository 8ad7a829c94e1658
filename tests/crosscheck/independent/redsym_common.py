"""What the red-team generators (make_generated_redsym*.py) share besides
oracle.py's start and main: the template filler, the sampled truth of an
identity over a domain, the per-class timing wrapper and the oracle for a
system's solutions. Moved here from make_generated_redsym7/8/9.py, which
each carried a copy, when redsym10's generator was written (redsym11).
"""
import random
import sys

import mpmath
import sympy as sp

from oracle import parse, timed
from oracle import show as s


def fill(R, t):
    return t.replace("P", str(R.randint(2, 4))).replace("Q", str(R.randint(1, 3)))


# ---- truth by sampling -------------------------------------------------------------------------

def sample(kind, rng):
    """A point of the domain; integers and halves among them, where floor,
    ceiling and the branch cuts of real-only rewrites change."""
    if kind == "integer":
        return mpmath.mpf(rng.randint(-6, 6))
    if kind != "complex" and rng.random() < 0.3:
        v = mpmath.mpf(rng.randint(0 if kind != "real" else -8, 8)) / rng.choice([1, 2])
        if kind != "positive" or v > 0:
            return v
    if kind == "positive":
        return mpmath.mpf(rng.choice([rng.uniform(0.01, 1), rng.uniform(1, 20)]))
    if kind == "nonnegative":
        return mpmath.mpf(0) if rng.random() < 0.15 else mpmath.mpf(rng.uniform(0.01, 20))
    if kind == "real":
        return mpmath.mpf(rng.uniform(-20, 20))
    if rng.random() < 0.3:  # near 0, where 1/x and the like leave the principal strips
        return mpmath.mpc(rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4))
    return mpmath.mpc(rng.uniform(-6, 6), rng.uniform(-6, 6))


def sampled_truth(a, b, dom, seed, count=40):
    """True when a == b at count random points of the domain (each symbol's
    kind in dom, complex otherwise) where both evaluate; False at the first
    clear mismatch; None when too few points evaluate."""
    ea, eb = parse(a), parse(b)
    syms = sorted(ea.free_symbols | eb.free_symbols, key=str)
    fa = sp.lambdify(syms, ea, "mpmath")
    fb = sp.lambdify(syms, eb, "mpmath")
    rng = random.Random(seed)
    good = 0
    with mpmath.workdps(30):
        for _ in range(count * 3):
            pt = [sample(dom.get(str(v), "complex"), rng) for v in syms]
            try:
                va, vb = mpmath.mpc(fa(*pt)), mpmath.mpc(fb(*pt))
            except (ZeroDivisionError, ValueError, TypeError, OverflowError):
                continue
            if not all(mpmath.isfinite(t) for t in (va.real, va.imag, vb.real, vb.imag)):
                continue
            if abs(va - vb) > mpmath.mpf(10) ** -18 * max(1, abs(va), abs(vb)):
                if abs(va - vb) > mpmath.mpf(10) ** -8 * max(1, abs(va), abs(vb)):
                    return False
                return None  # too close to call at this precision
            good += 1
            if good >= count:
                return True
    return None if good < 10 else True


def traced(fn):
    """fn with a line on stderr per call (the slow oracles show)."""
    import time

    def run(R, used):
        t = time.time()
        fn(R, used)
        sys.stderr.write("%s %.1fs\n" % (fn.__name__, time.time() - t))
    run.__name__ = fn.__name__
    return run


def system_solutions(eqs_text, names, secs=20, trust_empty=True):
    """SymPy's solutions of the system eqs_text ("lhs = rhs; ...") in the
    symbols names, as {name: printed value} dicts, keeping those that
    satisfy every equation at 40 digits (a value SymPy cannot evaluate is
    dropped); None when SymPy gives up within secs of CPU, or (trust_empty
    false) when it finds none while the Groebner basis of the equations is
    not [1] (SymPy's solve answers [] for x**5 - x + y = 1; y = 0)."""
    eqs = [sp.Eq(parse(l), parse(r)) for l, r in (p.split("=") for p in eqs_text.split(";"))]
    syms = [sp.Symbol(v) for v in names]
    sols = timed(sp.solve, eqs, syms, dict=True, secs=secs)
    if sols is None:
        return None
    # other symbols are parameters: the check is made at a fixed complex
    # value of each (none in redsym7/8's systems)
    params = {v: sp.Rational(7, 5) + sp.Rational(3, 7) * i * sp.I
              for i, v in enumerate(sorted(set().union(*[q.free_symbols for q in eqs]) - set(syms), key=str), 1)}
    if not sols and not trust_empty:
        basis = timed(sp.groebner, [q.lhs - q.rhs for q in eqs], *syms, secs=secs)
        if basis is None or list(basis.exprs) != [1]:
            return None
    good = []
    for so in sols:
        okk = len(so) == len(syms)
        for q in eqs:
            try:
                okk = okk and abs(complex(sp.N((q.lhs - q.rhs).subs(so).subs(params), 40))) <= 1e-25
            except (TypeError, ValueError):
                okk = False
        if okk:
            good.append({str(k): s(v) for k, v in so.items()})
    return good
