# codecalc python3 REPL host: one persistent __main__ namespace, driven by
# framed msgpack requests (docs/protocol.md) on a private descriptor.
#
# The launcher (repl-workers/launcher.c) starts us inside the sandbox with the
# protocol socket as fd 0. Before any user code runs we move it to a private
# non-inheritable descriptor and put /dev/null on fd 0, so a child process
# that inherits stdio can never read or write the protocol stream.
#
# Request:  {id, op: "exec", args: {code, stdin}, deadline_ms}
# Response: {id, ok: true, result: {ok, stdout, stderr, exit_code,
#            output_truncated, timed_out, verdict}}
# A call's own timer stops a cell that can be interrupted just before its
# deadline (Host.run); the launcher kills us when a call overruns anyway.
import builtins
import io
import os
import signal
import struct
import sys
import types

CAP = 65536
MARKER = "\n...[truncated]"
FRAME_MAX = 32 * 1024 * 1024
# The host's own frames, to leave out of user tracebacks: '<string>' when
# the launcher passes this program with -c (it always does).
HOST_FILE = sys._getframe().f_code.co_filename


# ---- a small msgpack codec (only what the protocol carries) ----------------

def _pack_into(out, v):
    if v is None:
        out.append(0xC0)
    elif v is True:
        out.append(0xC3)
    elif v is False:
        out.append(0xC2)
    elif isinstance(v, int):
        _pack_int(out, v)
    elif isinstance(v, float):
        out.append(0xCB)
        out += struct.pack(">d", v)
    elif isinstance(v, str):
        b = v.encode("utf-8", "surrogatepass")
        _pack_len(out, len(b), 0xA0, 31, 0xD9, 0xDA, 0xDB)
        out += b
    elif isinstance(v, (bytes, bytearray)):
        _pack_len(out, len(v), None, 0, 0xC4, 0xC5, 0xC6)
        out += v
    elif isinstance(v, (list, tuple)):
        _pack_len(out, len(v), 0x90, 15, None, 0xDC, 0xDD)
        for x in v:
            _pack_into(out, x)
    elif isinstance(v, dict):
        _pack_len(out, len(v), 0x80, 15, None, 0xDE, 0xDF)
        for k, x in v.items():
            _pack_into(out, k)
            _pack_into(out, x)
    else:
        _pack_into(out, repr(v))


def _pack_len(out, n, fix, fixmax, c8, c16, c32):
    if fix is not None and n <= fixmax:
        out.append(fix | n)
    elif c8 is not None and n < 0x100:
        out += bytes((c8, n))
    elif n < 0x10000:
        out.append(c16)
        out += struct.pack(">H", n)
    else:
        out.append(c32)
        out += struct.pack(">I", n)


def _pack_int(out, v):
    if 0 <= v < 0x80:
        out.append(v)
    elif -32 <= v < 0:
        out.append(v & 0xFF)
    elif 0 <= v < 2 ** 64:
        out.append(0xCF)
        out += struct.pack(">Q", v)
    elif -(2 ** 63) <= v < 0:
        out.append(0xD3)
        out += struct.pack(">q", v)
    else:
        _pack_into(out, str(v))


def pack(v):
    out = bytearray()
    _pack_into(out, v)
    return bytes(out)


class _Reader:
    def __init__(self, buf):
        self.b = buf
        self.i = 0

    def take(self, n):
        if n < 0 or self.i + n > len(self.b):
            raise ValueError("truncated msgpack")
        s = self.b[self.i:self.i + n]
        self.i += n
        return s

    def u(self, fmt, n):
        return struct.unpack(fmt, self.take(n))[0]


_FIXED = {0xC0: None, 0xC2: False, 0xC3: True}
_NUM = {0xCA: (">f", 4), 0xCB: (">d", 8), 0xCC: (">B", 1), 0xCD: (">H", 2),
        0xCE: (">I", 4), 0xCF: (">Q", 8), 0xD0: (">b", 1), 0xD1: (">h", 2),
        0xD2: (">i", 4), 0xD3: (">q", 8)}
_LEN = {0xD9: (">B", 1), 0xDA: (">H", 2), 0xDB: (">I", 4),      # str
        0xC4: (">B", 1), 0xC5: (">H", 2), 0xC6: (">I", 4),      # bin
        0xDC: (">H", 2), 0xDD: (">I", 4),                       # array
        0xDE: (">H", 2), 0xDF: (">I", 4)}                       # map


