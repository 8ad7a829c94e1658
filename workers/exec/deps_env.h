/* The per-run dependency environment on the exec side (workers/common/deps.h
 * decides what a run asks for; this file makes it exist).
 *
 * A hit holds the cached environment (a shared lock, so eviction passes it
 * by) for the run. A miss installs: a fresh staging directory in the cache
 * (owned by the sandbox user), the ecosystem's installer run in the sandbox
 * with the network (workers/exec/install.c) under its own 120 s wall clock,
 * then the worker seals the tree (root-owned, no write bits, no hard links
 * or special files, within the workdir quota) and publishes it under its key
 * with one rename. The cache is bounded (least recently used first).
 *
 * Ownership: struct cc_deps_use is the caller's; cc_deps_release frees it. */
#ifndef CC_DEPS_ENV_H
#define CC_DEPS_ENV_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "workers/common/deps.h"

struct cc_deps_use {
    int lock_fd;              /* the entry, held LOCK_SH; -1 */
    char view[160];           /* the entry as programs see it: CC_DEPS_VIEW/<key> */
    bool cached;              /* no install ran */
    int64_t install_ms;       /* 0 on a hit */
};

/* Make the environment of d (located: cc_deps_locate) ready, installing it
 * only when may_install (the run may use the network); stop (may be NULL)
 * is asked whether the call was cancelled. NULL with use filled, or the
 * rejected result of a failed install (phase "install", output_tail). */
json_t *cc_deps_prepare(struct cc_deps *d, bool may_install, int (*stop)(void *), void *stop_ud,
                        struct cc_deps_use *use);
void cc_deps_release(struct cc_deps_use *use);

/* {"installed": [specs], "cached": bool, "install_ms": n}, for results. */
json_t *cc_deps_report(const struct cc_deps *d, const struct cc_deps_use *use);

/* At process start (exec worker, shepherd): have every box show the cache
 * directory read-only at CC_DEPS_VIEW. */
void cc_deps_share(void);

#endif
