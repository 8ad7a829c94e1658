// Chaos: 64 clients call a mix of tools over stdio and HTTP while a driver
// SIGKILLs and SIGSTOPs random workers, REPL launchers and hosts and run
// shepherds of these servers (and only these: see ours.mjs). Afterwards:
//  - no call was answered with another call's answer (every answer carries
//    a value only its own request could produce),
//  - no call was lost (each got its answer or a clear error in time),
//  - every server still serves every kind of call,
//  - nothing leaked: no process, run cgroup or run directory of ours
//    outlives the servers, and a server holds as many descriptors as before
//    the chaos (beyond one socket per live worker).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, rmdirSync } from 'node:fs';
import { RawServer, sleep, waitFor, SKIP_NO_BINARY } from '../mcp/harness.mjs';
import { startHttp } from '../http/http_harness.mjs';
import {
  stat, ownedProcesses, descendants, signalSame, fdCounts, liveChildren, cgroupsMadeBy, cgroupsLeft,
  runDirsLeft,
} from './ours.mjs';
import {
  rand, privateDir, serverEnv, stdioTransport, httpTransport, tally, resetTally, problemsMark,
  problemsSince, calc, symbolic, execute, replStep, runStep,
} from './load.mjs';

const CHAOS_MS = Number(process.env.CODECALC_CHAOS_MS || 25000);
const STDIO_SERVERS = 2, STDIO_CLIENTS_EACH = 16, HTTP_CLIENTS = 32; // 64 clients

// ---------------------------------------------------------------------------

