// Shared helpers for the end-to-end suites.
//
// Two ways to talk to the server:
//  * startServer(): the official MCP TypeScript SDK client over stdio. This
//    is what a real agent sees, and the SDK itself validates every
//    structuredContent against the tool's outputSchema once tools/list has
//    been fetched (we fetch it on connect so that check is always armed).
//  * RawServer: our own newline-delimited JSON-RPC pipe, for what the SDK
//    cannot express: malformed lines, integers beyond 2^53 written as exact
//    digits, pipelining, and knowing the server's pid for the fault tests.
//
// Every server gets a fresh CODECALC_HOME under the OS temp dir, removed on
// close, so suites never see each other's state.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdtempSync, rmSync, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Ajv from 'ajv';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(here, '..', '..');
export const BIN = process.env.CODECALC_BIN || join(REPO, 'build', 'bin', 'codecalc');
export const CONTRACT_VERSION = '1.3.0';

/**
 * What the sandbox can apply on this host, as `codecalc-exec --probe` finds
 * it ({userns, pidns, ..., cgroup_v2, cgroup_v1_memory, cgroup_v1_pids,
 * seccomp, root}); read once. A non-root server usually gets no cgroup.
 */
let sandboxCapsMemo;
export function sandboxCaps() {
  if (!sandboxCapsMemo) {
    const exec = join(dirname(BIN), 'codecalc-exec');
    sandboxCapsMemo = JSON.parse(execFileSync(exec, ['--probe'], { encoding: 'utf8' }));
  }
  return sandboxCapsMemo;
}
export const hasPidsCgroup = () => sandboxCaps().cgroup_v2 || sandboxCaps().cgroup_v1_pids;
export const hasMemoryCgroup = () => sandboxCaps().cgroup_v2 || sandboxCaps().cgroup_v1_memory;

/**
 * The unenforced list a run on this host must carry: [] where the cgroups
 * exist (a positive claim), else exactly the pids group and the process
 * ceiling standing in for it, plus the memory group when a memory ceiling
 * was asked for, plus (a non-root server's one-shot run) the unbounded run
 * directory. Entries are matched by their opening words.
 */
export function assertHostDisclosures(unenforced, { memory = false, oneShot = true } = {}) {
  const want = [];
  // Only a root server can mount a bounded tmpfs on a one-shot run directory.
  if (oneShot && process.getuid() !== 0) want.push("run_directory_bound: on the host's disk");
  if (!hasPidsCgroup()) want.push('pids_cgroup: cannot create a pids cgroup here', 'process_limit: no pids cgroup holds this run; RLIMIT_NPROC (');
  if (memory && !hasMemoryCgroup()) want.push('memory_cgroup: no memory cgroup could hold the ceiling here; RLIMIT_AS');
  // A non-root server's box is in a user namespace owned by the server's uid
  // (workers/sandbox/userns.c): its per-uid kernel pools are shared.
  if (process.getuid() !== 0) want.push('per_uid_pools: no user namespace owned by this run alone');
  assert.equal(unenforced.length, want.length, JSON.stringify(unenforced));
  for (const w of want) assert.ok(unenforced.some((u) => u.startsWith(w)), `${w}... missing from ${JSON.stringify(unenforced)}`);
}

/**
 * The rows a default installation registers (every group, no test tools),
 * as `codecalc tools --json` prints them: [{name, group, title}]. Tests
 * that concern a group take its tools from here, so a new row needs no
 * list of ours extended.
 */
export function registeredTools() {
  const env = { PATH: process.env.PATH, HOME: '/tmp' };
  return JSON.parse(execFileSync(BIN, ['tools', '--json'], { env, encoding: 'utf8' }));
}

/** Names of the registered tools of one group. */
export const toolsOfGroup = (group) => registeredTools().filter((t) => t.group === group).map((t) => t.name);

