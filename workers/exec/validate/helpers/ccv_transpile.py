# Python -> JavaScript for a documented subset (docs/execute_python.md,
# "Transpile"), and the proof: the examples are translated by the same
# translator and run under node next to the copy; a copy is returned only
# when every example holds there as it does in Python.
#
# The copy is one self-contained CommonJS script: the runtime
# (ccv_pyjs_runtime.js, Python semantics: BigInt ints, floor division and
# modulo with Python's signs, Python's repr) followed by the program, whose
# top-level names are the Python ones (a name that is a JavaScript reserved
# word or a global the runtime uses gets a trailing "$").
import ast
import json
import os
import time

from ccv_common import Source, clip, diag
from ccv_pyrun import RunConfig
from ccv_pysearch import check_statuses

RUNTIME = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ccv_pyjs_runtime.js")

_JS_RESERVED = set("""break case catch class const continue debugger default delete do else enum
export extends false finally for function if import in instanceof new null return super switch
this throw true try typeof var void while with yield let static implements interface package
private protected public await arguments eval undefined NaN Infinity process console Math Array
Object Number String BigInt Map Set Symbol Error JSON DataView ArrayBuffer RangeError globalThis
require module exports""".split())

_BINOPS = {ast.Add: "$add", ast.Sub: "$sub", ast.Mult: "$mul", ast.Div: "$truediv",
           ast.FloorDiv: "$floordiv", ast.Mod: "$mod", ast.Pow: "$pow", ast.LShift: "$lshift",
           ast.RShift: "$rshift", ast.BitOr: "$bitor", ast.BitXor: "$bitxor",
           ast.BitAnd: "$bitand"}
_CMPOPS = {ast.Eq: "$eq", ast.NotEq: "$ne", ast.Lt: "$lt", ast.LtE: "$le", ast.Gt: "$gt",
           ast.GtE: "$ge", ast.Is: "$is", ast.IsNot: "((a, b) => !$is(a, b))",
           ast.In: "((a, b) => $contains(b, a))", ast.NotIn: "((a, b) => !$contains(b, a))"}
_BUILTINS = {"len", "abs", "int", "float", "str", "repr", "bool", "list", "tuple", "dict", "set",
             "range", "sum", "min", "max", "any", "all", "sorted", "reversed", "enumerate", "zip",
             "round", "divmod", "pow", "chr", "ord", "print"}
_BUILTIN_KW = {"print": {"sep", "end"}, "sorted": {"key", "reverse"}, "min": {"key", "default"},
               "max": {"key", "default"}, "enumerate": {"start"}, "int": {"base"}}
_METHODS = {"upper", "lower", "strip", "lstrip", "rstrip", "split", "splitlines", "join",
            "startswith", "endswith", "replace", "find", "rfind", "index", "count", "isdigit",
            "isnumeric", "isdecimal", "isalpha", "isalnum", "isspace", "isupper", "islower",
            "capitalize", "title", "zfill", "ljust", "rjust", "center", "append", "extend", "pop",
            "insert", "remove", "sort", "reverse", "copy", "clear", "get", "keys", "values",
            "items", "setdefault", "update", "add", "discard", "union", "intersection",
            "difference", "symmetric_difference", "issubset"}
_METHOD_KW = {"sort": {"key", "reverse"}, "split": {"sep", "maxsplit"}}
_MATH = {"pi", "e", "inf", "nan", "tau", "sqrt", "floor", "ceil", "trunc", "fabs", "exp", "log",
         "asin", "acos", "sinh", "cosh", "tanh",
         "log2", "log10", "sin", "cos", "tan", "atan", "atan2", "hypot", "gcd", "factorial",
         "isqrt", "isclose", "isfinite", "isinf", "isnan"}
_EXCEPTIONS = {"Exception", "BaseException", "ValueError", "TypeError", "KeyError", "IndexError",
               "ZeroDivisionError", "ArithmeticError", "LookupError", "AssertionError",
               "RuntimeError", "NotImplementedError", "AttributeError", "RecursionError",
               "OverflowError", "StopIteration"}


class Unsupported(Exception):
    def __init__(self, node, what):
        super().__init__(what)
        self.line = getattr(node, "lineno", None)
        self.col = getattr(node, "col_offset", None)
        self.what = what


