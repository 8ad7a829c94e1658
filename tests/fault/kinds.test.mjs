// Faults on every kind of worker that the other fault files do not reach:
// an exec worker that hangs (SIGSTOP) mid-run, a symbolic worker killed
// mid-request, a python REPL host killed and stopped mid-call, and the
// supervisor itself killed during a streamed run and an execute_code. Each
// call gets its own answer or a clear error, nothing answers another
// request, nothing of the program outlives it, and the server (or its
// successor on the same state directory) serves afterwards. Waits are
// bounded by the calls' own deadlines, never asserted as times.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { RawServer, waitFor, inSleep, SKIP_NO_BINARY } from '../mcp/harness.mjs';
import { stat, descendants, ownedProcesses } from './ours.mjs';
import { procsWithArgv, alive } from '../security/util.mjs';

const tag = () => `${30 + Math.floor(Math.random() * 9)}.${Math.floor(Math.random() * 1e6)}`;

/** The ancestor of pid that is a direct child of server (its worker), or null. */
function workerOf(pid, server) {
  for (let p = stat(pid), hops = 0; p && hops < 32; hops++, p = stat(p.ppid))
    if (p.ppid === server) return p;
  return null;
}

/** utime + stime of pid in clock ticks (0 when gone). */
function cpuTicks(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch { return 0; }
}

async function exec(r, args, timeoutMs = 60000) {
  const c = await r.callTool('execute_code', JSON.stringify(args), { timeoutMs });
  return c;
}

async function bashEcho(r) {
  const n = `ok-${Math.random().toString(36).slice(2)}`;
  const c = await exec(r, { language: 'bash', code: `echo ${n}` });
  assert.equal(c.sc?.stdout, `${n}\n`, c.msg.__raw);
}

