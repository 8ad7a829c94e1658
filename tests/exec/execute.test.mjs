// execute_code and execute_code_stream through the MCP SDK client over
// stdio (TOOLS.md 1.3-1.9, 1.12, 3.1.3, 3.1.4, 6). Every verdict is produced
// on purpose and checked field by field; the receipt's spec_hash is checked
// against the golden vector and against our own canonical encoding.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startServer, assertRejected, SKIP_NO_BINARY, CONTRACT_VERSION, assertHostDisclosures, hasMemoryCgroup, RawServer } from '../mcp/harness.mjs';

const ENVELOPE_KEYS = [
  'ok', 'language', 'phase', 'backend', 'platform', 'stdout', 'stderr', 'exit_code',
  'timed_out', 'verdict', 'output_truncated', 'output_error', 'stdout_bytes', 'stderr_bytes',
  'duration_ms', 'compile_ms', 'total_ms', 'cpu_ms', 'peak_memory_kb', 'unenforced', 'workdir',
];
const TIMEOUT_TEXT = '<killed: exceeded wall-clock timeout>';
const LONG = { timeout: 120000 };

/** The canonical spec document of TOOLS.md 1.9, hashed here independently. */
function specHash(spec) {
  const full = {
    code: spec.code, language: spec.language, max_cpu: spec.max_cpu ?? 0,
    max_memory_mb: spec.max_memory_mb ?? 0, max_output_kb: spec.max_output_kb ?? 0,
    no_net: spec.no_net ?? false, stdin: spec.stdin ?? '', timeout: spec.timeout ?? 10,
    workdir: spec.workdir ?? null,
  };
  // Keys are already in code-point order; JSON.stringify emits non-ASCII raw.
  const text = JSON.stringify({ schema_version: '1.0.0', spec: full });
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

describe('execute_code over MCP', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });
  const run = (args) => s.call('execute_code', args, LONG);
  let langs;
  /** Is the runtime for name installed on this host (list_languages)? */
  async function langAvailable(name) {
    langs ??= JSON.parse((await s.client.callTool({ name: 'list_languages', arguments: {} })).content[0].text);
    return langs.some((l) => l.name === name && l.available);
  }

  test('OK: the spec example, all 21 envelope keys', async () => {
    const r = await run({ language: 'python3', code: "print('mcp ok', 6*7)" });
    for (const k of ENVELOPE_KEYS) assert.ok(k in r, `missing ${k}`);
    assert.equal(r.ok, true);
    assert.equal(r.verdict, 'OK');
    assert.equal(r.stdout, 'mcp ok 42\n');
    assert.equal(r.stderr, '');
    assert.equal(r.exit_code, 0);
    assert.equal(r.stdout_bytes, 10);
    assert.equal(r.stderr_bytes, 0);
    assert.equal(r.language, 'python3');
    assert.equal(r.phase, 'run');
    assert.equal(r.backend, 'native');
    assert.equal(r.platform, 'linux');
    assert.equal(r.timed_out, false);
    assert.equal(r.output_truncated, false);
    assert.equal(r.output_error, null);
    assert.equal(r.compile_ms, 0);
    assert.ok(r.total_ms >= r.duration_ms, `total ${r.total_ms} < duration ${r.duration_ms}`);
    assert.ok(Array.isArray(r.unenforced));
    assert.match(r.workdir, /\/codecalc-\d+-[0-9a-f]+$/);
    assert.equal(r.code, undefined);
  });

  // Regression: the mask that hides other runs' directories covered the
  // private /tmp when the run directory lived under /tmp, so /tmp was read-only.
  test('regression: a program can write its private /tmp, and it leaves no trace', async () => {
    const r = await run({ language: 'bash', code: 'echo hi > /tmp/probe-$$ && cat /tmp/probe-$$' });
    assert.equal(r.verdict, 'OK', r.stderr);
    assert.equal(r.stdout, 'hi\n');
    assertHostDisclosures(r.unenforced);
  });

  test('aliases resolve to the canonical name', async () => {
    const r = await run({ language: '  PY ', code: 'print(2)' });
    assert.equal(r.language, 'python3');
    assert.equal(r.stdout, '2\n');
  });

  test('RTE: exit status 3 is a program outcome, not a rejection', async () => {
    const r = await run({ language: 'python3', code: 'import sys; sys.exit(3)' });
    assert.equal(r.ok, false);
    assert.equal(r.verdict, 'RTE');
    assert.equal(r.exit_code, 3);
    assert.equal(r.timed_out, false);
    assert.equal(r.code, undefined);
    assert.equal(r.error, undefined);
  });

  test('RTE: killed by a signal without a memory ceiling', async () => {
    const r = await run({ language: 'python3', code: 'import os, signal\nos.kill(os.getpid(), signal.SIGKILL)' });
    assert.equal(r.verdict, 'RTE');
    assert.equal(r.exit_code, null);
    assert.equal(r.ok, false);
  });

  test('TLE: the spec example', async () => {
    const r = await run({ language: 'python3', code: 'while True: pass', timeout: 2 });
    assert.equal(r.verdict, 'TLE');
    assert.equal(r.timed_out, true);
    assert.equal(r.ok, false);
    assert.equal(r.exit_code, null);
    assert.equal(r.stderr, TIMEOUT_TEXT);
    assert.equal(r.stderr_bytes, 0);
    assert.ok(r.duration_ms >= 1900 && r.duration_ms < 6000, `duration_ms ${r.duration_ms}`);
  });

  test('TLE keeps what the program wrote to stderr', async () => {
    const r = await run({
      language: 'python3', code: 'import sys, time\nsys.stderr.write("late\\n"); sys.stderr.flush()\ntime.sleep(30)', timeout: 1,
    });
    assert.equal(r.verdict, 'TLE');
    assert.equal(r.stderr, 'late\n');
    assert.equal(r.stderr_bytes, 5);
  });

  test('OLE with exit 0 is ok:true; the cap and marker are exact', async () => {
    const r = await run({ language: 'python3', code: "print('x' * 2000)", max_output_kb: 1 });
    assert.equal(r.verdict, 'OLE');
    assert.equal(r.ok, true, 'exited 0: ok stays true under OLE');
    assert.equal(r.exit_code, 0);
    assert.equal(r.output_truncated, true);
    assert.equal(r.stdout, `${'x'.repeat(1024)}\n...[truncated]`);
    assert.equal(r.stdout.length, 1039);
    assert.equal(r.stdout_bytes, 2001, 'below the file-size ceiling the count is exact');
  });

  test('OLE: output past the cap is drained and counted exactly (issue 11.3)', async () => {
    const r = await run({ language: 'python3', code: "print('y' * 200000)", max_output_kb: 1 });
    assert.equal(r.verdict, 'OLE');
    assert.equal(r.output_truncated, true);
    assert.equal(r.stdout.length, 1039);
    assert.equal(r.stdout_bytes, 200001);
    assert.equal(r.exit_code, 0);
  });

  test('MLE: a signal death near the memory ceiling', async () => {
    // malloc until the 64 MiB address-space ceiling refuses, then abort():
    // killed by a signal with peak >= half the ceiling.
    const code = '#include <stdlib.h>\n#include <string.h>\n'
      + 'int main(void){for(;;){char*p=malloc(1<<20);if(!p)abort();memset(p,1,1<<20);}}\n';
    const r = await run({ language: 'c', code, max_memory_mb: 64, timeout: 30 });
    assert.equal(r.verdict, 'MLE', JSON.stringify({ ...r, provider: undefined }));
    assert.equal(r.ok, false);
    assert.equal(r.exit_code, null);
    assert.equal(r.phase, 'run');
    assert.ok(r.peak_memory_kb >= 32 * 1024, `peak ${r.peak_memory_kb}`);
    // Each limit named once, though compile and run each reported theirs.
    assertHostDisclosures(r.unenforced, { memory: true });
  });

  test('memory ceiling: 300 MB under 32 MiB is MLE (issue 11.2)', async () => {
    const r = await run({ language: 'python3', code: 'x = bytearray(300 * 1024 * 1024)\nprint(len(x))', max_memory_mb: 32 });
    assert.equal(r.ok, false);
    assert.equal(r.verdict, 'MLE');
    assert.equal(r.stdout, '');
  });

  // Regressions of issue 11.2: RLIMIT_AS broke runtimes that reserve address
  // space. The memory cgroup holds the ceiling now. Where there is none (a
  // non-root server) java and go get RLIMIT_DATA at the ceiling and address
  // space past it (they could not start under RLIMIT_AS: nonroot_memory.test),
  // others RLIMIT_AS, and the result says which. node (which hung at 128 MB
  // and aborted at 256 and 512) runs with V8 holding its heap and room for
  // its reservations. Returns true when the run may not have started (a
  // runtime without that provision under RLIMIT_AS).
  const reservesAddressSpace = (r, lang) => {
    if (hasMemoryCgroup()) return false;
    const data = ['java', 'go', 'kotlin'].includes(lang);
    const want = data ? 'RLIMIT_DATA holds the private writable memory' : '(java, go) may not start';
    assert.ok(r.unenforced.some((u) => u.startsWith('memory_cgroup:') && u.includes(want)), JSON.stringify(r.unenforced));
    return !data && r.verdict !== 'OK';
  };
  const nodeDisclosed = (r) => {
    if (hasMemoryCgroup()) return;
    assert.ok(r.unenforced.some((u) => u.startsWith('memory_cgroup:') && u.includes('at the ceiling plus 1024 MiB')),
      JSON.stringify(r.unenforced));
  };
  for (const mb of [128, 256, 512]) {
    test(`regression: max_memory_mb broke node, which reserves address space (node at ${mb} MB)`, async () => {
      const r = await run({ language: 'node', code: 'console.log([1,2,3].map(x => x * 2).join(","))', max_memory_mb: mb, timeout: 30 });
      nodeDisclosed(r);
      assert.equal(r.verdict, 'OK', JSON.stringify({ ...r, provider: undefined }));
      assert.equal(r.stdout, '2,4,6\n');
    });
  }

  test('node past its ceiling is MLE (V8 holds the heap at max_memory_mb)', async () => {
    const r = await run({ language: 'node', code: 'const a = []; for (;;) a.push(new Array(1e5).fill(a.length));', max_memory_mb: 128, timeout: 60 });
    nodeDisclosed(r);
    assert.equal(r.verdict, 'MLE', JSON.stringify({ ...r, provider: undefined }));
    assert.equal(r.timed_out, false);
  });

  test('regression: max_memory_mb breaks runtimes that reserve address space (java at 512 MB)', async (t) => {
    if (!(await langAvailable('java'))) return t.skip('java is not installed');
    const r = await run({ language: 'java', code: 'public class Main { public static void main(String[] a) { System.out.println("jvm " + (6 * 7)); } }', max_memory_mb: 512, timeout: 60 });
    if (reservesAddressSpace(r, 'java')) return;
    assert.equal(r.verdict, 'OK', JSON.stringify({ ...r, provider: undefined }));
    assert.equal(r.stdout, 'jvm 42\n');
  });

  for (const [lang, code, want] of [
    ['go', 'package main\nimport "fmt"\nfunc main() { fmt.Println("go", 6*7) }\n', 'go 42\n'],
    ['rust', 'fn main() { println!("rust {}", 6 * 7); }\n', 'rust 42\n'],
  ]) {
    test(`regression: compiling ${lang} under max_memory_mb 256 uses the compile budget, not the program's`, async (t) => {
      if (!(await langAvailable(lang))) return t.skip(`${lang} is not installed`);
      const r = await run({ language: lang, code: `${code}// ${process.pid}\n`, max_memory_mb: 256, timeout: 120 });
      // The compile step ran under its own budget either way.
      assert.equal(r.phase, 'run', JSON.stringify({ ...r, provider: undefined }));
      if (reservesAddressSpace(r, lang)) return;
      assert.equal(r.verdict, 'OK', JSON.stringify({ ...r, provider: undefined }));
      assert.equal(r.stdout, want);
    });
  }

  test('regression: why a program died (signal number, name and reason)', async () => {
    const r = await run({ language: 'c', code: `int main(void){volatile int *p = 0; return *p;} // ${process.pid}\n` });
    assert.equal(r.verdict, 'RTE');
    assert.equal(r.exit_code, null);
    assert.deepEqual(r.signal, { number: 11, name: 'SIGSEGV' });
    assert.match(r.reason, /SIGSEGV/);
    const t = await run({ language: 'bash', code: 'sleep 5', timeout: 1 });
    assert.deepEqual(t.signal, { number: 9, name: 'SIGKILL' });
    assert.match(t.reason, /killed by the sandbox.*timeout/);
    const m = await run({ language: 'python3', code: 'x = bytearray(300 << 20)', max_memory_mb: 32 });
    // Without a memory cgroup RLIMIT_AS makes the allocation fail instead.
    assert.match(m.reason, hasMemoryCgroup() ? /killed by the sandbox.*memory ceiling of 32 MiB/
      : /^an allocation failed \(MemoryError\) under the memory ceiling$/);
    const ok = await run({ language: 'python3', code: 'print(1)' });
    assert.equal(ok.signal, undefined);
    assert.equal(ok.reason, undefined);
  });

  test('regression: a non-root server\'s honest disclosures broke the 1 KB bound; a trivial result stays under 1 KB besides unenforced unless receipt: true asks for the full receipt', async () => {
    const r = await run({ language: 'python3', code: 'print(1)' });
    // The bound is on what the result itself carries. The host's disclosures
    // are not counted: a non-root server honestly lists four of them (about
    // 800 bytes), checked here to be exactly the host's, and compact: true
    // is the remedy for a caller who wants them short.
    assertHostDisclosures(r.unenforced);
    const own = JSON.stringify({ ...r, unenforced: [] }).length;
    assert.ok(own <= 1024, `${own} bytes besides unenforced`);
    assert.deepEqual(Object.keys(r.provider), ['provider_id', 'spec_hash', 'receipt_detail']);
    assert.equal(r.provider.spec_hash, 'sha256:a5093b8724c9815a4d05452288027446d17416b4009dc1e1fde9e36aea163089');
    const full = await run({ language: 'python3', code: 'print(1)', receipt: true });
    assert.equal(full.provider.receipt_version, '1.2.0');
    assert.equal(full.provider.spec_hash, r.provider.spec_hash);
  });

  test('stdin reaches the program', async () => {
    const r = await run({ language: 'python3', code: 'import sys\nprint(sys.stdin.read()[::-1])', stdin: 'abc' });
    assert.equal(r.stdout, 'cba\n');
  });

  test('compile failure: phase compile, duration_ms = compile_ms', async () => {
    const r = await run({ language: 'c', code: 'int main(void){ return nope; }\n', timeout: 30 });
    assert.equal(r.phase, 'compile');
    assert.equal(r.ok, false);
    assert.equal(r.verdict, 'RTE');
    assert.equal(r.exit_code, 1);
    assert.equal(r.duration_ms, r.compile_ms);
    assert.match(r.stderr, /nope/);
    assert.equal(r.cached, false);
  });

  test('compile cache: a second identical C run is served from the cache', async () => {
    const code = '#include <stdio.h>\nint main(void){puts("cached hello");return 0;}\n';
    const first = await run({ language: 'c', code, timeout: 30 });
    assert.equal(first.stdout, 'cached hello\n');
    assert.equal(first.cached, false);
    assert.ok(first.compile_ms > 0, `first compile_ms ${first.compile_ms}`);
    const second = await run({ language: 'c', code, timeout: 30 });
    assert.equal(second.stdout, 'cached hello\n');
    assert.equal(second.ok, true);
    assert.equal(second.cached, true);
    assert.equal(second.compile_ms, 0);
    // A one-byte change is a different key.
    const third = await run({ language: 'c', code: code.replace('hello', 'hellO'), timeout: 30 });
    assert.equal(third.cached, false);
    assert.equal(third.stdout, 'cached hellO\n');
  });

  test('receipt: golden spec_hash for python3 print(1) with all defaults', async () => {
    const r = await run({ language: 'python3', code: 'print(1)', receipt: true });
    const p = r.provider;
    assert.equal(p.spec_hash, 'sha256:a5093b8724c9815a4d05452288027446d17416b4009dc1e1fde9e36aea163089');
    assert.equal(p.spec_hash, specHash({ language: 'python3', code: 'print(1)' }), 'our own encoding agrees');
    assert.equal(p.source_sha256, `sha256:${createHash('sha256').update('print(1)').digest('hex')}`);
    assert.equal(p.receipt_version, '1.2.0');
    assert.equal(p.interface_version, '1.0.0');
    assert.equal(p.provider_id, 'local');
    assert.equal(p.session_id, null);
    assert.equal(p.spec_schema_version, '1.0.0');
    assert.deepEqual(p.limits.requested, {
      timeout_seconds: 10, max_memory_mb: 0, max_output_kb: 0, max_cpu_seconds: 0, no_net: false,
    });
    assert.deepEqual(p.limits.unenforced, r.unenforced);
    assert.equal(p.determinism.source, 'env_allowlist');
    assert.equal(p.determinism.timezone, null);
    assert.equal(p.determinism.seed, null);
  });

  test('receipt: the language is hashed as spelled, every field counts', async () => {
    const specs = [
      { language: 'py', code: 'print(1)' },
      { language: 'python3', code: 'print("é ∑ 😀")', stdin: '7\n', timeout: 30, max_memory_mb: 256, max_output_kb: 64, max_cpu: 5, no_net: true },
    ];
    const hashes = [];
    for (const spec of specs) {
      const r = await run(spec);
      assert.equal(r.provider.spec_hash, specHash(spec), JSON.stringify(spec));
      hashes.push(r.provider.spec_hash);
    }
    assert.notEqual(hashes[0], 'sha256:a5093b8724c9815a4d05452288027446d17416b4009dc1e1fde9e36aea163089');
    const full = await run({ ...specs[1], receipt: true });
    assert.equal(full.stdout, 'é ∑ 😀\n');
    // Every control was requested: each is reported unless its marker word
    // appears in the unenforced list (1.9).
    const text = full.unenforced.join('\n').toLowerCase();
    const markers = [['timeout', ['timeout']], ['max_memory_mb', ['memory']], ['max_output_kb', ['output']],
      ['max_cpu', ['cpu']], ['no_net', ['no_net', 'network']]];
    const expect = markers.filter(([, words]) => !words.some((w) => text.includes(w))).map(([k]) => k);
    assert.deepEqual(full.provider.limits.provider_reported_enforced, expect);
    assert.ok(expect.includes('timeout'));
  });

  test('timeout is clamped to 120 in the receipt; < 1 means 1', async () => {
    const hi = await run({ language: 'python3', code: 'print(1)', timeout: 500, receipt: true });
    assert.equal(hi.provider.limits.requested.timeout_seconds, 120);
    const lo = await run({ language: 'python3', code: 'print(1)', timeout: 0, receipt: true });
    assert.equal(lo.provider.limits.requested.timeout_seconds, 1);
  });

  test('compact: the spec example shape, in order', async () => {
    const r = await run({ language: 'python3', code: "print('z')", compact: true });
    assert.equal(r.ok, true);
    assert.equal(r.verdict, 'OK');
    assert.equal(r.stdout, 'z\n');
    assert.equal(r.exit_code, 0);
    const keys = Object.keys(r).filter((k) => k !== 'contract_version');
    const expect = r.unenforced ? ['ok', 'verdict', 'stdout', 'exit_code', 'unenforced', 'provider', 'unenforced_detail']
      : ['ok', 'verdict', 'stdout', 'exit_code', 'provider'];
    assert.deepEqual([...keys].sort(), [...expect].sort());
    assert.deepEqual(keys.slice(0, 4), ['ok', 'verdict', 'stdout', 'exit_code']);
    for (const k of ['stderr', 'cpu_ms', 'duration_ms', 'workdir', 'platform', 'backend', 'language', 'stdout_bytes']) {
      assert.equal(r[k], undefined, `compact drops ${k}`);
    }
    assert.deepEqual(Object.keys(r.provider),
      ['receipt_version', 'provider_id', 'session_id', 'spec_hash', 'limits', 'receipt_detail']);
    assert.equal(r.provider.receipt_detail, 'call without compact=True for capabilities, determinism, '
      + 'host_class, interface_version, provider_version, source_sha256, spec_schema_version');
    assert.equal(r.provider.spec_hash, specHash({ language: 'python3', code: "print('z')" }));
    assert.equal(r.contract_version, CONTRACT_VERSION);
  });

  test('compact keeps a failing run small but exact', async () => {
    const r = await run({ language: 'python3', code: 'import sys; print("a"); sys.exit(4)', compact: true });
    assert.equal(r.ok, false);
    assert.equal(r.verdict, 'RTE');
    assert.equal(r.stdout, 'a\n');
    assert.equal(r.exit_code, 4);
  });

  const languages = async () =>
    JSON.parse((await s.client.callTool({ name: 'list_languages', arguments: {} })).content[0].text);

  test('unknown language is rejected with what runs here; compact does not apply', async () => {
    const langs = await languages();
    const here = langs.filter((l) => l.status === 'installed').map((l) => l.name);
    const absent = langs.filter((l) => l.status !== 'installed').map((l) => l.name);
    const expected = `unknown language 'klingon'. Available: ${here.join(', ')}` +
      (absent.length ? `. Not installed here: ${absent.join(', ')}` : '');
    for (const compact of [false, true]) {
      const r = await run({ language: 'klingon', code: 'x', compact });
      assertRejected(r, 'validation');
      assert.equal(r.error, expected);
      assert.deepEqual(r.available_languages, here);
      assert.deepEqual(r.not_installed, absent);
      assert.equal(r.verdict, undefined);
    }
  });

  test('regression: the unknown-language refusal listed languages whose runtime is absent as Available (issue 16)', async (t) => {
    const absent = (await languages()).find((l) => l.status !== 'installed');
    if (!absent) return t.skip('every known language is installed here, so none can be wrongly offered');
    for (const [tool, args] of [['execute_code', { language: 'klingon', code: 'x' }],
      ['session_start', { language: 'klingon' }]]) {
      const r = await s.call(tool, args);
      assert.equal(r.code, 'validation', tool);
      const available = r.error.match(/Available: ([^.]*)/)[1].split(', ');
      assert.ok(!available.includes(absent.name), `${tool} offers ${absent.name}: ${r.error}`);
      assert.ok(!r.available_languages.includes(absent.name), tool);
      assert.ok(r.not_installed.includes(absent.name), tool);
    }
  });

  test('a runtime that does not resolve: runtime_unavailable envelope', async (t) => {
    const langs = JSON.parse((await s.client.callTool({ name: 'list_languages', arguments: {} })).content[0].text);
    const missing = langs.find((l) => l.status !== 'installed' && !['gleam', 'haskell'].includes(l.name));
    if (!missing) return t.skip('every runtime is installed here');
    const r = await run({ language: missing.name, code: 'x' });
    assert.equal(r.code, 'runtime_unavailable');
    assert.equal(r.verdict, 'RTE');
    assert.equal(r.ok, false);
    assert.equal(r.exit_code, null);
    assert.equal(r.stdout_bytes, null);
    assert.equal(r.stderr_bytes, null);
    const argv0 = missing.run.split(' ')[0];
    assert.equal(r.error.startsWith(`runtime unavailable for the run phase of '${missing.name}': '${argv0}' (`), true, r.error);
    assert.equal(r.stderr, r.error);
    assert.equal(typeof r.remedy, 'string');
  });
});

