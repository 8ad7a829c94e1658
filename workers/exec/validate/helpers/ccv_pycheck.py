# Static checks of Python code: Python's own compiler (syntax, with line and
# column), pyflakes (lint), bandit (security) and mypy (types, only when the
# code has annotations). Nothing here runs the code: the checkers parse it.
# Each checker runs in a forked child with its own time budget, all three
# at once; a checker that is missing or overruns is reported, not fatal.
import ast
import json
import os
import re
import resource
import select
import signal
import time
import warnings

from ccv_common import diag

# The checked code is written here for bandit and mypy: a directory that is
# never on any import path (a file called code.py beside the helpers was
# once imported as the standard `code` module, running it in static mode).
CHECK_DIR = "/tmp/ccv-scratch/check"
CODE_PATH = "code.py"
BUDGETS = {"pyflakes": 10.0, "bandit": 20.0, "mypy": 30.0}

_FLAKE_ERRORS = {
    "UndefinedName", "UndefinedLocal", "UndefinedExport", "DuplicateArgument",
    "ReturnOutsideFunction", "YieldOutsideFunction", "ContinueOutsideLoop",
    "BreakOutsideLoop", "DefaultExceptNotLast", "TwoStarredExpressions",
    "TooManyExpressionsInStarredAssignment", "InvalidPrintSyntax",
    "ForwardAnnotationSyntaxError", "PercentFormatInvalidFormat",
    "PercentFormatMixedPositionalAndNamed", "PercentFormatUnsupportedFormatCharacter",
    "PercentFormatPositionalCountMismatch", "PercentFormatExpectedMapping",
    "PercentFormatExpectedSequence", "PercentFormatStarRequiresSequence",
    "StringDotFormatInvalidFormat", "StringDotFormatMissingArgument",
    "StringDotFormatMixingAutomatic"}


