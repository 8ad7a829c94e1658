# The extractor of extract_function (TOOLS.md 3.5.3, docs/analysis.md).
#
# Runs inside the sandbox with python3 (the code it reads is untrusted; it is
# parsed, never run here). Reads one JSON request on stdin:
#   {"mode": "python" | "braces", "code": str, "name": str, "call": str|null}
# and prints one JSON answer on stdout:
#   {"ok": true, "program": str, "signature": str}
#   {"ok": false, "error": str}                      (a validation failure)
import ast
import io
import json
import re
import sys
import tokenize

RUNNER_ARGS = '''

import sys


def _codecalc_convert(token):
    try:
        return int(token)
    except ValueError:
        pass
    try:
        return float(token)
    except ValueError:
        return token


if __name__ == "__main__":
    import asyncio as _codecalc_asyncio
    _codecalc_args = [_codecalc_convert(t) for t in sys.stdin.read().split()]
    _codecalc_result = {name}(*_codecalc_args)
    if _codecalc_asyncio.iscoroutine(_codecalc_result):
        _codecalc_result = _codecalc_asyncio.run(_codecalc_result)
    print(_codecalc_result)
'''

RUNNER_CALL = '''

import sys

if __name__ == "__main__":
    print({call})
'''


def segment(code, node):
    """The exact source of a top-level statement, decorators included."""
    text = ast.get_source_segment(code, node)
    decorators = getattr(node, "decorator_list", [])
    if decorators:
        text = "\n".join("@" + ast.get_source_segment(code, d) for d in decorators) + "\n" + text
    return text


def parameters(code, fn):
    """The parameter list as written: the text between the parentheses that
    follow the function's name."""
    text = ast.get_source_segment(code, fn)
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return ast.unparse(fn.args)
    lines = text.splitlines(keepends=True)

    def offset(pos):
        row, col = pos
        return sum(len(l) for l in lines[:row - 1]) + col

    seen_name = False
    depth = 0
    start = None
    for t in toks:
        if not seen_name:
            seen_name = t.type == tokenize.NAME and t.string == fn.name
            continue
        if t.type == tokenize.OP and t.string == "(":
            depth += 1
            if depth == 1:
                start = offset(t.end)
        elif t.type == tokenize.OP and t.string == ")":
            depth -= 1
            if depth == 0 and start is not None:
                return text[start:offset(t.start)].strip()
    return ast.unparse(fn.args)


def referenced_names(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


BINDINGS = (ast.ClassDef, ast.Assign, ast.AnnAssign, ast.AugAssign)
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Import, ast.ImportFrom)


def bound_names(node):
    """The module-level names a class or an assignment binds or changes: a
    plain target, or the base of `X[k] = v` / `X.a = v`."""
    if isinstance(node, ast.ClassDef):
        return {node.name}
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    out = set()
    for t in targets:
        for n in ast.walk(t):
            if isinstance(n, ast.Name):
                out.add(n.id)
    return out


def immutable(value):
    """A value no call can change: numbers, strings, None, booleans, and
    tuples or arithmetic of them."""
    if isinstance(value, ast.Constant):
        return True
    if isinstance(value, ast.Tuple):
        return all(immutable(e) for e in value.elts)
    if isinstance(value, ast.UnaryOp):
        return immutable(value.operand)
    if isinstance(value, ast.BinOp):
        return immutable(value.left) and immutable(value.right)
    return False


def changed_by(node):
    """The names a statement that is not a plain binding may change: ones it
    stores, the bases of its item and attribute stores, the receivers of its
    method calls (TABLE.update(...)), and the names it passes to calls."""
    changed, passed = set(), set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            changed.add(n.id)
        elif isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.ctx, (ast.Store, ast.Del)):
            changed |= {b.id for b in ast.walk(n.value) if isinstance(b, ast.Name)}
        elif isinstance(n, ast.Call):
            if isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name):
                changed.add(n.func.value.id)
            passed |= {a.id for a in n.args + [k.value for k in n.keywords] if isinstance(a, ast.Name)}
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            changed.add(n.name)
    return changed, passed


def module_bindings(tree):
    """{name: [statements]} for the module-level names that classes and
    assignments set and nothing else may change. A name another module-level
    statement may change (a loop filling a table, a call mutating a list, a
    conditional definition) is left out: carrying its assignment alone
    would give the function a value the program never had at that point."""
    binds, changed, passed = {}, set(), set()
    for node in tree.body:
        if isinstance(node, BINDINGS):
            for name in bound_names(node):
                binds.setdefault(name, []).append(node)
        elif not isinstance(node, DEFINITIONS):
            c, p = changed_by(node)
            changed |= c
            passed |= p
    for name, nodes in binds.items():
        if name in passed and not all(isinstance(b, ast.ClassDef) or
                                      (not isinstance(b, ast.AugAssign) and b.value is not None and
                                       immutable(b.value)) for b in nodes):
            changed.add(name)
    return {k: v for k, v in binds.items() if k not in changed}, changed


def closure(target, functions, binds):
    """The statements the target needs, transitively: the functions it
    calls, and the classes and assignments that set the module-level names
    it reads (and what those read in turn)."""
    needed, seen, todo = set(), {target.name}, [target]
    while todo:
        for ref in sorted(referenced_names(todo.pop())):
            if ref in seen:
                continue
            seen.add(ref)
            if ref in functions:
                needed.add(functions[ref])
                todo.append(functions[ref])
            for node in binds.get(ref, []):
                if node not in needed:
                    needed.add(node)
                    todo.append(node)
    return needed


