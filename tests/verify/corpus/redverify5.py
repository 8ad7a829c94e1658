#!/usr/bin/env python3
"""Red-team corpus of lane redverify5: verification-tool calls whose truth
was written from reasoning and execution (never from codecalc), run
against a binary, counting confident wrong verdicts.

  python3 tests/verify/corpus/redverify5.py --bin build/bin/codecalc [--set main|fresh|optclass|all] [--only ID] [--repeat K]

Truths and the run loop are runner.py's. The `main` set was written before
the fixes of this lane; the `fresh` set after them, not looked at while
fixing. `optclass` is the measurement of verify_optimization against
candidates each wrong at one class of n (0, 1, a power of two, a prime, a
perfect square, odd n), each called the ways an agent would: no
test_inputs, two test inputs, seven test inputs.

A compare_edge_cases call whose runs all died alike is `honest` when the
result counts the rows not compared (`incomplete_count`, runner.py).

Results (2026-12-02, the shared 2-core host at load 10-31; main is
74c650f's build):
  main set (15 cases): main 9 wrong (both lost-buffer calls, the four
    verify_optimization candidates, recursion depth, int64 factorial,
    locale order); redverify5 0 wrong, 2 honest (the lost-buffer calls).
    ce-nondet-sq passed on main too (11 inputs with the int edges);
    ce-nondet-node-3 x20: main 13 wrong, redverify5 0.
  fresh set (12 cases): main 8 wrong (f-ce-ruby-rand, f-ce-cpp-throw-lost,
    f-ce-rust-exit-same, three verify_optimization, java recursion, go
    divmod); redverify5 0 wrong, 1 honest (f-ce-cpp-throw-lost). With the
    first rule for repeats (only when every first run took <= 0.5 s)
    f-ce-ruby-rand was wrong once: the rule that replaced it, 0 of 20.
  optclass (18 calls): main accepted 7 `verified faster`; redverify5 0
    (18 `not equivalent`).
The truths of optclass were checked by running both programs of each pair
on n = 0..299 and a few larger n (not through codecalc): zero differs at
0; one at 0 and 1; prime at the primes; pow2 at the powers of two; square
at the squares; odd at the odd n from 3."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from runner import ce, main, opt, vt  # noqa: E402

C_HEAD = "#include <stdio.h>\n#include <stdlib.h>\n"
PY_NODE_INT = 'const n = +require("fs").readFileSync(0, "utf8");\n'
LOOP_SUM = "n = int(input())\ns = 0\nfor i in range(n):\n    s += i\nprint(s)"
SEVEN_EVEN = ["0", "2", "4", "10", "20", "50", "100"]


MAIN = [
    # --- 1. nondeterminism: a snippet wrong one run in ten (run with --repeat) ---
    dict(id="ce-nondet-sq", tool="compare_edge_cases", truth="differ",
         why="the py snippet prints n*n + 1 on 1 run in 10",
         args=ce({"python3": "n = int(input())\nprint(n * n)",
                  "py": "import random\nn = int(input())\nprint(n * n if random.random() < 0.9 else n * n + 1)"},
                 ["2", "3", "4", "6", "8"])),
    dict(id="ce-nondet-node-3", tool="compare_edge_cases", truth="differ",
         why="the node snippet answers n - 1 when Math.random() < 0.1; three inputs, no edges",
         args=ce({"python3": "print(int(input()) + 5)",
                  "node": PY_NODE_INT + "console.log(Math.random() < 0.1 ? n + 4 : n + 5)"},
                 ["1", "7", "9"], False)),
    # --- 3. output lost in a buffer when both programs die ---
    dict(id="ce-c-abort-lost", tool="compare_edge_cases", truth="differ",
         why="on a negative n, c prints 'neg' and cpp 'negative' (both into stdio's pipe buffer), then both abort:"
             " what they wrote differs, both outputs are lost",
         args=ce({"c": C_HEAD + "int main(void) { long n; if (scanf(\"%ld\", &n) != 1) return 3;\n"
                                "  if (n < 0) { printf(\"neg\\n\"); abort(); }\n  printf(\"%ld\\n\", 2 * n); return 0; }",
                  "cpp": "#include <cstdio>\n#include <cstdlib>\nint main() { long n; if (std::scanf(\"%ld\", &n) != 1) return 3;\n"
                         "  if (n < 0) { std::printf(\"negative\\n\"); std::abort(); }\n  std::printf(\"%ld\\n\", 2 * n); }"},
                 ["-1", "2", "3"], False)),
    dict(id="ce-c-segv-truncated", tool="compare_edge_cases", truth="differ",
         why="both flush n, then write x / y into the buffer and die of SIGSEGV: the agreement on 'n' is a truncated one",
         args=ce({"c": C_HEAD + "int main(void) { int n; if (scanf(\"%d\", &n) != 1) return 3; printf(\"%d\\n\", n);"
                                " fflush(stdout); printf(\"x\\n\"); if (n == 5) { volatile int *p = 0; *p = 1; } return 0; }",
                  "cpp": "#include <cstdio>\nint main() { int n; if (std::scanf(\"%d\", &n) != 1) return 3; std::printf(\"%d\\n\", n);"
                         " std::fflush(stdout); std::printf(n == 5 ? \"y\\n\" : \"x\\n\");"
                         " if (n == 5) { volatile int *p = nullptr; *p = 1; } }"},
                 ["5", "6"], False)),
    # --- 2. verify_optimization: a candidate wrong at one class of n ---
    dict(id="opt-odd-seven-even", tool="verify_optimization", truth="noaccept",
         why="(n // 2) * (n - 1) is wrong for odd n >= 3; the seven given inputs are even or 0, so no sizes are added",
         args=opt(LOOP_SUM, "n = int(input())\nprint((n // 2) * (n - 1) if n > 0 else 0)", SEVEN_EVEN)),
    dict(id="opt-square-few", tool="verify_optimization", truth="noaccept",
         why="the isqrt divisor count double-counts the root of a perfect square; no square among 12, 30, 60,"
             " the added sizes or the timing sizes 3000 6000 12000",
         args=opt("n = int(input())\nprint(sum(1 for i in range(1, n + 1) if n % i == 0))",
                  "import math\nn = int(input())\nc = 0\nfor i in range(1, math.isqrt(max(n, 0)) + 1):\n"
                  "    if n % i == 0:\n        c += 2\nprint(c)", ["12", "30", "60"], [3000, 6000, 12000])),
    dict(id="opt-pow2-seven", tool="verify_optimization", truth="noaccept",
         why="(n - 1).bit_length() counts the powers of two <= n except when n is one (2, 4, 8, ...)",
         args=opt("n = int(input())\nc = 0\nfor i in range(1, n + 1):\n    if i & (i - 1) == 0:\n        c += 1\nprint(c)",
                  "n = int(input())\nprint((n - 1).bit_length() if n > 1 else max(n, 0))",
                  ["0", "1", "3", "10", "100", "1000", "12345"])),
    dict(id="opt-zero-few", tool="verify_optimization", truth="noaccept",
         why="max() of an empty sequence raises at n = 0, where the loop prints -1; 5 and 10 do not reach it",
         args=opt("n = int(input())\nm = -1\nfor i in range(n):\n    m = max(m, i * i % 7)\nprint(m)",
                  "n = int(input())\nprint(max(i * i % 7 for i in range(min(n, 7))))", ["5", "10"])),
    # --- hunting: edges the tables do not reach ---
    dict(id="vt-recursion-depth", tool="verify_translation", truth="differ",
         why="python's recursion stops at depth 1000 (RecursionError), node's near 10000: at 5000 node answers, python dies",
         args=vt("def f(n):\n    return 0 if n <= 0 else n + f(n - 1)\nprint(f(int(input())))", "python3",
                 PY_NODE_INT + "function f(k) { return k <= 0 ? 0 : k + f(k - 1); }\nconsole.log(f(n))", "node",
                 ["3", "10"])),
    dict(id="vt-factorial-int64", tool="verify_translation", truth="differ",
         why="go's int64 factorial wraps past 20!; python's is exact: n! mod 1e9+7 differs from n = 21 on",
         args=vt("n = int(input())\nr = 1\nfor i in range(2, n + 1):\n    r *= i\nprint(r % 1000000007)", "python3",
                 'package main\nimport "fmt"\nfunc main() { var n int64; fmt.Scan(&n); r := int64(1);'
                 ' for i := int64(2); i <= n; i++ { r *= i }; fmt.Println(r % 1000000007) }', "go", ["5", "10"])),
    dict(id="vt-empty-stdin", tool="verify_translation", truth="differ",
         why="on empty stdin python's input() raises, node's +'' is 0: the typed edges never send an empty stdin",
         args=vt("print(int(input()) * 3)", "python3", PY_NODE_INT + "console.log(n * 3)", "node", ["4", "5"])),
    dict(id="vt-divmod-pair", tool="verify_translation", truth="differ",
         why="python's // and % floor, C's / and % truncate: -7 2 gives -4 1 against -3 -1",
         args=vt("a, b = map(int, input().split())\nprint(a // b, a % b)", "python3",
                 C_HEAD + "int main(void) { long a, b; if (scanf(\"%ld %ld\", &a, &b) != 2) return 1;"
                          " printf(\"%ld %ld\\n\", a / b, a % b); return 0; }", "c", ["7 2", "9 4"])),
    dict(id="vt-locale-sort", tool="verify_translation", truth="differ",
         why="localeCompare puts 'a' before 'B'; python's sorted() puts upper case first",
         args=vt("print(' '.join(sorted(input().split())))", "python3",
                 'const w = require("fs").readFileSync(0, "utf8").trim().split(/\\s+/);\n'
                 'console.log(w.sort((x, y) => x.localeCompare(y)).join(" "))', "node", ["pear apple fig", "b a c"])),
    # --- ports that agree (a false alarm is wrong) ---
    dict(id="ce-same-c-exit", tool="compare_edge_cases", truth="same",
         why="both print the double and exit 0; both exit 3 on no number after printing nothing",
         args=ce({"c": C_HEAD + "int main(void) { long n; if (scanf(\"%ld\", &n) != 1) return 3; printf(\"%ld\\n\", 2 * n); return 0; }",
                  "python3": "import sys\ntry:\n    n = int(sys.stdin.read())\nexcept ValueError:\n    sys.exit(3)\nprint(2 * n)"},
                 ["1", "2", "x"], False)),
    dict(id="opt-right-few", tool="verify_optimization", truth="faster",
         why="n * (n - 1) // 2 is exact for every n >= 0 (and 0 below)",
         args=opt(LOOP_SUM, "n = int(input())\nprint(n * (n - 1) // 2 if n > 0 else 0)", ["5", "10"],
                  [300000, 600000, 1200000])),
]

# Written after the fixes, not looked at while fixing (same classes, new programs).
GO_MAP = ('package main\nimport ("bufio"; "fmt"; "os")\nfunc main() { s := bufio.NewScanner(os.Stdin); '
          's.Split(bufio.ScanWords); seen := map[string]bool{}; for s.Scan() { seen[s.Text()] = true }; '
          'for w := range seen { fmt.Println(w) } }')
FRESH = [
    dict(id="f-ce-go-map-one-input", tool="compare_edge_cases", truth="differ",
         why="go ranges over a map in random order: two words come out in input order half the time; python keeps it",
         args=ce({"python3": "import sys\nfor w in dict.fromkeys(sys.stdin.read().split()):\n    print(w)", "go": GO_MAP},
                 ["apple pear"], False)),
    dict(id="f-ce-ruby-rand", tool="compare_edge_cases", truth="differ",
         why="the ruby snippet prints n + 1 when rand < 0.1",
         args=ce({"python3": "print(int(input()) * 7)", "ruby": "n = gets.to_i\nputs(rand < 0.1 ? n * 7 + 1 : n * 7)"},
                 ["2", "4", "6", "8"], False)),
    dict(id="f-ce-cpp-throw-lost", tool="compare_edge_cases", truth="differ",
         why="on 0 cpp writes 'zero' to cout (no endl) and throws (SIGABRT); c writes 'nil' with printf and aborts: both lost",
         args=ce({"cpp": "#include <iostream>\n#include <stdexcept>\nint main() { long n; std::cin >> n; "
                         "if (n == 0) { std::cout << \"zero\\n\"; throw std::runtime_error(\"z\"); } std::cout << n << \"\\n\"; }",
                  "c": C_HEAD + "int main(void) { long n; if (scanf(\"%ld\", &n) != 1) return 1; "
                                "if (n == 0) { printf(\"nil\\n\"); abort(); } printf(\"%ld\\n\", n); return 0; }"},
                 ["0", "3", "8"], False)),
    dict(id="f-ce-rust-exit-same", tool="compare_edge_cases", truth="same",
         why="both write 'bad' and exit 2 on a negative n; rust's process::exit skips the flush of a BufWriter, so its 'bad' is lost:"
             " the same behaviour, one output cut",
         args=ce({"rust": "use std::io::{Read, Write, BufWriter};\nfn main() { let mut s = String::new(); "
                          "std::io::stdin().read_to_string(&mut s).unwrap(); let n: i64 = s.trim().parse().unwrap(); "
                          "let mut o = BufWriter::new(std::io::stdout()); if n < 0 { write!(o, \"bad\\n\").unwrap(); "
                          "std::process::exit(2); } writeln!(o, \"{}\", n * 3).unwrap(); }",
                  "c": C_HEAD + "int main(void) { long n; if (scanf(\"%ld\", &n) != 1) return 1; "
                                "if (n < 0) { printf(\"bad\\n\"); exit(2); } printf(\"%ld\\n\", 3 * n); return 0; }"},
                 ["-4", "5", "6"], False)),
    dict(id="f-ce-same-ruby-quick", tool="compare_edge_cases", truth="same",
         why="python and ruby doubling agree on every run: the repeats must not cry nondeterminism",
         args=ce({"python3": "print(int(input()) * 2)", "ruby": "puts gets.to_i * 2"}, ["1", "5", "9"], False)),
    dict(id="f-opt-prime-seven", tool="verify_optimization", truth="noaccept",
         why="the sieve sums primes up to n inclusive: wrong exactly at a prime n; none of the seven given is prime",
         args=opt("n = int(input())\nt = 0\nfor k in range(2, n):\n    if all(k % d for d in range(2, int(k ** 0.5) + 1)):\n        t += k\nprint(t)",
                  "n = int(input())\nif n < 2:\n    print(0)\nelse:\n    s = bytearray([1]) * (n + 1)\n    s[0] = s[1] = 0\n"
                  "    for i in range(2, int(n ** 0.5) + 1):\n        if s[i]:\n            s[i * i::i] = bytearray(len(s[i * i::i]))\n"
                  "    print(sum(i for i in range(n + 1) if s[i]))",
                  ["10", "20", "50", "100", "200", "500", "1000"])),
    dict(id="f-opt-square-two", tool="verify_optimization", truth="noaccept",
         why="pairs (a, b) with a * b == n: the isqrt loop adds 2 per divisor, one too many at a perfect square",
         args=opt("n = int(input())\nprint(sum(1 for a in range(1, n + 1) if n % a == 0))",
                  "import math\nn = int(input())\nprint(sum(2 for a in range(1, math.isqrt(max(n, 0)) + 1) if n % a == 0))",
                  ["6", "12"], [3000, 6000])),
    dict(id="f-opt-hash-original", tool="verify_optimization", truth="noaccept",
         why="above n = 1500 the original prints a digit of a string hash (a fresh seed per run); the candidate 0",
         args=opt("n = int(input())\ns = 0\nfor i in range(n):\n    s += i\nprint(s if n <= 1500 else hash(str(n)) % 10)",
                  "n = int(input())\nprint((n * (n - 1) // 2 if n > 0 else 0) if n <= 1500 else 0)", ["4", "9"])),
    dict(id="f-opt-right-seven", tool="verify_optimization", truth="faster",
         why="the sum of the odd numbers below n is (n // 2) ** 2 for every n >= 0",
         args=opt("n = int(input())\ns = 0\nfor i in range(n):\n    if i % 2:\n        s += i\nprint(s)",
                  "n = int(input())\nprint((n // 2) ** 2 if n > 0 else 0)", ["1", "2", "10", "11", "100", "101", "1000"],
                  [300000, 600000, 1200000])),
    dict(id="f-vt-java-recursion", tool="verify_translation", truth="differ",
         why="python's recursion stops at depth 1000; java's default stack holds 5000 frames of this",
         args=vt("def f(n):\n    return 1 if n <= 1 else 1 + f(n - 1)\nprint(f(int(input())))", "python3",
                 "public class Main { static long f(long n) { return n <= 1 ? 1 : 1 + f(n - 1); }\n"
                 " public static void main(String[] a) { System.out.println(f(new java.util.Scanner(System.in).nextLong())); } }",
                 "java", ["4", "9"])),
    dict(id="f-vt-go-divmod", tool="verify_translation", truth="differ",
         why="go's / and % truncate: -7 2 is -3 -1 in go, -4 1 in python",
         args=vt("import sys\nt = sys.stdin.read().split()\na, b = int(t[0]), int(t[1])\nprint(a // b, a % b)", "python3",
                 'package main\nimport "fmt"\nfunc main() { var a, b int64; fmt.Scan(&a, &b); fmt.Println(a / b, a % b) }',
                 "go", ["9 2", "8 3"])),
    dict(id="f-vt-go-divmod-same", tool="verify_translation", truth="same",
         why="the go port floors explicitly: the same on every pair; both die on a zero divisor",
         args=vt("import sys\nt = sys.stdin.read().split()\na, b = int(t[0]), int(t[1])\nprint(a // b, a % b)", "python3",
                 'package main\nimport "fmt"\nfunc main() { var a, b int64; fmt.Scan(&a, &b); q, r := a / b, a % b; '
                 'if r != 0 && (r < 0) != (b < 0) { q--; r += b }; fmt.Println(q, r) }', "go", ["9 2", "8 3"])),
]

# Candidates each wrong at one class of n, written after the fixes from
# bugs an optimiser makes (an off-by-one at a boundary of the class), each
# called three ways: no test_inputs, two, and seven round numbers.
CLASS_PAIRS = [
    ("zero", "the floor of the mean of range(n): (n - 1) // 2 is -1 at n = 0 (and below), where the loop prints 0",
     "n = int(input())\ns = 0\nfor i in range(n):\n    s += i\nprint(s // n if n > 0 else 0)",
     "n = int(input())\nprint((n - 1) // 2)"),
    ("one", "the sum of proper divisors: the isqrt loop starts at 1 and gives 1 at n = 0 and n = 1, where it is 0",
     "n = int(input())\nprint(sum(d for d in range(1, n) if n % d == 0))",
     "import math\nn = int(input())\ns = 1\nfor d in range(2, math.isqrt(max(n, 0)) + 1):\n    if n % d == 0:\n"
     "        s += d + (n // d if n // d != d else 0)\nprint(s if n >= 0 else 0)"),
    ("prime", "primes below n: the sieve counts up to n inclusive, so n itself at a prime n",
     "n = int(input())\nc = 0\nfor k in range(2, n):\n    if all(k % d for d in range(2, int(k ** 0.5) + 1)):\n        c += 1\nprint(c)",
     "n = int(input())\nif n < 2:\n    print(0)\nelse:\n    s = bytearray([1]) * (n + 1)\n    s[0] = s[1] = 0\n"
     "    for i in range(2, int(n ** 0.5) + 1):\n        if s[i]:\n            s[i * i::i] = bytearray(len(s[i * i::i]))\n"
     "    print(sum(s))"),
    ("pow2", "the largest power of two <= n: 1 << ((n - 1).bit_length() - 1) is n / 2 at a power of two",
     "n = int(input())\np = 0\nfor i in range(1, n + 1):\n    if i & (i - 1) == 0:\n        p = i\nprint(p)",
     "n = int(input())\nprint(1 << ((n - 1).bit_length() - 1) if n > 1 else max(n, 0))"),
    ("square", "perfect squares <= n: isqrt(n - 1) misses n itself when n is a square",
     "import math\nn = int(input())\nc = 0\nfor i in range(1, n + 1):\n    r = math.isqrt(i)\n    if r * r == i:\n        c += 1\nprint(c)",
     "import math\nn = int(input())\nprint(math.isqrt(n - 1) if n > 0 else 0)"),
    ("odd", "pairs i < j < n with i + j even: h * (h - 1) for h = n // 2 is right for even n only",
     "n = int(input())\ne = o = 0\nfor i in range(n):\n    if i % 2:\n        o += 1\n    else:\n        e += 1\n"
     "print(e * (e - 1) // 2 + o * (o - 1) // 2)",
     "n = int(input())\nh = n // 2\nprint(h * (h - 1) if n > 0 else 0)"),
]
CALLS = [("defaults", None), ("two", ["5", "10"]), ("seven", ["10", "12", "20", "50", "100", "500", "1000"])]
OPTCLASS = [dict(id=f"oc-{cls}-{how}", tool="verify_optimization", truth="noaccept", why=why,
                 args=opt(orig, cand, inputs)) for cls, why, orig, cand in CLASS_PAIRS for how, inputs in CALLS]


if __name__ == "__main__":
    main({"main": MAIN, "fresh": FRESH, "optclass": OPTCLASS})
