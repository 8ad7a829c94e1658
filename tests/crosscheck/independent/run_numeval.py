#!/usr/bin/env python3
"""Runs numeval.json (make_numeval.py) through evaluate_expression and judges
each N(...) answer digit by digit against mpmath's value:

  ok        every part is the correctly rounded d-digit value; a zero part
            is omitted and a nonzero one, however small, is shown
  rounding  a part is one unit off in its last digit (a tie, or double
            rounding), nothing else
  refusal   ok:false (an honest error)
  wrong     any other answer: a confident wrong answer (a dropped tiny part,
            digits that are not the value's, 0.0 for a nonzero value)

The 12-digit `value` is judged the same way (to one unit in the 12th digit).

Exit status 1 on any wrong answer unless --report-only. Skips (exit 0) when
SymPy or mpmath is missing.

Usage: python3 run_numeval.py --bin build/bin/codecalc [--corpus FILE]
       [--report-only] [-v]
"""
import argparse
import collections
import decimal
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
try:
    import mpmath
except ImportError:  # pragma: no cover - depends on the host
    print("numeval: SKIP: mpmath not importable")
    sys.exit(0)

sys.path.insert(0, os.path.dirname(HERE))
from mcp_stdio import Server  # noqa: E402

NUM = r"-?\d+(?:\.\d*)?(?:e[-+]?\d+)?"
FORMS = [  # (regex, which groups are re / im)
    (re.compile(r"^(%s)$" % NUM), ("re",)),
    (re.compile(r"^(%s)\*I$" % NUM), ("im",)),
    (re.compile(r"^(-?)I$"), ("unit_im",)),
    (re.compile(r"^(%s) ([-+]) (%s)\*I$" % (NUM, NUM.lstrip("-?"))), ("re", "sign", "im")),
]


def parts(text):
    """(re, im) decimal strings of a printed value, "0" for an absent part;
    None when the text is not a plain complex float."""
    t = text.strip()
    for rx, names in FORMS:
        m = rx.match(t)
        if not m:
            continue
        g = dict(zip(names, m.groups()))
        if "unit_im" in g:
            return "0", g["unit_im"] + "1"
        im = g.get("im", "0")
        if g.get("sign") == "-":
            im = "-" + im
        return g.get("re", "0"), im
    return None


def decimal_parts(dec):
    """(mantissa, exponent) integers with value = mantissa * 10**exponent,
    exactly (no float, no exponent range: e+434294481903251827651 is
    fine)."""
    m = re.match(r"^\s*([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?\s*$", dec)
    if not m:
        raise ValueError("not a decimal: %r" % dec)
    sign, whole, frac, exp = m.groups()
    digits = (whole or "") + (frac or "")
    mant = int(digits or "0") * (-1 if sign == "-" else 1)
    return mant, int(exp or 0) - len(frac or "")


def rounded(dec, digits):
    """dec rounded to digits significant digits, an exact tie away from
    zero as mpmath and SymPy print: (mantissa, exponent)."""
    mant, exp = decimal_parts(dec)
    if mant == 0:
        return 0, 0
    sign = -1 if mant < 0 else 1
    text = str(abs(mant))
    drop = len(text) - digits
    if drop <= 0:
        return mant, exp
    q, r = divmod(abs(mant), 10 ** drop)
    if 2 * r >= 10 ** drop:
        q += 1
    return sign * q, exp + drop


def judge_part(got, want, digits):
    """'ok', 'rounding' or 'wrong' for one part."""
    g, ge = decimal_parts(got)
    w, _ = decimal_parts(want)
    if w == 0 or g == 0:
        return "ok" if g == w else "wrong"
    r, re_ = rounded(want, digits)
    if abs(ge - re_) > digits + 200:  # magnitudes apart: no scaling of huge powers
        return "wrong"
    e = min(ge, re_)  # both at the smaller exponent
    gs, rs = g * 10 ** (ge - e), r * 10 ** (re_ - e)
    if gs == rs:
        return "ok"
    return "rounding" if abs(gs - rs) <= 10 ** (re_ - e) else "wrong"


def judge(res, case):
    if not res.get("ok"):
        return "refusal", res.get("error", "")[:120]
    p = parts(str(res.get("expression", "")))
    if p is None:
        return "wrong", "not a complex float: %r" % res.get("expression")
    verdicts = [judge_part(p[0], case["re"], case["digits"]),
                judge_part(p[1], case["im"], case["digits"])]
    v = res.get("value")
    vp = parts(v) if isinstance(v, str) else None
    if vp is None:
        verdicts.append("wrong")
    else:
        verdicts += [judge_part(vp[0], case["re"], min(12, case["digits"])),
                     judge_part(vp[1], case["im"], min(12, case["digits"]))]
    for worst in ("wrong", "rounding"):
        if worst in verdicts:
            return worst, "got %s (value %s), want %s + %s*I" % (
                res.get("expression"), v, case["re"], case["im"])
    return "ok", ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--corpus", default=os.path.join(HERE, "numeval.json"))
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    with open(args.corpus) as fh:
        cases = json.load(fh)["cases"]
    srv = Server(args.bin)
    tally = collections.Counter()
    by_family = collections.defaultdict(collections.Counter)
    lines = []
    try:
        for case in cases:
            res, _ = srv.call("evaluate_expression", {"expression": case["expression"]})
            verdict, detail = judge(res, case)
            tally[verdict] += 1
            by_family[case["family"]][verdict] += 1
            if verdict != "ok" and (args.v or verdict == "wrong"):
                lines.append("  %-8s %s: %s" % (verdict, case["expression"], detail))
    finally:
        srv.close()
    n = len(cases)
    print("numeval: %d cases, %d ok (%.1f%%), %d rounding, %d refusal, %d WRONG  [%s]" % (
        n, tally["ok"], 100.0 * tally["ok"] / max(n, 1), tally["rounding"], tally["refusal"],
        tally["wrong"], os.path.basename(args.corpus)))
    for fam in sorted(by_family):
        c = by_family[fam]
        print("  %-14s ok %3d  rounding %2d  refusal %2d  wrong %3d" % (
            fam, c["ok"], c["rounding"], c["refusal"], c["wrong"]))
    for line in lines[:60]:
        print(line)
    if tally["wrong"] and not args.report_only:
        sys.exit(1)


if __name__ == "__main__":
    main()
