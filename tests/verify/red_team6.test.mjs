// Sixth red-team round of the verification tools (lane redverify6): each
// test is named after the wrong or overclaiming verdict it locks out,
// through the MCP SDK client. The corpus behind them is
// tests/verify/corpus/redverify6.py; the rules are in docs/contract.md,
// "Verification red team 6".
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startVerifyServer, skipUnlessLangs, SKIP_NO_BINARY } from './util.mjs';

const C_HEAD = '#include <stdio.h>\n#include <stdlib.h>\n';
const WORDS = 'b 10 a 2 b dd cc 33 a ee ff 4 gg hh';
const PY_COUNTER = 'import sys\nfrom collections import Counter\nc = Counter(sys.stdin.read().split())\nfor k, v in c.items():\n    print(k, v)';
const NODE_COUNTER = 'const c = {};\nfor (const w of require("fs").readFileSync(0, "utf8").split(/\\s+/).filter(Boolean))\n'
  + '  c[w] = (c[w] || 0) + 1;\nfor (const k in c) console.log(k, c[k]);';

describe('red team 6: verification verdicts', { skip: SKIP_NO_BINARY, timeout: 600000 }, () => {
  let s;
  before(async () => { s = await startVerifyServer(); });
  after(async () => { await s?.close(); });

  // c printed "neg", cpp "negative", then both aborted: the input is not
  // compared (incomplete), yet odds counted it as an agreeing input (30
  // runs per snippet and a 1-in-10 chance of 0.042 claimed on two inputs).
  test('odds_counted_all_died_as_agreeing: an input whose runs all died is counted apart, not repeated', async (t) => {
    if (await skipUnlessLangs(t, s, 'c', 'cpp')) return;
    const r = await s.tool('compare_edge_cases', { snippets: {
      c: C_HEAD + 'int main(void) { long n; if (scanf("%ld", &n) != 1) return 3;\n  if (n < 0) { printf("neg\\n"); abort(); }\n  printf("%ld\\n", 2 * n); return 0; }',
      cpp: '#include <cstdio>\n#include <cstdlib>\nint main() { long n; if (std::scanf("%ld", &n) != 1) return 3;\n  if (n < 0) { std::printf("negative\\n"); std::abort(); }\n  std::printf("%ld\\n", 2 * n); }' },
    inputs: ['-1', '2'], edge_inputs: false });
    assert.equal(r.incomplete_count, 1, JSON.stringify(r).slice(0, 2000));
    const k = r.odds.runs_per_input;
    assert.equal(r.odds.inputs_repeated, 1);
    assert.equal(r.odds.runs_per_snippet, k);
    assert.equal(r.odds.inputs_all_died.count, 1);
    assert.match(r.odds.inputs_all_died.note, /^inputs whose runs all died \(incomplete rows\) are no agreement/);
    assert.equal(r.odds.no_divergence_chance_if_wrong_1_in_10, Math.round(0.9 ** k * 1000) / 1000);
    // 2 snippets x 2 inputs, then the repeats of the input that agreed only
    assert.equal(r.execution.runs, 4 + 2 * (k - 1));
  });

  // Once the first runs diverged the answer is a divergence whatever the
  // repeats show: 44 runs per snippet there cost 106 runs for this call.
  test('ce_repeats_after_a_divergence: one repeat per agreeing input once some input diverged', async () => {
    const r = await s.tool('compare_edge_cases', { snippets: { python3: 'n = int(input())\nprint(n * 2)',
      node: 'const n = +require("fs").readFileSync(0, "utf8");\nconsole.log(n * 2)' }, inputs: ['1', '2'], edge_inputs: true });
    assert.deepEqual(r.divergences.map((d) => d.input).sort(), ['', '-0', '9007199254740993', '9223372036854775808'].sort());
    assert.equal(r.odds.runs_per_input, 2);
    assert.match(r.odds.note, /^the first runs already diverged/);
    assert.equal(r.odds.inputs_repeated, r.inputs.length - 4);
    assert.equal(r.execution.runs, 2 * r.inputs.length + 2 * r.odds.inputs_repeated);
  });

  // A port wrong at random only on large n: the given inputs are small,
  // and the added edges, where it misbehaves, ran once (main passed it
  // about 1 call in 4 at 3 runs in 10; here half its runs on n >= 10^6).
  test('vt_edges_ran_once: the added edges are repeated too, and odds says so', async () => {
    const r = await s.tool('verify_translation', { source_code: 'n = int(input())\nprint(n * 2)', source_language: 'python3',
      target_code: 'import random\nn = int(input())\nprint(n * 2 + (1 if n >= 10**6 and random.random() < 0.5 else 0))',
      target_language: 'python3', test_inputs: ['3', '7', '0'], edge_inputs: true });
    assert.equal(r.passed, false, JSON.stringify(r).slice(0, 2000));
    const ok = await s.tool('verify_translation', { source_code: 'n = int(input())\nprint(n * 2)', source_language: 'python3',
      target_code: 'n = int(input())\nprint(n + n)', target_language: 'python3', test_inputs: ['3', '7', '0'], edge_inputs: true });
    assert.equal(ok.passed, true, JSON.stringify(ok).slice(0, 2000));
    assert.equal(ok.odds.edges_repeated, true);
    assert.equal(ok.odds.matched_runs_per_program, ok.odds.runs_per_input * ok.matched);
    assert.match(ok.odds.note, /^each matched input \(the given ones and the added edges\)/);
    // 2 programs x every input, then the repeats of every match
    assert.equal(ok.execution.runs, 2 * ok.total + 2 * (ok.odds.runs_per_input - 1) * ok.matched);
  });

  // A candidate that is right up to some n and wrong past it cannot be
  // seen by sampling; the answer said "verified faster" with no word of
  // how far the check went.
  test('opt_wrong_only_past_largest_size: the answer says the largest n compared and how to go further', async () => {
    const r = await s.tool('verify_optimization', { original: 'n = int(input())\ns = 0\nfor i in range(n):\n    s += i\nprint(s)',
      candidate: 'n = int(input())\nprint(n * (n - 1) // 2 if n < 10**9 else 0)', language: 'python3',
      test_inputs: ['10', '100'], sizes: [200000, 400000] });
    assert.equal(r.ok, true, JSON.stringify(r).slice(0, 2000));
    const top = r.sizes[r.sizes.length - 1];
    assert.equal(r.equivalence.largest_n_compared, top);
    assert.equal(r.equivalence.beyond_largest_n, `no n above ${top} was run: a candidate that differs only past it (an `
      + 'overflow, a shortcut or table that holds up to some n) would pass. To check further, pass larger n in test_inputs '
      + '(each compared in a run of up to 30 s) or in sizes (timed, and their outputs compared; up to 10^12)');
    if (r.accepted) assert.match(r.grade_basis, new RegExp(`under python3 execution \\(sampled: no n above ${top} compared\\); `));
    // and a size past the threshold shows it
    const far = await s.tool('verify_optimization', { original: 'n = int(input())\nprint(n * (n - 1) // 2)',
      candidate: 'n = int(input())\nprint(n * (n - 1) // 2 if n < 10**9 else 0)', language: 'python3',
      test_inputs: ['10', '1000000000'], sizes: [2000] });
    assert.equal(far.accepted, false);
    assert.equal(far.reason, 'not equivalent');
  });

  // A python Counter printed in insertion order, a JavaScript object with
  // integer keys first: no short word list reached it, and the port passed.
  test('vt_dict_order_js_object: 14 words with numbers among them are an edge of strings', async () => {
    const r = await s.tool('verify_translation', { source_code: PY_COUNTER, source_language: 'python3',
      target_code: NODE_COUNTER, target_language: 'node', test_inputs: ['a b a', 'x y z x'], edge_inputs: true });
    assert.equal(r.passed, false, JSON.stringify(r).slice(0, 2000));
    const c = r.cases.find((x) => x.input === WORDS);
    assert.equal(c.outcome, 'mismatch');
    assert.equal(c.source.stdout.split('\n')[0], 'b 2');
    assert.equal(c.target.stdout.split('\n')[0], '2 1');
    assert.match(c.edge, /^string: 14 words with numbers among them/);
  });

  // sorted(key=len) is stable; go's sort.Slice is not past 12 elements.
  test('vt_sort_stability_go: a go port sorting with sort.Slice differs on 14 words with ties', async (t) => {
    if (await skipUnlessLangs(t, s, 'go')) return;
    const r = await s.tool('verify_translation', { source_code: "import sys\nw = sys.stdin.read().split()\nprint(' '.join(sorted(w, key=len)))",
      source_language: 'python3', target_language: 'go', test_inputs: ['bb a cc d', 'one two three'], edge_inputs: true,
      target_code: 'package main\nimport ("fmt"; "io"; "os"; "sort"; "strings")\n'
        + 'func main() { b, _ := io.ReadAll(os.Stdin); w := strings.Fields(string(b))\n'
        + '  sort.Slice(w, func(i, j int) bool { return len(w[i]) < len(w[j]) })\n  fmt.Println(strings.Join(w, " ")) }' });
    assert.equal(r.passed, false, JSON.stringify(r).slice(0, 2000));
    const c = r.cases.find((x) => x.input === WORDS);
    assert.equal(c.outcome, 'mismatch');
    assert.equal(c.source.stdout, 'b a 2 b a 4 10 dd cc 33 ee ff gg hh');
  });

  // The tool fed "3"; a shell or a file feeds "3\n", and str::parse
  // without a trim panics on it: the port passed every input.
  test('vt_parse_without_trim: an int and its line end is an edge', async (t) => {
    if (await skipUnlessLangs(t, s, 'rust')) return;
    const r = await s.tool('verify_translation', { source_code: 'print(int(input()) * 2)', source_language: 'python3',
      target_code: 'use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap();\n'
        + '  let n: i128 = s.parse().unwrap(); println!("{}", n * 2); }',
      target_language: 'rust', test_inputs: ['3', '10'], edge_inputs: true });
    assert.equal(r.passed, false, JSON.stringify(r).slice(0, 2000));
    const c = r.cases.find((x) => x.input === '42\n');
    assert.deepEqual([c.outcome, c.source.stdout, c.target.ok], ['mismatch', '84', false]);
    assert.match(c.edge, /^int: a number and its line end/);
  });
});