// The 25 calculator tools of TOOLS.md 0.4 (the spec's list: a tool added
// since belongs to the group without being named here).
export const CALCULATOR_TOOLS = [
  'calc_exact', 'compare_threshold', 'percentage', 'calc_stats', 'percentiles',
  'collision_probability', 'data_sizes', 'human_duration', 'epoch_time', 'base_repr',
  'radix_convert', 'float_repr', 'int_widths', 'bit_analysis', 'bitop',
  'solve_expression', 'limit_expression', 'simplify_expression', 'convert_units',
  'physical_constants', 'list_units', 'evaluate_expression', 'truth_table',
  'solve_linear', 'matrix',
];

export const CLOSED_CODES = [
  'validation', 'runtime_unavailable', 'timeout', 'resource_exhausted',
  'permission_denied', 'dependency_missing', 'worker_failure', 'internal',
];

/** true when the server binary exists; suites skip (with a reason) otherwise. */
export function binaryPresent() {
  return existsSync(BIN);
}
export const SKIP_NO_BINARY = binaryPresent() ? false : `server binary not built: ${BIN}`;

function freshHome() {
  return mkdtempSync(join(tmpdir(), 'codecalc-test-'));
}

/** Every directory of a tree made writable by its owner again (best effort). */
function makeWritable(dir) {
  try {
    if (!lstatSync(dir).isDirectory()) return;
    chmodSync(dir, 0o700);
    for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) makeWritable(join(dir, e.name));
  } catch { /* gone or not ours: rmSync says what is left */ }
}

/**
 * Remove a server's state directory. Sealed entries (dependency
 * environments, mode 0555) cannot be emptied by a user without root's
 * override: under a non-root server they are made writable first.
 */
export function removeHome(home) {
  if (process.getuid() !== 0) makeWritable(home);
  rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

function baseEnv(home, extra) {
  // The SDK passes only a small default environment; give the server a PATH
  // and its own home, plus whatever the test asks for.
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODECALC_HOME: home, ...extra };
}

// ---------------------------------------------------------------------------
// SDK client

/**
 * Start the server through the SDK. Returns {client, tools, call, callRaw,
 * close}. tools is the tools/list answer keyed by name.
 */
export async function startServer({ env = {}, stderr = 'pipe' } = {}) {
  const home = freshHome();
  const transport = new StdioClientTransport({
    command: BIN, args: [], env: baseEnv(home, env), stderr,
  });
  let stderrText = '';
  transport.stderr?.on('data', (d) => { stderrText = (stderrText + d).slice(-20000); });
  // Record the negotiated revision: the SDK checks it but keeps it private
  // for stdio, so watch the initialize answer go by.
  let protocolVersion;
  let onmessage;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => onmessage,
    set: (fn) => {
      onmessage = fn && ((msg, extra) => {
        if (protocolVersion === undefined && msg?.result?.protocolVersion) protocolVersion = msg.result.protocolVersion;
        return fn(msg, extra);
      });
    },
  });
  const client = new Client({ name: 'codecalc-e2e', version: '0.0.0' });
  try {
    await client.connect(transport);
  } catch (e) {
    removeHome(home);
    e.message += `\n--- server stderr ---\n${stderrText}`;
    throw e;
  }
  const list = await client.listTools(); // arms the SDK's output validation
  const tools = new Map(list.tools.map((t) => [t.name, t]));

  /**
   * Call a tool; return the full CallToolResult after checking that the
   * text block and structuredContent carry the same object. The SDK throws
   * if structuredContent does not validate against the outputSchema.
   */
  async function callRaw(name, args = {}, options = {}) {
    const res = await client.callTool({ name, arguments: args }, undefined, options);
    assert.ok(Array.isArray(res.content) && res.content.length >= 1, `${name}: no content`);
    if (!res.isError) {
      assert.equal(res.content[0].type, 'text', `${name}: first block is not text`);
      assert.ok(res.structuredContent, `${name}: no structuredContent`);
      assert.deepStrictEqual(JSON.parse(res.content[0].text), res.structuredContent,
        `${name}: text block and structuredContent differ`);
    }
    return res;
  }

  /** structuredContent of a successful-transport call; asserts the contract version. */
  async function call(name, args = {}, options = {}) {
    const res = await callRaw(name, args, options);
    assert.ok(!res.isError, `${name}(${JSON.stringify(args)}) isError: ${res.content?.[0]?.text}`);
    const sc = res.structuredContent;
    assert.equal(sc.contract_version, CONTRACT_VERSION, `${name}: contract_version`);
    return sc;
  }

  // Workers inherit the server's stderr and may outlive it by a moment;
  // drop our ends of the pipes so they cannot keep this process alive.
  const child = transport._process; // pinned SDK version: the spawned ChildProcess
  async function close() {
    try {
      await client.close();
    } finally {
      child?.stdout?.destroy();
      child?.stderr?.destroy();
      removeHome(home);
    }
  }

  return {
    client, transport, tools, call, callRaw, close, home, protocolVersion, stderr: () => stderrText,
  };
}

