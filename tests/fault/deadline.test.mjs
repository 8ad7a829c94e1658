// A worker that stops answering. The hang is produced from outside with
// SIGSTOP, so no test-only op is needed in the server; the supervisor's
// CODECALC_TEST_DEADLINE_MS shortens every deadline (without it the real
// deadlines apply and these tests just take longer).
//  * an unguarded tool: JSON-RPC -32010 with {tool, timeout_seconds,
//    elapsed_seconds} (TOOLS.md 0.6);
//  * calc_exact, which evaluates under the guard: an ordinary result with
//    code timeout (TOOLS.md 2.5).
// Either way the worker holding the request is killed, and the next call is
// answered by a healthy one.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  RawServer, calcWorkers, procStat, waitFor, failureOf, assertRejected, SKIP_NO_BINARY,
} from '../mcp/harness.mjs';

const DEADLINE_MS = 1000;

describe('response deadline', { skip: SKIP_NO_BINARY, timeout: 90000 }, () => {
  let r;
  let stuck = []; // pids we stopped; resumed in after() whatever happened
  before(async () => {
    r = new RawServer({ env: { CODECALC_TEST_DEADLINE_MS: String(DEADLINE_MS) } });
    await r.initialize();
    const warm = await r.callTool('calc_exact', '{"expr":"2+2"}');
    assert.equal(warm.sc?.value, '4', warm.msg.__raw);
  });
  after(async () => {
    for (const pid of stuck) { try { process.kill(pid, 'SIGCONT'); } catch { /* reaped */ } }
    await r?.close();
  });

  /** Freeze every calc worker, send the call, return {msg, elapsed}. */
  async function callFrozen(name, argsText) {
    stuck = calcWorkers(r.pid).map((w) => w.pid);
    assert.ok(stuck.length > 0, 'no codecalc-calc worker to hang');
    for (const pid of stuck) process.kill(pid, 'SIGSTOP');
    const t0 = Date.now();
    const { msg } = await r.callTool(name, argsText, { timeoutMs: 30000 });
    return { msg, elapsed: Date.now() - t0 };
  }

  /** The stopped worker that held the request is killed; the rest resume. */
  async function expectRecovery(expr, want) {
    const gone = (pid) => { const st = procStat(pid); return st === null || st.state === 'Z'; };
    const killed = await waitFor(() => stuck.some(gone), 3000);
    assert.ok(killed, `no stuck worker was killed: ${JSON.stringify(stuck.map(procStat))}`);
    for (const pid of stuck) { try { process.kill(pid, 'SIGCONT'); } catch { /* reaped */ } }
    stuck = [];
    const next = await r.callTool('calc_exact', JSON.stringify({ expr }), { timeoutMs: 10000 });
    assert.equal(next.sc?.value, want, next.msg.__raw);
    assert.equal(r.exited, null, 'the server died');
  }

  test('an unguarded tool past its deadline gets -32010', async (t) => {
    const { msg: m, elapsed } = await callFrozen('bitop', '{"a":1,"op":"shl","b":3,"width":8}');
    t.diagnostic(`answered after ${elapsed} ms: ${m.__raw.slice(0, 300)}`);
    assert.ok(m.error, `expected a JSON-RPC error, got ${failureOf(m) ?? m.__raw}`);
    assert.equal(m.error.code, -32010);
    assert.match(m.error.message, /^tool 'bitop' exceeded its \d+s response deadline \(elapsed \d+\.\d\ds\)/);
    assert.match(m.error.message, /CPU-bound work may still be running/);
    assert.equal(m.error.data?.tool, 'bitop');
    assert.ok(Number.isInteger(m.error.data.timeout_seconds) && m.error.data.timeout_seconds > 0,
      `timeout_seconds ${m.error.data.timeout_seconds}`);
    assert.equal(typeof m.error.data.elapsed_seconds, 'number');
    assert.ok(Math.abs(m.error.data.elapsed_seconds - elapsed / 1000) < 0.5,
      `elapsed_seconds ${m.error.data.elapsed_seconds} vs measured ${elapsed} ms`);
    if (elapsed > 5000) t.diagnostic('CODECALC_TEST_DEADLINE_MS seems unsupported: the real deadline applied');
    else assert.ok(elapsed >= DEADLINE_MS - 50, `answered before the deadline (${elapsed} ms)`);
    await expectRecovery('6*6', '36');
  });

  test('calc_exact past its guard gets an ordinary timeout result', async (t) => {
    const { msg: m, elapsed } = await callFrozen('calc_exact', '{"expr":"5*5"}');
    t.diagnostic(`answered after ${elapsed} ms: ${m.__raw.slice(0, 300)}`);
    assert.ok(!m.error, `the guard answers as a result, not a JSON-RPC error: ${m.__raw}`);
    assertRejected(m.result.structuredContent, 'timeout', /^expression exceeded the \d+s evaluation limit and was killed$/);
    await expectRecovery('7*7', '49');
  });
});
