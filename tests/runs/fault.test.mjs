// Fault tests for background runs: a killed server, a killed shepherd, a
// second server on the same state directory, an unwritable state directory,
// retention, and a burst of submissions. After each fault the database must
// pass sqlite's integrity check.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { SKIP_NO_BINARY, sleep, waitFor } from '../mcp/harness.mjs';
import {
  newHome, removeHome, startOn, Server, waitTerminal, shepherdPid, alive, integrity, sql,
} from './runs_helpers.mjs';

function assertIntegrity(home) {
  const r = integrity(home);
  if (r !== null) assert.equal(r, 'ok', 'state.db integrity');
}

describe('server killed with runs in flight', { skip: SKIP_NO_BINARY, timeout: 120000 }, () => {
  test('every run ends with its own correct result or keeps running, and stays cancellable', async () => {
    const home = newHome();
    let a, b;
    try {
      a = await startOn(home);
      const runs = [];
      for (let i = 0; i < 20; i++) {
        const secs = [0, 0.2, 1, 2.5][i % 4];
        const code = `import time\ntime.sleep(${secs})\nprint("run", ${i}, ${i} * ${i})`;
        const s = await a.call('run_submit', { language: 'python3', code });
        assert.equal(s.ok, true, JSON.stringify(s));
        runs.push({ i, id: s.run_id });
      }
      const long = await a.call('run_submit', { language: 'python3', code: 'import time; time.sleep(60)', timeout: 90 });
      await a.kill('SIGKILL');
      assertIntegrity(home);
      b = await startOn(home);
      // the long run was re-attached: still running, and cancellable
      const li = await b.call('run_inspect', { run_id: long.run_id });
      assert.equal(li.state, 'running', JSON.stringify(li));
      const lc = await b.call('run_cancel', { run_id: long.run_id });
      assert.equal(lc.cancelled, true, JSON.stringify(lc));
      for (const { i, id } of runs) {
        const r = await waitTerminal(b, id, 30000);
        assert.equal(r.state, 'cleaned', `run ${i}: ${JSON.stringify(r)}`);
        assert.equal(r.stdout, `run ${i} ${i * i}\n`);
        assert.equal(r.verdict, 'OK');
        assert.equal(r.run_id, id);
      }
      const lr = await waitTerminal(b, long.run_id, 10000);
      assert.equal(lr.state, 'cancelled');
      assertIntegrity(home);
    } finally {
      await a?.close();
      await b?.close();
      removeHome(home);
    }
  });
});

