// The symbolic tools through the official SDK, which validates every result
// against the tool's outputSchema: the issue-12 contract (docs/contract.md)
// of algebraic_equiv, solve_expression, limit_expression and friends.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, assertRejected, SKIP_NO_BINARY } from './harness.mjs';

describe('symbolic tools (issue 12)', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });

  test('log(x*y) = log(x) + log(y) is not an identity over C', async () => {
    const r = await s.call('algebraic_equiv', { a: 'log(x*y)', b: 'log(x) + log(y)' });
    assert.equal(r.identical, false);
    assert.equal(r.numerically_equal, false);
    assert.equal(r.counterexample.point, 'x = -1, y = -1');
    assert.equal(r.holds_for, 'x > 0, y > 0');
    assert.ok(r.caveat);
  });

  test('assume makes it an identity', async () => {
    const r = await s.call('algebraic_equiv',
      { a: 'log(x*y)', b: 'log(x) + log(y)', assume: { x: 'positive', y: 'positive' } });
    assert.equal(r.identical, true);
    assert.equal(r.caveat, null);
  });

  test('an unknown domain is refused', async () => {
    assertRejected(await s.call('algebraic_equiv', { a: 'x', b: 'x', assume: { x: 'sideways' } }),
      'validation');
  });

  test('exp(I*x) = cos(x) + I*sin(x) is decided', async () => {
    const r = await s.call('algebraic_equiv', { a: 'exp(I*x)', b: 'cos(x) + I*sin(x)' });
    assert.equal(r.identical, true);
    assert.equal(r.numerically_equal, true);
  });

  test('limit reports both sides', async () => {
    const r = await s.call('limit_expression', { expr: 'Abs(x)/x', var: 'x', point: '0' });
    assert.equal(r.limit, '1');
    assert.equal(r.direction, '+');
    assert.equal(r.left, '-1');
    assert.equal(r.two_sided, 'does not exist');
    const t = await s.call('limit_expression', { expr: 'sin(x)/x', var: 'x', point: '0', direction: '+-' });
    assert.equal(t.limit, '1');
  });

  test('solve: periodic family and exact roots', async () => {
    const r = await s.call('solve_expression', { expr: 'sin(x) = 0' });
    assert.deepEqual(r.solutions, ['0', 'pi']);
    assert.deepEqual(r.general_solution, ['pi*k']);
    const w = await s.call('solve_expression', { expr: 'x*exp(x) = 1' });
    assert.deepEqual(w.solutions, ['LambertW(1)']);
  });

  test('simplify finishes trig and exponential identities', async () => {
    assert.equal((await s.call('simplify_expression', { expr: 'cosh(x)**2 - sinh(x)**2' })).simplified, '1');
    assert.equal((await s.call('simplify_expression', { expr: '2*tan(x)/(tan(x)**2 + 1)' })).simplified, 'sin(2*x)');
    assert.equal((await s.call('simplify_expression', { expr: 'exp(x)*exp(y)' })).simplified, 'exp(x + y)');
  });

  test('evaluate: N keeps its digits, symbolic towers, double integrals', async () => {
    assert.equal((await s.call('evaluate_expression', { expression: 'N(pi, 50)' })).expression,
      '3.1415926535897932384626433832795028841971693993751');
    assert.equal((await s.call('evaluate_expression', { expression: 'x**y**z' })).ok, true);
    assertRejected(await s.call('evaluate_expression', { expression: '9**9**9**9 - x' }), 'resource_exhausted');
    assert.equal((await s.call('evaluate_expression',
      { expression: 'integrate(x*y, (x, 0, 1), (y, 0, 2))' })).expression, '1');
  });
});