def not_carried(tree, carried, binds):
    """Module-level names the carried code reads that the program does not
    define: set by module-level code other than plain assignments, so
    carrying them alone would change their values; a run stops at a
    NameError."""
    defined = set()
    for node in tree.body:
        if isinstance(node, BINDINGS):
            defined |= bound_names(node)
        elif not isinstance(node, DEFINITIONS):
            defined |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    used = set().union(*(referenced_names(f) for f in carried))
    local = {n.id for f in carried for n in ast.walk(f) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
             and isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
    local |= {a.arg for f in carried if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
              for a in ast.walk(f.args) if isinstance(a, ast.arg)}
    names = {getattr(f, "name", None) for f in carried}
    return sorted((used & defined) - local - names - set(binds))


def nested_hint(tree, name):
    """Where a non-top-level definition of name is, so the error says why."""
    scopes = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    for outer in (n for n in ast.walk(tree) if isinstance(n, scopes)):
        for node in ast.iter_child_nodes(outer):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                where = f" at the top level: it is defined inside {{}} '{outer.name}' (line {node.lineno}); "
                if isinstance(outer, ast.ClassDef):
                    return where.format("class") + "a method is not extracted alone: run the class with execute_code"
                return where.format("function") + f"extract '{outer.name}' and reach it through `call`"
    return ""


def extract_python(code, name, call):
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
        return {"ok": False, "error": f"parse error: {e}"}
    functions = {}
    for node in tree.body:  # a later definition rebinds the name, as at run time
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions[node.name] = node
    target = functions.get(name)
    if target is None:
        return {"ok": False, "error": f"function '{name}' not found" + nested_hint(tree, name)}
    binds, _ = module_bindings(tree)
    needed = closure(target, functions, binds)
    # imports, then what the target needs in source order, then the target
    parts = [segment(code, n) for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    parts += [segment(code, n) for n in tree.body if n in needed and n is not target]
    parts.append(segment(code, target))
    runner = RUNNER_CALL.format(call=call) if call is not None else RUNNER_ARGS.format(name=name)
    return {"ok": True, "program": "\n\n".join(parts) + runner, "signature": parameters(code, target),
            "not_carried": not_carried(tree, [target] + list(needed), binds)}


PREFIXES = ("import", "use", "from", "require", "using", "#include")


def prepended(lines, upto):
    """Lines before the definition that start with an import-like word; a
    `package` line and a parenthesised import block are carried whole (Go)."""
    out, i = [], 0
    while i < upto:
        stripped = lines[i].lstrip()
        if stripped.startswith(PREFIXES) or stripped.startswith("package "):
            out.append(lines[i])
            if re.match(r"import\s*\($", stripped.rstrip()):
                while i + 1 < upto:
                    i += 1
                    out.append(lines[i])
                    if lines[i].strip() == ")":
                        break
        i += 1
    return out


CALL_WORDS = {"return", "new", "await", "yield", "throw", "if", "while", "for", "else", "case", "print",
              "echo", "puts", "go", "defer", "delete"}


def defines(lines, i, pattern):
    """Line i names the function as a definition (`int sq(int x) {`), not a
    prototype (`int sq(int x);`) or a call (`printf("%d", sq(3));`): only
    type words before the name, and a `{` after it or opening the next line."""
    m = pattern.search(lines[i])
    if not m:
        return False
    before = lines[i][:m.start()]
    if not re.fullmatch(r"[\w\s*&:<>,\[\]]*", before) or CALL_WORDS & set(re.findall(r"\w+", before)):
        return False
    if "{" in lines[i][m.end():]:
        return True
    following = next((l.strip() for l in lines[i + 1:] if l.strip()), "")
    return not lines[i].rstrip().endswith(";") and following.startswith("{")


def extract_braces(code, name, call):
    n = re.escape(name)
    patterns = [re.compile(rf"\b(def|func|function|fun|fn)\s+{n}\b"),
                re.compile(rf"\bpublic\s+\w+\s+{n}\s*\("),
                re.compile(rf"\b{n}\s*\(")]
    lines = code.split("\n")
    start = next((i for i, l in enumerate(lines) if any(p.search(l) for p in patterns[:2])), None)
    if start is None:
        start = next((i for i, l in enumerate(lines) if defines(lines, i, patterns[2])), None)
    if start is None:
        start = next((i for i, l in enumerate(lines) if patterns[2].search(l)), None)
    if start is None:
        return {"ok": False, "error": f"function '{name}' not found"}
    end, depth = len(lines) - 1, 0
    header = lines[start][m.end() if (m := patterns[2].search(lines[start])) else 0:]
    if "{" in header and header.count("{") == header.count("}"):
        end = start  # a one-line body: `int sq(int x) { return x * x; }`
    for j in range(start, len(lines) if end != start else start):
        depth += lines[j].count("{") - lines[j].count("}")
        if j > start and depth <= 0:
            end = j
            break
    program = prepended(lines, start) + lines[start:end + 1]
    if call is not None:
        program.append(call)
    return {"ok": True, "program": "\n".join(program) + "\n", "signature": lines[start][:120]}


def main():
    req = json.load(sys.stdin)
    extract = extract_python if req["mode"] == "python" else extract_braces
    sys.setrecursionlimit(10000)
    print(json.dumps(extract(req["code"], req["name"], req.get("call"))))


main()
