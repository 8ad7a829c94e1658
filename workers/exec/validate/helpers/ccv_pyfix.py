# Deterministic repairs of Python code that keep its behaviour where
# nothing else is known about it:
#   - an unused import of a standard module without import side effects
#     is removed;
#   - a standard module used by name (math.sqrt) but never imported gets
#     its `import` (the code would otherwise stop with NameError there);
#   - `x == None` / `x != None` become `x is None` / `x is not None`;
#   - `not x in y` / `not x is y` become `x not in y` / `x is not y` (the
#     same bytecode);
#   - an f-string without placeholders loses its `f`.
# Lint findings that have such a fix are reported in static mode too; repair
# and execute apply them and attach the edit to the diagnostic.
import ast
import importlib
import re
import sys
import time

from ccv_common import diag

# Standard modules whose import does something visible, or that cannot be
# imported here: never added, never removed.
_SIDE_EFFECTS = {"this", "antigravity", "__hello__", "__phello__", "idlelib", "tkinter",
                 "turtle", "turtledemo", "readline", "rlcompleter", "site", "sitecustomize",
                 "usercustomize", "__main__", "builtins", "__future__", "ensurepip", "venv",
                 "webbrowser", "pydoc", "pdb", "lib2to3", "msilib", "winreg", "winsound",
                 "_winapi", "nt"}


def _stdlib(name):
    return name in getattr(sys, "stdlib_module_names", ()) and name not in _SIDE_EFFECTS


class Fix:
    """One edit: replace text[start:end] by new, for a diagnostic."""

    def __init__(self, diagnostic, start, end, new, src):
        self.diag = diagnostic
        self.start, self.end, self.new = start, end, new
        line, col = src.pos_of_offset(start)
        self.edit = {"line": line, "column": col, "before": src.text[start:end], "after": new}


def _parents(tree):
    par = {}
    for n in ast.walk(tree):
        for c in ast.iter_child_nodes(n):
            par[c] = n
    return par


def _whole_lines(src, node):
    """(start, end) of the full lines of node when nothing else shares them
    (no `;`, no trailing comment), else None."""
    a, b = src.node_span(node)
    ls = src.starts[node.lineno - 1]
    le = src.starts[node.end_lineno - 1] + len(src.line(node.end_lineno))
    if src.text[ls:a].strip() or src.text[b:le].strip():
        return None
    return ls, le


def _block_of(parent, node):
    for field in ("body", "orelse", "finalbody"):
        block = getattr(parent, field, None)
        if isinstance(block, list) and node in block:
            return block
    return None


def _alias_text(a):
    return a.name + (" as " + a.asname if a.asname else "")


def unused_imports(tree, src, flakes):
    if any(isinstance(n, ast.Name) and n.id == "__all__" for n in ast.walk(tree)):
        return []  # the module declares its exports: an "unused" import may be one
    unused = {}
    for m in flakes:
        if m["cls"] == "UnusedImport" and m["args"]:
            unused.setdefault(m["line"], set()).add(m["args"][0])
    par, fixes = _parents(tree), []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)) or node.lineno not in unused:
            continue
        names = unused[node.lineno]
        if isinstance(node, ast.ImportFrom):
            if node.level or not node.module or node.module == "__future__":
                continue
            top = node.module.split(".")[0]
            full = lambda a: node.module + "." + _alias_text(a)  # noqa: E731
        else:
            top = None
            full = _alias_text
        drop = [a for a in node.names if full(a) in names and a.name != "*"]
        if not drop:
            continue
        tops = {top} if top else {a.name.split(".")[0] for a in drop}
        parent = par.get(node)
        if not all(_stdlib(t) for t in tops) or isinstance(parent, ast.Try):
            continue
        span = _whole_lines(src, node)
        if span is None:
            continue
        keep = [a for a in node.names if a not in drop]
        line = src.line(node.lineno)
        indent = line[:len(line) - len(line.lstrip())]
        if keep:
            stmt = ("from %s import %s" % (node.module, ", ".join(map(_alias_text, keep)))
                    if isinstance(node, ast.ImportFrom) else
                    "import " + ", ".join(map(_alias_text, keep)))
            new = indent + stmt + "\n"
        else:
            block = _block_of(parent, node) if parent is not None else None
            new = indent + "pass\n" if block is not None and len(block) == 1 and \
                not isinstance(parent, ast.Module) else ""
        for a in drop:
            d = diag("python:unused-import", "'%s' imported but unused" % full(a), "warning",
                     node.lineno, src.char_col(node.lineno, node.col_offset) + 1)
            fixes.append((d, span[0], span[1], new))
    return fixes