def js_name(n):
    return n + "$" if n in _JS_RESERVED else n


def _bound_names(body):
    """Names a function or module body binds (Python's rule for locals),
    not descending into nested scopes; plus its global/nonlocal names."""
    bound, declared = [], set()

    def add(n):
        if n not in bound:
            bound.append(n)

    def visit(node):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            add(node.name)
            return
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
                             ast.GeneratorExp)):
            return
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            add(node.id)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                add((a.asname or a.name).split(".")[0])
        for c in ast.iter_child_nodes(node):
            visit(c)
    for st in body:
        visit(st)
    return [n for n in bound if n not in declared], declared


class Scope:
    def __init__(self, parent, names, kind):
        self.parent = parent
        self.names = set(names)
        self.kind = kind

    def defines(self, n):
        s = self
        while s is not None:
            if n in s.names:
                return True
            s = s.parent
        return False


class Translator:
    def __init__(self):
        self.out = []
        self.depth = 0
        self.tmp = 0
        self.funcs = {}        # module-level def name -> ast.arguments
        self.modules = set()   # names bound to the math module
        self.scope = None
        self.except_vars = []

    # ---- output ---------------------------------------------------------------
    def emit(self, line):
        self.out.append("  " * self.depth + line)

    def fresh(self):
        self.tmp += 1
        return "$t%d" % self.tmp

    # ---- module -----------------------------------------------------------------
    def module(self, tree):
        names, _ = _bound_names(tree.body)
        defs = [st.name for st in tree.body if isinstance(st, ast.FunctionDef)]
        for st in ast.walk(tree):
            if isinstance(st, ast.ClassDef):
                raise Unsupported(st, "class definitions")
        dup = {n for n in defs if defs.count(n) > 1}
        if dup:
            node = [st for st in tree.body if isinstance(st, ast.FunctionDef) and st.name in dup][1]
            raise Unsupported(node, "a function defined twice ('%s')" % node.name)
        for st in tree.body:
            if isinstance(st, ast.FunctionDef):
                self.funcs[st.name] = st.args
        self.scope = Scope(None, names, "module")
        plain = [js_name(n) for n in names if n not in defs]
        if plain:
            self.emit("let %s;" % ", ".join(plain))
        self.block(tree.body, docstring=True)
        return "\n".join(self.out) + "\n"

    def block(self, body, docstring=False):
        for i, st in enumerate(body):
            if docstring and i == 0 and isinstance(st, ast.Expr) and \
                    isinstance(st.value, ast.Constant) and isinstance(st.value.value, str):
                continue
            self.stmt(st)

    # ---- statements ---------------------------------------------------------------
    def stmt(self, st):
        f = getattr(self, "s_" + type(st).__name__, None)
        if f is None:
            raise Unsupported(st, "the statement '%s'" % type(st).__name__)
        f(st)

    def s_FunctionDef(self, st):
        if st.decorator_list:
            raise Unsupported(st, "decorators")
        a = st.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            raise Unsupported(st, "*args, **kwargs and keyword-only parameters")
        params = [p.arg for p in a.args]
        defaults = [None] * (len(params) - len(a.defaults)) + list(a.defaults)
        parts = []
        for p, d in zip(params, defaults):
            if d is None:
                parts.append(js_name(p))
            else:
                if not _constant(d):
                    raise Unsupported(d, "a default value that is not a constant")
                parts.append("%s = %s" % (js_name(p), self.expr(d)))
        local, _ = _bound_names(st.body)
        local = [n for n in local if n not in params]
        outer = self.scope
        self.scope = Scope(outer, set(local) | set(params), "function")
        # A module-level def is a function declaration (a top-level name of
        # the script); anywhere else the def binds its name when it runs, as
        # in Python: an assignment of a function expression.
        declared = outer.kind == "module" and self.depth == 0
        head = "function %s(%s) {" % (js_name(st.name), ", ".join(parts))
        self.emit(head if declared else "%s = %s" % (js_name(st.name), head))
        self.depth += 1
        if local:
            self.emit("let %s;" % ", ".join(js_name(n) for n in local))
        self.block(st.body, docstring=True)
        self.emit("return null;")
        self.depth -= 1
        self.emit("}" if declared else "};")
        self.scope = outer

    def s_Return(self, st):
        self.emit("return %s;" % (self.expr(st.value) if st.value is not None else "null"))

    def s_Pass(self, st):
        self.emit(";")

    def s_Break(self, st):
        self.emit("break;")

    def s_Continue(self, st):
        self.emit("continue;")

    def s_Global(self, st):
        pass

    def s_Nonlocal(self, st):
        pass

    def s_Expr(self, st):
        self.emit(self.expr(st.value) + ";")

    def s_Assign(self, st):
        v = self.expr(st.value)
        if len(st.targets) == 1:
            self.assign(st.targets[0], v)
            return
        t = self.fresh()
        self.emit("{ const %s = %s;" % (t, v))
        self.depth += 1
        for tg in st.targets:
            self.assign(tg, t)
        self.depth -= 1
        self.emit("}")

    def s_AnnAssign(self, st):
        if st.value is not None:
            self.assign(st.target, self.expr(st.value))

    def s_AugAssign(self, st):
        fn = "$iadd" if isinstance(st.op, ast.Add) else _BINOPS.get(type(st.op))
        if fn is None:
            raise Unsupported(st, "the operator %s" % type(st.op).__name__)
        v = self.expr(st.value)
        tg = st.target
        if isinstance(tg, ast.Name):
            n = self.name_store(tg)
            self.emit("%s = %s(%s, %s);" % (n, fn, n, v))
        elif isinstance(tg, ast.Subscript) and not isinstance(tg.slice, ast.Slice):
            self.emit("$augitem(%s, %s, %s, () => %s);" % (self.expr(tg.value),
                                                          self.expr(tg.slice), fn, v))
        else:
            raise Unsupported(st, "augmented assignment to this target")

    def assign(self, tg, v):
        if isinstance(tg, ast.Name):
            self.emit("%s = %s;" % (self.name_store(tg), v))
        elif isinstance(tg, (ast.Tuple, ast.List)):
            if any(isinstance(e, ast.Starred) for e in tg.elts):
                raise Unsupported(tg, "starred assignment")
            t = self.fresh()
            self.emit("{ const %s = $unpack(%s, %d);" % (t, v, len(tg.elts)))
            self.depth += 1
            for i, e in enumerate(tg.elts):
                self.assign(e, "%s[%d]" % (t, i))
            self.depth -= 1
            self.emit("}")
        elif isinstance(tg, ast.Subscript) and not isinstance(tg.slice, ast.Slice):
            t = self.fresh()
            self.emit("{ const %s = %s; $setitem(%s, %s, %s); }" % (
                t, v, self.expr(tg.value), self.expr(tg.slice), t))
        else:
            raise Unsupported(tg, "assignment to %s" % type(tg).__name__)

    def s_Delete(self, st):
        for tg in st.targets:
            if not (isinstance(tg, ast.Subscript) and not isinstance(tg.slice, ast.Slice)):
                raise Unsupported(st, "del of anything but d[k]")
            self.emit("$delitem(%s, %s);" % (self.expr(tg.value), self.expr(tg.slice)))

    def s_If(self, st):
        self.emit("if ($bool(%s)) {" % self.expr(st.test))
        self.body(st.body)
        node = st
        while len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            node = node.orelse[0]
            self.emit("} else if ($bool(%s)) {" % self.expr(node.test))
            self.body(node.body)
        if node.orelse:
            self.emit("} else {")
            self.body(node.orelse)
        self.emit("}")

    def body(self, stmts):
        self.depth += 1
        self.block(stmts)
        self.depth -= 1

    def s_While(self, st):
        if st.orelse:
            raise Unsupported(st, "while ... else")
        self.emit("while ($bool(%s)) {" % self.expr(st.test))
        self.body(st.body)
        self.emit("}")

    def s_For(self, st):
        if st.orelse:
            raise Unsupported(st, "for ... else")
        it = st.iter
        if (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
                and not self.scope.defines("range") and not it.keywords):
            src = "$range(%s)" % ", ".join(self.expr(a) for a in it.args)
        else:
            src = "$iter(%s)" % self.expr(it)
        if isinstance(st.target, ast.Name):
            self.emit("for (%s of %s) {" % (self.name_store(st.target), src))
            self.body(st.body)
        else:
            t = self.fresh()
            self.emit("for (const %s of %s) {" % (t, src))
            self.depth += 1
            self.assign(st.target, t)
            self.block(st.body)
            self.depth -= 1
        self.emit("}")

    def s_Assert(self, st):
        msg = "$str(%s)" % self.expr(st.msg) if st.msg is not None else '""'
        self.emit("if (!$bool(%s)) $raise(\"AssertionError\", %s);" % (self.expr(st.test), msg))

    def s_Raise(self, st):
        if st.cause is not None:
            raise Unsupported(st, "raise ... from")
        if st.exc is None:
            if not self.except_vars:
                raise Unsupported(st, "a bare raise outside except")
            self.emit("throw %s;" % self.except_vars[-1])
            return
        e = st.exc
        if isinstance(e, ast.Name) and e.id in _EXCEPTIONS:
            self.emit('$raise("%s");' % e.id)
        elif isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and \
                e.func.id in _EXCEPTIONS and len(e.args) <= 1 and not e.keywords:
            arg = "$str(%s)" % self.expr(e.args[0]) if e.args else '""'
            self.emit('$raise("%s", %s);' % (e.func.id, arg))
        elif isinstance(e, ast.Name) and self.scope.defines(e.id):  # raise e (a caught one)
            self.emit("throw %s;" % self.name_load(e))
        else:
            raise Unsupported(st, "raising anything but a built-in exception")

    def s_Try(self, st):
        if st.orelse:
            raise Unsupported(st, "try ... else")
        self.emit("try {")
        self.body(st.body)
        if st.handlers:
            ev = self.fresh()
            self.emit("} catch (%s) {" % ev)
            self.depth += 1
            first = True
            for h in st.handlers:
                names = self.exc_names(h)
                self.emit("%sif ($excmatch(%s, %s)) {" % ("" if first else "} else ", ev,
                                                          json.dumps(names)))
                first = False
                self.depth += 1
                if h.name:
                    self.emit("%s = %s;" % (js_name(h.name), ev))
                self.except_vars.append(ev)
                self.block(h.body)
                self.except_vars.pop()
                self.depth -= 1
            self.emit("} else throw %s;" % ev)
            self.depth -= 1
        if st.finalbody:
            self.emit("} finally {")
            self.body(st.finalbody)
        self.emit("}")

    def exc_names(self, h):
        if h.type is None:
            return ["BaseException"]
        elts = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]
        out = []
        for e in elts:
            if not (isinstance(e, ast.Name) and e.id in _EXCEPTIONS):
                raise Unsupported(h, "catching anything but built-in exceptions")
            out.append(e.id)
        return out

    def s_Import(self, st):
        for a in st.names:
            if a.name != "math":
                raise Unsupported(st, "import of '%s' (only math is translated)" % a.name)
            n = a.asname or "math"
            self.modules.add(n)
            self.emit("%s = $math;" % js_name(n))

    def s_ImportFrom(self, st):
        if st.module != "math" or st.level:
            raise Unsupported(st, "import from '%s' (only math is translated)" % st.module)
        for a in st.names:
            if a.name not in _MATH:
                raise Unsupported(st, "math.%s" % a.name)
            self.emit("%s = $math.%s;" % (js_name(a.asname or a.name), a.name))

    # ---- names ------------------------------------------------------------------------
    def name_store(self, n):
        return js_name(n.id)

    def name_load(self, n):
        if self.scope.defines(n.id) or n.id in self.funcs:
            return js_name(n.id)
        if n.id in _BUILTINS:
            return "$B.%s" % n.id
        if n.id == "__name__":
            return "__name__"
        raise Unsupported(n, "the name '%s' (not defined here and not a translated builtin)" % n.id)

    # ---- expressions --------------------------------------------------------------------
    def expr(self, e):
        f = getattr(self, "e_" + type(e).__name__, None)
        if f is None:
            raise Unsupported(e, "the expression '%s'" % type(e).__name__)
        return f(e)

    def e_Constant(self, e):
        v = e.value
        if v is None:
            return "null"
        if v is True or v is False:
            return "true" if v else "false"
        if isinstance(v, int):
            return "%dn" % v
        if isinstance(v, float):
            if v != v:
                return "NaN"
            if v in (float("inf"), float("-inf")):
                return "Infinity" if v > 0 else "-Infinity"
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v)
        raise Unsupported(e, "a %s constant" % type(v).__name__)

    def e_Name(self, e):
        return self.name_load(e)

    def e_BinOp(self, e):
        fn = _BINOPS.get(type(e.op))
        if fn is None:
            raise Unsupported(e, "the operator %s" % type(e.op).__name__)
        if isinstance(e.op, ast.Mod) and (isinstance(e.left, ast.JoinedStr) or (
                isinstance(e.left, ast.Constant) and isinstance(e.left.value, str))):
            raise Unsupported(e, "%-formatting of strings")
        return "%s(%s, %s)" % (fn, self.expr(e.left), self.expr(e.right))

    def e_UnaryOp(self, e):
        v = self.expr(e.operand)
        if isinstance(e.op, ast.Not):
            return "!$bool(%s)" % v
        if isinstance(e.op, ast.USub):
            if isinstance(e.operand, ast.Constant) and type(e.operand.value) in (int, float):
                return "(-%s)" % v
            return "$neg(%s)" % v
        if isinstance(e.op, ast.UAdd):
            return "$pos(%s)" % v
        return "$invert(%s)" % v

    def e_BoolOp(self, e):
        fn = "$and" if isinstance(e.op, ast.And) else "$or"
        acc = self.expr(e.values[-1])
        for v in reversed(e.values[:-1]):
            acc = "%s(%s, () => %s)" % (fn, self.expr(v), acc)
        return acc

    def e_Compare(self, e):
        if len(e.ops) == 1:
            fn = _CMPOPS[type(e.ops[0])]
            return "%s(%s, %s)" % (fn, self.expr(e.left), self.expr(e.comparators[0]))
        rest = ", ".join("[%s, () => %s]" % (_CMPOPS[type(op)], self.expr(c))
                         for op, c in zip(e.ops, e.comparators))
        return "$chain(%s, [%s])" % (self.expr(e.left), rest)

    def e_IfExp(self, e):
        return "($bool(%s) ? %s : %s)" % (self.expr(e.test), self.expr(e.body),
                                          self.expr(e.orelse))

    def e_List(self, e):
        return "[%s]" % ", ".join(self.elts(e.elts))

    def e_Tuple(self, e):
        return "$T(%s)" % ", ".join(self.elts(e.elts))

    def e_Set(self, e):
        return "$set([%s])" % ", ".join(self.elts(e.elts))

    def e_Dict(self, e):
        if any(k is None for k in e.keys):
            raise Unsupported(e, "** in a dict display")
        return "$dict([%s])" % ", ".join("[%s, %s]" % (self.expr(k), self.expr(v))
                                         for k, v in zip(e.keys, e.values))

    def elts(self, elts):
        if any(isinstance(x, ast.Starred) for x in elts):
            raise Unsupported(elts[0], "* unpacking in a display")
        return [self.expr(x) for x in elts]

    def e_Subscript(self, e):
        if isinstance(e.slice, ast.Slice):
            s = e.slice
            parts = [self.expr(p) if p is not None else "null" for p in (s.lower, s.upper, s.step)]
            return "$slice(%s, %s)" % (self.expr(e.value), ", ".join(parts))
        return "$getitem(%s, %s)" % (self.expr(e.value), self.expr(e.slice))

    def e_Attribute(self, e):
        if isinstance(e.value, ast.Name) and e.value.id in self.modules:
            if e.attr not in _MATH:
                raise Unsupported(e, "math.%s" % e.attr)
            return "%s.%s" % (js_name(e.value.id), e.attr)
        raise Unsupported(e, "attribute access (.%s) outside a method call" % e.attr)

    def e_JoinedStr(self, e):
        parts = []
        for v in e.values:
            if isinstance(v, ast.Constant):
                parts.append(json.dumps(v.value))
                continue
            x = self.expr(v.value)
            if v.conversion == ord("r"):
                x = "$repr(%s)" % x
            elif v.conversion == ord("a"):
                raise Unsupported(v, "the !a conversion")
            if v.format_spec is not None:
                spec = v.format_spec
                if not all(isinstance(p, ast.Constant) for p in spec.values):
                    raise Unsupported(v, "a computed format spec")
                parts.append("$format(%s, %s)" % (x, json.dumps("".join(p.value for p in spec.values))))
            else:
                parts.append("$str(%s)" % x)
        return "(%s)" % (" + ".join(parts) if parts else '""')

    def e_Lambda(self, e):
        a = e.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults:
            raise Unsupported(e, "lambda with anything but plain parameters")
        params = [p.arg for p in a.args]
        outer = self.scope
        self.scope = Scope(outer, params, "function")
        body = self.expr(e.body)
        self.scope = outer
        return "((%s) => %s)" % (", ".join(js_name(p) for p in params), body)

    def e_Call(self, e):
        if any(isinstance(a, ast.Starred) for a in e.args) or any(k.arg is None for k in e.keywords):
            raise Unsupported(e, "* or ** arguments")
        args = [self.expr(a) for a in e.args]
        kws = {k.arg: self.expr(k.value) for k in e.keywords}
        f = e.func
        if isinstance(f, ast.Name):
            return self.call_name(e, f, args, kws)
        if isinstance(f, ast.Attribute):
            if isinstance(f.value, ast.Name) and f.value.id in self.modules:
                if kws:
                    raise Unsupported(e, "keyword arguments to math functions")
                return "%s(%s)" % (self.e_Attribute(f), ", ".join(args))
            if f.attr not in _METHODS:
                raise Unsupported(e, "the method .%s()" % f.attr)
            obj = self.expr(f.value)
            if kws:
                if set(kws) - _METHOD_KW.get(f.attr, set()):
                    raise Unsupported(e, "keyword arguments to .%s()" % f.attr)
                return "$m(%s, %s, [%s], {%s})" % (obj, json.dumps(f.attr), ", ".join(args),
                                                  ", ".join("%s: %s" % (k, v) for k, v in kws.items()))
            return "$m(%s, %s, [%s])" % (obj, json.dumps(f.attr), ", ".join(args))
        if kws:
            raise Unsupported(e, "keyword arguments here")
        return "(%s)(%s)" % (self.expr(f), ", ".join(args))

    def call_name(self, e, f, args, kws):
        n = f.id
        if self.scope.defines(n) or n in self.funcs:
            if kws:
                sig = self.funcs.get(n)
                if sig is None or self.scope.defines(n) and self.scope.kind != "module" and \
                        n not in self.funcs:
                    raise Unsupported(e, "keyword arguments to '%s'" % n)
                params = [p.arg for p in sig.args]
                if set(kws) - set(params):
                    raise Unsupported(e, "keyword arguments '%s' does not take" % n)
                full = list(args) + ["undefined"] * (len(params) - len(args))
                for k, v in kws.items():
                    full[params.index(k)] = v
                while full and full[-1] == "undefined":
                    full.pop()
                args = full
            return "%s(%s)" % (js_name(n), ", ".join(args))
        if n in _EXCEPTIONS:
            raise Unsupported(e, "exception objects outside raise")
        if n not in _BUILTINS:
            raise Unsupported(e, "the function '%s' (not defined here and not a translated "
                                 "builtin)" % n)
        if kws:
            if set(kws) - _BUILTIN_KW.get(n, set()):
                raise Unsupported(e, "keyword arguments to %s()" % n)
            return "$BKW.%s([%s], {%s})" % (n, ", ".join(args),
                                            ", ".join("%s: %s" % (k, v) for k, v in kws.items()))
        return "$B.%s(%s)" % (n, ", ".join(args))

    def comprehension(self, e, init, add, result):
        outer = self.scope
        names = set()
        for g in e.generators:
            if g.is_async:
                raise Unsupported(e, "async comprehensions")
            for n in ast.walk(g.target):
                if isinstance(n, ast.Name):
                    names.add(n.id)
        lines = ["(() => { const $r = %s;" % init]
        if names:
            lines.append("let %s;" % ", ".join(js_name(n) for n in sorted(names)))
        first_iter = self.expr(e.generators[0].iter)
        self.scope = Scope(outer, names, "function")
        closes = 0
        for i, g in enumerate(e.generators):
            it = first_iter if i == 0 else self.expr(g.iter)
            t = self.fresh()
            lines.append("for (const %s of $iter(%s)) {" % (t, it))
            closes += 1
            saved, self.out, depth = self.out, [], self.depth
            self.depth = 0
            self.assign(g.target, t)
            lines += self.out
            self.out, self.depth = saved, depth
            for cond in g.ifs:
                lines.append("if (!$bool(%s)) continue;" % self.expr(cond))
        lines.append(add + ";")
        lines.append("}" * closes)
        lines.append("return %s; })()" % result)
        self.scope = outer
        return " ".join(lines)

    def e_ListComp(self, e):
        return self._comp(e, "[]", lambda: "$r.push(%s)" % self.expr(e.elt), "$r")

    def e_GeneratorExp(self, e):
        return self.e_ListComp(e)

    def e_SetComp(self, e):
        return self._comp(e, "new $Set()", lambda: "$r.add(%s)" % self.expr(e.elt), "$r")

    def e_DictComp(self, e):
        return self._comp(e, "new $Dict()",
                          lambda: "$r.set(%s, %s)" % (self.expr(e.key), self.expr(e.value)), "$r")

    def _comp(self, e, init, add_fn, result):
        # the element is translated inside the comprehension's scope
        outer = self.scope
        names = set()
        for g in e.generators:
            for n in ast.walk(g.target):
                if isinstance(n, ast.Name):
                    names.add(n.id)
        self.scope = Scope(outer, names, "function")
        try:
            add = add_fn()
        finally:
            self.scope = outer
        return self.comprehension(e, init, add, result)


