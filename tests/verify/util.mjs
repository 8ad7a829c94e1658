// Helpers for the verification suites (verify_translation,
// compare_edge_cases, verify_optimization, compare_execution), all through
// the MCP SDK client (tests/mcp/harness.mjs).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startServer, SKIP_NO_BINARY, CONTRACT_VERSION, markerProcs, waitFor } from '../mcp/harness.mjs';

export { startServer, SKIP_NO_BINARY, CONTRACT_VERSION, markerProcs };
export const LONG = { timeout: 300000 };
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const nonce = () => randomBytes(6).toString('hex');

/** The seven default inputs of TOOLS.md 3.4.3. */
export const DEFAULT_INPUTS = ['', '0', '1', '-1', '10', '100', '0.1\n0.2'];

/** The suites written before red team 3 test other rules than the typed
 *  edge inputs verify_translation and compare_edge_cases add to few inputs
 *  (docs/contract.md, "Verification red team 3"): their calls run the
 *  inputs they give alone, unless they say edge_inputs themselves
 *  (red_team3.test.mjs does). */
export function withoutEdges(name, args) {
  if (!['verify_translation', 'compare_edge_cases'].includes(name) || !args || typeof args !== 'object' ||
      'edge_inputs' in args) return args;
  return { ...args, edge_inputs: false };
}

/** Start a server; adds langAvailable(name) and a tool(name, args, opts)
 *  that returns structuredContent (asserting the contract version). */
export async function startVerifyServer(opts = {}) {
  const s = await startServer(opts);
  let langs;
  s.langAvailable = async (name) => {
    langs ??= JSON.parse((await s.client.callTool({ name: 'list_languages', arguments: {} })).content[0].text);
    return langs.some((l) => l.name === name && l.available);
  };
  s.tool = (name, args, o = {}) => s.call(name, withoutEdges(name, args), { ...LONG, ...o });
  return s;
}

/** Skip t (returning true) unless every language is installed here. */
export async function skipUnlessLangs(t, s, ...names) {
  for (const n of names) {
    if (!(await s.langAvailable(n))) { t.skip(`${n} is not installed on this host`); return true; }
  }
  return false;
}

/** Assert the rejected shape with code validation and the error pattern. */
export function assertInvalid(r, pattern) {
  assert.equal(r.ok, false, JSON.stringify(r));
  assert.equal(r.code, 'validation', JSON.stringify(r));
  assert.match(r.error, pattern);
  assert.equal(typeof r.remedy, 'string');
  assert.ok(r.remedy.length > 0);
  assert.equal(r.contract_version, CONTRACT_VERSION);
}

/** The grade fields of TOOLS.md 1.14. */
export function assertGrade(r, grade, basis) {
  assert.equal(r.grade, grade, JSON.stringify(r).slice(0, 600));
  assert.equal(r.grade_rules_version, '2');
  if (basis instanceof RegExp) assert.match(r.grade_basis, basis);
  else assert.equal(r.grade_basis, basis);
}

/** A python3 program that starts `sleep <marker>` (a marker is a number of
 *  seconds, 1000-2000) and waits for it: it runs until it is killed. */
export function sleeper(marker) {
  return `import subprocess\nsubprocess.Popen(["sleep", "${marker}"]).wait()\nprint("woke")`;
}

/** A unique marker: a sleep duration no other test uses. */
export const newMarker = () => `${(1000 + Math.random() * 1000).toFixed(6)}`;

/** waitFor (tests/mcp/harness.mjs), failing with what was awaited. */
export async function waitUntil(pred, ms, what) {
  const v = await waitFor(pred, ms, 50);
  if (!v) assert.fail(`timed out after ${ms} ms waiting for ${what}`);
  return v;
}

/** Every notifications/progress the server sends on s, as it arrives on
 *  the transport (the SDK hands the last ones of a call to onprogress
 *  after the response has settled the call, so it may not report them). */
export function captureProgress(s) {
  const seen = [];
  const orig = s.transport.onmessage;
  s.transport.onmessage = (msg, extra) => {
    if (msg?.method === 'notifications/progress') seen.push(msg.params);
    return orig(msg, extra);
  };
  return seen;
}
