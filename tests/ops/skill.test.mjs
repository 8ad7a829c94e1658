// SKILL.md against what the built binary registers: every registered tool
// appears exactly once, under the heading of its group; nothing else is
// named; each example's arguments satisfy the tool's input schema.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Ajv from 'ajv';
import { REPO, SKIP_NO_BINARY, registeredTools, startServer } from '../mcp/harness.mjs';

const HEADING = /^## .*\(group `([a-z_]+)`\)\s*$/;
const ITEM = /^- `([A-Za-z0-9_]+)` — .+ Example: `(\{.*\})`\s*$/;

/** {entries: [{name, group, example}], stray: [lines naming a tool outside the item form]} */
export function parseSkill(text) {
  const entries = [];
  const stray = [];
  let group = null;
  for (const line of text.split('\n')) {
    const h = HEADING.exec(line);
    if (h) { group = h[1]; continue; }
    if (line.startsWith('## ')) group = null;
    const m = ITEM.exec(line);
    if (m) entries.push({ name: m[1], group, example: m[2] });
    else if (/^- `[A-Za-z0-9_]+` —/.test(line)) stray.push(line);
  }
  return { entries, stray };
}

/** Problems of the parsed file against the registered tools. */
function problems(parsed, registered) {
  const out = [];
  const byName = new Map(registered.map((t) => [t.name, t]));
  const seen = new Map();
  for (const e of parsed.entries) {
    seen.set(e.name, (seen.get(e.name) ?? 0) + 1);
    const t = byName.get(e.name);
    if (!t) out.push(`names a tool that is not registered: ${e.name}`);
    else if (t.group !== e.group) out.push(`${e.name} is under group ${e.group}, registered in ${t.group}`);
  }
  for (const t of registered) if (!seen.has(t.name)) out.push(`omits registered tool ${t.name}`);
  for (const [n, c] of seen) if (c > 1) out.push(`${n} appears ${c} times`);
  for (const s of parsed.stray) out.push(`malformed entry: ${s}`);
  return out;
}


describe('SKILL.md', { skip: SKIP_NO_BINARY }, () => {
  const text = readFileSync(join(REPO, 'SKILL.md'), 'utf8');
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });

  test('names every registered tool once, under its group, and nothing else', () => {
    const registered = registeredTools();
    assert.ok(registered.length >= 40, `tools --json lists ${registered.length} tools`);
    assert.deepEqual(problems(parseSkill(text), registered), []);
  });

  test('its tool lines are what scripts/gen-skill makes of the table (make skill)', () => {
    const r = spawnSync(join(REPO, 'scripts', 'gen-skill'), ['--check', REPO], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  test('gen-skill --check fails on a stale line and on a row outside every region', () => {
    const dir = mkdtempSync(join(tmpdir(), 'codecalc-skill-'));
    try {
      cpSync(join(REPO, 'protocol', 'tools'), join(dir, 'protocol', 'tools'), { recursive: true });
      const stale = text.replace(/^- `data_sizes` — .*$/m, '- `data_sizes` — something else. Example: `{}`');
      writeFileSync(join(dir, 'SKILL.md'), stale);
      let r = spawnSync(join(REPO, 'scripts', 'gen-skill'), ['--check', dir], { encoding: 'utf8' });
      assert.equal(r.status, 1);
      assert.match(r.stderr, /SKILL\.md: not what the tool table makes of it; run `make skill`/);
      writeFileSync(join(dir, 'SKILL.md'), text.replace('<!-- tools: admin -->', '<!-- tools: nogroup -->'));
      r = spawnSync(join(REPO, 'scripts', 'gen-skill'), ['--check', dir], { encoding: 'utf8' });
      assert.equal(r.status, 1);
      assert.match(r.stderr, /SKILL\.md: install_package \(admin, pool local\) is in no tools region/);
    } finally { rmSync(dir, { recursive: true, force: true }); }
  });

  test('the check fails on an unregistered name, an omission and a wrong group', () => {
    const registered = registeredTools();
    const extra = `${text}\n## Calculator (group \`calculator\`)\n- \`not_a_tool\` — nothing. Example: \`{}\`\n`;
    assert.ok(problems(parseSkill(extra), registered).includes('names a tool that is not registered: not_a_tool'));
    const omitted = text.split('\n').filter((l) => !l.startsWith('- `calc_exact`')).join('\n');
    assert.ok(problems(parseSkill(omitted), registered).includes('omits registered tool calc_exact'));
    const moved = text.replace('## Verification (group `verification`)', '## Verification (group `calculator`)');
    assert.ok(problems(parseSkill(moved), registered).some((p) => p.startsWith('z3_check is under group calculator')));
  });

  test('every example is valid JSON that satisfies the tool input schema', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    for (const e of parseSkill(text).entries) {
      const args = JSON.parse(e.example);
      const tool = s.tools.get(e.name);
      assert.ok(tool, `${e.name} listed by tools/list`);
      const validate = ajv.compile(tool.inputSchema);
      assert.ok(validate(args), `${e.name} example ${e.example}: ${JSON.stringify(validate.errors)}`);
    }
  });

  test('a stateless example really answers (calc_exact as written in SKILL.md)', async () => {
    const e = parseSkill(text).entries.find((x) => x.name === 'calc_exact');
    const r = await s.call('calc_exact', JSON.parse(e.example));
    assert.equal(r.ok, true);
    assert.equal(r.value, true);
  });
});
