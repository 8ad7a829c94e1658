#!/usr/bin/env python3
"""Red-team corpus of lane redverify2: verification-tool calls whose truth
was written from reasoning and execution (never from codecalc), run
against a binary, counting confident wrong verdicts.

  python3 tests/verify/corpus/redverify2.py --bin build/bin/codecalc [--set main|fresh|fresh2|all] [--only ID] [--repeat K]

A case is {id, tool, args, truth, why}; the truths (what a correct tool
must NOT claim) and the run loop are runner.py's, shared with
redverify3.py. Each case is run --repeat times (luck-based verdicts need
several)."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from runner import main, vt  # noqa: E402

PY_READ_N = "n = int(input())\n"


MAIN = [
    # --- nondeterminism judged equal by luck ---
    dict(id="nondet-target-random-90", tool="verify_translation", truth="differ",
         why="the target answers wrong 10% of the time; a single run per input matches by luck ~half the time",
         args=vt(PY_READ_N + "print(n * 2)", "python3",
                 "import random\n" + PY_READ_N + "print(n * 2 if random.random() < 0.9 else n * 2 + 1)", "python3",
                 ["1", "2", "3", "4", "5", "6"])),
    dict(id="nondet-source-random-90", tool="verify_translation", truth="differ",
         why="the source itself is not deterministic; no single-run match is evidence",
         args=vt("import random\n" + PY_READ_N + "print(n + 1 if random.random() < 0.9 else n)", "python3",
                 PY_READ_N + "print(n + 1)", "python3", ["1", "2", "3", "4", "5"])),
    dict(id="nondet-set-order", tool="verify_translation", truth="differ",
         why="python set order of str depends on the per-process hash seed; the port sorts",
         args=vt("print(list({'apple', 'kiwi'}))", "python3", "print(sorted(['apple', 'kiwi']))", "python3",
                 ["1", "2", "3"])),
    dict(id="nondet-edge-random", tool="compare_edge_cases", truth="differ",
         why="one snippet answers differently 10% of the time",
         args={"snippets": {"python3": PY_READ_N + "print(n)",
                            "py": "import random\n" + PY_READ_N + "print(n if random.random() < 0.9 else -n)"},
               "inputs": ["1", "2", "3", "4", "5"]}),
    # --- edge values the default inputs never produce ---
    dict(id="edge-int64-overflow", tool="verify_translation", truth="differ",
         why="go int64 wraps at 2^63; python does not (the defaults stop at 100)",
         args=vt(PY_READ_N + "print(n * n)", "python3",
                 'package main\nimport "fmt"\nfunc main() { var n int64; fmt.Scan(&n); fmt.Println(n * n) }', "go")),
    dict(id="edge-round-half", tool="verify_translation", truth="differ",
         why="python rounds half to even, Math.round half up (2.5 -> 2 vs 3)",
         args=vt("x = float(input() or 0)\nprint(int(round(x)))", "python3",
                 'const x = +(require("fs").readFileSync(0, "utf8").split("\\n")[0] || 0);\nconsole.log(Math.round(x))',
                 "node")),
    dict(id="edge-unicode-length", tool="verify_translation", truth="differ",
         why="len() counts code points, .length UTF-16 units",
         args=vt("print(len(input() if True else ''))" .replace("input() if True else ''", "__import__('sys').stdin.read().rstrip('\\n')"), "python3",
                 'console.log(require("fs").readFileSync(0, "utf8").replace(/\\n$/, "").length)', "node")),
    dict(id="edge-neg-odd-div", tool="verify_translation", truth="differ",
         why="floor vs truncating division differ for negative odd n below -1 (python -7//2=-4, C -3); -1//2 also differs so the defaults see it",
         args=vt(PY_READ_N + "print(n // 2)", "python3",
                 '#include <stdio.h>\nint main(void){long n=0; if(scanf("%ld",&n)!=1) return 1; printf("%ld\\n", n/2); return 0;}', "c")),
    # --- whitespace-only differences (claim must be disclosed) ---
    dict(id="ws-leading-spaces", tool="verify_translation", truth="ws",
         why="'%5d' vs plain print: the first line's leading spaces are stripped by the normalisation",
         args=vt(PY_READ_N + "print('%5d' % n)", "python3", PY_READ_N + "print(n)", "python3", ["1", "42"])),
    dict(id="ws-trailing", tool="verify_translation", truth="ws",
         why="trailing spaces on each line",
         args=vt(PY_READ_N + "print(*range(n), end=' \\n')", "python3", PY_READ_N + "print(*range(n))", "python3",
                 ["3", "5"])),
    # --- crashes ---
    dict(id="crash-both-differ-stdout", tool="verify_translation", truth="differ",
         why="both exit 1, but one printed 'ok' and the other 'no' before it; the other inputs match",
         args=vt(PY_READ_N + "print('ok' if n else 'zero')\nif n == 0: raise SystemExit(1)", "python3",
                 PY_READ_N + "print('ok' if n else 'nul')\nif n == 0: raise SystemExit(1)", "python3",
                 ["0", "1", "2"])),
    dict(id="crash-exitcode-differ", tool="verify_translation", truth="differ",
         why="same stdout, both fail, exit codes 2 vs 3 on n=0",
         args=vt(PY_READ_N + "print(n)\nif n == 0: raise SystemExit(2)", "python3",
                 PY_READ_N + "print(n)\nif n == 0: raise SystemExit(3)", "python3", ["0", "1"])),
    # --- same programs must pass ---
    # Truth fixed by redverify6: the same on 3, 7 and 0 only. Since red team 3
    # the tool adds the int edges, and there the port differs (checked by
    # running both by hand): -0 prints 0 / -0, 2^53 + 1 and 2^63 lose
    # precision in node, the empty stdin is an exception / 0. So "same" holds
    # with edge_inputs false, and with the edges the truth is "differ".
    dict(id="same-double", tool="verify_translation", truth="same", why="identical behaviour on the given inputs",
         args=dict(vt(PY_READ_N + "print(n * 2)", "python3",
                      'const n = +require("fs").readFileSync(0, "utf8").trim();\nconsole.log(n * 2)', "node",
                      ["3", "7", "0"]), edge_inputs=False)),
    dict(id="same-double-edges", tool="verify_translation", truth="differ",
         why="node prints -0 for -0 and loses 2^53 + 1 and 2^63 (the int edges)",
         args=vt(PY_READ_N + "print(n * 2)", "python3",
                 'const n = +require("fs").readFileSync(0, "utf8").trim();\nconsole.log(n * 2)', "node",
                 ["3", "7", "0"])),
    # --- verify_optimization ---
    dict(id="opt-same-program-low-min", tool="verify_optimization", truth="noaccept",
         why="the candidate is the original; min_speedup 1.01 leaves noise to decide",
         args={"original": "n = int(input())\ns = 0\nfor i in range(n):\n    s += i * i\nprint(s)",
               "candidate": "n = int(input())\ns = 0\nfor i in range(n):\n    s += i * i\nprint(s)",
               "language": "python3", "test_inputs": ["0", "5", "10"], "sizes": [200000, 400000],
               "min_speedup": 1.01}),
    dict(id="opt-wrong-negative", tool="verify_optimization", truth="noaccept",
         why="closed form wrong for negative n (the original prints 0)",
         args={"original": "n = int(input())\ns = 0\nfor i in range(n):\n    s += i\nprint(s)",
               "candidate": "n = int(input())\nprint(n * (n - 1) // 2)",
               "language": "python3", "sizes": [200000, 400000]}),
    # --- z3 ---
    dict(id="z3-quantifier-nonlinear", tool="z3_check", truth="unsat",
         why="f(x) > x^3 and increasing give f(1) >= 2, so f(2) = f(1) f(3) > f(3) > f(2): unsat "
             "(written as 'unknown expected' first; z3's unsat is right)",
         args={"smt2": "(declare-fun f (Int) Int)(assert (forall ((x Int)) (> (f x) (* x x x))))"
                       "(assert (forall ((x Int)) (< (f x) (f (+ x 1)))))(assert (= (f 2) (* (f 1) (f 3))))(check-sat)"}),
    dict(id="z3-timeout-option", tool="z3_check", truth="nosatunsat",
         why=":timeout 1 makes z3 give up at once on a hard problem",
         args={"smt2": "(set-option :timeout 1)(declare-const a Int)(declare-const b Int)(declare-const c Int)"
                       "(assert (> a 0))(assert (> b 0))(assert (> c 0))(assert (= (+ (* a a a) (* b b b)) (* c c c)))(check-sat)"}),
    dict(id="z3-push-pop", tool="z3_check", truth="sat",
         why="the contradictory assertion is popped before the last check-sat",
         args={"smt2": "(declare-const x Int)(assert (> x 5))(push 1)(assert (< x 3))(check-sat)(pop 1)(check-sat)"}),
    dict(id="z3-reset", tool="z3_check", truth="sat",
         why="(reset) discards the contradiction",
         args={"smt2": "(declare-const x Int)(assert false)(check-sat)(reset)(declare-const y Int)(assert (> y 1))(check-sat)"}),
    dict(id="z3-check-sat-assuming", tool="z3_check", truth="unsat",
         why="check-sat-assuming with a false assumption is unsat",
         args={"smt2": "(declare-const p Bool)(declare-const x Int)(assert (=> p (< x 0)))(assert (> x 0))(check-sat-assuming (p))"}),
    dict(id="z3-assert-after-check", tool="z3_check", truth="sat",
         why="the only check-sat comes before the contradiction is asserted",
         args={"smt2": "(declare-const x Int)(assert (> x 5))(check-sat)(assert (< x 0))"}),
]

# Written after the fixes, not looked at while fixing (same classes, new programs).
GO_MAP = ('package main\nimport "fmt"\nfunc main() { var n int; fmt.Scan(&n)\n'
          '  m := map[string]int{"a": n, "b": n + 1, "c": n + 2}\n'
          '  for k, v := range m { fmt.Println(k, v) } }')
FRESH = [
    dict(id="f-nondet-choice", tool="verify_translation", truth="differ",
         why="random.choice over ten answers, one wrong",
         args=vt(PY_READ_N + "print(n - 3)", "python3",
                 "import random\n" + PY_READ_N + "print(random.choice([n - 3] * 9 + [3 - n]))", "python3",
                 ["10", "20", "30", "40", "50"])),
    dict(id="f-nondet-go-map", tool="verify_translation", truth="differ",
         why="go randomises map iteration; python keeps insertion order",
         args=vt(PY_READ_N + "for k, v in {'a': n, 'b': n + 1, 'c': n + 2}.items():\n    print(k, v)", "python3",
                 GO_MAP, "go", ["1", "2"])),
    dict(id="f-nondet-node-random", tool="verify_translation", truth="differ",
         why="node target wrong when Math.random() < 0.12",
         args=vt(PY_READ_N + "print(n * n)", "python3",
                 'const n = +require("fs").readFileSync(0, "utf8").trim();\n'
                 'console.log(Math.random() < 0.12 ? n * n + 1 : n * n)', "node", ["2", "3", "4", "5", "6", "7"])),
    dict(id="f-nondet-source-set", tool="verify_translation", truth="differ",
         why="source prints a two-string set (hash-seed order); target fixed order",
         args=vt("print(' '.join({'pear', 'fig'}))", "python3", "print('pear fig')", "python3", ["a", "b", "c"])),
    dict(id="f-nondet-time", tool="verify_translation", truth="differ",
         why="target wrong when the nanosecond clock is a multiple of 7",
         args=vt(PY_READ_N + "print(n + 100)", "python3",
                 "import time\n" + PY_READ_N + "print(n + 100 if time.time_ns() % 7 else n + 101)", "python3",
                 ["1", "2", "3", "4", "5", "6"])),
    dict(id="f-crash-c-vs-py", tool="verify_translation", truth="differ",
         why="on a negative input both exit 1, after printing 'error' vs 'Error'",
         args=vt(PY_READ_N + "if n < 0:\n    print('Error')\n    raise SystemExit(1)\nprint(n)", "python3",
                 '#include <stdio.h>\n#include <stdlib.h>\nint main(void){long n; if(scanf("%ld",&n)!=1) return 1;'
                 ' if(n<0){puts("error"); exit(1);} printf("%ld\\n", n); return 0;}', "c", ["-5", "5", "6"])),
    dict(id="f-crash-node-exit2", tool="verify_translation", truth="differ",
         why="both exit 2 on an empty input, printing usage texts that differ",
         args=vt("import sys\ns = sys.stdin.read().strip()\nif not s:\n    print('usage: prog N')\n    sys.exit(2)\nprint(int(s) + 1)",
                 "python3",
                 'const s = require("fs").readFileSync(0, "utf8").trim();\n'
                 'if (!s) { console.log("usage: prog <n>"); process.exit(2); }\nconsole.log(Number(s) + 1)', "node",
                 ["", "4", "9"])),
    # Truths fixed by redverify6 (as same-double): the same on the given
    # inputs, different on the int edges the tool adds since red team 3
    # (checked by hand): Number() loses 2^53 + 1 and 2^63; go's int wraps
    # at 2^63 (fmt.Scan fails and n stays 0: -1) and prints -1 on the empty
    # stdin where python raises.
    dict(id="f-same-crash", tool="verify_translation", truth="same",
         why="same usage text and exit code on an empty input; the rest matches",
         args=dict(vt("import sys\ns = sys.stdin.read().strip()\nif not s:\n    print('usage')\n    sys.exit(2)\nprint(int(s) + 1)",
                      "python3",
                      'const s = require("fs").readFileSync(0, "utf8").trim();\n'
                      'if (!s) { console.log("usage"); process.exit(2); }\nconsole.log(Number(s) + 1)', "node",
                      ["", "4", "9"]), edge_inputs=False)),
    dict(id="f-same-crash-edges", tool="verify_translation", truth="differ",
         why="Number(s) + 1 loses 2^53 + 1 and 2^63",
         args=vt("import sys\ns = sys.stdin.read().strip()\nif not s:\n    print('usage')\n    sys.exit(2)\nprint(int(s) + 1)",
                 "python3",
                 'const s = require("fs").readFileSync(0, "utf8").trim();\n'
                 'if (!s) { console.log("usage"); process.exit(2); }\nconsole.log(Number(s) + 1)', "node",
                 ["", "4", "9"])),
    dict(id="f-same-go", tool="verify_translation", truth="same", why="deterministic go port (on the given inputs)",
         args=dict(vt(PY_READ_N + "print(n * 3 - 1)", "python3",
                      'package main\nimport "fmt"\nfunc main() { var n int; fmt.Scan(&n); fmt.Println(n*3 - 1) }', "go",
                      ["1", "-4", "12"]), edge_inputs=False)),
    dict(id="f-same-go-edges", tool="verify_translation", truth="differ",
         why="go's int cannot read 2^63 (n stays 0: -1) and prints -1 on the empty stdin where python raises",
         args=vt(PY_READ_N + "print(n * 3 - 1)", "python3",
                 'package main\nimport "fmt"\nfunc main() { var n int; fmt.Scan(&n); fmt.Println(n*3 - 1) }', "go",
                 ["1", "-4", "12"])),
    dict(id="f-opt-nondet", tool="verify_optimization", truth="noaccept",
         why="candidate wrong 15% of the time",
         args={"original": "n = int(input())\ns = 0\nfor i in range(n):\n    s += 2 * i\nprint(s)",
               "candidate": "import random\nn = int(input())\nprint(n * (n - 1) + (1 if random.random() < 0.15 else 0))",
               "language": "python3", "test_inputs": ["3", "4", "5", "6", "7"], "sizes": [200000, 400000]}),
    dict(id="f-z3-assuming-unsat", tool="z3_check", truth="unsat",
         why="(or p q), (not q), assuming (not p): unsat",
         args={"smt2": "(declare-const p Bool)(declare-const q Bool)(assert (or p q))(assert (not q))"
                       "(check-sat-assuming ((not p)))"}),
    dict(id="f-z3-push-false", tool="z3_check", truth="unsat",
         why="the only check is inside the pushed scope that asserts false",
         args={"smt2": "(declare-const x Real)(assert (> x 0.5))(push 1)(assert (< x 0.25))(check-sat)(pop 1)(get-info :reason-unknown)"}),
    dict(id="f-z3-reset-assertions", tool="z3_check", truth="unsat",
         why="the check precedes (reset-assertions)",
         args={"smt2": "(declare-fun f (Int) Int)(assert (= (f 1) 2))(assert (= (f 1) 3))(check-sat)(reset-assertions)"}),
    dict(id="f-z3-leak-rlimit", tool="z3_check", truth="nosatunsat",
         why="rlimit 1 makes this one unknown",
         args={"smt2": "(set-option :rlimit 1)(declare-const a Int)(declare-const b Int)(assert (> (* a a) (+ b 7)))(assert (< (* b b) a))(check-sat)"}),
    dict(id="f-z3-after-leak", tool="z3_check", truth="sat",
         why="a plain script after another caller's rlimit: sat",
         args={"smt2": "(declare-const y Int)(assert (> y 100))(check-sat)"}),
]


# Written after the verify_optimization fix (timed runs that disagree).
FRESH2 = [
    dict(id="f2-opt-pid-parity", tool="verify_optimization", truth="faster",
         why="written as 'off by one when its pid is odd'; but every run has its own pid namespace and "
             "its pid is always 2, so the candidate is right and faster here (the tool's accept is true)",
         args={"original": "n = int(input())\nt = 0\nfor k in range(1, n + 1):\n    t += k * k\nprint(t)",
               "candidate": "import os\nn = int(input())\nr = n * (n + 1) * (2 * n + 1) // 6\n"
                            "print(r + (os.getpid() % 2 if n > 500 else 0))",
               "language": "python3", "test_inputs": ["0", "3", "7"], "sizes": [300000, 600000]}),
    dict(id="f2-opt-clock", tool="verify_optimization", truth="noaccept",
         why="at the timing sizes the candidate prints the clock's last digit half the time",
         args={"original": "n = int(input())\nc = 0\nfor i in range(n):\n    c += i % 3 == 0\nprint(c)",
               "candidate": "import time\nn = int(input())\nt = time.time_ns()\n"
                            "print((n + 2) // 3 if n < 1000 or t % 2 else t % 10)",
               "language": "python3", "test_inputs": ["0", "1", "5", "9"], "sizes": [300000, 600000]}),
    dict(id="f2-opt-same-answer", tool="verify_optimization", truth="faster",
         why="a deterministic closed form, truly faster: must still be accepted",
         args={"original": "n = int(input())\nc = 0\nfor i in range(n):\n    c += i % 3 == 0\nprint(c)",
               "candidate": "n = int(input())\nprint((n + 2) // 3 if n > 0 else 0)",
               "language": "python3", "test_inputs": ["0", "1", "5", "9"], "sizes": [300000, 600000]}),
]


if __name__ == "__main__":
    main({"main": MAIN, "fresh": FRESH, "fresh2": FRESH2})
