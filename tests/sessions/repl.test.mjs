// Stateful python3 sessions through a real MCP client: persistence, the
// session-worker shape (TOOLS.md 1.11), isolation, timeouts and memory
// deaths that replace the host, serialised concurrent calls, survival of a
// server restart, idle expiry (issue "REPL hosts", 4.8).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startServer, assertRejected, SKIP_NO_BINARY, BIN, sleep, waitFor, hasMemoryCgroup } from '../mcp/harness.mjs';

const run = (s, sid, code, extra = {}) =>
  s.call('execute_code', { language: 'python3', code, session_id: sid, ...extra });

describe('python3 REPL sessions', { skip: SKIP_NO_BINARY }, () => {
  let s, sid, other;
  before(async () => {
    s = await startServer({ env: { CODECALC_REPL_MEMORY_MB: '256' } });
    sid = (await s.call('session_start', { language: 'python3' })).session_id;
    other = (await s.call('session_start', { language: 'py' })).session_id;
  });
  after(async () => {
    for (const id of [sid, other]) if (id) await s.call('session_stop', { session_id: id });
    await s?.close();
  });

  test('session_start reports a stateful, confined session with its disclosures', async () => {
    const r = await s.call('session_start', { language: 'python3' });
    assert.match(r.session_id, /^python3-[0-9a-f]{8}$/);
    assert.equal(r.stateful, true);
    assert.equal(r.confined, true);
    assert.ok(r.unenforced.some((u) => u.startsWith('process_group_kill:')));
    assert.ok(r.files.some((f) => f.path === '.codecalc-session-lock'));
    assert.equal((await s.call('session_stop', { session_id: r.session_id })).deleted, true);
  });

  test('variables, functions and imports persist across calls (x = 41 then x + 1)', async () => {
    await run(s, sid, 'x = 41');
    const r = await run(s, sid, 'print(x + 1)');
    assert.equal(r.stdout, '42\n');
    assert.equal(r.ok, true);
    assert.equal(r.verdict, 'OK');
    assert.equal(r.backend, 'session-worker');
    assert.equal(r.session, true);
    assert.equal(r.exit_code, 0);
    assert.equal(r.provider.session_id, sid);
    assert.equal(r.language, undefined);
    await run(s, sid, 'import math\ndef area(r): return round(math.pi * r * r, 2)');
    assert.equal((await run(s, sid, 'print(area(2))')).stdout, '12.57\n');
  });

  test('two sessions never see each other\'s variables', async () => {
    await run(s, other, 'secret = "other"');
    const r = await run(s, sid, 'print(secret)');
    assert.equal(r.ok, false);
    assert.match(r.stderr, /NameError: name 'secret' is not defined/);
    assert.equal((await run(s, other, 'print(secret)')).stdout, 'other\n');
  });

  test('exceptions and SystemExit end only that request', async () => {
    const r = await run(s, sid, 'y = 5\nraise SystemExit(3)');
    assert.equal(r.ok, false);
    assert.equal(r.exit_code, 1);
    assert.equal(r.verdict, 'RTE');
    assert.match(r.stderr, /SystemExit: 3/);
    assert.equal((await run(s, sid, 'print(y * 2)')).stdout, '10\n');
  });

  test('a final bare expression echoes its repr, like every REPL (issue 11 item 11)', async () => {
    await run(s, sid, 'x = 41');
    assert.equal((await run(s, sid, 'x')).stdout, '41\n');
    assert.equal((await run(s, sid, 'y = x + 1\ny')).stdout, '42\n');
    assert.equal((await run(s, sid, '"a" * 2')).stdout, "'aa'\n");
    assert.equal((await run(s, sid, 'None')).stdout, '');
    assert.equal((await run(s, sid, 'print(x)')).stdout, '41\n');
    assert.equal((await run(s, sid, 'x = 5')).stdout, '');
    const e = await run(s, sid, 'x\n1/0');
    assert.equal(e.verdict, 'RTE');
    assert.match(e.stderr, /ZeroDivisionError/);
  });

  test('stdin, child-process output, workspace on sys.path, output cap', async () => {
    assert.equal((await run(s, sid, 'print(input()[::-1])', { stdin: 'abc\n' })).stdout, 'cba\n');
    assert.equal((await run(s, sid, 'import subprocess\n_ = subprocess.run(["echo", "child"])')).stdout, 'child\n');
    await s.call('session_write_file', { session_id: sid, path: 'helper.py', content: 'K = 7\n' });
    assert.equal((await run(s, sid, 'import helper\nprint(helper.K)')).stdout, '7\n');
    const big = await run(s, sid, 'print("a" * 70000)');
    assert.equal(big.verdict, 'OLE');
    assert.equal(big.output_truncated, true);
    assert.equal(big.stdout.length, 65536 + 15);
    assert.ok(big.stdout.endsWith('\n...[truncated]'));
  });

  test('the host sees only its workspace writable', async () => {
    const r = await run(s, sid, 'import os\nopen("mine.txt", "w").write("ok")\ntry:\n    open("/usr/evil", "w")\nexcept OSError as e:\n    print(e.errno)');
    assert.equal(r.stdout, '30\n'); // EROFS
    const f = await s.call('session_read_file', { session_id: sid, path: 'mine.txt' });
    assert.equal(f.content, 'ok');
    const home = await run(s, sid, `import os\nprint(os.path.exists(${JSON.stringify(join(s.home, 'repl'))}))`);
    assert.equal(home.stdout, 'False\n');
  });

  test('per-call ceilings are disclosed in unenforced (4.4)', async () => {
    const r = await run(s, sid, 'pass', { max_memory_mb: 64, no_net: true });
    assert.ok(r.unenforced[0].startsWith('max_memory_mb:'));
    assert.ok(r.unenforced[1].startsWith('no_net:'));
  });

  test('language must match the session', async () => {
    assertRejected(await s.call('execute_code', { language: 'node', code: '1', session_id: sid }), 'validation', /session is python3, not node/);
  });

  test('regression: python_timeout_lost_every_variable (a cell stopped at its timeout keeps the namespace)', async () => {
    // Every python3 timeout killed the host: `time.sleep(30)` with timeout
    // 1 lost every variable of the session, where node's vm timeout kept its
    // context. An interruptible cell is now stopped by the call's own timer.
    await run(s, other, 'kept_py = 41');
    const r = await run(s, other, "print('started')\npartial = 1\nimport time\ntime.sleep(30)\nnever = 1", { timeout: 1 });
    assert.equal(r.ok, false);
    assert.equal(r.verdict, 'TLE');
    assert.equal(r.timed_out, true);
    assert.equal(r.stdout, 'started\n');
    assert.equal(r.stderr, "codecalc: the call's code was still running at its 1 s timeout; it was stopped there (the namespace and its variables are kept)\n");
    const n = await run(s, other, "print(kept_py, partial, 'never' in globals())");
    assert.equal(n.stdout, '41 1 False\n');
    assert.equal(n.state_lost, undefined);
  });

  test('a timeout the cell cannot see kills the host; the next call runs on a fresh one and says state was lost', async () => {
    await run(s, other, 'kept = 1');
    // sum over a range runs in C and never returns to the interpreter's loop
    const r = await run(s, other, 'sum(range(10**13))', { timeout: 1 });
    assert.equal(r.ok, false);
    assert.equal(r.verdict, 'TLE');
    assert.equal(r.code, 'timeout');
    assert.match(r.error, /python3 worker timed out/);
    const n = await run(s, other, 'print("kept" in globals())');
    assert.equal(n.stdout, 'False\n');
    assert.equal(n.state_lost, true);
    assert.equal((await run(s, other, 'print(2)')).state_lost, undefined);
  });

  test('a host killed by its memory ceiling: clear error, the next call works', async () => {
    const r = await run(s, other, 'blob = bytearray(600 * 1024 * 1024)\nblob[::4096] = b"x" * len(blob[::4096])', { timeout: 30 });
    assert.equal(r.ok, false);
    if (!hasMemoryCgroup()) {
      // No memory cgroup (a non-root server): RLIMIT_AS refuses the
      // allocation instead, the host lives on with its state, and the
      // result says which ceiling held.
      assert.match(r.stderr, /MemoryError/);
      assert.ok(r.unenforced.some((u) => u.startsWith('memory_cgroup: no memory cgroup could hold the ceiling here; RLIMIT_AS')));
      // Regression: the refused allocation was RTE; the ceiling caused it.
      assert.equal(r.verdict, 'MLE');
      assert.match(r.reason, /^an allocation failed \(MemoryError\) under the memory ceiling of \d+ MiB \(an address-space limit/);
      const own = await run(s, other, 'raise MemoryError("made up")');
      assert.equal(own.verdict, 'RTE', 'a MemoryError the program raised itself is its own error');
      assert.equal(own.reason, undefined);
      const n = await run(s, other, 'print(6 * 7)');
      assert.equal(n.stdout, '42\n');
      assert.equal(n.state_lost, undefined);
      return;
    }
    assert.equal(r.code, 'resource_exhausted');
    assert.match(r.error, /memory ceiling/);
    const n = await run(s, other, 'print(6 * 7)');
    assert.equal(n.stdout, '42\n');
    assert.equal(n.state_lost, true);
  });

  test('20 concurrent calls to one session are serialised, each gets its own answer', async () => {
    await run(s, sid, 'counter = 0');
    const calls = Array.from({ length: 20 }, (_, i) =>
      run(s, sid, `counter += 1\nprint(${i}, counter)`));
    const res = await Promise.all(calls);
    const seen = new Set();
    res.forEach((r, i) => {
      const [tag, c] = r.stdout.trim().split(' ').map(Number);
      assert.equal(tag, i);
      seen.add(c);
    });
    assert.equal(seen.size, 20);
    assert.deepEqual([...seen].sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i + 1));
  });

  test('regression: python_fork_desynchronised_session (a forked child never answers for the host)', async () => {
    // os.fork() with no exit in the child: the child came back to the host's
    // loop, answered too, and the next call was "worker replied to request
    // N while M was outstanding; session terminated", every variable gone.
    await run(s, sid, 'before_fork = 31');
    const r = await run(s, sid, "import os\npid = os.fork()\nif pid == 0: print('child')\nelse: os.waitpid(pid, 0); print('parent')");
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.stdout, 'child\nparent\n');
    for (let i = 0; i < 3; i++) {
      const n = await run(s, sid, 'print(before_fork, os.getpid() == pid)');
      assert.equal(n.ok, true, JSON.stringify(n));
      assert.equal(n.stdout, '31 False\n');
      assert.equal(n.state_lost, undefined);
    }
  });

  test('session_list shows the live REPL sessions', async () => {
    const l = await s.call('session_list');
    const mine = l.sessions.find((e) => e.session_id === sid);
    assert.deepEqual({ ...mine, workdir: undefined }, { session_id: sid, language: 'python3', stateful: true, workdir: undefined, alive: true });
  });

  test('session_stop kills the host and removes its socket', async () => {
    const r = await s.call('session_start', { language: 'python3' });
    const sock = join(s.home, 'repl', `${r.session_id}.sock`);
    assert.ok(existsSync(sock));
    assert.equal((await s.call('session_stop', { session_id: r.session_id })).deleted, true);
    await waitFor(() => !existsSync(sock), 3000);
  });
});

