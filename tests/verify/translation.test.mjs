// verify_translation (TOOLS.md 3.4.3) through the MCP SDK client: every
// example of the section, ports between python3, node, c, rust and go that
// differ only on negative numbers, float formatting or integer overflow,
// compile-once, progress, and bad input refused before anything runs.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startVerifyServer, skipUnlessLangs, assertInvalid, assertGrade, SKIP_NO_BINARY, DEFAULT_INPUTS,
  LONG, nonce, captureProgress,
} from './util.mjs';

const DOUBLE_PY = 'import sys\nn=int(sys.stdin.readline())\nprint(n*2)';
const DOUBLE_JS = 'const n=+require("fs").readFileSync(0,"utf8").trim();console.log(n*2)';

/** python3 and C programs that print how many bytes stdin held. */
const LEN_PY = 'import sys\nprint(len(sys.stdin.buffer.read()))';
const lenC = (tag) => `#include <stdio.h>\n/* ${tag} */\nint main(void){long n=0; while(getchar()!=EOF) n++; printf("%ld\\n", n); return 0;}`;

describe('verify_translation', { skip: SKIP_NO_BINARY, timeout: 600000 }, () => {
  let s;
  before(async () => { s = await startVerifyServer(); });
  after(async () => { await s?.close(); });
  const vt = (args, o) => s.tool('verify_translation', args, o);

  test('spec example: python3 -> node doubling on ["3","7","0"] passes, cross_checked', async () => {
    const r = await vt({ source_code: DOUBLE_PY, source_language: 'python3', target_code: DOUBLE_JS,
      target_language: 'node', test_inputs: ['3', '7', '0'] });
    assert.equal(r.ok, true);
    assert.equal(r.passed, true);
    assert.equal(r.reason, null);
    assert.deepEqual([r.matched, r.mismatched, r.inconclusive, r.total], [3, 0, 0, 3]);
    assertGrade(r, 'cross_checked',
      'cross-checked: python3 source and node port independently agreed on 3/3 test input(s)');
    assert.deepEqual(r.cases.map((c) => [c.input, c.outcome, c.match, c.reason]),
      [['3', 'match', true, ''], ['7', 'match', true, ''], ['0', 'match', true, '']]);
    assert.deepEqual(r.cases.map((c) => [c.source.stdout, c.target.stdout]), [['6', '6'], ['14', '14'], ['0', '0']]);
    for (const c of r.cases) {
      for (const side of [c.source, c.target]) {
        assert.equal(side.ok, true);
        assert.equal(side.phase, 'run');
        assert.equal(side.stderr, '');
      }
    }
  });

  test('spec example: a port that prints 1 fails on ["3","7"], ungraded', async () => {
    const r = await vt({ source_code: DOUBLE_PY, source_language: 'python3', target_code: 'console.log(1)',
      target_language: 'node', test_inputs: ['3', '7'] });
    assert.equal(r.passed, false);
    assert.equal(r.mismatched, 2);
    assert.equal(r.reason, '2 of 2 test input(s) showed different behaviour');
    assertGrade(r, 'ungraded', 'not graded: 2 of 2 test input(s) showed different behaviour');
    assert.deepEqual(r.cases.map((c) => [c.outcome, c.reason, c.target.stdout]),
      [['mismatch', 'both ran; stdout differs', '1'], ['mismatch', 'both ran; stdout differs', '1']]);
  });

  test('spec example: both sys.exit(1): every case inconclusive, "could not verify"', async () => {
    const code = 'import sys\nsys.exit(1)';
    const r = await vt({ source_code: code, source_language: 'python3', target_code: code, target_language: 'py' });
    assert.equal(r.passed, false);
    assert.equal(r.total, 7);
    assert.equal(r.inconclusive, 7);
    assert.match(r.reason, /^could not verify/);
    assert.equal(r.reason, 'could not verify: no test input produced a successful run of BOTH programs, so nothing was actually compared');
    assert.deepEqual(r.cases.map((c) => c.input), DEFAULT_INPUTS);
    for (const c of r.cases) {
      assert.equal(c.outcome, 'inconclusive');
      assert.equal(c.reason, 'both programs failed at run time; their errors are not comparable');
      assert.equal(c.source.verdict, 'RTE');
    }
    assertGrade(r, 'ungraded', `not graded: ${r.reason}`);
  });

  test('spec example: a python3 sum ported to node differs only on "0.1\\n0.2" (0.30000000000000004 vs 0.3)', async () => {
    const py = [
      'import sys',
      'vals = [int(t) if t.lstrip("-").isdigit() else float(t) for t in sys.stdin.read().split()]',
      'print(sum(vals))',
    ].join('\n');
    const js = [
      'const toks = require("fs").readFileSync(0, "utf8").split(/\\s+/).filter(Boolean);',
      'const s = toks.map(Number).reduce((a, b) => a + b, 0);',
      'console.log(+s.toFixed(10));',
    ].join('\n');
    const r = await vt({ source_code: py, source_language: 'python3', target_code: js, target_language: 'node' });
    assert.equal(r.passed, false);
    assert.equal(r.mismatched, 1);
    assert.equal(r.matched, 6);
    const bad = r.cases.filter((c) => c.outcome === 'mismatch');
    assert.equal(bad.length, 1);
    assert.equal(bad[0].input, '0.1\n0.2');
    assert.equal(bad[0].source.stdout, '0.30000000000000004');
    assert.equal(bad[0].target.stdout, '0.3');
    assert.equal(r.reason, '1 of 7 test input(s) showed different behaviour');
  });

  test('python3 -> c: the C side compiles once for 7 inputs, and not again from the cache', async () => {
    const tag = nonce();
    const args = { source_code: LEN_PY, source_language: 'python3', target_code: lenC(tag), target_language: 'c' };
    const r = await vt(args);
    assert.equal(r.passed, true, JSON.stringify(r.cases.map((c) => [c.outcome, c.reason])));
    assert.deepEqual(r.cases.map((c) => c.target.stdout), ['0', '1', '1', '2', '2', '3', '7']);
    assert.deepEqual(r.execution.compiles, { source: 0, target: 1 });
    // each matched input run again per side (rule 37): 44 runs over 7
    // inputs, fewer when the first runs were slow (red team 5, docs/contract.md)
    assert.ok(r.odds.runs_per_input >= 2 && r.odds.runs_per_input <= 7, JSON.stringify(r.odds));
    assert.equal(r.execution.runs, 14 * r.odds.runs_per_input);
    const again = await vt(args);
    assert.equal(again.passed, true);
    assert.deepEqual(again.execution.compiles, { source: 0, target: 0 });
  });

  test('a translation that does not compile: every case mismatch (rule 2), compiled once', async () => {
    const r = await vt({ source_code: LEN_PY, source_language: 'python3',
      target_code: `int main(void) { /* ${nonce()} */ return 0 }`, target_language: 'c' });
    assert.equal(r.passed, false);
    assert.equal(r.mismatched, 7);
    for (const c of r.cases) {
      assert.equal(c.reason, 'the translation failed to compile');
      assert.equal(c.target.phase, 'compile');
      assert.equal(c.target.ok, false);
      assert.match(c.target.stderr, /error/);
      assert.equal(c.source.ok, true);
    }
    assert.equal(r.execution.compiles.target, 1);
    assert.equal(r.execution.runs, 7, 'only the source ran');
  });

  test('a source that does not compile: every case inconclusive (rule 1)', async () => {
    const r = await vt({ source_code: `int main(void) { oops ${nonce()} }`, source_language: 'c',
      target_code: LEN_PY, target_language: 'python3', test_inputs: ['a', 'b'] });
    assert.equal(r.inconclusive, 2);
    for (const c of r.cases) {
      assert.equal(c.reason, 'the source program failed to compile; there is nothing to verify against');
      assert.equal(c.source.phase, 'compile');
    }
    assert.match(r.reason, /^could not verify/);
    assert.equal(r.execution.compiles.source, 1);
  });

  test('python3 -> c differing only on negative numbers (floor vs truncating division)', async () => {
    const py = 'import sys\nn=int(sys.stdin.read())\nprint(n // 2)';
    const c = '#include <stdio.h>\nint main(void){long n; scanf("%ld",&n); printf("%ld\\n", n / 2); return 0;}';
    const inputs = ['0', '1', '-1', '10', '-7', '100'];
    const r = await vt({ source_code: py, source_language: 'python3', target_code: c, target_language: 'c', test_inputs: inputs });
    assert.equal(r.passed, false);
    assert.deepEqual(r.cases.filter((x) => x.outcome === 'mismatch').map((x) => [x.input, x.source.stdout, x.target.stdout]),
      [['-1', '-1', '0'], ['-7', '-4', '-3']]);
    assert.equal(r.matched, 4);
  });

  test('python3 -> go differing only on integer overflow', async (t) => {
    if (await skipUnlessLangs(t, s, 'go')) return;
    const py = 'import sys\nn=int(sys.stdin.read())\nprint(n*n*n)';
    const go = 'package main\nimport "fmt"\nfunc main(){ var n int64; fmt.Scan(&n); fmt.Println(n*n*n) }';
    const r = await vt({ source_code: py, source_language: 'python3', target_code: go, target_language: 'go',
      test_inputs: ['2', '-5', '1000', '3000000'] });
    assert.equal(r.passed, false);
    assert.deepEqual(r.cases.map((c) => c.outcome), ['match', 'match', 'match', 'mismatch']);
    assert.equal(r.cases[3].source.stdout, '27000000000000000000');
    assert.notEqual(r.cases[3].target.stdout, '27000000000000000000');
    assert.equal(r.execution.compiles.target, 1);
  });

  test('python3 -> rust: an i32 port overflows where python does not', async (t) => {
    if (await skipUnlessLangs(t, s, 'rust')) return;
    const py = 'import sys\nn=int(sys.stdin.read())\nprint(n*n)';
    const rs = 'use std::io::Read;\nfn main(){ let mut s=String::new(); std::io::stdin().read_to_string(&mut s).unwrap();'
      + ' let n: i32 = s.trim().parse().unwrap(); println!("{}", n.wrapping_mul(n)); }';
    const r = await vt({ source_code: py, source_language: 'python3', target_code: rs, target_language: 'rust',
      test_inputs: ['3', '-4', '46340', '46341'] });
    assert.deepEqual(r.cases.map((c) => c.outcome), ['match', 'match', 'match', 'mismatch']);
    assert.equal(r.cases[3].source.stdout, '2147488281');
    assert.equal(r.cases[3].target.stdout, '-2147479015');
  });

  test('node -> rust port that agrees everywhere passes', async (t) => {
    if (await skipUnlessLangs(t, s, 'rust')) return;
    const js = 'const s=require("fs").readFileSync(0,"utf8"); console.log(s.length)';
    const rs = 'use std::io::Read;\nfn main(){ let mut s=String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); println!("{}", s.len()); }';
    const r = await vt({ source_code: js, source_language: 'node', target_code: rs, target_language: 'rust' });
    assert.equal(r.passed, true, JSON.stringify(r.cases.map((c) => [c.outcome, c.target.stderr])));
    assertGrade(r, 'cross_checked', 'cross-checked: node source and rust port independently agreed on 7/7 test input(s)');
  });

  test('a port that prints nothing: the empty side is re-run, the mismatch stands', async () => {
    const r = await vt({ source_code: 'print(5)', source_language: 'python3', target_code: 'pass',
      target_language: 'python3', test_inputs: ['x'] });
    assert.equal(r.cases[0].outcome, 'mismatch');
    assert.equal(r.cases[0].reason, 'both ran; stdout differs (the empty side was re-run and was empty again)');
    assert.equal(r.cases[0].rerun.side, 'target');
    assert.equal(r.execution.runs, 3);
  });

  test('both succeed silently: inconclusive (rule 4)', async () => {
    const r = await vt({ source_code: 'pass', source_language: 'python3', target_code: '', target_language: 'node',
      test_inputs: ['1'] });
    assert.equal(r.cases[0].outcome, 'inconclusive');
    assert.equal(r.cases[0].reason, 'both programs succeeded but produced no output; an absence of output is not evidence of a match');
  });

  test('progress: one notification per finished run, total = runs planned, naming input and side', async () => {
    const raw = captureProgress(s);
    const sdk = [];
    const r = await vt({ source_code: DOUBLE_PY, source_language: 'python3', target_code: DOUBLE_JS,
      target_language: 'node', test_inputs: ['1', '2', '3'] }, { onprogress: (p) => sdk.push(p) });
    assert.equal(r.passed, true);
    assert.ok(sdk.length >= 1, 'the SDK client received progress');
    const token = raw[0]?.progressToken;
    const seen = raw.filter((p) => p.progressToken === token);
    // Each match is run again on both sides (rule 37, docs/contract.md):
    // up to 14 times, fewer when the first runs were slow (red team 5); the
    // repeats are planned when the first six have finished.
    const k = r.odds.runs_per_input, reps = k - 1;
    assert.ok(k >= 2 && k <= 15, JSON.stringify(r.odds));
    assert.equal(seen.length, 6 * k);
    assert.deepEqual(seen.map((p) => p.progress), Array.from({ length: 6 * k }, (_, i) => i + 1));
    assert.deepEqual(seen.map((p) => p.total), [...Array(6).fill(6), ...Array(6 * reps).fill(6 * k)]);
    const msgs = seen.map((p) => p.message).sort();
    const want = [];
    for (const i of [1, 2, 3]) {
      for (const side of ['source (python3)', 'target (node)']) {
        want.push(`input ${i}/3 "${i}": ${side}`);
        for (let j = 1; j <= reps; j++) want.push(`input ${i}/3 "${i}": ${side}, repeat ${j} of ${reps} to check the match reproduces`);
      }
    }
    assert.deepEqual(msgs, want.sort());
  });

  test('a runaway side gets its verdict (TLE, OLE) and the other cases still complete', async () => {
    const py = 'import sys\nt=sys.stdin.read()\nif t=="loop":\n    while True: pass\nif t=="flood":\n    print("x"*200000)\nprint(t)';
    const r = await vt({ source_code: 'import sys\nprint(sys.stdin.read())', source_language: 'python3',
      target_code: py, target_language: 'python3', test_inputs: ['a', 'loop', 'flood', 'b'] });
    assert.deepEqual(r.cases.map((c) => c.outcome), ['match', 'mismatch', 'mismatch', 'match']);
    assert.equal(r.cases[1].target.verdict, 'TLE');
    assert.equal(r.cases[1].reason, 'the translation failed while the other succeeded');
    assert.equal(r.cases[2].target.verdict, 'OLE');
    assert.equal(r.cases[2].reason, 'both ran; stdout differs');
  });

  describe('bad input is refused before anything runs', () => {
    const base = { source_code: 'print(1)', source_language: 'python3', target_code: 'console.log(1)', target_language: 'node' };

    test('an unknown language on either side', async () => {
      let r = await vt({ ...base, source_language: 'klingon' });
      assertInvalid(r, /^source_language: unknown language 'klingon'\. Available: awk, bash/);
      assert.ok(r.available_languages.includes('python3'));
      assertGrade(r, 'ungraded', `not graded: ${r.error}`);
      r = await vt({ ...base, target_language: 'cobol' });
      assertInvalid(r, /^target_language: unknown language 'cobol'/);
    });

    test('test_inputs that are not strings, or too many', async () => {
      let r = await vt({ ...base, test_inputs: ['1', 2] });
      assertInvalid(r, /^test_inputs\[1\] is not a string/);
      assert.equal(r.grade, 'ungraded');
      r = await vt({ ...base, test_inputs: Array.from({ length: 65 }, (_, i) => String(i)) });
      assertInvalid(r, /^test_inputs has 65 entries; at most 64/);
    });

    test('code over the size cap', async () => {
      const r = await vt({ ...base, target_code: `// ${'x'.repeat(1 << 20)}` });
      assertInvalid(r, /^target_code is \d+ bytes, over the 1048576-byte limit/);
    });

    test('a missing argument is a schema error naming it', async () => {
      const { source_code, ...rest } = base;
      const res = await s.callRaw('verify_translation', rest, LONG);
      assert.equal(res.isError, true);
      assert.match(res.content[0].text, /source_code/);
    });

    test('null and [] mean the seven defaults', async () => {
      for (const test_inputs of [null, []]) {
        const r = await vt({ ...base, test_inputs });
        assert.deepEqual(r.cases.map((c) => c.input), DEFAULT_INPUTS);
        assert.equal(r.passed, true);
      }
    });
  });
});
