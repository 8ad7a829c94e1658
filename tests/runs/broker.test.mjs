// run_submit runs the capability broker exactly like execute_code (TOOLS.md
// 3.2.9, 10.2): a rejection comes back from run_submit itself, and nothing of
// the run exists afterwards (no record, no run directory, no shepherd).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { SKIP_NO_BINARY } from '../mcp/harness.mjs';
import { newHome, removeHome, startOn, sql, waitTerminal } from './runs_helpers.mjs';

const runDirs = (home) => (existsSync(join(home, 'runs')) ? readdirSync(join(home, 'runs')) : []);

describe('run_submit and the capability broker', { skip: SKIP_NO_BINARY, timeout: 60000 }, () => {
  describe('a policy that grants network to a no_net request', () => {
    let home, srv;
    before(async () => {
      home = newHome();
      srv = await startOn(home, { CODECALC_CAPABILITY_POLICY: 'allow-network' });
    });
    after(async () => { await srv?.close(); removeHome(home); });

    test('is rejected by run_submit with nothing created', async () => {
      const r = await srv.call('run_submit', { language: 'python3', code: 'print(1)', no_net: true });
      assert.equal(r.ok, false);
      assert.equal(r.code, 'permission_denied');
      assert.equal(r.provider_error, 'capability_not_requested');
      assert.deepEqual(r.requested_capabilities, []);
      assert.equal(r.requested_provider, 'local');
      assert.match(r.error, /would grant 'network' on provider 'local'/);
      assert.equal(r.run_id, undefined);
      assert.deepEqual(runDirs(home), []);
      const rows = sql(home, 'SELECT COUNT(*) FROM runs');
      if (rows !== null) assert.equal(rows, '0');
    });

    test('execute_code gives the same rejection', async () => {
      const e = await srv.call('execute_code', { language: 'python3', code: 'print(1)', no_net: true });
      assert.equal(e.code, 'permission_denied');
      assert.equal(e.provider_error, 'capability_not_requested');
    });

    test('a request the policy does not widen is admitted and runs', async () => {
      const s = await srv.call('run_submit', { language: 'python3', code: "print('brokered')" });
      assert.equal(s.ok, true);
      assert.equal(s.state, 'running');
      const r = await waitTerminal(srv, s.run_id);
      assert.equal(r.stdout, 'brokered\n');
      assert.equal(r.provider.capabilities.brokered, true);
      assert.equal(r.provider.capabilities.policy, 'allow-network');
    });
  });

  describe('strict deny-network (rejected only where the sandbox cannot enforce it)', () => {
    let home, srv;
    before(async () => {
      home = newHome();
      srv = await startOn(home, { CODECALC_CAPABILITY_POLICY: 'deny-network, strict' });
    });
    after(async () => { await srv?.close(); removeHome(home); });

    test('run_submit decides as execute_code does on this host', async () => {
      const args = { language: 'python3', code: "print('strict')" };
      const e = await srv.call('execute_code', args);
      const s = await srv.call('run_submit', args);
      if (e.code === 'permission_denied') {
        assert.equal(s.ok, false);
        assert.equal(s.code, 'permission_denied');
        assert.equal(s.provider_error, e.provider_error);
        assert.equal(s.provider_error, 'capability_unenforceable');
        assert.deepEqual(s.requested_capabilities, ['network']);
        assert.deepEqual(runDirs(home), []);
      } else {
        assert.equal(e.ok, true, JSON.stringify(e));
        assert.equal(s.ok, true, JSON.stringify(s));
        const r = await waitTerminal(srv, s.run_id);
        assert.equal(r.stdout, 'strict\n');
        assert.deepEqual(r.provider.capabilities.denied, ['network']);
      }
    });
  });

  describe('no policy', () => {
    let home, srv;
    before(async () => { home = newHome(); srv = await startOn(home); });
    after(async () => { await srv?.close(); removeHome(home); });

    test('no_net: true is admitted unchanged', async () => {
      const s = await srv.call('run_submit', { language: 'python3', code: 'print(2)', no_net: true });
      assert.equal(s.ok, true);
      assert.deepEqual(runDirs(home), [s.run_id]);
      // Let the detached shepherd finish before the home is removed: it keeps
      // writing into its run directory after the server is gone.
      const r = await waitTerminal(srv, s.run_id);
      assert.equal(r.stdout, '2\n');
    });
  });
});
