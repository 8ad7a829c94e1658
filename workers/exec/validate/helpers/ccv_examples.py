# Examples: what the caller says the code must do. Two spellings are read:
# plain Python whose `assert` statements are the checks (other statements
# are setup, run in order), and doctest lines (`>>> f(2)` then `4`). The
# code's own docstrings contribute their `>>>` examples too. Everything here
# only parses and compiles; running happens in ccv_pyrun, in forked children.
import ast

from ccv_common import Rejected, diag

MAX_EXAMPLES = 500


class Example:
    """One check (kind "assert" or "doctest") or one setup statement.

    origin: "examples" (options.examples) or "docstring" (in the code).
    line: line in its own text; code_line: line in the code (docstrings).
    group: examples of one group share a namespace; options.examples are
    group 0, each docstring its own group (a copy of the module's globals,
    as doctest does)."""

    def __init__(self, kind, source, origin, line, group, code_line=None):
        self.kind = kind
        self.source = source
        self.origin = origin
        self.line = line
        self.code_line = code_line
        self.group = group
        self.stmt_code = None      # assert / setup: the statement
        self.left_code = None      # assert a <op> b: a and b on their own
        self.right_code = None
        self.op = None
        self.test_code = None      # assert <expr> otherwise
        self.right_src = None      # the text of b, reported when b was never evaluated
        self.want = None           # doctest
        self.exc_msg = None
        self.flags = 0

    @property
    def is_check(self):
        return self.kind != "setup"


def _looks_doctest(text):
    return any(ln.lstrip().startswith(">>>") for ln in text.splitlines())


def _compile_doctest(src, where):
    try:
        return compile(src, "<example>", "single", dont_inherit=True)
    except (SyntaxError, ValueError) as e:
        raise Rejected("%s: %s in `%s`" % (where, getattr(e, "msg", str(e)), src.strip()))


def _doctest_examples(text, origin, group, line_base, where):
    import doctest  # only doctest spellings need it; it makes every later fork slower
    try:
        parsed = doctest.DocTestParser().get_examples(text)
    except ValueError as e:
        raise Rejected("%s: %s" % (where, e))
    out = []
    for e in parsed:
        line = e.lineno + 1
        ex = Example("doctest", e.source.rstrip("\n"), origin, line, group,
                     code_line=(line_base + e.lineno) if line_base else None)
        ex.stmt_code = _compile_doctest(e.source, "%s line %d" % (where, line))
        ex.want = e.want
        ex.exc_msg = e.exc_msg
        for flag, on in e.options.items():
            ex.flags = (ex.flags | flag) if on else (ex.flags & ~flag)
        out.append(ex)
    return out


_OPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
        ast.GtE: ">=", ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}


def _always_true(t):
    """A test that holds whatever the code does: `assert (f(2), 4)` (a
    non-empty tuple, the parentheses of a call-like spelling), a truthy
    constant, a non-empty display, a lambda."""
    if isinstance(t, (ast.Tuple, ast.List, ast.Set)):
        return bool(t.elts)
    if isinstance(t, ast.Dict):
        return bool(t.keys)
    if isinstance(t, ast.Constant):
        return bool(t.value)
    if isinstance(t, ast.JoinedStr):
        return any(not isinstance(v, ast.Constant) or v.value for v in t.values)
    return isinstance(t, ast.Lambda)


def _holds_assert(stmt):
    """Whether a compound statement runs an assert of its own (not one in a
    function or class it only defines)."""
    stack = list(ast.iter_child_nodes(stmt))
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Assert):
            return True
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(n))
    return False


def _expects_raise(stmt):
    """`with pytest.raises(E):` (or `self.assertRaises(E)`, `raises(E)`): a
    check that the block raises, not setup whose failure is a warning."""
    if not isinstance(stmt, ast.With):
        return False
    for item in stmt.items:
        c = item.context_expr
        if isinstance(c, ast.Call):
            f = c.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name in ("raises", "assertRaises", "assertRaisesRegex", "warns"):
                return True
    return False


def _block_example(src, line, code):
    """A statement whose asserts are the check (`for`, `try`/`except` around
    an assert, a pytest-style test function's call): it passes when it runs
    through, fails when one of its own asserts fails."""
    ex = Example("block", src, "examples", line, 0)
    ex.stmt_code = code
    return ex


def _test_function(stmt):
    """A pytest-style `def test_x():` holding an assert, with no required
    parameter: pytest would call it, so it is a check, not a definition."""
    if not isinstance(stmt, ast.FunctionDef) or not stmt.name.startswith("test"):
        return False
    a = stmt.args
    if a.posonlyargs or len(a.args) > len(a.defaults) or \
            any(d is None for d in a.kw_defaults):
        return False
    return _holds_assert(stmt)


