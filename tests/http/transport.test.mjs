// Streamable HTTP: status codes of both protocol eras, sessions, SSE,
// cancellation, and that bad clients do not disturb good ones.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { spawnSync } from 'node:child_process';
import {
  BIN, SKIP_NO_BINARY, ACCEPT_BOTH, STATELESS, startHttp, post, openSession, sessionHeaders,
  statelessHeaders, statelessParams, statelessCall, structured, sseMessages, untilInFlight,
} from './http_harness.mjs';

const call = (id, name, args, meta) => ({
  jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
});

describe('serve-http, 2025 era', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startHttp({ env: { CODECALC_MAX_MESSAGE_BYTES: '65536' } }); });
  after(async () => { await s?.stop(); });

  test('initialize issues a 128-bit hex session id and negotiates the revision', async () => {
    const r = await post(s.url, {
      jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('mcp-session-id'), /^[0-9a-f]{32}$/);
    assert.equal(r.json.result.protocolVersion, '2025-06-18');
    assert.equal(r.json.result.serverInfo.name, 'codecalc');
  });

  test('a call in a session answers with application/json and the exact value', async () => {
    const sid = await openSession(s.url);
    const r = await post(s.url, call(7, 'calc_exact', { expr: '1/3 + 1/6' }), sessionHeaders(sid));
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type'), /^application\/json/);
    assert.equal(r.json.id, 7);
    assert.equal(structured(r).value, '1/2');
  });

  test('missing session id is 400, unknown is 404, DELETE ends a session', async () => {
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    assert.equal((await post(s.url, list)).status, 400);
    assert.equal((await post(s.url, list, { 'Mcp-Session-Id': 'f'.repeat(32) })).status, 404);
    const sid = await openSession(s.url);
    assert.equal((await post(s.url, list, sessionHeaders(sid))).status, 200);
    const del = await fetch(s.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': sid } });
    assert.equal(del.status, 200);
    assert.equal((await post(s.url, list, sessionHeaders(sid))).status, 404);
    const again = await fetch(s.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': sid } });
    assert.equal(again.status, 404);
  });

  test('an unsupported MCP-Protocol-Version is 400', async () => {
    const sid = await openSession(s.url);
    const r = await post(s.url, { jsonrpc: '2.0', id: 3, method: 'ping' }, sessionHeaders(sid, '1999-01-01'));
    assert.equal(r.status, 400);
  });

  test('notifications and client responses are accepted with 202 and no body', async () => {
    const sid = await openSession(s.url);
    const r = await post(s.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders(sid));
    assert.equal(r.status, 202);
    assert.equal(r.text, '');
    const resp = await post(s.url, { jsonrpc: '2.0', id: 99, result: {} }, sessionHeaders(sid));
    assert.equal(resp.status, 202);
  });

  test('regression: empty_reply_typed_text_html: a 202 and a DELETE carry no Content-Type', async () => {
    // evhttp's default type (text/html) landed on replies with no body
    const sid = await openSession(s.url);
    const r = await post(s.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders(sid));
    assert.equal(r.status, 202);
    assert.equal(r.headers.get('content-type'), null);
    const del = await fetch(s.url, { method: 'DELETE', headers: { 'Mcp-Session-Id': sid } });
    assert.equal(del.status, 200);
    assert.equal(del.headers.get('content-type'), null);
    assert.equal(await del.text(), '');
    // replies with a body still name their type
    const ok = await post(s.url, { jsonrpc: '2.0', id: 5, method: 'ping' }, sessionHeaders(await openSession(s.url)));
    assert.equal(ok.headers.get('content-type'), 'application/json');
  });

  test('wrong content type 415, Accept without SSE 406, malformed JSON 400, batch 400', async () => {
    const sid = await openSession(s.url);
    const h = sessionHeaders(sid);
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    let r = await post(s.url, ping, { ...h, 'Content-Type': 'text/plain' });
    assert.equal(r.status, 415);
    r = await post(s.url, ping, { ...h, Accept: 'application/json' });
    assert.equal(r.status, 406);
    r = await post(s.url, '{"jsonrpc":"2.0","id":1,"method":', h);
    assert.equal(r.status, 400);
    assert.equal(r.json.error.code, -32700);
    assert.equal(r.json.id, 1);
    r = await post(s.url, `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":${'['.repeat(3000)}${']'.repeat(3000)}}}`, h);
    assert.deepEqual([r.status, r.json.id, r.json.error.code], [400, 3, -32600]);
    assert.match(r.json.error.message, /nested too deep/);
    r = await post(s.url, `[${ping},${ping}]`, h);
    assert.equal(r.status, 400);
    assert.equal(r.json.error.code, -32600);
  });

  test('a body over the cap is 413 answered as JSON-RPC with its id, and the server keeps serving (issue 11 item 14)', async () => {
    const sid = await openSession(s.url);
    const big = call(1, 'calc_exact', { expr: '1+'.repeat(40000) + '1' });
    const r = await post(s.url, big, sessionHeaders(sid));
    assert.equal(r.status, 413);
    assert.match(r.headers.get('content-type'), /^application\/json/);
    assert.equal(r.json.jsonrpc, '2.0');
    assert.equal(r.json.id, 1);
    assert.equal(r.json.error.code, -32600);
    assert.match(r.json.error.message, /^Request Entity Too Large: the body is \d+ bytes, over the 65536-byte limit/);
    const ok = await post(s.url, call(2, 'calc_exact', { expr: '6*7' }), sessionHeaders(sid));
    assert.equal(structured(ok).value, '42');
  });

  test('DNS rebinding: a foreign Origin or Host is 403, a loopback Origin is served', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } };
    let r = await post(s.url, init, { Origin: 'http://evil.example.com' });
    assert.equal(r.status, 403);
    r = await post(s.url, init, { Origin: `http://localhost:${s.port}` });
    assert.equal(r.status, 200);
    // fetch will not forge Host; a raw request does.
    const raw = await rawRequest(s.port, [
      'POST /mcp HTTP/1.1', 'Host: evil.example.com', 'Content-Type: application/json',
      `Accept: ${ACCEPT_BOTH}`, `Content-Length: ${JSON.stringify(init).length}`, 'Connection: close', '', JSON.stringify(init),
    ].join('\r\n'));
    assert.match(raw, /^HTTP\/1\.1 403/);
  });

  test('other paths are 404, other methods 405', async () => {
    assert.equal((await fetch(s.url.replace('/mcp', '/other'))).status, 404);
    assert.equal((await fetch(s.url, { method: 'PUT' })).status, 405);
  });

  test('a call with a progress token answers as an SSE stream ending in the response', async () => {
    const sid = await openSession(s.url);
    const r = await post(s.url, call(11, 'calc_exact', { expr: '2**10' }, { progressToken: 'tok' }), sessionHeaders(sid));
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type'), /^text\/event-stream/);
    const msgs = sseMessages(r.text);
    const last = msgs[msgs.length - 1];
    assert.equal(last.id, 11);
    assert.equal(last.result.structuredContent.value, '1024');
  });

  test('GET opens the session stream; a second GET on the same session is 409', async () => {
    const sid = await openSession(s.url);
    const ac = new AbortController();
    const g = await fetch(s.url, { headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': sid }, signal: ac.signal });
    assert.equal(g.status, 200);
    assert.match(g.headers.get('content-type'), /^text\/event-stream/);
    const g2 = await fetch(s.url, { headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': sid } });
    assert.equal(g2.status, 409);
    ac.abort();
    assert.equal((await fetch(s.url, { headers: { Accept: 'text/event-stream' } })).status, 400);
  });

  test('notifications/cancelled on another POST ends the call with -32800', async () => {
    const sid = await openSession(s.url);
    const h = sessionHeaders(sid);
    const slow = post(s.url, call('slow-1', '__test_sleep', { ms: 8000 }), h);
    await untilInFlight(s.url); // a cancel that came first would name no call
    const t0 = Date.now();
    const c = await post(s.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'slow-1' } }, h);
    assert.equal(c.status, 202);
    const r = await slow;
    assert.equal(r.json.error.code, -32800);
    assert.ok(Date.now() - t0 < 4000, 'cancellation took effect at once');
  });

  test('many concurrent calls each get their own answer', async () => {
    const sid = await openSession(s.url);
    const n = 64;
    const rs = await Promise.all(Array.from({ length: n }, (_, i) =>
      post(s.url, call(1000 + i, 'calc_exact', { expr: `${i} * 1000003 + 7` }), sessionHeaders(sid))));
    rs.forEach((r, i) => {
      assert.equal(r.json.id, 1000 + i);
      assert.equal(structured(r).value, String(i * 1000003 + 7));
    });
  });
});

