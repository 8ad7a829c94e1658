// Sixth hostile round (lane hostile6): the kernel's per-uid pools between
// concurrent runs, and kernel surface the first five rounds did not try
// (clone3 with odd flags, key storms, prctl and personality tricks, the
// run's own user namespace, O_TMPFILE + linkat out of the run).
//
// Before this round every program of a root server ran as uid 64999 in the
// host's user namespace, and the kernel counts inotify instances, POSIX
// message queue bytes, pending signals and locked shared memory per uid: a
// run holding 128 inotify instances made inotify_init fail (EMFILE) in every
// run beside it, and a run holding its 800 KiB of queues left the others
// none. Now the program's process makes a user namespace of its own whose
// owner is a uid no other live box has (workers/sandbox/userns.c): each run
// has a whole pool. Every attack runs only once containment is proven (we
// are root: never a bomb outside the sandbox).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, rmSync, readdirSync, readlinkSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  startSecServer, skipUnlessContained, skipUnlessIsolated, brief, SKIP_NO_BINARY, waitFor, RUN_UID, fixture,
  fields, flagDir, holdUntil,
} from './util.mjs';

const EMFILE = 24, EPERM = 1, ENOSYS = 38, EACCES = 13, EROFS = 30, EINVAL = 22;


/** inotify descriptors held by processes of uid, host-wide. */
function inotifyHeldBy(uid) {
  let n = 0;
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      if (!readFileSync(`/proc/${p}/status`, 'utf8').match(new RegExp(`^Uid:\\s+${uid}\\s`, 'm'))) continue;
      for (const fd of readdirSync(`/proc/${p}/fd`)) {
        try { if (readlinkSync(`/proc/${p}/fd/${fd}`) === 'anon_inode:inotify') n++; } catch { /* closed */ }
      }
    } catch { /* gone */ }
  }
  return n;
}

// Takes every inotify instance and every message queue it can, prints the
// counts and, with hold, keeps them until the release file exists.
const hoard = (release) => [
  'import ctypes, os, time',
  'libc = ctypes.CDLL(None, use_errno=True)',
  'rt = ctypes.CDLL("librt.so.1", use_errno=True)',
  'n = 0',
  'while n < 5000 and libc.inotify_init1(0) >= 0: n += 1',
  'ei = ctypes.get_errno()',
  'q = 0',
  'while q < 5000 and rt.mq_open(f"/h6q{q}".encode(), os.O_CREAT | os.O_RDWR, 0o600, None) >= 0: q += 1',
  'eq = ctypes.get_errno()',
  'print("inotify", n, ei)',
  'print("mqueue", q, eq, flush=True)',
  ...(release ? holdUntil(release) : []),
].join('\n');

describe('hostile round 6: per-uid kernel pools between concurrent runs', { skip: SKIP_NO_BINARY, timeout: 180000 }, () => {
  let s, flags;
  before(async () => {
    s = await startSecServer({ env: { CODECALC_MAX_EXEC_WORKERS: '4' } });
    // Outside the run's private /tmp, readable by uid 64999 through the
    // read-only host view: the test releases the holding run through it.
    flags = flagDir('codecalc-h6-');
  });
  after(async () => {
    rmSync(flags, { recursive: true, force: true });
    await s?.close();
  });

  test('regression: a run holding every inotify instance and message queue of uid 64999 left a concurrent run none (EMFILE at the first call); each run now has a whole pool', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const release = join(flags, 'release-pools');
    const before = inotifyHeldBy(RUN_UID);
    const holder = s.exec({ language: 'python3', code: hoard(release), timeout: 90 });
    // The holder has its pool once it holds 64 instances more than before.
    assert.ok(await waitFor(() => inotifyHeldBy(RUN_UID) >= before + 64, 60000, 100),
      'the holding run never took its inotify instances');
    let beside;
    try {
      beside = await s.exec({ language: 'python3', code: hoard(null) });
    } finally {
      writeFileSync(release, '');
    }
    const held = await holder;
    const h = fields(held), b = fields(beside);
    assert.deepEqual(h.released, ['1'], `the holder ended before the run beside it: ${brief(held)}`);
    // The holder met its limit (EMFILE), and so did the run beside it --
    // at the same count, not at 0.
    assert.equal(Number(h.inotify[1]), EMFILE, brief(held));
    assert.equal(Number(b.inotify[1]), EMFILE, brief(beside));
    assert.ok(Number(h.inotify[0]) >= 64, brief(held));
    assert.equal(b.inotify[0], h.inotify[0], `inotify: the run beside found ${b.inotify[0]}, the holder had ${h.inotify[0]}`);
    assert.equal(Number(b.mqueue[1]), EMFILE, brief(beside));
    assert.ok(Number(h.mqueue[0]) > 0, brief(held));
    assert.equal(b.mqueue[0], h.mqueue[0], `mqueue: the run beside found ${b.mqueue[0]}, the holder had ${h.mqueue[0]}`);
  });

  test('the program\'s user namespace: uid and gid 64999 mapped to themselves and nothing else, no capability, its limits and maps not writable, no nested namespace', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const r = await s.exec({ language: 'python3', code: [
      'import os, ctypes',
      'libc = ctypes.CDLL(None, use_errno=True)',
      'print("uid_map", open("/proc/self/uid_map").read().split())',
      'print("gid_map", open("/proc/self/gid_map").read().split())',
      'st = open("/proc/self/status").read()',
      'print("caps", *[l.split()[1] for l in st.splitlines() if l.split()[0] in ("CapInh:", "CapPrm:", "CapEff:", "CapBnd:", "CapAmb:")])',
      'def w(p, v):',
      '    try:',
      '        with open(p, "w") as f: f.write(v)',
      '        return 0',
      '    except OSError as e: return e.errno',
      'print("write_uid_map", w("/proc/self/uid_map", "0 0 1\\n"))',
      'print("write_setgroups", w("/proc/self/setgroups", "allow\\n"))',
      'print("write_max_inotify", w("/proc/sys/user/max_inotify_instances", "100000\\n"))',
      'print("write_host_max_inotify", w("/proc/sys/fs/inotify/max_user_instances", "100000\\n"))',
      'print("unshare_user", libc.unshare(0x10000000), ctypes.get_errno())',
      'print("setuid0", libc.setuid(0), ctypes.get_errno())',
      'print("ids", os.getuid(), os.geteuid(), os.getgid(), os.getegid(), len(os.getgroups()))',
    ].join('\n') });
    const g = fields(r);
    assert.equal(r.verdict, 'OK', brief(r));
    assert.equal(g.uid_map.join(' '), "['64999', '64999', '1']", r.stdout);
    assert.equal(g.gid_map.join(' '), "['64999', '64999', '1']", r.stdout);
    assert.deepEqual(g.caps, Array(5).fill('0000000000000000'), r.stdout);
    // A map is written once (EPERM); sysctls need a capability the program
    // lacks (EACCES: the file is root's of the namespace... or of the host).
    assert.ok([EPERM, EACCES].includes(Number(g.write_uid_map[0])), r.stdout);
    assert.ok([EPERM, EACCES].includes(Number(g.write_setgroups[0])), r.stdout);
    assert.ok([EPERM, EACCES, EROFS].includes(Number(g.write_max_inotify[0])), r.stdout);
    assert.ok([EPERM, EACCES, EROFS].includes(Number(g.write_host_max_inotify[0])), r.stdout);
    assert.deepEqual(g.unshare_user, ['-1', String(EPERM)], r.stdout);
    // uid 0 does not exist in the namespace (EINVAL; before: EPERM).
    assert.deepEqual(g.setuid0, ['-1', String(EINVAL)], r.stdout);
    assert.deepEqual(g.ids, ['64999', '64999', '64999', '64999', '0'], r.stdout);
  });
});

