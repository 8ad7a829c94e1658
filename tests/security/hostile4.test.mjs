// Fourth hostile round (lane hostile4): disk and inodes, memory held outside
// the heap, and kernel surface the first three rounds did not try.
//
// Before this round a one-shot run's directory was a plain directory on the
// host's disk, bounded only per file (RLIMIT_FSIZE, 256 MiB) and by the wall
// clock: a program making many files, or many empty ones, could fill the disk
// that holds the server's state. Now a root server mounts a size- and
// inode-bounded tmpfs on every one-shot run directory (CODECALC_RUN_DISK_MB,
// CODECALC_RUN_INODES), /tmp and /dev/shm are bounded in files too, and a
// directory that stays on the host's disk (a session workspace; a non-root
// server's run directory) is watched: the run is killed before it takes the
// disk below CODECALC_MIN_HOST_FREE_MB. Every attack runs only once
// containment is proven (we are root: never a bomb outside the sandbox).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { statfsSync, readFileSync, existsSync } from 'node:fs';
import {
  startSecServer, skipUnlessContained, skipUnlessIsolated, brief, SKIP_NO_BINARY,
  runDirsIn, procsWithArgv, waitFor, nonce,
} from './util.mjs';

const ENOSPC = 28, E2BIG = 7, EPERM = 1, EACCES = 13, EROFS = 30;
const RUN_MB = 32, RUN_INODES = 1000;
const root = process.getuid() === 0;

/** Free bytes and inodes of the filesystem holding dir. */
function hostFree(dir) {
  const f = statfsSync(dir);
  return { bytes: f.bavail * f.bsize, inodes: f.ffree };
}

/** The server answers a trivial call (it survived the attack). */
async function stillServes(s) {
  const r = await s.exec({ language: 'python3', code: 'print(6*7)' });
  assert.equal(r.stdout, '42\n', brief(r));
}