describe('worker faults of every kind', { skip: SKIP_NO_BINARY, timeout: 150000 }, () => {
  let r;
  before(async () => {
    r = new RawServer({ env: { CODECALC_RUN_DEADLINE_MARGIN_S: '3' } });
    await r.initialize();
  });
  after(async () => { await r?.close(); });

  test('regression: an exec worker stopped mid-run held a 2 s execute_code for the tool\'s 900 s deadline', async () => {
    const t = tag();
    const call = exec(r, { language: 'bash', code: `sleep ${t}`, timeout: 2 });
    const pid = await waitFor(() => procsWithArgv(['sleep', t])[0], 10000);
    assert.ok(pid, 'the program did not start');
    const worker = workerOf(pid, r.pid);
    assert.equal(worker?.comm, 'codecalc-exec', 'no exec worker above the program');
    process.kill(worker.pid, 'SIGSTOP');
    // Answered at timeout + margin (5 s here), not 900 s: the harness gives up at 60.
    const c = await call;
    assert.equal(c.msg.error?.code, -32010, c.msg.__raw);
    assert.match(c.msg.error.message, /deadline/);
    assert.ok(await waitFor(() => !alive(worker.pid), 10000), 'the stopped worker was not replaced');
    assert.ok(await waitFor(() => procsWithArgv(['sleep', t]).length === 0, 10000), 'the program outlived its worker');
    await bashEcho(r);
  });

  test('regression: a symbolic worker killed from outside mid-request was reported as the input exhausting its limits', async () => {
    const runaway = r.callTool('evaluate_expression', '{"expression":"nextprime(10^3000)"}', { timeoutMs: 60000 });
    // The worker serving it is the one burning CPU (idle ones sit in poll).
    const busy = await waitFor(() => descendants(r.pid).find((p) => p.comm === 'codecalc-symbol' && cpuTicks(p.pid) > 30), 10000);
    assert.ok(busy, 'no symbolic worker took the call');
    const calc = r.callTool('calc_exact', '{"expr":"123456789*987654321"}', { timeoutMs: 30000 });
    process.kill(busy.pid, 'SIGKILL');
    const c = await runaway;
    // Regression: it was resource_exhausted, "terminated by a resource
    // limit (CPU 10s / memory 2048MB)": a claim about the input that a
    // kill from outside does not support.
    assert.equal(c.sc?.code, 'worker_failure', c.msg.__raw);
    assert.match(c.sc.error, /killed from outside \(SIGKILL/);
    assert.equal((await calc).sc?.value, '121932631112635269');
    const e = await r.callTool('evaluate_expression', '{"expression":"diff(x^3, x)"}', { timeoutMs: 30000 });
    assert.equal(e.sc?.expression, '3*x**2', e.msg.__raw);
  });

  // The answer depends on how the worker died, which only its exit status
  // tells; the status now comes from the SIGCHLD reap (the supervisor used
  // to poll waitpid for up to 20 ms with its event loop stopped).
  test('a symbolic worker ended by SIGXCPU (its CPU budget) mid-request: resource_exhausted, not killed from outside', async () => {
    const runaway = r.callTool('evaluate_expression', '{"expression":"nextprime(10^3001)"}', { timeoutMs: 60000 });
    const busy = await waitFor(() => descendants(r.pid).find((p) => p.comm === 'codecalc-symbol' && cpuTicks(p.pid) > 30), 10000);
    assert.ok(busy, 'no symbolic worker took the call');
    process.kill(busy.pid, 'SIGXCPU');
    const c = await runaway;
    assert.equal(c.sc?.code, 'resource_exhausted', c.msg.__raw);
    assert.match(c.sc.error, /terminated by a resource limit/);
    const e = await r.callTool('evaluate_expression', '{"expression":"diff(x^2, x)"}', { timeoutMs: 30000 });
    assert.equal(e.sc?.expression, '2*x', e.msg.__raw);
  });

  async function session() {
    const s = await r.callTool('session_start', '{"language":"python3"}', { timeoutMs: 30000 });
    assert.equal(typeof s.sc?.session_id, 'string', s.msg.__raw);
    const sid = s.sc.session_id;
    const set = await exec(r, { language: 'python3', session_id: sid, code: 'kept = 41' });
    assert.equal(set.sc?.ok, true, set.msg.__raw);
    return sid;
  }

  /** The python REPL host once it runs the call's time.sleep (the host
   *  runs the code itself; idle, it waits in a read, not in nanosleep). It
   *  is not below the server (REPL launchers are detached, to survive a
   *  restart): it is found by its workspace under the server's home. */
  async function hostSleeping() {
    return waitFor(() => ownedProcesses([r.home]).find((p) => p.comm.startsWith('python') && inSleep(p.pid)), 10000);
  }

  for (const sig of ['SIGKILL', 'SIGSTOP']) {
    test(`a python REPL host ${sig === 'SIGKILL' ? 'killed' : 'stopped'} mid-call: a clear answer, then state_lost and a working host`, async () => {
      const sid = await session();
      const t = tag();
      const call = exec(r, { language: 'python3', session_id: sid, code: `import time\nprint("start")\ntime.sleep(${t})`, timeout: 3 });
      const host = await hostSleeping();
      assert.ok(host, 'the REPL host was not found');
      process.kill(host.pid, sig);
      const c = await call;
      assert.ok(c.sc, c.msg.__raw);
      assert.equal(c.sc.ok, false, c.msg.__raw);
      if (sig === 'SIGSTOP') {
        assert.equal(c.sc.verdict, 'TLE', c.msg.__raw);
      } else {
        assert.equal(c.sc.code, 'worker_failure', c.msg.__raw);
      }
      assert.ok(await waitFor(() => !alive(host.pid), 10000), 'the old host lives on');
      const n = await exec(r, { language: 'python3', session_id: sid, code: 'print("kept" in globals())' });
      assert.equal(n.sc?.stdout, 'False\n', n.msg.__raw);
      assert.equal(n.sc.state_lost, true);
      await r.callTool('session_stop', JSON.stringify({ session_id: sid }), { timeoutMs: 30000 });
    });
  }

  test('a REPL launcher stopped mid-call: the call is answered worker_failure, the launcher is replaced, the next call runs', async () => {
    const sid = await session();
    const call = exec(r, { language: 'python3', session_id: sid, code: `import time\ntime.sleep(${tag()})`, timeout: 2 });
    const host = await hostSleeping();
    assert.ok(host, 'the REPL host was not found');
    // The launcher is the topmost codecalc-repl above the host (the
    // sandbox's init below it carries the same name).
    let top = null;
    for (let p = stat(host.pid), hops = 0; p && hops < 16; hops++, p = stat(p.ppid))
      if (p.comm === 'codecalc-repl') top = p;
    assert.ok(top, 'the REPL launcher was not found');
    process.kill(top.pid, 'SIGSTOP');
    try {
      const c = await call;
      assert.equal(c.sc?.code, 'worker_failure', c.msg.__raw);
      assert.match(c.sc.error, /launcher stopped answering/);
      const n = await exec(r, { language: 'python3', session_id: sid, code: 'print(6 * 7)' });
      assert.equal(n.sc?.stdout, '42\n', n.msg.__raw);
      assert.equal(n.sc.state_lost, true);
      assert.ok(await waitFor(() => !alive(top.pid), 10000), 'the stopped launcher was left behind');
    } finally {
      try { process.kill(top.pid, 'SIGCONT'); } catch { /* gone */ }
    }
    await r.callTool('session_stop', JSON.stringify({ session_id: sid }), { timeoutMs: 30000 });
  });
});

describe('the supervisor killed during runs', { skip: SKIP_NO_BINARY, timeout: 90000 }, () => {
  for (const tool of ['execute_code_stream', 'execute_code']) {
    test(`SIGKILL of the server during ${tool}: the program dies with it; a new server on the same state directory serves`, async () => {
      const a = new RawServer();
      let b;
      try {
        await a.initialize();
        const t = tag();
        const call = a.callTool(tool, JSON.stringify({ language: 'bash', code: `echo started; sleep ${t}`, timeout: 60 }),
          { timeoutMs: 60000 }).catch((e) => e);
        const pid = await waitFor(() => procsWithArgv(['sleep', t])[0], 10000);
        assert.ok(pid, 'the program did not start');
        process.kill(a.pid, 'SIGKILL');
        assert.match(String((await call).message), /server exited/);
        assert.ok(await waitFor(() => procsWithArgv(['sleep', t]).length === 0, 15000), 'the program outlived the server');
        b = new RawServer({ env: { CODECALC_HOME: a.home } });
        await b.initialize();
        await bashEcho(b);
      } finally {
        await b?.close();
        await a.close();
      }
    });
  }
});
