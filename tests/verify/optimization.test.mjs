// verify_optimization (TOOLS.md 3.4.5) through the MCP SDK client. The
// section's examples with measured ratios: a candidate with far less work is
// accepted, a wrong one is refused before any timing, min_speedup <= 1 is
// refused whatever the ratio, the same program is never "faster", and one
// doing half the work is accepted. Decisions at exact ratios (0.5, 1.0,
// 2.0, 1.03) are unit-tested in tests/unit/test_verify_rules.c, since a
// measured ratio moves with the load.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startVerifyServer, startServer, assertInvalid, assertGrade, SKIP_NO_BINARY, LONG } from './util.mjs';

const LOOP = 'import sys\nn=int(sys.stdin.readline())\ns=0\nfor i in range(n): s+=i\nprint(s)';
const FORMULA = 'import sys\nn=int(sys.stdin.readline())\nprint(n*(n-1)//2)';
const INPUTS = ['10', '100', '1000'];
const SIZES = [200000, 400000, 800000, 1600000];
/** The sizes verify_optimization adds (docs/contract.md, red team 5). */
const SIZE_EDGES = ['0', '1', '2', '3', '4', '5', '7', '8', '9', '15', '16', '17', '31', '32', '33', '64', '97', '127',
  '128', '1001', '1024', '1291'];

