// codecalc node REPL host: one persistent vm context driven by framed msgpack
// requests (docs/protocol.md) on fd 3, a private socket: the launcher's
// trampoline (host.c) moved it there and put /dev/null on fd 0, and libuv
// marks the descriptor close-on-exec once we open it, so a child started
// with stdio 'inherit' can neither read nor write the protocol stream. Top-level let/const/var and globals survive between
// calls; console.* and process.stdout/stderr.write are captured per call.
//
// Request:  {id, op: "exec", args: {code, timeout}, deadline_ms}
// Response: {id, ok: true, result: {ok, stdout, stderr, exit_code,
//            output_truncated, timed_out, verdict}}
// A call is answered once its code, its top-level awaits and the timers it
// started are done (bounded by its timeout).
'use strict';
const net = require('net');
const path = require('path');
const { createRequire } = require('module');
const vm = require('vm');
const util = require('util');

const PROTO_FD = 3;
// Code resolves modules from the workspace (our cwd), so packages that
// install_package put in <workspace>/node_modules are found.
const sessionRequire = createRequire(path.join(process.cwd(), '<session>.js'));

const CAP = 65536;
const MARKER = '\n...[truncated]';
const FRAME_MAX = 32 * 1024 * 1024;

// ---- a small msgpack codec (only what the protocol carries) ----------------

function packInto(out, v) {
  if (v === null || v === undefined) out.push(Buffer.from([0xc0]));
  else if (v === true || v === false) out.push(Buffer.from([v ? 0xc3 : 0xc2]));
  else if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 2 ** 53) {
    const b = Buffer.alloc(9); b[0] = 0xcf; b.writeBigUInt64BE(BigInt(v), 1); out.push(b);
  } else if (typeof v === 'number' && Number.isInteger(v) && v < 0 && v > -(2 ** 53)) {
    const b = Buffer.alloc(9); b[0] = 0xd3; b.writeBigInt64BE(BigInt(v), 1); out.push(b);
  } else if (typeof v === 'number') {
    const b = Buffer.alloc(9); b[0] = 0xcb; b.writeDoubleBE(v, 1); out.push(b);
  } else if (typeof v === 'string') {
    const s = Buffer.from(v, 'utf8');
    const h = Buffer.alloc(5); h[0] = 0xdb; h.writeUInt32BE(s.length, 1); out.push(h, s);
  } else if (Array.isArray(v)) {
    const h = Buffer.alloc(5); h[0] = 0xdd; h.writeUInt32BE(v.length, 1); out.push(h);
    for (const x of v) packInto(out, x);
  } else if (typeof v === 'object') {
    const keys = Object.keys(v);
    const h = Buffer.alloc(5); h[0] = 0xdf; h.writeUInt32BE(keys.length, 1); out.push(h);
    for (const k of keys) { packInto(out, k); packInto(out, v[k]); }
  } else packInto(out, String(v));
}

function pack(v) { const out = []; packInto(out, v); return Buffer.concat(out); }

function unpack(buf) {
  let i = 0;
  const need = (n) => { if (n < 0 || i + n > buf.length) throw new Error('truncated msgpack'); };
  const str = (n) => { need(n); const s = buf.toString('utf8', i, i + n); i += n; return s; };
  const arr = (n, d) => { const a = []; for (let k = 0; k < n; k++) a.push(one(d + 1)); return a; };
  const map = (n, d) => { const m = {}; for (let k = 0; k < n; k++) { const key = one(d + 1); m[String(key)] = one(d + 1); } return m; };
  const num = (fn, n) => { need(n); const v = buf[fn](i); i += n; return v; };
  function one(d) {
    if (d > 64) throw new Error('msgpack nested too deeply');
    need(1);
    const c = buf[i++];
    if (c < 0x80) return c;
    if (c >= 0xe0) return c - 0x100;
    if (c >= 0xa0 && c <= 0xbf) return str(c & 0x1f);
    if (c >= 0x90 && c <= 0x9f) return arr(c & 0x0f, d);
    if (c >= 0x80 && c <= 0x8f) return map(c & 0x0f, d);
    switch (c) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xca: return num('readFloatBE', 4);
      case 0xcb: return num('readDoubleBE', 8);
      case 0xcc: return num('readUInt8', 1);
      case 0xcd: return num('readUInt16BE', 2);
      case 0xce: return num('readUInt32BE', 4);
      case 0xcf: return Number(num('readBigUInt64BE', 8));
      case 0xd0: return num('readInt8', 1);
      case 0xd1: return num('readInt16BE', 2);
      case 0xd2: return num('readInt32BE', 4);
      case 0xd3: return Number(num('readBigInt64BE', 8));
      case 0xd9: return str(num('readUInt8', 1));
      case 0xda: return str(num('readUInt16BE', 2));
      case 0xdb: return str(num('readUInt32BE', 4));
      case 0xc4: case 0xc5: case 0xc6: {
        const n = c === 0xc4 ? num('readUInt8', 1) : c === 0xc5 ? num('readUInt16BE', 2) : num('readUInt32BE', 4);
        need(n); const b = buf.subarray(i, i + n); i += n; return Buffer.from(b);
      }
      case 0xdc: return arr(num('readUInt16BE', 2), d);
      case 0xdd: return arr(num('readUInt32BE', 4), d);
      case 0xde: return map(num('readUInt16BE', 2), d);
      case 0xdf: return map(num('readUInt32BE', 4), d);
      default: throw new Error(`unsupported msgpack type 0x${c.toString(16)}`);
    }
  }
  const v = one(0);
  if (i !== buf.length) throw new Error('trailing bytes after the msgpack value');
  return v;
}

