// extract_function (TOOLS.md 3.5.3) through the MCP SDK client: the spec's
// examples, the python3 dependency closure (by Python's ast, inside the
// sandbox), the brace reading of the other languages, runs per input, and
// python3, node, go, rust and c end to end.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, assertRejected, SKIP_NO_BINARY } from '../mcp/harness.mjs';

const LONG = { timeout: 300000 };
const WARNING = 'pass `call` (a valid expression in the target language) to execute; only extraction done';

const PY = [
  'import math',
  'from functools import reduce',
  'LIMIT = 10',
  '',
  'def helper(x):',
  '    return x * 2',
  '',
  'def unused():',
  '    return 0',
  '',
  'def f(n):',
  '    return helper(n) + square(1)',
  '',
  'def square(y):',
  '    return y * y',
  '',
  'print(f(LIMIT))',
].join('\n');

describe('extract_function over MCP', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });
  const extract = (args) => s.call('extract_function', args, LONG);
  let langs;
  /** Skip t (returning true) unless the language's toolchain is installed here. */
  const skipUnless = async (t, name) => {
    langs ??= JSON.parse((await s.client.callTool({ name: 'list_languages', arguments: {} })).content[0].text);
    if (langs.some((l) => l.name === name && l.available)) return false;
    t.skip(`${name} is not installed on this host`);
    return true;
  };

  test('3.5.3 example: python3 f calling helper, on input "3"', async () => {
    const r = await extract({ code: PY, language: 'python3', function_name: 'f', test_inputs: ['3'] });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.language, 'python3');
    assert.equal(r.function, 'f');
    assert.equal(r.signature, 'n');
    const p = r.extracted_program;
    // imports, then the helpers f needs in source order, then f, then the runner
    const at = (t) => p.indexOf(t);
    assert.ok(at('import math') === 0, p);
    assert.ok(at('from functools import reduce') > 0);
    assert.ok(at('def helper(x):') > at('from functools import reduce'));
    assert.ok(at('def f(n):') > at('def helper(x):'));
    assert.ok(at('def square(y):') > at('def helper(x):') && at('def square(y):') < at('def f(n):'));
    assert.ok(at('def unused') < 0, 'a function f does not reach is left out');
    assert.ok(at('LIMIT = 10') < 0 && at('print(f(LIMIT))') < 0, 'module-level code is not carried over');
    assert.equal(r.runs.length, 1);
    assert.deepEqual(r.runs[0], { input: '3', ok: true, stdout: '7\n', stderr: '', verdict: 'OK' });
    assert.equal(r.passed, true);
  });

  test('3.5.3 example: call is evaluated instead of f(*args)', async () => {
    const code = 'import sys\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n';
    const r = await extract({
      code, language: 'python3', function_name: 'fib', call: 'fib(int(sys.stdin.readline()))',
      test_inputs: ['10', '20'],
    });
    assert.deepEqual(r.runs.map((x) => x.stdout), ['55\n', '6765\n']);
    assert.equal(r.passed, true);
    assert.match(r.extracted_program, /print\(fib\(int\(sys\.stdin\.readline\(\)\)\)\)/);
  });

  test('3.5.3 example: a Go function without call is extracted only, with the warning', async () => {
    const code = 'package main\n\nimport "fmt"\n\nfunc add(a, b int) int {\n\treturn a + b\n}\n\n' +
      'func main() {\n\tfmt.Println(add(1, 2))\n}\n';
    const r = await extract({ code, language: 'go', function_name: 'add' });
    assert.equal(r.ok, true);
    assert.equal(r.warning, WARNING);
    assert.equal(r.signature, 'func add(a, b int) int {');
    assert.equal(r.extracted_program, 'package main\nimport "fmt"\nfunc add(a, b int) int {\n\treturn a + b\n}\n');
    assert.equal(r.runs, undefined);
    assert.equal(r.passed, undefined);
  });

  test('python3: tokens become int, float or str; the seven default inputs', async () => {
    const code = 'def kinds(*a):\n    return [type(x).__name__ for x in a]\n';
    const r = await extract({ code, language: 'python3', function_name: 'kinds', test_inputs: ['1 2.5 x'] });
    assert.equal(r.runs[0].stdout, "['int', 'float', 'str']\n");
    assert.equal(r.signature, '*a');
    const seen = [];
    const d = await s.call('extract_function', { code: 'def one(*a):\n    return len(a)\n', language: 'python3',
      function_name: 'one' }, { ...LONG, onprogress: (p) => seen.push(p) });
    // One progress notification per run, counted 1, 2, ... of the seven
    // runs. The SDK hands notifications on a microtask but settles the
    // answer at once, so those that arrive in the same read as the answer
    // (runs finishing in the server's last loop turn) are dropped: how many
    // reach the test depends on timing, their numbering does not.
    assert.ok(seen.length >= 1 && seen.every((p) => p.total === 7), JSON.stringify(seen));
    assert.deepEqual(seen.map((p) => p.progress), seen.map((_, i) => i + 1), JSON.stringify(seen));
    assert.ok(seen.every((p) => /^input [1-7]\/7 "/.test(p.message)), JSON.stringify(seen));
    assert.deepEqual(d.runs.map((x) => x.input), ['', '0', '1', '-1', '10', '100', '0.1\n0.2']);
    assert.deepEqual(d.runs.map((x) => x.stdout), ['0\n', '1\n', '1\n', '1\n', '1\n', '1\n', '2\n']);
    assert.equal(d.passed, true);
  });

  test('python3: a run that fails makes passed false; runs keep their own verdicts', async () => {
    const code = 'def inv(x):\n    return 1 / x\n';
    const r = await extract({ code, language: 'python3', function_name: 'inv', test_inputs: ['4', '0'] });
    assert.equal(r.runs[0].stdout, '0.25\n');
    assert.equal(r.runs[1].ok, false);
    assert.equal(r.runs[1].verdict, 'RTE');
    assert.match(r.runs[1].stderr, /^Traceback \(most recent call last\):/);
    assert.ok(r.runs[1].stderr.length <= 200);
    assert.equal(r.passed, false);
  });

  test('refusals: parse error, function not found, unknown language', async () => {
    assertRejected(await extract({ code: 'def f(:\n', language: 'python3', function_name: 'f' }),
      'validation', /^parse error: /);
    assertRejected(await extract({ code: 'def g():\n    pass\n', language: 'python3', function_name: 'f' }),
      'validation', "function 'f' not found");
    assertRejected(await extract({ code: 'int g() { return 1; }', language: 'c', function_name: 'f' }),
      'validation', "function 'f' not found");
    assertRejected(await extract({ code: 'x', language: 'cobol', function_name: 'f' }),
      'validation', /^unknown language 'cobol'\. Available: /);
    assertRejected(await extract({ code: 'def f(): pass', language: 'python3', function_name: '' }),
      'validation', 'function_name must not be empty');
    assertRejected(await extract({ code: 'def f(): pass', language: 'python3', function_name: 'f',
      test_inputs: Array.from({ length: 65 }, (_, i) => String(i)) }), 'validation',
    'test_inputs has 65 entries; at most 64 are run in one call');
  });

  test('the extractor runs in the sandbox: hostile code is parsed, never run', async () => {
    const code = 'import os\nos.system("touch /tmp/codecalc-extract-pwned")\ndef f():\n    return 1\n';
    const r = await extract({ code, language: 'python3', function_name: 'f', test_inputs: [''] });
    assert.equal(r.runs[0].stdout, '1\n');
    assert.ok(!r.extracted_program.includes('os.system'));
  });

  test('node: the function and an appended call', async () => {
    const code = 'function twice(n) {\n  return 2 * n;\n}\n\nconsole.log(twice(4));\n';
    const r = await extract({
      code, language: 'node', function_name: 'twice',
      call: 'console.log(twice(Number(require("fs").readFileSync(0, "utf8"))))', test_inputs: ['21', '5'],
    });
    assert.deepEqual(r.runs.map((x) => x.stdout), ['42\n', '10\n']);
    assert.equal(r.signature, 'function twice(n) {');
    assert.equal(r.passed, true);
  });

  test('go: package and import block carried, main given as call', async (t) => {
    if (await skipUnless(t, 'go')) return;
    const code = 'package main\n\nimport (\n\t"fmt"\n)\n\nfunc add(a, b int) int {\n\treturn a + b\n}\n\n' +
      'func main() {\n\tfmt.Println(add(1, 2))\n}\n';
    const r = await extract({
      code, language: 'go', function_name: 'add',
      call: 'func main() { var a, b int; fmt.Scan(&a, &b); fmt.Println(add(a, b)) }', test_inputs: ['1 2', '3 4', '10 20'],
    });
    assert.equal(r.passed, true, JSON.stringify(r.runs));
    assert.deepEqual(r.runs.map((x) => x.stdout), ['3\n', '7\n', '30\n']);
  });

  test('rust: use lines carried, main given as call', async (t) => {
    if (await skipUnless(t, 'rust')) return;
    const code = 'use std::io::Read;\n\nfn square(x: i64) -> i64 {\n    x * x\n}\n\nfn main() {\n    println!("{}", square(3));\n}\n';
    const r = await extract({
      code, language: 'rust', function_name: 'square',
      call: 'fn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); ' +
        'println!("{}", square(s.trim().parse().unwrap())); }',
      test_inputs: ['3', '12'],
    });
    assert.equal(r.passed, true, JSON.stringify(r.runs));
    assert.deepEqual(r.runs.map((x) => x.stdout), ['9\n', '144\n']);
    assert.ok(r.extracted_program.startsWith('use std::io::Read;\nfn square(x: i64) -> i64 {'));
  });

  test('c: #include lines carried, main given as call', async () => {
    const code = '#include <stdio.h>\n\nint cube(int x) {\n    return x * x * x;\n}\n\nint main(void) {\n' +
      '    printf("%d\\n", cube(2));\n    return 0;\n}\n';
    const r = await extract({
      code, language: 'c', function_name: 'cube',
      call: 'int main(void) { int x; if (scanf("%d", &x) != 1) return 1; printf("%d\\n", cube(x)); return 0; }',
      test_inputs: ['2', '5', '-3'],
    });
    assert.equal(r.passed, true, JSON.stringify(r.runs));
    assert.deepEqual(r.runs.map((x) => x.stdout), ['8\n', '125\n', '-27\n']);
    assert.equal(r.signature, 'int cube(int x) {');
  });
});
