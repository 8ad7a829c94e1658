// Resource attacks through execute_code: fork bombs, memory bombs, CPU spin
// and sleep, output floods, a daemon that tries to outlive the call, a 3 GB
// file and fd exhaustion. Each case asserts the exact verdict and fields
// (TOOLS.md 1.3-1.6) and, from the host, that nothing of the run survives
// and the server keeps serving.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  startSecServer, skipUnlessContained, skipUnlessIsolated, brief, fixture, nonce, runProcsOf, procsWithArgv,
  waitFor, alive, SKIP_NO_BINARY, TRUNC_MARKER,
} from './util.mjs';

// Small pids ceiling: the fork bomb stays modest.
const PIDS = 32;

describe('resource attacks', { skip: SKIP_NO_BINARY, timeout: 120000 }, () => {
  let s;
  before(async () => { s = await startSecServer({ env: { CODECALC_MAX_PROCESSES: String(PIDS) } }); });
  after(async () => { await s?.close(); });

  /** The server answers a trivial run, and no run process of ours is left. */
  async function assertServerHealthy() {
    assert.ok(alive(s.pid), 'server process died');
    const r = await s.exec({ language: 'bash', code: 'echo alive' });
    assert.equal(r.stdout, 'alive\n', brief(r));
    const left = await waitFor(() => runProcsOf(s.pid).length === 0, 3000);
    assert.ok(left, `run processes left behind: ${runProcsOf(s.pid).join(',')}`);
  }

  test('fork bomb (python fork loop) stops at the pids ceiling', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const r = await s.exec({
      language: 'python3',
      code: [
        'import os, time',
        'n = 0',
        'try:',
        '    while True:',
        '        if os.fork() == 0:',
        '            time.sleep(60)',
        '            os._exit(0)',
        '        n += 1',
        'except OSError as e:',
        "    print('forks', n, 'errno', e.errno)",
      ].join('\n'),
      timeout: 20,
    });
    assert.equal(r.verdict, 'OK', brief(r));
    const m = /^forks (\d+) errno (\d+)\n$/.exec(r.stdout);
    assert.ok(m, brief(r));
    // The program itself is one of the PIDS tasks: at most PIDS-1 children.
    assert.ok(Number(m[1]) <= PIDS - 1, `forked ${m[1]} children with a ceiling of ${PIDS}`);
    assert.equal(Number(m[2]), 11, 'fork fails with EAGAIN');
    // The 60 s sleepers were killed when the program ended.
    await assertServerHealthy();
  });

  // RLIMIT_NPROC counts every process of the sandbox uid on the host, and
  // every run of every codecalc server shares that uid: with it set to the
  // ceiling, two runs holding PIDS processes between them made each other's
  // forks (and a third run's execve) fail with EAGAIN. The pids cgroup is
  // the per-run ceiling; RLIMIT_NPROC is set only where none exists.
  test('regression: concurrent runs share no process ceiling (RLIMIT_NPROC counted the sandbox uid host-wide)', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const HOLD = 24; // per run: under PIDS, two runs together over it
    // The runs wait for this file; /var/tmp is visible (read-only) inside.
    const gate = mkdtempSync('/var/tmp/codecalc-sec-gate-');
    chmodSync(gate, 0o755);
    const go = join(gate, 'go');
    const holder = [
      'import os, time',
      'kids = 0',
      `for _ in range(${HOLD}):`,
      '    try:',
      '        pid = os.fork()',
      '    except OSError as e:',
      "        print('fork failed errno', e.errno)",
      '        break',
      '    if pid == 0:',
      '        t0 = time.time()',
      `        while not os.path.exists(${JSON.stringify(go)}) and time.time() - t0 < 60:`,
      '            time.sleep(0.05)',
      '        os._exit(0)',
      '    kids += 1',
      'for _ in range(kids):',
      '    os.wait()',
      "print('held', kids)",
    ].join('\n');
    try {
      const runs = [1, 2].map(() => s.exec({ language: 'python3', code: holder, timeout: 90 }));
      const both = await waitFor(() => runProcsOf(s.pid).length >= 2 * HOLD, 60000, 100);
      // A third run starts while the two hold 2 * HOLD > PIDS processes.
      const third = both ? await s.exec({ language: 'python3', code: 'print(42)' }) : null;
      writeFileSync(go, '');
      const [a, b] = await Promise.all(runs);
      assert.equal(a.stdout, `held ${HOLD}\n`, brief(a));
      assert.equal(b.stdout, `held ${HOLD}\n`, brief(b));
      assert.ok(both, 'the two runs never held their processes at the same time');
      assert.equal(third.verdict, 'OK', brief(third));
      assert.equal(third.stdout, '42\n', brief(third));
      assert.deepEqual(third.unenforced, []);
    } finally {
      rmSync(gate, { recursive: true, force: true });
    }
    await assertServerHealthy();
  });

  test('classic bash fork bomb: the namespace never holds more than the ceiling', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    // Start the bomb from a child, then count from the parent without forking.
    const r = await s.exec({
      language: 'python3',
      code: [
        'import os, time',
        'if os.fork() == 0:',
        "    os.execv('/bin/bash', ['bash', '-c', ':(){ :|:& };:; wait'])",
        'peak = 0',
        'for _ in range(15):',
        '    time.sleep(0.1)',
        "    peak = max(peak, sum(1 for p in os.listdir('/proc') if p.isdigit()))",
        "print('peak', peak)",
      ].join('\n'),
      timeout: 20,
    });
    assert.equal(r.verdict, 'OK', brief(r));
    const m = /^peak (\d+)\n$/.exec(r.stdout);
    assert.ok(m, brief(r));
    // init + PIDS tasks at most, and the bomb did get going.
    assert.ok(Number(m[1]) <= PIDS + 1, `peak ${m[1]} processes`);
    assert.ok(Number(m[1]) >= 5, `the bomb never started: peak ${m[1]}`);
    await assertServerHealthy();
  });

  test('memory bomb under max_memory_mb 64: MLE, peak near the ceiling', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const r = await s.exec({ language: 'c', code: fixture('membomb.c'), max_memory_mb: 64, timeout: 30 });
    assert.equal(r.phase, 'run', brief(r));
    assert.equal(r.verdict, 'MLE', brief(r));
    assert.equal(r.ok, false);
    assert.equal(r.exit_code, null);
    assert.equal(r.timed_out, false);
    assert.ok(r.peak_memory_kb >= 64 * 1024 / 2, `peak ${r.peak_memory_kb} KiB`);
    assert.ok(r.peak_memory_kb <= 64 * 1024 + 1024, `peak ${r.peak_memory_kb} KiB is above the 64 MiB ceiling`);
    assert.ok(!r.stdout.includes('unhindered'));
    await assertServerHealthy();
  });

  // Issue 11.2: the memory cgroup holds the ceiling; an OOM kill or an
  // allocation failure under it is MLE (MemoryError used to be RTE).
  test('regression: python allocating 300 MB under max_memory_mb 32 is MLE, not RTE', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const r = await s.exec({ language: 'python3', code: 'x = bytearray(300 * 1024 * 1024)\nprint(len(x))', max_memory_mb: 32 });
    assert.equal(r.ok, false, brief(r));
    assert.equal(r.verdict, 'MLE', brief(r));
    assert.equal(r.stdout, '');
    assert.match(r.reason, /memory/);
    assert.ok(r.peak_memory_kb <= 32 * 1024 + 1024, `peak ${r.peak_memory_kb} KiB`);
  });

  test('CPU spin: TLE on time, timed_out, exit_code null, codecalc note on stderr', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const t0 = Date.now();
    const r = await s.exec({ language: 'python3', code: 'while True: pass', timeout: 2 });
    const took = Date.now() - t0;
    assert.equal(r.verdict, 'TLE', brief(r));
    assert.equal(r.ok, false);
    assert.equal(r.timed_out, true);
    assert.equal(r.exit_code, null);
    assert.equal(r.stderr, '<killed: exceeded wall-clock timeout>');
    assert.equal(r.stderr_bytes, 0);
    assert.ok(r.duration_ms >= 2000 && r.duration_ms < 3500, `duration_ms ${r.duration_ms}`);
    assert.ok(took < 8000, `the call took ${took} ms`);
    await assertServerHealthy();
  });

  // Regression: killing the run's init first lost the program's rusage (cpu_ms ~0).
  test('regression: a timed-out CPU spin reports the CPU it burnt (cpu_ms)', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({ language: 'python3', code: 'while True: pass', timeout: 2 });
    assert.equal(r.verdict, 'TLE', brief(r));
    assert.ok(r.cpu_ms >= 300, `cpu_ms ${r.cpu_ms} after a 2 s spin`);
  });

  test('sleep past the timeout: TLE after about one second', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({ language: 'bash', code: 'sleep 30', timeout: 1 });
    assert.equal(r.verdict, 'TLE', brief(r));
    assert.equal(r.timed_out, true);
    assert.equal(r.exit_code, null);
    assert.ok(r.duration_ms >= 1000 && r.duration_ms < 2500, `duration_ms ${r.duration_ms}`);
  });

  test('CPU spin under max_cpu 1: killed by the CPU limit, not the wall clock', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({ language: 'python3', code: 'while True: pass', timeout: 20, max_cpu: 1 });
    assert.equal(r.verdict, 'RTE', brief(r));
    assert.equal(r.timed_out, false);
    assert.equal(r.exit_code, null, 'SIGXCPU/SIGKILL, not an exit');
    assert.ok(r.cpu_ms >= 500, `cpu_ms ${r.cpu_ms}`);
    assert.ok(r.duration_ms < 10000, `duration_ms ${r.duration_ms}`);
  });

  // Issue 11.3: output past the cap is drained and counted, never a write
  // error the program sees; an endless flood is killed by the sandbox once
  // it passes the drain ceiling (64 MiB), and the result says so.
  const DRAIN = 64 * 1024 * 1024;

  test('output flood (python, endless): OLE, capped text + marker, killed by the sandbox for output', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({ language: 'python3', code: "import sys\nwhile True: sys.stdout.write('x' * 1000)", max_output_kb: 1 });
    assert.equal(r.verdict, 'OLE', brief(r));
    assert.equal(r.output_truncated, true);
    assert.equal(r.stdout.length, 1024 + 15);
    assert.equal(r.stdout, 'x'.repeat(1024) + TRUNC_MARKER);
    assert.ok(r.stdout_bytes > DRAIN && r.stdout_bytes < DRAIN + 1024 * 1024, `stdout_bytes ${r.stdout_bytes}`);
    assert.equal(r.ok, false);
    assert.equal(r.exit_code, null);
    assert.equal(r.signal?.name, 'SIGKILL');
    assert.match(r.reason, /killed by the sandbox.*output/);
    assert.equal(r.stderr, '', 'the program never saw a write error');
  });

  test('output flood (C, no SIGXFSZ handler): OLE with exit_code null, no write error', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({ language: 'c', code: fixture('flood.c'), max_output_kb: 2 });
    assert.equal(r.verdict, 'OLE', brief(r));
    assert.equal(r.exit_code, null);
    assert.equal(r.stdout, 'f'.repeat(2048) + TRUNC_MARKER);
    assert.ok(r.stdout_bytes > DRAIN && r.stdout_bytes % 4096 === 0, `stdout_bytes ${r.stdout_bytes}`);
    assert.match(r.reason, /output/);
  });

  test('regression: raising max_output_kb crashes programs (a 1 MB print is drained and counted)', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({ language: 'python3', code: "print('y' * 200000)", max_output_kb: 1 });
    assert.equal(r.verdict, 'OLE', brief(r));
    assert.equal(r.stdout.length, 1039);
    assert.equal(r.stdout_bytes, 200001);
    assert.equal(r.exit_code, 0);
    const big = await s.exec({ language: 'python3', code: 'print("z"*1000000)', max_output_kb: 128 });
    assert.equal(big.verdict, 'OLE', brief(big));
    assert.equal(big.exit_code, 0);
    assert.equal(big.stdout_bytes, 1000001);
    assert.equal(big.stderr, '');
  });

  test('double fork + setsid daemon is dead when the call returns', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const tag = `${Math.floor(Math.random() * 1e6) + 1000}.${Math.floor(Math.random() * 1e6)}`;
    // Self-check of the host scan: it must find a sleep we start ourselves.
    const own = spawn('sleep', [tag], { stdio: 'ignore' });
    try {
      assert.ok(await waitFor(() => procsWithArgv(['sleep', tag]).length === 1, 3000), 'host scan cannot see a known sleep');
    } finally { own.kill('SIGKILL'); }
    assert.ok(await waitFor(() => procsWithArgv(['sleep', tag]).length === 0, 3000));

    const r = await s.exec({
      language: 'python3',
      code: [
        'import os, time',
        'r, w = os.pipe()',
        'if os.fork() == 0:',
        '    os.setsid()',
        '    pid = os.fork()',
        '    if pid == 0:',
        `        os.execvp('sleep', ['sleep', '${tag}'])`,
        "    os.write(w, str(pid).encode())",
        '    os._exit(0)',
        'os.wait()',
        'gpid = int(os.read(r, 32))',
        'time.sleep(0.3)',
        'os.kill(gpid, 0)',
        "print('daemon', gpid, open('/proc/%d/cmdline' % gpid).read().split(chr(0))[0], os.getsid(gpid) != os.getsid(0))",
      ].join('\n'),
    });
    assert.equal(r.verdict, 'OK', brief(r));
    assert.match(r.stdout, /^daemon \d+ sleep True\n$/, 'the daemon was running in its own session at exit');
    const leftovers = procsWithArgv(['sleep', tag]);
    assert.deepEqual(leftovers, [], `daemon survived the call: host pids ${leftovers}`);
  });

  test('3 GB file write is stopped by the file-size limit (256 MiB by default)', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({
      language: 'python3',
      code: [
        'import os',
        "f = open('big', 'wb', buffering=0)",
        'n = 0',
        "chunk = b'\\0' * (1 << 20)",
        'try:',
        '    while n < 3 * 1024 ** 3:',
        '        n += f.write(chunk)',
        'except OSError as e:',
        "    print('stopped', e.errno, os.path.getsize('big'))",
        'try:',
        "    g = open('sparse', 'wb')",
        '    g.seek(3 * 1024 ** 3)',
        "    g.write(b'x')",
        '    g.flush()',
        "    print('sparse written')",
        'except OSError as e:',
        "    print('sparse', e.errno)",
      ].join('\n'),
      timeout: 30,
    });
    assert.equal(r.verdict, 'OK', brief(r));
    assert.equal(r.stdout, `stopped 27 ${256 * 1024 * 1024}\nsparse 27\n`);
  });

  test('fd exhaustion is stopped by RLIMIT_NOFILE (256)', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({
      language: 'python3',
      code: "fs = []\ntry:\n    while True: fs.append(open('/dev/null'))\nexcept OSError as e:\n    print(len(fs), e.errno)",
    });
    assert.equal(r.verdict, 'OK', brief(r));
    const [n, errno] = r.stdout.trim().split(' ').map(Number);
    assert.equal(errno, 24, 'EMFILE');
    assert.ok(n > 200 && n < 256, `opened ${n} files`);
    await assertServerHealthy();
  });
});