// ---- per-call capture ------------------------------------------------------

let cur = null; // {out, err, outTrunc, errTrunc} while a call runs

function emit(stream, text) {
  if (!cur) return;
  const key = stream === 1 ? 'out' : 'err';
  const room = CAP - cur[key].length;
  if (text.length > room) {
    cur[key] += text.slice(0, Math.max(room, 0));
    cur[key + 'Trunc'] = true;
  } else cur[key] += text;
}

// As node's console formats: util.format (%s/%d/%o, objects inspected).
const line = (stream) => (...args) => emit(stream, util.format(...args) + '\n');

// ---- the call's own timers -------------------------------------------------
// A call is answered when its code returned, the promise it produced (top-
// level await, or an async value) settled, and the timers it started have
// run: the event loop is idle as far as the call is concerned. The call's
// timeout bounds the wait; timers still pending then are cleared.

let live = new Set(); // timer handles of the running call
let idleCheck = null;

function failLate(e) {
  if (!cur) return;
  cur.ok = false;
  emit(2, String((e && e.stack) || e) + '\n');
}

// An error no code path caught (a promise rejected with no handler, a
// callback of a host API that threw): node's default ends the process, and
// with it the session's every variable. It belongs to the call running
// now; one raised between calls (background work of an answered call) is
// told at the start of the next call, which it does not fail.
let between = [];
function uncaught(e) {
  if (cur) failLate(e);
  else if (between.length < 16) between.push(String((e && e.stack) || e));
}
process.on('unhandledRejection', uncaught);
process.on('uncaughtException', uncaught);

function tellBetween() {
  for (const text of between)
    emit(2, `codecalc: raised after the previous call had been answered (by work it left running):\n${text}\n`);
  between = [];
}

function tracked(kind, fn, ms, args) {
  if (typeof fn !== 'function') throw new TypeError('the callback must be a function');
  const owner = live;
  const once = kind !== 'interval';
  const h = (kind === 'immediate' ? setImmediate : kind === 'interval' ? setInterval : setTimeout)(() => {
    if (once) owner.delete(h);
    try { fn(...args); } catch (e) { failLate(e); }
    // After the microtasks this callback queued: a promise it rejected with
    // no handler is reported (unhandledRejection) to this call first.
    setImmediate(() => { if (idleCheck) idleCheck(); });
  }, ...(kind === 'immediate' ? [] : [ms]));
  owner.add(h);
  return h;
}

function cleared(clear) {
  return (h) => { live.delete(h); clear(h); if (idleCheck) idleCheck(); };
}

function nodeGlobals() {
  const names = ['Buffer', 'URL', 'URLSearchParams', 'TextEncoder', 'TextDecoder', 'structuredClone',
    'atob', 'btoa', 'performance', 'AbortController', 'AbortSignal', 'Event', 'EventTarget',
    'crypto', 'fetch', 'Blob', 'Headers', 'Request', 'Response', 'FormData', 'BroadcastChannel',
    'MessageChannel', 'MessagePort', 'DOMException'];
  const g = {};
  for (const n of names) if (globalThis[n] !== undefined) g[n] = globalThis[n];
  return g;
}

const context = vm.createContext({
  console: {
    log: line(1), info: line(1), debug: line(1), warn: line(2), error: line(2),
    dir: (o, opts) => emit(1, util.inspect(o, opts) + '\n'),
  },
  process: {
    stdout: { write: (s) => { emit(1, String(s)); return true; } },
    stderr: { write: (s) => { emit(2, String(s)); return true; } },
  },
  require: sessionRequire,
  setTimeout: (fn, ms, ...a) => tracked('timeout', fn, ms, a),
  setInterval: (fn, ms, ...a) => tracked('interval', fn, ms, a),
  setImmediate: (fn, ...a) => tracked('immediate', fn, 0, a),
  clearTimeout: cleared(clearTimeout), clearInterval: cleared(clearInterval),
  clearImmediate: cleared(clearImmediate), queueMicrotask,
  // node's own globals that are not language intrinsics: a vm context has
  // none of them, so `Buffer.from('hi')` that runs in `node file.js` was a
  // ReferenceError in a session.
  ...nodeGlobals(),
});
vm.runInContext('globalThis.globalThis = globalThis;', context);

