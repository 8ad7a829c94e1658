// analyze_complexity's refined_estimate on the batches of classic
// algorithms (tests/analysis/complexity/batch_*.json) written the way
// different users write them, in python, javascript, c, go and java: the
// sieve of Eratosthenes read as O(n sqrt n), BFS/DFS over adjacency lists
// as O(n^2) or O(2^n), a monotonic stack as O(n^2), slices in
// comprehensions as free, permutations as polynomial, a helper's loops
// called in a loop as free, and more (docs/analysis.md "Refinements").
// Each reading must be the truth or an accepted equivalent (`also`); a
// recorded over-estimate (`known`, with `known_why`) must stay exactly
// that. tests/analysis/complexity/grade.py prints the same grades.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, SKIP_NO_BINARY } from '../mcp/harness.mjs';

const HERE = join(dirname(fileURLToPath(import.meta.url)), 'complexity');
const BATCHES = ['batch_a.json', 'batch_b.json', 'batch_c.json', 'batch_d.json', 'batch_e.json', 'batch_f.json',
  'batch_g.json', 'batch_h.json', 'batch_i.json', 'batch_j.json', 'batch_k.json', 'batch_l.json'];

describe('analyze_complexity on the classic-algorithm corpus', { skip: SKIP_NO_BINARY }, () => {
  let s;
  before(async () => { s = await startServer(); });
  after(async () => { await s?.close(); });
  for (const b of BATCHES) {
    const { cases } = JSON.parse(readFileSync(join(HERE, b), 'utf8'));
    for (const c of cases) {
      test(`${b.replace('.json', '')}: ${c.id} is ${c.known ?? c.truth}`, async () => {
        const r = await s.call('analyze_complexity', { code: c.code, language: c.language });
        assert.equal(r.ok, true);
        assert.equal(r.analysis, 'tree-sitter');
        if (c.known) assert.equal(r.refined_estimate, c.known, c.known_why);
        else assert.ok([c.truth, ...c.also].includes(r.refined_estimate),
          `${c.id}: ${r.refined_estimate}, want ${c.truth} (${JSON.stringify(r.refinements.map((x) => x.rule))})`);
      });
    }
  }
});
