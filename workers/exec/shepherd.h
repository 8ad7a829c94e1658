/* The run shepherd: the process that carries one background run
 * (TOOLS.md section 5) independently of the server.
 *
 * `codecalc-exec --shepherd RUNDIR` is started by the supervisor through a
 * double fork (its own session, not in the server's process tree). It
 * records who it is, runs the spec through exactly the execute_code path
 * (sandbox, receipt), and leaves the result in the run directory. A server
 * restart does not touch it; a restarted server finds it by pid + start time.
 *
 * Files in RUNDIR (all written here except spec.json and cancel):
 *   spec.json      the run_submit arguments (written by the supervisor)
 *   shepherd.pid   "<pid> <starttime>\n" (starttime: /proc/<pid>/stat field 22)
 *   cancel         created by run_cancel; seen within one tick (as is SIGTERM)
 *   stdout, stderr the program's captured (capped) output text
 *   result.json    {"cancelled": bool, "result": <execute_code result>},
 *                  written atomically (temp, fsync, rename, fsync dir) last
 */
#ifndef CC_SHEPHERD_H
#define CC_SHEPHERD_H

#define CC_SHEPHERD_PID_FILE "shepherd.pid"
#define CC_SHEPHERD_RESULT_FILE "result.json"
#define CC_SHEPHERD_SPEC_FILE "spec.json"
#define CC_SHEPHERD_CANCEL_FILE "cancel"
/* The output so far of a running run (issue 11 item 9): {"phase", "stdout",
 * "stderr" (each the first CC_SHEPHERD_PARTIAL_CAP bytes), "stdout_bytes",
 * "stderr_bytes"}, rewritten while the program writes. */
#define CC_SHEPHERD_PARTIAL_FILE "partial.json"
#define CC_SHEPHERD_PARTIAL_CAP (64u << 10)

/* Shepherds (and the launcher) run at this nice level: background runs
 * yield the CPU to the server and to foreground calls. */
#define CC_SHEPHERD_NICE 10

/* Run the shepherd for rundir; returns the process exit status (0 once a
 * result.json was written, 1 when even that failed). rundir equal to
 * CC_SHEPHERD_LAUNCHER_ARG runs the launcher instead (main.c routes only
 * `--shepherd X`, so the launcher is `codecalc-exec --shepherd --launcher`). */
int cc_shepherd_main(const char *rundir);

/* The shepherd launcher (shepherd_launcher.c): a helper the server starts
 * once, so that neither starting a shepherd (a vfork + exec the server would
 * wait for) nor the capability broker (which lives in this binary) sits on
 * the server's run_submit path.
 *
 * It talks over a SOCK_SEQPACKET socket on its stdin, one request per
 * packet, processed in order:
 *   "S<rundir>"           start `codecalc-exec --shepherd <rundir>`; no reply
 *                         (a failed start is written to <rundir>/shepherd.log
 *                         and the run is found LOST by the server)
 *   "B<0|1><policy>"      broker decision (TOOLS.md 10.2) for no_net 0/1 under
 *                         that CODECALC_CAPABILITY_POLICY text; reply "A"
 *                         (admitted), "R<rejection JSON>" or "E" (failure)
 * It exits when the server closes its end. */
#define CC_SHEPHERD_LAUNCHER_ARG "--launcher"
#define CC_SHEPHERD_MSG_MAX 8192
int cc_shepherd_launcher_main(void);

#endif
