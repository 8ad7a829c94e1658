#!/usr/bin/env python3
"""Red-team corpus of lane redverify4: verification-tool and repair calls
whose truth was written from reasoning and execution (never from codecalc),
run against a binary, counting confident wrong verdicts.

  python3 tests/verify/corpus/redverify4.py --bin build/bin/codecalc [--set main|fresh|all] [--only ID] [--repeat K]

Truths: `differ` (verify_translation must not pass, compare_edge_cases must
report a divergence), `same` (must pass / no divergence), `noaccept`
(verify_optimization must not accept), `faster` (must accept), `ambiguous`
(execute_python: a repair the examples do not single out must not come back
solved without repair.ambiguous and a repair-ambiguous diagnostic), `pinned`
(execute_python: a repair the examples do single out). An error or a
refusal is `honest`, never `wrong`. The `main` set was written before the
fixes of this lane; the `fresh` set after them, not looked at while fixing.
Truths and the run loop are runner.py's.

Results (2026-12-02, the shared 2-core host at load 11-23): main set
(16 cases) on main 9 wrong (rule 7 after different output x2, the even
sizes of verify_optimization x2, UTF-16 sort order, the four repairs; the
`pinned` repair is `honest` there, main has no repair.ambiguous); fresh
set (13 cases) on main 7 wrong (f-crash-py-go-div, f-crash-py-cpp-abort,
f-opt-odd-squares, f-max-char-few, three repairs). Both sets on
redverify4: 0 wrong of 29 (f-crash-py-cpp-abort was written after rule 41
took signals in, and run on both binaries then),
no honest refusals. f-crash-py-go-div was first written with outputs that
differed on every input (not the class); it was corrected before either
binary ran it again. f-java-same-defaults took 56.5 s on main, 13.8 s on
redverify4 (java compiled once)."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from runner import ep, main, vt  # noqa: E402


PY_INT = ("import sys\ns = sys.stdin.read().strip()\ntry:\n    n = int(s)\nexcept ValueError:\n"
          "    print('bad')\n    sys.exit(0)\n")
SEVEN = ["0", "5", "6", "-3", "12", "40", "99"]  # seven given inputs: no edges are added
LOOP_SUM = "n = int(input())\ns = 0\nfor i in range(n):\n    s += i\nprint(s)"

MAIN = [
    # --- both fail, with different uncaught-error codes, after different output ---
    dict(id="crash-py-go-stdout", tool="verify_translation", truth="differ",
         why="on 0 python prints 'zero' and raises (1), go prints 'nul' and panics (2): the output differs",
         args=vt("n = int(input())\nif n == 0:\n    print('zero')\n    raise ValueError(n)\nprint(n)", "python3",
                 'package main\nimport "fmt"\nfunc main() { var n int; fmt.Scan(&n); '
                 'if n == 0 { fmt.Println("nul"); panic("zero") }; fmt.Println(n) }', "go", SEVEN)),
    dict(id="crash-py-rust-stdout", tool="verify_translation", truth="differ",
         why="on 0 python prints 'zero' then raises (1); rust prints 'null' then panics (101)",
         args=vt("n = int(input())\nif n == 0:\n    print('zero')\n    raise ValueError(n)\nprint(n)", "python3",
                 'use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap();'
                 ' let n: i64 = s.trim().parse().unwrap(); if n == 0 { println!("null"); panic!("zero"); }'
                 ' println!("{}", n); }', "rust", SEVEN)),
    # --- verify_optimization: the default inputs and sizes are all even but 1 ---
    dict(id="opt-wrong-on-odd", tool="verify_optimization", truth="noaccept",
         why="(n // 2) * (n - 1) is the sum only for even n (and 1): 3 gives 2, not 3",
         args={"original": LOOP_SUM, "candidate": "n = int(input())\nprint((n // 2) * (n - 1) if n > 0 else 0)",
               "language": "python3"}),
    dict(id="opt-wrong-above-size", tool="verify_optimization", truth="noaccept",
         why="the candidate is wrong for n = 7 (a lookup table typo), right elsewhere",
         args={"original": LOOP_SUM,
               "candidate": "n = int(input())\nprint(22 if n == 7 else (n * (n - 1) // 2 if n > 0 else 0))",
               "language": "python3"}),
    # --- compare_edge_cases: a snippet that never ends on a given input ---
    dict(id="ce-hang-given", tool="compare_edge_cases", truth="differ",
         why="the python snippet counts n down to 0: from -1 it never gets there (runs out of time); node answers 0",
         args={"snippets": {"python3": "n = int(input())\nc = 0\nwhile n != 0:\n    n -= 1\n    c += 1\nprint(c)",
                            "node": 'const n = +require("fs").readFileSync(0, "utf8");\nconsole.log(n > 0 ? n : 0)'},
               "inputs": ["-1", "3"], "edge_inputs": False}),
    # --- sorting characters: code points against UTF-16 units ---
    dict(id="sort-utf16-defaults", tool="verify_translation", truth="differ",
         why="sorted() orders code points, JS sort() UTF-16 units: an astral character sorts below U+E000..U+FFFF",
         args=vt("import sys\nprint(''.join(sorted(sys.stdin.read().strip())))", "python3",
                 'const s = require("fs").readFileSync(0, "utf8").trim();\nconsole.log([...s].sort().join(""))', "node")),
    # --- repairs the examples do not pin down ---
    dict(id="repair-one-example", tool="execute_python", truth="ambiguous",
         why="f(2) == 4 alone: n * 2, n + 2, n ** 2 all fit; one example cannot single out n * 2",
         args=ep("def f(n):\n    return n * 3\n", "assert f(2) == 4")),
    dict(id="repair-same-swap-elsewhere", tool="execute_python", truth="ambiguous",
         why="(a + 1) * (b - 1) and (a - 1) * (b + 1) both meet f(3, 3) == 8 and f(0, 0) == -1; f(3, 4) tells them apart",
         args=ep("def f(a, b):\n    return (a - 1) * (b - 1)\n", "assert f(3, 3) == 8\nassert f(0, 0) == -1")),
    dict(id="repair-js-one-example", tool="execute_python", truth="ambiguous",
         why="the javascript search: f(2) === 4 alone fits n * 2, n + 2, n ** 2",
         args=ep("function f(n) { return n * 3; }\n", "assert(f(2) === 4)", "javascript")),
    dict(id="repair-js-same-swap", tool="execute_python", truth="ambiguous",
         why="the javascript search: the same '-' -> '+' at two places, both fit",
         args=ep("function f(a, b) { return (a - 1) * (b - 1); }\n", "assert(f(3, 3) === 8)\nassert(f(0, 0) === -1)",
                 "javascript")),
    dict(id="repair-pinned", tool="execute_python", truth="pinned",
         why="three examples single out n * 2 among the one-token edits",
         args=ep("def f(n):\n    return n * 3\n", "assert f(2) == 4\nassert f(5) == 10\nassert f(-1) == -2")),
    # --- compare_edge_cases: a snippet crashing on an edge value ---
    dict(id="ce-crash-on-edge", tool="compare_edge_cases", truth="differ",
         why="int('2.5') raises in python; parseInt('2.5') is 2 in node",
         args={"snippets": {"python3": "print(int(input()) * 2)",
                            "node": 'console.log(parseInt(require("fs").readFileSync(0, "utf8")) * 2)'},
               "inputs": ["3", "4"]}),
    dict(id="ce-both-crash-same", tool="compare_edge_cases", truth="same",
         why="python and ruby both refuse a non-integer with an uncaught error (exit 1) and print nothing",
         args={"snippets": {"python3": "print(int(input().strip()) + 1)", "ruby": "puts Integer($stdin.read.strip) + 1"},
               "inputs": ["3", "x", "4"]}),
    # --- nondeterminism: go's map order against python's insertion order ---
    dict(id="vt-go-map-order", tool="verify_translation", truth="differ",
         why="go ranges over a map in random order; python's dict keeps insertion order",
         args=vt("import sys\nc = {}\nfor w in sys.stdin.read().split():\n    c[w] = c.get(w, 0) + 1\n"
                 "for w, k in c.items():\n    print(w, k)", "python3",
                 'package main\nimport ("bufio"; "fmt"; "os")\nfunc main() { s := bufio.NewScanner(os.Stdin); '
                 's.Split(bufio.ScanWords); c := map[string]int{}; for s.Scan() { c[s.Text()]++ }; '
                 'for w, k := range c { fmt.Println(w, k) } }', "go", ["b a c", "x y x z"])),
    # --- stdout against stderr ---
    dict(id="vt-stderr-port", tool="verify_translation", truth="differ",
         why="the port writes its refusal to stderr, the source to stdout",
         args=vt(PY_INT + "print(n + 1)", "python3",
                 'const s = require("fs").readFileSync(0, "utf8").trim();\n'
                 'if (!/^[+-]?\\d+$/.test(s)) { console.error("bad"); process.exit(0); }\n'
                 'console.log((BigInt(s) + 1n).toString())', "node")),
    # --- ports that agree ---
    dict(id="same-crash-both", tool="verify_translation", truth="same",
         why="both die of an uncaught error on 0 after printing nothing; the rest matches",
         args=vt("n = int(input())\nif n == 0:\n    raise ValueError(n)\nprint(n)", "python3",
                 'package main\nimport "fmt"\nfunc main() { var n int; fmt.Scan(&n); '
                 'if n == 0 { panic("zero") }; fmt.Println(n) }', "go", SEVEN)),
]

# Written after the fixes, not looked at while fixing (same classes, new programs).
ODD_SUM = "n = int(input())\ns = 0\nfor i in range(n):\n    if i % 2 == 1:\n        s += i\nprint(s)"
FRESH = [
    dict(id="f-crash-py-go-div", tool="verify_translation", truth="differ",
         why="on 0 python prints 'empty' then divides by zero (1); go prints 'none' then panics (2)",
         args=vt("n = int(input())\nprint('start' if n else 'empty')\nprint(10 // n)", "python3",
                 'package main\nimport "fmt"\nfunc main() { var n int; fmt.Scan(&n); if n != 0 { fmt.Println("start") }'
                 ' else { fmt.Println("none") }; fmt.Println(10 / n) }', "go", ["0", "1", "2", "5", "-5", "10", "3"])),
    dict(id="f-crash-py-cpp-abort", tool="verify_translation", truth="differ",
         why="on 0 python prints 'zero' and raises (1); the C++ port prints 'null' (flushed) and throws: SIGABRT",
         args=vt("n = int(input())\nif n == 0:\n    print('zero')\n    raise ValueError(n)\nprint(n)", "python3",
                 '#include <iostream>\n#include <stdexcept>\nint main() { long n; std::cin >> n; '
                 'if (n == 0) { std::cout << "null" << std::endl; throw std::runtime_error("zero"); } '
                 'std::cout << n << std::endl; }', "cpp", SEVEN)),
    dict(id="f-crash-py-go-same", tool="verify_translation", truth="same",
         why="both print 'start' and die of their uncaught error on 0; the rest matches (python // and go / agree on these)",
         args=vt("n = int(input())\nprint('start')\nprint(10 // n)", "python3",
                 'package main\nimport "fmt"\nfunc main() { var n int; fmt.Scan(&n); fmt.Println("start"); '
                 'fmt.Println(10 / n) }', "go", ["0", "1", "2", "5", "10", "3", "4"])),
    dict(id="f-opt-odd-squares", tool="verify_optimization", truth="noaccept",
         why="(n * n) // 4 is the sum of the odd numbers below n only for even n (and 1): 3 gives 2, not 1",
         args={"original": ODD_SUM, "candidate": "n = int(input())\nprint((n * n) // 4 if n > 0 else 0)",
               "language": "python3"}),
    dict(id="f-opt-odd-right", tool="verify_optimization", truth="faster",
         why="(n // 2) ** 2 is exact for every n",
         args={"original": ODD_SUM, "candidate": "n = int(input())\nprint((n // 2) ** 2 if n > 0 else 0)",
               "language": "python3", "sizes": [300000, 600000, 1200000]}),
    dict(id="f-max-char-few", tool="verify_translation", truth="differ",
         why="max() by code point against the last of a UTF-16 sort",
         args=vt("print(max(input().strip()))", "python3",
                 'console.log([...require("fs").readFileSync(0, "utf8").trim()].sort().pop())', "node",
                 ["abc", "hello"])),
    dict(id="f-java-length-few", tool="verify_translation", truth="differ",
         why="String.length() counts UTF-16 units (an astral character is 2)",
         args=vt("print(len(input().strip()))", "python3",
                 "public class Main { public static void main(String[] a) throws Exception {"
                 " String s = new String(System.in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();"
                 " System.out.println(s.length()); } }", "java", ["abc", "hello"])),
    dict(id="f-java-same-defaults", tool="verify_translation", truth="same",
         why="exact integer doubling with BigInteger, 'bad' on anything else: the same on every default and edge",
         args=vt("import sys\ns = sys.stdin.read().strip()\ntry:\n    n = int(s)\nexcept ValueError:\n"
                 "    print('bad')\n    sys.exit(0)\nprint(n * 3)", "python3",
                 "import java.math.BigInteger;\n"
                 "public class Main { public static void main(String[] a) throws Exception {"
                 " System.out.println(Util.triple(new String(System.in.readAllBytes()).strip())); } }\n"
                 "class Util { static String triple(String s) {"
                 " try { return new BigInteger(s).multiply(BigInteger.valueOf(3)).toString(); }"
                 " catch (NumberFormatException e) { return \"bad\"; } } }", "java")),
    dict(id="f-ce-go-scan-edge", tool="compare_edge_cases", truth="differ",
         why="go's fmt.Scan leaves n = 0 on '2.5'; python's int() raises",
         args={"snippets": {"python3": "print(int(input()) + 1)",
                            "go": 'package main\nimport "fmt"\nfunc main() { var n int; fmt.Scan(&n); fmt.Println(n + 1) }'},
               "inputs": ["1", "2", "3"]}),
    dict(id="f-repair-one-example", tool="execute_python", truth="ambiguous",
         why="g(10) == 6 alone: x - 4, x * 0 + 6, x // 2 + 1 ... all fit",
         args=ep("def g(x):\n    return x - 5\n", "assert g(10) == 6")),
    dict(id="f-repair-expected-only", tool="execute_python", truth="ambiguous",
         why="one expected output is one check: 2 + 3, 2 * 3 - 1 ... all print 5",
         args={"code": "print(2 + 2)\n", "mode": "execute", "options": {"expected_output": "5\n"}}),
    dict(id="f-repair-js-same-swap", tool="execute_python", truth="ambiguous",
         why="(x - 2) * (y + 2) and (x + 2) * (y - 2) agree when x == y, differ on h(3, 4)",
         args=ep("function h(x, y) { return (x + 2) * (y + 2); }\n", "assert(h(3, 3) === 5)\nassert(h(4, 4) === 12)",
                 "javascript")),
    dict(id="f-repair-pinned", tool="execute_python", truth="pinned",
         why="three examples single out x - 4",
         args=ep("def g(x):\n    return x - 5\n", "assert g(10) == 6\nassert g(0) == -4\nassert g(7) == 3")),
]



if __name__ == "__main__":
    main({"main": MAIN, "fresh": FRESH})
