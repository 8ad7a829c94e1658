// calc_exact and compare_threshold (TOOLS.md 3.3.1, 3.3.2): the examples of
// the spec are the vectors.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, assertRejected, SKIP_NO_BINARY } from './harness.mjs';

describe('calc_exact', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });

  test('0.1+0.2 == 0.3 is exactly true', async () => {
    const r = await s.call('calc_exact', { expr: '0.1+0.2 == 0.3' });
    assert.equal(r.ok, true);
    assert.equal(r.value, true);
    assert.equal(r.type, 'bool');
    assert.equal(r.approx, undefined);
  });

  test('a false comparison', async () => {
    const r = await s.call('calc_exact', { expr: '1/3 > 0.5' });
    assert.equal(r.value, false);
    assert.equal(r.type, 'bool');
  });

  // Regression: comparisons of binary64 approximations were answered as the
  // doubles compare. Through the SDK, which validates the null value
  // against the tool's outputSchema.
  test('a comparison of approximations is decided on the true values, or null', async () => {
    const near = await s.call('calc_exact', { expr: 'sqrt(2) == 1.4142135623730951' });
    assert.equal(near.value, false);
    assert.equal(near.binary64_value, true);
    const identity = await s.call('calc_exact', { expr: 'sqrt(2)**2 == 2' });
    assert.equal(identity.value, null);
    assert.equal(identity.binary64_value, false);
    assert.match(identity.note, /^undecided: /);
    const big = await s.call('calc_exact', { expr: 'exp(50)' });
    assert.equal(big.exact, false);
    assert.deepEqual(big.approximated, ['exp']);
    const held = await s.call('compare_threshold', { a: 'sqrt(2)**2', op: '==', b: '2' });
    assert.equal(held.holds, null);
    assert.equal(held.difference, null);
  });

  test('2**64 - 1 keeps every digit', async () => {
    const r = await s.call('calc_exact', { expr: '2**64 - 1' });
    assert.equal(r.ok, true);
    assert.equal(r.value, '18446744073709551615');
    assert.equal(r.approx, '18446744073709551615');
    assert.equal(r.exact, true);
    assert.equal(r.differs_from_decimal, false);
    assert.equal(r.type, 'rational');
    assert.equal(r.approximated, undefined);
    assert.equal(r.note, undefined);
  });

  test('integer functions and bit operators', async () => {
    assert.equal((await s.call('calc_exact', { expr: 'comb(52,5)' })).value, '2598960');
    assert.equal((await s.call('calc_exact', { expr: '0xff & 0x0f' })).value, '15');
    assert.equal((await s.call('calc_exact', { expr: '1 << 20' })).value, '1048576');
  });

  test('sqrt(2) is the exact rational of a binary64 and says so', async () => {
    const r = await s.call('calc_exact', { expr: 'sqrt(2)' });
    assert.equal(r.value, '14142135623730951/10000000000000000');
    assert.equal(r.approx, '1.414213562373');
    assert.equal(r.exact, false);
    assert.equal(r.differs_from_decimal, true);
    assert.deepEqual(r.approximated, ['sqrt']);
    assert.match(r.note, /^sqrt has no exact rational form/);
    assert.match(r.note, /NOT exact/);
  });

  test('sqrt(144) is an exact integer', async () => {
    const r = await s.call('calc_exact', { expr: 'sqrt(144)' });
    assert.equal(r.value, '12');
    assert.equal(r.exact, true);
    assert.equal(r.approximated, undefined);
  });

  test('abs(-1/3) is exact 1/3 with a 12-digit approx', async () => {
    const r = await s.call('calc_exact', { expr: 'abs(-1/3)' });
    assert.equal(r.value, '1/3');
    assert.equal(r.approx, '0.333333333333');
    assert.equal(r.exact, true);
    assert.equal(r.differs_from_decimal, true);
  });

  test('pi marks the result approximated with the constant note', async () => {
    const r = await s.call('calc_exact', { expr: 'pi' });
    assert.equal(r.value, '884279719003555/281474976710656');
    assert.equal(r.approx, '3.14159265359');
    assert.equal(r.exact, false);
    assert.deepEqual(r.approximated, ['pi']);
    assert.match(r.note, /^pi is irrational/);
  });

  test('modulo follows the divisor, floor division floors, ~ truncates', async () => {
    assert.equal((await s.call('calc_exact', { expr: '-7 % 3' })).value, '2');
    assert.equal((await s.call('calc_exact', { expr: '7.5 % 2' })).value, '3/2');
    assert.equal((await s.call('calc_exact', { expr: '-7 // 2' })).value, '-4');
    assert.equal((await s.call('calc_exact', { expr: '~(1/2)' })).value, '-1');
    assert.equal((await s.call('calc_exact', { expr: '1_000 + 0o17 + 0b101' })).value, '1020');
  });

  // docs/contract.md amends TOOLS.md 3.3.1: a literal is the decimal it spells
  test('a decimal literal longer than binary64 is read exactly, not rounded to a double', async () => {
    assert.equal((await s.call('calc_exact', { expr: '0.1000000000000000000001 - 0.1' })).value, '1/10000000000000000000000');
  });

  test('1/0 is a validation failure', async () => {
    assertRejected(await s.call('calc_exact', { expr: '1/0' }), 'validation', 'division by zero');
  });

  test('factorial(100000) is refused before evaluation', async () => {
    assertRejected(await s.call('calc_exact', { expr: 'factorial(100000)' }), 'resource_exhausted', /1463/);
  });

  test('9**9**9 is refused: exponent 387420489', async () => {
    assertRejected(await s.call('calc_exact', { expr: '9**9**9' }), 'resource_exhausted', /387420489/);
  });

  test('a result over 4300 digits is refused', async () => {
    assertRejected(await s.call('calc_exact', { expr: '10**4300' }), 'resource_exhausted', 'result too large to format');
  });

  test('unknown names, chained comparisons and BoolOps are validation errors', async () => {
    assertRejected(await s.call('calc_exact', { expr: 'foo + 1' }), 'validation', "unknown name 'foo'");
    assertRejected(await s.call('calc_exact', { expr: '1 < 2 < 3' }), 'validation', 'chained comparisons not supported');
    assertRejected(await s.call('calc_exact', { expr: '1 and 2' }), 'validation', 'unsupported syntax: BoolOp');
  });

  test('bitwise on a fraction names the operand', async () => {
    assertRejected(await s.call('calc_exact', { expr: '1/2 & 1' }), 'validation', /^bitwise & needs integers; left operand is/);
  });

  test('length cap, string literal and attribute access', async () => {
    assertRejected(await s.call('calc_exact', { expr: '1+'.repeat(1000) + '1' }), 'resource_exhausted',
      'expression too long (max 2000 chars)');
    assertRejected(await s.call('calc_exact', { expr: "'a'" }), 'permission_denied');
    assertRejected(await s.call('calc_exact', { expr: '__import__' }), 'permission_denied', /leading underscores/);
  });
});

