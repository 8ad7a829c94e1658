// Regressions found by red-teaming the execution, verification and analysis
// tools as a new user would: each test is named after the wrong or wrongly
// confident answer it locks out, through the MCP SDK client.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startVerifyServer, skipUnlessLangs, SKIP_NO_BINARY } from './util.mjs';
import { assertHostDisclosures } from '../mcp/harness.mjs';

/** python3 that writes `text` (a JS string, may hold NUL) raw to stdout. */
const writePy = (text) => `import sys\nsys.stdout.write(${JSON.stringify(text)})`;

describe('red team: execution and verification', { skip: SKIP_NO_BINARY, timeout: 600000 }, () => {
  let s;
  before(async () => { s = await startVerifyServer(); });
  after(async () => { await s?.close(); });

  test('a NUL byte in stdout no longer ends the captured output', async () => {
    const r = await s.tool('execute_code', { language: 'python3', code: writePy('ab\u0000cd\n') });
    assert.equal(r.verdict, 'OK');
    assert.equal(r.stdout, 'ab\u0000cd\n');
    assert.equal(r.stdout_bytes, 6);
  });

  test('max_output_kb above the 240 KiB ceiling is disclosed, not silently clamped into an OLE', async () => {
    const r = await s.tool('execute_code', { language: 'python3', code: 'import sys\nsys.stdout.write("x" * 300000)',
      max_output_kb: 1000, receipt: true });
    assert.equal(r.verdict, 'OLE');
    assert.equal(r.stdout_bytes, 300000);
    // The clamp, after what this host cannot apply (nothing under root).
    assert.match(r.unenforced.at(-1), /^max_output_kb_clamped: 1000 KiB was asked for; each stream was capped at the 240 KiB ceiling/);
    assertHostDisclosures(r.unenforced.slice(0, -1));
    assert.ok(!r.provider.limits.provider_reported_enforced.includes('max_output_kb'));
    const ok = await s.tool('execute_code', { language: 'python3', code: 'print(1)', max_output_kb: 240 });
    assertHostDisclosures(ok.unenforced);
  });

  test('benchmark refuses repeated sizes instead of auto-scaling them into a timeout', async () => {
    const r = await s.tool('benchmark', { code: 'print(1)', sizes: '100,100,100,200' });
    assert.equal(r.ok, false);
    assert.equal(r.code, 'validation');
    assert.match(r.error, /^need at least 3 distinct sizes for a meaningful fit/);
    assert.equal(r.method, undefined);
  });

  test('ports that differ only after a NUL byte are not cross_checked', async () => {
    const r = await s.tool('verify_translation', { source_code: writePy('ab\u0000cd\n'), source_language: 'python3',
      target_code: writePy('ab\u0000XY\n'), target_language: 'python3', test_inputs: ['1'] });
    assert.equal(r.passed, false, JSON.stringify(r));
    assert.equal(r.cases[0].outcome, 'mismatch');
    assert.equal(r.cases[0].source.stdout, 'ab\u0000cd');
    assert.equal(r.cases[0].target.stdout, 'ab\u0000XY');
    assert.equal(r.grade, 'ungraded');
  });

  test('the same output with a NUL byte in two languages still matches', async (t) => {
    if (await skipUnlessLangs(t, s, 'node')) return;
    const r = await s.tool('verify_translation', { source_code: writePy('ab\u0000cd\n'), source_language: 'python3',
      target_code: 'process.stdout.write("ab\\u0000cd")', target_language: 'node', test_inputs: ['1'] });
    assert.equal(r.passed, true, JSON.stringify(r));
    assert.equal(r.grade, 'cross_checked');
  });

  test('compare_edge_cases sees a divergence after a NUL byte', async () => {
    const r = await s.tool('compare_edge_cases', { snippets: { python3: writePy('a\u0000b\n'),
      py: writePy('a\u0000c\n') }, inputs: ['1'] });
    assert.equal(r.divergence_count, 1, JSON.stringify(r));
    assert.equal(r.divergences[0].kind, 'content');
  });

  /** python3 that writes raw bytes (a python bytes literal's body) to stdout. */
  const bytesPy = (lit) => `import sys\nsys.stdout.buffer.write(b"${lit}")`;

  test('ports that differ only in bytes that are not UTF-8 are not cross_checked', async () => {
    const r = await s.tool('verify_translation', { source_code: bytesPy('ok\\xff\\n'), source_language: 'python3',
      target_code: bytesPy('ok\\xfe\\n'), target_language: 'python3', test_inputs: ['1'] });
    assert.equal(r.passed, false, JSON.stringify(r));
    assert.equal(r.cases[0].outcome, 'inconclusive');
    assert.match(r.cases[0].reason, /bytes that are not UTF-8/);
    assert.equal(r.cases[0].source.stdout, 'ok\ufffd');
    assert.equal(r.grade, 'ungraded');
    const same = await s.tool('verify_translation', { source_code: bytesPy('ok\\xff\\n'), source_language: 'python3',
      target_code: bytesPy('ok\\xff\\n'), target_language: 'python3', test_inputs: ['1'] });
    assert.equal(same.passed, true, JSON.stringify(same));
    const e = await s.tool('execute_code', { language: 'python3', code: bytesPy('\\xff') });
    assert.equal(e.stdout, '\ufffd');
    assert.equal(e.stdout_sha256, 'a8100ae6aa1940d0b663bb31cd466142ebbdbd5187131b92d93818987832eb89');
    const clean = await s.tool('execute_code', { language: 'python3', code: 'print("ok")' });
    assert.equal(clean.stdout_sha256, undefined);
  });

  test('compare_edge_cases sees a divergence in bytes that are not UTF-8', async () => {
    const r = await s.tool('compare_edge_cases', { snippets: { python3: bytesPy('a\\xff\\n'),
      py: bytesPy('a\\xfe\\n') }, inputs: ['1'] });
    assert.equal(r.divergence_count, 1, JSON.stringify(r));
    assert.equal(r.divergences[0].kind, 'content');
  });

  test('compare_execution shows the whole stdout and counts NUL-led output as printed', async () => {
    const r = await s.tool('compare_execution', { snippets: { python3: writePy('\u0000x\n') } });
    assert.equal(r.results[0].stdout, '\u0000x\n');
    assert.deepEqual(r.discrepancies, []);
  });

  test('verify_optimization rejects a candidate that is wrong only at the timing sizes', async () => {
    const r = await s.tool('verify_optimization', {
      original: 'n = int(input())\ns = 0\nfor i in range(n):\n    s += i\nprint(s)',
      candidate: 'n = int(input())\nprint(n * (n - 1) // 2 if n < 5000 else 0)',
      // right below 5000: the sizes gate 1 adds to the inputs (up to 1291,
      // red team 5) do not catch it; the timing sizes do
      language: 'python3', test_inputs: ['0', '10', '100', '1', '2', '3', '7'], sizes: [200000] });
    assert.equal(r.accepted, false, JSON.stringify(r));
    assert.equal(r.reason, 'not equivalent');
    assert.equal(r.verification.passed, true); /* gate 1 alone let it through */
    assert.equal(r.speedup, undefined);
    const n = r.timing_mismatch.n; /* 200000, or more if auto-scaled */
    assert.equal(r.timing_mismatch.original, String((n * (n - 1)) / 2));
    assert.equal(r.timing_mismatch.candidate, '0');
    assert.match(r.detail, /not at the timing size n=\d+/);
    assert.equal(r.grade, 'ungraded');
  });

  test('verify_optimization still accepts an equivalent candidate (outputs compared at the timing sizes)', async () => {
    // The speedup counts once the original's time above start-up is ten
    // jitters of the start-up runs (docs/contract.md). A fixed second of
    // work was not enough: a fresh-clone CI measured 181 ms of jitter, so
    // 1,810 ms was needed and the call honestly answered "not measurably
    // faster". The original's work now grows with n (4 s at n = 40), which
    // a jitter below 390 ms measures. A host noisier than that gets the
    // same honest answer, which is asserted instead.
    const r = await s.tool('verify_optimization', {
      original: 'import time\nn = int(input())\ntime.sleep(0.1 * n)\nprint(n * 2)',
      candidate: 'n = int(input())\nprint(n + n)',
      language: 'python3', test_inputs: ['0', '7'], sizes: [10, 40] });
    assert.equal(r.timing_mismatch, undefined);
    assert.notEqual(r.reason, 'not equivalent', JSON.stringify(r));
    const jitter = r.speedup?.startup?.jitter_ms ?? 0;
    if (r.speedup?.measurable === false && jitter >= 390) {
      assert.equal(r.reason, 'equivalent but not measurably faster', JSON.stringify(r));
      return;
    }
    assert.equal(r.accepted, true, JSON.stringify(r));
  });
});

