#!/usr/bin/env python3
"""Builds corpus.json: the independent cross-check corpus.

Written without reading the project's own corpus (tests/crosscheck) or the
issue-12 fix commits. Every expectation is computed here by an oracle that
shares nothing with codecalc: Python's fractions/decimal/struct/datetime,
mpmath at 40-200 digits, SymPy, z3's Python API (when installed) and
hand-derived truths (checked against SymPy/mpmath where they can be).

A case is {id, tool, args, cat, why?, checks, accept_refusal?}. Each check
names a result path, a comparison and a severity: "wrong" (a confident wrong
answer when it fails), "short" (an answer that stops short: unreduced,
undecided), "format" (representation only). run.py interprets them.

Usage: python3 make_corpus.py [--verify]   (writes corpus.json beside it;
--verify also cross-checks the hand truths against SymPy and z3)
"""
import calendar
import datetime
import json
import math
import os
import struct
import sys
from decimal import Decimal, ROUND_HALF_EVEN, localcontext
from fractions import Fraction

import mpmath
import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from oracle import round_half_even, f64_of, crf  # noqa: E402

CASES = []


def case(tool, args, *checks, cat, why=None, accept_refusal=False, cid=None):
    n = sum(1 for c in CASES if c["tool"] == tool) + 1
    CASES.append({"id": cid or "%s-%03d" % (tool, n), "tool": tool, "args": args, "cat": cat,
                  "why": why, "checks": list(checks), "accept_refusal": accept_refusal})


def chk(at, cmp, want=None, sev="wrong", **kw):
    d = {"at": at, "cmp": cmp, "sev": sev}
    if want is not None:
        d["want"] = want
    d.update(kw)
    return d


def refuse(*codes, sev="wrong"):
    return {"at": "", "cmp": "refuse", "codes": list(codes), "sev": sev}


def qs(q):
    """Fraction as the 'p/q' or 'n' string calc_exact prints."""
    q = Fraction(q)
    return str(q.numerator) if q.denominator == 1 else "%d/%d" % (q.numerator, q.denominator)


# =========================================================================
# calc_exact: exact rationals, big integers, precision, functions, syntax
# =========================================================================

def exact(expr, q, why=None, cat="calc_exact/exact"):
    case("calc_exact", {"expr": expr}, chk("value", "rational", qs(q)), chk("exact", "json", True),
         cat=cat, why=why)


def boolean(expr, b, why=None):
    case("calc_exact", {"expr": expr}, chk("value", "json", b), cat="calc_exact/compare", why=why)


def f64fn(expr, d, why=None):
    """A binary64 function: the value is the exact rational of the correctly
    rounded double (one ulp off is 'precision', more is wrong)."""
    case("calc_exact", {"expr": expr}, chk("value", "f64", repr(d), ulps=1),
         chk("value", "f64", repr(d), ulps=0, sev="format"),
         cat="calc_exact/binary64", why=why)


def calc_refuse(expr, *codes, why=None, cat="calc_exact/refuse"):
    case("calc_exact", {"expr": expr}, refuse(*codes), cat=cat, why=why)


exact("0.1 + 0.2", Fraction(3, 10))
exact("1/3 + 1/6", Fraction(1, 2))
exact("2**64 - 1", 2**64 - 1)
exact("2**-3", Fraction(1, 8))
exact("(-2)**3", -8)
exact("(2/3)**-2", Fraction(9, 4))
exact("-2**2", -4, "unary minus binds looser than **")
exact("2**3**2", 512, "** is right-associative")
exact("7 // -2", -4, "floor division rounds toward -inf")
exact("-7 // 2", -4)
exact("-7 % 3", 2, "% takes the divisor's sign")
exact("7 % -3", -2)
exact("7.5 % 2", Fraction(3, 2))
exact("-7.5 // 2", -4)
exact("~5", -6)
exact("~(1/2)", -1, "TOOLS.md: ~x = -trunc(x) - 1")
exact("1 << 100", 2**100)
exact("-1 >> 1", -1, ">> floors")
exact("-9 >> 2", -3)
exact("0xff & 0x0f", 15)
exact("0b1010 | 0b0101", 15)
exact("xor(5, 3)", 6, "issue 12: xor() replaces ^")
exact("xor(-1, 5)", -6, "two's complement like Python")
exact("1_000_000 * 3", 3000000)
exact("0o17 + 1", 16)
exact("1e3", 1000)
exact(".5 + .25", Fraction(3, 4))
exact("1e-3", Fraction(1, 1000))
exact("2.5e-1 * 4", 1)
exact("123456789012345678901234567890 * 987654321098765432109876543210",
      123456789012345678901234567890 * 987654321098765432109876543210)
exact("(10**50 + 1) / (10**50 - 1)", Fraction(10**50 + 1, 10**50 - 1))
exact("10**-5", Fraction(1, 100000))
exact("2**10000 // 2**9990", 1024)
exact("(1/3)**5", Fraction(1, 243))
exact("0**0", 1, "Python: 0**0 == 1")
exact("(-1)**-3", -1)
exact("comb(52, 5)", 2598960)
exact("comb(100, 50)", math.comb(100, 50))
exact("perm(5, 2)", 20)
exact("perm(5)", 120)
exact("factorial(25)", math.factorial(25))
exact("factorial(0)", 1)
exact("gcd(12, 18, 27)", 3)
exact("gcd(2**64, 6**20)", 2**20)
exact("lcm(4, 6, 10)", 60)
exact("isqrt(10**20)", 10**10)
exact("isqrt(2**64 - 1)", math.isqrt(2**64 - 1))
exact("round(2.5)", 2, "half to even")
exact("round(3.5)", 4)
exact("round(-2.5)", -2)
exact("round(1/3, 4)", Fraction(3333, 10000))
exact("round(2.675, 2)", Fraction(268, 100), "the literal 2.675 is exactly 2675/1000; half-even")
exact("round(1234.5678, -2)", 1200)
exact("int(-3.7)", -3)
exact("floor(-3.5)", -4)
exact("ceil(-3.5)", -3)
exact("trunc(-3.5)", -3)
exact("abs(-1/3)", Fraction(1, 3))
exact("min(1/3, 0.3)", Fraction(3, 10))
exact("max(-1, -1/2, -2)", Fraction(-1, 2))
exact("sqrt(144)", 12, "binary64 result is an integer: exact")
exact("-0.0", 0)
exact("3 * 0.1 - 0.3", 0)
exact("100 * 1.1", 110, "1.1 is 11/10 exactly here")
exact("0.1000000000000000000001 - 0.1", Fraction(1, 10**22),
      "a decimal literal means the decimal it spells; exact arithmetic must not round it to binary64",
      cat="calc_exact/precision")
exact("12345678901234567890.5", Fraction("12345678901234567890.5"),
      "a long decimal literal is exact, not a double", cat="calc_exact/precision")
exact("0.3333333333333333333333333 * 3", Fraction(9999999999999999999999999, 10**25),
      cat="calc_exact/precision")
exact("1.0000000000000001 - 1", Fraction(1, 10**16), "1.0000000000000001 is not the double 1.0",
      cat="calc_exact/precision")
exact("9007199254740993 - 9007199254740992", 1, "integers are exact beyond 2^53",
      cat="calc_exact/precision")
exact("9007199254740993.0 - 9007199254740992", 1, "so is a decimal literal beyond 2^53",
      cat="calc_exact/precision")
exact("2**10000 - 2**10000 + 1", 1, cat="calc_exact/bigint")
exact("10**3999 // 10**3998", 10, cat="calc_exact/bigint")
exact("factorial(1463) // factorial(1462)", 1463, cat="calc_exact/bigint")
exact("(2**521 - 1) % 1000000007", (2**521 - 1) % 1000000007, cat="calc_exact/bigint")
exact("comb(1000, 500) % 997", math.comb(1000, 500) % 997, cat="calc_exact/bigint")

boolean("0.1 + 0.2 == 0.3", True)
boolean("1/3 == 0.3333333333333333", False)
boolean("0.1 * 3 == 0.3", True)
boolean("2**53 + 1 > 2**53", True)
boolean("3 == 3.0", True)
boolean("-1/3 < -0.333", True)
boolean("1/3 + 1/3 + 1/3 != 1", False)
boolean("0.1 + 0.2 > 0.3", False)

f64fn("sqrt(2)", math.sqrt(2))
f64fn("exp(1)", crf(mpmath.exp, 1))
f64fn("log(10)", crf(mpmath.log, 10))
f64fn("sin(1)", crf(mpmath.sin, 1))
f64fn("atan2(1, 1)", crf(lambda a, b: mpmath.atan2(a, b), 1, 1))
f64fn("hypot(3, 4)", 5.0)
f64fn("cbrt(27)", 3.0)
f64fn("cbrt(-27)", -3.0)
f64fn("log(8, 2)", 3.0)
f64fn("log10(1000)", 3.0)
f64fn("log2(1024)", 10.0)
f64fn("exp2(10)", 1024.0)
f64fn("gamma(5)", 24.0)
f64fn("lgamma(0.5)", crf(lambda v: mpmath.log(mpmath.gamma(v)), "0.5"))
f64fn("erf(0.5)", crf(mpmath.erf, "0.5"))
f64fn("expm1(1e-10)", crf(mpmath.expm1, "1e-10"))
f64fn("log1p(1e-10)", crf(mpmath.log1p, "1e-10"))
f64fn("cosh(1)", crf(mpmath.cosh, 1))
f64fn("tanh(0.5)", crf(mpmath.tanh, "0.5"))
f64fn("asinh(1)", crf(mpmath.asinh, 1))
f64fn("acos(0.3)", crf(mpmath.acos, "0.3"))
f64fn("fmod(-7, 3)", -1.0)
f64fn("remainder(7, 2)", -1.0)
case("calc_exact", {"expr": "copysign(3, -0.0)"}, chk("value", "rational_in", ["3", "-3"]),
     cat="calc_exact/binary64", why="a rational has no negative zero: -0.0 is 0, so 3 is as right as IEEE's -3")
f64fn("degrees(1)", crf(mpmath.degrees, 1))
f64fn("pow(2, 0.5)", math.sqrt(2))
f64fn("2 ** 0.5", math.sqrt(2))
f64fn("float(1/3)", 1 / 3)

calc_refuse("2^100", "validation", why="issue 12: ^ is refused (was XOR)", cat="calc_exact/syntax")
calc_refuse("10^10^10", "validation", cat="calc_exact/syntax")
calc_refuse("1/0", "validation")
calc_refuse("5 % 0", "validation")
calc_refuse("0**-1", "validation")
calc_refuse("(-8)**(1/3)", "validation", why="negative base, non-integer exponent")
calc_refuse("(-2)**0.5", "validation")
calc_refuse("2**10001", "resource_exhausted")
calc_refuse("10**4300", "resource_exhausted")
calc_refuse("3**10000", "resource_exhausted", why="4772 digits, over the 4300-digit format limit")
calc_refuse("factorial(1464)", "resource_exhausted")
calc_refuse("1 < 2 < 3", "validation", cat="calc_exact/syntax")
calc_refuse("True", "validation", cat="calc_exact/syntax")
calc_refuse("1j", "validation", cat="calc_exact/syntax")
calc_refuse("x + 1", "validation", cat="calc_exact/syntax")
calc_refuse("1 and 2", "validation", cat="calc_exact/syntax")
calc_refuse("__import__('os')", "permission_denied", cat="calc_exact/syntax")
calc_refuse("'a' * 3", "permission_denied", cat="calc_exact/syntax")
calc_refuse("(1).real", "permission_denied", cat="calc_exact/syntax")
calc_refuse("sqrt(-1)", "validation", why="math domain error")
calc_refuse("log(0)", "validation")
calc_refuse("exp(1000)", "validation", why="overflow")
calc_refuse("1.5 << 2", "validation")
calc_refuse("1 << -1", "validation")
calc_refuse("factorial(-1)", "validation")
calc_refuse("comb(5, 1/2)", "validation")
calc_refuse("(", "validation", cat="calc_exact/syntax")
calc_refuse("", "validation", cat="calc_exact/syntax")
calc_refuse("9**9**9", "resource_exhausted")
calc_refuse("1" * 2001, "resource_exhausted", why="length cap")

