// The numeric helpers of the calculator group (TOOLS.md 3.3.3 - 3.3.9).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, RawServer, assertRejected, rawNumber, SKIP_NO_BINARY } from './harness.mjs';

describe('numeric helpers', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });

  // -- 3.3.3 percentage
  test('percentage 3/8', async () => {
    const r = await s.call('percentage', { part: '3', total: '8' });
    assert.equal(r.part, '3');
    assert.equal(r.total, '8');
    assert.equal(r.share, '3/8');
    assert.equal(r.percent, 37.5);
    assert.deepEqual(r.rounding, { percent: 6 });
  });

  test('percentage 1/3 rounds to 6 places; a whole share keeps /1', async () => {
    assert.equal((await s.call('percentage', { part: '1', total: '3' })).percent, 33.333333);
    const r = await s.call('percentage', { part: ' 4 ', total: '2' });
    assert.equal(r.share, '2/1');
    assert.equal(r.percent, 200);
  });

  test('percentage failures', async () => {
    assertRejected(await s.call('percentage', { part: '1', total: '0' }), 'validation', 'total is zero');
    assertRejected(await s.call('percentage', { part: '1+1', total: '2' }), 'validation',
      'part and total must be numbers');
  });

  // -- 3.3.4 calc_stats
  test('calc_stats [1..5]', async () => {
    const r = await s.call('calc_stats', { nums: [1, 2, 3, 4, 5] });
    assert.equal(r.n, 5);
    assert.equal(r.mean, 3);
    assert.equal(r.median, 3);
    assert.equal(r.stdev, 1.5811388300841898);
    assert.equal(r.cv, 0.5270462766947299);
    assert.equal(r.cv_note, 'run-to-run noise swamps the effect (CV > 0.2)');
  });

  test('calc_stats [5,5] and [-1,1]', async () => {
    const a = await s.call('calc_stats', { nums: [5, 5] });
    assert.equal(a.cv, 0);
    assert.equal(a.stdev, 0);
    assert.equal(a.cv_note, 'within noise budget');
    const b = await s.call('calc_stats', { nums: [-1, 1] });
    assert.equal(b.cv, null);
    assert.equal(b.median, 0);
    assert.equal(b.cv_note, 'CV undefined: the mean is 0, so relative variation has no meaning');
  });

  test('calc_stats needs two numbers', async () => {
    assertRejected(await s.call('calc_stats', { nums: [1.0] }), 'validation', 'need at least 2 numbers');
  });

  // -- 3.3.5 percentiles
  test('percentiles of 1..100', async () => {
    const nums = Array.from({ length: 100 }, (_, i) => i + 1);
    const r = await s.call('percentiles', { nums });
    assert.equal(r.n, 100);
    assert.equal(r.warning, null);
    const want = { p50: [50, 50.5], p90: [90, 90.1], p95: [95, 95.05], p99: [99, 99.01] };
    for (const [k, [nr, ip]] of Object.entries(want)) {
      assert.equal(r.percentiles[k].nearest_rank, nr, `${k} nearest_rank`);
      assert.equal(r.percentiles[k].interpolated, ip, `${k} interpolated`);
      assert.deepEqual(r.percentiles[k].rounding, { interpolated: 6 });
    }
  });

  test('percentiles of [3,1,2] sorts and warns', async () => {
    const r = await s.call('percentiles', { nums: [3, 1, 2] });
    const want = { p50: [2, 2], p90: [3, 2.8], p95: [3, 2.9], p99: [3, 2.98] };
    for (const [k, [nr, ip]] of Object.entries(want)) {
      assert.equal(r.percentiles[k].nearest_rank, nr, `${k} nearest_rank`);
      assert.equal(r.percentiles[k].interpolated, ip, `${k} interpolated`);
    }
    assert.equal(r.warning, 'n < 100: p99 is just the maximum wearing a label');
  });

  test('percentiles of [] is validation', async () => {
    assertRejected(await s.call('percentiles', { nums: [] }), 'validation', 'need at least 1 number');
  });

  // -- 3.3.6 collision_probability
  // docs/contract.md: the exact birthday probability, not the spec's
  // 1 - exp(-n^2/2N) (0.6878130956937922 here, off in the 6th digit)
  test('collision_probability(100000, 32)', async () => {
    const r = await s.call('collision_probability', { items: 100000, bits: 32 });
    assert.equal(r.probability, 0.6878122819636975);
    assert.equal(r.percent, 68.781228);
    assert.equal(r.items, 100000);
    assert.equal(r.bits, 32);
    assert.deepEqual(r.rounding, { percent: 6 });
  });

  test('collision_probability(1000000, 64)', async () => {
    const r = await s.call('collision_probability', { items: 1000000, bits: 64 });
    assert.equal(r.probability, 2.7105026839742543e-08);
    assert.equal(r.percent, 3e-06);
  });

  test('collision_probability(1, 64) has no percent', async () => {
    const r = await s.call('collision_probability', { items: 1, bits: 64 });
    assert.equal(r.probability, 0);
    assert.ok(!('percent' in r), 'percent must be absent for n < 2');
  });

  test('collision_probability bits 0 is validation', async () => {
    assertRejected(await s.call('collision_probability', { items: 10, bits: 0 }), 'validation',
      'items >= 0 and bits >= 1');
  });

  // -- 3.3.7 data_sizes
  test('data_sizes 291 MiB', async () => {
    const r = await s.call('data_sizes', { n: 305135616 });
    assert.equal(r.bytes, 305135616);
    assert.equal(r.binary.MiB, 291);
    assert.equal(r.binary.KiB, 297984);
    assert.equal(r.decimal.MB, 305.135616);
    assert.equal(r.decimal.KB, 305135.616);
  });

  test('data_sizes 1536 and -1024', async () => {
    const r = await s.call('data_sizes', { n: 1536 });
    assert.equal(r.binary.KiB, 1.5);
    assert.equal(r.decimal.KB, 1.536);
    assertRejected(await s.call('data_sizes', { n: -1024 }), 'validation',
      'n = -1024 is negative; byte counts are >= 0');
  });

  // -- 3.3.8 human_duration
  test('human_duration 90061', async () => {
    const r = await s.call('human_duration', { seconds: 90061 });
    assert.equal(r.human, '1d 1h 1m 1s');
    assert.equal(r.per_day, 1.042373);
    assert.equal(r.per_30d, 0.034746);
    assert.equal(r.seconds, 90061);
    assert.deepEqual(r.rounding, { per_day: 6, per_30d: 6 });
  });

  test('human_duration sub-second and skipped units', async () => {
    const cases = [[0.5, '500ms'], [1.5, '1s 500ms'], [0.00025, '250us'], [0, '0s'], [3600, '1h 0s']];
    for (const [sec, human] of cases) {
      assert.equal((await s.call('human_duration', { seconds: sec })).human, human, `seconds=${sec}`);
    }
    const z = await s.call('human_duration', { seconds: 0 });
    assert.equal(z.per_day, 0);
    assert.equal(z.per_30d, 0);
  });

  test('human_duration beyond 2^53 is approximate', async () => {
    const r = await s.call('human_duration', { seconds: 1e30 });
    assert.ok(r.human.startsWith('~1.000000e+30s (too large'), r.human);
  });

  test('human_duration negative is validation', async () => {
    assertRejected(await s.call('human_duration', { seconds: -1 }), 'validation', 'negative duration');
  });

  // -- 3.3.9 epoch_time
  test('epoch_time picks the plausible unit', async () => {
    const iso = '2023-11-14T22:13:20+00:00';
    assert.deepEqual((await s.call('epoch_time', { n: '1700000000' })).interpretations, { seconds: iso });
    assert.deepEqual((await s.call('epoch_time', { n: '1700000000000' })).interpretations, { millis: iso });
    assert.deepEqual((await s.call('epoch_time', { n: '1700000000123' })).interpretations,
      { millis: '2023-11-14T22:13:20.123000+00:00' });
    assert.deepEqual((await s.call('epoch_time', { n: ' 1_700_000_000 ' })).interpretations, { seconds: iso });
  });

  test('epoch_time failures', async () => {
    assertRejected(await s.call('epoch_time', { n: '5' }), 'validation', 'no plausible unit found');
    assertRejected(await s.call('epoch_time', { n: '-5' }), 'validation', 'negative epoch');
    assertRejected(await s.call('epoch_time', { n: '12.5' }), 'validation', 'epoch must be an integer');
    assertRejected(await s.call('epoch_time', { n: '1' + '0'.repeat(22) }), 'validation', 'implausibly large epoch');
  });
});

