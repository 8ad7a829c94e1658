// The Debian package: built from this build by scripts/make-deb, unpacked
// with dpkg-deb -x, and run from the unpacked tree (doctor, a call).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { BIN, REPO, SKIP_NO_BINARY } from '../mcp/harness.mjs';
import { freshDir, removeDir } from './cli_util.mjs';

const have = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const SKIP = SKIP_NO_BINARY || (['dpkg-deb', 'dpkg-shlibdeps', 'fakeroot'].every(have) ? false
  : 'dpkg-deb, dpkg-shlibdeps or fakeroot missing (scripts/install-deps installs them)');

function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 120000, maxBuffer: 32 << 20, ...opts });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

describe('make deb', { skip: SKIP }, () => {
  let dir, deb, root, home;
  before(() => {
    dir = freshDir('codecalc-deb-');
    const build = dirname(dirname(realpathSync(BIN)));
    deb = sh(join(REPO, 'scripts', 'make-deb'), [build, dir]).trim();
    root = join(dir, 'root');
    home = join(dir, 'home');
    sh('dpkg-deb', ['-x', deb, root]);
  });
  after(() => removeDir(dir));

  test('the control file names the package and its runtime dependencies', () => {
    const info = sh('dpkg-deb', ['-f', deb, 'Package', 'Version', 'Depends']);
    assert.match(info, /^Package: codecalc$/m);
    const version = sh(BIN, ['--version']).trim().split(' ')[1];
    assert.match(info, new RegExp(`^Version: ${version.replace(/\./g, '\\.')}$`, 'm'));
    for (const dep of ['libc6', 'libevent-2.1-7', 'libjansson4', 'libmsgpackc2', 'libseccomp2', 'libgmp10',
      'libmpfr6', 'libsqlite3-0', 'libgiac0', 'libz3-4', 'python3'])
      assert.match(info, new RegExp(`[ ,]${dep.replace(/[.+]/g, '\\$&')}( \\(|,|$)`, 'm'), `depends on ${dep}`);
    const ctrl = join(dir, 'control');
    sh('dpkg-deb', ['-e', deb, ctrl]);
    assert.equal(readFileSync(join(ctrl, 'conffiles'), 'utf8'), '/etc/default/codecalc\n');
    assert.match(readFileSync(join(ctrl, 'postinst'), 'utf8'), /useradd --system [^]*--comment "codecalc MCP server" codecalc/);
  });

  test('the layout: binaries in /usr/lib/codecalc, codecalc on PATH, docs, man page, unit', () => {
    for (const b of ['codecalc', 'codecalc-calc', 'codecalc-symbolic', 'codecalc-exec', 'codecalc-repl', 'codecalc-analysis', 'python_host.py', 'node_host.js'])
      assert.ok(existsSync(join(root, 'usr/lib/codecalc', b)), b);
    assert.equal(readlinkSync(join(root, 'usr/bin/codecalc')), '../lib/codecalc/codecalc');
    for (const d of ['SKILL.md', 'README.md', 'configuration.md', 'security.md', 'copyright'])
      assert.ok(existsSync(join(root, 'usr/share/doc/codecalc', d)), d);
    const man = sh('gzip', ['-dc', join(root, 'usr/share/man/man1/codecalc.1.gz')]);
    assert.match(man, /^\.TH CODECALC 1/m);
    assert.match(man, /doctor/);
    const unit = readFileSync(join(root, 'lib/systemd/system/codecalc-http.service'), 'utf8');
    for (const line of ['User=codecalc', 'StateDirectory=codecalc', 'Environment=CODECALC_HOME=/var/lib/codecalc',
      'NoNewPrivileges=yes', 'ProtectSystem=strict', 'ProtectHome=yes', 'PrivateTmp=yes', 'CapabilityBoundingSet='])
      assert.ok(unit.split('\n').includes(line), `unit has ${line}`);
    assert.match(unit, /^ExecStart=\/usr\/bin\/codecalc serve-http /m);
    assert.ok(existsSync(join(root, 'etc/default/codecalc')));
  });

  test('codecalc doctor --json from the unpacked package: healthy, its own workers and skill file', () => {
    const r = spawnSync(join(root, 'usr/bin/codecalc'), ['doctor', '--json'], {
      env: { PATH: process.env.PATH, HOME: home, CODECALC_HOME: home }, encoding: 'utf8', timeout: 120000,
    });
    assert.equal(r.status, 0, r.stderr);
    const d = JSON.parse(r.stdout);
    assert.equal(d.healthy, true);
    assert.equal(d.bindir, join(root, 'usr/lib/codecalc'));
    assert.equal(d.backend.binary, join(root, 'usr/lib/codecalc/codecalc-exec'));
    for (const w of ['calc', 'symbolic', 'exec', 'analysis']) assert.equal(d.workers[w].started, true, w);
    // Every REPL language's host program shipped, found by the unpacked binaries.
    const hosts = Object.entries(d.workers.repl.hosts);
    assert.ok(hosts.length >= 2, JSON.stringify(d.workers.repl));
    for (const [lang, h] of hosts) assert.equal(h.path, join(root, 'usr/lib/codecalc', h.program), lang);
    assert.equal(d.workers.repl.hosts.python3.program, 'python_host.py');
    assert.equal(d.skill_file, join(root, 'usr/share/doc/codecalc/SKILL.md'));
    // The grammars compiled into the shipped analysis worker: the build's.
    const built = JSON.parse(sh(join(dirname(realpathSync(BIN)), 'codecalc-analysis'), ['--grammars']));
    assert.equal(d.grammar_cache.path, join(root, 'usr/lib/codecalc/codecalc-analysis'));
    assert.deepEqual(d.grammar_cache.names, built.grammars.filter((g) => g.loads).map((g) => g.name));
  });

  test('the unpacked server answers a call', () => {
    const out = sh(join(root, 'usr/bin/codecalc'), ['call', 'calc_exact', '{"expr":"1/3+1/6"}'], {
      env: { PATH: process.env.PATH, HOME: home, CODECALC_HOME: home },
    });
    assert.equal(JSON.parse(out).value, '1/2');
  });
});
