// Fifth hostile round (lane hostile5): the REPL hosts' disk, timer storms,
// and kernel surface the first four rounds did not try (SysV IPC, POSIX
// message queues, inotify, eventfd/epoll, abstract sockets between runs,
// other processes' /proc, rlimits raised from inside, a run racing its own
// kill, zombies, a closed stdout with a flood on stderr).
//
// Before this round a session's REPL host (python3/node, TOOLS.md 4.2) had
// no disk watch: a call, or a background child it left running between
// calls, could write into the workspace until the host's disk was full.
// Now the launcher watches that filesystem (repl-workers/diskwatch.c) and
// kills the host at CODECALC_MIN_HOST_FREE_MB with resource_exhausted.
// Every attack runs only once containment is proven (we are root: never a
// bomb outside the sandbox); a non-root server (cloudsdk) runs the cases
// that need only isolation and skips the rest with the reason.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { statfsSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import {
  startSecServer, skipUnlessContained, skipUnlessIsolated, brief, SKIP_NO_BINARY, nonce,
} from './util.mjs';

const root = process.getuid() === 0;
const EOPNOTSUPP = 95;
const EMFILE = 24, EACCES = 13, EPERM = 1, ENOENT = 2, ECONNREFUSED = 111;

/** Free bytes of the filesystem holding dir. */
const hostFreeBytes = (dir) => { const f = statfsSync(dir); return f.bavail * f.bsize; };

/** The server answers a trivial call (it survived the attack). */
async function stillServes(s) {
  const r = await s.exec({ language: 'python3', code: 'print(6*7)' });
  assert.equal(r.stdout, '42\n', brief(r));
}

/** Remove what a call left in a session's workspace (from the host side:
 * a workspace below the floor refuses every call, deletions included). */
function clearWorkspace(s, ws, prefix) {
  const dir = join(s.home, 'sessions', ws);
  assert.ok(existsSync(dir), `no workspace at ${dir}`);
  for (const f of readdirSync(dir)) if (f.startsWith(prefix)) rmSync(join(dir, f), { force: true });
}

/** structuredContent of a call that may be a tool error (REPL failures are). */
async function callAny(s, name, args, timeout = 120000) {
  const res = await s.callRaw(name, args, { timeout });
  return res.structuredContent ?? JSON.parse(res.content[0].text);
}

/** "name value" lines of a run's stdout as an object. */
const fields = (r) => Object.fromEntries(r.stdout.trim().split('\n').filter(Boolean).map((l) => {
  const i = l.indexOf(' ');
  return [l.slice(0, i), l.slice(i + 1)];
}));