describe('chaos: faults injected into our own servers under load', { skip: SKIP_NO_BINARY, timeout: 240000 }, () => {
  const servers = []; // {kind, pid, home, tmp, transportFor(), close()}
  const markers = [];
  const ourCgroups = new Map(); // run cgroup path -> ctime, made by a process of ours
  const maker = new Map(); // run cgroup path -> what made it (comm)
  const sessions = []; // {t, sid}
  const runs = []; // {t, id}
  const baseline = new Map();

  before(async () => {
    for (let i = 0; i < STDIO_SERVERS; i++) {
      const home = privateDir('codecalc-chaos-home-'), tmp = privateDir('codecalc-chaos-tmp-');
      const r = new RawServer({ env: serverEnv(home, tmp) });
      await r.initialize();
      markers.push(home, tmp);
      servers.push({ kind: 'stdio', pid: r.pid, home, tmp, raw: r, transport: () => stdioTransport(r),
        close: async () => { await r.close(); } });
      rmSync(r.home, { recursive: true, force: true }); // RawServer's own (unused) home
    }
    const home = privateDir('codecalc-chaos-home-'), tmp = privateDir('codecalc-chaos-tmp-');
    const h = await startHttp({ env: serverEnv(home, tmp) });
    markers.push(home, tmp);
    servers.push({ kind: 'http', pid: h.proc.pid, home, tmp, port: h.port, transport: () => httpTransport(h.port),
      close: async () => { h.proc.kill('SIGTERM'); await Promise.race([h.exited, sleep(15000)]); await h.stop(); } });
  });

  after(async () => {
    for (const s of servers) {
      try { await s.close(); } catch { /* already gone */ }
      for (const d of [s.home, s.tmp]) rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    }
    // Whatever the verdict, leave no empty run cgroup of ours on the host.
    for (const c of cgroupsLeft(ourCgroups)) {
      try { rmdirSync(c); } catch { /* busy or gone */ }
    }
  });

  /** One of every kind of call on server s must give its right answer. */
  async function serves(s) {
    const t = await s.transport();
    const mark = problemsMark();
    const st = { sid: null, all: sessions };
    const failed = [];
    if (!(await calc(t))) failed.push('calc_exact');
    if (!(await symbolic(t))) failed.push('evaluate_expression');
    if (!(await execute(t))) failed.push('execute_code');
    if (!(await replStep(t, st)) || !(await replStep(t, st))) failed.push('python3 session');
    if (!(await runStep(t, runs))) failed.push('run_submit');
    return [...failed.map((f) => `${f} did not succeed`), ...problemsSince(mark)];
  }

  /** Remember the run cgroups our processes made (before they can leak). */
  function recordCgroups(procs) {
    for (const [path, c] of cgroupsMadeBy(procs)) {
      ourCgroups.set(path, c);
      maker.set(path, procs.find((p) => path.includes(`/run-${p.pid}-`))?.comm);
    }
  }

  function sampleOwned() {
    recordCgroups(ownedProcesses(markers));
  }

  /** Descriptors the supervisor holds beyond one socket per live worker. */
  function fdsBeyondWorkers(s) {
    const fds = fdCounts(s.pid);
    return fds && { other: fds.other, sockets: fds.sockets - liveChildren(s.pid).length };
  }

  test('warm-up: every server serves every kind of call', async () => {
    for (const s of servers) {
      assert.deepEqual(await serves(s), [], `${s.kind} server before the chaos`);
    }
    // Stop the warm-up sessions so the baseline holds no REPL connection.
    await stopSessions();
    await sleep(500);
    for (const s of servers) baseline.set(s, fdsBeyondWorkers(s));
    sampleOwned();
  });

  async function stopSessions() {
    for (const { t, sid } of sessions.splice(0)) {
      try { await t.call('session_stop', { session_id: sid }); } catch { /* judged elsewhere */ }
    }
  }

  test(`${STDIO_SERVERS * STDIO_CLIENTS_EACH + HTTP_CLIENTS} clients under SIGKILL/SIGSTOP of workers, REPL hosts and shepherds`, async (t) => {
    resetTally();
    const stopAt = Date.now() + CHAOS_MS;
    const clients = [];
    let k = 0;
    for (const s of servers) {
      const n = s.kind === 'http' ? HTTP_CLIENTS : STDIO_CLIENTS_EACH;
      const shared = s.kind === 'stdio' ? await s.transport() : null;
      for (let i = 0; i < n; i++, k++) clients.push({ id: k, server: s, t: shared ?? await s.transport() });
    }
    async function clientLoop(c) {
      const st = { sid: null, all: sessions };
      const role = c.id % 8; // 0: REPL, 1: runs, 2..7: the stateless mix
      while (Date.now() < stopAt) {
        if (role === 0) await replStep(c.t, st);
        else if (role === 1) await runStep(c.t, runs);
        else {
          const r = Math.random();
          if (r < 0.45) await calc(c.t);
          else if (r < 0.65) await symbolic(c.t);
          else await execute(c.t);
        }
        await sleep(rand(0, 50));
      }
    }

    const actions = { kill: 0, stop: 0, cont: 0, stopkill: 0 };
    const kinds = {};
    const stopped = new Set();
    function victims(s) {
      const out = [];
      for (const w of liveChildren(s.pid)) if (w.comm.startsWith('codecalc-')) out.push({ ...w, kind: w.comm });
      for (const p of ownedProcesses([s.home])) {
        if (p.pid === s.pid || p.ppid === s.pid) continue;
        const cmd = p.comm;
        if (cmd === 'codecalc-repl') {
          out.push({ ...p, kind: 'repl-launcher' });
          for (const d of descendants(p.pid)) out.push({ ...d, kind: 'repl-host' });
        } else if (cmd === 'codecalc-exec') {
          out.push({ ...p, kind: 'shepherd' });
        }
      }
      return out;
    }
    async function driver() {
      while (Date.now() < stopAt) {
        await sleep(rand(150, 450));
        const s = servers[rand(0, servers.length - 1)];
        const vs = victims(s);
        if (!vs.length) continue;
        const v = vs[rand(0, vs.length - 1)];
        kinds[v.kind] = (kinds[v.kind] ?? 0) + 1;
        recordCgroups([v]); // what it made, before it is killed
        if (Math.random() < 0.4) {
          if (signalSame(v, 'SIGKILL')) actions.kill++;
        } else if (signalSame(v, 'SIGSTOP')) {
          actions.stop++;
          stopped.add(v);
          setTimeout(() => {
            if (!stopped.delete(v)) return;
            if (Math.random() < 0.7) { if (signalSame(v, 'SIGCONT')) actions.cont++; }
            else if (signalSame(v, 'SIGKILL')) actions.stopkill++;
          }, rand(200, 1500));
        }
      }
    }
    async function sampler() {
      while (Date.now() < stopAt) {
        sampleOwned();
        await sleep(250);
      }
    }
    await Promise.all([driver(), sampler(), ...clients.map(clientLoop)]);
    for (const v of stopped) signalSame(v, 'SIGCONT');
    stopped.clear();
    sampleOwned();
    t.diagnostic(`calls: ${tally.ok} ok, ${tally.failed} failed with a clear error; ` +
      `signals: ${JSON.stringify(actions)} to ${JSON.stringify(kinds)}; failures: ${JSON.stringify(tally.why)}`);
    assert.deepEqual(tally.wrong, [], 'answers that belong to another request');
    assert.deepEqual(tally.lost, [], 'calls without an answer');
    assert.deepEqual(tally.unclear, [], 'failures without a clear error');
    for (const s of servers) {
      if (s.raw) assert.deepEqual(s.raw.orphans, [], `${s.kind}: responses to no pending request`);
    }
    assert.ok(tally.ok > 100, `too few calls got through to mean anything: ${tally.ok}`);
    assert.ok(actions.kill + actions.stop > 10, `too few faults injected: ${JSON.stringify(actions)}`);
  });

  test('every server serves every kind of call afterwards', async () => {
    for (const s of servers) {
      assert.deepEqual(await serves(s), [], `${s.kind} server after the chaos`);
    }
  });

  test('nothing leaked: descriptors, processes, run cgroups, run directories', async () => {
    await stopSessions();
    // Runs still going finish (or are cancelled) before we count.
    for (const { t, id } of runs.splice(0)) {
      try {
        const r = await t.call('run_inspect', { run_id: id });
        if (['running', 'cancelling'].includes(r.sc?.state)) await t.call('run_cancel', { run_id: id });
      } catch { /* the server answers or not: counted below */ }
    }
    sampleOwned();
    for (const s of servers) {
      const want = baseline.get(s);
      const got = await waitFor(() => {
        const f = fdsBeyondWorkers(s);
        return f && f.other === want.other && f.sockets === want.sockets && f;
      }, 10000, 200);
      assert.ok(got, `${s.kind} server descriptors beyond its workers: before ${JSON.stringify(want)}, ` +
        `after ${JSON.stringify(fdsBeyondWorkers(s))}`);
    }
    for (const s of servers) await s.close();
    await waitFor(() => ownedProcesses(markers).length === 0 && cgroupsLeft(ourCgroups).length === 0 &&
      runDirsLeft(servers.map((s) => s.tmp)).length === 0, 15000, 200);
    const left = [
      ...ownedProcesses(markers).map((p) => `process ${p.pid} ${p.comm}`),
      ...cgroupsLeft(ourCgroups).map((c) => `cgroup ${c} (made by ${maker.get(c)})`),
      ...runDirsLeft(servers.map((s) => s.tmp)).map((d) => `run directory ${d}`),
      ...servers.filter((s) => stat(s.pid)).map((s) => `${s.kind} server ${s.pid} still running`),
    ];
    assert.deepEqual(left, [], 'what our servers left behind');
  });
});