# =========================================================================
# compare_threshold
# =========================================================================


def thresh(a, op, b, holds, diff):
    a_q = None
    checks = [chk("holds", "json", holds), chk("difference", "rational", qs(diff))]
    checks.append(chk("shortfall", "null") if holds else chk("shortfall", "rational", qs(-diff)))
    case("compare_threshold", {"a": a, "op": op, "b": b}, *checks, cat="compare_threshold")
    return a_q


thresh("1/25", ">", "0.05", False, Fraction(-1, 100))
thresh("6", ">=", "6", True, 0)
thresh("0.1+0.2", "=", "0.3", True, 0)
thresh("0.1+0.2", "==", "0.3", True, 0)
thresh("2**53 + 1", ">", "2**53", True, 1)
thresh("1/3", "<", "0.3333333333333333", False, Fraction(1, 3) - Fraction("0.3333333333333333"))
thresh("1/3", "!=", "0.3333333333333333", True, Fraction(1, 3) - Fraction("0.3333333333333333"))
thresh(" 10 ", " <= ", "9.999", False, Fraction("0.001"))
thresh("99.9", "<", "100", True, Fraction("-0.1"))
thresh("-5", ">", "-4", False, -1)
thresh("comb(10,3)", "==", "120", True, 0)
thresh("0.30000000000000004", ">", "0.3", True, Fraction(4, 10**17))
case("compare_threshold", {"a": "1", "op": "~=", "b": "2"}, refuse("validation"), cat="compare_threshold")
case("compare_threshold", {"a": "1", "op": "=<", "b": "2"}, refuse("validation"), cat="compare_threshold")
case("compare_threshold", {"a": "1==1", "op": "==", "b": "1"}, refuse("validation"), cat="compare_threshold")
case("compare_threshold", {"a": "1/0", "op": "<", "b": "1"}, refuse("validation"), cat="compare_threshold")
case("compare_threshold", {"a": "2^3", "op": "==", "b": "8"}, refuse("validation"),
     cat="compare_threshold", why="^ refused on both calc_exact paths")

# =========================================================================
# percentage
# =========================================================================


def pct(part, total, share):
    s = Fraction(share)
    percent = float(round_half_even(s * 100, 6))
    case("percentage", {"part": part, "total": total},
         chk("share", "rational", qs(s)), chk("percent", "float", percent, abs=1.0000001e-6),
         chk("percent", "float", percent, abs=1e-12, sev="format"), cat="percentage")


pct("3", "8", Fraction(3, 8))
pct("1", "3", Fraction(1, 3))
pct("2", "1", 2)
pct("-1", "4", Fraction(-1, 4))
pct("1e3", "4", 250)
pct("1/3", "2/3", Fraction(1, 2))
pct("0.1", "0.3", Fraction(1, 3))
pct("2/3", "1", Fraction(2, 3))
pct("1", "7", Fraction(1, 7))
pct("5", "200000000", Fraction(5, 200000000))
pct("0.1000000000000000000001", "1", Fraction("0.1000000000000000000001"))
pct(" 12.5 ", "50", Fraction(1, 4))
case("percentage", {"part": "1", "total": "0"}, refuse("validation"), cat="percentage")
case("percentage", {"part": "abc", "total": "3"}, refuse("validation"), cat="percentage")
case("percentage", {"part": "1/0", "total": "3"}, refuse("validation"), cat="percentage")

# =========================================================================
# calc_stats (oracle: Python's statistics on exact Fractions)
# =========================================================================