describe('hostile round 5: the disk under a REPL host\'s workspace', { skip: SKIP_NO_BINARY, timeout: 240000 }, () => {
  let s, floorMb;
  before(async () => {
    // A floor 1000 MiB under what is free now (the disk is shared with
    // other work, which the quota's own pre-check sees too): a host that
    // writes past that much to the host's disk is what the watch must stop.
    floorMb = Math.floor(hostFreeBytes('/tmp') / 2 ** 20) - 1000;
    // Quotas far above what is written: the floor is what is tested, and
    // the call after the kill must not be refused for the files left.
    s = await startSecServer({ env: {
      CODECALC_MIN_HOST_FREE_MB: String(floorMb),
      CODECALC_SESSION_DISK_QUOTA_MB: '65536',
      CODECALC_TOTAL_DISK_QUOTA_MB: '65536',
    } });
  });
  after(async () => { await s?.close(); });

  for (const [lang, code] of [
    ['python3', [
      'import os',
      'chunk = b"x" * (100 << 20)',
      'for i in range(40):',
      '    with open(f"fill{i}", "wb") as f: f.write(chunk)',
      'print("wrote", i)',
    ].join('\n')],
    ['node', [
      'const fs = require("fs");',
      'const chunk = require("buffer").Buffer.alloc(100 << 20, 120);',
      'let i = 0;',
      'for (; i < 40; i++) fs.writeFileSync(`fill${i}`, chunk);',
      'console.log("wrote", i);',
    ].join('\n')],
  ]) {
    test(`regression: a ${lang} session's REPL host wrote into its workspace until the host disk was full (no watch on REPL hosts), now killed at CODECALC_MIN_HOST_FREE_MB`, async (t) => {
      if (await skipUnlessIsolated(t, s)) return;
      const ws = (await s.call('session_start', { language: lang })).session_id;
      try {
        const r = await callAny(s, 'execute_code', { session_id: ws, language: lang, timeout: 60, code });
        assert.equal(r.ok, false, brief(r));
        assert.equal(r.verdict, 'RTE', brief(r));
        assert.equal(r.code ?? r.error?.code, 'resource_exhausted', brief(r));
        assert.match(JSON.stringify(r), new RegExp(`the host's disk under the workspace fell below ${floorMb} MiB free \\(CODECALC_MIN_HOST_FREE_MB\\)`), brief(r));
        assert.deepEqual(r.space_exhausted, ['workspace'], brief(r));
        assert.ok(hostFreeBytes('/tmp') > (floorMb - 600) * 2 ** 20, 'the disk went far below the floor');
        // The session lives on with a fresh host that says what was lost.
        clearWorkspace(s, ws, 'fill');
        const next = await callAny(s, 'execute_code', { session_id: ws, language: lang, code: lang === 'node' ? 'console.log(6*7)' : 'print(6*7)' });
        assert.equal(next.stdout, '42\n', brief(next));
        assert.equal(next.state_lost, true, brief(next));
        assert.match(next.host_restarted, /fell below \d+ MiB free/, brief(next));
      } finally {
        await s.call('session_stop', { session_id: ws });
      }
      await stillServes(s);
    });
  }

  test('regression: fallocate reserved 256 MiB a call in milliseconds, so a REPL host took gigabytes past the floor between two looks (5.7 GiB); now fallocate is EOPNOTSUPP where the workdir is watched (posix_fallocate writes the blocks) and the host stops within MiB of the floor', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const probe = [
      'import ctypes, os',
      'libc = ctypes.CDLL(None, use_errno=True)',
      'fd = os.open("probe", os.O_CREAT | os.O_WRONLY)',
      'rc = libc.fallocate(fd, 0, ctypes.c_long(0), ctypes.c_long(1 << 20))',
      'print("raw", 0 if rc == 0 else ctypes.get_errno())',
      'os.posix_fallocate(fd, 0, 4 << 20); print("posix", os.fstat(fd).st_blocks * 512 >= 4 << 20)',
    ].join('\n');
    // A one-shot run in a root server's tmpfs keeps fallocate (the tmpfs bounds it).
    const one = await s.exec({ language: 'python3', code: probe });
    assert.equal(one.stdout, `raw ${root ? 0 : EOPNOTSUPP}\nposix True\n`, brief(one));
    const ws = (await s.call('session_start', { language: 'python3' })).session_id;
    try {
      const p = await callAny(s, 'execute_code', { session_id: ws, language: 'python3', code: probe });
      assert.equal(p.stdout, `raw ${EOPNOTSUPP}\nposix True\n`, brief(p));
      const r = await callAny(s, 'execute_code', { session_id: ws, language: 'python3', timeout: 60, code: [
        'import os',
        'for i in range(40):',
        '    fd = os.open(f"fa{i}", os.O_CREAT | os.O_WRONLY); os.posix_fallocate(fd, 0, 250 << 20); os.close(fd)',
        'print("reserved", i)',
      ].join('\n') });
      assert.equal(r.code ?? r.error?.code, 'resource_exhausted', brief(r));
      assert.deepEqual(r.space_exhausted, ['workspace'], brief(r));
      assert.ok(hostFreeBytes('/tmp') > (floorMb - 200) * 2 ** 20, `the disk went ${floorMb - hostFreeBytes('/tmp') / 2 ** 20} MiB below the floor`);
    } finally {
      await s.call('session_stop', { session_id: ws });
    }
    const bash = (await s.call('session_start', { language: 'bash' })).session_id;
    try {
      const b = await s.exec({ session_id: bash, language: 'python3', code: probe });
      assert.equal(b.stdout, `raw ${EOPNOTSUPP}\nposix True\n`, brief(b));
    } finally {
      await s.call('session_stop', { session_id: bash });
    }
  });

  test('a workspace has no hard bound, only the watch: a bash workspace run and a python3 REPL call say so (workspace_disk_bound), one-shot runs do not', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const want = 'workspace_disk_bound: on the host\'s disk; only the CODECALC_MIN_HOST_FREE_MB watch (every 50 ms) and the quota checks before and after the call bound it';
    for (const lang of ['bash', 'python3']) {
      const ws = (await s.call('session_start', { language: lang })).session_id;
      try {
        const r = await callAny(s, 'execute_code', { session_id: ws, language: lang, code: lang === 'bash' ? 'echo ok' : 'print("ok")' });
        assert.equal(r.stdout, 'ok\n', brief(r));
        assert.equal(r.unenforced.filter((u) => u === want).length, 1, `${lang}: ${JSON.stringify(r.unenforced)}`);
      } finally {
        await s.call('session_stop', { session_id: ws });
      }
    }
    const one = await s.exec({ language: 'bash', code: 'echo ok' });
    assert.ok(!one.unenforced.some((u) => u.startsWith('workspace_disk_bound')), brief(one));
  });

  test('regression: a background child a python3 REPL call left running kept writing into the workspace between calls, now the host is killed at the floor and the next call hears why', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const ws = (await s.call('session_start', { language: 'python3' })).session_id;
    try {
      const started = await callAny(s, 'execute_code', { session_id: ws, language: 'python3', code: [
        'import subprocess',
        'subprocess.Popen(["bash", "-c", "for i in $(seq 1 40); do head -c 100M /dev/zero > bg$i || exit; sleep 0.05; done"],',
        '                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)',
        'print("started")',
      ].join('\n') });
      assert.equal(started.stdout, 'started\n', brief(started));
      // Between calls nothing waits on the host: the watch alone must stop it.
      let stopped = false;
      for (const end = Date.now() + 60000; !stopped && Date.now() < end;) {
        const a = hostFreeBytes('/tmp');
        await new Promise((res) => setTimeout(res, 1500));
        stopped = hostFreeBytes('/tmp') >= a - 2 ** 20; // no longer falling
      }
      assert.ok(stopped, 'the writer never stopped');
      assert.ok(hostFreeBytes('/tmp') > (floorMb - 600) * 2 ** 20, 'the disk went far below the floor');
      clearWorkspace(s, ws, 'bg');
      const next = await callAny(s, 'execute_code', { session_id: ws, language: 'python3', code: 'print(6*7)' });
      assert.equal(next.stdout, '42\n', brief(next));
      assert.equal(next.state_lost, true, brief(next));
      assert.match(next.host_restarted, /was killed: the host's disk under the workspace fell below \d+ MiB free/, brief(next));
    } finally {
      await s.call('session_stop', { session_id: ws });
    }
    await stillServes(s);
  });
});

