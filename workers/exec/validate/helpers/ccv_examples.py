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


def _assert_example(text, stmt, group):
    src = ast.get_source_segment(text, stmt) or "assert ..."
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
            else:
                src = ast.get_source_segment(text, stmt) or ""
                ex = Example("setup", src, "examples", stmt.lineno, 0)
                ex.stmt_code = compile(ast.Module([stmt], []), "<examples>", "exec",
                                       dont_inherit=True)
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
