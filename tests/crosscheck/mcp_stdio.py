"""A minimal MCP client over stdio (newline-delimited JSON-RPC) for the
cross-check scripts: tests/crosscheck/run.py, independent/run.py,
fastpath.py, scripts/bench-symbolic and scripts/profile-symbolic."""
import json
import os
import subprocess
import tempfile
import time


class Server:
    """One codecalc process spoken to with newline-delimited JSON-RPC."""

    def __init__(self, binary, extra_env=None):
        # A private state directory unless the caller chose one: only one
        # server may hold a state directory, and another may be running.
        env = dict(os.environ, **(extra_env or {}))
        self.home = None
        if not env.get("CODECALC_HOME"):
            self.home = tempfile.TemporaryDirectory(prefix="codecalc-crosscheck-")
            env["CODECALC_HOME"] = self.home.name
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1, env=env)
        self.next_id = 1
        self.rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "crosscheck", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()

    def rpc(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("codecalc exited")
            msg = json.loads(line)
            if msg.get("id") == rid:
                return msg

    def call(self, tool, args):
        t0 = time.perf_counter()
        msg = self.rpc("tools/call", {"name": tool, "arguments": args})
        dt = time.perf_counter() - t0
        res = msg.get("result") or {}
        sc = res.get("structuredContent")
        if sc is None:
            sc = {"ok": False, "code": "rpc", "error": json.dumps(msg.get("error", msg))[:300]}
        return sc, dt

    def close(self):
        self.p.stdin.close()
        try:
            self.p.wait(5)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        if self.home:
            self.home.cleanup()
