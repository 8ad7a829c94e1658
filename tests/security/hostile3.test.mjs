// Third hostile round (lane ops3): what a run leaves in a session workspace
// for the server to read back, and kernel surface the earlier rounds did not
// try. The server reads a workspace as root, outside every sandbox: a
// symlink, hard link, FIFO or device node a program planted there must never
// make a file tool, a resource read, a listing or the artifacts list open
// something else (the server's own /proc/PID/environ holds the canary
// secret). Each attack runs only once containment is proven, and asserts the
// exact refusal.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertRejected } from '../mcp/harness.mjs';
import {
  startSecServer, skipUnlessContained, brief, fixture, SKIP_NO_BINARY, alive,
} from './util.mjs';

const EPERM = 1, ENOSYS = 38;

describe('hostile round 3: workspace plants read back by the server', { skip: SKIP_NO_BINARY, timeout: 180000 }, () => {
  let s, ws;
  before(async () => {
    s = await startSecServer();
    ws = (await s.call('session_start', { language: 'bash' })).session_id;
  });
  after(async () => { await s?.close(); });

  const wsDir = () => join(s.home, 'sessions', ws);

  /** Every text the server answered, to search for the canary. */
  const seen = [];
  async function call(name, args) {
    const r = await s.callRaw(name, args);
    seen.push(JSON.stringify(r));
    return r.structuredContent ?? r;
  }
  async function readResource(path) {
    try {
      const r = await s.client.readResource({ uri: `codecalc://session/${ws}/files/${path}` });
      seen.push(JSON.stringify(r));
      return { ok: r };
    } catch (e) {
      seen.push(String(e.message));
      return { code: e.code, message: e.message };
    }
  }

  test('plants: symlinks out (to /etc/shadow, to the server\'s /proc/PID/environ, to /), a hard link to /etc/shadow, a FIFO, a socket, a device node', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const code = [
      'set -u',
      'ln -s /etc/shadow shadow_link',
      `ln -s /proc/${s.pid}/environ server_environ`,
      'ln -s / root_link',
      'mkdir -p sub && ln -s ../../.. sub/up',
      'ln /etc/shadow shadow_hard 2>/dev/null; echo "hardlink $?"',
      'mkfifo fifo; echo "mkfifo $?"',
      "python3 -c \"import socket; s=socket.socket(socket.AF_UNIX); s.bind('sock')\"; echo \"socket $?\"",
      'mknod devnull c 1 3 2>/dev/null; echo "mknod $?"',
      'ls -la | wc -l >/dev/null',
    ].join('\n');
    const r = await call('execute_code', { session_id: ws, language: 'bash', code });
    assert.equal(r.verdict, 'OK', brief(r));
    // A hard link to a file on the read-only host view crosses mounts
    // (EXDEV), and mknod needs a capability uid 64999 does not have.
    assert.equal(r.stdout, 'hardlink 1\nmkfifo 0\nsocket 0\nmknod 1\n', brief(r));
    const planted = readdirSync(wsDir()).sort();
    for (const name of ['shadow_link', 'server_environ', 'root_link', 'fifo', 'sock', 'sub'])
      assert.ok(planted.includes(name), `${name} was not planted: ${planted}`);
    assert.ok(!planted.includes('shadow_hard') && !planted.includes('devnull'), `${planted}`);
    assert.ok(lstatSync(join(wsDir(), 'fifo')).isFIFO());
  });

  test('session_read_file refuses every plant, naming what it is', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    for (const p of ['shadow_link', 'server_environ', 'root_link'])
      assertRejected(await call('session_read_file', { session_id: ws, path: p }), 'permission_denied',
        new RegExp(`^${p} is a symlink; links are not followed in a workspace$`));
    for (const p of ['root_link/etc/shadow', 'sub/up/etc/passwd', `server_environ/x`])
      assertRejected(await call('session_read_file', { session_id: ws, path: p }), 'permission_denied', /escapes/);
    // Not regular files: refused without blocking on the FIFO's writer.
    for (const p of ['fifo', 'sock'])
      assertRejected(await call('session_read_file', { session_id: ws, path: p }), 'validation',
        new RegExp(`^${p} is not a regular file$`));
  });

  test('regression: a unix socket a run left in its workspace was reported as "no such file" (resources/read: -32002, not found)', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    // open(2) of a socket fails with ENXIO, which was mapped to a missing file.
    const r = await readResource('sock');
    assert.equal(r.code, -32602, r.message);
    assert.match(r.message, /sock is not a regular file/);
  });

  test('resources/read refuses every plant with -32602, never -32002 or content', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    for (const p of ['shadow_link', 'server_environ', 'root_link/etc/shadow', 'sub/up/etc/passwd', 'fifo', 'sock']) {
      const r = await readResource(p);
      assert.equal(r.ok, undefined, `${p} was read: ${JSON.stringify(r.ok)?.slice(0, 200)}`);
      assert.equal(r.code, -32602, `${p}: ${r.message}`);
    }
  });

  test('listings and artifacts name the plants without following them', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const files = (await call('session_files', { session_id: ws, recursive: true })).files ?? [];
    const paths = files.map((f) => f.path);
    assert.ok(!paths.some((p) => p.startsWith('root_link/') || p.startsWith('sub/up/')), `followed: ${paths}`);
    const arts = (await call('session_artifacts', { session_id: ws })).artifacts ?? [];
    // Only regular files are artifacts or resources: no plant is either.
    const plant = /^(shadow_link|server_environ|root_link|fifo|sock)$|^sub\/up/;
    assert.deepEqual(arts.filter((a) => plant.test(a.path)), [], JSON.stringify(arts));
    const list = await s.client.listResources();
    seen.push(JSON.stringify(list));
    const mine = list.resources.map((x) => x.name).filter((n) => plant.test(n));
    assert.deepEqual(mine, []);
  });

  test('the canary secret appeared in no answer, and the server still serves', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    assert.ok(seen.length > 10, 'the earlier cases did not run');
    for (const text of seen) assert.ok(!text.includes(s.canary), `canary leaked: ${text.slice(0, 300)}`);
    assert.ok(alive(s.pid));
    const r = await call('execute_code', { language: 'bash', code: 'echo ok' });
    assert.equal(r.stdout, 'ok\n');
  });

  test('inode flood: 5,000 empty files (0 bytes) in a workspace are counted, and the session refuses further runs until stopped', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const flood = (await call('session_start', { language: 'bash' })).session_id;
    const r = await call('execute_code', { session_id: flood, language: 'bash',
      code: 'mkdir f && cd f && for i in $(seq 1 5000); do : > "e$i"; done; ls | wc -l' });
    assert.equal(r.stdout, '5000\n', brief(r));
    // Bytes are 0, so only the count can catch it (TOOLS.md 4.6 post-check).
    assert.equal(r.artifact_count_exceeded, true, brief(r));
    assert.equal(r.artifact_count, 5000);
    assert.equal(r.max_artifact_count, 500);
    const next = await call('execute_code', { session_id: flood, language: 'bash', code: 'rm -rf f' });
    assertRejected(next, 'resource_exhausted', new RegExp(`^session '${flood}' has 5000 artifact file\\(s\\), over the 500-file cap`));
    const stop = await call('session_stop', { session_id: flood });
    assert.equal(stop.ok, true, JSON.stringify(stop));
  });

  test('odd names a run makes (newline, invalid UTF-8, 255 bytes, leading dash) list as valid JSON and read back', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const long = 'L'.repeat(255);
    const code = [
      "printf 'a' > \"$(printf 'new\\nline')\"",
      "printf 'b' > \"$(printf 'bad\\377utf8')\"",
      `printf 'c' > ${long}`,
      "printf 'd' > ./-dash",
      'echo done',
    ].join('\n');
    const r = await call('execute_code', { session_id: ws, language: 'bash', code });
    assert.equal(r.stdout, 'done\n', brief(r));
    const files = (await call('session_files', { session_id: ws })).files.map((f) => f.path);
    assert.ok(files.includes(long) && files.includes('-dash') && files.includes('new\nline'), JSON.stringify(files));
    assert.equal((await call('session_read_file', { session_id: ws, path: long })).content, 'c');
    assert.equal((await call('session_read_file', { session_id: ws, path: '-dash' })).content, 'd');
    assert.equal((await call('session_read_file', { session_id: ws, path: 'new\nline' })).content, 'a');
    const res = await readResource(long);
    assert.equal(res.ok?.contents?.[0]?.text, 'c', JSON.stringify(res));
    // The name that is not UTF-8 cannot be named in JSON at all; what
    // matters is that every listing above stayed valid JSON and the server
    // serves.
    assert.ok(alive(s.pid));
  });
});

