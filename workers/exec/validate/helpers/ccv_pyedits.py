# Candidate edits for the repair search, in order of preference:
# one-token edits (operators, comparisons, and/or, True/False, integer
# constants +-1, range() bounds +-1, a variable swapped for another of the
# same scope), then small statement patterns (a counter that is never
# incremented, a missing return). A candidate is a span replacement of the
# base text; its full text is only built when it is about to be run (a
# 200,000-byte file has hundreds of thousands of candidates).
import ast
import bisect
import io
import re
import tokenize

from ccv_common import Source

ARITH = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>"]
_FAMILY = {"+": ["-"], "-": ["+"], "*": ["/", "//"], "/": ["//", "*"], "//": ["/", "%"],
           "%": ["//"], "**": ["*"], "&": ["|", "^"], "|": ["&", "^"], "^": ["&", "|"],
           "<<": [">>"], ">>": ["<<"]}
COMPARE = {"<": ["<=", ">", ">=", "!=", "=="], "<=": ["<", ">=", ">", "==", "!="],
           ">": [">=", "<", "<=", "!=", "=="], ">=": [">", "<=", "<", "==", "!="],
           "==": ["!=", "<=", ">=", "<", ">"], "!=": ["==", "<", ">", "<=", ">="]}
SWAP = {"and": "or", "or": "and", "True": "False", "False": "True"}

# Edit classes, in order of preference (docs/execute_python.md).
CLASSES = ["operator", "comparison", "boolean-operator", "boolean-constant",
           "integer-constant", "range-bound", "variable", "variable", "counter-increment",
           "missing-return"]
# (a variable read is swapped before a variable written: class 6, then 7)


def _arith_alternatives(op):
    fam = _FAMILY[op]
    return fam + [o for o in ARITH if o != op and o not in fam]


MAX_CANDIDATES = 5000  # per state and round, best preferred first


class _Base:
    """The text edits apply to, and the spans of its top-level statements:
    an edit is parse-checked on its own statement, not the whole file."""

    def __init__(self, text, tree, src):
        self.text = text
        self.spans = [(src.starts[st.lineno - 1] if st.lineno - 1 < len(src.starts) else 0,
                       src.node_span(st)[1]) for st in
                      [d.decorator_list[0] if getattr(d, "decorator_list", None) else d
                       for d in tree.body]]
        self.starts = [a for a, _ in self.spans]
        self.ends = [b for _, b in self.spans]


