// The stdio server exits cleanly when its standard input ends, whatever
// kind of file it is. Regression: with stdin on /dev/null it waited forever
// (epoll refuses /dev/null, so end of file was never seen), and with stdin
// closed the first descriptor the server opened took number 0.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { openSync, closeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, SKIP_NO_BINARY } from './harness.mjs';
import { freshDir, removeDir } from '../ops/cli_util.mjs';

const PING = '{"jsonrpc":"2.0","id":7,"method":"ping"}\n';

/** Run the server with the given stdin; resolve {code, signal, stdout}. */
function serve(stdin, { shell } = {}) {
  const home = freshDir();
  const env = { PATH: process.env.PATH, HOME: home, CODECALC_HOME: home, BIN };
  const proc = shell
    ? spawn('/bin/sh', ['-c', shell], { env, stdio: ['ignore', 'pipe', 'ignore'] })
    : spawn(BIN, [], { env, stdio: [stdin, 'pipe', 'ignore'] });
  let out = '';
  proc.stdout.on('data', (d) => { out += d; });
  return new Promise((resolve) => {
    // No timed assertion: a hang fails by the test runner's timeout.
    proc.on('exit', (code, signal) => { removeDir(home); resolve({ code, signal, stdout: out }); });
  }).finally(() => { if (proc.exitCode === null) proc.kill('SIGKILL'); });
}

describe('stdio at end of input', { skip: SKIP_NO_BINARY, timeout: 60000 }, () => {
  test('regression: stdin on /dev/null exits 0', async () => {
    const fd = openSync('/dev/null', 'r');
    try {
      const r = await serve(fd);
      assert.equal(r.code, 0);
      assert.equal(r.stdout, '');
    } finally {
      closeSync(fd);
    }
  });

  test('a regular file: every line answered, then exit 0', async () => {
    const dir = freshDir();
    const file = join(dir, 'in.jsonl');
    writeFileSync(file, PING + PING.replace('7', '8').trimEnd()); // the last line has no newline
    const fd = openSync(file, 'r');
    try {
      const r = await serve(fd);
      assert.equal(r.code, 0);
      assert.deepEqual(r.stdout.trim().split('\n').map((l) => JSON.parse(l).id), [7, 8]);
    } finally {
      closeSync(fd);
      removeDir(dir);
    }
  });

  test('a pipe closed after a request: answered, then exit 0', async () => {
    const r = await serve(null, { shell: `printf '%s' '${PING.trim()}' | "$BIN"` });
    assert.equal(r.code, 0);
    assert.equal(JSON.parse(r.stdout).id, 7);
  });

  test('an empty pipe exits 0', async () => {
    const r = await serve(null, { shell: ': | "$BIN"' });
    assert.equal(r.code, 0);
  });

  test('regression: a closed stdin exits 0 (descriptor 0 is not reused)', async () => {
    const r = await serve(null, { shell: 'exec "$BIN" <&-' });
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
  });
});
