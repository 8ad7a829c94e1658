// Helpers for the background-run suites: a server on a state directory the
// test chooses (so a second server can start on the same one after a kill),
// and polling helpers. Talks newline-delimited JSON-RPC directly.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, sleep } from '../mcp/harness.mjs';

export function newHome() {
  return mkdtempSync(join(tmpdir(), 'codecalc-runs-'));
}

export function removeHome(home) {
  // A detached shepherd may still be writing its result: retry instead of failing.
  rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

export class Server {
  constructor(home, env = {}) {
    this.home = home;
    this.proc = spawn(BIN, [], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODECALC_HOME: home, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.pid = this.proc.pid;
    this.pending = new Map();
    this.nextId = 1;
    this.stderr = '';
    this.exit = new Promise((resolve) => this.proc.once('exit', (code, signal) => {
      this.exited = { code, signal };
      for (const [, p] of this.pending) p.reject(new Error(`server exited (${code ?? signal})\n${this.stderr}`));
      this.pending.clear();
      resolve(this.exited);
    }));
    let buf = '';
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (chunk) => {
      buf += chunk;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (!line.trim()) continue;
        const msg = JSON.parse(line);
        const p = this.pending.get(msg.id);
        if (p) { this.pending.delete(msg.id); p.resolve(msg); }
      }
    });
    this.proc.stderr.on('data', (d) => { this.stderr = (this.stderr + d).slice(-20000); });
    this.proc.stdin.on('error', () => {});
  }

  request(method, params) {
    if (this.exited) return Promise.reject(new Error(`server gone: ${JSON.stringify(this.exited)}\n${this.stderr}`));
    const id = this.nextId++;
    const p = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.proc.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    return p;
  }

  async init() {
    const r = await this.request('initialize', {
      protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'runs-test', version: '0' },
    });
    if (!r.result) throw new Error(`initialize failed: ${JSON.stringify(r)}\n${this.stderr}`);
    this.proc.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    return this;
  }

  /** structuredContent of a tools/call (throws on a JSON-RPC error or isError). */
  async call(name, args) {
    const msg = await this.request('tools/call', { name, arguments: args });
    if (msg.error) throw new Error(`${name}: jsonrpc error ${JSON.stringify(msg.error)}`);
    if (msg.result.isError) throw new Error(`${name}: isError ${msg.result.content?.[0]?.text}`);
    return msg.result.structuredContent;
  }

  kill(sig = 'SIGKILL') {
    try { this.proc.kill(sig); } catch { /* gone */ }
    return this.exit;
  }

  async close() {
    if (!this.exited) {
      this.proc.stdin.end();
      const t = setTimeout(() => this.kill(), 3000);
      await this.exit;
      clearTimeout(t);
    }
    this.proc.stdout.destroy();
    this.proc.stderr.destroy();
  }
}

export async function startOn(home, env = {}) {
  return new Server(home, env).init();
}

const ACTIVE = new Set(['running', 'cancelling']);

/** Poll run_inspect until the run is terminal; returns the last answer. */
export async function waitTerminal(srv, runId, timeoutMs = 30000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await srv.call('run_inspect', { run_id: runId });
    if (!ACTIVE.has(r.state)) return r;
    if (Date.now() > end) return r;
    await sleep(100);
  }
}

/** "<pid> <start>" written by the run's shepherd, or null. */
export function shepherdPid(home, runId) {
  const f = join(home, 'runs', runId, 'shepherd.pid');
  if (!existsSync(f)) return null;
  return Number(readFileSync(f, 'utf8').split(' ')[0]);
}

export function alive(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const st = s.slice(s.lastIndexOf(')') + 2).split(' ')[0];
    return st !== 'Z' && st !== 'X';
  } catch { return false; }
}

/** PRAGMA integrity_check of state.db through the sqlite3 shell; null when
 * the shell is not installed. */
export function integrity(home) {
  const r = spawnSync('sqlite3', [join(home, 'state.db'), 'PRAGMA integrity_check;'], { encoding: 'utf8' });
  if (r.error) return null;
  return r.stdout.trim();
}

export function sql(home, query) {
  const r = spawnSync('sqlite3', [join(home, 'state.db'), query], { encoding: 'utf8' });
  return r.error ? null : r.stdout.trim();
}

/** Processes whose command line contains marker (scan of /proc). */
export function procsWith(marker) {
  const out = [];
  for (const d of spawnSync('ls', ['/proc'], { encoding: 'utf8' }).stdout.split('\n')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(marker) && alive(Number(d))) out.push(Number(d));
    } catch { /* gone */ }
  }
  return out;
}
