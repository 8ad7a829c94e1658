/* `codecalc-exec --doctor`: what only the exec side knows, for `codecalc
 * doctor` (which links no exec code): one JSON object on stdout,
 *   {"runtimes": [{name, command, status, path, version: null, tier,
 *                  detail?}, ...],        one row per language but c++,
 *    "providers": [...],                  list_execution_providers,
 *    "run_uid": n, "run_gid": n}          the ids programs run as
 * resolved on the runtime PATH (TOOLS.md 9.2 rules 2-3); nothing executed. */
#ifndef CC_DOCTOR_REPORT_H
#define CC_DOCTOR_REPORT_H

#define CC_EXEC_DOCTOR_ARG "--doctor"

/* Print the report; the process exit status. */
int cc_exec_doctor_main(void);

#endif
