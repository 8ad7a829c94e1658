# The repair search: rounds of single edits against the examples.
#
# Each round generates every candidate edit of the states kept from the
# previous round, evaluates them in forked children (ccv_pyrun.Pool) under
# short CPU-time slices, and keeps the candidates whose outcome is best.
# Outcomes are ranked by (examples passed, examples that finished, examples
# that finished without an exception): a loop that now ends with a wrong
# answer is progress. Candidates on lines a failing example ran are tried
# first; the rest only when those bring no progress. When several edits tie
# for best, up to BEAM of them (in order of preference) go on to the next
# round, so the next round decides between them instead of an arbitrary
# pick. The search stops when every check passes, when a round brings no
# progress, after max_iterations rounds, or when its budget is spent.
import hashlib
import time

from ccv_pyedits import candidates
from ccv_pyrun import RunConfig

BEAM = 6
BATCH = 64
SEARCH_BUDGET_S = 20.0
MIN_SLICE_S = 0.01
MIN_MODULE_SLICE_S = 0.1


ALTERNATIVES_SHOWN = 5


def check_statuses(res, examples, expected_output):
    """Status of every check (examples that are checks, then the expected
    output when one was given): pass | fail | error | timeout | not_run."""
    sts = [r["status"] for ex, r in zip(examples, res.examples) if ex.is_check]
    if expected_output is not None:
        m = res.module or {}
        if m.get("status") == "ok":
            sts.append("pass" if m.get("stdout") == expected_output else "fail")
        else:
            sts.append("timeout" if m.get("status") == "timeout" else "error")
    return sts


def rank(statuses):
    return (sum(s == "pass" for s in statuses),
            sum(s in ("pass", "fail", "error") for s in statuses),
            sum(s in ("pass", "fail") for s in statuses))


class State:
    def __init__(self, text, edits, key, suspicious):
        self.text = text
        self.edits = edits
        self.key = key
        self.suspicious = suspicious


