// codecalc setup: the right file in the right format for each client,
// merged with what is there, backed up, never over an unparsable file; and
// the written configuration really launches a working server.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync, readdirSync, realpathSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, SKIP_NO_BINARY } from '../mcp/harness.mjs';
import { freshDir, removeDir, run } from './cli_util.mjs';

const CLIENTS = {
  'claude-desktop': { file: (h) => join(h, '.config', 'Claude', 'claude_desktop_config.json'), key: 'mcpServers' },
  'claude-code': { file: (h, cwd) => join(cwd, '.mcp.json'), key: 'mcpServers' },
  cursor: { file: (h) => join(h, '.cursor', 'mcp.json'), key: 'mcpServers' },
  vscode: { file: (h, cwd) => join(cwd, '.vscode', 'mcp.json'), key: 'servers' },
  zed: { file: (h) => join(h, '.config', 'zed', 'settings.json'), key: 'context_servers' },
};

describe('setup', { skip: SKIP_NO_BINARY }, () => {
  let home, cwd;
  const exe = realpathSync(BIN);
  before(() => { home = freshDir(); cwd = join(home, 'project'); mkdirSync(cwd); });
  after(() => removeDir(home));
  const setup = (args) => run(['setup', ...args], { home, cwd, env: { CODECALC_HOME: '' } });

  for (const [name, c] of Object.entries(CLIENTS)) {
    test(`${name}: without --write prints and writes nothing; with --write creates the file`, () => {
      const file = c.file(home, cwd);
      const dry = setup(['--client', name]);
      assert.equal(dry.status, 0, dry.stderr);
      assert.ok(dry.stdout.includes(file), dry.stdout);
      assert.equal(existsSync(file), false);
      const r = setup([`--client=${name}`, '--write']);
      assert.equal(r.status, 0, r.stderr);
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      const entry = doc[c.key].codecalc;
      assert.equal(entry.command, exe);
      assert.deepEqual(entry.args, []);
      assert.equal(entry.env.CODECALC_HOME, join(home, '.local', 'state', 'codecalc', name));
      assert.ok(existsSync(entry.env.CODECALC_HOME), 'the state directory is created with its parents');
      if (name === 'vscode') assert.equal(entry.type, 'stdio');
      else assert.equal(entry.type, undefined);
    });
  }

  test('an existing file is merged and its old version kept as a backup', () => {
    const file = CLIENTS.cursor.file(home, cwd);
    const before = { mcpServers: { other: { command: '/bin/other' } }, theme: 'dark' };
    writeFileSync(file, JSON.stringify(before));
    const r = setup(['--client', 'cursor', '--write']);
    assert.equal(r.status, 0, r.stderr);
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    assert.deepEqual(doc.mcpServers.other, { command: '/bin/other' });
    assert.equal(doc.theme, 'dark');
    assert.equal(doc.mcpServers.codecalc.command, exe);
    const backups = readdirSync(dirname(file)).filter((n) => n.startsWith('mcp.json.bak-'));
    assert.equal(backups.length, 1);
    assert.deepEqual(JSON.parse(readFileSync(join(dirname(file), backups[0]), 'utf8')), before);
    assert.match(r.stdout, /previous version saved as/);
  });

  test('an unparsable file is refused and left untouched', () => {
    const file = CLIENTS.zed.file(home, cwd);
    const text = '{\n  // my settings\n  "theme": "One Dark",\n}\n';
    writeFileSync(file, text);
    const r = setup(['--client', 'zed', '--write']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /refusing to change zed: .* is not plain JSON/);
    assert.equal(readFileSync(file, 'utf8'), text);
    assert.deepEqual(readdirSync(dirname(file)).filter((n) => n.includes('.bak-')), []);
  });

  test('a container that is not an object is refused', () => {
    const file = CLIENTS['claude-code'].file(home, cwd);
    writeFileSync(file, '{"mcpServers": []}');
    assert.equal(setup(['--client', 'claude-code', '--write']).status, 1);
    assert.equal(readFileSync(file, 'utf8'), '{"mcpServers": []}');
  });

  test('usage errors: unknown client, --write without a client', () => {
    assert.equal(setup(['--client', 'emacs']).status, 2);
    assert.equal(setup(['--write']).status, 2);
    // Every client listed; the zed and claude-code files are refused by now,
    // so the listing says so and exits 1.
    const all = setup([]);
    assert.equal(all.status, 1);
    assert.match(all.stderr, /refusing to change zed/);
    assert.match(all.stderr, /refusing to change claude-code/);
    for (const n of ['claude-desktop', 'cursor', 'vscode']) assert.ok(all.stdout.includes(`${n}: `), n);
  });

  test('the written configuration launches a working server', async () => {
    const file = CLIENTS['claude-desktop'].file(home, cwd);
    const entry = JSON.parse(readFileSync(file, 'utf8')).mcpServers.codecalc;
    const transport = new StdioClientTransport({
      command: entry.command, args: entry.args, env: { PATH: process.env.PATH, HOME: home, ...entry.env },
    });
    const client = new Client({ name: 'setup-test', version: '1' });
    await client.connect(transport);
    try {
      const r = await client.callTool({ name: 'calc_exact', arguments: { expr: '1/3 + 1/6' } });
      assert.equal(r.structuredContent.value, '1/2');
    } finally {
      await client.close();
    }
  });
});
