// Helpers for the hostile-program suite (tests/security).
//
// Every hostile case follows the same discipline:
//   1. start a server of our own, with a canary secret in its environment
//      and a private TMPDIR, so what we count belongs to this server only;
//   2. prove containment first (containment()): a probe run must show a
//      private pid namespace, the unprivileged run uid, per-run cgroups and
//      an empty `unenforced`. When it does not, the attack is SKIPPED with
//      the reason -- we are root here, and an escaped fork bomb or kill(-1)
//      would take the machine down with it;
//   3. attack, assert the exact verdict and fields, then assert from the
//      host side that nothing leaked and the server still answers.
//
// The server and its workers are found through /proc (we run as the same
// user as the server, so every file we read here is readable).

import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, chmodSync, existsSync, statSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, procStat, childrenOf, waitFor, SKIP_NO_BINARY, assertHostDisclosures } from '../mcp/harness.mjs';

export { SKIP_NO_BINARY, waitFor };
export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
export const RUN_UID = 64999;             // SBX_RUN_UID in workers/sandbox/sandbox.h
export const TRUNC_MARKER = '\n...[truncated]';

/** Text of a fixture, with every @NAME@ placeholder replaced from vars. */
export function fixture(name, vars = {}) {
  let text = readFileSync(join(FIXTURES, name), 'utf8');
  for (const [k, v] of Object.entries(vars)) text = text.replaceAll(`@${k}@`, String(v));
  assert.ok(!/@[A-Z_]+@/.test(text), `fixture ${name}: unreplaced placeholder`);
  return text;
}

export const nonce = () => randomBytes(8).toString('hex');

/**
 * Start a server through the SDK with a canary secret and a private TMPDIR
 * (run directories land there, so they can be counted exactly).
 * opts.env adds variables; opts.tmpBase picks where TMPDIR is created
 * (default /tmp; /var/tmp puts it outside the sandbox's private /tmp).
 */
export async function startSecServer({ env = {}, tmpBase = '/tmp' } = {}) {
  const tmp = mkdtempSync(join(tmpBase, 'codecalc-sec-tmp-'));
  chmodSync(tmp, 0o755);
  const canary = `canary-${nonce()}`;
  let s;
  try {
    s = await startServer({ env: { CODECALC_CANARY_SECRET: canary, TMPDIR: tmp, ...env } });
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    throw e;
  }
  const pid = s.transport._process.pid;
  const close = s.close;
  return {
    ...s, pid, tmp, canary,
    /** execute_code; asserts a normal (non-isError) result and returns structuredContent. */
    async exec(args, timeoutMs = 120000) {
      const res = await s.callRaw('execute_code', args, { timeout: timeoutMs });
      assert.ok(!res.isError, `execute_code isError: ${res.content?.[0]?.text}`);
      return res.structuredContent;
    },
    async close() {
      try { await close(); } finally { rmSync(tmp, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }); }
    },
  };
}

/** "name value..." lines of a run's stdout as an object of string arrays. */
export const fields = (r) => Object.fromEntries(r.stdout.trim().split('\n').filter(Boolean).map((l) => {
  const [k, ...v] = l.split(' ');
  return [k, v];
}));

/**
 * A directory outside the runs' private /tmp that uid 64999 can read
 * through the read-only host view: a test releases a holding run by
 * creating a file in it (holdUntil). Remove it with rmSync when done.
 */
export function flagDir(prefix) {
  return openDir('/var/tmp', prefix);
}

/** Python lines that wait (at most 60 s) until path exists, then print "released 1". */
export const holdUntil = (path) => [
  't0 = time.time()',
  `while not os.path.exists(${JSON.stringify(path)}) and time.time() - t0 < 60: time.sleep(0.02)`,
  `print("released", int(os.path.exists(${JSON.stringify(path)})), flush=True)`,
];

/** Short description of an envelope for assertion messages. */
export function brief(r) {
  if (!r) return String(r);
  const { provider, ...rest } = r;
  const j = JSON.stringify(rest);
  return j.length > 1500 ? `${j.slice(0, 1500)}...` : j;
}

// ---------------------------------------------------------------------------
// Containment gate

const PROBE = `import os, json
pids = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())
cg = open('/proc/self/cgroup').read()
root_ro = False
for line in open('/proc/self/mounts'):
    f = line.split()
    if f[1] == '/':
        root_ro = 'ro' in f[3].split(',')
print(json.dumps({'pids': pids, 'uid': os.getuid(), 'euid': os.geteuid(), 'cgroup': cg, 'root_ro': root_ro}))
`;

const contained = new WeakMap();

/**
 * Run the containment probe once per server. Returns null when the sandbox
 * is fully active, else a human reason to skip hostile cases.
 */
export async function containment(s) {
  if (contained.has(s)) return contained.get(s);
  let reason = null;
  try {
    const r = await s.exec({ language: 'python3', code: PROBE, timeout: 20 });
    if (r.verdict !== 'OK') reason = `containment probe did not run cleanly: ${brief(r)}`;
    else {
      const p = JSON.parse(r.stdout);
      const cgLines = p.cgroup.split('\n');
      if (JSON.stringify(p.pids) !== '[1,2]') reason = `no private pid namespace: /proc shows ${JSON.stringify(p.pids).slice(0, 200)}`;
      else if (p.uid !== RUN_UID || p.euid !== RUN_UID) reason = `program runs as uid ${p.uid}/${p.euid}, not the dedicated ${RUN_UID}`;
      else if (!cgLines.some((l) => /:pids:.*\/codecalc\/run-/.test(l) || /^0::.*\/run-/.test(l))) reason = `no per-run pids cgroup: ${p.cgroup}`;
      else if (!p.root_ro) reason = 'the root filesystem is writable inside the run';
      else if (!Array.isArray(r.unenforced) || r.unenforced.length !== 0) reason = `unenforced is not empty: ${JSON.stringify(r.unenforced)}`;
    }
  } catch (e) {
    reason = `containment probe failed: ${e.message}`;
  }
  contained.set(s, reason);
  return reason;
}

