# execute_python for Python code: static checks, deterministic repairs,
# running the examples, the repair search, and the optional transpile and
# optimize steps. Called by ccv_host with the parsed request.
import time

import ccv_optimize
import ccv_pycheck
import ccv_pyfix
import ccv_transpile
from ccv_common import Rejected, Source, clip, diag, parse_or_none
from ccv_examples import docstring_examples, parse_option_examples
from ccv_pyrun import Pool, RunConfig
from ccv_pysearch import SEARCH_BUDGET_S, Searcher, check_statuses, rank

DEFAULT_TIMEOUT_S = 2.0
RUN_CAP_S = 90.0          # the whole first run of the submitted code
RESERVE_S = 12.0          # kept for transpile/optimize proofs and the answer
STDOUT_REPORT = 65536
MAX_DIAGNOSTICS = 1000    # keeps a result far below the 4 MiB bound of docs/contract.md


def bounded(diags, ns):
    """At most MAX_DIAGNOSTICS, errors kept first, and a note of the rest."""
    if len(diags) <= MAX_DIAGNOSTICS:
        return diags
    order = {"error": 0, "warning": 1, "info": 2}
    keep = sorted(range(len(diags)), key=lambda i: (order.get(diags[i]["severity"], 3), i))
    keep = sorted(keep[:MAX_DIAGNOSTICS - 1])
    out = [diags[i] for i in keep]
    out.append(diag(ns + ":diagnostics-truncated", "%d more diagnostics are not shown"
                    % (len(diags) - len(keep)), "info", None, None))
    return out


class Ctx:
    def __init__(self, req, deadline):
        self.req = req
        self.deadline = deadline
        self.mode = req["mode"]
        opts = req.get("options") or {}
        self.opts = opts
        t = opts.get("timeout_s")
        self.timeout_s = float(t) if t is not None else DEFAULT_TIMEOUT_S
        self.expected = opts.get("expected_output")
        self.max_iter = int(opts.get("max_iterations") or 3)
        self.diags = []
        self.checks = []
        self.edits = []
        self.out = {}
        self.examples_for_proof = None
        self.pool = None
        self.final_text = None

    def left(self):
        return self.deadline - time.monotonic()


def validate(req, deadline):
    cx = Ctx(req, deadline)
    code = req["code"]
    option_examples = parse_option_examples(cx.opts.get("examples"))
    target = cx.opts.get("transpile_to")
    if target is not None and target.strip().lower() != "javascript":
        raise Rejected("options.transpile_to '%s' is not supported; the only target is "
                       "'javascript'" % clip(target, 40))
    src = Source(code)
    syn, parses = ccv_pycheck.syntax(code)
    cx.diags += syn
    cx.checks.append({"name": "python-compile", "status": "ran"})
    tree = parse_or_none(code) if parses else None
    flakes = []
    if tree is not None:
        d, c, flakes = ccv_pycheck.static_checks(code, tree, src, deadline - RESERVE_S)
        cx.diags += d
        cx.checks += c
    else:
        for name in ("pyflakes", "bandit", "mypy"):
            cx.checks.append({"name": name, "status": "skipped",
                              "detail": "the code does not compile"})
    fixes = ccv_pyfix.plan(tree, src, flakes) if tree is not None else []
    fixed = ccv_pyfix.apply(code, fixes) if fixes and cx.mode != "static" else None
    _attach_fixes(cx, fixes, applied=fixed is not None)
    valid_static = not any(d["severity"] == "error" for d in cx.diags)
    final = fixed
    if cx.mode == "execute":
        doc_examples, doc_diags = docstring_examples(tree)
        cx.diags += doc_diags
        examples = option_examples + doc_examples
        final, score, runs_ok = execute(cx, code, tree, fixed, fixes, examples)
    else:
        score = 1.0 if valid_static else 0.0
        runs_ok = True
    valid = valid_static and runs_ok and not any(d["severity"] == "error" for d in cx.diags)
    if valid:
        score = 1.0
    cx.diags.sort(key=lambda d: (d["line"] is None, d["line"] or 0, d["column"] or 0))
    cx.diags = bounded(cx.diags, "python")
    cx.edits = cx.edits[:MAX_DIAGNOSTICS]
    result = {"valid": valid, "score": round(score, 4),
              "fixed_code": final if final is not None and final != code else None,
              "diagnostics": cx.diags, "edits": cx.edits, "checks": cx.checks,
              "executed": cx.mode == "execute" and tree is not None}
    result.update(cx.out)
    base = result["fixed_code"] or code
    examples = cx.examples_for_proof or []
    if target is not None and tree is not None:
        result.update(ccv_transpile.transpile_and_prove(
            base, examples, cx.mode, cx.expected, min(cx.deadline - 2, time.monotonic() + 15),
            cx.diags, cx.pool, cx.timeout_s))
    elif target is not None:
        result["transpiled_code"] = None
    if cx.opts.get("optimize") and tree is not None:
        result.update(ccv_optimize.optimize_and_prove(
            base, examples, cx.mode, cx.expected, cx.timeout_s,
            min(cx.deadline - 2, time.monotonic() + 15), cx.diags, cx.pool))
    return result


