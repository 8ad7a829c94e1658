// Helpers of the operator-command suites: run codecalc with a fresh home.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from '../mcp/harness.mjs';

export function freshDir(prefix = 'codecalc-ops-') {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(d) {
  rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

/** Run `codecalc ...args`; returns {status, stdout, stderr, json}. */
export function run(args, { home, env = {}, cwd, input } = {}) {
  const r = spawnSync(BIN, args, {
    env: { PATH: process.env.PATH, HOME: home, CODECALC_HOME: home, ...env },
    cwd, input, encoding: 'utf8', timeout: 120000,
  });
  let json;
  try { json = JSON.parse(r.stdout); } catch { json = undefined; }
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, json };
}