describe('red team: extract_function', { skip: SKIP_NO_BINARY, timeout: 600000 }, () => {
  let s;
  before(async () => { s = await startVerifyServer(); });
  after(async () => { await s?.close(); });
  const ef = (args) => s.tool('extract_function', args);

  test('a C prototype and a call before the definition are not taken for it', async (t) => {
    if (await skipUnlessLangs(t, s, 'c')) return;
    const code = '#include <stdio.h>\nint sq(int x);\nint main(){ printf("%d\\n", sq(3)); }\nint sq(int x)\n{\n  return x*x;\n}\n';
    const r = await ef({ code, language: 'c', function_name: 'sq', call: 'int main(){printf("%d\\n", sq(4));}',
      test_inputs: ['1'] });
    assert.equal(r.signature, 'int sq(int x)');
    assert.equal(r.extracted_program, '#include <stdio.h>\nint sq(int x)\n{\n  return x*x;\n}\nint main(){printf("%d\\n", sq(4));}\n');
    assert.equal(r.passed, true, JSON.stringify(r));
    assert.equal(r.runs[0].stdout, '16\n');
  });

  test('a node call site above the function is not extracted as its definition', async () => {
    const r = await ef({ code: 'const r = sq(3);\nfunction sq(x) {\n  return x*x;\n}\n', language: 'node',
      function_name: 'sq' });
    assert.equal(r.signature, 'function sq(x) {');
    assert.equal(r.extracted_program, 'function sq(x) {\n  return x*x;\n}\n');
  });

  test('a one-line body ends on its own line, not after the next function', async () => {
    const code = 'public class M {\n  static int sq(int x) { return x*x; }\n  public static void main(String[] a){ System.out.println(sq(3)); }\n}';
    const r = await ef({ code, language: 'java', function_name: 'sq' });
    assert.equal(r.extracted_program, '  static int sq(int x) { return x*x; }\n');
  });

  // Module-level constants and classes were never carried, so a function
  // reading K = 10 failed with a NameError; they are carried now, and a name
  // that other module-level code fills (a loop) is named instead.
  test('module-level constants are carried; a table filled by a loop is named, and the run shows its error line', async () => {
    const code = 'K = 10\nclass P: pass\ndef g(y):\n    return y + K\ndef f(x):\n    z = 3\n    return g(x) * K + z\n';
    const r = await ef({ code, language: 'python3', function_name: 'f', test_inputs: ['2'] });
    assert.equal(r.not_carried, undefined);
    assert.ok(r.extracted_program.startsWith('K = 10\n\ndef g(y):'), r.extracted_program);
    assert.ok(!r.extracted_program.includes('class P'), 'a class f does not use is left out');
    assert.equal(r.passed, true, JSON.stringify(r.runs));
    assert.equal(r.runs[0].stdout, '123\n');
    const table = 'T = {}\nfor i in range(5):\n    T[i] = i * i\ndef f(x):\n    return T[x]\n';
    const t = await ef({ code: table, language: 'python3', function_name: 'f', test_inputs: ['2'] });
    assert.deepEqual(t.not_carried, ['T']);
    assert.match(t.not_carried_note, /other than plain assignments may change/);
    assert.equal(t.passed, false);
    assert.match(t.runs[0].stderr_tail, /NameError: name 'T' is not defined\n$/);
    const fine = await ef({ code: 'def f(x):\n    return x + 1\n', language: 'python3', function_name: 'f',
      test_inputs: ['2'] });
    assert.equal(fine.not_carried, undefined);
    assert.equal(fine.runs[0].stderr_tail, undefined);
    assert.equal(fine.runs[0].stdout, '3\n');
  });

  test('a python method or nested function says where it is instead of only "not found"', async () => {
    let r = await ef({ code: 'class A:\n    def sq(self, x):\n        return x*x\n', language: 'python3',
      function_name: 'sq' });
    assert.equal(r.code, 'validation');
    assert.equal(r.error, "function 'sq' not found at the top level: it is defined inside class 'A' (line 2); "
      + 'a method is not extracted alone: run the class with execute_code');
    r = await ef({ code: 'def outer():\n    def inner(x):\n        return x\n    return inner\n', language: 'python3',
      function_name: 'inner' });
    assert.match(r.error, /^function 'inner' not found at the top level: it is defined inside function 'outer' \(line 2\); extract 'outer'/);
    r = await ef({ code: 'x = 1\n', language: 'python3', function_name: 'nope' });
    assert.equal(r.error, "function 'nope' not found");
  });
});