def stats(nums, why=None):
    fr = [Fraction(v) for v in nums]
    n = len(fr)
    mean = sum(fr) / n
    srt = sorted(fr)
    med = srt[n // 2] if n % 2 else (srt[n // 2 - 1] + srt[n // 2]) / 2
    var = sum((v - mean) ** 2 for v in fr) / (n - 1)
    with mpmath.workprec(200):
        sd = mpmath.sqrt(mpmath.mpf(var.numerator) / var.denominator)
        cv = None if mean == 0 else sd / (mpmath.mpf(mean.numerator) / mean.denominator)
    checks = [chk("mean", "float", f64_of(mean), rel=4e-16), chk("median", "float", f64_of(med), rel=4e-16),
              chk("stdev", "float", float(sd), rel=1e-14, abs=1e-300)]
    checks.append(chk("cv", "null") if cv is None else chk("cv", "float", float(cv), rel=1e-14, abs=1e-300))
    case("calc_stats", {"nums": nums}, *checks, cat="calc_stats", why=why)


stats([1, 2, 3, 4, 5])
stats([5, 5])
stats([-1, 1])
stats([0.1] * 10, "mean of ten 0.1 is the double 0.1")
stats([1e16, 1, -1e16], "needs an exact/compensated sum")
stats([1e9 + 1, 1e9 + 2, 1e9 + 3], "catastrophic cancellation in a naive variance")
stats([1e308, 1e308], "mean/median of huge values: the naive sum overflows")
stats([-1e308, -1e308, 1e308])
stats([3, 1, 4, 1, 5, 9, 2, 6])
stats([2.5, 2.5000000001])
stats([1e-300, 3e-300])
case("calc_stats", {"nums": [1.0]}, refuse("validation"), cat="calc_stats")

# =========================================================================
# percentiles (TOOLS.md 3.3.5 formula, computed exactly then rounded)
# =========================================================================


def pctl(nums, why=None):
    v = sorted(nums)
    n = len(v)
    checks = []
    for p in (50, 90, 95, 99):
        rank = max(1, math.ceil((p / 100) * n))
        idx = (p / 100) * (n - 1)
        lo, hi = math.floor(idx), math.ceil(idx)
        interp = Fraction(v[lo]) + (Fraction(v[hi]) - Fraction(v[lo])) * (Fraction(idx) - lo)
        checks.append(chk("percentiles.p%d.nearest_rank" % p, "float", float(v[rank - 1]), rel=0))
        checks.append(chk("percentiles.p%d.interpolated" % p, "float", float(round_half_even(interp, 6)),
                          abs=5.0000001e-7, rel=1e-15))
    checks.append(chk("warning", "null") if n >= 100 else chk("warning", "present"))
    case("percentiles", {"nums": nums}, *checks, cat="percentiles", why=why)


pctl(list(range(1, 101)))
pctl([1, 2, 3])
pctl([5])
pctl([3, 1, 2])
pctl([-5, 10])
pctl([0.1, 0.2, 0.3, 0.4])
pctl([(i * 7919) % 1000 / 7 for i in range(1000)])
pctl([1e300, -1e300, 0])
case("percentiles", {"nums": []}, refuse("validation"), cat="percentiles")

# =========================================================================
# collision_probability: the exact probability that n uniform b-bit values
# are not all distinct, 1 - prod_{i<n}(1 - i/2^b), at 300 digits
# =========================================================================


def birthday(n, b):
    N = 2 ** b
    if n < 2:
        return 0.0
    if n > N:
        return 1.0
    with mpmath.workdps(400):
        Nm = mpmath.mpf(N)
        if n <= 200000:
            lq = mpmath.fsum(mpmath.log1p(-mpmath.mpf(i) / Nm) for i in range(1, n))
        else:
            lq = mpmath.loggamma(Nm + 1) - mpmath.loggamma(Nm - n + 1) - n * mpmath.log(Nm)
        return float(-mpmath.expm1(lq))


def coll(n, b, why=None):
    p = birthday(n, b)
    case("collision_probability", {"items": n, "bits": b},
         chk("probability", "float", p, rel=1e-3, abs=0), chk("probability", "float", p, rel=1e-9, abs=0, sev="format"),
         cat="collision_probability", why=why)


coll(100000, 32)
coll(1000000, 64, "1 - exp(-x) in binary64 loses 8 digits here")
coll(10, 128, "a tiny probability must not round to 0")
coll(2, 1, "two 1-bit hashes collide with probability exactly 1/2")
coll(3, 1, "pigeonhole: 3 items in 2 buckets always collide")
coll(2, 64, "exactly 2^-64")
coll(2**32, 64)
coll(77163, 32)
coll(1, 64)
coll(0, 16)
coll(5000, 16)
case("collision_probability", {"items": 10, "bits": 0}, refuse("validation"), cat="collision_probability")

# =========================================================================
# data_sizes (correctly rounded quotients)
# =========================================================================


def dsz(n):
    checks = [chk("bytes", "int", str(n))]
    for k, unit in enumerate(("KiB", "MiB", "GiB", "TiB"), 1):
        checks.append(chk("binary." + unit, "float", n / 1024 ** k, rel=0))
    for k, unit in enumerate(("KB", "MB", "GB", "TB"), 1):
        checks.append(chk("decimal." + unit, "float", n / 1000 ** k, rel=0))
    case("data_sizes", {"n": n}, *checks, cat="data_sizes")


for n in (305135616, 1536, 0, 1, 2**40, 2**80 + 1, 999999999999, 123456789012345678901234567890):
    dsz(n)
case("data_sizes", {"n": -1024}, refuse("validation"), cat="data_sizes")

# =========================================================================
# human_duration (contract: sub-second rounded to us first, carrying)
# =========================================================================


def human_of(s):
    us = round_half_even(Fraction(s) * 10**6, 0)
    us = int(us)
    whole, sub = divmod(us, 10**6)
    parts, rem = [], whole
    for size, unit in ((86400, "d"), (3600, "h"), (60, "m"), (1, "s")):
        if rem >= size or unit == "s":
            parts.append("%d%s" % (rem // size, unit))
            rem %= size
    subs = None
    if sub >= 1000:
        t = ("%.3f" % (sub / 1000)).rstrip("0").rstrip(".")
        subs = t + "ms"
    elif sub > 0:
        subs = "%dus" % sub
    if subs:
        parts = [subs] if parts == ["0s"] else parts + [subs]
    return " ".join(parts)


def hdur(s, why=None):
    checks = [chk("human", "str", human_of(s)),
              chk("per_day", "float", float(Fraction(s) / 86400), abs=5.0000001e-7),
              chk("per_30d", "float", float(Fraction(s) / 2592000), abs=5.0000001e-7)]
    case("human_duration", {"seconds": s}, *checks, cat="human_duration", why=why)


for s in (90061, 0.5, 1.5, 0.00025, 0, 3600, 86400, 3661.25, 1e-6, 0.001, 0.0015, 45.000001, 7 * 86400 + 59):
    hdur(s)
hdur(59.9999999, "issue 12: the rounding carries")
hdur(86399.9999996, "carries through every unit")
hdur(0.9999995, "0.9999995 is below the half-microsecond tie as a double")
case("human_duration", {"seconds": 1e30}, chk("human", "prefix", "~1.000000e+30s"), cat="human_duration")
case("human_duration", {"seconds": -1}, refuse("validation"), cat="human_duration")

# =========================================================================
# epoch_time (exact: v / 10^k, window [1e8, 1e10] s, microseconds half-even)
# =========================================================================


def epoch(v, why=None):
    out = {}
    for name, div in (("seconds", 1), ("millis", 10**3), ("micros", 10**6), ("nanos", 10**9)):
        secs = Fraction(v, div)
        if 10**8 <= secs <= 10**10:
            us = int(round_half_even(secs * 10**6, 0))
            whole, frac_us = divmod(us, 10**6)
            dt = datetime.datetime.fromtimestamp(whole, datetime.timezone.utc).replace(tzinfo=None)
            iso = dt.strftime("%Y-%m-%dT%H:%M:%S")
            if frac_us:
                iso += ".%06d" % frac_us
            out[name] = iso + "+00:00"
    if not out:
        case("epoch_time", {"n": str(v)}, refuse("validation"), cat="epoch_time", why=why)
    else:
        case("epoch_time", {"n": str(v)}, chk("interpretations", "json", out), chk("input", "int", str(v)),
             cat="epoch_time", why=why)


for v in (1700000000, 1700000000000, 1700000000000000000, 1700000000123, 1700000000123456,
          1700000000123456789, 100000000, 10000000000, 1234567890, 4102444800, 253402300799):
    epoch(v)
epoch(1700000000000001500, "1.5 us: half-even to 2 us; a binary64 quotient reads 1.43 us")
epoch(1700000000000000999, "0.999 us rounds to 1 us")
epoch(5, "no plausible unit")
epoch(10000000001, "just past the seconds window, too small for millis")
case("epoch_time", {"n": "1_700_000_000"},
     chk("interpretations.seconds", "str", "2023-11-14T22:13:20+00:00"), cat="epoch_time")
case("epoch_time", {"n": "-1"}, refuse("validation"), cat="epoch_time")
case("epoch_time", {"n": "1e9"}, refuse("validation"), cat="epoch_time")
case("epoch_time", {"n": "1" + "0" * 21 + "1"}, refuse("validation"), cat="epoch_time")

# =========================================================================
# base_repr, int_widths, bit_analysis, bitop
# =========================================================================


def sm(n, fmt):
    return ("-" if n < 0 else "") + format(abs(n), fmt)


def brepr(n, width=None):
    checks = [chk("value", "int", str(n)), chk("hex", "str", sm(n, "x")), chk("oct", "str", sm(n, "o")),
              chk("bin", "str", sm(n, "b"))]
    args = {"n": n if abs(n) < 2**53 else str(n)}
    if width:
        args["width"] = width
        w = width
        lo, hi, uhi = -2 ** (w - 1), 2 ** (w - 1) - 1, 2**w - 1
        if n < lo or n > uhi:
            checks.append(chk("overflow", "present"))
            checks.append(chk("signed_i%d" % w, "null"))
        elif n <= hi:
            checks.append(chk("signed_i%d" % w, "int", str(n)))
            checks.append(chk("unsigned_u%d" % w, "int", str(n % 2**w)))
            checks.append(chk("two_complement_bin", "str", format(n % 2**w, "0%db" % w)))
        else:
            checks.append(chk("signed_i%d" % w, "int", str(n - 2**w)))
            checks.append(chk("unsigned_u%d" % w, "int", str(n)))
            checks.append(chk("wrapped_signed", "int", str(n - 2**w)))
            checks.append(chk("signed_overflow", "present"))
    case("base_repr", args, *checks, cat="base_repr")


for n, w in ((255, None), (-5, None), (3000000000, 32), (-5, 8), (2**40, 32), (2**60, None), (-128, 8),
             (128, 8), (-129, 8), (2**64 - 1, 64), (-2**63, 64), (0, 16), (2**63, 64), (65535, 16), (-1, 64)):
    brepr(n, w)
case("base_repr", {"n": 5, "width": 0}, refuse("validation"), cat="base_repr")


def widths(n):
    fits, wraps = [], []
    for w in (8, 16, 32, 64):
        lo, hi, uhi = -2 ** (w - 1), 2 ** (w - 1) - 1, 2**w - 1
        if lo <= n <= hi:
            fits.append("i%d" % w)
            if n >= 0:
                fits.append("u%d" % w)
        elif hi < n <= uhi:
            fits.append("u%d" % w)
            wraps.append("i%d: wraps to %d" % (w, n - 2**w))
        elif n < lo:
            wraps.append("i%d/u%d: too negative (below %d)" % (w, w, lo))
        else:
            wraps.append("i%d/u%d: too large (above %d)" % (w, w, uhi))
    checks = [chk("value", "int", str(n)), chk("fits", "json", fits), chk("wraps", "json", wraps)]
    checks.append(chk("note", "present") if abs(n) > 2**53 else chk("note", "null"))
    case("int_widths", {"n": n if abs(n) < 2**53 else str(n)}, *checks, cat="int_widths")


for n in (3000000000, -200, 127, 2**60, -2**70, 0, -1, 255, 256, -32768, 2**63 - 1, 2**64, 2**53 + 1):
    widths(n)


def bits(n, align=None):
    checks = [chk("popcount", "int", str(bin(n).count("1"))), chk("bit_length", "int", str(n.bit_length()))]
    if n == 0:
        checks += [chk("trailing_zeros", "null"), chk("next_power_of_two", "null"),
                   chk("is_power_of_two", "json", False)]
    else:
        checks += [chk("trailing_zeros", "int", str((n & -n).bit_length() - 1)),
                   chk("is_power_of_two", "json", n & (n - 1) == 0),
                   chk("next_power_of_two", "int", str(1 << (n - 1).bit_length()))]
    args = {"n": n if n < 2**53 else str(n)}
    if align:
        args["align"] = align
        pad = (-n) % align
        checks += [chk("padding_needed", "int", str(pad)), chk("aligned_value", "int", str(n + pad))]
    case("bit_analysis", args, *checks, cat="bit_analysis")


for n, a in ((12, None), (7, 8), (0, None), (1, None), (2**64, None), (2**64 - 1, 4096), (4096, 4096), (4097, 4096),
             (3, 3), (2**100 + 1, 16)):
    bits(n, a)
case("bit_analysis", {"n": -1}, refuse("validation"), cat="bit_analysis")
case("bit_analysis", {"n": 5, "align": 0}, refuse("validation"), cat="bit_analysis")


def bitop(a, op, b, w, overflow=None):
    mask = 2**w - 1
    A = a & mask
    r = None
    if op == "not":
        r = ~A
    elif op in ("and", "or", "xor", "nand", "nor", "xnor"):
        B = b & mask
        core = op[1:] if op in ("nand", "nor") else ("xor" if op == "xnor" else op)
        base = {"and": A & B, "or": A | B, "xor": A ^ B}[core]
        r = base if op == core else ~base
    elif op == "shl":
        r = 0 if b >= w else A << b
    elif op == "shr":
        r = 0 if b >= w else A >> b
    elif op == "sar":
        s = A - 2**w if A >> (w - 1) else A
        r = s >> min(b, w)
    elif op == "rol":
        k = b % w
        r = ((A << k) | (A >> (w - k))) if k else A
    elif op == "ror":
        k = b % w
        r = ((A >> k) | (A << (w - k))) if k else A
    u = r & mask
    sgn = u - 2**w if u >> (w - 1) else u
    args = {"a": a if abs(a) < 2**53 else str(a), "op": op, "width": w}
    if b is not None:
        args["b"] = b
    checks = [chk("unsigned", "int", str(u)), chk("signed", "int", str(sgn)),
              chk("hex", "hexval", hex(u)), chk("bin", "str", format(u, "0%db" % w))]
    if op == "shl" and b < w and (A << b) > mask:
        checks.append(chk("unbounded", "int", str(A << b)))
    case("bitop", args, *checks, cat="bitop")


for t in ((0x80, "shr", 1, 8), (0x80, "sar", 1, 8), (0x8000000000000000, "shl", 1, 64), (1, "shl", 256, 8),
          (0, "not", None, 8), (0x0F, "rol", 4, 8), (0xF0, "ror", 4, 8), (0b1010, "xor", 0b0110, 8),
          (5, "not", None, 64), (-1, "shr", 60, 64), (-8, "sar", 1, 16), (-8, "sar", 100, 16),
          (0x12345678, "rol", 8, 32), (0x12345678, "ror", 36, 32), (255, "nand", 15, 8), (0, "nor", 0, 16),
          (0xF0F0, "xnor", 0x0FF0, 16), (-1, "and", 0xFF, 32), (2**64 - 1, "and", 2**63, 64),
          (1, "shl", 63, 64), (3, "shl", 63, 64), (0xAB, "rol", 0, 8), (0x7F, "or", 0x80, 8)):
    bitop(*t)
case("bitop", {"a": 1, "op": "shl", "b": -1, "width": 32}, refuse("validation"), cat="bitop")
case("bitop", {"a": 1, "op": "zzz", "b": 2}, refuse("validation"), cat="bitop")
case("bitop", {"a": 1, "op": "and", "width": 8}, refuse("validation"), cat="bitop")
case("bitop", {"a": 1, "op": "and", "b": 1, "width": 12}, refuse("validation"), cat="bitop")

# =========================================================================
# radix_convert (TOOLS.md 3.3.11 algorithm over exact Fractions)
# =========================================================================

DIG = "0123456789abcdefghijklmnopqrstuvwxyz"


def radix(value, fb, tb):
    s = value.strip().lower()
    neg = s.startswith("-")
    if neg:
        s = s[1:]
    ip, _, fp = s.partition(".")
    q = Fraction(0)
    for ch in ip:
        q = q * fb + DIG.index(ch)
    for i, ch in enumerate(fp, 1):
        q += Fraction(DIG.index(ch), fb**i)
    whole = int(q)
    out = ""
    w = whole
    while w:
        out = DIG[w % tb] + out
        w //= tb
    out = out or "0"
    r = q - whole
    d = r.denominator
    g = d
    for p in range(2, tb + 1):
        while g % p == 0 and tb % p == 0:
            g //= p
    term = g == 1
    frac_digits = ""
    seen = set()
    nonterm = False
    while r and len(frac_digits) < (100 if term else 64):
        if not term:
            if r in seen:
                break
            seen.add(r)
        r *= tb
        dgt = int(r)
        frac_digits += DIG[dgt]
        r -= dgt
    if not term and r:
        nonterm = True
    val = ("-" if neg else "") + out + ("." + frac_digits if frac_digits else "")
    if nonterm:
        val += "\u2026"
    return val, nonterm, q * (-1 if neg else 1)


def rconv(value, fb, tb, why=None):
    val, nonterm, q = radix(value, fb, tb)
    case("radix_convert", {"value": value, "from_base": fb, "to_base": tb},
         chk("value", "str", val), chk("non_terminating", "json", nonterm), cat="radix_convert", why=why)


for t in (("0.1", 10, 2), ("ff", 16, 10), ("zz", 36, 7), ("0.5", 10, 2), ("0.2", 10, 5), ("-10.25", 10, 16),
          ("FF", 16, 2), ("0.1", 3, 10), ("3.", 10, 2), (".5", 10, 2), ("1" + "0" * 40, 10, 16),
          ("0.1", 10, 3), ("0.7", 10, 6), ("255.875", 10, 8), ("-0.0001", 2, 10), ("123456789", 10, 36),
          ("0.3", 10, 16)):
    rconv(*t)
case("radix_convert", {"value": "12", "from_base": 2, "to_base": 10}, refuse("validation"), cat="radix_convert")
case("radix_convert", {"value": "1", "from_base": 37, "to_base": 10}, refuse("validation"), cat="radix_convert")
case("radix_convert", {"value": "1", "from_base": 10, "to_base": 1}, refuse("validation"), cat="radix_convert")

# =========================================================================
# float_repr (struct, Fraction, Decimal, math.nextafter)
# =========================================================================


def stored_of(x):
    q = Fraction(x)
    if q == 0:
        return "0"
    with localcontext() as ctx:
        ctx.prec = 400
        d = Decimal(q.numerator) / Decimal(q.denominator)
        ctx.prec = 50
        ctx.rounding = ROUND_HALF_EVEN
        d = +d
        ctx.prec = 400
        d = d.quantize(Decimal(1).scaleb(-40), rounding=ROUND_HALF_EVEN) if d.adjusted() >= -40 else Decimal(0)
    t = format(d, "f")
    if "." in t:
        t = t.rstrip("0").rstrip(".")
    t = "0" if t in ("0", "-0") else t
    # docs/contract.md 3.3.12 (redcalc3): a fixed form with fewer than 17
    # significant digits that is not the stored value (5e-324 as "0", the
    # double nearest 1e-40 as 0.000...1) is written with 50 significant
    # digits in scientific notation instead, as C's %.49e, zeros dropped
    if len(t.replace("-", "").replace(".", "").lstrip("0")) < 17 and Fraction(Decimal(t)) != q:
        with localcontext() as ctx:
            ctx.prec = 400
            d = Decimal(q.numerator) / Decimal(q.denominator)
        m, e = ("%.49e" % d).split("e")
        m = m.rstrip("0").rstrip(".")
        t = "%se%s%02d" % (m, e[0], int(e[1:]))
    return t


def frepr(x, why=None):
    raw = struct.unpack(">Q", struct.pack(">d", x))[0]
    lit = repr(x)
    err = Fraction(x) - Fraction(lit)
    nxt, prv = math.nextafter(x, math.inf), math.nextafter(x, -math.inf)
    if x == 0:
        nxt, prv = 5e-324, -5e-324
    checks = [chk("literal", "str", lit), chk("bits_hex", "str", "0x%016x" % raw),
              chk("sign", "json", raw >> 63), chk("exponent", "json", (raw >> 52) & 0x7FF),
              chk("fraction_hex", "str", "0x%013x" % (raw & ((1 << 52) - 1))),
              chk("exact", "json", err == 0), chk("error", "rational", qs(err)),
              chk("stored", "str", stored_of(x)), chk("prev", "float", prv, rel=0),
              chk("next", "null") if math.isinf(nxt) else chk("next", "float", nxt, rel=0)]
    if math.isfinite(nxt - x):
        checks.append(chk("ulp", "float", nxt - x, rel=0))
    checks.append(chk("note", "present") if abs(x) > 2**53 else chk("note", "null"))
    case("float_repr", {"x": x}, *checks, cat="float_repr", why=why)


for x in (0.1, 0.25, -0.0, 9007199254740994.0, 5e-324, 1.7976931348623157e308, 1e23, 0.3, -2.5, 1.0,
          2.2250738585072014e-308, 123456.789, 1 / 3):
    frepr(x)

# =========================================================================
# convert_units: exact factors from the unit definitions (NIST SP 811)
# =========================================================================

INCH = Fraction("0.0254")
FT = 12 * INCH
LBM = Fraction("0.45359237")
LBF = LBM * Fraction("9.80665")
GAL = 231 * INCH**3
ATM = Fraction(101325)


def conv(v, fu, tu, want, why=None, cat="convert_units", interp=None):
    q = Fraction(want)
    checks = [chk("value", "float", f64_of(q), rel=2.3e-16, abs=0),
              chk("exact", "rational", qs(q), sev="format")]
    if interp:
        checks.append(chk("interpreted_as", "json", interp))
    case("convert_units", {"value": v, "from_unit": fu, "to_unit": tu}, *checks, cat=cat, why=why)


def conv_bad(v, fu, tu, why=None, cat="convert_units/refuse", ok_values=None):
    """A spelling that must be refused (ambiguous, unknown, mixed
    dimensions); ok_values lists the readings that would also be right."""
    c = [refuse("validation")]
    if ok_values:
        c = [chk("value", "float_in", [f64_of(Fraction(w)) for w in ok_values], rel=1e-15)]
    case("convert_units", {"value": v, "from_unit": fu, "to_unit": tu}, *c, cat=cat, why=why,
         accept_refusal=bool(ok_values))


conv(1, "nm", "m", Fraction(1, 10**9), "issue 12: never a rounded zero")
conv(1, "eV", "J", Fraction("1.602176634e-19"))
conv(1, "mW", "W", Fraction(1, 1000), "milli, not mega")
conv(1, "MW", "W", 10**6)
conv(1, "GW", "MW", 1000)
conv(60, "mph", "km/h", Fraction(60) * Fraction("1.609344"))
conv(100, "celsius", "fahrenheit", 212, cat="convert_units/temperature")
conv(-40, "C", "F", -40, cat="convert_units/temperature")
conv(0, "K", "C", Fraction("-273.15"), cat="convert_units/temperature")
conv(100, "F", "C", Fraction(340, 9), cat="convert_units/temperature")
conv(-459.67, "F", "K", 0, cat="convert_units/temperature")
conv(300, "K", "F", Fraction(300) * Fraction(9, 5) - Fraction("459.67"), cat="convert_units/temperature")
conv(1, "degC", "degF", Fraction("33.8"), cat="convert_units/temperature")
conv(25, "°C", "K", Fraction("298.15"), cat="convert_units/temperature")
conv(1, "psi", "kPa", LBF / INCH**2 / 1000)
conv(1, "inch", "cm", Fraction("2.54"))
conv(1, "mile", "km", Fraction("1.609344"))
conv(1, "mi", "ft", 5280)
conv(1, "yd", "in", 36)
conv(1, "lb", "kg", LBM)
conv(1, "oz", "g", LBM / 16 * 1000)
conv(1, "gal", "L", GAL * 1000)
conv(1, "gal", "floz", 128)
conv(1, "cup", "floz", 8)
conv(1, "pint", "cup", 2)
conv(1, "quart", "pint", 2)
conv(1, "kWh", "J", 3600000)
conv(1, "kWh", "MJ", Fraction("3.6"))
conv(1, "kcal", "kJ", Fraction("4.184"))
conv(1, "Wh", "J", 3600)
conv(1, "atm", "Pa", ATM)
conv(1, "atm", "bar", Fraction("1.01325"))
conv(1, "atm", "torr", 760, "the torr is defined as 101325/760 Pa exactly (not the mmHg)")
conv(760, "torr", "Pa", ATM)
conv(1, "acre", "sqft", 43560)
conv(1, "ha", "m2", 10000)
conv(1, "km2", "ha", 100)
conv(1, "m3", "L", 1000)
conv(1, "week", "day", 7)
conv(1, "day", "h", 24)
conv(1, "min", "ms", 60000)
conv(1, "h", "s", 3600)
conv(1, "GiB", "MiB", 1024)
conv(1, "TB", "GB", 1000)
conv(1, "TiB", "GiB", 1024)
conv(1, "MB", "KiB", Fraction(10**6, 1024))
conv(1, "GB", "MiB", Fraction(10**9, 2**20))
conv(1, "PB", "TB", 1000)
conv(1, "lbf", "N", LBF)
conv(1, "kN", "N", 1000)
conv(1, "hp", "W", 550 * FT * LBF, "mechanical horsepower = 550 ft*lbf/s")
conv(1, "GHz", "MHz", 1000)
conv(1, "kHz", "Hz", 1000)
conv(1, "kn", "km/h", Fraction("1.852"))
conv(1, "knot", "m/s", Fraction(1852, 3600))
conv(1, "c", "km/h", 299792458 * Fraction(36, 10))
conv(1, "ly", "km", Fraction(9460730472580800, 1000))
conv(1, "au", "m", 149597870700)
conv(3, "m/s", "km/h", Fraction("10.8"))
conv(1, "ft/s", "m/s", FT)
conv(1, "mL", "L", Fraction(1, 1000))
conv(1, "ml", "L", Fraction(1, 1000))
conv(1, "mbar", "Pa", 100)
conv(1, "MPa", "kPa", 1000)
conv(1, "mg", "g", Fraction(1, 1000))
conv(1, "ug", "mg", Fraction(1, 1000))
conv(1, "µm", "nm", 1000)
conv(1, "us", "ns", 1000)
conv(1, "µs", "ms", Fraction(1, 1000))
conv(1, "ns", "s", Fraction(1, 10**9))
conv(1, "mm", "m", Fraction(1, 1000), "mm is millimetre")
conv(1, "km", "m", 1000)
conv("0.1", "m", "cm", 10, "a numeric string is read as the decimal it spells")
conv("1e-30", "km", "m", Fraction(1, 10**27))
conv(1e300, "km", "m", Fraction(repr(1e300)) * 1000, "a JSON number means the shortest decimal that reads back as it")
conv(1, "t", "kg", 1000)
conv(1, "ton", "kg", 1000)
conv(2.5, "h", "min", 150)
conv(1, "gb", "MiB", Fraction(10**9, 2**20), "a single-case spelling with one match is accepted and said",
     interp={"from_unit": "GB"})
conv(1, "KM", "m", 1000, interp={"from_unit": "km"})
conv(1, "Mile", "m", Fraction("1609.344"), interp={"from_unit": "mile"})
conv_bad(1, "mw", "W", "ambiguous between mW and MW")
conv_bad(1, "Gb", "MB", "gigabit is 125 MB; reading it as GB (1000) is a factor-8 error", ok_values=[125])
conv_bad(1, "Mm", "m", "megametre (1e6 m) or a refusal; never millimetre", ok_values=[10**6])
conv_bad(1, "K", "m", "temperature vs length")
conv_bad(1, "kg", "m", "incompatible dimensions")
conv_bad(1, "zzz", "m")
conv_bad(1, "kg*m/s^2", "N", "a compound unit: 1 N, or refused; never another number", ok_values=[1])
conv_bad(1, "km/s", "m/s", "a compound of known units: 1000 m/s", ok_values=[1000])
conv_bad(1, "g/cm3", "kg/m3", "density: 1000", ok_values=[1000])
conv_bad(1, "kW*h", "kWh", "a product of known units", ok_values=[1])
conv_bad(1, "N*m", "J", ok_values=[1])
conv_bad(1, "m/s^2", "ft/s^2", ok_values=[1 / FT])
conv_bad("abc", "m", "cm", "value must be numeric")

# =========================================================================
# physical_constants (CODATA 2018)
# =========================================================================

CODATA = {"speed_of_light": 299792458, "planck": 6.62607015e-34, "hbar": 1.054571817e-34,
          "avogadro": 6.02214076e23, "boltzmann": 1.380649e-23, "elementary_charge": 1.602176634e-19,
          "electron_mass": 9.1093837015e-31, "proton_mass": 1.67262192369e-27,
          "neutron_mass": 1.67492749804e-27, "gravitational_constant": 6.67430e-11, "gravity": 9.80665,
          "gas_constant": 8.314462618, "stefan_boltzmann": 5.670374419e-8, "faraday": 96485.33212,
          "atomic_mass": 1.66053906660e-27, "rydberg": 10973731.568160, "bohr_radius": 5.29177210903e-11,
          "electron_volt": 1.602176634e-19, "astronomical_unit": 149597870700,
          "lightyear": 9460730472580800, "wien": 2.897771955e-3}


def const(name, key):
    case("physical_constants", {"name": name}, chk("name", "str", key),
         chk("value", "float", float(CODATA[key]), rel=1e-9), cat="physical_constants")


for nm, key in (("c", "speed_of_light"), ("G", "gravitational_constant"), ("g", "gravity"), ("h", "planck"),
                ("hbar", "hbar"), ("N_A", "avogadro"), ("k_B", "boltzmann"), ("K", "boltzmann"),
                ("e", "elementary_charge"), ("me", "electron_mass"), ("m_p", "proton_mass"), ("R", "gas_constant"),
                ("F", "faraday"), ("sigma", "stefan_boltzmann"), ("a0", "bohr_radius"), ("rydberg", "rydberg"),
                ("wien", "wien"), ("atomic_mass", "atomic_mass"), ("pc", "parsec")):
    if key == "parsec":
        case("physical_constants", {"name": nm}, chk("name", "str", "parsec"),
             chk("value", "float", float(648000 / mpmath.pi * 149597870700), rel=1e-12), cat="physical_constants")
    else:
        const(nm, key)
case("physical_constants", {"name": "light"}, refuse("validation"), cat="physical_constants")
case("physical_constants", {}, chk("constants", "len", 22), cat="physical_constants")

# =========================================================================
# truth_table (Python over every assignment)
# =========================================================================

import itertools  # noqa: E402
import re  # noqa: E402


def tt_eval(expr, env):
    """A recursive-descent evaluator with TOOLS.md 3.3.23 precedence."""
    toks = re.findall(r"[A-Za-z_][A-Za-z0-9_]*|\(|\)", expr)
    toks = [t.lower() for t in toks]
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else None

    def take():
        pos[0] += 1
        return toks[pos[0] - 1]

    def p_iff():
        v = p_impl()
        while peek() == "iff":
            take()
            v = v == p_impl()
        return v

    def p_impl():
        v = p_xor()
        if peek() == "implies":
            take()
            w = p_impl()  # always parsed: a short-circuit would leave its tokens unread
            return (not v) or w
        return v

    def p_xor():
        v = p_or()
        while peek() == "xor":
            take()
            v = v != p_or()
        return v

    def p_or():
        v = p_and()
        while peek() == "or":
            take()
            w = p_and()
            v = v or w
        return v

    def p_and():
        v = p_not()
        while peek() == "and":
            take()
            w = p_not()
            v = v and w
        return v

    def p_not():
        if peek() == "not":
            take()
            return not p_not()
        t = take()
        if t == "(":
            v = p_iff()
            take()
            return v
        if t == "true":
            return True
        if t == "false":
            return False
        return env[t]

    return p_iff()


KW = {"and", "or", "not", "xor", "implies", "iff", "true", "false"}


def ttable(expr, why=None):
    vs = sorted({t.lower() for t in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", expr)} - KW)
    rows = []
    for combo in itertools.product([False, True], repeat=len(vs)):
        env = dict(zip(vs, combo))
        r = dict(env)
        r["result"] = tt_eval(expr, env)
        rows.append(r)
    checks = [chk("variables", "json", vs), chk("row_count", "json", len(rows)),
              chk("satisfiable", "json", any(r["result"] for r in rows)),
              chk("tautology", "json", all(r["result"] for r in rows))]
    if len(rows) <= 4096:
        checks.append(chk("rows", "json", rows))
    case("truth_table", {"expression": expr}, *checks, cat="truth_table", why=why)


for e in ("a and b or not c", "p xor q", "a implies b implies a", "a iff b", "not not a", "a and not a", "true",
          "false", "(a or b) and (not a or b) and (a or not b) and (not a or not b)", "a xor b xor c",
          "a implies b implies c", "A and not a", "a or b and c", "not a and b", "a iff b implies c",
          "a xor b or c", "(p implies q) iff (not q implies not p)", "x1 and x2 or x3 and not x4",
          "a iff b iff c", "not (a and b) iff (not a or not b)"):
    ttable(e)
case("truth_table", {"expression": ""}, refuse("validation"), cat="truth_table")
case("truth_table", {"expression": "a &&& b"}, refuse("validation"), cat="truth_table")
case("truth_table", {"expression": " or ".join("v%d" % i for i in range(17))}, refuse("resource_exhausted"),
     cat="truth_table")
case("truth_table", {"expression": " and ".join("v%02d" % i for i in range(16))},
     chk("row_count", "json", 65536), chk("satisfiable", "json", True), chk("tautology", "json", False),
     cat="truth_table")

# =========================================================================
# z3_check (expected verdicts; sat models are checked by run.py's own SMT
# evaluator, independently of z3)
# =========================================================================


def z3c(smt, result, why=None):
    checks = [chk("result", "str", result)]
    if result == "sat":
        checks.append(chk("model", "smt_model", smt))
    case("z3_check", {"smt2": smt}, *checks, cat="z3_check", why=why)


z3c("(declare-const x Int)(assert (> x 5))(assert (< x 10))(check-sat)", "sat")
z3c("(declare-const x Int)(assert (> x 5))(assert (< x 3))(check-sat)", "unsat")
z3c("(declare-const x Int)(declare-const y Int)(assert (= (+ x y) 10))(assert (= (- x y) 2))(check-sat)", "sat")
z3c("(declare-const x Real)(assert (= (* 3 x) 1))(check-sat)", "sat", "model x = 1/3")
z3c("(declare-const x Int)(assert (= (* x x) 2))(check-sat)", "unsat")
z3c("(declare-const x Real)(assert (= (* x x) 2))(assert (> x 0))(check-sat)", "sat", "an algebraic model")
z3c("(declare-const x Int)(assert (= x (div (- 7) 2)))(check-sat)", "sat", "SMT div is Euclidean: -4")
z3c("(declare-const x Int)(assert (= x (mod (- 7) 2)))(check-sat)", "sat", "SMT mod is non-negative: 1")
z3c("(declare-const a (_ BitVec 8))(assert (bvult (bvadd a #x01) a))(check-sat)", "sat", "8-bit wraparound")
z3c("(declare-const a (_ BitVec 32))(assert (= (bvmul a #x00000002) #x00000001))(check-sat)", "unsat",
    "an even product is never 1 mod 2^32")
z3c("(declare-const p Bool)(declare-const q Bool)(assert (and p (not q)))(check-sat)", "sat")
z3c("(declare-const p Bool)(assert (and p (not p)))(check-sat)", "unsat")
z3c("(push)(assert false)(pop)(check-sat)", "sat", "a popped assertion no longer counts")
z3c("(declare-fun f (Int) Int)(assert (= (f 1) 2))(assert (= (f 2) 3))(check-sat)", "sat")
z3c("(declare-const x Int)(assert (forall ((y Int)) (>= (* y y) x)))(assert (> x 0))(check-sat)", "unsat",
    "y = 0 refutes it")
z3c("(declare-const x Int)(declare-const y Int)(assert (and (> x 0) (> y 0) (= (+ (* 3 x) (* 5 y)) 7)))(check-sat)",
    "unsat", "3x + 5y = 7 has no positive solution")
z3c("(declare-const x Int)(declare-const y Int)(assert (and (> x 0) (> y 0) (= (+ (* 3 x) (* 5 y)) 8)))(check-sat)",
    "sat")
z3c("(declare-const x Real)(declare-const y Real)(assert (> (+ x y) 1.5))(assert (< x 0.5))(assert (< y 0.5))"
    "(check-sat)", "unsat")
z3c("(declare-const x Int)(assert (! (> x 5) :named a1))(assert (! (< x 3) :named a2))(check-sat)", "unsat")
z3c("(set-logic QF_LIA)(declare-const x Int)(assert (= (* 2 x) 7))(check-sat)", "unsat")
z3c("(declare-const s String)(assert (= (str.len s) 3))(assert (str.prefixof \"ab\" s))(check-sat)", "sat")
z3c("(declare-const x (_ BitVec 8))(assert (= (bvsdiv x #xff) #x80))(check-sat)", "sat",
    "x = -128: -128 / -1 overflows back to -128")
z3c("(declare-const x Int)(assert (> x 2))(assert (< x 2))(check-sat)(get-model)", "unsat")
z3c("(declare-const x Int)(assert (= (- x) 5))(check-sat)", "sat", "negative model value -5")
case("z3_check", {"smt2": ""}, refuse("validation"), cat="z3_check")
case("z3_check", {"smt2": "(declare-const x Int)(assert (> x 5))"}, refuse("validation"), cat="z3_check")
case("z3_check", {"smt2": "(assert (> y 5))(check-sat)"}, refuse("validation"), cat="z3_check",
     why="undeclared constant")

# =========================================================================
# symbolic tools
# =========================================================================


def ev(expr, want, why=None, cat="evaluate", domain=None, value=True, alt=None):
    """evaluate_expression: `expression` equals want as a value (at complex
    points unless domain says otherwise); a numeric `value` agrees to 11
    digits when present."""
    checks = [chk("expression", "expr", want, domain=domain or {}, alt=alt)]
    if value:
        checks.append(chk("value", "num12", want, optional=True))
    case("evaluate_expression", {"expression": expr}, *checks, cat=cat, why=why)


def ev_plain(expr, want, typ, cat="evaluate/plain"):
    case("evaluate_expression", {"expression": expr}, chk("value", "pyval", want), cat=cat)


def ev_refuse(expr, *codes, why=None, cat="evaluate/refuse"):
    case("evaluate_expression", {"expression": expr}, refuse(*codes), cat=cat, why=why)


def ev_diverge(expr, why):
    """A divergent integral/sum: oo, -oo, zoo, nan, 'diverges' or a refusal;
    a finite number is a confident wrong answer."""
    case("evaluate_expression", {"expression": expr}, chk("expression", "not_finite"), cat="evaluate/divergent",
         why=why, accept_refusal=True)


# integrals
ev("integrate(x**2, x)", "x**3/3", cat="evaluate/integral", domain={"*": "real"})
ev("integrate(sin(x), (x, 0, pi))", "2", cat="evaluate/integral")
ev("integrate(exp(-x**2), (x, -oo, oo))", "sqrt(pi)", cat="evaluate/integral")
ev("integrate(1/x, (x, 1, E))", "1", cat="evaluate/integral")
ev("integrate(x*y, (x, 0, 1), (y, 0, 2))", "1", cat="evaluate/integral")
ev("integrate(1/(1 + x**2), (x, -oo, oo))", "pi", cat="evaluate/integral")
ev("integrate(log(x), (x, 0, 1))", "-1", cat="evaluate/integral")
ev("integrate(abs(x), (x, -1, 1))", "1", cat="evaluate/integral")
ev("integrate(sqrt(x), (x, 0, 4))", "16/3", cat="evaluate/integral")
ev("integrate(x*exp(-x), (x, 0, oo))", "1", cat="evaluate/integral")
ev("integrate(sin(x)/x, (x, 0, oo))", "pi/2", cat="evaluate/integral")
ev("integrate(floor(x), (x, 0, 3))", "3", cat="evaluate/integral")
ev("integrate(x**2 + y**2, (x, 0, 1), (y, 0, 1))", "2/3", cat="evaluate/integral")
ev("integrate(exp(-x)*x**3, (x, 0, oo))", "6", cat="evaluate/integral")
ev("integrate(1/sqrt(1 - x**2), (x, -1, 1))", "pi", cat="evaluate/integral")
ev("integrate(cos(x)**2, (x, 0, 2*pi))", "pi", cat="evaluate/integral")
ev("integrate(sign(x), (x, -2, 3))", "1", cat="evaluate/integral")
ev_diverge("integrate(1/x**2, (x, -1, 1))", "divergent at 0; the antiderivative gives -2")
ev_diverge("integrate(1/x, (x, -1, 1))", "divergent (only the Cauchy principal value is 0)")
ev_diverge("integrate(1/x**3, (x, -1, 2))", "divergent at 0")
ev_diverge("integrate(tan(x), (x, 0, pi))", "divergent at pi/2")
ev_diverge("integrate(1/(x - 1), (x, 0, 2))", "divergent at 1")
ev_diverge("integrate(1/x, (x, 1, oo))", "log diverges")
ev_diverge("summation(1/n, (n, 1, oo))", "harmonic series")
# derivatives
ev("diff(x**x, x)", "x**x*(log(x) + 1)", cat="evaluate/derivative")
ev("diff(sin(x)**2, x, 2)", "2*cos(2*x)", cat="evaluate/derivative")
ev("diff(atan(x), x)", "1/(1 + x**2)", cat="evaluate/derivative")
ev("diff(exp(x*y), x, y)", "exp(x*y)*(1 + x*y)", cat="evaluate/derivative")
ev("diff(log(abs(x)), x)", "1/x", cat="evaluate/derivative", domain={"*": "real"})
# series, sums, products
ev("summation(1/n**2, (n, 1, oo))", "pi**2/6", cat="evaluate/sum")
ev("summation(n, (n, 1, 100))", "5050", cat="evaluate/sum")
ev("summation((-1)**(n + 1)/n, (n, 1, oo))", "log(2)", cat="evaluate/sum")
ev("summation(1/2**n, (n, 0, oo))", "2", cat="evaluate/sum")
ev("summation(n**3, (n, 1, k))", "k**2*(k + 1)**2/4", cat="evaluate/sum")
ev("product(n, (n, 1, 5))", "120", cat="evaluate/sum")
ev("summation(x**n/factorial(n), (n, 0, oo))", "exp(x)", cat="evaluate/sum")
ev("limit(sin(x)/x, x, 0)", "1", cat="evaluate/limit")
# exact constants and elementary values
for expr, want in (("sqrt(8)", "2*sqrt(2)"), ("exp(I*pi)", "-1"), ("E**(I*pi/2)", "I"), ("log(E**3)", "3"),
                   ("sin(pi/6)", "1/2"), ("cos(pi/5)", "(1 + sqrt(5))/4"), ("tan(pi/12)", "2 - sqrt(3)"),
                   ("atan(1)", "pi/4"), ("asin(2)", "pi/2 - I*log(2 + sqrt(3))"), ("log(-1)", "I*pi"),
                   ("sqrt(-4)", "2*I"), ("(-8)**(1/3)", "1 + sqrt(3)*I"), ("I**I", "exp(-pi/2)"),
                   ("gamma(1/2)", "sqrt(pi)"), ("zeta(2)", "pi**2/6"), ("factorial(0)", "1"),
                   ("2**100", str(2**100)), ("10**20 + 1", str(10**20 + 1)), ("Rational(1, 3) + Rational(1, 6)", "1/2"),
                   ("re(3 + 4*I)", "3"), ("Abs(3 + 4*I)", "5"), ("arg(-1)", "pi"), ("atan2(1, -1)", "3*pi/4"),
                   ("atan2(-1, -1)", "-3*pi/4"), ("atan2(0, -1)", "pi"), ("sign(-3)", "-1"), ("Max(1, 2, 3)", "3"),
                   ("floor(log(1000)/log(10))", "3"), ("ceiling(log(8, 2))", "3"), ("log(8, 2)", "3"),
                   ("2^10", "1024"), ("3!", "6"), ("2(3 + 4)", "14"), ("Mod(-7, 3)", "2"), ("floor(-3.5)", "-4"),
                   ("sqrt(2)*sqrt(3)", "sqrt(6)"), ("sqrt(-2)*sqrt(-3)", "-sqrt(6)"), ("exp(log(5))", "5"),
                   ("log(exp(5*I))", "5*I - 2*pi*I"), ("acos(-1)", "pi"), ("cos(pi/3)**2 + sin(pi/3)**2", "1"),
                   ("binomial(10, 3)", "120"), ("LambertW(1)", "LambertW(1)"), ("erf(1)", "erf(1)"),
                   ("conjugate(2 + 3*I)", "2 - 3*I"), ("im(exp(I))", "sin(1)"), ("sinh(log(2))", "3/4"),
                   ("acosh(1)", "0"), ("atanh(0)", "0"), ("Min(pi, 3)", "3"), ("(1 + sqrt(2))**2", "3 + 2*sqrt(2)"),
                   ("cbrt(-8)", "-2"), ("root(16, 4)", "2"), ("exp(2*pi*I/3)**3", "1"),
                   ("floor(10**20*pi) - 314159265358979323846", "0")):
    ev(expr, want, cat="evaluate/exact")
ev("0**0", "1", alt=["nan"], cat="evaluate/exact", why="1 (SymPy, Python) or undefined (giac); both are conventions")
ev("N(pi, 50)", "3.1415926535897932384626433832795028841971693993751", cat="evaluate/precision",
   why="N keeps the digits asked for")
ev("N(sqrt(2), 30)", "1.41421356237309504880168872421", cat="evaluate/precision")
ev("N(E, 20)", "2.7182818284590452354", cat="evaluate/precision")
case("evaluate_expression", {"expression": "0.1 + 0.2"}, chk("expression", "float", 0.30000000000000004, rel=1e-15),
     cat="evaluate/precision")
case("evaluate_expression", {"expression": "LambertW(1)"}, chk("expression", "expr", "LambertW(1)"),
     chk("expression", "no_float"),
     cat="evaluate/precision", why="issue 12: exact special values stay exact")
case("evaluate_expression", {"expression": "integrate(exp(-x**2), (x, 0, 1))"},
     chk("expression", "expr", "sqrt(pi)*erf(1)/2"), chk("expression", "no_float", sev="short"),
     cat="evaluate/precision")
ev("sqrt(x**2)", "sqrt(x**2)", why="not Abs(x) over C", cat="evaluate/branch")
ev("log(exp(x))", "log(exp(x))", why="not x over C", cat="evaluate/branch")
ev("(x**2)**(1/2)", "sqrt(x**2)", cat="evaluate/branch")
ev("exp(log(x))", "x", cat="evaluate/branch")
# plain values
ev_plain("nextprime(100)", 101, "int")
ev_plain("isprime(2**61 - 1)", True, "bool")
ev_plain("isprime(561)", False, "bool")
ev_plain("factorint(2**32 + 1)", {641: 1, 6700417: 1}, "dict")
ev_plain("primefactors(1001)", [7, 11, 13], "list")
ev_plain("divisors(28)", [1, 2, 4, 7, 14, 28], "list")
ev_plain("totient(36)", 12, "int")
ev_plain("prime(100)", 541, "int")
ev_plain("gcd(2**64, 6**20)", 2**20, "int")
ev_plain("lcm(12, 18)", 36, "int")
ev_plain("prevprime(100)", 97, "int")
ev_plain("factorint(600851475143)", {71: 1, 839: 1, 1471: 1, 6857: 1}, "dict")
ev_refuse("9**9**9", "resource_exhausted")
ev_refuse("factorial(100000)", "resource_exhausted")
ev_refuse("foo(3)", "validation")
ev_refuse("Matrix([[1, 2], [3, 4]])", "permission_denied")
ev_refuse("x +* 2", "validation")
ev_refuse("(x + 1)**300", "resource_exhausted")
case("evaluate_expression", {"expression": "x**y**z"}, chk("expression", "expr", "x**(y**z)", domain={"*": "positive"}),
     cat="evaluate/tower", why="issue 12: a symbolic tower is ordinary input")
case("evaluate_expression", {"expression": "2**x**2"}, chk("expression", "expr", "2**(x**2)"), cat="evaluate/tower")
ev_refuse("9**9**9**9 - x", "resource_exhausted", cat="evaluate/tower")

# simplify_expression: every form equals the input (complex points); the
# simplified form reaches the expected one (short when it stops short)


def simp(expr, target=None, why=None, domain=None, cat="simplify"):
    checks = [chk("simplified", "expr", expr, domain=domain or {}, input=True),
              chk("factored", "expr", expr, domain=domain or {}, input=True),
              chk("expanded", "expr", expr, domain=domain or {}, input=True)]
    if target is not None:
        checks.append(chk("simplified", "ops_le", target, sev="short"))
    case("simplify_expression", {"expr": expr}, *checks, cat=cat, why=why)


for e, t in (("(x**2 - 1)/(x - 1)", "x + 1"), ("sin(x)**2 + cos(x)**2", "1"), ("cosh(x)**2 - sinh(x)**2", "1"),
             ("2*sin(x)*cos(x)", "sin(2*x)"), ("exp(x)*exp(y)", "exp(x + y)"), ("tan(x)*cos(x)", "sin(x)"),
             ("(a + b)**2 - a**2 - 2*a*b", "b**2"), ("1/(1/x)", "x"), ("(x**3 - 8)/(x - 2)", "x**2 + 2*x + 4"),
             ("sin(x + y) - sin(x)*cos(y) - cos(x)*sin(y)", "0"), ("cos(x)**4 - sin(x)**4", "cos(2*x)"),
             ("1/(x - 1) - 1/(x + 1)", "2/(x**2 - 1)"), ("sqrt(8)", "2*sqrt(2)"), ("sqrt(12) + sqrt(27)", "5*sqrt(3)"),
             ("(sqrt(2) + 1)*(sqrt(2) - 1)", "1"), ("exp(2*log(x))", "x**2"), ("x/x", "1"), ("(x - 1)/(1 - x)", "-1"),
             ("gamma(x + 1)/gamma(x)", "x"), ("sign(x)*Abs(x)", "x"), ("2**x*3**x", "6**x"),
             ("sqrt(x)*sqrt(x)", "x"), ("exp(x)**2", "exp(2*x)"), ("x**a*x**b", "x**(a + b)"),
             ("sin(asin(x))", "x"), ("2*tan(x)/(tan(x)**2 + 1)", "sin(2*x)"), ("(x**2 + 2*x + 1)/(x + 1)", "x + 1"),
             ("cos(x)**2 - sin(x)**2", "cos(2*x)"), ("sin(x)/cos(x)", "tan(x)"), ("exp(I*x) + exp(-I*x)", "2*cos(x)"),
             ("(exp(x) - exp(-x))/2", "sinh(x)"), ("log(x) - log(x)", "0"), ("x**2*x**3", "x**5"),
             ("(x + 1)**3 - (x**3 + 3*x**2 + 3*x + 1)", "0"), ("1 - 2*sin(x)**2", "cos(2*x)"),
             ("sin(x)**3 + sin(x)*cos(x)**2", "sin(x)"), ("exp(x)/exp(y)", "exp(x - y)"),
             ("(x**4 - 1)/(x**2 + 1)", "x**2 - 1"), ("tanh(x)*cosh(x)", "sinh(x)")):
    simp(e, t)
# branch traps: forms that must NOT be produced (each stays equal to the input over C)
for e in ("log(x) + log(y)", "sqrt(x)*sqrt(y)", "log(x**2)", "sqrt(x**2)", "log(exp(x))", "(x*y)**a",
          "(x**a)**b", "asin(sin(x))", "atan(tan(x))", "acos(cos(x))", "(x**3)**(1/3)", "Abs(x)**2",
          "sqrt(exp(x))", "(exp(x))**y", "log(1/x)", "sqrt(1/x)", "sqrt(x)/sqrt(y)", "log(x/y)", "exp(x)**(1/2)",
          "(x**2)**y", "sqrt(x**2*y**2)", "log(x*y) - log(x) - log(y)"):
    simp(e, None, cat="simplify/branch", why="a real-only rewrite is wrong over C")

# solve_expression: every root satisfies the equation as written; the set
# equals the oracle's (SymPy solve / hand) unless periodic


def solve(expr, want, var="x", why=None, cat="solve", periodic=False):
    checks = [chk("solutions", "roots", want, eq=expr, var=var, periodic=periodic)]
    args = {"expr": expr}
    if var != "x":
        args["var"] = var
    case("solve_expression", args, *checks, cat=cat, why=why)


solve("x**2 - 4 = 0", ["-2", "2"])
solve("2*x + 1 = 7", ["3"])
solve("x**2 + 1", ["-I", "I"])
solve("x**2 - 2 = 0", ["-sqrt(2)", "sqrt(2)"])
solve("x**3 - 1 = 0", ["1", "-1/2 - sqrt(3)*I/2", "-1/2 + sqrt(3)*I/2"])
solve("x**4 = 16", ["-2", "2", "-2*I", "2*I"])
solve("sqrt(x) = x - 2", ["4"], why="x = 1 is extraneous")
solve("sqrt(x) = -1", [], why="no solution with the principal root")
solve("x*exp(x) = 1", ["LambertW(1)"])
solve("(x**2 - 1)/(x - 1) = 0", ["-1"], why="x = 1 is not in the domain")
solve("x**3 - 6*x**2 + 11*x - 6", ["1", "2", "3"])
solve("x**2 + x + 1", ["-1/2 - sqrt(3)*I/2", "-1/2 + sqrt(3)*I/2"])
solve("(x - 1)**2", ["1"])
solve("log(x) = 2", ["exp(2)"])
solve("2**x = 8", ["3"])
solve("x**x = 4", ["2"])
solve("1/x = 0", [])
solve("x**4 - 5*x**2 + 4", ["-2", "-1", "1", "2"])
solve("x**6 = 1", ["1", "-1", "1/2 + sqrt(3)*I/2", "1/2 - sqrt(3)*I/2", "-1/2 + sqrt(3)*I/2", "-1/2 - sqrt(3)*I/2"])
solve("x**2 = 10**40", ["-10**20", "10**20"])
solve("a*y + b = 0", ["-b/a"], var="y")
solve("x**2 = 4", [], var="y", why="y does not occur")
solve("log(x) = log(2) + log(3)", ["6"])
solve("x = x + 1", [])
solve("x**(1/3) = -2", [], why="the principal cube root is never -2")
solve("exp(2*x) - 3*exp(x) + 2 = 0", None, periodic=True)
solve("sin(x) = 0", None, periodic=True)
solve("sin(x) = 1/2", None, periodic=True)
solve("cos(x) = 2", None, periodic=True)
solve("tan(x) = 1", None, periodic=True)
solve("exp(x) = -1", None, periodic=True)
solve("x**5 - x - 1", [str(r) for r in sp.Poly(sp.Symbol("x")**5 - sp.Symbol("x") - 1).nroots(n=30)],
      why="one real root near 1.1673 and four complex ones")
solve("x**2 - 3*x + 2 = 0", ["1", "2"])
case("solve_expression", {"expr": "abs(x - 1) = 2"}, chk("solutions", "roots", None, eq="abs(x - 1) = 2", var="x"),
     cat="solve", accept_refusal=True, why="real roots -1, 3; over C the solution set is a circle (SymPy refuses too)")
solve("x**3 = -8", ["-2", "1 - sqrt(3)*I", "1 + sqrt(3)*I"])
solve("exp(x) = 5", None, periodic=True)
solve("x/(x - 2) = 2/(x - 2)", [], why="x = 2 is excluded")
solve("sqrt(x + 3) = x + 1", ["1"], why="x = -2 is extraneous")
solve("x**2 - 0.25 = 0", ["-0.5", "0.5"])

# limit_expression: the right limit (default); left and two_sided too


def lim(expr, want, point="oo", var="x", left=None, two=None, why=None, cat="limit"):
    args = {"expr": expr}
    if point != "oo":
        args["point"] = point
    if var != "x":
        args["var"] = var
    checks = [chk("limit", "limit", want)]
    if left is not None:
        checks.append(chk("left", "limit", left))
    if two is not None:
        checks.append(chk("two_sided", "limit", two))
    case("limit_expression", args, *checks, cat=cat, why=why)


lim("sin(x)/x", "1", "0", two="1")
lim("(1 + 1/n)**n", "E", var="n")
lim("1/x", "oo", "0", left="-oo", two="does not exist")
lim("Abs(x)/x", "1", "0", left="-1", two="does not exist")
lim("x*log(x)", "0", "0")
lim("(1 - cos(x))/x**2", "1/2", "0", two="1/2")
lim("exp(-1/x)", "0", "0", left="oo", two="does not exist")
lim("x**x", "1", "0")
lim("(x**2 - 1)/(x - 1)", "2", "1", two="2")
lim("sin(1/x)", "does not exist", "0", why="oscillates: AccumBounds(-1, 1), never a number")
lim("sin(x)", "does not exist", why="oscillates at oo")
lim("x/(x + 1)", "1")
lim("x/(x + 1)", "1", "-oo")
lim("sqrt(x**2 + x) - x", "1/2")
lim("log(x)/x", "0")
lim("x**(1/x)", "1")
lim("(1 + a/x)**x", "exp(a)")
lim("floor(x)", "1", "1", left="0", two="does not exist")
lim("tan(x)", "-oo", "pi/2", left="oo", two="does not exist")
lim("2**x/x**100", "oo")
lim("(2**x - 1)/x", "log(2)", "0")
lim("atan(x)", "-pi/2", "-oo")
lim("factorial(n)**(1/n)/n", "exp(-1)", var="n")
lim("factorial(n)/n**n", "0", var="n")
lim("1/x**2", "oo", "0", left="oo", two="oo")
lim("sign(x)", "1", "0", left="-1", two="does not exist")
lim("x*sin(1/x)", "0", "0", two="0")
lim("exp(x)/x**1000", "oo")
lim("(sin(x) - x)/x**3", "-1/6", "0")

# solve_linear: every solution satisfies every equation; the set is the oracle's


def lin(system, variables, want, why=None, cat="solve_linear", unsolved=None):
    checks = [chk("solutions", "linsol", want, system=system, variables=variables)]
    if unsolved is not None:
        checks.append(chk("unsolved", "json", unsolved))
    case("solve_linear", {"system": system, "variables": variables}, *checks, cat=cat, why=why)


lin("x + y = 10; x - y = 2", "x, y", [{"x": "6", "y": "4"}])
lin("2*x = 4", "x", [{"x": "2"}])
lin("x + y = 1; x + y = 2", "x, y", [])
lin("x + y + z = 6; 2*y + 5*z = -4; 2*x + 5*y - z = 27", "x, y, z", [{"x": "5", "y": "3", "z": "-2"}])
lin("x/3 + y/4 = 1; x - y = 1/2", "x, y", [{"x": "27/14", "y": "10/7"}])
lin("a*x + b*y = c; x - y = 0", "x, y", [{"x": "c/(a + b)", "y": "c/(a + b)"}])
lin("x**2 + y**2 = 25; x - y = 1", "x, y", [{"x": "4", "y": "3"}, {"x": "-3", "y": "-4"}])
lin("x + y = 10", "x, y", [{"x": "10 - y"}], unsolved=["y"])
lin("x + y = 10; x - y = 2", "x, y, z", [{"x": "6", "y": "4"}], unsolved=["z"])
lin("x + 2*y = 3; 2*x + 4*y = 6", "x, y", [{"x": "3 - 2*y"}], unsolved=["y"])
lin("10**20*x + y = 1; x + y = 1", "x, y", [{"x": "0", "y": "1"}])
lin("x - y = 10**30; x + y = 0", "x, y", [{"x": str(5 * 10**29), "y": str(-5 * 10**29)}])
lin("3*x - 2 = 0", "x", [{"x": "2/3"}])
lin("x*y = 6; x + y = 5", "x, y", [{"x": "2", "y": "3"}, {"x": "3", "y": "2"}])
case("solve_linear", {"system": "os.system(1) = 0", "variables": "x"}, refuse("permission_denied"),
     cat="solve_linear")

# matrix


def mat(rows, op, want_key, want, why=None, cat="matrix"):
    if want_key == "value":
        checks = [chk("value", "expr", want)]
    elif want_key == "matrix":
        checks = [chk("matrix", "exprmat", want)]
    else:
        checks = [chk("eigenvalues", "eig", want)]
    case("matrix", {"rows": rows, "op": op}, *checks, cat=cat, why=why)


mat([[1, 2], [3, 4]], "det", "value", "-2")
mat([[1, 2], [3, 4]], "inverse", "matrix", [["-2", "1"], ["3/2", "-1/2"]])
mat([[2, 0], [0, 2]], "eigenvalues", "eig", {"2": 2})
mat([[1, 2], [2, 1]], "eigenvalues", "eig", {"3": 1, "-1": 1})
mat([[0, -1], [1, 0]], "eigenvalues", "eig", {"I": 1, "-I": 1})
mat([[1, 1], [0, 1]], "eigenvalues", "eig", {"1": 2})
mat([[1, 2], [3, 4]], "eigenvalues", "eig", {"5/2 - sqrt(33)/2": 1, "5/2 + sqrt(33)/2": 1})
mat([[2, 1], [1, 2]], "eigenvalues", "eig", {"1": 1, "3": 1})
mat([[1, 2, 0], [2, 1, 0], [0, 0, 5]], "eigenvalues", "eig", {"3": 1, "-1": 1, "5": 1})
mat([[1, 2, 3], [4, 5, 6], [7, 8, 10]], "det", "value", "-3")
mat([[1, 2, 3], [4, 5, 6], [7, 8, 9]], "det", "value", "0")
H = [["1/%d" % (i + j + 1) for j in range(4)] for i in range(4)]
mat(H, "det", "value", "1/6048000", why="Hilbert 4x4, exact")
H3 = [["1/%d" % (i + j + 1) for j in range(3)] for i in range(3)]
mat(H3, "inverse", "matrix", [["9", "-36", "30"], ["-36", "192", "-180"], ["30", "-180", "180"]])
mat([[1, 2], [2, 4]], "rank", "value", "1")
mat([[1, 2, 3], [4, 5, 6], [7, 8, 9]], "rank", "value", "2")
mat([[0, 0], [0, 0]], "rank", "value", "0")
mat([[1, 2], [3, 4]], "trace", "value", "5")
mat([[1, 2, 3], [4, 5, 6]], "transpose", "matrix", [["1", "4"], ["2", "5"], ["3", "6"]])
mat([["x + 1", "2"], ["3", "4"]], "det", "value", "4*x - 2")
mat([["a", "b"], ["c", "d"]], "inverse", "matrix", [["d/(a*d - b*c)", "-b/(a*d - b*c)"],
                                                      ["-c/(a*d - b*c)", "a/(a*d - b*c)"]])
mat([[0.5, 1], [2, 3]], "det", "value", "-0.5")
mat([[10**20, 1], [1, 10**20]], "det", "value", str(10**40 - 1), why="exact big integers")
mat([[7]], "det", "value", "7")
mat([[0, 1], [1, 0]], "inverse", "matrix", [["0", "1"], ["1", "0"]])
mat([["cos(t)", "-sin(t)"], ["sin(t)", "cos(t)"]], "det", "value", "1")
mat([[2, 0, 0], [0, 3, 4], [0, 4, 9]], "eigenvalues", "eig", {"1": 1, "2": 1, "11": 1})
case("matrix", {"rows": [[1, 2], [2, 4]], "op": "inverse"}, refuse("validation"), cat="matrix")
case("matrix", {"rows": [[1, 2, 3], [4, 5, 6]], "op": "det"}, refuse("validation"), cat="matrix")
case("matrix", {"rows": [[1, 2], [3]], "op": "det"}, refuse("validation"), cat="matrix")

# algebraic_equiv: identical true / false / with assumptions


def eq(a, b, truth, assume=None, why=None, cat=None, holds=True):
    """truth: True (an identity over the stated domain) or False. A false
    identity answered true is confidently wrong; null for a false one is
    undecided ('short'); a holds_for claim, when given, is checked."""
    args = {"a": a, "b": b}
    if assume:
        args["assume"] = assume
    checks = [chk("identical", "verdict", truth)]
    if truth is False and holds:
        checks.append(chk("holds_for", "holds_for", None, a=a, b=b))
    case("algebraic_equiv", args, *checks,
         cat=cat or ("equiv/true" if truth else "equiv/false") + ("-assume" if assume else ""), why=why)


for a, b in (("(a + b)**2", "a**2 + 2*a*b + b**2"), ("sin(x)**2 + cos(x)**2", "1"), ("exp(I*x)", "cos(x) + I*sin(x)"),
             ("cosh(x)**2 - sinh(x)**2", "1"), ("tan(x)", "sin(x)/cos(x)"), ("exp(log(x))", "x"),
             ("sin(2*x)", "2*sin(x)*cos(x)"), ("cos(2*x)", "1 - 2*sin(x)**2"), ("x**a*x**b", "x**(a + b)"),
             ("x**(1/2)*x**(1/2)", "x"), ("acos(x) + asin(x)", "pi/2"), ("Abs(x*y)", "Abs(x)*Abs(y)"),
             ("conjugate(x)*x", "Abs(x)**2"), ("cos(x)**2", "(1 + cos(2*x))/2"), ("sinh(x)", "(exp(x) - exp(-x))/2"),
             ("tanh(x)", "sinh(x)/cosh(x)"), ("exp(x + y)", "exp(x)*exp(y)"), ("x**(y + z)", "x**y*x**z"),
             ("(x*y)**2", "x**2*y**2"), ("(x**2)**3", "x**6"), ("sin(x + 2*pi)", "sin(x)"), ("sin(x + pi)", "-sin(x)"),
             ("exp(x + 2*pi*I)", "exp(x)"), ("log(x) - log(x)", "0"), ("gamma(x + 1)", "x*gamma(x)"),
             ("sqrt(2)*sqrt(3)", "sqrt(6)"), ("(x**3 - 1)/(x - 1)", "x**2 + x + 1"),
             ("1/(x - 1) - 1/(x + 1)", "2/(x**2 - 1)"), ("(x + y)**3", "x**3 + 3*x**2*y + 3*x*y**2 + y**3"),
             ("2**x*3**x", "6**x"), ("exp(x)**2", "exp(2*x)"), ("exp(2*log(x))", "x**2"), ("sin(x)*cos(y) + cos(x)*sin(y)", "sin(x + y)"),
             ("sinh(2*x)", "2*sinh(x)*cosh(x)"),
             ("sign(x)*Abs(x)", "x"), ("x/x", "1"), ("(x**4 - y**4)/(x - y)", "(x + y)*(x**2 + y**2)"),
             ("exp(I*pi*x)**2", "exp(2*I*pi*x)"), ("cos(x)", "(exp(I*x) + exp(-I*x))/2"),
             ("factorial(n + 1)/factorial(n)", "n + 1")):
    eq(a, b, True)
for a, b, why in (("log(x*y)", "log(x) + log(y)", "x = y = -1"), ("sqrt(x*y)", "sqrt(x)*sqrt(y)", "x = y = -1"),
                  ("(x**a)**b", "x**(a*b)", "x = -1, a = 2, b = 1/2"), ("log(x**2)", "2*log(x)", "x = -1"),
                  ("sqrt(x**2)", "x", "x = -1"), ("sqrt(x**2)", "Abs(x)", "x = I: I vs 1"),
                  ("asin(sin(x))", "x", "x = 2"), ("log(exp(x))", "x", "x = 4*I"), ("(x**2)**(1/2)", "x", "x = -1"),
                  ("1/sqrt(x)", "sqrt(1/x)", "x = -1"), ("sqrt(x)/sqrt(y)", "sqrt(x/y)", "x = 1, y = -1"),
                  ("atan(x) + atan(1/x)", "pi/2", "x = -1"), ("log(1/x)", "-log(x)", "x = -1"),
                  ("Abs(x)**2", "x**2", "x = I"), ("floor(x) + floor(-x)", "-1", "x integer"),
                  ("(-1)**(2*n)", "1", "n = 1/4"), ("2*atan(x)", "atan(2*x/(1 - x**2))", "x = 2"),
                  ("(x*y)**z", "x**z*y**z", "x = y = -1, z = 1/2"), ("(x**3)**(1/3)", "x", "x = -1"),
                  ("sqrt(exp(x))", "exp(x/2)", "x = 2*pi*I"), ("x + 1/10**30", "x", "a tiny constant difference"),
                  ("x*(1 + 10**-40)", "x", "a tiny relative difference"), ("pi", "355/113", "close, not equal"),
                  ("E**pi", "pi**E", ""), ("sqrt(-2)*sqrt(-3)", "sqrt(6)", "= -sqrt(6)"),
                  ("(-8)**(1/3)", "-2", "principal cube root"), ("x**2", "Abs(x)**2", "x = I"),
                  ("acos(cos(x))", "x", "x = -1"), ("atan(tan(x))", "x", "x = 2"), ("exp(x)**y", "exp(x*y)", "x = 2*pi*I, y = 1/2"),
                  ("log(x/y)", "log(x) - log(y)", "x = -1, y = -1"), ("sin(x)**2", "sin(x**2)", ""),
                  ("cos(x)", "sqrt(1 - sin(x)**2)", "x = pi"), ("x**(2/3)", "(x**2)**(1/3)", "x = -1"), ("floor(x/2)", "floor(x)/2", "x = 1"),
                  ("(x + 1)**2", "x**2 + 1", ""), ("sin(x)/x", "1", ""), ("log(x, 10)", "log(x)/log(2)", ""),
                  ("x**(1/2)", "x**0.5 + 10**-25", "a tiny float difference")):
    eq(a, b, False, why=why)
eq("log(x*y)", "log(x) + log(y)", True, assume={"x": "positive", "y": "positive"})
eq("sqrt(x**2)", "x", True, assume={"x": "nonnegative"})
eq("sqrt(x**2)", "x", False, assume={"x": "real"}, why="x = -1")
eq("sqrt(x**2)", "Abs(x)", True, assume={"x": "real"})
eq("(x**a)**b", "x**(a*b)", False, assume={"x": "positive"}, why="a, b complex: x = E, a = 4*I, b = 1/2")
eq("(x**a)**b", "x**(a*b)", True, assume={"x": "positive", "a": "real", "b": "real"})
eq("(x**a)**n", "x**(a*n)", True, assume={"n": "integer"})
eq("(-1)**(2*n)", "1", True, assume={"n": "integer"})
eq("sin(pi*n)", "0", True, assume={"n": "integer"})
eq("cos(pi*n)", "(-1)**n", True, assume={"n": "integer"})
eq("floor(n)", "n", True, assume={"n": "integer"})
eq("Abs(x)**2", "x**2", True, assume={"x": "real"})
eq("conjugate(x)", "x", True, assume={"x": "real"})
eq("atan(tan(x))", "x", False, assume={"x": "real"}, why="x = 2")
eq("log(exp(x))", "x", True, assume={"x": "real"})
eq("atan(x) + atan(1/x)", "pi/2", True, assume={"x": "positive"})
eq("asin(sin(x))", "x", False, assume={"x": "real"}, why="x = 2")
eq("sqrt(x*y)", "sqrt(x)*sqrt(y)", True, assume={"x": "positive"}, why="one positive factor suffices")
eq("sqrt(x*y)", "sqrt(x)*sqrt(y)", False, assume={"x": "real", "y": "real"}, why="x = y = -1")
eq("log(x**2)", "2*log(x)", True, assume={"x": "positive"})
eq("log(x**2)", "2*log(Abs(x))", True, assume={"x": "real"})
eq("(x*y)**z", "x**z*y**z", True, assume={"x": "positive", "y": "positive"})
eq("(x**3)**(1/3)", "x", True, assume={"x": "positive"})
eq("x**(1/3)", "-(-x)**(1/3)", False, assume={"x": "real"}, why="x = 1: 1 vs 1/2 - sqrt(3)*I/2")

# =========================================================================

def write_cases(name, about):
    """Writes CASES to NAME beside this file (ids must be unique)."""
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate ids"
    out = os.path.join(HERE, name)
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"about": about, "count": len(CASES), "cases": CASES}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("wrote %d cases to %s" % (len(CASES), out))


def main():
    write_cases("corpus.json", "independent cross-check corpus; built by make_corpus.py; see README.md")
    if "--verify" in sys.argv:
        import verify_truths
        verify_truths.run(CASES)


if __name__ == "__main__":
    main()
