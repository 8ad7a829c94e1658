// Real components for the cluster suite, all started here and stopped
// afterwards: a PostgreSQL server (Debian's postgresql: initdb in a temp
// dir, pg_ctl on a free loopback port, as the unprivileged user `nobody`
// when the tests run as root), N `codecalc serve-http` servers sharing it
// (each with its own CODECALC_HOME), and Debian's haproxy in front of them
// (round robin, loopback only). Processes are ours by pid; nothing else on
// the machine is touched.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, chmodSync, chownSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from '../http/http_harness.mjs';

export { BIN };
const PG_VERSIONS = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort().reverse() : [];
export const PG_BIN = PG_VERSIONS.map((v) => `/usr/lib/postgresql/${v}/bin`).find((d) => existsSync(`${d}/pg_ctl`));
const HAPROXY = ['/usr/sbin/haproxy', '/usr/bin/haproxy'].find((p) => existsSync(p));

/** Why the suite cannot run here, or false. */
export function skipReason() {
  if (!existsSync(BIN)) return `server binary not built: ${BIN}`;
  if (!PG_BIN) return 'PostgreSQL server binaries not installed (scripts/install-deps installs postgresql)';
  if (!HAPROXY) return 'haproxy not installed (scripts/install-deps installs it)';
  if (process.getuid() === 0 && spawnSync('id', ['-u', 'nobody']).status !== 0) return 'no unprivileged user nobody to run PostgreSQL';
  return false;
}

