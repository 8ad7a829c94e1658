#!/usr/bin/env python3
"""Grades analyze_complexity's refined_estimate on a batch of snippets.

usage: grade.py --bin build/bin/codecalc batch_a.json [batch_b.json ...] [--json out]
Each case has a truth class and `also` (equivalent readings or honest upper
bounds the lane accepts). A reading is exact (truth or also), known (a
recorded over-estimate, `known` with `known_why`), over (a larger class:
honest but loose) or UNDER (smaller than the truth: the worst answer).
Exit 1 when any reading is UNDER or over."""
import argparse, json, re, subprocess, sys, os

def rank(c):
    """A sortable rank of a class string (n = the input's size; V + E is n)."""
    s = c.strip()
    m = re.fullmatch(r"O\((.*)\)", s)
    if not m:
        return None
    t = m.group(1).replace("(V + E) log V", "n log n").replace("V + E", "n").replace(" * ", " ")
    if "n!" in t:
        k = t.replace("n!", "").strip()
        return (3, poly(k) if k else (0, 0, 0, 0))
    if "2^n" in t:
        k = t.replace("2^n", "").strip()
        return (2, poly(k) if k else (0, 0, 0, 0))
    return (1, poly(t))

def poly(t):
    k = half = log = loglog = 0
    if t == "1":
        return (0, 0, 0, 0)
    for tok in re.findall(r"log log n|log\^\d+ n|log n|sqrt n|n\^\d+|n", t):
        if tok == "n": k += 1
        elif tok.startswith("n^"): k += int(tok[2:])
        elif tok == "sqrt n": half += 1
        elif tok == "log log n": loglog += 1
        elif tok == "log n": log += 1
        else: log += int(tok[4:-2])
    return (2 * k + half, log, loglog, 0)

def grade(case, got):
    if got in [case["truth"]] + case.get("also", []):
        return "exact"
    if got == case.get("known"):
        return "known"
    rg, rt = rank(got), rank(case["truth"])
    if rg is None:
        return "UNREADABLE"
    return "UNDER" if rg < rt else "over"

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/bin/codecalc")
    ap.add_argument("--json")
    ap.add_argument("batches", nargs="+")
    a = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    rows, counts = [], {}
    for b in a.batches:
        path = b if os.path.exists(b) else os.path.join(here, b)
        for c in json.load(open(path))["cases"]:
            args = json.dumps({"language": c["language"], "code": c["code"]})
            p = subprocess.run([a.bin, "call", "analyze_complexity", args], capture_output=True, text=True, timeout=60)
            try:
                r = json.loads(p.stdout)
            except ValueError:
                r = {"refined_estimate": "ERROR " + p.stderr[:200]}
            got = r.get("refined_estimate") or "None"
            g = grade(c, got)
            counts[g] = counts.get(g, 0) + 1
            rules = ",".join(x["rule"] for x in r.get("refinements", []))
            rows.append({"id": c["id"], "grade": g, "got": got, "truth": c["truth"], "rules": rules})
            print(f"{g:6} {c['id']:24} got {got:16} truth {c['truth']:16} [{rules}]")
    print("summary:", json.dumps(counts))
    if a.json:
        json.dump(rows, open(a.json, "w"), indent=1)
    return 1 if any(r["grade"] not in ("exact", "known") for r in rows) else 0

if __name__ == "__main__":
    sys.exit(main())
