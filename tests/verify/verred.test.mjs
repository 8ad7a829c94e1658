// Verification red team (lane verred): failures that the comparison read
// as the wrong kind of failure, each test named after the bug it locks
// out. The rules are in docs/contract.md, "verify_translation,
// compare_edge_cases: perl's die and output a runtime flushed (lane
// verred, 2026-12-04)".
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startVerifyServer, skipUnlessLangs, SKIP_NO_BINARY } from './util.mjs';

const PY_HUNDRED = 'import sys\nn = int(sys.stdin.read())\nprint(100 // n)';

describe('verred: how a failed run died', { skip: SKIP_NO_BINARY, timeout: 600000 }, () => {
  let s;
  before(async () => { s = await startVerifyServer(); });
  after(async () => { await s?.close(); });

  // perl's die exits with errno when it is set: 2 after a failed open.
  // Against python's uncaught FileNotFoundError (exit 1) rule 39 read the
  // port's uncaught error as a deliberate exit 2 and failed a port that
  // agrees wherever both run.
  test('perl_die_errno_read_as_a_deliberate_exit: python -> perl dying after a failed open is inconclusive', async (t) => {
    if (await skipUnlessLangs(t, s, 'python3', 'perl')) return;
    const r = await s.tool('verify_translation', {
      source_language: 'python3',
      source_code: 'import sys\nn = int(sys.stdin.read())\nif n < 0:\n    open("/nonexistent/cfg")\nprint(n * 2)',
      target_language: 'perl',
      target_code: 'my $n = <STDIN>; chomp $n;\nif ($n < 0) { open(my $f, "<", "/nonexistent/cfg") or die "cannot open cfg: $!"; }\nprint $n * 2, "\\n";',
      test_inputs: ['3', '-1', '5'], edge_inputs: false });
    const neg = r.cases.find((c) => c.input === '-1');
    assert.equal(neg.target.exit_code, 2, JSON.stringify(neg));
    assert.equal(neg.outcome, 'inconclusive', JSON.stringify(neg));
    assert.equal(r.mismatched, 0, JSON.stringify(r).slice(0, 1500));
    assert.equal(r.passed, true);
  });

  // A deliberate exit(1) in C flushes what it printed; python runs
  // unbuffered. C printing "zero" and exiting 1 against python dying of
  // ZeroDivisionError (exit 1, nothing printed) is two different
  // behaviours, but compare_edge_cases read the empty output as a lost
  // tail and marked the input incomplete (not compared).
  test('deliberate_exit_after_output_read_as_incomplete: C exit 1 after "zero" against a python crash diverges', async (t) => {
    if (await skipUnlessLangs(t, s, 'python3', 'c')) return;
    const r = await s.tool('compare_edge_cases', { snippets: {
      c: '#include <stdio.h>\nint main(void){long n; if(scanf("%ld",&n)!=1) return 2; if(n==0){puts("zero"); return 1;} printf("%ld\\n",100/n); return 0;}',
      python3: PY_HUNDRED },
    inputs: ['0', '5'], edge_inputs: false });
    assert.equal(r.results[0].runs.c.stdout, 'zero', JSON.stringify(r.results[0]));
    assert.deepEqual(r.divergences.map((d) => [d.input, d.kind]), [['0', 'content']], JSON.stringify(r).slice(0, 2000));
    assert.equal(r.incomplete_count, 0);
  });

  // python's exception flushes all it printed (nothing here); a go port
  // printing "zero" before its panic printed more. Rule 41 read the empty
  // output as the start of "zero" (a possibly lost tail): inconclusive,
  // and the port passed on the other inputs.
  test('flushed_shorter_output_read_as_a_lost_tail: python crash against a go port printing before its panic is a mismatch', async (t) => {
    if (await skipUnlessLangs(t, s, 'python3', 'go')) return;
    const r = await s.tool('verify_translation', {
      source_language: 'python3', source_code: PY_HUNDRED, target_language: 'go',
      target_code: 'package main\nimport "fmt"\nfunc main(){var n int; fmt.Scan(&n); if n == 0 {fmt.Println("zero"); panic("div")}; fmt.Println(100/n)}',
      test_inputs: ['0', '5', '4'], edge_inputs: false });
    const zero = r.cases.find((c) => c.input === '0');
    assert.equal(zero.target.stdout, 'zero', JSON.stringify(zero));
    assert.equal(zero.outcome, 'mismatch', JSON.stringify(zero));
    assert.equal(r.passed, false);
  });
  // A rust main returning Err (a parse error passed up with `?`) exits 1
  // after "Error: ...": rust's way to leave an error uncaught. Against a go
  // panic (exit 2) rule 39 read it as a deliberate exit 1 and failed a
  // faithful go -> rust port.
  test('rust_main_err_read_as_a_deliberate_exit: go panic against rust main returning Err is inconclusive', async (t) => {
    if (await skipUnlessLangs(t, s, 'go', 'rust')) return;
    const r = await s.tool('verify_translation', {
      source_language: 'go',
      source_code: 'package main\nimport ("bufio";"fmt";"os";"strconv";"strings")\nfunc main(){ r := bufio.NewReader(os.Stdin); s, _ := r.ReadString(\'\\n\'); n, err := strconv.Atoi(strings.TrimSpace(s)); if err != nil { panic(err) }; fmt.Println(n * 3) }',
      target_language: 'rust',
      target_code: 'use std::io::Read;\nfn main() -> Result<(), Box<dyn std::error::Error>> { let mut s = String::new(); std::io::stdin().read_to_string(&mut s)?; let n: i64 = s.trim().parse()?; println!("{}", n * 3); Ok(()) }',
      test_inputs: ['3', 'x', '5'], edge_inputs: false });
    const bad = r.cases.find((c) => c.input === 'x');
    assert.equal(bad.source.exit_code, 2, JSON.stringify(bad));
    assert.equal(bad.target.exit_code, 1, JSON.stringify(bad));
    assert.equal(bad.outcome, 'inconclusive', JSON.stringify(bad));
    assert.equal(r.passed, true, JSON.stringify(r).slice(0, 1500));
  });
  // A port that dies now and then (exit 3 on 4 runs in 10 of input 5):
  // when its first run matched and a repeat crashed, rule 37 called the
  // input inconclusive ("the host was too loaded") and the call passed,
  // cross_checked, on the other input. The unit test
  // match_that_does_not_reproduce locks the rule without chance; here the
  // port survives all 16 of its runs of 5 with chance 0.6^16 < 0.0003.
  test('flaky_port_crash_on_repeat_read_as_inconclusive: a port crashing on a repeat fails the call', async (t) => {
    if (await skipUnlessLangs(t, s, 'python3')) return;
    const r = await s.tool('verify_translation', {
      source_language: 'python3', source_code: 'import sys\nn = int(sys.stdin.read())\nprint(n * 2)',
      target_language: 'python3',
      target_code: 'import sys, random\nn = int(sys.stdin.read())\nif n == 5 and random.random() < 0.4:\n    raise SystemExit(3)\nprint(n * 2)',
      test_inputs: ['5', '6'], edge_inputs: false });
    const five = r.cases.find((c) => c.input === '5');
    assert.equal(five.outcome, 'mismatch', JSON.stringify(five));
    assert.equal(r.passed, false);
    assert.equal(r.grade, 'ungraded');
  });
  // python's sys.exit(3) ported as a C++ throw (uncaught: SIGABRT): a
  // deliberate exit against a crash, which rule 39 calls a mismatch for
  // two exit codes, was rule 7 (inconclusive) and the port passed.
  test('deliberate_exit_against_a_signal_read_as_inconclusive: sys.exit(3) against a C++ throw is a mismatch', async (t) => {
    if (await skipUnlessLangs(t, s, 'python3', 'c++')) return;
    const r = await s.tool('verify_translation', {
      source_language: 'python3',
      source_code: 'import sys\nn = int(sys.stdin.read())\nif n < 0:\n    sys.exit(3)\nprint(n * 2)',
      target_language: 'c++',
      target_code: '#include <iostream>\n#include <stdexcept>\nint main(){ long n; std::cin >> n; if (n < 0) throw std::runtime_error("negative"); std::cout << n * 2 << "\\n"; return 0; }',
      test_inputs: ['3', '-1', '5'], edge_inputs: false });
    const neg = r.cases.find((c) => c.input === '-1');
    assert.equal(neg.source.exit_code, 3, JSON.stringify(neg));
    assert.equal(neg.target.verdict, 'RTE', JSON.stringify(neg));
    assert.equal(neg.outcome, 'mismatch', JSON.stringify(neg));
    assert.equal(r.passed, false);
  });
});
