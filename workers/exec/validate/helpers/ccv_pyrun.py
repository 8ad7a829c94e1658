# Running code against examples: one fork per evaluation, many at once.
#
# The parent (the validator) never executes the code it checks. Each
# evaluation is a child forked from it: the child compiles the candidate,
# runs the module, then every example, each under its own timer, and
# streams one JSON line per outcome through a pipe. The parent keeps up to
# `width` children running, kills a child (its whole process group) at its
# wall-clock backstop, and adopts anything a child left behind (it is the
# children's subreaper) so nothing outlives a batch.
#
# Two timer kinds: "real" (wall clock: what the caller's timeout_s means)
# for the runs that are reported, "prof" (CPU time: robust on a loaded
# machine) for the repair search's short slices.
import builtins
import ctypes
import errno
import gc
import io
import json
import operator
import os
import resource
import select
import signal
import sys
import time
import traceback
import types

from ccv_common import clip, safe_repr

CODE_FILE = "code.py"
STDOUT_CAP = 1 << 20
FORK_RETRIES = 200  # about two seconds of refused forks with nothing running
PR_SET_CHILD_SUBREAPER = 36
PR_SET_DUMPABLE = 4

_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge, "is": operator.is_, "is not": operator.is_not,
            "in": lambda a, b: a in b, "not in": lambda a, b: a not in b}


class RunConfig:
    def __init__(self, example_limit, module_limit, timer="real", capture=False,
                 trace=False, scratch="/tmp", mem_bytes=1 << 30):
        self.example_limit = example_limit
        self.module_limit = module_limit
        self.timer = timer
        self.capture = capture
        self.trace = trace
        self.scratch = scratch
        self.mem_bytes = mem_bytes

    def step_wall(self, limit):
        """Wall-clock backstop of one step (the module, or one example),
        counted from the child's last report: what kills a child stuck
        inside one long C call, where no timer signal is handled. CPU
        slices get slack for a loaded machine."""
        if self.timer == "prof":
            return max(3 * limit, limit + 0.1)
        return limit + 1.0

    def cpu_cap(self, n_examples):
        return int(self.module_limit + n_examples * self.example_limit) + 2


# The code's recursion limit is CPython's default (1000) as a script sees
# it: SCRIPT_DEPTH frames above the one that times a step (the step's
# function, exec's <module>, then the code; a script's <module> is frame 1).
# The harness itself runs under HARNESS_DEPTH.
SCRIPT_DEPTH = 1002
HARNESS_DEPTH = 3000


def _depth():
    f, d = sys._getframe(1), 0
    while f is not None:
        d += 1
        f = f.f_back
    return d


class _Timeout(BaseException):
    pass


def _prctl(option, value):
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def become_subreaper():
    return _prctl(PR_SET_CHILD_SUBREAPER, 1)


def guard_self():
    """Not dumpable: code running as our uid cannot read or write our
    memory through /proc/<pid>/mem (forked children inherit it)."""
    return _prctl(PR_SET_DUMPABLE, 0)


# ---- the child --------------------------------------------------------------

