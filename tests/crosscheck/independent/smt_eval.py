"""A small SMT-LIB2 evaluator: checks that a model z3_check returned really
satisfies the script's assertions, without asking z3 (Int, Real, Bool,
fixed-size BitVec, a few String functions, uninterpreted functions given as
tables). Quantified scripts are not evaluated (None)."""
import re
from fractions import Fraction


class Unsupported(Exception):
    pass


def tokens(text):
    text = re.sub(r";[^\n]*", "", text)
    return re.findall(r'\(|\)|"(?:[^"]|"")*"|\|[^|]*\||[^\s()]+', text)


def sexprs(text):
    toks = tokens(text)
    pos = 0

    def one():
        nonlocal pos
        t = toks[pos]
        pos += 1
        if t == "(":
            out = []
            while toks[pos] != ")":
                out.append(one())
            pos += 1
            return out
        return t

    out = []
    while pos < len(toks):
        out.append(one())
    return out


class BV:
    def __init__(self, v, w):
        self.w = w
        self.v = v % (1 << w)

    def s(self):
        return self.v - (1 << self.w) if self.v >> (self.w - 1) else self.v

    def __eq__(self, o):
        return isinstance(o, BV) and o.w == self.w and o.v == self.v

    def __hash__(self):
        return hash((self.v, self.w))


def literal(t, sort=None):
    if t in ("true", "false"):
        return t == "true"
    if t.startswith("#x"):
        return BV(int(t[2:], 16), 4 * (len(t) - 2))
    if t.startswith("#b"):
        return BV(int(t[2:], 2), len(t) - 2)
    if t.startswith('"'):
        return t[1:-1].replace('""', '"')
    if re.fullmatch(r"-?\d+(\.\d+)?(/\d+)?", t):
        return Fraction(t)
    raise KeyError(t)


def model_value(text, sort):
    """A value as z3_check prints it: '6', '-3', '1/2', '(- 3)', '#xff',
    'true', a decimal approximation ending in '?', '[1 -> 2, else -> 0]'."""
    t = text.strip()
    if t.startswith("["):
        table, default = {}, None
        for part in t[1:-1].split(","):
            k, _, v = part.partition("->")
            k, v = k.strip(), v.strip()
            if k == "else":
                default = model_value(v, None)
            else:
                table[model_value(k, None)] = model_value(v, None)
        return ("fun", table, default)
    if t.endswith("?"):
        return ("approx", Fraction(t[:-1]))
    if t.startswith("(") and not t.startswith("(root-obj"):
        return evaluate(sexprs(t)[0], {}, {})
    if t.startswith("(root-obj"):
        raise Unsupported("root-obj")
    if t.startswith("#x") or t.startswith("#b") or t in ("true", "false") or t.startswith('"'):
        return literal(t)
    if isinstance(sort, list) and sort[:2] == ["_", "BitVec"] and re.fullmatch(r"\d+", t):
        return BV(int(t), int(sort[2]))  # a bit-vector's value printed as its unsigned number
    return Fraction(t)


def _num(v):
    if isinstance(v, tuple) and v[0] == "approx":
        return v[1]
    return v


def evaluate(e, env, funs):
    if isinstance(e, str):
        if e in env:
            return env[e]
        return literal(e)
    head = e[0]
    if head == "!":
        return evaluate(e[1], env, funs)
    if isinstance(head, list) and head[0] == "_":
        return indexed(head, evaluate(e[1], env, funs))
    if head == "_":
        m = re.fullmatch(r"bv(\d+)", e[1])
        if m:
            return BV(int(m.group(1)), int(e[2]))
        raise Unsupported(str(e))
    if head in ("forall", "exists"):
        raise Unsupported("quantifier")
    if head == "let":
        env2 = dict(env)
        for name, val in e[1]:
            env2[name] = evaluate(val, env, funs)
        return evaluate(e[2], env2, funs)
    args = [evaluate(a, env, funs) for a in e[1:]]
    if head in funs:
        table, default = funs[head]
        key = args[0] if len(args) == 1 else tuple(args)
        return table.get(key, default)
    approx = any(isinstance(a, tuple) and a[0] == "approx" for a in args)
    args = [_num(a) for a in args]
    r = apply(head, args)
    return ("approx", r) if approx else r


def apply(h, a):
    if h == "and":
        return all(a)
    if h == "or":
        return any(a)
    if h == "not":
        return not a[0]
    if h == "=>":
        return (not a[0]) or a[1]
    if h == "xor":
        return a[0] != a[1]
    if h == "ite":
        return a[1] if a[0] else a[2]
    if h == "=":
        return all(x == a[0] for x in a[1:])
    if h == "distinct":
        return len(set(a)) == len(a)
    if isinstance(a[0], BV) if a else False:
        return bvop(h, a)
    if h == "+":
        return sum(a, Fraction(0))
    if h == "-":
        return -a[0] if len(a) == 1 else a[0] - sum(a[1:], Fraction(0))
    if h == "*":
        r = Fraction(1)
        for x in a:
            r *= x
        return r
    if h == "/":
        return a[0] / a[1]
    if h == "div":  # Euclidean: remainder non-negative
        q = a[0] // a[1] if a[1] > 0 else -(a[0] // -a[1])
        return Fraction(q)
    if h == "mod":
        return a[0] - a[1] * apply("div", a)
    if h == "abs":
        return abs(a[0])
    if h in ("<", "<=", ">", ">="):
        ops = {"<": lambda x, y: x < y, "<=": lambda x, y: x <= y, ">": lambda x, y: x > y,
               ">=": lambda x, y: x >= y}
        return all(ops[h](a[i], a[i + 1]) for i in range(len(a) - 1))
    if h == "str.len":
        return Fraction(len(a[0]))
    if h == "str.prefixof":
        return a[1].startswith(a[0])
    if h == "str.++":
        return "".join(a)
    if h == "to_real":
        return a[0]
    raise Unsupported(h)