// ---- top-level await ---------------------------------------------------------
// A cell that only compiles as an async body runs as one; its top-level
// declarations are turned into assignments to the context's globals so they
// persist like those of any other cell, and its last statement, when it is an
// expression, becomes the body's return value so it is echoed like any other
// cell's completion value (what node's own REPL does).

// Characters that make a line break continue the statement rather than end
// it: an operator ending the previous line, or one opening the next.
const CONTINUES_AFTER = new Set('=+-*/%&|^<>!?:,.');
const CONTINUES_BEFORE = new Set('([`.,?:=+-*/%&|^<>!');

// The depth-0 statements of a cell, skipping strings, template literals and
// comments: {at, end} offsets, end being the terminating ';' or the code's end.
function topLevelStatements(code) {
  const out = [];
  let depth = 0, i = 0, atStart = true, afterBreak = false, last = '';
  const n = code.length;
  const close = (at) => { const s = out[out.length - 1]; if (s && s.end === n) s.end = at; };
  while (i < n) {
    const c = code[i];
    if (c === '/' && code[i + 1] === '/') { while (i < n && code[i] !== '\n') i++; continue; }
    if (c === '/' && code[i + 1] === '*') { const e = code.indexOf('*/', i + 2); i = e < 0 ? n : e + 2; continue; }
    if (c === '\n') { if (!atStart) afterBreak = true; i++; continue; }
    if (/\s/.test(c)) { i++; continue; }
    if (depth === 0 && (atStart || (afterBreak && !CONTINUES_AFTER.has(last) && !CONTINUES_BEFORE.has(c)))) {
      close(i);
      out.push({ at: i, end: n });
    }
    atStart = afterBreak = false;
    if (c === '"' || c === "'" || c === '`') {
      let k = i + 1;
      while (k < n && code[k] !== c) k += code[k] === '\\' ? 2 : 1;
      i = k + 1; last = c; continue;
    }
    if (c === '{' || c === '(' || c === '[') { depth++; atStart = c === '{'; }
    else if (c === '}' || c === ')' || c === ']') { depth--; atStart = c === '}' && depth === 0; }
    else if (c === ';' && depth === 0) { close(i); atStart = true; }
    else if (c === ';') atStart = true;
    last = c;
    i++;
  }
  return out;
}

