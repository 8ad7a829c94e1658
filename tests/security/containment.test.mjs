// The containment checks that gate every attack in this folder, run as tests
// of their own so a host without the full sandbox is visible in the report
// (each fact is asserted only when the probe says the sandbox is active).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startSecServer, containment, brief, RUN_UID, SKIP_NO_BINARY, execWorkers, waitFor, environOf,
} from './util.mjs';

describe('containment probe', { skip: SKIP_NO_BINARY, timeout: 60000 }, () => {
  let s;
  before(async () => { s = await startSecServer(); });
  after(async () => { await s?.close(); });

  test('a probe run sees only its own pids, runs as the run uid, in per-run cgroups', async (t) => {
    const why = await containment(s);
    if (why) return t.skip(why);
    const r = await s.exec({
      language: 'python3',
      code: [
        'import os',
        "print(sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))",
        'print(os.getuid(), os.getgid(), os.getgroups())',
        "cg = dict(l.split(':', 2)[1:] for l in open('/proc/self/cgroup').read().split())",
        "pids = cg.get('pids')",
        "print(open('/sys/fs/cgroup/pids' + pids + '/pids.max').read().strip() if pids else 'v2')",
        "print(open('/proc/sys/kernel/hostname').read().strip())",
      ].join('\n'),
    });
    assert.equal(r.verdict, 'OK', brief(r));
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines[0], '[1, 2]', 'pid namespace: init (1) and the program (2) only');
    assert.equal(lines[1], `${RUN_UID} ${RUN_UID} []`);
    // pids_max (default 512) + 1 for the run's init.
    if (lines[2] !== 'v2') assert.equal(lines[2], '513');
    assert.equal(lines[3], 'codecalc', 'uts namespace');
    assert.deepEqual(r.unenforced, []);
  });

  test('the canary really is in the exec worker environment (so the leak tests can fail)', async () => {
    const workers = await waitFor(() => { const w = execWorkers(s.pid); return w.length > 0 && w; }, 5000);
    assert.ok(workers && workers.length > 0, 'no codecalc-exec worker under the server');
    assert.ok(workers.some((p) => environOf(p).includes(s.canary)), 'canary not found in any exec worker environ');
  });
});
