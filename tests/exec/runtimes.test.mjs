// runtimes_status and update_runtimes (issue 16) against fake package
// managers: every manager command the server can reach (dpkg-query,
// apt-cache, apt-get, npm, sudo) is a script of this test, first on both the
// runtime PATH and the server's PATH, so nothing here uses the network or
// changes the host. The fakes log their arguments; flag files switch them
// into failure modes.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync,
  unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, assertRejected, SKIP_NO_BINARY } from '../mcp/harness.mjs';

const dir = mkdtempSync(join(tmpdir(), 'codecalc-rt-'));
const bin = join(dir, 'bin');
const npmRoot = join(dir, 'lib', 'node_modules');
const log = join(dir, 'calls.log');
const flag = (name) => join(dir, name);

function script(name, body) {
  const p = join(bin, name);
  writeFileSync(p, `#!/bin/bash\nD=${JSON.stringify(dir)}\n${body}\n`);
  chmodSync(p, 0o755);
}

function fakeManagers() {
  chmodSync(dir, 0o755); // commands are resolved as the sandbox user would see them
  mkdirSync(bin, { recursive: true });
  // Every path belongs to "fakepkg-<file name>".
  script('dpkg-query', `[ -e "$D/dpkg-fail" ] && { echo "dpkg-query: database locked" >&2; exit 2; }
shift; for p in "$@"; do echo "fakepkg-\${p##*/}: $p"; done`);
  // python3's package has a newer candidate; everything else is current.
  script('apt-cache', `[ -e "$D/apt-fail" ] && { echo "E: The package cache file is corrupted" >&2; exit 100; }
shift; for p in "$@"; do c=1.0-1; case "$p" in fakepkg-python3*) c=1.1-1;; esac
printf '%s:\\n  Installed: 1.0-1\\n  Candidate: %s\\n  Version table:\\n' "$p" "$c"; done`);
  script('apt-get', `echo "apt-get $*" >> "$D/calls.log"; [ -e "$D/apt-get-fail" ] && { echo "E: broken" >&2; exit 100; }; echo upgraded`);
  // Passwordless sudo: a non-root server elevates apt (and a root-owned
  // npm) through it.
  script('sudo', `echo "sudo $*" >> "$D/calls.log"; [ "$1" = -n ] && shift; exec "$@"`);
  script('npm', `case "$1" in
root) echo ${JSON.stringify(npmRoot)};;
outdated) if [ -e "$D/npm-offline" ]; then echo '{"error":{"code":"ENOTFOUND","summary":"request to https://registry.npmjs.org/x failed"}}'; exit 1; fi
  echo '{"@deno/linux-x64-glibc":{"current":"2.0.0","wanted":"2.1.0","latest":"2.1.0"}}'; exit 1;;
install) echo "npm $*" >> "$D/calls.log"; echo "changed 1 package";;
*) exit 3;;
esac`);
  // deno as npm installs it: a package directory with the binary, linked
  // onto the PATH.
  const pkg = join(npmRoot, '@deno', 'linux-x64-glibc');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@deno/linux-x64-glibc', version: '2.0.0' }));
  writeFileSync(join(pkg, 'deno'), '#!/bin/sh\necho deno 2.0.0\n');
  chmodSync(join(pkg, 'deno'), 0o755);
  symlinkSync(join(pkg, 'deno'), join(bin, 'deno'));
}

const fakeEnv = (extra = {}) => {
  const path = `${bin}:/usr/bin:/bin`;
  return { PATH: path, CODECALC_RUNTIME_PATH: path, ...extra };
};
// A root server runs elevated commands itself; any other user through sudo -n
// (and an npm global root it owns is not elevated at all).
const ROOT = process.getuid() === 0;
const SUDO = ROOT ? '' : 'sudo -n ';
const APT_UPGRADE = 'apt-get install --only-upgrade -y fakepkg-python3.11';
const calls = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');
const set = (name, on) => (on ? writeFileSync(flag(name), '') : existsSync(flag(name)) && unlinkSync(flag(name)));

