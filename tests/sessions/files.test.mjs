// Session workspaces through a real MCP client: file tools, the jail,
// quotas, session_run, workspace execute_code, resources (TOOLS.md 3.2, 4.9).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, assertRejected, removeHome, SKIP_NO_BINARY, RawServer, waitFor } from '../mcp/harness.mjs';

describe('session workspaces', { skip: SKIP_NO_BINARY }, () => {
  let s, sid, other;
  before(async () => {
    s = await startServer({ env: { CODECALC_MAX_ARTIFACT_BYTES: '1000' } });
    sid = (await s.call('session_start', { language: 'c' })).session_id;
    other = (await s.call('session_start', { language: 'bash' })).session_id;
  });
  after(async () => { await s?.close(); });

  test('session_start of c: workspace session, id shaped <lang>-<8 hex>', async () => {
    assert.match(sid, /^c-[0-9a-f]{8}$/);
    const r = await s.call('session_start', { language: 'c++' });
    assert.match(r.session_id, /^cpp-[0-9a-f]{8}$/);
    assert.equal(r.stateful, false);
    assert.deepEqual(r.files, []);
  });

  test('session_start of cobol is refused with the known languages, not a silent python3 (issue 11 item 5)', async () => {
    const r = await s.call('session_start', { language: 'cobol' });
    assertRejected(r, 'validation', /^unknown language 'cobol'\. Available: awk, bash, /);
    assert.ok(r.available_languages.includes('python3') && r.available_languages.includes('node'));
    assert.equal(r.session_id, undefined);
    const list = await s.call('session_list', {});
    assert.ok(!list.sessions.some((x) => x.session_id.startsWith('cobol') || x.session_id.startsWith('python3')));
  });

  test('write, list, read back (3.2.4-3.2.6 examples)', async () => {
    assert.deepEqual(await s.call('session_write_file', { session_id: sid, path: 'in/data.csv', content: 'a,b\n1,2' }),
      { ok: true, path: 'in/data.csv', contract_version: '1.3.0' });
    const root = await s.call('session_files', { session_id: sid });
    assert.ok(root.files.some((f) => f.path === 'in/' && f.type === 'dir'));
    const sub = await s.call('session_files', { session_id: sid, path: 'in' });
    assert.deepEqual(sub.files, [{ path: 'data.csv', type: 'file', size: 7 }]);
    const rd = await s.call('session_read_file', { session_id: sid, path: 'in/data.csv' });
    assert.equal(rd.content, 'a,b\n1,2');
    assert.equal(rd.truncated, false);
    assert.equal(rd.resource, `codecalc://session/${sid}/files/in/data.csv`);
    const part = await s.call('session_read_file', { session_id: sid, path: 'in/data.csv', max_bytes: 3 });
    assert.equal(part.content, 'a,b');
    assert.equal(part.truncated, true);
  });

  test('paging: three files, page_size 2', async () => {
    for (const n of ['p1', 'p2', 'p3']) await s.call('session_write_file', { session_id: other, path: `pg/${n}`, content: n });
    const a = await s.call('session_files', { session_id: other, path: 'pg', page_size: 2 });
    assert.deepEqual(a.files.map((f) => f.path), ['p1', 'p2']);
    assert.equal(a.next_cursor, '2');
    const b = await s.call('session_files', { session_id: other, path: 'pg', page_size: 2, cursor: '2' });
    assert.deepEqual(b.files.map((f) => f.path), ['p3']);
    assert.equal(b.next_cursor, null);
  });

  test('jail: .., absolute, symlink to /etc, NUL, long names', async () => {
    assertRejected(await s.call('session_write_file', { session_id: sid, path: '../x', content: 'y' }), 'permission_denied', /escapes/);
    assertRejected(await s.call('session_read_file', { session_id: sid, path: '/etc/passwd' }), 'permission_denied', /escapes/);
    symlinkSync('/etc', join(s.home, 'sessions', sid, 'etclink'));
    assertRejected(await s.call('session_read_file', { session_id: sid, path: 'etclink/passwd' }), 'permission_denied', /escapes/);
    assertRejected(await s.call('session_write_file', { session_id: sid, path: 'etclink/evil', content: 'x' }), 'permission_denied', /escapes/);
    assertRejected(await s.call('session_write_file', { session_id: sid, path: 'a\u0000b', content: 'x' }), 'permission_denied', /escapes/);
    assertRejected(await s.call('session_write_file', { session_id: sid, path: 'n'.repeat(300), content: 'x' }), 'permission_denied', /escapes/);
    assertRejected(await s.call('session_files', { session_id: '../etc' }), 'validation', /invalid session id/);
    assertRejected(await s.call('session_files', { session_id: 'python3-00000000' }), 'validation', /unknown session/);
  });

  test('quota: an oversized write is refused and leaves nothing behind', async () => {
    const r = await s.call('session_write_file', { session_id: sid, path: 'big.txt', content: 'y'.repeat(2000) });
    assertRejected(r, 'resource_exhausted', /per-artifact size cap of 1000 bytes/);
    assert.equal(r.incoming_bytes, 2000);
    const listing = await s.call('session_files', { session_id: sid });
    assert.ok(!listing.files.some((f) => f.path.startsWith('big') || f.path.startsWith('.cc-write')));
  });

  test('two sessions never see each other\'s files', async () => {
    await s.call('session_write_file', { session_id: sid, path: 'secret.txt', content: 'mine' });
    const r = await s.call('session_read_file', { session_id: other, path: 'secret.txt' });
    assertRejected(r, 'validation', /no such file/);
    const run = await s.call('execute_code', { session_id: other, language: 'bash', code: `cat ../${sid}/secret.txt; ls ..` });
    assert.ok(!run.stdout.includes('mine'));
  });

  test('session_run imports a sibling file (3.2.7 example)', async () => {
    await s.call('session_write_file', { session_id: sid, path: 'helper.py', content: 'X=5' });
    await s.call('session_write_file', { session_id: sid, path: 'app.py', content: 'import helper; print(helper.X)' });
    const r = await s.call('session_run', { session_id: sid, entry_file: 'app.py' });
    assert.equal(r.stdout, '5\n');
    assert.equal(r.language, 'python3');
    assert.equal(r.entry_file, 'app.py');
    assert.equal(r.provider, undefined);
    assertRejected(await s.call('session_run', { session_id: sid, entry_file: 'missing.py' }), 'validation',
      /^no such file: missing.py$/);
  });

  test('compiled_run_lost_its_includes: session_run compiles the entry where it is', async () => {
    // The entry was copied into a scratch directory and compiled there, so
    // #include "util.h" beside it was "No such file or directory".
    const ws = (await s.call('session_start', { language: 'c' })).session_id;
    await s.call('session_write_file', { session_id: ws, path: 'src/util.h', content: 'static int twice(int x) { return 2 * x; }\n' });
    await s.call('session_write_file', { session_id: ws, path: 'src/main.c',
      content: '#include <stdio.h>\n#include "util.h"\nint main(void) { printf("%d\\n", twice(21)); return 0; }\n' });
    await s.call('session_write_file', { session_id: ws, path: 'a.out', content: 'my own a.out' });
    let r = await s.call('session_run', { session_id: ws, entry_file: 'src/main.c' });
    assert.equal(r.verdict, 'OK', r.stderr);
    assert.equal(r.stdout, '42\n');
    assert.equal(r.cached, false);
    // The header changed and the entry did not: the build is not served
    // from a cache keyed on the entry alone.
    await s.call('session_write_file', { session_id: ws, path: 'src/util.h', content: 'static int twice(int x) { return 3 * x; }\n' });
    r = await s.call('session_run', { session_id: ws, entry_file: 'src/main.c' });
    assert.equal(r.stdout, '63\n');
    // A sibling module of a node entry, required relatively.
    await s.call('session_write_file', { session_id: ws, path: 'js/lib/k.js', content: 'module.exports = { k: 7 };' });
    await s.call('session_write_file', { session_id: ws, path: 'js/app.js', content: "console.log(require('./lib/k').k * 6)" });
    r = await s.call('session_run', { session_id: ws, entry_file: 'js/app.js' });
    assert.equal(r.stdout, '42\n', r.stderr);
    assert.equal((await s.call('session_read_file', { session_id: ws, path: 'a.out' })).content, 'my own a.out');
    const names = (await s.call('session_files', { session_id: ws })).files.map((f) => f.path);
    assert.deepEqual(names, ['a.out', 'js/', 'src/']);
    const src = (await s.call('session_files', { session_id: ws, path: 'src' })).files.map((f) => f.path);
    assert.deepEqual(src, ['main.c', 'util.h']); // no .o, .hi or a.out beside the entry
  });

  test('multi_file_go_java_lost_their_siblings: a go or java entry builds its directory', async (t) => {
    // main.go calling a function of util.go was "undefined: twice"; Main.java
    // using Util.java was "cannot find symbol": one file was built.
    const langs = JSON.parse((await s.client.callTool({ name: 'list_languages', arguments: {} })).content[0].text);
    const have = (n) => langs.some((l) => l.name === n && l.available);
    const ws = (await s.call('session_start', { language: 'bash' })).session_id;
    const w = (path, content) => s.call('session_write_file', { session_id: ws, path, content });
    if (have('go')) {
      await w('g/util.go', 'package main\nfunc twice(x int) int { return 2 * x }\n');
      await w('g/util_test.go', 'package main\nimport "testing"\nfunc TestTwice(t *testing.T) {}\n');
      await w('g/main.go', 'package main\nimport "fmt"\nfunc main() { fmt.Println(twice(21)) }\n');
      const r = await s.call('session_run', { session_id: ws, entry_file: 'g/main.go' });
      assert.equal(r.stdout, '42\n', r.stderr);
    } else t.diagnostic('go is not installed here: its case is skipped');
    if (have('java')) {
      await w('j/Util.java', 'public class Util { static int twice(int x) { return 2 * x; } }\n');
      await w('j/Main.java', 'public class Main { public static void main(String[] a) { System.out.println(Util.twice(21)); } }\n');
      let r = await s.call('session_run', { session_id: ws, entry_file: 'j/Main.java' });
      assert.equal(r.stdout, '42\n', r.stderr);
      await w('j1/Solo.java', 'class Solo { public static void main(String[] a) { System.out.println(7); } }\n');
      r = await s.call('session_run', { session_id: ws, entry_file: 'j1/Solo.java' });
      assert.equal(r.stdout, '7\n', r.stderr); // a lone file: the source launcher, as before
      const j = (await s.call('session_files', { session_id: ws, path: 'j' })).files.map((f) => f.path);
      assert.deepEqual(j, ['Main.java', 'Util.java']); // the classes went to the run directory
    } else t.diagnostic('java is not installed here: its case is skipped');
  });

  test('compiled_session_run_runtime_unavailable: a fresh build runs in a workspace under a private home', async () => {
    // As root, the build's a.out was checked as a runtime the sandbox uid
    // must reach through the host's directories; the home (mode 0700) hid
    // it: "runtime unavailable ... a.out (not found in PATH)".
    const n = Math.floor(Math.random() * 1e9);
    const r = await s.call('execute_code', { session_id: sid, language: 'c',
      code: `#include <stdio.h>\nint main(void) { printf("%d\\n", ${n}); return 0; }\n` });
    assert.equal(r.verdict, 'OK', r.stderr);
    assert.equal(r.stdout, `${n}\n`);
  });

  test('execute_code in a workspace session leaves artifacts (3.2.8 example)', async () => {
    const r = await s.call('execute_code', { session_id: sid, language: 'python3', code: "open('out.json','w').write('[9,9]')" });
    assert.equal(r.verdict, 'OK');
    const a = await s.call('session_artifacts', { session_id: sid });
    assert.ok(a.artifacts.some((f) => f.path === 'out.json' && f.size === 5));
    assert.ok(!a.artifacts.some((f) => f.path === 'main.py' || f.path === 'run.out'));
  });

  test('a workspace run never overwrites the user\'s main.py or run.out (issue 11 item 1)', async () => {
    const ws = (await s.call('session_start', { language: 'bash' })).session_id;
    await s.call('session_write_file', { session_id: ws, path: 'main.py', content: 'my own' });
    await s.call('session_write_file', { session_id: ws, path: 'run.out', content: 'my log' });
    await s.call('session_write_file', { session_id: ws, path: 'helper.py', content: 'Y=7' });
    const r = await s.call('execute_code', { session_id: ws, language: 'python3',
      code: 'import os, helper\nprint("snippet", helper.Y, os.getcwd() == os.environ["HOME"])' });
    assert.equal(r.stdout, 'snippet 7 True\n');
    assert.match(r.workdir, new RegExp(`/${ws}$`));
    const c = await s.call('session_write_file', { session_id: ws, path: 'c.sh', content: 'echo from-run' });
    assert.equal(c.ok, true);
    const run = await s.call('session_run', { session_id: ws, entry_file: 'c.sh' });
    assert.equal(run.stdout, 'from-run\n');
    assert.equal((await s.call('session_read_file', { session_id: ws, path: 'main.py' })).content, 'my own');
    assert.equal((await s.call('session_read_file', { session_id: ws, path: 'run.out' })).content, 'my log');
    const names = (await s.call('session_files', { session_id: ws })).files.map((f) => f.path);
    assert.deepEqual(names, ['__pycache__/', 'c.sh', 'helper.py', 'main.py', 'run.out']);
    const arts = (await s.call('session_artifacts', { session_id: ws })).artifacts.map((f) => f.path);
    assert.deepEqual(arts, ['c.sh', 'helper.py', 'main.py', 'run.out']);
  });

  test('regression: a user file under a .codecalc-run- name was written and then hidden from every listing', async () => {
    const ws = (await s.call('session_start', { language: 'bash' })).session_id;
    for (const path of ['.codecalc-run-aaaa', '.codecalc-run-1/x.txt', 'sub/.codecalc-run-b', './.codecalc-run-c']) {
      assertRejected(await s.call('session_write_file', { session_id: ws, path, content: 'mine' }), 'permission_denied',
        /: names beginning with \.codecalc-run- are reserved for the scratch directories of runs/);
    }
    assert.deepEqual((await s.call('session_files', { session_id: ws })).files, []);
    assert.equal(existsSync(join(s.home, 'sessions', ws, '.codecalc-run-aaaa')), false);
    const ok = await s.call('session_write_file', { session_id: ws, path: '.codecalc-runs.txt', content: 'mine' });
    assert.equal(ok.ok, true, 'only the reserved prefix is refused');
  });

  test('a 200 KB print: inline capped; spill refused by the 1000-byte artifact cap (4.7)', async () => {
    const r = await s.call('execute_code', { session_id: other, language: 'python3', code: "print('x'*200000)" });
    assert.equal(r.verdict, 'OK');
    assert.equal(r.output_truncated, true);
    assert.equal(r.stdout.length, 65536 + 15);
    assert.equal(r.stdout_spill, undefined);
    assert.match(r.stdout_spill_refused, /^disk-quota ceiling reached; only the truncated inline stdout/);
  });

  test('reads: a 6 MB file with max_bytes 10 gives its first 10 bytes; symlink, missing and large are told apart (issue 11 item 12)', async () => {
    const ws = (await s.call('session_start', { language: 'bash' })).session_id;
    const dir = join(s.home, 'sessions', ws);
    writeFileSync(join(dir, 'big.txt'), '0123456789abcdef'.repeat(6 * 65536));
    symlinkSync('big.txt', join(dir, 'link.txt'));
    const head = await s.call('session_read_file', { session_id: ws, path: 'big.txt', max_bytes: 10 });
    assert.deepEqual([head.ok, head.content, head.size, head.truncated], [true, '0123456789', 6 * 1048576, true]);
    assertRejected(await s.call('session_read_file', { session_id: ws, path: 'link.txt' }), 'permission_denied',
      /^link.txt is a symlink; links are not followed in a workspace$/);
    assertRejected(await s.call('session_read_file', { session_id: ws, path: 'nope.txt' }), 'validation', /^no such file: nope.txt$/);
    const uri = (p) => `codecalc://session/${ws}/files/${p}`;
    await assert.rejects(s.client.readResource({ uri: uri('big.txt') }),
      (e) => e.code === -32602 && /big.txt is larger than the 4 MiB resources\/read returns/.test(e.message));
    await assert.rejects(s.client.readResource({ uri: uri('nope.txt') }),
      (e) => e.code === -32002 && /no such file: nope.txt/.test(e.message));
    await assert.rejects(s.client.readResource({ uri: uri('link.txt') }),
      (e) => e.code === -32602 && /is a symlink/.test(e.message));
    await s.call('session_stop', { session_id: ws });
  });

  test('resources: template, list and byte-identical read', async () => {
    const t = await s.client.listResourceTemplates();
    assert.equal(t.resourceTemplates[0].uriTemplate, 'codecalc://session/{session_id}/files/{+path}');
    // paged: other tests' workspaces may fill the first page
    const uris = [];
    let cursor;
    do {
      const l = await s.client.listResources(cursor ? { cursor } : {});
      uris.push(...l.resources.map((x) => x.uri));
      cursor = l.nextCursor;
    } while (cursor);
    assert.ok(uris.includes(`codecalc://session/${sid}/files/in/data.csv`));
    const rd = await s.client.readResource({ uri: `codecalc://session/${sid}/files/in/data.csv` });
    assert.equal(rd.contents[0].text, 'a,b\n1,2');
  });

  test('resource_uri_not_percent_encoded: a name with a space, %, ?, # or é is read through the template', async () => {
    const { UriTemplate } = await import('@modelcontextprotocol/sdk/shared/uriTemplate.js');
    const tpl = new UriTemplate((await s.client.listResourceTemplates()).resourceTemplates[0].uriTemplate);
    const names = ['my file.py', 'a%b.txt', 'q?x.txt', 'h#x.txt', 'caf\u00e9.txt'];
    for (const n of names) await s.call('session_write_file', { session_id: other, path: n, content: `body of ${n}` });
    const listed = new Map();
    let cursor;
    do {
      const l = await s.client.listResources(cursor ? { cursor } : {});
      for (const r of l.resources) if (r.uri.startsWith(`codecalc://session/${other}/`)) listed.set(r.name, r.uri);
      cursor = l.nextCursor;
    } while (cursor);
    for (const n of names) {
      // the URI the client builds from the template (RFC 6570: 'my%20file.py')
      const built = tpl.expand({ session_id: other, path: n });
      assert.equal((await s.client.readResource({ uri: built })).contents[0].text, `body of ${n}`, built);
      // the listed URI is a URI (no raw space, '?', '#' or non-ASCII) that reads the same file
      const u = listed.get(n);
      assert.equal(u, `codecalc://session/${other}/files/${encodeURIComponent(n).replace(/%2F/g, '/')}`);
      assert.equal(new URL(u).pathname.endsWith(encodeURIComponent(n)), true, u);
      assert.equal((await s.client.readResource({ uri: u })).contents[0].text, `body of ${n}`, u);
    }
    const r = await s.call('session_read_file', { session_id: other, path: 'my file.py' });
    assert.equal(r.resource, `codecalc://session/${other}/files/my%20file.py`);
    await assert.rejects(s.client.readResource({ uri: `codecalc://session/${other}/files/%2e%2e/%2e%2e/etc/passwd` }),
      /path escapes session workspace/);
  });

  test('session_stop deletes; unknown well-formed id is deleted:false', async () => {
    const r = await s.call('session_stop', { session_id: other });
    assert.equal(r.deleted, true);
    const again = await s.call('session_stop', { session_id: 'python3-00000000' });
    assert.deepEqual([again.ok, again.deleted], [true, false]);
  });
});