// A launcher that exited (or is a zombie waiting for its reaper).
function launcherGone(pid) {
  try { return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0] === 'Z'; } catch { return true; }
}

// A server on a home we keep, so a second server can follow it.
async function serverAt(home, env = {}) {
  const transport = new StdioClientTransport({
    command: BIN, args: [], stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODECALC_HOME: home, ...env },
  });
  const client = new Client({ name: 'codecalc-repl-restart', version: '0.0.0' });
  await client.connect(transport);
  const call = async (name, args = {}) => (await client.callTool({ name, arguments: args })).structuredContent;
  return { call, close: () => client.close(), pid: transport.pid };
}

describe('REPL sessions outlive the server', { skip: SKIP_NO_BINARY }, () => {
  const home = mkdtempSync(join(tmpdir(), 'codecalc-repl-'));
  after(() => rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));

  test('variables survive a supervisor restart; session_list marks a lost host', async () => {
    const a = await serverAt(home);
    const sid = (await a.call('session_start', { language: 'python3' })).session_id;
    const dead = (await a.call('session_start', { language: 'python3' })).session_id;
    await a.call('execute_code', { language: 'python3', code: 'survivor = "still here"', session_id: sid });
    await a.close();
    // One launcher dies while no server is up: its session must say so.
    const [pid] = readFileSync(join(home, 'repl', `${dead}.pid`), 'utf8').trim().split(' ').map(Number);
    process.kill(pid, 'SIGKILL');
    await sleep(100);
    const b = await serverAt(home);
    try {
      const r = await b.call('execute_code', { language: 'python3', code: 'print(survivor)', session_id: sid });
      assert.equal(r.stdout, 'still here\n');
      assert.equal(r.state_lost, undefined);
      const l = await b.call('session_list');
      const e = l.sessions.find((x) => x.session_id === sid);
      assert.equal(e.alive, true);
      assert.equal(e.reattached, true);
      const d = l.sessions.find((x) => x.session_id === dead);
      assert.equal(d.alive, false);
      assert.match(d.note, /not running/);
      const n = await b.call('execute_code', { language: 'python3', code: 'print(1 + 1)', session_id: dead });
      assert.equal(n.stdout, '2\n');
      assert.equal(n.state_lost, true);
      for (const id of [sid, dead]) await b.call('session_stop', { session_id: id });
      await waitFor(() => readdirSync(join(home, 'repl')).every((f) => !f.endsWith('.sock')), 3000);
    } finally {
      await b.close();
    }
  });

  test('regression: repl_call_after_restart_mid_call_dropped (a call sent while the host finishes a call from a killed server is answered)', async () => {
    // The server is SIGKILLed while a call runs. The launcher dropped every
    // answer until that orphaned call ended, the busy refusal included, so
    // the next server's call hung 35 s, then "the REPL launcher stopped
    // answering; session terminated" and the host (its variables) was killed.
    const a = await serverAt(home);
    const sid = (await a.call('session_start', { language: 'python3' })).session_id;
    const ws = join(home, 'sessions', sid);
    await a.call('execute_code', { language: 'python3', code: 'x = 1', session_id: sid });
    const orphan = a.call('execute_code', { language: 'python3', session_id: sid, timeout: 60,
      code: "import os, time\nopen('started', 'w').close()\nwhile not os.path.exists('go'): time.sleep(0.05)\nx = 2" })
      .catch(() => null);
    await waitFor(() => existsSync(join(ws, 'started')), 10000);
    assert.ok(existsSync(join(ws, 'started')), 'the first call is running');
    process.kill(a.pid, 'SIGKILL');
    await orphan;
    const b = await serverAt(home);
    try {
      const next = b.call('execute_code', { language: 'python3', code: 'print("next", x)', session_id: sid, timeout: 5 });
      writeFileSync(join(ws, 'go'), '');
      const r = await next;
      assert.equal(r.ok, true, JSON.stringify(r));
      assert.equal(r.stdout, 'next 2\n');
      assert.equal(r.state_lost, undefined);
      await b.call('session_stop', { session_id: sid });
    } finally {
      await b.close();
    }
  });

  test('idle expiry removes the workspace and its host; the next call hears why', async () => {
    const c = await serverAt(home, { CODECALC_SESSION_IDLE_TTL_SECONDS: '1.5' });
    try {
      const sid = (await c.call('session_start', { language: 'python3' })).session_id;
      await c.call('execute_code', { language: 'python3', code: 'z = 1', session_id: sid });
      const [pid] = readFileSync(join(home, 'repl', `${sid}.pid`), 'utf8').trim().split(' ').map(Number);
      await sleep(2200);
      const r = await c.call('execute_code', { language: 'python3', code: 'print(z)', session_id: sid });
      assert.equal(r.ok, false);
      assert.equal(r.code, 'worker_failure');
      assert.match(r.error, /expired after sitting idle past 1.5s/);
      assert.equal(existsSync(join(home, 'sessions', sid)), false);
      await waitFor(() => !existsSync(join(home, 'repl', `${sid}.sock`)), 3000);
      // the launcher is gone (or a zombie waiting for its reaper)
      await waitFor(() => launcherGone(pid), 3000);
      const e = (await c.call('session_list')).sessions.find((x) => x.session_id === sid);
      assert.equal(e.alive, false);
      assert.equal(e.expired, true);
      // still answered after a restart: the store keeps the expiry
      await c.close();
      const d = await serverAt(home);
      try {
        const again = await d.call('execute_code', { language: 'python3', code: '1', session_id: sid });
        assert.equal(again.code, 'worker_failure');
        assert.match(again.error, /expired after sitting idle/);
        await d.call('session_stop', { session_id: sid });
        assertRejected(await d.call('execute_code', { language: 'python3', code: '1', session_id: sid }), 'validation', /unknown session/);
      } finally {
        await d.close();
      }
    } finally {
      await c.close().catch(() => {});
    }
  });

  test('an untouched idle session is reaped by the timer', async () => {
    const c = await serverAt(home, { CODECALC_SESSION_IDLE_TTL_SECONDS: '0.5' });
    try {
      const sid = (await c.call('session_start', { language: 'node' })).session_id;
      await waitFor(() => !existsSync(join(home, 'sessions', sid)), 4000);
      await waitFor(() => !existsSync(join(home, 'repl', `${sid}.sock`)), 3000);
      await c.call('session_stop', { session_id: sid });
    } finally {
      await c.close();
    }
  });

  test('session metadata is durable: language and kind survive a restart', async () => {
    const a = await serverAt(home);
    const node = (await a.call('session_start', { language: 'node' })).session_id;
    const ws = (await a.call('session_start', { language: 'c' })).session_id;
    await a.call('execute_code', { language: 'node', code: 'globalThis.v = 9', session_id: node });
    await a.close();
    const b = await serverAt(home);
    try {
      const l = (await b.call('session_list')).sessions;
      const n = l.find((x) => x.session_id === node);
      assert.equal(n.language, 'node');
      assert.equal(n.stateful, true);
      assert.equal(n.alive, true);
      assert.equal(n.reattached, true);
      const w = l.find((x) => x.session_id === ws);
      assert.equal(w.language, 'c');
      assert.equal(w.stateful, false);
      assert.equal((await b.call('execute_code', { language: 'node', code: 'console.log(v)', session_id: node })).stdout, '9\n');
      for (const id of [node, ws]) assert.equal((await b.call('session_stop', { session_id: id })).deleted, true);
      const after = (await b.call('session_list')).sessions.filter((x) => x.session_id === node || x.session_id === ws);
      assert.deepEqual(after, []);
      await waitFor(() => !existsSync(join(home, 'repl', `${node}.sock`)), 3000);
    } finally {
      await b.close();
    }
  });
});

