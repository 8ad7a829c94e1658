// Headless Chromium (Debian's `chromium`) for the pages a server renders:
// the ops suite's /status test and the cluster suite's cluster section.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

export const CHROMIUM = spawnSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).stdout.trim();
export const NO_CHROMIUM = CHROMIUM ? false : 'chromium is not installed (scripts/install-deps installs it)';

/** Run headless Chromium on url with extra flags; returns stdout. */
export function browse(url, profile, extra) {
  const r = spawnSync(CHROMIUM, [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    `--user-data-dir=${profile}`, ...extra, url,
  ], { encoding: 'utf8', timeout: 60000, maxBuffer: 16 << 20 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}