describe('execute_code_stream over stdio', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });

  test('progress notifications: strictly increasing, each message the new output', async () => {
    const seen = [];
    const code = "import time\nfor i in range(3):\n print('tick', i); time.sleep(0.3)";
    const res = await s.callRaw('execute_code_stream', { language: 'python3', code, receipt: true },
      { ...LONG, onprogress: (p) => seen.push(p) });
    const r = res.structuredContent;
    assert.equal(r.ok, true);
    assert.equal(r.stdout, 'tick 0\ntick 1\ntick 2\n');
    assert.equal(r.streamed, true);
    assert.match(r.streamed_partial, /tick/);
    assert.ok(r.provider, 'stream results carry the receipt');
    assert.equal(r.provider.limits.requested.timeout_seconds, 30, 'stream default timeout is 30');
    assert.ok(seen.length >= 2, `want >= 2 progress notifications, got ${JSON.stringify(seen)}`);
    for (let i = 0; i < seen.length; i++) {
      // The message is the output the program wrote since the last one.
      const from = i ? seen[i - 1].progress : 0;
      assert.equal(seen[i].message, r.stdout.slice(from, seen[i].progress));
      assert.equal(seen[i].total, undefined);
      assert.equal(seen[i].progress % 7, 0, 'each tick line is 7 bytes');
      if (i) assert.ok(seen[i].progress > seen[i - 1].progress, 'strictly increasing');
    }
    assert.ok(seen.at(-1).progress <= 21);
  });

  test('progress message is bounded to the last 1 KiB of new output, on character boundaries', async () => {
    const seen = [];
    // 3000 two-byte characters in one write, then a pause: one tick sees
    // 6000 new bytes, more than a message carries.
    const code = "import sys, time\nsys.stdout.write('\u00e9' * 3000); sys.stdout.flush()\ntime.sleep(0.6)\nprint('end')";
    const res = await s.callRaw('execute_code_stream', { language: 'python3', code },
      { ...LONG, onprogress: (p) => seen.push(p) });
    assert.equal(res.structuredContent.ok, true);
    const big = seen.find((p) => p.progress === 6000);
    assert.ok(big, `a notification at 6000 bytes: ${JSON.stringify(seen.map((p) => p.progress))}`);
    assert.ok(big.message.startsWith('\u2026'), 'a cut message starts with an ellipsis');
    const body = big.message.slice(1);
    assert.match(body, /^\u00e9+$/, 'no broken character at the cut');
    assert.ok(Buffer.byteLength(body) <= 1024, `at most 1 KiB of output: ${Buffer.byteLength(body)}`);
    assert.ok(Buffer.byteLength(body) >= 1022, 'the whole last KiB (less a split character)');
  });

  test('without a progress token: still streamed, partial text kept', async () => {
    const r = await s.call('execute_code_stream', { language: 'python3', code: 'print("quiet")' }, LONG);
    assert.equal(r.streamed, true);
    assert.equal(r.streamed_partial, 'quiet\n');
    assert.equal(r.stdout, 'quiet\n');
  });

  test('streamed_partial is cut like stdout', async () => {
    const r = await s.call('execute_code_stream',
      { language: 'python3', code: "import time\nprint('p' * 3000)\ntime.sleep(0.6)", max_output_kb: 1 }, LONG);
    assert.equal(r.verdict, 'OLE');
    assert.equal(r.stdout, `${'p'.repeat(1024)}\n...[truncated]`);
    assert.equal(r.streamed_partial, r.stdout);
  });

  test('timeout clamps to 300 on the stream tool', async () => {
    const r = await s.call('execute_code_stream', { language: 'python3', code: 'print(1)', timeout: 1000, receipt: true }, LONG);
    assert.equal(r.provider.limits.requested.timeout_seconds, 300);
  });

  test('memory ceilings bite as on execute_code', async () => {
    const r = await s.call('execute_code_stream',
      { language: 'python3', code: 'x = bytearray(300 * 1024 * 1024)', max_memory_mb: 32 }, LONG);
    assert.equal(r.ok, false);
    assert.ok(['MLE', 'RTE'].includes(r.verdict), r.verdict);
  });
});