describe('hostile round 4: disk and inodes of a one-shot run', { skip: SKIP_NO_BINARY, timeout: 180000 }, () => {
  let s;
  before(async () => {
    s = await startSecServer({ env: { CODECALC_RUN_DISK_MB: String(RUN_MB), CODECALC_RUN_INODES: String(RUN_INODES) } });
  });
  after(async () => { await s?.close(); });

  test('regression: empty files in the run directory were bounded only by the wall clock (host inodes), now ENOSPC at CODECALC_RUN_INODES', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const before = hostFree(s.tmp);
    const r = await s.exec({ language: 'python3', code: [
      'n = 0',
      'try:',
      '    while True:',
      '        open(f"e{n}", "w").close(); n += 1',
      'except OSError as e:',
      '    print(e.errno, n)',
    ].join('\n') });
    const [errno, n] = r.stdout.trim().split(' ').map(Number);
    assert.equal(errno, ENOSPC, brief(r));
    assert.ok(n > RUN_INODES - 16 && n <= RUN_INODES, `files made: ${n}`);
    assert.deepEqual(r.space_exhausted, ['run_directory'], brief(r));
    assert.match(r.reason, /run directory's bound was reached \(ENOSPC\): 32 MiB or 1000 files/);
    assert.deepEqual(r.unenforced, []);
    // Nothing of it is on the host's disk, during or after.
    assert.ok(before.inodes - hostFree(s.tmp).inodes < 500, 'the files landed on the host disk');
    // The run's own directory, by name: the exec worker makes the next
    // run's warm directory beside it at any moment, so a count of the
    // directories there races with that.
    assert.ok(r.workdir?.startsWith(s.tmp), `workdir ${r.workdir} is not under ${s.tmp}`);
    assert.ok(await waitFor(() => !existsSync(r.workdir), 15000), `the run directory outlived the run: ${r.workdir} (${JSON.stringify(runDirsIn(s.tmp))})`);
    await stillServes(s);
  });

  test('regression: 1 MiB files in the run directory filled the host disk up to the file count the wall clock allowed, now ENOSPC at CODECALC_RUN_DISK_MB', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const before = hostFree(s.tmp);
    const r = await s.exec({ language: 'python3', code: [
      'n = 0',
      'try:',
      '    while n < 4096:',
      '        with open(f"m{n}", "wb") as f: f.write(b"x" * (1 << 20))',
      '        n += 1',
      'except OSError as e:',
      '    print(e.errno, n)',
    ].join('\n') });
    const [errno, n] = r.stdout.trim().split(' ').map(Number);
    assert.equal(errno, ENOSPC, brief(r));
    assert.ok(n >= RUN_MB - 2 && n <= RUN_MB, `MiB written: ${n}`);
    assert.deepEqual(r.space_exhausted, ['run_directory'], brief(r));
    assert.ok(before.bytes - hostFree(s.tmp).bytes < (RUN_MB << 20) / 2, 'the bytes landed on the host disk');
    await stillServes(s);
  });

  test('fallocate past the file-size limit is EFBIG, past the bound ENOSPC; a sparse file mapped and written dies by SIGBUS at the bound', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const r = await s.exec({ language: 'python3', code: [
      'import os, mmap',
      'def try_(f):',
      '    try: f(); return 0',
      '    except OSError as e: return e.errno',
      'fd = os.open("big", os.O_RDWR | os.O_CREAT)',
      'print("fallocate_8g", try_(lambda: os.posix_fallocate(fd, 0, 8 << 30)))',
      'print("fallocate_200m", try_(lambda: os.posix_fallocate(fd, 0, 200 << 20)))',
      'print("truncate_1t", try_(lambda: os.ftruncate(fd, 1 << 40)))',
      'print("truncate_200m", try_(lambda: os.ftruncate(fd, 200 << 20)), flush=True)',
      'm = mmap.mmap(fd, 200 << 20)',
      'for off in range(0, 200 << 20, 4096): m[off] = 1',
      'print("wrote all")',
    ].join('\n') });
    assert.equal(r.stdout, 'fallocate_8g 27\nfallocate_200m 28\ntruncate_1t 27\ntruncate_200m 0\n', brief(r));
    assert.equal(r.verdict, 'RTE', brief(r));
    assert.equal(r.signal?.name, 'SIGBUS', brief(r));
    assert.deepEqual(r.space_exhausted, ['run_directory'], brief(r));
    await stillServes(s);
  });

  test('regression: /tmp took empty files up to the host RAM\'s page count, now ENOSPC at 32768; /dev/shm at 4096', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({ language: 'python3', code: [
      'for d, cap in (("/tmp", 40000), ("/dev/shm", 8000)):',
      '    n = 0',
      '    try:',
      '        while n < cap:',
      '            open(f"{d}/e{n}", "w").close(); n += 1',
      '        print(d, "no limit", n)',
      '    except OSError as e:',
      '        print(d, e.errno, n)',
    ].join('\n'), timeout: 60 });
    const lines = r.stdout.trim().split('\n');
    const tmp = lines[0].split(' '), shm = lines[1].split(' ');
    assert.equal(tmp[1], String(ENOSPC), brief(r));
    assert.ok(Number(tmp[2]) > 32000 && Number(tmp[2]) <= 32768, lines[0]);
    assert.equal(shm[1], String(ENOSPC), brief(r));
    assert.ok(Number(shm[2]) > 4000 && Number(shm[2]) <= 4096, lines[1]);
    assert.deepEqual(r.space_exhausted, ['tmp', 'dev_shm'], brief(r));
    await stillServes(s);
  });

});

