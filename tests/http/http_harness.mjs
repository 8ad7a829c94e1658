// Helpers for the Streamable HTTP suites: start `codecalc serve-http` on a
// free loopback port (the server prints the URL it bound on stderr), and
// small fetch wrappers for both protocol eras.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(here, '..', '..');
export const BIN = process.env.CODECALC_BIN || join(REPO, 'build', 'bin', 'codecalc');
export const SKIP_NO_BINARY = existsSync(BIN) ? false : `server binary not built: ${BIN}`;
export const STATELESS = '2026-07-28';
export const ACCEPT_BOTH = 'application/json, text/event-stream';

/** Start serve-http. Returns {url, port, proc, stderr(), stop(), exited}. */
export async function startHttp({ env = {}, args = [] } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'codecalc-http-'));
  const proc = spawn(BIN, ['serve-http', '--host', '127.0.0.1', '--port', '0', ...args], {
    env: { PATH: process.env.PATH, HOME: home, CODECALC_HOME: home, CODECALC_TEST_OPS: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const exited = new Promise((res) => proc.on('exit', (code, signal) => res({ code, signal })));
  const url = await new Promise((res, rej) => {
    const t = setTimeout(() => rej(new Error(`server did not start: ${err}`)), 10000);
    proc.stderr.on('data', (d) => {
      err += d;
      const m = /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(err);
      if (m) { clearTimeout(t); res(m[0]); }
    });
    proc.on('exit', () => { clearTimeout(t); rej(new Error(`server exited: ${err}`)); });
  });
  return {
    url,
    port: Number(new URL(url).port),
    proc,
    exited,
    stderr: () => err,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
      rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

/**
 * Wait until the server counts at least n tool calls in flight (GET
 * /metrics), so a test that cancels or signals "a call in flight" does so
 * once the call is in; a fixed sleep raced the POST's arrival under load.
 * Throws after ms.
 */
export async function untilInFlight(url, n = 1, ms = 30000) {
  const metrics = `${new URL(url).origin}/metrics`;
  for (const end = Date.now() + ms; ;) {
    const m = /^codecalc_requests_in_flight (\d+)$/m.exec(await (await fetch(metrics)).text());
    if (m && Number(m[1]) >= n) return;
    if (Date.now() > end) throw new Error(`fewer than ${n} calls in flight after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Raw POST of a JSON-RPC message (object or text). Returns {status, headers, text, json}. */
export async function post(url, body, headers = {}, init = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: ACCEPT_BOTH, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
  const text = await res.text();
  let json;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: res.status, headers: res.headers, text, json };
}

/** initialize a 2025-era session; returns its id. */
export async function openSession(url, version = '2025-11-25') {
  const r = await post(url, {
    jsonrpc: '2.0', id: 0, method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'http-test', version: '1' } },
  });
  if (r.status !== 200) throw new Error(`initialize: ${r.status} ${r.text}`);
  return r.headers.get('mcp-session-id');
}

export function sessionHeaders(sid, version = '2025-11-25') {
  return { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': version };
}

/** Headers of a 2026-07-28 request for method (and its Mcp-Name). */
export function statelessHeaders(method, name) {
  const h = { 'MCP-Protocol-Version': STATELESS, 'Mcp-Method': method };
  if (name !== undefined) h['Mcp-Name'] = name;
  return h;
}

export function statelessParams(params = {}) {
  return {
    ...params,
    _meta: {
      ...(params._meta || {}),
      'io.modelcontextprotocol/protocolVersion': STATELESS,
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  };
}

/** A stateless tools/call; returns the parsed response. */
export async function statelessCall(url, id, name, args, extra = {}) {
  return post(url, {
    jsonrpc: '2.0', id, method: 'tools/call', params: statelessParams({ name, arguments: args }),
  }, statelessHeaders('tools/call', name), extra);
}

/** The structured result of a tools/call response. */
export function structured(resp) {
  return resp.json?.result?.structuredContent;
}

/** Parse an SSE body into the JSON messages of its data fields. */
export function sseMessages(text) {
  const out = [];
  for (const block of text.split(/\n\n/)) {
    const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart());
    if (data.length) out.push(JSON.parse(data.join('\n')));
  }
  return out;
}
