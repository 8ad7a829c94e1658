// Which processes, cgroups, run directories and descriptors belong to OUR
// servers. The machine is shared: other engineers run codecalc servers at
// the same time, so nothing here selects by name. A process is ours when
// its command line, environment or working directory names one of our
// private directories (each server gets its own CODECALC_HOME and TMPDIR,
// made with mkdtemp); a cgroup is ours when the pid in its name was one of
// our processes. Signals go only to a pid whose start time still matches
// the one recorded when it was chosen, so a recycled pid is never hit.
import { readFileSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { allPids, runCgroups, runDirsIn } from '../security/util.mjs';

/** {pid, ppid, state, comm, start} from /proc/<pid>/stat, or null when gone. */
export function stat(pid) {
  let s;
  try { s = readFileSync(`/proc/${pid}/stat`, 'utf8'); } catch { return null; }
  const open = s.indexOf('('), close = s.lastIndexOf(')');
  const f = s.slice(close + 2).split(' ');
  // f[0] is field 3 (state); starttime is field 22.
  return { pid: Number(pid), comm: s.slice(open + 1, close), state: f[0], ppid: Number(f[1]), start: f[19] };
}

function readText(path) {
  try { return readFileSync(path, 'latin1'); } catch { return ''; }
}

function cwdOf(pid) {
  try { return readlinkSync(`/proc/${pid}/cwd`); } catch { return ''; }
}

/** Does pid's command line, environment or cwd mention one of markers? */
export function mentions(pid, markers) {
  const texts = [readText(`/proc/${pid}/cmdline`), readText(`/proc/${pid}/environ`), cwdOf(pid)];
  return markers.some((m) => texts.some((t) => t.includes(m)));
}

/** Live (non-zombie) processes that belong to us: {pid, ppid, comm, start}. */
export function ownedProcesses(markers) {
  const out = [];
  for (const pid of allPids()) {
    if (pid === process.pid) continue;
    const st = stat(pid);
    if (!st || st.state === 'Z' || st.state === 'X') continue;
    if (mentions(pid, markers)) out.push(st);
  }
  return out;
}

/** Every descendant of pid (walks the whole process table once). */
export function descendants(pid) {
  const kids = new Map();
  for (const p of allPids()) {
    const st = stat(p);
    if (!st) continue;
    if (!kids.has(st.ppid)) kids.set(st.ppid, []);
    kids.get(st.ppid).push(st);
  }
  const out = [];
  const stack = [pid];
  while (stack.length) {
    for (const c of kids.get(stack.pop()) ?? []) {
      out.push(c);
      stack.push(c.pid);
    }
  }
  return out;
}

/** Signal a process only if it is still the one we chose (same start time). */
export function signalSame(victim, sig) {
  const st = stat(victim.pid);
  if (!st || st.start !== victim.start || st.state === 'Z') return false;
  try { process.kill(victim.pid, sig); return true; } catch { return false; }
}

/** Number of open descriptors of pid, split into sockets and the rest. */
export function fdCounts(pid) {
  let names;
  try { names = readdirSync(`/proc/${pid}/fd`); } catch { return null; }
  let sockets = 0, other = 0;
  for (const n of names) {
    let target = '';
    try { target = readlinkSync(`/proc/${pid}/fd/${n}`); } catch { continue; }
    if (target.startsWith('socket:')) sockets++;
    else other++;
  }
  return { sockets, other, total: sockets + other };
}

/** Live children of pid (workers of a supervisor). */
export function liveChildren(pid) {
  return descendants(pid).filter((c) => c.ppid === pid && c.state !== 'Z');
}

// When a process started, in ms since the epoch: the boot time (now minus
// /proc/uptime, good to about 10 ms, where /proc/stat's btime only has
// seconds) plus the start time in clock ticks (Linux's USER_HZ is 100).
const BOOT_MS = Date.now() - Number(readText('/proc/uptime').split(' ')[0]) * 1000;
export function startedAtMs(st) {
  return BOOT_MS + Number(st.start) * 10;
}

function ctimeMs(path) {
  try { return statSync(path).ctimeMs; } catch { return null; }
}

/** Run cgroups (run-<pid>-<n>) made by one of procs (stat() records): the
 * pid in the name is the process's, the process is one that makes
 * sandboxes (an exec worker or shepherd, a REPL launcher), and the group
 * was made after it started. Pids are recycled quickly on a busy host, and
 * another server's process with a recycled pid makes groups with the same
 * names, so the pid alone proves nothing. Returns [[path, ctimeMs]...]. */
export function cgroupsMadeBy(procs) {
  const makers = procs.filter((p) => p.comm === 'codecalc-exec' || p.comm === 'codecalc-repl');
  const byPid = new Map(makers.map((p) => [String(p.pid), p]));
  const out = [];
  for (const path of runCgroups()) {
    const p = byPid.get(/run-(\d+)-\d+$/.exec(path)[1]);
    const c = p && ctimeMs(path);
    if (c !== null && c !== undefined && p && c >= startedAtMs(p) - 50) out.push([path, c]);
  }
  return out;
}

/** Of cgroups recorded by cgroupsMadeBy, those still there (the same
 * group: same ctime). */
export function cgroupsLeft(recorded) {
  return [...recorded].filter(([path, c]) => ctimeMs(path) === c).map(([path]) => path);
}

/** Run directories (codecalc-*) left in our private TMPDIRs. */
export function runDirsLeft(tmps) {
  return tmps.flatMap((t) => runDirsIn(t).map((n) => `${t}/${n}`));
}
