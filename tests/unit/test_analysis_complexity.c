/* analyze_complexity (TOOLS.md 3.5.1), called directly: the spec's
 * examples, both reading modes and their notes, the decision table, the
 * regex fallback's letter, and each refinement rule of docs/analysis.md
 * with its example. */
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "workers/analysis/complexity.h"
#include "workers/analysis/refine_text.h"
#include "workers/common/tool_api.h"

CC_TOOL(analyze_complexity);

static json_t *analyze(const char *language, const char *code) {
    json_t *args = json_pack("{s:s}", "code", code);
    if (language) json_object_set_new(args, "language", json_string(language));
    json_t *r = cc_tool_analyze_complexity(args, NULL);
    json_decref(args);
    return r;
}

static const char *str(json_t *r, const char *k) { return json_string_value(json_object_get(r, k)); }
static long long num(json_t *r, const char *k) { return json_integer_value(json_object_get(r, k)); }

static bool has_note(json_t *r, const char *note) {
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(r, "notes"), i, v) if (strcmp(json_string_value(v), note) == 0) return true;
    return false;
}

/* The rule of the first refinement, or NULL. */
static const char *rule_at(json_t *r, size_t i) {
    return json_string_value(json_object_get(json_array_get(json_object_get(r, "refinements"), i), "rule"));
}

/* Some refinement has this rule. */
static bool has_rule(json_t *r, const char *rule) {
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(r, "refinements"), i, v) if (strcmp(json_string_value(json_object_get(v, "rule")), rule) == 0) return true;
    return false;
}

static void spec_examples(void) {
    json_t *r = analyze(NULL, "for i in range(n):\n    for j in range(n):\n        pass");
    CHECK_STREQ(str(r, "estimate"), "O(n^2)");
    CHECK_STREQ(str(r, "basis"), "2 nested loop levels (2 loop constructs)");
    CHECK_STREQ(str(r, "method"), "static-estimate");
    CHECK_STREQ(str(r, "analysis"), "tree-sitter");
    CHECK_STREQ(str(r, "grammar"), "python");
    CHECK_INTEQ(num(r, "loops"), 2);
    CHECK_INTEQ(num(r, "max_nesting"), 2);
    CHECK_INTEQ(json_array_size(json_object_get(r, "notes")), 0);
    json_decref(r);

    r = analyze(NULL, "def f(n):\n    return f(n-1)+f(n-2)");
    CHECK_STREQ(str(r, "estimate"), "O(2^n) — recursion detected");
    CHECK_STREQ(str(r, "basis"), "recursive function 'f'");
    CHECK(json_is_true(json_object_get(r, "recursion")));
    CHECK_STREQ(json_string_value(json_array_get(json_object_get(r, "functions"), 0)), "f");
    CHECK_STREQ(str(r, "refined_estimate"), "O(2^n)"); /* two self-calls: the spec stands */
    json_decref(r);

    r = analyze(NULL, "x = sorted(a)");
    CHECK_STREQ(str(r, "estimate"), "O(n log n)");
    CHECK_STREQ(str(r, "basis"), "sorting call, no loops");
    CHECK(has_note(r, "sort/builtin detected (O(n log n) worst case)"));
    json_decref(r);

    r = analyze(NULL, "x = 1");
    CHECK_STREQ(str(r, "estimate"), "O(1)");
    CHECK_STREQ(str(r, "basis"), "no loops, no recursion");
    CHECK(has_note(r, "constant-time surface; may hide loops in library calls"));
    CHECK_STREQ(str(r, "refined_estimate"), "O(1)");
    json_decref(r);
}

static void decision_table_and_notes(void) {
    json_t *r = analyze("python3", "d = dict()\nfor x in a:\n    d[x] = 1");
    CHECK_STREQ(str(r, "estimate"), "O(n) — with sort: O(n log n)");
    CHECK_STREQ(str(r, "basis"), "1 loop level");
    CHECK(has_note(r, "hash structures → average-case O(1) lookups"));
    CHECK(!has_note(r, "constant-time surface; may hide loops in library calls"));
    json_decref(r);
    /* Notes in the spec's order: sort, hash, heuristic. */
    r = analyze("cobol", "x = sorted(HashMap)");
    json_t *notes = json_object_get(r, "notes");
    CHECK_INTEQ(json_array_size(notes), 3);
    CHECK_STREQ(json_string_value(json_array_get(notes, 0)), "sort/builtin detected (O(n log n) worst case)");
    CHECK_STREQ(json_string_value(json_array_get(notes, 1)), "hash structures → average-case O(1) lookups");
    CHECK_STREQ(json_string_value(json_array_get(notes, 2)),
                "structural heuristic only (no tree-sitter grammar for 'cobol')");
    json_decref(r);
    /* `\b{}`: braces right after a word character (Go's map literal). */
    r = analyze("go", "m := map[string]int{}");
    CHECK(has_note(r, "hash structures → average-case O(1) lookups"));
    json_decref(r);
    r = analyze("go", "m := {}");
    CHECK(!has_note(r, "hash structures → average-case O(1) lookups"));
    json_decref(r);
}

static void tree_walk_details(void) {
    /* Loops in strings and comments are inert: not counted. */
    json_t *r = analyze("python3", "# for x in y: while True\ns = 'for i in range(n): pass'\n");
    CHECK_INTEQ(num(r, "loops"), 0);
    json_decref(r);
    /* A call through an attribute reduces to the name after the last '.'. */
    r = analyze("python3", "class A:\n    def walk(self, n):\n        return self.walk(n - 1)\n");
    CHECK_STREQ(str(r, "basis"), "recursive function 'walk'");
    json_decref(r);
    /* Functions in walk order; an anonymous one is <anonymous>. */
    r = analyze("node", "function a() {}\nconst b = () => 1;\nclass C { m() {} }\n");
    json_t *fns = json_object_get(r, "functions");
    CHECK_INTEQ(json_array_size(fns), 3);
    CHECK_STREQ(json_string_value(json_array_get(fns, 0)), "a");
    CHECK_STREQ(json_string_value(json_array_get(fns, 1)), "<anonymous>");
    CHECK_STREQ(json_string_value(json_array_get(fns, 2)), "m");
    CHECK_STREQ(str(r, "grammar"), "javascript");
    json_decref(r);
    /* A syntax error: still tree-sitter, with the partial-parse note. */
    r = analyze("python3", "def f(:\n  for x in y:\n    pass\n");
    CHECK_STREQ(str(r, "analysis"), "tree-sitter");
    CHECK(has_note(r, "source has syntax errors; the parse is partial"));
    json_decref(r);
    /* Loops of several grammars. */
    r = analyze("rust", "fn f(v: &[u32]) { for a in v { for b in v { while true {} } } }");
    CHECK_INTEQ(num(r, "max_nesting"), 3);
    CHECK_STREQ(str(r, "estimate"), "O(n^3)");
    json_decref(r);
    r = analyze("java", "class A { void f(int[] a) { for (int x : a) { for (int i = 0; i < x; i++) {} } } }");
    CHECK_INTEQ(num(r, "max_nesting"), 2);
    json_decref(r);
    r = analyze("go", "func f(a []int) { for _, x := range a { for i := 0; i < x; i++ {} } }");
    CHECK_INTEQ(num(r, "max_nesting"), 2);
    json_decref(r);
}

/* Deeply nested input must not exhaust a stack: the walk is iterative. */
static void deep_nesting_is_walked(void) {
    size_t depth = 200000;
    char *code = malloc(2 * depth + 8);
    memset(code, '[', depth);
    memset(code + depth, ']', depth);
    code[2 * depth] = '\0';
    json_t *r = analyze("python3", code);
    CHECK(json_is_true(json_object_get(r, "ok")));
    json_decref(r);
    free(code);
}

static void regex_fallback_letter(void) {
    /* Indentation: a dedented loop pops the stack; `}`/`)` lines are no loops. */
    json_t *r = analyze("fortran", "for a\n  for b\n    while c\nfor d\n} while (x)\n");
    CHECK_STREQ(str(r, "analysis"), "regex-fallback");
    CHECK(json_is_null(json_object_get(r, "grammar")));
    CHECK_INTEQ(num(r, "loops"), 4);
    CHECK_INTEQ(num(r, "max_nesting"), 3);
    CHECK_INTEQ(json_array_size(json_object_get(r, "functions")), 0);
    json_decref(r);
    /* Comment lines and blank lines are skipped; .map( counts. */
    r = analyze("fortran", "# for x\n// while\n\n* loop\nxs.map(f)\n");
    CHECK_INTEQ(num(r, "loops"), 1);
    json_decref(r);
    /* Recursion: a header whose body (to the next column-0 line) calls it. */
    r = analyze("fortran", "function fact(n)\n  return n * fact(n - 1)\nend\n");
    CHECK_STREQ(str(r, "basis"), "recursive function 'fact'");
    json_decref(r);
    r = analyze("fortran", "function g(n)\n  return 1\nend\nx = g(2)\n");
    CHECK(!json_is_true(json_object_get(r, "recursion")));
    json_decref(r);
    r = analyze("fortran", "public static int f(int n) {\n    return f(n - 1);\n}\n");
    CHECK_STREQ(str(r, "basis"), "recursive function 'f'");
    json_decref(r);
    /* A name inside a longer identifier is no call: "if(" is not "f(". */
    r = analyze("fortran", "def f(x)\n  if(x) return 1\n");
    CHECK(!json_is_true(json_object_get(r, "recursion")));
    json_decref(r);
}

static void refinement_rules(void) {
    json_t *r = analyze(NULL, "for i in range(10):\n    for x in xs:\n        pass\n");
    CHECK_STREQ(str(r, "estimate"), "O(n^2)");
    CHECK_STREQ(str(r, "refined_estimate"), "O(n)");
    CHECK_STREQ(rule_at(r, 0), "constant_bound_loop");
    json_decref(r);

    r = analyze("c", "void f(int n) { for (int i = 0; i < 8; i++) { for (int j = 0; j < n; j++) {} } }");
    CHECK_STREQ(str(r, "refined_estimate"), "O(n)");
    CHECK_STREQ(rule_at(r, 0), "constant_bound_loop");
    json_decref(r);

    r = analyze(NULL, "ys = [y * 2 for y in xs]\n");
    CHECK_STREQ(str(r, "estimate"), "O(n^2)"); /* the spec counts both nodes */
    CHECK_STREQ(str(r, "refined_estimate"), "O(n)");
    CHECK_STREQ(rule_at(r, 0), "comprehension_clause");
    json_decref(r);

    r = analyze(NULL, "seen = []\nfor x in xs:\n    if x not in seen:\n        seen.append(x)\n");
    CHECK_STREQ(str(r, "refined_estimate"), "O(n^2)");
    CHECK_STREQ(rule_at(r, 0), "linear_membership");
    json_decref(r);
    r = analyze(NULL, "seen = set()\nfor x in xs:\n    if x not in seen:\n        seen.add(x)\n");
    CHECK_STREQ(str(r, "refined_estimate"), "O(n)"); /* a set: O(1) lookups, no rule */
    CHECK_INTEQ(json_array_size(json_object_get(r, "refinements")), 0);
    json_decref(r);

    r = analyze(NULL, "for x in xs:\n    i = xs.index(x)\n");
    CHECK_STREQ(str(r, "refined_estimate"), "O(n^2)");
    CHECK_STREQ(rule_at(r, 0), "linear_call");
    json_decref(r);
    r = analyze(NULL, "for x in xs:\n    m = max(a, b)\n"); /* two arguments: O(1) */
    CHECK_STREQ(str(r, "refined_estimate"), "O(n)");
    json_decref(r);

    r = analyze(NULL, "for q in qs:\n    s = sorted(q)\n");
    CHECK_STREQ(str(r, "refined_estimate"), "O(n^2 log n)");
    CHECK_STREQ(rule_at(r, 0), "sort_in_loop");
    json_decref(r);

    r = analyze(NULL, "def fact(n):\n    return 1 if n == 0 else n * fact(n - 1)\n");
    CHECK_STREQ(str(r, "estimate"), "O(2^n) — recursion detected");
    CHECK_STREQ(str(r, "refined_estimate"), "O(n)");
    CHECK_STREQ(rule_at(r, 0), "single_recursion");
    json_decref(r);

    r = analyze(NULL, "def bs(a, lo, hi, x):\n    mid = (lo + hi) // 2\n    if a[mid] < x:\n"
                      "        return bs(a, mid + 1, hi, x)\n    return bs(a, lo, mid - 1, x)\n");
    CHECK_STREQ(str(r, "refined_estimate"), "O(log n)");
    CHECK_STREQ(rule_at(r, 0), "halving_recursion");
    json_decref(r);

    r = analyze(NULL, "def ms(a):\n    mid = len(a) // 2\n    l = ms(a[:mid])\n    r = ms(a[mid:])\n"
                      "    out = []\n    for x in l:\n        out.append(x)\n    return out\n");
    CHECK_STREQ(str(r, "refined_estimate"), "O(n log n)");
    CHECK(has_rule(r, "divide_and_conquer")); /* beside the slices' O(n) per call */
    json_decref(r);

    r = analyze(NULL, "from functools import lru_cache\n@lru_cache(maxsize=None)\ndef fib(n):\n"
                      "    return n if n < 2 else fib(n - 1) + fib(n - 2)\n");
    CHECK_STREQ(str(r, "refined_estimate"), "O(n)");
    CHECK_STREQ(rule_at(r, 0), "memoized_recursion");
    json_decref(r);

    /* C names its functions through a declarator, which the spec's reading
     * does not look at: the spec says O(1), the refinement sees the tree. */
    r = analyze("c", "int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }");
    CHECK_STREQ(str(r, "estimate"), "O(1)");
    CHECK_STREQ(str(r, "refined_estimate"), "O(2^n)");
    CHECK_STREQ(rule_at(r, 0), "declarator_name");
    CHECK_STREQ(json_string_value(json_array_get(json_object_get(r, "functions"), 0)), "<anonymous>");
    json_decref(r);

    r = analyze(NULL, "# we sort(later)\nx = 1\n");
    CHECK_STREQ(str(r, "estimate"), "O(n log n)"); /* the spec's text scan */
    CHECK_STREQ(str(r, "refined_estimate"), "O(1)");
    CHECK_STREQ(rule_at(r, 0), "sort_not_called");
    json_decref(r);

    /* The fallback has no tree: no refinements, the spec's class. */
    r = analyze("fortran", "for a\n  for b\n");
    CHECK_STREQ(str(r, "refined_estimate"), "O(n^2)");
    CHECK_INTEQ(json_array_size(json_object_get(r, "refinements")), 0);
    json_decref(r);
}

