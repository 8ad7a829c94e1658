/* The package managers, as data (TOOLS.md 3.6.1's installer table as this
 * platform runs it): for each ecosystem, its installers in order of
 * preference and the /bin/sh script each runs to install package specs into
 * the current directory. install_package (supervisor/sessions/install.c)
 * and per-run dependencies (workers/common/deps.c) both install through it.
 *
 * The scripts run inside the sandbox with cwd = the target directory; every
 * spec is single-quoted, so a spec must never contain a quote (both callers
 * validate the charset first). */
#ifndef CC_PKG_MANAGERS_H
#define CC_PKG_MANAGERS_H

#include <stddef.h>

struct cc_pkg_ecosystem {
    const char *lang;         /* canonical language */
    const char *pin_sep;      /* package<sep>version */
    struct {
        const char *bin;      /* looked up on the runtime PATH, then the server's */
        const char *runs_as;  /* its command row */
    } installers[3];
    const char *missing;      /* dependency_missing text when none is found; NULL: runtime_unavailable */
};

/* The ecosystem of a canonical language, or NULL. */
const struct cc_pkg_ecosystem *cc_pkg_ecosystem(const char *lang);

/* The first installer of eco found: its command row name ("uv", "pip",
 * "npm", ...), with its resolved path in *path (malloc'd; may be NULL).
 * NULL when none is found. */
const char *cc_pkg_find_installer(const struct cc_pkg_ecosystem *eco, char **path);

/* The script installing the n specs with the installer runs_as, malloc'd;
 * *no_exec_flag names the flag that keeps package code from running. NULL
 * when this build has no command for runs_as (errno ENOENT) or on OOM. */
char *cc_pkg_script(const char *runs_as, const char *const *specs, size_t n, const char **no_exec_flag);

#endif
