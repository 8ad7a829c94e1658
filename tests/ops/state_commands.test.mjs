// codecalc status and cleanup: read-only snapshot, and identity-checked
// removal of dead workspaces (never a live, recent, symlinked or foreign one).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, symlinkSync, utimesSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SKIP_NO_BINARY, startServer } from '../mcp/harness.mjs';
import { freshDir, removeDir, run } from './cli_util.mjs';

const DAY = 86400;

/** A directory with one file, both dated `ageS` seconds ago. */
function oldDir(dir, ageS, files = { 'data.txt': 'x'.repeat(100) }) {
  mkdirSync(dir, { recursive: true });
  const t = Date.now() / 1000 - ageS;
  for (const [name, body] of Object.entries(files)) {
    writeFileSync(join(dir, name), body);
    utimesSync(join(dir, name), t, t);
  }
  utimesSync(dir, t, t);
}

describe('status', { skip: SKIP_NO_BINARY }, () => {
  test('lists a session a server made, with its language and bytes; exit 0', async () => {
    const s = await startServer();
    const home = s.home;
    let sid;
    try {
      const st = await s.call('session_start', { language: 'bash' });
      sid = st.session_id;
      await s.call('session_write_file', { session_id: sid, path: 'notes.txt', content: 'hello world' });
      const live = run(['status', '--json'], { home });
      assert.equal(live.status, 0);
      assert.equal(live.json.server.running, true);
      assert.equal(live.json.server.pid, s.transport.pid);
    } finally {
      await s.client.close();
    }
    const r = run(['status', '--json'], { home });
    try {
      assert.equal(r.status, 0, r.stderr);
      const e = r.json.sessions.find((x) => x.session_id === sid);
      assert.ok(e, JSON.stringify(r.json.sessions));
      assert.equal(e.language, 'bash');
      assert.equal(e.stateful, false);
      assert.equal(e.recorded, true);
      assert.equal(e.idle_expired, false);
      assert.ok(e.usage_bytes >= 11, `usage ${e.usage_bytes}`);
      assert.equal(r.json.global_usage_bytes, r.json.sessions.reduce((a, x) => a + x.usage_bytes, 0));
      assert.equal(r.json.quota_headroom_bytes, r.json.quota.total_disk_quota_mb * 1048576 - r.json.global_usage_bytes);
      assert.equal(r.json.session_root, join(home, 'sessions'));
      assert.equal(r.json.audit_log.path, join(home, 'audit', 'audit.log'));
      assert.equal(r.json.audit_log.rotate_at_bytes, 10 * 1048576);
      assert.equal(r.json.server.running, false);
      assert.ok(r.json.runtime_summary.installed > 0);
      const text = run(['status'], { home });
      assert.equal(text.status, 0);
      assert.ok(text.stdout.includes(sid));
      assert.match(text.stdout, /no server running/);
    } finally {
      removeDir(home);
    }
  });

  test('regression: status carries the runtime tier summary (TOOLS.md 9.1), counted as doctor counts', () => {
    const home = freshDir();
    try {
      const st = run(['status', '--json'], { home });
      const doc = run(['doctor', '--json'], { home });
      assert.equal(st.status, 0, st.stderr);
      assert.deepEqual(st.json.tier_summary, doc.json.tier_summary);
      assert.deepEqual(st.json.runtime_summary, doc.json.runtime_summary);
      const t = st.json.tier_summary;
      assert.equal(t.tested + t.best_effort + t.plan_only, doc.json.runtimes.length);
      assert.ok(run(['status'], { home }).stdout.includes(
        `; tiers: ${t.tested} tested, ${t.best_effort} best_effort, ${t.plan_only} plan_only\n`));
    } finally {
      removeDir(home);
    }
  });

  test('never creates the database it reports on', () => {
    const home = freshDir();
    try {
      const r = run(['status', '--json'], { home });
      assert.equal(r.status, 0);
      assert.deepEqual(r.json.sessions, []);
      assert.equal(r.json.runs.active, 0);
      assert.equal(existsSync(join(home, 'state.db')), false);
    } finally {
      removeDir(home);
    }
  });
});