def _constant(d):
    if isinstance(d, ast.Constant):
        return True
    return isinstance(d, ast.UnaryOp) and isinstance(d.op, ast.USub) and \
        isinstance(d.operand, ast.Constant)


def runtime():
    with open(RUNTIME, encoding="utf-8") as f:
        text = f.read()
    return text.replace("let $out = null;", "let $out = globalThis.$ccvCapture || null;")


def translate(code):
    """(javascript, None) or (None, Unsupported)."""
    tree = ast.parse(code)
    t = Translator()
    try:
        body = t.module(tree)
    except Unsupported as u:
        return None, u, None
    except RecursionError:
        return None, Unsupported(tree, "code nested too deeply to translate"), None
    return runtime() + body, None, t


# ---- the proof -----------------------------------------------------------------------

def _harness(t, examples):
    """JavaScript that runs every example after the program and prints one
    JSON line: the program's own stdout and one record per example."""
    lines = [";(() => {", "const $mod = $out.join(''); const $res = [];",
             "function $run(f) { $out.length = 0; try { const v = f(); "
             "return { ok: true, v: v === true, out: $out.join('') }; } catch (e) { "
             "return { ok: false, err: e instanceof $PyError ? e.pytype + ': ' + e.message : "
             "'JavaScript ' + String(e), out: $out.join('') }; } }"]
    ex_names = set()
    bodies = []
    for ex in examples:
        tree = ast.parse(ex.source, mode="exec")
        names, _ = _bound_names(tree.body)
        ex_names.update(names)
        bodies.append((ex, tree))
    t.scope = Scope(t.scope, ex_names, "function")
    if ex_names:
        lines.append("let %s;" % ", ".join(js_name(n) for n in sorted(ex_names)))
    for ex, tree in bodies:
        if ex.kind == "assert":
            lines.append("$res.push($run(() => $bool(%s)));" % t.expr(tree.body[0].test))
            continue
        body = tree.body
        t.out, t.depth = [], 0
        if ex.kind == "doctest" and len(body) == 1 and isinstance(body[0], ast.Expr):
            v = t.expr(body[0].value)
            t.emit("const $v = %s; if ($v !== null && $v !== undefined) $out.push($repr($v) + '\\n');" % v)
        else:
            t.block(body)
        lines.append("$res.push($run(() => { %s\nreturn true; }));" % "\n".join(t.out))
    lines.append("process.stdout.write(JSON.stringify({ module_out: $mod, results: $res }));")
    lines.append("})();")
    return "\n".join(lines) + "\n"