class Candidate:
    __slots__ = ("base", "start", "end", "new", "edit", "rank", "suspicious")

    def __init__(self, base, start, end, new, edit, rank, suspicious):
        self.base, self.start, self.end, self.new = base, start, end, new
        self.edit = edit
        self.rank = rank
        self.suspicious = suspicious

    @property
    def text(self):
        t = self.base.text
        return t[:self.start] + self.new + t[self.end:]

    def parses(self):
        """Does the edited top-level statement still parse? (An edit
        between statements checks the whole text.)"""
        b = self.base
        i = bisect.bisect_right(b.starts, self.start) - 1
        if i >= 0 and self.end <= b.ends[i]:
            a, e = b.spans[i]
            snippet = b.text[a:self.start] + self.new + b.text[self.end:e]
        else:
            snippet = self.text
        try:
            compile(snippet, "code.py", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
            return True
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False


class _Gen:
    def __init__(self, text, tree, suspicious, tier):
        self.text = text
        self.src = Source(text)
        self.base = _Base(text, tree, self.src)
        self.suspicious = suspicious
        self.tier = tier  # 1: only suspicious lines, 2: only the others, None: all
        self.out = []

    def wanted(self, *lines):
        if self.tier is None:
            return True
        if self.suspicious is None:  # nothing known: everything is tier 1
            return self.tier == 1
        hit = any(ln in self.suspicious for ln in lines)
        return hit if self.tier == 1 else not hit

    def add(self, cls, start, end, new, line, col, alt=0, before=None, display=None):
        """Replace text[start:end] by new. line/col (1-based) locate the edit."""
        if not self.wanted(line):
            return
        edit = {"kind": CLASSES[cls], "line": line, "column": col,
                "before": self.text[start:end] if before is None else before,
                "after": new if display is None else display}
        sus = self.suspicious is None or line in self.suspicious
        self.out.append(Candidate(self.base, start, end, new, edit, (cls, line, col, alt), sus))

    # ---- one token ---------------------------------------------------------

    def tokens(self):
        try:
            toks = list(tokenize.generate_tokens(io.StringIO(self.text).readline))
        except (tokenize.TokenError, IndentationError, SyntaxError):
            return
        for t in toks:
            row, col = t.start
            off = self.src.offset(row, col)
            s = t.string
            if t.type == tokenize.OP:
                base = s[:-1] if s.endswith("=") and s[:-1] in ARITH else s
                if base in ARITH:
                    suffix = s[len(base):]
                    for i, alt in enumerate(_arith_alternatives(base)):
                        self.add(0, off, off + len(s), alt + suffix, row, col + 1, i)
                elif s in COMPARE:
                    for i, alt in enumerate(COMPARE[s]):
                        self.add(1, off, off + len(s), alt, row, col + 1, i)
            elif t.type == tokenize.NAME and s in SWAP:
                cls = 2 if s in ("and", "or") else 3
                self.add(cls, off, off + len(s), SWAP[s], row, col + 1)
            elif t.type == tokenize.NUMBER:
                for i, alt in enumerate(_int_neighbours(s)):
                    self.add(4, off, off + len(s), alt, row, col + 1, i)

    # ---- ast based ---------------------------------------------------------

    def range_bounds(self, tree):
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "range" and 1 <= len(node.args) <= 3):
                continue
            bounds = node.args[:1] if len(node.args) == 1 else node.args[:2]
            for arg in bounds:
                if isinstance(arg, ast.Constant):
                    continue  # an integer constant is already an integer-constant edit
                a, b = self.src.node_span(arg)
                inner = self.text[a:b]
                atomic = isinstance(arg, (ast.Name, ast.Attribute, ast.Call, ast.Subscript))
                core = inner if atomic else "(" + inner + ")"
                line, col = self.src.node_pos(arg)
                for i, new in enumerate((core + " + 1", core + " - 1")):
                    self.add(5, a, b, new, line, col, i)

    def variables(self, tree):
        for scope in _scopes(tree):
            names = _scope_names(scope)
            if len(names) < 2:
                continue
            for node in _own_nodes(scope):
                if isinstance(node, ast.Name) and node.id in names:
                    a, b = self.src.node_span(node)
                    line, col = self.src.node_pos(node)
                    cls = 6 if isinstance(node.ctx, ast.Load) else 7
                    for i, other in enumerate(n for n in names if n != node.id):
                        self.add(cls, a, b, other, line, col, i)

    def counters(self, tree):
        for fn in _functions(tree):
            inits = {}
            for st in fn.body:
                if (isinstance(st, ast.Assign) and len(st.targets) == 1 and
                        isinstance(st.targets[0], ast.Name) and isinstance(st.value, ast.Constant)
                        and type(st.value.value) is int):
                    inits.setdefault(st.targets[0].id, st)
            returned = {n.value.id for n in _own_nodes(fn)
                        if isinstance(n, ast.Return) and isinstance(n.value, ast.Name)}
            loops = [n for n in _own_nodes(fn) if isinstance(n, (ast.For, ast.While))]
            for name, init in inits.items():
                if name not in returned or any(_assigns(loop, name) for loop in loops):
                    continue
                for loop in loops:
                    if loop.lineno <= init.lineno or loop.body[0].lineno == loop.lineno:
                        continue
                    self.insert_line(8, loop.body[-1].end_lineno, loop.body[0],
                                     "%s += 1" % name, 0, loop.lineno)
                    self.insert_line(8, loop.body[0].lineno - 1, loop.body[0],
                                     "%s += 1" % name, 1, loop.lineno)

    def returns(self, tree):
        for fn in _functions(tree):
            if any(isinstance(n, ast.Return) and n.value is not None for n in _own_nodes(fn)):
                continue
            last = fn.body[-1]
            if isinstance(last, (ast.Return, ast.Raise)) or last.lineno == fn.lineno:
                continue
            if isinstance(last, ast.Expr) and isinstance(last.value, ast.Name):
                a, b = self.src.node_span(last)
                line, col = self.src.node_pos(last)
                self.add(9, a, b, "return " + last.value.id, line, col, 0)
                continue
            names = []
            for st in reversed(fn.body):
                for t in _targets(st):
                    if t not in names:
                        names.append(t)
            for i, name in enumerate(names[:3]):
                self.insert_line(9, last.end_lineno, fn.body[0], "return " + name, i + 1,
                                 fn.lineno)

    def insert_line(self, cls, after_line, like, stmt, alt, anchor):
        """Insert stmt as a new line after line after_line, indented like
        the statement `like`."""
        if not self.wanted(anchor, after_line, like.lineno):
            return
        line = self.src.line(like.lineno)
        indent = line[:len(line) - len(line.lstrip())]
        if after_line >= len(self.src.lines):
            off = len(self.text)
            prefix = "" if self.text.endswith("\n") or not self.text else "\n"
        else:
            off, prefix = self.src.starts[after_line], ""
        new = prefix + indent + stmt + "\n"
        edit = {"kind": CLASSES[cls], "line": after_line + 1, "column": len(indent) + 1,
                "before": "", "after": stmt}
        sus = self.suspicious is None or anchor in self.suspicious or \
            after_line in self.suspicious or like.lineno in self.suspicious
        self.out.append(Candidate(self.base, off, off, new, edit, (cls, anchor, 0, alt), sus))