def _unpack(r, depth=0):
    if depth > 64:
        raise ValueError("msgpack nested too deeply")
    c = r.take(1)[0]
    if c < 0x80:
        return c
    if c >= 0xE0:
        return c - 0x100
    if 0xA0 <= c <= 0xBF:
        return r.take(c & 0x1F).decode("utf-8", "replace")
    if 0x90 <= c <= 0x9F:
        return [_unpack(r, depth + 1) for _ in range(c & 0x0F)]
    if 0x80 <= c <= 0x8F:
        return _unpack_map(r, c & 0x0F, depth)
    if c in _FIXED:
        return _FIXED[c]
    if c in _NUM:
        return r.u(*_NUM[c])
    if c in _LEN:
        n = r.u(*_LEN[c])
        if c in (0xD9, 0xDA, 0xDB):
            return r.take(n).decode("utf-8", "replace")
        if c in (0xC4, 0xC5, 0xC6):
            return bytes(r.take(n))
        if c in (0xDC, 0xDD):
            return [_unpack(r, depth + 1) for _ in range(n)]
        return _unpack_map(r, n, depth)
    raise ValueError("unsupported msgpack type 0x%02x" % c)


def _unpack_map(r, n, depth):
    d = {}
    for _ in range(n):
        k = _unpack(r, depth + 1)
        d[k if isinstance(k, (str, int)) else repr(k)] = _unpack(r, depth + 1)
    return d


def unpack(buf):
    r = _Reader(buf)
    v = _unpack(r)
    if r.i != len(buf):
        raise ValueError("trailing bytes after the msgpack value")
    return v


# ---- frames on the private descriptor ----------------------------------------

def read_exact(fd, n):
    parts = []
    while n > 0:
        b = os.read(fd, min(n, 1 << 20))
        if not b:
            return None
        parts.append(b)
        n -= len(b)
    return b"".join(parts)


def read_frame(fd):
    head = read_exact(fd, 4)
    if head is None:
        return None
    n = struct.unpack(">I", head)[0]
    if n == 0 or n > FRAME_MAX:
        raise ValueError("bad frame length %d" % n)
    body = read_exact(fd, n)
    if body is None:
        return None
    msg = unpack(body)
    if not isinstance(msg, dict):
        raise ValueError("frame is not a map")
    return msg


def write_frame(fd, msg):
    body = pack(msg)
    data = memoryview(struct.pack(">I", len(body)) + body)
    while data:
        n = os.write(fd, data)
        data = data[n:]


# ---- running one request -----------------------------------------------------

def capture_fd():
    # An anonymous in-memory file per call: no filesystem round trip (the
    # old temp files in the workspace cost a create+unlink each), and a
    # background child that outlives the call keeps writing into its own
    # call's file, never into a later one.
    try:
        return os.memfd_create("codecalc-capture", os.MFD_CLOEXEC)
    except (AttributeError, OSError):
        import tempfile  # only here: importing it costs ~15 ms of startup
        f = tempfile.TemporaryFile()
        fd = os.dup(f.fileno())
        f.close()
        return fd


def capped(fd):
    raw = os.pread(fd, CAP + 1, 0)
    os.close(fd)
    if len(raw) > CAP:
        return raw[:CAP].decode("utf-8", "replace") + MARKER, True
    return raw.decode("utf-8", "replace"), False


def memory_ceiling_hit(exc):
    # An allocation the interpreter could not make raises a MemoryError
    # without arguments. It is the memory ceiling's doing only where the
    # ceiling is an address-space limit (no memory cgroup: a non-root
    # server), which makes the allocation fail; a memory cgroup kills the
    # host instead, and a MemoryError raised by hand, or where no limit
    # applies, is the program's own error (RTE).
    if type(exc) is not MemoryError or exc.args:
        return None
    import resource  # lazily: only a failed allocation pays for it
    soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    if soft == resource.RLIM_INFINITY:
        return None
    return ("an allocation failed (MemoryError) under the memory ceiling of %d MiB "
            "(an address-space limit: no memory cgroup here)" % (soft >> 20))


def user_traceback(exc):
    # Drop the host's own frames: the user should see only <session> lines.
    import traceback  # lazily: most sessions start without needing it
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == HOST_FILE:
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, tb))


class CallTimeout(BaseException):
    """Raised into the cell by the call's own timer (see Host.run)."""


def _on_call_timer(signum, frame):
    raise CallTimeout()


# The call's own timer fires this much before the launcher's deadline (the
# budget plus 500 ms), so an interruptible cell is stopped by us, keeping
# the namespace, rather than the host killed.
TIMER_LEAD_S = 0.25


