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

/* Run the shepherd for rundir; returns the process exit status (0 once a
 * result.json was written, 1 when even that failed). */
int cc_shepherd_main(const char *rundir);

#endif