describe('session_stop after a restart (issue 11 item 10)', { skip: SKIP_NO_BINARY }, () => {
  const home = mkdtempSync(join(tmpdir(), 'codecalc-stop-'));
  after(() => rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));

  test('session_stop after a server restart removes the workspace and the host; keep_workspace keeps it', async () => {
    const a = await serverAt(home);
    const py = (await a.call('session_start', { language: 'python3' })).session_id;
    const sh = (await a.call('session_start', { language: 'bash' })).session_id;
    const kept = (await a.call('session_start', { language: 'bash' })).session_id;
    await a.call('session_write_file', { session_id: kept, path: 'notes.txt', content: 'keep me' });
    await a.close();
    const [pid] = readFileSync(join(home, 'repl', `${py}.pid`), 'utf8').trim().split(' ').map(Number);
    const b = await serverAt(home);
    try {
      for (const id of [py, sh]) {
        const r = await b.call('session_stop', { session_id: id });
        assert.deepEqual([r.ok, r.deleted], [true, true], id);
        assert.equal(existsSync(join(home, 'sessions', id)), false);
      }
      const k = await b.call('session_stop', { session_id: kept, keep_workspace: true });
      assert.deepEqual([k.deleted, k.kept], [false, true]);
      assert.equal(readFileSync(join(home, 'sessions', kept, 'notes.txt'), 'utf8'), 'keep me');
      await waitFor(() => launcherGone(pid), 5000);
      assert.ok(launcherGone(pid), 'the REPL launcher still runs after session_stop');
      // regression: session_stop left the host's log behind ($CODECALC_HOME/repl/<id>.log)
      await waitFor(() => !readdirSync(join(home, 'repl')).some((f) => f.startsWith(py)), 5000);
      assert.deepEqual(readdirSync(join(home, 'repl')).filter((f) => f.startsWith(py)), []);
    } finally {
      await b.close();
    }
  });

  test('a workspace session idle past the TTL is reaped too, not kept forever', async () => {
    const c = await serverAt(home, { CODECALC_SESSION_IDLE_TTL_SECONDS: '0.5' });
    try {
      const sid = (await c.call('session_start', { language: 'bash' })).session_id;
      await waitFor(() => !existsSync(join(home, 'sessions', sid)), 4000);
      assert.equal(existsSync(join(home, 'sessions', sid)), false);
      const r = await c.call('session_files', { session_id: sid });
      assert.equal(r.code, 'worker_failure');
      assert.match(r.error, /expired after sitting idle past 0.5s/);
      const e = (await c.call('session_list')).sessions.find((x) => x.session_id === sid);
      assert.deepEqual([e.expired, e.stateful], [true, false]);
      await c.call('session_stop', { session_id: sid });
    } finally {
      await c.close();
    }
  });
});

