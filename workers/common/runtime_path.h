/* The runtime PATH (TOOLS.md 8.1) and command resolution as the sandbox
 * uid sees it (workers/common/runtime_path.c). */
#ifndef CC_RUNTIME_PATH_H
#define CC_RUNTIME_PATH_H

/* The runtime PATH (8.1): CODECALC_RUNTIME_PATH, else PATH, else the fixed
 * default. Read on every call. Static storage of the environment or literal. */
const char *cc_runtime_path(void);

/* Absolute path of an executable regular file named cmd on path (cmd with a
 * '/' is checked as is). Malloc'd (caller frees), or NULL. */
char *cc_resolve_cmd(const char *cmd, const char *path);

#endif