describe('runtimes_status / update_runtimes with fake managers', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => {
    fakeManagers();
    s = await startServer({ env: fakeEnv() });
  });
  after(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('rows: apt owner from dpkg-query, versions from apt-cache; npm owner from the global root', async () => {
    const r = await s.call('runtimes_status', { languages: 'python3, DENO,typescript' });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.dry_run, true);
    const py = r.languages.python3;
    assert.equal(py.manager, 'apt');
    assert.deepEqual(py.packages, ['fakepkg-python3.11']); // realpath of /usr/bin/python3
    assert.equal(py.current, '1.0-1');
    assert.equal(py.latest, '1.1-1');
    assert.equal(py.updatable, true);
    assert.equal(py.elevated, true);
    assert.equal(py.tier, 'tested');
    assert.equal(py.update_command, SUDO + APT_UPGRADE);
    for (const key of ['deno', 'typescript']) {
      const d = r.languages[key];
      assert.equal(d.manager, 'npm', key);
      assert.deepEqual(d.packages, ['@deno/linux-x64-glibc']);
      assert.equal(d.current, '2.0.0');
      assert.equal(d.latest, '2.1.0');
      assert.equal(d.updatable, true);
      assert.equal(d.update_command, 'npm install -g --ignore-scripts --no-audit --no-fund @deno/linux-x64-glibc@2.1.0');
    }
    assert.deepEqual(r.summary, { updatable: 3, total: 3 });
    assert.equal(r.manager_errors, undefined);
  });

  test('all rows: the summary agrees with the rows; missing runtimes are not installed, never current', async () => {
    const r = await s.call('runtimes_status', {});
    const rows = Object.entries(r.languages);
    assert.equal(r.summary.total, rows.length);
    assert.equal(r.summary.updatable, rows.filter(([, v]) => v.updatable === true).length);
    assert.ok(rows.length >= 29, `${rows.length} rows`);
    for (const name of ['swift', 'gleam', 'mojo']) {
      assert.equal(r.languages[name], undefined, name);
    }
    for (const [k, v] of rows) {
      if (v.current === 'not installed') {
        assert.equal(v.updatable, false, k);
        assert.equal(v.manager, null, k);
      }
      if (v.manager === null && v.current !== 'not installed') assert.equal(v.updatable, null, k);
      if (v.manager === 'apt') assert.equal(v.updatable, v.latest !== v.current, k);
    }
    assert.equal(r.languages.tsc.tier, null);
  });

  test('unknown names: validation, nothing checked (3.1.6 example)', async () => {
    const r = await s.call('runtimes_status', { languages: 'notalanguage' });
    assertRejected(r, 'validation', /^no known runtime named notalanguage\. Nothing was checked or updated\.$/);
    assert.deepEqual(r.unknown, ['notalanguage']);
    const sw = await s.call('runtimes_status', { languages: 'swift' });
    assertRejected(sw, 'validation', /swift \(it cannot be had on this host\)/);
    assert.match(sw.unavailable.swift, /no npm package carries a Swift toolchain/);
  });

  test('a manager that cannot be asked: manager_errors and check_failed, never up to date', async () => {
    set('apt-fail', true);
    set('npm-offline', true);
    try {
      const r = await s.call('runtimes_status', { languages: 'python3,deno' });
      assertRejected(r, 'validation', /no runtime could be checked: python3 \(its package manager could not be asked\), deno/);
      assert.deepEqual(r.check_failed.sort(), ['deno', 'python3']);
      const errs = Object.fromEntries(r.manager_errors.map((e) => [e.manager, e.error]));
      assert.match(errs.apt, /^apt-cache: exit status 100: E: The package cache file is corrupted$/);
      assert.match(errs.npm, /npm outdated: request to https:\/\/registry\.npmjs\.org\/x failed/);
      const all = await s.call('runtimes_status', {});
      assert.equal(all.ok, true);
      assert.ok(!Object.values(all.languages).some((v) => v.manager === 'apt' || v.manager === 'npm'));
      set('apt-fail', false);
      set('dpkg-fail', true);
      const d = await s.call('runtimes_status', { languages: 'python3' });
      assert.deepEqual(d.check_failed, ['python3']);
      assert.match(d.manager_errors[0].error, /dpkg-query: exit status 2: dpkg-query: database locked/);
    } finally {
      set('apt-fail', false);
      set('npm-offline', false);
      set('dpkg-fail', false);
    }
  });

  test('update_runtimes without apply is a dry run', async () => {
    const before = calls();
    const r = await s.call('update_runtimes', { languages: 'python3,deno' });
    assert.equal(r.dry_run, true);
    assert.equal(r.message, 'Dry run: nothing was updated. Call with apply=True to execute.');
    assert.equal(r.executed, undefined);
    assert.equal(calls(), before);
    const bad = await s.call('update_runtimes', { languages: 'notalanguage', apply: true });
    assertRejected(bad, 'validation', /no known runtime named notalanguage/);
    assert.equal(bad.dry_run, false);
    assert.equal(bad.executed, undefined);
  });

  test('apply without CODECALC_ALLOW_RUNTIME_APPLY: root-level commands are refused, the rest run', async () => {
    const npmIsOurs = (r) => {
      assert.equal(r.ok, false);
      assert.equal(r.code, 'permission_denied');
      assert.deepEqual(r.blocked_by_policy, ['apt']);
      const npm = r.executed.find((e) => e.manager === 'npm');
      assert.deepEqual(npm, { manager: 'npm', languages: ['deno'], elevated: false, ok: true, exit_code: 0,
        command: 'npm install -g --ignore-scripts --no-audit --no-fund @deno/linux-x64-glibc@2.1.0',
        output_tail: 'changed 1 package\n' });
      assert.equal(calls(), 'npm install -g --ignore-scripts --no-audit --no-fund @deno/linux-x64-glibc@2.1.0\n');
      assert.equal(r.partial_failure, true);
    };
    let r = await s.call('update_runtimes', { languages: 'python3,deno', apply: true });
    if (!ROOT) {
      // The test's npm global root is the server user's own: not elevated.
      try {
        npmIsOurs(r);
      } finally {
        writeFileSync(log, '');
      }
      return;
    }
    // npm's global root belongs to root: its update is elevated too.
    assertRejected(r, 'permission_denied', /^2 elevated command\(s\) were refused: CODECALC_ALLOW_RUNTIME_APPLY/);
    assert.deepEqual(r.blocked_by_policy, ['apt', 'npm']);
    assert.ok(r.executed.every((e) => e.skipped === true && e.ok === false && e.exit_code === null));
    assert.match(r.executed[0].output_tail, /CODECALC_ALLOW_RUNTIME_APPLY/);
    assert.equal(calls(), '');
    // A global root the server's user owns: npm's update is not elevated.
    chownSync(npmRoot, 64999, 64999);
    try {
      npmIsOurs(await s.call('update_runtimes', { languages: 'python3,deno', apply: true }));
    } finally {
      chownSync(npmRoot, 0, 0);
      writeFileSync(log, '');
    }
  });

  test('apply with consent: one command per manager, packages de-duplicated', async () => {
    const c = await startServer({ env: fakeEnv({ CODECALC_ALLOW_RUNTIME_APPLY: 'Yes' }) });
    try {
      const r = await c.call('update_runtimes', { languages: 'python3,deno,typescript', apply: true });
      assert.equal(r.ok, true, JSON.stringify(r));
      assert.equal(r.dry_run, false);
      assert.deepEqual(r.executed.map((e) => [e.manager, e.languages, e.ok, e.exit_code]),
        [['apt', ['python3'], true, 0], ['npm', ['deno', 'typescript'], true, 0]]);
      assert.equal(calls(), (ROOT ? '' : `${SUDO}${APT_UPGRADE}\n`) + `${APT_UPGRADE}\n`
        + 'npm install -g --ignore-scripts --no-audit --no-fund @deno/linux-x64-glibc@2.1.0\n');
      writeFileSync(log, '');
      set('apt-get-fail', true);
      const f = await c.call('update_runtimes', { languages: 'python3,deno', apply: true });
      assertRejected(f, 'internal', /^1 of 2 update command\(s\) failed$/);
      assert.equal(f.partial_failure, true);
      const apt = f.executed.find((e) => e.manager === 'apt');
      assert.equal(apt.exit_code, 100);
      assert.match(apt.output_tail, /E: broken/);
    } finally {
      set('apt-get-fail', false);
      writeFileSync(log, '');
      await c.close();
    }
  });

  test('an updater that is missing: exit_code null, runtime_unavailable', async () => {
    // A PATH with the query fakes and python3 but no apt-get at all.
    const only = join(dir, 'only');
    mkdirSync(only);
    for (const f of ['dpkg-query', 'apt-cache']) symlinkSync(join(bin, f), join(only, f));
    symlinkSync('/usr/bin/python3', join(only, 'python3'));
    const c = await startServer({ env: { PATH: only, CODECALC_RUNTIME_PATH: only, CODECALC_ALLOW_RUNTIME_APPLY: '1' } });
    try {
      const r = await c.call('update_runtimes', { languages: 'python3', apply: true });
      assertRejected(r, 'runtime_unavailable', /1 of 1 update command\(s\) failed/);
      assert.equal(r.executed[0].exit_code, null);
      // Not root: the command is sudo's, and sudo is the one not found.
      assert.match(r.executed[0].output_tail, ROOT ? /apt-get: not found/ : /sudo: not found/);
      assert.equal(calls(), '');
    } finally {
      await c.close();
    }
  });
});