def _assert_example(text, stmt, group):
    src = ast.get_source_segment(text, stmt) or "assert ..."
    if _always_true(stmt.test):
        raise Rejected("options.examples line %d: `%s` is always true (its test is a %s), so it "
                       "checks nothing; write `assert f(2) == 4`, without parentheses around "
                       "the test and its message" % (stmt.lineno, src.strip()[:80],
                                                     "non-empty tuple" if isinstance(
                                                         stmt.test, ast.Tuple) else
                                                     "value that is always true"))
    ex = Example("assert", src, "examples", stmt.lineno, group)
    ex.stmt_code = compile(ast.Module([stmt], []), "<examples>", "exec", dont_inherit=True)
    t = stmt.test
    if isinstance(t, ast.Compare) and len(t.ops) == 1:
        ex.left_code = compile(ast.Expression(t.left), "<examples>", "eval", dont_inherit=True)
        ex.right_code = compile(ast.Expression(t.comparators[0]), "<examples>", "eval",
                                dont_inherit=True)
        ex.op = _OPS[type(t.ops[0])]
        ex.right_src = ast.get_source_segment(text, t.comparators[0])
    else:
        ex.test_code = compile(ast.Expression(t), "<examples>", "eval", dont_inherit=True)
    return ex


def parse_option_examples(text):
    """options.examples -> [Example]; Rejected when it cannot be used."""
    if text is None:
        return []
    if not text.strip():
        raise Rejected("options.examples is empty: omit it, or give at least one "
                       "`assert f(2) == 4` line or doctest lines (`>>> f(2)` then `4`)")
    if _looks_doctest(text):
        out = _doctest_examples(text, "examples", 0, 0, "options.examples")
        prose = [ln for ln in text.splitlines() if ln.lstrip().startswith("assert ")]
        if prose:
            raise Rejected("options.examples mixes `assert` lines with `>>> ` examples; "
                           "use one spelling (an assert line would be read as expected output)")
    else:
        try:
            tree = ast.parse(text, "<examples>")
        except (SyntaxError, ValueError) as e:
            where = "line %s, column %s" % (getattr(e, "lineno", "?"), getattr(e, "offset", "?"))
            raise Rejected("options.examples is not valid Python (%s: %s); write one "
                           "`assert f(2) == 4` per line, or doctest lines (`>>> f(2)` then `4`)"
                           % (where, getattr(e, "msg", str(e))))
        out = []
        for stmt in tree.body:
            if isinstance(stmt, ast.Assert):
                out.append(_assert_example(text, stmt, 0))
                continue
            src = ast.get_source_segment(text, stmt) or ""
            code = compile(ast.Module([stmt], []), "<examples>", "exec", dont_inherit=True)
            if _test_function(stmt):
                ex = Example("setup", src, "examples", stmt.lineno, 0)
                ex.stmt_code = code
                out.append(ex)
                call = compile(ast.parse("%s()" % stmt.name), "<examples>", "exec",
                               dont_inherit=True)
                out.append(_block_example("%s()" % stmt.name, stmt.lineno, call))
            elif _expects_raise(stmt) or _holds_assert(stmt) and not isinstance(
                    stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.append(_block_example(src, stmt.lineno, code))
            else:
                ex = Example("setup", src, "examples", stmt.lineno, 0)
                ex.stmt_code = code
                out.append(ex)
    if not any(e.is_check for e in out):
        raise Rejected("options.examples holds no `assert` statement and no `>>> ` example, "
                       "so nothing could be checked")
    if sum(e.is_check for e in out) > MAX_EXAMPLES:
        raise Rejected("options.examples holds more than %d examples" % MAX_EXAMPLES)
    return out


def docstring_examples(tree, first_group=1):
    """(examples, diagnostics) from the `>>> ` lines of the code's module,
    class and function docstrings. A docstring example that does not parse
    is a warning, not a refusal: it is part of the code."""
    out, diags = [], []
    if tree is None:
        return out, diags
    nodes = [tree] + [n for n in ast.walk(tree)
                      if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    group = first_group
    for node in nodes:
        body = getattr(node, "body", None)
        if not body or not isinstance(body[0], ast.Expr):
            continue
        c = body[0].value
        if not (isinstance(c, ast.Constant) and isinstance(c.value, str)) or ">>>" not in c.value:
            continue
        try:
            exs = _doctest_examples(c.value, "docstring", group, c.lineno, "docstring")
        except Rejected as e:
            diags.append(diag("python:doctest-syntax", "a docstring example cannot be used: "
                              + e.message, "warning", c.lineno, None))
            continue
        out.extend(exs)
        group += 1
    return out[:MAX_EXAMPLES], diags