def kebab(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


def syntax(code):
    """(diagnostics, ok): the compiler's errors and warnings. Compiling
    builds bytecode; nothing is executed."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            compile(code, CODE_PATH, "exec", dont_inherit=True)
        except SyntaxError as e:
            kind = type(e).__name__
            msg = "%s: %s" % (kind, e.msg) if kind != "SyntaxError" else e.msg
            return [diag("python:syntax", msg, "error", e.lineno, e.offset,
                         end_line=getattr(e, "end_lineno", None),
                         end_column=getattr(e, "end_offset", None))], False
        except ValueError as e:  # NUL bytes
            return [diag("python:syntax", str(e), "error", None, None)], False
    out = []
    for w in caught:
        if issubclass(w.category, (SyntaxWarning, DeprecationWarning)) and \
                w.filename == CODE_PATH:
            out.append(diag("python:syntax-warning", str(w.message), "warning", w.lineno, None))
    return out, True


def has_annotations(tree):
    for n in ast.walk(tree):
        if isinstance(n, ast.AnnAssign):
            return True
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            a = n.args
            if n.returns is not None or any(x.annotation is not None for x in
                                            a.posonlyargs + a.args + a.kwonlyargs):
                return True
    return False


# ---- the checkers (each runs in its own child) ----------------------------------

def pyflakes_messages(code):
    from pyflakes import checker
    tree = ast.parse(code, filename=CODE_PATH)
    w = checker.Checker(tree, filename=CODE_PATH)
    out = []
    for m in w.messages:
        out.append({"cls": type(m).__name__, "line": m.lineno, "col": m.col,
                    "msg": m.message % m.message_args,
                    "args": [str(a) for a in m.message_args]})
    return out


def bandit_issues(path):
    import logging
    logging.disable(logging.CRITICAL)
    from bandit.core import config, manager, test_set
    orig = test_set.BanditTestSet.get_tests
    wrapped = {}

    def get_tests(self, checktype):
        out = []
        for t in orig(self, checktype):
            w = wrapped.get(t)
            if w is None:
                w = wrapped[t] = _locating(t)
            out.append(w)
        return out
    test_set.BanditTestSet.get_tests = get_tests
    m = manager.BanditManager(config.BanditConfig(), "file")
    m.discover_files([path])
    m.run_tests()
    return [{"id": i.test_id, "name": i.test, "line": i.lineno,
             "col": getattr(i, "_ccv_col", None), "severity": i.severity,
             "confidence": i.confidence, "text": i.text} for i in m.get_issue_list()]


def _locating(test):
    """Wrap a bandit test so its issue remembers the column of the node
    it was raised on (bandit 1.6 records only the line)."""
    def w(context, *a):
        r = test(context, *a)
        if r is not None:
            node = context._context.get("node")
            r._ccv_col = getattr(node, "col_offset", None)
        return r
    w.__name__ = test.__name__
    w._test_id = getattr(test, "_test_id", "")
    if hasattr(test, "_config"):
        w._config = test._config
    return w


_MYPY_LINE = re.compile(r"^(?:.*/)?code\.py:(\d+):(\d+): (error|warning|note): (.*?)"
                        r"(?:  \[([a-z0-9-]+)\])?$")


def mypy_messages(path):
    from mypy import api
    out, _, _ = api.run(["--cache-dir=/dev/null", "--show-column-numbers", "--show-error-codes",
                         "--no-error-summary", "--ignore-missing-imports", "--no-color-output",
                         "--hide-error-context", "--no-site-packages", path])
    msgs = []
    for ln in out.splitlines():
        m = _MYPY_LINE.match(ln)
        if m and m.group(3) != "note":
            msgs.append({"line": int(m.group(1)), "col": int(m.group(2)), "level": m.group(3),
                         "msg": m.group(4), "code": m.group(5) or "misc"})
    return msgs


# ---- running them under budgets ------------------------------------------------------

def run_budgeted(tasks, deadline):
    """tasks: [(name, fn, budget_s)]. Runs each fn() in a forked child at
    once; returns {name: (status, value, ms)} with status ok | error |
    timeout. value is the JSON-able return (or the error text)."""
    running, out = {}, {}
    for name, fn, budget in tasks:
        rfd, wfd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(rfd)
            _task_child(fn, wfd)
        os.close(wfd)
        t0 = time.monotonic()
        running[rfd] = [name, pid, min(t0 + budget, deadline), b"", t0]
    while running:
        now = time.monotonic()
        wait = max(0.0, min(r[2] for r in running.values()) - now)
        ready, _, _ = select.select(list(running), [], [], wait)
        for fd in ready:
            data = os.read(fd, 1 << 16)
            if data:
                running[fd][3] += data
                continue
            name, pid, _, buf, t0 = running.pop(fd)
            os.close(fd)
            os.waitpid(pid, 0)
            out[name] = _decode(buf, t0)
        now = time.monotonic()
        for fd in [fd for fd, r in running.items() if now >= r[2]]:
            name, pid, _, _, t0 = running.pop(fd)
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
            os.waitpid(pid, 0)
            os.close(fd)
            out[name] = ("timeout", None, int((now - t0) * 1000))
    return out


def _decode(buf, t0):
    ms = int((time.monotonic() - t0) * 1000)
    try:
        obj = json.loads(buf)
        return obj["status"], obj["value"], ms
    except (ValueError, KeyError, TypeError):
        return "error", "the checker ended without an answer", ms


def _task_child(fn, wfd):
    status = 1
    try:
        try:
            os.chdir(CHECK_DIR)
        except OSError:
            pass
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = 1536 << 20
        if soft == resource.RLIM_INFINITY or soft > cap:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
        try:
            res = {"status": "ok", "value": fn()}
        except ImportError as e:
            res = {"status": "unavailable", "value": "not installed here (%s)" % e}
        except BaseException as e:
            res = {"status": "error", "value": "%s: %s" % (type(e).__name__, e)}
        data = json.dumps(res).encode()
        while data:
            data = data[os.write(wfd, data):]
        status = 0
    finally:
        os._exit(status)


# ---- turning findings into diagnostics ----------------------------------------------

def flake_diagnostics(msgs, src):
    out = []
    for m in msgs:
        col = src.char_col(m["line"], m["col"]) + 1 if m["col"] is not None else None
        sev = "error" if m["cls"] in _FLAKE_ERRORS else "warning"
        out.append(diag("python:" + kebab(m["cls"]), m["msg"], sev, m["line"], col))
    return out


def bandit_diagnostics(issues, src):
    out = []
    for i in issues:
        col = src.char_col(i["line"], i["col"]) + 1 if i["col"] is not None else None
        sev = "info" if i["severity"] == "LOW" else "warning"
        out.append(diag("python:security/" + i["id"], i["text"], sev, i["line"], col,
                        check=i["name"], bandit_severity=i["severity"],
                        bandit_confidence=i["confidence"]))
    return out


def mypy_diagnostics(msgs, flake_lines):
    out = []
    for m in msgs:
        if m["code"] == "name-defined" and m["line"] in flake_lines:
            continue  # pyflakes already reported the undefined name
        out.append(diag("python:type/" + m["code"], m["msg"],
                        "error" if m["level"] == "error" else "warning", m["line"], m["col"]))
    return out


def static_checks(code, tree, src, deadline):
    """(diagnostics, checks, flake_messages) for parseable code."""
    os.makedirs(CHECK_DIR, exist_ok=True)
    path = os.path.join(CHECK_DIR, CODE_PATH)
    with open(path, "w", encoding="utf-8") as f:
        f.write(code)
    tasks = [("pyflakes", lambda: pyflakes_messages(code), BUDGETS["pyflakes"]),
             ("bandit", lambda: bandit_issues(path), BUDGETS["bandit"])]
    annotated = has_annotations(tree)
    if annotated:
        tasks.append(("mypy", lambda: mypy_messages(path), BUDGETS["mypy"]))
    results = run_budgeted(tasks, deadline)
    diags, checks, flakes = [], [], []
    for name in ("pyflakes", "bandit", "mypy"):
        if name not in results:
            checks.append({"name": name, "status": "skipped",
                           "detail": "the code has no type annotations"})
            continue
        status, value, ms = results[name]
        entry = {"name": name, "status": "ran" if status == "ok" else status, "ms": ms}
        if status == "timeout":
            entry["detail"] = "no answer within its %g s budget" % BUDGETS[name]
        elif status != "ok":
            entry["detail"] = str(value)
        checks.append(entry)
        if status != "ok":
            diags.append(diag("python:checker-" + ("timeout" if status == "timeout" else
                                                    "unavailable" if status == "unavailable"
                                                    else "failed"),
                              "%s did not check the code: %s" % (name, entry["detail"]),
                              "info", None, None))
            continue
        if name == "pyflakes":
            flakes = value
            diags += flake_diagnostics(value, src)
        elif name == "bandit":
            diags += bandit_diagnostics(value, src)
        else:
            lines = {m["line"] for m in flakes if m["cls"] == "UndefinedName"}
            diags += mypy_diagnostics(value, lines)
    return diags, checks, flakes
