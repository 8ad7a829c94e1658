// benchmark (TOOLS.md 3.5.2) through the MCP SDK client: the spec's
// examples, every failure, progress per measured size, CPU time beside wall
// time, and the growth class of programs whose time is set by sleeping (so
// the class does not depend on how busy this machine is; the CPU-bound
// programs are classified by make bench, scripts/bench-analysis).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, assertRejected, SKIP_NO_BINARY } from '../mcp/harness.mjs';

const LONG = { timeout: 300000 };
const CLASSES = ['O(1)', 'O(log n)', 'O(sqrt n)', 'O(n)', 'O(n log n)', 'O(n^2)', 'O(n^2 log n)', 'O(n^3)',
  'O(c^n) (exponential or worse)', 'insufficient data (need >=3 sizes)', 'O(1) (work below noise floor at all sizes)',
  'inconclusive (growth within run-to-run noise)'];

const SUM = 'import sys\nn=int(sys.stdin.readline())\ns=0\nfor i in range(n): s+=i\nprint(s)';

describe('benchmark over MCP', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });
  const bench = (args, opts = LONG) => s.call('benchmark', args, opts);

  test('3.5.2 example: the summing loop at doubling sizes', async () => {
    const r = await bench({ code: SUM, sizes: '5000,10000,20000,40000', timeout: 15 });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.method, 'empirical');
    assert.equal(r.language, 'python3');
    assert.equal(r.runs.length, 4);
    for (let i = 0; i < 4; i++) {
      const run = r.runs[i];
      assert.equal(run.ok, true);
      assert.ok(Number.isInteger(run.duration_ms) && run.duration_ms >= 0);
      assert.equal(run.duration_ms, Math.min(...run.all_runs_ms));
      assert.equal(run.all_runs_cpu_ms.length, run.all_runs_ms.length);
      if (i > 0) assert.equal(run.n, 2 * r.runs[i - 1].n); // auto-scaling keeps the doubling
      assert.equal(run.stdout, `${(run.n * (run.n - 1)) / 2}\n`.slice(0, 200));
    }
    assert.ok(r.doubling_ratios.length <= 3 && r.doubling_ratios.every((x) => x >= 0));
    assert.ok(CLASSES.includes(r.estimate), r.estimate);
    assert.equal(typeof r.auto_scaled, 'boolean');
  });

  test('3.5.2 example: fewer than 3 sizes, and a failing program with 2 sizes', async () => {
    assertRejected(await bench({ code: SUM, sizes: '1,2' }), 'validation', 'need at least 3 sizes for a meaningful fit');
    const r = await bench({ code: 'import sys\nraise SystemExit(1)', sizes: '100,200' });
    assertRejected(r, 'validation', 'need at least 3 sizes for a meaningful fit');
    assert.equal(r.method, undefined);
  });

  test('sizes that are not integers; blank items are ignored', async () => {
    assertRejected(await bench({ code: SUM, sizes: '10,abc,30' }), 'validation', 'sizes must be comma-separated integers');
    assertRejected(await bench({ code: SUM, sizes: '10,,20, ,' }), 'validation', 'need at least 3 sizes for a meaningful fit');
  });

  test('a failed run aborts: program failed at n=<n>, with the run and the runs so far', async () => {
    const code = 'import sys\nn=int(sys.stdin.readline())\nif n > 150: raise SystemExit(3)\nprint(n)';
    const r = await bench({ code, sizes: '100,200,300' });
    assertRejected(r, 'validation', 'program failed at n=200');
    assert.equal(r.method, undefined);
    assert.equal(r.detail.exit_code, 3);
    assert.equal(r.runs.length, 1);
    assert.equal(r.runs[0].n, 100);
  });

  test('a timed-out run aborts with code timeout', async () => {
    const code = 'import time\ntime.sleep(30)';
    const r = await bench({ code, sizes: '1,2,3', timeout: 1 });
    assertRejected(r, 'timeout',
      'program timed out at n=1 (1s); no growth estimate is possible from a timeout');
    assert.equal(r.detail.verdict, 'TLE');
    assert.deepEqual(r.runs, []);
  });

  // The noise-floor arithmetic itself is unit-tested (tests/unit/test_bench_fit.c);
  // here, constant work goes through auto-scaling to an answer of that shape.
  test('constant work: auto-scaling multiplies every size by the same power of 10', async () => {
    const r = await bench({ code: 'print(1)', sizes: '1,2,3' });
    assert.equal(r.ok, true);
    const k = Math.round(Math.log10(r.runs[0].n));
    assert.ok(k >= 0 && k <= 5, JSON.stringify(r.runs));
    assert.deepEqual(r.runs.map((x) => x.n), [1, 2, 3].map((n) => n * 10 ** k));
    assert.equal(r.auto_scaled, k > 0);
    if (r.estimate === 'O(1) (work below noise floor at all sizes)') {
      assert.deepEqual(Object.keys(r).sort(), ['auto_scaled', 'candidate_scores', 'contract_version',
        'doubling_ratios', 'estimate', 'language', 'method', 'ok', 'runs']);
      assert.deepEqual(r.candidate_scores, []);
      assert.deepEqual(r.doubling_ratios, []);
    }
  });

  test('one progress notification per measured size, as it starts, increasing', async () => {
    const seen = [];
    const r = await s.call('benchmark', {
      // a 600 ms spread: growth five times any run-to-run noise under 120 ms, so no auto-scaling
      code: 'import sys,time\nn=int(sys.stdin.readline())\ntime.sleep(n/1000)', sizes: '300,600,900',
    }, { ...LONG, onprogress: (p) => seen.push(p) });
    assert.equal(r.auto_scaled, false, JSON.stringify(r.runs));
    assert.deepEqual(seen.map((p) => p.progress), [1, 2, 3]);
    assert.equal(seen[0].message, 'measuring n=300 (size 1 of 3)');
    assert.equal(seen[2].message, `measuring n=900 (size 3 of 3); n=600 took ${r.runs[1].duration_ms} ms`);
  });

  test('CPU time beside wall time: a sleeping program uses far less CPU than wall', async () => {
    const r = await bench({ code: 'import sys,time\nn=int(sys.stdin.readline())\ntime.sleep(n/1000)', sizes: '200,300,400' });
    const last = r.runs[2];
    assert.ok(last.duration_ms >= 400, JSON.stringify(last));
    assert.ok(last.all_runs_cpu_ms.every((c) => Number.isInteger(c) && c < 300), JSON.stringify(last));
  });

  // quadratic_read_as_constant_under_load: a 70 ms spread passed the spec's 50 ms, so
  // start-up jitter was read as growth (python's O(n^2) at n = 100..800 read O(1), then O(n)).
  // Here n = 200 sleeps 120 ms more, so a larger n (400) is measured faster: that much noise
  // makes the 10-80 ms of growth unreadable, and the sizes are scaled until the growth is.
  // (With 40 ms more, a fresh-clone CI's load slowed n = 400's runs by 20 ms and n = 400
  // was no longer the faster: 109 ms against 105.)
  test('growth within the run-to-run noise is scaled up, not read', async () => {
    const code = 'import sys,time\nn=int(sys.stdin.readline())\ntime.sleep(n/10000 + (0.12 if n == 200 else 0))';
    const r = await bench({ code, sizes: '100,200,400,800' });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.auto_scaled, true, JSON.stringify(r.runs));
    assert.ok([1000, 10000].includes(r.runs[0].n), JSON.stringify(r.runs));
    // linear; under load a late start at the smallest size can read n log n (see 'python3 O(n)' below)
    assert.ok(['O(n)', 'O(n log n)'].includes(r.estimate), JSON.stringify(r));
    assert.ok(Number.isInteger(r.noise_ms) && r.noise_ms * 5 <= r.runs[3].duration_ms - r.runs[0].duration_ms,
      JSON.stringify(r));
  });

  // A timed-out run at sizes the caller never asked for failed the whole call.
  test('auto-scaling that runs out of time keeps the sizes before', async () => {
    const code = 'import sys,time\nn=int(sys.stdin.readline())\ntime.sleep(0 if n < 1000 else 5)';
    const r = await bench({ code, sizes: '100,200,300', timeout: 1 });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.auto_scaled, false);
    assert.deepEqual(r.runs.map((x) => x.n), [100, 200, 300]);
    assert.match(r.note, /auto-scaling stopped at sizes x10 \(program timed out at n=1000 \(1s\); .*\); the estimate rests on the sizes before$/);
  });

  test('an unknown language is refused before anything runs', async () => {
    const r = await bench({ code: SUM, language: 'cobol' });
    assertRejected(r, 'validation', /^unknown language 'cobol'\. Available: /);
  });
});

