// Units, constants and truth tables (TOOLS.md 3.3.19 - 3.3.21, 3.3.23).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, assertRejected, SKIP_NO_BINARY } from './harness.mjs';

describe('units and constants', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });

  // -- 3.3.19 convert_units
  test('60 mph in km/h', async () => {
    const r = await s.call('convert_units', { value: 60, from_unit: 'mph', to_unit: 'km/h' });
    assert.equal(r.value, 96.56064);
    assert.equal(r.unit, 'km/h');
    assert.equal(r.from, '60.0 mph');
  });

  test('temperature, bytes and pressure', async () => {
    const cases = [
      [100, 'celsius', 'fahrenheit', 212], [1, 'GB', 'MiB', 953.67431640625], [1, 'psi', 'kPa', 6.894757293168361],
      [0, 'K', 'celsius', -273.15], [32, '°F', 'degC', 0], [1, 'Mile', 'ft', 5280],
      [1, 'nm', 'm', 1e-9], [1, 'mW', 'W', 0.001], [1, 'MW', 'W', 1e6],
    ];
    for (const [value, from_unit, to_unit, want] of cases) {
      const r = await s.call('convert_units', { value, from_unit, to_unit });
      assert.equal(r.value, want, `${value} ${from_unit} -> ${to_unit}`);
    }
  });

  test('the unit echo is trimmed but keeps its case; a numeric string is a value', async () => {
    const r = await s.call('convert_units', { value: '2.5', from_unit: ' KM ', to_unit: ' M ' });
    assert.equal(r.value, 2500);
    assert.equal(r.unit, 'M');
    assert.equal(r.from, '2.5 KM');
    assert.deepEqual(r.interpreted_as, { from_unit: 'km', to_unit: 'm' });
    assert.equal(r.exact, '2500');
  });

  test('convert_units failures', async () => {
    assertRejected(await s.call('convert_units', { value: 1, from_unit: 'mw', to_unit: 'W' }), 'validation',
      /^ambiguous unit 'mw': it matches mW, MW/);
    assertRejected(await s.call('convert_units', { value: 1, from_unit: 'k', to_unit: 'm' }), 'validation',
      'cannot mix temperature and non-temperature units');
    // "c" is the speed of light, not celsius
    assertRejected(await s.call('convert_units', { value: 1, from_unit: 'k', to_unit: 'c' }), 'validation',
      'cannot mix temperature and non-temperature units');
    assertRejected(await s.call('convert_units', { value: 'abc', from_unit: 'm', to_unit: 'km' }), 'validation',
      /^value must be numeric/);
    assertRejected(await s.call('convert_units', { value: 1, from_unit: 'zzz', to_unit: 'm' }), 'validation',
      /^unknown unit 'zzz'\. Known: B, BTU, GB, GHz, /);
    assertRejected(await s.call('convert_units', { value: 1, from_unit: 'm', to_unit: 'kg' }), 'validation',
      /^conversion failed: incompatible dimensions/);
  });

  // -- 3.3.20 physical_constants
  test('c resolves to the speed of light', async () => {
    const r = await s.call('physical_constants', { name: 'c' });
    assert.equal(r.name, 'speed_of_light');
    assert.equal(r.value, 299792458);
    assert.equal(r.description, 'c = 299792458 m/s');
    assert.equal(r.symbol, 'speed_of_light');
    assert.equal(r.source, 'table (CODATA 2018)');
    assert.equal(r.resolved_from, 'c');
  });

  test('G and g are case-sensitive; K is boltzmann', async () => {
    const G = await s.call('physical_constants', { name: 'G' });
    assert.equal(G.name, 'gravitational_constant');
    assert.equal(G.value, 6.6743e-11);
    assert.equal(G.resolved_from, 'G');
    const g = await s.call('physical_constants', { name: 'g' });
    assert.equal(g.name, 'gravity');
    assert.equal(g.value, 9.80665);
    const k = await s.call('physical_constants', { name: 'K' });
    assert.equal(k.name, 'boltzmann');
    assert.equal(k.value, 1.380649e-23);
    assert.equal(k.resolved_from, 'K');
  });

  test('a key by its own name has no resolved_from', async () => {
    const r = await s.call('physical_constants', { name: 'planck' });
    assert.equal(r.value, 6.62607015e-34);
    assert.ok(!('resolved_from' in r));
  });

  test('an unknown constant suggests keys', async () => {
    const r = await s.call('physical_constants', { name: 'light' });
    assertRejected(r, 'validation', "unknown constant 'light'");
    assert.deepEqual(r.suggestions, ['speed_of_light', 'lightyear']);
  });

  test('null lists the 22 constants sorted with descriptions', async () => {
    const r = await s.call('physical_constants', { name: null });
    assert.equal(r.constants.length, 22);
    const names = r.constants.map((c) => c.name);
    assert.deepEqual(names, [...names].sort());
    assert.equal(names[0], 'astronomical_unit');
    assert.equal(names[21], 'wien');
    assert.equal(r.constants.find((c) => c.name === 'speed_of_light').value, 'c = 299792458 m/s');
    const empty = await s.call('physical_constants', {});
    assert.equal(empty.constants.length, 22);
  });

  // -- 3.3.21 list_units
  test('list_units lists the case-sensitive spellings, sorted', async () => {
    const r = await s.call('list_units', {});
    assert.equal(r.count, r.units.length);
    assert.ok(r.units.length > 150);
    assert.deepEqual(r.units.slice(0, 5), ['B', 'BTU', 'C', 'F', 'GB']);
    for (const u of ['km/h', 'm/s', 'kwh_', 'celsius', 'psi', 'mW', 'MW', 'kWh', 'eV']) assert.ok(r.units.includes(u), u);
    // code-point order, no duplicates
    const sorted = [...r.units].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    assert.deepEqual(r.units, sorted);
    assert.equal(new Set(r.units).size, r.units.length);
  });
});