class _Child:
    def __init__(self, examples, cfg, wfd, module_name):
        self.examples = examples
        self.module_name = module_name
        self.code_limit = 1000  # the recursion limit the code sees (CPython's default)
        self.cfg = cfg
        self.wfd = wfd
        self.which = signal.ITIMER_REAL if cfg.timer == "real" else signal.ITIMER_PROF

    def emit(self, obj):
        data = memoryview((json.dumps(obj) + "\n").encode("utf-8", "replace"))
        while data:
            n = os.write(self.wfd, data)
            data = data[n:]

    def timed(self, fn, limit):
        """(status, value, exc, cpu_s, lines): status ok | error | timeout."""
        lines = set() if self.cfg.trace else None
        t0 = time.process_time()
        if lines is not None:
            sys.settrace(_tracer(lines))
        _FIRED[0] = False
        # CPython's default depth, counted from the code: with a flat limit
        # of 3000, f(2500) of a plain recursive f passed here and raises
        # RecursionError under any `python3 script.py` (its limit is 1000).
        # Code that sets its own limit (`sys.setrecursionlimit(10**6)` at
        # the top) keeps it, counted the same way, for every later step.
        base = _depth() + SCRIPT_DEPTH - 1000
        mine = base + self.code_limit
        sys.setrecursionlimit(mine)
        try:
            signal.setitimer(self.which, max(limit, 0.001), 0.01)
            try:
                value = fn()
            finally:
                signal.setitimer(self.which, 0)
            if _FIRED[0]:
                raise _Timeout()  # the code caught ours and carried on
            st, exc = "ok", None
        except _Timeout:
            st, value, exc = "timeout", None, None
        except BaseException as e:  # SystemExit and KeyboardInterrupt are the code's too
            st, value, exc = ("timeout", None, None) if _FIRED[0] else ("error", None, e)
        finally:
            if lines is not None:
                sys.settrace(None)
            now = sys.getrecursionlimit()
            if now != mine:
                self.code_limit = now  # the value the code asked for, as a script sees it
            sys.setrecursionlimit(max(HARNESS_DEPTH, now))
        return st, value, exc, time.process_time() - t0, lines

    def run(self, code_text):
        signal.signal(signal.SIGALRM, _raise_timeout)
        signal.signal(signal.SIGPROF, _raise_timeout)
        try:
            code = compile(code_text, CODE_FILE, "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as e:
            self.emit({"module": {"status": "error", "exc": _exc_text(e), "exc_line":
                                  getattr(e, "lineno", None)}})
            return
        ns = {"__name__": self.module_name, "__builtins__": builtins, "__file__": CODE_FILE}
        st, _, exc, cpu, _ = self.timed(lambda: exec(code, ns), self.cfg.module_limit)
        if isinstance(exc, SystemExit) and exc.code in (0, None):
            st, exc = "ok", None  # a script that ends with sys.exit(0) ran fine
        sys.stdout.flush()
        out = self.stdout_text()
        mod = {"status": st, "cpu": cpu, "stdout": out}
        if exc is not None:
            mod.update(exc=_exc_text(exc), exc_line=_code_line(exc))
        self.emit({"module": mod})
        if st != "ok":
            return
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        base, spaces = dict(ns), {0: ns}
        for i, ex in enumerate(self.examples):
            space = spaces.get(ex.group)
            if space is None:
                space = spaces[ex.group] = dict(base)
            self.emit(dict(self.example(ex, space), ex=i))

    def stdout_text(self):
        if not self.cfg.capture:
            return None
        try:
            size = os.lseek(1, 0, os.SEEK_END)
            os.lseek(1, 0, os.SEEK_SET)
            raw = os.read(1, min(size, STDOUT_CAP + 1))
        except OSError:
            return None
        return raw.decode("utf-8", "replace")

    def example(self, ex, ns):
        if ex.kind == "setup":
            st, _, exc, cpu, lines = self.timed(lambda: exec(ex.stmt_code, ns),
                                                self.cfg.example_limit)
            r = {"status": "pass" if st == "ok" else st, "cpu": cpu}
            if exc is not None:
                r.update(status="error", exc=_exc_text(exc), exc_line=_code_line(exc))
            return _with_lines(r, lines)
        if ex.kind == "doctest":
            return self.doctest(ex, ns)
        if ex.kind == "block":
            return self.block(ex, ns)
        return self.assertion(ex, ns)

    def block(self, ex, ns):
        """A statement holding asserts: fail when one of its own asserts
        fails (an AssertionError raised in the examples' text), error when
        anything else escapes it, including an AssertionError of the code."""
        st, _, exc, cpu, lines = self.timed(lambda: exec(ex.stmt_code, ns),
                                            self.cfg.example_limit)
        r = {"cpu": cpu, "expected": "every assert in it holds"}
        if st == "timeout":
            r["status"] = "timeout"
        elif isinstance(exc, AssertionError) and _raised_in_examples(exc):
            r.update(status="fail", actual=_exc_text(exc))
        elif exc is not None:
            r.update(status="error", exc=_exc_text(exc), exc_line=_code_line(exc))
        else:
            r["status"] = "pass"
        return _with_lines(r, lines)

    def assertion(self, ex, ns):
        if ex.left_code is not None:
            def fn():
                left = eval(ex.left_code, ns)
                right = eval(ex.right_code, ns)
                return left, right, bool(_COMPARE[ex.op](left, right))
        else:
            def fn():
                v = eval(ex.test_code, ns)
                return v, None, bool(v)
        st, value, exc, cpu, lines = self.timed(fn, self.cfg.example_limit)
        r = {"cpu": cpu}
        if st == "timeout":
            r["status"] = "timeout"
        elif exc is not None:
            r.update(status="error", exc=_exc_text(exc), exc_line=_code_line(exc))
        elif ex.left_code is None and _uncalled(value[0]):
            # `assert is_even` (the call forgotten) holds whatever the code
            # does: a function is always true
            r.update(status="error", exc="the test is %s itself, which is always true: call it "
                     "(`assert %s(...)`)" % (safe_repr(value[0], 80), ex.source[6:].strip()[:60]))
        else:
            left, right, ok = value
            r["status"] = "pass" if ok else "fail"
            r["actual"] = safe_repr(left)
            r["expected"] = safe_repr(right) if ex.left_code is not None else "a true value"
        return _with_lines(r, lines)

    def doctest(self, ex, ns):
        import doctest  # imported once the parent parsed a doctest example
        buf, old = io.StringIO(), sys.stdout

        def fn():
            sys.stdout = buf
            try:
                exec(ex.stmt_code, ns)
            finally:
                sys.stdout = old
        st, _, exc, cpu, lines = self.timed(fn, self.cfg.example_limit)
        got = buf.getvalue()
        if got and not got.endswith("\n"):
            got += "\n"  # as doctest's _SpoofOut: `sys.stdout.write('4')` shows `4`
        r = {"cpu": cpu, "expected": clip(ex.want.rstrip("\n")) if ex.exc_msg is None
             else "raises " + clip(ex.exc_msg.strip())}
        checker = doctest.OutputChecker()
        if st == "timeout":
            r["status"] = "timeout"
        elif exc is not None:
            line = traceback.format_exception_only(type(exc), exc)[-1]
            if ex.exc_msg is None:
                r.update(status="error", exc=_exc_text(exc), exc_line=_code_line(exc))
            else:
                ok = checker.check_output(ex.exc_msg, line, ex.flags) or (
                    ex.flags & doctest.IGNORE_EXCEPTION_DETAIL and
                    line.split(":")[0] == ex.exc_msg.split(":")[0])
                r.update(status="pass" if ok else "fail", actual="raises " + clip(line.strip()))
        else:
            ok = ex.exc_msg is None and checker.check_output(ex.want, got, ex.flags)
            r.update(status="pass" if ok else "fail", actual=clip(got.rstrip("\n")))
        return _with_lines(r, lines)


# Whether the step's timer fired: code that catches everything
# (`except BaseException:`, `finally: return 7`) swallows the _Timeout and
# returns a value, which was judged as if the step had finished in time.
_FIRED = [False]


def _raise_timeout(signum, frame):
    _FIRED[0] = True
    raise _Timeout()


def _tracer(lines):
    def local(frame, event, arg):
        if event == "line":
            lines.add(frame.f_lineno)
        return local

    def glob(frame, event, arg):
        if frame.f_code.co_filename != CODE_FILE:
            return None
        lines.add(frame.f_lineno)
        return local
    return glob


def _with_lines(r, lines):
    if lines is not None:
        r["lines"] = sorted(lines)
    return r


def _exc_text(e):
    return clip("%s: %s" % (type(e).__name__, e) if str(e) else type(e).__name__, 300)


def _uncalled(v):
    return isinstance(v, (types.FunctionType, types.BuiltinFunctionType, types.MethodType,
                          types.BuiltinMethodType))


def _raised_in_examples(e):
    last = None
    for frame, _ in traceback.walk_tb(e.__traceback__):
        last = frame.f_code.co_filename
    return last == "<examples>"


def _code_line(e):
    line = None
    for frame, lineno in traceback.walk_tb(e.__traceback__):
        if frame.f_code.co_filename == CODE_FILE:
            line = lineno
    return line


def _child_main(code_text, examples, cfg, wfd, module_name):
    # A collection would walk (and so copy) every page inherited from the
    # parent; the child lives a few milliseconds.
    gc.disable()
    try:
        # only our own pipe: a sibling's result pipe is inherited at fork
        os.closerange(3, wfd)
        os.closerange(wfd + 1, 1 << 16)
        os.setpgid(0, 0)
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 0)
        out = os.memfd_create("stdout") if cfg.capture else devnull
        os.dup2(out, 1)
        os.dup2(devnull, 2)
        _limit(resource.RLIMIT_AS, cfg.mem_bytes)
        _limit(resource.RLIMIT_FSIZE, 64 << 20)
        _limit(resource.RLIMIT_CPU, cfg.cpu_cap(len(examples)))
        try:
            os.chdir(cfg.scratch)
        except OSError:
            pass
        sys.setrecursionlimit(HARNESS_DEPTH)
        _Child(examples, cfg, wfd, module_name).run(code_text)
    except BaseException:
        pass
    finally:
        os._exit(0)