// A root server keeps its sessions under its home, and /root is mode 0700:
// the program (uid 64999) could not reach its own workspace, and every
// workspace run failed ("main.sh: Permission denied", "cc1: fatal error:
// main.c: Permission denied"). These tests' homes were under /tmp, which
// the sandbox replaces with its own, so none saw it. Here the home lies
// below a 0700 directory outside /tmp. (A non-root server's programs run
// as its own uid, which owns that directory: the test holds there too.)
describe('workspace below a directory the program cannot search', { skip: SKIP_NO_BINARY }, () => {
  let s, top;
  before(async () => {
    top = mkdtempSync('/var/tmp/codecalc-private-');
    chmodSync(top, 0o700);
    const home = join(top, 'home');
    mkdirSync(home);
    s = await startServer({ env: { HOME: home, CODECALC_HOME: home } });
  });
  after(async () => {
    await s?.close();
    if (top) removeHome(top);
  });

  test('workspace_run_denied_under_a_private_home: bash and c runs reach their workspace', async () => {
    const bash = (await s.call('session_start', { language: 'bash' })).session_id;
    const r = await s.call('execute_code', { language: 'bash', session_id: bash, code: 'echo hi > out.txt; cat out.txt; pwd' });
    assert.equal(r.stderr, '');
    assert.equal(r.verdict, 'OK');
    assert.equal(r.stdout, `hi\n${r.workdir}\n`);
    assert.ok(r.workdir.startsWith(`${top}/`), r.workdir);
    const back = await s.call('session_read_file', { session_id: bash, path: 'out.txt' });
    assert.equal(back.content, 'hi\n');
    const c = (await s.call('session_start', { language: 'c' })).session_id;
    const rc = await s.call('execute_code', { language: 'c', session_id: c,
      code: '#include <stdio.h>\nint main(void) { printf("%d\\n", 6 * 7); return 0; }' });
    assert.equal(rc.stderr, '');
    assert.deepEqual([rc.verdict, rc.stdout], ['OK', '42\n']);
  });
});

