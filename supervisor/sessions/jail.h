/* File jail of a session workspace (TOOLS.md 4.9): every caller path is
 * resolved beneath the workspace directory by the kernel (openat2 with
 * RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS), so "..", absolute paths and
 * symlinks that lead out fail with EXDEV instead of being followed.
 *
 * Ownership: descriptors returned are the caller's to close; strings are
 * malloc'd and the caller's to free. */
#ifndef CC_JAIL_H
#define CC_JAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define CC_JAIL_MAX_PATH 4096
#define CC_JAIL_MAX_SEGMENTS 256
#define CC_JAIL_MAX_NAME 255

/* Why a path was refused: code (TOOLS.md 1.10) and message. */
struct cc_jail_err {
    const char *code;
    char msg[256];
};

/* Raw-string checks made before anything is resolved: NUL bytes, length,
 * segment count, over-long names, absolute paths. len is the string's byte
 * length (a JSON string may hold a NUL). 0 = acceptable, -1 = refused (e
 * filled). */
int cc_jail_precheck(const char *path, size_t len, struct cc_jail_err *e);

/* The path in canonical relative form: components split on '/', empty and
 * "." dropped ("" for the root). Malloc'd; NULL on OOM. */
char *cc_jail_normalize(const char *path);

/* openat2 beneath root_fd. flags are open(2) flags; O_NOFOLLOW refuses a
 * symlink as the final component. Returns the fd, or -1 with errno (EXDEV:
 * the path escapes; ELOOP: symlink refused). */
int cc_jail_openat(int root_fd, const char *rel, int flags, mode_t mode);

/* Open the directory that holds rel's final component, creating missing
 * parents (mode 0700, chowned to uid/gid when uid != (uid_t)-1) when create
 * is true. *leaf receives a malloc'd copy of the final component (NULL for
 * the root). Returns the directory fd or -1 with errno. */
int cc_jail_open_parent(int root_fd, const char *rel, bool create, uid_t uid, gid_t gid,
                        char **leaf);

/* Map an errno from the functions above to a refusal for path. */
void cc_jail_errno(int err, const char *path, struct cc_jail_err *e);

#endif
