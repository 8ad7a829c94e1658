// Request ids of odd types, reused, or spelled like the server's internal
// big-integer marker: an answer must never be addressed so that a client
// could take it for another request's (JSON-RPC 2.0 section 4, MCP "ids
// must be unique among the requests in flight").
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestOpsServer, calcWorkers, inSleep, waitFor, SKIP_NO_BINARY } from '../mcp/harness.mjs';
import { startHttp, post, openSession, sessionHeaders } from '../http/http_harness.mjs';

const calcLine = (idText, expr) =>
  `{"jsonrpc":"2.0","id":${idText},"method":"tools/call","params":{"name":"calc_exact","arguments":{"expr":"${expr}"}}}`;
const sleepLine = (idText, ms) =>
  `{"jsonrpc":"2.0","id":${idText},"method":"tools/call","params":{"name":"__test_sleep","arguments":{"ms":${ms}}}}`;

describe('request ids over stdio', { skip: SKIP_NO_BINARY, timeout: 60000 }, () => {
  let r, skip;
  before(async () => { ({ r, skip } = await startTestOpsServer()); });
  after(async () => { await r?.close(); });

  test('ids of every valid type come back exactly as sent, each with its own answer', async () => {
    const ids = ['-7', '0', '""', '"x y"', '"\\u0000"', '9223372036854775807', '-9223372036854775808',
      '18446744073709551616', '123456789012345678901234567890'];
    // The raw text of the id in the answer is compared, so big integers keep their digits.
    ids.forEach((idText, i) => r.writeLine(calcLine(idText, `${i}*1000+1`)));
    const got = [];
    for (let k = 0; k < ids.length; k++) got.push(await r.nextOrphan(15000));
    ids.forEach((idText, i) => {
      const m = got.find((g) => g.__raw.startsWith(`{"jsonrpc":"2.0","id":${idText},`));
      assert.ok(m, `no answer with the id ${idText} as sent: ${got.map((g) => g.__raw.slice(0, 80)).join('\n')}`);
      assert.equal(m.result?.structuredContent?.value, String(i * 1000 + 1), `id ${idText} got another call's answer: ${m.__raw}`);
    });
  });

  test('ids of invalid types are refused with id null, and nothing else is answered', async () => {
    for (const idText of ['1.5', 'true', 'null', '{"a":1}', '[1]', '1e3', '1.0']) {
      r.writeLine(calcLine(idText, '2+2'));
      const m = await r.nextOrphan(10000);
      assert.equal(m.id, null, `${idText}: ${m.__raw}`);
      assert.equal(m.error?.code, -32600, `${idText}: ${m.__raw}`);
    }
  });

  // Bug: the string id "\u0000bigint:12" was read as the big-integer marker
  // and answered with the number id 12 (another request's id).
  test('a string id spelled like the big-integer marker is refused, never answered as a number', async () => {
    const bait = r.expect(12, 3000).catch(() => null);
    r.writeLine(calcLine('"\\u0000bigint:12"', '1+2'));
    const m = await r.nextOrphan(10000);
    assert.equal(m.id, null, m.__raw);
    assert.equal(m.error?.code, -32700, m.__raw);
    assert.match(m.error.message, /u0000bigint:.*reserved/);
    assert.equal(await bait, null, 'an answer with the number id 12 was sent');
    // A string argument spelled so is refused the same way (it would read as an integer).
    r.writeLine('{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"calc_exact","arguments":{"expr":"\\u0000bigint:5"}}}');
    const a = await r.nextOrphan(10000);
    assert.equal(a.error?.code, -32700, a.__raw);
  });

  /** Send the slow line, then the reuse line with the same id: the reuse is
   * refused (-32600) and the slow call still gets its own answer. */
  async function reuseRefused(id, slowLine, reuseLine) {
    const first = r.expect(id, 20000);
    r.writeLine(slowLine);
    r.writeLine(reuseLine);
    const refusal = await first;
    assert.equal(refusal.error?.code, -32600, refusal.__raw);
    assert.match(refusal.error.message, /already used by a call in flight/);
    const answer = await r.expect(id, 20000);
    assert.equal(answer.result?.structuredContent?.slept_ms, 3000, answer.__raw);
  }

  // Bug: a second call with the id of a call still in flight was run, and
  // both answers carried the same id.
  test('a call reusing the id of a call in flight is refused; the first still gets its own answer', async (t) => {
    if (skip) return t.skip(skip);
    await reuseRefused(77, sleepLine('77', 3000), calcLine('77', '100+1'));
    // Once answered, the id may be used again.
    const again = await r.callTool('calc_exact', '{"expr":"100+1"}', { id: 77 });
    assert.equal(again.sc?.value, '101', again.msg.__raw);
  });

  // Bug: a ping carrying the id of a call in flight was answered at once
  // with that id, an answer the client could take for the call's.
  test('any request reusing the id of a call in flight is refused, a ping too', async (t) => {
    if (skip) return t.skip(skip);
    await reuseRefused(79, sleepLine('79', 3000), '{"jsonrpc":"2.0","id":79,"method":"ping"}');
  });

  test('the same holds for requests of the stateless revision on the stream', async (t) => {
    if (skip) return t.skip(skip);
    const meta = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}';
    await reuseRefused(80,
      `{"jsonrpc":"2.0","id":80,"method":"tools/call","params":{"name":"__test_sleep","arguments":{"ms":3000},${meta}}}`,
      `{"jsonrpc":"2.0","id":80,"method":"tools/call","params":{"name":"calc_exact","arguments":{"expr":"1+1"},${meta}}}`);
  });

  test('a cancellation names its request by type too: "78" does not cancel 78', async (t) => {
    if (skip) return t.skip(skip);
    const num = r.expect(78, 20000);
    r.expect('78', 20000).catch(() => null);
    r.writeLine(sleepLine('78', 1500));
    r.writeLine(sleepLine('"78"', 1500));
    r.notify('notifications/cancelled', { requestId: '78' });
    const n = await num;
    assert.equal(n.result?.structuredContent?.slept_ms, 1500, n.__raw);
    r.cancel('78');
  });

  test('the server is still the same process', () => {
    assert.equal(r.exited, null, r.stderrText);
  });
});