def _attach_fixes(cx, fixes, applied):
    for f in fixes:
        fix = dict(f.edit, applied=applied)
        d = next((d for d in cx.diags if d["code"] == f.diag["code"] and
                  d["line"] == f.diag["line"] and d["column"] == f.diag["column"]), None)
        if d is None:
            d = dict(f.diag)
            cx.diags.append(d)
        d["fix"] = fix
        if applied and not f.shared:
            cx.edits.append(dict(f.edit, kind="fix", code=f.diag["code"]))


# ---- execute mode -----------------------------------------------------------------

def execute(cx, code, tree, fixed, fixes, examples):
    """Run the submitted code against its examples; search for a repair
    when some fail. Returns (final code or None, score, every check passed)."""
    cx.examples_for_proof = examples
    cx.pool = None
    n_checks = sum(e.is_check for e in examples) + (cx.expected is not None)
    if tree is None:
        cx.diags.append(diag("python:not-run", "the code does not compile, so no example "
                             "could be run", "error", None, None))
        cx.out["examples"] = {"total": n_checks, "passed": 0}
        return fixed, 0.0, False
    # Examples check functions the way doctest and pytest do, by importing
    # the module: run as a script, `if __name__ == "__main__":
    # main()` read the empty stdin, died with EOFError before any example
    # ran, and the repair search "fixed" it by flipping the guard. The
    # script's own run is what expected_output judges, so it keeps
    # "__main__", as does a run with no example at all.
    as_script = cx.expected is not None or not any(e.is_check for e in examples)
    pool = cx.pool = Pool(examples, module_name="__main__" if as_script else "code")
    limit = cx.timeout_s
    cfg = RunConfig(limit, limit, timer="real", capture=True)
    run_deadline = time.monotonic() + RUN_CAP_S
    first = pool.run([code], cfg, run_deadline)[0]
    statuses = check_statuses(first, examples, cx.expected)
    report_run(cx, first, examples, limit)
    passed = sum(s == "pass" for s in statuses)
    cx.out["examples"] = {"total": n_checks, "passed": passed,
                          "from_docstrings": sum(e.is_check and e.origin == "docstring"
                                                 for e in examples)}
    if n_checks == 0:
        cx.diags.append(diag("python:no-examples", "the code ran, but no example says what it "
                             "should do: pass options.examples (or >>> lines in a docstring) "
                             "to check that it is right, not only that it runs", "info",
                             None, None))
    score = passed / n_checks if n_checks else (1.0 if first.module.get("status") == "ok" else 0.0)
    all_ok = passed == n_checks and first.module.get("status") == "ok"
    if all_ok or n_checks == 0:
        return fixed, score, all_ok
    start, ref = code, first
    if fixed is not None:
        ref_fixed = pool.run([fixed], cfg, run_deadline)[0]
        if rank(check_statuses(ref_fixed, examples, cx.expected)) >= rank(statuses):
            start, ref = fixed, ref_fixed
        else:
            fixed = None
            cx.edits = [e for e in cx.edits if e.get("kind") != "fix"]
            for d in cx.diags:
                if "fix" in d:
                    d["fix"]["applied"] = False
                    d["fix"]["note"] = "not applied: the code passed fewer examples with it"
    search(cx, pool, examples, start, ref)
    return cx.final_text if cx.final_text is not None else fixed, score, False