describe('hostile round 4: the disk watch of host-disk directories (session workspaces)', { skip: SKIP_NO_BINARY, timeout: 180000 }, () => {
  let s, floorMb;
  before(async () => {
    // A floor 300 MiB under what is free now: a run that writes past that
    // much to the host's disk is what the watch must stop.
    floorMb = Math.floor(hostFree('/tmp').bytes / 2 ** 20) - 300;
    s = await startSecServer({ env: { CODECALC_MIN_HOST_FREE_MB: String(floorMb) } });
  });
  after(async () => { await s?.close(); });

  test('non-root server: a one-shot run directory stays on the host disk and says so (run_directory_bound); a run writing there is killed at the floor', { skip: root && 'the server is root: its run directories are bounded tmpfs mounts (the cases above)' }, async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({ language: 'bash', timeout: 60, code:
      'for i in $(seq 1 40); do head -c 100M /dev/zero > "fill$i" || break; done; echo wrote $i' });
    assert.ok(r.unenforced.some((u) => u.startsWith('run_directory_bound: on the host\'s disk')), brief(r));
    assert.equal(r.verdict, 'RTE', brief(r));
    assert.match(r.reason, new RegExp(`the host's disk under the run directory fell below ${floorMb} MiB free`), brief(r));
    assert.equal(r.stdout, '', 'the loop ran to its end');
    await stillServes(s);
  });

  test('regression: a session run wrote to its workspace until the host disk was full (quotas are checked before and after only), now killed at CODECALC_MIN_HOST_FREE_MB', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const ws = (await s.call('session_start', { language: 'bash' })).session_id;
    try {
      const r = await s.exec({ session_id: ws, language: 'bash', timeout: 60, code:
        'for i in $(seq 1 40); do head -c 100M /dev/zero > "fill$i" || break; done; echo wrote $i' });
      assert.equal(r.verdict, 'RTE', brief(r));
      assert.equal(r.signal?.name, 'SIGKILL', brief(r));
      assert.match(r.reason, new RegExp(`the host's disk under the workspace fell below ${floorMb} MiB free`), brief(r));
      assert.equal(r.stdout, '', 'the loop ran to its end');
      assert.ok(hostFree('/tmp').bytes > (floorMb - 400) * 2 ** 20, 'the disk went far below the floor');
    } finally {
      await s.call('session_stop', { session_id: ws });
    }
    await stillServes(s);
  });
});

