#!/usr/bin/env python3
"""Red-team corpus of lane redverify6: verification-tool calls whose truth
was written from reasoning and execution (never from codecalc), run
against a binary, counting confident wrong verdicts.

  python3 tests/verify/corpus/redverify6.py --bin build/bin/codecalc [--set main|fresh|all] [--only ID] [--repeat K]

Truths and the run loop are runner.py's. The `main` set was written before
the fixes of this lane (ports an agent writes that differ on dict order,
sort stability, a trailing newline, nondeterminism on an added edge); the
`fresh` set after them, not looked at while fixing.

Results (2026-12-02, the shared 2-core host; main is 341b23d's build):
  main set (5 cases, --repeat 2): main 9 wrong (every case but one run of
    vt-nondet-only-on-edges); redverify6 0. vt-nondet-only-on-edges x10:
    main 3 wrong, redverify6 0.
  fresh set (6 cases, --repeat 2): main 8 wrong (first-index dict against
    Object.keys, java BigInteger and go big.Int without a trim, go's
    sort.Slice in compare_edge_cases); redverify6 0.
    f-vt-node-random-on-long-strings x10: 0 on both (main's one long
    string edge, run once, caught it by luck each time)."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from runner import ce, main, vt  # noqa: E402

PY_COUNTER = ("import sys\nfrom collections import Counter\nc = Counter(sys.stdin.read().split())\n"
              "for k, v in c.items():\n    print(k, v)")
NODE_COUNTER = ('const c = {};\nfor (const w of require("fs").readFileSync(0, "utf8").split(/\\s+/).filter(Boolean))\n'
                '  c[w] = (c[w] || 0) + 1;\nfor (const k in c) console.log(k, c[k]);')
PY_BYLEN = "import sys\nw = sys.stdin.read().split()\nprint(' '.join(sorted(w, key=len)))"
GO_BYLEN = ('package main\nimport ("fmt"; "io"; "os"; "sort"; "strings")\n'
            'func main() { b, _ := io.ReadAll(os.Stdin); w := strings.Fields(string(b))\n'
            '  sort.Slice(w, func(i, j int) bool { return len(w[i]) < len(w[j]) })\n'
            '  fmt.Println(strings.Join(w, " ")) }')
RUST_NO_TRIM = ('use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap();\n'
                '  let n: i128 = s.parse().unwrap(); println!("{}", n * 2); }')


MAIN = [
    # --- dict order: python's dict keeps insertion order; a JavaScript
    # object iterates integer-like keys first, in numeric order ---
    dict(id="vt-counter-js-object", tool="verify_translation", truth="differ",
         why="on 'b 10 a 2 b' python prints b 2 / 10 1 / a 1 / 2 1, node 2 1 / 10 1 / b 2 / a 1 (checked by hand)",
         args=vt(PY_COUNTER, "python3", NODE_COUNTER, "node", ["a b a", "x y z x"])),
    dict(id="ce-counter-js-object", tool="compare_edge_cases", truth="differ",
         why="as vt-counter-js-object: the key order differs whenever a word is an integer",
         args=ce({"python3": PY_COUNTER, "node": NODE_COUNTER}, ["a b a", "x y z x"])),
    # --- sort stability: sorted() is stable, go's sort.Slice is not past
    # 12 elements (insertion sort below) ---
    dict(id="vt-sort-stable-go", tool="verify_translation", truth="differ",
         why="sorted(key=len) keeps tied words in input order; sort.Slice on 14 words does not (checked by hand)",
         args=vt(PY_BYLEN, "python3", GO_BYLEN, "go", ["bb a cc d", "one two three"])),
    # --- trailing newline: the tool fed "3", a shell or a file feeds "3\n";
    # str::parse without a trim panics on the line end ---
    dict(id="vt-rust-parse-no-trim", tool="verify_translation", truth="differ",
         why="s.parse::<i128>() of '3\\n' panics where int() strips it: the port fails on any stdin that ends its line",
         args=vt("print(int(input()) * 2)", "python3", RUST_NO_TRIM, "rust", ["3", "10"])),
    # --- nondeterminism on an added edge only (item 1): wrong 3 runs in 10
    # on n >= 10^6; the given inputs are all small ---
    dict(id="vt-nondet-only-on-edges", tool="verify_translation", truth="differ",
         why="the port prints 2n + 1 on 3 runs in 10 when n >= 10^6 (four int edges): not deterministic",
         args=vt("n = int(input())\nprint(n * 2)", "python3",
                 "import random\nn = int(input())\nprint(n * 2 + (1 if n >= 10**6 and random.random() < 0.3 else 0))",
                 "python3", ["3", "7", "0"])),
]

JAVA_BIG_NO_TRIM = ('import java.math.BigInteger;\npublic class Main { public static void main(String[] a) throws Exception {\n'
                    '  BigInteger n = new BigInteger(new String(System.in.readAllBytes()));\n'
                    '  System.out.println(n.multiply(BigInteger.valueOf(3))); } }')
GO_BIG_NO_TRIM = ('package main\nimport ("fmt"; "io"; "math/big"; "os")\n'
                  'func main() { b, _ := io.ReadAll(os.Stdin); n, ok := new(big.Int).SetString(string(b), 10)\n'
                  '  if !ok { panic("not a number") }; fmt.Println(n.Sub(n, big.NewInt(1))) }')
PY_FIRST = "import sys\nd = {}\nfor i, w in enumerate(sys.stdin.read().split()):\n    d.setdefault(w, i)\nprint(' '.join(d))"
NODE_FIRST = ('const d = {};\nrequire("fs").readFileSync(0, "utf8").split(/\\s+/).filter(Boolean)'
              '.forEach((w, i) => { if (!(w in d)) d[w] = i; });\nconsole.log(Object.keys(d).join(" "));')
JAVA_COUNTER = ('import java.util.*;\npublic class Main { public static void main(String[] a) throws Exception {\n'
                '  Map<String, Integer> c = new HashMap<>();\n'
                '  for (String w : new String(System.in.readAllBytes()).trim().split("\\\\s+")) if (!w.isEmpty()) c.merge(w, 1, Integer::sum);\n'
                '  for (Map.Entry<String, Integer> e : c.entrySet()) System.out.println(e.getKey() + " " + e.getValue()); } }')

# Written after the fixes, not looked at while fixing; truths checked by
# running the programs by hand (python3, node, javac, go 1.19).
FRESH = [
    dict(id="f-vt-first-index-object-keys", tool="verify_translation", truth="differ",
         why="dict keys in first-seen order against Object.keys (integer keys first): differ once a word is a number",
         args=vt(PY_FIRST, "python3", NODE_FIRST, "node", ["x y x", "hello world"])),
    dict(id="f-vt-java-biginteger-no-trim", tool="verify_translation", truth="differ",
         why="new BigInteger(\"42\\n\") throws NumberFormatException; int() strips the line end",
         args=vt("print(int(input()) * 3)", "python3", JAVA_BIG_NO_TRIM, "java", ["5", "12"])),
    dict(id="f-vt-go-bigint-no-trim", tool="verify_translation", truth="differ",
         why="big.Int.SetString(\"42\\n\") fails (the port panics); int() strips the line end",
         args=vt("print(int(input()) - 1)", "python3", GO_BIG_NO_TRIM, "go", ["5", "12"])),
    dict(id="f-vt-node-random-on-long-strings", tool="verify_translation", truth="differ",
         why="the port lower-cases instead on 3 runs in 10 when the string is longer than 10: not deterministic",
         args=vt("print(input().strip().upper())", "python3",
                 'const s = require("fs").readFileSync(0, "utf8").trim();\n'
                 'console.log(s.length > 10 && Math.random() < 0.3 ? s.toLowerCase() : s.toUpperCase());',
                 "node", ["ab", "cd"])),
    dict(id="f-ce-sort-stable-go", tool="compare_edge_cases", truth="differ",
         why="sorted(key=len) is stable, go's sort.Slice on 14 words is not",
         args=ce({"python3": PY_BYLEN, "go": GO_BYLEN}, ["bb a cc d", "one two three"])),
    dict(id="f-ce-counter-java-hashmap", tool="compare_edge_cases", truth="differ",
         why="a HashMap iterates in hash order, a Counter in insertion order ('b A a B': A a b B against b A a B)",
         args=ce({"python3": PY_COUNTER, "java": JAVA_COUNTER}, ["a b a", "x y z x"])),
]

if __name__ == "__main__":
    main({"main": MAIN, "fresh": FRESH})
