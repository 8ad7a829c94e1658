// compare_execution (TOOLS.md 3.1.5) through the MCP SDK client: the
// section's examples, an unknown language as a failed row, the cold retry,
// compile-once and serial timing. Which language is fastest moves with the
// load, so only its membership is asserted, never its value.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startVerifyServer, assertInvalid, SKIP_NO_BINARY, nonce } from './util.mjs';

const ROW_KEYS = ['language', 'ok', 'stdout', 'stderr', 'exit_code', 'duration_ms', 'timed_out', 'cold_retry'];

describe('compare_execution', { skip: SKIP_NO_BINARY, timeout: 300000 }, () => {
  let s;
  before(async () => { s = await startVerifyServer(); });
  after(async () => { await s?.close(); });
  const ce = (args) => s.tool('compare_execution', args);

  test('spec example: python3 and node both print 42; no discrepancies', async () => {
    const r = await ce({ snippets: { python3: 'print(6*7)', node: 'console.log(6*7)' } });
    assert.equal(r.ok, true);
    assert.equal(r.count, 2);
    assert.equal(r.succeeded, 2);
    assert.deepEqual(r.results.map((x) => x.language), ['python3', 'node']);
    for (const row of r.results) {
      assert.deepEqual(Object.keys(row).sort(), [...ROW_KEYS].sort());
      assert.equal(row.stdout, '42\n');
      assert.equal(row.ok, true);
      assert.equal(row.exit_code, 0);
      assert.ok(Number.isInteger(row.duration_ms) && row.duration_ms >= 0);
      assert.equal(row.cold_retry, false);
    }
    assert.ok(['python3', 'node'].includes(r.fastest));
    assert.equal(r.fastest_note, null);
    assert.deepEqual(r.discrepancies, []);
    // Timed one at a time: no run of this call overlapped another.
    assert.equal(r.execution.timing.max_in_flight, 1);
    assert.equal(r.execution.timing.timed_runs, 2);
    assert.match(r.execution.timing.measured, /one at a time/);
  });

  test('spec example: a silent python3 row beside node is a discrepancy whose output may be lost', async () => {
    const r = await ce({ snippets: { python3: 'pass', node: 'console.log(6*7)' } });
    assert.equal(r.discrepancies.length, 1);
    const d = r.discrepancies[0];
    assert.equal(d.language, 'python3');
    assert.equal(d.ok, true);
    assert.equal(d.issue, 'no stdout while another language produced some');
    assert.equal(d.exit_code, 0);
    assert.equal(d.timed_out, false);
    assert.match(d.detail, /lost/);
  });

  test('spec example: one silent snippet alone has no sibling to disagree with', async () => {
    const r = await ce({ snippets: { python3: 'pass' } });
    assert.deepEqual(r.discrepancies, []);
    assert.equal(r.fastest, 'python3');
  });

  test('spec example: {} is count 0', async () => {
    const r = await ce({ snippets: {} });
    const { execution, contract_version, ...rest } = r;
    assert.deepEqual(rest, { ok: true, count: 0, succeeded: 0, results: [], fastest: null,
      fastest_note: 'no language ran successfully', discrepancies: [] });
  });

  test('an unknown language is a failed row with empty output and null exit_code/duration_ms', async () => {
    const r = await ce({ snippets: { klingon: 'x', python3: 'print(1)' } });
    const row = r.results[0];
    assert.equal(row.language, 'klingon');
    assert.equal(row.ok, false);
    assert.equal(row.stdout, '');
    assert.equal(row.exit_code, null);
    assert.equal(row.duration_ms, null);
    assert.match(row.error, /^unknown language 'klingon'/);
    assert.equal(r.succeeded, 1);
    assert.equal(r.fastest, 'python3');
  });

  test('no language ran: fastest null with its note', async () => {
    const r = await ce({ snippets: { python3: 'import sys\nsys.exit(2)' } });
    assert.equal(r.fastest, null);
    assert.equal(r.fastest_note, 'no language ran successfully');
    assert.equal(r.results[0].exit_code, 2);
  });

  test('cold retry: a run that times out is run once more, and stays a discrepancy', async () => {
    const r = await ce({ snippets: { bash: 'sleep 5', python3: 'print(1)' }, timeout: 1 });
    const row = r.results[0];
    assert.equal(row.timed_out, true);
    assert.equal(row.cold_retry, true);
    assert.equal(row.cold_retry_recovered, false);
    assert.ok(Number.isInteger(row.first_attempt_ms));
    assert.equal(r.results[1].cold_retry, false);
    assert.ok(!('cold_retry_recovered' in r.results[1]));
    const d = r.discrepancies.find((x) => x.language === 'bash');
    assert.equal(d.issue, 'timed out and stayed timed out after one warm retry');
    assert.equal(d.ok, false);
    assert.equal(d.timed_out, true);
    assert.deepEqual(Object.keys(d.sibling_durations_ms), ['python3']);
    assert.equal(typeof d.variance_note, 'string');
    assert.equal(typeof d.detail, 'string');
    assert.equal(r.execution.timing.timed_runs, 3);
    assert.equal(r.execution.timing.max_in_flight, 1);
  });

  test('a compiled snippet is compiled before the timed runs, once', async () => {
    const c = `#include <stdio.h>\n/* ${nonce()} */\nint main(void){ puts("42"); return 0; }`;
    const r = await ce({ snippets: { c, python3: 'print(42)' }, stdin: 'ignored' });
    assert.equal(r.results[0].stdout, '42\n');
    assert.deepEqual(r.execution.compiles, { c: 1, python3: 0 });
  });

  test('stdin is the same for every snippet', async () => {
    const r = await ce({ snippets: { python3: 'import sys\nprint(sys.stdin.read().upper())', bash: 'tr a-z A-Z' }, stdin: 'abc' });
    assert.deepEqual(r.results.map((x) => x.stdout.trim()), ['ABC', 'ABC']);
  });

  test('bad input: a non-string snippet, a timeout past the deadline', async () => {
    assertInvalid(await ce({ snippets: { python3: 1 } }), /^snippets\.python3 must be a string/);
    assertInvalid(await ce({ snippets: { python3: 'print(1)' }, timeout: 901 }), /^timeout must be at most 900 s/);
  });
});
