// Second red-team round of the verification tools (lane redverify2): each
// test is named after the confident wrong verdict it locks out, through the
// MCP SDK client. The corpus behind them is tests/verify/corpus/redverify2.py.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startVerifyServer, SKIP_NO_BINARY } from './util.mjs';

/** python3 that prints 2n before `deadline` (a Unix time in seconds) and
 *  2n + 1 after it: one program whose second run answers differently from
 *  its first, without luck. `delay` seconds of sleep first. */
const clockPy = (deadline, delay = 0) =>
  `import time\nn = int(input())\ntime.sleep(${delay})\nprint(n * 2 if time.time() < ${deadline} else n * 2 + 1)`;
/** python3 that sleeps `delay` seconds, then prints 2n. */
const steadyPy = (delay) => `import time\nn = int(input())\ntime.sleep(${delay})\nprint(n * 2)`;

describe('red team 2: verification verdicts', { skip: SKIP_NO_BINARY, timeout: 600000 }, () => {
  let s;
  before(async () => { s = await startVerifyServer(); });
  after(async () => { await s?.close(); });

  // The first runs of a pair finish before the deadline (the steady source
  // takes 6 s, the target answers at once); the second runs start after
  // the source's first, past the deadline.
  test('a translation whose second run answers differently is not cross_checked on one matching run', async () => {
    const deadline = Date.now() / 1000 + 3;
    const r = await s.tool('verify_translation', { source_code: steadyPy(6), source_language: 'python3',
      target_code: clockPy(deadline), target_language: 'python3', test_inputs: ['1', '2'] });
    assert.equal(r.passed, false, JSON.stringify(r));
    assert.equal(r.mismatched, 2);
    for (const c of r.cases) {
      assert.equal(c.outcome, 'mismatch');
      assert.match(c.reason, /^the translation printed different output on a second run of the same input while the source printed the same twice/);
      assert.equal(c.target.stdout, String(2 * Number(c.input)));
      assert.equal(c.repeat.target.stdout, String(2 * Number(c.input) + 1));
      assert.equal(c.repeat.source.stdout, String(2 * Number(c.input)));
    }
    assert.equal(r.grade, 'ungraded');
  });

  test('a source whose second run answers differently makes the match inconclusive, not evidence', async () => {
    const deadline = Date.now() / 1000 + 3;
    const r = await s.tool('verify_translation', { source_code: clockPy(deadline), source_language: 'python3',
      target_code: steadyPy(6), target_language: 'python3', test_inputs: ['4'] });
    assert.equal(r.passed, false, JSON.stringify(r));
    assert.equal(r.inconclusive, 1);
    assert.match(r.cases[0].reason, /^the source printed different output on a second run of the same input: it is not deterministic here/);
    assert.equal(r.cases[0].repeat.source.stdout, '9');
    assert.match(r.reason, /^could not verify/);
  });

  test('a deterministic port still passes, each match run twice (15 times where quick: red team 5)', async () => {
    const code = 'n = int(input())\nprint(n * 2)';
    const r = await s.tool('verify_translation', { source_code: code, source_language: 'python3',
      target_code: 'print(int(input()) * 2)', target_language: 'python3', test_inputs: ['3', '-7', '0'] });
    assert.equal(r.passed, true, JSON.stringify(r));
    assert.equal(r.matched, 3);
    assert.ok(r.odds.runs_per_input >= 2 && r.odds.runs_per_input <= 15, JSON.stringify(r.odds));
    assert.equal(r.execution.runs, 6 * r.odds.runs_per_input);
    assert.equal(r.cases[0].repeat, undefined);
    assert.equal(r.grade, 'cross_checked');
  });

  test('a port whose failure prints different output before the same exit code is not cross_checked', async () => {
    const prog = (word) => `n = int(input())\nprint('ok' if n else '${word}')\nif n == 0: raise SystemExit(1)`;
    const r = await s.tool('verify_translation', { source_code: prog('zero'), source_language: 'python3',
      target_code: prog('nul'), target_language: 'python3', test_inputs: ['0', '1', '2'] });
    assert.equal(r.passed, false, JSON.stringify(r));
    assert.equal(r.cases[0].outcome, 'mismatch');
    assert.equal(r.cases[0].reason, 'both programs failed at run time with the same exit code, but their stdout differs');
    assert.equal(r.matched, 2);
    assert.equal(r.grade, 'ungraded');
    const same = await s.tool('verify_translation', { source_code: prog('zero'), source_language: 'python3',
      target_code: prog('zero'), target_language: 'python3', test_inputs: ['0', '1'] });
    assert.equal(same.cases[0].outcome, 'inconclusive', JSON.stringify(same));
    assert.equal(same.passed, true);
  });

  test('a match that only the whitespace normalisation made is said so', async () => {
    const r = await s.tool('verify_translation', { source_code: 'n = int(input())\nprint("%5d" % n)',
      source_language: 'python3', target_code: 'print(int(input()))', target_language: 'python3',
      test_inputs: ['1', '12345'] });
    assert.equal(r.passed, true, JSON.stringify(r));
    assert.equal(r.cases[0].whitespace_differs, true);
    assert.equal(r.cases[1].whitespace_differs, undefined); /* 12345 fills the width: the same bytes */
    assert.match(r.whitespace_note, /^the cases marked whitespace_differs matched after the comparison's normalisation, but their raw stdout differs/);
    const plain = await s.tool('verify_translation', { source_code: 'print(int(input()))', source_language: 'python3',
      target_code: 'print(int(input()))', target_language: 'python3', test_inputs: ['1'] });
    assert.equal(plain.whitespace_note, undefined);
  });

  test('verify_optimization does not accept a candidate whose second run answers differently', async () => {
    const deadline = Date.now() / 1000 + 3;
    const orig = 'import time\nn = int(input())\ntime.sleep(6 if n < 50 else 0)\nprint(n * 2)';
    const cand = `import time\nn = int(input())\nprint(n * 2 if n >= 50 or time.time() < ${deadline} else n * 2 + 1)`;
    const r = await s.tool('verify_optimization', { original: orig, candidate: cand, language: 'python3',
      test_inputs: ['1', '2'], sizes: [1000] });
    assert.equal(r.accepted, false, JSON.stringify(r));
    assert.equal(r.reason, 'not equivalent');
    // the given inputs; the small sizes added after them (red team 4) may mismatch too
    assert.equal(r.verification.cases.filter((c) => !c.edge && c.outcome === 'mismatch').length, 2);
    assert.equal(r.speedup, undefined);
  });

  // The candidate is right on the small test inputs and, at the timing
  // sizes, right one run in five and otherwise a random number: main
  // skipped every size whose candidate runs disagreed among themselves and
  // accepted it. It escapes now only if all of its timed runs are right
  // (0.2^6 with two sizes).
  test('verify_optimization does not accept a candidate whose timed runs disagree among themselves', async () => {
    const r = await s.tool('verify_optimization', {
      original: 'n = int(input())\ns = 0\nfor i in range(n):\n    s += i\nprint(s)',
      candidate: 'import random\nn = int(input())\n'
        + 'print(n * (n - 1) // 2 if n < 1500 or random.random() < 0.2 else random.randrange(10**9))',
      // the sizes gate 1 adds stop at 1291 (red team 5): only the timing sizes reach n >= 1500
      language: 'python3', test_inputs: ['0', '5', '10', '1', '2', '3', '7'], sizes: [200000, 400000] });
    assert.equal(r.accepted, false, JSON.stringify(r));
    assert.equal(r.reason, 'not equivalent');
    assert.equal(r.verification.passed, true);
    assert.equal(r.speedup, undefined);
    const n = r.timing_mismatch.n;
    assert.equal(r.timing_mismatch.original, String((n * (n - 1)) / 2));
    assert.notEqual(r.timing_mismatch.candidate, r.timing_mismatch.original);
    assert.match(r.detail, /printed different outputs: it is not deterministic\); a faster wrong answer/);
  });

  test('z3_check refuses check-sat-assuming instead of answering sat without the assumptions', async () => {
    const r = await s.tool('z3_check', { smt2: '(declare-const p Bool)(declare-const x Int)'
      + '(assert (=> p (< x 0)))(assert (> x 0))(check-sat-assuming (p))' });
    assert.equal(r.ok, false, JSON.stringify(r));
    assert.equal(r.code, 'validation');
    assert.match(r.error, /^\(check-sat-assuming \.\.\.\) is not supported: this tool checks the asserted formulas only/);
    assert.equal(r.grade, 'ungraded');
    const asserted = await s.tool('z3_check', { smt2: '(declare-const p Bool)(declare-const x Int)'
      + '(assert (=> p (< x 0)))(assert (> x 0))(assert p)(check-sat)' });
    assert.equal(asserted.result, 'unsat');
  });

  test('z3_check answers each check-sat at its place, never another check\'s answer', async () => {
    // an assert after the check made it unsat, solver_proven (then a refusal); a check inside a popped
    // scope was answered for the outer scope; every check but the last went unanswered
    const r = await s.tool('z3_check', { smt2: '(declare-const x Int)\n(assert (> x 5))\n(check-sat)\n(assert (< x 0))' });
    assert.equal(r.result, 'sat', JSON.stringify(r));
    assert.notEqual(r.grade, 'solver_proven');
    const popped = await s.tool('z3_check', { smt2: '(declare-const x Int)(assert (> x 5))(push 1)(assert (< x 3))(check-sat)(pop 1)' });
    assert.equal(popped.result, 'unsat', JSON.stringify(popped));
    const both = await s.tool('z3_check', { smt2: '(declare-const x Int)(assert (> x 5))\n(push 1)(assert (< x 3))(check-sat)(pop 1)\n(check-sat)' });
    assert.equal(both.result, 'sat');
    assert.deepEqual(both.checks.map((c) => [c.line, c.result]), [[2, 'unsat'], [3, 'sat']]);
  });

  test('z3_check: one script\'s (set-option :timeout 1) no longer makes every later script unknown', async () => {
    const hard = await s.tool('z3_check', { smt2: '(set-option :timeout 1)(declare-const a Int)(declare-const b Int)'
      + '(declare-const c Int)(assert (> a 0))(assert (> b 0))(assert (> c 0))'
      + '(assert (= (+ (* a a a) (* b b b)) (* c c c)))(check-sat)' });
    assert.equal(hard.result, 'unknown', JSON.stringify(hard));
    for (let i = 0; i < 3; i++) {
      const r = await s.tool('z3_check', { smt2: '(declare-const x Int)(assert (> x 5))(check-sat)' });
      assert.equal(r.result, 'sat', JSON.stringify(r));
    }
  });
});
