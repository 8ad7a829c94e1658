# options.optimize: constant folding and dead-code removal, returned only
# when the rewritten code is proved to behave the same on the examples (same
# outcome and value for every example, same stdout).
#
# Folding: a maximal subexpression made only of literals and operators
# (2 * 60 * 60, "ab" + "c", not True) becomes its value, when evaluating it
# is small and cannot fail. Dead code: `if False:` / `while False:` blocks,
# the branch an `if True:` never takes, and statements after a return,
# raise, break or continue in the same block.
import ast
import io
import operator
import time
import tokenize

from ccv_common import Source, clip, diag
from ccv_pyrun import RunConfig
from ccv_pysearch import check_statuses

_BIN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
        ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
        ast.BitOr: operator.or_, ast.BitXor: operator.xor, ast.BitAnd: operator.and_}
_UN = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_,
       ast.Invert: operator.invert}
_CMP = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
        ast.Gt: operator.gt, ast.GtE: operator.ge}
_LEAF = (int, float, str, bool, type(None))
MAX_PASSES = 5


class _Big(Exception):
    pass


def _value(node):
    """The value of a literal-only expression, or raise (not constant, too
    big, or it would fail)."""
    if isinstance(node, ast.Constant) and type(node.value) in _LEAF:
        return node.value
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UN:
        return _UN[type(node.op)](_value(node.operand))
    if isinstance(node, ast.BinOp) and type(node.op) in _BIN:
        a, b = _value(node.left), _value(node.right)
        if isinstance(node.op, ast.Pow) and isinstance(a, int) and isinstance(b, int) and \
                (abs(b) > 256 or abs(a).bit_length() * max(b, 1) > 4096):
            raise _Big()
        if isinstance(node.op, ast.LShift) and isinstance(b, int) and b > 4096:
            raise _Big()
        if isinstance(node.op, ast.Mult) and (isinstance(a, str) or isinstance(b, str)):
            n = b if isinstance(a, str) else a
            if isinstance(n, int) and n * len(a if isinstance(a, str) else b) > 1000:
                raise _Big()
        return _BIN[type(node.op)](a, b)
    if isinstance(node, ast.BoolOp):
        vals = [_value(v) for v in node.values]
        r = vals[0]
        for v in vals[1:]:
            if isinstance(node.op, ast.And):
                r = r and v
            else:
                r = r or v
        return r
    if isinstance(node, ast.Compare) and all(type(o) in _CMP for o in node.ops):
        left = _value(node.left)
        for op, c in zip(node.ops, node.comparators):
            right = _value(c)
            if not _CMP[type(op)](left, right):
                return False
            left = right
        return True
    raise ValueError("not constant")


def _literal(v):
    """Source text for v that reads back as the same value, or None."""
    if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
        return None
    text = repr(v)
    try:
        back = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
    if type(back) is not type(v) or back != v or len(text) > 200:
        return None
    return text


def fold(code, tree, src):
    """[(start, end, new, note)] for every maximal foldable expression."""
    out = []

    def visit(node):
        if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare)):
            try:
                v = _value(node)
            except Exception:
                v = _Big
            if v is not _Big:
                text = _literal(v)
                a, b = src.node_span(node)
                if text is not None and text != code[a:b]:
                    out.append((a, b, text, "constant-folding"))
                return
        for c in ast.iter_child_nodes(node):
            visit(c)
    visit(tree)
    return out


def _multiline_strings(code):
    lines = set()
    try:
        for t in tokenize.generate_tokens(io.StringIO(code).readline):
            if t.type == tokenize.STRING and t.end[0] > t.start[0]:
                lines.update(range(t.start[0], t.end[0] + 1))
    except (tokenize.TokenError, SyntaxError):
        return None
    return lines


def _lines_span(src, first, last):
    a = src.starts[first - 1]
    b = src.starts[last] if last < len(src.lines) else len(src.text)
    return a, b


def _dedent(src, first, last, by):
    text = "".join(src.lines[first - 1:last])
    out = []
    for ln in text.splitlines(keepends=True):
        out.append(ln[by:] if ln[:by].strip() == "" else ln.lstrip())
    return "".join(out)


def _indent(src, node):
    ln = src.line(node.lineno)
    return len(ln) - len(ln.lstrip())