def _limit(which, value):
    try:
        soft, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        if soft == resource.RLIM_INFINITY or soft > value:
            resource.setrlimit(which, (value, hard))
    except (ValueError, OSError):
        pass


# ---- the parent ---------------------------------------------------------------

class Result:
    """What one evaluation produced. module: the module's outcome (None when
    the child died before reporting it); examples: one dict per example
    (status pass | fail | error | timeout | not_run)."""

    def __init__(self, n):
        self.module = None
        self.examples = [None] * n
        self.died = None

    def finish(self, timed_out):
        """Fill in what the child never reported: the example it was in
        when it was killed (timeout) or died (error), the rest not_run."""
        why = self.died or "the process ended before reporting"
        if self.module is None:
            self.module = {"status": "timeout" if timed_out else "error", "exc": why}
        first = self.module.get("status") == "ok"
        for i, r in enumerate(self.examples):
            if r is not None:
                continue
            if first:
                self.examples[i] = {"status": "timeout"} if timed_out else \
                    {"status": "error", "exc": why}
                first = False
            else:
                self.examples[i] = {"status": "not_run"}
        return self


class _Running:
    def __init__(self, idx, pid, fd, deadline, step, n):
        self.idx, self.pid, self.fd, self.deadline, self.step = idx, pid, fd, deadline, step
        self.buf = b""
        self.result = Result(n)