/** Assert r is the rejected shape with this code (TOOLS.md 1.10). */
export function assertRejected(r, code, errorPattern) {
  assert.equal(r.ok, false, `expected ok:false, got ${JSON.stringify(r)}`);
  assert.equal(r.code, code, `code for ${JSON.stringify(r)}`);
  assert.equal(typeof r.error, 'string');
  assert.ok(r.error.length > 0, 'empty error');
  assert.equal(typeof r.remedy, 'string');
  assert.ok(r.remedy.length > 0, 'empty remedy');
  assert.equal(r.contract_version, CONTRACT_VERSION);
  if (errorPattern instanceof RegExp) assert.match(r.error, errorPattern);
  else if (typeof errorPattern === 'string') assert.equal(r.error, errorPattern);
}

/**
 * The exact JSON number token of a top-level key in a JSON text. JS numbers
 * lose digits past 2^53, so big integers are checked as text.
 */
export function rawNumber(text, key) {
  const re = new RegExp(`"${key}"\\s*:\\s*(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)`);
  const m = re.exec(text);
  return m ? m[1] : undefined;
}

const ajv = new Ajv({ strict: false, allErrors: true });
const validators = new Map();
/** Validate v against a JSON Schema object; returns the ajv error text or null. */
export function schemaErrors(schema, v) {
  const key = JSON.stringify(schema);
  let fn = validators.get(key);
  if (!fn) { fn = ajv.compile(schema); validators.set(key, fn); }
  return fn(v) ? null : ajv.errorsText(fn.errors);
}

// ---------------------------------------------------------------------------
// Raw newline-delimited JSON-RPC