def _judge(ex, r):
    """Does the JavaScript outcome r satisfy the example? (ok, why)"""
    if ex.kind in ("setup", "block"):
        return (True, None) if r.get("ok") else (False, r.get("err"))
    if ex.kind == "assert":
        if not r.get("ok"):
            return False, "raised " + str(r.get("err"))
        return (True, None) if r.get("v") else (False, "the assertion is false")
    import doctest
    checker = doctest.OutputChecker()
    if not r.get("ok"):
        got = str(r.get("err")) + "\n"
        if ex.exc_msg is not None and checker.check_output(ex.exc_msg, got, ex.flags):
            return True, None
        return False, "raised " + str(r.get("err"))
    if ex.exc_msg is None and checker.check_output(ex.want, r.get("out", ""), ex.flags):
        return True, None
    return False, "printed %r, expected %r" % (clip(r.get("out", ""), 80), clip(ex.want or "", 80))


def _run_node(script, deadline):
    import subprocess  # (it imports threading, which slows every later fork)
    path = "/tmp/ccv-scratch/transpile_check.js"
    with open(path, "w", encoding="utf-8") as f:
        f.write(script)
    try:
        p = subprocess.run(["node", path], stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=max(1.0, deadline - time.monotonic()), cwd="/tmp/ccv-scratch")
    except subprocess.TimeoutExpired:
        return None, "node did not finish in time (the copy may loop forever)"
    except OSError as e:
        return None, "node could not be started: %s" % e
    try:
        return json.loads(p.stdout.decode("utf-8", "replace").strip().splitlines()[-1]), None
    except (ValueError, IndexError):
        return None, "node failed: %s" % clip(p.stderr.decode("utf-8", "replace").strip(), 400)