def edit_text(edits):
    # The column too: the same swap at two places of one line is two fixes.
    return ", ".join("line %d, column %d: %s -> %s" % (e["line"], e.get("column") or 0,
                                                        clip(str(e.get("before", "")), 30),
                                                        clip(str(e.get("after", "")), 30)) for e in edits)


def ambiguous(chosen, info):
    """Other edits pass every example too: the repair is one reading of
    examples that do not pin the code down; say so beside it."""
    k = info["alternatives_total"]
    shown = "; ".join(edit_text(a) for a in info["alternatives"])
    return diag("python:repair-ambiguous",
                "%d other edit%s also make%s every example pass (%s%s): the examples do not tell the "
                "fix apart from %s; fixed_code holds the first in order of preference (%s). They may be "
                "equivalent, or differ on inputs the examples lack: check the fix, or add an example "
                "that separates them"
                % (k, "s" if k > 1 else "", "" if k > 1 else "s", shown,
                   ", ..." if k > len(info["alternatives"]) else "",
                   "them" if k > 1 else "it", edit_text(chosen)), "info", None, None)


def single_check(chosen):
    """A repair that passes the one check there is: one input and its output
    are met by many programs (n * 3 -> n * 2 for f(2) == 4, and n + 2, n ** 2
    meet it too, two edits away), so being the only single edit that meets it
    does not make it the fix."""
    return diag("python:repair-ambiguous",
                "the fix rests on a single check: one input and its output are met by many "
                "programs, and this edit (%s) is only the first the search found that meets it. "
                "Add examples that separate the readings before taking it as the fix"
                % edit_text(chosen),
                "info", None, None)


def mark_ambiguity(cx, info, chosen, total):
    """repair.ambiguous: whether the checks leave other readings open (other
    edits pass them all, or there is one check only)."""
    info["ambiguous"] = bool(info.get("alternatives")) or total < 2
    if info.get("alternatives"):
        cx.diags.append(ambiguous(chosen, info))
    elif total < 2:
        cx.diags.append(single_check(chosen))


def search(cx, pool, examples, start, ref):
    """The repair search from start; its result becomes fixed_code only
    when it passes more checks than the submitted code."""
    before = sum(x == "pass" for x in check_statuses(ref, examples, cx.expected))
    budget_end = min(time.monotonic() + SEARCH_BUDGET_S, cx.deadline - RESERVE_S)
    s = Searcher(pool, examples, cx.expected, cx.timeout_s)
    state, info = s.run(start, ref, cx.max_iter, budget_end)
    info["budget_ms"] = int(SEARCH_BUDGET_S * 1000)
    info["solved"] = False
    got = before
    if state.edits:
        cfg = RunConfig(cx.timeout_s, cx.timeout_s, timer="real", capture=True)
        check = pool.run([state.text], cfg, time.monotonic() + RUN_CAP_S)[0]
        sts = check_statuses(check, examples, cx.expected)
        got, total = sum(x == "pass" for x in sts), len(sts)
        info["score"] = round(got / total, 4) if total else 1.0
        info["solved"] = got == total and check.module.get("status") == "ok"
    if got > before:
        cx.final_text = state.text
        cx.edits += state.edits
        if info["solved"]:
            mark_ambiguity(cx, info, state.edits, total)
        if not info["solved"]:
            cx.diags.append(diag("python:repair-partial", "the best repair found passes %d of %d "
                                 "checks; fixed_code holds it, but it is not a full fix"
                                 % (got, len(check_statuses(ref, examples, cx.expected))),
                                 "info", None, None))
    else:
        cx.diags.append(diag("python:repair-none", "no edit the search tried makes more examples "
                             "pass", "info", None, None))
    cx.out["repair"] = info