def _int_neighbours(s):
    m = re.fullmatch(r"(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|[1-9][0-9_]*|0+)", s)
    if not m:
        return []
    v = int(s, 0) if not re.fullmatch(r"0+", s) else 0
    fmt = {"x": "#x", "X": "#X", "o": "#o", "O": "#o", "b": "#b", "B": "#b"}
    spec = fmt.get(s[1], None) if len(s) > 1 and s[0] == "0" else None
    out = []
    for n in (v - 1, v + 1):
        if n < 0:
            out.append("-" + (format(-n, spec) if spec else str(-n)))
        else:
            out.append(format(n, spec) if spec else str(n))
    return out


def _functions(tree):
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _scopes(tree):
    return [tree] + _functions(tree)


def _own_nodes(scope):
    """Nodes of a scope, not descending into nested functions, classes or
    lambdas (their names are theirs)."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        n = stack.pop()
        yield n
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(n))


def _scope_names(scope):
    """Variables of a scope in order of first appearance: parameters, then
    names stored in it. Functions, classes and imports are not variables."""
    names = []
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = scope.args
        for arg in a.posonlyargs + a.args + a.kwonlyargs:
            names.append(arg.arg)
        if a.vararg:
            names.append(a.vararg.arg)
        if a.kwarg:
            names.append(a.kwarg.arg)
    stored = sorted((n for n in _own_nodes(scope)
                     if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)),
                    key=lambda n: (n.lineno, n.col_offset))
    for n in stored:
        if n.id not in names:
            names.append(n.id)
    return names


def _assigns(loop, name):
    for n in ast.walk(loop):
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store):
            return True
    return False


def _targets(st):
    if isinstance(st, ast.Assign):
        ts = st.targets
    elif isinstance(st, (ast.AugAssign, ast.AnnAssign)):
        ts = [st.target]
    else:
        return []
    out = []
    for t in ts:
        for n in ast.walk(t):
            if isinstance(n, ast.Name):
                out.append(n.id)
    return out


def candidates(text, suspicious=None, tier=None):
    """Candidate edits of text in order of preference, at most
    MAX_CANDIDATES, not parse-checked here (Candidate.parses). suspicious:
    lines a failing example ran (None: unknown); tier 1 keeps the edits on
    those lines, tier 2 the others, None all of them."""
    tree = ast.parse(text)
    g = _Gen(text, tree, suspicious, tier)
    g.tokens()
    g.range_bounds(tree)
    g.variables(tree)
    g.counters(tree)
    g.returns(tree)
    g.out.sort(key=lambda c: (not c.suspicious, c.rank))
    return g.out[:MAX_CANDIDATES]