describe('idle expiry and calls in progress', { skip: SKIP_NO_BINARY }, () => {
  const home = mkdtempSync(join(tmpdir(), 'codecalc-busy-'));
  after(() => rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));

  test('regression: idle_expiry_removed_workspace_under_a_run (a run in progress keeps its session alive)', async () => {
    // The run lasts three times the TTL: the idle timer removed the workspace
    // under it (python: FileNotFoundError, RTE) and the next call heard
    // "expired"; a REPL call was already counted as busy, one-shot runs not.
    const c = await serverAt(home, { CODECALC_SESSION_IDLE_TTL_SECONDS: '1' });
    try {
      const code = "import time\nfor i in range(3):\n  time.sleep(1); open('p%d' % i, 'w').write(str(i))\nprint(open('p2').read())";
      for (const lang of ['bash', 'python3']) {
        const sid = (await c.call('session_start', { language: lang })).session_id;
        const r = await c.call('execute_code', { session_id: sid, language: 'python3', code: lang === 'bash' ? code : 'x = 1' });
        assert.equal(r.ok, true, JSON.stringify(r));
        if (lang === 'bash') assert.equal(r.stdout, '2\n');
        await c.call('session_write_file', { session_id: sid, path: 'slow.py', content: code });
        const sr = await c.call('session_run', { session_id: sid, entry_file: 'slow.py' });
        assert.equal(sr.ok, true, JSON.stringify(sr));
        assert.equal(sr.stdout, '2\n');
        const f = await c.call('session_read_file', { session_id: sid, path: 'p2' });
        assert.equal(f.content, '2', JSON.stringify(f));
        await c.call('session_stop', { session_id: sid });
      }
    } finally {
      await c.close();
    }
  });
});

