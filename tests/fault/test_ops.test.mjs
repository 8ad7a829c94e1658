// Fault tests driven by the server's test-only tools (registered only when
// the server starts with CODECALC_TEST_OPS=1): __test_sleep {ms} holds a calc
// worker for a while, __test_crash makes the worker exit mid-request. They
// make the slow request and the mid-request death deterministic.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startTestOpsServer, calcWorkers, inSleep, waitFor, failureOf, SKIP_NO_BINARY,
} from '../mcp/harness.mjs';

const DEADLINE_MS = 1000;

describe('faults through the test-only tools', { skip: SKIP_NO_BINARY, timeout: 60000 }, () => {
  let r;
  let skip = false;
  before(async () => {
    ({ r, skip } = await startTestOpsServer({ CODECALC_TEST_DEADLINE_MS: String(DEADLINE_MS) }));
  });
  after(async () => { await r?.close(); });

  // A quick call on the same (calc) pool, independent of any real tool.
  async function healthy() {
    const c = await r.callTool('__test_sleep', '{"ms":1}', { timeoutMs: 10000 });
    assert.equal(c.sc?.slept_ms, 1, `a healthy call after the fault: ${c.msg.__raw}`);
  }

  test('a short sleep answers', async (t) => {
    if (skip) return t.skip(skip);
    const c = await r.callTool('__test_sleep', '{"ms":50}');
    assert.equal(c.sc?.ok, true, c.msg.__raw);
    assert.equal(c.sc.slept_ms, 50);
  });

  test('a worker that exits mid-request: that call fails with a code, the next succeeds', async (t) => {
    if (skip) return t.skip(skip);
    const c = await r.callTool('__test_crash', '{}', { timeoutMs: 10000 });
    const failure = failureOf(c.msg);
    assert.ok(failure, `the crashed call must fail: ${c.msg.__raw}`);
    if (c.sc) {
      assert.equal(c.sc.ok, false);
      assert.ok(['internal', 'worker_failure'].includes(c.sc.code), failure);
      assert.equal(typeof c.sc.remedy, 'string');
    }
    await healthy();
  });

  test('SIGKILL of the worker serving a slow call: that call fails, others do not notice', async (t) => {
    if (skip) return t.skip(skip);
    const before = new Set(calcWorkers(r.pid).map((w) => w.pid));
    const slow = r.callTool('__test_sleep', '{"ms":3000}', { timeoutMs: 10000 });
    // The call must have started (a call its worker never started is served
    // again elsewhere): wait until a worker sleeps in it. Kill every calc
    // worker: idle ones must be replaced silently.
    const started = await waitFor(() => calcWorkers(r.pid).some((w) => inSleep(w.pid)), 8000);
    assert.ok(started, 'no calc worker started the slow call');
    const victims = calcWorkers(r.pid).map((w) => w.pid);
    assert.ok(victims.length > 0);
    for (const pid of victims) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
    const c = await slow;
    const failure = failureOf(c.msg);
    assert.ok(failure, `the call whose worker died must fail: ${c.msg.__raw}`);
    assert.notEqual(c.msg.error?.code, -32010, 'a death is not a deadline');
    t.diagnostic(`slow call failure: ${failure} (workers before: ${before.size})`);
    await healthy();
  });

  test('a sleep past the deadline: -32010, the worker is killed, the next call succeeds', async (t) => {
    if (skip) return t.skip(skip);
    const t0 = Date.now();
    const c = await r.callTool('__test_sleep', '{"ms":20000}', { timeoutMs: 15000 });
    const elapsed = Date.now() - t0;
    assert.equal(c.msg.error?.code, -32010, c.msg.__raw);
    assert.equal(c.msg.error.data?.tool, '__test_sleep');
    assert.match(c.msg.error.message, /^tool '__test_sleep' exceeded its \d+s response deadline/);
    assert.ok(elapsed >= DEADLINE_MS - 50 && elapsed < DEADLINE_MS + 3000, `answered after ${elapsed} ms`);
    // The abandoned worker must be killed, not left sleeping: idle workers
    // also sleep (in read), so check the count instead. The pool must not
    // grow by one stuck worker per deadline.
    const n0 = calcWorkers(r.pid).length;
    for (let i = 0; i < 3; i++) {
      const d = await r.callTool('__test_sleep', '{"ms":20000}', { timeoutMs: 15000 });
      assert.equal(d.msg.error?.code, -32010, d.msg.__raw);
    }
    const settled = await waitFor(() => calcWorkers(r.pid).length <= Math.max(n0, 1) + 1, 3000);
    assert.ok(settled, `calc workers grew from ${n0} to ${calcWorkers(r.pid).length}`);
    await healthy();
  });
});