describe('request ids over HTTP', { skip: SKIP_NO_BINARY, timeout: 60000 }, () => {
  let h;
  before(async () => { h = await startHttp(); });
  after(async () => { await h?.stop(); });

  // Bug: two POSTs of one session carrying the same id both ran, and a
  // cancellation naming it stopped whichever was found first.
  test('a POST reusing the id of a call in flight in the same session is refused', async () => {
    const sid = await openSession(h.url);
    const hdr = sessionHeaders(sid);
    const slow = post(h.url, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: '__test_sleep', arguments: { ms: 3000 } } }, hdr);
    // The first call must be in flight before the second is sent.
    const started = await waitFor(() => calcWorkers(h.proc.pid).some((w) => inSleep(w.pid)), 15000);
    assert.ok(started, 'the slow call did not start');
    const dup = await post(h.url, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'calc_exact', arguments: { expr: '1+1' } } }, hdr);
    assert.equal(dup.status, 400, dup.text);
    assert.equal(dup.json?.error?.code, -32600, dup.text);
    assert.equal(dup.json?.id, 5);
    const s = await slow;
    const body = s.json ?? JSON.parse(s.text.split('\n').find((l) => l.startsWith('data: ')).slice(6));
    assert.equal(body.result?.structuredContent?.slept_ms, 3000, s.text);
    // Another session may use the same id at the same time.
    const other = await openSession(h.url);
    const o = await post(h.url, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'calc_exact', arguments: { expr: '2+3' } } }, sessionHeaders(other));
    const ob = o.json ?? JSON.parse(o.text.split('\n').find((l) => l.startsWith('data: ')).slice(6));
    assert.equal(ob.result?.structuredContent?.value, '5', o.text);
  });
});
