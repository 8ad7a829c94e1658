// Found by the chaos test: a REPL launcher or a background run's shepherd
// killed while its sandbox existed left that sandbox's cgroups behind (the
// host or run died with it, the directories did not). Like an exec worker,
// each now starts a janitor that removes them (workers/exec/janitor.c).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RawServer, waitFor, SKIP_NO_BINARY } from '../mcp/harness.mjs';
import { stat, signalSame, cgroupsMadeBy, cgroupsLeft, runDirsLeft } from './ours.mjs';
import { privateDir, serverEnv } from './load.mjs';

/** The process whose pid file (first field: pid) is at path, once it exists. */
async function processOf(path) {
  const pid = await waitFor(() => existsSync(path) && Number(readFileSync(path, 'utf8').split(' ')[0]), 10000, 50);
  return pid ? stat(pid) : null;
}

describe('janitors of killed sandbox owners', { skip: SKIP_NO_BINARY, timeout: 120000 }, () => {
  let r, home, tmp;
  before(async () => {
    home = privateDir('codecalc-janitor-home-');
    tmp = privateDir('codecalc-janitor-tmp-');
    r = new RawServer({ env: serverEnv(home, tmp) });
    await r.initialize();
  });
  after(async () => {
    await r?.close();
    for (const d of [home, tmp]) rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  test('regression: a SIGKILLed REPL launcher leaves no run cgroup', async (t) => {
    const s = await r.callTool('session_start', '{"language":"python3"}');
    const sid = s.sc?.session_id;
    assert.ok(sid, s.msg.__raw);
    const first = await r.callTool('execute_code', JSON.stringify({ language: 'python3', session_id: sid, code: 'print(6*7)' }));
    assert.equal(first.sc?.stdout, '42\n', first.msg.__raw);
    const launcher = await processOf(join(home, 'repl', `${sid}.pid`));
    assert.ok(launcher, 'no launcher pid file');
    const made = cgroupsMadeBy([launcher]);
    if (!made.length) return t.skip('the host runs without run cgroups here');
    assert.ok(signalSame(launcher, 'SIGKILL'), 'the launcher is gone before the kill');
    const clean = await waitFor(() => cgroupsLeft(made).length === 0, 10000, 100);
    assert.ok(clean, `cgroups of the killed launcher left: ${cgroupsLeft(made).join(', ')}`);
    // The session recovers with a fresh host.
    const again = await r.callTool('execute_code', JSON.stringify({ language: 'python3', session_id: sid, code: 'print(1+1)' }));
    assert.equal(again.sc?.stdout, '2\n', again.msg.__raw);
    await r.callTool('session_stop', JSON.stringify({ session_id: sid }));
  });

  test('regression: a SIGKILLed run shepherd leaves no run cgroup and no run directory', async (t) => {
    const s = await r.callTool('run_submit', '{"language":"bash","code":"sleep 20; echo late"}');
    const id = s.sc?.run_id;
    assert.ok(id, s.msg.__raw);
    const shepherd = await processOf(join(home, 'runs', id, 'shepherd.pid'));
    assert.ok(shepherd, 'no shepherd pid file');
    const made = await waitFor(() => { const m = cgroupsMadeBy([shepherd]); return m.length > 0 && m; }, 10000, 50);
    if (!made) {
      signalSame(shepherd, 'SIGKILL');
      return t.skip('the host runs without run cgroups here');
    }
    // Exec workers keep a prepared run directory of their own beside it.
    const dirs = () => runDirsLeft([tmp]).filter((d) => d.includes(`/codecalc-${shepherd.pid}-`));
    assert.ok(dirs().length > 0, 'the run directory is not where the test looks');
    assert.ok(signalSame(shepherd, 'SIGKILL'), 'the shepherd is gone before the kill');
    const clean = await waitFor(() => cgroupsLeft(made).length === 0 && dirs().length === 0, 10000, 100);
    assert.ok(clean, `left by the killed shepherd: ${[...cgroupsLeft(made), ...dirs()].join(', ')}`);
  });
});
