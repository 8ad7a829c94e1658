#!/usr/bin/env python3
"""Audits the committed corpora's limit expectations that no number backed:
every limit_expression check whose want is "does not exist" (SymPy's
AccumBounds, trusted by the redsym2/3 oracle) or +-oo is looked at again
with oracle.numeric_limit_confirms (80 digits, a near and a far window from
the side the check names). Prints the expectations the numbers do not
confirm; such a case judges codecalc by SymPy's word alone.

Usage: python3 audit_limits.py [corpus.json ...] (default: every
generated*/heldout*/corpus json beside this file)
"""
import glob
import json
import os
import sys

import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from oracle import parse, numeric_limit_confirms  # noqa: E402

SIDES = {"limit": None, "left": "-", "right": "+"}


def audit(path):
    bad, seen = [], 0
    for cs in json.load(open(path, encoding="utf-8"))["cases"]:
        if cs["tool"] != "limit_expression":
            continue
        args = cs["args"]
        if args.get("var", "x") != "x":
            continue
        pt = args.get("point", "oo").strip()
        for ck in cs["checks"]:
            want = ck.get("want")
            if ck.get("cmp") != "limit" or want not in ("does not exist", "oo", "-oo") or ck["at"] not in SIDES:
                continue
            if pt in ("oo", "-oo"):
                d = "-" if pt == "oo" else "+"
            else:
                d = SIDES[ck["at"]] or {"-": "-"}.get(args.get("direction"), "+")
            v = want if want == "does not exist" else parse(want)
            seen += 1
            try:
                ok = numeric_limit_confirms(parse(args["expr"]), parse(pt), d, v)
            except Exception as ex:  # noqa: BLE001 - reported, not hidden
                ok = "error %s" % type(ex).__name__
            if ok is not True:
                bad.append("%s %s at %s (%s, side %s): want %s -> %s" % (cs["id"], args["expr"], pt, ck["at"], d,
                                                                      want, ok))
    return seen, bad


def main():
    paths = sys.argv[1:] or sorted(glob.glob(os.path.join(HERE, "generated*.json")) +
                                   glob.glob(os.path.join(HERE, "heldout*.json")) +
                                   [os.path.join(HERE, "corpus.json")])
    for p in paths:
        seen, bad = audit(p)
        print("%s: %d unbacked limit expectations looked at, %d not confirmed" % (os.path.basename(p), seen, len(bad)))
        for b in bad:
            print("  " + b)


if __name__ == "__main__":
    sp.init_printing(pretty_print=False)
    main()
