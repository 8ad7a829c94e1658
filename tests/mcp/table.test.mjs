// The tool table (protocol/tools/, docs/architecture.md "Adding a tool"):
// argument validation enforces the schemas (TOOLS.md 0.5 and issue 10), the
// tools/list byte budget holds with every group registered (issue 11 item
// 15), and the lists kept by hand elsewhere (this harness, the README, the
// `codecalc tools` command) agree with the table.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  startServer, RawServer, CALCULATOR_TOOLS, SKIP_NO_BINARY, BIN, REPO, registeredTools,
} from './harness.mjs';

const TABLE = join(REPO, 'protocol', 'tools');
const LIST_BUDGET_BYTES = 24 * 1024;

/** Every row of the tool table, parsed. */
function tableRows() {
  const rows = [];
  for (const group of readdirSync(TABLE, { withFileTypes: true })) {
    if (!group.isDirectory()) continue;
    for (const f of readdirSync(join(TABLE, group.name))) {
      if (f.endsWith('.json')) rows.push(JSON.parse(readFileSync(join(TABLE, group.name, f), 'utf8')));
    }
  }
  return rows;
}
const realRows = () => tableRows().filter((r) => !(r.flags ?? []).includes('test_only'));

describe('argument validation enforces the input schema (TOOLS.md 0.5)', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });

  /** The refusal text of a call that must be an MCP tool error. */
  async function refused(name, args) {
    const res = await s.callRaw(name, args);
    assert.equal(res.isError, true, `${name}(${JSON.stringify(args)}) was accepted: ${res.content?.[0]?.text}`);
    assert.equal(res.structuredContent, undefined, 'a schema refusal carries no structuredContent');
    return res.content[0].text;
  }

  test('unknown_argument_is_refused: calc_exact with a key it does not take', async () => {
    const text = await refused('calc_exact', { expr: '1+1', bogus: 'hunter2-secret' });
    assert.match(text, /^invalid arguments for tool 'calc_exact': unknown argument 'bogus'; accepted: expr$/);
    assert.ok(!text.includes('hunter2'), `the value was echoed: ${text}`);
  });

  test('sizes_leniency_refused: verify_optimization sizes "200" and 400.0 are the sizes 200 and 400', async () => {
    // TOOLS.md 0.3 lets a decimal string or an integral real pass for an
    // integer; sizes refused both ("sizes[0] must be an integer").
    const same = 'n = int(input())\nprint(n)';
    const r = await s.call('verify_optimization', { original: same, candidate: same, language: 'python3',
      test_inputs: ['1'], sizes: ['200', 400.0, 800] }, { timeout: 170000 });
    assert.notEqual(r.code, 'validation', JSON.stringify(r));
    const k = r.sizes[0] / 200;
    assert.deepEqual(r.sizes, [200, 400, 800].map((n) => n * k));
  });

  test('an unknown key is refused on every kind of tool (exec, sessions, runs)', async () => {
    for (const [name, args] of [
      ['execute_code', { language: 'python3', code: 'print(1)', timeot: 5 }],
      ['session_list', { verbose: true }],
      ['run_inspect', { run_id: 'x', wait: 1 }],
    ]) {
      const text = await refused(name, args);
      assert.match(text, new RegExp(`^invalid arguments for tool '${name}': unknown argument '`), text);
    }
  });

  test('an enum is enforced, naming the field and the allowed values', async () => {
    const text = await refused('matrix', { rows: [[1, 2], [3, 4]], op: 'cube-secret' });
    assert.match(text, /'op' must be one of det, inverse, eigenvalues, transpose, rank, trace/);
    assert.ok(!text.includes('cube-secret'), text);
  });

  test('a missing required argument and a wrong type are refused, the value redacted', async () => {
    assert.match(await refused('compare_threshold', { a: '1', b: '2' }), /missing required argument 'op'/);
    const text = await refused('truth_table', { expression: { secret: 'x' } });
    assert.match(text, /'expression' must be string \(got \[redacted\] of another type\)/);
    assert.ok(!text.includes('secret'), text);
    assert.match(await refused('calc_stats', { nums: [1, 'two'] }), /'nums\[1\]' must be number/);
  });

  test('the lenient coercion of TOOLS.md 0.3 stays: decimal strings and 8.0 for integers', async () => {
    const r = await s.call('bitop', { a: '5', op: 'shl', b: 1.0, width: '8' });
    assert.equal(r.unsigned, 10);
    assert.equal(r.width, 8);
  });

  test('a domain limit is a normal result, not a schema error', async () => {
    const res = await s.callRaw('calc_stats', { nums: [1] });
    assert.notEqual(res.isError, true);
    assert.equal(res.structuredContent.ok, false);
    assert.equal(res.structuredContent.code, 'validation');
  });
});