describe('serve-http, 2026-07-28 stateless era', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startHttp(); });
  after(async () => { await s?.stop(); });

  test('server/discover needs no session and returns identity, versions and cache hints', async () => {
    const r = await post(s.url, { jsonrpc: '2.0', id: 1, method: 'server/discover', params: statelessParams() },
      statelessHeaders('server/discover'));
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('mcp-session-id'), null);
    const res = r.json.result;
    assert.equal(res.serverInfo.name, 'codecalc');
    assert.ok(res.supportedVersions.includes(STATELESS));
    assert.ok(res.supportedVersions.includes('2025-11-25'));
    assert.equal(res.ttlMs, 60000);
    assert.equal(res.cacheScope, 'public');
    assert.match(res.instructions, /Sandbox tier/);
    assert.ok(res.capabilities.tools);
  });

  test('tools/list carries ttlMs 60000 public; tools/call needs no initialize', async () => {
    const l = await post(s.url, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: statelessParams() },
      statelessHeaders('tools/list'));
    assert.equal(l.json.result.ttlMs, 60000);
    assert.equal(l.json.result.cacheScope, 'public');
    assert.ok(l.json.result.tools.some((t) => t.name === 'calc_exact'));
    const c = await statelessCall(s.url, 3, 'calc_exact', { expr: '2**64 - 1' });
    assert.equal(c.status, 200);
    assert.equal(structured(c).value, '18446744073709551615');
    assert.equal(c.json.result.resultType, 'complete');
    assert.equal(c.json.result.ttlMs, undefined);
  });

  test('Mcp-Method and Mcp-Name are required and must match the body', async () => {
    const body = { jsonrpc: '2.0', id: 4, method: 'tools/call', params: statelessParams({ name: 'calc_exact', arguments: { expr: '1' } }) };
    let r = await post(s.url, body, { 'MCP-Protocol-Version': STATELESS, 'Mcp-Method': 'tools/call' });
    assert.equal(r.status, 400);
    r = await post(s.url, body, statelessHeaders('tools/call', 'percentage'));
    assert.equal(r.status, 400);
    r = await post(s.url, body, statelessHeaders('tools/list', 'calc_exact'));
    assert.equal(r.status, 400);
    r = await post(s.url, body, { 'Mcp-Method': 'tools/call', 'Mcp-Name': 'calc_exact' });
    assert.equal(r.status, 400, 'version header missing while _meta says 2026-07-28');
  });

  test('an unknown method is 404 with -32601', async () => {
    const r = await post(s.url, { jsonrpc: '2.0', id: 5, method: 'no/such', params: statelessParams() },
      statelessHeaders('no/such'));
    assert.equal(r.status, 404);
    assert.equal(r.json.error.code, -32601);
  });

  test('closing the response stream cancels the call and frees its worker', async () => {
    // Fill every calc worker with a long sleep, hang up, then a quick call
    // must not wait behind them.
    const acs = [];
    const pending = [];
    for (let i = 0; i < 6; i++) {
      const ac = new AbortController();
      acs.push(ac);
      pending.push(statelessCall(s.url, `sleep-${i}`, '__test_sleep', { ms: 60000 }, { signal: ac.signal }).catch(() => null));
    }
    await new Promise((r) => setTimeout(r, 500));
    acs.forEach((ac) => ac.abort());
    await Promise.all(pending);
    const t0 = Date.now();
    const c = await statelessCall(s.url, 'after', 'calc_exact', { expr: '3*3' });
    assert.equal(structured(c).value, '9');
    assert.ok(Date.now() - t0 < 10000, `answered in ${Date.now() - t0} ms`);
  });
});

