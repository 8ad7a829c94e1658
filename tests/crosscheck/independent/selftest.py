#!/usr/bin/env python3
"""Shows the corpus's checks can fail: takes the answers of a run
(run.py --json OUT), perturbs the first checked field of every agreeing
case and asserts the judge no longer agrees. A check that accepts a
perturbed answer cannot catch a wrong one.

Usage: python3 selftest.py OUT.json     (exit 1 when a check is toothless)
"""
import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402


def perturb(v):
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + 1
    if isinstance(v, float):
        return v * (1 + 1e-6) + 1e-3
    if isinstance(v, str):
        if v in ("sat", "unsat", "unknown"):
            return {"sat": "unsat", "unsat": "sat", "unknown": "sat"}[v]
        try:
            int(v)
            return str(int(v) + 1)
        except ValueError:
            pass
        if v.startswith("0x") or v.startswith("{"):
            return v[:-1] + "7" + v[-1:]
        if v.startswith("does not exist") or v in ("oo", "-oo", "zoo", "nan"):
            return "0"
        if v and all(ch in "01" for ch in v):
            return v[:-1] + ("1" if v[-1] == "0" else "0")
        return "(%s) + 1/7" % v
    if isinstance(v, list):
        if v and isinstance(v[0], str):
            return v + ["17/3"]
        return v[:-1] if v else ["1"]
    if isinstance(v, dict):
        if not v:
            return {"x": "1"}
        k = sorted(v)[0]
        w = dict(v)
        w[k] = perturb(v[k])
        return w
    if v is None:
        return 1
    return v


def set_path(res, path, value):
    cur = res
    parts = path.split(".")
    for p in parts[:-1]:
        cur = cur[p]
    cur[parts[-1]] = value


def main():
    results = json.load(open(sys.argv[1], encoding="utf-8"))
    corpus = {c["id"]: c for name in ("corpus.json", "heldout.json")
              for c in json.load(open(os.path.join(HERE, name), encoding="utf-8"))["cases"]}
    toothless = []
    tried = 0
    for r in results:
        if r["category"] != "agree":
            continue
        case = corpus[r["id"]]
        res = copy.deepcopy(r["result"])
        refusal = any(c["cmp"] == "refuse" for c in case["checks"])
        if refusal or not res.get("ok"):
            res = {"ok": True, "value": "987654.321", "expression": "987654.321", "solutions": ["987654"],
                   "limit": "987654"}
        else:
            ck = next((c for c in case["checks"] if c["sev"] == "wrong" and c["cmp"] not in ("num12", "holds_for")),
                      None)
            if ck is None:
                continue
            got = run.get(res, ck["at"])
            if got is run.MISSING:
                continue
            set_path(res, ck["at"], perturb(got))
        tried += 1
        cat, _ = run.judge(case, res)
        if cat == "agree":
            toothless.append(r["id"])
    print("selftest: %d perturbed answers, %d still judged agreeing%s" % (
        tried, len(toothless), (": " + ", ".join(toothless)) if toothless else ""))
    return 1 if toothless else 0


if __name__ == "__main__":
    sys.exit(main())