export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => res(port)); });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** initdb + pg_ctl start. Returns {url, psql(sql), stop()}. */
export async function startPostgres() {
  const dir = mkdtempSync(join(tmpdir(), 'codecalc-pg-'));
  const asUser = process.getuid() === 0 ? ['runuser', '-u', 'nobody', '--'] : [];
  if (asUser.length) { chownSync(dir, Number(execFileSync('id', ['-u', 'nobody']).toString()), 0); chmodSync(dir, 0o700); }
  const run = (args) => {
    const cmd = [...asUser, ...args];
    // cwd: a directory the unprivileged user can enter (PostgreSQL's tools look it up).
    const r = spawnSync(cmd[0], cmd.slice(1), { encoding: 'utf8', cwd: dir });
    if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stdout}${r.stderr}`);
  };
  run([`${PG_BIN}/initdb`, '-D', `${dir}/data`, '-U', 'codecalc', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  // Each running run's shepherd holds a connection: room for every server's capacity.
  run([`${PG_BIN}/pg_ctl`, '-D', `${dir}/data`, '-l', `${dir}/log`, '-w', '-t', '60', '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=300`,
    'start']);
  const url = `postgresql://codecalc@127.0.0.1:${port}/postgres`;
  return {
    url,
    dir,
    psql(sql) {
      return execFileSync('psql', ['-XAtq', url, '-c', sql], { encoding: 'utf8' }).trim();
    },
    /** Run sql inside a transaction that stays open (a lock it takes is
     * held) until release() rolls it back. */
    async hold(sql) {
      const p = spawn('psql', ['-XAtq', url], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      const ready = new Promise((res, rej) => {
        p.stdout.on('data', (d) => { out += d; if (out.includes('held')) res(); });
        p.on('exit', () => rej(new Error(`psql ended before the lock was held: ${out}`)));
      });
      p.stdin.write(`BEGIN;\n${sql};\nSELECT 'held';\n`);
      await ready;
      return {
        async release() {
          const gone = new Promise((res) => p.on('exit', res));
          p.stdin.end('ROLLBACK;\n');
          await gone;
        },
      };
    },
    async stop() {
      try { run([`${PG_BIN}/pg_ctl`, '-D', `${dir}/data`, '-m', 'immediate', '-w', 'stop']); } catch { /* already gone */ }
      rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

/** One serve-http server of the cluster. */
export async function startServer(dbUrl, env = {}, home) {
  home ??= mkdtempSync(join(tmpdir(), 'codecalc-cluster-'));
  const proc = spawn(BIN, ['serve-http', '--host', '127.0.0.1', '--port', String(env.PORT ?? 0)], {
    env: {
      PATH: process.env.PATH, HOME: home, CODECALC_HOME: home, CODECALC_DATABASE_URL: dbUrl,
      CODECALC_CLUSTER_TOKEN: 'cluster-test-token', CODECALC_RUN_LEASE_SECONDS: '3',
      CODECALC_MAX_ACTIVE_RUNS: '8', ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const exited = new Promise((res) => proc.on('exit', (code, signal) => res({ code, signal })));
  const url = await new Promise((res, rej) => {
    const t = setTimeout(() => rej(new Error(`server did not start: ${err}`)), 20000);
    proc.stderr.on('data', (d) => {
      err = (err + d).slice(-50000);
      const m = /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(err);
      if (m) { clearTimeout(t); res(m[0]); }
    });
    proc.on('exit', () => { clearTimeout(t); rej(new Error(`server exited: ${err}`)); });
  });
  const id = readFileSync(join(home, 'server-id'), 'utf8').trim();
  return {
    url, id, home, proc, exited, port: Number(new URL(url).port), stderr: () => err,
    /** pids of this server's live run shepherds (from its own run directories). */
    shepherds() {
      const runs = join(home, 'runs');
      const pids = [];
      for (const d of existsSync(runs) ? readdirSync(runs) : []) {
        try {
          const pid = Number(readFileSync(join(runs, d, 'shepherd.pid'), 'utf8').split(' ')[0]);
          const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
          if (cmd.includes(join(runs, d))) pids.push(pid);
        } catch { /* finished or not started */ }
      }
      return pids;
    },
    /** SIGKILL the supervisor only (its shepherds live on). */
    async killSupervisor() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
    },
    /** The machine dies: the supervisor and every shepherd of this server. */
    async killAll() {
      await this.killSupervisor();
      for (const pid of this.shepherds()) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
    },
    async stop({ keepHome = false } = {}) {
      await this.killSupervisor();
      // Shepherds still running belong to this test: wait for them briefly, then kill.
      for (let i = 0; i < 50 && this.shepherds().length; i++) await sleep(100);
      for (const pid of this.shepherds()) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
      if (!keepHome) rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

/** haproxy, round robin over the servers, with the answering server's
 * name in X-Served-By. Returns {url, stop()}. */
export async function startBalancer(servers) {
  const dir = mkdtempSync(join(tmpdir(), 'codecalc-haproxy-'));
  const port = await freePort();
  const lines = [
    'global', '  maxconn 4096',
    'defaults', '  mode http', '  timeout connect 1s', '  timeout client 120s', '  timeout server 120s',
    '  retries 2', '  option redispatch',
    'frontend fe', `  bind 127.0.0.1:${port}`, '  default_backend be',
    'backend be', '  balance roundrobin', '  http-response set-header X-Served-By %[srv_name]',
    ...servers.map((s, i) => `  server s${i} 127.0.0.1:${s.port} check inter 300 fall 1 rise 1`),
  ];
  writeFileSync(join(dir, 'haproxy.cfg'), `${lines.join('\n')}\n`);
  const proc = spawn(HAPROXY, ['-f', join(dir, 'haproxy.cfg'), '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr.on('data', (d) => { err = (err + d).slice(-20000); });
  const exited = new Promise((res) => proc.on('exit', (code, signal) => res({ code, signal })));
  const url = `http://127.0.0.1:${port}/mcp`;
  for (let i = 0; ; i++) {
    try { await fetch(url, { method: 'GET' }); break; } catch (e) {
      if (i > 100 || proc.exitCode !== null) throw new Error(`haproxy did not start: ${err} ${e}`);
      await sleep(100);
    }
  }
  return {
    url, proc, stderr: () => err,
    async stop() {
      if (proc.exitCode === null) proc.kill('SIGKILL');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
