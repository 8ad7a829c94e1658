// analyze_complexity (TOOLS.md 3.5.1) through the MCP SDK client: the spec's
// examples, tree-sitter against the regex fallback as the result shows it,
// the refinement fields, the bundled grammars, and the worker's walls
// (the same address-space limit and seccomp filter as the calc workers).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import {
  startServer, RawServer, SKIP_NO_BINARY, BIN, childrenOf, waitFor,
} from '../mcp/harness.mjs';

const ANALYSIS_BIN = join(dirname(BIN), 'codecalc-analysis');

describe('analyze_complexity over MCP', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });
  const analyze = (code, language) => s.call('analyze_complexity', language ? { code, language } : { code });

  test('3.5.1 example: two nested loops are O(n^2)', async () => {
    const r = await analyze('for i in range(n):\n    for j in range(n):\n        pass');
    assert.equal(r.ok, true);
    assert.equal(r.estimate, 'O(n^2)');
    assert.equal(r.basis, '2 nested loop levels (2 loop constructs)');
    assert.equal(r.method, 'static-estimate');
    assert.equal(r.analysis, 'tree-sitter');
    assert.equal(r.grammar, 'python');
    assert.equal(r.loops, 2);
    assert.equal(r.max_nesting, 2);
    assert.equal(r.recursion, false);
    assert.deepEqual(r.functions, []);
    assert.deepEqual(r.notes, []);
    assert.equal(r.refined_estimate, 'O(n^2)');
    assert.deepEqual(r.refinements, []);
  });

  test('3.5.1 example: recursion is O(2^n)', async () => {
    const r = await analyze('def f(n):\n    return f(n-1)+f(n-2)');
    assert.equal(r.estimate, 'O(2^n) — recursion detected');
    assert.equal(r.basis, "recursive function 'f'");
    assert.equal(r.recursion, true);
    assert.deepEqual(r.functions, ['f']);
  });

  test('3.5.1 example: a sort with no loops is O(n log n) with the sort note', async () => {
    const r = await analyze('x = sorted(a)');
    assert.equal(r.estimate, 'O(n log n)');
    assert.ok(r.notes.includes('sort/builtin detected (O(n log n) worst case)'), JSON.stringify(r.notes));
  });

  test('3.5.1 example: x = 1 is O(1)', async () => {
    const r = await analyze('x = 1');
    assert.equal(r.estimate, 'O(1)');
    assert.deepEqual(r.notes, ['constant-time surface; may hide loops in library calls']);
  });

  test('tree-sitter or the regex fallback: analysis and grammar say which', async () => {
    const tree = await analyze('function f(a) { for (const x of a) { a.forEach(g) } }', 'node');
    assert.equal(tree.analysis, 'tree-sitter');
    assert.equal(tree.grammar, 'javascript');
    assert.equal(tree.loops, 1); // forEach is a call to the parser, not a loop
    const regex = await analyze('function f(a) { for (const x of a) { a.forEach(g) } }', 'fortran');
    assert.equal(regex.analysis, 'regex-fallback');
    assert.equal(regex.grammar, null);
    assert.equal(regex.loops, 1); // one line: the stack counts it once
    assert.ok(regex.notes.includes("structural heuristic only (no tree-sitter grammar for 'fortran')"));
    // A language the registry knows whose grammar is not bundled (docs/analysis.md).
    const swift = await analyze('for i in 0..<n { }', 'swift');
    assert.equal(swift.analysis, 'regex-fallback');
    assert.ok(swift.notes.includes("structural heuristic only (no tree-sitter grammar for 'swift')"));
  });

  test('languages by their grammars: the mapping of 3.5.1', async () => {
    const cases = [
      ['c++', 'cpp', 'int f(int n) { for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) {} return 0; }', 2],
      ['go', 'go', 'func f(a []int) { for _, x := range a { for i := 0; i < x; i++ {} } }', 2],
      ['rust', 'rust', 'fn f(v: &[u8]) { for a in v { for b in v { for c in v {} } } }', 3],
      ['java', 'java', 'class A { void f(int[] a) { for (int x : a) { while (x > 0) x--; } } }', 2],
      ['ruby', 'ruby', 'def f(a)\n  while a > 0\n    a -= 1\n  end\nend\n', 1],
      ['typescript', 'typescript', 'function f(a: number[]): void { for (const x of a) {} }', 1],
      ['zsh', 'bash', 'for x in a b; do while true; do break; done; done', 2],
    ];
    for (const [language, grammar, code, nesting] of cases) {
      const r = await analyze(code, language);
      assert.equal(r.grammar, grammar, language);
      assert.equal(r.analysis, 'tree-sitter', language);
      assert.equal(r.max_nesting, nesting, `${language}: ${JSON.stringify(r)}`);
    }
  });

  test('refinements: a constant-bound loop is no factor of n; the spec estimate stays', async () => {
    const r = await analyze('for i in range(10):\n    for x in xs:\n        total += x\n');
    assert.equal(r.estimate, 'O(n^2)');
    assert.equal(r.refined_estimate, 'O(n)');
    assert.equal(r.refinements.length, 1);
    assert.equal(r.refinements[0].rule, 'constant_bound_loop');
    assert.equal(r.refinements[0].line, 1);
    assert.match(r.refinements[0].note, /fixed number of times/);
  });

  test('refinements: a linear call inside a loop raises the estimate', async () => {
    const r = await analyze('out = []\nfor w in words:\n    if w not in out:\n        out.append(w)\n');
    assert.equal(r.estimate, 'O(n) — with sort: O(n log n)');
    assert.equal(r.refined_estimate, 'O(n^2)');
    assert.equal(r.refinements[0].rule, 'linear_membership');
    assert.equal(r.refinements[0].line, 3);
  });

  test('a syntax error keeps the tree reading and says the parse is partial', async () => {
    const r = await analyze('def f(:\n    for x in y:\n        pass\n');
    assert.equal(r.analysis, 'tree-sitter');
    assert.ok(r.notes.includes('source has syntax errors; the parse is partial'));
  });

  test('code must be a string (schema refusal, value not echoed)', async () => {
    const res = await s.callRaw('analyze_complexity', { code: { secret: 'hunter2' } });
    assert.equal(res.isError, true);
    assert.ok(!res.content[0].text.includes('hunter2'));
  });
});

