# execute_python for javascript and typescript: the work is done by
# ccv_js_host.js under node (in this same sandbox); this side finds node and
# the TypeScript compiler, hands over the request and reads the answer.
import json
import os
import shutil
import time

from ccv_common import Rejected, clip

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = "/tmp/ccv-scratch"


def typescript_module():
    """lib/typescript.js of the tsc on PATH (npm's or Debian's layout)."""
    tsc = shutil.which("tsc")
    if not tsc:
        return None
    lib = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(tsc))), "lib",
                       "typescript.js")
    return lib if os.path.isfile(lib) else None


def validate(req, deadline):
    node = shutil.which("node")
    if not node:
        raise Rejected("node is not installed on this host, so %s cannot be checked"
                       % req["language"], code="runtime_unavailable")
    result_path = os.path.join(SCRATCH, "js_result.json")
    if os.path.exists(result_path):
        os.unlink(result_path)
    left = deadline - time.monotonic()
    sub = dict(req, result_path=result_path, typescript=typescript_module(),
               budget_ms=int(max(1.0, left - 3) * 1000))
    import subprocess
    try:
        p = subprocess.run([node, os.path.join(HERE, "ccv_js_host.js")],
                           input=json.dumps(sub).encode(), stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=max(1.0, left - 1), cwd=SCRATCH)
    except subprocess.TimeoutExpired:
        raise Rejected("the %s validator did not answer in time" % req["language"], code="timeout")
    try:
        with open(result_path, encoding="utf-8") as f:
            res = json.load(f)
    except (OSError, ValueError):
        return {"internal": "the %s validator ended without an answer (exit %s): %s" % (
            req["language"], p.returncode, clip(p.stderr.decode("utf-8", "replace"), 1500))}
    if "rejected" in res:
        raise Rejected(res["rejected"].get("error", "refused"),
                       code=res["rejected"].get("code", "validation"))
    return res