describe('hostile round 3: kernel surface and process tricks', { skip: SKIP_NO_BINARY, timeout: 120000 }, () => {
  let s;
  before(async () => { s = await startSecServer(); });
  after(async () => { await s?.close(); });

  test('ptrace/process_vm/pidfd_getfd of a sibling, perf, userfaultfd, io_uring, keys, setns, fanotify, open_by_handle_at, mknod: refused exactly', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const r = await s.exec({ language: 'c', code: fixture('kernel_surface.c') });
    assert.equal(r.verdict, 'OK', brief(r));
    const got = {};
    for (const line of r.stdout.trim().split('\n')) {
      const [k, ...v] = line.split(' ');
      got[k] = v.map(Number);
    }
    const want = {
      ptrace_attach_sibling: [-1, EPERM],
      ptrace_seize_sibling: [-1, EPERM],
      process_vm_readv_sibling: [-1, EPERM],
      pidfd_open_sibling: [1, 0],          // a descriptor of its own child: harmless
      pidfd_getfd_sibling: [-1, EPERM],
      perf_event_open: [-1, EPERM],
      userfaultfd: [-1, EPERM],
      io_uring_setup: [-1, ENOSYS],
      add_key: [-1, EPERM],
      keyctl: [-1, EPERM],
      setns: [-1, EPERM],
      unshare_user: [-1, EPERM],
      fanotify_init: [-1, EPERM],
      open_by_handle_at: [-1, EPERM],
      mknod_char: [-1, EPERM],
      mknod_block: [-1, EPERM],
      prctl_no_new_privs_off: [-1, 22],    // EINVAL: no_new_privs cannot be cleared
      prctl_no_new_privs_now: [1, 0],
      seccomp_mode: [1, 0],                // 2: filter mode, still on after the tricks
      scm_rights_within_run: [0, 0],
      memfd_execveat: [0, 0],              // runs, as itself, under the same filter
      kill_init: [-1, EPERM],
      setpgid_init: [-1, 3],               // ESRCH: init is not its child
      uid: [64999],
    };
    for (const [k, v] of Object.entries(want)) assert.deepEqual(got[k], v, `${k}: ${r.stdout}`);
    // kcmp of its own child is allowed (same uid, and a pid namespace holds
    // nothing else to compare with): it only tells whether two of the run's
    // descriptors are the same file.
    assert.deepEqual(got.kcmp_sibling, [0, 0], r.stdout);
    // TIOCSTI has no terminal to inject into: stdin is a memfd, not a tty (ENOTTY).
    assert.deepEqual(got.ioctl_tiocsti, [-1, 25], r.stdout);
  });

  test('a daemon behind a PR_SET_CHILD_SUBREAPER parent and a personality flip is still gone when the call returns', async (t) => {
    if (await skipUnlessContained(t, s)) return;
    const tag = `hostile3-${process.pid}-${Date.now()}`;
    const code = [
      'import ctypes, os, time',
      'libc = ctypes.CDLL(None)',
      'libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER',
      'libc.personality(0x0400000)  # READ_IMPLIES_EXEC',
      'if os.fork() == 0:',
      '    os.setsid()',
      '    if os.fork() == 0:',
      `        os.execvp('sleep', ['sleep', '37.${process.pid % 1000}'])`,
      '    os._exit(0)',
      'time.sleep(0.2)',
      'print("parent exits")',
    ].join('\n');
    const r = await s.exec({ language: 'python3', code });
    assert.equal(r.stdout, 'parent exits\n', brief(r));
    const left = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
      try { return readFileSync(`/proc/${p}/cmdline`, 'utf8').startsWith(`sleep\u000037.${process.pid % 1000}`); } catch { return false; }
    });
    assert.deepEqual(left, [], `${tag}: the daemon outlived its run`);
  });
});
