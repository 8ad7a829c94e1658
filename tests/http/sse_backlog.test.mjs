// A client that opens an SSE stream and stops reading must not make the
// server hold what is sent on it without bound (docs/security.md "Slow
// clients"). The producer is the test-only tool __test_log_flood (MCP log
// records, the server's only unsolicited traffic); the bound is measured by
// the server's own counters and its resident memory, never by time.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { startHttp, post, openSession, sessionHeaders, sseMessages, SKIP_NO_BINARY } from './http_harness.mjs';

const BOUND = 1 << 20;            // CODECALC_HTTP_STREAM_BACKLOG_BYTES for this server
const RECORD = 16 << 10;          // bytes of one flooded record
const FLOOD = 4000;               // records: 64 MiB, far past the kernel's socket buffers

const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

async function metric(port, name) {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const m = new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
  assert.ok(m, `${name} in /metrics`);
  return Number(m[1]);
}

// A raw HTTP request on its own socket, so the test decides when to read.
// Resolves once the status line arrived; the socket is then paused.
function openRaw(port, head, body = '') {
  return new Promise((res, rej) => {
    const sock = connect(port, '127.0.0.1');
    const chunks = [];
    let got = 0;
    const ended = new Promise((r) => sock.on('close', () => r()));
    sock.on('error', () => {});
    sock.on('data', (d) => {
      chunks.push(d);
      got += d.length;
      if (chunks.length === 1) {
        sock.pause();
        res({ sock, ended, bytes: () => got, text: () => Buffer.concat(chunks).toString() });
      }
    });
    sock.on('connect', () => sock.write(head + body));
    sock.on('close', () => rej(new Error('closed before answering')));
  });
}

// The body of a chunked HTTP/1.1 response (as far as it arrived).
function dechunk(raw) {
  let at = raw.indexOf('\r\n\r\n') + 4;
  let out = '';
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    if (eol < 0) return out;
    const n = parseInt(raw.slice(at, eol), 16);
    if (!(n > 0)) return out;
    out += raw.slice(eol + 2, eol + 2 + n);
    at = eol + 2 + n + 2;
  }
}

async function flood(srv, sid, count, to = 'all') {
  const r = await post(srv.url, {
    jsonrpc: '2.0', id: 99, method: 'tools/call',
    params: { name: '__test_log_flood', arguments: { count, bytes: RECORD, to } },
  }, sessionHeaders(sid));
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.result.structuredContent.sent, count, r.text);
}

describe('SSE backlog bound', { skip: SKIP_NO_BINARY, timeout: 120000 }, () => {
  let srv;
  let sid;
  before(async () => {
    srv = await startHttp({ env: { CODECALC_HTTP_STREAM_BACKLOG_BYTES: String(BOUND) } });
    sid = await openSession(srv.url);
    const r = await post(srv.url, { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'warning' } },
      sessionHeaders(sid));
    assert.equal(r.status, 200, r.text);
  });
  after(async () => { await srv?.stop(); });

  test('regression: a GET stream the client stopped reading grew the server without bound', async () => {
    const head = `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nAccept: text/event-stream\r\n` +
      `Mcp-Session-Id: ${sid}\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n`;
    const g = await openRaw(srv.port, head);
    assert.match(g.text(), /^HTTP\/1\.1 200/);
    assert.equal(await metric(srv.port, 'codecalc_http_get_streams'), 1);
    const before = rssKb(srv.proc.pid);
    for (let i = 0; i < 4; i++) await flood(srv, sid, FLOOD / 4);
    const grown = rssKb(srv.proc.pid) - before;
    // Unbounded, the server held about 64 MiB less the socket buffers.
    assert.ok(grown < 16 * 1024, `the server grew by ${grown} KiB while 64 MiB were sent to a stalled stream`);
    assert.equal(await metric(srv.port, 'codecalc_http_get_streams_closed_slow_total'), 1);
    assert.equal(await metric(srv.port, 'codecalc_http_get_streams'), 0);
    assert.match(srv.stderr(), /closed the GET stream of MCP session [0-9a-f]{8}\.\.\.: the client left \d+ bytes unread \(the bound is 1048576/);
    // Reading again: what was buffered arrives, then the stream ends.
    g.sock.resume();
    await g.ended;
    assert.ok(g.bytes() < FLOOD * RECORD / 2, `${g.bytes()} bytes arrived on the closed stream`);
    // The session lives on, and a new GET stream carries records again.
    const g2 = await openRaw(srv.port, head);
    assert.match(g2.text(), /^HTTP\/1\.1 200/);
    g2.sock.resume();
    await flood(srv, sid, 1);
    await new Promise((r) => { const t = setInterval(() => { if (g2.text().includes('codecalc.test')) { clearInterval(t); r(); } }, 20); });
    g2.sock.destroy();
  });

  test('a POST event stream the client stopped reading drops notifications past the bound, never the answer', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0', id: 7, method: 'tools/call',
      params: { name: '__test_log_flood', arguments: { count: FLOOD, bytes: RECORD, to: 'caller' }, _meta: { progressToken: 'p' } },
    });
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nContent-Type: application/json\r\n` +
      `Accept: application/json, text/event-stream\r\nMcp-Session-Id: ${sid}\r\nMCP-Protocol-Version: 2025-11-25\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const droppedBefore = await metric(srv.port, 'codecalc_http_notifications_dropped_total');
    const before = rssKb(srv.proc.pid);
    const p = await openRaw(srv.port, head, body);
    // The whole flood is sent inside the call: once the counter moved, it is over.
    let dropped = 0;
    for (let i = 0; i < 600 && dropped < FLOOD / 2; i++) {
      dropped = (await metric(srv.port, 'codecalc_http_notifications_dropped_total')) - droppedBefore;
      if (dropped < FLOOD / 2) await new Promise((r) => setTimeout(r, 50));
    }
    const grown = rssKb(srv.proc.pid) - before;
    assert.ok(dropped >= FLOOD / 2, `${dropped} of ${FLOOD} notifications dropped`);
    assert.ok(grown < 16 * 1024, `the server grew by ${grown} KiB`);
    p.sock.resume();
    await new Promise((r) => { const t = setInterval(() => { if (/"id":7/.test(p.text())) { clearInterval(t); r(); } }, 20); });
    const msgs = sseMessages(dechunk(p.text()));
    const answer = msgs.find((m) => m.id === 7);
    assert.equal(answer?.result?.structuredContent?.sent, FLOOD);
    assert.equal(msgs.filter((m) => m.method === 'notifications/message').length, FLOOD - dropped);
    p.sock.destroy();
  });
});
