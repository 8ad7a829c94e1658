// Several codecalc servers behind a load balancer, sharing runs and
// sessions through PostgreSQL (issue 19, docs/cluster.md). Real components
// only: PostgreSQL, three serve-http servers and haproxy, all started here.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { STATELESS, post, statelessCall, statelessHeaders, statelessParams, structured } from '../http/http_harness.mjs';
import { spawnSync } from 'node:child_process';
import { BIN, skipReason, startPostgres, startServer, startBalancer } from './cluster_harness.mjs';
import { browse, NO_CHROMIUM } from '../ops/browser.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TERMINAL = new Set(['finished', 'cleaned', 'cancelled', 'lost']);

let nextId = 1;
/** A stateless tools/call to url: {sc, servedBy}. */
async function call(url, name, args) {
  const r = await statelessCall(url, nextId++, name, args);
  assert.equal(r.status, 200, `${name}: HTTP ${r.status} ${r.text}`);
  const sc = structured(r);
  assert.ok(sc, `${name}: no structuredContent in ${r.text.slice(0, 500)}`);
  return { sc, servedBy: r.headers.get('x-served-by') };
}

/** The server whose shepherd executes the run (polls until one claimed it). */
async function ownerOf(url, servers, runId) {
  for (let i = 0; i < 100; i++) {
    const { sc } = await call(url, 'run_inspect', { run_id: runId });
    const s = servers.find((x) => x.id === sc.server);
    if (s && s.shepherds().length) return s;
    await sleep(100);
  }
  throw new Error(`run ${runId} was not claimed`);
}

/** call for a read-only poll through the balancer: a request haproxy had
 * sent to a server as it was killed comes back as a closed connection
 * (undici: "fetch failed", other side closed) or a 502, which a client
 * retries; retried here up to 5 times in a row. Anything else fails. */
async function pollCall(url, name, args) {
  for (let failures = 0; ; failures++) {
    try {
      const r = await statelessCall(url, nextId++, name, args);
      if (![502, 503, 504].includes(r.status) || failures >= 5) {
        assert.equal(r.status, 200, `${name}: HTTP ${r.status} ${r.text}`);
        const sc = structured(r);
        assert.ok(sc, `${name}: no structuredContent in ${r.text.slice(0, 500)}`);
        return { sc, servedBy: r.headers.get('x-served-by') };
      }
    } catch (e) {
      if (!(e instanceof TypeError && /fetch failed/.test(e.message)) || failures >= 5) throw e;
    }
    await sleep(200);
  }
}

/** Poll run_inspect through url until the run is terminal. */
async function awaitRun(url, runId, limitMs = 120000) {
  const stop = Date.now() + limitMs;
  for (;;) {
    const { sc } = await pollCall(url, 'run_inspect', { run_id: runId });
    if (TERMINAL.has(sc.state)) return sc;
    if (Date.now() > stop) throw new Error(`run ${runId} not terminal: ${JSON.stringify(sc)}`);
    await sleep(200);
  }
}

/** A sleeping run and the server executing it: {id, owner, cancel()}. */
async function sleepingRun(url, servers, code = 'import time\ntime.sleep(60)') {
  const { sc } = await call(url, 'run_submit', { language: 'python3', code, timeout: 90 });
  assert.equal(sc.ok, true, JSON.stringify(sc));
  const owner = await ownerOf(url, servers, sc.run_id);
  return {
    id: sc.run_id, owner,
    async cancel() {
      await call(url, 'run_cancel', { run_id: sc.run_id });
      await awaitRun(url, sc.run_id, 30000);
    },
  };
}

/** Poll a server's /status.json until pred(cluster) holds; the last one. */
async function clusterWhen(server, pred, what) {
  const base = server.url.replace(/\/mcp$/, '');
  let c;
  for (let i = 0; i < 150; i++) {
    c = (await (await fetch(`${base}/status.json`)).json()).cluster;
    if (pred(c)) return c;
    await sleep(100);
  }
  throw new Error(`${what}: ${JSON.stringify(c)}`);
}