export class RawServer {
  constructor({ env = {} } = {}) {
    this.home = freshHome();
    this.proc = spawn(BIN, [], { env: baseEnv(this.home, env), stdio: ['pipe', 'pipe', 'pipe'] });
    this.pid = this.proc.pid;
    this.pending = new Map();   // id -> {resolve, reject, timer}
    this.orphans = [];          // responses with id null / unknown id
    this.orphanWaiters = [];
    this.notifications = []; // every notification from the server, in order
    this.stderrText = '';
    this.exited = null;
    this.nextId = 1000000;
    let buf = '';
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (chunk) => {
      buf += chunk;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.trim() !== '') this.#onLine(line);
      }
    });
    this.proc.stderr.on('data', (d) => { this.stderrText = (this.stderrText + d).slice(-20000); });
    this.proc.stdin.on('error', () => {}); // a dead server shows up as a timeout/exit, not a crash
    this.proc.on('error', (e) => { // spawn failure (missing binary, EACCES): fail the waiters
      this.exited = { error: e.message };
      for (const [, p] of this.pending) { clearTimeout(p.timer); p.reject(e); }
      this.pending.clear();
    });
    this.proc.on('exit', (code, signal) => {
      this.exited = { code, signal };
      for (const [, p] of this.pending) {
        clearTimeout(p.timer); // a pending timer would keep the test process alive
        p.reject(new Error(`server exited (${code ?? signal}) with a request pending\n${this.stderrText}`));
      }
      this.pending.clear();
    });
  }

  #onLine(line) {
    let msg;
    try { msg = JSON.parse(line); } catch {
      this.#orphan({ unparsable: line });
      return;
    }
    msg.__raw = line;
    if (msg.id !== undefined && msg.id !== null && this.pending.has(msg.id)) {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      clearTimeout(p.timer);
      p.resolve(msg);
    } else if (msg.method !== undefined && msg.id === undefined) {
      // a notification from the server (log, progress): not a response
      this.notifications.push(msg);
    } else {
      this.#orphan(msg);
    }
  }

  #orphan(msg) {
    const w = this.orphanWaiters.shift();
    if (w) { clearTimeout(w.timer); w.resolve(msg); } else this.orphans.push(msg);
  }

  /** Next response that matched no pending id (e.g. a parse error with id null). */
  nextOrphan(timeoutMs = 5000) {
    if (this.orphans.length) return Promise.resolve(this.orphans.shift());
    return new Promise((resolve, reject) => {
      const w = { resolve, timer: null };
      w.timer = setTimeout(() => {
        this.orphanWaiters = this.orphanWaiters.filter((x) => x !== w);
        reject(new Error(`no unmatched response within ${timeoutMs} ms`));
      }, timeoutMs);
      this.orphanWaiters.push(w);
    });
  }

  /** Stop waiting for id (its timer is cleared; a late answer becomes an orphan). */
  cancel(id) {
    const p = this.pending.get(id);
    if (p) { clearTimeout(p.timer); this.pending.delete(id); p.resolve(null); }
  }

  /** Abandon every nextOrphan() still waiting (they resolve to null). */
  dropOrphanWaiters() {
    for (const w of this.orphanWaiters) { clearTimeout(w.timer); w.resolve(null); }
    this.orphanWaiters = [];
  }

  /** Write raw text (a newline is appended). */
  writeLine(text) {
    this.proc.stdin.write(text + '\n');
  }

  /** Register a waiter for id, without writing anything. */
  expect(id, timeoutMs = 10000) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`no response for id ${id} within ${timeoutMs} ms\n${this.stderrText}`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
    });
  }

  /**
   * Send a request. paramsText, if a string, is spliced in verbatim (so big
   * integers keep their digits); otherwise params is JSON-encoded.
   */
  request(method, params, { id = this.nextId++, timeoutMs = 10000 } = {}) {
    if (this.exited) return Promise.reject(new Error(`server is gone: ${JSON.stringify(this.exited)}\n${this.stderrText}`));
    const p = this.expect(id, timeoutMs);
    const paramsText = typeof params === 'string' ? params : JSON.stringify(params ?? {});
    this.writeLine(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":${JSON.stringify(method)},"params":${paramsText}}`);
    return p;
  }

  notify(method, params = {}) {
    this.writeLine(JSON.stringify({ jsonrpc: '2.0', method, params }));
  }

  /** The legacy initialize handshake. Returns the initialize result. */
  async initialize(protocolVersion = '2025-11-25') {
    const r = await this.request('initialize', {
      protocolVersion, capabilities: {}, clientInfo: { name: 'codecalc-raw', version: '0.0.0' },
    });
    assert.ok(r.result, `initialize failed: ${r.__raw}`);
    this.notify('notifications/initialized');
    return r.result;
  }

  /**
   * tools/call with the arguments as literal JSON text. Returns
   * {msg, result, text, sc}: the whole response, its result, the first text
   * block verbatim and structuredContent.
   */
  async callTool(name, argsText, opts = {}) {
    const msg = await this.request('tools/call', `{"name":${JSON.stringify(name)},"arguments":${argsText}}`, opts);
    const result = msg.result;
    return { msg, result, text: result?.content?.[0]?.text, sc: result?.structuredContent };
  }

  async close() {
    if (!this.exited && this.proc.exitCode === null && this.proc.pid !== undefined) {
      this.proc.stdin.end();
      const done = new Promise((r) => this.proc.once('exit', r));
      const t = setTimeout(() => { try { this.proc.kill('SIGKILL'); } catch { /* gone */ } }, 3000);
      await done;
      clearTimeout(t);
    }
    this.proc.stdout.destroy(); // see startServer().close
    this.proc.stderr.destroy();
    removeHome(this.home);
  }
}

