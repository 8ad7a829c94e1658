/* A run's private directory: created fresh (never reusing a path that
 * already exists), owned by the uid the program runs as, and removed only
 * if it is still the very directory we created (same device and inode),
 * without ever following a symlink the program may have planted.
 *
 * Ownership: struct cc_rundir is a plain value owned by the caller. */
#ifndef CC_RUNDIR_H
#define CC_RUNDIR_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct cc_rundir {
    char path[PATH_MAX];  /* absolute path of the directory */
    dev_t dev;            /* identity recorded at creation */
    ino_t ino;
    bool have_id;         /* false: never remove */
    bool bounded;         /* a bounded tmpfs is mounted on it (scratch.c) */
    char unbound[96];     /* why not, when !bounded and created here */
};

/* Create parent/codecalc-<pid>-<nonce> (mode 0700; chowned to the sandbox's
 * run uid when the worker is root) and mount a size- and inode-bounded
 * tmpfs on it where this process can (rd->bounded; else rd->unbound says
 * why and the directory is on the parent's filesystem). parent must be absolute and exist.
 * Copies the path to out_path (cap bytes) when out_path is not NULL.
 * Returns 0, or -1 with errno set. */
int cc_rundir_create(const char *parent, char *out_path, size_t cap, struct cc_rundir *rd);

/* The same without the tmpfs: a staging directory whose tree is renamed
 * into place on the parent's filesystem when it is complete (an install's
 * environment). A mount point cannot be renamed (EBUSY), and a tmpfs's
 * tree would not survive it. */
int cc_rundir_create_on_disk(const char *parent, char *out_path, size_t cap, struct cc_rundir *rd);

/* Unmount a bounded directory's tmpfs (its contents go with it), then
 * remove the directory tree if its identity still matches. Returns 0 when
 * removed, -1 when not (errno: ESTALE for an identity mismatch or no
 * identity, ELOOP when it was replaced by a symlink, else the failing
 * call's errno). Never follows symlinks; entries that are not directories
 * are unlinked, never opened. */
int cc_rundir_remove(const struct cc_rundir *rd);

#endif