describe('bundled grammars (codecalc-analysis --grammars)', { skip: SKIP_NO_BINARY }, () => {
  test('every grammar of scripts/grammars.lock is built in and loads; none is missing', () => {
    const out = spawnSync(ANALYSIS_BIN, ['--grammars'], { encoding: 'utf8' });
    assert.equal(out.status, 0, out.stderr);
    const rep = JSON.parse(out.stdout);
    const lock = readFileSync(join(dirname(BIN), '..', '..', 'scripts', 'grammars.lock'), 'utf8')
      .split('\n').filter((l) => l.trim() && !l.startsWith('#')).map((l) => l.split(/\s+/));
    assert.equal(rep.core, lock.find((l) => l[0] === 'core')[1]);
    assert.deepEqual(rep.abi_range, [13, 15]);
    assert.deepEqual(rep.missing, []);
    const names = rep.grammars.map((g) => g.name).sort();
    assert.deepEqual(names, lock.filter((l) => l[0] !== 'core').map((l) => l[0]).sort());
    for (const g of rep.grammars) {
      assert.equal(g.loads, true, g.name);
      assert.ok(g.abi >= 13 && g.abi <= 15, `${g.name} ABI ${g.abi}`);
      assert.equal(g.package, lock.find((l) => l[0] === g.name)[1]);
    }
    for (const needed of ['python', 'javascript', 'typescript', 'c', 'cpp', 'go', 'rust', 'java', 'ruby', 'bash']) {
      assert.ok(names.includes(needed), needed);
    }
  });
});

describe('the analysis worker is walled like the calc workers', { skip: SKIP_NO_BINARY }, () => {
  let raw;
  before(async () => { raw = new RawServer(); await raw.initialize(); });
  after(async () => { await raw?.close(); });

  test('seccomp filter on, 2 GiB address space, its own pool started on demand', async () => {
    const before = childrenOf(raw.pid).filter((c) => c.comm === 'codecalc-analys');
    assert.equal(before.length, 0, 'the analysis pool starts no worker up front');
    const r = await raw.callTool('analyze_complexity', '{"code":"for x in y:\\n    pass"}', { timeoutMs: 30000 });
    assert.equal(r.sc.estimate, 'O(n) — with sort: O(n log n)');
    const w = await waitFor(() => childrenOf(raw.pid).find((c) => c.comm === 'codecalc-analys' && c.state !== 'Z'));
    assert.ok(w, 'no analysis worker');
    const status = readFileSync(`/proc/${w.pid}/status`, 'utf8');
    assert.match(status, /^Seccomp:\s+2$/m);
    assert.match(status, /^NoNewPrivs:\s+1$/m);
    const limits = readFileSync(`/proc/${w.pid}/limits`, 'utf8');
    const as = limits.split('\n').find((l) => l.startsWith('Max address space'));
    assert.match(as, /\s2147483648\s+2147483648\s/);
  });
});

describe('CODECALC_TOOLS=analysis', { skip: SKIP_NO_BINARY }, () => {
  test('registers exactly the three analysis tools of TOOLS.md 0.4', async () => {
    const s = await startServer({ env: { CODECALC_TOOLS: 'analysis' } });
    try {
      assert.deepEqual([...s.tools.keys()].sort(), ['analyze_complexity', 'benchmark', 'extract_function']);
      assert.deepEqual(s.tools.get('analyze_complexity').annotations, { readOnlyHint: true });
      const r = await s.call('analyze_complexity', { code: 'while True:\n    pass', language: 'python3' });
      assert.equal(r.loops, 1);
    } finally { await s.close(); }
  });
});