// A raw client: the SDK drops a progress notification that arrives in the
// same read as the response (it handles notifications a tick later, after
// the response removed the handler), so it cannot see the last one.
describe('execute_code_stream: the progress stream is complete', { skip: SKIP_NO_BINARY }, () => {
  test('regression: stream_last_output_never_notified (output written after the last tick reaches the progress stream)', async () => {
    const s = new RawServer();
    try {
      await s.initialize();
      // The last bytes are written just before exit, after a character split
      // across ticks: the stream stopped at 'first\n\u00e9' (progress 8 of
      // 16 bytes); a print-and-exit program sent no notification at all.
      const codes = [
        "import sys, time\nsys.stdout.buffer.write('first\\n\\u00e9\\u20ac'.encode()[:9]); sys.stdout.flush()\ntime.sleep(0.6)\nsys.stdout.buffer.write('\\u20ac'.encode()[1:] + b'last\\n')",
        "print('only line')",
      ];
      for (const [k, code] of codes.entries()) {
        s.notifications.length = 0;
        const token = `t${k}`;
        const msg = await s.request('tools/call',
          { name: 'execute_code_stream', arguments: { language: 'python3', code }, _meta: { progressToken: token } },
          { timeoutMs: 60000 });
        const sc = msg.result.structuredContent;
        assert.equal(sc.ok, true, JSON.stringify(sc));
        const seen = s.notifications.filter((n) => n.method === 'notifications/progress' && n.params.progressToken === token)
          .map((n) => n.params);
        assert.ok(seen.length >= 1, 'at least one notification');
        assert.equal(seen.at(-1).progress, sc.stdout_bytes, 'the stream ends at the result\'s byte count');
        assert.equal(seen.map((p) => p.message).join(''), sc.stdout, 'the messages carry the whole output, in order');
      }
    } finally {
      await s.close();
    }
  });
});