describe('hostile round 5: timer and signal storms', { skip: SKIP_NO_BINARY, timeout: 180000 }, () => {
  let s;
  before(async () => { s = await startSecServer(); });
  after(async () => { await s?.close(); });

  test('a storm of 1 us interval timers (setitimer, thousands of posix timers, timerfds) ends at its wall clock as TLE, and runs beside it are answered before it ends', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const storm = s.exec({ language: 'python3', timeout: 6, code: [
      'import ctypes, os, signal, select',
      'libc = ctypes.CDLL(None, use_errno=True)',
      'class its(ctypes.Structure): _fields_ = [("a", ctypes.c_long), ("b", ctypes.c_long), ("c", ctypes.c_long), ("d", ctypes.c_long)]',
      'class sigev(ctypes.Structure): _fields_ = [("v", ctypes.c_void_p), ("signo", ctypes.c_int), ("notify", ctypes.c_int), ("pad", ctypes.c_char * 48)]',
      'fds = []',
      'for i in range(200):',
      '    fd = libc.timerfd_create(1, 0)',
      '    if fd < 0: break',
      '    libc.timerfd_settime(fd, 0, ctypes.byref(its(0, 1, 0, 1)), None); fds.append(fd)',
      'signal.signal(34, signal.SIG_IGN)',
      'ev = sigev(None, 34, 0)',
      'for i in range(20000):',
      '    tid = ctypes.c_void_p()',
      '    if libc.timer_create(1, ctypes.byref(ev), ctypes.byref(tid)) != 0: break',
      '    libc.timer_settime(tid, 0, ctypes.byref(its(0, 1000, 0, 1000)), None)',
      'print("armed", len(fds), i, flush=True)',
      'signal.signal(signal.SIGALRM, lambda *a: None)',
      'signal.setitimer(signal.ITIMER_REAL, 1e-6, 1e-6)',
      'while True:',
      '    try:',
      '        for f in select.select(fds[:100], [], [], 0.01)[0]: os.read(f, 8)',
      '    except InterruptedError: pass',
    ].join('\n') });
    let stormDone = false;
    storm.finally(() => { stormDone = true; });
    // Runs beside it: each answered, all before the storm's own end.
    await new Promise((res) => setTimeout(res, 1000));
    for (let i = 0; i < 3; i++) {
      const r = await s.exec({ language: 'python3', code: `print(${i} * 7)` });
      assert.equal(r.stdout, `${i * 7}\n`, brief(r));
    }
    assert.equal(stormDone, false, 'the runs beside the storm waited for it to end');
    const r = await storm;
    assert.equal(r.verdict, 'TLE', brief(r));
    assert.equal(r.timed_out, true, brief(r));
    assert.match(r.reason, /wall-clock timeout of 6000 ms exceeded/, brief(r));
    assert.ok(r.cpu_ms <= r.duration_ms * 2 + 500, `cpu ${r.cpu_ms} ms in ${r.duration_ms} ms wall`);
    await stillServes(s);
  });

  test('signals at the run\'s init are refused, every one (EPERM), and a stopped program still ends at its wall clock', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({ language: 'python3', timeout: 3, code: [
      'import os, signal',
      'for sig in ("SIGCHLD", "SIGTERM", "SIGHUP", "SIGUSR1", "SIGALRM", "SIGINT", "SIGCONT", "SIGSTOP", "SIGKILL"):',
      '    try: os.kill(1, getattr(signal, sig)); print(sig, 0)',
      '    except OSError as e: print(sig, e.errno)',
      'print("ppid", os.getppid(), flush=True)',
      'os.kill(os.getpid(), signal.SIGSTOP)',
      'print("resumed")',
    ].join('\n') });
    const got = fields(r);
    for (const sig of ['SIGCHLD', 'SIGTERM', 'SIGHUP', 'SIGUSR1', 'SIGALRM', 'SIGINT', 'SIGCONT', 'SIGSTOP', 'SIGKILL']) {
      assert.equal(got[sig], String(EPERM), `${sig}: ${r.stdout}`);
    }
    assert.equal(got.ppid, '1', r.stdout);
    assert.equal(got.resumed, undefined, r.stdout);
    assert.equal(r.verdict, 'TLE', brief(r));
    assert.match(r.reason, /wall-clock timeout of 3000 ms exceeded/, brief(r));
    await stillServes(s);
  });
});

