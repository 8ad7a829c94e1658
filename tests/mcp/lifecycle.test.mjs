// MCP lifecycle through the SDK client: identity, negotiation, ping, the
// calculator tool list and its schemas (TOOLS.md 0.1, 0.4, 0.5, 1.1).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  startServer, RawServer, CALCULATOR_TOOLS, CLOSED_CODES, CONTRACT_VERSION, SKIP_NO_BINARY, toolsOfGroup,
  schemaErrors, BIN, REPO,
} from './harness.mjs';

const escapeRe = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// A knob set to a value it does not take: `tools` and `doctor` (every
// command) exit 2 before doing anything, with one line naming the knob,
// the value and rule (a regular expression).
function assertKnobRefused(name, value, rule) {
  for (const args of [['tools'], ['doctor', '--json']]) {
    const r = spawnSync(BIN, args, { env: { PATH: process.env.PATH, [name]: value }, encoding: 'utf8', timeout: 10000 });
    assert.equal(r.status, 2, `${name}=${value} ${args[0]}`);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, new RegExp(`^codecalc: ${name}="${escapeRe(value)}" is not ${rule} ` +
      '\\(docs/configuration\\.md\\); unset it for the default\n$'));
  }
}

// `codecalc tools` runs with each of these environments.
function assertKnobsTaken(envs) {
  for (const env of envs) {
    const ok = spawnSync(BIN, ['tools'], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', timeout: 10000 });
    assert.equal(ok.status, 0, JSON.stringify(env) + ok.stderr);
  }
}

describe('lifecycle (SDK client)', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });

  test('serverInfo names codecalc and carries a version', () => {
    const info = s.client.getServerVersion();
    assert.equal(info.name, 'codecalc');
    assert.equal(typeof info.version, 'string');
    assert.match(info.version, /^\d+\.\d+\.\d+/);
  });

  test('negotiates a protocol revision the SDK accepts', () => {
    // The SDK asks for its latest revision and throws during connect() on an
    // answer it does not support; the harness recorded the answer.
    assert.ok(['2025-11-25', '2025-06-18'].includes(s.protocolVersion), `negotiated ${s.protocolVersion}`);
  });

  test('instructions summarise the calculator and the sandbox tier', () => {
    const text = s.client.getInstructions();
    assert.equal(typeof text, 'string');
    assert.ok(text.trim().length > 40, `instructions too short: ${text}`);
    assert.match(text, /calculator/i);
    assert.match(text, /CODECALC_REQUIRE_NATIVE/);
  });

  test('ping answers with an empty result', async () => {
    const r = await s.client.ping();
    assert.deepEqual(Object.keys(r).filter((k) => k !== '_meta'), []);
  });

  test('tools/list holds every calculator tool with both schemas', () => {
    const calculator = toolsOfGroup('calculator');
    const missing = [...CALCULATOR_TOOLS, ...calculator].filter((n) => !s.tools.has(n));
    assert.deepEqual(missing, [], `calculator tools missing from tools/list: ${missing.join(', ')}`);
    // (missing ones are reported above; check the schemas of the rest)
    for (const name of calculator.filter((n) => s.tools.has(n))) {
      const t = s.tools.get(name);
      assert.equal(typeof t.description, 'string', `${name}: description`);
      assert.ok(t.description.length > 10, `${name}: description too short`);
      assert.equal(t.inputSchema?.type, 'object', `${name}: inputSchema.type`);
      assert.equal(typeof t.inputSchema.properties, 'object', `${name}: inputSchema.properties`);
      for (const [p, def] of Object.entries(t.inputSchema.properties)) {
        assert.ok(def.type !== undefined || def.anyOf || def.oneOf, `${name}.${p}: no type`);
        assert.equal(typeof def.description, 'string', `${name}.${p}: no description`);
      }
      assert.equal(t.outputSchema?.type, 'object', `${name}: outputSchema.type`);
    }
  });

  test('required inputs match the spec for a few tools', () => {
    const req = (n) => {
      assert.ok(s.tools.has(n), `missing tool ${n}`);
      return [...(s.tools.get(n).inputSchema.required ?? [])].sort();
    };
    assert.deepEqual(req('calc_exact'), ['expr']);
    assert.deepEqual(req('compare_threshold'), ['a', 'b', 'op']);
    assert.deepEqual(req('bitop'), ['a', 'op']);
    assert.deepEqual(req('list_units'), []);
    assert.deepEqual(req('convert_units'), ['from_unit', 'to_unit', 'value']);
  });

  test('defaults are the handlers\', said in the listed descriptions (no listed default keyword)', async () => {
    // The listing drops `default` (the validator never used it; tools/list
    // has a byte budget): the description says it, the handler applies it.
    for (const [name, t] of s.tools) {
      for (const [p, def] of Object.entries(t.inputSchema.properties ?? {})) {
        assert.equal(def.default, undefined, `${name}.${p} lists a default`);
      }
    }
    assert.match(s.tools.get('bitop').inputSchema.properties.width.description, /default 64/);
    assert.match(s.tools.get('radix_convert').inputSchema.properties.from_base.description, /default 10/);
    const not = await s.call('bitop', { a: 0, op: 'not' });
    assert.equal(String(not.unsigned), '18446744073709551615');
    const dec = await s.call('radix_convert', { value: 'ff', from_base: 16 });
    assert.equal(dec.value, '255');
  });

  test('every calculator outputSchema accepts the rejected shape', () => {
    const rejected = {
      ok: false, code: 'validation', error: 'x', remedy: 'y', contract_version: CONTRACT_VERSION,
    };
    for (const name of toolsOfGroup('calculator').filter((n) => s.tools.has(n))) {
      const t = s.tools.get(name);
      assert.equal(schemaErrors(t.outputSchema, rejected), null, `${name} rejects the rejected shape`);
      // and something that is not an object at all must fail: the schema is not vacuous
      assert.notEqual(schemaErrors(t.outputSchema, 42), null, `${name}: schema accepts a number`);
    }
  });

  test('a tool result validated by the SDK carries contract_version', async () => {
    const r = await s.call('calc_exact', { expr: '1+1' });
    assert.equal(r.contract_version, CONTRACT_VERSION);
    assert.equal(r.value, '2');
  });

  test('a domain failure is an ordinary result that validates too', async () => {
    const r = await s.call('calc_exact', { expr: '1/0' });
    assert.equal(r.ok, false);
    assert.ok(CLOSED_CODES.includes(r.code));
  });
});

