// make bench: 100,000 stateless calc_exact calls over 64 concurrent HTTP
// clients; every answer must come back, and each must be the answer to its
// own request (its id, and the value its own expression yields).
// Usage: node tests/bench/http_check.mjs URL [TOTAL] [CLIENTS]
const [url, totalArg, clientsArg] = process.argv.slice(2);
const total = Number(totalArg || 100000);
const clients = Number(clientsArg || 64);
let next = 0, lost = 0, wrong = 0, done = 0;
const headers = {
  'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
  'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'calc_exact',
};
async function client() {
  for (;;) {
    const id = next++;
    if (id >= total) return;
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call',
      params: { name: 'calc_exact', arguments: { expr: `${id} * 7 + 3` } } });
    try {
      const res = await fetch(url, { method: 'POST', headers, body });
      const j = await res.json();
      if (res.status !== 200 || j.id !== id) wrong++;
      else if (j.result?.structuredContent?.value !== String(id * 7 + 3)) wrong++;
      else done++;
    } catch {
      lost++;
    }
  }
}
const t0 = performance.now();
await Promise.all(Array.from({ length: clients }, client));
const secs = (performance.now() - t0) / 1000;
console.log(`http integrity: ${total} requests over ${clients} clients in ${secs.toFixed(1)} s: ` +
  `${done} correct, ${lost} lost, ${wrong} answered wrongly`);
process.exit(lost || wrong || done !== total ? 1 : 0);
