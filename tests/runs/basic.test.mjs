// Background runs through a real server: submit, poll, cancel, validation,
// admission cap (TOOLS.md 3.2.9-3.2.11 as amended by the runs issue).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SKIP_NO_BINARY, CONTRACT_VERSION, sleep, waitFor } from '../mcp/harness.mjs';
import { newHome, removeHome, startOn, waitTerminal, procsWith } from './runs_helpers.mjs';

describe('run lifecycle', { skip: SKIP_NO_BINARY, timeout: 90000 }, () => {
  let home, srv;
  before(async () => { home = newHome(); srv = await startOn(home); });
  after(async () => { await srv?.close(); removeHome(home); });

  test('run_submit returns a running run at once; run_inspect later has the result', async () => {
    const t0 = Date.now();
    const s = await srv.call('run_submit', { language: 'python3', code: "import time; time.sleep(3); print('run ok', 6*7)" });
    // The work takes 3 s; an answer well before that proves it did not wait.
    assert.ok(Date.now() - t0 < 2500, 'submission waited for the work');
    assert.equal(s.ok, true);
    assert.match(s.run_id, /^[0-9a-f]{32}$/);
    assert.equal(s.state, 'running');
    assert.equal(s.provider_id, 'local');
    assert.equal(s.contract_version, CONTRACT_VERSION);
    assert.ok(Math.abs(s.deadline - s.started_at - 30) < 1e-6, 'deadline = started_at + 30');
    assert.equal(s.verdict, undefined);
    const first = await srv.call('run_inspect', { run_id: s.run_id });
    assert.equal(first.state, 'running');
    assert.equal(first.cleaned, false);
    const r = await waitTerminal(srv, s.run_id);
    assert.equal(r.stdout, 'run ok 42\n');
    assert.equal(r.verdict, 'OK');
    assert.equal(r.ok, true);
    assert.equal(r.state, 'cleaned');
    assert.equal(r.cleaned, true);
    assert.equal(r.run_id, s.run_id);
    assert.equal(r.started_at, s.started_at);
    assert.equal(r.provider.provider_id, 'local');
    assert.match(r.provider.spec_hash, /^sha256:[0-9a-f]{64}$/);
    // reading is repeatable
    const again = await srv.call('run_inspect', { run_id: s.run_id });
    assert.equal(again.stdout, 'run ok 42\n');
    assert.equal(again.state, 'cleaned');
    // cancelling a finished run is answered, not an error
    const c = await srv.call('run_cancel', { run_id: s.run_id });
    assert.deepEqual({ ok: c.ok, cancelled: c.cancelled, state: c.state, run_id: c.run_id },
      { ok: true, cancelled: false, state: 'cleaned', run_id: s.run_id });
    // the output also sits in the run directory
    assert.ok(existsSync(join(home, 'runs', s.run_id, 'result.json')));
  });

  test('a failing program is a finished run with the execute_code envelope', async () => {
    const s = await srv.call('run_submit', { language: 'python3', code: 'import sys; sys.exit(3)' });
    const r = await waitTerminal(srv, s.run_id);
    assert.equal(r.ok, false);
    assert.equal(r.exit_code, 3);
    assert.equal(r.verdict, 'RTE');
    assert.equal(r.code, undefined);
    assert.equal(r.state, 'cleaned');
  });

  test('the run timeout bounds the work', async () => {
    const s = await srv.call('run_submit', { language: 'python3', code: 'while True: pass', timeout: 1 });
    assert.ok(Math.abs(s.deadline - s.started_at - 1) < 1e-6);
    const r = await waitTerminal(srv, s.run_id, 20000);
    assert.equal(r.verdict, 'TLE');
    assert.equal(r.timed_out, true);
  });

  test('run_cancel kills the whole tree and records cancelled', async () => {
    const marker = `9${Math.floor(Math.random() * 1e6)}.25`;
    const s = await srv.call('run_submit', {
      language: 'python3', timeout: 60,
      code: `import subprocess, time\nsubprocess.Popen(["sleep", "${marker}"])\nprint("started", flush=True)\ntime.sleep(60)`,
    });
    assert.ok(await waitFor(() => procsWith(marker).length > 0, 10000), 'the child never started');
    const c = await srv.call('run_cancel', { run_id: s.run_id });
    assert.deepEqual({ ok: c.ok, cancelled: c.cancelled, state: c.state }, { ok: true, cancelled: true, state: 'cancelling' });
    const again = await srv.call('run_cancel', { run_id: s.run_id });
    assert.equal(again.ok, true);
    const r = await waitTerminal(srv, s.run_id, 10000);
    assert.equal(r.state, 'cancelled');
    assert.equal(r.cancelled, true);
    assert.equal(r.run_id, s.run_id);
    assert.ok(await waitFor(() => procsWith(marker).length === 0, 5000), 'a process of the cancelled run survived');
    const after = await srv.call('run_cancel', { run_id: s.run_id });
    assert.equal(after.cancelled, false);
    assert.equal(after.state, 'cancelled');
  });

  test('unknown and malformed run ids are validation errors', async () => {
    for (const id of ['no-such-run', '', 'A'.repeat(32), '../../etc/passwd', 'x'.repeat(5000)]) {
      for (const tool of ['run_inspect', 'run_cancel']) {
        const r = await srv.call(tool, { run_id: id });
        assert.equal(r.ok, false);
        assert.equal(r.code, 'validation');
        assert.equal(r.provider_error, 'unknown_run');
        assert.ok(!r.error.includes(id) || id === '', 'a malformed id was echoed');
      }
    }
    const unknown = '0123456789abcdef0123456789abcdef';
    const r = await srv.call('run_inspect', { run_id: unknown });
    assert.equal(r.error, `unknown run '${unknown}'`);
    assert.equal(r.run_id, unknown);
  });

  test('unknown provider is refused before a run exists', async () => {
    const r = await srv.call('run_submit', { language: 'python3', code: 'print(1)', provider: 'nope' });
    assert.equal(r.code, 'validation');
    assert.equal(r.provider_error, 'unknown_provider');
    assert.equal(r.run_id, undefined);
  });

  test('run_inspect of a running run shows its output so far with byte counts (issue 11 item 9)', async () => {
    const s = await srv.call('run_submit', { language: 'python3', timeout: 60,
      code: "import sys, time\nprint('step 1', flush=True)\nsys.stderr.write('e' * 70000); sys.stderr.flush()\ntime.sleep(60)" });
    let seen;
    for (const end = Date.now() + 30000; !seen && Date.now() < end; await sleep(100)) {
      const r = await srv.call('run_inspect', { run_id: s.run_id });
      if (r.stderr_bytes === 70000 && r.stdout === 'step 1\n') seen = r;
    }
    assert.ok(seen, 'the output so far never showed');
    assert.equal(seen.state, 'running');
    assert.equal(seen.phase, 'run');
    assert.equal(seen.stdout_bytes, 7);
    assert.equal(seen.stderr.length, 65536);
    assert.equal(seen.output_truncated, true);
    assert.equal(seen.verdict, undefined);
    await srv.call('run_cancel', { run_id: s.run_id });
    const done = await waitTerminal(srv, s.run_id);
    assert.equal(done.stdout, 'step 1\n');
    assert.equal(existsSync(join(home, 'runs', s.run_id, 'partial.json')), false);
  });

  test('run_submit of language klingon is refused with no run id (issue 11 item 5)', async () => {
    const before = readdirSync(join(home, 'runs')).length;
    const r = await srv.call('run_submit', { language: 'klingon', code: 'x' });
    assert.equal(r.ok, false);
    assert.equal(r.code, 'validation');
    assert.match(r.error, /^unknown language 'klingon'\. Available: awk, bash, /);
    assert.ok(r.available_languages.includes('python3'));
    assert.equal(r.run_id, undefined);
    assert.equal(readdirSync(join(home, 'runs')).length, before);
  });

  test('regression: run_submit still offered linux-strict, which execute_code and list_execution_providers no longer know', async () => {
    const before = readdirSync(join(home, 'runs')).length;
    for (const provider of ['linux-strict', 'piston']) {
      const r = await srv.call('run_submit', { language: 'python3', code: 'print(1)', provider });
      assert.equal(r.code, 'validation', JSON.stringify(r));
      assert.equal(r.error, `unknown execution provider '${provider}'; available: local`);
      assert.equal(r.provider_error, 'unknown_provider');
      assert.deepEqual(r.available_providers, ['local']);
      assert.equal(r.run_id, undefined);
    }
    assert.equal(readdirSync(join(home, 'runs')).length, before);
  });
});

