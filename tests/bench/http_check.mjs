// make bench: 100,000 stateless calc_exact calls over 64 concurrent HTTP
// clients; every answer must come back, and each must be the answer to its
// own request (its id, and the value its own expression yields).
// node:http with a keep-alive Agent holding exactly CLIENTS sockets: each
// client reuses one connection instead of paying a connect per call (fetch's
// pool made this take minutes).
// Usage: node tests/bench/http_check.mjs URL [TOTAL] [CLIENTS]
import http from 'node:http';

const [url, totalArg, clientsArg] = process.argv.slice(2);
if (!url) {
  console.error('usage: node tests/bench/http_check.mjs URL [TOTAL] [CLIENTS]');
  process.exit(2);
}
const total = Number(totalArg || 100000);
const clients = Number(clientsArg || 64);
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: clients, maxFreeSockets: clients });
const baseHeaders = {
  'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
  'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'calc_exact',
};
let next = 0, lost = 0, wrong = 0, done = 0;
let firstProblem = null;

// One POST; resolves with {status, text} or rejects on a transport error.
function post(body) {
  return new Promise((resolve, reject) => {
    const req = http.request({
      agent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST',
      headers: { ...baseHeaders, 'Content-Length': Buffer.byteLength(body) },
    }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

// The expression of request id: its value differs for every id, so an
// answer delivered to the wrong request cannot pass the check.
function check(id, status, text) {
  let j;
  try { j = JSON.parse(text); } catch { return `id ${id}: body is not JSON: ${text.slice(0, 200)}`; }
  if (status !== 200) return `id ${id}: HTTP ${status}: ${text.slice(0, 200)}`;
  if (j.id !== id) return `id ${id}: answered with id ${JSON.stringify(j.id)}`;
  const value = j.result?.structuredContent?.value;
  if (value !== String(id * 7 + 3)) return `id ${id}: value ${JSON.stringify(value)}, want ${id * 7 + 3}`;
  return null;
}

async function client() {
  for (;;) {
    const id = next++;
    if (id >= total) return;
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call',
      params: { name: 'calc_exact', arguments: { expr: `${id} * 7 + 3` } } });
    let res;
    try {
      res = await post(body);
    } catch (e) {
      lost++;
      firstProblem ??= `id ${id}: ${e.message}`;
      continue;
    }
    const problem = check(id, res.status, res.text);
    if (problem) {
      wrong++;
      firstProblem ??= problem;
    } else {
      done++;
    }
  }
}

const t0 = performance.now();
await Promise.all(Array.from({ length: clients }, client));
const secs = (performance.now() - t0) / 1000;
agent.destroy();
console.log(`http integrity: ${total} requests over ${clients} clients in ${secs.toFixed(1)} s ` +
  `(${Math.round(total / secs)} req/s): ${done} correct, ${lost} lost, ${wrong} answered wrongly`);
if (firstProblem) console.log(`  first problem: ${firstProblem}`);
process.exit(lost || wrong || done !== total ? 1 : 0);
