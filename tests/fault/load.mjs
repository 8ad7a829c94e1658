// Load for the fault suites (chaos) and the soak: transports that give
// every call the same shape over stdio and HTTP, and calls whose right
// answer only their own request can produce (a nonce, a product of random
// numbers), judged into one tally: ok, failed with a clear error, lost (no
// answer in time), wrong (another request's answer), unclear (a failure
// without a closed code or message).
import assert from 'node:assert/strict';
import http from 'node:http';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep, failureOf, CLOSED_CODES } from '../mcp/harness.mjs';

export const CALL_TIMEOUT_MS = 60000;
export const rand = (a, b) => a + Math.floor(Math.random() * (b - a + 1));

/** A private directory (mkdtemp) the run uid can traverse. */
export function privateDir(prefix) {
  const d = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(d, 0o755); // the run uid must reach run directories below it
  return d;
}

/** Environment of a server on its own state directory and TMPDIR. */
export const serverEnv = (home, tmp) => ({
  CODECALC_HOME: home, HOME: home, TMPDIR: tmp, CODECALC_MAX_EXEC_WORKERS: '4',
});

// ---------------------------------------------------------------------------
// Transports: one `call(name, args)` shape for both, answering
// {sc, failure, raw} or throwing on a lost call (no answer in time).

export function stdioTransport(r) {
  return {
    kind: 'stdio',
    async call(name, args) {
      const c = await r.callTool(name, JSON.stringify(args), { timeoutMs: CALL_TIMEOUT_MS });
      return { sc: c.sc, failure: failureOf(c.msg), msg: c.msg, raw: c.msg.__raw };
    },
  };
}

/** One HTTP exchange on its own connection (no keep-alive: nothing of the
 * client stays open on the server once it answered). */
function postJson(port, body, headers) {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent: false,
      headers: {
        'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
        Connection: 'close', 'Content-Length': Buffer.byteLength(data), ...headers,
      },
      timeout: CALL_TIMEOUT_MS,
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer in time')));
    req.on('error', reject);
    req.end(data);
  });
}

