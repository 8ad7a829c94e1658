"""The one runner of the verification red-team corpora (redverify2.py to
redverify6.py): each corpus holds its cases and calls main() with its
sets. The tools' argument builders (vt, ce, opt, ep) are here too, shared
as the calculator generators share calcgen.py.

A case is {id, tool, args, truth, why}. truth is what a correct tool must
NOT claim:
  differ   - the programs behave differently (or a side is not
             deterministic) on the inputs the call runs: passed:true /
             divergence_count 0 / accepted:true is a confident wrong verdict.
  same     - the programs are the same: passed:false with a mismatch is
             wrong; for compare_edge_cases a divergence is (a false alarm).
  ws       - verify_translation must say the outputs differ in white space.
  faster   - verify_optimization should accept; accepting a program that
             is not equivalent is wrong.
  noaccept - verify_optimization must not accept (not faster, or wrong).
  nosatunsat - z3_check must not answer sat/unsat (a correct answer is unknown).
  sat / unsat - z3_check's truth.
  ambiguous - execute_python: a repair the examples do not single out must
             not come back solved without repair.ambiguous and a
             repair-ambiguous diagnostic.
  pinned   - execute_python: a repair the examples do single out (solved,
             ambiguous false; anything else is honest).
Each case is run --repeat times (luck-based verdicts need several)."""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "crosscheck"))
from mcp_stdio import Server  # noqa: E402


def vt(src, sl, tgt, tl, inputs=None):
    """verify_translation's arguments."""
    a = {"source_code": src, "source_language": sl, "target_code": tgt, "target_language": tl}
    if inputs is not None:
        a["test_inputs"] = inputs
    return a


def ce(snippets, inputs=None, edges=None):
    """compare_edge_cases's arguments."""
    a = {"snippets": snippets}
    if inputs is not None:
        a["inputs"] = inputs
    if edges is not None:
        a["edge_inputs"] = edges
    return a


def opt(original, candidate, inputs=None, sizes=None, language="python3"):
    """verify_optimization's arguments."""
    a = {"original": original, "candidate": candidate, "language": language}
    if inputs is not None:
        a["test_inputs"] = inputs
    if sizes is not None:
        a["sizes"] = sizes
    return a


def ep(code, examples, language="python"):
    """execute_python's arguments in execute mode with examples."""
    return {"code": code, "language": language, "mode": "execute", "options": {"examples": examples}}


def verdict(c, r):
    """'wrong', 'ok', 'honest' (an honest non-answer) or 'undisclosed'."""
    t, tool = c["truth"], c["tool"]
    if not r.get("ok", False) and tool != "z3_check":
        return "honest"
    if tool == "verify_translation":
        if t == "differ":
            return "wrong" if r.get("passed") else "ok"
        if t == "same":
            return "ok" if r.get("passed") else ("wrong" if r.get("mismatched") else "honest")
        if t == "ws":
            told = any(k.get("whitespace_differs") for k in r.get("cases", []))
            return "ok" if told or not r.get("passed") else "undisclosed"
    if tool == "compare_edge_cases":
        if t == "same":
            return "wrong" if r.get("divergence_count") else "ok"
        if r.get("divergence_count") == 0 and r.get("incomplete_count"):
            return "honest"  # rows whose runs all died: not compared on output (red team 5)
        return "wrong" if r.get("divergence_count") == 0 else "ok"
    if tool == "verify_optimization":
        if t == "faster":
            return "ok" if r.get("accepted") else ("wrong" if r.get("reason") == "not equivalent" else "honest")
        return "wrong" if r.get("accepted") else "ok"
    if tool == "execute_python":
        rep = r.get("repair") or {}
        told = rep.get("ambiguous") is True and any(d["code"].endswith(":repair-ambiguous")
                                                    for d in r.get("diagnostics", []))
        if t == "ambiguous":
            return "wrong" if rep.get("solved") and not told else "ok"
        if t == "pinned":
            return "ok" if rep.get("solved") and rep.get("ambiguous") is False else "honest"
    if tool == "z3_check":
        res = r.get("result")
        if t == "nosatunsat":
            return "wrong" if res in ("sat", "unsat") else "ok"
        if res == t:
            return "ok"
        return "wrong" if res in ("sat", "unsat") else "honest"
    return "?"


def main(sets):
    """Runs the chosen set of sets ({name: cases}; "all" is every set in
    order) against --bin: one line per case with each repeat's verdict,
    then the tally of confident wrong verdicts."""
    names = list(sets)
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--set", default=names[0], choices=names + ["all"])
    ap.add_argument("--only")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    cases = [c for n in names for c in sets[n]] if a.set == "all" else sets[a.set]
    if a.only:
        cases = [c for c in cases if c["id"] in a.only.split(",")]
    s = Server(a.bin)
    total = 0
    try:
        for c in cases:
            seen = []
            for _ in range(a.repeat):
                r, dt = s.call(c["tool"], c["args"])
                v = verdict(c, r)
                seen.append(v)
                if a.verbose or v == "wrong":
                    print(json.dumps(r)[:1500], file=sys.stderr)
            total += seen.count("wrong")
            print(f"{c['id']:32s} {c['tool']:20s} {' '.join(seen)}  ({dt:.1f}s)", flush=True)
    finally:
        s.close()
    print(f"confident wrong verdicts: {total} over {len(cases)} cases x {a.repeat}")
