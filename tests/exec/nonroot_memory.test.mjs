// A non-root server has no memory cgroup: the memory ceiling is an rlimit.
// Under RLIMIT_AS at the ceiling java and go could not even start (java:
// "Could not reserve enough space for code cache", go: "failed to reserve
// page summary memory"), whatever the program did. They now get RLIMIT_DATA
// at the ceiling (what they commit) and address space past it for what they
// only reserve (docs/languages.md "Limits"). Run here, as root, by starting
// `codecalc call` as uid 65534 in a private home: the path a non-root
// server takes, proven on every root `make check` too.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, mkdirSync, rmSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { BIN, SKIP_NO_BINARY } from '../mcp/harness.mjs';

const NOBODY = 65534;

function why() {
  if (SKIP_NO_BINARY) return SKIP_NO_BINARY;
  if (process.getuid() !== 0) return 'not root: cannot start a server as another uid (a non-root make check runs this path in every memory test)';
  if (spawnSync('setpriv', ['--version']).status !== 0) return 'setpriv (util-linux) is not installed';
  return null;
}

describe('memory ceiling under a non-root server (no memory cgroup)', { skip: why() ?? false, timeout: 600000 }, () => {
  let home;
  before(() => {
    home = mkdtempSync(join(tmpdir(), 'codecalc-nonroot-'));
    chmodSync(home, 0o755);
    for (const d of ['h', 't']) mkdirSync(join(home, d));
    for (const d of ['', 'h', 't']) chownSync(join(home, d), NOBODY, NOBODY);
  });
  after(() => rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));

  function call(tool, args) {
    // `codecalc call` exits non-zero for a result that is not ok: read its stdout anyway.
    const r = spawnSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', BIN, 'call', tool, JSON.stringify(args)], {
      env: { PATH: process.env.PATH, HOME: home, CODECALC_HOME: join(home, 'h'), TMPDIR: join(home, 't') },
      encoding: 'utf8', timeout: 300000,
    });
    assert.ok(r.stdout, `codecalc call ${tool} printed nothing: ${r.stderr}`);
    const j = JSON.parse(r.stdout);
    return j.structuredContent ?? j;
  }
  const langAvailable = (lang) => {
    const l = call('list_languages', {});
    return (Array.isArray(l) ? l : l.languages ?? []).some((x) => x.name === lang && x.available === true);
  };

  const programs = {
    java: (n) => `public class Main { public static void main(String[] a) { byte[][] k = new byte[${n}][]; for (int i = 0; i < ${n}; i++) { k[i] = new byte[1 << 20]; k[i][i % 4096] = 1; } int s = 0; for (int i = 0; i < ${n}; i++) s += k[i][i % 4096]; System.out.println("ok " + s); } }`,
    // Every block is read back at the end, so none can be freed or optimised away.
    go: (n) => `package main\nimport "fmt"\nvar k [][]byte\nfunc main() { for i := 0; i < ${n}; i++ { b := make([]byte, 1<<20); b[i%4096] = 1; k = append(k, b) }; s := 0; for i, b := range k { s += int(b[i%4096]) }; fmt.Println("ok", s) }\n`,
  };
  const oom = { java: /java\.lang\.OutOfMemoryError/, go: /fatal error: runtime: out of memory/ };

  for (const lang of ['java', 'go']) {
    test(`regression: ${lang} could not start under a non-root server's memory ceiling (256 MiB): it runs, and past the ceiling it is MLE`, async (t) => {
      const probe = call('execute_code', { language: 'bash', code: 'id -u' });
      if (probe.stdout !== `${NOBODY}\n`) return t.skip(`the run is not uid ${NOBODY}: ${JSON.stringify(probe).slice(0, 300)}`);
      if (!probe.unenforced?.some((u) => u.startsWith('pids_cgroup:'))) return t.skip('uid 65534 got cgroups here: not the non-root path');
      if (!langAvailable(lang)) return t.skip(`${lang} is not installed`);
      const ok = call('execute_code', { language: lang, code: programs[lang](10), max_memory_mb: 256, timeout: 120 });
      assert.equal(ok.verdict, 'OK', JSON.stringify({ ...ok, provider: undefined }).slice(0, 1500));
      assert.equal(ok.stdout, 'ok 10\n');
      assert.ok(ok.unenforced.some((u) => u.startsWith('memory_cgroup:') && u.includes('RLIMIT_DATA holds the private writable memory')
        && u.includes('at the ceiling plus 4096 MiB')), JSON.stringify(ok.unenforced));
      const over = call('execute_code', { language: lang, code: programs[lang](400), max_memory_mb: 256, timeout: 120 });
      assert.equal(over.verdict, 'MLE', JSON.stringify({ ...over, provider: undefined }).slice(0, 1500));
      assert.match(over.stderr, oom[lang]);
    });
  }
});