def indexed(head, x):
    """((_ extract hi lo) x), ((_ zero_extend k) x), ((_ sign_extend k) x),
    ((_ rotate_left k) x), ((_ rotate_right k) x)."""
    name, ks = head[1], [int(k) for k in head[2:]]
    if not isinstance(x, BV):
        raise Unsupported(name)
    if name == "extract":
        hi, lo = ks
        return BV(x.v >> lo, hi - lo + 1)
    if name == "zero_extend":
        return BV(x.v, x.w + ks[0])
    if name == "sign_extend":
        return BV(x.s(), x.w + ks[0])
    if name in ("rotate_left", "rotate_right"):
        k = ks[0] % x.w if name == "rotate_left" else (x.w - ks[0] % x.w) % x.w
        return BV((x.v << k) | (x.v >> (x.w - k)), x.w)
    raise Unsupported(name)


def bvop(h, a):
    w = a[0].w
    m = 1 << w
    u = [x.v for x in a]
    s = [x.s() for x in a]
    if h == "bvadd":
        return BV(sum(u), w)
    if h == "bvsub":
        return BV(u[0] - u[1], w)
    if h == "bvmul":
        return BV(u[0] * u[1], w)
    if h == "bvneg":
        return BV(-u[0], w)
    if h == "bvand":
        return BV(u[0] & u[1], w)
    if h == "bvor":
        return BV(u[0] | u[1], w)
    if h == "bvxor":
        return BV(u[0] ^ u[1], w)
    if h == "bvnot":
        return BV(~u[0], w)
    if h == "bvshl":
        return BV(u[0] << u[1] if u[1] < w else 0, w)
    if h == "bvlshr":
        return BV(u[0] >> u[1], w)
    if h == "bvudiv":
        return BV(u[0] // u[1] if u[1] else m - 1, w)
    if h == "bvurem":
        return BV(u[0] % u[1] if u[1] else u[0], w)
    if h == "bvsdiv":
        if s[1] == 0:
            return BV(1 if s[0] < 0 else -1, w)
        q = abs(s[0]) // abs(s[1])
        return BV(q if (s[0] < 0) == (s[1] < 0) else -q, w)
    if h == "bvsrem":  # the sign of the dividend; x when the divisor is 0
        if s[1] == 0:
            return BV(u[0], w)
        r = abs(s[0]) % abs(s[1])
        return BV(-r if s[0] < 0 else r, w)
    if h == "bvsmod":  # the sign of the divisor; x when the divisor is 0
        if s[1] == 0:
            return BV(u[0], w)
        return BV(s[0] - s[1] * (s[0] // s[1]), w)
    if h == "bvashr":
        return BV(s[0] >> min(u[1], w), w)
    if h == "concat":
        v, width = 0, 0
        for x in a:
            v, width = (v << x.w) | x.v, width + x.w
        return BV(v, width)
    cmp = {"bvult": u[0] < u[1], "bvule": u[0] <= u[1], "bvugt": u[0] > u[1], "bvuge": u[0] >= u[1],
           "bvslt": s[0] < s[1], "bvsle": s[0] <= s[1], "bvsgt": s[0] > s[1], "bvsge": s[0] >= s[1]}
    if h in cmp:
        return cmp[h]
    raise Unsupported(h)


def default_value(sort):
    if sort in ("Int", "Real"):
        return Fraction(0)
    if sort == "Bool":
        return False
    if isinstance(sort, list) and sort[:2] == ["_", "BitVec"]:
        return BV(0, int(sort[2]))
    return None


def check_model(script, model):
    """True/False: the model satisfies every live assertion; None when the
    script uses something this evaluator does not cover."""
    try:
        stack = [[]]
        decls = {}
        for cmd in sexprs(script):
            if not isinstance(cmd, list):
                continue
            h = cmd[0]
            if h == "declare-const":
                decls[cmd[1]] = cmd[2]
            elif h == "declare-fun":
                decls[cmd[1]] = ("fun", cmd[2], cmd[3]) if cmd[2] else cmd[3]
            elif h == "assert":
                stack[-1].append(cmd[1])
            elif h == "push":
                stack.extend([] for _ in range(int(cmd[1]) if len(cmd) > 1 else 1))
            elif h == "pop":
                del stack[len(stack) - (int(cmd[1]) if len(cmd) > 1 else 1):]
        env, funs = {}, {}
        for name, sort in decls.items():
            if name not in model:
                # z3 leaves out a name the assertions do not depend on (once
                # simplified): any value must do, so the sort's zero is used.
                zero = default_value(sort)
                if zero is None:
                    return None
                env[name] = zero
                continue
            v = model_value(model[name], sort)
            if isinstance(v, tuple) and v[0] == "fun":
                funs[name] = (v[1], v[2])
            else:
                env[name] = v
        for frame in stack:
            for t in frame:
                r = evaluate(t, env, funs)
                if isinstance(r, tuple) and r[0] == "approx":
                    continue
                if r is not True:
                    return False
        return True
    except (Unsupported, KeyError, IndexError, ValueError, ZeroDivisionError):
        return None
