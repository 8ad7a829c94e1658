// The language matrix: for every language this host resolves (list_languages
// says "installed"), run five programs through execute_code over MCP and
// check the values TOOLS.md 1.3/1.4/1.7 promise: hello world on stdout, stdin
// reaching the program, exit status 3 -> RTE with exit_code 3, a run-time
// failure -> RTE, and (compiled plans) a compile error -> phase "compile".
//
// Heavy toolchains (JVM, GHC, mono, R, BEAM, go, rustc) take seconds per
// program, so the probes are spread over a few MCP connections, slow ones
// first; the whole matrix stays within a few minutes on 2 cores.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SKIP_NO_BINARY } from '../mcp/harness.mjs';
import { PROGRAMS, NO_PROGRAMS, STDIN, listLanguages, startServers, spread } from './programs.mjs';

const CONNECTIONS = Number(process.env.CODECALC_MATRIX_CONNECTIONS || 3);
const KINDS = ['hello', 'echo', 'exit3', 'crash', 'broken'];

describe('language matrix (execute_code over MCP)', { skip: SKIP_NO_BINARY }, () => {
  let servers = [];
  let langs = [];                 // list_languages entries
  const results = new Map();      // "name/kind" -> envelope (or {thrown})

  before(async () => {
    servers = await startServers(CONNECTIONS);
    langs = await listLanguages(servers[0]);
    const jobs = [];
    for (const l of langs) {
      const p = PROGRAMS[l.name];
      if (l.status !== 'installed' || !p) continue;
      for (const kind of KINDS) {
        if (!p[kind] || (kind === 'broken' && !l.compiled)) continue;
        jobs.push({ name: l.name, kind, slow: !!p.slow, compiled: l.compiled });
      }
    }
    // Slow and compiled first: they dominate the wall time.
    const weight = (j) => (j.slow ? 2 : 0) + (j.compiled ? 1 : 0);
    jobs.sort((a, b) => weight(b) - weight(a));
    const got = await spread(servers, jobs, async (s, j) => {
      const args = { language: j.name, code: PROGRAMS[j.name][j.kind], stdin: STDIN, timeout: j.slow ? 100 : 40 };
      const first = (await s.callRaw('execute_code', args, { timeout: 240000 })).structuredContent;
      // Compiled hello world twice on the same server (same compile cache):
      // the second run must come from the cache.
      if (j.kind === 'hello' && j.compiled) {
        first.again = (await s.callRaw('execute_code', args, { timeout: 240000 })).structuredContent;
      }
      return first;
    });
    jobs.forEach((j, i) => results.set(`${j.name}/${j.kind}`, got[i]));
  }, { timeout: 600000 }); // the whole matrix runs here; ~90 s on an idle 2-core host

  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  test('list_languages has 32 entries and resolves the tested pair', () => {
    assert.equal(langs.length, 32);
    for (const name of ['python3', 'bash']) {
      const l = langs.find((x) => x.name === name);
      assert.equal(l?.status, 'installed', `${name} must be installed for this suite`);
    }
  });

  test('what no registry here provides is listed unavailable with the exact reason', () => {
    const reasons = { swift: /no npm package carries a Swift toolchain/, gleam: /no npm package carries the gleam compiler/,
      mojo: /proprietary/ };
    for (const [name, why] of Object.entries(reasons)) {
      const l = langs.find((x) => x.name === name);
      if (l.available) continue; // installed by other means on this host
      assert.equal(l.status, 'supported');
      assert.match(l.reason, why, name);
    }
    for (const l of langs) {
      if (l.available) assert.equal(l.reason, undefined, `${l.name}: an available language has no reason`);
      else assert.ok(l.reason.length > 20, `${l.name}: ${l.reason}`);
    }
  });

  // One test per registry name, so a report says which language broke.
  const names = [...Object.keys(PROGRAMS), ...NO_PROGRAMS].sort();
  for (const name of names) {
    test(name, (t) => {
      const l = langs.find((x) => x.name === name);
      if (!l) return t.skip(`${name} is not a registry entry`);
      if (l.status !== 'installed') {
        return t.skip(`${name}: runtime not installed on this host (status ${l.status}; see docs/languages.md)`);
      }
      assert.ok(PROGRAMS[name], `${name} is installed but this matrix has no programs for it`);
      const r = (kind) => {
        const v = results.get(`${name}/${kind}`);
        assert.ok(v, `${name}/${kind}: no result`);
        assert.equal(v.thrown, undefined, `${name}/${kind}: call failed: ${v.thrown}`);
        return v;
      };
      const why = (v) => `${JSON.stringify({ ...v, provider: undefined })}`;
      const p = PROGRAMS[name];

      const hello = r('hello');
      assert.equal(hello.stdout, p.helloOut ?? 'hello\n', `${name} hello stdout: ${why(hello)}`);
      assert.equal(hello.ok, true, `${name} hello: ${why(hello)}`);
      assert.equal(hello.verdict, 'OK');
      assert.equal(hello.exit_code, 0);
      assert.equal(hello.phase, 'run');
      assert.equal(hello.language, name);
      assert.equal(hello.code, undefined);
      if (l.compiled) {
        assert.equal(hello.cached, false, `${name}: first compile is not cached`);
        assert.ok(hello.compile_ms > 0, `${name}: compile_ms ${hello.compile_ms}`);
        const again = hello.again;
        assert.equal(again.stdout, hello.stdout, `${name} cached hello: ${why(again)}`);
        assert.equal(again.cached, true, `${name}: second identical run is served from the cache`);
        assert.equal(again.compile_ms, 0);
        assert.equal(again.verdict, 'OK');
      } else {
        assert.equal(hello.compile_ms, 0, `${name}: interpreted compile_ms`);
        assert.equal(hello.cached, undefined, `${name}: interpreted results carry no cached flag`);
      }

      const echo = r('echo');
      assert.equal(echo.stdout, STDIN, `${name} echo: ${why(echo)}`);
      assert.equal(echo.verdict, 'OK');

      const ex = r('exit3');
      assert.equal(ex.exit_code, 3, `${name} exit3: ${why(ex)}`);
      assert.equal(ex.ok, false);
      assert.equal(ex.verdict, 'RTE');
      assert.equal(ex.phase, 'run');
      assert.equal(ex.code, undefined, 'a program outcome carries no code');

      const crash = r('crash');
      assert.equal(crash.ok, false, `${name} crash: ${why(crash)}`);
      assert.equal(crash.verdict, 'RTE', `${name} crash: ${why(crash)}`);
      assert.equal(crash.phase, 'run', `${name} crash ran: ${why(crash)}`);
      assert.notEqual(crash.exit_code, 0);
      assert.equal(crash.timed_out, false);
      assert.ok(crash.stderr.length > 0 || crash.exit_code === null, `${name} crash says why: ${why(crash)}`);

      if (l.compiled) {
        const broken = r('broken');
        assert.equal(broken.phase, 'compile', `${name} broken: ${why(broken)}`);
        assert.equal(broken.ok, false);
        assert.equal(broken.verdict, 'RTE');
        assert.notEqual(broken.exit_code, 0);
        assert.equal(broken.duration_ms, broken.compile_ms, 'compile failure: duration_ms = compile_ms');
        assert.ok((broken.stderr + broken.stdout).length > 0, `${name}: the compiler said why`);
      }
    });
  }

  test('every installed language has programs here', () => {
    const missing = langs.filter((l) => l.status === 'installed' && !PROGRAMS[l.name]).map((l) => l.name);
    assert.deepEqual(missing, [], `installed but not exercised: ${missing.join(', ')}`);
  });
});