describe('hostile round 6: a non-root server\'s pools', { skip: SKIP_NO_BINARY || (process.getuid() === 0 && 'the server is root: each program has a user namespace of its own (the cases above)'), timeout: 120000 }, () => {
  let s;
  before(async () => { s = await startSecServer(); });
  after(async () => { await s?.close(); });

  test('regression: one run of a non-root server took all of its uid\'s inotify instances; it now gets a quarter, and per_uid_pools says the pools are the server uid\'s', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const uidMax = Number(readFileSync('/proc/sys/fs/inotify/max_user_instances', 'utf8'));
    const r = await s.exec({ language: 'python3', code: hoard(null) });
    const g = fields(r);
    assert.deepEqual(g.inotify, [String(Math.floor(uidMax / 4)), String(EMFILE)], brief(r));
    assert.equal(r.unenforced.filter((u) => u.startsWith('per_uid_pools: no user namespace owned by this run alone')).length, 1, brief(r));
  });
});

describe('hostile round 6: kernel surface', { skip: SKIP_NO_BINARY, timeout: 120000 }, () => {
  let s;
  before(async () => { s = await startSecServer(); });
  after(async () => { await s?.close(); });

  test('clone3 with odd flags, clone with namespace flags, a key storm, prctl and personality tricks, O_TMPFILE + linkat out of the run: refused exactly', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const r = await s.exec({ language: 'c', code: fixture('round6.c') });
    assert.equal(r.verdict, 'OK', brief(r));
    const got = {};
    for (const line of r.stdout.trim().split('\n')) {
      const [k, ...v] = line.split(' ');
      got[k] = v.map(Number);
    }
    const want = {
      clone3_newuser: [-1, ENOSYS],
      clone3_into_cgroup: [-1, ENOSYS],
      clone3_garbage_size: [-1, ENOSYS],
      clone_newuser: [-1, EPERM],
      clone_newns: [-1, EPERM],
      clone_newtime_vfork: [-1, EPERM],
      add_key_storm_refused: [1000, EPERM],
      keyctl_join_session: [-1, EPERM],
      request_key: [-1, EPERM],
      prctl_set_mm_exe: [-1, EPERM],
      prctl_securebits: [-1, EPERM],
      prctl_ambient_raise: [-1, EPERM],
      prctl_dumpable_back: [0, 0],         // its own process: harmless
      personality_linux32_still_x86_64: [1, 0],
      tmpfile_link_var_tmp: [-1, EROFS],
      tmpfile_link_etc: [-1, EROFS],
      tmpfile_link_workdir: [-1, 18],      // EXDEV: another mount than the private /tmp
      tmpfile_link_tmp: [0, 0],            // its own /tmp: gone with the run
      sysfs_write: [-1, EACCES],
      uid: [RUN_UID],
    };
    for (const [k, v] of Object.entries(want)) assert.deepEqual(got[k], v, `${k}: ${r.stdout}`);
  });
});