def transpile_and_prove(code, examples, mode, expected, deadline, diags, pool=None,
                        timeout_s=2.0):
    """{"transpiled_code": text or None}; diagnostics go to diags."""
    js, unsupported, t = translate(code)
    if unsupported is not None:
        src = Source(code)
        col = src.char_col(unsupported.line, unsupported.col) + 1 \
            if unsupported.line and unsupported.col is not None else None
        diags.append(diag("transpile:unsupported", "line %s: %s is outside the translated "
                          "subset" % (unsupported.line, unsupported.what), "warning",
                          unsupported.line, col))
        return {"transpiled_code": None}

    def unverified(why, **extra):
        diags.append(diag("transpile:unverified", "the JavaScript copy is not returned: " + why,
                          "warning", None, None, **extra))
        return {"transpiled_code": None}
    if mode != "execute":
        return unverified("a copy is only returned when its examples pass under node, and %s "
                          "mode runs nothing; use mode execute with examples" % mode)
    checks = [e for e in examples if e.is_check]
    if not checks and expected is None:
        return unverified("there are no examples (or expected output) to prove it with")
    res = pool.run([code], RunConfig(timeout_s, timeout_s, capture=True),
                   time.monotonic() + 60)[0]
    if not all(s == "pass" for s in check_statuses(res, examples, expected)):
        return unverified("the Python code does not pass its own examples, so there is "
                          "nothing to prove the copy against")
    try:
        harness = _harness(t, examples)
    except Unsupported as u:
        return unverified("an example uses %s, which is not translated" % u.what)
    except RecursionError:
        return unverified("an example is nested too deeply to translate")
    out, err = _run_node("globalThis.$ccvCapture = [];\n" + js + harness, deadline)
    if out is None:
        return unverified(err)
    results = out.get("results") or []
    for ex, r in zip(examples, results):
        ok, why = _judge(ex, r)
        if not ok:
            return unverified("it fails `%s`: %s" % (clip(ex.source, 120), why),
                              expression=clip(ex.source, 500))
    if len(results) != len(examples):
        return unverified("node did not report every example")
    if expected is not None and out.get("module_out") != expected:
        return unverified("its output differs from options.expected_output")
    return {"transpiled_code": js, "transpile": {"proved_examples": len(checks) + (
        expected is not None), "target": "javascript"}}