describe('numeric helpers with exact big integers (raw)', { skip: SKIP_NO_BINARY }, () => {
  let r;
  before(async () => { r = new RawServer(); await r.initialize(); });
  after(async () => { await r?.close(); });

  test('epoch_time nanos keeps the input digits', async () => {
    const { sc, text } = await r.callTool('epoch_time', '{"n":"1700000000000000000"}');
    assert.deepEqual(sc.interpretations, { nanos: '2023-11-14T22:13:20+00:00' });
    assert.equal(sc.input, '1700000000000000000');
  });

  test('data_sizes of 2^70 echoes the exact byte count', async () => {
    const { sc, text } = await r.callTool('data_sizes', '{"n":1180591620717411303424}');
    assert.equal(sc.ok, true);
    assert.equal(sc.bytes, '1180591620717411303424');
    assert.equal(sc.binary.TiB, 1073741824);
  });

  // A JSON float from 2^53 on is not the integer written (1e23 was read as
  // 99999999999999991611392); the same integer as a JSON integer is exact.
  test('integer argument as a float past 2^53 is refused, as an integer is exact', async () => {
    let { sc } = await r.callTool('base_repr', '{"n":1e23}');
    assert.equal(sc.ok, false);
    assert.equal(sc.code, 'validation');
    ({ sc } = await r.callTool('base_repr', '{"n":100000000000000000000000}'));
    assert.equal(sc.value, '100000000000000000000000');
    assert.equal(sc.hex, '152d02c7e14af6800000');
    ({ sc } = await r.callTool('bitop', '{"a":9007199254740993.0,"op":"and","b":-1}'));
    assert.equal(sc.ok, false);
  });

  // convert_units computed an integer past 2^63 from its double
  test('convert_units of a big integer is exact', async () => {
    const { sc } = await r.callTool('convert_units',
      '{"value":123456789012345678901234567890,"from_unit":"m","to_unit":"km"}');
    assert.equal(sc.exact, '12345678901234567890123456789/100');
  });

  test('collision_probability with 2^64 items overflows to 1.0', async () => {
    const { sc, text } = await r.callTool('collision_probability', '{"items":18446744073709551616,"bits":64}');
    assert.equal(sc.probability, 1);
    assert.equal(sc.percent, 100);
    assert.equal(sc.items, '18446744073709551616');
  });
});
