// The supervisor sends calc requests ahead to a worker before its earlier
// ones are answered (pools.json "pipeline"). These tests lock out what that
// could break: a worker that dies holding requests sent ahead, a request
// sent ahead behind a slow one, and a cancelled request sent ahead.
// Asserted by values and order of arrival, never by time.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestOpsServer, failureOf, SKIP_NO_BINARY } from '../mcp/harness.mjs';

describe('requests sent ahead to calc workers', { skip: SKIP_NO_BINARY, timeout: 120000 }, () => {
  let r;
  let skip = false;
  let nextId = 70000;
  before(async () => {
    ({ r, skip } = await startTestOpsServer());
  });
  after(async () => { await r?.close(); });

  const line = (id, name, args) => JSON.stringify({
    jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args },
  });

  /** Write the calls in one write; return their answers (promises) by id. */
  function burst(calls) {
    const waits = new Map();
    const lines = calls.map(([name, args]) => {
      const id = nextId++;
      waits.set(id, r.expect(id, 60000));
      return line(id, name, args);
    });
    r.proc.stdin.write(lines.join('\n') + '\n');
    return waits;
  }

  test('worker_dies_holding_requests_sent_ahead: only the call it was serving fails', async (t) => {
    if (skip) return t.skip(skip);
    for (const crashAt of [0, 40, 79]) {
      const calls = [];
      for (let i = 0; i < 80; i++) calls.push(i === crashAt ? ['__test_crash', {}] : ['calc_exact', { expr: `1000+${i}` }]);
      const waits = [...burst(calls).entries()];
      const answers = await Promise.all(waits.map(([, p]) => p));
      answers.forEach((m, i) => {
        if (i === crashAt) {
          assert.ok(failureOf(m), `the crashing call must fail: ${m.__raw}`);
        } else {
          assert.ok(!m.error, m.__raw);
          assert.equal(m.result.structuredContent?.value, String(1000 + i),
            `call ${i} (crash at ${crashAt}) got ${m.__raw}`);
        }
      });
    }
    assert.equal(r.orphans.length, 0, `unmatched answers: ${JSON.stringify(r.orphans.slice(0, 3))}`);
  });

  test('request_sent_ahead_behind_a_slow_one_is_served_by_another_worker', async (t) => {
    if (skip) return t.skip(skip);
    const order = [];
    const calls = [['__test_sleep', { ms: 3000 }]];
    for (let i = 0; i < 60; i++) calls.push(['calc_exact', { expr: `7*${i}` }]);
    const waits = [...burst(calls).values()].map((p, i) => p.then((m) => { order.push(i); return m; }));
    const answers = await Promise.all(waits);
    assert.equal(answers[0].result?.structuredContent?.slept_ms, 3000, answers[0].__raw);
    for (let i = 1; i <= 60; i++) assert.equal(answers[i].result.structuredContent.value, String(7 * (i - 1)));
    // Every quick call is answered before the slow one, though some were
    // sent ahead to the worker that is sleeping.
    assert.equal(order[order.length - 1], 0, `arrival order: ${order.join(',')}`);
  });

  test('cancelled_request_sent_ahead_is_never_answered', async (t) => {
    if (skip) return t.skip(skip);
    const calls = [['__test_sleep', { ms: 300 }]];
    for (let i = 0; i < 40; i++) calls.push(['calc_exact', { expr: `3+${i}` }]);
    // the last call is registered as an orphan catcher: it must never come
    const ids = [];
    const waits = [];
    const lines = calls.map(([name, args], i) => {
      const id = nextId++;
      ids.push(id);
      if (i !== 20) waits.push([i, r.expect(id, 60000)]);
      return line(id, name, args);
    });
    lines.push(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: ids[20] } }));
    r.proc.stdin.write(lines.join('\n') + '\n');
    for (const [i, p] of waits) {
      const m = await p;
      if (i === 0) assert.equal(m.result?.structuredContent?.slept_ms, 300, m.__raw);
      else assert.equal(m.result.structuredContent.value, String(3 + i - 1), m.__raw);
    }
    // one more round trip on the same pool: anything for the cancelled id
    // would have arrived by now
    const after = await r.callTool('calc_exact', '{"expr":"2+2"}');
    assert.equal(after.sc?.value, '4');
    assert.equal(r.orphans.length, 0, `answers nobody waits for: ${JSON.stringify(r.orphans.slice(0, 3))}`);
  });
});
