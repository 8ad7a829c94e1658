// The official TypeScript SDK's Streamable HTTP client against serve-http:
// what a real remote agent does (initialize, session header, tools/list with
// output-schema validation armed, tools/call, DELETE on close).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SKIP_NO_BINARY, startHttp } from './http_harness.mjs';

describe('SDK StreamableHTTPClientTransport', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startHttp(); });
  after(async () => { await s?.stop(); });

  test('connects, lists tools, calls calc_exact, and terminates its session', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(s.url));
    const client = new Client({ name: 'sdk-http-test', version: '1.0.0' });
    await client.connect(transport);
    assert.match(transport.sessionId, /^[0-9a-f]{32}$/);
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'calc_exact'));
    const r = await client.callTool({ name: 'calc_exact', arguments: { expr: '0.1 + 0.2 == 0.3' } });
    assert.equal(r.structuredContent.value, true);
    const progress = [];
    const r2 = await client.callTool({ name: 'calc_exact', arguments: { expr: '7 // 2' } }, undefined,
      { onprogress: (p) => progress.push(p) });
    assert.equal(r2.structuredContent.value, '3');
    await client.ping();
    const sid = transport.sessionId;
    await transport.terminateSession();
    const after = await fetch(s.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': sid },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
    });
    assert.equal(after.status, 404);
    await client.close();
  });
});
