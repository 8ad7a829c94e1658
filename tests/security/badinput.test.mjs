// Bad input to execute_code (TOOLS.md 3.1.3): every case gets a clear,
// correctly coded answer and the server keeps serving.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { RawServer, assertRejected } from '../mcp/harness.mjs';
import { startSecServer, brief, SKIP_NO_BINARY, alive } from './util.mjs';

describe('execute_code bad input', { skip: SKIP_NO_BINARY, timeout: 120000 }, () => {
  let s;
  before(async () => { s = await startSecServer(); });
  after(async () => { await s?.close(); });

  test('unknown language: validation, the 32 registry names split into installed and not, nothing ran', async () => {
    const r = await s.exec({ language: 'klingon', code: 'x' });
    assertRejected(r, 'validation', /^unknown language 'klingon'\. Available: /);
    const [, here, absent] = r.error.match(/^unknown language 'klingon'\. Available: (.*?)(?:\. Not installed here: (.*))?$/);
    assert.deepEqual(here.split(', '), r.available_languages);
    assert.deepEqual(absent ? absent.split(', ') : [], r.not_installed);
    const names = [...r.available_languages, ...r.not_installed].sort();
    assert.equal(names.length, 32);
    assert.deepEqual([...r.available_languages].sort(), r.available_languages);
    assert.ok(r.available_languages.includes('python3') && names.includes('c++'));
    assert.equal(r.verdict, undefined);
  });

  test('empty code runs and succeeds with empty output', async () => {
    const r = await s.exec({ language: 'python3', code: '' });
    assert.equal(r.verdict, 'OK', brief(r));
    assert.equal(r.stdout, '');
    assert.equal(r.stdout_bytes, 0);
    assert.equal(r.exit_code, 0);
  });

  test('NUL bytes in code reach the source file intact (and are hashed as sent)', async () => {
    const code = "d = open(__file__, 'rb').read()\nprint(len(d), d.count(b'\\0'))\n#\u0000tail\n";
    const r = await s.exec({ language: 'python3', code, receipt: true });
    assert.equal(r.verdict, 'OK', brief(r));
    assert.equal(r.stdout, `${Buffer.byteLength(code)} 1\n`);
    assert.equal(r.provider.source_sha256, `sha256:${createHash('sha256').update(code).digest('hex')}`);
  });

  test('NUL in a python statement: the interpreter stops there, no crash', async () => {
    const r = await s.exec({ language: 'python3', code: 'print(1)\u0000print(2)' });
    assert.notEqual(r.stdout, '1\n2\n', brief(r));
    assert.ok(['OK', 'RTE'].includes(r.verdict), brief(r));
  });

  test('negative limits are clamped: timeout 1, default memory/output/cpu', async () => {
    const r = await s.exec({
      language: 'bash', code: 'ulimit -t; ulimit -v; ulimit -f',
      timeout: -5, max_memory_mb: -1, max_output_kb: -3, max_cpu: -9, receipt: true,
    });
    assert.equal(r.verdict, 'OK', brief(r));
    // cpu = timeout(1) + 8; no address-space limit (the memory cgroup holds
    // memory, issue 11.2); FSIZE 256 MiB in 1 KiB blocks (bash ulimit -f).
    assert.equal(r.stdout, `9\nunlimited\n${256 * 1024}\n`);
    assert.equal(r.provider.limits.requested.timeout_seconds, 1);
  });

  test('absurd limits are clamped: timeout 10^30 -> 120; the file-size ceiling does not follow the output cap', async () => {
    const r = await s.exec({
      language: 'bash', code: 'ulimit -v; ulimit -f',
      timeout: 10 ** 30, max_memory_mb: 10 ** 30, max_output_kb: 10 ** 30, receipt: true,
    });
    assert.equal(r.verdict, 'OK', brief(r));
    // Output goes through drained pipes (issue 11.3): the program's own
    // files keep their separate 256 MiB ceiling whatever max_output_kb says.
    assert.equal(r.stdout, `unlimited\n${256 * 1024}\n`);
    assert.equal(r.provider.limits.requested.timeout_seconds, 120);
  });

  test('a missing runtime: runtime_unavailable envelope naming the command tried', async (t) => {
    const res = await s.client.callTool({ name: 'list_languages', arguments: {} });
    const langs = JSON.parse(res.content[0].text);
    // Simple templates only: the first word is what gets spawned.
    const missing = langs.find((l) => !l.available && !l.compiled && /^[a-z]+ /.test(l.run) && !l.run.startsWith('bash'));
    if (!missing) return t.skip('every simple runtime is installed on this host');
    const cmd = missing.run.split(' ')[0];
    const r = await s.exec({ language: missing.name, code: 'x' });
    assert.equal(r.ok, false);
    assert.equal(r.code, 'runtime_unavailable', brief(r));
    assert.equal(r.verdict, 'RTE');
    assert.equal(r.exit_code, null);
    assert.equal(r.stdout_bytes, null);
    assert.equal(r.stderr_bytes, null);
    // A runtime no registry here provides also says why (list_languages' reason).
    const why = missing.reason.startsWith('not installed here') ? '' : `: ${missing.reason}`;
    assert.equal(r.error, `runtime unavailable for the run phase of '${missing.name}': '${cmd}' (not found in PATH)${why}`);
    assert.equal(r.stderr, r.error);
    assert.equal(typeof r.remedy, 'string');
  });

  test('wrong argument types are schema errors that do not echo the value', async () => {
    const res = await s.callRaw('execute_code', { language: 'python3', code: 'print(1)', timeout: 'SECRET-VALUE-123' });
    assert.equal(res.isError, true);
    assert.match(res.content[0].text, /timeout/);
    assert.ok(!res.content[0].text.includes('SECRET-VALUE-123'));
  });

  // Regression: the refusal used to carry id null, so an SDK client waiting
  // on the request's own id hung until its timeout.
  test('huge stdin (beyond the 16 MiB message limit): -32600 answered with the request id, server keeps serving', async () => {
    const r = new RawServer({ env: { TMPDIR: s.tmp } });
    try {
      await r.initialize();
      const args = JSON.stringify({ language: 'bash', code: 'wc -c', stdin: 'a'.repeat(17 * 1024 * 1024) });
      r.writeLine(`{"jsonrpc":"2.0","id":4242,"method":"tools/call","params":{"name":"execute_code","arguments":${args}}}`);
      const err = await r.expect(4242, 20000);
      assert.equal(err.id, 4242);
      assert.equal(err.error?.code, -32600, JSON.stringify(err).slice(0, 300));
      assert.match(err.error.message, /message longer than the \d+-byte limit \(CODECALC_MAX_MESSAGE_BYTES\)/);
      const ok = await r.callTool('execute_code', JSON.stringify({ language: 'bash', code: 'wc -c', stdin: 'b'.repeat(1 << 20) }), { timeoutMs: 30000 });
      assert.equal(ok.sc?.stdout, `${1 << 20}\n`, ok.msg.__raw.slice(0, 500));
    } finally {
      await r.close();
    }
  });

  // Regression: a max_output_kb larger than a worker frame can carry used to
  // kill the exec worker (internal), and a response past 10 MiB is refused by
  // MCP clients; the cap is now clamped to 240 KiB per stream.
  test('regression: max_output_kb beyond what a response can carry is clamped to 240 KiB', async () => {
    const r = await s.exec({ language: 'python3', code: "import sys\nfor i in range(40): sys.stdout.write('z' * (1 << 20))", max_output_kb: 60000 }, 60000);
    assert.equal(r.verdict, 'OLE', `${brief(r)}`.slice(0, 300));
    assert.equal(r.stdout.length, 240 * 1024 + 15);
    assert.ok(r.stdout_bytes > 240 * 1024);
    assert.ok(alive(s.pid));
    const after = await s.exec({ language: 'bash', code: 'echo ok' });
    assert.equal(after.stdout, 'ok\n');
  });
});
