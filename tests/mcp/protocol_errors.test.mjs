// Bad input on the wire (raw newline-delimited JSON-RPC): every mistake gets
// an answer, and the connection keeps working afterwards (TOOLS.md 0.2, 0.5).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { RawServer, childrenOf, SKIP_NO_BINARY } from './harness.mjs';

describe('JSON-RPC error handling', { skip: SKIP_NO_BINARY }, () => {
  let r;
  before(async () => { r = new RawServer(); await r.initialize(); });
  after(async () => { await r?.close(); });

  async function stillAnswers() {
    const p = await r.request('ping', {});
    assert.deepEqual(p.result && Object.keys(p.result).filter((k) => k !== '_meta'), [], `ping after error: ${p.__raw}`);
    const c = await r.callTool('calc_exact', '{"expr":"6*7"}');
    assert.equal(c.sc?.value, '42', `calc after error: ${c.msg.__raw}`);
  }

  test('malformed JSON is -32700 addressed to its readable id, and the line after it works', async () => {
    const p = r.expect(1);
    r.writeLine('{"jsonrpc":"2.0","id":1,"method":"ping",');
    const e = await p;
    assert.equal(e.jsonrpc, '2.0');
    assert.equal(e.error?.code, -32700, e.__raw);
    assert.match(e.error.message, /^Parse error: the message is not valid JSON: .* \(at byte \d+\)$/);
    r.writeLine('{"broken');
    const o = await r.nextOrphan();
    assert.equal(o.id, null);
    assert.equal(o.error?.code, -32700, o.__raw);
    await stillAnswers();
  });

  test('invalid UTF-8 in a request is answered with its id and says UTF-8 (issue 11 item 6)', async () => {
    const p = r.expect(61);
    r.proc.stdin.write(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":61,"method":"ping","params":{"x":"'),
      Buffer.from([0xff, 0xfe]), Buffer.from('"}}\n')]));
    const e = await p;
    assert.equal(e.error?.code, -32700, e.__raw);
    assert.match(e.error.message, /not valid UTF-8 \(at byte \d+\)/);
    await stillAnswers();
  });

  test('JSON nested 3,000 deep is answered with its id as too deep, not as invalid JSON (issue 11 item 6)', async () => {
    const p = r.expect('deep');
    r.writeLine(`{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"x":${'['.repeat(3000)}${']'.repeat(3000)}}}`);
    const e = await p;
    assert.equal(e.error?.code, -32600, e.__raw);
    assert.equal(e.error.message, 'Invalid Request: JSON nested too deep (the limit is 2048 levels)');
    await stillAnswers();
  });

  test('binary garbage and a bare number are answered, not fatal', async () => {
    r.writeLine('\u0001\u0002garbage\u00ff');
    const a = await r.nextOrphan();
    assert.equal(a.error?.code, -32700, a.__raw);
    r.writeLine('42');
    const b = await r.nextOrphan();
    assert.ok([-32600, -32700].includes(b.error?.code), b.__raw);
    await stillAnswers();
  });

  test('a request that is not an object-shaped request is -32600', async () => {
    const p = r.expect(501);
    r.writeLine('{"jsonrpc":"2.0","id":501,"method":7}');
    const m = await p;
    assert.equal(m.error?.code, -32600, m.__raw);
    await stillAnswers();
  });

  test('non-object params are rejected', async () => {
    const m = await r.request('tools/call', '[1,2,3]');
    assert.ok([-32602, -32600].includes(m.error?.code), m.__raw);
    const n = await r.request('tools/call', '"calc_exact"');
    assert.ok([-32602, -32600].includes(n.error?.code), n.__raw);
    await stillAnswers();
  });

  test('tools/call without a name is -32602', async () => {
    const m = await r.request('tools/call', '{"arguments":{}}');
    assert.equal(m.error?.code, -32602, m.__raw);
  });

  test('an unknown method is -32601 with the same id', async () => {
    const m = await r.request('no/such/method', {}, { id: 'str-id-7' });
    assert.equal(m.id, 'str-id-7');
    assert.equal(m.error?.code, -32601, m.__raw);
  });

  test('a notification (no id) gets no answer', async () => {
    r.notify('notifications/whatever', {});
    r.notify('no/such/method', {});
    await stillAnswers();
    assert.equal(r.orphans.length, 0, `unexpected answers: ${JSON.stringify(r.orphans)}`);
  });

  test('an unknown tool is an error naming the tool', async () => {
    const { msg, result } = await r.callTool('no_such_tool', '{}');
    if (msg.error) {
      assert.ok([-32602, -32601].includes(msg.error.code), msg.__raw);
      assert.match(msg.error.message, /no_such_tool/);
    } else {
      assert.equal(result.isError, true, msg.__raw);
      assert.match(result.content[0].text, /no_such_tool/);
    }
  });

  test('a wrong argument type names the field and does not echo the value', async () => {
    const secret = 'hunter2-SECRET-5d41402abc';
    const { msg, result } = await r.callTool('calc_stats', JSON.stringify({ nums: secret }));
    assert.ok(result, `expected a tool result, got ${msg.__raw}`);
    assert.equal(result.isError, true, msg.__raw);
    const text = result.content.map((c) => c.text ?? '').join('\n');
    assert.match(text, /nums/);
    assert.match(text, /array/);
    assert.ok(!msg.__raw.includes('hunter2'), `value echoed: ${msg.__raw}`);
  });

  test('a wrong scalar type is refused the same way', async () => {
    const { msg, result } = await r.callTool('calc_exact', '{"expr":987654321987}');
    assert.equal(result?.isError, true, msg.__raw);
    const text = result.content.map((c) => c.text ?? '').join('\n');
    assert.match(text, /expr/);
    assert.match(text, /string/);
    assert.ok(!msg.__raw.includes('987654321987'), `value echoed: ${msg.__raw}`);
  });

  test('a missing required argument names it', async () => {
    const { msg, result } = await r.callTool('compare_threshold', '{"a":"1","op":">"}');
    assert.equal(result?.isError, true, msg.__raw);
    assert.match(result.content.map((c) => c.text ?? '').join('\n'), /\bb\b/);
  });

  test('arguments that are not an object are refused', async () => {
    const { msg, result } = await r.callTool('calc_exact', '"1+1"');
    assert.ok(msg.error ? [-32602, -32600].includes(msg.error.code) : result.isError === true, msg.__raw);
  });

  // Found by fuzz_convert: arguments nested past what a frame carries (31
  // levels) were packed, the worker could not decode its request and
  // exited, and the call failed as if the worker had died. Top-level
  // arguments are closed, but a nested object (execute_python's options)
  // still takes any keys.
  test('regression: arguments nested too deep are refused before a worker sees them', async () => {
    const nested = (d) => '['.repeat(d) + '1' + ']'.repeat(d);
    const execWorkers = () => childrenOf(r.pid).filter((c) => c.comm === 'codecalc-exec' && c.state !== 'Z').map((c) => c.pid);
    const before = execWorkers();
    const deep = await r.callTool('execute_python', `{"code":"print(1)","options":{"x":${nested(31)}}}`);
    assert.equal(deep.sc?.ok, false, deep.msg.__raw);
    assert.equal(deep.sc.code, 'resource_exhausted');
    assert.match(deep.sc.error, /too deeply nested/);
    const now = execWorkers();
    assert.ok(before.every((p) => now.includes(p)), `an exec worker was replaced: ${before} -> ${now}`);
    await stillAnswers();
  });

  test('a line over the size cap is refused and the next request answers', { timeout: 60000 }, async () => {
    // 17 MiB (the default cap is 16 MiB) of a syntactically valid request:
    // the server must not buffer
    // it into a tool, must answer with an error, and must resync on the
    // next newline.
    const big = '1+'.repeat(17 * 512 * 1024) + '1';
    const p = r.expect(7001, 30000).catch((e) => e);
    r.writeLine(`{"jsonrpc":"2.0","id":7001,"method":"tools/call","params":{"name":"calc_exact","arguments":{"expr":"${big}"}}}`);
    // The id is read from the line's first bytes, so the client that sent it
    // is not left waiting.
    const first = await p;
    assert.ok(first && first.error, `expected a JSON-RPC error, got ${first?.__raw?.slice(0, 300) ?? first}`);
    assert.equal(first.id, 7001);
    assert.equal(first.error.code, -32600);
    assert.ok(first.__raw.length < 4096, 'the error must not echo the line');
    await stillAnswers();
  });

  test('an id is never reused for a different answer under interleaving', async () => {
    const ids = Array.from({ length: 50 }, (_, i) => 9000 + i);
    const ps = ids.map((id, i) => r.request('tools/call',
      `{"name":"calc_exact","arguments":{"expr":"${i}*${i}"}}`, { id }));
    r.writeLine('{"broken json');
    const res = await Promise.all(ps);
    res.forEach((m, i) => {
      assert.equal(m.id, ids[i]);
      assert.equal(m.result.structuredContent.value, String(i * i));
    });
    const e = await r.nextOrphan();
    assert.equal(e.error?.code, -32700);
  });
});

describe('before initialize', { skip: SKIP_NO_BINARY }, () => {
  test('ping works before initialize (MCP allows it)', async () => {
    const r = new RawServer();
    try {
      const m = await r.request('ping', {});
      assert.ok(m.result || m.error, m.__raw);
      const init = await r.initialize();
      assert.equal(init.serverInfo.name, 'codecalc');
    } finally { await r.close(); }
  });
});