describe('protocol version negotiation (raw)', { skip: SKIP_NO_BINARY }, () => {
  test('2025-06-18 is echoed back', async () => {
    const r = new RawServer();
    try {
      const res = await r.initialize('2025-06-18');
      assert.equal(res.protocolVersion, '2025-06-18');
      assert.equal(res.serverInfo.name, 'codecalc');
      assert.ok(res.capabilities.tools, 'tools capability');
    } finally { await r.close(); }
  });

  test('2025-11-25 is echoed back', async () => {
    const r = new RawServer();
    try {
      const res = await r.initialize('2025-11-25');
      assert.equal(res.protocolVersion, '2025-11-25');
    } finally { await r.close(); }
  });

  test('an unknown revision gets a version the server supports', async () => {
    const r = new RawServer();
    try {
      const res = await r.initialize('1999-01-01');
      assert.notEqual(res.protocolVersion, '1999-01-01');
      assert.match(res.protocolVersion, /^\d{4}-\d{2}-\d{2}$/);
    } finally { await r.close(); }
  });
});

describe('CODECALC_TOOLS (TOOLS.md 0.4)', { skip: SKIP_NO_BINARY }, () => {
  test('core registers exactly the calculator group', async () => {
    const s = await startServer({ env: { CODECALC_TOOLS: ' core ,' } });
    try {
      const names = [...s.tools.keys()].sort();
      assert.deepEqual(names, toolsOfGroup('calculator').sort());
      assert.deepEqual(CALCULATOR_TOOLS.filter((n) => !names.includes(n)), [], 'TOOLS.md 0.4 calculator tools');
      // a tool of an inactive group is unknown
      let failed = false;
      try {
        const r = await s.client.callTool({ name: 'execute_code', arguments: { language: 'python3', code: 'print(1)' } });
        failed = r.isError === true;
      } catch { failed = true; }
      assert.ok(failed, 'execute_code must be unknown under core');
    } finally { await s.close(); }
  });

  test('instructions_name_unregistered_tools: the headline tools named are the registered ones', async () => {
    // The text was fixed: under core it sent the model to execute_code,
    // list_languages and z3_check, which answer "Unknown tool" there, and it
    // never named analyze_complexity, benchmark or compare_execution (0.1).
    const headline = ['list_languages', 'execute_code', 'calc_exact', 'evaluate_expression', 'truth_table',
      'z3_check', 'solve_linear', 'analyze_complexity', 'benchmark', 'compare_execution', 'bitop', 'float_repr'];
    for (const tools of ['core', 'full']) {
      const s = await startServer({ env: { CODECALC_TOOLS: tools } });
      try {
        const text = s.client.getInstructions();
        const named = headline.filter((n) => new RegExp(`\\b${n}\\b`).test(text));
        assert.deepEqual(named, headline.filter((n) => s.tools.has(n)), `${tools}: ${text}`);
        assert.match(text, /CODECALC_REQUIRE_NATIVE/);
      } finally { await s.close(); }
    }
  });

  test('an unknown group is a fatal startup error naming it', () => {
    const r = spawnSync(BIN, [], {
      env: { PATH: process.env.PATH, CODECALC_TOOLS: 'calculator,bogusgroup', HOME: '/nonexistent' },
      input: '', timeout: 10000, encoding: 'utf8',
    });
    assert.notEqual(r.status, 0, 'server must refuse to start');
    assert.match(r.stderr, /bogusgroup/);
    assert.match(r.stderr, /calculator/);
  });
});