describe('hostile round 5: kernel objects a run can hoard', { skip: SKIP_NO_BINARY, timeout: 240000 }, () => {
  let s;
  before(async () => { s = await startSecServer(); });
  after(async () => { await s?.close(); });

  test('SysV IPC is the run\'s own namespace: a message queue, semaphore set and shm segment left by one run are not in the next', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const key = 0x5ec0 + Math.floor(Math.random() * 1000);
    const ipc = [
      'import ctypes',
      'libc = ctypes.CDLL(None, use_errno=True)',
      'libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]',
    ].join('\n');
    const a = await s.exec({ language: 'python3', code: [
      ipc,
      `print("msg", libc.msgget(${key}, 0o1000 | 0o666) >= 0)`,
      `print("sem", libc.semget(${key}, 4, 0o1000 | 0o666) >= 0)`,
      `print("shm", libc.shmget(${key}, 1 << 20, 0o1000 | 0o666) >= 0)`,
    ].join('\n') });
    assert.equal(a.stdout, 'msg True\nsem True\nshm True\n', brief(a));
    const b = await s.exec({ language: 'python3', code: [
      ipc,
      'def get(f):',
      '    r = f()',
      '    return 0 if r >= 0 else ctypes.get_errno()',
      `print("msg", get(lambda: libc.msgget(${key}, 0)))`,
      `print("sem", get(lambda: libc.semget(${key}, 0, 0)))`,
      `print("shm", get(lambda: libc.shmget(${key}, 0, 0)))`,
    ].join('\n') });
    assert.equal(b.stdout, `msg ${ENOENT}\nsem ${ENOENT}\nshm ${ENOENT}\n`, brief(b));
  });

  test('regression: a run\'s IPC namespace kept the kernel\'s SysV limits (a 16 GiB shm segment, 32,000 queues, 32,000 semaphore sets: bounded by nothing but a memory cgroup, which a non-root server has not), now 64 MiB of shm, 256 queues, 128 sets; the host\'s limits are untouched', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    // The kernel lets only uid 0 of the namespace's user namespace write
    // them; a non-root server's init keeps the server's uid there.
    if (!root) { t.skip('a non-root server cannot set its runs\' IPC limits (named by the memory_cgroup disclosure)'); return; }
    const hostBefore = ['shmmax', 'shmall', 'msgmni', 'sem'].map((k) => readFileSync(`/proc/sys/kernel/${k}`, 'utf8'));
    const r = await s.exec({ language: 'python3', code: [
      'import ctypes',
      'libc = ctypes.CDLL(None, use_errno=True)',
      'libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]',
      'def err(rc): return 0 if rc >= 0 else ctypes.get_errno()',
      'print("shm_128m", err(libc.shmget(0, 128 << 20, 0o1000 | 0o600)))',
      'print("shm_32m_x3", [err(libc.shmget(0, 32 << 20, 0o1000 | 0o600)) for i in range(3)])',
      'n = 0',
      'while n < 40000 and libc.msgget(0, 0o1000 | 0o600) >= 0: n += 1',
      'print("queues", n, ctypes.get_errno())',
      'print("sem_251", err(libc.semget(0, 251, 0o1000 | 0o600)))',
      'n = 0',
      'while n < 40000 and libc.semget(0, 250, 0o1000 | 0o600) >= 0: n += 1',
      'print("sets", n, ctypes.get_errno())',
    ].join('\n') });
    const EINVAL = 22, ENOSPC = 28;
    assert.equal(r.stdout, `shm_128m ${EINVAL}\nshm_32m_x3 [0, 0, ${ENOSPC}]\nqueues 256 ${ENOSPC}\nsem_251 ${EINVAL}\nsets 128 ${ENOSPC}\n`, brief(r));
    assert.deepEqual(r.unenforced, [], brief(r));
    const hostAfter = ['shmmax', 'shmall', 'msgmni', 'sem'].map((k) => readFileSync(`/proc/sys/kernel/${k}`, 'utf8'));
    assert.deepEqual(hostAfter, hostBefore, 'the host\'s own IPC limits changed');
  });

  test('SysV shared memory a run fills and detaches is charged to it: 2 segments of 32 MiB under a 32 MiB ceiling is MLE', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const r = await s.exec({ language: 'python3', max_memory_mb: 32, code: [
      'import ctypes',
      'libc = ctypes.CDLL(None, use_errno=True)',
      'libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]',
      'libc.shmat.restype = ctypes.c_void_p',
      'libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]',
      'libc.shmdt.argtypes = [ctypes.c_void_p]',
      'held = 0',
      'for i in range(2):',
      '    sid = libc.shmget(0, 32 << 20, 0o1000 | 0o600)',
      '    a = libc.shmat(sid, None, 0)',
      '    ctypes.memset(a, 1, 32 << 20)',
      '    libc.shmdt(a); held += 32',
      'print("held_mib", held, flush=True)',
    ].join('\n') });
    assert.equal(r.verdict, 'MLE', brief(r));
    assert.equal(r.stdout, '', brief(r));
    await stillServes(s);
  });

  test('inotify instances and POSIX message queues end at the uid\'s kernel bound (EMFILE) and are released with the run: the next run gets them again', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const code = [
      'import ctypes, os',
      'libc = ctypes.CDLL(None, use_errno=True)',
      'rt = ctypes.CDLL("librt.so.1", use_errno=True)',
      'n = 0',
      'while n < 5000 and libc.inotify_init1(0) >= 0: n += 1',
      'print("inotify", n, ctypes.get_errno())',
      'q = 0',
      'while q < 5000 and rt.mq_open(f"/h5q{q}".encode(), os.O_CREAT | os.O_RDWR, 0o600, None) >= 0: q += 1',
      'print("mqueue", q, ctypes.get_errno())',
    ].join('\n');
    // A run's RLIMIT_MSGQUEUE is the kernel's default unless the server's
    // hard limit is lower (plan.c); below one queue of default size there
    // is nothing to hoard.
    const hard = readFileSync('/proc/self/limits', 'utf8').match(/^Max msgqueue size\s+\S+\s+(\S+)/m)?.[1];
    if (hard !== undefined && hard !== 'unlimited' && Number(hard) < 90000) {
      t.skip(`RLIMIT_MSGQUEUE's hard limit here is ${hard} bytes, less than one queue`);
      return;
    }
    const a = await s.exec({ language: 'python3', code });
    const b = await s.exec({ language: 'python3', code });
    for (const [run, r] of [['first', a], ['second', b]]) {
      const got = fields(r);
      const [ni, ei] = got.inotify.split(' ').map(Number);
      const [nq, eq] = got.mqueue.split(' ').map(Number);
      assert.equal(ei, EMFILE, `${run} run: ${brief(r)}`);
      assert.equal(eq, EMFILE, `${run} run: ${brief(r)}`);
      // The uid's whole pool each time: nothing of the first run's is held
      // (ipc_release.c unlinks a run's queues as it ends).
      assert.ok(ni > 0 && ni <= 8192, `${run} run: ${r.stdout}`);
      assert.ok(nq > 0 && nq < 5000, `${run} run: ${r.stdout}`);
    }
    assert.equal(a.stdout, b.stdout, 'the second run found less than the first: the first run\'s objects outlived it');
  });

  test('eventfd and epoll descriptors stop at RLIMIT_NOFILE (256) per process, raising it is refused, and 16 processes holding theirs leave the server serving', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const r = await s.exec({ language: 'python3', code: [
      'import os, resource, select, ctypes',
      'libc = ctypes.CDLL(None, use_errno=True)',
      'try: resource.setrlimit(resource.RLIMIT_NOFILE, (1 << 20, 1 << 20)); print("raise 0")',
      'except (ValueError, OSError) as e: print("raise refused")',
      'def hoard():',
      '    fds = []',
      '    while len(fds) < 100000:',
      '        fd = libc.eventfd(0, 0) if len(fds) % 2 else libc.epoll_create1(0)',
      '        if fd < 0: return fds, ctypes.get_errno()',
      '        fds.append(fd)',
      '    return fds, 0',
      'fds, e = hoard()',
      'print("one", len(fds) + 3, e, flush=True)',
      'for fd in fds: os.close(fd)',
      'kids = []',
      'for i in range(16):',
      '    r, w = os.pipe()',
      '    pid = os.fork()',
      '    if pid == 0:',
      '        os.close(r); k, _ = hoard(); os.write(w, b"%d\\n" % len(k)); os._exit(0)',
      '    os.close(w); kids.append(r)',
      'print("kids", sum(int(os.read(r, 32)) for r in kids))',
    ].join('\n') });
    const got = fields(r);
    assert.equal(got.raise, 'refused', r.stdout);
    assert.equal(got.one, `256 ${EMFILE}`, brief(r));
    // Each child inherits the read ends of the pipes made before it.
    assert.ok(Number(got.kids) >= 16 * 200 && Number(got.kids) <= 16 * 256, r.stdout);
    await stillServes(s);
  });
});

