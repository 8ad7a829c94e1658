// --- Python semantics for the translated code (execute_python transpile) ---
// int is BigInt, float is number, str is string, None is null, list is Array,
// tuple is a frozen Array marked $tuple, dict is $Dict, set is $Set.
// Every helper starts with "$": no Python name can collide with them.
class $PyError extends Error {
  constructor(type, msg) { super(msg); this.pytype = type; }
}
function $raise(type, msg) { throw new $PyError(type, msg === undefined ? "" : msg); }
const $EXC_PARENT = { ZeroDivisionError: "ArithmeticError", OverflowError: "ArithmeticError",
  ArithmeticError: "Exception", KeyError: "LookupError", IndexError: "LookupError",
  LookupError: "Exception", ValueError: "Exception", TypeError: "Exception",
  AssertionError: "Exception", RuntimeError: "Exception", NotImplementedError: "RuntimeError",
  AttributeError: "Exception", RecursionError: "RuntimeError", StopIteration: "Exception",
  Exception: "BaseException" };
function $excmatch(e, names) {
  if (!(e instanceof $PyError)) {
    if (e instanceof RangeError) e = new $PyError("RecursionError", e.message);
    else return false;
  }
  for (let t = e.pytype; t; t = $EXC_PARENT[t]) if (names.includes(t)) return true;
  return names.includes("BaseException");
}
function $T(...xs) { xs.$tuple = true; return Object.freeze(xs); }
function $istuple(x) { return Array.isArray(x) && x.$tuple === true; }
function $isnum(x) { const t = typeof x; return t === "bigint" || t === "number" || t === "boolean"; }
function $isint(x) { return typeof x === "bigint" || typeof x === "boolean"; }
function $int(x) { return typeof x === "boolean" ? (x ? 1n : 0n) : x; }
// A whole JavaScript number passed by a JavaScript caller counts as an int
// where Python needs one (range, indices, repetition).
function $whole(x) { return typeof x === "number" && Number.isInteger(x) ? BigInt(x) : $int(x); }
function $type(x) {
  if (x === null) return "NoneType";
  if (typeof x === "boolean") return "bool";
  if (typeof x === "bigint") return "int";
  if (typeof x === "number") return "float";
  if (typeof x === "string") return "str";
  if (Array.isArray(x)) return x.$tuple ? "tuple" : "list";
  if (x instanceof $Dict) return "dict";
  if (x instanceof $Set) return "set";
  if (typeof x === "function") return "function";
  return "object";
}
function $bad(op, a, b) {
  $raise("TypeError", b === undefined ? `bad operand type for ${op}: '${$type(a)}'`
    : `unsupported operand type(s) for ${op}: '${$type(a)}' and '${$type(b)}'`);
}
function $bool(x) {
  if (x === null || x === undefined) return false;
  switch (typeof x) {
    case "boolean": return x;
    case "bigint": return x !== 0n;
    case "number": return x !== 0;
    case "string": return x.length > 0;
  }
  if (Array.isArray(x)) return x.length > 0;
  if (x instanceof $Dict || x instanceof $Set) return x.size > 0;
  return true;
}
function $and(a, b) { return $bool(a) ? b() : a; }
function $or(a, b) { return $bool(a) ? a : b(); }
// ---- arithmetic ----
function $arith(op, a, b, ints, floats) {
  if ($isnum(a) && $isnum(b)) {
    if ($isint(a) && $isint(b)) return ints($int(a), $int(b));
    return floats($f(a), $f(b));
  }
  return $bad(op, a, b);
}
// A number as Python's float of it: an int is rounded to the nearest double
// (Number(bigint) rounds so), and one past the largest double is an
// OverflowError in Python, not Infinity.
function $f(x) {
  if (typeof x === "number") return x;
  const v = Number($int(x));
  if (!Number.isFinite(v)) $raise("OverflowError", "int too large to convert to float");
  return v;
}
function $bitlen(v) { return v === 0n ? 0 : v.toString(2).length; }
// num/den rounded once to the nearest double, ties to even, as Python's
// int / int is; converting each side first rounds twice, and 10**400 / 10**399
// would be Infinity / Infinity.
function $ratio(num, den, what) {
  const neg = (num < 0n) !== (den < 0n);
  let n = num < 0n ? -num : num; const d = den < 0n ? -den : den;
  if (n === 0n) return neg ? -0 : 0;
  let lg = $bitlen(n) - $bitlen(d);
  if (!(lg >= 0 ? n >= d << BigInt(lg) : n << BigInt(-lg) >= d)) lg -= 1;
  const tooBig = () => $raise("OverflowError", what || "integer division result too large for a float");
  if (lg > 1023) tooBig();
  const k = Math.max(lg - 52, -1074);
  const sn = k < 0 ? n << BigInt(-k) : n, sd = k > 0 ? d << BigInt(k) : d;
  let m = sn / sd; const r2 = (sn % sd) * 2n;
  if (r2 > sd || (r2 === sd && (m & 1n) === 1n)) m += 1n;
  const v = Number(m) * 2 ** k;
  if (!Number.isFinite(v)) tooBig();
  return neg ? -v : v;
}
// A double as m * 2**e with m a BigInt (exact).
function $dyadic(x) {
  const buf = new DataView(new ArrayBuffer(8)); buf.setFloat64(0, Math.abs(x));
  const hi = buf.getUint32(0), lo = buf.getUint32(4), eb = (hi >>> 20) & 0x7ff;
  const m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  return eb === 0 ? [m, -1074] : [m | (1n << 52n), eb - 1075];
}
function $add(a, b) {
  if (typeof a === "string" && typeof b === "string") return a + b;
  if (Array.isArray(a) && Array.isArray(b) && $istuple(a) === $istuple(b)) {
    const r = a.concat(b); return $istuple(a) ? $T(...r) : r;
  }
  return $arith("+", a, b, (x, y) => x + y, (x, y) => x + y);
}
function $sub(a, b) {
  if (a instanceof $Set && b instanceof $Set) return $m(a, "difference", [b]);
  return $arith("-", a, b, (x, y) => x - y, (x, y) => x - y);
}
function $repeat(seq, n) {
  n = Number($whole(n));
  if (typeof seq === "string") return n > 0 ? seq.repeat(n) : "";
  const r = [];
  for (let i = 0; i < n; i++) r.push(...seq);
  return $istuple(seq) ? $T(...r) : r;
}
function $mul(a, b) {
  const whole = (v) => $isint(v) || (typeof v === "number" && Number.isInteger(v));
  if ((typeof a === "string" || Array.isArray(a)) && whole(b)) return $repeat(a, b);
  if ((typeof b === "string" || Array.isArray(b)) && whole(a)) return $repeat(b, a);
  return $arith("*", a, b, (x, y) => x * y, (x, y) => x * y);
}
function $zero(d) { if (d == 0) $raise("ZeroDivisionError", "division by zero"); }
const $SAFE = 2n ** 53n;
function $truediv(a, b) {
  return $arith("/", a, b, (x, y) => {
    $zero(y);
    const small = -$SAFE < x && x < $SAFE && -$SAFE < y && y < $SAFE;
    return small ? Number(x) / Number(y) : $ratio(x, y);
  }, (x, y) => { $zero(y); return x / y; });
}
// Python's float divmod (floatobject.c): the quotient comes from fmod, so
// 1 // 0.1 is 9.0 (0.1 is a little above 1/10) where floor(1 / 0.1) is 10,
// and inf // 2 is nan.
function $fdivmod(x, y) {
  $zero(y);
  let mod = x % y, div = (x - mod) / y;
  if (mod !== 0) { if ((y < 0) !== (mod < 0)) { mod += y; div -= 1; } }
  else mod = y < 0 ? -0 : 0;
  let q;
  if (div !== 0) { q = Math.floor(div); if (div - q > 0.5) q += 1; }
  else { const s = x / y; q = s < 0 || Object.is(s, -0) ? -0 : 0; }
  return [q, mod];
}
function $floordiv(a, b) {
  return $arith("//", a, b, (x, y) => {
    $zero(y); const q = x / y;
    return (x % y !== 0n && (x < 0n) !== (y < 0n)) ? q - 1n : q;
  }, (x, y) => $fdivmod(x, y)[0]);
}
function $mod(a, b) {
  if (typeof a === "string") $raise("TypeError", "%-formatting is not translated");
  return $arith("%", a, b, (x, y) => {
    $zero(y); const r = x % y;
    return (r !== 0n && (r < 0n) !== (y < 0n)) ? r + y : r;
  }, (x, y) => {
    $zero(y); let r = x % y;
    if (r !== 0 && (r < 0) !== (y < 0)) r += y;
    return r === 0 ? (y < 0 ? -0 : 0) : r;
  });
}
function $pow(a, b) {
  return $arith("**", a, b, (x, y) => {
    if (y >= 0n) return x ** y;
    return $fpow($f(x), $f(y));
  }, $fpow);
}
// float ** float as Python's float_pow: a negative base to a fractional
// power is complex in Python (refused here, not nan), an overflow is an
// error, and a whole exponent is rounded once from the exact power
// (JavaScript's ** is off by one unit in the last place for 7 ** -2).
function $fpow(x, y) {
  if (x === 0 && y < 0) $raise("ZeroDivisionError", "0.0 cannot be raised to a negative power");
  if (x < 0 && Number.isFinite(x) && Number.isFinite(y) && !Number.isInteger(y)) {
    $raise("NotImplementedError", "a negative number to a fractional power is complex in Python; complex numbers are not translated");
  }
  let r;
  if (y === 0 || x === 1) return 1; // nan ** 0 and 1 ** nan too (C99 pow; JavaScript says nan)
  if (x === -1 && !Number.isFinite(y) && !Number.isNaN(y)) return 1;
  if (y === 1) r = x; else if (y === 2) r = x * x; else if (y === -1) r = 1 / x; // one rounding each
  else if (Number.isFinite(x) && x !== 0 && Number.isInteger(y) && Math.abs(y) <= 2048) r = $powexact(x, y);
  else r = x ** y;
  if (!Number.isFinite(r) && Number.isFinite(x) && Number.isFinite(y)) $raise("OverflowError", "(34, 'Numerical result out of range')");
  return r;
}
function $powexact(x, y) {
  const neg = x < 0 && y % 2 !== 0, n = Math.abs(y);
  const lg = y * Math.log2(Math.abs(x));
  if (lg > 1025) return neg ? -Infinity : Infinity;
  if (lg < -1080) return neg ? -0 : 0;
  const [m, e] = $dyadic(x);
  let num = m ** BigInt(n), den = 1n, ex = e * n;
  if (y < 0) { [num, den] = [den, num]; ex = -ex; }
  if (ex > 0) num <<= BigInt(ex); else den <<= BigInt(-ex);
  let r;
  try { r = $ratio(num, den); } catch (err) { if (err instanceof $PyError) return neg ? -Infinity : Infinity; throw err; }
  return neg ? -r : r;
}
function $bitint(op, a, b, f) {
  if ($isint(a) && $isint(b)) {
    const r = f($int(a), $int(b));
    return (typeof a === "boolean" && typeof b === "boolean" && op !== "<<" && op !== ">>") ? r !== 0n : r;
  }
  if (a instanceof $Set && b instanceof $Set) {
    return $m(a, { "&": "intersection", "|": "union", "^": "symmetric_difference" }[op], [b]);
  }
  return $bad(op, a, b);
}
function $bitand(a, b) { return $bitint("&", a, b, (x, y) => x & y); }
function $bitor(a, b) { return $bitint("|", a, b, (x, y) => x | y); }
function $bitxor(a, b) { return $bitint("^", a, b, (x, y) => x ^ y); }
function $lshift(a, b) {
  return $bitint("<<", a, b, (x, y) => { if (y < 0n) $raise("ValueError", "negative shift count"); return x << y; });
}
function $rshift(a, b) {
  return $bitint(">>", a, b, (x, y) => { if (y < 0n) $raise("ValueError", "negative shift count"); return x >> y; });
}
function $neg(a) { if (!$isnum(a)) $bad("unary -", a); return $isint(a) ? -$int(a) : -a; }
function $pos(a) { if (!$isnum(a)) $bad("unary +", a); return $isint(a) ? $int(a) : a; }
function $invert(a) { if (!$isint(a)) $bad("unary ~", a); return -$int(a) - 1n; }
function $iadd(a, b) {
  if (Array.isArray(a) && !$istuple(a)) { for (const x of $iter(b)) a.push(x); return a; }
  return $add(a, b);
}
// ---- comparison ----
function $numcmp(a, b) {
  a = $int(a); b = $int(b);
  if (typeof a === "number" && isNaN(a) || typeof b === "number" && isNaN(b)) return NaN;
  return a < b ? -1 : a > b ? 1 : 0;
}
function $eq(a, b) {
  if ($isnum(a) && $isnum(b)) return $numcmp(a, b) === 0;
  if (Array.isArray(a) && Array.isArray(b)) {
    if ($istuple(a) !== $istuple(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!$eq(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof $Dict && b instanceof $Dict) {
    if (a.size !== b.size) return false;
    for (const [h, kv] of a.m) { const o = b.m.get(h); if (!o || !$eq(kv[1], o[1])) return false; }
    return true;
  }
  if (a instanceof $Set && b instanceof $Set) {
    if (a.size !== b.size) return false;
    for (const h of a.m.keys()) if (!b.m.has(h)) return false;
    return true;
  }
  return a === b;
}
function $ne(a, b) { return !$eq(a, b); }
function $cmp(a, b, op) {
  if ($isnum(a) && $isnum(b)) return $numcmp(a, b);
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if (Array.isArray(a) && Array.isArray(b) && $istuple(a) === $istuple(b)) {
    for (let i = 0; i < a.length && i < b.length; i++) {
      if (!$eq(a[i], b[i])) return $cmp(a[i], b[i], op);
    }
    return a.length - b.length;
  }
  return $raise("TypeError", `'${op}' not supported between instances of '${$type(a)}' and '${$type(b)}'`);
}
function $lt(a, b) { return $cmp(a, b, "<") < 0; }
function $le(a, b) { return $cmp(a, b, "<=") <= 0; }
function $gt(a, b) { return $cmp(a, b, ">") > 0; }
function $ge(a, b) { return $cmp(a, b, ">=") >= 0; }
function $is(a, b) { return a === b || (a === undefined && b === null); }
function $contains(c, x) {
  if (typeof c === "string") {
    if (typeof x !== "string") $raise("TypeError", "'in <string>' requires string as left operand");
    return c.includes(x);
  }
  if (Array.isArray(c)) return c.some((y) => $eq(y, x));
  if (c instanceof $Dict || c instanceof $Set) return c.m.has($hash(x));
  return $raise("TypeError", `argument of type '${$type(c)}' is not iterable`);
}
function $chain(first, rest) {
  let a = first;
  for (const [f, thunk] of rest) { const b = thunk(); if (!f(a, b)) return false; a = b; }
  return true;
}
// ---- dict and set (keys by Python equality: 1 == 1.0 == True) ----
function $hash(k) {
  if (k === null) return "n";
  if ($isint(k)) return "i" + $int(k);
  if (typeof k === "number") return Number.isInteger(k) ? "i" + BigInt(k) : "f" + k;
  if (typeof k === "string") return "s" + k;
  if ($istuple(k)) return "t(" + k.map($hash).join(",") + ")";
  return $raise("TypeError", `unhashable type: '${$type(k)}'`);
}
class $Dict {
  constructor(pairs) { this.m = new Map(); if (pairs) for (const [k, v] of pairs) this.set(k, v); }
  get size() { return this.m.size; }
  set(k, v) { const h = $hash(k); const o = this.m.get(h); if (o) o[1] = v; else this.m.set(h, [k, v]); }
  get(k) { const o = this.m.get($hash(k)); if (!o) $raise("KeyError", $repr(k)); return o[1]; }
  keys() { return [...this.m.values()].map((kv) => kv[0]); }
}
class $Set {
  constructor(xs) { this.m = new Map(); if (xs) for (const x of xs) this.add(x); }
  get size() { return this.m.size; }
  add(x) { const h = $hash(x); if (!this.m.has(h)) this.m.set(h, x); }
  values() { return [...this.m.values()]; }
}
// ---- iteration, indexing, slicing ----
function $chars(s) { return /[\uD800-\uDFFF]/.test(s) ? Array.from(s) : null; }
function $iter(x) {
  if (typeof x === "string") return $chars(x) || x;
  if (Array.isArray(x)) return x;
  if (x instanceof $Dict) return x.keys();
  if (x instanceof $Set) return x.values();
  if (x !== null && typeof x === "object" && typeof x[Symbol.iterator] === "function") return x;
  return $raise("TypeError", `'${$type(x)}' object is not iterable`);
}
function $unpack(x, n) {
  const a = Array.isArray(x) ? x : Array.from($iter(x));
  if (a.length !== n) {
    $raise("ValueError", a.length > n ? `too many values to unpack (expected ${n})`
      : `not enough values to unpack (expected ${n}, got ${a.length})`);
  }
  return a;
}
function $index(i, n, what) {
  i = $whole(i);
  if (!$isint(i)) $raise("TypeError", `${what} indices must be integers, not ${$type(i)}`);
  let k = Number($int(i));
  if (k < 0) k += n;
  if (k < 0 || k >= n) $raise("IndexError", `${what} index out of range`);
  return k;
}
function $getitem(x, i) {
  if (x instanceof $Dict) return x.get(i);
  if (typeof x === "string") { const c = $chars(x) || x; return c[$index(i, c.length, "string")]; }
  if (Array.isArray(x)) return x[$index(i, x.length, x.$tuple ? "tuple" : "list")];
  return $raise("TypeError", `'${$type(x)}' object is not subscriptable`);
}
function $setitem(x, i, v) {
  if (x instanceof $Dict) { x.set(i, v); return; }
  if (Array.isArray(x) && !x.$tuple) { x[$index(i, x.length, "list")] = v; return; }
  $raise("TypeError", `'${$type(x)}' object does not support item assignment`);
}
function $delitem(x, i) {
  if (x instanceof $Dict) { if (!x.m.delete($hash(i))) $raise("KeyError", $repr(i)); return; }
  if (Array.isArray(x) && !x.$tuple) { x.splice($index(i, x.length, "list"), 1); return; }
  $raise("TypeError", `'${$type(x)}' object doesn't support item deletion`);
}
function $augitem(x, i, f, v) { $setitem(x, i, f($getitem(x, i), v())); }
function $slice(x, lo, hi, step) {
  const seq = typeof x === "string" ? ($chars(x) || x.split("")) : x;
  if (!Array.isArray(seq)) $raise("TypeError", `'${$type(x)}' object is not subscriptable`);
  const n = seq.length;
  const st = step === null ? 1 : Number($int(step));
  if (st === 0) $raise("ValueError", "slice step cannot be zero");
  const norm = (v, d, lo2, hi2) => {
    if (v === null) return d;
    let k = Number($int(v)); if (k < 0) k += n;
    return Math.min(Math.max(k, lo2), hi2);
  };
  const out = [];
  if (st > 0) {
    const a = norm(lo, 0, 0, n), b = norm(hi, n, 0, n);
    for (let k = a; k < b; k += st) out.push(seq[k]);
  } else {
    const a = norm(lo, n - 1, -1, n - 1), b = norm(hi, -1, -1, n - 1);
    for (let k = a; k > b; k += st) out.push(seq[k]);
  }
  if (typeof x === "string") return out.join("");
  return x.$tuple ? $T(...out) : out;
}
function* $range(a, b, c) {
  let start = 0n, stop, step = 1n;
  if (b === undefined) stop = $whole(a); else { start = $whole(a); stop = $whole(b); if (c !== undefined) step = $whole(c); }
  for (const v of [start, stop, step]) if (typeof v !== "bigint") $raise("TypeError", "range() arguments must be integers");
  if (step === 0n) $raise("ValueError", "range() arg 3 must not be zero");
  if (step > 0n) for (let i = start; i < stop; i += step) yield i;
  else for (let i = start; i > stop; i += step) yield i;
}
// ---- text ----
function $floatrepr(x) {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mant, e] = x.toExponential().split("e");
  const exp = Number(e), neg = mant[0] === "-";
  const digits = mant.replace("-", "").replace(".", "");
  let s;
  if (exp >= -4 && exp < 16) {
    if (exp >= 0) {
      const ip = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
      const fp = digits.slice(exp + 1);
      s = ip + "." + (fp || "0");
    } else s = "0." + "0".repeat(-exp - 1) + digits;
  } else {
    s = digits[0] + (digits.length > 1 ? "." + digits.slice(1) : "") + "e" + (exp < 0 ? "-" : "+") +
      String(Math.abs(exp)).padStart(2, "0");
  }
  return (neg ? "-" : "") + s;
}
function $strrepr(s) {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = q;
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === "\\") out += "\\\\";
    else if (ch === q) out += "\\" + q;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).padStart(2, "0");
    else out += ch;
  }
  return out + q;
}
function $repr(x) {
  if (x === null || x === undefined) return "None";
  switch (typeof x) {
    case "boolean": return x ? "True" : "False";
    case "bigint": return x.toString();
    case "number": return $floatrepr(x);
    case "string": return $strrepr(x);
    case "function": return `<function ${x.name}>`;
  }
  if (Array.isArray(x)) {
    const inner = x.map($repr).join(", ");
    return x.$tuple ? "(" + inner + (x.length === 1 ? ",)" : ")") : "[" + inner + "]";
  }
  if (x instanceof $Dict) return "{" + [...x.m.values()].map(([k, v]) => $repr(k) + ": " + $repr(v)).join(", ") + "}";
  if (x instanceof $Set) return x.size ? "{" + x.values().map($repr).join(", ") + "}" : "set()";
  if (x instanceof $PyError) return `${x.pytype}(${$strrepr(x.message)})`;
  return String(x);
}
function $str(x) {
  if (typeof x === "string") return x;
  if (x instanceof $PyError) return x.message;
  return $repr(x);
}
// Exact decimal rounding of a double (half to even on its exact value, as
// Python's format does); JS toFixed rounds ties up.
function $fixed(x, prec) {
  if (!Number.isFinite(x)) return $floatrepr(x);
  const buf = new DataView(new ArrayBuffer(8)); buf.setFloat64(0, x);
  const hi = buf.getUint32(0), lo = buf.getUint32(4);
  const neg = hi >>> 31 === 1, ebits = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo), e;
  if (ebits === 0) e = -1074; else { m |= 1n << 52n; e = ebits - 1075; }
  let num = m * 10n ** BigInt(prec), den = 1n;
  if (e >= 0) num <<= BigInt(e); else den <<= BigInt(-e);
  let q = num / den; const r2 = (num % den) * 2n;
  if (r2 > den || (r2 === den && q % 2n === 1n)) q += 1n;
  let s = q.toString().padStart(prec + 1, "0");
  if (prec > 0) s = s.slice(0, s.length - prec) + "." + s.slice(s.length - prec);
  return (neg && /[1-9]/.test(s) ? "-" : neg ? "-" : "") + s;
}
// format(x, ".{prec}e"): the exact value of the double rounded once to
// prec + 1 significant digits, ties to even, as Python's formatting does.
function $sci(x, prec, type) {
  if (!Number.isFinite(x)) { const r = $floatrepr(x); return type === "E" ? r.toUpperCase() : r; }
  let q = 0n, e10 = 0;
  if (x !== 0) {
    const [m, e2] = $dyadic(x);
    e10 = Math.floor(Math.log10(x));
    for (;;) {
      let num = m, den = 1n;
      if (e2 > 0) num <<= BigInt(e2); else den <<= BigInt(-e2);
      const sh = prec - e10;
      if (sh > 0) num *= 10n ** BigInt(sh); else den *= 10n ** BigInt(-sh);
      q = num / den; const r2 = (num % den) * 2n;
      if (r2 > den || (r2 === den && (q & 1n) === 1n)) q += 1n;
      const lo = 10n ** BigInt(prec), hi = lo * 10n;
      if (q >= hi) e10 += 1; else if (q < lo) e10 -= 1; else break;
    }
  }
  let d = q.toString().padStart(prec + 1, "0");
  if (prec > 0) d = d[0] + "." + d.slice(1);
  const ex = (e10 < 0 ? "-" : "+") + String(Math.abs(e10)).padStart(2, "0");
  return d + (type === "E" ? "E" : "e") + ex;
}
// The "g" presentation: scientific when the exponent is below -4 or not
// below the precision (bare: the precision less one), trailing zeros dropped
// unless "#"; with no type, a fixed result keeps one decimal.
function $general(x, prec, type, alt, bare) {
  if (!Number.isFinite(x)) { const r = $floatrepr(x); return type === "G" ? r.toUpperCase() : r; }
  const p = prec === 0 ? 1 : prec;
  const sci = $sci(x, p - 1, "e");
  const exp = x === 0 ? 0 : Number(sci.slice(sci.indexOf("e") + 1));
  const trim = (t) => alt ? t : t.includes(".") ? t.replace(/0+$/, "").replace(/\.$/, "") : t;
  if (exp < -4 || exp >= (bare ? p - 1 : p)) {
    let [mant, ex] = sci.split("e");
    mant = trim(mant);
    if (alt && !mant.includes(".")) mant += ".";
    return mant + (type === "G" ? "E" : "e") + ex;
  }
  let t = trim($fixed(x, p - 1 - exp));
  if (alt && !t.includes(".")) t += ".";
  if (bare && !t.includes(".")) t += ".0";
  return t;
}
function $format(v, spec) {
  const m = /^(?:(.)?([<>^=]))?([+\- ])?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([bcdeEfFgGnosxX%])?$/s.exec(spec);
  if (!m) $raise("ValueError", `Invalid format specifier '${spec}'`);
  let [, fill, align, sign, alt, zero, width, comma, prec, type] = m;
  let body;
  const num = $isnum(v);
  if ((type === undefined || type === "s") && !num) {
    if (comma) $raise("ValueError", `Cannot specify '${comma}' with 's'.`);
    body = $str(v);
    if (prec !== undefined) body = [...body].slice(0, Number(prec)).join("");
  } else {
    if (!num) $raise("ValueError", `Unknown format code '${type}' for object of type '${$type(v)}'`);
    let x = v;
    let bare = false; // no type with a precision: "g" that keeps a ".0"
    if (type === undefined) { bare = !$isint(v) && prec !== undefined; type = $isint(v) ? "d" : (prec !== undefined ? "g" : "r"); }
    if (type === "s" || ("bcdnoxX".includes(type) && !$isint(v))) {
      $raise("ValueError", `Unknown format code '${type}' for object of type '${$type(v)}'`);
    }
    const neg = $isint(x) ? $int(x) < 0n : (x < 0 || Object.is(x, -0));
    const ax = $isint(x) ? ($int(x) < 0n ? -$int(x) : $int(x)) : Math.abs(x);
    switch (type) {
      case "d": case "n":
        if (!$isint(v)) $raise("ValueError", "Unknown format code 'd' for object of type 'float'");
        body = ax.toString(); break;
      case "b": body = $int(ax).toString(2); break;
      case "o": body = $int(ax).toString(8); break;
      case "x": body = $int(ax).toString(16); break;
      case "X": body = $int(ax).toString(16).toUpperCase(); break;
      case "f": case "F": body = $fixed(Number(ax), prec === undefined ? 6 : Number(prec)); break;
      case "%": body = $fixed(Number(ax) * 100, prec === undefined ? 6 : Number(prec)) + "%"; break;
      case "r": body = $floatrepr(Number(ax)); break;
      case "e": case "E": body = $sci($f(ax), prec === undefined ? 6 : Number(prec), type); break;
      case "g": case "G": body = $general($f(ax), prec === undefined ? 6 : Number(prec), type, alt, bare); break;
      default: $raise("ValueError", `format code '${type}' is not translated`);
    }
    const radix = "boxX".includes(type);
    if (comma === "," && radix) $raise("ValueError", `Cannot specify ',' with '${type}'.`);
    if (comma) {
      const [ip, fp] = body.split(".");
      const group = radix ? /\B(?=([0-9a-fA-F]{4})+(?![0-9a-fA-F]))/g : /\B(?=(\d{3})+(?!\d))/g;
      body = ip.replace(group, comma) + (fp !== undefined ? "." + fp : "");
    }
    let sg = neg ? "-" : sign === "+" ? "+" : sign === " " ? " " : "";
    if (alt && radix) sg += type === "X" ? "0X" : "0" + type;
    if (zero && !align) { fill = "0"; align = "="; }
    if (align === "=") {
      const w = width ? Number(width) : 0;
      return sg + body.padStart(Math.max(0, w - sg.length), fill || " ");
    }
    body = sg + body;
  }
  const w = width ? Number(width) : 0;
  if (body.length >= w) return body;
  const pad = (fill || " ").repeat(w - body.length);
  const al = align || (num ? ">" : "<");
  if (al === "<") return body + pad;
  if (al === ">") return pad + body;
  const left = Math.floor((w - body.length) / 2);
  return pad.slice(0, left) + body + pad.slice(left);
}
// ---- builtins ----
let $out = null; // when an array, print() appends to it instead of writing stdout
function $print(args, kw) {
  const sep = kw && kw.sep != null ? kw.sep : " ", end = kw && kw.end != null ? kw.end : "\n";
  const text = args.map($str).join(sep) + end;
  if ($out) $out.push(text); else process.stdout.write(text);
  return null;
}
function $len(x) {
  if (typeof x === "string") return BigInt(($chars(x) || x).length);
  if (Array.isArray(x)) return BigInt(x.length);
  if (x instanceof $Dict || x instanceof $Set) return BigInt(x.size);
  return $raise("TypeError", `object of type '${$type(x)}' has no len()`);
}
function $toint(x, base) {
  if (base !== undefined || typeof x === "string") {
    if (typeof x !== "string") $raise("TypeError", "int() can't convert non-string with explicit base");
    let b = base === undefined ? 10 : Number($int(base));
    const s = x.trim().replace(/_/g, "").toLowerCase();
    let mm = /^([+-]?)(.+)$/.exec(s);
    // "0x1f" with base 16 (or base 0, which reads the prefix) is 31 in Python.
    const px = mm && /^0([xob])(.+)$/.exec(mm[2]), pbase = px && { x: 16, o: 8, b: 2 }[px[1]];
    if (px && (b === pbase || b === 0)) { b = pbase; mm = [mm[0], mm[1], px[2]]; }
    else if (b === 0) b = 10;
    const digits = "0123456789abcdefghijklmnopqrstuvwxyz".slice(0, b);
    if (!mm || ![...mm[2]].every((c) => digits.includes(c))) {
      $raise("ValueError", `invalid literal for int() with base ${b}: ${$strrepr(x)}`);
    }
    let r = 0n;
    for (const c of mm[2]) r = r * BigInt(b) + BigInt(digits.indexOf(c));
    return mm[1] === "-" ? -r : r;
  }
  if ($isint(x)) return $int(x);
  if (typeof x === "number") {
    if (!Number.isFinite(x)) $raise(Number.isNaN(x) ? "ValueError" : "OverflowError", "cannot convert float to integer");
    return BigInt(Math.trunc(x));
  }
  return $raise("TypeError", `int() argument must be a string or a number, not '${$type(x)}'`);
}
function $tofloat(x) {
  if ($isnum(x)) return Number($int(x));
  if (typeof x === "string") {
    const s = x.trim().toLowerCase().replace(/_/g, "");
    if (/^[+-]?(inf|infinity)$/.test(s)) return s[0] === "-" ? -Infinity : Infinity;
    if (/^[+-]?nan$/.test(s)) return NaN;
    if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(s)) return Number(s);
    $raise("ValueError", `could not convert string to float: ${$strrepr(x)}`);
  }
  return $raise("TypeError", `float() argument must be a string or a number, not '${$type(x)}'`);
}
function $sorted(xs, kw) {
  const key = kw && kw.key ? kw.key : (v) => v;
  const arr = Array.from($iter(xs)).map((v) => [key(v), v]);
  arr.sort((p, q) => $cmp(p[0], q[0], "<"));
  if (kw && $bool(kw.reverse)) {
    // Python's reverse keeps equal items in their original order
    arr.reverse();
    const out = []; let i = 0;
    while (i < arr.length) {
      let j = i; while (j + 1 < arr.length && $cmp(arr[j + 1][0], arr[i][0], "<") === 0) j++;
      out.push(...arr.slice(i, j + 1).reverse()); i = j + 1;
    }
    return out.map((p) => p[1]);
  }
  return arr.map((p) => p[1]);
}
function $minmax(args, kw, sign, name) {
  const xs = args.length === 1 ? Array.from($iter(args[0])) : args;
  if (!xs.length) {
    if (kw && "default" in kw) return kw.default;
    $raise("ValueError", `${name}() arg is an empty sequence`);
  }
  const key = kw && kw.key ? kw.key : (v) => v;
  let best = xs[0], bk = key(best);
  for (const x of xs.slice(1)) { const k = key(x); if ($cmp(k, bk, "<") * sign > 0) { best = x; bk = k; } }
  return best;
}
function $roundhalfeven(x) {
  if (!Number.isFinite(x)) $raise(Number.isNaN(x) ? "ValueError" : "OverflowError", "cannot convert float to integer");
  const f = Math.floor(x), d = x - f;
  const r = d > 0.5 ? f + 1 : d < 0.5 ? f : (f % 2 === 0 ? f : f + 1);
  return BigInt(r);
}
const $B = {
  len: (x) => $len(x),
  abs: (x) => $isint(x) ? ($int(x) < 0n ? -$int(x) : $int(x)) : ($isnum(x) ? Math.abs(x) : $bad("abs()", x)),
  int: (x, b) => x === undefined ? 0n : $toint(x, b),
  float: (x) => x === undefined ? 0 : $tofloat(x),
  str: (x) => x === undefined ? "" : $str(x),
  repr: (x) => $repr(x),
  bool: (x) => $bool(x),
  list: (x) => x === undefined ? [] : Array.from($iter(x)),
  tuple: (x) => x === undefined ? $T() : $T(...$iter(x)),
  dict: (x) => x === undefined ? new $Dict() : new $Dict(x instanceof $Dict ? [...x.m.values()] : Array.from($iter(x)).map((p) => $unpack(p, 2))),
  set: (x) => new $Set(x === undefined ? [] : $iter(x)),
  range: (a, b, c) => Array.from($range(a, b, c)),
  sum: (xs, start) => { let s = start === undefined ? 0n : start; for (const x of $iter(xs)) s = $add(s, x); return s; },
  min: (...a) => $minmax(a, null, -1, "min"),
  max: (...a) => $minmax(a, null, 1, "max"),
  any: (xs) => { for (const x of $iter(xs)) if ($bool(x)) return true; return false; },
  all: (xs) => { for (const x of $iter(xs)) if (!$bool(x)) return false; return true; },
  sorted: (xs) => $sorted(xs, null),
  reversed: (xs) => Array.from($iter(xs)).reverse(),
  enumerate: (xs, start) => { let i = start === undefined ? 0n : $int(start); return Array.from($iter(xs), (v) => $T(i++, v)); },
  zip: (...seqs) => {
    const arrs = seqs.map((s) => Array.from($iter(s)));
    const n = arrs.length ? Math.min(...arrs.map((a) => a.length)) : 0;
    return Array.from({ length: n }, (_, i) => $T(...arrs.map((a) => a[i])));
  },
  round: (x, nd) => {
    if (nd !== undefined && nd !== null) $raise("NotImplementedError", "round() with ndigits is not translated");
    if (!$isnum(x)) $raise("TypeError", `type ${$type(x)} doesn't define __round__ method`);
    return $isint(x) ? $int(x) : $roundhalfeven(x);
  },
  divmod: (a, b) => $T($floordiv(a, b), $mod(a, b)),
  pow: (a, b) => $pow(a, b),
  chr: (i) => String.fromCodePoint(Number($int(i))),
  ord: (c) => { if (typeof c !== "string" || [...c].length !== 1) $raise("TypeError", "ord() expected a character"); return BigInt(c.codePointAt(0)); },
  isinstance: () => $raise("NotImplementedError", "isinstance() is not translated"),
  print: (...a) => $print(a, null),
};
const $BKW = { // builtins that take keyword arguments
  print: (a, kw) => $print(a, kw),
  sorted: (a, kw) => $sorted(a[0], kw),
  min: (a, kw) => $minmax(a, kw, -1, "min"),
  max: (a, kw) => $minmax(a, kw, 1, "max"),
  enumerate: (a, kw) => $B.enumerate(a[0], kw.start !== undefined ? kw.start : a[1]),
  int: (a, kw) => $B.int(a[0], kw.base !== undefined ? kw.base : a[1]),
};
// A math function of one float as CPython's math_1 calls it: nan from a
// number is a domain error, an infinity from a finite number a range error
// (or a domain error for a pole, log(0)), not a value.
function $m1(fn, x, canOverflow) {
  x = $f(x);
  const r = fn(x);
  if (Number.isNaN(r) && !Number.isNaN(x)) $raise("ValueError", "math domain error");
  if (!Number.isFinite(r) && Number.isFinite(x)) $raise(canOverflow ? "OverflowError" : "ValueError", canOverflow ? "math range error" : "math domain error");
  return r;
}
// CPython's loghelper: an int too large for a float is taken apart into
// mantissa * 2**e first, so log(10**400) is 921.03..., not inf.
function $mlog(fn, x) {
  if ($isint(x)) {
    const v = $int(x);
    if (v <= 0n) $raise("ValueError", "math domain error");
    if (!Number.isFinite(Number(v))) {
      const e = $bitlen(v);
      return fn($ratio(v, 1n << BigInt(e))) + fn(2.0) * e;
    }
  }
  return $m1(fn, x, false);
}
const $math = {
  pi: Math.PI, e: Math.E, inf: Infinity, nan: NaN, tau: 2 * Math.PI,
  sqrt: (x) => $m1(Math.sqrt, x, false),
  floor: (x) => $isint(x) ? $int(x) : $toint(Math.floor(x)),
  ceil: (x) => $isint(x) ? $int(x) : $toint(Math.ceil(x)),
  trunc: (x) => $toint(x),
  fabs: (x) => Math.abs($f(x)),
  exp: (x) => $m1(Math.exp, x, true),
  log: (x, b) => b === undefined ? $mlog(Math.log, x) : $truediv($mlog(Math.log, x), $mlog(Math.log, b)),
  log2: (x) => $mlog(Math.log2, x), log10: (x) => $mlog(Math.log10, x),
  sin: (x) => $m1(Math.sin, x, false), cos: (x) => $m1(Math.cos, x, false),
  tan: (x) => $m1(Math.tan, x, false), atan: (x) => $m1(Math.atan, x, false),
  asin: (x) => $m1(Math.asin, x, false), acos: (x) => $m1(Math.acos, x, false),
  sinh: (x) => $m1(Math.sinh, x, true), cosh: (x) => $m1(Math.cosh, x, true),
  tanh: (x) => $m1(Math.tanh, x, false),
  atan2: (y, x) => Math.atan2($f(y), $f(x)),
  hypot: (...a) => { const r = Math.hypot(...a.map($f)); if (!Number.isFinite(r) && a.every((v) => Number.isFinite($f(v)))) $raise("OverflowError", "math range error"); return r; },
  gcd: (...a) => { let g = 0n; for (let v of a) { v = $int(v); v = v < 0n ? -v : v; while (v) [g, v] = [v, g % v]; } return g; },
  factorial: (n) => { n = $int(n); if (n < 0n) $raise("ValueError", "factorial() not defined for negative values"); let r = 1n; for (let i = 2n; i <= n; i++) r *= i; return r; },
  isqrt: (n) => {
    n = $int(n); if (n < 0n) $raise("ValueError", "isqrt() argument must be nonnegative");
    if (n < 2n) return n; let x = BigInt(Math.floor(Math.sqrt(Number(n))));
    while (x * x > n) x -= 1n; while ((x + 1n) * (x + 1n) <= n) x += 1n; return x;
  },
  isclose: (a, b) => Math.abs(Number(a) - Number(b)) <= Math.max(1e-9 * Math.max(Math.abs(Number(a)), Math.abs(Number(b))), 0),
  isfinite: (x) => Number.isFinite(Number(x)), isinf: (x) => Math.abs(Number(x)) === Infinity,
  isnan: (x) => Number.isNaN(Number(x)),
};
// ---- methods ----
function $strip(s, chars, left, right) {
  const set = chars == null ? null : [...chars];
  const drop = (c) => set ? set.includes(c) : /\s/.test(c);
  const a = [...s]; let i = 0, j = a.length;
  if (left) while (i < j && drop(a[i])) i++;
  if (right) while (j > i && drop(a[j - 1])) j--;
  return a.slice(i, j).join("");
}
function $split(s, sep, maxsplit) {
  const lim = maxsplit == null ? -1 : Number($int(maxsplit));
  if (sep == null) {
    const out = []; let rest = s.replace(/^\s+/, "");
    while (rest.length) {
      if (lim >= 0 && out.length === lim) { out.push(rest.replace(/\s+$/, "")); break; }
      const m = /\s+/.exec(rest);
      if (!m) { out.push(rest); break; }
      out.push(rest.slice(0, m.index)); rest = rest.slice(m.index + m[0].length);
    }
    return out;
  }
  if (sep === "") $raise("ValueError", "empty separator");
  const parts = s.split(sep);
  if (lim >= 0 && parts.length > lim + 1) return parts.slice(0, lim).concat([parts.slice(lim).join(sep)]);
  return parts;
}
function $listpop(a, i) {
  if (!a.length) $raise("IndexError", "pop from empty list");
  const k = i === undefined ? a.length - 1 : $index(i, a.length, "pop");
  return a.splice(k, 1)[0];
}
function $find(a, x, what) { const k = a.findIndex((y) => $eq(y, x)); if (k < 0) $raise("ValueError", what); return k; }
const $METHODS = {
  str: {
    upper: (s) => s.toUpperCase(), lower: (s) => s.toLowerCase(),
    strip: (s, c) => $strip(s, c, true, true), lstrip: (s, c) => $strip(s, c, true, false),
    rstrip: (s, c) => $strip(s, c, false, true),
    split: (s, sep, n) => $split(s, sep, n),
    splitlines: (s) => s.split(/\r\n|\r|\n/).filter((x, i, a) => i < a.length - 1 || x !== ""),
    join: (s, xs) => Array.from($iter(xs), (x) => { if (typeof x !== "string") $raise("TypeError", "sequence item: expected str instance, " + $type(x) + " found"); return x; }).join(s),
    startswith: (s, p) => $istuple(p) ? p.some((q) => s.startsWith(q)) : s.startsWith(p),
    endswith: (s, p) => $istuple(p) ? p.some((q) => s.endsWith(q)) : s.endsWith(p),
    replace: (s, a, b, n) => {
      if (n === undefined || Number(n) < 0) return s.split(a).join(b);
      const parts = s.split(a); const k = Number(n);
      return parts.slice(0, k + 1).join(b) + (parts.length > k + 1 ? a + parts.slice(k + 1).join(a) : "");
    },
    find: (s, sub) => BigInt(s.indexOf(sub)),
    rfind: (s, sub) => BigInt(s.lastIndexOf(sub)),
    index: (s, sub) => { const k = s.indexOf(sub); if (k < 0) $raise("ValueError", "substring not found"); return BigInt(k); },
    count: (s, sub) => BigInt(sub === "" ? [...s].length + 1 : s.split(sub).length - 1),
    isdigit: (s) => /^\d+$/.test(s), isnumeric: (s) => /^\d+$/.test(s), isdecimal: (s) => /^\d+$/.test(s),
    isalpha: (s) => /^\p{L}+$/u.test(s), isalnum: (s) => /^[\p{L}\d]+$/u.test(s),
    isspace: (s) => /^\s+$/.test(s),
    isupper: (s) => /\p{Lu}/u.test(s) && s === s.toUpperCase(),
    islower: (s) => /\p{Ll}/u.test(s) && s === s.toLowerCase(),
    capitalize: (s) => s ? s[0].toUpperCase() + s.slice(1).toLowerCase() : s,
    title: (s) => s.toLowerCase().replace(/(^|[^\p{L}])(\p{L})/gu, (m, a, b) => a + b.toUpperCase()),
    zfill: (s, w) => { w = Number(w); const sg = /^[+-]/.test(s) ? s[0] : ""; const b = sg ? s.slice(1) : s; return sg + b.padStart(w - sg.length, "0"); },
    ljust: (s, w, f) => s.padEnd(Number(w), f == null ? " " : f),
    rjust: (s, w, f) => s.padStart(Number(w), f == null ? " " : f),
    center: (s, w, f) => { // CPython's pad split, which differs from format's "^"
      const n = [...s].length, width = Number($int(w)), pad = width - n;
      if (pad <= 0) return s;
      const fill = f == null ? " " : f, left = Math.floor(pad / 2) + (pad & width & 1);
      return fill.repeat(left) + s + fill.repeat(pad - left);
    },
  },
  list: {
    append: (a, x) => { a.push(x); return null; },
    extend: (a, xs) => { for (const x of Array.from($iter(xs))) a.push(x); return null; },
    pop: (a, i) => $listpop(a, i),
    insert: (a, i, x) => { let k = Number($int(i)); if (k < 0) k = Math.max(0, k + a.length); a.splice(Math.min(k, a.length), 0, x); return null; },
    remove: (a, x) => { a.splice($find(a, x, "list.remove(x): x not in list"), 1); return null; },
    index: (a, x) => BigInt($find(a, x, "value is not in list")),
    count: (a, x) => BigInt(a.filter((y) => $eq(y, x)).length),
    sort: (a, kw) => { const s = $sorted(a, kw); a.splice(0, a.length, ...s); return null; },
    reverse: (a) => { a.reverse(); return null; },
    copy: (a) => a.slice(),
    clear: (a) => { a.length = 0; return null; },
  },
  tuple: {
    index: (a, x) => BigInt($find(a, x, "tuple.index(x): x not in tuple")),
    count: (a, x) => BigInt(a.filter((y) => $eq(y, x)).length),
  },
  dict: {
    get: (d, k, dflt) => { const o = d.m.get($hash(k)); return o ? o[1] : (dflt === undefined ? null : dflt); },
    keys: (d) => d.keys(),
    values: (d) => [...d.m.values()].map((kv) => kv[1]),
    items: (d) => [...d.m.values()].map((kv) => $T(kv[0], kv[1])),
    pop: (d, k, dflt) => {
      const h = $hash(k), o = d.m.get(h);
      if (!o) { if (dflt === undefined) $raise("KeyError", $repr(k)); return dflt; }
      d.m.delete(h); return o[1];
    },
    setdefault: (d, k, dflt) => { const o = d.m.get($hash(k)); if (o) return o[1]; d.set(k, dflt === undefined ? null : dflt); return dflt === undefined ? null : dflt; },
    update: (d, o) => { for (const [k, v] of (o instanceof $Dict ? [...o.m.values()] : Array.from($iter(o)))) d.set(k, v); return null; },
    copy: (d) => new $Dict([...d.m.values()]),
    clear: (d) => { d.m.clear(); return null; },
  },
  set: {
    add: (s, x) => { s.add(x); return null; },
    remove: (s, x) => { if (!s.m.delete($hash(x))) $raise("KeyError", $repr(x)); return null; },
    discard: (s, x) => { s.m.delete($hash(x)); return null; },
    union: (s, ...o) => { const r = new $Set(s.values()); for (const x of o) for (const y of $iter(x)) r.add(y); return r; },
    intersection: (s, o) => { const b = new $Set($iter(o)); return new $Set(s.values().filter((x) => b.m.has($hash(x)))); },
    difference: (s, o) => { const b = new $Set($iter(o)); return new $Set(s.values().filter((x) => !b.m.has($hash(x)))); },
    symmetric_difference: (s, o) => { const b = new $Set($iter(o)); return new $Set([...s.values().filter((x) => !b.m.has($hash(x))), ...b.values().filter((x) => !s.m.has($hash(x)))]); },
    issubset: (s, o) => { const b = new $Set($iter(o)); return s.values().every((x) => b.m.has($hash(x))); },
    copy: (s) => new $Set(s.values()),
    update: (s, o) => { for (const y of $iter(o)) s.add(y); return null; },
    clear: (s) => { s.m.clear(); return null; },
  },
};
function $m(obj, name, args, kw) {
  const t = $type(obj), table = $METHODS[t];
  const f = table && table[name];
  if (!f) $raise("AttributeError", `'${t}' object has no attribute '${name}'`);
  if (kw && (name === "sort")) return f(obj, kw);
  if (kw && name === "split") return f(obj, kw.sep !== undefined ? kw.sep : args[0], kw.maxsplit !== undefined ? kw.maxsplit : args[1]);
  return f(obj, ...args);
}
function $dict(pairs) { return new $Dict(pairs); }
function $set(xs) { return new $Set(xs); }
let __name__ = "__main__";
// --- end of the Python semantics; the translated program follows ---
