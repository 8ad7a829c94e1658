// Per-run dependencies (issue 16): execute_code, execute_code_stream and
// run_submit install `dependencies` (merged with a PEP 723 block) into a
// cached, read-only environment before the program runs. Python installs
// come from wheels this test builds (CODECALC_PIP_INDEX_URL=none +
// CODECALC_PIP_FIND_LINKS); node installs a real small package from the
// npm registry.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, startServer, assertRejected, sleep, SKIP_NO_BINARY } from '../mcp/harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
// Outside /tmp: the installer's sandbox has a private /tmp.
const wheels = join(dirname(dirname(BIN)), `test-wheels-${process.pid}`);
const pipEnv = { CODECALC_PIP_INDEX_URL: 'none', CODECALC_PIP_FIND_LINKS: wheels };
const entries = (s) => readdirSync(join(s.home, 'cache', 'deps')).filter((n) => /^[0-9a-f]{64}$/.test(n));

function buildWheels() {
  mkdirSync(wheels, { recursive: true });
  chmodSync(wheels, 0o755);
  const make = (name, version, value) =>
    execFileSync('python3', [join(here, 'fixtures', 'make_wheel.py'), name, version, wheels, String(value)]);
  make('cctestpkg', '1.0.0', 42);
  make('cctestpkg', '2.0.0', 43);
  make('cc_other_pkg', '0.1', 7);
}

const PY = 'import cctestpkg\nprint(cctestpkg.VALUE)\n';

