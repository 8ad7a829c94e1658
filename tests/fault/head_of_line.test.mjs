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