def dead_code(code, tree, src):
    """[(start, end, new, note)] for dead statements (one per block)."""
    multi = _multiline_strings(code)
    if multi is None:
        return []
    out = []

    def keep_block(parent_body, node, replacement):
        # a block must keep at least one statement
        if len(parent_body) == 1 and not replacement.strip():
            return " " * _indent(src, node) + "pass\n"
        return replacement

    def visit_block(body):
        for i, st in enumerate(body):
            if isinstance(st, (ast.Return, ast.Raise, ast.Break, ast.Continue)) and i + 1 < len(body):
                a, _ = _lines_span(src, body[i + 1].lineno, body[-1].end_lineno)
                _, b = _lines_span(src, body[i + 1].lineno, body[-1].end_lineno)
                if st.end_lineno < body[i + 1].lineno:
                    out.append((a, b, "", "unreachable-code"))
                return
        for st in body:
            visit_stmt(st, body)

    def visit_stmt(st, body):
        if isinstance(st, (ast.If, ast.While)):
            try:
                v = bool(_value(st.test))
            except Exception:
                v = None
            if v is not None and st.body[0].lineno > st.lineno and \
                    not any(ln in multi for ln in range(st.lineno, st.end_lineno + 1)):
                rep = None
                if isinstance(st, ast.While) and not v and not st.orelse:
                    rep = ""
                elif isinstance(st, ast.If):
                    keep = st.body if v else st.orelse
                    if keep and (isinstance(keep[0], ast.If) and not v and
                                 src.line(keep[0].lineno).lstrip().startswith("elif")):
                        keep = None  # an elif chain: leave it
                    if keep is not None:
                        rep = "" if not keep else _dedent(
                            src, keep[0].lineno, keep[-1].end_lineno,
                            _indent(src, keep[0]) - _indent(src, st))
                if rep is not None:
                    a, b = _lines_span(src, st.lineno, st.end_lineno)
                    out.append((a, b, keep_block(body, st, rep), "dead-branch"))
                    return
        for field in ("body", "orelse", "finalbody"):
            sub = getattr(st, field, None)
            if isinstance(sub, list) and sub and isinstance(sub[0], ast.stmt):
                visit_block(sub)
        for h in getattr(st, "handlers", []) or []:
            visit_block(h.body)

    visit_block(tree.body)
    return out


def rewrite(code):
    """(optimized code, [edits]) applying folding then dead code until
    nothing changes."""
    edits = []
    for _ in range(MAX_PASSES):
        tree = ast.parse(code)
        src = Source(code)
        ch = fold(code, tree, src)
        if not ch:
            ch = dead_code(code, tree, src)
        if not ch:
            break
        ch.sort(key=lambda c: c[0])
        kept, last = [], -1
        for c in ch:
            if c[0] >= last:
                kept.append(c)
                last = c[1]
        for a, b, new, note in reversed(kept):
            line, col = src.pos_of_offset(a)
            edits.append({"kind": note, "line": line, "column": col,
                          "before": clip(code[a:b], 300), "after": clip(new, 300)})
            code = code[:a] + new + code[b:]
        try:
            compile(code, "code.py", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
        except SyntaxError:
            return None, []
    return code, edits


def _outcomes(res, examples):
    return [(r.get("status"), r.get("actual"), r.get("exc")) for r in res.examples], \
        (res.module or {}).get("status"), (res.module or {}).get("stdout")


def optimize_and_prove(code, examples, mode, expected, timeout_s, deadline, diags, pool):
    try:
        new, edits = rewrite(code)
    except (SyntaxError, ValueError, RecursionError):
        new, edits = None, []
    if not new or new == code:
        diags.append(diag("optimize:none", "nothing to fold or remove", "info", None, None))
        return {"optimized_code": None}

    def unverified(why):
        diags.append(diag("optimize:unverified", "the optimised code is not returned: " + why,
                          "warning", None, None))
        return {"optimized_code": None, "optimizations": edits}
    if mode != "execute":
        return unverified("a rewrite is only returned when the examples prove it equal, and "
                          "%s mode runs nothing; use mode execute with examples" % mode)
    if not any(e.is_check for e in examples) and expected is None:
        return unverified("there are no examples to prove it with")
    cfg = RunConfig(timeout_s, timeout_s, capture=True)
    before, after = pool.run([code, new], cfg, max(deadline, time.monotonic() + 1))
    if before is None or after is None:
        return unverified("no time was left to run both versions")
    if _outcomes(before, examples) != _outcomes(after, examples):
        return unverified("it behaves differently on the examples")
    sts = check_statuses(after, examples, expected)
    return {"optimized_code": new, "optimizations": edits,
            "optimize": {"proved_examples": len(sts)}}