export async function httpTransport(port) {
  const init = await postJson(port, {
    jsonrpc: '2.0', id: 0, method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'chaos', version: '1' } },
  }, {});
  assert.equal(init.status, 200, init.text);
  const sid = init.headers['mcp-session-id'];
  const headers = { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' };
  await postJson(port, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  let next = 1;
  return {
    kind: 'http',
    async call(name, args) {
      const id = next++;
      const res = await postJson(port, { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }, headers);
      let msg;
      try { msg = JSON.parse(res.text); } catch { throw new Error(`HTTP ${res.status}: unparsable answer ${res.text.slice(0, 200)}`); }
      // One POST, one answer: it must be this request's.
      if (msg.id !== id) return { wrongId: `asked id ${id}, answered id ${msg.id}`, raw: res.text };
      return { sc: msg.result?.structuredContent, failure: failureOf(msg), msg, raw: res.text };
    },
  };
}

// ---------------------------------------------------------------------------
// Calls whose answer only this request can produce.

/** A failure must be a clear one: a closed code with a message, an MCP tool
 * error with text, or a JSON-RPC error with a message. */
function clearFailure(r) {
  if (r.msg?.error) return typeof r.msg.error.message === 'string' && r.msg.error.message.length > 0;
  if (r.msg?.result?.isError) return (r.msg.result.content?.[0]?.text ?? '').length > 0;
  if (r.sc?.ok === false) return CLOSED_CODES.includes(r.sc.code) && typeof r.sc.error === 'string' && r.sc.error.length > 0;
  return false;
}

export const tally = { ok: 0, failed: 0, lost: [], wrong: [], unclear: [], why: {} };

export function resetTally() {
  Object.assign(tally, { ok: 0, failed: 0, lost: [], wrong: [], unclear: [], why: {} });
}

/** Count a failure by tool and the first words of its reason. */
function failedBecause(name, reason) {
  tally.failed++;
  const key = `${name}: ${String(reason).slice(0, 80)}`;
  tally.why[key] = (tally.why[key] ?? 0) + 1;
}

/** Problems recorded since a snapshot taken with problemsMark(). */
export function problemsMark() {
  return { lost: tally.lost.length, wrong: tally.wrong.length, unclear: tally.unclear.length };
}
export function problemsSince(m) {
  return [...tally.lost.slice(m.lost), ...tally.wrong.slice(m.wrong), ...tally.unclear.slice(m.unclear)];
}

/** Run one call and judge it. check(sc) returns null when the answer is
 * right, { failed: why } when it reports a failure in its own terms (a
 * program killed under it still gets its envelope with a verdict), or a
 * string saying what is wrong. Returns sc when the call succeeded. */
async function judged(t, name, args, check) {
  let r;
  try {
    r = await t.call(name, args);
  } catch (e) {
    tally.lost.push(`${t.kind} ${name}: ${e.message.split('\n')[0]}`);
    return null;
  }
  if (r.wrongId) {
    tally.wrong.push(`${t.kind} ${name}: ${r.wrongId}`);
    return null;
  }
  // An envelope with a verdict is the program's outcome, not a failure of
  // the call: check() judges it.
  if (r.failure && typeof r.sc?.verdict !== 'string') {
    if (!clearFailure(r)) tally.unclear.push(`${t.kind} ${name}: ${r.raw.slice(0, 300)}`);
    failedBecause(name, r.failure);
    return null;
  }
  const bad = check(r.sc);
  if (bad?.failed) {
    failedBecause(name, bad.failed);
    return null;
  }
  if (bad) {
    tally.wrong.push(`${t.kind} ${name}(${JSON.stringify(args).slice(0, 120)}): ${bad}`);
    return null;
  }
  tally.ok++;
  return r.sc;
}

const nonce = () => `n${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

export function calc(t) {
  const a = BigInt(rand(2, 999999)), b = BigInt(rand(2, 999999)), c = BigInt(rand(0, 999999));
  const want = String(a * b + c);
  return judged(t, 'calc_exact', { expr: `${a}*${b}+${c}` },
    (sc) => (sc?.value === want ? null : `value ${sc?.value}, want ${want}`));
}

export function symbolic(t) {
  const a = rand(2, 9999), b = rand(2, 9999);
  const want = `${a + b}*x`;
  return judged(t, 'evaluate_expression', { expression: `${a}*x + ${b}*x` },
    (sc) => (sc?.expression === want ? null : `expression ${sc?.expression}, want ${want}`));
}

export function execute(t) {
  const n = nonce();
  return judged(t, 'execute_code', { language: 'bash', code: `echo ${n}` }, (sc) => {
    if (sc?.verdict !== 'OK') return { failed: `verdict ${sc?.verdict}` };
    return sc.ok === true && sc.stdout === `${n}\n` ? null : `stdout ${JSON.stringify(sc.stdout)}, want ${n}`;
  });
}

/** A python3 REPL session per client: every call prints its own nonce and
 * the value the previous call stored. A value from another session or a
 * stale one is a wrong answer; a lost host must say state_lost. */
export async function replStep(t, st) {
  if (!st.sid) {
    const s = await judged(t, 'session_start', { language: 'python3' },
      (sc) => (typeof sc?.session_id === 'string' ? null : 'no session_id'));
    if (!s) return false;
    st.sid = s.session_id;
    st.all.push({ t, sid: s.session_id });
    st.last = null;
    st.sure = true;
  }
  const n = nonce(), v = rand(1, 1e9);
  const sure = st.sure, last = st.last;
  const sc = await judged(t, 'execute_code', {
    language: 'python3', session_id: st.sid,
    code: `print(${JSON.stringify(n)})\nprint(globals().get('chaos_last'))\nchaos_last = ${v}`,
  }, (sc) => {
    if (sc?.ok !== true) return { failed: `verdict ${sc?.verdict}` }; // e.g. the host was killed under it
    const [first, second] = (sc.stdout ?? '').split('\n');
    if (first !== n) return `stdout ${JSON.stringify(sc.stdout)} does not start with this call's ${n}`;
    const want = last === null ? 'None' : String(last);
    if (sure && !sc.state_lost && second !== want) return `state: printed ${second}, stored ${want}`;
    return null;
  });
  if (sc) {
    st.last = v;
    st.sure = true;
    return true;
  }
  // After a failure we cannot know whether the host ran the call.
  st.sure = false;
  if (Math.random() < 0.3) st.sid = null; // sometimes start afresh
  return false;
}

/** A background run per step: its result must carry its own nonce.
 * Returns true when the run finished with exactly that output. */
export async function runStep(t, runs) {
  const n = nonce();
  const s = await judged(t, 'run_submit', { language: 'bash', code: `sleep 0.3; echo ${n}` },
    (sc) => (typeof sc?.run_id === 'string' ? null : 'no run_id'));
  if (!s) return false;
  runs.push({ t, id: s.run_id });
  const end = Date.now() + 30000;
  for (;;) {
    const r = await judged(t, 'run_inspect', { run_id: s.run_id },
      (sc) => (sc?.run_id === s.run_id ? null : `inspected ${sc?.run_id}, asked ${s.run_id}`));
    if (!r) return false;
    if (!['running', 'cancelling'].includes(r.state)) {
      if (r.stdout !== undefined && r.stdout !== `${n}\n` && r.verdict === 'OK')
        tally.wrong.push(`${t.kind} run ${s.run_id}: stdout ${JSON.stringify(r.stdout)}, want ${n}`);
      return r.stdout === `${n}\n` && r.verdict === 'OK';
    }
    if (Date.now() > end) return false;
    await sleep(200);
  }
}
