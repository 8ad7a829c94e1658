// CODECALC_REQUIRE_NATIVE (docs/configuration.md): the supervisor links no
// sandbox code, so it asks `codecalc-exec --probe` what the sandbox can do
// here, and only when the variable is set. It refuses to start when a
// feature is missing or when the probe cannot be run at all.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BIN, SKIP_NO_BINARY } from './harness.mjs';

const EXEC = join(dirname(BIN), 'codecalc-exec');
const KEYS = ['userns', 'pidns', 'mntns', 'netns', 'ipcns', 'utsns', 'cgroup_v2', 'cgroup_v1_memory',
  'cgroup_v1_pids', 'seccomp', 'root'];
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {
  protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'require-native-test', version: '1' } } });

function serve(bin, env) {
  const home = mkdtempSync(join(tmpdir(), 'codecalc-test-'));
  try {
    return spawnSync(bin, [], {
      env: { PATH: process.env.PATH, HOME: home, CODECALC_HOME: home, ...env },
      input: `${INIT}\n`, timeout: 30000, encoding: 'utf8',
    });
  } finally { rmSync(home, { recursive: true, force: true }); }
}

function initialized(r) {
  const line = r.stdout.split('\n').find((l) => l.includes('"id":1'));
  return line ? JSON.parse(line).result?.serverInfo?.name === 'codecalc' : false;
}

describe('CODECALC_REQUIRE_NATIVE', { skip: SKIP_NO_BINARY }, () => {
  // A server binary without its workers beside it: the probe cannot run.
  const lonely = mkdtempSync(join(tmpdir(), 'codecalc-test-bin-'));
  const lonelyBin = join(lonely, 'codecalc');
  copyFileSync(BIN, lonelyBin);
  spawnSync('chmod', ['755', lonelyBin]);
  after(() => rmSync(lonely, { recursive: true, force: true }));

  test('codecalc-exec --probe reports every capability as a boolean, and the Landlock ABI', () => {
    const r = spawnSync(EXEC, ['--probe'], { encoding: 'utf8', timeout: 20000 });
    assert.equal(r.status, 0, r.stderr);
    const caps = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(caps).sort(), [...KEYS, 'landlock_abi'].sort());
    for (const k of KEYS) assert.equal(typeof caps[k], 'boolean', k);
    assert.ok(Number.isInteger(caps.landlock_abi) && caps.landlock_abi >= 0, String(caps.landlock_abi));
  });

  test('starts exactly when the probe finds every feature the sandbox uses', () => {
    const c = JSON.parse(spawnSync(EXEC, ['--probe'], { encoding: 'utf8', timeout: 20000 }).stdout);
    const capable = c.pidns && c.mntns && c.netns && c.seccomp && (c.cgroup_v2 || c.cgroup_v1_memory) &&
      (c.cgroup_v2 || c.cgroup_v1_pids) && (c.root || c.userns);
    const r = serve(BIN, { CODECALC_REQUIRE_NATIVE: '1' });
    if (capable) {
      assert.ok(initialized(r), `a capable host must serve: ${r.stderr}`);
    } else {
      assert.notEqual(r.status, 0);
      assert.equal(initialized(r), false);
      assert.match(r.stderr, /CODECALC_REQUIRE_NATIVE is set but this host lacks .+ for the native sandbox/);
    }
  });

  test('refuses to start when the sandbox cannot be probed', () => {
    const r = serve(lonelyBin, { CODECALC_REQUIRE_NATIVE: '1' });
    assert.notEqual(r.status, 0);
    assert.equal(initialized(r), false, r.stdout);
    assert.match(r.stderr, /CODECALC_REQUIRE_NATIVE is set but the sandbox's capabilities could not be probed/);
    assert.match(r.stderr, /codecalc-exec/);
    assert.match(r.stderr, /unset it to run with those guarantees reported in `unenforced` instead/);
  });

  test('unset or "0": no probe runs (the same lonely binary answers initialize)', () => {
    assert.ok(initialized(serve(lonelyBin, { CODECALC_REQUIRE_NATIVE: '0' })));
    assert.ok(initialized(serve(lonelyBin, {})));
  });
});