describe('node REPL sessions', { skip: SKIP_NO_BINARY }, () => {
  let s, sid;
  before(async () => {
    s = await startServer();
    sid = (await s.call('session_start', { language: 'node' })).session_id;
  });
  after(async () => {
    if (sid) await s.call('session_stop', { session_id: sid });
    await s?.close();
  });
  const js = (code, extra = {}) => s.call('execute_code', { language: 'javascript', code, session_id: sid, ...extra });

  test('top-level await works and its declarations persist (issue 11 item 11)', async () => {
    const r = await js('const v = await Promise.resolve(6 * 7);\nlet w = await new Promise((ok) => setTimeout(() => ok(v + 1), 20));\nasync function later() { return w; }\nconsole.log(v, w)');
    assert.equal(r.stdout, '42 43\n', r.stderr);
    assert.equal(r.verdict, 'OK');
    assert.equal((await js('console.log(v, w, await later())')).stdout, '42 43 43\n');
    const bad = await js('await Promise.reject(new Error("nope"))');
    assert.equal(bad.verdict, 'RTE');
    assert.match(bad.stderr, /Error: nope/);
  });

  test('setTimeout output after the code returns is kept: the call waits for its timers (issue 11 item 11)', async () => {
    const r = await js('setTimeout(() => console.log("later"), 50); console.log("now")');
    assert.equal(r.stdout, 'now\nlater\n');
    assert.equal(r.verdict, 'OK');
    const t = await js('globalThis.ticks = 0; setInterval(() => { ticks++; }, 10); console.log("started")', { timeout: 2 });
    assert.equal(t.verdict, 'TLE');
    assert.equal(t.timed_out, true);
    assert.equal(t.stdout, 'started\n');
    assert.match(t.stderr, /timers were still pending at its 2000 ms timeout; they were cleared/);
    const after = await js('const seen = ticks; await new Promise((ok) => setTimeout(ok, 100)); console.log(seen > 0, ticks === seen)');
    assert.equal(after.stdout, 'true true\n');
  });

  test('top-level let/const and functions persist; console is captured', async () => {
    assert.match(sid, /^node-[0-9a-f]{8}$/);
    await js('let x = 41; const twice = (n) => n * 2;');
    const r = await js('console.log(x + 1, twice(4)); console.error("warned")');
    assert.equal(r.stdout, '42 8\n');
    assert.equal(r.stderr, 'warned\n');
    assert.equal(r.verdict, 'OK');
    assert.equal(r.backend, 'session-worker');
  });

  test('regression: console.log printed [object Object] and ignored format strings (node formats with util.format)', async () => {
    const r = await js('console.log({a: 1}, [1, 2], "s", null); console.log("%d items", 5); console.error(new Map([[1, 2]]))');
    assert.equal(r.stdout, '{ a: 1 } [ 1, 2 ] s null\n5 items\n');
    assert.equal(r.stderr, 'Map(1) { 1 => 2 }\n');
  });

  test('a final expression is echoed as node\'s REPL shows it; statements, undefined and promises print nothing', async () => {
    await js('let e = 41');
    assert.equal((await js('e + 1')).stdout, '42\n');
    assert.equal((await js('"str"')).stdout, "'str'\n");
    assert.equal((await js('({k: [1, {z: 2}]})')).stdout, '{ k: [ 1, { z: 2 } ] }\n');
    assert.equal((await js('setTimeout(() => console.log("later"), 20); e')).stdout, '41\nlater\n');
    for (const quiet of ['console.log(e)', 'function g() {}', 'undefined', 'Promise.resolve(3)', 'await Promise.resolve(undefined)']) {
      assert.equal((await js(quiet)).stdout, quiet === 'console.log(e)' ? '41\n' : '', quiet);
    }
  });

  test('regression: a cell with top-level await printed nothing instead of echoing its final expression (issue 16)', async () => {
    assert.equal((await js('let y = await Promise.resolve(5); y + 2')).stdout, '7\n');
    assert.equal((await js('5 + 2')).stdout, '7\n');
    assert.equal((await js('await Promise.resolve(3)')).stdout, '3\n');
    assert.equal((await js('const o = await Promise.resolve({n: 1})\no // trailing comment')).stdout, '{ n: 1 }\n');
    assert.equal((await js('console.log("first"); await new Promise((ok) => setTimeout(ok, 10)); "done";')).stdout, "first\n'done'\n");
    // A declaration as the last statement echoes nothing, as in node's REPL; it persists.
    assert.equal((await js('let z = await Promise.resolve(y * 10)')).stdout, '');
    // A line break inside an expression does not split it.
    assert.equal((await js('z +\n  await Promise.resolve(1)')).stdout, '51\n');
  });

  test('a thrown error ends only that call, with its stack on stderr', async () => {
    const r = await js('globalThis.kept = 3; throw new Error("boom")');
    assert.equal(r.ok, false);
    assert.equal(r.exit_code, 1);
    assert.match(r.stderr, /Error: boom/);
    assert.equal((await js('console.log(kept)')).stdout, '3\n');
  });

  test('regression: node_sync_loop_timeout_read_as_rte (an endless loop stopped by the vm timeout is TLE; the context survives)', async () => {
    await js('globalThis.before_loop = 5');
    const r = await js('console.log("started"); let partial = 7; for (;;) {}', { timeout: 1 });
    assert.equal(r.ok, false);
    assert.equal(r.verdict, 'TLE');
    assert.equal(r.timed_out, true);
    assert.equal(r.stdout, 'started\n');
    assert.equal(r.stderr, "codecalc: the call's code was still running at its 1000 ms timeout; it was stopped there (the context and its variables are kept)\n");
    const n = await js('console.log(before_loop, partial)');
    assert.equal(n.stdout, '5 7\n');
    assert.equal(n.state_lost, undefined);
  });

  test('regression: node_session_missing_node_globals (Buffer, URL, TextEncoder... exist as in node file.js)', async () => {
    // A vm context has only the language's intrinsics: Buffer.from(...) that
    // runs under `node file.js` was "ReferenceError: Buffer is not defined".
    const r = await js(`console.log(Buffer.from('hi').toString('base64'), new URL('http://h/p?q=7').searchParams.get('q'),
  new TextEncoder().encode('\u00e9').length, new TextDecoder().decode(new Uint8Array([79, 75])),
  structuredClone({ a: [1, 2] }).a.length, atob(btoa('ok')), typeof crypto.randomUUID(), typeof performance.now())`);
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.stdout, 'aGk= 7 2 OK 2 ok string number\n');
  });

  test('regression: node_unhandled_rejection_killed_host (an uncaught async error fails its call, not the session)', async () => {
    // node ends the process on an unhandled rejection: the host died with
    // every variable ("node worker died ... its variables are gone"), also
    // when the rejection came from a timer after the call was answered OK,
    // and then the *next* call was the one answered with the death.
    await js('globalThis.kept_async = 11');
    const r = await js("(async () => { throw new Error('async boom') })(); 1");
    assert.equal(r.ok, false);
    assert.equal(r.verdict, 'RTE');
    assert.match(r.stderr, /Error: async boom/);
    const t = await js("setTimeout(() => { Promise.reject(new Error('timer boom')) }, 5); 2");
    assert.equal(t.verdict, 'RTE');
    assert.match(t.stderr, /Error: timer boom/);
    // a host API's callback that throws once the call may have been answered
    const f = await js("require('fs').readFile('/nonexistent-codecalc', (e) => { throw new Error('fs boom') }); 3");
    const n = await js('console.log(kept_async)');
    assert.equal(n.stdout, '11\n');
    assert.equal(n.state_lost, undefined);
    assert.match(f.stderr + n.stderr, /fs boom/, 'the error is told, in its call or the next');
  });

  test('a child spawned with stdio inherit cannot reach the protocol channel', async () => {
    await js('globalThis.keep = 17');
    // garbage at fd 0, 1, 2 and 3 of the child; none of it may reach the
    // launcher (a frame length it would choke on) or the captured output
    const r = await js(`const cp = require('child_process');
const out = cp.spawnSync('/bin/sh', ['-c', 'printf "\\377\\377garbage" >&0; printf "\\377\\377garbage"; printf "\\377junk" >&2; printf "x" >&3 && echo fd3-open >&2; ls /proc/self/fd | tr "\\n" " " >&2'], { stdio: 'inherit' });
console.log('status', out.status)`);
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.stdout, 'status 0\n');
    const n = await js('console.log(keep + 1)');
    assert.equal(n.stdout, '18\n');
    assert.equal(n.state_lost, undefined);
    // the channel is no longer on fd 0: the host's own fd 0 is /dev/null
    const fd0 = await js('console.log(require("fs").readlinkSync("/proc/self/fd/0"))');
    assert.equal(fd0.stdout, '/dev/null\n');
  });

  test('a host that cannot stop itself is killed at the deadline; the next call is fresh', async () => {
    const r = await js('require("child_process").execSync("sleep 5")', { timeout: 1 });
    assert.equal(r.verdict, 'TLE');
    assert.equal(r.code, 'timeout');
    const n = await js('console.log(typeof kept)');
    assert.equal(n.stdout, 'undefined\n');
    assert.equal(n.state_lost, true);
  });
});