describe('hostile round 4: memory outside the heap, argv, identity, /proc and /sys', { skip: SKIP_NO_BINARY, timeout: 180000 }, () => {
  let s;
  before(async () => { s = await startSecServer(); });
  after(async () => { await s?.close(); });

  test('memfd_create and /dev/shm pages are charged to the run: 256 MiB in a memfd under a 64 MiB ceiling is MLE', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const r = await s.exec({ language: 'python3', max_memory_mb: 64, code: [
      'import os',
      'fd = os.memfd_create("hoard")',
      'chunk = b"x" * (1 << 20)',
      'for i in range(256): os.write(fd, chunk)',
      'print("held 256 MiB outside the heap")',
    ].join('\n') });
    assert.equal(r.verdict, 'MLE', brief(r));
    assert.equal(r.stdout, '', brief(r));
    const shm = await s.exec({ language: 'python3', max_memory_mb: 32, code: [
      'chunk = b"x" * (1 << 20)',
      'n = 0',
      'try:',
      '    with open("/dev/shm/hoard", "wb") as f:',
      '        for i in range(64): f.write(chunk); f.flush(); n += 1',
      'except OSError as e: print(e.errno, n)',
      'print("held", n)',
    ].join('\n') });
    assert.equal(shm.verdict, 'MLE', brief(shm));
    assert.doesNotMatch(shm.stdout, /held 6[34]/, brief(shm));
    await stillServes(s);
  });

  test('huge argv and environment through execve are E2BIG in the run, and the server is unaffected', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({ language: 'python3', code: [
      'import os',
      'def try_(argv, env):',
      '    pid = os.fork()',
      '    if pid == 0:',
      '        try: os.execve("/bin/true", argv, env)',
      '        except OSError as e: os._exit(e.errno)',
      '    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])',
      'print("one_arg_256k", try_(["true", "x" * (256 << 10)], {}))',
      'print("args_64m", try_(["true"] + ["x" * (100 << 10)] * 640, {}))',
      'print("env_64m", try_(["true"], {f"K{i}": "v" * (100 << 10) for i in range(640)}))',
      'print("small", try_(["true", "ok"], {"A": "b"}))',
    ].join('\n') });
    assert.equal(r.stdout, `one_arg_256k ${E2BIG}\nargs_64m ${E2BIG}\nenv_64m ${E2BIG}\nsmall 0\n`, brief(r));
    await stillServes(s);
  });

  test('regression: the capability bounding set was the host\'s full set (only no_new_privs kept execve from using it), now empty; no capability in any set, seccomp, a nosuid root, setuid(0) refused', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({ language: 'python3', code: [
      'import os, subprocess',
      'st = dict(l.split(":\\t", 1) for l in open("/proc/self/status").read().splitlines() if ":\\t" in l)',
      'for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp"): print(k, st[k].strip())',
      'def try_(f):',
      '    try: f(); return 0',
      '    except OSError as e: return e.errno',
      'print("setuid0", try_(lambda: os.setuid(0)))',
      'print("setgid0", try_(lambda: os.setgid(0)))',
      'print("setgroups", try_(lambda: os.setgroups([0])))',
      'suid = [p for p in ("/usr/bin/su", "/bin/su", "/usr/bin/passwd", "/usr/bin/mount") if os.path.exists(p) and os.stat(p).st_mode & 0o4000]',
      'print("suid_found", len(suid) > 0)',
      'root_opts = [l.split()[3] for l in open("/proc/self/mounts") if l.split()[1] == "/"][-1].split(",")',
      'print("root_nosuid", "nosuid" in root_opts)',
      // A setuid binary run from the read-only, nosuid view keeps our euid:
      // /proc/self/status of a python started the same way would show it,
      // but python is not setuid; the mount flag and no_new_privs both stop it.
    ].join('\n') });
    const got = Object.fromEntries(r.stdout.trim().split('\n').map((l) => l.split(' ')));
    for (const k of ['CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb']) assert.equal(got[k], '0000000000000000', `${k}: ${r.stdout}`);
    assert.equal(got.NoNewPrivs, '1');
    assert.equal(got.Seccomp, '2');
    // The run is in a user namespace where uid 0 is not mapped (EINVAL): a
    // non-root server's box always was, a root server's program is since
    // hostile6 (its own namespace, only 64999 mapped; before: EPERM).
    const EINVAL = 22;
    assert.equal(got.setuid0, String(EINVAL));
    assert.equal(got.setgid0, String(EINVAL));
    assert.equal(got.setgroups, String(EPERM));
    assert.equal(got.root_nosuid, 'True', r.stdout);
  });

  test('writes to /proc/self, /proc/sys, /proc/sysrq-trigger and /sys are refused exactly', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({ language: 'python3', code: [
      'def w(path, data):',
      '    try:',
      '        with open(path, "w") as f: f.write(data)',
      '        return 0',
      '    except OSError as e: return e.errno',
      'print("oom_score_adj_lower", w("/proc/self/oom_score_adj", "-1000"))',
      'print("oom_score_adj_raise", w("/proc/self/oom_score_adj", "1000"))',
      'print("sysrq", w("/proc/sysrq-trigger", "b"))',
      'print("proc_sys", w("/proc/sys/kernel/hostname", "x"))',
      'print("sys_kernel", w("/sys/kernel/mm/transparent_hugepage/enabled", "always"))',
      'print("sys_cgroup", w("/sys/fs/cgroup/cgroup.procs", "1"))',
      'print("proc_1_oom", w("/proc/1/oom_score_adj", "1000"))',
    ].join('\n') });
    const got = Object.fromEntries(r.stdout.trim().split('\n').map((l) => l.split(' ')));
    // Lowering needs CAP_SYS_RESOURCE; raising its own score is the
    // program's right (it only makes itself the OOM killer's first choice).
    assert.equal(got.oom_score_adj_lower, String(EACCES), r.stdout);
    assert.equal(got.oom_score_adj_raise, '0', r.stdout);
    // ENOENT where the kernel has no magic SysRq.
    assert.ok([EACCES, EROFS, 2].map(String).includes(got.sysrq), r.stdout);
    assert.ok([EACCES, EROFS].map(String).includes(got.proc_sys), r.stdout);
    assert.ok([EACCES, EROFS, 2].map(String).includes(got.sys_kernel), r.stdout);
    assert.ok([EACCES, EROFS, 2].map(String).includes(got.sys_cgroup), r.stdout);
    assert.ok([EACCES, EPERM].map(String).includes(got.proc_1_oom), r.stdout);
  });

  test('pipe buffers cannot be grown past pipe-max-size, and 200 pipes at the maximum are charged to the run (MLE under 32 MiB or fewer pages granted)', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const max = Number(readFileSync('/proc/sys/fs/pipe-max-size', 'utf8'));
    const r = await s.exec({ language: 'python3', max_memory_mb: 32, code: [
      'import os, fcntl',
      'r, w = os.pipe()',
      'try: fcntl.fcntl(w, 1031, 1 << 30); print("grow_1g 0")',
      'except OSError as e: print("grow_1g", e.errno)',
      'pinned = 0',
      'fds = []',
      'chunk = b"x" * 65536',
      'for i in range(120):',
      '    r, w = os.pipe(); fds += [r, w]',
      `    try: size = fcntl.fcntl(w, 1031, ${max})`,
      '    except OSError: size = 65536',
      '    os.set_blocking(w, False)',
      '    try:',
      '        while True: pinned += os.write(w, chunk)',
      '    except BlockingIOError: pass',
      'print("pinned_mib", pinned >> 20, flush=True)',
    ].join('\n') });
    assert.match(r.stdout, new RegExp(`^grow_1g ${EPERM}\\n`), brief(r));
    // Either the memory cgroup stopped it, or the kernel's per-user pipe
    // page budget did: never 120 MiB held past a 32 MiB ceiling.
    const pinned = /pinned_mib (\d+)/.exec(r.stdout);
    if (r.verdict !== 'MLE') assert.ok(pinned && Number(pinned[1]) <= 64, brief(r));
    await stillServes(s);
  });
});

