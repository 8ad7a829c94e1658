// no_net (TOOLS.md 1.5): with no_net a program cannot open an IPv4/IPv6
// socket, whether it goes through python's socket module, raw syscalls from
// C, a static binary that no LD_PRELOAD shim could touch, or a foreign
// syscall ABI. A listener on 127.0.0.1 in this test process counts the
// connections it accepts: it must see none. The no_net:false control proves
// the listener and the probe can see a real connection.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { assertHostDisclosures, sandboxCaps } from '../mcp/harness.mjs';
import {
  startSecServer, skipUnlessIsolated, brief, fixture, SKIP_NO_BINARY, alive, nonce,
} from './util.mjs';

const EACCES = 13;

describe('no_net', { skip: SKIP_NO_BINARY, timeout: 120000 }, () => {
  let s, listener, port;
  let accepted = 0;
  before(async () => {
    listener = net.createServer((c) => { accepted++; c.destroy(); });
    await new Promise((r) => listener.listen(0, '127.0.0.1', r));
    port = listener.address().port;
    s = await startSecServer();
  });
  after(async () => {
    await s?.close();
    await new Promise((r) => (listener ? listener.close(r) : r()));
  });

  const pyConnect = () => [
    'import socket',
    'try:',
    `    socket.create_connection(('127.0.0.1', ${port}), timeout=3)`,
    "    print('connected')",
    'except OSError as e:',
    "    print('refused', e.errno)",
  ].join('\n');

  /** Lines "name result errno" of net_probe.c into {name: [result, errno]}. */
  function parseProbe(stdout) {
    const out = {};
    for (const line of stdout.trim().split('\n')) {
      const [name, ...v] = line.split(' ');
      out[name] = v.map(Number);
    }
    return out;
  }

  test('python: socket.create_connection is refused with EACCES, listener sees nothing', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const before = accepted;
    const r = await s.exec({ language: 'python3', code: pyConnect(), no_net: true });
    assert.equal(r.verdict, 'OK', brief(r));
    assert.equal(r.stdout, `refused ${EACCES}\n`);
    assertHostDisclosures(r.unenforced); // seccomp no_net leaves no disclosure of its own
    assert.equal(accepted, before);
  });

  test('C via raw syscall(SYS_socket): every family but AF_UNIX and AF_NETLINK refused', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const before = accepted;
    const r = await s.exec({ language: 'c', code: fixture('net_probe.c'), stdin: `${port}\n`, no_net: true });
    assert.equal(r.verdict, 'OK', brief(r));
    const p = parseProbe(r.stdout);
    assert.deepEqual(p.socket_inet, [-1, EACCES]);
    assert.deepEqual(p.socket_inet6, [-1, EACCES]);
    assert.deepEqual(p.socket_inet_highbits, [-1, EACCES], 'upper register bits must not bypass the family check');
    assert.deepEqual(p.socket_unix, [0, 0]);
    // Regression: only AF_INET/AF_INET6 were refused; AF_VSOCK opened.
    for (const fam of ['socket_vsock', 'socket_smc', 'socket_packet', 'socket_vsock_highbits', 'socketpair_tipc'])
      assert.deepEqual(p[fam], [-1, EACCES], `${fam} under no_net`);
    assert.deepEqual(p.socket_netlink, [0, 0]);
    assert.deepEqual(p.socketpair_unix, [0, 0]);
    assert.equal(p.connect, undefined, 'no socket, so no connect attempt');
    assert.deepEqual(p.static, [0]);
    assert.equal(accepted, before);
  });

  test('static binary (gcc -static inside the run): refused the same way', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const before = accepted;
    const src = fixture('net_probe.c');
    const r = await s.exec({
      language: 'bash',
      code: `cat > probe.c <<'CODECALC_EOF'\n${src}\nCODECALC_EOF\ngcc -static -O1 -o probe probe.c || exit 9\n./probe`,
      stdin: `${port}\n`, no_net: true, timeout: 60,
    });
    if (r.exit_code === 9) return t.skip(`no static libc to link against: ${r.stderr.slice(0, 300)}`);
    assert.equal(r.verdict, 'OK', brief(r));
    const p = parseProbe(r.stdout);
    assert.deepEqual(p.static, [1], 'the probe must really be static');
    assert.deepEqual(p.socket_inet, [-1, EACCES]);
    assert.deepEqual(p.socket_inet6, [-1, EACCES]);
    assert.deepEqual(p.socket_inet_highbits, [-1, EACCES]);
    assert.equal(accepted, before);
  });

  test('foreign ABIs (int $0x80 socketcall, x32 range) kill the process', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const before = accepted;
    for (const mode of [0, 1]) {
      const r = await s.exec({ language: 'c', code: fixture('foreign_abi.c', { MODE: mode }), no_net: true });
      assert.equal(r.phase, 'run', brief(r));
      assert.equal(r.stdout, 'before\n', `mode ${mode}: ${brief(r)}`);
      assert.equal(r.verdict, 'RTE');
      assert.equal(r.exit_code, null, `mode ${mode}: killed by a signal`);
    }
    assert.equal(accepted, before);
  });

  test('control: without no_net the same python connect reaches the listener', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const before = accepted;
    const r = await s.exec({ language: 'python3', code: pyConnect(), no_net: false });
    assert.equal(r.stdout, 'connected\n', brief(r));
    // The accept callback may run a moment after the run ends.
    for (let i = 0; i < 50 && accepted === before; i++) await new Promise((res) => setTimeout(res, 20));
    assert.equal(accepted, before + 1);
    assert.ok(alive(s.pid));
  });
});

