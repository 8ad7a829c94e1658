#!/usr/bin/env python3
"""Builds generated-redsym17.json (ids rs17-): truth_table on formulas built
as trees and printed with as few parentheses as TOOLS.md 3.3.23's
precedence allows, and matrix on matrices built with a known structure.
Every expectation comes from the tree (evaluated directly, never parsed
back) or from SymPy's exact arithmetic, none picked by looking at
codecalc's answer.

Classes (cat prefix rs17/):
  ttprec   random formula trees over and, or, xor, implies, iff, not, true
           and false, printed with the fewest parentheses the precedence
           (iff < implies < xor < or < and < not, implies right-associative,
           the others left) needs, now and then with redundant ones and
           upper-case spellings of the variables: every row's result, the
           variables (lower-cased, sorted), satisfiable and tautology
  matrank  integer matrices up to 7x7 built as a product of a random
           r-column and r-row factor (rank r by construction, confirmed by
           SymPy): rank, and det (0 when r < n), also for non-square shapes
  matbig   integer matrices up to 6x6 with entries past 2**64: det and
           trace (exact), inverse of a unimodular one (integer entries)
  mattri   triangular matrices with repeated diagonal entries, conjugated
           by a unimodular matrix: eigenvalues with their algebraic
           multiplicities
  matsym   2x2 and 3x3 matrices of polynomials in x and y: det and inverse
           against SymPy, compared as expressions

Usage: python3 make_generated_redsym17.py [--seed N] [--out NAME]
The default seed (20261207) builds the corpus `make check` runs
(report-only); another seed builds a fresh batch.
"""
import itertools
import os
import sys

import sympy as sp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_corpus as mc  # noqa: E402  (the helpers; its own cases are dropped)
from make_corpus import case, chk  # noqa: E402
from oracle import start_generator, run_generator  # noqa: E402
from oracle import show as s  # noqa: E402

start_generator(mc)

# ---- truth tables ------------------------------------------------------------------------------

# binding strength (higher binds tighter) and associativity
PREC = {"iff": 1, "implies": 2, "xor": 3, "or": 4, "and": 5}
RIGHT = {"implies"}
FN = {"iff": lambda a, b: a == b, "implies": lambda a, b: (not a) or b, "xor": lambda a, b: a != b,
      "or": lambda a, b: a or b, "and": lambda a, b: a and b}
NAMES = ["a", "b", "c", "p", "q", "r", "x1", "x_2", "flag", "ok"]


def tree(R, vs, depth, top=False):
    if depth == 0 or (not top and R.random() < 0.2):
        if R.random() < 0.08:
            return ("const", R.choice([True, False]))
        return ("var", R.choice(vs))
    if not top and R.random() < 0.18:
        return ("not", tree(R, vs, depth - 1))
    return (R.choice(list(PREC)), tree(R, vs, depth - 1), tree(R, vs, depth - 1))


def value(t, env):
    if t[0] == "const":
        return t[1]
    if t[0] == "var":
        return env[t[1]]
    if t[0] == "not":
        return not value(t[1], env)
    return FN[t[0]](value(t[1], env), value(t[2], env))


def prec(t):
    return PREC.get(t[0], 6 if t[0] == "not" else 7)


def show(R, t, need, upper):
    """t printed so that it parses back as t where a binding strength of at
    least need is required; redundant parentheses now and then."""
    if t[0] == "const":
        text = "true" if t[1] else "false"
    elif t[0] == "var":
        text = t[1].upper() if t[1] in upper else t[1]
    elif t[0] == "not":
        text = "not " + show(R, t[1], 6, upper)
    else:
        p = PREC[t[0]]
        left_need, right_need = (p + 1, p) if t[0] in RIGHT else (p, p + 1)
        text = "%s %s %s" % (show(R, t[1], left_need, upper), t[0], show(R, t[2], right_need, upper))
    if prec(t) < need or (t[0] not in ("var", "const") and R.random() < 0.1):
        return "(%s)" % text
    return text


def ttprec(R):
    vs = R.sample(NAMES, R.randint(2, 5))
    t = tree(R, vs, R.randint(2, 5), top=True)
    upper = {v for v in vs if R.random() < 0.2}
    text = show(R, t, 0, upper)
    used = sorted({w.lower() for w in text.replace("(", " ").replace(")", " ").split()} -
                  {"and", "or", "not", "xor", "implies", "iff", "true", "false"})
    rows = []
    for combo in itertools.product([False, True], repeat=len(used)):
        env = dict(zip(used, combo))
        rows.append(dict(env, result=value(t, env)))
    case("truth_table", {"expression": text},
         chk("variables", "json", used), chk("row_count", "json", len(rows)), chk("rows", "json", rows),
         chk("satisfiable", "json", any(r["result"] for r in rows)),
         chk("tautology", "json", all(r["result"] for r in rows)),
         cat="truth_table", why="evaluated on the tree it was printed from")


