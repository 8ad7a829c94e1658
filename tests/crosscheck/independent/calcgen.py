"""What the calculator red-team generators share (make_heldout_redcalc2.py
to make_heldout_redcalc5.py): the case helpers of make_corpus.py (its own
cases dropped), the oracles of oracle.py, the checks every batch adds, the
exact-to-double helpers and the batch labelling and command line.

Importing this module empties make_corpus.CASES once: each generator adds
its batches to that list and writes it with write_cases.
"""
import argparse
import os
import sys

import mpmath

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_corpus as mc  # noqa: E402  (the case helpers; its own cases are dropped)
from make_corpus import case, chk, qs  # noqa: E402,F401
from oracle import bitop_ref, half_even, human_ref, keep6  # noqa: E402,F401

del mc.CASES[:]
sys.set_int_max_str_digits(100000)

# a refusal (validation) is the right answer
REFUSE = {"at": "", "cmp": "refuse", "codes": ["validation"], "sev": "wrong"}
# no JSON integer of 2^53 or more anywhere in the result
INTS53 = {"at": "", "cmp": "ints53", "sev": "wrong"}
# a relation's truth from the sign of left - right
OPS = {"==": lambda c: c == 0, "!=": lambda c: c != 0, "<": lambda c: c < 0, "<=": lambda c: c <= 0,
       ">": lambda c: c > 0, ">=": lambda c: c >= 0}


def double_of(q):
    """The double nearest a Fraction (Python's true division is correctly
    rounded), None past the range."""
    try:
        return q.numerator / q.denominator
    except OverflowError:
        return None


def sqrt_float(q, prec=300):
    """The double nearest sqrt(q) for a Fraction q >= 0 (mpmath at prec bits
    then one rounding: correctly rounded at any prec well past 53)."""
    with mpmath.workprec(prec):
        return float(mpmath.sqrt(mpmath.mpf(q.numerator) / q.denominator))


def label(start, prefix, tag, ints53=True):
    """Names the cases added since index start "<prefix>-<tag>-<tool>-NNN"
    and marks their batch; with ints53, every case not refused also checks
    that its result holds no JSON integer of 2^53 or more."""
    for i, c in enumerate(mc.CASES[start:]):
        c["id"] = "%s-%s-%s-%03d" % (prefix, tag, c["tool"], i)
        if ints53 and INTS53 not in c["checks"] and REFUSE not in c["checks"]:
            c["checks"].append(INTS53)
        c["batch"] = tag


def cli(batch, name, batches, about):
    """The generators' command line: without arguments, the recorded
    batches ((seed, tag), ...) into <name>.json; with --seed, one batch
    into --out (default <name>-<tag>.json), for a fresh draw."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int)
    ap.add_argument("--tag")
    ap.add_argument("--out")
    a = ap.parse_args()
    if a.seed is not None:
        tag = a.tag or "x"
        batch(a.seed, tag)
        mc.write_cases(a.out or "%s-%s.json" % (name, tag), "%s batch seed %d" % (name.split("-")[-1], a.seed))
        return
    for seed, tag in batches:
        batch(seed, tag)
    mc.write_cases(name + ".json", about)