struct refined_case {
    const char *lang, *code, *want;
};

static void check_refined(const struct refined_case *cases, size_t n) {
    for (size_t i = 0; i < n; i++) {
        json_t *r = analyze(cases[i].lang, cases[i].code);
        CHECK_STREQ(str(r, "refined_estimate"), cases[i].want);
        json_decref(r);
    }
}

/* Binary search and merge sort that name their midpoint m, k, or any name
 * other than mid/half/middle were O(n) and O(2^n): the halving was in the
 * assignment (m = (lo + hi) // 2), not in the self-call's arguments. */
static void halving_through_a_named_midpoint(void) {
    static const struct refined_case cases[] = {
        {NULL, "def bs(a, lo, hi, x):\n    if lo > hi: return -1\n    m = (lo + hi) // 2\n"
               "    if a[m] == x: return m\n    if a[m] < x: return bs(a, m + 1, hi, x)\n    return bs(a, lo, m - 1, x)\n",
         "O(log n)"},
        {NULL, "def ms(a):\n    if len(a) < 2: return a\n    m = len(a) // 2\n    l = ms(a[:m]); r = ms(a[m:])\n"
               "    out = []\n    i = j = 0\n    while i < len(l) and j < len(r):\n        out.append(l[i]); i += 1\n"
               "    return out\n",
         "O(n log n)"},
        {"c", "int bs(int *a, int lo, int hi, int x) { if (lo > hi) return -1; int m = lo + (hi - lo) / 2;"
              " if (a[m] < x) return bs(a, m + 1, hi, x); return bs(a, lo, m - 1, x); }", "O(log n)"},
        /* Its O(n) work per call is slice and concat, not a loop. */
        {"javascript", "function ms(a) { if (a.length < 2) return a; const k = a.length >> 1;"
                       " return ms(a.slice(0, k)).concat(ms(a.slice(k))); }", "O(n log n)"},
        /* A name assigned n - 1 halves nothing. f(n // 20) was O(n): a
         * twentieth shrinks the input by a constant factor as a half does. */
        {NULL, "def f(n):\n    if n <= 0: return 0\n    return f(n // 20) + 1\n", "O(log n)"},
        {NULL, "def f(n):\n    if n == 0: return 0\n    return 1 + f(n // 3)\n", "O(log n)"},
        {NULL, "def f(n):\n    if n <= 0: return 0\n    return f(n - 20) + 1\n", "O(n)"},
        {NULL, "def f(n):\n    if n <= 0: return 0\n    k = n - 1\n    return f(k) + f(k)\n", "O(2^n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* `while i < n: i *= 2` was O(n): a counter scaled by a constant factor
 * makes O(log n) iterations. */
static void geometric_loop_is_log_n(void) {
    static const struct refined_case cases[] = {
        {NULL, "def f(n):\n    i = 1\n    while i < n:\n        i *= 2\n", "O(log n)"},
        {NULL, "def f(n):\n    while n > 0:\n        n //= 2\n", "O(log n)"},
        {NULL, "def f(n):\n    i = 1\n    while i < n:\n        i = i * 2\n        for j in range(n):\n            pass\n",
         "O(n log n)"},
        {"c", "int f(int n) { int c = 0; for (int i = 1; i < n; i *= 2) c++; return c; }", "O(log n)"},
        {"go", "func f(n int) int { c := 0; for i := n; i > 0; i /= 2 { c++ }; return c }", "O(log n)"},
        /* Binary search's loop: its bounds are set from a halved midpoint. */
        {NULL, "def bs(a, x):\n    lo, hi = 0, len(a) - 1\n    while lo <= hi:\n        mid = (lo + hi) // 2\n"
               "        if a[mid] < x:\n            lo = mid + 1\n        else:\n            hi = mid - 1\n    return lo\n",
         "O(log n)"},
        {"c", "int bs(int *a, int n, int x) { int lo = 0, hi = n; while (lo < hi) { int mid = lo + (hi - lo) / 2;"
              " if (a[mid] < x) lo = mid + 1; else hi = mid; } return lo; }", "O(log n)"},
        {NULL, "def f(a):\n    for q in a:\n        lo, hi = 0, len(a)\n        while lo < hi:\n"
               "            mid = (lo + hi) >> 1\n            if a[mid] < q: lo = mid + 1\n            else: hi = mid\n",
         "O(n log n)"},
        {NULL, "def f(a):\n    lo, hi = 0, len(a)\n    while lo < hi:\n        m = lo + 1\n        lo = m\n", "O(n)"},
        /* A counter that also steps, a factor 1 or a float: no claim. */
        {NULL, "def f(n):\n    while n > 0:\n        n //= 2\n        n -= 1\n", "O(n)"},
        {NULL, "def f(n):\n    i = 1\n    while i < n:\n        i *= 1\n", "O(n)"},
        {"c", "int f(int n) { int c = 1; for (int i = 0; i < n; i++) c *= 2; return c; }", "O(n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* `for (i = n; i > 0; i--)` compares i with a literal but counts down
 * from n: it was a constant_bound_loop, O(1). */
static void literal_condition_needs_a_literal_start(void) {
    static const struct refined_case cases[] = {
        {"c", "int f(int n) { int c = 0; for (int i = n; i > 0; i--) c++; return c; }", "O(n)"},
        {"java", "class A { int f(int n) { int c = 0; for (int i = n; i != 0; i--) c++; return c; } }", "O(n)"},
        {"c", "int f(int n) { int c = 0; for (int i = 0; i < 10; i++) c++; return c; }", "O(1)"},
        {"c", "int f(int n) { int c = 0, i; for (i = 0; i < 10; i++) c++; return c; }", "O(1)"},
        {"go", "func f(n int) int { c := 0; for i := 0; i < 10; i++ { c++ }; return c }", "O(1)"},
        {"javascript", "function f(n) { let c = 0; for (let i = 0; i < 16; i++) c++; return c; }", "O(1)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* A fib with a hand-written memo dict was O(2^n): only a cache decorator
 * counted as memoisation. */
static void memo_table_is_memoisation(void) {
    static const struct refined_case cases[] = {
        {NULL, "memo = {}\ndef fib(n):\n    if n in memo:\n        return memo[n]\n"
               "    r = n if n < 2 else fib(n - 1) + fib(n - 2)\n    memo[n] = r\n    return r\n", "O(n)"},
        {NULL, "def fib(n, memo={}):\n    if n < 2: return n\n    if memo.get(n) is None:\n"
               "        memo[n] = fib(n - 1, memo) + fib(n - 2, memo)\n    return memo[n]\n", "O(n)"},
        /* Stored into but never looked up: no memo. */
        {NULL, "def fib(n, out):\n    out[n] = 1\n    return fib(n - 1, out) + fib(n - 2, out)\n", "O(2^n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* A cached fib called in a loop over range(n) was O(n^2): each call was
 * charged the memo's whole O(n), though a decorator's cache outlives the
 * call and the states are computed once in all. Only where the one
 * argument stays among the memo's n states: fib(i * i) reaches n^2
 * states, and g(i, n), memoised over its second argument, computes n new
 * states for each i. */
static void memoised_calls_in_a_loop_were_counted_per_call(void) {
    static const struct refined_case cases[] = {
        {NULL, "from functools import lru_cache\n@lru_cache(None)\ndef fib(n):\n"
               "    return n if n < 2 else fib(n - 1) + fib(n - 2)\ndef f(n):\n    return [fib(i) for i in range(n)]\n",
         "O(n)"},
        {NULL, "from functools import cache\n@cache\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
               "def f(n):\n    t = 0\n    for i in range(n):\n        t += fib(i + 1)\n    return t\n",
         "O(n)"},
        {NULL, "from functools import cache\n@cache\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
               "def f(n):\n    return [fib(i * i) for i in range(n)]\n",
         "O(n^2)"},
        {NULL, "from functools import cache\n@cache\ndef g(i, j):\n    return 0 if j == 0 else g(i, j - 1) + i\n"
               "def f(n):\n    t = 0\n    for i in range(n):\n        t += g(i, n)\n    return t\n",
         "O(n^2)"},
        /* A hand-written memo may be fresh per call: still per call. */
        {NULL, "def fib(n, memo=None):\n    if memo is None:\n        memo = {}\n    if n in memo: return memo[n]\n"
               "    r = n if n < 2 else fib(n - 1, memo) + fib(n - 2, memo)\n    memo[n] = r\n    return r\n"
               "def f(n):\n    return [fib(i) for i in range(n)]\n",
         "O(n^2)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* `memo = {} if memo is None else memo` (and `memo = memo or {}`) hid
 * the memo's type: `n in memo` read as a scan of a list or str, and a
 * memoised fib was O(n^2). The value that is not the name itself gives
 * the kind; a ternary between two other values says nothing. */
static void self_default_idiom_hid_the_memos_type(void) {
    static const struct refined_case cases[] = {
        {NULL, "def fib(n, memo=None):\n    memo = {} if memo is None else memo\n    if n in memo: return memo[n]\n"
               "    r = n if n < 2 else fib(n - 1, memo) + fib(n - 2, memo)\n    memo[n] = r\n    return r\n", "O(n)"},
        {NULL, "def fib(n, memo=None):\n    memo = memo or {}\n    if n in memo: return memo[n]\n"
               "    r = n if n < 2 else fib(n - 1, memo) + fib(n - 2, memo)\n    memo[n] = r\n    return r\n", "O(n)"},
        {NULL, "def f(a, seen=None):\n    seen = seen if seen is not None else []\n    for x in a:\n"
               "        if x in seen: continue\n        seen.append(x)\n    return seen\n", "O(n^2)"},
        {NULL, "def f(a, b):\n    s = {} if b else a\n    return [x for x in a if x in s]\n", "O(n^2)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* A memo passed as a parameter read as "a type the source does not show"
 * (a scan, O(n) per lookup: fib O(n^2)) even where the source shows it:
 * a default value (memo={}), an annotation (memo: dict), or every call
 * passing a dict and the self-calls passing it on. A parameter also took
 * the kind of a global of the same name. */
static void memo_parameter_read_as_unknown(void) {
    static const struct refined_case cases[] = {
        {NULL, "def fib(n, memo={}):\n    if n in memo: return memo[n]\n"
               "    r = n if n < 2 else fib(n - 1, memo) + fib(n - 2, memo)\n    memo[n] = r\n    return r\n", "O(n)"},
        {NULL, "def fib(n, memo: dict):\n    if n in memo: return memo[n]\n"
               "    r = n if n < 2 else fib(n - 1, memo) + fib(n - 2, memo)\n    memo[n] = r\n    return r\n"
               "print(fib(30, {}))\n", "O(n)"},
        {NULL, "def fib(n, memo: typing.Dict[int, int]):\n    if n in memo: return memo[n]\n"
               "    r = n if n < 2 else fib(n - 1, memo) + fib(n - 2, memo)\n    memo[n] = r\n    return r\n", "O(n)"},
        {NULL, "def fib(n, memo):\n    if n in memo: return memo[n]\n"
               "    r = n if n < 2 else fib(n - 1, memo) + fib(n - 2, memo)\n    memo[n] = r\n    return r\n"
               "print(fib(30, {}))\nprint(fib(n, memo=dict()))\n", "O(n)"},
        /* One caller passes a list: each lookup may scan it. */
        {NULL, "def fib(n, memo):\n    if n in memo: return memo[n]\n"
               "    r = n if n < 2 else fib(n - 1, memo) + fib(n - 2, memo)\n    memo[n] = r\n    return r\n"
               "print(fib(30, {}))\nprint(fib(30, [0] * 31))\n", "O(n^2)"},
        /* A self-call passing something else than the memo itself. */
        {NULL, "def fib(n, memo):\n    if n in memo: return memo[n]\n"
               "    r = n if n < 2 else fib(n - 1, memo) + fib(n - 2, list(memo))\n    memo[n] = r\n    return r\n"
               "print(fib(30, {}))\n", "O(n^3)"}, /* the copy varies too: two dimensions, an upper bound */
        /* No caller in the source: the type is not shown. */
        {NULL, "def fib(n, memo):\n    if n in memo: return memo[n]\n"
               "    r = n if n < 2 else fib(n - 1, memo) + fib(n - 2, memo)\n    memo[n] = r\n    return r\n", "O(n^2)"},
        {NULL, "def f(a, seen: list):\n    for x in a:\n        if x in seen: continue\n        seen.append(x)\n",
         "O(n^2)"},
        {NULL, "def f(a, seen: set):\n    for x in a:\n        if x in seen: continue\n        seen.add(x)\n",
         "O(n)"},
        /* The global xs is a set; the parameter xs is the list callers pass. */
        {NULL, "xs = set()\ndef has(xs, x):\n    return x in xs\nfor i in range(n):\n    has([1] * n, i)\n",
         "O(n^2)"},
        {NULL, "xs = set()\ndef has(xs, x):\n    return x in xs\nfor i in range(n):\n    if i in xs: pass\n", "O(n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* Quicksort refined to O(2^n): two self-calls with no halving were left
 * exponential. Its calls are on the two sides of a partition: O(n^2) worst
 * case. Fibonacci's two calls on n - 1 and n - 2 stay exponential. */
static void quicksort_was_exponential(void) {
    static const struct refined_case cases[] = {
        {NULL, "def qs(a):\n    if len(a) <= 1:\n        return a\n    p = a[0]\n"
               "    left = [x for x in a[1:] if x < p]\n    right = [x for x in a[1:] if x >= p]\n"
               "    return qs(left) + [p] + qs(right)\n", "O(n^2)"},
        {NULL, "def qs(a):\n    if not a: return a\n"
               "    return qs([x for x in a[1:] if x < a[0]]) + a[:1] + qs([x for x in a[1:] if x >= a[0]])\n",
         "O(n^2)"},
        {NULL, "def partition(a, lo, hi):\n    p = a[hi]; i = lo\n    for j in range(lo, hi):\n"
               "        if a[j] < p:\n            a[i], a[j] = a[j], a[i]; i += 1\n    return i\n\n"
               "def qs(a, lo, hi):\n    if lo < hi:\n        p = partition(a, lo, hi)\n"
               "        qs(a, lo, p - 1)\n        qs(a, p + 1, hi)\n", "O(n^2)"},
        {"c", "int part(int *a, int lo, int hi) { int p = a[hi], i = lo; for (int j = lo; j < hi; j++)"
              " if (a[j] < p) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; } return i; }\n"
              "void qs(int *a, int lo, int hi) { if (lo < hi) { int p = part(a, lo, hi); qs(a, lo, p - 1);"
              " qs(a, p + 1, hi); } }", "O(n^2)"},
        {"javascript", "function qs(a) { if (a.length < 2) return a; const [p, ...r] = a;"
                       " return [...qs(r.filter(x => x < p)), p, ...qs(r.filter(x => x >= p))]; }", "O(n^2)"},
        {NULL, "def f(n):\n    if n < 2: return n\n    return f(n - 1) + f(n - 2)\n", "O(2^n)"},
        /* One filtered side and one plain call: not a partition. */
        {NULL, "def f(a):\n    if not a: return 0\n    b = [x for x in a if x > 0]\n"
               "    return f(b[1:]) + f(a[1:])\n", "O(2^n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
    json_t *r = analyze(NULL, cases[0].code);
    json_t *last = json_array_get(json_object_get(r, "refinements"), json_array_size(json_object_get(r, "refinements")) - 1);
    CHECK_STREQ(json_string_value(json_object_get(last, "rule")), "partition_recursion");
    CHECK(strstr(json_string_value(json_object_get(last, "note")), "O(n log n) expected") != NULL);
    json_decref(r);
}

/* Trial division up to sqrt(n) was O(n): a loop bounded by a square root
 * (sqrt, isqrt, **0.5, or a counter squared in its condition and stepped
 * by addition) runs O(sqrt n) times. Newton's x*x > n, whose x is not
 * stepped, is not one. */
static void sqrt_bounded_loop_was_linear(void) {
    static const struct refined_case cases[] = {
        {NULL, "def p(n):\n    for i in range(2, int(n**0.5)+1):\n        if n % i == 0: return False\n"
               "    return True\n", "O(sqrt n)"},
        {NULL, "import math\ndef p(n):\n    for i in range(2, math.isqrt(n) + 1):\n        pass\n", "O(sqrt n)"},
        {NULL, "def p(n):\n    i = 3\n    while i * i <= n:\n        i += 2\n    return True\n", "O(sqrt n)"},
        {NULL, "def c(n):\n    t = 0\n    for k in range(n):\n        j = 1\n        while j * j <= k:\n"
               "            j += 1\n    return t\n", "O(n sqrt n)"},
        {NULL, "def r(n):\n    x = n\n    while x * x > n:\n        x = (x + n // x) // 2\n    return x\n", "O(n)"},
        {"c", "int p(int n) { for (int i = 2; i * i <= n; i++) if (n % i == 0) return 0; return 1; }", "O(sqrt n)"},
        {"go", "func p(n int) bool {\n for i := 2; i*i <= n; i++ { if n%i == 0 { return false } }\n return true\n}",
         "O(sqrt n)"},
        /* Go's `for n > 0 {` names no condition field: its digits loop was O(n). */
        {"go", "func f(n int) int {\n c := 0\n for n > 0 {\n  n /= 10\n  c++\n }\n return c\n}", "O(log n)"},
        {NULL, "def f(n):\n    for i in range(n):\n        for j in range(n):\n            if i*i == j: pass\n", "O(n^2)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
    json_t *r = analyze(NULL, cases[2].code);
    CHECK_STREQ(rule_at(r, 0), "sqrt_loop");
    json_decref(r);
}

/* A heap push or a binary search in a loop was O(n): each costs log n. */
static void log_time_calls_in_a_loop(void) {
    static const struct refined_case cases[] = {
        {NULL, "import heapq\ndef f(a, k):\n    h = []\n    for x in a:\n        heapq.heappush(h, x)\n"
               "        if len(h) > k: heapq.heappop(h)\n    return h\n", "O(n log n)"},
        {NULL, "import bisect\ndef f(a, qs):\n    out = []\n    for q in qs:\n"
               "        out.append(bisect.bisect_left(a, q))\n    return out\n", "O(n log n)"},
        {NULL, "import heapq\ndef f(h, x):\n    heapq.heappush(h, x)\n", "O(log n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* Building a string by prepending (s = ch + s) or a list by out = out +
 * [x] copies it every time: O(n) per iteration, not O(1). s = s + ch
 * (CPython extends it in place) and a number's n = x + n are not copies. */
static void copying_concatenation_in_a_loop(void) {
    static const struct refined_case cases[] = {
        {NULL, "def f(s):\n    r = ''\n    for ch in s:\n        r = ch + r\n    return r\n", "O(n^2)"},
        {NULL, "def f(a):\n    out = []\n    for x in a:\n        out = out + [x]\n    return out\n", "O(n^2)"},
        {NULL, "def f(a):\n    s = ''\n    for x in a:\n        s = s + x\n    return s\n", "O(n)"},
        {NULL, "def f(a):\n    n = 0\n    for x in a:\n        n = x + n\n    return n\n", "O(n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* Divisor-style double loops (the inner one steps by the outer counter:
 * n/1 + n/2 + ... + n/n) were O(n^2); they are O(n log n). A step that is
 * not an enclosing counter over n, or that comes from a fixed list, is
 * not one. */
static void harmonic_inner_loop_was_quadratic(void) {
    static const struct refined_case cases[] = {
        {NULL, "def f(n):\n    c = 0\n    for i in range(1, n + 1):\n        for j in range(i, n + 1, i):\n"
               "            c += 1\n    return c\n", "O(n log n)"},
        {"c", "int f(int n){ int c = 0; for (int i = 1; i <= n; i++) for (int j = i; j <= n; j += i) c++; return c; }",
         "O(n log n)"},
        {"javascript", "function f(n){ let c=0; for(let i=1;i<=n;i++) for(let j=i;j<=n;j+=i) c++; return c; }",
         "O(n log n)"},
        {NULL, "def f(n, k):\n    c = 0\n    for i in range(n):\n        for j in range(0, n, k):\n            c += 1\n",
         "O(n^2)"},
        /* the update read from the tree: j = j + i, j = i + j, Go's j += i */
        {"c", "int f(int n){ int c = 0; for (int i = 1; i <= n; i++) for (int j = i; j <= n; j = j + i) c++; return c; }",
         "O(n log n)"},
        {"go", "func f(n int) int {\n c := 0\n for i := 1; i <= n; i++ {\n  for j := i; j <= n; j = i + j {\n   c++\n  }\n }\n"
               " return c\n}\n", "O(n log n)"},
        {"java", "class H { static int f(int n) { int c = 0; for (int i = 1; i <= n; i++) for (int j = i; j <= n; j += i) c++;"
                 " return c; } }", "O(n log n)"},
        /* a step that is an expression of the counter is not one */
        {"c", "int f(int n){ int c = 0; for (int i = 1; i <= n; i++) for (int j = 0; j <= n; j += i - i + 1) c++; return c; }",
         "O(n^2)"},
        {NULL, "def f(n):\n    c = 0\n    for s in [1, 2, 3]:\n        for j in range(0, n, s):\n            c += 1\n",
         "O(n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* Euclid's gcd was O(n): a loop whose condition's name takes a remainder
 * (b = a % b, a, b = b, a % b) runs O(log n) times. A remainder beside an
 * additive step is not one. */
static void euclid_loop_was_linear(void) {
    static const struct refined_case cases[] = {
        {NULL, "def gcd(a, b):\n    while b:\n        a, b = b, a % b\n    return a\n", "O(log n)"},
        {"c", "int g(int a, int b){ while (b != 0) { int t = b; b = a % b; a = t; } return a; }", "O(log n)"},
        {NULL, "def f(n):\n    c = 0\n    while n > 0:\n        c += n % 10\n        n -= 1\n    return c\n", "O(n)"},
        /* Collatz: x takes an expression holding a remainder, not a remainder. */
        {"rust", "fn f(n: u64) -> u64 { let mut x = n; let mut c = 0; while x > 1 { x = if x % 2 == 0 { x / 2 }"
                 " else { 3 * x + 1 }; c += 1; } c }", "O(n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* A sliding window (an inner while advancing a left pointer the outer loop
 * never resets) was O(n^2): the pointer crosses the input once in all. A
 * pointer reset by the outer loop, a plain counter, or a step under a
 * condition is not one. */
static void amortized_pointer_was_quadratic(void) {
    static const struct refined_case cases[] = {
        {NULL, "def f(s):\n    seen = set()\n    l = 0\n    best = 0\n    for r, ch in enumerate(s):\n"
               "        while ch in seen:\n            seen.remove(s[l])\n            l += 1\n"
               "        seen.add(ch)\n        best = max(best, r - l + 1)\n    return best\n", "O(n)"},
        {NULL, "def f(a, b):\n    j = 0\n    out = 0\n    for x in a:\n        while j < len(b) and b[j] < x:\n"
               "            j += 1\n        out += j\n    return out\n", "O(n)"},
        {"c", "int f(int *a, int *b, int n) { int j = 0, c = 0; for (int i = 0; i < n; i++) {"
              " while (j < n && b[j] < a[i]) j++; c += j; } return c; }", "O(n)"},
        {NULL, "def f(n):\n    c = 0\n    for i in range(n):\n        j = 0\n        while j < n:\n            j += 1\n"
               "    return c\n", "O(n^2)"},
        {NULL, "def f(n):\n    cnt = 0\n    for i in range(n):\n        k = i\n        while k > 0:\n"
               "            k -= 1\n            cnt += 1\n    return cnt\n", "O(n^2)"},
        {NULL, "def f(n, m):\n    for i in range(n):\n        while i < m:\n            i += 1\n", "O(n^2)"},
        /* Moved back by a variable amount: no amortisation. */
        {NULL, "def f(a):\n    j = 0\n    for i in range(len(a)):\n        while j < len(a):\n            j += 1\n"
               "        j -= i\n    return j\n", "O(n^2)"},
        /* Reset by a tuple assignment: it was amortised, an underestimate. */
        {NULL, "def f(a):\n    for i in range(len(a)):\n        lo, hi = i + 1, len(a) - 1\n        while lo < hi:\n"
               "            lo += 1\n    return 0\n", "O(n^2)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* `for x in list(a):` was O(n^2) and `for q in sorted(qs):` O(n^2 log n):
 * what a loop iterates over is evaluated once, not per iteration. */
static void loop_header_is_evaluated_once(void) {
    static const struct refined_case cases[] = {
        {NULL, "def f(a):\n    c = 0\n    for x in list(a):\n        c += x\n    return c\n", "O(n)"},
        {NULL, "def f(qs):\n    for q in sorted(qs):\n        print(q)\n", "O(n log n)"},
        {NULL, "def f(a):\n    return [x for x in reversed(a) if x > 0]\n", "O(n)"},
        {"javascript", "function f(a){ let s=0; for (const x of a.filter(y => y > 0)) s += x; return s; }", "O(n)"},
        {NULL, "def f(a):\n    for i in range(len(a)):\n        b = list(a)\n", "O(n^2)"},
        {NULL, "def f(a):\n    b = set(a)\n    return len(b)\n", "O(n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* The sieve of Eratosthenes was O(n sqrt n) (a harmonic loop inside a loop
 * to sqrt n was not one): it is O(n log log n) when only an unmarked
 * counter reaches the inner loop, O(n log n) when any does. A guard of the
 * wrong polarity (only marked counters) is no sieve. */
static void sieve_was_n_sqrt_n(void) {
    static const struct refined_case cases[] = {
        {NULL, "def s(n):\n    p = [True] * (n + 1)\n    i = 2\n    while i * i <= n:\n        if p[i]:\n"
               "            for m in range(i * i, n + 1, i):\n                p[m] = False\n        i += 1\n    return p\n",
         "O(n log log n)"},
        {"c", "void s(int n, char *c) { for (int i = 2; i * i <= n; i++) { if (c[i]) continue;"
              " for (int j = i * i; j <= n; j += i) c[j] = 1; } }", "O(n log log n)"},
        {"java", "class P { static void s(int n, boolean[] c) { for (int i = 2; i <= n; i++)"
                 " if (!c[i]) for (int j = 2 * i; j <= n; j += i) c[j] = true; } }", "O(n log log n)"},
        {"javascript", "function s(n, a) { for (let i = 2; i <= Math.sqrt(n); i++) if (a[i] === true)"
                       " for (let j = i * i; j <= n; j += i) a[j] = false; }", "O(n log log n)"},
        /* no guard: a harmonic sum over a loop to sqrt n still reaches n */
        {"c", "void s(int n, char *c) { for (int i = 2; i * i <= n; i++) for (int j = i * i; j <= n; j += i) c[j] = 1; }",
         "O(n log n)"},
        /* the guard admits marked counters: a harmonic sum over composites */
        {"c", "int f(int n, char *m) { int c = 0; for (int i = 2; i <= n; i++) if (m[i])"
              " for (int j = i; j <= n; j += i) { m[j] = 1; c++; } return c; }", "O(n log n)"},
        /* it writes two values: no claim */
        {NULL, "def f(n, a):\n    for i in range(2, n):\n        if not a[i]:\n            for j in range(i, n, i):\n"
               "                a[j] = True\n                a[j - 1] = False\n", "O(n log n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* BFS, iterative DFS, Dijkstra and Kahn's sort over adjacency lists were
 * O(n^2) (a loop over g[u] inside a loop over the worklist): a vertex
 * taken from the worklist, neighbours pushed only under a test of a
 * collection the loop writes (or a visited test at the pop), is O(V + E).
 * Pushing every neighbour back with no test is a path enumeration. */
static void graph_traversal_was_quadratic(void) {
    static const struct refined_case cases[] = {
        {NULL, "def bfs(g, s):\n    d = {s: 0}\n    q = deque([s])\n    while q:\n        u = q.popleft()\n"
               "        for v in g[u]:\n            if v not in d:\n                d[v] = d[u] + 1\n"
               "                q.append(v)\n    return d\n", "O(V + E)"},
        {"javascript", "function r(g, s) { const seen = new Set(); const st = [s]; while (st.length) {"
                       " const u = st.pop(); if (seen.has(u)) continue; seen.add(u);"
                       " for (const v of g.get(u) || []) st.push(v); } return seen; }", "O(V + E)"},
        {"go", "func b(g [][]int, s int) []int {\n d := make([]int, len(g))\n q := []int{s}\n for len(q) > 0 {\n"
               "  u := q[0]\n  q = q[1:]\n  for _, v := range g[u] {\n   if d[v] == 0 {\n    d[v] = d[u] + 1\n"
               "    q = append(q, v)\n   }\n  }\n }\n return d\n}\n", "O(V + E)"},
        {NULL, "def dj(g, s):\n    dist = {s: 0}\n    pq = [(0, s)]\n    while pq:\n        d, u = heapq.heappop(pq)\n"
               "        if d > dist[u]:\n            continue\n"
               "        for v, w in g[u]:\n            if d + w < dist.get(v, 1e18):\n                dist[v] = d + w\n"
               "                heapq.heappush(pq, (d + w, v))\n    return dist\n", "O((V + E) log V)"},
        /* a relaxation guard with no stale check at the pop: a vertex may be
         * popped and scanned once per improvement, no claim of V + E */
        {NULL, "def dj(g, s):\n    dist = {s: 0}\n    pq = [(0, s)]\n    while pq:\n        d, u = heapq.heappop(pq)\n"
               "        for v, w in g[u]:\n            if d + w < dist.get(v, 1e18):\n                dist[v] = d + w\n"
               "                heapq.heappush(pq, (d + w, v))\n    return dist\n", "O(n^2 log n)"},
        /* no test before the push: once per path */
        {NULL, "def paths(g, s):\n    q = [s]\n    c = 0\n    while q:\n        u = q.pop()\n        c += 1\n"
               "        for v in g[u]:\n            q.append(v)\n    return c\n", "O(2^n)"},
        /* the test reads nothing the loop writes: no claim of O(V + E) */
        {NULL, "def f(g, s, k):\n    q = [s]\n    while q:\n        u = q.pop()\n        for v in g[u]:\n"
               "            if v > k:\n                q.append(v)\n", "O(2^n)"},
        /* not a worklist: the outer loop runs over all vertices */
        {NULL, "def deg(g):\n    c = 0\n    for u in range(len(g)):\n        for v in g[u]:\n            c += 1\n    return c\n",
         "O(n^2)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* A recursive DFS (a self-call in a loop, under a test of a visited
 * collection the function marks) was O(2^n): each vertex is entered once,
 * O(V + E); so is a flood fill that returns at once for a visited cell,
 * and a loop that calls the DFS only for unvisited vertices. Backtracking
 * that unmarks (used[i] = False after the call) is not a DFS. */
static void recursive_dfs_was_exponential(void) {
    static const struct refined_case cases[] = {
        {"java", "class G { boolean[] seen; java.util.List<java.util.List<Integer>> adj;"
                 " void dfs(int u) { seen[u] = true; for (int v : adj.get(u)) if (!seen[v]) dfs(v); } }", "O(V + E)"},
        {"c", "struct e { int v; struct e *next; };\nvoid dfs(struct e **adj, int *vis, int u) { vis[u] = 1;"
              " for (struct e *p = adj[u]; p; p = p->next) if (!vis[p->v]) dfs(adj, vis, p->v); }", "O(V + E)"},
        {NULL, "def comps(n, adj):\n    seen = [False] * n\n    def dfs(u):\n        seen[u] = True\n"
               "        for w in adj[u]:\n            if not seen[w]:\n                dfs(w)\n    c = 0\n"
               "    for i in range(n):\n        if not seen[i]:\n            dfs(i)\n            c += 1\n    return c\n",
         "O(V + E)"},
        {NULL, "def isl(grid):\n    seen = set()\n    def dfs(r, c):\n        if (r, c) in seen or r < 0 or c < 0:\n"
               "            return\n        seen.add((r, c))\n        dfs(r + 1, c)\n        dfs(r, c + 1)\n"
               "    n = 0\n    for r in range(len(grid)):\n        for c in range(len(grid[0])):\n"
               "            if (r, c) not in seen:\n                dfs(r, c)\n                n += 1\n    return n\n",
         "O(n^2)"},
        /* the mark is conditional, or not of what the call was for: each
         * call may run the whole function again (n calls of O(n)) */
        {NULL, "def g(n, seen, a):\n    def f(i):\n        if i % 2:\n            seen[i] = True\n        for x in a:\n"
               "            print(x)\n    for i in range(n):\n        if not seen[i]:\n            f(i)\n", "O(n^2)"},
        {NULL, "def g(n, seen, a):\n    def f(i):\n        seen[0] = True\n        for x in a:\n            print(x)\n"
               "    for i in range(n):\n        if not seen[i]:\n            f(i)\n", "O(n^2)"},
        {"javascript", "function p(a) { const used = [], cur = [], out = []; function bt() {"
                       " if (cur.length === a.length) { out.push([...cur]); return; }"
                       " for (let i = 0; i < a.length; i++) { if (used[i]) continue; used[i] = true; cur.push(a[i]);"
                       " bt(); cur.pop(); used[i] = false; } } bt(); return out; }", "O(n * n!)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* A monotonic stack (a while loop popping a stack inside a loop that
 * pushes once per iteration) was O(n^2): every item is pushed and popped
 * once, O(n). A stack pushed in a nested loop, or refilled, is not. */
static void monotonic_stack_was_quadratic(void) {
    static const struct refined_case cases[] = {
        {NULL, "def ng(a):\n    res = [-1] * len(a)\n    st = []\n    for i, x in enumerate(a):\n"
               "        while st and a[st[-1]] < x:\n            res[st.pop()] = x\n        st.append(i)\n    return res\n",
         "O(n)"},
        {"go", "func f(a []int) []int {\n st := []int{}\n for _, x := range a {\n  for len(st) > 0 && st[len(st)-1] > x {\n"
               "   st = st[:len(st)-1]\n  }\n  st = append(st, x)\n }\n return st\n}\n", "O(n)"},
        {"java", "class S { int f(int[] h) { java.util.Deque<Integer> st = new java.util.ArrayDeque<>(); int b = 0;"
                 " for (int i = 0; i < h.length; i++) { while (!st.isEmpty() && h[st.peek()] >= h[i]) b += h[st.pop()];"
                 " st.push(i); } return b; } }", "O(n)"},
        {NULL, "def f(a):\n    t = 0\n    for x in a:\n        st = []\n        for y in a:\n            st.append(y)\n"
               "        while st:\n            t += st.pop()\n    return t\n", "O(n^2)"},
        {"javascript", "function f(a) { const st = []; let c = 0; for (let i = 0; i < a.length; i++) {"
                       " for (let j = 0; j < a.length; j++) st.push(j); while (st.length) { st.pop(); c++; } } return c; }",
         "O(n^2)"},
        /* the pop is conditional: the loop may spin without popping */
        {NULL, "def f(a):\n    st = []\n    for x in a:\n        while st and st[-1] < x:\n            if x > 0:\n"
               "                st.pop()\n        st.append(x)\n", "O(n^2)"},
        {NULL, "def f(a):\n    st = []\n    for x in a:\n        st.extend(a)\n        while st:\n            st.pop()\n",
         "O(n^2)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* Python slices in a loop or a comprehension were free, and a
 * comprehension's later for clauses did not reach its element: a slice is
 * a copy (O(n)), a fixed-width one (s[i:i+3]) is not; a spread ([...a, x])
 * copies too. */
static void slices_in_comprehensions_were_free(void) {
    static const struct refined_case cases[] = {
        {NULL, "def p(s):\n    return [s[:i] for i in range(len(s) + 1)]\n", "O(n^2)"},
        {NULL, "def r(s):\n    return [s[i:] + s[:i] for i in range(len(s))]\n", "O(n^2)"},
        {NULL, "def c(s):\n    return sum(1 for i in range(len(s)) for j in range(i, len(s)) if s[i:j] == s[i:j][::-1])\n",
         "O(n^3)"},
        {NULL, "def d(a):\n    return [y - x for x, y in zip(a, a[1:])]\n", "O(n)"},
        {NULL, "def w(s):\n    return sum(1 for i in range(len(s) - 2) if s[i:i + 3] == 'abc')\n", "O(n)"},
        {NULL, "def m(a):\n    return [[x * y for y in a] for x in a]\n", "O(n^2)"},
        {"javascript", "function f(a) { return a.reduce((acc, x) => [...acc, x * 2], []); }", "O(n^2)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* Permutations read as polynomial (a loop over itertools.permutations;
 * combinations(a, 2) read O(n)) or
 * O(2^n) (a self-call in a loop): n! orders; a self-call in a loop on a
 * shrunk or tested choice is O(n * n!) at most, on the loop's counter + 1
 * a subset (O(2^n)), with nothing that shrinks it O(n^n). */
static void permutations_were_polynomial(void) {
    static const struct refined_case cases[] = {
        {NULL, "from itertools import permutations\ndef f(a):\n    return [p for p in permutations(a)]\n", "O(n!)"},
        {NULL, "from itertools import combinations\ndef f(a, d):\n    return [(p, q) for p, q in combinations(a, 2) if p - q < d]\n",
         "O(n^2)"},
        {NULL, "from itertools import combinations, product\ndef f(a, k):\n    c = 0\n    for s in combinations(a, k):\n"
               "        c += 1\n    for t in product(a, a, a):\n        c += 1\n    return c\n", "O(2^n)"},
        {NULL, "from itertools import product\ndef f(a):\n    return [t for t in product(a, repeat=3)]\n", "O(n^3)"},
        {NULL, "import itertools\ndef f(a):\n    for p in itertools.permutations(a):\n        for x in p:\n"
               "            print(x)\n", "O(n * n!)"},
        {NULL, "def perm(a):\n    if len(a) <= 1:\n        return [a]\n    out = []\n    for i in range(len(a)):\n"
               "        rest = a[:i] + a[i + 1:]\n        for p in perm(rest):\n            out.append([a[i]] + p)\n"
               "    return out\n", "O(n * n!)"},
        {NULL, "def sub(a):\n    res = []\n    def bt(s, path):\n        res.append(path[:])\n        for i in range(s, len(a)):\n"
               "            path.append(a[i])\n            bt(i + 1, path)\n            path.pop()\n    bt(0, [])\n    return res\n",
         "O(2^n)"},
        {"javascript", "function c(n, k) { const out = [], path = []; const bt = (s) => {"
                       " if (path.length === k) { out.push(path.slice()); return; }"
                       " for (let i = s; i <= n; i++) { path.push(i); bt(i + 1); path.pop(); } }; bt(1); return out; }",
         "O(2^n)"},
        {NULL, "def words(n, d):\n    if d == n:\n        return 1\n    t = 0\n    for c in range(n):\n"
               "        t += words(n, d + 1)\n    return t\n", "O(n^n)"},
        /* a tree walk (parts of the argument) is O(n) on a tree, up to 2^n
         * on a DAG: the bound, not n^n; a graph carried along (dfs(g, v)
         * with no visited test) is not a tree walk */
        {"c", "struct t { int n; struct t **kid; };\nint count(struct t *n) { int c = 1;"
              " for (int i = 0; i < n->n; i++) c += count(n->kid[i]); return c; }", "O(2^n)"},
        {NULL, "def walk(node):\n    out = [node.val]\n    for ch in node.children:\n        out += walk(ch)\n    return out\n",
         "O(2^n)"},
        {NULL, "def dfs(g, u):\n    for v in g[u]:\n        dfs(g, v)\n", "O(n^n)"},
        {"javascript", "function s(a) { const out = [[]]; for (const x of a) { const k = out.length;"
                       " for (let i = 0; i < k; i++) out.push([...out[i], x]); } return out; }", "O(n * 2^n)"},
        /* each new subset copies an old one: n * 2^n (was O(2^n), an underestimate) */
        {NULL, "def ps(a):\n    out = [[]]\n    for x in a:\n        out += [s + [x] for s in out]\n    return out\n", "O(n * 2^n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* A helper of the same source with a loop, called inside a loop, was free
 * (Java contains() in a loop: O(n)); so was a callback passed to map,
 * filter, reduce or a sort's key. Both cost their work per item. */
/* A Go function literal is read by the refinement model only: 3.5.1's
 * `functions` still lists the declared functions alone. */
static void go_func_literal_is_not_a_spec_function(void) {
    json_t *r = analyze("go", "func f(a []int) int {\n g := func(x int) int { return x }\n return g(1)\n}\n");
    CHECK_INTEQ(json_array_size(json_object_get(r, "functions")), 1);
    CHECK_STREQ(json_string_value(json_array_get(json_object_get(r, "functions"), 0)), "f");
    json_decref(r);
}

static void local_calls_and_callbacks_were_free(void) {
    static const struct refined_case cases[] = {
        {"java", "class C { static boolean has(int[] a, int x) { for (int v : a) if (v == x) return true; return false; }"
                 " static int common(int[] a, int[] b) { int c = 0; for (int x : a) if (has(b, x)) c++; return c; } }",
         "O(n^2)"},
        {NULL, "def isp(k):\n    for d in range(2, k):\n        if k % d == 0:\n            return False\n    return True\n"
               "def cnt(n):\n    return sum(1 for i in range(n) if isp(i))\n", "O(n^2)"},
        {"go", "type D struct{ p []int }\nfunc (d *D) Find(x int) int {\n for d.p[x] != x {\n  x = d.p[x]\n }\n return x\n}\n"
               "func U(d *D, es [][2]int) int {\n c := 0\n for _, e := range es {\n  if d.Find(e[0]) != d.Find(e[1]) {\n   c++\n  }\n }\n"
               " return c\n}\n", "O(n^2)"},
        {"javascript", "const inter = (a, b) => a.filter(x => b.includes(x));", "O(n^2)"},
        {NULL, "def f(ws, t):\n    return sorted(ws, key=lambda w: t.count(w))\n", "O(n^2 log n)"},
        {NULL, "def f(ws):\n    return sorted(ws, key=lambda w: len(w))\n", "O(n log n)"},
        /* a Go closure bound to a name, called in a loop; C's strlen in a
         * loop's condition (evaluated every iteration) */
        {"go", "func f(a []int) int {\n cnt := func(x int) int {\n  c := 0\n  for _, v := range a {\n   if v == x {\n"
               "    c++\n   }\n  }\n  return c\n }\n t := 0\n for _, x := range a {\n  t += cnt(x)\n }\n return t\n}\n",
         "O(n^2)"},
        {"c", "int f(const char *s) { int c = 0; for (int i = 0; i < strlen(s); i++) c += s[i] == 'a'; return c; }",
         "O(n^2)"},
        {"c", "int f(const char *s) { int c = 0, n = strlen(s); for (int i = 0; i < n; i++) c += s[i] == 'a'; return c; }",
         "O(n)"},
        /* a helper called once, outside any loop: its own cost */
        {NULL, "def h(a):\n    return [x * 2 for x in a]\ndef g(a):\n    return h(a)\n", "O(n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}


static const char *refined(json_t *r) { return str(r, "refined_estimate"); }

/* `let n = a.len();` killed the analysis worker (rust). */
static void rust_let_len_killed_the_worker(void) {
    json_t *r = analyze("rust", "fn f(a: &mut Vec<i32>) {\n    let n = a.len();\n    for i in 0..n {\n        for j in 0..n - 1 - i {\n            if a[j] > a[j + 1] { a.swap(j, j + 1); }\n        }\n    }\n}");
    CHECK(json_is_true(json_object_get(r, "ok")));
    CHECK_STREQ(refined(r), "O(n^2)");
    json_decref(r);
    r = analyze("rust", "fn f() { let n = a.len(); }");
    CHECK(json_is_true(json_object_get(r, "ok")));
    json_decref(r);
}

/* Subsets built by doubling copy each old subset: n * 2^n, read as 2^n
 * (an underestimate). */
static void subsets_by_doubling_were_2_to_the_n(void) {
    json_t *r = analyze("python3", "def subsets(a):\n    out = [[]]\n    for x in a:\n        out = out + [s + [x] for s in out]\n    return out\n");
    CHECK_STREQ(refined(r), "O(n * 2^n)");
    CHECK(has_rule(r, "growing_collection"));
    json_decref(r);
    r = analyze("go", "func subsets(a []int) [][]int {\n\tres := [][]int{{}}\n\tfor _, x := range a {\n\t\tk := len(res)\n\t\tfor i := 0; i < k; i++ {\n\t\t\ts := append(append([]int{}, res[i]...), x)\n\t\t\tres = append(res, s)\n\t\t}\n\t}\n\treturn res\n}");
    CHECK_STREQ(refined(r), "O(n * 2^n)");
    json_decref(r);
    /* pushing a number, not a copied list: 2^n */
    r = analyze("javascript", "function f(a) { const out = [1]; for (const x of a) { const k = out.length; for (let i = 0; i < k; i++) out.push(out[i] * 2); } return out; }");
    CHECK_STREQ(refined(r), "O(2^n)");
    json_decref(r);
}

/* A loop to 1 << n runs 2^n times; the bit loop inside it makes n * 2^n. */
static void bitmask_loop_was_polynomial(void) {
    json_t *r = analyze("python3", "def ps(a):\n    n = len(a)\n    out = []\n    for mask in range(1 << n):\n        out.append([a[i] for i in range(n) if mask >> i & 1])\n    return out\n");
    CHECK_STREQ(refined(r), "O(n * 2^n)");
    CHECK(has_rule(r, "exponential_loop"));
    json_decref(r);
    r = analyze("c", "int f(int n, int *w) { int best = 0; for (int m = 0; m < (1 << n); m++) { int s = 0; for (int i = 0; i < n; i++) if (m >> i & 1) s += w[i]; if (s > best) best = s; } return best; }");
    CHECK_STREQ(refined(r), "O(n * 2^n)");
    json_decref(r);
    r = analyze("c", "int f(int *a) { int s = 0; for (int m = 0; m < (1 << 10); m++) s += a[m]; return s; }");
    CHECK(!has_rule(r, "exponential_loop")); /* a literal shift is a constant */
    json_decref(r);
}

/* An inner loop up to a doubling counter was O(n log n) (1 + 2 + 4 + ...
 * is under twice the bound: O(n)); one to a doubling counter bounded by
 * n * n was O(n log n) too, an under-estimate of O(n^2). */
static void geometric_sum_was_n_log_n(void) {
    static const struct refined_case cases[] = {
        {"python3", "def f(a):\n    w = 1\n    t = 0\n    while w < len(a):\n        for k in range(w):\n            t += a[k]\n        w *= 2\n    return t\n", "O(n)"},
        {"c", "long f(int n) { long m = 0; for (int c = 1; c < n; c <<= 1) for (int k = 0; k < c; k++) m++; return m; }", "O(n)"},
        {"python3", "def f(n):\n    i = 1\n    c = 0\n    while i < n * n:\n        for j in range(i):\n            c += 1\n        i *= 2\n    return c\n", "O(n^2)"},
        /* controls: an inner loop over n, a shrinking counter, the counter changed inside */
        {"python3", "def f(a):\n    w = 1\n    c = 0\n    while w < len(a):\n        for x in a:\n            c += x\n        w *= 2\n    return c\n", "O(n log n)"},
        {"python3", "def f(n):\n    i = n\n    while i > 0:\n        for j in range(i):\n            pass\n        i //= 2\n", "O(n log n)"},
        {"c", "int f(int n) { int s = 0; for (int i = 1; i < n; i *= 2) for (int j = 0; j < i; j++) { s += j; j--; } return s; }", "O(n log n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* The unit step, the reset and the assignment of a name were matched three
 * times over (amortized_pointer, geometric_sum, power_bound), each copy a
 * little different; one copy each now (refine_text.c). A Go `j := 0` in
 * the outer loop is a reset, `j %= k` too (amortized_pointer read neither
 * as one); `j = j + 1` is a unit step (geometric_sum's copy missed it). */
static void shared_step_and_reset_matchers(void) {
    size_t at = 9;
    bool up = false;
    CHECK_INTEQ(cx_unit_step("i++", 3, &at, &up), 1);
    CHECK(up && at == 0);
    CHECK_INTEQ(cx_unit_step("--ix;", 5, &at, &up), 2);
    CHECK(!up && at == 2);
    CHECK_INTEQ(cx_unit_step("j=j+1", 5, &at, &up), 1);
    CHECK(up);
    CHECK_INTEQ(cx_unit_step("j+=2", 4, &at, NULL), 0);
    CHECK_INTEQ(cx_unit_step("j=k+1", 5, &at, NULL), 0);
    CHECK(cx_reassigned("for i:=range a{j:=0;}", 21, "j", 1));
    CHECK(cx_reassigned("j%=k;", 5, "j", 1));
    CHECK(cx_reassigned("lo,hi=i+1,n;", 12, "lo", 2));
    CHECK(cx_reassigned("j-=k;", 5, "j", 1));
    CHECK(!cx_reassigned("j+=1;j++;++j;j=j+1;j-=2;", 24, "j", 1));
    CHECK(!cx_reassigned("o.j=0;if(j==n)", 14, "j", 1));
    CHECK(cx_assigns("x,j=1,2", 7, 2, "j", 1));
    CHECK(!cx_assigns("j==2", 4, 0, "j", 1));
    CHECK(cx_assigns("for j in a", 10, 4, "j", 1));
    static const struct refined_case cases[] = {
        {"c", "long f(int n) { long m = 0; for (int c = 1; c < n; c <<= 1) for (int k = 0; k < c; k = k + 1) m++; return m; }", "O(n)"},
        {"c", "int f(int n) { int c = 0; for (int i = 0; i < n * n; i = i + 1) c ^= i; return c; }", "O(n^2)"},
        {"c", "int f(int n) { int c = 0; for (int i = 0; i < n * n; i--) c ^= i; return c; }", "O(n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* `w not in out` with `out += w` in the loop read O(n): a str was taken
 * as constant, as `c in "aeiou"` is. A name only ever assigned literals
 * stays O(1); one grown, joined or rebound is scanned. */
static void membership_in_a_growing_string_was_constant(void) {
    static const struct refined_case cases[] = {
        {NULL, "def f(words):\n    out = \"\"\n    for w in words:\n        if w not in out:\n            out += w + \" \"\n    return out\n", "O(n^2)"},
        {NULL, "def f(s):\n    seen = ''\n    for ch in s:\n        if ch in seen:\n            return ch\n        seen = seen + ch\n", "O(n^2)"},
        {NULL, "def f(words):\n    text = \" \".join(words)\n    return [w for w in words if w in text]\n", "O(n^2)"},
        /* controls: a literal, a name only assigned literals */
        {NULL, "def f(s):\n    vowels = \"aeiou\"\n    return sum(1 for c in s if c in vowels)\n", "O(n)"},
        {NULL, "def f(s):\n    return [c for c in s if c in \"aeiou\"]\n", "O(n)"},
        {NULL, "def f(s, k):\n    digits = '0123'\n    if k:\n        digits = '01'\n    return [c for c in s if c in digits]\n", "O(n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* A single recursion returning its sub-result twice over (subsets,
 * bit strings, Gray codes) read O(n^2): the result doubles per level. */
static void single_recursion_doubling_its_result_was_quadratic(void) {
    static const struct refined_case cases[] = {
        {NULL, "def f(a):\n    if not a:\n        return [[]]\n    rest = f(a[1:])\n    return rest + [[a[0]] + r for r in rest]\n", "O(n * 2^n)"},
        {NULL, "def f(n):\n    if n == 0:\n        return ['']\n    p = f(n - 1)\n    return ['0' + c for c in p] + ['1' + c for c in reversed(p)]\n", "O(n * 2^n)"},
        {"javascript", "function f(a) {\n  if (a.length === 0) return [[]];\n  const rest = f(a.slice(1));\n  return rest.concat(rest.map(r => [a[0], ...r]));\n}", "O(n * 2^n)"},
        {"typescript", "function f(xs: number[]): number[][] {\n  if (xs.length === 0) return [[]];\n  const [h, ...t] = xs;\n  const w = f(t);\n  return [...w, ...w.map(s => [h, ...s])];\n}", "O(n * 2^n)"},
        {NULL, "def f(a):\n    if not a:\n        return [[]]\n    rest = f(a[1:])\n    out = []\n    for r in rest:\n        out.append(r)\n        out.append([a[0]] + r)\n    return out\n", "O(n * 2^n)"},
        {NULL, "def f(a):\n    if not a:\n        return [[]]\n    rest = f(a[1:])\n    out = list(rest)\n    for r in rest:\n        out.append(r + [a[0]])\n    return out\n", "O(n * 2^n)"},
        /* numbers, not built lists: O(2^n); read as items built from old ones, an upper bound */
        {NULL, "def gray(n):\n    if n == 0:\n        return [0]\n    p = gray(n - 1)\n    return p + [x | (1 << (n - 1)) for x in p[::-1]]\n", "O(n * 2^n)"},
        /* one copy of the result beside a literal per call: a chain of O(n) copies (read O(n)) */
        {NULL, "def f(n):\n    if n == 0:\n        return [0]\n    r = f(n - 1)\n    return r + [r[-1] + 1]\n", "O(n^2)"},
        /* controls: two numbers added, one copy of the result, a partition of it */
        {NULL, "def p2(n):\n    if n == 0:\n        return 1\n    h = p2(n - 1)\n    return h + h\n", "O(n)"},
        {NULL, "def f(a):\n    if not a:\n        return []\n    rest = f(a[1:])\n    return [a[0] + 1] + [x for x in rest]\n", "O(n^2)"},
        {NULL, "def f(a):\n    if not a:\n        return []\n    rest = f(a[1:])\n    return [x for x in rest if x > 0] + [x for x in rest if x <= 0]\n", "O(n^2)"},
        {NULL, "def f(a):\n    if not a:\n        return []\n    rest = f(a[1:])\n    out = []\n    for r in rest:\n        out.append(r)\n    return out\n", "O(n^2)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* a.map(f).sort(g) read O(n^2 log n): the comparator's scope covered the
 * receiver a.map(f), as if the map ran once per comparison. */
static void callback_scope_covered_its_receiver(void) {
    static const struct refined_case cases[] = {
        {"javascript", "function f(a) {\n  return a.map(x => x * 2).sort((x, y) => x - y);\n}", "O(n log n)"},
        {"javascript", "function f(p) {\n  return p.filter(x => x.a > 1).map(x => x.n).sort((a, b) => a.localeCompare(b));\n}", "O(n log n)"},
        /* controls: linear work inside the comparator or the key */
        {"javascript", "function f(a) {\n  return a.slice().sort((x, y) => a.indexOf(x) - a.indexOf(y));\n}", "O(n^2 log n)"},
        {NULL, "def f(a):\n    return sorted(a, key=lambda x: a.count(x))\n", "O(n^2 log n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* Callbacks of Rust (closures), Kotlin (trailing lambdas) and C#'s LINQ
 * Select were not loops: a.iter().filter(|x| b.contains(x)) read O(n). */
static void rust_kotlin_csharp_callbacks_were_free(void) {
    static const struct refined_case cases[] = {
        {"rust", "fn f(a: &Vec<i32>, b: &Vec<i32>) -> Vec<i32> {\n    a.iter().filter(|x| b.contains(x)).cloned().collect()\n}", "O(n^2)"},
        {"kotlin", "fun f(a: List<Int>): List<Int> {\n    return a.map { x -> a.count { it == x } }\n}", "O(n^2)"},
        {"kotlin", "fun f(a: List<String>): List<String> {\n    return a.sortedBy { w -> a.count { it == w } }\n}", "O(n^2 log n)"},
        {"csharp", "using System.Linq;\nclass P {\n    static int[] F(int[] a) {\n        return a.Select(x => System.Array.IndexOf(a, x)).ToArray();\n    }\n}", "O(n^2)"},
        /* Kotlin's and C#'s sorts were not sorts (a.sortedBy { it } read O(1)); the scope of
         * Kotlin's callback is its arguments too, not the map before it */
        {"kotlin", "fun f(a: List<Int>): List<Int> {\n    return a.sortedBy { it }\n}", "O(n log n)"},
        {"kotlin", "fun f(a: List<Int>): List<Int> {\n    return a.map { it * 2 }.sortedBy { it }\n}", "O(n log n)"},
        {"csharp", "using System.Collections.Generic;\nclass S {\n    static void F(List<int> a) {\n        a.Sort();\n    }\n}", "O(n log n)"},
        {"kotlin", "fun s(a: List<Int>): List<List<Int>> {\n    if (a.isEmpty()) return listOf(emptyList())\n    val rest = s(a.drop(1))\n    return rest + rest.map { listOf(a[0]) + it }\n}", "O(n * 2^n)"},
        /* controls: constant callbacks */
        {"rust", "fn f(a: &Vec<i32>) -> Vec<i32> {\n    a.iter().map(|x| x * 2).collect()\n}", "O(n)"},
        {"kotlin", "fun f(a: List<Int>): List<Int> {\n    return a.map { it * 2 }\n}", "O(n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* A memo outside python (a JS default parameter, a Java map, a C array, a
 * Go map) was not seen: fib read O(2^n). A memo over two moving arguments
 * (LCS, knapsack) read O(n): its states are O(n^2). */
static void memo_outside_python_and_of_two_arguments(void) {
    static const struct refined_case cases[] = {
        {"javascript", "function fib(n, memo = {}) {\n  if (n <= 1) return n;\n  if (memo[n] !== undefined) return memo[n];\n  memo[n] = fib(n - 1, memo) + fib(n - 2, memo);\n  return memo[n];\n}", "O(n)"},
        {"java", "import java.util.*;\nclass F {\n    static Map<Integer, Long> m = new HashMap<>();\n    static long fib(int n) {\n        if (n < 2) return n;\n        if (m.containsKey(n)) return m.get(n);\n        long v = fib(n - 1) + fib(n - 2);\n        m.put(n, v);\n        return v;\n    }\n}", "O(n)"},
        {"c", "long memo[100];\nlong fib(int n) {\n    if (n < 2) return n;\n    if (memo[n] != -1) return memo[n];\n    memo[n] = fib(n - 1) + fib(n - 2);\n    return memo[n];\n}", "O(n)"},
        {"go", "package main\n\nvar memo = map[int]int{}\n\nfunc fib(n int) int {\n\tif n < 2 {\n\t\treturn n\n\t}\n\tif v, ok := memo[n]; ok {\n\t\treturn v\n\t}\n\tv := fib(n-1) + fib(n-2)\n\tmemo[n] = v\n\treturn v\n}", "O(n)"},
        {"cpp", "#include <unordered_map>\nstd::unordered_map<int, long long> memo;\nlong long w(int n) {\n    if (n <= 1) return 1;\n    auto it = memo.find(n);\n    if (it != memo.end()) return it->second;\n    long long v = w(n - 1) + w(n - 2);\n    memo[n] = v;\n    return v;\n}", "O(n)"},
        {NULL, "from functools import lru_cache\ndef lcs(a, b):\n    @lru_cache(None)\n    def go(i, j):\n        if i == len(a) or j == len(b):\n            return 0\n        if a[i] == b[j]:\n            return 1 + go(i + 1, j + 1)\n        return max(go(i + 1, j), go(i, j + 1))\n    return go(0, 0)\n", "O(n^2)"},
        {NULL, "from functools import lru_cache\ndef k(ws, vs, cap):\n    @lru_cache(None)\n    def b(i, c):\n        if i == len(ws):\n            return 0\n        s = b(i + 1, c)\n        if ws[i] <= c:\n            return max(s, vs[i] + b(i + 1, c - ws[i]))\n        return s\n    return b(0, cap)\n", "O(n^2)"},
        {"java", "class L {\n    static int[][] m;\n    static int f(String a, String b, int i, int j) {\n        if (i == a.length() || j == b.length()) return 0;\n        if (m[i][j] != -1) return m[i][j];\n        int r = a.charAt(i) == b.charAt(j) ? 1 + f(a, b, i + 1, j + 1) : Math.max(f(a, b, i + 1, j), f(a, b, i, j + 1));\n        m[i][j] = r;\n        return r;\n    }\n}", "O(n^2)"},
        /* controls: a grid's row and column are one input (its cells); a
         * table stored but never looked up is no memo */
        {NULL, "def paths(g):\n    memo = {}\n    def go(r, c):\n        if r == len(g) - 1 and c == len(g[0]) - 1:\n            return 1\n        if (r, c) in memo:\n            return memo[(r, c)]\n        t = 0\n        if r + 1 < len(g):\n            t += go(r + 1, c)\n        if c + 1 < len(g[0]):\n            t += go(r, c + 1)\n        memo[(r, c)] = t\n        return t\n    return go(0, 0)\n", "O(n)"},
        {"javascript", "function fib(n, memo = {}) {\n  if (n <= 1) return n;\n  memo[n] = fib(n - 1, memo) + fib(n - 2, memo);\n  return memo[n];\n}", "O(2^n)"},
        {"go", "package main\n\nfunc d(a, b string) int {\n\tmemo := map[[2]int]int{}\n\tvar g func(i, j int) int\n\tg = func(i, j int) int {\n\t\tif i == len(a) || j == len(b) {\n\t\t\treturn 0\n\t\t}\n\t\tif v, ok := memo[[2]int{i, j}]; ok {\n\t\t\treturn v\n\t\t}\n\t\tr := 1 + min(g(i+1, j), g(i, j+1))\n\t\tmemo[[2]int{i, j}] = r\n\t\treturn r\n\t}\n\treturn g(0, 0)\n}", "O(n^2)"},
        /* a bitmask state has 2^n values: it read O(n) on main, memoised or not it is no O(n^d) */
        {NULL, "from functools import lru_cache\ndef f(w):\n    n = len(w)\n    @lru_cache(None)\n    def go(mask, i):\n        if i == n:\n            return 0\n        return max(go(mask | (1 << i), i + 1), go(mask, i + 1))\n    return go(0, 0)\n", "O(2^n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* Shifting every item was free: C#'s Insert(0, x) and RemoveAt(0), Java's
 * add(0, x), Go's append([]T{x}, res...) (a copy of res); Kotlin's
 * `0 until 10` inside a loop was a factor of n. */
static void front_inserts_go_prepend_and_kotlin_constant_range(void) {
    static const struct refined_case cases[] = {
        {"csharp", "using System.Collections.Generic;\nclass R {\n    static List<int> F(List<int> a) {\n        var o = new List<int>();\n        foreach (var x in a) o.Insert(0, x);\n        return o;\n    }\n}", "O(n^2)"},
        {"csharp", "using System.Collections.Generic;\nclass Q {\n    static int F(List<int> q) {\n        int s = 0;\n        while (q.Count > 0) { s += q[0]; q.RemoveAt(0); }\n        return s;\n    }\n}", "O(n^2)"},
        {"java", "import java.util.*;\nclass R {\n    static List<Integer> f(List<Integer> a) {\n        List<Integer> o = new ArrayList<>();\n        for (int x : a) o.add(0, x);\n        return o;\n    }\n}", "O(n^2)"},
        {"go", "package main\n\nfunc f(a []int) []int {\n\tres := []int{}\n\tfor _, x := range a {\n\t\tres = append([]int{x}, res...)\n\t}\n\treturn res\n}", "O(n^2)"},
        {"kotlin", "fun f(a: IntArray): Int {\n    var s = 0\n    for (x in a) {\n        for (d in 0 until 10) s += x * d\n    }\n    return s\n}", "O(n)"},
        {"kotlin", "fun f(a: IntArray): Int {\n    var s = 0\n    for (x in a) {\n        for (d in 9 downTo 0) s += x * d\n    }\n    return s\n}", "O(n)"},
        {"java", "class B {\n    static String f(String s) {\n        StringBuilder sb = new StringBuilder();\n        for (char c : s.toCharArray()) sb.insert(0, c);\n        return sb.toString();\n    }\n}", "O(n^2)"},
        {"rust", "fn f(a: &[i32]) -> Vec<i32> {\n    let mut v = Vec::new();\n    for x in a {\n        v.insert(0, *x);\n    }\n    v\n}", "O(n^2)"},
        /* controls: an append at the end, a deque's addFirst, a range to n, a map's key 0 */
        {"rust", "use std::collections::HashMap;\nfn f(a: &[i32]) -> usize {\n    let mut m: HashMap<i32, i32> = HashMap::new();\n    for x in a {\n        m.insert(0, *x);\n    }\n    m.len()\n}", "O(n)"},
        {"go", "package main\n\nfunc f(a []int) []int {\n\tres := []int{}\n\tfor _, x := range a {\n\t\tres = append(res, x)\n\t}\n\treturn res\n}", "O(n)"},
        {"java", "import java.util.*;\nclass R {\n    static Deque<Integer> f(int[] a) {\n        ArrayDeque<Integer> d = new ArrayDeque<>();\n        for (int x : a) d.addFirst(x);\n        return d;\n    }\n}", "O(n)"},
        {"kotlin", "fun f(a: IntArray): Int {\n    var s = 0\n    for (x in a) {\n        for (d in 0 until a.size) s += x * d\n    }\n    return s\n}", "O(n^2)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* Scans outside the method lists were free in a loop: Go's
 * strings.Contains / strings.Index, Rust's iterator consumers
 * (b.iter().position(..)) and clones, python's heapq.heapify and
 * `del a[0]`. */
static void go_strings_rust_iterators_and_heapify_were_free(void) {
    static const struct refined_case cases[] = {
        {"go", "package main\n\nimport \"strings\"\n\nfunc f(ws []string, t string) int {\n\tc := 0\n\tfor _, w := range ws {\n\t\tif strings.Contains(t, w) {\n\t\t\tc++\n\t\t}\n\t}\n\treturn c\n}", "O(n^2)"},
        {"rust", "fn f(a: &[i32], b: &[i32]) -> usize {\n    let mut s = 0;\n    for x in a {\n        if let Some(p) = b.iter().position(|y| y == x) { s += p; }\n    }\n    s\n}", "O(n^2)"},
        {"rust", "fn f(a: &Vec<i32>) -> usize {\n    let mut t = 0;\n    for _ in 0..a.len() {\n        let b = a.clone();\n        t += b.len();\n    }\n    t\n}", "O(n^2)"},
        {NULL, "import heapq\ndef f(a):\n    out = []\n    while a:\n        heapq.heapify(a)\n        out.append(heapq.heappop(a))\n    return out\n", "O(n^2)"},
        {NULL, "def f(a):\n    t = 0\n    while a:\n        t += a[0]\n        del a[0]\n    return t\n", "O(n^2)"},
        {NULL, "def f(a):\n    while a:\n        del a[0:2]\n    return a\n", "O(n^2)"},
        {NULL, "def f(a):\n    d = {}\n    for x in a:\n        d[0] = x\n        del d[0]\n    return d\n", "O(n)"},
        {NULL, "def f(a):\n    while a:\n        del a[-1]\n    return a\n", "O(n)"},
        /* controls: a prefix test, the larger of two numbers, a reference count */
        {"go", "package main\n\nimport \"strings\"\n\nfunc f(ws []string) int {\n\tc := 0\n\tfor _, w := range ws {\n\t\tif strings.HasPrefix(w, \"a\") {\n\t\t\tc++\n\t\t}\n\t}\n\treturn c\n}", "O(n)"},
        {"rust", "fn f(a: &[i64]) -> i64 {\n    let mut best = 0;\n    for x in a {\n        best = best.max(*x);\n    }\n    best\n}", "O(n)"},
        {"rust", "use std::rc::Rc;\nfn f(a: &[Rc<i32>]) -> usize {\n    let mut v = Vec::new();\n    for x in a {\n        v.push(Rc::clone(x));\n    }\n    v.len()\n}", "O(n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* C++'s find and count on a set or map were scans in a loop (O(n^2)): an
 * unordered one looks a key up in O(1), an ordered one in O(log n). */
static void cpp_set_and_map_lookups_were_scans(void) {
    static const struct refined_case cases[] = {
        {"cpp", "#include <set>\n#include <vector>\nint f(const std::vector<int>& a) {\n    std::set<int> s(a.begin(), a.end());\n    int c = 0;\n    for (int x : a) if (s.find(x + 1) != s.end()) c++;\n    return c;\n}", "O(n log n)"},
        {"cpp", "#include <unordered_set>\n#include <vector>\nint f(const std::vector<int>& a) {\n    std::unordered_set<int> s(a.begin(), a.end());\n    int c = 0;\n    for (int x : a) c += s.count(x + 1);\n    return c;\n}", "O(n)"},
        /* control: a string's find scans it */
        {"cpp", "#include <string>\n#include <vector>\nint f(const std::string& t, const std::vector<std::string>& ws) {\n    int c = 0;\n    for (const auto& w : ws) if (t.find(w) != std::string::npos) c++;\n    return c;\n}", "O(n^2)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* A loop to n * n, len(a) * len(a) or n ** 3 was one factor of n. */
static void square_bound_was_linear(void) {
    static const struct refined_case cases[] = {
        {"python3", "def f(n):\n    out = []\n    for t in range(n * n):\n        out.append(t)\n    return out\n", "O(n^2)"},
        {"python3", "def f(a):\n    return sum(1 for t in range(len(a) ** 3) if t % 2)\n", "O(n^3)"},
        {"java", "class Q { static int f(int n) { int c = 0; for (int i = 0; i <= n * n + 1; i++) c ^= i; return c; } }", "O(n^2)"},
        {"rust", "fn f(n: usize) -> usize { let mut c = 0; for t in 0..n * n { c += t; } c }", "O(n^2)"},
        {"kotlin", "fun f(n: Int): Int {\n    var c = 0\n    for (i in 0 until n * n) c += i % 2\n    return c\n}", "O(n^2)"},
        /* a factor that is the counter of a loop over n around it */
        {"python3", "def f(n):\n    c = 0\n    for i in range(n):\n        for j in range(n * i):\n            c += 1\n    return c\n", "O(n^3)"},
        {"c", "int f(int n) { int c = 0; for (int i = 0; i < n; i++) for (int j = 0; j < i * n; j++) c++; return c; }", "O(n^3)"},
        /* controls: different factors, a step of n */
        {"python3", "def f(rows, cols):\n    c = 0\n    for k in range(rows * cols):\n        c += k\n    return c\n", "O(n)"},
        {"go", "package main\nfunc f(n int) int {\n\tc := 0\n\tfor i := 0; i < n*n; i += n {\n\t\tc++\n\t}\n\treturn c\n}", "O(n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* [[0] * n for _ in range(n)] was O(n): the repetition builds n items. */
static void sequence_repetition_was_free(void) {
    static const struct refined_case cases[] = {
        {"python3", "def f(n):\n    return [[0] * n for _ in range(n)]\n", "O(n^2)"},
        {"python3", "def f(n):\n    for i in range(n):\n        row = [1] * (i + 1)\n    return row\n", "O(n^2)"},
        {"python3", "def f(n):\n    for i in range(n):\n        print('-' * 40)\n", "O(n)"}, /* a literal count */
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* C#'s LINQ in a loop (a.Count(pred), Sum, ToList) was free, and so were
 * JavaScript's fill and Array.from: a grid built by
 * Array.from({length: n}, () => new Array(n).fill(0)) read O(1). */
static void linq_fill_and_array_from_were_free(void) {
    static const struct refined_case cases[] = {
        {"csharp", "using System.Linq;\nclass Q { static int F(int[] a) { int c = 0; foreach (var x in a) c += a.Count(y => y == x); return c; } }", "O(n^2)"},
        {"csharp", "using System.Collections.Generic;\nclass Q { static int F(List<int> a) { var s = new List<int>(); foreach (var x in a) if (!s.Contains(x)) s.Add(x); return s.Count; } }", "O(n^2)"},
        {"javascript", "function f(n) { return Array.from({length: n}, () => new Array(n).fill(0)); }", "O(n^2)"},
        {"javascript", "function f(a) { return Array.from(a, x => x * 2); }", "O(n)"},
        /* controls: Count() reads a collection's size; a HashSet's Contains is O(1) */
        {"csharp", "using System.Linq;\nusing System.Collections.Generic;\nclass Q { static int F(List<int> a) { int c = 0; foreach (var x in a) c += a.Count(); return c; } }", "O(n)"},
        {"csharp", "using System.Collections.Generic;\nclass Q { static int F(List<int> a) { var s = new HashSet<int>(a); int c = 0; foreach (var x in a) if (s.Contains(x)) c++; return c; } }", "O(n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

/* `w in text` with text of a type the source does not show was O(1). */
static void membership_of_unknown_type_was_constant(void) {
    json_t *r = analyze("python3", "def count_hits(words, text):\n    c = 0\n    for w in words:\n        if w in text:\n            c += 1\n    return c\n");
    CHECK_STREQ(refined(r), "O(n^2)");
    CHECK(has_rule(r, "linear_membership"));
    json_decref(r);
    r = analyze("python3", "def f(words):\n    seen = set(words)\n    c = 0\n    for w in words:\n        if w in seen:\n            c += 1\n    return c\n");
    CHECK_STREQ(refined(r), "O(n)");
    json_decref(r);
    r = analyze("python3", "def f(s):\n    c = 0\n    for ch in s:\n        if ch in 'aeiou':\n            c += 1\n    return c\n");
    CHECK_STREQ(refined(r), "O(n)");
    json_decref(r);
    r = analyze("java", "import java.util.*;\nclass H { int hits(List<String> ws, String text) { int c = 0; for (String w : ws) if (text.contains(w)) c++; return c; } }");
    CHECK_STREQ(refined(r), "O(n^2)");
    json_decref(r);
    r = analyze("java", "import java.util.*;\nclass H { int hits(List<String> ws, Set<String> seen) { int c = 0; for (String w : ws) if (seen.contains(w)) c++; return c; } }");
    CHECK_STREQ(refined(r), "O(n)");
    json_decref(r);
}

/* Immutable strings copied by += in a loop; C++ erase at begin() shifts;
 * a hash map's insert is not a list's. */
static void string_append_and_container_calls(void) {
    json_t *r = analyze("java", "class S { String f(String[] a) { String s = \"\"; for (String x : a) s = s + x; return s; } }");
    CHECK_STREQ(refined(r), "O(n^2)");
    CHECK(has_rule(r, "copying_concatenation"));
    json_decref(r);
    r = analyze("go", "func f(a []string) string {\n\ts := \"\"\n\tfor _, x := range a {\n\t\ts += x\n\t}\n\treturn s\n}");
    CHECK_STREQ(refined(r), "O(n^2)");
    json_decref(r);
    r = analyze("java", "class S { String f(String[] a) { StringBuilder sb = new StringBuilder(); for (String x : a) sb.append(x); return sb.toString(); } }");
    CHECK_STREQ(refined(r), "O(n)");
    json_decref(r);
    r = analyze("cpp", "#include <vector>\nvoid drain(std::vector<int>& v) { while (!v.empty()) v.erase(v.begin()); }");
    CHECK_STREQ(refined(r), "O(n^2)");
    json_decref(r);
    r = analyze("rust", "use std::collections::HashMap;\nfn two_sum(a: &[i32], t: i32) -> Option<(usize, usize)> {\n    let mut m = HashMap::new();\n    for (i, &x) in a.iter().enumerate() {\n        if let Some(&j) = m.get(&(t - x)) { return Some((j, i)); }\n        m.insert(x, i);\n    }\n    None\n}");
    CHECK_STREQ(refined(r), "O(n)");
    json_decref(r);
}


/* Euclid through a temporary (Rust, C) or std::swap (C++) was linear. */
static void euclid_through_a_temporary_was_linear(void) {
    json_t *r = analyze("rust", "fn gcd(mut a: u64, mut b: u64) -> u64 {\n    while b != 0 {\n        let t = a % b;\n        a = b;\n        b = t;\n    }\n    a\n}");
    CHECK_STREQ(refined(r), "O(log n)");
    CHECK(has_rule(r, "remainder_loop"));
    json_decref(r);
    r = analyze("cpp", "long long g(long long a, long long b) { while (b) { a %= b; std::swap(a, b); } return a; }");
    CHECK_STREQ(refined(r), "O(log n)");
    json_decref(r);
    r = analyze("rust", "fn gcd(mut a: u64, mut b: u64) -> u64 {\n    while b > 0 {\n        a %= b;\n        std::mem::swap(&mut a, &mut b);\n    }\n    a\n}");
    CHECK_STREQ(refined(r), "O(log n)");
    json_decref(r);
    /* a temporary that is not a remainder: linear */
    r = analyze("rust", "fn f(mut a: u64, mut b: u64) -> u64 {\n    while b != 0 {\n        let t = b - 1;\n        a = a + t;\n        b = t;\n    }\n    a\n}");
    CHECK_STREQ(refined(r), "O(n)");
    json_decref(r);
}

/* JavaScript subsets by res.concat(res.map(...)) were O(n^3); repeat(i)
 * in a loop was O(1) per call. */
static void doubling_through_a_callback_and_repeat(void) {
    json_t *r = analyze("javascript", "function subsets(a) {\n  let res = [[]];\n  for (const x of a) {\n    const more = res.map(s => [...s, x]);\n    res = res.concat(more);\n  }\n  return res;\n}");
    CHECK_STREQ(refined(r), "O(n * 2^n)");
    CHECK(has_rule(r, "growing_collection"));
    json_decref(r);
    r = analyze("javascript", "function f(a) { let t = 0; for (const x of a) { const d = a.map(v => v * 2); t += d[0]; } return t; }");
    CHECK_STREQ(refined(r), "O(n^2)"); /* map's result not added back: no doubling */
    json_decref(r);
    r = analyze("javascript", "function tri(n) { let out = []; for (let i = 0; i < n; i++) out.push('*'.repeat(i)); return out.join('\\n'); }");
    CHECK_STREQ(refined(r), "O(n^2)");
    json_decref(r);
}


/* Batch H (written after the first fixes) found three more shapes: a copy
 * built into a name before it is added (Java), a chain s = s + x + ","
 * (Go), and Go's t := a % b. */
static void doubling_and_concat_shapes_of_batch_h(void) {
    json_t *r = analyze("java", "import java.util.*;\nclass P { List<List<Integer>> subsets(int[] a) {\n  List<List<Integer>> res = new ArrayList<>(); res.add(new ArrayList<>());\n  for (int x : a) { int k = res.size(); for (int i = 0; i < k; i++) { List<Integer> s = new ArrayList<>(res.get(i)); s.add(x); res.add(s); } }\n  return res; } }");
    CHECK_STREQ(refined(r), "O(n * 2^n)");
    json_decref(r);
    r = analyze("go", "func join(a []string) string {\n\tout := \"\"\n\tfor _, s := range a {\n\t\tout = out + s + \",\"\n\t}\n\treturn out\n}");
    CHECK_STREQ(refined(r), "O(n^2)");
    json_decref(r);
    r = analyze("go", "func sum(a []int) int {\n\tt := 0\n\tfor _, x := range a {\n\t\tt = t + x + 1\n\t}\n\treturn t\n}");
    CHECK_STREQ(refined(r), "O(n)"); /* an int, not a string */
    json_decref(r);
    r = analyze("go", "func gcd(a, b int) int {\n\tfor b != 0 {\n\t\tt := a % b\n\t\ta = b\n\t\tb = t\n\t}\n\treturn a\n}");
    CHECK_STREQ(refined(r), "O(log n)");
    json_decref(r);
}


/* Batch J: library calls that walk their input, read as O(1) in a loop. */
static void hidden_linear_library_calls(void) {
    static const struct refined_case cases[] = {
        {"java", "class S { int f(String s) { int c = 0; for (int i = 0; i < s.length(); i++) if (s.substring(i).startsWith(\"ab\")) c++; return c; } }", "O(n^2)"},
        {"rust", "fn f(s: &str) -> usize {\n    let mut c = 0;\n    for i in 0..s.len() {\n        if s.chars().nth(i) == Some('a') { c += 1; }\n    }\n    c\n}", "O(n^2)"},
        {NULL, "def strip_all(s, chars):\n    for ch in chars:\n        s = s.replace(ch, '')\n    return s\n", "O(n^2)"},
        {"javascript", "function f(o, ks) { let c = 0; for (const k of ks) c += Object.keys(o).length; return c; }", "O(n^2)"},
        {"go", "func f(a []int) [][]int {\n\tvar out [][]int\n\tfor i := range a {\n\t\tb := make([]int, len(a))\n\t\tcopy(b, a)\n\t\tb[i] = 0\n\t\tout = append(out, b)\n\t}\n\treturn out\n}", "O(n^2)"},
        {"kotlin", "fun f(a: List<Int>, b: List<Int>): Int {\n    var c = 0\n    for (x in a) if (b.contains(x)) c++\n    return c\n}", "O(n^2)"},
        {NULL, "def f(d, ks):\n    c = 0\n    for k in ks:\n        if k in d.keys():\n            c += 1\n    return c\n", "O(n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}


/* Kernighan's bit count (n &= n - 1) was linear: one iteration per set bit. */
static void bit_clearing_loop_was_linear(void) {
    static const struct refined_case cases[] = {
        {NULL, "def popcount(n):\n    c = 0\n    while n:\n        n &= n - 1\n        c += 1\n    return c\n", "O(log n)"},
        {"c", "int pc(unsigned x){int c=0; while (x) { x = x & (x - 1); c++; } return c;}", "O(log n)"},
        /* also stepped by addition: no claim */
        {NULL, "def f(n):\n    c = 0\n    while n:\n        n &= n - 1\n        n += 1\n    return c\n", "O(n)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}


/* KMP's failure-link loop was read as a factor n (O(n^2)): k only falls
 * through its table and rises by at most one per outer iteration. */
static void failure_link_was_quadratic(void) {
    static const struct refined_case cases[] = {
        {NULL, "def prefix_function(s):\n    pi = [0] * len(s)\n    k = 0\n    for i in range(1, len(s)):\n        while k > 0 and s[i] != s[k]:\n            k = pi[k - 1]\n        if s[i] == s[k]:\n            k += 1\n        pi[i] = k\n    return pi\n", "O(n)"},
        {"javascript", "function prefix(s) {\n  const pi = new Array(s.length).fill(0);\n  for (let i = 1; i < s.length; i++) {\n    let k = pi[i - 1];\n    while (k > 0 && s[i] !== s[k]) k = pi[k - 1];\n    if (s[i] === s[k]) k++;\n    pi[i] = k;\n  }\n  return pi;\n}", "O(n)"},
        {"c", "int search(const char *t, int n, const char *p, int m, int *pi) {\n    int k = 0, hits = 0;\n    for (int i = 0; i < n; i++) {\n        while (k > 0 && t[i] != p[k]) k = pi[k - 1];\n        if (t[i] == p[k]) k++;\n        if (k == m) { hits++; k = pi[k - 1]; }\n    }\n    return hits;\n}", "O(n)"},
        /* near misses: k raised twice, k set from elsewhere, more work in the while */
        {NULL, "def f(s, pi):\n    k = 0\n    for i in range(len(s)):\n        while k > 0 and s[i] != s[k]:\n            k = pi[k - 1]\n        k += 1\n        k += 1\n    return k\n", "O(n^2)"},
        {NULL, "def f(s, pi):\n    k = 0\n    for i in range(len(s)):\n        while k > 0 and s[i] != s[k]:\n            k = pi[k - 1]\n        k = i\n    return k\n", "O(n^2)"},
        {NULL, "def f(s, pi):\n    k = 0\n    for i in range(len(s)):\n        k = pi[i - 1]\n        while k > 0 and s[i] != s[k]:\n            k = pi[k - 1]\n        k += 1\n    return k\n", "O(n^2)"},
    };
    check_refined(cases, sizeof cases / sizeof *cases);
}

static void argument_checks(void) {
    json_t *args = json_pack("{s:i}", "code", 3);
    json_t *r = cc_tool_analyze_complexity(args, NULL);
    CHECK_STREQ(str(r, "code"), "validation");
    json_decref(r);
    json_decref(args);
}

int main(void) {
    RUN(spec_examples);
    RUN(decision_table_and_notes);
    RUN(tree_walk_details);
    RUN(deep_nesting_is_walked);
    RUN(regex_fallback_letter);
    RUN(refinement_rules);
    RUN(halving_through_a_named_midpoint);
    RUN(geometric_loop_is_log_n);
    RUN(literal_condition_needs_a_literal_start);
    RUN(memo_table_is_memoisation);
    RUN(memoised_calls_in_a_loop_were_counted_per_call);
    RUN(self_default_idiom_hid_the_memos_type);
    RUN(memo_parameter_read_as_unknown);
    RUN(quicksort_was_exponential);
    RUN(sqrt_bounded_loop_was_linear);
    RUN(log_time_calls_in_a_loop);
    RUN(copying_concatenation_in_a_loop);
    RUN(harmonic_inner_loop_was_quadratic);
    RUN(euclid_loop_was_linear);
    RUN(amortized_pointer_was_quadratic);
    RUN(loop_header_is_evaluated_once);
    RUN(sieve_was_n_sqrt_n);
    RUN(graph_traversal_was_quadratic);
    RUN(recursive_dfs_was_exponential);
    RUN(monotonic_stack_was_quadratic);
    RUN(slices_in_comprehensions_were_free);
    RUN(permutations_were_polynomial);
    RUN(local_calls_and_callbacks_were_free);
    RUN(go_func_literal_is_not_a_spec_function);
    RUN(rust_let_len_killed_the_worker);
    RUN(subsets_by_doubling_were_2_to_the_n);
    RUN(bitmask_loop_was_polynomial);
    RUN(membership_of_unknown_type_was_constant);
    RUN(geometric_sum_was_n_log_n);
    RUN(square_bound_was_linear);
    RUN(shared_step_and_reset_matchers);
    RUN(membership_in_a_growing_string_was_constant);
    RUN(single_recursion_doubling_its_result_was_quadratic);
    RUN(callback_scope_covered_its_receiver);
    RUN(rust_kotlin_csharp_callbacks_were_free);
    RUN(memo_outside_python_and_of_two_arguments);
    RUN(front_inserts_go_prepend_and_kotlin_constant_range);
    RUN(go_strings_rust_iterators_and_heapify_were_free);
    RUN(cpp_set_and_map_lookups_were_scans);
    RUN(sequence_repetition_was_free);
    RUN(linq_fill_and_array_from_were_free);
    RUN(string_append_and_container_calls);
    RUN(euclid_through_a_temporary_was_linear);
    RUN(doubling_through_a_callback_and_repeat);
    RUN(doubling_and_concat_shapes_of_batch_h);
    RUN(hidden_linear_library_calls);
    RUN(bit_clearing_loop_was_linear);
    RUN(failure_link_was_quadratic);
    RUN(argument_checks);
    return check_summary("analysis_complexity");
}