describe('cleanup', { skip: SKIP_NO_BINARY }, () => {
  let home, root, outside;
  const env = { CODECALC_SESSION_IDLE_TTL_SECONDS: '60' };
  before(async () => {
    // A server creates the database (and its schema), then goes away.
    const s = await startServer();
    home = s.home;
    await s.client.close();
    root = join(home, 'sessions');
    const now = Date.now() / 1000;
    // Marked: a stateful session whose host is gone, idle past the TTL.
    oldDir(join(root, 'dead-py'), 2 * DAY);
    execFileSync('sqlite3', [join(home, 'state.db'),
      `INSERT INTO sessions(id, language, stateful, workdir, created_at, last_activity, alive)
       VALUES('dead-py', 'python3', 1, '${join(root, 'dead-py')}', ${now - 3 * DAY}, ${now - 2 * DAY}, 0)`]);
    // Recorded and alive: never a candidate.
    oldDir(join(root, 'alive-ws'), 2 * DAY);
    execFileSync('sqlite3', [join(home, 'state.db'),
      `INSERT INTO sessions(id, language, stateful, workdir, created_at, last_activity, alive)
       VALUES('alive-ws', 'bash', 0, '${join(root, 'alive-ws')}', ${now - 3 * DAY}, ${now - 2 * DAY}, 1)`]);
    // Unmarked and old; unmarked but recent; old but locked by a live process.
    oldDir(join(root, 'old-unmarked'), 2 * DAY);
    oldDir(join(root, 'recent-unmarked'), 10);
    oldDir(join(root, 'locked-old'), 2 * DAY, { '.codecalc-session-lock': `${process.pid}\n`, 'f.txt': 'y' });
    // A symlink to a directory outside the root.
    outside = freshDir('codecalc-outside-');
    oldDir(join(outside, 'precious'), 2 * DAY);
    symlinkSync(join(outside, 'precious'), join(root, 'link-old'));
  });
  after(() => { removeDir(home); removeDir(outside); });

  const byId = (r) => new Map(r.json.items.map((x) => [x.session_id, x]));

  test('a dry run is the default and removes nothing', () => {
    const r = run(['cleanup', '--json'], { home, env });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.json.write, false);
    const items = byId(r);
    assert.equal(items.get('dead-py').action, 'would_remove');
    assert.equal(items.get('dead-py').reason, 'idle-expired');
    assert.equal(items.get('dead-py').bytes, 100);
    assert.equal(items.has('old-unmarked'), false, 'unmarked directories need --include-unmarked');
    assert.equal(items.has('alive-ws'), false);
    assert.ok(existsSync(join(root, 'dead-py', 'data.txt')));
  });

  // Regression: cleanup read CODECALC_SESSION_IDLE_TTL_SECONDS with a default
  // of its own, "never", where the server's is 24 h; it now reads the server's.
  test('cleanup_read_its_own_idle_ttl_default: unset is the server\'s 24 h, 0 is off', () => {
    const unset = run(['cleanup', '--json'], { home });
    assert.equal(unset.status, 0, unset.stderr);
    assert.equal(byId(unset).get('dead-py')?.reason, 'idle-expired'); // idle 2 days
    const off = run(['cleanup', '--json'], { home, env: { CODECALC_SESSION_IDLE_TTL_SECONDS: '0' } });
    assert.equal(off.status, 0, off.stderr);
    assert.equal(byId(off).has('dead-py'), false);
    const bad = run(['cleanup', '--json'], { home, env: { CODECALC_SESSION_IDLE_TTL_SECONDS: '1e3' } });
    assert.equal(bad.status, 2);
    assert.equal(bad.stdout, '');
    assert.match(bad.stderr, /^codecalc: CODECALC_SESSION_IDLE_TTL_SECONDS="1e3" is not a number \(decimals allowed\) from 0 to 315360000/);
  });

  test('--include-unmarked considers old foreign directories, refuses locked and symlinked ones', () => {
    const r = run(['cleanup', '--dry-run', '--include-unmarked', '--json'], { home, env });
    const items = byId(r);
    assert.equal(items.get('old-unmarked').action, 'would_remove');
    assert.match(items.get('old-unmarked').reason, /^unmarked, untouched for 4\d\.\d h$/);
    assert.equal(items.has('recent-unmarked'), false);
    assert.equal(items.get('locked-old').action, 'skipped');
    assert.match(items.get('locked-old').detail, /live process/);
    assert.equal(items.get('link-old').action, 'skipped');
    assert.match(items.get('link-old').detail, /symlink/);
  });

  test('--write removes exactly the candidates, and audits each removal', () => {
    const r = run(['cleanup', '--write', '--include-unmarked', '--json'], { home, env });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.json.reclaimed_bytes, 200);
    assert.equal(existsSync(join(root, 'dead-py')), false);
    assert.equal(existsSync(join(root, 'old-unmarked')), false);
    for (const keep of ['alive-ws', 'recent-unmarked', 'locked-old', 'link-old'])
      assert.ok(existsSync(join(root, keep)), `${keep} kept`);
    assert.ok(existsSync(join(outside, 'precious', 'data.txt')), 'a symlink target is never touched');
    assert.deepEqual(readdirSync(root).filter((n) => n.startsWith('.codecalc-cleanup-')), []);
    const lines = readFileSync(join(home, 'audit', 'audit.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const cleanups = lines.filter((l) => l.event_type === 'cleanup');
    assert.deepEqual(cleanups.map((l) => l.session_id).sort(), ['dead-py', 'old-unmarked']);
    for (const l of cleanups) {
      assert.equal(l.decision, 'removed');
      assert.equal(l.run_id, null);
      assert.match(l.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.deepEqual(Object.keys(l), [...Object.keys(l)].sort(), 'keys sorted');
    }
    const again = run(['cleanup', '--write', '--include-unmarked', '--json'], { home, env });
    assert.equal(again.json.reclaimed_bytes, 0);
  });

  test('--dry-run with --write is a usage error', () => {
    assert.equal(run(['cleanup', '--dry-run', '--write'], { home, env }).status, 2);
  });
});
