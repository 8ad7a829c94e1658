// Fourth red-team round of the verification tools (lane redverify4): each
// test is named after the confident wrong verdict (or the cost) it locks
// out, through the MCP SDK client. The corpus behind them is
// tests/verify/corpus/redverify4.py; the rules are in docs/contract.md,
// "Verification red team 4". The repair cases are in tests/validate.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startVerifyServer, skipUnlessLangs, SKIP_NO_BINARY } from './util.mjs';

const LOOP_SUM = 'n = int(input())\ns = 0\nfor i in range(n):\n    s += i\nprint(s)';

describe('red team 4: verification verdicts', { skip: SKIP_NO_BINARY, timeout: 600000 }, () => {
  let s;
  before(async () => { s = await startVerifyServer(); });
  after(async () => { await s?.close(); });

  // python printed 'zero' and raised (exit 1), the go port printed 'nul'
  // and panicked (2): rule 7 read the two uncaught errors as not
  // comparable and the call passed cross_checked on the other input.
  test('uncaught errors of two languages after different output are a mismatch (rule 41)', async (t) => {
    if (await skipUnlessLangs(t, s, 'go')) return;
    const r = await s.tool('verify_translation', {
      source_code: "n = int(input())\nif n == 0:\n    print('zero')\n    raise ValueError(n)\nprint(n)", source_language: 'python3',
      target_code: 'package main\nimport "fmt"\nfunc main() { var n int; fmt.Scan(&n); if n == 0 { fmt.Println("nul"); panic("zero") }; fmt.Println(n) }',
      target_language: 'go', test_inputs: ['0', '5'], edge_inputs: false });
    assert.equal(r.passed, false, JSON.stringify(r).slice(0, 2000));
    assert.equal(r.cases[0].outcome, 'mismatch');
    assert.equal(r.cases[0].reason, "both programs died at run time (of their language's uncaught error or a signal: exit "
      + 'codes that are not compared), but what they printed before it differs, and neither output is the start of the other');
    assert.deepEqual([r.cases[0].source.exit_code, r.cases[0].target.exit_code], [1, 2]);
    assert.equal(r.cases[1].outcome, 'match');
  });

  // (n // 2) * (n - 1) is the sum of range(n) for even n and 1 only; the
  // seven defaults and the timing sizes are all even but 1, and it was
  // accepted "verified faster".
  test('verify_optimization_defaults_were_all_even: a candidate wrong on odd n is not equivalent', async () => {
    const r = await s.tool('verify_optimization', { original: LOOP_SUM, language: 'python3',
      candidate: 'n = int(input())\nprint((n // 2) * (n - 1) if n > 0 else 0)' });
    assert.equal(r.accepted, false, JSON.stringify(r).slice(0, 2000));
    assert.equal(r.reason, 'not equivalent');
    assert.equal(r.speedup, undefined);
    const v = r.verification;
    // the seven defaults, then the sizes up to 2000 but 0 and 1 (in the defaults): 20 since red team 5
    assert.equal(v.total, 27);
    assert.deepEqual(v.cases.slice(7).map((c) => c.input), ['2', '3', '4', '5', '7', '8', '9', '15', '16', '17', '31',
      '32', '33', '64', '97', '127', '128', '1001', '1024', '1291']);
    assert.deepEqual(v.edge_inputs.kinds, ['size']);
    const three = v.cases.find((c) => c.input === '3');
    assert.deepEqual([three.outcome, three.source.stdout, three.target.stdout], ['mismatch', '3', '2']);
    assert.equal(three.edge, 'size: 3 (odd: the defaults and timing sizes are even but 1)');
    assert.equal(v.cases.find((c) => c.input === '2').outcome, 'match');
  });

  // sorted() orders code points, a JavaScript sort UTF-16 units: the port
  // passed every default and edge input.
  test('a node port sorting by UTF-16 unit fails on the U+FF01 + astral edge', async () => {
    const r = await s.tool('verify_translation', {
      source_code: "import sys\nprint(''.join(sorted(sys.stdin.read().strip())))", source_language: 'python3',
      target_code: 'const s = require("fs").readFileSync(0, "utf8").trim();\nconsole.log([...s].sort().join(""))',
      target_language: 'node', test_inputs: ['cab'], edge_inputs: true });
    assert.equal(r.passed, false, JSON.stringify(r).slice(0, 2000));
    const c = r.cases.find((x) => x.input === '\uff01\u{1f600}');
    assert.deepEqual([c.outcome, c.source.stdout, c.target.stdout], ['mismatch', '\uff01\u{1f600}', '\u{1f600}\uff01']);
  });

  // Every java run was the source launcher, compiling the file again (1.9 s
  // of CPU each): a default call made 35 of them and came near its deadline.
  test('java_recompiled_on_every_run: a java port is compiled once per call, as the launcher compiles it', async (t) => {
    if (await skipUnlessLangs(t, s, 'java')) return;
    // a public class that does not match the file name, and a helper class
    // after it: the launcher accepts both, and so must the compile step
    const java = 'public class Doubler { public static void main(String[] a) throws Exception {\n'
      + '  System.out.println(Helper.twice(Long.parseLong(new String(System.in.readAllBytes()).trim()))); } }\n'
      + 'class Helper { static long twice(long n) { return 2 * n; } }\n';
    const r = await s.tool('verify_translation', { source_code: 'print(2 * int(input()))', source_language: 'python3',
      target_code: java, target_language: 'java', test_inputs: ['1', '2', '3', '-4'], edge_inputs: false });
    assert.equal(r.passed, true, JSON.stringify(r).slice(0, 2000));
    assert.equal(r.execution.compiles.target, 1);
    assert.equal(r.cases[3].target.stdout, '-8');
    // a compile error is the compile phase's (rule 2), not a run-time error
    const bad = await s.tool('verify_translation', { source_code: 'print(2 * int(input()))', source_language: 'python3',
      target_code: 'public class Main { public static void main(String[] a) { int x = "s"; } }', target_language: 'java',
      test_inputs: ['1'], edge_inputs: false });
    assert.equal(bad.passed, false);
    assert.equal(bad.cases[0].reason, 'the translation failed to compile');
    assert.equal(bad.cases[0].target.phase, 'compile');
    assert.match(bad.cases[0].target.stderr, /incompatible types/);
  });
});