def missing_imports(tree, src, flakes):
    wanted = {}
    for m in flakes:
        if m["cls"] == "UndefinedName" and m["args"] and _stdlib(m["args"][0]):
            wanted.setdefault(m["args"][0], []).append(m)
    if not wanted:
        return []
    par = _parents(tree)
    bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and
             not isinstance(n.ctx, ast.Load)}
    bound |= {a.arg for a in ast.walk(tree) if isinstance(a, ast.arg)}
    out = []
    for name, msgs in sorted(wanted.items()):
        uses = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name]
        if name in bound or not uses:
            continue
        attrs = set()
        for u in uses:
            p = par.get(u)
            if not (isinstance(p, ast.Attribute) and p.value is u):
                attrs = None
                break
            attrs.add(p.attr)
        if attrs:
            out.append((name, msgs, sorted(attrs)))
    # Importing happens in a child: a module imported here (threading...)
    # would make every later fork of this process slower.
    have = _modules_with(out)
    out = [(n, m) for n, m, _ in out if n in have]
    if not out:
        return []
    anchor = 0
    for i, st in enumerate(tree.body):
        doc = i == 0 and isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant) and \
            isinstance(st.value.value, str)
        if doc or isinstance(st, (ast.Import, ast.ImportFrom)):
            anchor = st.end_lineno
        else:
            break
    off = src.starts[anchor] if anchor < len(src.lines) else len(src.text)
    prefix = "" if off == 0 or src.text[off - 1] == "\n" else "\n"
    fixes = []
    for name, msgs in out:
        for m in msgs:
            d = diag("python:undefined-name", "undefined name '%s': the standard module is "
                     "used but never imported" % name, "error", m["line"],
                     src.char_col(m["line"], m["col"]) + 1)
            fixes.append((d, off, off, prefix + "import %s\n" % name))
    return fixes


def _modules_with(wanted):
    """Names of the modules in wanted [(name, _, attrs)] that import and
    have every attribute, checked in a forked child."""
    if not wanted:
        return set()
    from ccv_pycheck import run_budgeted

    def probe():
        ok = []
        for name, _, attrs in wanted:
            try:
                mod = importlib.import_module(name)
            except Exception:
                continue
            if all(hasattr(mod, a) for a in attrs):
                ok.append(name)
        return ok
    status, value, _ = run_budgeted([("probe", probe, 10.0)], time.monotonic() + 10)["probe"]
    return set(value) if status == "ok" else set()


def _op_between(src, left, right, pattern):
    a = src.node_span(left)[1]
    b = src.node_span(right)[0]
    m = re.search(pattern, src.text[a:b])
    return (a + m.start(), a + m.end()) if m else None


def compare_to_none(tree, src):
    fixes = []
    for n in ast.walk(tree):
        if not isinstance(n, ast.Compare):
            continue
        left = n.left
        for op, right in zip(n.ops, n.comparators):
            if isinstance(op, (ast.Eq, ast.NotEq)) and any(
                    isinstance(x, ast.Constant) and x.value is None for x in (left, right)):
                sym = "==" if isinstance(op, ast.Eq) else "!="
                span = _op_between(src, left, right, re.escape(sym))
                if span:
                    new = "is" if sym == "==" else "is not"
                    line, col = src.pos_of_offset(span[0])
                    d = diag("python:compare-to-none", "comparison to None with `%s`: use `%s "
                             "None` (`%s` calls __eq__, which a class may override)"
                             % (sym, new, sym), "warning", line, col)
                    fixes.append((d, span[0], span[1], new))
            left = right
    return fixes


def negated_tests(tree, src):
    fixes = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not) and
                isinstance(n.operand, ast.Compare) and len(n.operand.ops) == 1 and
                isinstance(n.operand.ops[0], (ast.In, ast.Is))):
            continue
        c = n.operand
        word = "in" if isinstance(c.ops[0], ast.In) else "is"
        span = _op_between(src, c.left, c.comparators[0], r"\b%s\b" % word)
        if not span:
            continue
        a, b = src.node_span(n)
        ca, cb = src.node_span(c)  # includes the operands' own parentheses
        inner = src.text[ca:span[0]] + ("not in" if word == "in" else "is not") + \
            src.text[span[1]:cb]
        line, col = src.node_pos(n)
        code = "python:not-%s-test" % word
        d = diag(code, "`not x %s y` reads better as `x %s y` (same meaning)"
                 % (word, "not in" if word == "in" else "is not"), "warning", line, col)
        fixes.append((d, a, b, inner))
    return fixes


def fstring_placeholders(tree, src, flakes):
    fixes = []
    for m in flakes:
        if m["cls"] != "FStringMissingPlaceholders":
            continue
        line, col = m["line"], src.char_col(m["line"], m["col"])
        start = src.offset(line, col)
        node = next((n for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) and
                     n.lineno == line and n.col_offset == m["col"]), None)
        if node is None:
            continue
        a, b = src.node_span(node)
        text = src.text[a:b]
        pm = re.match(r"([rRbBuUfF]{1,2})['\"]", text)
        if "{" in text or "}" in text or not pm or "f" not in pm.group(1).lower():
            continue
        prefix = pm.group(1)
        new_prefix = prefix.replace("f", "").replace("F", "")
        d = diag("python:f-string-missing-placeholders", "f-string is missing placeholders",
                 "warning", line, col + 1)
        fixes.append((d, start, start + len(prefix), new_prefix))
    return fixes


def plan(tree, src, flakes):
    """Every deterministic fix of the code: [Fix], in text order. A fix
    that overlaps an earlier one is dropped; several diagnostics served by
    the same edit (two unused names of one import) share it."""
    raw = (unused_imports(tree, src, flakes) + missing_imports(tree, src, flakes) +
           compare_to_none(tree, src) + negated_tests(tree, src) +
           fstring_placeholders(tree, src, flakes))
    raw.sort(key=lambda f: (f[1], f[2]))
    out = []
    for d, a, b, new in raw:
        same = next((f for f in out if (f.start, f.end, f.new) == (a, b, new)), None)
        if same is None and any(a < f.end and f.start < b for f in out):
            continue
        fix = Fix(d, a, b, new, src)
        fix.shared = same is not None
        out.append(fix)
    return out


def apply(text, fixes):
    for f in reversed([f for f in fixes if not f.shared]):
        text = text[:f.start] + f.new + text[f.end:]
    return text
