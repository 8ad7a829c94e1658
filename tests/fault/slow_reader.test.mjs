// A stdio client that sends calls and stops reading the answers must not
// make the server hold every answer in memory: past a backlog of unread
// answers or of calls in flight the server stops reading input until the
// client catches up; nothing is lost.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { RawServer, waitFor, SKIP_NO_BINARY } from '../mcp/harness.mjs';

/** A field of /proc/<pid>/status in MiB (VmRSS, VmHWM), or null. */
function vmMiB(pid, field) {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch { return null; }
}

describe('a client that does not read its answers', { skip: SKIP_NO_BINARY, timeout: 180000 }, () => {
  let r;
  // Up to 1,024 calls wait in the server's queue at once here (INFLIGHT_HIGH
  // of supervisor/transport/stdio.c), served by 4 calc workers. With
  // calc_exact's 15 s limit the test assumed the queue drains in 15 s: at
  // load 8 (4,000-digit answers, a few ms each) calls 1094 and 2685 were
  // answered "every calc worker was busy ... retry it" (3 runs in 5). What
  // is tested here is the backpressure, not that limit (tests/fault/
  // head_of_line.test.mjs tests it), so every call gets 120 s.
  before(async () => {
    r = new RawServer({ env: { CODECALC_TEST_DEADLINE_MS: '120000' } });
    await r.initialize();
  });
  after(async () => { await r?.close(); });

  // Bug: every answer waited in the server's memory, without bound, for a
  // client that had stopped reading (here 8000 answers of 16 kB: 130 MB).
  test('the server stops reading input instead of holding every answer; all answers arrive later', async (t) => {
    const N = 8000;
    const pad = 'p'.repeat(1000); // the requests alone outgrow a pipe's buffer
    const answers = new Map();
    const done = new Promise((resolve) => {
      for (let i = 0; i < N; i++) {
        r.expect(5000000 + i, 170000).then((m) => {
          answers.set(i, m);
          if (answers.size === N) resolve();
        }, () => {});
      }
    });
    r.proc.stdout.pause();
    for (let i = 0; i < N; i++) {
      r.writeLine(`{"jsonrpc":"2.0","id":${5000000 + i},"method":"tools/call","params":{"_meta":{"pad":"${pad}"},` +
        `"name":"calc_exact","arguments":{"expr":"10**4000+${i}"}}}`);
    }
    // Either the server stops taking input (our writes stay queued, checked
    // over several polls) or, without the bound, its memory passes 80 MiB.
    let queuedPolls = 0;
    const settled = await waitFor(() => {
      const rss = vmMiB(r.pid, 'VmRSS');
      if (rss !== null && rss > 80) return 'grew';
      queuedPolls = r.proc.stdin.writableLength > 0 ? queuedPolls + 1 : 0;
      return queuedPolls >= 10 ? 'paused' : false;
    }, 120000, 200);
    const peak = vmMiB(r.pid, 'VmHWM');
    assert.equal(settled, 'paused', `the server's memory grew to ${peak} MiB`);
    r.proc.stdout.resume();
    await done;
    for (let i = 0; i < N; i++) {
      const v = answers.get(i).result?.structuredContent?.value;
      assert.equal(typeof v, 'string', `call ${i}: ${answers.get(i).__raw?.slice(0, 200)}`);
      assert.ok(v.startsWith('1000') && v.endsWith(String(i).padStart(4, '0')) && v.length === 4001, `call ${i} answered ${v.slice(0, 20)}...${v.slice(-10)}`);
    }
    assert.ok(peak < 80, `peak resident memory ${peak} MiB`);
    t.diagnostic(`peak resident memory of the server: ${peak.toFixed(1)} MiB`);
  });
});
