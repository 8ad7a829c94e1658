"""Independent oracles for the second cross-check corpus.

Nothing here calls codecalc or reuses its code: values are recomputed with
Python's fractions/decimal/struct/datetime, mpmath and SymPy, and symbolic
answers are compared by VALUE (numerically at complex, negative and positive
points, 40 digits), never by their printed shape.
"""
import argparse
import math
import random
import signal
import sys
from fractions import Fraction

import mpmath
import sympy as sp
from sympy.parsing.sympy_parser import (parse_expr, standard_transformations,
                                        convert_xor)

mpmath.mp.dps = 40

NAMES = "x y z a b c n k m t u v w p q r s".split()


def symbols_for(text):
    """A local dict giving every plain name a symbol, except the functions
    and constants SymPy knows (so 'gamma' stays the Gamma function)."""
    d = {}
    for nm in NAMES:
        d[nm] = sp.Symbol(nm)
    return d


# The symbols the generators share (SymPy caches symbols by name, so these
# are the very objects parse() builds).
x, y, z, a, b, c, n, k = sp.symbols("x y z a b c n k")


def show(e):
    """A SymPy value as the generators write it into a corpus."""
    return sp.sstr(e, order=None)


def start_generator(mc):
    """A generator's common start: make_corpus's own cases dropped (only
    its helpers are wanted), mpmath at 30 digits."""
    del mc.CASES[:]
    mpmath.mp.dps = 30


def tag_cases(mc, start, prefix, cat):
    """Marks the cases added since index start as class cat of a round."""
    for cs in mc.CASES[start:]:
        cs["cat"] = "%s/%s" % (prefix, cat)