// Abstract unix socket names belong to a network namespace, not to the
// filesystem: neither the read-only host view nor file permissions guard
// them. A run with no_net gets a network namespace of its own where the
// host allows one; every other run shares the host's, where an X server or
// a container runtime's shim may listen on one. Landlock's abstract-unix
// scope (ABI 6, Linux 6.12) keeps every run to its own. The listener here
// is in this test process, in the host's namespace.
describe('abstract unix sockets of the host', { skip: SKIP_NO_BINARY, timeout: 120000 }, () => {
  const EPERM = 1;
  const ECONNREFUSED = 111;
  const name = `codecalc-test-abstract-${nonce()}`;
  let s, listener;
  let accepted = 0;
  before(async () => {
    listener = net.createServer((c) => { accepted++; c.destroy(); });
    await new Promise((r) => listener.listen(`\0${name}`, r));
    s = await startSecServer();
  });
  after(async () => {
    await s?.close();
    await new Promise((r) => (listener ? listener.close(r) : r()));
  });

  const pyConnect = (target) => [
    'import socket',
    's = socket.socket(socket.AF_UNIX)',
    'try:',
    // node binds an abstract name NUL-padded to the whole sun_path (108 bytes).
    `    s.connect('\\0${target}'.ljust(108, '\\0'))`,
    "    print('connected')",
    'except OSError as e:',
    "    print('refused', e.errno)",
  ].join('\n');

  /** Wait a moment for an accept callback that may run after the run ends. */
  async function settle(before) {
    for (let i = 0; i < 25 && accepted === before; i++) await new Promise((res) => setTimeout(res, 20));
  }

  test('control: this process can connect to its own abstract listener', async () => {
    const before = accepted;
    await new Promise((res, rej) => {
      const c = net.connect(`\0${name}`, () => { c.destroy(); res(); });
      c.on('error', rej);
    });
    await settle(before);
    assert.equal(accepted, before + 1);
  });

  test('regression: a run without no_net connected to an abstract unix socket of the host', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    if (sandboxCaps().landlock_abi < 6)
      return t.skip(`Landlock ABI ${sandboxCaps().landlock_abi} has no abstract-unix scope (needs 6, Linux 6.12): the gap is disclosed in docs/security.md`);
    const before = accepted;
    const r = await s.exec({ language: 'python3', code: pyConnect(name), no_net: false });
    assert.equal(r.verdict, 'OK', brief(r));
    assert.equal(r.stdout, `refused ${EPERM}\n`, brief(r));
    await settle(before);
    assert.equal(accepted, before, 'the host listener accepted a connection from the run');
  });

  test('no_net: the host abstract socket is out of reach, and nothing is disclosed where it is', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const before = accepted;
    const r = await s.exec({ language: 'python3', code: pyConnect(name), no_net: true });
    assert.equal(r.verdict, 'OK', brief(r));
    // Its own network namespace has no such name (ECONNREFUSED); without
    // one, Landlock's scope refuses it (EPERM).
    const want = sandboxCaps().netns && (sandboxCaps().root || sandboxCaps().userns) ? ECONNREFUSED : EPERM;
    assert.equal(r.stdout, `refused ${want}\n`, brief(r));
    assertHostDisclosures(r.unenforced);
    await settle(before);
    assert.equal(accepted, before);
  });

  test('a run still reaches abstract sockets of its own processes (the scope is the run, not the socket family)', async (t) => {
    if (await skipUnlessIsolated(t, s)) return;
    const own = `codecalc-run-own-${nonce()}`;
    const code = [
      'import os, socket',
      'srv = socket.socket(socket.AF_UNIX)',
      `srv.bind('\\0${own}')`,
      'srv.listen(1)',
      'if os.fork() == 0:',
      '    c = socket.socket(socket.AF_UNIX)',
      `    c.connect('\\0${own}')`,
      "    c.sendall(b'hello')",
      '    os._exit(0)',
      'conn, _ = srv.accept()',
      'print(conn.recv(5).decode())',
      'os.wait()',
    ].join('\n');
    for (const no_net of [false, true]) {
      const r = await s.exec({ language: 'python3', code, no_net });
      assert.equal(r.stdout, 'hello\n', `no_net ${no_net}: ${brief(r)}`);
    }
  });
});
