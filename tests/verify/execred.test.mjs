// Execution red team (lane execred): verification verdicts that misstated
// what two programs did, each test named after the bug it locks out,
// through the MCP SDK client. The rules are in docs/contract.md,
// "verify_translation, compare_edge_cases: the uncaught-error codes of
// erlang, awk, fortran and jq (lane execred, 2026-12-04)".
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startVerifyServer, skipUnlessLangs, SKIP_NO_BINARY } from './util.mjs';

const PY_DOUBLE = 'import sys\nn = int(sys.stdin.read())\nprint(n * 2)';

describe('execred: uncaught errors of every language', { skip: SKIP_NO_BINARY, timeout: 600000 }, () => {
  let s;
  before(async () => { s = await startVerifyServer(); });
  after(async () => { await s?.close(); });

  // python's ValueError (exit 1) against jq's "No more inputs" (exit 5) on
  // the empty input: both died of their language's uncaught error (rule 7,
  // inconclusive), but jq's 5 was not known as one, so rule 39 called it a
  // mismatch and failed a port that agrees wherever both run.
  test('uncaught_jq_error_read_as_a_different_exit: python -> jq on an empty input is inconclusive', async (t) => {
    if (await skipUnlessLangs(t, s, 'python3', 'jq')) return;
    const r = await s.tool('verify_translation', {
      source_code: PY_DOUBLE, source_language: 'python3',
      target_code: 'input | . * 2', target_language: 'jq',
      test_inputs: ['3', '7', ''], edge_inputs: false });
    const empty = r.cases.find((c) => c.input === '');
    assert.equal(empty.target.exit_code, 5, JSON.stringify(empty));
    assert.equal(empty.outcome, 'inconclusive', JSON.stringify(empty));
    assert.equal(r.mismatched, 0, JSON.stringify(r).slice(0, 1500));
    assert.equal(r.passed, true);
  });

  // escript exits 127 after an uncaught erlang error, gawk 2 after a fatal
  // error: against a python exception each was a content divergence
  // (different exit classes) where every run died of an uncaught error.
  test('uncaught_erlang_and_awk_errors_read_as_a_divergence: python, erlang, awk all dying is no divergence', async (t) => {
    if (await skipUnlessLangs(t, s, 'python3', 'erlang', 'awk')) return;
    const r = await s.tool('compare_edge_cases', { snippets: {
      python3: 'raise ValueError("x")',
      erlang: 'main(_) -> erlang:error(boom).',
      awk: 'BEGIN { x = 0; print 1 / x }' },
    inputs: ['1'], edge_inputs: false });
    const runs = r.results[0].runs;
    assert.equal(runs.erlang.exit_code, 127, JSON.stringify(runs.erlang));
    assert.equal(runs.awk.exit_code, 2, JSON.stringify(runs.awk));
    assert.equal(r.divergence_count, 0, JSON.stringify(r).slice(0, 2000));
    assert.equal(r.incomplete_count, 1);
  });
});

describe('execred: a death by a signal is an uncaught error', { skip: SKIP_NO_BINARY, timeout: 600000 }, () => {
  let s;
  before(async () => { s = await startVerifyServer(); });
  after(async () => { await s?.close(); });

  // python's uncaught ValueError is exit 1, a C++ uncaught exception is
  // SIGABRT: verify_translation reads the pair as two uncaught errors
  // (rule 7, inconclusive), compare_edge_cases called it a content
  // divergence (exit class -2 against a signal's -1).
  test('signal_death_against_uncaught_exit_read_as_a_divergence: python raise and C++ throw agree they died', async (t) => {
    if (await skipUnlessLangs(t, s, 'python3', 'c++')) return;
    const r = await s.tool('compare_edge_cases', { snippets: {
      python3: 'import sys\nif sys.stdin.read().strip() == "1":\n    raise ValueError("x")\nprint("fine")',
      'c++': '#include <iostream>\n#include <stdexcept>\n#include <string>\nint main() { std::string s; std::cin >> s;\n'
        + '  if (s == "1") throw std::runtime_error("x");\n  std::cout << "fine" << std::endl; }' },
    inputs: ['1', '2'], edge_inputs: false });
    const row = r.results.find((x) => x.input === '1');
    assert.equal(r.divergence_count, 0, JSON.stringify(r).slice(0, 2000));
    assert.equal(row.incomplete, true, JSON.stringify(row));
    assert.equal(r.incomplete_count, 1);
  });

  // A different behaviour is still one: a crash against a clean exit 0.
  test('a signal death against a success stays a content divergence', async (t) => {
    if (await skipUnlessLangs(t, s, 'python3', 'c')) return;
    const r = await s.tool('compare_edge_cases', { snippets: {
      python3: 'print("fine")',
      c: '#include <stdlib.h>\nint main(void) { abort(); }' },
    inputs: ['1'], edge_inputs: false });
    assert.equal(r.divergence_count, 1, JSON.stringify(r).slice(0, 1500));
    assert.equal(r.divergences[0].kind, 'content');
  });
});
