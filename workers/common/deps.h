/* Per-run dependencies (issue 16; docs/contract.md "dependencies"): the
 * `dependencies` argument of execute_code, execute_code_stream and
 * run_submit, merged with a python program's PEP 723 block, checked before
 * any installer runs, normalised, and keyed for the install cache.
 *
 * The cache lives in $CODECALC_HOME/cache/deps: one directory per
 * dependency set, named by the SHA-256 of everything that decides what an
 * install produces (format version, ecosystem, the runtime and the
 * installer as files, the package index settings, the sorted specs). A
 * directory exists under its key only once complete, and is read-only from
 * then on. Programs see the cache at CC_DEPS_VIEW (sbx_share_readonly).
 *
 * Both the supervisor (run_submit refuses before a run exists) and the exec
 * worker (which installs) use this file; installing is the exec worker's
 * (workers/exec/deps_env.c).
 *
 * Ownership: struct cc_deps owns its strings; cc_deps_free releases them. */
#ifndef CC_DEPS_H
#define CC_DEPS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define CC_DEPS_MAX 32
#define CC_DEPS_SPEC_MAX 200
/* The install's own wall clock, apart from the program's timeout. */
#define CC_DEPS_INSTALL_TIMEOUT_S 120
/* Where every box shows $CODECALC_HOME/cache/deps, read-only. */
#define CC_DEPS_VIEW "/tmp/.codecalc-deps"

struct cc_deps {
    const char *lang;         /* canonical language (borrowed) */
    const char *eco;          /* the package ecosystem: "python3" or "node" */
    char **specs;             /* normalised, sorted, unique */
    size_t n;                 /* 0: the run has no dependencies */
    char key[65];             /* set by cc_deps_locate */
    char *dir;                /* $CODECALC_HOME/cache/deps/<key> */
    bool cached;              /* dir holds the complete environment */
};

/* Read args.dependencies and, for python3, the PEP 723 block of code, for
 * the canonical language lang. NULL with d filled (d->n may be 0), or the
 * validation result (d is then empty). */
json_t *cc_deps_read(json_t *args, const char *lang, const char *code, size_t code_len, struct cc_deps *d);

/* Key d (d->n > 0) and see whether its environment is cached. NULL, or a
 * rejected result (no installer for the ecosystem, no state directory). */
json_t *cc_deps_locate(struct cc_deps *d);

/* The refusal of a run whose dependencies must be installed but whose
 * network is off: no_net asked, or the capability policy denies network.
 * NULL when the run may go on. */
json_t *cc_deps_refusal(const struct cc_deps *d, bool no_net, bool policy_denies_network);

/* $CODECALC_HOME/cache/deps into buf; "" when there is no state directory. */
const char *cc_deps_root(char *buf, size_t cap);

/* Create it (cache/ 0700, deps/ 0711: the sandbox user may enter an
 * environment whose key it knows but list none), with $CODECALC_HOME when
 * missing. The supervisor does this once, before it starts any worker. 0
 * or -1. */
int cc_deps_make_root(void);

void cc_deps_free(struct cc_deps *d);

#endif