describe('shepherd killed', { skip: SKIP_NO_BINARY, timeout: 60000 }, () => {
  test('its run becomes lost with a reason; the others are untouched', async () => {
    const home = newHome();
    const srv = await startOn(home);
    try {
      const victim = await srv.call('run_submit', { language: 'python3', code: 'import time; time.sleep(3)', timeout: 5 });
      const other = await srv.call('run_submit', { language: 'python3', code: 'import time; time.sleep(1); print("other")' });
      const pid = await waitFor(() => shepherdPid(home, victim.run_id), 5000);
      assert.ok(pid && alive(pid), 'shepherd not running');
      process.kill(pid, 'SIGKILL');
      await waitFor(() => !alive(pid), 3000);
      const r = await waitTerminal(srv, victim.run_id, 10000);
      assert.equal(r.state, 'lost', JSON.stringify(r));
      assert.equal(r.ok, false);
      assert.equal(r.code, 'internal');
      assert.equal(r.provider_error, 'run_lost');
      assert.match(r.error, /^background run failed: the run's shepherd \(pid \d+\) ended without writing a result/);
      assert.equal(r.verdict, undefined, 'a lost run must not look finished');
      const o = await waitTerminal(srv, other.run_id);
      assert.equal(o.stdout, 'other\n');
      assert.equal(o.state, 'cleaned');
      const c = await srv.call('run_cancel', { run_id: victim.run_id });
      assert.deepEqual([c.ok, c.cancelled, c.state], [true, false, 'lost']);
      assertIntegrity(home);
    } finally {
      await srv.close();
      removeHome(home);
    }
  });
});

describe('state directory', { skip: SKIP_NO_BINARY, timeout: 60000 }, () => {
  test('a second server on the same state directory refuses to start, naming it', async () => {
    const home = newHome();
    const first = await startOn(home);
    try {
      const second = new Server(home);
      const ex = await second.exit;
      assert.notEqual(ex.code, 0);
      assert.match(second.stderr, /already using the state directory/);
      assert.ok(second.stderr.includes(home));
      assert.match(second.stderr, /CODECALC_HOME/);
      const s = await first.call('run_submit', { language: 'python3', code: 'print(1)' });
      assert.equal(s.ok, true, 'the first server was disturbed');
    } finally {
      await first.close();
      removeHome(home);
    }
  });

  test('an unwritable runs directory gives a clear error at submit and leaves nothing', async () => {
    const home = newHome();
    const srv = await startOn(home);
    try {
      rmSync(join(home, 'runs'), { recursive: true, force: true });
      writeFileSync(join(home, 'runs'), 'not a directory');
      const r = await srv.call('run_submit', { language: 'python3', code: 'print(1)' });
      assert.equal(r.ok, false);
      assert.equal(r.code, 'internal');
      assert.equal(r.provider_error, 'run_state_unwritable');
      assert.match(r.error, /^cannot create the run: cannot create the run directory .*runs\/[0-9a-f]{32}: Not a directory$/);
      const n = sql(home, 'SELECT COUNT(*) FROM runs');
      if (n !== null) assert.equal(n, '0', 'a half-created run is in the database');
      assertIntegrity(home);
    } finally {
      await srv.close();
      removeHome(home);
    }
  });

  test('after the retention period a run answers honestly that its result is gone', async () => {
    const home = newHome();
    const srv = await startOn(home, { CODECALC_RUN_TTL_HOURS: '0.0003' }); // about 1 s
    try {
      const s = await srv.call('run_submit', { language: 'python3', code: 'print(7)' });
      const r = await waitTerminal(srv, s.run_id);
      assert.equal(r.stdout, '7\n');
      await sleep(1500);
      const gone = await srv.call('run_inspect', { run_id: s.run_id });
      assert.deepEqual([gone.ok, gone.state, gone.cleaned, gone.expired, gone.outcome],
        [false, 'cleaned', true, true, 'finished']);
      assert.equal(gone.stdout, undefined);
      assert.match(gone.note, /deleted after the retention period/);
      assert.ok(!existsSync(join(home, 'runs', s.run_id)), 'the run directory is still there');
      const c = await srv.call('run_cancel', { run_id: s.run_id });
      assert.deepEqual([c.ok, c.cancelled, c.state], [true, false, 'cleaned']);
    } finally {
      await srv.close();
      removeHome(home);
    }
  });
});

describe('burst of submissions', { skip: SKIP_NO_BINARY, timeout: 120000 }, () => {
  test('10,000 submits: admission holds, nothing leaks', async () => {
    const home = newHome();
    const srv = await startOn(home, { CODECALC_MAX_ACTIVE_RUNS: '8' });
    try {
      const fds = () => readdirSync(`/proc/${srv.pid}/fd`).map((f) => { try { return readlinkSync(`/proc/${srv.pid}/fd/${f}`); } catch { return ''; } });
      // warm up: the database opens its WAL files on the first write
      const warm = await srv.call('run_submit', { language: 'python3', code: 'print(0)' });
      await waitTerminal(srv, warm.run_id);
      const before = fds().length;
      const calls = [];
      for (let i = 0; i < 10000; i++) calls.push(srv.call('run_submit', { language: 'python3', code: 'import time; time.sleep(60)', timeout: 90 }));
      const res = await Promise.all(calls);
      const admitted = res.filter((r) => r.ok);
      const refused = res.filter((r) => !r.ok);
      assert.equal(admitted.length, 8, 'admitted runs (none can finish during the burst)');
      for (const r of refused) {
        assert.equal(r.code, 'resource_exhausted');
        assert.equal(r.limit, 8);
        assert.ok(r.active_runs >= 8);
      }
      assert.equal(readdirSync(join(home, 'runs')).length, admitted.length + 1, 'run directories of refused runs');
      for (const r of admitted) assert.equal((await srv.call('run_cancel', { run_id: r.run_id })).cancelled, true);
      for (const r of admitted) assert.equal((await waitTerminal(srv, r.run_id, 20000)).state, 'cancelled');
      const next = await srv.call('run_submit', { language: 'python3', code: 'print(8)' });
      assert.equal(next.ok, true, 'slots were not freed by cancellation');
      assert.equal((await waitTerminal(srv, next.run_id)).stdout, '8\n');
      assert.ok(fds().length <= before, `descriptors grew from ${before} to ${fds().length}: ${fds().join(' ')}`);
      assertIntegrity(home);
    } finally {
      await srv.close();
      removeHome(home);
    }
  });
});