describe('output spill of a stream cut at its capture cap (4.7)', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });

  test('regression: spill_of_cut_stream_not_marked_capped (the spill says it holds only the first bytes)', async () => {
    // 300,000 digits: the capture keeps 240 KiB. The spill held those bytes
    // plus the "\n...[truncated]" marker as if the program had printed it,
    // and the result had no stdout_spill_capped.
    const ws = (await s.call('session_start', { language: 'bash' })).session_id;
    const code = "import sys\nsys.stdout.write(''.join(str(i % 10) for i in range(300000)))";
    const r = await s.call('execute_code', { session_id: ws, language: 'python3', code });
    assert.equal(r.verdict, 'OLE');
    assert.equal(r.stdout_bytes, 300000);
    assert.equal(r.stdout_spill_capped, true);
    const res = await s.client.readResource({ uri: r.stdout_spill });
    const text = res.contents[0].text;
    assert.equal(text.length, 240 * 1024);
    assert.equal(text, ''.padEnd(240 * 1024, '0123456789'));
    // within the capture: the whole output spilled, nothing marked capped
    const w = await s.call('execute_code', { session_id: ws, language: 'python3', code: "print('y' * 200000)" });
    assert.equal(w.verdict, 'OK');
    assert.equal(w.stdout_spill_capped, undefined);
    const all = (await s.client.readResource({ uri: w.stdout_spill })).contents[0].text;
    assert.equal(all, 'y'.repeat(200000) + '\n');
    await s.call('session_stop', { session_id: ws });
  });
});

