// install_package (TOOLS.md 3.6.1, issue 6 item 6): npm installs confined to
// a session workspace and importable from that session, refusals of global
// installs, and a clear answer when the python index is out of reach.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, assertRejected, SKIP_NO_BINARY } from '../mcp/harness.mjs';

describe('install_package', { skip: SKIP_NO_BINARY }, () => {
  let s, node, py;
  before(async () => {
    s = await startServer();
    node = (await s.call('session_start', { language: 'node' })).session_id;
    py = (await s.call('session_start', { language: 'python3' })).session_id;
  });
  after(async () => {
    for (const id of [node, py]) if (id) await s.call('session_stop', { session_id: id });
    await s?.close();
  });

  test('is-number@7.0.0 into a node session: importable from its REPL and session_run', { timeout: 180000 }, async () => {
    const r = await s.call('install_package', { language: 'node', package: 'is-number', version: '7.0.0', session_id: node });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.package, 'is-number@7.0.0');
    assert.equal(r.language, 'node');
    assert.equal(r.importable, true);
    assert.equal(r.note, null);
    assert.equal(r.target, join(s.home, 'sessions', node));
    assert.equal(typeof r.output_tail, 'string');
    assert.ok(r.unenforced.some((u) => u.startsWith('install_network_unrestricted')));
    // confined to the workspace: the package and npm's cache are inside it
    assert.ok(existsSync(join(s.home, 'sessions', node, 'node_modules', 'is-number', 'package.json')));
    assert.ok(existsSync(join(s.home, 'sessions', node, '.cache', 'npm')));
    const repl = await s.call('execute_code', { language: 'node', session_id: node,
      code: 'const isNumber = require("is-number"); console.log(isNumber(5), isNumber("x"), require("is-number/package.json").version)' });
    assert.equal(repl.stdout, 'true false 7.0.0\n', JSON.stringify(repl));
    await s.call('session_write_file', { session_id: node, path: 'main.js', content: 'console.log(require("is-number")("42"))\n' });
    const run = await s.call('session_run', { session_id: node, entry_file: 'main.js' });
    assert.equal(run.stdout, 'true\n', JSON.stringify(run));
  });

  test('a package that does not exist: validation with the npm output tail', { timeout: 180000 }, async () => {
    const r = await s.call('install_package', { language: 'node', package: 'codecalc-no-such-package-zz9', session_id: node });
    assertRejected(r, 'validation', /install failed \(rc=\d+\)/);
    assert.match(r.output_tail, /404|E404|not found/i);
  });

  test('global installs are refused unless CODECALC_ALLOW_GLOBAL_INSTALL=1', async () => {
    assertRejected(await s.call('install_package', { language: 'node', package: 'is-number' }), 'permission_denied', /CODECALC_ALLOW_GLOBAL_INSTALL=1/);
  });

  test('request checks (3.6.1 examples)', async () => {
    assertRejected(await s.call('install_package', { language: 'ruby', package: 'nokogiri' }), 'permission_denied', /not supported for 'ruby'/);
    assertRejected(await s.call('install_package', { language: 'python3', package: '--target=/etc' }), 'validation', /flag/);
    assertRejected(await s.call('install_package', { language: 'node', package: 'is-number', session_id: 'node-00000000' }), 'validation', /unknown session 'node-00000000'/);
    assertRejected(await s.call('install_package', { language: 'node', package: 'a', version: '' }), 'validation', /empty version given/);
  });

  test('python3 without a reachable index: a clear network error, nothing installed', { timeout: 120000 }, async () => {
    const r = await s.call('install_package', { language: 'python3', package: 'six', session_id: py });
    if (r.ok) { // an index is reachable here after all: then six must import
      assert.equal((await s.call('execute_code', { language: 'python3', session_id: py, code: 'import six; print(six.__name__)' })).stdout, 'six\n');
      return;
    }
    assert.equal(r.code, 'dependency_missing', JSON.stringify(r));
    if (/no python package installer/.test(r.error)) return;
    assert.match(r.error, /network error, the python3 package index is unreachable/);
    assert.match(r.output_tail, /codecalc: network error: cannot reach the package index https:\/\/\S+/);
    const files = (await s.call('session_files', { session_id: py })).files.map((f) => f.path);
    assert.ok(!files.includes('six.py'), files.join(','));
  });
});

describe('install_package into the shared cache', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer({ env: { CODECALC_ALLOW_GLOBAL_INSTALL: '1' } }); });
  after(async () => { await s?.close(); });

  test('allowed by the operator: lands in $CODECALC_HOME/pkgs with a note', { timeout: 180000 }, async () => {
    const r = await s.call('install_package', { language: 'node', package: 'is-number', version: '7.0.0' });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.target, join(s.home, 'pkgs'));
    assert.equal(r.importable, false);
    assert.match(r.note, /session_id/);
    assert.ok(existsSync(join(s.home, 'pkgs', 'node_modules', 'is-number', 'package.json')));
  });
});