describe('truth_table', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });

  const T = true, F = false;

  test('a and b or not c', async () => {
    const r = await s.call('truth_table', { expression: 'a and b or not c' });
    assert.equal(r.expression, 'a and b or not c');
    assert.deepEqual(r.variables, ['a', 'b', 'c']);
    assert.equal(r.row_count, 8);
    assert.equal(r.rows.filter((x) => x.result).length, 5);
    assert.equal(r.satisfiable, true);
    assert.equal(r.tautology, false);
    assert.deepEqual(r.rows[0], { a: F, b: F, c: F, result: T });
    assert.deepEqual(r.rows[1], { a: F, b: F, c: T, result: F });
    assert.deepEqual(r.rows[7], { a: T, b: T, c: T, result: T });
  });

  test('p xor q', async () => {
    const r = await s.call('truth_table', { expression: 'p xor q' });
    assert.deepEqual(r.rows, [
      { p: F, q: F, result: F }, { p: F, q: T, result: T }, { p: T, q: F, result: T }, { p: T, q: T, result: F },
    ]);
  });

  test('implies is right-associative', async () => {
    const a = await s.call('truth_table', { expression: 'a implies b' });
    assert.deepEqual(a.rows.map((x) => x.result), [T, T, F, T]);
    const b = await s.call('truth_table', { expression: 'a implies b implies a' });
    assert.equal(b.tautology, true);
    // left-associative would give (a -> b) -> a, false at a=F,b=F
    const c = await s.call('truth_table', { expression: '(a implies b) implies a' });
    assert.equal(c.tautology, false);
  });

  test('no variables is one row; identifiers are lower-cased', async () => {
    const r = await s.call('truth_table', { expression: 'true and not false' });
    assert.deepEqual(r.variables, []);
    assert.equal(r.row_count, 1);
    assert.deepEqual(r.rows, [{ result: T }]);
    assert.equal(r.tautology, true);
    const u = await s.call('truth_table', { expression: 'A and not a' });
    assert.deepEqual(u.variables, ['a']);
    assert.equal(u.satisfiable, false);
  });

  test('truth_table with 16 variables pages its rows under the size bound (issue 11 item 7)', async () => {
    const vars = Array.from({ length: 16 }, (_, i) => `v${i}`);
    const expression = vars.join(' and ');
    let cursor, rows = 0, trues = 0, pages = 0, biggest = 0;
    do {
      const raw = await s.client.callTool({ name: 'truth_table', arguments: { expression, ...(cursor ? { cursor } : {}) } });
      biggest = Math.max(biggest, JSON.stringify(raw).length);
      const r = raw.structuredContent;
      assert.equal(r.row_count, 65536);
      assert.equal(r.satisfiable, true);
      assert.equal(r.tautology, false);
      assert.ok(r.rows.length > 0);
      if (pages === 0) assert.deepEqual(r.rows[0], { ...Object.fromEntries(vars.map((v) => [v, F])), result: F });
      rows += r.rows.length;
      trues += r.rows.filter((x) => x.result).length;
      cursor = r.next_cursor;
      pages++;
    } while (cursor);
    assert.equal(rows, 65536);
    assert.equal(trues, 1);
    assert.ok(pages > 1);
    assert.ok(biggest < 1024 * 1024, `a page of ${biggest} bytes`);
    assertRejected(await s.call('truth_table', { expression: 'a', cursor: '2' }), 'validation', /cursor 2 is past/);
    assertRejected(await s.call('truth_table', { expression: 'a', cursor: 'x' }), 'validation', /cursor must be/);
    const small = await s.call('truth_table', { expression: 'a or b' });
    assert.equal(small.next_cursor, null);
  });

  test('truth_table failures', async () => {
    assertRejected(await s.call('truth_table', { expression: 'A &&& B' }), 'validation',
      "parse error: unexpected character '&' at position 2");
    assertRejected(await s.call('truth_table', { expression: '' }), 'validation', 'parse error: empty expression');
    assertRejected(await s.call('truth_table', { expression: '(a and b' }), 'validation', /^parse error: /);
    assertRejected(await s.call('truth_table', { expression: '('.repeat(101) + 'a' + ')'.repeat(101) }),
      'resource_exhausted', 'parse error: expression nesting too deep (max 100)');
    const vars = Array.from({ length: 17 }, (_, i) => `v${i}`).join(' or ');
    assertRejected(await s.call('truth_table', { expression: vars }), 'resource_exhausted',
      'too many variables (17 > 16); table would have 2^17 rows');
    assertRejected(await s.call('truth_table', { expression: 'a or '.repeat(400) + 'a' }), 'resource_exhausted',
      'expression too long (max 2000 chars)');
  });
});
