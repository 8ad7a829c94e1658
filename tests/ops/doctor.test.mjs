// codecalc doctor: the report of TOOLS.md 9.2 for this platform, text and
// JSON from one report, exit status from `healthy`.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync, realpathSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { spawnSync } from 'node:child_process';
import { REPO, SKIP_NO_BINARY, BIN, startServer } from '../mcp/harness.mjs';
import { freshDir, removeDir, run } from './cli_util.mjs';

const REQUIRED = ['contract_version', 'codecalc_version', 'healthy', 'python', 'backend', 'execution_providers',
  'strict_runtime', 'install_sandbox', 'extras', 'grammar_cache', 'status_basis', 'runtimes', 'runtime_summary',
  'tier_summary', 'workspace', 'remedies'];

describe('doctor', { skip: SKIP_NO_BINARY }, () => {
  let home;
  before(() => { home = freshDir(); });
  after(() => removeDir(home));

  test('--json on a sound install: healthy, exit 0, every required field', () => {
    const r = run(['doctor', '--json'], { home });
    assert.equal(r.status, 0, r.stderr);
    const d = r.json;
    for (const k of REQUIRED) assert.ok(k in d, `missing ${k}`);
    assert.equal(d.healthy, true);
    assert.equal(d.contract_version, '1.3.0');
    assert.equal(d.status_basis, 'resolved');
    assert.equal(d.python.platform, 'linux');
    assert.equal(d.python.version, 'unknown', 'not measured without --deep');
    assert.equal(d.backend.kind, 'native');
    assert.equal(d.backend.binary, join(dirname(realpathSync(BIN)), 'codecalc-exec'));
    // Workers answered their hello, with the ops they serve.
    assert.equal(d.workers.calc.started, true);
    assert.ok(d.workers.calc.ops.includes('calc_exact'));
    assert.equal(d.workers.symbolic.started, true);
    assert.ok(d.workers.symbolic.ops.includes('z3_check'));
    assert.equal(d.workers.exec.started, true);
    assert.ok(d.workers.exec.ops.includes('execute_code'));
    // The host checks that decide the sandbox.
    for (const ns of ['user', 'pid', 'mount', 'network', 'ipc', 'uts']) assert.equal(typeof d.sandbox.namespaces[ns], 'boolean');
    assert.ok(['v1', 'v2', 'none'].includes(d.sandbox.cgroups.in_use));
    assert.equal(typeof d.sandbox.cgroups.v2.mounted, 'boolean');
    assert.equal(typeof d.sandbox.cgroups.v1.memory.usable, 'boolean');
    assert.equal(typeof d.sandbox.seccomp.available, 'boolean');
    assert.equal(d.sandbox.sandbox_user.uid, process.getuid() === 0 ? 64999 : process.getuid());
    // Other platforms: present, not applicable, with a reason.
    assert.equal(d.windows_isolation.applies, false);
    assert.match(d.windows_isolation.detail, /another platform/);
    assert.equal(d.strict_runtime.available, false);
    assert.equal(d.strict_runtime.applies, false);
    assert.equal(typeof d.strict_runtime.detail, 'string');
    // Runtimes: one row per language (c++ is cpp), sorted, summaries add up.
    assert.equal(d.runtimes.length, 31);
    assert.deepEqual(d.runtimes.map((x) => x.name), [...d.runtimes.map((x) => x.name)].sort());
    assert.ok(!d.runtimes.some((x) => x.name === 'c++'));
    const py = d.runtimes.find((x) => x.name === 'python3');
    assert.equal(py.status, 'installed');
    assert.ok(existsSync(py.path));
    const sum = d.runtime_summary;
    assert.equal(sum.supported + sum.installed + sum.unhealthy + sum.available, 31);
    assert.equal(d.tier_summary.tested + d.tier_summary.best_effort + d.tier_summary.plan_only, 31);
    // The state directory, tested by writing; nobody holds its lock.
    assert.equal(d.state_dir.path, home);
    assert.equal(d.state_dir.writable, true);
    assert.equal(d.state_dir.lock.held, false);
    assert.equal(d.workspace.writable, true);
    // The shipped skill file.
    assert.equal(d.skill_file, join(REPO, 'SKILL.md'));
    assert.equal(d.extras.find((x) => x.name === 'symbolic').installed, true);
    assert.equal(d.tool_groups.registered_count, d.tool_groups.declared_count);
    // Groups, presets and tools come from the tool table, as `tools --json` lists it.
    const listed = JSON.parse(run(['tools', '--json'], { home }).stdout);
    assert.equal(d.tool_groups.declared_count, listed.length);
    for (const t of listed) assert.ok(d.tool_groups.groups[t.group].includes(t.name), `${t.name} under ${t.group}`);
    const shared = JSON.parse(readFileSync(join(REPO, 'protocol/tools/shared.json'), 'utf8'));
    assert.deepEqual(d.tool_groups.presets, shared.presets);
    // Each pool's worker serves every tool the table routes to it.
    for (const w of ['calc', 'symbolic', 'exec']) {
      assert.equal(d.workers[w].serves_table, true, w);
      assert.deepEqual(d.workers[w].unserved, [], w);
    }
    assert.equal(d.audit_log.path, join(home, 'audit', 'audit.log'));
  });

  test('text and JSON come from one report', () => {
    const t = run(['doctor'], { home });
    const j = run(['doctor', '--json'], { home }).json;
    assert.equal(t.status, 0);
    assert.match(t.stdout, /^codecalc \S+ — HEALTHY$/m);
    const resolved = j.runtimes.filter((x) => x.status !== 'supported').length;
    assert.match(t.stdout, new RegExp(`^runtimes: ${resolved}/31 resolved \\(resolved\\)$`, 'm'));
    assert.ok(t.stdout.includes(`skill file: ${j.skill_file}`));
    assert.ok(t.stdout.includes(`"command": "${j.bindir}/codecalc"`));
  });

  test('an unwritable state directory is unhealthy: exit 1 in both forms, with a remedy', () => {
    const env = { CODECALC_HOME: '/proc/codecalc-doctor-test' };
    const j = run(['doctor', '--json'], { home, env });
    assert.equal(j.status, 1);
    assert.equal(j.json.healthy, false);
    assert.equal(j.json.state_dir.writable, false);
    assert.ok(j.json.remedies.some((x) => /state directory is not writable/.test(x)));
    const t = run(['doctor'], { home, env });
    assert.equal(t.status, 1);
    assert.match(t.stdout, /NOT HEALTHY/);
  });

  // A service user's HOME=/nonexistent stopped the server with "cannot use
  // the state directory (CODECALC_HOME): No such file or directory":
  // neither the path nor where it came from.
  test('state_dir_unnamed_at_start: the server names the state directory it cannot use', () => {
    const r = spawnSync(BIN, [], { env: { PATH: process.env.PATH, HOME: '/nonexistent-codecalc-home' }, input: '',
      encoding: 'utf8', timeout: 60000 });
    assert.notEqual(r.status, 0);
    assert.equal(r.stderr, 'codecalc: cannot use the state directory /nonexistent-codecalc-home/.codecalc: No such ' +
      'file or directory; it is $CODECALC_HOME, else $HOME/.codecalc: set CODECALC_HOME to a directory this user can ' +
      'create or write\n');
  });

  test('an unwritable temp root is unhealthy', () => {
    const j = run(['doctor', '--json'], { home, env: { TMPDIR: '/proc/no-such-tmp' } });
    assert.equal(j.status, 1);
    assert.equal(j.json.workspace.writable, false);
    assert.match(j.json.workspace.error, /cannot create/);
    assert.equal(j.json.remedies[0], 'the temp root is not writable: set TMPDIR to a writable directory');
  });

  test('grammars: the ones compiled into codecalc-analysis, as its --grammars report lists them', () => {
    const bin = join(dirname(realpathSync(BIN)), 'codecalc-analysis');
    const g = JSON.parse(spawnSync(bin, ['--grammars'], { encoding: 'utf8' }).stdout);
    const loading = g.grammars.filter((x) => x.loads).map((x) => x.name);
    // A directory of *.so files, which doctor used to count, changes nothing.
    const gdir = join(home, 'grammars-test');
    mkdirSync(gdir, { recursive: true });
    writeFileSync(join(gdir, 'tree-sitter-python.so'), 'not really a grammar');
    const d = run(['doctor', '--json'], { home, env: { CODECALC_GRAMMAR_DIR: gdir } }).json;
    assert.equal(d.grammar_cache.path, bin);
    assert.deepEqual(d.grammar_cache.names, loading);
    assert.equal(d.grammar_cache.grammars, loading.length);
    assert.equal(d.grammar_cache.cached, loading.length > 0);
    assert.equal(d.grammar_cache.core, g.core);
    const parsing = d.extras.find((x) => x.name === 'parsing');
    const complete = g.core !== null && g.missing.length === 0 && loading.length === g.grammars.length;
    assert.equal(parsing.installed, complete);
    assert.equal(d.grammar_cache.extra_installed, complete);
    if (complete) {
      assert.equal(parsing.remedy, null);
      assert.deepEqual(parsing.missing, []);
      assert.equal(d.grammar_cache.detail,
        `${loading.length} grammar(s) compiled into ${bin} (${g.core}, grammar ABI ${g.abi_range[0]}-${g.abi_range[1]})`);
    } else {
      for (const m of g.missing) assert.ok(parsing.missing.includes(`grammar ${m.name} (${m.reason})`), m.name);
      assert.match(parsing.remedy, /make grammars/);
    }
    assert.ok(!JSON.stringify(d).includes('libtree-sitter'), 'no system tree-sitter library is involved');
    assert.equal(d.healthy, true, 'an optional component never makes an install unhealthy');
    const t = run(['doctor'], { home });
    assert.ok(t.stdout.includes(`grammar cache: ${d.grammar_cache.detail}\n`), t.stdout);
  });

  test('the lock holder is named while a server serves the directory', async () => {
    const s = await startServer();
    try {
      const pid = s.transport.pid;
      const d = run(['doctor', '--json'], { home: s.home }).json;
      assert.equal(d.state_dir.lock.held, true);
      assert.equal(d.state_dir.lock.holder_pid, pid);
      const t = run(['doctor'], { home: s.home });
      assert.match(t.stdout, new RegExp(`in use by a server \\(pid ${pid} holds`));
    } finally {
      await s.close();
    }
  });

  test('--deep executes runtimes and engines', () => {
    const r = run(['doctor', '--json', '--deep'], { home });
    assert.equal(r.status, 0, r.stderr);
    const d = r.json;
    assert.equal(d.status_basis, 'executed');
    const py = d.runtimes.find((x) => x.name === 'python3');
    assert.equal(py.status, 'available', JSON.stringify(py));
    assert.match(py.version, /^Python 3\.\d+/);
    assert.equal(d.python.version, py.version.slice('Python '.length));
    assert.equal(d.runtimes.find((x) => x.name === 'bash').status, 'available');
    assert.equal(d.extras.find((x) => x.name === 'symbolic').installed, true);
    assert.equal(d.strict_runtime.canary.attempted, false);
  });

  test('unknown flags are a usage error', () => {
    const r = run(['doctor', '--bogus'], { home });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unknown argument '--bogus'/);
  });
});
