# Entry point of the execute_python validator inside the sandbox.
#
# The exec worker starts this with the request as JSON on stdin and this
# directory (the run directory) as the working directory; the answer is
# written to result.json here (atomically), never to stdout, so nothing the
# checked code prints can be mistaken for it. A refusal is {"rejected":
# {code, error}}; a defect here is {"internal": traceback}.
import json
import os
import sys
import time
import traceback

# The helpers' own directory (ccv/ in the run directory, not writable by the
# sandboxed uid when the server is root); the run directory itself, where
# checked code may write files, is never on the import path.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from ccv_common import Rejected  # noqa: E402
from ccv_pyrun import guard_self  # noqa: E402

RESULT = "result.json"
SCRATCH = "/tmp/ccv-scratch"


def write_result(obj):
    data = json.dumps(obj, ensure_ascii=False).encode("utf-8", "replace")
    tmp = RESULT + ".tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        while data:
            data = data[os.write(fd, data):]
    finally:
        os.close(fd)
    os.replace(tmp, RESULT)


def main():
    t0 = time.monotonic()
    guard_self()
    req = json.loads(sys.stdin.buffer.read().decode("utf-8", "replace"))
    deadline = t0 + float(req.get("budget_ms", 60000)) / 1000.0
    os.makedirs(SCRATCH, exist_ok=True)
    try:
        if req.get("language") == "python":
            import ccv_python
            res = ccv_python.validate(req, deadline)
        else:
            import ccv_jsdrive
            res = ccv_jsdrive.validate(req, deadline)
    except Rejected as e:
        res = {"rejected": {"code": e.code, "error": e.message}}
    except Exception:
        res = {"internal": traceback.format_exc()[-3000:]}
    res["helper_ms"] = int((time.monotonic() - t0) * 1000)
    write_result(res)


if __name__ == "__main__":
    main()