describe('hostile round 4: what a session run leaves behind for the next call', { skip: SKIP_NO_BINARY, timeout: 180000 }, () => {
  let s, ws;
  before(async () => {
    s = await startSecServer();
    ws = (await s.call('session_start', { language: 'bash' })).session_id;
  });
  after(async () => { await s?.close(); });

  test('a daemon that flocks a workspace file after its run exits is gone: the next call takes the lock at once', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const tag = nonce();
    const r = await s.exec({ session_id: ws, language: 'bash', code:
      `( setsid bash -c 'exec -a hold-${tag} flock lockfile sleep 300' </dev/null >/dev/null 2>&1 & ) ; sleep 0.3; echo started` });
    assert.equal(r.stdout, 'started\n', brief(r));
    assert.ok(await waitFor(() => procsWithArgv([`hold-${tag}`, 'lockfile', 'sleep', '300']).length === 0, 3000), 'the lock holder outlived its run');
    const next = await s.exec({ session_id: ws, language: 'bash', timeout: 10, code: 'flock -n lockfile echo got-the-lock; echo rc=$?' });
    assert.equal(next.stdout, 'got-the-lock\nrc=0\n', brief(next));
  });

  test('/tmp and /dev/shm are the run\'s own: 100 MiB left there is not in the next call (no way around the workspace quota)', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const a = await s.exec({ session_id: ws, language: 'bash', code:
      'head -c 100M /dev/zero > /tmp/stash && head -c 32M /dev/zero > /dev/shm/stash && du -m /tmp/stash /dev/shm/stash | cut -f1' });
    assert.equal(a.stdout, '100\n32\n', brief(a));
    const b = await s.exec({ session_id: ws, language: 'bash', code: 'ls /tmp/stash /dev/shm/stash 2>&1 | wc -l; ls -A /dev/shm | wc -l' });
    assert.equal(b.verdict, 'OK', brief(b));
    assert.doesNotMatch(b.stdout, /stash/);
    const files = await s.call('session_files', { session_id: ws });
    assert.ok(!JSON.stringify(files).includes('stash'), JSON.stringify(files));
  });
});