# ---- matrices ----------------------------------------------------------------------------------

def rows_of(M, big=False):
    """JSON rows: integers as JSON numbers, except those past 2**53, which go as strings."""
    return [[int(v) if v.is_Integer and abs(v) < 2 ** 53 and not big else s(v) for v in M.row(i)]
            for i in range(M.rows)]


def unimodular(R, n):
    U = sp.eye(n)
    for _ in range(3 * n):
        i, j = R.sample(range(n), 2)
        U = (sp.eye(n) + R.randint(-2, 2) * sp.eye(n)[:, i] * sp.eye(n)[j, :]) * U
    assert U.det() == 1
    return U


def matrank(R):
    m, n = R.randint(2, 7), R.randint(2, 7)
    if R.random() < 0.6:
        n = m
    r = R.randint(1, min(m, n))
    A = sp.Matrix(m, r, lambda i, j: R.randint(-4, 4))
    B = sp.Matrix(r, n, lambda i, j: R.randint(-4, 4))
    M = A * B
    rank = M.rank()
    rows = rows_of(M)
    case("matrix", {"rows": rows, "op": "rank"}, chk("value", "expr", str(rank)), cat="matrix",
         why="a product through %d columns, rank %d by SymPy" % (r, rank))
    if m == n:
        case("matrix", {"rows": rows, "op": "det"}, chk("value", "expr", s(M.det())), cat="matrix")


def matbig(R):
    n = R.randint(2, 6)
    if R.random() < 0.4:
        U = unimodular(R, n)
        D = sp.diag(*[R.choice([1, -1]) for _ in range(n)])
        M = U * D * unimodular(R, n)
        big = sp.Integer(R.randint(2 ** 64, 2 ** 80))
        # a unimodular matrix with one huge entry: add a multiple of one row to another
        i, j = R.sample(range(n), 2)
        E = sp.eye(n) + big * sp.eye(n)[:, i] * sp.eye(n)[j, :]
        M = E * M
        inv = M.inv()
        case("matrix", {"rows": rows_of(M, True), "op": "inverse"},
             chk("matrix", "exprmat", [[s(v) for v in inv.row(k)] for k in range(n)]), cat="matrix",
             why="det %s" % M.det())
        return
    M = sp.Matrix(n, n, lambda i, j: sp.Integer(R.randint(-2 ** 70, 2 ** 70)) if R.random() < 0.5
                  else sp.Integer(R.randint(-9, 9)))
    op = R.choice(["det", "det", "trace"])
    want = M.det() if op == "det" else M.trace()
    case("matrix", {"rows": rows_of(M, True), "op": op}, chk("value", "expr", s(want)), cat="matrix")


def mattri(R):
    n = R.randint(2, 4)
    diag = [R.randint(-3, 3) for _ in range(n)]
    if R.random() < 0.7:
        diag[R.randrange(n)] = diag[0]
    T = sp.Matrix(n, n, lambda i, j: diag[i] if i == j else (R.randint(-2, 2) if j > i else 0))
    U = unimodular(R, n)
    M = U * T * U.inv()
    ev = M.eigenvals()
    case("matrix", {"rows": rows_of(M), "op": "eigenvalues"},
         chk("eigenvalues", "eig", {s(k): int(v) for k, v in ev.items()}), cat="matrix",
         why="similar to a triangular matrix with diagonal %s" % diag)


def matsym(R):
    x, y = sp.symbols("x y")
    n = R.choice([2, 2, 3])
    atoms = [x, y, x + 1, x - y, x * y, 2 * x, y ** 2, 1, 2, -1, 0, 3]
    M = sp.Matrix(n, n, lambda i, j: R.choice(atoms))
    rows = [[s(v) for v in M.row(i)] for i in range(n)]
    if R.random() < 0.5 or M.det() == 0:
        case("matrix", {"rows": rows, "op": "det"}, chk("value", "expr", s(sp.expand(M.det()))), cat="matrix")
        return
    inv = M.inv()
    case("matrix", {"rows": rows, "op": "inverse"},
         chk("matrix", "exprmat", [[s(sp.factor(v)) for v in inv.row(k)] for k in range(n)]), cat="matrix")


if __name__ == "__main__":
    run_generator(mc, 17, 20261207, classes=[
        (ttprec, 50, "ttprec"), (matrank, 25, "matrank"), (matbig, 20, "matbig"), (mattri, 15, "mattri"),
        (matsym, 15, "matsym")])