/**
 * A RawServer started with CODECALC_TEST_OPS=1 (plus env), initialized.
 * skip: false, or why the test-only tools __test_sleep/__test_crash are
 * not offered (the tests that need them skip with it).
 */
export async function startTestOpsServer(env = {}) {
  const r = new RawServer({ env: { CODECALC_TEST_OPS: '1', ...env } });
  await r.initialize();
  const list = await r.request('tools/list', {});
  const names = new Set((list.result?.tools ?? []).map((t) => t.name));
  const skip = names.has('__test_sleep') && names.has('__test_crash') ? false
    : 'the server does not offer __test_sleep/__test_crash with CODECALC_TEST_OPS=1';
  return { r, skip };
}

/** A response that reports a failure: JSON-RPC error, isError, or ok:false. */
export function failureOf(msg) {
  if (msg.error) return `jsonrpc ${msg.error.code}: ${msg.error.message}`;
  if (msg.result?.isError) return `isError: ${msg.result.content?.[0]?.text}`;
  const sc = msg.result?.structuredContent;
  if (sc && sc.ok === false) return `${sc.code}: ${sc.error}`;
  return null;
}

// ---------------------------------------------------------------------------
// Processes

/** Parse /proc/<pid>/stat into {pid, comm, state, ppid}; null if gone. */
export function procStat(pid) {
  let s;
  try { s = readFileSync(`/proc/${pid}/stat`, 'utf8'); } catch { return null; }
  const open = s.indexOf('('), close = s.lastIndexOf(')');
  const rest = s.slice(close + 2).split(' ');
  return { pid: Number(pid), comm: s.slice(open + 1, close), state: rest[0], ppid: Number(rest[1]) };
}

/** Whether pid is blocked in nanosleep/clock_nanosleep (x86_64 and arm64
 * numbers): a worker serving __test_sleep, as opposed to one idle in poll. */
export function inSleep(pid) {
  let s;
  try { s = readFileSync(`/proc/${pid}/syscall`, 'utf8'); } catch { return false; }
  const nr = Number(s.split(' ')[0]);
  return process.arch === 'arm64' ? nr === 101 || nr === 115 : nr === 35 || nr === 230;
}

/** Direct children of pid (scan of /proc; works without CONFIG_PROC_CHILDREN). */
export function childrenOf(pid) {
  const out = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const st = procStat(d);
    if (st && st.ppid === pid) out.push(st);
  }
  return out;
}

/** Live calc workers of the server (comm is truncated to 15 chars by the kernel). */
export function calcWorkers(serverPid) {
  return childrenOf(serverPid).filter((c) => c.comm === 'codecalc-calc' && c.state !== 'Z');
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Processes (pid, uid) whose command line is `sleep <marker>`: a run's
 *  child, seen from the host (the sandbox's pid namespace is nested in
 *  ours). A marker is a unique number of seconds. */
export function markerProcs(marker) {
  const out = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const argv = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
      if (argv[0] === 'sleep' && argv[1] === marker) out.push({ pid: Number(d), uid: statSync(`/proc/${d}`).uid });
    } catch { /* the process ended while we looked */ }
  }
  return out;
}

/** Poll fn until it returns a truthy value or the time runs out. */
export async function waitFor(fn, timeoutMs = 5000, stepMs = 25) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) return v;
    await sleep(stepMs);
  }
}