const isolatedMemo = new WeakMap();

/**
 * The weaker gate of the isolation and network cases: a private pid
 * namespace and a read-only host view, which a non-root server has too
 * (user namespaces). Then only its cgroups are missing: the probe's
 * unenforced must list exactly those (assertHostDisclosures). null, or the
 * reason to skip.
 */
export async function isolation(s) {
  if (!(await containment(s))) return null;
  if (isolatedMemo.has(s)) return isolatedMemo.get(s);
  let reason = null;
  try {
    const r = await s.exec({ language: 'python3', code: PROBE, timeout: 20 });
    const p = r.verdict === 'OK' ? JSON.parse(r.stdout) : null;
    if (!p) reason = `containment probe did not run cleanly: ${brief(r)}`;
    else if (JSON.stringify(p.pids) !== '[1,2]') reason = `no private pid namespace: /proc shows ${JSON.stringify(p.pids).slice(0, 200)}`;
    else if (!p.root_ro) reason = 'the root filesystem is writable inside the run';
    else if (process.getuid() === 0) reason = await containment(s);
    else assertHostDisclosures(r.unenforced);
  } catch (e) {
    reason = `isolation probe failed: ${e.message}`;
  }
  isolatedMemo.set(s, reason);
  return reason;
}

/** In a test: skip it (returning true) unless isolation is proven. */
export async function skipUnlessIsolated(t, s) {
  const why = await isolation(s);
  if (why) { t.skip(`isolation not active, attack not attempted: ${why}`); return true; }
  return false;
}

/** In a test: skip it (returning true) unless containment is proven. */
export async function skipUnlessContained(t, s) {
  const why = await containment(s);
  if (why) { t.skip(`containment not active, attack not attempted: ${why}`); return true; }
  return false;
}

// ---------------------------------------------------------------------------
// Host-side views

/** Real uid of pid (from /proc/<pid>/status), or null when gone. */
export function uidOf(pid) {
  try {
    const m = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch { return null; }
}

export function allPids() {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
}

/** Is `pid` (transitively) a child of `ancestor`? */
export function descendsFrom(pid, ancestor) {
  for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
    const st = procStat(p);
    if (!st) return false;
    if (st.ppid === ancestor) return true;
    p = st.ppid;
  }
  return false;
}

/** Live (non-zombie) processes of the run uid that belong to this server. */
export function runProcsOf(serverPid) {
  return allPids().filter((p) => {
    if (uidOf(p) !== RUN_UID) return false;
    const st = procStat(p);
    return st && st.state !== 'Z' && descendsFrom(p, serverPid);
  });
}

/** Every process below serverPid (any uid), e.g. leftover run inits. */
export function descendantsOf(serverPid) {
  return allPids().filter((p) => descendsFrom(p, serverPid));
}

/** Exec workers of the server (comm is cut to 15 chars by the kernel). */
export function execWorkers(serverPid) {
  return childrenOf(serverPid).filter((c) => c.comm === 'codecalc-exec' && c.state !== 'Z').map((c) => c.pid);
}

/** Processes whose argv is exactly argv (an array of strings). */
export function procsWithArgv(argv) {
  const want = argv.join('\0');
  return allPids().filter((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0$/, '') === want;
    } catch { return false; }
  });
}

/** Run-directory entries (codecalc-*) in dir. */
export function runDirsIn(dir) {
  try { return readdirSync(dir).filter((n) => n.startsWith('codecalc-')); } catch { return []; }
}

/** Per-run cgroup directories (run-<pid>-<n>) under the v1 memory/pids and v2 trees. */
export function runCgroups() {
  const out = [];
  const walk = (dir, depth) => {
    if (depth > 6) return;
    let ents;
    try { ents = readdirSync(dir, { withFileTypes: true }); } catch { return; }
    for (const e of ents) {
      if (!e.isDirectory()) continue;
      const p = join(dir, e.name);
      if (/^run-\d+-\d+$/.test(e.name) && dir.includes('codecalc')) out.push(p);
      else walk(p, depth + 1);
    }
  };
  for (const top of ['/sys/fs/cgroup/memory', '/sys/fs/cgroup/pids', '/sys/fs/cgroup/unified', '/sys/fs/cgroup']) {
    if (!existsSync(top)) continue;
    if (top === '/sys/fs/cgroup' && existsSync('/sys/fs/cgroup/memory')) continue; // v1 host: done above
    walk(top, 0);
  }
  return [...new Set(out)];
}

/** Run cgroups created by one of these worker pids. */
export function runCgroupsOfWorkers(workerPids) {
  const set = new Set(workerPids.map(String));
  return runCgroups().filter((p) => set.has(/run-(\d+)-\d+$/.exec(p)[1]));
}

/** Environment of pid as a string ('' when unreadable). */
export function environOf(pid) {
  try { return readFileSync(`/proc/${pid}/environ`, 'latin1'); } catch { return ''; }
}

export function alive(pid) {
  const st = procStat(pid);
  return st !== null && st.state !== 'Z' && st.state !== 'X';
}

/** mkdtemp under base, world-readable so only the sandbox can hide it. */
export function openDir(base, prefix) {
  const d = mkdtempSync(join(base, prefix));
  chmodSync(d, 0o755);
  return d;
}

export function isDir(p) {
  try { return statSync(p).isDirectory(); } catch { return false; }
}