describe('session_stop during a workspace run', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });

  test('regression: stop_during_workspace_run_read_as_program_error (the run says the session was stopped)', async () => {
    // The run's answer used to be the program's own failure: RTE with
    // "FileNotFoundError: ... 'after.txt'", as if the program were wrong.
    const ws = (await s.call('session_start', { language: 'bash' })).session_id;
    const dir = join(s.home, 'sessions', ws);
    const run = s.call('execute_code', { session_id: ws, language: 'python3', timeout: 60,
      code: "import os, time\nopen('started', 'w').close()\nwhile os.path.exists('started'): time.sleep(0.05)\nopen('after.txt', 'w').write('x')" });
    for (let i = 0; i < 200 && !existsSync(join(dir, 'started')); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(existsSync(join(dir, 'started')), 'the run started');
    const stop = await s.call('session_stop', { session_id: ws });
    assert.equal(stop.deleted, true);
    const r = await run;
    assert.equal(r.ok, false);
    assert.equal(r.code, 'worker_failure');
    assert.match(r.error, /^the session was stopped while this run was in progress/);
    assert.equal(r.verdict, undefined);
  });
});

describe('a cancelled workspace run', { skip: SKIP_NO_BINARY }, () => {
  test('regression: cancelled_workspace_run_kept_running (notifications/cancelled stops the program)', async () => {
    // A cancelled execute_code on a workspace session dropped its answer but
    // left the program running to its timeout, writing into the workspace.
    const s = new RawServer();
    try {
      await s.initialize();
      const start = await s.request('tools/call', { name: 'session_start', arguments: { language: 'bash' } });
      const ws = start.result.structuredContent.session_id;
      const dir = join(s.home, 'sessions', ws);
      const id = 'cancel-me';
      const code = "import time\nopen('started', 'w').close()\nn = 0\nwhile True:\n  n += 1; open('count', 'w').write(str(n)); time.sleep(0.05)";
      s.request('tools/call', { name: 'execute_code', arguments: { session_id: ws, language: 'python3', code, timeout: 120 } },
        { id, timeoutMs: 150000 }).catch(() => null);
      await waitFor(() => existsSync(join(dir, 'started')), 20000);
      assert.ok(existsSync(join(dir, 'started')), 'the run started');
      s.notify('notifications/cancelled', { requestId: id, reason: 'test' });
      const running = () => readdirSync('/proc').filter((p) => /^\d+$/.test(p)).some((p) => {
        try { return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(dir); } catch { return false; }
      });
      await waitFor(() => !running(), 10000);
      assert.equal(running(), false, 'the program still runs after its call was cancelled');
    } finally {
      await s.close();
    }
  });
});