describe('serve-http, hostile clients and lifecycle', { skip: SKIP_NO_BINARY }, () => {
  test('a slowloris client is dropped after the header timeout; others are served meanwhile', async () => {
    const s = await startHttp({ env: { CODECALC_HTTP_TIMEOUT_MS: '1000' } });
    try {
      const sock = net.connect(s.port, '127.0.0.1');
      await new Promise((r) => sock.on('connect', r));
      sock.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n');
      const closed = new Promise((r) => sock.on('close', () => r(Date.now())));
      sock.on('error', () => {});
      const c = await statelessCall(s.url, 1, 'calc_exact', { expr: '5+5' });
      assert.equal(structured(c).value, '10');
      const t0 = Date.now();
      const when = await Promise.race([closed, new Promise((r) => setTimeout(() => r(null), 5000))]);
      assert.ok(when !== null, 'the slow connection was closed');
      assert.ok(when - t0 < 4000);
    } finally { await s.stop(); }
  });

  test('SIGTERM lets a call in flight finish, then exits 0', async () => {
    const s = await startHttp();
    try {
      const p = statelessCall(s.url, 1, '__test_sleep', { ms: 700 });
      await untilInFlight(s.url); // SIGTERM before the call was in would find none to finish
      s.proc.kill('SIGTERM');
      const r = await p;
      assert.equal(structured(r).slept_ms, 700);
      const ex = await s.exited;
      assert.equal(ex.code, 0);
    } finally { await s.stop(); }
  });

  test('SIGTERM cancels calls still running after the grace period', async () => {
    const s = await startHttp({ env: { CODECALC_HTTP_GRACE_MS: '300' } });
    try {
      const t0 = Date.now();
      const p = statelessCall(s.url, 1, '__test_sleep', { ms: 20000 });
      await untilInFlight(s.url);
      s.proc.kill('SIGTERM');
      const r = await p;
      assert.equal(r.json.error.code, -32603);
      assert.match(r.json.error.message, /shutting down/);
      assert.equal((await s.exited).code, 0);
      assert.ok(Date.now() - t0 < 5000);
    } finally { await s.stop(); }
  });

  test('with CODECALC_HTTP_TOKEN a request needs the bearer token (401 otherwise)', async () => {
    const s = await startHttp({ env: { CODECALC_HTTP_TOKEN: 's3cret-token' } });
    try {
      const r = await statelessCall(s.url, 1, 'calc_exact', { expr: '1+1' });
      assert.equal(r.status, 401);
      assert.equal(r.headers.get('www-authenticate'), 'Bearer');
      const bad = await post(s.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: statelessParams({ name: 'calc_exact', arguments: { expr: '1+1' } }) },
        { ...statelessHeaders('tools/call', 'calc_exact'), Authorization: 'Bearer s3cret-tokeX' });
      assert.equal(bad.status, 401);
      const ok = await post(s.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: statelessParams({ name: 'calc_exact', arguments: { expr: '1+1' } }) },
        { ...statelessHeaders('tools/call', 'calc_exact'), Authorization: 'Bearer s3cret-token' });
      assert.equal(structured(ok).value, '2');
    } finally { await s.stop(); }
  });
});

describe('serve-http command line', { skip: SKIP_NO_BINARY }, () => {
  test('a non-loopback host without CODECALC_HTTP_TOKEN is refused with exit 2', () => {
    const r = spawnSync(BIN, ['serve-http', '--host', '0.0.0.0', '--port', '0'], {
      env: { PATH: process.env.PATH }, encoding: 'utf8', timeout: 10000,
    });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /CODECALC_HTTP_TOKEN/);
  });

  test('a bad port is refused with exit 2', () => {
    const r = spawnSync(BIN, ['serve-http', '--port', '70000'], { env: { PATH: process.env.PATH }, encoding: 'utf8', timeout: 10000 });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--port/);
  });
});

/** Send raw bytes, return everything the server answers until it closes. */
function rawRequest(port, text) {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1', () => sock.end(text));
    let out = '';
    sock.on('data', (d) => { out += d; });
    sock.on('end', () => resolve(out));
    sock.on('error', reject);
  });
}