const DECL = /^(?:(let|const|var)\s+([A-Za-z_$][\w$]*)\s*(=|;|,|\n|$)|(async\s+function\*?|function\*?|class)\s+([A-Za-z_$][\w$]*))/;
const NOT_AN_EXPRESSION = /^(?:(?:let|const|var|function|class|if|else|for|while|do|switch|try|catch|finally|return|throw|break|continue|import|export|debugger|with)\b|async\s+function\b|\{)/;

function asAsyncBody(code, echoLast) {
  const stmts = topLevelStatements(code);
  let body = code;
  const tail = stmts[stmts.length - 1];
  if (echoLast && tail && !NOT_AN_EXPRESSION.test(code.slice(tail.at))) {
    // The newline before ')' ends a trailing // comment inside the statement.
    body = `${body.slice(0, tail.at)}return (\n${body.slice(tail.at, tail.end)}\n);${body.slice(tail.end + 1)}`;
  }
  for (const { at } of stmts.reverse()) {
    const m = DECL.exec(code.slice(at));
    if (!m) continue;
    let repl;
    if (m[1]) repl = m[3] === '=' ? `${m[2]} =` : `${m[2]} = undefined${m[3]}`;
    else repl = `${m[5]} = ${m[4]} ${m[5]}`;
    body = body.slice(0, at) + repl + body.slice(at + m[0].length);
  }
  return `(async () => {\n${body}\n})()`;
}

// {script, async}: async when the cell runs as an async body, whose promise
// resolves to the cell's completion value.
function compileCell(code) {
  try {
    return { script: new vm.Script(code, { filename: '<session>' }), async: false };
  } catch (e) {
    if (!(e instanceof SyntaxError) || !/\bawait\b/.test(code)) throw e;
    // Echoing the last statement is a guess about where it starts; when the
    // guess does not compile, the cell still runs, without the echo.
    for (const echoLast of [true, false]) {
      try {
        return { script: new vm.Script(asAsyncBody(code, echoLast), { filename: '<session>' }), async: true };
      } catch { /* try the next form */ }
    }
    throw e;
  }
}

const TIMERS_PENDING = (ms) => `codecalc: the call's timers were still pending at its ${ms} ms timeout; they were cleared\n`;
const CODE_RAN_ON = (ms) => `codecalc: the call's code was still running at its ${ms} ms timeout; it was stopped there (the context and its variables are kept)\n`;

// timedOut: null, or the note (TIMERS_PENDING / CODE_RAN_ON) that says what
// the timeout stopped.
function result(c, timedOut) {
  const trunc = c.outTrunc || c.errTrunc;
  const ok = c.ok && !timedOut;
  return {
    ok,
    stdout: c.out + (c.outTrunc ? MARKER : ''),
    stderr: c.err + (c.errTrunc ? MARKER : '') + (timedOut ? timedOut(c.timeoutMs) : ''),
    exit_code: ok ? 0 : 1,
    output_truncated: trunc,
    timed_out: !!timedOut,
    verdict: timedOut ? 'TLE' : trunc ? 'OLE' : (ok ? 'OK' : 'RTE'),
  };
}

function runCode(code, timeoutMs) {
  cur = { out: '', err: '', outTrunc: false, errTrunc: false, ok: true, timeoutMs };
  tellBetween();
  live = new Set();
  const started = Date.now();
  let value, cell;
  try {
    cell = compileCell(code);
    value = cell.script.runInContext(context, { timeout: Math.max(1, timeoutMs) });
  } catch (e) {
    // vm's own timeout stops synchronous code (`while (true) {}`) with this
    // error: that is the call's timeout, a TLE, not an error the code threw.
    if (e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return Promise.resolve(finish(CODE_RAN_ON));
    failLate(e);
    return Promise.resolve(finish(null));
  }
  const thenable = value !== null && (typeof value === 'object' || typeof value === 'function') &&
    typeof value.then === 'function';
  // The cell's completion value is echoed as node's REPL shows it (a final
  // `x` prints its inspection); undefined (declarations, console.log) and a
  // promise print nothing; an async cell echoes the value it resolves to.
  if (value !== undefined && !thenable) emit(1, util.inspect(value) + '\n');
  return new Promise((resolve) => {
    let settled = !thenable;
    const done = (timedOut) => {
      clearTimeout(guard);
      idleCheck = null;
      resolve(finish(timedOut));
    };
    idleCheck = () => { if (settled && live.size === 0) done(null); };
    // Answer a little before the relay's own deadline (the budget plus its
    // grace), which would replace the host.
    const guard = setTimeout(() => done(TIMERS_PENDING), Math.max(1, timeoutMs - 250 - (Date.now() - started)));
    if (!settled) {
      const echo = (v) => { if (cell.async && v !== undefined) emit(1, util.inspect(v) + '\n'); };
      Promise.resolve(value).then(echo, failLate).finally(() => { settled = true; idleCheck && idleCheck(); });
    }
    // Let already-resolved promise callbacks run before deciding.
    setImmediate(() => idleCheck && idleCheck());
  });
}

function finish(timedOut) {
  for (const h of live) { clearTimeout(h); clearInterval(h); clearImmediate(h); }
  live = new Set();
  const c = cur;
  cur = null;
  return result(c, timedOut);
}

// ---- the protocol loop -------------------------------------------------------

const sock = new net.Socket({ fd: PROTO_FD, readable: true, writable: true });

function send(msg) {
  const body = pack(msg);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length, 0);
  sock.write(Buffer.concat([head, body]));
}

function handle(msg) {
  if (!msg || typeof msg !== 'object' || msg.cancel) return;
  const args = msg.args && typeof msg.args === 'object' ? msg.args : {};
  if (msg.op !== 'exec') {
    send({ id: msg.id, ok: false, error: { code: 'validation', message: `unknown op ${msg.op}` } });
    return;
  }
  const code = typeof args.code === 'string' ? args.code : '';
  const t = Number.isInteger(args.timeout) && args.timeout > 0 ? args.timeout * 1000 : (msg.deadline_ms || 30000);
  // One call at a time: the next waits until this one is answered.
  queue = queue.then(() => runCode(code, t)).then((result) => send({ id: msg.id, ok: true, result }));
}

let queue = Promise.resolve();

let pending = Buffer.alloc(0);
sock.on('data', (chunk) => {
  pending = Buffer.concat([pending, chunk]);
  while (pending.length >= 4) {
    const n = pending.readUInt32BE(0);
    if (n === 0 || n > FRAME_MAX) process.exit(3);
    if (pending.length < 4 + n) break;
    const body = pending.subarray(4, 4 + n);
    pending = pending.subarray(4 + n);
    let msg;
    try { msg = unpack(body); } catch (e) { process.exit(3); }
    handle(msg);
  }
});
sock.on('end', () => process.exit(0));
sock.on('error', () => process.exit(0));

send({ hello: 'repl-node', pid: process.pid, version: process.version, caps: ['exec'] });
