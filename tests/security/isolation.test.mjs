// Filesystem, environment, signal and tracing isolation of a run
// (DESIGN.md "Sandbox" steps 2-6): the host tree is read-only, /tmp is
// private, the server's state directory and the other runs are hidden, the
// server's secrets never reach the program, and the program can neither
// signal nor trace the server.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync, readdirSync, rmSync, mkdirSync, chmodSync } from 'node:fs';
import { join, basename } from 'node:path';
import { sandboxCaps } from '../mcp/harness.mjs';
import {
  startSecServer, skipUnlessIsolated, brief, fixture, nonce, openDir, alive, execWorkers,
  runProcsOf, waitFor, SKIP_NO_BINARY,
} from './util.mjs';

describe('isolation', { skip: SKIP_NO_BINARY, timeout: 120000 }, () => {
  let s, home, marker, decoy;
  before(async () => {
    // State dir and run parent outside /tmp and world-readable: only the
    // sandbox's masks can hide them, not the private /tmp or permissions.
    home = openDir('/var/tmp', 'codecalc-sec-home-');
    marker = join(home, 'marker.txt');
    writeFileSync(marker, 'state-dir-secret\n', { mode: 0o644 });
    s = await startSecServer({ env: { CODECALC_HOME: home, HOME: home }, tmpBase: '/var/tmp' });
    decoy = join(s.tmp, 'codecalc-decoy-run');
    mkdirSync(decoy);
    chmodSync(decoy, 0o755);
    writeFileSync(join(decoy, 'other-run.txt'), 'another run\n', { mode: 0o644 });
  });
  after(async () => {
    await s?.close();
    if (home) rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  test('writes to /etc, /var/tmp and / are refused (read-only host view)', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const n = nonce();
    const targets = [`/etc/codecalc-sec-${n}`, `/var/tmp/codecalc-sec-${n}`, `/codecalc-sec-${n}`, `/usr/bin/codecalc-sec-${n}`];
    const r = await s.exec({
      language: 'python3',
      code: [
        'import sys',
        `for p in ${JSON.stringify(targets)}:`,
        '    try:',
        "        open(p, 'w').write('x')",
        "        print(p, 'written')",
        '    except OSError as e:',
        '        print(p, e.errno)',
      ].join('\n'),
    });
    assert.equal(r.verdict, 'OK', brief(r));
    for (const p of targets) {
      assert.match(r.stdout, new RegExp(`^${p} (30|13)$`, 'm'), `${p}: ${r.stdout}`);
      assert.equal(existsSync(p), false, `${p} appeared on the host`);
    }
  });

  test("a write to /tmp lands in the run's private /tmp, invisible to the host", async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const p = `/tmp/codecalc-sec-${nonce()}`;
    const r = await s.exec({ language: 'bash', code: `echo hi > ${p} && cat ${p} && ls /tmp | grep -c codecalc-sec-tmp- ; true` });
    assert.equal(r.verdict, 'OK', brief(r));
    assert.equal(r.stdout, 'hi\n0\n', 'writable private /tmp that shows none of the host /tmp');
    assert.equal(existsSync(p), false, `${p} leaked to the host /tmp`);
  });

  test("the server's state directory is hidden and unwritable", async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({
      language: 'python3',
      code: [
        'import os',
        `h = ${JSON.stringify(home)}`,
        "print(sorted(os.listdir(h)) if os.path.isdir(h) else 'absent')",
        'try:',
        `    print(open(${JSON.stringify(marker)}).read())`,
        'except OSError as e:',
        "    print('read', e.errno)",
        'try:',
        "    open(os.path.join(h, 'planted'), 'w').write('x')",
        "    print('planted')",
        'except OSError as e:',
        "    print('write', e.errno)",
      ].join('\n'),
    });
    assert.equal(r.verdict, 'OK', brief(r));
    const lines = r.stdout.trim().split('\n');
    assert.ok(lines[0] === '[]' || lines[0] === 'absent', `state dir listing: ${lines[0]}`);
    assert.equal(lines[1], 'read 2', 'marker must not be readable (ENOENT)');
    // The mask is an empty tmpfs of the run's own: root's program (uid 64999)
    // cannot write it; a non-root server's program owns it and can, and the
    // write stays in that tmpfs (the host's directory is checked below).
    assert.match(lines[2], process.getuid() === 0 ? /^write (13|30)$/ : /^(write (13|30)|planted)$/);
    assert.ok(!r.stdout.includes('state-dir-secret'));
    assert.deepEqual(readdirSync(home).filter((n) => n === 'planted'), []);
  });

  test('other runs (the directory holding the run dirs) are hidden', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({
      language: 'python3',
      code: "import os\nprint(os.listdir(os.path.dirname(os.getcwd())))\nprint(os.path.exists(" + JSON.stringify(join(decoy, 'other-run.txt')) + '))',
    });
    assert.equal(r.verdict, 'OK', brief(r));
    assert.equal(r.stdout, `${JSON.stringify([basename(r.workdir)]).replaceAll('"', "'")}\nFalse\n`);
  });

  test('the canary never appears in env, os.environ or any /proc/*/environ', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({
      language: 'python3',
      code: [
        'import os, subprocess',
        "print(subprocess.run(['env'], capture_output=True, text=True).stdout)",
        'print(dict(os.environ))',
        "for p in sorted(os.listdir('/proc')):",
        '    if p.isdigit() or p in ("self", "thread-self"):',
        '        try:',
        "            print(p, open('/proc/%s/environ' % p, 'rb').read().replace(b'\\0', b' '))",
        '        except OSError as e:',
        "            print(p, 'denied', e.errno)",
      ].join('\n'),
    });
    assert.equal(r.verdict, 'OK', brief(r));
    assert.match(r.stdout, /PYTHONUNBUFFERED=1/, 'env output is there');
    assert.match(r.stdout, /^1 denied 13$/m, "init's environ (a copy of the worker's) is not readable");
    assert.ok(!r.stdout.includes(s.canary), 'the canary leaked into the run');
    assert.ok(!r.stdout.includes('CODECALC_'), 'a CODECALC_ variable leaked into the run');
  });

  test('kill(-1) and kill(server pid) cannot touch the server', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const workersBefore = execWorkers(s.pid);
    const r = await s.exec({
      language: 'python3',
      code: [
        'import os, signal, subprocess, sys',
        'server = int(sys.stdin.read())',
        "child = subprocess.Popen(['sleep', '30'])",
        'for target in (-1, server):',
        '    try:',
        '        os.kill(target, signal.SIGKILL)',
        "        print(target, 'sent')",
        '    except OSError as e:',
        '        print(target, e.errno)',
        "print('child', child.wait())",
      ].join('\n'),
      stdin: String(s.pid),
    });
    assert.equal(r.verdict, 'OK', brief(r));
    // kill(-1) reaches only the run's own processes (the sleep child);
    // the server's pid does not exist in the run's pid namespace.
    assert.equal(r.stdout, `-1 sent\n${s.pid} 3\nchild -9\n`);
    assert.ok(alive(s.pid), 'server died');
    for (const w of workersBefore) assert.ok(alive(w), `exec worker ${w} died`);
    const again = await s.exec({ language: 'bash', code: 'echo served' });
    assert.equal(again.stdout, 'served\n');
  });

  test('ptrace of the server, of init and TRACEME are refused; mount/unshare/bpf too', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const r = await s.exec({ language: 'c', code: fixture('escape.c'), stdin: String(s.pid) });
    assert.equal(r.verdict, 'OK', brief(r));
    const got = Object.fromEntries(r.stdout.trim().split('\n').map((l) => {
      const [k, res, errno] = l.split(' ');
      return [k, `${res} ${errno}`];
    }));
    assert.deepEqual(got, {
      ptrace_attach_server: '-1 1',
      ptrace_attach_init: '-1 1',
      ptrace_traceme: '-1 1',
      kill_server: '-1 3',
      // Root's program (uid 64999) may not signal init (root). A non-root
      // server's shares init's uid: Landlock's signal scope (ABI >= 6)
      // refuses it, as init is outside the program's domain; without the
      // scope the kernel drops the SIGKILL a pid namespace's init gets from
      // inside it (the run still ended OK above).
      kill_init: process.getuid() === 0 || sandboxCaps().landlock_abi >= 6 ? '-1 1' : '0 0',
      unshare_user: '-1 1',
      unshare_net: '-1 1',
      mount_tmpfs: '-1 1',
      chroot: '-1 1',
      bpf: '-1 1',
      io_uring_setup: '-1 38',
      clone3: '-1 38',
    });
    assert.ok(alive(s.pid));
    assert.ok(await waitFor(() => runProcsOf(s.pid).length === 0, 3000));
  });
});
