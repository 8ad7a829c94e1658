// Execution red team (lane execred): envelopes that misstated what a
// program did, each test named after the bug it locks out, through the
// MCP SDK client. docs/contract.md, "execute_code: output a program wrote
// without blocking is not lost (lane execred, 2026-12-04)".
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, SKIP_NO_BINARY, hasMemoryCgroup } from '../mcp/harness.mjs';

const LONG = { timeout: 120000 };

describe('execred: output written without blocking', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });
  const run = (args) => s.call('execute_code', args, LONG);

  // One non-blocking write of 100,000 bytes into the 64 KiB pipe took
  // 65,536 of them: the program printed less than it meant to and was OK
  // with output_truncated false, where everything it wrote is past the
  // 64 KiB cap (OLE).
  test('nonblocking_stdout_lost_past_64k: one non-blocking write of 100,000 bytes is taken whole', async () => {
    const code = 'import os, fcntl, sys\n'
      + 'fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_NONBLOCK)\n'
      + 'n = os.write(1, b"x" * 100000)\nsys.stderr.write(str(n))\n';
    for (const [cap, verdict] of [[0, 'OLE'], [240, 'OK']]) {
      const r = await run({ language: 'python3', code, max_output_kb: cap });
      assert.equal(r.stderr, '100000', `cap ${cap}: ${JSON.stringify(r).slice(0, 400)}`);
      assert.equal(r.stdout_bytes, 100000);
      assert.equal(r.verdict, verdict);
      assert.equal(r.output_truncated, verdict === 'OLE');
    }
  });

  // node's stdout pipe is asynchronous on POSIX: console.log of 100,000
  // bytes then process.exit(0) kept 65,536 of them (OK, not truncated) or
  // all of them (OLE), depending on how fast the sandbox drained; 300,000
  // under a 240 KiB cap was OK with 131,072.
  test('node_process_exit_lost_output: console.log then process.exit keeps every byte', async () => {
    for (let i = 0; i < 4; i++) {
      const r = await run({ language: 'node', code: "console.log('x'.repeat(100000)); process.exit(0)" });
      assert.equal(r.stdout_bytes, 100001, `run ${i}: ${JSON.stringify(r).slice(0, 300)}`);
      assert.equal(r.verdict, 'OLE');
      const big = await run({ language: 'node', code: "console.log('y'.repeat(200000)); process.exit(0)", max_output_kb: 240 });
      assert.equal(big.stdout_bytes, 200001, `run ${i}: ${JSON.stringify(big).slice(0, 300)}`);
      assert.equal(big.verdict, 'OK');
      assert.equal(big.stdout.length, 200001);
    }
  });
});

describe('execred: a program that exited before the clock', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });

  // The program prints its answer and exits 0 just before its 2 s budget,
  // leaving 450 sleeping processes. init kills and reaps them at every end
  // (130 ms here); the clock ran out meanwhile and the result was TLE,
  // timed_out true, exit_code 0, and stderr replaced by the timeout note.
  const leaver = (wait) => '#include <stdio.h>\n#include <time.h>\n#include <unistd.h>\n'
    + 'static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }\n'
    + 'int main(void) {\n  double t0 = now();\n'
    + '  for (int i = 0; i < 450; i++) { pid_t p = fork(); if (p == 0) { pause(); _exit(0); } }\n'
    + `  while (now() - t0 < ${wait}) usleep(500);\n`
    + '  printf("done\\n");\n  fflush(stdout);\n  return 0;\n}\n';
  test('exit_before_the_clock_read_as_tle: exit 0 just before the budget is OK, not TLE', async () => {
    let finished = 0;
    for (const wait of ['1.88', '1.91', '1.93']) {
      const r = await s.call('execute_code', { language: 'c', code: leaver(wait), timeout: 2 }, LONG);
      if (r.exit_code === null) continue; // the clock did kill it: a true TLE
      finished++;
      const what = `wait ${wait}: ${JSON.stringify(r).slice(0, 500)}`;
      assert.equal(r.stdout, 'done\n', what);
      assert.equal(r.exit_code, 0, what);
      assert.equal(r.timed_out, false, what);
      assert.equal(r.verdict, 'OK', what);
      assert.equal(r.ok, true, what);
      assert.equal(r.stderr, '', what);
    }
    assert.ok(finished >= 2, `only ${finished} of 3 runs exited before the clock`);
  });
});

describe('execred: MLE only where the ceiling refused an allocation', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });
  const run = (args) => s.call('execute_code', args, LONG);

  // Under a memory cgroup nothing refuses an allocation for the ceiling's
  // sake (past it the OOM killer ends the run). A python program printing
  // "out of memory" and exiting 1 at a peak of 3 MiB under a 256 MiB
  // ceiling was MLE ("an allocation failed ... under the memory ceiling"),
  // and so was a MemoryError the program raised itself.
  test('stderr_text_out_of_memory_read_as_mle: an exit the program chose is RTE under a cgroup', async (t) => {
    if (!hasMemoryCgroup()) { t.skip('no memory cgroup: rlimits hold the ceiling and refuse allocations'); return; }
    for (const code of [
      "import sys\nprint('cache: out of memory (simulated)', file=sys.stderr)\nsys.exit(1)",
      "raise MemoryError('pool exhausted')",
      'b = bytearray(10**13)',
    ]) {
      const r = await run({ language: 'python3', code, max_memory_mb: 256 });
      const what = `${code}: ${JSON.stringify(r).slice(0, 400)}`;
      assert.equal(r.verdict, 'RTE', what);
      assert.equal(r.exit_code, 1, what);
      assert.doesNotMatch(r.reason ?? '', /ceiling/, what);
    }
    // the ceiling itself still ends a hog: MLE
    const hog = await run({ language: 'python3', code: 'x = b"x" * (300 << 20)\nprint(len(x))', max_memory_mb: 64 });
    assert.equal(hog.verdict, 'MLE', JSON.stringify(hog).slice(0, 400));
  });
});
