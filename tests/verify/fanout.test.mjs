// How a verification call runs (docs/verification.md): its runs are in
// flight in parallel (seen from the host, not inferred from timings), the
// result keeps input order whatever order runs finish in, and every way a
// client gives up — notifications/cancelled, the response deadline, a closed
// HTTP stream — stops every run of the call and frees the exec workers.
//
// A run is seen from the host through its child `sleep <marker>`: the
// sandbox's pid namespace is nested in ours, so /proc shows it.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { childrenOf } from '../mcp/harness.mjs';
import { startHttp, statelessHeaders, statelessParams, ACCEPT_BOTH } from '../http/http_harness.mjs';
import {
  startVerifyServer, SKIP_NO_BINARY, LONG, markerProcs, sleeper, newMarker, waitUntil,
} from './util.mjs';

/** verify_translation arguments whose every run sleeps until killed. */
function sleepingCall(marker, inputs) {
  const code = sleeper(marker);
  return { source_code: code, source_language: 'python3', target_code: code, target_language: 'python3',
    test_inputs: inputs, edge_inputs: false };
}

const runsAlive = (marker, n) => waitUntil(() => {
  const procs = markerProcs(marker);
  return procs.length >= n ? procs : false;
}, 30000, `${n} runs of the call alive at once (sleep ${marker})`);
const runsGone = (marker) => waitUntil(() => markerProcs(marker).length === 0, 10000,
  `every run of the call (sleep ${marker}) to be killed`);

async function assertWorkersFree(s) {
  const r = await s.call('execute_code', { language: 'python3', code: 'print(6*7)' }, LONG);
  assert.equal(r.stdout, '42\n');
}

describe('verification fan-out over stdio', { skip: SKIP_NO_BINARY, timeout: 300000 }, () => {
  let s;
  before(async () => { s = await startVerifyServer(); });
  after(async () => { await s?.close(); });

  test('runs are in flight in parallel (at least 4 at once, from the host), and cancel stops them all', async () => {
    const marker = newMarker();
    const ac = new AbortController();
    const call = s.client.callTool({ name: 'verify_translation', arguments: sleepingCall(marker, ['1', '2', '3', '4']) },
      undefined, { ...LONG, signal: ac.signal });
    call.catch(() => {});
    const alive = await runsAlive(marker, 4);
    assert.ok(alive.length >= 4);
    const execWorkers = childrenOf(s.transport._process.pid).filter((c) => c.comm === 'codecalc-exec' && c.state !== 'Z');
    assert.ok(execWorkers.length >= 4, `the pool grew to make room: ${execWorkers.length} exec workers`);
    ac.abort('the test gives up');
    await assert.rejects(call);
    await runsGone(marker);
    await assertWorkersFree(s);
  });

  test('results come back in input order whatever order the runs finish in', async () => {
    const code = 'import sys, time\nn = int(sys.stdin.read())\ntime.sleep(n * 0.15)\nprint(n)';
    const inputs = ['6', '5', '4', '3', '2', '1', '0'];
    const r = await s.tool('verify_translation', { source_code: code, source_language: 'python3', target_code: code,
      target_language: 'python3', test_inputs: inputs });
    assert.equal(r.passed, true);
    assert.deepEqual(r.cases.map((c) => c.input), inputs);
    assert.deepEqual(r.cases.map((c) => c.source.stdout), inputs);
    assert.deepEqual(r.cases.map((c) => c.target.stdout), inputs);
    assert.ok(r.execution.max_in_flight >= 4, JSON.stringify(r.execution));
    assert.ok(r.execution.max_in_flight <= r.execution.share, JSON.stringify(r.execution));
    // each matched input run again per side (rule 37): up to 44 runs over
    // the 7 inputs, fewer when the first runs were slow (red team 5, docs/contract.md)
    assert.ok(r.odds.runs_per_input >= 2 && r.odds.runs_per_input <= 7, JSON.stringify(r.odds));
    assert.equal(r.execution.runs, 14 * r.odds.runs_per_input);
  });

  test('compare_edge_cases: cancelling stops its runs too', async () => {
    const marker = newMarker();
    const ac = new AbortController();
    const call = s.client.callTool({ name: 'compare_edge_cases',
      arguments: { snippets: { python3: sleeper(marker), py: sleeper(marker) }, inputs: ['a', 'b'], edge_inputs: false } },
    undefined, { ...LONG, signal: ac.signal });
    call.catch(() => {});
    await runsAlive(marker, 4);
    ac.abort('the test gives up');
    await runsGone(marker);
    await assertWorkersFree(s);
  });
});

describe('the response deadline covers the whole call', { skip: SKIP_NO_BINARY, timeout: 120000 }, () => {
  let s;
  before(async () => { s = await startVerifyServer({ env: { CODECALC_TEST_DEADLINE_MS: '4000' } }); });
  after(async () => { await s?.close(); });

  test('past it: JSON-RPC -32010, and every run of the call is stopped', async () => {
    const marker = newMarker();
    const call = s.client.callTool({ name: 'verify_translation', arguments: sleepingCall(marker, ['1', '2']) }, undefined, LONG);
    await runsAlive(marker, 2);
    await assert.rejects(call, (e) => e.code === -32010 && /verify_translation' exceeded its 4s response deadline/.test(e.message));
    await runsGone(marker);
    await assertWorkersFree(s);
  });
});

describe('a closed HTTP stream stops the call', { skip: SKIP_NO_BINARY, timeout: 120000 }, () => {
  let h;
  before(async () => { h = await startHttp(); });
  after(async () => { await h?.stop(); });

  test('2026 era: aborting the POST of verify_translation kills its runs', async () => {
    const marker = newMarker();
    const ac = new AbortController();
    const res = fetch(h.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: ACCEPT_BOTH, ...statelessHeaders('tools/call', 'verify_translation') },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'vt-1', method: 'tools/call',
        params: statelessParams({ name: 'verify_translation', arguments: sleepingCall(marker, ['1', '2']), _meta: { progressToken: 'vt' } }) }),
      signal: ac.signal,
    });
    res.catch(() => {});
    await runsAlive(marker, 4);
    ac.abort();
    await runsGone(marker);
  });
});
