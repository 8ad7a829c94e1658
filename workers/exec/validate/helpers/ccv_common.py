# Shared pieces of the execute_python validator (runs inside the sandbox):
# diagnostics, positions, the validation refusal and small text utilities.
import ast


class Rejected(Exception):
    """A request the tool refuses (answered as code `validation`)."""

    def __init__(self, message, code="validation"):
        super().__init__(message)
        self.code = code
        self.message = message


def diag(code, message, severity, line=None, column=None, **extra):
    d = {"code": code, "message": message, "severity": severity,
         "line": line, "column": column}
    for k, v in extra.items():
        if v is not None:
            d[k] = v
    return d


class Source:
    """A text with its lines, to turn ast byte columns into 1-based
    character columns and to cut spans out of it."""

    def __init__(self, text):
        self.text = text
        self.lines = text.splitlines(keepends=True)
        starts, pos = [], 0
        for ln in self.lines:
            starts.append(pos)
            pos += len(ln)
        self.starts = starts

    def line(self, lineno):
        if 1 <= lineno <= len(self.lines):
            return self.lines[lineno - 1]
        return ""

    def char_col(self, lineno, byte_col):
        """0-based character column of a 0-based UTF-8 byte column."""
        raw = self.line(lineno).encode("utf-8", "surrogatepass")
        return len(raw[:byte_col].decode("utf-8", "replace"))

    def offset(self, lineno, char_col):
        """Absolute character offset of (1-based line, 0-based char column)."""
        if lineno - 1 >= len(self.starts):
            return len(self.text) + char_col
        return self.starts[lineno - 1] + char_col

    def node_span(self, node):
        """(start, end) absolute character offsets of an ast node."""
        a = self.offset(node.lineno, self.char_col(node.lineno, node.col_offset))
        b = self.offset(node.end_lineno, self.char_col(node.end_lineno, node.end_col_offset))
        return a, b

    def node_pos(self, node):
        """1-based (line, column) of an ast node's first character."""
        return node.lineno, self.char_col(node.lineno, node.col_offset) + 1

    def pos_of_offset(self, off):
        """1-based (line, column) of an absolute character offset."""
        lo, hi = 0, len(self.starts) - 1
        if hi < 0:
            return 1, 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= off:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, off - self.starts[lo] + 1


def replace_span(text, start, end, new):
    return text[:start] + new + text[end:]


def clip(s, n=300):
    s = str(s)
    return s if len(s) <= n else s[:n] + "..."


def safe_repr(v, n=300):
    try:
        r = repr(v)
    except BaseException as e:  # a hostile __repr__ must not end the run
        r = "<unrepresentable %s: %s>" % (type(v).__name__, type(e).__name__)
    return clip(r, n)


def parse_or_none(text):
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
