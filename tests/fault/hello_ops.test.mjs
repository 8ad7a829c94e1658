// A worker must serve every tool the table routes to its pool: the first
// hello of a pool that does not announce a registered op stops the server
// with a message naming the tool (issue 10). The worker is made to leave
// an op out of its hello by a test-only hook, CODECALC_TEST_OMIT_OP, which
// it honours only with CODECALC_TEST_OPS=1. Start-up does not wait for the
// workers: the first initialize is answered while they boot.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { RawServer, SKIP_NO_BINARY, waitFor } from '../mcp/harness.mjs';

describe('a worker whose hello lacks a registered op stops the server', { skip: SKIP_NO_BINARY, timeout: 60000 }, () => {
  test('missing_handler_stops_the_server: the calc pool does not announce bit_analysis', async () => {
    const r = new RawServer({ env: { CODECALC_TEST_OPS: '1', CODECALC_TEST_OMIT_OP: 'bit_analysis' } });
    try {
      const init = await r.initialize();
      assert.equal(init.serverInfo.name, 'codecalc', 'initialize is answered before the hello check');
      const gone = await waitFor(() => r.exited !== null, 20000);
      assert.ok(gone, `the server kept running: ${r.stderrText}`);
      assert.equal(r.exited.code, 2, JSON.stringify(r.exited));
      assert.match(r.stderrText,
        /codecalc: the calc worker \(codecalc-calc\) does not serve tool 'bit_analysis' \(protocol\/tools\/calculator\/bit_analysis\.json\)/);
    } finally { await r.close(); }
  });

  test('the hook is inert without CODECALC_TEST_OPS=1', async () => {
    const r = new RawServer({ env: { CODECALC_TEST_OMIT_OP: 'bit_analysis' } });
    try {
      await r.initialize();
      const c = await r.callTool('bit_analysis', '{"n":12}', { timeoutMs: 20000 });
      assert.equal(c.sc?.popcount, 2, c.msg.__raw);
      assert.equal(r.exited, null);
    } finally { await r.close(); }
  });

  test('every pool passes the check on a consistent build', async () => {
    const r = new RawServer({ env: { CODECALC_TEST_OPS: '1' } });
    try {
      await r.initialize();
      const calc = await r.callTool('bit_analysis', '{"n":12}', { timeoutMs: 20000 });
      assert.equal(calc.sc?.popcount, 2, calc.msg.__raw);
      const sym = await r.callTool('simplify_expression', '{"expr":"x+x"}', { timeoutMs: 20000 });
      assert.equal(sym.sc?.ok, true, sym.msg.__raw);
      const exec = await r.callTool('list_execution_providers', '{}', { timeoutMs: 20000 });
      assert.ok(Array.isArray(exec.sc?.result), exec.msg.__raw);
      assert.equal(r.exited, null, r.stderrText);
    } finally { await r.close(); }
  });
});
