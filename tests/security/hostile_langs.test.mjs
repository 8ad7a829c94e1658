// A second round of hostile programs, in the languages the other files did
// not attack with (perl, node, tcl, C++ at compile time): fork and memory
// bombs, interleaved and single-line output floods, sockets under no_net,
// writes outside the run, the server's environment, daemons that outlive
// their parent, signals and ptrace aimed at the supervisor, and a compile
// that never ends. Each must be contained and reported with its honest
// verdict; each checks the gate first and skips (with the reason) without
// it. A language whose runtime is missing here is skipped, named.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import {
  startSecServer, skipUnlessContained, skipUnlessIsolated, brief, nonce, procsWithArgv, waitFor, alive,
  SKIP_NO_BINARY, TRUNC_MARKER,
} from './util.mjs';

const EACCES = 13;
const DRAIN = 64 << 20; // SBX_DRAIN_DEFAULT: past it the sandbox kills for output

describe('hostile programs in more languages', { skip: SKIP_NO_BINARY, timeout: 180000 }, () => {
  let s;
  let langs;
  before(async () => { s = await startSecServer({ env: { CODECALC_MAX_PROCESSES: '32' } }); });
  after(async () => { await s?.close(); });

  /** Skip (true) unless the gate holds and every language is installed. */
  async function gate(t, kind, ...names) {
    if (await (kind === 'contained' ? skipUnlessContained : skipUnlessIsolated)(t, s)) return true;
    langs ??= JSON.parse((await s.client.callTool({ name: 'list_languages', arguments: {} })).content[0].text);
    const missing = names.filter((n) => !langs.some((l) => l.name === n && l.available));
    if (missing.length) { t.skip(`not installed here: ${missing.join(', ')}`); return true; }
    return false;
  }

  async function healthy(pid) {
    assert.equal(s.pid, pid, 'the server is the same process');
    assert.ok(alive(pid), 'the server is alive');
    const r = await s.exec({ language: 'bash', code: 'echo alive' });
    assert.equal(r.stdout, 'alive\n', brief(r));
  }

  test('perl fork bomb: TLE at the timeout, nothing of it left on the host', async (t) => {
    if (await gate(t, 'contained', 'perl')) return;
    const tag = nonce();
    const r = await s.exec({ language: 'perl', code: `$0 = "bomb-${tag}"; 1 while fork // 1;`, timeout: 3 });
    assert.equal(r.verdict, 'TLE', brief(r));
    assert.equal(r.timed_out, true);
    assert.deepEqual(r.unenforced, []);
    assert.ok(await waitFor(() => procsWithArgv([`bomb-${tag}`]).length === 0, 3000), 'bomb processes outlived the call');
    await healthy(s.pid);
  });

  test('perl: stdout and stderr flooded together, no newline: OLE, both counted to the drain ceiling', async (t) => {
    if (await gate(t, 'isolated', 'perl')) return;
    const r = await s.exec({
      language: 'perl',
      code: "$|=1; select STDERR; $|=1; select STDOUT; while (1) { print 'x' x 65536; print STDERR 'y' x 65536 }",
      timeout: 30,
    });
    assert.equal(r.verdict, 'OLE', brief(r));
    assert.equal(r.output_truncated, true);
    assert.equal(r.exit_code, null);
    assert.match(r.reason, /more than 64 MiB of output/);
    assert.ok(r.stdout.endsWith(TRUNC_MARKER) && r.stderr.endsWith(TRUNC_MARKER), brief(r));
    assert.ok(/^x+$/.test(r.stdout.slice(0, -TRUNC_MARKER.length)) && /^y+$/.test(r.stderr.slice(0, -TRUNC_MARKER.length)),
      'each stream holds only its own bytes');
    assert.ok(r.stdout_bytes + r.stderr_bytes >= DRAIN, `${r.stdout_bytes} + ${r.stderr_bytes}`);
    assert.ok(r.stdout_bytes > 0 && r.stderr_bytes > 0);
    await healthy(s.pid);
  });

  test('node: one 128 MiB line in a single write: OLE, killed for output', async (t) => {
    if (await gate(t, 'isolated', 'node')) return;
    const r = await s.exec({ language: 'node', code: "process.stdout.write('a'.repeat(1 << 27));", timeout: 30 });
    assert.equal(r.verdict, 'OLE', brief(r));
    assert.match(r.reason, /more than 64 MiB of output/);
    assert.ok(r.stdout_bytes >= DRAIN, brief(r));
    await healthy(s.pid);
  });

  for (const [lang, code] of [
    ['perl', "my @a; push @a, 'x' x 1000000 while 1;"],
    ['node', 'const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1));'],
  ]) {
    // Regression (non-root): perl's "Out of memory!" under RLIMIT_AS was RTE.
    test(`${lang} memory bomb under max_memory_mb 64: MLE`, async (t) => {
      if (await gate(t, 'isolated', lang)) return;
      const r = await s.exec({ language: lang, code, max_memory_mb: 64, timeout: 30 });
      assert.equal(r.verdict, 'MLE', brief(r));
      assert.equal(r.ok, false);
      assert.equal(r.timed_out, false);
      await healthy(s.pid);
    });
  }

  // Regression: the reason named python's MemoryError, a part of java's mark.
  test('java memory bomb under max_memory_mb 128: MLE, the reason names java\'s error', async (t) => {
    if (await gate(t, 'contained', 'java')) return; // the JVM may not start under RLIMIT_AS alone
    const r = await s.exec({
      language: 'java',
      code: 'public class Main { public static void main(String[] a) { java.util.List<byte[]> l = new java.util.ArrayList<>(); for (;;) l.add(new byte[1 << 20]); } }',
      max_memory_mb: 128, timeout: 60,
    });
    assert.equal(r.verdict, 'MLE', brief(r));
    if (r.reason.startsWith('an allocation failed')) assert.match(r.reason, /^an allocation failed \(java\.lang\.OutOfMemoryError\)/);
    else assert.match(r.reason, /memory ceiling of 128 MiB was exceeded/);
  });

  test('perl and node sockets under no_net: UDP, raw, IPv6 and vsock refused with EACCES', async (t) => {
    if (await gate(t, 'isolated', 'perl', 'node')) return;
    const p = await s.exec({
      language: 'perl',
      no_net: true,
      code: 'use Socket; for my $x ([udp => PF_INET, SOCK_DGRAM, 0], [raw => PF_INET, SOCK_RAW, 1], ' +
        '[udp6 => PF_INET6, SOCK_DGRAM, 0], [vsock => 40, SOCK_STREAM, 0]) { my ($n, @a) = @$x; ' +
        'print "$n ", (socket(my $s, $a[0], $a[1], $a[2]) ? "open" : $!+0), "\\n" }',
    });
    assert.equal(p.verdict, 'OK', brief(p));
    assert.equal(p.stdout, `udp ${EACCES}\nraw ${EACCES}\nudp6 ${EACCES}\nvsock ${EACCES}\n`);
    const n = await s.exec({
      language: 'node',
      no_net: true,
      code: "require('net').connect({ host: '::1', port: 9 }).on('error', (e) => console.log(e.code)).on('connect', () => console.log('connected'));",
    });
    assert.equal(n.stdout, 'EACCES\n', brief(n));
  });

  test('tcl writes outside the run: the host view refuses them, /dev/shm is the run\'s own', async (t) => {
    if (await gate(t, 'isolated', 'tcl')) return;
    const name = `codecalc-hostile-${nonce()}`;
    const paths = ['/etc', '/usr', '/var/tmp', '/run', '/home', '/root', '/sys', '/dev/shm'].map((d) => `${d}/${name}`);
    const r = await s.exec({
      language: 'tcl',
      code: `foreach p {${paths.join(' ')} /proc/sys/kernel/hostname} { if {[catch {set f [open $p w]; puts $f hi; close $f}]} {puts "$p refused"} else {puts "$p wrote"} }`,
    });
    assert.equal(r.verdict, 'OK', brief(r));
    const wrote = r.stdout.split('\n').filter((l) => l.endsWith(' wrote')).map((l) => l.split(' ')[0]);
    assert.deepEqual(wrote, [`/dev/shm/${name}`], r.stdout);
    for (const p of paths) assert.equal(existsSync(p), false, `${p} exists on the host`);
  });

  test("perl reads /proc/1/environ and its own: nothing of the server's environment", async (t) => {
    if (await gate(t, 'isolated', 'perl')) return;
    const r = await s.exec({
      language: 'perl',
      code: "for my $p ('/proc/1/environ', '/proc/self/environ') { if (open(my $f, '<', $p)) { local $/; print <$f> } " +
        "else { print \"$p: \", $!+0, \"\\n\" } } print join(' ', %ENV);",
    });
    assert.equal(r.verdict, 'OK', brief(r));
    assert.match(r.stdout, new RegExp(`^/proc/1/environ: ${EACCES}\\n`));
    assert.ok(!r.stdout.includes(s.canary) && !r.stdout.includes('CODECALC_'), r.stdout);
  });

  test('daemons that outlive their parent (node detached spawn, perl setsid + double fork) are gone at the answer', async (t) => {
    if (await gate(t, 'isolated', 'node', 'perl')) return;
    const a = `${1000 + Math.floor(Math.random() * 1e6)}.${process.pid}`, b = nonce();
    const n = await s.exec({
      language: 'node',
      code: `const c = require('child_process').spawn('sleep', ['${a}'], { detached: true, stdio: 'inherit' }); c.unref(); console.log('parent done');`,
      timeout: 20,
    });
    const p = await s.exec({
      language: 'perl',
      code: `use POSIX; if (fork() == 0) { POSIX::setsid(); if (fork() == 0) { $0 = "daemon-${b}"; sleep 1000; exit 0 } exit 0 } print "parent done\\n";`,
      timeout: 20,
    });
    for (const r of [n, p]) {
      assert.equal(r.verdict, 'OK', brief(r));
      assert.equal(r.timed_out, false, 'the call waited for the daemon');
      assert.equal(r.stdout, 'parent done\n');
    }
    assert.deepEqual(procsWithArgv([`daemon-${b}`]), []);
    assert.deepEqual(procsWithArgv(['sleep', a]), []);
  });

  test('perl signals and ptrace aimed at the supervisor: refused, the server lives', async (t) => {
    if (await gate(t, 'isolated', 'perl')) return;
    const pid = s.pid;
    const r = await s.exec({
      language: 'perl',
      code: `print "kill1 ", (kill('KILL', 1) ? 'sent' : $!+0), "\\n"; print "killsrv ", (kill('KILL', ${pid}) ? 'sent' : $!+0), "\\n"; ` +
        "kill('KILL', -1); require 'syscall.ph'; print 'traceme ', (syscall(101, 0, 0, 0, 0) < 0 ? $!+0 : 'ok'), \"\\n\"; " +
        "print 'attach1 ', (syscall(101, 16, 1, 0, 0) < 0 ? $!+0 : 'ok'), \"\\n\";",
    });
    assert.equal(r.verdict, 'OK', brief(r));
    // init is outside the program's reach (EPERM as root; a non-root
    // server's init shares the uid, and the kernel drops the SIGKILL a
    // namespace's init gets from inside: the run goes on either way); the
    // server's pid does not exist in the run's namespace (ESRCH); ptrace
    // is refused (EPERM).
    assert.match(r.stdout, /^kill1 (1|sent)\nkillsrv 3\ntraceme 1\nattach1 1\n$/);
    await healthy(pid);
  });

  // Whichever ceiling the compiler meets first is the verdict: the clock
  // (TLE), or the compile budget (MLE: an address-space limit on a
  // non-root server makes cc1 fail at once, a cgroup kills it later).
  test('a compile that never ends (C including /dev/zero): TLE or MLE in phase compile, each saying which ceiling', async (t) => {
    if (await gate(t, 'isolated', 'c')) return;
    const r = await s.exec({ language: 'c', code: `#include "/dev/zero"\nint main(void) { return 0; } // ${nonce()}\n`, timeout: 2 });
    assert.equal(r.phase, 'compile', brief(r));
    assert.equal(r.ok, false);
    if (r.verdict === 'TLE') {
      assert.equal(r.timed_out, true);
      assert.match(r.reason, /wall-clock timeout of 2000 ms/);
    } else {
      assert.equal(r.verdict, 'MLE', brief(r));
      assert.equal(r.timed_out, false);
      assert.match(r.reason, /compile step's (memory )?budget/);
    }
    await healthy(s.pid);
  });
});
