// Soak (`make soak`, not part of `make check`): SOAK_MINUTES (default 60) of
// mixed load on a stdio and an HTTP server, sampled once a minute at a
// quiet moment (every client paused, nothing in flight): the supervisor's
// resident memory, its descriptors beyond one socket per live worker, and
// the number of processes of ours. After a warm-up, descriptors must not
// change at all, memory must stay within 10% + 4 MiB of what it was in the
// first third of the run, and processes must not pile up. Every call must
// get its own right answer (see ../fault/load.mjs).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { RawServer, sleep, SKIP_NO_BINARY } from '../mcp/harness.mjs';
import { startHttp } from '../http/http_harness.mjs';
import { ownedProcesses, fdCounts, liveChildren } from '../fault/ours.mjs';
import {
  rand, privateDir, serverEnv, stdioTransport, httpTransport, tally, resetTally,
  calc, symbolic, execute, replStep, runStep,
} from '../fault/load.mjs';

const MINUTES = Number(process.env.SOAK_MINUTES || 60);
const CLIENTS_PER_SERVER = 8;
const WARMUP = MINUTES >= 6 ? 2 : 0; // samples left out of the comparison

function rssKb(pid) {
  try {
    return Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
  } catch { return null; }
}

describe(`soak: ${MINUTES} minutes of mixed load`, { skip: SKIP_NO_BINARY, timeout: (MINUTES + 10) * 60000 }, () => {
  const servers = [];
  const markers = [];

  before(async () => {
    const home = privateDir('codecalc-soak-home-'), tmp = privateDir('codecalc-soak-tmp-');
    const r = new RawServer({ env: serverEnv(home, tmp) });
    await r.initialize();
    rmSync(r.home, { recursive: true, force: true });
    servers.push({ kind: 'stdio', pid: r.pid, home, tmp, transport: async () => stdioTransport(r),
      close: () => r.close() });
    const hh = privateDir('codecalc-soak-home-'), ht = privateDir('codecalc-soak-tmp-');
    const h = await startHttp({ env: serverEnv(hh, ht) });
    servers.push({ kind: 'http', pid: h.proc.pid, home: hh, tmp: ht, transport: () => httpTransport(h.port),
      close: async () => { h.proc.kill('SIGTERM'); await Promise.race([h.exited, sleep(15000)]); await h.stop(); } });
    markers.push(home, tmp, hh, ht);
  });

  after(async () => {
    for (const s of servers) {
      try { await s.close(); } catch { /* gone */ }
      for (const d of [s.home, s.tmp]) rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    }
  });

  test(`${MINUTES} minutes: memory, descriptors and processes stay flat`, async (t) => {
    resetTally();
    const clients = [];
    for (const s of servers) {
      const shared = s.kind === 'stdio' ? await s.transport() : null;
      for (let i = 0; i < CLIENTS_PER_SERVER; i++) {
        clients.push({ id: i, t: shared ?? await s.transport(), st: { sid: null, all: [] }, runs: [] });
      }
    }
    let paused = false, done = false;
    let busy = 0;
    async function loop(c) {
      while (!done) {
        if (paused) { await sleep(50); continue; }
        busy++;
        try {
          // One persistent REPL session and one run submitter per server.
          if (c.id === 0) await replStep(c.t, c.st);
          else if (c.id === 1) await runStep(c.t, c.runs);
          else {
            const r = Math.random();
            if (r < 0.45) await calc(c.t);
            else if (r < 0.65) await symbolic(c.t);
            else await execute(c.t);
          }
          c.runs.length = 0;
        } finally { busy--; }
        await sleep(rand(0, 100));
      }
    }
    const loops = clients.map(loop);
    const samples = servers.map(() => []);
    for (let minute = 1; minute <= MINUTES; minute++) {
      await sleep(55000);
      paused = true;
      while (busy > 0) await sleep(50);
      await sleep(300);
      servers.forEach((s, i) => {
        const f = fdCounts(s.pid);
        const sample = {
          minute, rss: rssKb(s.pid),
          fdsOther: f.other, fdsSockets: f.sockets - liveChildren(s.pid).length,
          procs: ownedProcesses([s.home, s.tmp]).length,
        };
        samples[i].push(sample);
        t.diagnostic(`${s.kind} minute ${minute}: ${JSON.stringify(sample)}; calls ok ${tally.ok}, failed ${tally.failed}`);
      });
      paused = false;
    }
    done = true;
    await Promise.all(loops);
    t.diagnostic(`failures by reason: ${JSON.stringify(tally.why)}`);

    assert.deepEqual(tally.wrong, [], 'answers that belong to another request');
    assert.deepEqual(tally.lost, [], 'calls without an answer');
    assert.deepEqual(tally.unclear, [], 'failures without a clear error');
    servers.forEach((s, i) => {
      const xs = samples[i].slice(WARMUP);
      const third = Math.max(1, Math.floor(xs.length / 3));
      const first = xs.slice(0, third), last = xs.slice(-third);
      const maxRss = (ys) => Math.max(...ys.map((y) => y.rss));
      assert.ok(maxRss(last) <= maxRss(first) * 1.10 + 4096,
        `${s.kind}: resident memory grew from ${maxRss(first)} kB to ${maxRss(last)} kB`);
      for (const x of xs) {
        assert.equal(x.fdsOther, xs[0].fdsOther, `${s.kind}: non-socket descriptors changed (minute ${x.minute})`);
        assert.equal(x.fdsSockets, xs[0].fdsSockets, `${s.kind}: sockets beyond workers changed (minute ${x.minute})`);
      }
      const maxProcs = (ys) => Math.max(...ys.map((y) => y.procs));
      assert.ok(maxProcs(last) <= maxProcs(first) + 2,
        `${s.kind}: processes piled up from ${maxProcs(first)} to ${maxProcs(last)}`);
    });
  });
});