describe('per-run dependencies', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => {
    buildWheels();
    s = await startServer({ env: pipEnv });
  });
  after(async () => {
    await s?.close();
    rmSync(wheels, { recursive: true, force: true });
  });

  test('python3: installed before the run, then served from the cache, also under no_net', { timeout: 180000 }, async () => {
    const first = await s.call('execute_code', { language: 'python3', code: PY, dependencies: ['CCTestPkg == 1.0.0'] });
    assert.equal(first.stdout, '42\n', JSON.stringify(first));
    assert.equal(first.verdict, 'OK');
    assert.deepEqual(first.dependencies.installed, ['cctestpkg==1.0.0']);
    assert.equal(first.dependencies.cached, false);
    assert.ok(first.dependencies.install_ms > 0);
    const again = await s.call('execute_code', { language: 'python3', code: PY, dependencies: ['cctestpkg==1.0.0'] });
    assert.equal(again.stdout, '42\n');
    assert.deepEqual(again.dependencies, { installed: ['cctestpkg==1.0.0'], cached: true, install_ms: 0 });
    const offline = await s.call('execute_code', { language: 'python3', code: PY, dependencies: ['cctestpkg==1.0.0'], no_net: true });
    assert.equal(offline.stdout, '42\n', JSON.stringify(offline));
    assert.equal(offline.dependencies.cached, true);
    assert.equal(entries(s).length, 1);
    // Another version is another environment.
    const v2 = await s.call('execute_code', { language: 'python3', code: PY, dependencies: ['cctestpkg==2.0.0'] });
    assert.equal(v2.stdout, '43\n');
    assert.equal(entries(s).length, 2);
  });

  test('regression: a program cannot change a cached environment for the next run', { timeout: 180000 }, async () => {
    const deps = ['cctestpkg==1.0.0'];
    const attack = 'import cctestpkg, errno, os\nd = os.path.dirname(cctestpkg.__file__)\n'
      + 'for f in (cctestpkg.__file__, os.path.join(d, "evil.py")):\n'
      + '    try:\n        open(f, "a").write("VALUE = 666\\n"); print("wrote")\n'
      + '    except OSError as e:\n        print(errno.errorcode[e.errno])\n'
      + 'for f in (lambda: os.chmod(cctestpkg.__file__, 0o777), lambda: os.rename(d, d + "x")):\n'
      + '    try:\n        f(); print("changed")\n'
      + '    except OSError as e:\n        print(errno.errorcode[e.errno])\n';
    const r = await s.call('execute_code', { language: 'python3', code: attack, dependencies: deps });
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 4, JSON.stringify(r));
    for (const l of lines) assert.ok(['EACCES', 'EROFS', 'EPERM'].includes(l), JSON.stringify(r));
    const after = await s.call('execute_code', { language: 'python3', code: PY, dependencies: deps });
    assert.equal(after.stdout, '42\n');
  });

  test('a PEP 723 block is merged with dependencies (deduplicated, sorted)', { timeout: 180000 }, async () => {
    const code = '# /// script\n# requires-python = ">=3.8"\n# dependencies = [\n#   "cctestpkg==1.0.0",  # the same as below\n'
      + "#   'cc-other-pkg',\n# ]\n# ///\nimport cctestpkg, cc_other_pkg\nprint(cctestpkg.VALUE + cc_other_pkg.VALUE)\n";
    const r = await s.call('execute_code', { language: 'python3', code, dependencies: ['cctestpkg==1.0.0'] });
    assert.equal(r.stdout, '49\n', JSON.stringify(r));
    assert.deepEqual(r.dependencies.installed, ['cc-other-pkg', 'cctestpkg==1.0.0']);
    const unclosed = await s.call('execute_code', { language: 'python3', code: '# /// script\n# dependencies = []\nprint(1)\n' });
    assertRejected(unclosed, 'validation', /not closed by a '# \/\/\/' line/);
  });

  test('no_net with dependencies not in the cache: refused before anything runs', async () => {
    const before = entries(s).length;
    const r = await s.call('execute_code', { language: 'python3', code: 'print(1)', dependencies: ['cc-other-pkg==0.1'], no_net: true });
    assertRejected(r, 'validation', /not in the install cache and installing them needs the network, which no_net: true refuses/);
    assert.equal(r.verdict, undefined);
    assert.equal(entries(s).length, before);
  });

  test('a failed install is the answer, with the installer output; nothing runs', { timeout: 180000 }, async () => {
    const r = await s.call('execute_code', { language: 'python3', code: 'print("ran")', dependencies: ['cctestpkg==9.9'] });
    assertRejected(r, 'validation', /^dependencies could not be installed, nothing was run: install failed \(rc=1\)/);
    assert.equal(r.phase, 'install');
    assert.equal(r.stdout, undefined);
    assert.match(r.output_tail, /cctestpkg==9\.9/);
    assert.equal(r.dependencies.cached, false);
  });

  test('bad specs are refused by the validator, before any installer runs', async () => {
    const cases = [
      [['requests; rm -rf /'], /shell metacharacter/],
      [['six`id`'], /shell metacharacter/],
      [['../evil'], /is a path/],
      [['/etc/passwd'], /is a path/],
      [['https://example.com/x.whl'], /URL/],
      [['git+https://example.com/x.git'], /URL or a VCS reference/],
      [['--index-url=http://evil'], /is an option/],
      [['-e'], /is an option/],
      [['six @ https://example.com/six.whl'], /URL/],
      [['six @ file'], /direct reference/],
      [['x'.repeat(201)], /201 characters long; a package spec may have at most 200/],
      [[''], /is empty/],
      [Array.from({ length: 33 }, (_, i) => `p${i}`), /33 dependencies given; at most 32 per run/],
    ];
    const before = entries(s).length;
    for (const [deps, why] of cases) {
      assertRejected(await s.call('execute_code', { language: 'python3', code: 'print(1)', dependencies: deps }), 'validation', why);
    }
    assertRejected(await s.call('execute_code', { language: 'node', code: '1', dependencies: ['left-pad@>=1 || 2'] }), 'validation', /shell metacharacter/);
    assertRejected(await s.call('execute_code', { language: 'node', code: '1', dependencies: ['github:user/repo'] }), 'validation', /URL or a VCS/);
    assertRejected(await s.call('execute_code', { language: 'ruby', code: 'puts 1', dependencies: ['rake'] }), 'validation',
      /dependencies are installed for python3 \(pip\), node and bun \(npm\); 'ruby' has no package manager here/);
    const sid = (await s.call('session_start', { language: 'python3' })).session_id;
    assertRejected(await s.call('execute_code', { language: 'python3', code: '1', session_id: sid, dependencies: ['six'] }),
      'validation', /not taken with a session_id; install into the session with install_package/);
    await s.call('session_stop', { session_id: sid });
    const typed = await s.callRaw('execute_code', { language: 'python3', code: '1', dependencies: [1] });
    assert.equal(typed.isError, true);
    assert.equal(entries(s).length, before);
  });

  test('node: a real package from the npm registry, node_modules beside the program', { timeout: 180000 }, async () => {
    const code = 'const leftPad = require("left-pad");\nconsole.log(leftPad("7", 3, "0"));\n';
    const r = await s.call('execute_code', { language: 'node', code, dependencies: ['left-pad@1.3.0'] });
    assert.equal(r.stdout, '007\n', JSON.stringify(r));
    assert.equal(r.dependencies.cached, false);
    const again = await s.call('execute_code', { language: 'node', code, dependencies: ['left-pad@1.3.0'], no_net: true });
    assert.equal(again.stdout, '007\n', JSON.stringify(again));
    assert.equal(again.dependencies.cached, true);
    const stream = await s.call('execute_code_stream', { language: 'node', code, dependencies: ['left-pad@1.3.0'] });
    assert.equal(stream.stdout, '007\n');
    assert.equal(stream.dependencies.cached, true);
  });

  test('run_submit: refusals come back at once; a failed install is the run\'s terminal error', { timeout: 180000 }, async () => {
    const refused = await s.call('run_submit', { language: 'python3', code: 'print(1)', dependencies: ['cc-other-pkg==0.1'], no_net: true });
    assertRejected(refused, 'validation', /no_net: true refuses/);
    assert.equal(refused.run_id, undefined);
    assertRejected(await s.call('run_submit', { language: 'python3', code: 'print(1)', dependencies: ['a;b'] }), 'validation', /shell metacharacter/);
    const wait = async (id) => {
      for (let i = 0; i < 600; i++) {
        const r = await s.call('run_inspect', { run_id: id });
        if (r.state !== 'running') return r;
        await sleep(200);
      }
      throw new Error('run did not finish');
    };
    const bad = await s.call('run_submit', { language: 'python3', code: 'print("ran")', dependencies: ['cctestpkg==9.9'] });
    assert.equal(bad.state, 'running');
    const done = await wait(bad.run_id);
    assert.ok(['finished', 'cleaned'].includes(done.state), done.state);
    assertRejected(done, 'validation', /^dependencies could not be installed, nothing was run/);
    assert.equal(done.phase, 'install');
    const good = await s.call('run_submit', { language: 'python3', code: PY, dependencies: ['cctestpkg==1.0.0'], no_net: true });
    const ok = await wait(good.run_id);
    assert.equal(ok.stdout, '42\n', JSON.stringify(ok));
    assert.equal(ok.dependencies.cached, true);
  });
});

describe('per-run dependencies under a policy that denies network', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => {
    buildWheels();
    s = await startServer({ env: { ...pipEnv, CODECALC_CAPABILITY_POLICY: 'deny-network' } });
  });
  after(async () => {
    await s?.close();
    rmSync(wheels, { recursive: true, force: true });
  });

  test('uncached dependencies are refused; nothing is installed', async () => {
    const r = await s.call('execute_code', { language: 'python3', code: PY, dependencies: ['cctestpkg==1.0.0'] });
    assertRejected(r, 'validation', /the capability policy \(CODECALC_CAPABILITY_POLICY\) denies/);
    const sub = await s.call('run_submit', { language: 'python3', code: PY, dependencies: ['cctestpkg==1.0.0'] });
    assertRejected(sub, 'validation', /CODECALC_CAPABILITY_POLICY/);
    assert.equal(sub.run_id, undefined);
  });
});