describe('compare_threshold', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });

  test('1/25 > 0.05 fails with the shortfall', async () => {
    const r = await s.call('compare_threshold', { a: '1/25', op: '>', b: '0.05' });
    assert.equal(r.ok, true);
    assert.equal(r.a, '1/25');
    assert.equal(r.b, '1/20');
    assert.equal(r.op, '>');
    assert.equal(r.holds, false);
    assert.equal(r.difference, '-1/100');
    assert.equal(r.shortfall, '1/100');
  });

  test('6 >= 6 holds with a null shortfall', async () => {
    const r = await s.call('compare_threshold', { a: '6', op: '>=', b: '6' });
    assert.equal(r.holds, true);
    assert.equal(r.difference, '0');
    assert.equal(r.shortfall, null);
  });

  test('= is accepted and echoed', async () => {
    const r = await s.call('compare_threshold', { a: '0.1+0.2', op: '=', b: '0.3' });
    assert.equal(r.a, '3/10');
    assert.equal(r.b, '3/10');
    assert.equal(r.op, '=');
    assert.equal(r.holds, true);
  });

  test('a failed < has a negative shortfall', async () => {
    const r = await s.call('compare_threshold', { a: '3', op: '<', b: '2' });
    assert.equal(r.holds, false);
    assert.equal(r.shortfall, '-1');
  });

  test('a bad operator is validation', async () => {
    assertRejected(await s.call('compare_threshold', { a: '1', op: '~=', b: '2' }), 'validation',
      "bad operator '~='; use ==, !=, >, >=, <, <=");
  });

  test('a boolean side is refused', async () => {
    assertRejected(await s.call('compare_threshold', { a: '1 == 1', op: '==', b: '1' }), 'validation',
      'operands must be numeric');
  });

  test('a failing side names both sides with the first code', async () => {
    assertRejected(await s.call('compare_threshold', { a: '1/0', op: '<', b: '2' }), 'validation',
      /^left: division by zero; right: None$/);
  });
});