describe('hostile round 5: reaching the server or another run', { skip: SKIP_NO_BINARY, timeout: 180000 }, () => {
  let s;
  before(async () => { s = await startSecServer(); });
  after(async () => { await s?.close(); });

  test('an abstract unix socket one run listens on cannot be reached by a run beside it', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const name = `codecalc-h5-${nonce()}`;
    const listener = s.exec({ language: 'python3', timeout: 8, code: [
      'import socket, time',
      'l = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)',
      `l.bind("\\0${name}"); l.listen(4)`,
      'print("listening", flush=True)',
      'l.settimeout(6)',
      'try: c, _ = l.accept(); print("accepted")',
      'except socket.timeout: print("nobody")',
    ].join('\n') });
    await new Promise((res) => setTimeout(res, 1500));
    const r = await s.exec({ language: 'python3', code: [
      'import socket',
      'c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)',
      `try: c.connect("\\0${name}"); print("connected")`,
      'except OSError as e: print("refused", e.errno)',
    ].join('\n') });
    // EPERM: Landlock's scope; ECONNREFUSED: another network namespace.
    assert.match(r.stdout, new RegExp(`^refused (${EPERM}|${ECONNREFUSED})\\n$`), brief(r));
    const l = await listener;
    assert.equal(l.stdout, 'listening\nnobody\n', brief(l));
  });

  test('an abstract unix socket the host listens on is out of reach of a run (with and without no_net)', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const name = `codecalc-h5-host-${nonce()}`;
    let accepted = 0;
    const srv = createServer(() => { accepted++; });
    await new Promise((res, rej) => srv.listen(`\0${name}`, res).on('error', rej));
    try {
      for (const no_net of [false, true]) {
        const r = await s.exec({ language: 'python3', no_net, code: [
          'import socket',
          'c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)',
          `try: c.connect("\\0${name}"); print("connected")`,
          'except OSError as e: print("refused", e.errno)',
        ].join('\n') });
        assert.match(r.stdout, new RegExp(`^refused (${EPERM}|${ECONNREFUSED})\\n$`), `no_net=${no_net}: ${brief(r)}`);
      }
      assert.equal(accepted, 0);
    } finally {
      srv.close();
    }
  });

  test('/proc shows only the run\'s own processes; init\'s environment, memory, maps and fds are refused; nothing in /proc carries the server\'s secret', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({ language: 'python3', code: [
      'import os',
      'pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())',
      'print("pids", pids)',
      'def rd(path):',
      '    try:',
      '        if path.endswith("/fd"): os.listdir(path); return "0"',
      '        with open(path, "rb") as f: f.read(4096); return "0"',
      '    except OSError as e: return str(e.errno)',
      'for f in ("environ", "mem", "maps", "fd", "stack", "syscall", "auxv"): print("init_" + f, rd("/proc/1/" + f))',
      `canary = ${JSON.stringify(s.canary)}.encode()`,
      'seen = []',
      'for p in ("self", "1", "2"):',
      '    for f in ("environ", "cmdline", "mountinfo", "status"):',
      '        try:',
      '            if canary in open(f"/proc/{p}/{f}", "rb").read(): seen.append(f"{p}/{f}")',
      '        except OSError: pass',
      'print("canary", seen)',
    ].join('\n') });
    const got = fields(r);
    assert.equal(got.pids, '[1, 2]', r.stdout);
    for (const f of ['environ', 'mem', 'maps', 'fd', 'stack', 'syscall', 'auxv']) {
      assert.ok([String(EACCES), String(EPERM)].includes(got[`init_${f}`]), `/proc/1/${f}: ${r.stdout}`);
    }
    assert.equal(got.canary, '[]', r.stdout);
  });
});