describe('codecalc call refuses an unknown argument', { skip: SKIP_NO_BINARY }, () => {
  test('unknown_argument_is_refused_by_the_cli', () => {
    const home = mkdtempSync(join(tmpdir(), 'codecalc-test-'));
    try {
      const r = spawnSync(BIN, ['call', 'calc_exact', '{"expr":"1+1","bogus":1}'], {
        env: { PATH: process.env.PATH, HOME: home, CODECALC_HOME: home }, encoding: 'utf8', timeout: 30000,
      });
      assert.equal(r.status, 1, r.stderr);
      assert.equal(r.stdout.trim(), "invalid arguments for tool 'calc_exact': unknown argument 'bogus'; accepted: expr");
    } finally { rmSync(home, { recursive: true, force: true }); }
  });
});

describe('tools/list size (issue 11 item 15)', { skip: SKIP_NO_BINARY }, () => {
  test(`tools/list with every group registered is at most ${LIST_BUDGET_BYTES} bytes`, async (t) => {
    const r = new RawServer(); // CODECALC_TOOLS unset: every group
    try {
      await r.initialize();
      const msg = await r.request('tools/list', {});
      const names = msg.result.tools.map((x) => x.name).sort();
      assert.deepEqual(names, realRows().map((x) => x.name).sort(), 'every row of the table is listed');
      assert.equal(msg.result.nextCursor, undefined, 'one page');
      const bytes = Buffer.byteLength(msg.__raw);
      t.diagnostic(`tools/list: ${names.length} tools, ${bytes} bytes`);
      assert.ok(bytes <= LIST_BUDGET_BYTES, `tools/list is ${bytes} bytes, over ${LIST_BUDGET_BYTES}`);
    } finally { await r.close(); }
  });
});

describe('lists kept elsewhere agree with the table', () => {
  test('every calculator tool of TOOLS.md (the harness CALCULATOR_TOOLS) is a row of the calculator group', () => {
    const calc = realRows().filter((r) => r.group === 'calculator').map((r) => r.name);
    assert.deepEqual(CALCULATOR_TOOLS.filter((n) => !calc.includes(n)), []);
  });

  test('registeredTools() of the harness is the table: tests that take a group from it see every row', () => {
    const byName = (a) => [...a].sort((x, y) => x.name.localeCompare(y.name));
    assert.deepEqual(byName(registeredTools().map(({ name, group }) => ({ name, group }))),
      byName(realRows().map(({ name, group }) => ({ name, group }))));
  });

  test('the README names only tools of the table, and "not built yet" names none of them', () => {
    // `codecalc tools` is the complete list; the README describes families.
    // What it names must exist, and what it calls unbuilt must not.
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('What it answers'), readme.indexOf('## The two commands'));
    const cut = section.indexOf('Not built yet');
    assert.ok(cut > 0, 'README: no "Not built yet" sentence in the tool section');
    const ticked = (text) => new Set([...text.matchAll(/`([a-z][a-z0-9_]*)`/g)].map((m) => m[1]));
    const listed = ticked(section.slice(0, cut));
    const notBuilt = ticked(section.slice(cut));
    const table = new Set(realRows().map((r) => r.name));
    assert.ok(listed.size >= 30, `README names only ${listed.size} tools`);
    const unknown = [...listed].filter((n) => !table.has(n));
    assert.deepEqual(unknown, [], `README names tools the table does not have: ${unknown.join(', ')}`);
    const stale = [...notBuilt].filter((n) => table.has(n));
    assert.deepEqual(stale, [], `README says these are not built, but the table has them: ${stale.join(', ')}`);
  });

  test('`codecalc tools` prints every row of the table', { skip: SKIP_NO_BINARY }, () => {
    const r = spawnSync(BIN, ['tools'], { env: { PATH: process.env.PATH }, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const printed = r.stdout.trim().split('\n').slice(0, -1).map((l) => l.split(/\s+/)[0]).sort();
    assert.deepEqual(printed, realRows().map((x) => x.name).sort());
  });
});