// Growth classes. Time comes from sleeping, so the classes hold on a busy
// machine; sizes are chosen so that startup jitter of tens of ms cannot
// flip them (docs/analysis.md "Testing benchmark").
describe('benchmark classifies growth', { skip: SKIP_NO_BINARY, concurrency: true }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });

  // It failed once in CI under load. By simulation of the fit, only a late
  // baseline flips it: n = 1 is start-up alone, subtracted from every other
  // size, and three runs there all 60 ms late read O(n log n); a size
  // 400 ms late still reads O(n). The fastest size now has up to 7 runs,
  // the last ones at the end of the round.
  test('python3 O(n) (by the fit: sizes that do not double)', async () => {
    const r = await s.call('benchmark', {
      code: 'import sys,time\nn=int(sys.stdin.readline())\ntime.sleep(n/1000)', sizes: '1,300,1000,3000',
    }, LONG);
    assert.deepEqual(r.doubling_ratios, []);
    assert.deepEqual(r.runs.map((x) => x.all_runs_ms.length), [7, 3, 3, 3], JSON.stringify(r.runs));
    for (const run of r.runs) {
      assert.equal(run.duration_ms, Math.min(...run.all_runs_ms));
      assert.equal(run.all_runs_cpu_ms.length, run.all_runs_ms.length);
    }
    assert.equal(r.estimate, 'O(n)', JSON.stringify(r.candidate_scores.slice(0, 3)));
    assert.equal(r.best_score.class, 'O(n)');
  });

  // It failed once under load (2 ratios of 3) with sizes 100..1600: the
  // baseline was n = 100 itself, and a late start there was subtracted from
  // every other size. Now n = 1 sleeps nothing, so the baseline is start-up
  // alone, and the doubling sizes sleep 65 ms, 262 ms, 1 s and 4.2 s. A
  // start-up delay of 50 ms (on the best of three runs) can move the first
  // ratio out of O(n^2)'s 3.2-5.5; the second stays in 3.4-4.8, the third
  // in 3.8-4.2, and the median of the three is one of those two. The
  // assertion can still fail: growth counted low reads O(n) or O(n log n),
  // counted high O(n^3).
  test('python3 O(n^2) (by the doubling ratios)', async () => {
    const r = await s.call('benchmark', {
      code: 'import sys,time\nn=int(sys.stdin.readline())\ntime.sleep(n*n/1e6)', sizes: '1,256,512,1024,2048',
    }, LONG);
    assert.equal(r.doubling_ratios.length, 3, JSON.stringify(r));
    assert.equal(r.ratio_confidence, 'robust');
    assert.equal(r.estimate, 'O(n^2)', JSON.stringify(r.doubling_ratios));
  });

  test('c O(n log n) (by the fit)', async () => {
    // ln by the atanh series: the C plan links no libm (TOOLS.md 7).
    const code = '#include <stdio.h>\n#include <time.h>\n' +
      'static double ln(double x) { int k = 0; while (x > 2) { x /= 2; k++; }\n' +
      '  double y = (x - 1) / (x + 1), t = y, s = 0; for (int i = 1; i < 99; i += 2) { s += t / i; t *= y * y; }\n' +
      '  return 2 * s + k * 0.6931471805599453; }\n' +
      'int main(void) { long n; if (scanf("%ld", &n) != 1) return 1;\n' +
      '  double ms = n > 1 ? 200.0 * n * ln((double)n) / (10000 * ln(10000.0)) : 0;\n' +
      '  struct timespec t = {(time_t)(ms / 1000), (long)((ms - 1000 * (long)(ms / 1000)) * 1e6)};\n' +
      '  nanosleep(&t, NULL); return 0; }\n';
    const r = await s.call('benchmark', { code, language: 'c', sizes: '1,10000,40000,160000' }, LONG);
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.estimate, 'O(n log n)', JSON.stringify(r.candidate_scores.slice(0, 3)));
  });
});
