/* Removing a directory tree a program wrote (a run directory, a session
 * workspace): on directory descriptors all the way down (openat with
 * O_NOFOLLOW, unlinkat), so a symlink swapped in by the program can neither
 * redirect the walk nor be followed out of the tree; with bounded depth and
 * descriptors, so any depth is removed; opening up directories the program
 * made unreadable or read-only (chmod 000, 555), which a non-root server,
 * sharing the program's uid, cannot enter or empty otherwise.
 *
 * Why one: workers/sandbox/rundir.c had this walk and the supervisor's
 * cc_session_rmtree a plain recursion of its own (the supervisor may not
 * link workers/sandbox), which held a directory open per level and left a
 * workspace nested deeper than the descriptor limit on disk. Lives in
 * protocol/: every binary links it. */
#ifndef CC_RMTREE_H
#define CC_RMTREE_H

/* Remove everything inside the directory dfd (dfd stays open and is not
 * removed). 0, or -1 with errno when something could not be removed. */
int cc_rmtree_empty(int dfd);

/* Remove dirfd/name: a non-directory (a symlink included) is unlinked, a
 * directory emptied and removed. 0, or -1 with errno (ENOENT when there
 * is nothing of that name). */
int cc_rmtree_at(int dirfd, const char *name);

#endif
