// GET /metrics (Prometheus text exposition) and GET /status (a live page,
// rendered by a real headless Chromium): the numbers are the server's own,
// and both follow the bearer-token rule of /mcp.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SKIP_NO_BINARY } from '../mcp/harness.mjs';
import { startHttp, statelessCall, structured } from '../http/http_harness.mjs';
import { freshDir, removeDir } from './cli_util.mjs';
import { browse, NO_CHROMIUM } from './browser.mjs';

/** Parse the text exposition: Map "name{labels}" -> number, plus TYPE lines. */
function parseMetrics(text) {
  const samples = new Map(), types = new Map();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const t = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (t) { types.set(t[1], t[2]); continue; }
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (\S+)$/.exec(line);
    assert.ok(m, `not a sample line: ${line}`);
    samples.set(m[1], Number(m[2]));
  }
  return { samples, types };
}

const base = (h) => h.url.replace(/\/mcp$/, '');

describe('GET /metrics', { skip: SKIP_NO_BINARY }, () => {
  let h;
  before(async () => {
    h = await startHttp();
    for (let i = 0; i < 3; i++) assert.equal(structured(await statelessCall(h.url, i, 'calc_exact', { expr: '1/3+1/6' })).value, '1/2');
    await statelessCall(h.url, 9, 'calc_exact', { expr: 42 }); // invalid arguments
    await statelessCall(h.url, 10, 'execute_code', { language: 'python3', code: 'import sys; sys.exit(3)' });
  });
  after(async () => { await h?.stop(); });

  test('counts calls and errors per tool and code, with latency histograms', async () => {
    const res = await fetch(`${base(h)}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
    const { samples, types } = parseMetrics(await res.text());
    assert.equal(types.get('codecalc_tool_calls_total'), 'counter');
    assert.equal(types.get('codecalc_tool_duration_seconds'), 'histogram');
    assert.equal(samples.get('codecalc_tool_calls_total{tool="calc_exact",code="ok"}'), 3);
    assert.equal(samples.get('codecalc_tool_calls_total{tool="calc_exact",code="invalid_arguments"}'), 1);
    assert.equal(samples.get('codecalc_tool_errors_total{tool="calc_exact",code="invalid_arguments"}'), 1);
    assert.equal(samples.has('codecalc_tool_errors_total{tool="calc_exact",code="ok"}'), false);
    // A program's own failure is a verdict, not a request error.
    assert.equal(samples.get('codecalc_tool_calls_total{tool="execute_code",code="ok"}'), 1);
    assert.equal(samples.get('codecalc_sandbox_verdicts_total{verdict="RTE"}'), 1);
    const count = samples.get('codecalc_tool_duration_seconds_count{tool="calc_exact"}');
    assert.equal(count, 4);
    assert.equal(samples.get('codecalc_tool_duration_seconds_bucket{tool="calc_exact",le="+Inf"}'), count);
    const buckets = [...samples].filter(([k]) => k.startsWith('codecalc_tool_duration_seconds_bucket{tool="calc_exact"'));
    for (let i = 1; i < buckets.length; i++) assert.ok(buckets[i][1] >= buckets[i - 1][1], 'cumulative buckets');
    assert.ok(samples.get('codecalc_tool_duration_seconds_sum{tool="calc_exact"}') > 0);
  });

  test('pools, queue, restarts, runs, sessions and HTTP sessions match /status.json', async () => {
    const { samples } = parseMetrics(await (await fetch(`${base(h)}/metrics`)).text());
    const snap = await (await fetch(`${base(h)}/status.json`)).json();
    for (const p of snap.pools) {
      for (const st of ['idle', 'busy', 'starting'])
        assert.equal(samples.get(`codecalc_pool_workers{pool="${p.name}",state="${st}"}`), p[st], `${p.name} ${st}`);
      assert.equal(samples.get(`codecalc_pool_max_workers{pool="${p.name}"}`), p.max);
      assert.equal(samples.get(`codecalc_pool_queue_depth{pool="${p.name}"}`), 0);
      assert.equal(samples.get(`codecalc_worker_restarts_total{pool="${p.name}"}`), p.restarts);
    }
    assert.equal(snap.pools.find((p) => p.name === 'calc').min, 2);
    assert.equal(samples.get('codecalc_runs_active'), 0);
    assert.equal(samples.get('codecalc_sessions_active{kind="stateful"}'), 0);
    assert.equal(samples.get('codecalc_http_sessions'), 0);
    assert.equal(samples.get('codecalc_requests_in_flight'), 0);
    assert.equal(snap.calls, 5);
    assert.equal(snap.errors, 1);
    assert.equal(snap.tools.find((t) => t.tool === 'calc_exact').calls, 4);
  });

  test('a worker death counts as a restart', async () => {
    await statelessCall(h.url, 20, '__test_crash', {});
    const { samples } = parseMetrics(await (await fetch(`${base(h)}/metrics`)).text());
    assert.equal(samples.get('codecalc_worker_restarts_total{pool="calc"}'), 1);
    assert.equal(samples.get('codecalc_tool_calls_total{tool="__test_crash",code="internal"}'), 1);
  });

  test('only GET and HEAD', async () => {
    const r = await fetch(`${base(h)}/metrics`, { method: 'POST', body: '' });
    assert.equal(r.status, 405);
    assert.equal(r.headers.get('allow'), 'GET, HEAD');
  });
});

describe('GET /metrics counts rows of the tool table', { skip: SKIP_NO_BINARY }, () => {
  let h;
  before(async () => { h = await startHttp(); });
  after(async () => { await h?.stop(); });

  // The sessions layer runs code in a workspace by sending the exec worker
  // its own execute_code request: counted by name, every session call also
  // showed up as an extra execute_code call.
  test('a workspace session call counts once; the sessions layer\'s own exec request is no call', async () => {
    const start = structured(await statelessCall(h.url, 1, 'session_start', { language: 'bash' }));
    assert.equal(start.ok, true, JSON.stringify(start));
    const sid = start.session_id;
    const ran = structured(await statelessCall(h.url, 2, 'execute_code', { language: 'bash', code: 'echo hi', session_id: sid }));
    assert.equal(ran.stdout, 'hi\n', JSON.stringify(ran));
    assert.equal(structured(await statelessCall(h.url, 3, 'session_write_file', { session_id: sid, path: 'a.sh', content: 'echo a' })).ok, true);
    const run = structured(await statelessCall(h.url, 4, 'session_run', { session_id: sid, entry_file: 'a.sh' }));
    assert.equal(run.stdout, 'a\n', JSON.stringify(run));
    const { samples } = parseMetrics(await (await fetch(`${base(h)}/metrics`)).text());
    assert.equal(samples.get('codecalc_tool_duration_seconds_count{tool="execute_code"}'), 1);
    assert.equal(samples.get('codecalc_tool_duration_seconds_count{tool="session_run"}'), 1);
    assert.equal(samples.get('codecalc_tool_duration_seconds_count{tool="session_start"}'), 1);
    const tools = new Set([...samples.keys()].map((k) => /tool="([^"]+)"/.exec(k)?.[1]).filter(Boolean));
    assert.deepEqual([...tools].sort(), ['execute_code', 'session_run', 'session_start', 'session_write_file']);
  });
});

describe('the token rule', { skip: SKIP_NO_BINARY }, () => {
  let h;
  const token = 'metrics-test-token-0123456789';
  before(async () => { h = await startHttp({ env: { CODECALC_HTTP_TOKEN: token } }); });
  after(async () => { await h?.stop(); });

  for (const path of ['/metrics', '/status', '/status.json']) {
    test(`${path}: 401 without the token, 200 with it as Bearer or as the Basic password`, async () => {
      const none = await fetch(`${base(h)}${path}`);
      assert.equal(none.status, 401);
      assert.match(none.headers.get('www-authenticate'), /^Basic realm="codecalc"/);
      const wrong = await fetch(`${base(h)}${path}`, { headers: { Authorization: 'Bearer nope' } });
      assert.equal(wrong.status, 401);
      const basicWrong = Buffer.from('ops:nope').toString('base64');
      assert.equal((await fetch(`${base(h)}${path}`, { headers: { Authorization: `Basic ${basicWrong}` } })).status, 401);
      const bearer = await fetch(`${base(h)}${path}`, { headers: { Authorization: `Bearer ${token}` } });
      assert.equal(bearer.status, 200);
      const basic = Buffer.from(`ops:${token}`).toString('base64');
      assert.equal((await fetch(`${base(h)}${path}`, { headers: { Authorization: `Basic ${basic}` } })).status, 200);
    });
  }

  test('Basic is not accepted on /mcp (the MCP endpoint keeps bearer tokens)', async () => {
    const basic = Buffer.from(`ops:${token}`).toString('base64');
    const r = await fetch(h.url, { method: 'POST', headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/json' }, body: '{}' });
    assert.equal(r.status, 401);
    assert.equal(r.headers.get('www-authenticate'), 'Bearer');
  });
});

const SKIP_NO_CHROMIUM = SKIP_NO_BINARY || NO_CHROMIUM;

describe('GET /status in a real browser', { skip: SKIP_NO_CHROMIUM }, () => {
  let h, dir;
  const token = 'status-page-token-abcdef';
  before(async () => {
    h = await startHttp({ env: { CODECALC_HTTP_TOKEN: token } });
    dir = freshDir('codecalc-chromium-');
    const call = (id, expr) => fetch(h.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}`,
        'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'calc_exact',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'calc_exact', arguments: { expr }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }),
    });
    for (let i = 0; i < 7; i++) assert.equal((await call(i, `${i}+1`)).status, 200);
  });
  after(async () => { await h?.stop(); removeDir(dir); });

  // The token travels as the Basic password in the URL, as a person's
  // browser would send it after the prompt.
  const pageUrl = () => `${base(h).replace('http://', `http://ops:${token}@`)}/status`;

  test('the rendered page shows the live numbers and refreshes itself', () => {
    const dom = browse(pageUrl(), join(dir, 'profile-dom'), ['--virtual-time-budget=5000', '--dump-dom']);
    // The tools table row of calc_exact: 7 calls, 0 errors.
    assert.match(dom, /<tr><td>calc_exact<\/td><td>7<\/td><td>0<\/td><td>[\d.]+ ms<\/td><\/tr>/);
    assert.match(dom, /<div class="tile" data-name="calls"><b>7<\/b><span>calls<\/span><\/div>/);
    assert.match(dom, /<tr><td>calc<\/td><td>2<\/td><td>2<\/td><td>0<\/td>/, 'the calc pool: 2 workers, 2 idle, 0 busy');
    assert.doesNotMatch(dom, /<table id="tools"><tbody><tr><th>tool<\/th><th>calls<\/th><th>errors<\/th><th>mean<\/th><\/tr><tr><td class="muted"/);
    const refreshes = Number(/data-refreshes="(\d+)"/.exec(dom)?.[1]);
    assert.ok(refreshes >= 1, `the page fetched status.json by itself (refreshes=${refreshes})`);
    assert.match(dom, /<span id="version">\d+\.\d+\.\d+<\/span>/);
  });

  test('a screenshot is taken of the rendered page', () => {
    const png = join(dir, 'status.png');
    browse(pageUrl(), join(dir, 'profile-shot'), ['--window-size=1000,800', `--screenshot=${png}`]);
    assert.ok(existsSync(png));
    const buf = readFileSync(png);
    assert.deepEqual([...buf.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG file');
    assert.equal(buf.readUInt32BE(16), 1000, 'width');
    assert.equal(buf.readUInt32BE(20), 800, 'height');
    assert.ok(statSync(png).size > 8000, `a page with content, not a blank image (${statSync(png).size} bytes)`);
  });
});