def run_generator(mc, rnd, seed, classes=(), used_classes=(), build=None):
    """The red-team generators' common main: reads --seed/--out, runs each
    (fn, count, cat) of classes count times as fn(R) and each of
    used_classes as fn(R, used) with one `used` set per class (the cases
    tagged rs<rnd>/cat), or build(R) instead when given (a generator that
    tags its own cases), then numbers the cases rs<rnd>-<seed%1000>-<tool>-NNN
    and writes generated-redsym<rnd>.json (or --out) beside make_corpus.py."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=seed)
    ap.add_argument("--out", default="generated-redsym%d.json" % rnd)
    args = ap.parse_args()
    R = random.Random(args.seed)
    prefix = "rs%d" % rnd
    if build is not None:
        build(R)
    for fn, count, cat in classes:
        start = len(mc.CASES)
        for _ in range(count):
            fn(R)
        tag_cases(mc, start, prefix, cat)
    for fn, count, cat in used_classes:
        start = len(mc.CASES)
        used = set()
        for _ in range(count):
            fn(R, used)
        tag_cases(mc, start, prefix, cat)
    for i, cs in enumerate(mc.CASES):
        cs["id"] = "%s-%d-%s-%03d" % (prefix, args.seed % 1000, cs["tool"], i + 1)
        cs["batch"] = "redsym%d" % rnd
    mc.write_cases(args.out, "redsym%d: generated symbolic cases by class (seed %d); built by "
                   "make_generated_redsym%d.py" % (rnd, args.seed, rnd))


def limit_case(mc, text, point, cat, why=None):
    """A limit_expression case (mc.lim) from limit_oracle, kept only with
    the numbers confirming it: at +-oo the one side there is; at a finite
    point the right limit, the left and the two-sided one (the shared value,
    else "does not exist"). SymPy's limit gets 30 s of CPU per side. The
    red-team rounds' limit classes (redsym5's squeeze, redsym6's squeezeq
    and tower) share it."""
    e, p = parse(text), parse(point)

    def one(d):
        return timed(limit_oracle, e, p, d, show, [mpmath.mpf(10) ** 3, mpmath.mpf(10) ** 5], mpmath.mpf(10) ** -12,
                     tol_inf=1e-2, tol_fin=1e-4, confirm=True,
                     limit=lambda *aa, **kw: timed(sp.limit, *aa, **kw), secs=30)
    if point in ("oo", "-oo"):
        v = one("-" if point == "oo" else "+")
        if v is not None:
            mc.lim(text, v, point, cat=cat, why=why)
        return
    right = one("+")
    if right is None:
        return
    left = one("-")
    two = None
    if left is not None:
        two = right if left == right and right != "does not exist" else "does not exist"
    mc.lim(text, right, point, left=left, two=two, cat=cat, why=why)


class Slow(BaseException):
    pass


def _alarm(signum, frame):
    raise Slow()


def timed(fn, *args, secs=6, **kw):
    """fn(*args) or None when the oracle takes longer than secs of CPU time
    (SymPy's integrate and limit can run for minutes on a case it then
    declines). CPU time, not wall time: on a loaded machine a wall-clock
    alarm dropped cases, and a corpus regenerated there differed from the
    committed one (generated-redsym2.json lost a case at load 11)."""
    signal.signal(signal.SIGVTALRM, _alarm)
    signal.setitimer(signal.ITIMER_VIRTUAL, secs)
    try:
        return fn(*args, **kw)
    except Slow:
        print("oracle timeout: %s%s" % (getattr(fn, "__name__", fn), str(args)[:100]), file=sys.stderr)
        return None
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)


_T = standard_transformations + (convert_xor,)


def parse(text):
    """Parse a printed answer (codecalc's or ours) into SymPy."""
    t = text.strip()
    loc = symbols_for(t)
    loc.update({"E": sp.E, "I": sp.I, "oo": sp.oo, "zoo": sp.zoo, "nan": sp.nan,
                "pi": sp.pi, "Abs": sp.Abs, "LambertW": sp.LambertW,
                "Heaviside": sp.Heaviside, "DiracDelta": sp.DiracDelta,
                "ln": sp.log, "abs": sp.Abs, "erf": sp.erf, "erfc": sp.erfc,
                "Ei": sp.Ei, "Si": sp.Si, "Ci": sp.Ci, "zeta": sp.zeta,
                "gamma": sp.gamma, "digamma": sp.digamma,
                "polygamma": sp.polygamma, "sign": sp.sign, "floor": sp.floor,
                "ceiling": sp.ceiling, "AccumBounds": sp.AccumBounds,
                "besselj": sp.besselj, "bessely": sp.bessely,
                "besseli": sp.besseli, "besselk": sp.besselk})
    return parse_expr(t, local_dict=loc, transformations=_T, evaluate=True)


# ---- numeric equivalence ----------------------------------------------------

# Points chosen to expose branch-cut "identities": negative reals, values
# with |Im| > pi (exp/log round trips), small and large moduli.
POOL = [mpmath.mpf("-1.7"), mpmath.mpf("-0.6"), mpmath.mpf("0.8"), mpmath.mpf("2.3"),
        mpmath.mpc("1.1", "0.7"), mpmath.mpc("-0.9", "1.3"), mpmath.mpc("0.4", "-2.1"),
        mpmath.mpc("-2.2", "-0.5"), mpmath.mpc("0.3", "3.9"), mpmath.mpc("-1.2", "4.6"),
        mpmath.mpf("3.7"), mpmath.mpc("2.5", "-4.4")]
REAL_POOL = [mpmath.mpf(v) for v in ("-2.7", "-1.3", "-0.45", "0.35", "0.9", "1.6", "2.9", "4.2")]
POS_POOL = [mpmath.mpf(v) for v in ("0.15", "0.6", "1.35", "2.2", "3.1", "5.5", "7.25")]
INT_POOL = [mpmath.mpf(v) for v in (-3, -2, -1, 0, 1, 2, 3, 4, 5)]


def _pool(kind):
    return {"complex": POOL, "real": REAL_POOL, "positive": POS_POOL,
            "nonnegative": POS_POOL + [mpmath.mpf(0)], "integer": INT_POOL}[kind]


def _val(f, args):
    try:
        v = f(*args)
    except (ZeroDivisionError, ValueError, TypeError, OverflowError, NameError,
            AttributeError, RecursionError, KeyError):
        return None
    try:
        v = mpmath.mpc(v)
    except (TypeError, ValueError):
        return None
    if not (mpmath.isfinite(v.real) and mpmath.isfinite(v.imag)):
        return None
    return v


def _val_sympy(expr, syms, pt):
    subs = {s: sp.Float(str(v.real), 45) + sp.I * sp.Float(str(v.imag), 45)
            for s, v in zip(syms, (mpmath.mpc(p) for p in pt))}
    try:
        v = sp.N(expr.subs(subs), 40)
        if not v.is_number or v.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
            return None
        return mpmath.mpc(mpmath.mpf(str(sp.re(v))), mpmath.mpf(str(sp.im(v))))
    except (TypeError, ValueError, ZeroDivisionError):
        return None


def lam(expr, syms):
    return sp.lambdify(syms, expr, modules=["mpmath"])


def points(syms, domain, count, seed):
    """count assignments; domain maps a symbol name to a pool kind."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        out.append([rng.choice(_pool(domain.get(str(s), domain.get("*", "complex"))))
                    for s in syms])
    return out


# Probes tried after the random points agree (redsym10): complex values
# near 0 whose reciprocal has |Im| > pi (x = -I/4: 1/x = 4*I, where
# log(exp(1/x)) = 1/x - 2*pi*I) and values with a large imaginary part. The
# pool alone kept |Im(1/x)| < pi at every point, so log(exp(1/x)) == 1/x
# passed as an identity. Probes can only refute: the random points are
# drawn as before, so a verdict changes only where a probe disproves it.
PROBES = [mpmath.mpc("0", "-0.25"), mpmath.mpc("0.1", "0.2"), mpmath.mpc("-0.05", "-0.12"),
          mpmath.mpc("0.6", "9.5"), mpmath.mpc("-0.4", "-13")]


def probe_points(syms, domain):
    """One assignment per probe, symbol j taking PROBES[i + j]; symbols
    whose domain is not complex keep a value of their own pool."""
    out = []
    for i in range(len(PROBES)):
        pt = []
        for j, s in enumerate(syms):
            kind = domain.get(str(s), domain.get("*", "complex"))
            pool = PROBES if kind == "complex" else _pool(kind)
            pt.append(pool[(i + j) % len(pool)])
        out.append(pt)
    return out


def _differ(a, b, syms, fa, fb, pt, rel):
    """(va, vb) when a and b differ at pt (confirmed at 40 digits), None
    when they agree, "skip" when either side does not evaluate."""
    va, vb = _val(fa, pt), _val(fb, pt)
    if va is None or vb is None:
        return "skip"
    scale = max(abs(va), abs(vb), mpmath.mpf(1))
    if abs(va - vb) > rel * scale:
        # confirm with SymPy's own 40-digit evaluation: lambdify may
        # compute a constant subexpression in Python doubles (1j**1j)
        va, vb = _val_sympy(a, syms, pt), _val_sympy(b, syms, pt)
        if va is None or vb is None:
            return "skip"
        scale = max(abs(va), abs(vb), mpmath.mpf(1))
    return (va, vb) if abs(va - vb) > rel * scale else None


def _strict_gap(a, b, syms, pt, rel):
    """(va, vb) when SymPy's 40-digit evaluation, strict (every digit
    certain, else PrecisionExhausted), shows a and b apart at pt: a probe's
    large imaginary part can make a side cancel every digit (cosh(u)**2 -
    sinh(u)**2 with |u| ~ 2000 evaluates to 0 at 40, 60 or 100 digits),
    and such a gap refutes nothing."""
    vals = []
    for e in (a, b):
        subs = {s: sp.Float(str(v.real), 45) + sp.I * sp.Float(str(v.imag), 45)
                for s, v in zip(syms, (mpmath.mpc(p) for p in pt))}
        try:
            v = sp.N(e.subs(subs), 40, strict=True)
            if not v.is_number or v.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
                return None
            vals.append(mpmath.mpc(mpmath.mpf(str(sp.re(v))), mpmath.mpf(str(sp.im(v)))))
        except Exception:  # noqa: BLE001 - uncertain digits: no refutation
            return None
    va, vb = vals
    # and SymPy's strict evaluation of y*exp(u)*exp(u) - 2*y*exp(u)*sinh(u)
    # - y over 2*y*exp(u) (u ~ -88 + 30i, terms near 1e38 that cancel)
    # claimed digits that were off in the seventh (redsym6, seed 31337):
    # a gap must also show in mpmath at 250 digits
    with mpmath.workdps(250):
        fa, fb = lam(a, syms), lam(b, syms)
        pt250 = [mpmath.mpc(p) for p in pt]
        ha, hb = _val(fa, pt250), _val(fb, pt250)
        if ha is not None and hb is not None and \
                abs(ha - hb) <= rel * max(abs(ha), abs(hb), mpmath.mpf(1)):
            return None
    # SymPy's strict evaluation still claimed -1.3e4742 for sin(2*w) -
    # 2*sin(w)*cos(w) with |w| ~ 4e5 (x = 0.6 + 9.5*I in sin(x)): a value
    # that large at a probe is no evidence either way
    if max(abs(va), abs(vb)) > mpmath.mpf(10) ** 30:
        return None
    return (va, vb) if abs(va - vb) > rel * max(abs(va), abs(vb), mpmath.mpf(1)) else None


def _refuted(syms, pt, va, vb):
    return False, {"point": {str(s): str(v) for s, v in zip(syms, pt)},
                   "a": mpmath.nstr(va, 12), "b": mpmath.nstr(vb, 12)}


def numeq(a, b, domain=None, count=10, seed=7, rel=mpmath.mpf("1e-20"), probes=True):
    """(verdict, detail): True when equal at every point that evaluates
    (at least 3) and at every probe that evaluates, False with the first
    mismatching point, None when too few points evaluate."""
    domain = domain or {}
    syms = sorted((a.free_symbols | b.free_symbols), key=str)
    fa, fb = lam(a, syms), lam(b, syms)
    good = 0
    for pt in points(syms, domain, count * 2, seed):
        d = _differ(a, b, syms, fa, fb, pt, rel)
        if d not in ("skip", None):
            # a side that cancels more digits than 40 (sinh(u) against
            # (exp(u) - exp(-u))/2 times exp(u) at |u| ~ 50) differed by its
            # rounding: only a gap strict evaluation confirms refutes
            d = _strict_gap(a, b, syms, pt, rel)
            if d is None:
                continue
        if d == "skip":
            continue
        if d is not None:
            return _refuted(syms, pt, *d)
        good += 1
        if good >= count:
            break
    if good < (1 if not syms else 3):
        return None, {"evaluated_points": good}
    for pt in (probe_points(syms, domain) if probes and syms else []):
        d = _differ(a, b, syms, fa, fb, pt, rel)
        if d not in ("skip", None):
            d = _strict_gap(a, b, syms, pt, rel)
            if d is not None:
                return _refuted(syms, pt, *d)
    return True, {"points": good}


def special_equal(a, b):
    """Infinities, nan, AccumBounds and other atoms numeric evaluation cannot
    compare."""
    return sp.simplify(a - b) == 0 if a.free_symbols else a == b


def equiv(a, b, domain=None):
    """Best verdict on a == b as values: numeric first, SymPy when the
    numbers cannot decide."""
    if a == b:
        return True
    if isinstance(a, sp.Rational) and isinstance(b, sp.Rational):
        return False  # exact numbers: a relative tolerance would hide 10**40 - 1 vs 10**40
    specials = (sp.zoo, sp.oo, -sp.oo, sp.nan)
    if any(a.has(s) for s in specials) or any(b.has(s) for s in specials) \
            or a.has(sp.AccumBounds) or b.has(sp.AccumBounds):
        return a == b or (not a.free_symbols and not b.free_symbols and
                          sp.simplify(a - b) == 0 and not (a - b).has(sp.nan))
    v, _ = numeq(a, b, domain)
    if v is not None:
        return v
    try:
        return sp.simplify(a - b) == 0
    except Exception:  # noqa: BLE001 - oracle failure means undecided
        return None


# ---- exact helpers ------------------------------------------------------------

def frac(text):
    """A result string such as '3/10', '-7' or a JSON int into a Fraction."""
    if isinstance(text, bool):
        raise ValueError("boolean")
    if isinstance(text, int):
        return Fraction(text)
    if isinstance(text, float):
        return Fraction(text)
    return Fraction(str(text).strip())


def round_half_even(q, places):
    """Fraction q rounded half-to-even at `places` decimals, as a Fraction."""
    scale = Fraction(10) ** places
    v = q * scale
    fl = math.floor(v)
    rem = v - fl
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2 == 1):
        fl += 1
    return Fraction(fl) / scale


def f64_of(q):
    """The binary64 nearest a Fraction (Python's int/int division is
    correctly rounded)."""
    return q.numerator / q.denominator


def crf(fn, *args, prec=200):
    """fn over mpmath at high precision, correctly rounded to binary64; a
    string argument is read as the exact decimal it spells."""
    with mpmath.workprec(prec):
        v = fn(*[mpmath.mpf(a) for a in args])
    return float(v)


def limit_oracle(e, p, d, show, near_inf, h, tol_inf, tol_fin, limit=None, confirm=False):
    """SymPy's one-sided limit of e (in x) at p, as text via show(), kept
    only when mpmath at 60 digits agrees near the point; "does not exist"
    for an oscillating limit; None when the oracle declines. The sample
    points are the callers' choice: near_inf are the magnitudes tried
    towards +-oo (cos(exp(1e10)) never ends, so a batch with such terms
    uses small ones), h the offset beside a finite point. limit(e, x, p,
    dir=d) defaults to sp.limit; a caller may pass a timed one (None from
    it declines). With confirm, a "does not exist" (SymPy's AccumBounds)
    or an infinite limit is kept only when numeric_limit_confirms it."""
    x = sp.Symbol("x")
    try:
        v = (limit or sp.limit)(e, x, p, dir=d)
    except Exception:  # noqa: BLE001 - the oracle declines
        return None
    if v is None:
        return None
    if v.has(sp.AccumBounds):
        if confirm and not numeric_limit_confirms(e, p, d, "does not exist"):
            return None
        return "does not exist"
    if confirm and v in (sp.oo, -sp.oo) and not numeric_limit_confirms(e, p, d, v):
        return None
    if v.has(sp.Limit) or v.has(sp.nan):
        return None
    if v.is_finite and not v.free_symbols and not _agrees_near(e, x, p, d, v, near_inf, h, tol_inf, tol_fin):
        return None
    return show(v)


def _windows(p, d):
    """Two windows of sample points approaching p from side d, the second
    much nearer (or, at +-oo, much farther): each a dense run (steps far
    below any period) and a geometric run (a factor of 6.5 across, for
    slow oscillations such as sin(log(x)))."""
    out = []
    for k in (6, 12):
        if p in (sp.oo, -sp.oo):
            sgn = 1 if p == sp.oo else -1
            t0 = mpmath.mpf(10) ** k
            pts = [t0 + j * mpmath.mpf("0.37") for j in range(30)] + \
                  [t0 * (1 + j * mpmath.mpf("0.137")) for j in range(40)]
            out.append([sgn * t for t in pts])
        else:
            sgn = 1 if d == "+" else -1
            h0 = mpmath.mpf(10) ** -k
            c = mpmath.mpf(sp.N(p, 80))
            pts = [h0 / (1 + j * mpmath.mpf("0.0137")) for j in range(30)] + \
                  [h0 / (1 + j * mpmath.mpf("0.137")) for j in range(40)]
            out.append([c + sgn * t for t in pts])
    return out


def _signed_growth(near, far):
    """Real values of one sign in both windows, every far one more than 10
    times every near one in size: they tend to that signed infinity."""
    both = near + far
    return all(abs(u.imag) <= 1e-20 * max(1, abs(u)) for u in both) and \
        (all(u.real > 0 for u in both) or all(u.real < 0 for u in both)) and \
        min(abs(u) for u in far) > 10 * max(abs(u) for u in near)


def _sample_windows(e, p, d):
    """e at the two windows of _windows(p, d), 80 digits; None when the
    numbers cannot reach them."""
    x = sp.Symbol("x")
    f = sp.lambdify(x, e, "mpmath")
    with mpmath.workdps(80):
        try:
            return timed(lambda: [[mpmath.mpc(f(t)) for t in w] for w in _windows(p, d)], secs=20)
        except Exception:  # noqa: BLE001 - the numbers cannot reach it
            return None


def tends_to_signed_infinity(e, p, d):
    """True when e's values approaching p from side d are real, of one
    sign, and grow by more than 10 times from the near to the far window
    (x*(2 + sin(x)) at -oo: SymPy's AccumBounds there is wrong)."""
    got = _sample_windows(e, p, d)
    return got is not None and _signed_growth(*got)


def numeric_limit_confirms(e, p, d, v):
    """An independent numeric look at a limit SymPy gave as "does not exist"
    (AccumBounds) or +-oo: the function is sampled at 80 digits in a near
    and a far window approaching p from side d. "does not exist" is
    confirmed when the values in the far window still spread by more than
    1e-3 and by at least half the near window's spread (sin(sqrt(x + 1)) -
    sin(sqrt(x)), AccumBounds(-2, 2) to SymPy, spreads 1e-3 then 1e-6: it
    tends to 0); +-oo when the far window's values are real, of that sign,
    and beyond every value of the near window. False also when the numbers
    cannot be reached (sin(exp(x)) at 10**12)."""
    got = _sample_windows(e, p, d)
    if got is None:
        return False
    near, far = got
    if v == "does not exist":
        # real values of one sign whose size only grows tend to that
        # infinity, whatever their spread: SymPy's AccumBounds for (1 +
        # sin(x)**2)*x**2 at oo and (2 + sin(1/x))/x at 0+ are wrong, both
        # tend to oo (x*sin(x) changes sign: it does not exist)
        if _signed_growth(near, far):
            return False
        def spread(vs):
            fin = [u for u in vs if abs(u) < 1e30]
            if len(fin) < 2:
                return mpmath.inf
            return max(abs(a - b) for a in fin for b in fin)
        sf = spread(far)
        return sf > 1e-3 and sf >= spread(near) / 2
    if any(abs(u.imag) > 1e-20 * max(1, abs(u)) for u in near + far):
        return False
    sgn = 1 if v == sp.oo else -1
    nr, fr = [sgn * u.real for u in near], [sgn * u.real for u in far]
    return min(fr) > 0 and min(fr) > max(nr)


def _agrees_near(e, x, p, d, v, near_inf, h, tol_inf, tol_fin):
    with mpmath.workdps(60):
        fl = sp.lambdify(x, e, "mpmath")
        if p in (sp.oo, -sp.oo):
            pts = [t if p == sp.oo else -t for t in near_inf]
            tol = tol_inf
        else:
            pts = [mpmath.mpf(sp.N(p, 60)) + (h if d == "+" else -h)]
            tol = tol_fin
        want = complex(sp.N(v))
        try:
            return not any(abs(complex(fl(t)) - want) > tol * max(1, abs(want)) for t in pts)
        except Exception:  # noqa: BLE001 - a point the numbers cannot reach
            return False


def bitop_ref(a, op, b, w):
    """bitop's answer by Python's ints: operands masked to w bits, shift
    and rotate counts taken whole; (unsigned, signed) of the w-bit result."""
    mask = (1 << w) - 1
    A = a & mask
    if op == "not":
        r = ~A
    elif op in ("and", "or", "xor", "nand", "nor", "xnor"):
        B = b & mask
        base = {"and": A & B, "nand": A & B, "or": A | B, "nor": A | B, "xor": A ^ B, "xnor": A ^ B}[op]
        r = ~base if op in ("nand", "nor", "xnor") else base
    elif op == "shl":
        r = 0 if b >= w else A << b
    elif op == "shr":
        r = 0 if b >= w else A >> b
    elif op == "sar":
        s = A - (1 << w) if A >> (w - 1) else A
        r = s >> min(b, w)
    else:
        k = b % w
        r = ((A << k) | (A >> (w - k))) if op == "rol" else ((A >> k) | (A << (w - k)))
    u = r & mask
    return u, (u - (1 << w) if u >> (w - 1) else u)


def half_even(q):
    """Fraction q rounded half-to-even to an integer."""
    n, r = divmod(q.numerator, q.denominator)
    return n + (1 if 2 * r > q.denominator or (2 * r == q.denominator and n % 2) else 0)


def keep6(q):
    """docs/contract.md's six-decimal fields: 6 decimals, or 6 significant
    digits for a nonzero value those decimals would zero."""
    q = Fraction(q)
    if q == 0 or abs(q) > Fraction(1, 2 * 10**6):
        return round_half_even(q, 6)
    e = 0
    while Fraction(10) ** e > abs(q):
        e -= 1
    return round_half_even(q, 5 - e)


def human_ref(f):
    """human_duration's breakdown of the exact value f (a Fraction, >= 0):
    TOOLS.md 3.3.8 with the contract's carry (microseconds rounded
    half-even first, 1000000us carried into the seconds)."""
    whole = int(f)
    us = half_even((f - whole) * 10**6)
    if us == 10**6:
        whole, us = whole + 1, 0
    parts, rem = [], whole
    for size, unit in ((86400, "d"), (3600, "h"), (60, "m"), (1, "s")):
        if rem >= size or unit == "s":
            parts.append("%d%s" % (rem // size, unit))
            rem %= size
    sub = ""
    if us >= 1000:
        sub = ("%d.%03d" % (us // 1000, us % 1000)).rstrip("0").rstrip(".") + "ms"
    elif us > 0:
        sub = "%dus" % us
    if parts == ["0s"]:
        parts = [sub] if sub else (["<1us"] if f > 0 else ["0s"])
    elif sub:
        parts.append(sub)
    return " ".join(parts)
