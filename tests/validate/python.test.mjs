// execute_python on Python code, through the MCP SDK client over stdio
// (docs/execute_python.md): the seed's acceptance example, one repair per
// edit class, static diagnostics at exact positions, security findings,
// deterministic fixes, proof that static mode runs nothing, bad input.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { chmodSync, rmSync } from 'node:fs';
import { startServer, assertRejected, SKIP_NO_BINARY, assertHostDisclosures } from '../mcp/harness.mjs';

const LONG = { timeout: 300000 };

describe('execute_python: python', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });
  const call = (args) => s.call('execute_python', args, LONG);
  const execute = (code, examples, options = {}) =>
    call({ code, mode: 'execute', options: { examples, ...options } });
  const codes = (r) => r.diagnostics.map((d) => d.code);
  const find = (r, code) => r.diagnostics.find((d) => d.code === code);

  test('the seed example: loops forever, repaired with n &= n - 1 and count += 1', async () => {
    const code = 'def bitcount(n):\n    count = 0\n    while n:\n        n ^= n - 1\n    return count\n';
    const r = await execute(code, 'assert bitcount(127) == 7\nassert bitcount(0) == 0');
    assert.equal(r.ok, true);
    assert.equal(r.valid, false);
    assert.equal(r.score, 0.5);
    assert.deepEqual(codes(r), ['python:example-mismatch']);
    const d = r.diagnostics[0];
    assert.equal(d.severity, 'error');
    assert.equal(d.expression, 'assert bitcount(127) == 7');
    assert.equal(d.outcome, 'timeout');
    assert.equal(d.actual, 'loops forever');
    assert.equal(d.expected, '7');
    assert.match(d.message, /^assert bitcount\(127\) == 7 failed: the code loops forever/);
    assert.equal(r.fixed_code,
      'def bitcount(n):\n    count = 0\n    while n:\n        n &= n - 1\n        count += 1\n    return count\n');
    assert.deepEqual(r.edits, [
      { kind: 'operator', line: 4, column: 11, before: '^=', after: '&=', round: 1 },
      { kind: 'counter-increment', line: 5, column: 9, before: '', after: 'count += 1', round: 2 },
    ]);
    assert.equal(r.repair.solved, true);
    assert.equal(r.repair.score, 1);
    assert.equal(r.repair.stopped, 'solved');
    assert.equal(r.executed, true);
    assertHostDisclosures(r.unenforced, { memory: true }); // its runs have a memory ceiling
  });

  // One case per edit class: [name, code, examples, the single edit, the fixed code]
  const repairs = [
    ['comparison > vs >=', 'def is_adult(age):\n    return age > 18\n',
      'assert is_adult(18)\nassert is_adult(30)\nassert not is_adult(17)',
      { kind: 'comparison', line: 2, column: 16, before: '>', after: '>=' },
      'def is_adult(age):\n    return age >= 18\n'],
    ['comparison != vs ==', 'def is_zero(x):\n    return x != 0\n', 'assert is_zero(0)\nassert not is_zero(4)',
      { kind: 'comparison', line: 2, column: 14, before: '!=', after: '==' },
      'def is_zero(x):\n    return x == 0\n'],
    ['operator + vs -', 'def diff(a, b):\n    return a + b\n', 'assert diff(5, 3) == 2\nassert diff(3, 5) == -2',
      { kind: 'operator', line: 2, column: 14, before: '+', after: '-' },
      'def diff(a, b):\n    return a - b\n'],
    ['operator * vs **', 'def cube(x):\n    return x * 3\n', 'assert cube(2) == 8\nassert cube(3) == 27',
      { kind: 'operator', line: 2, column: 14, before: '*', after: '**' },
      'def cube(x):\n    return x ** 3\n'],
    ['recursion n + 1 vs n - 1', 'def fact(n):\n    if n <= 1:\n        return 1\n    return n * fact(n + 1)\n',
      'assert fact(1) == 1\nassert fact(5) == 120',
      { kind: 'operator', line: 4, column: 23, before: '+', after: '-' },
      'def fact(n):\n    if n <= 1:\n        return 1\n    return n * fact(n - 1)\n'],
    ['and vs or', 'def outside(x, lo, hi):\n    return x < lo and x > hi\n',
      'assert outside(-1, 0, 10)\nassert not outside(5, 0, 10)\nassert outside(11, 0, 10)',
      { kind: 'boolean-operator', line: 2, column: 19, before: 'and', after: 'or' },
      'def outside(x, lo, hi):\n    return x < lo or x > hi\n'],
    ['True vs False', 'def has_negative(xs):\n    found = True\n    for x in xs:\n        if x < 0:\n            found = True\n    return found\n',
      'assert has_negative([1, -2]) is True\nassert has_negative([1, 2]) is False\nassert has_negative([]) is False',
      { kind: 'boolean-constant', line: 2, column: 13, before: 'True', after: 'False' },
      'def has_negative(xs):\n    found = False\n    for x in xs:\n        if x < 0:\n            found = True\n    return found\n'],
    ['integer constant - 1', 'def last_index(xs):\n    return len(xs) - 2\n',
      'assert last_index([1, 2, 3]) == 2\nassert last_index([7]) == 0\nassert last_index([1, 2, 3, 4]) == 3',
      { kind: 'integer-constant', line: 2, column: 22, before: '2', after: '1' },
      'def last_index(xs):\n    return len(xs) - 1\n'],
    ['range(n) bound', 'def total(n):\n    s = 0\n    for i in range(n):\n        s += i\n    return s\n',
      'assert total(3) == 6\nassert total(4) == 10\nassert total(0) == 0',
      { kind: 'range-bound', line: 3, column: 20, before: 'n', after: 'n + 1' },
      'def total(n):\n    s = 0\n    for i in range(n + 1):\n        s += i\n    return s\n'],
    ['a variable swapped for another in scope', 'def pick(a, b):\n    big = a if a > b else b\n    return a\n',
      'assert pick(1, 2) == 2\nassert pick(3, 1) == 3',
      { kind: 'variable', line: 3, column: 12, before: 'a', after: 'big' },
      'def pick(a, b):\n    big = a if a > b else b\n    return big\n'],
    ['a counter that is never incremented', 'def digits(n):\n    count = 0\n    while n > 0:\n        n //= 10\n    return count\n',
      'assert digits(123) == 3\nassert digits(5) == 1\nassert digits(0) == 0',
      { kind: 'counter-increment', line: 5, column: 9, before: '', after: 'count += 1' },
      'def digits(n):\n    count = 0\n    while n > 0:\n        n //= 10\n        count += 1\n    return count\n'],
    ['a missing return of the last computed name', 'def square(x):\n    result = x * x\n',
      'assert square(3) == 9\nassert square(-2) == 4',
      { kind: 'missing-return', line: 3, column: 5, before: '', after: 'return result' },
      'def square(x):\n    result = x * x\n    return result\n'],
  ];
  for (const [name, code, examples, edit, fixed] of repairs) {
    test(`repair: ${name}`, async () => {
      const r = await execute(code, examples);
      assert.equal(r.valid, false);
      assert.ok(r.score < 1, `score ${r.score}`);
      assert.ok(codes(r).includes('python:example-mismatch'));
      assert.deepEqual(r.edits, [{ ...edit, round: 1 }]);
      assert.equal(r.fixed_code, fixed);
      assert.equal(r.repair.solved, true);
      assert.equal(r.repair.rounds, 1);
    });
  }

  // Two examples of isodd are passed by five one-token edits (`%` -> `>>`,
  // `==` -> `!=`, `==` -> `>`, `2` -> `3`, `0` -> `1`); `n >> 2 == 0` was
  // returned as "solved" with no word, and it is wrong for isodd(5).
  test('regression: a repair the examples do not pin down says which other edits pass', async () => {
    const r = await execute('def isodd(n):\n    return n % 2 == 0\n', 'assert isodd(3)\nassert not isodd(4)');
    assert.equal(r.repair.solved, true);
    assert.equal(r.fixed_code, 'def isodd(n):\n    return n >> 2 == 0\n'); /* the first in order of preference */
    assert.equal(r.repair.alternatives_total, 4);
    assert.deepEqual(r.repair.alternatives[0], [{ kind: 'comparison', line: 2, column: 18, before: '==', after: '!=', round: 1 }]);
    const d = find(r, 'python:repair-ambiguous');
    assert.equal(d.severity, 'info');
    assert.equal(d.message, '4 other edits also make every example pass (line 2, column 18: == -> !=; '
      + 'line 2, column 18: == -> >; line 2, column 16: 2 -> 3; line 2, column 21: 0 -> 1): the examples do not '
      + 'tell the fix apart from them; fixed_code holds the first in order of preference (line 2, column 14: % -> >>). '
      + 'They may be equivalent, or differ on inputs the examples lack: check the fix, or add an example that '
      + 'separates them');
    assert.equal(r.repair.ambiguous, true);
    // Examples that rule the shift out: the fix is a comparison, and what
    // still ties (`!= 0`, `> 0`, `== 1`) is equivalent on integers.
    const pinned = await execute('def isodd(n):\n    return n % 2 == 0\n',
      'assert isodd(3)\nassert not isodd(4)\nassert isodd(5)\nassert not isodd(6)\nassert isodd(1)\nassert not isodd(12)');
    assert.equal(pinned.repair.solved, true);
    assert.equal(pinned.fixed_code, 'def isodd(n):\n    return n % 2 != 0\n');
    assert.ok(!JSON.stringify(pinned.repair.alternatives).includes('>>'), JSON.stringify(pinned.repair.alternatives));
  });

  // repair_backed_by_one_example_was_solved_with_no_word (red team 4):
  // f(2) == 4 alone is met by n * 2, n + 2, n ** 2; the one single edit
  // that meets it came back solved as if it were the fix.
  test('regression: a repair resting on a single example says so, and three examples pin it', async () => {
    const r = await execute('def f(n):\n    return n * 3\n', 'assert f(2) == 4');
    assert.equal(r.fixed_code, 'def f(n):\n    return n * 2\n');
    assert.equal(r.repair.solved, true);
    assert.equal(r.repair.ambiguous, true);
    assert.equal(r.repair.alternatives, undefined);
    const d = find(r, 'python:repair-ambiguous');
    assert.equal(d.severity, 'info');
    assert.equal(d.message, 'the fix rests on a single check: one input and its output are met by many programs, '
      + 'and this edit (line 2, column 16: 3 -> 2) is only the first the search found that meets it. Add examples '
      + 'that separate the readings before taking it as the fix');
    const pinned = await execute('def f(n):\n    return n * 3\n', 'assert f(2) == 4\nassert f(5) == 10\nassert f(-1) == -2');
    assert.equal(pinned.fixed_code, 'def f(n):\n    return n * 2\n');
    assert.equal(pinned.repair.ambiguous, false);
    assert.equal(find(pinned, 'python:repair-ambiguous'), undefined);
  });

  // same_swap_at_another_place_was_hidden (red team 4): (a + 1) * (b - 1)
  // and (a - 1) * (b + 1) both meet the two examples and differ on f(3, 4);
  // the second was read as "the same edit" and not named.
  test('regression: the same token swap at another place is an alternative', async () => {
    const r = await execute('def f(a, b):\n    return (a - 1) * (b - 1)\n', 'assert f(3, 3) == 8\nassert f(0, 0) == -1');
    assert.equal(r.fixed_code, 'def f(a, b):\n    return (a + 1) * (b - 1)\n');
    assert.equal(r.repair.ambiguous, true);
    assert.equal(r.repair.alternatives_total, 1);
    assert.deepEqual(r.repair.alternatives[0], [{ kind: 'operator', line: 2, column: 25, before: '-', after: '+', round: 1 }]);
  });

  test('docstring examples count, and the repair makes them pass', async () => {
    const code = 'def double(x):\n    """\n    >>> double(2)\n    4\n    >>> double(-1)\n    -2\n    """\n    return x + 2\n';
    const r = await call({ code, mode: 'execute' });
    assert.deepEqual(r.examples, { total: 2, passed: 1, from_docstrings: 2 });
    const d = find(r, 'python:example-mismatch');
    assert.equal(d.line, 5);
    assert.equal(d.origin, 'docstring');
    assert.equal(d.expected, '-2');
    assert.equal(d.actual, '1');
    assert.equal(r.fixed_code, code.replace('x + 2', 'x * 2'));
  });

  test('all examples pass: valid, score 1, nothing to repair', async () => {
    const r = await execute('def inc(x):\n    return x + 1\n', 'assert inc(1) == 2');
    assert.equal(r.valid, true);
    assert.equal(r.score, 1);
    assert.equal(r.fixed_code, null);
    assert.deepEqual(r.edits, []);
    assert.equal(r.repair, undefined);
  });

  test('score is the fraction of checks passed: 2 of 4 examples', async () => {
    const r = await execute('def sign(x):\n    return 1 if x > 0 else -1\n',
      'assert sign(5) == 1\nassert sign(-3) == -1\nassert sign(0) == 0\nassert sign(0.0) == 0', { max_iterations: 1 });
    assert.equal(r.score, 0.5);
    assert.equal(r.valid, false);
  });

  test('an exception in an example names it and the line of the code', async () => {
    const r = await execute('def inv(x):\n    return 1 / x\n', 'assert inv(0) == 0', { max_iterations: 1 });
    const d = find(r, 'python:example-mismatch');
    assert.equal(d.outcome, 'error');
    assert.match(d.message, /ZeroDivisionError: division by zero \(line 2 of the code\)/);
    assert.equal(d.actual, 'raised ZeroDivisionError: division by zero');
  });

  test('expected_output: exact stdout, a mismatch is python:expected-output', async () => {
    const good = await call({ code: 'print("hi")\nprint(6 * 7)\n', mode: 'execute', options: { expected_output: 'hi\n42\n' } });
    assert.equal(good.valid, true);
    assert.equal(good.stdout, 'hi\n42\n');
    const bad = await call({ code: 'print("hi")\nprint(6 * 8)\n', mode: 'execute', options: { expected_output: 'hi\n42\n' } });
    assert.equal(bad.valid, false);
    const d = find(bad, 'python:expected-output');
    assert.equal(d.expected, 'hi\n42\n');
    assert.equal(d.actual, 'hi\n48\n');
    assert.match(d.message, /at line 2: expected '42', got '48'/);
    assert.equal(bad.fixed_code, 'print("hi")\nprint(6 * 7)\n');
  });

  test('static: syntax error at its line and column, nothing else runs', async () => {
    const r = await call({ code: 'def f(x):\n    return x +\n' });
    assert.equal(r.mode, 'static');
    assert.equal(r.valid, false);
    assert.equal(r.score, 0);
    assert.deepEqual(r.diagnostics.map((d) => [d.code, d.line, d.column, d.severity]),
      [['python:syntax', 2, 15, 'error']]);
    assert.equal(r.checks.find((c) => c.name === 'pyflakes').status, 'skipped');
  });

  test('static: pyflakes findings at exact positions', async () => {
    const r = await call({ code: 'import os\n\ndef f():\n    return undefined_thing\n' });
    assert.deepEqual(r.diagnostics.map((d) => [d.code, d.line, d.column, d.severity]), [
      ['python:unused-import', 1, 1, 'warning'],
      ['python:undefined-name', 4, 12, 'error'],
    ]);
    assert.equal(r.valid, false);
    assert.equal(r.fixed_code, null);
  });

  test('static: mypy runs where annotations exist', async () => {
    const r = await call({ code: 'def f(x: int) -> str:\n    return x\n' });
    const d = find(r, 'python:type/return-value');
    assert.deepEqual([d.line, d.column, d.severity], [2, 12, 'error']);
    assert.match(d.message, /Incompatible return value type \(got "int", expected "str"\)/);
    const plain = await call({ code: 'def f(x):\n    return x\n' });
    assert.equal(plain.checks.find((c) => c.name === 'mypy').status, 'skipped');
    assert.equal(plain.valid, true);
  });

  test('static: security findings (bandit) with line and column', async () => {
    const code = 'import os, pickle, subprocess\n\ndef run(cmd, data):\n    os.system("ls " + cmd)\n' +
      '    subprocess.call(cmd, shell=True)\n    value = eval(cmd)\n    return pickle.loads(data), value\n';
    const r = await call({ code });
    const sec = r.diagnostics.filter((d) => d.code.startsWith('python:security/'))
      .map((d) => [d.code, d.line, d.column]);
    for (const want of [['python:security/B605', 4, 5], ['python:security/B602', 5, 5],
      ['python:security/B307', 6, 13], ['python:security/B301', 7, 12]]) {
      assert.ok(sec.some((x) => JSON.stringify(x) === JSON.stringify(want)), `${want} in ${JSON.stringify(sec)}`);
    }
    assert.equal(find(r, 'python:security/B605').bandit_severity, 'HIGH');
  });

  // regression: static mode imported the checked code as the standard `code`
  // module (it was written to code.py beside the helpers, on sys.path).
  test('a static call provably runs nothing (the same code in execute mode does)', async (t) => {
    const path = `/var/tmp/codecalc-validate-${process.pid}.sock`;
    rmSync(path, { force: true });
    let connections = 0;
    const server = createServer((c) => { connections++; c.on('error', () => {}); c.resume(); c.on('end', () => c.end()); });
    await new Promise((res) => server.listen(path, res));
    chmodSync(path, 0o777);
    try {
      const code = `import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect(${JSON.stringify(path)})\n` +
        's.close()\n\ndef f():\n    return 1\n';
      const args = { code, options: { examples: 'assert f() == 1' } };
      // The control: executing the code reaches the listener.
      const ran = await call({ ...args, mode: 'execute' });
      assert.equal(ran.valid, true);
      await new Promise((res) => setTimeout(res, 300)); // let the accepts land
      if (connections === 0) {
        t.skip('the sandbox cannot reach a unix socket under /var/tmp on this host; no control');
        return;
      }
      const before = connections;
      assert.equal(connections, 1, 'execute mode runs the module once when every example passes');
      for (const mode of ['static', 'repair']) {
        const r = await call({ ...args, mode });
        assert.equal(r.executed, false);
        assert.equal(r.stdout, undefined);
        assert.equal(r.examples, undefined);
      }
      await new Promise((res) => setTimeout(res, 300));
      assert.equal(connections, before, 'a static or repair call ran the code');
    } finally {
      server.close();
      rmSync(path, { force: true });
    }
  });

  test('repair mode: deterministic fixes, each on its diagnostic', async () => {
    const code = 'import os\nimport json\n\ndef f(x):\n    if x == None:\n        return math.floor(2.5)\n    return json.dumps(x)\n';
    const r = await call({ code, mode: 'repair' });
    assert.equal(r.fixed_code, 'import json\nimport math\n\ndef f(x):\n    if x is None:\n        return math.floor(2.5)\n    return json.dumps(x)\n');
    assert.equal(r.valid, false);
    assert.deepEqual(find(r, 'python:unused-import').fix, { line: 1, column: 1, before: 'import os\n', after: '', applied: true });
    assert.deepEqual(find(r, 'python:compare-to-none').fix, { line: 5, column: 10, before: '==', after: 'is', applied: true });
    assert.equal(find(r, 'python:undefined-name').fix.after, 'import math\n');
    assert.equal(r.edits.length, 3);
    const st = await call({ code });
    assert.equal(st.fixed_code, null);
    assert.equal(find(st, 'python:compare-to-none').fix.applied, false);
  });

  test('optimize: folding and dead code, proved on the examples', async () => {
    const code = 'def seconds(h):\n    return h * 60 * 60\n\ndef area(r):\n    return 3 * r * (2 * 5)\n    print("never")\n';
    const r = await execute(code, 'assert area(2) == 60\nassert seconds(1) == 3600', { optimize: true });
    assert.equal(r.valid, true);
    assert.equal(r.optimized_code, 'def seconds(h):\n    return h * 60 * 60\n\ndef area(r):\n    return 3 * r * (10)\n');
    assert.deepEqual(r.optimizations.map((e) => e.kind).sort(), ['constant-folding', 'unreachable-code']);
    const st = await call({ code, options: { optimize: true } });
    assert.equal(st.optimized_code, null);
    assert.ok(find(st, 'optimize:unverified'));
  });

  test('bad input: clear validation errors', async () => {
    assertRejected(await call({ code: 'x = 1\n' + '#'.repeat(200001) }), 'validation', /code is 2000\d\d bytes; the limit is 200000/);
    assertRejected(await call({ code: '' }), 'validation', /code is empty/);
    assertRejected(await call({ code: '  \n\t' }), 'validation', /code is empty/);
    assertRejected(await call({ code: 'x=1', mode: 'run' }), 'validation', /unknown mode 'run'/);
    assertRejected(await call({ code: 'x=1', language: 'cobol' }), 'validation', /unknown language 'cobol'/);
    for (const language of ['html', 'sql', 'solidity', 'other']) {
      assertRejected(await call({ code: 'x', language }), 'validation',
        new RegExp(`language '${language}' is not handled: execute_python checks python, javascript and typescript`));
    }
    assertRejected(await call({ code: 'x=1', mode: 'execute', options: { examples: 'assert f(2) ==' } }),
      'validation', /options\.examples is not valid Python \(line 1, column 15/);
    assertRejected(await call({ code: 'x=1', options: { examples: 'x = 1' } }), 'validation', /no `assert` statement/);
    assertRejected(await call({ code: 'x=1', options: { max_iterations: 11 } }), 'validation', /max_iterations must be between 1 and 10/);
    assertRejected(await call({ code: 'x=1', options: { timeout_s: 0 } }), 'validation', /timeout_s must be more than 0/);
    assertRejected(await call({ code: 'x=1', options: { timeout_s: 61 } }), 'validation', /at most 60 seconds/);
    assertRejected(await call({ code: 'x=1', options: { colour: 1 } }), 'validation', /unknown option 'colour'/);
    assertRejected(await call({ code: 'x=1', options: { transpile_to: 'rust' } }), 'validation', /only target is 'javascript'/);
  });

  test('regression: a daemon left by the checked code held a result pipe and hung the validator', async () => {
    const code = 'import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        time.sleep(300)\n' +
      '    os._exit(0)\n\ndef f(x):\n    return x - 1\n';
    const r = await execute(code, 'assert f(1) == 2');
    assert.equal(find(r, 'python:example-mismatch').actual, '0');
    assert.equal(r.fixed_code, code.replace('x - 1', 'x + 1'));
  });

  test('regression: printing more than 256 KiB failed with "File too large"', async () => {
    const r = await call({ code: 'print("x" * 300000)\n\ndef f():\n    return 1\n', mode: 'execute',
      options: { examples: 'assert f() == 1' } });
    assert.equal(r.valid, true);
    assert.deepEqual(r.diagnostics, []);
    assert.equal(r.stdout, 'x'.repeat(65536));
  });

  test('at most 1,000 diagnostics, errors first, with a note of the rest', async () => {
    const code = Array.from({ length: 1500 }, (_, i) => `x${i} = undefined_${i}\n`).join('');
    const r = await call({ code });
    assert.equal(r.diagnostics.length, 1000);
    assert.ok(r.diagnostics.slice(0, 999).every((d) => d.code === 'python:undefined-name'));
    assert.deepEqual(r.diagnostics[999], { code: 'python:diagnostics-truncated',
      message: '501 more diagnostics are not shown', severity: 'info', line: null, column: null });
  });

  test('code that exits or kills its own process is reported, not fatal', async () => {
    const r = await execute('import os\n\ndef f(x):\n    os._exit(3)\n', 'assert f(1) == 1\nassert f(2) == 2', { max_iterations: 1 });
    assert.equal(r.valid, false);
    const d = r.diagnostics.filter((x) => x.code === 'python:example-mismatch');
    assert.equal(d[0].outcome, 'error');
    assert.match(d[0].message, /exited early \(status 3\)/);
    assert.equal(d[1].outcome, 'not_run');
  });
  test('regression: assert_in_try_or_loop_was_setup — a failing assert inside try/for/def test_ was only a warning', async () => {
    const code = 'def f(x):\n    if x < 0:\n        return 0\n    return x\n';
    const ex = "assert f(1) == 1\ntry:\n    f(-1)\n    assert False, 'no raise'\nexcept ValueError:\n    pass\n" +
      'for i in range(3):\n    assert f(i) == i + 1\ndef test_f():\n    assert f(2) == 3\n';
    const r = await execute(code, ex, { max_iterations: 1 });
    assert.equal(r.valid, false);
    assert.deepEqual(r.examples, { total: 4, passed: 1, from_docstrings: 0 });
    const d = r.diagnostics.filter((x) => x.code === 'python:example-mismatch');
    assert.deepEqual(d.map((x) => [x.outcome, x.example_line, x.actual]), [
      ['fail', 2, 'AssertionError: no raise'], ['fail', 7, 'AssertionError'], ['fail', 9, 'AssertionError']]);
    assert.match(d[0].message, /failed: an assert in it failed \(AssertionError: no raise\)$/);
    assert.equal(d[2].expression, 'test_f()');
    // an AssertionError of the code itself is an error, not a failed check
    const own = await execute('def g(x):\n    assert x > 5\n    return x\n', 'for i in [1]:\n    assert g(i) == i', { max_iterations: 1 });
    assert.equal(own.diagnostics.find((x) => x.code === 'python:example-mismatch').outcome, 'error');
    // with pytest.raises is a check too: a missing pytest fails it, never a silent pass
    const pt = await execute('def f(x):\n    return x\n', 'assert f(1) == 1\nwith pytest.raises(ValueError):\n    f(-1)', { max_iterations: 1 });
    assert.equal(pt.valid, false);
    assert.deepEqual(pt.examples, { total: 2, passed: 1, from_docstrings: 0 });
    const ok = await execute('def f(x):\n    if x < 0:\n        raise ValueError(x)\n    return x\n',
      "try:\n    f(-1)\n    assert False\nexcept ValueError:\n    pass\nfor i in range(3):\n    assert f(i) == i");
    assert.equal(ok.valid, true);
    assert.deepEqual(ok.examples, { total: 2, passed: 2, from_docstrings: 0 });
  });

  test('regression: always_true_assert_passed — assert (f(2), 5) checked nothing and came back valid', async () => {
    for (const ex of ['assert (f(2), 5)', 'assert f(2) == 4\nassert "f(2) == 5"', 'assert [f(2) == 5]']) {
      assertRejected(await call({ code: 'def f(x):\n    return x * 2\n', mode: 'execute', options: { examples: ex } }),
        'validation', /is always true .*checks nothing/);
    }
  });

  test('regression: main_guard_ran_before_examples — input() under __main__ stopped every example; the "fix" flipped the guard', async () => {
    const code = "def solve(n):\n    return n * 2\n\nif __name__ == '__main__':\n    print(solve(int(input())))\n";
    const r = await execute(code, 'assert solve(2) == 4\nassert solve(3) == 6');
    assert.equal(r.valid, true);
    assert.deepEqual(r.examples, { total: 2, passed: 2, from_docstrings: 0 });
    assert.equal(r.fixed_code, null);
    const bad = await execute(code.replace('n * 2', 'n * 3'), 'assert solve(2) == 4\nassert solve(3) == 6');
    assert.equal(bad.fixed_code, code);
    // expected_output judges the script's own run: __main__ is kept there
    const s = await call({ code: "print('a')\nif __name__ == '__main__':\n    print('b')\n", mode: 'execute',
      options: { expected_output: 'a\nb\n' } });
    assert.equal(s.valid, true);
  });
  test('regression: swallowed_timeout_passed — code catching the timer signal returned a value judged in time', async () => {
    const code = 'def f(n):\n    try:\n        while True:\n            pass\n    except BaseException:\n        return 42\n';
    const r = await execute(code, 'assert f(1) == 42', { timeout_s: 0.3, max_iterations: 1 });
    assert.equal(r.valid, false);
    assert.deepEqual(r.examples, { total: 1, passed: 0, from_docstrings: 0 });
    const d = r.diagnostics.find((x) => x.code === 'python:example-mismatch');
    assert.equal(d.outcome, 'timeout');
    const fin = await execute('def g():\n    try:\n        while True:\n            pass\n    finally:\n        return 7\n',
      '>>> g()\n7', { timeout_s: 0.3, max_iterations: 1 });
    assert.equal(fin.valid, false);
    assert.equal(fin.diagnostics.find((x) => x.code === 'python:example-mismatch').outcome, 'timeout');
  });
  test('regression: doctest_output_without_newline_failed — "expected 4, got 4" for sys.stdout.write(\'4\')', async () => {
    const r = await execute("import sys\n\ndef f():\n    sys.stdout.write('4')\n", '>>> f()\n4\n>>> f()\n5', { max_iterations: 1 });
    assert.deepEqual(r.examples, { total: 2, passed: 1, from_docstrings: 0 });
    const d = r.diagnostics.filter((x) => x.code === 'python:example-mismatch');
    assert.equal(d.length, 1);
    assert.equal(d[0].message, '>>> f() failed: expected 5, got 4');
  });
  test('regression: deep_recursion_passed — f(2500) passed under a 3000 limit and raises RecursionError under python3', async () => {
    const code = 'def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\n';
    const r = await execute(code, 'assert f(998) == 998\nassert f(999) == 999\nassert f(2500) == 2500', { max_iterations: 1 });
    assert.equal(r.valid, false);
    assert.deepEqual(r.examples, { total: 3, passed: 1, from_docstrings: 0 });
    const d = r.diagnostics.filter((x) => x.code === 'python:example-mismatch');
    assert.deepEqual(d.map((x) => [x.example_line, x.outcome, x.actual]), [
      [2, 'error', 'raised RecursionError: maximum recursion depth exceeded'],
      [3, 'error', 'raised RecursionError: maximum recursion depth exceeded']]);
    // code that raises its own limit keeps it for every example
    const own = await execute('import sys\nsys.setrecursionlimit(10000)\n' + code, 'assert f(2500) == 2500\nassert f(5000) == 5000', { max_iterations: 1 });
    assert.equal(own.valid, true);
  });
  test('regression: uncalled_function_assert_passed — assert is_even (call forgotten) was a pass', async () => {
    const r = await execute('def is_even(n):\n    return n % 2 == 1\n', 'assert is_even\nassert is_even(4) is False', { max_iterations: 1 });
    assert.equal(r.valid, false);
    assert.deepEqual(r.examples, { total: 2, passed: 1, from_docstrings: 0 });
    const d = r.diagnostics.find((x) => x.code === 'python:example-mismatch');
    assert.equal(d.outcome, 'error');
    assert.match(d.message, /^assert is_even failed: the test is <function is_even at 0x[0-9a-f]+> itself, which is always true: call it \(`assert is_even\(\.\.\.\)`\)$/);
  });
});
