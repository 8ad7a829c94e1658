// The 2026-07-28 revision over stdio: the v2 SDK client pinned to it
// negotiates through server/discover (no initialize), and every request is
// self-contained. Beside it, raw lines prove the wire shape: resultType and
// cache hints on results, discover's answer, an unsupported revision refused,
// and a 2025-era request on the same stream unchanged.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN, SKIP_NO_BINARY } from './harness.mjs';
import { freshDir, removeDir } from '../ops/cli_util.mjs';

const STATELESS = '2026-07-28';
const META = { 'io.modelcontextprotocol/protocolVersion': STATELESS, 'io.modelcontextprotocol/clientCapabilities': {} };

describe('v2 SDK client pinned to 2026-07-28 over stdio', { skip: SKIP_NO_BINARY }, () => {
  let home, client;
  before(async () => {
    home = freshDir();
    const transport = new StdioClientTransport({
      command: BIN, args: [], env: { PATH: process.env.PATH, HOME: home, CODECALC_HOME: home },
    });
    client = new Client({ name: 'stdio-v2-pin', version: '1' }, { versionNegotiation: { mode: { pin: STATELESS } } });
    await client.connect(transport);
  });
  after(async () => { await client?.close(); removeDir(home); });

  test('negotiates 2026-07-28; lists tools; calls calc_exact and execute_code_stream', async () => {
    assert.equal(client.getNegotiatedProtocolVersion(), STATELESS);
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'calc_exact'));
    const r = await client.callTool({ name: 'calc_exact', arguments: { expr: '0.1+0.2 == 0.3' } });
    assert.equal(r.structuredContent.value, true);
    const progress = [];
    const s = await client.callTool({
      name: 'execute_code_stream',
      arguments: { language: 'python3', code: 'import time\nfor i in range(2):\n    print("n", i, flush=True)\n    time.sleep(0.4)' },
    }, { onprogress: (p) => progress.push(p) });
    assert.equal(s.structuredContent.stdout, 'n 0\nn 1\n');
    assert.ok(progress.length >= 1);
    assert.equal(progress.map((p) => p.message).join(''), 'n 0\nn 1\n'.slice(0, progress.at(-1).progress));
  });
});

describe('stateless lines on a stdio stream', { skip: SKIP_NO_BINARY }, () => {
  let home, proc, lines, waiting;
  const next = () => new Promise((res) => waiting.push(res));
  const send = (o) => proc.stdin.write(`${JSON.stringify(o)}\n`);
  before(() => {
    home = freshDir();
    proc = spawn(BIN, [], { env: { PATH: process.env.PATH, HOME: home, CODECALC_HOME: home }, stdio: ['pipe', 'pipe', 'ignore'] });
    lines = createInterface({ input: proc.stdout });
    waiting = [];
    lines.on('line', (l) => waiting.shift()?.(JSON.parse(l)));
  });
  after(async () => {
    proc.stdin.end();
    await new Promise((r) => proc.on('exit', r));
    removeDir(home);
  });

  test('server/discover answers identity, versions and resultType without initialize', async () => {
    send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } });
    const m = await next();
    assert.equal(m.id, 1);
    assert.equal(m.result.resultType, 'complete');
    assert.equal(m.result.supportedVersions[0], STATELESS);
    assert.ok(m.result.supportedVersions.includes('2025-11-25'));
    assert.equal(m.result.serverInfo.name, 'codecalc');
    assert.equal(m.result.capabilities.logging, undefined, 'no logging/setLevel in the stateless revision');
    assert.equal(m.result.ttlMs, 60000);
  });

  test('tools/list carries the cache hints; tools/call carries resultType', async () => {
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: META } });
    const l = await next();
    assert.equal(l.result.resultType, 'complete');
    assert.equal(l.result.cacheScope, 'public');
    send({ jsonrpc: '2.0', id: 'c', method: 'tools/call', params: { name: 'calc_exact', arguments: { expr: '7*6' }, _meta: META } });
    const c = await next();
    assert.equal(c.id, 'c');
    assert.equal(c.result.resultType, 'complete');
    assert.equal(c.result.structuredContent.value, '42');
  });

  test('an unsupported revision is refused with the supported list', async () => {
    send({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } });
    const m = await next();
    assert.equal(m.error.code, -32602);
    assert.equal(m.error.data.requested, '2099-01-01');
    assert.ok(m.error.data.supported.includes(STATELESS));
  });

  test('a 2025-era request on the same stream is answered as before (no resultType)', async () => {
    send({ jsonrpc: '2.0', id: 4, method: 'ping' });
    const m = await next();
    assert.deepEqual(m, { jsonrpc: '2.0', id: 4, result: {} });
  });
});