def report_run(cx, res, examples, limit):
    m = res.module or {}
    out = m.get("stdout")
    if out is not None:
        cx.out["stdout"] = out[:STDOUT_REPORT]
    st = m.get("status")
    if st == "timeout":
        cx.diags.append(diag("python:timeout", "the module's top-level code did not finish "
                             "within %g s (options.timeout_s)" % limit, "error", None, None))
    elif st != "ok":
        cx.diags.append(diag("python:runtime-error", "running the module raised %s"
                             % (m.get("exc") or "an error"), "error", m.get("exc_line"), None))
    for ex, r in zip(examples, res.examples):
        if ex.kind == "setup":
            if r.get("status") not in ("pass", "not_run"):
                cx.diags.append(diag("python:example-setup", "options.examples line %d (`%s`) "
                                     "raised %s" % (ex.line, clip(ex.source, 80),
                                                    r.get("exc") or r.get("status")),
                                     "warning", None, None, example_line=ex.line))
            continue
        if r.get("status") == "pass":
            continue
        cx.diags.append(mismatch(ex, r, limit))
    if cx.expected is not None and st == "ok" and m.get("stdout") != cx.expected:
        cx.diags.append(diag("python:expected-output", "stdout differs from "
                             "options.expected_output" + _first_difference(cx.expected,
                                                                           out or ""),
                             "error", None, None, expected=clip(cx.expected, 2000),
                             actual=clip(out or "", 2000)))


def _first_difference(want, got):
    wl, gl = want.split("\n"), got.split("\n")
    for i, (a, b) in enumerate(zip(wl, gl)):
        if a != b:
            return " at line %d: expected %r, got %r" % (i + 1, clip(a, 80), clip(b, 80))
    if len(wl) != len(gl):
        return ": expected %d lines, got %d" % (len(wl), len(gl))
    return ""


def mismatch(ex, r, limit):
    st = r.get("status")
    what = ex.source if ex.kind in ("assert", "block") else ">>> " + ex.source
    if st == "timeout":
        why = ("the code loops forever (no answer within %g s; raise options.timeout_s if it "
               "is only slow)" % limit)
        actual = "loops forever"
    elif st == "error":
        why = r.get("exc") or "an exception"
        if r.get("exc_line"):
            why += " (line %d of the code)" % r["exc_line"]
        actual = "raised " + (r.get("exc") or "an exception")
    elif st == "not_run":
        why = "not run: " + (r.get("exc") or "the module or an earlier example stopped the run")
        actual = "not run"
    elif ex.kind == "block":
        why = "an assert in it failed (%s)" % r.get("actual")
        actual = r.get("actual")
    elif ex.kind == "doctest":
        why = "expected %s, got %s" % (_show(r.get("expected")), _show(r.get("actual")))
        actual = r.get("actual")
    elif ex.op == "==":
        why = "got %s, expected %s" % (r.get("actual"), r.get("expected"))
        actual = r.get("actual")
    elif ex.op is not None:
        why = "the left side is %s and the right side %s" % (r.get("actual"), r.get("expected"))
        actual = r.get("actual")
    else:
        why = "the condition is %s" % r.get("actual")
        actual = r.get("actual")
    line = ex.code_line if ex.origin == "docstring" else None
    expected = r.get("expected")
    if expected is None:
        expected = ex.right_src if ex.kind == "assert" else (ex.want or "").rstrip("\n")
    return diag("python:example-mismatch", "%s failed: %s" % (clip(what, 200), why), "error",
                line, None, expression=clip(ex.source, 500), expected=expected,
                actual=actual, outcome=st, origin=ex.origin,
                example_line=ex.line if ex.origin == "examples" else None)


def _show(s):
    if s is None:
        return "nothing"
    return repr(s) if s == "" or "\n" in s else s