describe('verify_optimization', { skip: SKIP_NO_BINARY, timeout: 600000 }, () => {
  let s;
  before(async () => { s = await startVerifyServer(); });
  after(async () => { await s?.close(); });
  const vo = (args) => s.tool('verify_optimization', args);

  test('spec example: the loop vs n*(n-1)//2 is accepted, cross_checked', async () => {
    const args = { original: LOOP, candidate: FORMULA, language: 'python3', test_inputs: INPUTS, sizes: SIZES };
    let r = await vo(args);
    // A host whose start-up varies by 50 ms or more at n = 1 (114 ms with
    // two verify files running beside each other) needs more of the loop's
    // work than these sizes reach within the deadline, and the honest
    // answer is "not measurably faster". Once more; if the host is still
    // that noisy, that answer is what is asserted.
    const noisy = (x) => x.speedup?.measurable === false && (x.speedup?.startup?.jitter_ms ?? 0) >= 50;
    if (noisy(r)) r = await vo(args);
    assert.equal(r.ok, true);
    if (noisy(r)) {
      assert.equal(r.accepted, false);
      assert.equal(r.reason, 'equivalent but not measurably faster');
      assert.equal(r.verification.passed, true);
      return;
    }
    assert.equal(r.accepted, true, JSON.stringify(r.speedup));
    assert.equal(r.reason, 'verified faster');
    assert.equal(r.verification.passed, true);
    // 3 given, then the small sizes (six in red team 4, 22 since red team 5)
    assert.deepEqual(r.verification.cases.slice(3).map((c) => c.input), SIZE_EDGES);
    assert.equal(r.verification.total, 3 + 22);
    assert.equal(r.equivalence.method, 'sampled');
    assert.equal(r.equivalence.inputs_compared, 25);
    assert.equal(r.equivalence.sizes_added, 22);
    assert.deepEqual(r.equivalence.timing_sizes_compared, r.sizes);
    // the largest n compared is said, and how to reach past it (red team 6)
    assert.equal(r.equivalence.largest_n_compared, r.sizes[3]);
    assert.match(r.equivalence.beyond_largest_n, new RegExp(`^no n above ${r.sizes[3]} was run: .* pass larger n in test_inputs`));
    assert.deepEqual(r.verification.edge_inputs.kinds, ['size']);
    assert.equal(r.language, 'python3');
    assert.equal(r.min_speedup, 1.15);
    assert.equal(r.speedup.measurable, true);
    assert.ok(r.speedup.ratio > 1.15);
    // Auto-scaling may multiply the sizes by a power of 10 when the
    // start-up runs' jitter is large (a loaded machine).
    const k = r.sizes[0] / SIZES[0];
    assert.deepEqual(r.sizes, SIZES.map((n) => n * k));
    assert.ok([1, 10, 100, 1000, 10000].includes(k), `scaled by ${k}`);
    const ns = r.speedup.per_size.map((p) => p.n);
    assert.deepEqual(ns, r.sizes.filter((n) => ns.includes(n)), 'per_size in size order');
    // Net of start-up (docs/contract.md): each duration less the floor
    // measured at n = 1; the candidate's net read as at least the jitter.
    const st = r.speedup.startup;
    assert.equal(st.n, 1);
    assert.equal(st.floor_ms, Math.min(st.original_ms, st.candidate_ms));
    assert.ok(st.jitter_ms >= 1);
    assert.match(r.speedup.method, /^net of start-up: /);
    for (const p of r.speedup.per_size) {
      assert.equal(p.before_net_ms, Math.max(p.before_ms - st.floor_ms, 0), JSON.stringify(p));
      assert.equal(p.after_net_ms, Math.max(p.after_ms - st.floor_ms, 0), JSON.stringify(p));
      assert.ok(p.before_net_ms >= 10 * st.jitter_ms, JSON.stringify(p));
      // round(x, 2); an exact tie (17/8) goes to even, as Python's does.
      const want = p.before_net_ms / Math.max(p.after_net_ms, st.jitter_ms);
      assert.ok(Math.abs(p.ratio - want) <= 0.005 + 1e-9, JSON.stringify(p));
      assert.match(String(p.ratio), /^\d+(\.\d{1,2})?$/);
    }
    assertGrade(r, 'cross_checked', new RegExp(
      `^cross-checked: original and candidate independently agreed on 25/25 test input\\(s\\) under python3 execution `
      + `\\(sampled: no n above ${r.sizes[3]} compared\\); `
      + `speed measured at ${String(r.speedup.ratio).replace('.', '\\.')}(\\.0)?x \\(median\\) across ${r.speedup.per_size.length} size\\(s\\)$`));
    // Timed serially: never two runs of this call in flight while timing.
    assert.equal(r.execution.timing.max_in_flight, 1);
    // 6 start-up runs, 3 per size of the original, then 6 per size
    // (the candidate's 3 interleaved with 3 more of the original).
    assert.ok(r.execution.timing.timed_runs >= 6 + 4 * 9, String(r.execution.timing.timed_runs));
  });

  // Accepted on the median with no word that the candidate lost at the
  // largest size: net of start-up, ratios of about 5x, 5x and 0.5x.
  test('a candidate slower at the largest size is accepted with a caution naming it', async () => {
    // Sleeps long against the start-up's jitter, so that even on a loaded
    // machine (jitter up to 100 ms) the sizes are not auto-scaled away
    // from 4: scaling stops once the original's net time reaches twenty
    // jitters (2 s at n = 4 here).
    // Since red team 3 a speedup needs more than half the counted sizes
    // separated (the candidate's median run under the original's fastest):
    // n = 1 must count too, or the 15x at n = 2 and the 0.75x at n = 4 are
    // refused. A size counts when the original's net time reaches 10
    // jitters, 1 s at the 100 ms a load of 20 gives; the net is taken over
    // the candidate's run at n = 1, so the candidate does no work there and
    // the original sleeps 1.5 s (it slept 1 s against the candidate's
    // 0.2 s, 0.7 s net, and the test failed at load 19). Below 1 both do
    // the same (n = 0 is among the compared inputs).
    const original = 'import sys,time\nn=int(sys.stdin.readline())\ntime.sleep(1.5*n)\nprint(n)';
    const candidate = 'import sys,time\nn=int(sys.stdin.readline())\ntime.sleep(8 if n >= 4 else 0.2*(n-1) if n >= 1 else 1.5*n)\nprint(n)';
    const r = await vo({ original, candidate, language: 'python3', test_inputs: ['1', '2'], sizes: [1, 2, 4] });
    assert.equal(r.accepted, true, JSON.stringify(r.speedup));
    assert.deepEqual(r.speedup.slower_at, [4], JSON.stringify(r.speedup));
    assert.equal(r.caution, 'the candidate was slower at n = 4; accepted on the median ratio across sizes, but the '
      + 'largest size is one of them: the speedup may not hold as n grows');
  });

  test('spec example: print(999) is not equivalent; speed is not measured', async () => {
    const r = await vo({ original: LOOP, candidate: 'print(999)', language: 'python3', test_inputs: INPUTS, sizes: SIZES });
    assert.equal(r.ok, true);
    assert.equal(r.accepted, false);
    assert.equal(r.reason, 'not equivalent');
    assert.ok(!('speedup' in r));
    assert.equal(r.detail, "the candidate does not reproduce the original's output; speed was not measured, because a faster wrong answer is not an optimisation");
    assert.equal(r.verification.passed, false);
    assertGrade(r, 'ungraded', 'not graded: not equivalent');
    assert.ok(!r.execution?.timing, 'no timed run was made');
  });

  test('spec example: min_speedup 0 is refused whatever the measured ratio', async () => {
    const r = await vo({ original: LOOP, candidate: FORMULA, language: 'python3', test_inputs: INPUTS, sizes: SIZES, min_speedup: 0 });
    assert.equal(r.accepted, false);
    // TOOLS.md 3.4.5's decision is first-match and "not measurable" comes
    // first: on a loaded CI host (seen: stop 34) no size cleared the
    // start-up jitter and that reason won. Either way the reason is the
    // one the measurement dictates; the order itself is unit-tested.
    assert.equal(r.reason, r.speedup.measurable
      ? 'min_speedup=0 does not demand a speedup (it must be > 1) — refusing to certify a non-improvement'
      : 'equivalent but not measurably faster', JSON.stringify(r.speedup));
    assert.equal(r.min_speedup, 0);
    assertGrade(r, 'ungraded', `not graded: ${r.reason}`);
  });

  test('spec example: the same program (ratio about 1.0) is not accepted', async () => {
    // min_speedup 1.5 rather than 1.15: a load spike between the two
    // programs' timings must not make this test flaky (the exact decision
    // at 1.0 is unit-tested).
    const r = await vo({ original: LOOP, candidate: LOOP, language: 'python3', test_inputs: INPUTS, sizes: SIZES, min_speedup: 1.5 });
    assert.equal(r.verification.passed, true);
    assert.equal(r.accepted, false, JSON.stringify(r.speedup));
    // On a loaded host the jitter at n = 1 can exceed what two seconds of
    // work outweighs: then no size is measurable, also not accepted. And a
    // load spike can make the same program read 1.63x faster (seen at load 8):
    // then its runs overlap the original's, which the overlap rule refuses.
    assert.match(r.reason, /^measured (ratio [0-9.]+x is not a speedup \(> 1x\); equivalent but not faster|[0-9.]+x is below the required 1\.5x)$|^equivalent but not measurably faster$|^measured [0-9.]+x, but the timings overlap: at [1-9]\d* of [1-9]\d* size\(s\) the candidate's (slowest|median) run was not faster than the original's fastest, so the speedup cannot be told from noise on this host; equivalent but not measurably faster$|^measured [0-9.]+x, but the original's own runs vary by [0-9.]+x \(its median run over its fastest, net of start-up; original_spread in per_size, the median across sizes\): the speedup cannot be told from noise on this host; equivalent but not measurably faster$/);
    assert.equal(r.grade, 'ungraded');
  });

  test('spec example: half the work (ratio near 2) with min_speedup 1.15 is accepted', async () => {
    // The same loop over the first half, the second half in closed form:
    // half the iterations of LOOP, each as costly.
    const half = 'import sys\nn=int(sys.stdin.readline())\nh=n//2\ns=0\nfor i in range(h): s+=i\ns += (n*(n-1) - h*(h-1))//2\nprint(s)';
    const args = { original: LOOP, candidate: half, language: 'python3', test_inputs: ['10', '11', '1000', '0', '1'],
      sizes: [1000000, 2000000, 4000000, 8000000] };
    let r = await vo(args);
    // One retry when a measurable answer was refused: a load spike on the
    // candidate's runs reads as no speedup (a fresh-clone CI saw the half
    // loop take as long as the whole one, 197 ms against 200 ms at
    // n = 4*10^6), and under load the original's own runs can spread
    // further than the 2x, which the noise rule refuses.
    if (r.accepted === false && r.speedup?.measurable === true) r = await vo(args);
    assert.equal(r.verification.passed, true, JSON.stringify(r.verification.cases.map((c) => [c.input, c.source.stdout, c.target.stdout])));
    assert.equal(r.accepted, true, JSON.stringify(r.speedup));
    assert.ok(r.speedup.ratio > 1.15 && r.speedup.ratio < 4, `ratio ${r.speedup.ratio}`);
  });

  test('a baseline that fails while timing: "baseline measurement failed", code validation', async () => {
    const orig = 'import sys\nn=int(sys.stdin.readline())\nif n > 2000: sys.exit(3)\nprint(n)';
    // the sizes gate 1 adds stop at 1291 (red team 5): none shows the original failing
    const r = await vo({ original: orig, candidate: 'import sys\nprint(int(sys.stdin.readline()))', language: 'python3',
      test_inputs: ['1', '2', '3', '4', '5', '6', '7'], sizes: [5000] });
    assert.equal(r.ok, false);
    assert.equal(r.code, 'validation');
    assert.match(r.error, /^baseline measurement failed: program failed at n=5000 \(RTE, exit code 3\)/);
    assert.equal(r.verification.passed, true);
    assert.equal(r.grade, 'ungraded');
    assert.equal(r.grade_basis, `not graded: ${r.error}`);
  });

  test('bad input: unknown language, non-integer or too many sizes, non-string inputs', async () => {
    const base = { original: LOOP, candidate: FORMULA, language: 'python3' };
    let r = await vo({ ...base, language: 'klingon' });
    assertInvalid(r, /^language: unknown language 'klingon'/);
    assert.equal(r.grade, 'ungraded');
    assertInvalid(await vo({ ...base, sizes: [1000, 'x'] }), /^sizes\[1\] must be an integer from 1 to 10\^12/);
    assertInvalid(await vo({ ...base, sizes: [1000, 2.5] }), /^sizes\[1\] must be an integer/);
    assertInvalid(await vo({ ...base, sizes: [0] }), /^sizes\[0\] must be an integer from 1/);
    assertInvalid(await vo({ ...base, sizes: [1, 2, 3, 4, 5, 6, 7, 8, 9] }), /^sizes has 9 entries; at most 8 fit the 180 s deadline/);
    assertInvalid(await vo({ ...base, test_inputs: [10] }), /^test_inputs\[0\] is not a string/);
  });
});

describe('verify_optimization under its deadline', { skip: SKIP_NO_BINARY, timeout: 120000 }, () => {
  // The response deadline covers the whole call: a timing run never
  // outlasts it, so a slow baseline ends as "program timed out" (code
  // timeout) before the deadline's -32010.
  let s;
  before(async () => { s = await startServer({ env: { CODECALC_TEST_DEADLINE_MS: '9000' } }); });
  after(async () => { await s?.close(); });

  test('a baseline slower than the time left: timed out at n, code timeout, still answered', async () => {
    const slow = 'import sys, time\nn=int(sys.stdin.readline())\nif n >= 1000: time.sleep(60)\nprint(n)';
    const r = await s.call('verify_optimization', { original: slow, candidate: slow, language: 'python3',
      test_inputs: ['1'], sizes: [1000] }, LONG);
    assert.equal(r.ok, false);
    assert.equal(r.code, 'timeout');
    assert.match(r.error, /^baseline measurement failed: program timed out at n=1000 \(\d+s\)$/);
  });

  test('regression: auto-scaling ran a x10 round past the deadline and the call failed on sizes never asked for', async () => {
    // Under load (or with little time left) the loop's x10 round at
    // n = 2*10^6 timed out: "baseline measurement failed ... at n=4000000".
    // A round that would not fit is not started (the unit test
    // scaled_round_ran_past_the_deadline checks the estimate); whether the
    // first or second x10 is the one refused depends on the host's speed.
    const loop = 'n = int(input())\ns = 0\nfor i in range(n):\n    s += i * i\nprint(s)';
    const r = await s.call('verify_optimization', { original: loop, candidate: loop, language: 'python3',
      test_inputs: ['0', '5'], sizes: [20000, 40000], min_speedup: 1.01 }, LONG);
    assert.equal(r.ok, true, JSON.stringify(r).slice(0, 600));
    assert.equal(r.accepted, false);
    if (r.note !== undefined) {
      assert.match(r.note, /^auto-scaling stopped at these sizes: the next x10 round would take about \d+ s and \d+ s of the call's deadline were left$/);
    }
    assert.ok([20000, 200000, 2000000].includes(r.sizes[0]), JSON.stringify(r.sizes));
  });
});
