// Head-of-line blocking (issue 11 item 8): runaway symbolic calls must not
// make a cheap one wait for them. Asserted by order of arrival, not by time.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, SKIP_NO_BINARY } from '../mcp/harness.mjs';

const RUNAWAY = '(x+y+z+w+1)^40-expand((x+y+z+w+1)^40)';

describe('symbolic pool under runaway calls', { skip: SKIP_NO_BINARY, timeout: 120000 }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });

  test('two runaway simplify_expression calls do not block a cheap evaluate_expression', async () => {
    const order = [];
    const runaways = [1, 2].map((i) => s.call('simplify_expression', { expr: RUNAWAY })
      .then((r) => { order.push(`runaway${i}`); return r; }));
    // Let both runaways reach their workers first.
    await new Promise((r) => setTimeout(r, 500));
    const cheap = await s.call('evaluate_expression', { expression: 'diff(sin(x),x)' });
    order.push('cheap');
    assert.equal(cheap.expression, 'cos(x)');
    const slow = await Promise.all(runaways);
    assert.equal(order[0], 'cheap', `arrival order: ${order.join(', ')}`);
    for (const r of slow) assert.equal(r.ok, false);
  });
});

describe('a guarded call still queued at its deadline', { skip: SKIP_NO_BINARY, timeout: 120000 }, () => {
  let s;
  before(async () => { s = await startServer({ env: { CODECALC_TEST_OPS: '1' } }); });
  after(async () => { await s?.close(); });

  // Every calc worker (the pool's cap is 4) sleeps past the 15 s guard, so
  // calc_exact waits in the queue for its whole deadline; sleeping uses no
  // CPU, so no CPU limit frees a worker early on a fast machine.
  test('regression: a call that never reached a worker was answered "exceeded ... and was killed"', async () => {
    const sleepers = [1, 2, 3, 4].map(() => s.call('__test_sleep', { ms: 17000 }, { timeout: 60000 }));
    await new Promise((r) => setTimeout(r, 500));
    const queued = await s.call('calc_exact', { expr: '1+1' }, { timeout: 60000 });
    assert.equal(queued.code, 'timeout', JSON.stringify(queued));
    assert.equal(queued.error, 'the expression was not evaluated: every calc worker was busy with other '
      + 'calls for the whole 15s evaluation limit; retry it (the input itself did not run out of time)');
    await Promise.all(sleepers);
    assert.equal((await s.call('calc_exact', { expr: '1+1' })).value, '2');
  });
});