class Pool:
    """Evaluates code texts against one list of examples, `width` at a time."""

    def __init__(self, examples, width=None, module_name="__main__"):
        self.examples = examples
        # "__main__" runs the script (its `if __name__ == "__main__":`
        # block); another name imports it, as doctest and pytest do.
        self.module_name = module_name
        if width is None:
            try:
                width = len(os.sched_getaffinity(0))
            except OSError:
                width = os.cpu_count() or 1
        self.width = max(1, min(width, 8))
        self.evaluated = 0
        self.subreaper = become_subreaper()

    def run(self, texts, cfg, deadline=None):
        """One Result per text (None for those not started before the
        deadline), in order."""
        out = [None] * len(texts)
        running = {}
        nxt = refused = 0
        n = len(self.examples)
        first = cfg.step_wall(cfg.module_limit) + cfg.step_wall(cfg.example_limit)
        step = cfg.step_wall(cfg.example_limit)
        try:
            while nxt < len(texts) or running:
                now = time.monotonic()
                while (nxt < len(texts) and len(running) < self.width and
                       (deadline is None or now < deadline)):
                    r = self._spawn(nxt, texts[nxt], cfg, now + first, step, n)
                    if r is None:
                        break
                    running[r.fd] = r
                    nxt += 1
                if not running:
                    if nxt < len(texts) and (deadline is None or now < deadline) and \
                            refused < FORK_RETRIES:
                        # fork refused (the process ceiling): clear what earlier
                        # children left behind, then retry for a while
                        refused += 1
                        self.sweep()
                        time.sleep(0.01)
                        continue
                    break
                wait = max(0.0, min(r.deadline for r in running.values()) - now)
                try:
                    ready, _, _ = select.select(list(running), [], [], wait)
                except InterruptedError:
                    ready = []
                for fd in ready:
                    r = running[fd]
                    data = _read(fd)
                    if data:
                        if b"\n" in data:  # progress: the next step gets its own backstop
                            r.deadline = time.monotonic() + r.step
                        r.buf += data
                        continue
                    out[r.idx] = self._reap(running.pop(fd), False)
                now = time.monotonic()
                for fd in [fd for fd, r in running.items() if now >= r.deadline]:
                    r = running.pop(fd)
                    out[r.idx] = self._reap(r, True)
        finally:
            for r in list(running.values()):
                self._reap(r, True)
            self.sweep()
        return out

    def _spawn(self, idx, text, cfg, deadline, step, n):
        rfd, wfd = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(rfd)
            os.close(wfd)
            return None
        if pid == 0:
            os.close(rfd)
            _child_main(text, self.examples, cfg, wfd, self.module_name)
        os.close(wfd)
        try:  # both sides set the group, so killpg works whoever runs first
            os.setpgid(pid, pid)
        except OSError:
            pass
        self.evaluated += 1
        return _Running(idx, pid, rfd, deadline, step, n)

    def _reap(self, r, timed_out):
        for sig_target in (-r.pid, r.pid):
            try:
                os.kill(sig_target, signal.SIGKILL)
            except OSError:
                pass
        status = None
        try:
            _, status = os.waitpid(r.pid, 0)
        except ChildProcessError:
            pass
        # Drain without waiting: a process the child left behind (its own
        # session, so not in the group we killed) may still hold the write
        # end; it is swept after the batch.
        os.set_blocking(r.fd, False)
        try:
            while True:
                data = os.read(r.fd, 1 << 16)
                if not data:
                    break
                r.buf += data
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            pass
        os.close(r.fd)
        res = r.result
        for line in r.buf.split(b"\n"):
            _absorb(res, line)
        if status is not None and not timed_out and os.WIFSIGNALED(status) and \
                os.WTERMSIG(status) != signal.SIGKILL:
            res.died = "the process was killed by signal %d" % os.WTERMSIG(status)
        elif status is not None and not timed_out and os.WIFEXITED(status):
            res.died = "the process exited early (status %d)" % os.WEXITSTATUS(status)
        return res.finish(timed_out)

    def sweep(self):
        """Kill and reap whatever a child left behind (adopted by us)."""
        if not self.subreaper:
            return
        me = os.getpid()
        for _ in range(16):
            found = False
            for pid in _children_of(me):
                found = True
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            while True:
                try:
                    pid, _ = os.waitpid(-1, os.WNOHANG)
                except ChildProcessError:
                    break
                if pid == 0:
                    break
            if not found:
                return
            time.sleep(0.005)


def _read(fd):
    try:
        return os.read(fd, 1 << 16)
    except OSError as e:
        if e.errno == errno.EINTR:
            return b"\0"  # not EOF; the NUL is dropped when lines are parsed
        raise


def _absorb(res, line):
    line = line.strip(b"\0 \r\t")
    if not line:
        return
    try:
        obj = json.loads(line)
    except ValueError:
        return
    if not isinstance(obj, dict):
        return
    if "module" in obj and isinstance(obj["module"], dict):
        res.module = obj["module"]
    elif isinstance(obj.get("ex"), int) and 0 <= obj["ex"] < len(res.examples):
        res.examples[obj["ex"]] = obj


def _children_of(ppid):
    out = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for d in names:
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d, "rb") as f:
                s = f.read()
        except OSError:
            continue
        rest = s[s.rfind(b")") + 2:].split()
        if len(rest) > 1 and rest[0] != b"Z" and int(rest[1]) == ppid:
            out.append(int(d))
    return out
