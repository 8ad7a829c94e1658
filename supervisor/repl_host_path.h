/* Where a REPL host program (python_host.py, node_host.js) is found:
 * $CODECALC_REPL_DIR, else the repository's repl-workers/ seen from
 * build/bin, else next to the binaries (an installed package). Used by the
 * sessions layer to start hosts and by doctor to report them. */
#ifndef CC_REPL_HOST_PATH_H
#define CC_REPL_HOST_PATH_H

#include <stddef.h>

/* Resolved absolute path into out. 0, or -1 (errno ENOENT) when absent. */
int cc_repl_host_path(const char *bindir, const char *name, char *out, size_t cap);

#endif
