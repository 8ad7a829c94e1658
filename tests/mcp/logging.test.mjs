// notifications/message: after logging/setLevel a client receives the
// server's records at or above its level, about its own calls only.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { SKIP_NO_BINARY, startServer, hasMemoryCgroup, hasPidsCgroup } from './harness.mjs';
import { startHttp, openSession, post, sessionHeaders, sseMessages } from '../http/http_harness.mjs';

describe('MCP logging over stdio', { skip: SKIP_NO_BINARY }, () => {
  let s;
  const records = [];
  before(async () => {
    s = await startServer({ env: { CODECALC_TEST_OPS: '1' } });
    s.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => records.push(n.params));
  });
  after(async () => { await s?.close(); });

  // The record is sent before the call's answer, so once the answer is in,
  // a record that was going to come has come.
  const crash = () => s.client.callTool({ name: '__test_crash', arguments: { note: 'do-not-echo' } });

  test('nothing before logging/setLevel', async () => {
    await crash();
    assert.deepEqual(records, []);
  });

  test('after setLevel warning: the worker replacement, without the call arguments', async () => {
    await s.client.setLoggingLevel('warning');
    // A host without the run cgroups (a non-root server) is told to each
    // new subscriber first, once; a full sandbox has nothing to tell.
    const missing = [!hasMemoryCgroup() && 'a writable memory cgroup (max_memory_mb held only by RLIMIT_AS, an address-space limit)',
      !hasPidsCgroup() && 'a writable pids cgroup (process count bounded by RLIMIT_NPROC only)'].filter(Boolean);
    if (missing.length) {
      const w = records.shift();
      assert.equal(w?.logger, 'codecalc.sandbox', JSON.stringify(w));
      assert.equal(w.level, 'warning');
      assert.equal(w.data.missing, missing.join(', '));
    }
    await crash();
    assert.equal(records.length, 1, JSON.stringify(records));
    const r = records[0];
    assert.equal(r.level, 'warning');
    assert.equal(r.logger, 'codecalc.pool');
    assert.equal(r.data.pool, 'calc');
    assert.match(r.data.message, /^the calc worker died; a fresh one replaces it$/);
    assert.ok(!JSON.stringify(r).includes('do-not-echo'));
  });

  test('a level above the record silences it', async () => {
    await s.client.setLoggingLevel('error');
    await crash();
    assert.equal(records.length, 1);
  });

  test('an unknown level is refused', async () => {
    await assert.rejects(s.client.setLoggingLevel('loud'), /level must be one of/);
  });
});

describe('MCP logging: deadline kills', { skip: SKIP_NO_BINARY }, () => {
  test('the client whose call overran hears of it', async () => {
    const s = await startServer({ env: { CODECALC_TEST_OPS: '1', CODECALC_TEST_DEADLINE_MS: '300' } });
    const records = [];
    s.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => records.push(n.params));
    try {
      await s.client.setLoggingLevel('info');
      await assert.rejects(s.client.callTool({ name: '__test_sleep', arguments: { ms: 5000 } }), /deadline/);
      const d = records.find((r) => r.logger === 'codecalc.deadline');
      assert.ok(d, JSON.stringify(records));
      assert.equal(d.level, 'warning');
      assert.equal(d.data.tool, '__test_sleep');
      assert.match(d.data.message, /overran its 0\.3 s deadline/);
    } finally {
      await s.close();
    }
  });
});

describe('MCP logging over HTTP: only the client that asked', { skip: SKIP_NO_BINARY }, () => {
  let h;
  before(async () => { h = await startHttp(); });
  after(async () => { await h?.stop(); });

  test('a subscribed session gets its record on its own stream; another session gets none', async () => {
    const a = await openSession(h.url);
    const b = await openSession(h.url);
    const setLevel = await post(h.url, { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'warning' } },
      sessionHeaders(a));
    assert.equal(setLevel.status, 200);
    const call = (sid, id) => post(h.url, {
      jsonrpc: '2.0', id, method: 'tools/call',
      params: { name: '__test_crash', arguments: {}, _meta: { progressToken: `p${id}` } },
    }, sessionHeaders(sid));
    const [ra, rb] = await Promise.all([call(a, 2), call(b, 3)]);
    const ma = sseMessages(ra.text), mb = sseMessages(rb.text);
    const logs = (ms) => ms.filter((m) => m.method === 'notifications/message');
    assert.equal(logs(ma).length, 1, ra.text);
    assert.equal(logs(ma)[0].params.logger, 'codecalc.pool');
    assert.deepEqual(logs(mb), [], 'the session that did not ask hears nothing');
    assert.equal(ma.at(-1).id, 2);
    assert.equal(mb.at(-1).id, 3);
  });
});