describe('admission cap', { skip: SKIP_NO_BINARY, timeout: 60000 }, () => {
  let home, srv;
  before(async () => { home = newHome(); srv = await startOn(home, { CODECALC_MAX_ACTIVE_RUNS: '2' }); });
  after(async () => { await srv?.close(); removeHome(home); });

  test('the run past the cap is resource_exhausted; a slot frees when a run ends', async () => {
    const code = 'import time; time.sleep(1.5)';
    const a = await srv.call('run_submit', { language: 'python3', code });
    const b = await srv.call('run_submit', { language: 'python3', code });
    assert.equal(a.ok && b.ok, true);
    const c = await srv.call('run_submit', { language: 'python3', code });
    assert.equal(c.ok, false);
    assert.equal(c.code, 'resource_exhausted');
    assert.equal(c.active_runs, 2);
    assert.equal(c.limit, 2);
    assert.match(c.error, /^2 runs are already active against a limit of 2;/);
    // Wait for a run to end, not for a time: a 2.5 s sleep assumed a 1.5 s
    // sleep in python3 plus its start-up had ended, which load can stretch.
    assert.equal((await waitTerminal(srv, a.run_id)).state, 'cleaned', 'the first run never ended');
    const d = await srv.call('run_submit', { language: 'python3', code: 'print(5)' });
    assert.equal(d.ok, true, JSON.stringify(d));
    const r = await waitTerminal(srv, d.run_id);
    assert.equal(r.stdout, '5\n');
  });
});