describe('resources/read of a URI built from the template', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });

  test('regression: resource_uri_percent_encoded_not_found (a%20b.txt reads "a b.txt")', async () => {
    // Expanding codecalc://session/{session_id}/files/{+path} (RFC 6570)
    // percent-encodes a space or a non-ASCII name; such a URI was
    // "no such file". The name as written still wins.
    const ws = (await s.call('session_start', { language: 'bash' })).session_id;
    for (const path of ['a b.txt', '\u00fcn\u00ef/\u00df.txt', 'pct%41.txt']) {
      await s.call('session_write_file', { session_id: ws, path, content: `C:${path}` });
    }
    const read = async (p) => (await s.client.readResource({ uri: `codecalc://session/${ws}/files/${p}` })).contents[0].text;
    assert.equal(await read('a%20b.txt'), 'C:a b.txt');
    assert.equal(await read(encodeURI('\u00fcn\u00ef/\u00df.txt')), 'C:\u00fcn\u00ef/\u00df.txt');
    assert.equal(await read('pct%41.txt'), 'C:pct%41.txt');
    assert.equal(await read('pct%2541.txt'), 'C:pct%41.txt');
    await assert.rejects(read(`%2e%2e/${ws}/a%20b.txt`), /path escapes session workspace/);
    await s.call('session_stop', { session_id: ws });
  });
});

describe('toolchain caches of a workspace run', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });

  test('regression: toolchain_cache_filled_workspace (go and deno caches stay out of the workspace)', async () => {
    // HOME is the workspace: go left ~90 files in .cache/go-build, deno its
    // .cache/deno, zig 810 files in .cache/zig, past the 500-file artifact
    // cap, after which the session refused every run.
    const progs = [
      ['go', 'main.go', 'package main\nimport "fmt"\nfunc main() { fmt.Println("go ok") }\n', 'go ok\n'],
      ['typescript', 'main.ts', 'console.log("ts ok")\n', 'ts ok\n'],
    ];
    for (const [language, file, content, want] of progs) {
      const ws = (await s.call('session_start', { language })).session_id;
      await s.call('session_write_file', { session_id: ws, path: file, content });
      const r = await s.call('session_run', { session_id: ws, entry_file: file, timeout: 120 });
      assert.equal(r.stdout, want, JSON.stringify(r));
      const a = await s.call('session_artifacts', { session_id: ws });
      assert.deepEqual(a.artifacts.map((x) => x.path), [file], language);
      assert.equal(existsSync(join(s.home, 'sessions', ws, '.cache')), false, language);
      await s.call('session_stop', { session_id: ws });
    }
  });
});
