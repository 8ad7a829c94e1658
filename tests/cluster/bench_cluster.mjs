// make bench (scripts/bench-cluster): background runs through haproxy with
// one and with three codecalc servers sharing PostgreSQL. Prints the
// run_submit -> result latency (median, p90) of runs submitted one at a
// time, and runs/s for a batch submitted at once; the 3-server figures are
// shown as ratios to the 1-server ones measured in the same run. Nothing is
// asserted: timing belongs here, not in tests.
import { statelessCall, structured } from '../http/http_harness.mjs';
import { skipReason, startPostgres, startServer, startBalancer } from './cluster_harness.mjs';

const LATENCY_RUNS = Number(process.env.BENCH_LATENCY_RUNS ?? 20);
const BATCH_RUNS = Number(process.env.BENCH_BATCH_RUNS ?? 120);
const CODE = 'print(6 * 7)';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let id = 1;

async function call(url, name, args) {
  const r = await statelessCall(url, id++, name, args);
  const sc = structured(r);
  if (!sc) throw new Error(`${name}: ${r.status} ${r.text.slice(0, 300)}`);
  return sc;
}

async function untilDone(url, runId) {
  for (;;) {
    const sc = await call(url, 'run_inspect', { run_id: runId });
    if (!['running', 'cancelling'].includes(sc.state)) {
      if (sc.stdout !== '42\n') throw new Error(`run ${runId}: ${JSON.stringify(sc).slice(0, 300)}`);
      return;
    }
    await sleep(10);
  }
}

function pct(v, p) {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

async function measure(url) {
  const lat = [];
  for (let i = 0; i < LATENCY_RUNS; i++) {
    const t0 = performance.now();
    const sc = await call(url, 'run_submit', { language: 'python3', code: CODE });
    await untilDone(url, sc.run_id);
    lat.push(performance.now() - t0);
  }
  const t0 = performance.now();
  const ids = await Promise.all(Array.from({ length: BATCH_RUNS }, () =>
    call(url, 'run_submit', { language: 'python3', code: CODE }).then((sc) => sc.run_id)));
  // Poll with a bounded number of clients, as agents would.
  const queue = [...ids];
  await Promise.all(Array.from({ length: 16 }, async () => {
    while (queue.length) await untilDone(url, queue.shift());
  }));
  const secs = (performance.now() - t0) / 1000;
  return { p50: pct(lat, 0.5), p90: pct(lat, 0.9), rps: BATCH_RUNS / secs };
}

async function cluster(pg, n) {
  const servers = [];
  for (let i = 0; i < n; i++) servers.push(await startServer(pg.url, { CODECALC_MAX_ACTIVE_RUNS: '16', CODECALC_RUN_LEASE_SECONDS: '15' }));
  const lb = await startBalancer(servers);
  try {
    return await measure(lb.url);
  } finally {
    await lb.stop();
    for (const s of servers) await s.stop();
  }
}

const skip = skipReason();
if (skip) {
  console.log(`cluster bench skipped: ${skip}`);
} else {
  const pg = await startPostgres();
  try {
    const one = await cluster(pg, 1);
    const three = await cluster(pg, 3);
    const f = (x) => x.toFixed(1);
    console.log(`  1 server : run_submit->result p50 ${f(one.p50)} ms, p90 ${f(one.p90)} ms; ${f(one.rps)} runs/s (${BATCH_RUNS} runs at once)`);
    console.log(`  3 servers: run_submit->result p50 ${f(three.p50)} ms, p90 ${f(three.p90)} ms; ${f(three.rps)} runs/s`);
    console.log(`  ratio 3/1: latency p50 x${(three.p50 / one.p50).toFixed(2)}, throughput x${(three.rps / one.rps).toFixed(2)}`);
    console.log('  (all servers share this machine\'s cores: the ratio shows coordination cost, not scale-out;');
    console.log('   on separate machines each server adds its own cores and sandboxes, see docs/cluster.md)');
  } finally {
    await pg.stop();
  }
}