class Host:
    def __init__(self, proto):
        self.proto = proto
        main = types.ModuleType("__main__")
        main.__dict__["__builtins__"] = builtins
        self.host_module = sys.modules.get("__main__")
        sys.modules["__main__"] = main
        self.ns = main.__dict__
        self.idle_out = os.dup(1)
        self.idle_err = os.dup(2)
        self.pid = os.getpid()

    def redirect(self, out, err):
        os.dup2(out, 1)
        os.dup2(err, 2)

    def run(self, code, stdin, budget_s):
        sys.stdout.flush()
        sys.stderr.flush()
        out = capture_fd()
        err = capture_fd()
        self.redirect(out, err)
        sys.stdin = io.StringIO(stdin)
        ok, tb, mle, timed_out = True, "", None, False
        # A cell still running at its timeout is stopped by an exception
        # (pure Python code sees it at once, a C call when it returns), as
        # node's vm timeout stops a script: the namespace is kept. Only a
        # cell that cannot be stopped is left to the launcher's kill.
        signal.signal(signal.SIGALRM, _on_call_timer)
        signal.setitimer(signal.ITIMER_REAL, max(budget_s - TIMER_LEAD_S, 0.05))
        try:
            try:
                self.execute(code)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except CallTimeout:
            ok, timed_out = False, True
        except BaseException as e:  # SystemExit too: it ends this request only
            ok, tb, mle = False, user_traceback(e), memory_ceiling_hit(e)
        finally:
            self.settle()
            # A child the code forked (os.fork() with no exit of its own) came
            # back here: it must not answer this request or read the next,
            # which would desynchronise the channel and end the session.
            if os.getpid() != self.pid:
                os._exit(0)
        so, t1 = capped(out)
        se, t2 = capped(err)
        if not ok and se == "":
            se, t2 = (tb[:CAP] + MARKER, True) if len(tb.encode()) > CAP else (tb, False)
        if timed_out:
            note = ("codecalc: the call's code was still running at its %g s timeout; it was stopped "
                    "there (the namespace and its variables are kept)\n" % budget_s)
            se = se + note if len(se) + len(note) <= CAP else se
        trunc = t1 or t2
        res = {"ok": ok, "stdout": so, "stderr": se, "exit_code": 0 if ok else 1,
               "output_truncated": trunc, "timed_out": timed_out,
               "verdict": "TLE" if timed_out else ("OLE" if trunc else ("MLE" if mle else ("OK" if ok else "RTE")))}
        if mle and not trunc:
            res["reason"] = mle
        return res

    def execute(self, code):
        # Like every REPL: a final bare expression echoes its repr (through
        # sys.displayhook, which also sets _), e.g. "x" prints 41.
        import ast  # lazily, like traceback
        tree = ast.parse(code, "<session>", "exec")
        last = tree.body[-1] if tree.body else None
        if isinstance(last, ast.Expr):
            tree.body.pop()
            exec(compile(tree, "<session>", "exec"), self.ns)
            value = eval(compile(ast.Expression(last.value), "<session>", "eval"), self.ns)
            sys.displayhook(value)
            sys.stdout.flush()
        else:
            exec(compile(tree, "<session>", "exec"), self.ns)

    def settle(self):
        # User code may have replaced or closed the streams: start clean.
        for name in ("stdout", "stderr"):
            s = getattr(sys, "__" + name + "__")
            try:
                s.flush()
            except Exception:
                pass
            setattr(sys, name, s)
        self.redirect(self.idle_out, self.idle_err)
        sys.stdin = sys.__stdin__

    def serve(self):
        write_frame(self.proto, {"hello": "repl-python3", "pid": os.getpid(),
                                 "version": sys.version.split()[0], "caps": ["exec"]})
        while True:
            msg = read_frame(self.proto)
            if msg is None:
                return
            rid = msg.get("id")
            if msg.get("cancel"):
                continue
            args = msg.get("args") if isinstance(msg.get("args"), dict) else {}
            if msg.get("op") != "exec":
                write_frame(self.proto, {"id": rid, "ok": False, "error": {
                    "code": "validation", "message": "unknown op %r" % (msg.get("op"),)}})
                continue
            code = args.get("code") if isinstance(args.get("code"), str) else ""
            stdin = args.get("stdin") if isinstance(args.get("stdin"), str) else ""
            # The launcher's deadline counts from deadline_ms (the timeout
            # the supervisor clamped); the cell's own timeout if it is less.
            t = args.get("timeout")
            d = msg.get("deadline_ms")
            budget_s = d / 1000.0 if isinstance(d, int) and d > 0 else 30.0
            if isinstance(t, int) and 0 < t < budget_s:
                budget_s = float(t)
            write_frame(self.proto, {"id": rid, "ok": True, "result": self.run(code, stdin, budget_s)})


def main():
    proto = os.dup(0)            # non-inheritable by default (PEP 446)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.close(null)
    # The workspace (our cwd), not this script's directory, is importable.
    sys.path[0] = os.getcwd()
    Host(proto).serve()


if __name__ == "__main__":
    main()
