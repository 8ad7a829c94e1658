// 1,000 calls written back to back without waiting: each answer must carry
// the id it answers and that question's value (DESIGN.md: a well-formed
// answer to another question is the worst bug this design can have).
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { RawServer, CONTRACT_VERSION, SKIP_NO_BINARY } from '../mcp/harness.mjs';

describe('pipelined calls', { skip: SKIP_NO_BINARY, timeout: 90000 }, () => {
  let r;
  after(async () => { await r?.close(); });

  test('1000 pipelined calc_exact calls come back matched', async () => {
    r = new RawServer();
    await r.initialize();
    const N = 1000;
    const waits = [];
    const lines = [];
    for (let i = 0; i < N; i++) {
      // distinct expressions; alternate numeric and string ids
      const id = i % 2 === 0 ? 20000 + i : `req-${i}`;
      waits.push(r.expect(id, 60000));
      lines.push(JSON.stringify({
        jsonrpc: '2.0', id, method: 'tools/call',
        params: { name: 'calc_exact', arguments: { expr: `1000+${i}` } },
      }));
    }
    const t0 = Date.now();
    r.proc.stdin.write(lines.join('\n') + '\n'); // one write: the server sees them all at once
    const res = await Promise.all(waits);
    const ms = Date.now() - t0;
    const seen = new Set();
    res.forEach((m, i) => {
      const id = i % 2 === 0 ? 20000 + i : `req-${i}`;
      assert.deepEqual(m.id, id);
      assert.ok(!seen.has(m.id), `duplicate answer for ${m.id}`);
      seen.add(m.id);
      assert.ok(!m.error, `id ${id}: ${m.__raw}`);
      const sc = m.result.structuredContent;
      assert.equal(sc.value, String(1000 + i), `id ${id} got the answer to another question`);
      assert.equal(sc.contract_version, CONTRACT_VERSION);
      assert.equal(JSON.parse(m.result.content[0].text).value, String(1000 + i));
    });
    assert.equal(seen.size, N);
    assert.equal(r.orphans.length, 0, `unmatched answers: ${JSON.stringify(r.orphans.slice(0, 3))}`);
    console.log(`# 1000 pipelined calc_exact in ${ms} ms`);
  });
});