class Searcher:
    def __init__(self, pool, examples, expected_output, timeout_s):
        self.pool = pool
        self.examples = examples
        self.expected = expected_output
        self.timeout_s = timeout_s
        self.total = sum(e.is_check for e in examples) + (expected_output is not None)
        self.evaluated = 0

    def slices(self, ref):
        """CPU slices from a reference run: ten times the slowest example
        that finished, never below MIN_SLICE_S nor above timeout_s."""
        cpus = [r.get("cpu") or 0 for r in ref.examples
                if r.get("status") in ("pass", "fail", "error")]
        ex_slice = min(self.timeout_s, max(MIN_SLICE_S, 10 * max(cpus, default=0) + 0.005))
        mod_cpu = (ref.module or {}).get("cpu") or 0
        mod_slice = min(self.timeout_s, max(MIN_MODULE_SLICE_S, 10 * mod_cpu + 0.02))
        capture = self.expected is not None
        return (RunConfig(ex_slice, mod_slice, timer="prof", capture=capture),
                RunConfig(ex_slice, mod_slice, timer="prof", capture=capture, trace=True))

    def suspicious(self, res):
        lines = set()
        for ex, r in zip(self.examples, res.examples):
            if ex.is_check and r.get("status") != "pass":
                lines.update(r.get("lines") or ())
        return lines or None

    def evaluate(self, texts, cfg, deadline):
        res = self.pool.run(texts, cfg, deadline)
        self.evaluated += sum(r is not None for r in res)
        return res

    def run(self, start_text, ref, max_iter, deadline):
        """Search from start_text (ref: a run of it). Returns (State, info)."""
        t0 = time.monotonic()
        cfg, traced = self.slices(ref)
        # The rank comes from a plain run, the lines from a traced one:
        # tracing is slow enough to turn a finished example into a timeout.
        plain = self.evaluate([start_text], cfg, None)[0]
        lines = self.evaluate([start_text], traced, None)[0]
        frontier = [State(start_text, [], rank(check_statuses(plain, self.examples,
                                                               self.expected)),
                          self.suspicious(lines))]
        seen = {hashlib.blake2b(start_text.encode("utf-8", "surrogatepass"),
                                digest_size=16).digest()}
        stopped, rounds = "max_iterations", 0
        self.tied = []
        for rnd in range(1, max_iter + 1):
            if frontier[0].key[0] == self.total:
                stopped = "solved"
                break
            if time.monotonic() >= deadline:
                stopped = "budget"
                break
            rounds = rnd
            best, out_of_time = self.round(frontier, seen, cfg, deadline)
            if not best:
                stopped = "budget" if out_of_time else "no_improvement"
                break
            # Several edits of this round each passing every check: the
            # examples do not tell them apart (`return n % 2 == 0` for
            # isodd(3), not isodd(4): `%` -> `>>` and `==` -> `!=` both pass;
            # the first in order of preference was kept with no word).
            # The counter increment placed at the start or at the end of a
            # loop body is one fix, not an alternative. Any other edit is
            # one even when it is the same token swap at another place:
            # `(a - 1) * (b + 1)` and `(a + 1) * (b - 1)` both meet f(2, 2)
            # == 3 and f(0, 0) == -1, and differ on f(2, 3).
            self.tied = []
            for parent, cand, key, text in best:
                e = dict(cand.edit, round=rnd)
                same = self.tied and e.get("kind") == "counter-increment" and all(
                    e.get(k) == self.tied[0][-1].get(k) for k in ("kind", "before", "after"))
                if key[0] == self.total and not same:
                    self.tied.append(parent.edits + [e])
            frontier = []
            for parent, cand, key, text in best[:BEAM]:
                edit = dict(cand.edit, round=rnd)
                frontier.append(State(text, parent.edits + [edit], key, None))
            traced_res = self.evaluate([s.text for s in frontier], traced, None)
            for s, r in zip(frontier, traced_res):
                s.suspicious = self.suspicious(r) if r is not None else None
            if out_of_time:
                stopped = "budget"
                break
        else:
            if frontier[0].key[0] == self.total:
                stopped = "solved"
        elapsed = time.monotonic() - t0
        info = {"rounds": rounds, "stopped": stopped, "candidates": self.evaluated,
                "elapsed_ms": int(elapsed * 1000),
                "candidates_per_s": round(self.evaluated / elapsed, 1) if elapsed > 0 else None,
                "slice_ms": round(cfg.example_limit * 1000, 1)}
        if stopped == "solved" and len(self.tied) > 1:
            info["alternatives"] = self.tied[1:1 + ALTERNATIVES_SHOWN]
            info["alternatives_total"] = len(self.tied) - 1
        return frontier[0], info

    def round(self, frontier, seen, cfg, deadline):
        """The best candidates of one round (ties in order of preference)
        when they improve on the frontier, else []; and whether the budget
        ran out before every candidate was tried. Candidates run in batches
        (their texts built, de-duplicated and parse-checked batch by batch)."""
        floor = frontier[0].key
        scored, out_of_time = [], False
        for level in (1, 2):
            # tier 2 (lines no failing example ran) is only built when
            # tier 1 brought nothing: on a big file it is most of the work
            tier = [(st, c) for st in frontier for c in candidates(st.text, st.suspicious, level)]
            for i in range(0, len(tier), BATCH):
                if time.monotonic() >= deadline:
                    out_of_time = True
                    break
                batch, texts = [], []
                for st, c in tier[i:i + BATCH]:
                    if time.monotonic() >= deadline:
                        out_of_time = True
                        break
                    text = c.text
                    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"),
                                             digest_size=16).digest()
                    if digest in seen or not c.parses():
                        continue
                    seen.add(digest)
                    batch.append((st, c))
                    texts.append(text)
                results = self.evaluate(texts, cfg, deadline)
                for (st, c), text, r in zip(batch, texts, results):
                    if r is None:
                        out_of_time = True
                        continue
                    key = rank(check_statuses(r, self.examples, self.expected))
                    if key > floor:
                        scored.append((st, c, key, text))
            if scored or out_of_time:
                break
        if not scored:
            return [], out_of_time
        top = max(s[2] for s in scored)
        return [s for s in scored if s[2] == top], out_of_time