describe('hostile round 5: a run racing its own end', { skip: SKIP_NO_BINARY, timeout: 180000 }, () => {
  let s;
  before(async () => { s = await startSecServer(); });
  after(async () => { await s?.close(); });

  test('a vfork storm and 500 zombies never reaped stop at the pids ceiling, and the run ends with the program\'s own verdict', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const r = await s.exec({ language: 'c', timeout: 10, code: [
      '#include <stdio.h>',
      '#include <unistd.h>',
      '#include <errno.h>',
      'int main(void) {',
      '  int n = 0, e = 0;',
      '  for (int i = 0; i < 5000; i++) {',
      '    pid_t p = vfork();',
      '    if (p == 0) _exit(0);',
      '    if (p < 0) { e = errno; break; }',
      '    n++;',
      '  }',
      '  printf("zombies %d errno %d\\n", n, e);',
      '  return 0;',
      '}',
    ].join('\n') });
    assert.equal(r.verdict, 'OK', brief(r));
    const m = /^zombies (\d+) errno (\d+)\n$/.exec(r.stdout);
    assert.ok(m, brief(r));
    assert.ok(Number(m[1]) >= 400 && Number(m[1]) <= 512, r.stdout);
    assert.equal(Number(m[2]), 11, r.stdout); // EAGAIN at pids.max
    await stillServes(s);
  });

  test('a program that closes stdout and floods stderr is stopped at 64 MiB of output (OLE), not left writing', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const r = await s.exec({ language: 'python3', timeout: 30, code: [
      'import os',
      'os.close(1)',
      'chunk = b"e" * (1 << 20)',
      'for i in range(400): os.write(2, chunk)',
    ].join('\n') });
    assert.equal(r.verdict, 'OLE', brief(r));
    assert.equal(r.stdout, '', brief(r));
    assert.equal(r.signal?.name, 'SIGKILL', brief(r));
    assert.match(r.reason, /more than 64 MiB of output/, brief(r));
    assert.ok(r.stderr_bytes >= 64 * 2 ** 20 && r.stderr_bytes < 80 * 2 ** 20, brief(r));
    await stillServes(s);
  });
});
