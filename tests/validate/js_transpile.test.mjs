// execute_python on javascript and typescript, and Python -> JavaScript
// transpile (proved under node, refused when unsupported or unproved),
// through the MCP SDK client over stdio (docs/execute_python.md).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { startServer, assertRejected, SKIP_NO_BINARY } from '../mcp/harness.mjs';

const LONG = { timeout: 300000 };
const HAVE_TSC = spawnSync('sh', ['-c', 'command -v tsc'], { encoding: 'utf8' }).status === 0;

/** Run JavaScript text under node and return its stdout. */
function node(text) {
  const p = spawnSync(process.execPath, ['-e', text], { encoding: 'utf8', timeout: 30000 });
  assert.equal(p.status, 0, p.stderr);
  return p.stdout;
}

describe('execute_python: javascript, typescript and transpile', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });
  const call = (args) => s.call('execute_python', args, LONG);
  const find = (r, code) => r.diagnostics.find((d) => d.code === code);

  test('javascript static: node --check reports the line and column', async () => {
    const r = await call({ language: 'javascript', code: 'function f(a) {\n  return a +* 2;\n}\n' });
    assert.equal(r.valid, false);
    const d = find(r, 'javascript:syntax');
    assert.deepEqual([d.line, d.column, d.message], [2, 13, "Unexpected token '*'"]);
  });

  test('javascript static: an undefined name', { skip: !HAVE_TSC && 'tsc not installed' }, async () => {
    const r = await call({ language: 'javascript', code: 'function f() {\n  return missingThing + 1;\n}\nconsole.log(f);\n' });
    const d = find(r, 'javascript:undefined-name');
    assert.deepEqual([d.line, d.column, d.severity], [2, 10, 'error']);
    assert.match(d.message, /Cannot find name 'missingThing'/);
  });

  test('javascript execute: assert examples and a one-token repair', { skip: !HAVE_TSC && 'tsc not installed' }, async () => {
    const code = 'function max(a, b) {\n  if (a < b) return a;\n  return b;\n}\n';
    const r = await call({ language: 'javascript', code, mode: 'execute',
      options: { examples: 'assert(max(1, 2) === 2)\nassert.strictEqual(max(5, 3), 5)' } });
    assert.equal(r.valid, false);
    assert.equal(r.score, 0);
    const d = r.diagnostics.filter((x) => x.code === 'javascript:example-mismatch');
    assert.deepEqual(d.map((x) => [x.expected, x.actual]), [['2', '1'], ['5', '3']]);
    assert.deepEqual(r.edits, [{ kind: 'comparison', line: 2, column: 9, before: '<', after: '>', round: 1 }]);
    assert.equal(r.fixed_code, code.replace('a < b', 'a > b'));
    assert.equal(r.repair.solved, true);
  });

  // As in python: two examples of isodd pass five one-token edits; the
  // first (n >> 2, wrong for 5) came back "solved" with no word.
  test('regression: a javascript repair the examples do not pin down names the other edits', { skip: !HAVE_TSC && 'tsc not installed' }, async () => {
    const r = await call({ language: 'javascript', code: 'function isodd(n) { return n % 2 === 0; }\n', mode: 'execute',
      options: { examples: 'assert(isodd(3))\nassert(!isodd(4))' } });
    assert.equal(r.repair.solved, true);
    assert.equal(r.repair.alternatives_total, 4);
    const d = find(r, 'javascript:repair-ambiguous');
    assert.equal(d.severity, 'info');
    assert.match(d.message, /^4 other edits also make every example pass \(line 1, column 30: % -> >>>; line 1, column 34: === -> !==; line 1, column 32: 2 -> 3; line 1, column 38: 0 -> 1\): the examples do not tell the fix apart from them; fixed_code holds the first in order of preference \(line 1, column 30: % -> >>\)\./);
    assert.equal(r.repair.ambiguous, true);
  });

  // As in python (red team 4): one example fits n * 2, n + 2, n ** 2, and
  // the same '-' -> '+' at two places is two fixes, not one.
  test('regression: a javascript repair resting on one example, or tied with the same swap elsewhere, is ambiguous', { skip: !HAVE_TSC && 'tsc not installed' }, async () => {
    const one = await call({ language: 'javascript', code: 'function f(n) { return n * 3; }\n', mode: 'execute',
      options: { examples: 'assert(f(2) === 4)' } });
    assert.equal(one.fixed_code, 'function f(n) { return n * 2; }\n');
    assert.equal(one.repair.solved, true);
    assert.equal(one.repair.ambiguous, true);
    assert.match(find(one, 'javascript:repair-ambiguous').message, /^the fix rests on a single check: .*\(line 1, column 28: 3 -> 2\)/);
    const two = await call({ language: 'javascript', code: 'function f(a, b) { return (a - 1) * (b - 1); }\n', mode: 'execute',
      options: { examples: 'assert(f(3, 3) === 8)\nassert(f(0, 0) === -1)' } });
    assert.equal(two.repair.ambiguous, true);
    assert.ok(two.repair.alternatives.some((a) => a.length === 1 && a[0].before === '-' && a[0].after === '+'),
      JSON.stringify(two.repair.alternatives));
  });

  test('javascript execute: a loop that never ends is reported, && repaired to ||', { skip: !HAVE_TSC && 'tsc not installed' }, async () => {
    const code = 'function outside(x, lo, hi) {\n  return x < lo && x > hi;\n}\nfunction spin() { while (true) {} }\n';
    const r = await call({ language: 'javascript', code, mode: 'execute',
      options: { examples: 'assert(outside(-1, 0, 10))\nassert(!outside(5, 0, 10))\nassert(outside(11, 0, 10))\nspin()', timeout_s: 0.5 } });
    assert.equal(r.fixed_code, code.replace('&&', '||'));
    assert.equal(find(r, 'javascript:example-setup').example_line, 4);
  });

  test('typescript: a type error at its position, and a repair', { skip: !HAVE_TSC && 'tsc not installed' }, async () => {
    const code = 'function area(w: number, h: number): number {\n  return w + h;\n}\nconst s: string = area(2, 3);\n';
    const r = await call({ language: 'typescript', code, mode: 'execute',
      options: { examples: 'assert.strictEqual(area(2, 3), 6)\nassert.strictEqual(area(1, 1), 1)' } });
    const d = find(r, 'typescript:TS2322');
    assert.deepEqual([d.line, d.column, d.message], [4, 7, "Type 'number' is not assignable to type 'string'."]);
    assert.deepEqual(r.edits, [{ kind: 'operator', line: 2, column: 12, before: '+', after: '*', round: 1 }]);
  });

  test('javascript examples that do not parse are refused', { skip: !HAVE_TSC && 'tsc not installed' }, async () => {
    assertRejected(await call({ language: 'javascript', code: 'let x = 1;', mode: 'execute', options: { examples: 'assert(f(2) ===' } }),
      'validation', /options\.examples is not valid javascript/);
    assertRejected(await call({ language: 'javascript', code: 'let x = 1;', options: { transpile_to: 'javascript' } }),
      'validation', /transpile_to translates python code/);
  });

  test('transpile proved: the copy passes the translated examples and runs under node -e', async () => {
    const code = 'def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n\n' +
      'def stats(xs):\n    evens = [x for x in xs if x % 2 == 0]\n    return f"{sum(xs) / len(xs):.2f} {evens} {-7 // 2} {-7 % 3}"\n';
    const r = await call({ code, mode: 'execute', options: { transpile_to: 'javascript',
      examples: 'assert fib(10) == 55\nassert fib(90) == 2880067194370816120\nassert stats([1, 2, 3, 4]) == "2.50 [2, 4] -4 2"' } });
    assert.equal(r.valid, true);
    assert.equal(typeof r.transpiled_code, 'string');
    assert.equal(r.transpile.proved_examples, 3);
    assert.doesNotMatch(r.transpiled_code, /\bexport\b|require\(/);
    // Python ints are BigInt in the copy: 1n; a plain JavaScript number is a Python float
    assert.equal(node(`${r.transpiled_code}; console.log(String(fib(90)), stats([1n, 2n, 3n, 4n]))`),
      '2880067194370816120 2.50 [2, 4] -4 2\n');
    assert.equal(node(`${r.transpiled_code}; console.log(String(fib(2)))`), '1\n');
  });

  test('transpiled_float_floor_division_differed_from_cpython', async () => {
    // Proved on 7 // 2 only; on 1 // 0.1 CPython says 9.0 and Math.floor(1 / 0.1) said 10.
    const code = 'def f(a, b):\n    return [a // b, a % b, a / b, a ** -2, f"{a / b:.3g}"]\n';
    const r = await call({ code, mode: 'execute', options: { transpile_to: 'javascript',
      examples: 'assert f(7, 2) == [3, 1, 3.5, 1 / 49, "3.5"]' } });
    assert.equal(r.transpile.proved_examples, 1);
    assert.equal(node(`${r.transpiled_code}; console.log($repr(f(1n, 0.1)), $repr(f(7n, 1n)))`),
      "[9.0, 0.09999999999999995, 10.0, 1.0, '10'] [7, 0, 7.0, 0.02040816326530612, '7']\n");
  });

  test('transpile proved on expected_output: closures, dicts, sets, f-strings, exceptions, big ints', async () => {
    const code = [
      'def counter():', '    n = 0', '    def inc():', '        nonlocal n', '        n += 1', '        return n', '    return inc',
      'c = counter()', 'c()',
      'words = "the quick brown the fox the".split()', 'counts = {}',
      'for w in words:', '    counts[w] = counts.get(w, 0) + 1',
      'try:', '    [][1]', 'except IndexError as e:', '    err = str(e)',
      'print(c(), sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:2], {1, 2} | {3})',
      'print(f"{2.675:.2f} {0.125:.2f} {1234567:,} {255:08b}", 7 // -2, -7 % 3, 2 ** 70, 1e16, 0.1 + 0.2, err)',
    ].join('\n') + '\n';
    const expected = "2 [('the', 3), ('brown', 1)] {1, 2, 3}\n2.67 0.12 1,234,567 11111111 -4 2 1180591620717411303424 1e+16 0.30000000000000004 list index out of range\n";
    const r = await call({ code, mode: 'execute', options: { transpile_to: 'javascript', expected_output: expected } });
    assert.equal(r.valid, true, JSON.stringify(r.diagnostics));
    assert.equal(r.transpile.proved_examples, 1);
    assert.equal(node(r.transpiled_code), expected);
  });

  test('transpile: the repaired code is what gets translated', async () => {
    const r = await call({ code: 'def diff(a, b):\n    return a + b\n', mode: 'execute',
      options: { transpile_to: 'javascript', examples: 'assert diff(5, 3) == 2' } });
    assert.equal(r.fixed_code, 'def diff(a, b):\n    return a - b\n');
    assert.match(r.transpiled_code, /\$sub\(a, b\)/);
    assert.equal(node(`${r.transpiled_code}; console.log(String(diff(5n, 3n)))`), '2\n');
  });

  test('transpile refused: an unsupported construct names its line', async () => {
    const r = await call({ code: 'def f(x):\n    return x\n\nclass A:\n    pass\n', mode: 'execute',
      options: { transpile_to: 'javascript', examples: 'assert f(1) == 1' } });
    assert.equal(r.transpiled_code, null);
    const d = find(r, 'transpile:unsupported');
    assert.equal(d.line, 4);
    assert.match(d.message, /^line 4: class definitions is outside the translated subset/);
  });

  test('transpile refused: a copy that does not pass an example under node is not returned', async () => {
    const r = await call({ code: 'def r2(x):\n    return round(x, 2)\n', mode: 'execute',
      options: { transpile_to: 'javascript', examples: 'assert r2(2.675) == 2.67' } });
    assert.equal(r.valid, true);
    assert.equal(r.transpiled_code, null);
    const d = find(r, 'transpile:unverified');
    assert.match(d.message, /fails `assert r2\(2\.675\) == 2\.67`: raised NotImplementedError/);
  });

  test('transpile refused in static mode, which runs nothing', async () => {
    const r = await call({ code: 'def f(x):\n    return x\n', options: { transpile_to: 'javascript', examples: 'assert f(1) == 1' } });
    assert.equal(r.transpiled_code, null);
    assert.match(find(r, 'transpile:unverified').message, /static mode runs nothing/);
  });
  test('regression: js_assert_in_loop_was_setup — asserts in a loop or forEach were setup, refused or a warning', { skip: !HAVE_TSC && 'tsc not installed' }, async () => {
    const r = await call({ language: 'javascript', mode: 'execute', code: 'function f(x) { return x * 2; }',
      options: { max_iterations: 1, examples: 'assert(f(1) === 2);\nfor (let i = 0; i < 3; i++) assert(f(i) === i * 3);\n[4, 5].forEach((i) => assert.strictEqual(f(i), i * 2));\nassert.throws(() => f(-1));' } });
    assert.equal(r.valid, false);
    assert.deepEqual(r.examples, { total: 4, passed: 2, from_docstrings: 0 });
    const d = r.diagnostics.filter((x) => x.code === 'javascript:example-mismatch');
    assert.deepEqual(d.map((x) => [x.example_line, x.outcome]), [[2, 'fail'], [4, 'fail']]);
    assert.equal(d[1].message, 'assert.throws(() => f(-1)); failed: Missing expected exception.');
  });

  test('regression: js_always_true_assert_passed — assert((f(2), 5)) checked nothing and came back valid', { skip: !HAVE_TSC && 'tsc not installed' }, async () => {
    for (const ex of ['assert((f(2), 5));', 'assert(f(2) === 4);\nassert("f(2) === 5");', 'assert.ok([f(2) === 5]);']) {
      assertRejected(await call({ language: 'javascript', mode: 'execute', code: 'function f(x) { return x * 2; }', options: { examples: ex } }),
        'validation', /does not depend on the code .*checks nothing/);
    }
  });
});