describe('one-shot calls and configuration (issue 11 item 14)', { skip: SKIP_NO_BINARY }, () => {
  test('codecalc call beside a running server: execute_code runs, state-directory calls are refused by the lock', async () => {
    const s = await startServer();
    try {
      const env = { PATH: process.env.PATH, HOME: s.home, CODECALC_HOME: s.home };
      const run = spawnSync(BIN, ['call', 'execute_code', '{"language":"bash","code":"echo beside"}'],
        { env, timeout: 60000, encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      assert.equal(JSON.parse(run.stdout).stdout, 'beside\n');
      const calc = spawnSync(BIN, ['call', 'calc_exact', '{"expr":"6*7"}'], { env, timeout: 30000, encoding: 'utf8' });
      assert.equal(JSON.parse(calc.stdout).value, '42');
      for (const [tool, args] of [['session_start', '{"language":"bash"}'],
        ['execute_code', '{"language":"bash","code":"echo x","session_id":"bash-00000000"}']]) {
        const r = spawnSync(BIN, ['call', tool, args], { env, timeout: 30000, encoding: 'utf8' });
        assert.equal(r.status, 2, `${tool}: ${r.stdout}`);
        assert.match(r.stderr, /another codecalc server \(pid \d+\) is already using the state directory/);
      }
    } finally { await s.close(); }
  });

  test('an invalid CODECALC_LOG is refused; --help lists the values configuration.md lists', () => {
    const bad = spawnSync(BIN, ['tools'], { env: { PATH: process.env.PATH, CODECALC_LOG: 'verbose' }, encoding: 'utf8', timeout: 10000 });
    assert.equal(bad.status, 2);
    assert.equal(bad.stderr, 'codecalc: CODECALC_LOG="verbose" is not one of debug, info, warning, error ' +
      '(docs/configuration.md); unset it for the default\n');
    const ok = spawnSync(BIN, ['tools'], { env: { PATH: process.env.PATH, CODECALC_LOG: 'warning' }, encoding: 'utf8', timeout: 10000 });
    assert.equal(ok.status, 0);
    const help = spawnSync(BIN, ['--help'], { encoding: 'utf8', timeout: 10000 }).stdout;
    assert.match(help, /CODECALC_LOG \(debug\|info\|warning\|error, default warning/);
    const doc = readFileSync(join(REPO, 'docs', 'configuration.md'), 'utf8');
    assert.match(doc, /\| `CODECALC_LOG` \| `warning` \| start \| `debug`, `info`, `warning` or `error`/);
  });

  // Seven readers had seven rules ("5abc" was 5 for stdio's message cap,
  // "-5" a huge REPL memory ceiling, "0" no HTTP timeout at all): every
  // numeric knob now has one, and a value it does not take stops codecalc.
  test('a numeric knob set to a value it does not take is refused at start, naming its range', () => {
    const cases = [
      ['CODECALC_MAX_MESSAGE_BYTES', '5abc', 'a whole number from 1 to 4294967296'],
      ['CODECALC_REPL_MEMORY_MB', '-5', 'a whole number from 1 to 1048576'],
      ['CODECALC_HTTP_TIMEOUT_MS', '0', 'a whole number from 1 to 3600000'],
      ['CODECALC_RUN_DISK_MB', '5', 'a whole number from 16 to 1048576'],
      ['CODECALC_SESSION_DISK_QUOTA_MB', ' 5', 'a number above 0 \\(decimals allowed\\) up to 1000000000000'],
      ['CODECALC_MAX_EXEC_WORKERS', '1e3', 'a whole number from 1 to 1000000'],
    ];
    for (const [name, value, rule] of cases) assertKnobRefused(name, value, rule);
    // in range, and empty (the default): the command runs
    assertKnobsTaken([{ CODECALC_RUN_DISK_MB: '16' }, { CODECALC_SESSION_DISK_QUOTA_MB: '0.5' }, { CODECALC_HTTP_TIMEOUT_MS: '' }]);
    // every knob protocol/knob.c reads has a row in configuration.md's table of ranges
    const table = readFileSync(join(REPO, 'protocol', 'knob.c'), 'utf8');
    const names = [...table.matchAll(/\{"(CODECALC_[A-Z_]+)"/g)].map((m) => m[1]);
    assert.ok(names.length >= 30, names.join());
    const doc = readFileSync(join(REPO, 'docs', 'configuration.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Numbers'), doc.indexOf('## State and tools'));
    for (const n of names) assert.match(section, new RegExp(`\\| \`${n}\` \\| [^|]+ \\| [^|]*[0-9][^|]* \\|\n`), n);
  });

  // Ten readers had six rules (CODECALC_ALLOW_GLOBAL_INSTALL took "1" only,
  // CODECALC_REQUIRE_NATIVE "false" was on, CODECALC_EXEC_TIMINGS "0" was
  // on): every on/off knob now takes the same eight words in any case, and
  // anything else stops codecalc.
  test('an on/off knob set to a value it does not take is refused at start, naming the words', () => {
    const rule = 'one of 1, true, yes, on, 0, false, no, off \\(any case, no spaces\\)';
    const cases = [['CODECALC_ALLOW_GLOBAL_INSTALL', 'nope'], ['CODECALC_ALLOW_RUNTIME_APPLY', ' Yes '],
      ['CODECALC_REQUIRE_NATIVE', '2'], ['CODECALC_TEST_OPS', 'yes '], ['CODECALC_EXEC_TIMINGS', 'enabled']];
    for (const [name, value] of cases) assertKnobRefused(name, value, rule);
    // the words, in any case, and empty (the default): the command runs
    assertKnobsTaken([{ CODECALC_TEST_OPS: 'TRUE' }, { CODECALC_EXEC_TIMINGS: 'Off' }, { CODECALC_ALLOW_GLOBAL_INSTALL: '' },
      { CODECALC_SYMBOLIC_FASTPATH: 'no' }]);
    // CODECALC_TEST_OPS "TRUE" offers the test tools (it took "1" only)
    const listed = spawnSync(BIN, ['tools'], { env: { PATH: process.env.PATH, CODECALC_TEST_OPS: 'TRUE' }, encoding: 'utf8', timeout: 10000 });
    assert.match(listed.stdout, /__test_sleep/);
    // every knob protocol/flag.c reads has a row in configuration.md's on/off table
    const table = readFileSync(join(REPO, 'protocol', 'flag.c'), 'utf8');
    const names = [...table.matchAll(/\{"(CODECALC_[A-Z_]+)"/g)].map((m) => m[1]);
    assert.ok(names.length >= 10, names.join());
    const doc = readFileSync(join(REPO, 'docs', 'configuration.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## On/off'), doc.indexOf('## State and tools'));
    for (const n of names) assert.match(section, new RegExp(`\\| \`${n}\` \\| (on|off) \\| [^|]+ \\|\n`), n);
  });

  // Each text knob had a reader of its own, and a value it could not use
  // was quietly something else (a relative CODECALC_CGROUP our own cgroup,
  // "deny-netwrok" no policy at all, "lcoal" a server failing every run):
  // every text knob now has its rule in one table, and a value the rule
  // does not take stops codecalc.
  test('a text knob set to a value its rule does not take is refused at start, naming the rule', () => {
    const cases = [
      ['CODECALC_CGROUP', 'codecalc.slice', 'an absolute path'],
      ['CODECALC_SESSION_ROOT', 'sessions', 'an absolute path'],
      ['CODECALC_HOME', 'state', 'an absolute path'],
      ['CODECALC_CAPABILITY_POLICY', 'deny-netwrok', 'comma-separated directives deny-network, no-network, ' +
        'default-deny-network, allow-network, grant-network, strict \\(any case, spaces around them ignored\\)'],
      ['CODECALC_EXECUTION_PROVIDER', 'lcoal', 'local \\(the one provider of this build\\)'],
      ['CODECALC_ADVERTISE_URL', '10.0.0.2:8000/mcp', 'an http:// or https:// URL'],
      ['CODECALC_PIP_INDEX_URL', 'pypi.org/simple', 'none, or a URL \\(scheme://\\.\\.\\.\\)'],
      ['CODECALC_VALIDATE_PYTHON', 'python3', "an absolute path without a ' in it"],
    ];
    for (const [name, value, rule] of cases) assertKnobRefused(name, value, rule);
    assertKnobsTaken([{ CODECALC_CAPABILITY_POLICY: ' Deny-Network , strict' }, { CODECALC_CGROUP: '' },
      { CODECALC_PIP_INDEX_URL: 'none' }, { CODECALC_EXECUTION_PROVIDER: 'local' }, { CODECALC_AUDIT_LOG: '' }]);
    // every knob protocol/text_knob.c reads has a row in configuration.md's text table
    const table = readFileSync(join(REPO, 'protocol', 'text_knob.c'), 'utf8');
    const names = [...table.matchAll(/\{"(CODECALC_[A-Z_]+)"/g)].map((m) => m[1]);
    assert.ok(names.length >= 20, names.join());
    const doc = readFileSync(join(REPO, 'docs', 'configuration.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Text'), doc.indexOf('## State and tools'));
    for (const n of names) assert.match(section, new RegExp(`\\| \`${n}\` \\| [^|]+ \\|\n`), n);
    // and no C file reads a CODECALC_ variable but the three tables
    const grep = spawnSync('grep', ['-rln', '--include=*.c', 'getenv("CODECALC_', 'protocol', 'supervisor', 'workers',
      'repl-workers', 'state'], { cwd: REPO, encoding: 'utf8' });
    assert.deepEqual(grep.stdout.split('\n').filter(Boolean).sort(), []);
  });
});
