/* `codecalc-exec --probe`: the sandbox's view of this host, for a process
 * that links no sandbox code (the supervisor's CODECALC_REQUIRE_NATIVE
 * check, supervisor/native_check.c).
 *
 * It prints one JSON object on stdout and exits 0:
 *   {"userns":b, "pidns":b, "mntns":b, "netns":b, "ipcns":b, "utsns":b,
 *    "cgroup_v2":b, "cgroup_v1_memory":b, "cgroup_v1_pids":b,
 *    "seccomp":b, "root":b, "landlock_abi":n}
 * each true when the kernel let the probe use that feature (sbx_probe);
 * landlock_abi is the kernel's Landlock ABI version, 0 without Landlock
 * (6 and up scope a run's abstract unix sockets and signals). */
#ifndef CC_PROBE_REPORT_H
#define CC_PROBE_REPORT_H

#include <jansson.h>

#define CC_EXEC_PROBE_ARG "--probe"

/* Print the report; the process exit status. */
int cc_exec_probe_main(void);

/* o (consumed) as one compact JSON line on stdout: 0, or 1 when o is NULL
 * or could not be written (the exit status of a report mode). */
int cc_exec_print_report(json_t *o);

#endif
