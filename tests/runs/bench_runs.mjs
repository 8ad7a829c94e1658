// Benchmarks of background runs (make bench, via scripts/bench-runs).
// Prints numbers beside a baseline measured in the same invocation; asserts
// nothing.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { newHome, removeHome, startOn, waitTerminal } from './runs_helpers.mjs';

const median = (v) => { const s = [...v].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const ms = (t) => `${t.toFixed(2)} ms`;
const now = () => Number(process.hrtime.bigint()) / 1e6;

async function submitLatency() {
  const home = newHome();
  const srv = await startOn(home, { CODECALC_MAX_ACTIVE_RUNS: '1000' });
  try {
    const sub = [], calc = [];
    for (let i = 0; i < 100; i++) {
      let t = now();
      const s = await srv.call('run_submit', { language: 'python3', code: 'print(1)' });
      sub.push(now() - t);
      if (!s.ok) throw new Error(JSON.stringify(s));
      t = now();
      await srv.call('run_inspect', { run_id: s.run_id });
      calc.push(now() - t);
      if (i % 10 === 9) await new Promise((r) => setTimeout(r, 200)); // let shepherds drain
    }
    console.log(`run_submit latency: median ${ms(median(sub))} (target <= 2 ms); baseline run_inspect median ${ms(median(calc))}`);
  } finally { await srv.close(); removeHome(home); }
}

async function concurrent() {
  const home = newHome();
  const srv = await startOn(home, { CODECALC_MAX_ACTIVE_RUNS: '64' });
  const code = "print('x' * 10)";
  try {
    let t = now();
    const subs = await Promise.all(Array.from({ length: 64 }, () => srv.call('run_submit', { language: 'python3', code })));
    const done = await Promise.all(subs.map((s) => waitTerminal(srv, s.run_id, 120000)));
    const runsMs = now() - t;
    const okRuns = done.filter((r) => r.verdict === 'OK').length;
    t = now();
    const ex = await Promise.all(Array.from({ length: 64 }, () => srv.call('execute_code', { language: 'python3', code })));
    const execMs = now() - t;
    const okExec = ex.filter((r) => r.verdict === 'OK').length;
    console.log(`64 concurrent short runs end to end: ${ms(runsMs)} (${okRuns}/64 OK); same through execute_code: ${ms(execMs)} (${okExec}/64 OK)`);
  } finally { await srv.close(); removeHome(home); }
}

/** A state directory holding n finished runs, written straight into state.db. */
async function seeded(n) {
  const home = newHome();
  const srv = await startOn(home); // creates the schema
  await srv.close();
  const rows = [];
  for (let i = 0; i < n; i++) {
    const id = i.toString(16).padStart(32, '0');
    mkdirSync(join(home, 'runs', id), { recursive: true });
    rows.push(`('${id}','local',2,1700000000,1700000030,1700000001,0,0,1,0,'')`);
  }
  const q = `BEGIN; INSERT INTO runs VALUES ${rows.join(',')}; COMMIT;`;
  const r = spawnSync('sqlite3', [join(home, 'state.db'), q], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`sqlite3: ${r.stderr}`);
  return home;
}

async function firstCall(home) {
  const t = now();
  const srv = await startOn(home);
  await srv.call('run_inspect', { run_id: '0'.repeat(32) });
  const dt = now() - t;
  await srv.close();
  return dt;
}

async function restart() {
  const full = await seeded(1000);
  const empty = newHome();
  try {
    const a = [], b = [];
    for (let i = 0; i < 5; i++) { a.push(await firstCall(full)); b.push(await firstCall(empty)); }
    console.log(`restart with 1,000 finished runs, time to serve the first call: median ${ms(median(a))} (target <= 50 ms); empty state directory: ${ms(median(b))}`);
  } finally { removeHome(full); removeHome(empty); }
}

console.log('== background runs ==');
await submitLatency();
await concurrent();
await restart();