/** The text exposition keeps each family's samples together. */
function assertFamiliesGrouped(text) {
  const seen = new Set();
  let last = null;
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)[0].replace(/_(bucket|sum|count)$/, '');
    if (name !== last) {
      assert.ok(!seen.has(name), `the samples of ${name} are split by another family`);
      seen.add(name);
      last = name;
    }
  }
}

describe('cluster: three servers behind haproxy sharing PostgreSQL', { skip: skipReason() }, () => {
  let pg, servers = [], lb;
  before(async () => {
    pg = await startPostgres();
    // The first server applies the migrations; the others start together.
    servers.push(await startServer(pg.url));
    servers.push(...await Promise.all([startServer(pg.url), startServer(pg.url)]));
    lb = await startBalancer(servers);
  });
  // Every part is stopped even when one fails to, and a failure is printed,
  // not thrown: a fresh-clone CI failed this suite in its after hook alone
  // (every test had passed) and nothing said which part.
  after(async () => {
    const parts = [['haproxy', () => lb?.stop()], ...servers.map((s, i) => [`server ${i}`, () => s.stop()]),
      ['postgres', () => pg?.stop()]];
    for (const [what, stop] of parts) {
      try { await stop(); } catch (e) { console.error(`cluster cleanup: stopping ${what} failed: ${e?.stack ?? e}`); }
    }
  });

  test('a python3 session started through the balancer keeps its variables across 20 calls on different servers', async () => {
    const servedBy = [];
    const recording = async (input, init) => {
      const res = await fetch(input, init);
      if (res.headers.get('x-served-by')) servedBy.push(res.headers.get('x-served-by'));
      return res;
    };
    const client = new Client({ name: 'cluster-session', version: '1.0.0' }, { versionNegotiation: { mode: { pin: STATELESS } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(lb.url), { fetch: recording }));
    const start = await client.callTool({ name: 'session_start', arguments: { language: 'python3' } });
    const sid = start.structuredContent.session_id;
    assert.match(sid, /^python3-[0-9a-f]{8}$/, JSON.stringify(start.structuredContent));
    const owner = pg.psql(`SELECT owner FROM cc_sessions WHERE id = '${sid}'`);
    assert.ok(servers.some((s) => s.id === owner), `owner ${owner} is one of ours`);
    const before = servedBy.length;
    for (let i = 0; i < 20; i++) {
      const code = i === 0 ? 'total = 0\nseen = []' : `total += ${i}\nseen.append(${i})\nprint(total, len(seen))`;
      // Odd calls ask for progress: the owner then answers on an SSE stream,
      // which a forwarding server parses and relays.
      const options = i % 2 ? { onprogress: () => {} } : undefined;
      const r = await client.callTool({ name: 'execute_code', arguments: { language: 'python3', code, session_id: sid } }, options);
      const sc = r.structuredContent;
      assert.equal(sc.ok, true, JSON.stringify(sc));
      if (i > 0) assert.equal(sc.stdout, `${(i * (i + 1)) / 2} ${i}\n`, `call ${i}`);
    }
    const landed = new Set(servedBy.slice(before));
    assert.equal(landed.size, 3, `the 20 calls landed on every server: ${[...landed]}`);
    await client.callTool({ name: 'session_stop', arguments: { session_id: sid } });
    await client.close();
  });

  test('/metrics, /status.json and `codecalc status --json` show every server of the cluster', async () => {
    const base = servers[1].url.replace(/\/mcp$/, '');
    // Each server registers with its first once-a-second heartbeat.
    let snap;
    for (let i = 0; i < 100; i++) {
      snap = await (await fetch(`${base}/status.json`)).json();
      if (snap.cluster.servers.length === servers.length) break;
      await sleep(100);
    }
    assert.equal(snap.cluster.enabled, true);
    assert.equal(snap.cluster.server_id, servers[1].id);
    assert.deepEqual(snap.cluster.servers.map((x) => x.id).sort(), servers.map((x) => x.id).sort());
    const text = await (await fetch(`${base}/metrics`)).text();
    for (const s of servers) assert.match(text, new RegExp(`^codecalc_cluster_server_alive\\{server="${s.id}"\\} 1$`, 'm'));
    // The per-server families used to alternate line by line.
    assertFamiliesGrouped(text);
    assert.match(text, /^codecalc_cluster_runs\{state="queued"\} \d+$/m);
    const st = spawnSync(BIN, ['status', '--json'], {
      env: { PATH: process.env.PATH, HOME: servers[2].home, CODECALC_HOME: servers[2].home, CODECALC_DATABASE_URL: pg.url },
      encoding: 'utf8', timeout: 60000,
    });
    assert.equal(st.status, 0, st.stderr);
    const cluster = JSON.parse(st.stdout).cluster;
    assert.equal(cluster.enabled, true, JSON.stringify(cluster));
    assert.equal(cluster.servers.filter((x) => x.alive).length, 3);
  });

  test('session_list on any server lists the cluster\'s sessions with the server holding each (it listed only its own)', async () => {
    const started = [];
    for (const s of servers.slice(0, 2)) {
      const { sc } = await call(s.url, 'session_start', { language: 'python3' });
      const { sc: ran } = await call(s.url, 'execute_code', { language: 'python3', code: 'x = 1', session_id: sc.session_id });
      assert.equal(ran.ok, true, JSON.stringify(ran));
      started.push({ id: sc.session_id, server: s });
    }
    for (const asked of [servers[2], servers[0]]) {
      const { sc: list } = await call(asked.url, 'session_list', {});
      for (const { id, server } of started) {
        const e = list.sessions.find((x) => x.session_id === id);
        assert.ok(e, `${id} (on ${server.id}) listed by ${asked.id}: ${JSON.stringify(list.sessions)}`);
        assert.equal(e.server, server.id);
        assert.equal(e.language, 'python3');
        assert.equal(e.stateful, true);
        assert.equal(e.alive, true, JSON.stringify(e));
      }
    }
    // A session listed by a server that does not hold it is usable there (forwarded).
    const { sc: used } = await call(servers[2].url, 'execute_code', { language: 'python3', code: 'print(x + 1)', session_id: started[1].id });
    assert.equal(used.stdout, '2\n', JSON.stringify(used));
    for (const { id, server } of started) await call(server.url, 'session_stop', { session_id: id });
    const { sc: after } = await call(servers[2].url, 'session_list', {});
    assert.deepEqual(after.sessions.filter((x) => started.some((s) => s.id === x.session_id)), []);
  });

  test('`codecalc status` reports the cluster\'s sessions and runs with the server holding each (it read the local sqlite file)', async () => {
    const { sc: sess } = await call(servers[0].url, 'session_start', { language: 'python3' });
    await call(servers[0].url, 'execute_code', { language: 'python3', code: 'x = 1', session_id: sess.session_id });
    const run = await sleepingRun(lb.url, servers);
    try {
      const status = (args) => spawnSync(BIN, ['status', ...args], {
        env: { PATH: process.env.PATH, HOME: servers[2].home, CODECALC_HOME: servers[2].home, CODECALC_DATABASE_URL: pg.url },
        encoding: 'utf8', timeout: 60000,
      });
      const st = status(['--json']);
      assert.equal(st.status, 0, st.stderr);
      const r = JSON.parse(st.stdout);
      assert.equal(r.server_id, servers[2].id);
      const e = r.sessions.find((x) => x.session_id === sess.session_id);
      assert.ok(e, `the session of ${servers[0].id} is listed: ${JSON.stringify(r.sessions)}`);
      assert.equal(e.server, servers[0].id);
      assert.equal(e.local, false);
      assert.equal(e.language, 'python3');
      assert.equal(e.live, true);
      assert.equal(r.runs.store, 'postgresql');
      assert.equal(r.runs.active, 1, JSON.stringify(r.runs));
      for (const s of servers) assert.equal(r.runs.by_server[s.id], s === run.owner ? 1 : 0, JSON.stringify(r.runs));
      assert.equal(r.runs.this_server, run.owner === servers[2] ? 1 : 0);
      const text = status([]);
      assert.match(text.stdout, new RegExp(`${sess.session_id} .* on server ${servers[0].id} \\(another server\\)`));
      assert.match(text.stdout, new RegExp(`held by server:.* ${run.owner.id} 1`));
    } finally {
      await run.cancel();
      await call(servers[0].url, 'session_stop', { session_id: sess.session_id });
    }
  });

  test('run_cancel through server B of a run executing on server A', async () => {
    const { sc: sub } = await call(lb.url, 'run_submit', {
      language: 'python3', code: 'import time\nprint("started", flush=True)\ntime.sleep(60)\nprint("not reached")', timeout: 90,
    });
    assert.equal(sub.ok, true, JSON.stringify(sub));
    const a = await ownerOf(lb.url, servers, sub.run_id);
    const b = servers.find((s) => s !== a);
    await sleep(500);
    const { sc: cancel } = await call(b.url, 'run_cancel', { run_id: sub.run_id });
    assert.equal(cancel.ok, true);
    assert.equal(cancel.cancelled, true, JSON.stringify(cancel));
    const done = await awaitRun(b.url, sub.run_id, 30000);
    assert.equal(done.state, 'cancelled', JSON.stringify(done));
    assert.equal(done.cancelled, true);
    assert.doesNotMatch(done.stdout ?? '', /not reached/);
    assert.equal(done.server, a.id, 'it ran on A');
    // Every server reads the same outcome.
    for (const s of servers) {
      const { sc } = await call(s.url, 'run_inspect', { run_id: sub.run_id });
      assert.equal(sc.state, 'cancelled');
      assert.equal(sc.cancelled, true);
    }
  });

  test('run_inspect through a server that does not execute the run shows its output so far, bounded (it was visible only on the owner)', async () => {
    const run = await sleepingRun(lb.url, servers,
      'import sys, time\nprint("partial-1", flush=True)\nprint("x" * 100000, flush=True)\nprint("partial-2", file=sys.stderr, flush=True)\ntime.sleep(60)');
    const b = servers.find((s) => s !== run.owner);
    try {
      let sc;
      for (let i = 0; i < 150; i++) {
        ({ sc } = await call(b.url, 'run_inspect', { run_id: run.id }));
        if (sc.stderr === 'partial-2\n') break;
        await sleep(100);
      }
      assert.equal(sc.state, 'running', JSON.stringify(sc).slice(0, 500));
      assert.equal(sc.server, run.owner.id);
      assert.equal(sc.phase, 'run');
      assert.equal(sc.stderr, 'partial-2\n');
      assert.equal(sc.stdout_bytes, 'partial-1\n'.length + 100001);
      // The first 64 KiB of a stream, as on the owner.
      assert.equal(sc.stdout.length, 64 * 1024);
      assert.ok(sc.stdout.startsWith('partial-1\nxxxx'));
      assert.equal(sc.output_truncated, true);
      const { sc: there } = await call(run.owner.url, 'run_inspect', { run_id: run.id });
      assert.equal(there.stdout, sc.stdout);
    } finally {
      await run.cancel();
    }
    // Once the run ended its stored partial output is gone with it.
    assert.equal(pg.psql(`SELECT count(*) FROM cc_runs WHERE id = '${run.id}' AND partial IS NOT NULL`), '0');
  });

  test('the /status page draws the cluster: servers alive and runs claimed per server (it drew none of it)', { skip: NO_CHROMIUM }, async () => {
    const run = await sleepingRun(lb.url, servers);
    const viewer = servers.find((s) => s !== run.owner);
    const dir = mkdtempSync(join(tmpdir(), 'codecalc-chromium-cluster-'));
    try {
      await clusterWhen(viewer, (c) => c.servers.length === 3 && c.servers.every((x) => x.alive) &&
        c.runs?.active === 1 && c.servers.find((x) => x.id === run.owner.id)?.claimed === 1, 'the figures settle');
      const dom = browse(`${viewer.url.replace(/\/mcp$/, '')}/status`, join(dir, 'profile'), ['--virtual-time-budget=5000', '--dump-dom']);
      assert.match(dom, /<section id="cluster">/, 'the section is shown');
      assert.match(dom, /<div class="tile" data-name="servers alive"><b>3\/3<\/b>/);
      assert.match(dom, /<div class="tile" data-name="runs active"><b>1<\/b>/);
      for (const s of servers) {
        const name = s === viewer ? `${s.id} \\(this\\)` : s.id;
        assert.match(dom, new RegExp(`<tr><td>${name}</td><td>yes</td><td>${s === run.owner ? 1 : 0}</td><td>8</td><td>[\\d.]+ s ago</td><td>${s.url}</td></tr>`),
          `the row of ${s.id}`);
      }
      assert.match(dom, new RegExp(`this server: ${viewer.id} · figures [\\d.]+ s old`));
    } finally {
      await run.cancel();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a locked table stalls no client: /metrics, /status.json and calls answer from cached cluster figures (each scrape waited for the database)', async () => {
    const s = servers[0];
    const base = s.url.replace(/\/mcp$/, '');
    await clusterWhen(s, (c) => c.servers.length === 3, 'every server known');
    // Heartbeats and the figures both need cc_servers: nothing of either can finish while this is held.
    const lock = await pg.hold('LOCK TABLE cc_servers IN ACCESS EXCLUSIVE MODE');
    let snap;
    try {
      for (let i = 0; i < 3; i++) {
        await sleep(1500);
        const m = await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(30000) });
        assert.equal(m.status, 200);
        assert.match(await m.text(), /^codecalc_cluster_facts_age_seconds \d/m);
        snap = await (await fetch(`${base}/status.json`, { signal: AbortSignal.timeout(30000) })).json();
      }
      const { sc } = await call(s.url, 'calc_exact', { expr: '1/3+1/6' });
      assert.equal(sc.value, '1/2');
      // Served from before the lock (at least 4.5 s ago), saying so.
      assert.ok(snap.cluster.age_seconds >= 4, JSON.stringify(snap.cluster));
      assert.equal(snap.cluster.servers.length, 3);
    } finally {
      await lock.release();
    }
    // Fresh again once the database answers.
    await clusterWhen(s, (c) => c.age_seconds < 3 && !c.error && c.servers.every((x) => x.alive), 'figures refresh after the lock');
  });

  test('a supervisor restart alone re-runs nothing: the surviving shepherd stores the result itself', async () => {
    const { sc: sub } = await call(lb.url, 'run_submit', {
      language: 'python3', code: 'import time\ntime.sleep(4)\nprint("survived")', timeout: 30,
    });
    const a = await ownerOf(lb.url, servers, sub.run_id);
    const other = servers.find((s) => s !== a);
    await a.killSupervisor();
    // Another server answers while A is down; the shepherd keeps renewing
    // the lease (3 s) past the supervisor's death, so nothing is re-queued.
    const done = await awaitRun(other.url, sub.run_id, 30000);
    assert.equal(done.state === 'finished' || done.state === 'cleaned', true, JSON.stringify(done));
    assert.equal(done.stdout, 'survived\n');
    assert.equal(done.attempt, 1, 'not re-run');
    assert.equal(done.reason, undefined);
    // A comes back with its home (same server id) on its port.
    const idx = servers.indexOf(a);
    servers[idx] = await startServer(pg.url, { PORT: a.port }, a.home);
    assert.equal(servers[idx].id, a.id);
  });

  test('a run whose shepherd dies twice is re-run once, then lost with both reasons', async () => {
    const { sc: sub } = await call(lb.url, 'run_submit', {
      language: 'python3', code: 'import time\ntime.sleep(60)', timeout: 90,
    });
    for (let attempt = 1; attempt <= 2; attempt++) {
      const owner = await ownerOf(lb.url, servers, sub.run_id);
      const { sc } = await call(lb.url, 'run_inspect', { run_id: sub.run_id });
      assert.equal(sc.attempt, attempt, JSON.stringify(sc));
      for (const pid of owner.shepherds()) process.kill(pid, 'SIGKILL');
      // Its server sees the shepherd gone without a result.
      for (let i = 0; i < 100; i++) {
        const { sc: now } = await call(lb.url, 'run_inspect', { run_id: sub.run_id });
        if (now.attempt !== attempt || now.state === 'lost') break;
        await sleep(100);
      }
    }
    const end = await awaitRun(lb.url, sub.run_id, 30000);
    assert.equal(end.state, 'lost', JSON.stringify(end));
    assert.equal(end.ok, false);
    assert.equal(end.attempt, 2);
    assert.match(end.reason, /attempt 1 lost: its shepherd .* ended without a result; re-queued as attempt 2 \(the program runs again\); attempt 2 lost: .*\(no attempts left\)/);
    assert.match(end.error, /attempt 2 lost/);
  });

  test('servers behind CODECALC_HTTP_TOKEN forward a session call with both tokens; a wrong cluster token is refused with 401', async () => {
    const env = { CODECALC_HTTP_TOKEN: 'http-test-token' };
    const [d, e] = await Promise.all([startServer(pg.url, env), startServer(pg.url, env)]);
    const send = (s, name, args, headers) => post(s.url, {
      jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: statelessParams({ name, arguments: args }),
    }, { ...statelessHeaders('tools/call', name), ...headers });
    const bearer = { Authorization: 'Bearer http-test-token' };
    try {
      const start = structured(await send(d, 'session_start', { language: 'python3' }, bearer));
      assert.equal(start?.ok, true, JSON.stringify(start));
      const sid = start.session_id;
      assert.equal(pg.psql(`SELECT owner FROM cc_sessions WHERE id = '${sid}'`), d.id);
      assert.equal((await send(e, 'session_list', {}, {})).status, 401, 'the HTTP token still guards a non-owner');
      // e holds no REPL for sid: the variable comes back only if e forwarded to d.
      const set = structured(await send(e, 'execute_code', { language: 'python3', code: 'x = 41', session_id: sid }, bearer));
      assert.equal(set?.ok, true, JSON.stringify(set));
      const got = structured(await send(e, 'execute_code', { language: 'python3', code: 'print(x + 1)', session_id: sid }, bearer));
      assert.equal(got?.stdout, '42\n', JSON.stringify(got));
      const wrong = await send(d, 'execute_code', { language: 'python3', code: 'print(x)', session_id: sid },
        { ...bearer, 'X-Codecalc-Cluster-Token': 'not-the-cluster-token' });
      assert.equal(wrong.status, 401, wrong.text);
      assert.equal(wrong.json?.error?.code, -32600);
      await send(d, 'session_stop', { session_id: sid }, bearer);
    } finally {
      await Promise.all([d.stop(), e.stop()]);
    }
  });

  test('200 background runs through the balancer, one server killed mid-execution: each ends done (or lost with a reason) exactly once', async () => {
    const victim = servers[1];
    // A session owned by the victim, to see its loss reported later.
    const { sc: sess } = await call(victim.url, 'session_start', { language: 'python3' });
    const N = 200;
    // The last TAIL runs are long, so the victim still executes some of
    // them when it is killed however slowly the submissions went: with
    // 0.3 s runs only, a slow machine let it drain its share first.
    const TAIL = 24;
    const ids = [];
    for (let i = 0; i < N; i++) {
      const secs = i >= N - TAIL ? 8 : 0.3;
      const { sc } = await call(lb.url, 'run_submit', {
        language: 'python3', code: `import time\ntime.sleep(${secs})\nprint("run-${i}")`, timeout: 60,
      });
      assert.equal(sc.ok, true, JSON.stringify(sc));
      ids.push(sc.run_id);
    }
    assert.equal(new Set(ids).size, N, 'every submission made one run');
    // Kill the victim (supervisor and shepherds: the machine died) while it executes runs.
    for (let i = 0; i < 100 && victim.shepherds().length < 1; i++) await sleep(50);
    const inFlight = victim.shepherds().length;
    assert.ok(inFlight > 0, 'the victim was executing runs when killed');
    await victim.killAll();

    const results = [];
    for (const id of ids) results.push(await awaitRun(lb.url, id, 180000));
    let done = 0, lost = 0, rerun = 0;
    results.forEach((r, i) => {
      if (r.state === 'lost') {
        lost++;
        assert.match(r.reason ?? r.error ?? '', /lost/, `lost run ${i} has a reason: ${JSON.stringify(r)}`);
        assert.equal(r.attempt, 2, 'lost only after two losses');
        return;
      }
      assert.ok(r.state === 'finished' || r.state === 'cleaned', JSON.stringify(r));
      assert.equal(r.ok, true, JSON.stringify(r));
      assert.equal(r.stdout, `run-${i}\n`, `run ${i} answered with its own output`);
      done++;
      if (r.attempt === 2) {
        rerun++;
        assert.match(r.reason, /attempt 1 lost: .*re-queued as attempt 2/, JSON.stringify(r));
        assert.notEqual(r.server, victim.id, 'the re-run happened elsewhere');
        assert.match(r.reason, new RegExp(`server ${victim.id}`), 'only the victim\'s runs were re-run');
      }
    });
    assert.equal(done + lost, N);
    assert.ok(rerun > 0, `the victim's unfinished runs were re-run (${rerun})`);
    // Answered once: one stored result per finished run, and every server
    // returns the same execution (its sandbox workdir is unique per run).
    assert.equal(Number(pg.psql(`SELECT count(*) FROM cc_run_files WHERE name = 'stdout' AND run_id IN (${ids.map((x) => `'${x}'`).join(',')})`)), done);
    for (const i of [0, 57, 123, 199]) {
      const again = (await call(servers[0].url, 'run_inspect', { run_id: ids[i] })).sc;
      const other = (await call(servers[2].url, 'run_inspect', { run_id: ids[i] })).sc;
      assert.equal(again.workdir, results[i].workdir);
      assert.equal(other.workdir, results[i].workdir);
      assert.equal(again.attempt, results[i].attempt);
    }
    assert.equal(Number(pg.psql("SELECT count(*) FROM cc_runs WHERE state = 4 AND reason = ''")), 0, '0 lost without a reason');

    // Finished runs leave no local directory behind (the database has them).
    const survivors = servers.filter((s) => s !== victim);
    const leftover = () => survivors.flatMap((s) => (existsSync(join(s.home, 'runs')) ? readdirSync(join(s.home, 'runs')) : []))
      .filter((d) => ids.includes(d));
    for (let i = 0; i < 150 && leftover().length; i++) await sleep(200);
    assert.deepEqual(leftover(), []);

    // The victim's session: worker_failure naming the lost owner, recorded.
    const { sc: gone } = await call(lb.url, 'execute_code', { language: 'python3', code: 'print(1)', session_id: sess.session_id });
    assert.equal(gone.ok, false);
    assert.equal(gone.code, 'worker_failure', JSON.stringify(gone));
    assert.equal(gone.lost_owner, victim.id);
    assert.match(gone.error, new RegExp(victim.id));
    assert.match(pg.psql(`SELECT lost FROM cc_sessions WHERE id = '${sess.session_id}'`), new RegExp(victim.id));
  });
});
