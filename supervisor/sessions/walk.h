/* Directory reading for the sessions layer. A recursive walk of a workspace
 * with lstat semantics: symlinks are never followed or counted, only regular
 * files are reported. Used by quotas (sizes, artifact count) and
 * session_artifacts (TOOLS.md 3.2.8, 4.6). And the sorted names of one
 * directory, for session_files and session_list. */
#ifndef CC_SESSION_WALK_H
#define CC_SESSION_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* rel is the path from the walk's root with forward slashes (borrowed for
 * the call). Return non-zero to stop the walk. */
typedef int (*cc_walk_fn)(void *ud, const char *rel, const struct stat *st);

/* Walk the directory dirfd (borrowed). Returns 0, or fn's non-zero value,
 * or -1 when a directory could not be read at the top level. */
int cc_walk_files(int dirfd, cc_walk_fn fn, void *ud);

/* true when session_artifacts lists this file: not in a run's scratch
 * directory, not *.pyc, not under __pycache__. */
bool cc_walk_is_artifact(const char *rel);
/* true for the name of a run's scratch directory (hidden from listings). */
bool cc_walk_is_scratch(const char *name);

/* Decides whether name (an entry of dirfd) is listed. */
typedef bool (*cc_dir_keep_fn)(void *ud, int dirfd, const char *name);
/* The entries of dirfd (borrowed; read from its start) that keep accepts
 * (NULL: all), sorted by strcmp, never "." or "..". *names is a malloc'd
 * array of malloc'd names, freed with cc_dir_names_free; a name that could
 * not be stored ends the list early. Their count, or -1 when the directory
 * cannot be read. */
long cc_dir_names(int dirfd, cc_dir_keep_fn keep, void *ud, char ***names);
void cc_dir_names_free(char **names, long n);

struct cc_usage {
    unsigned long long bytes;     /* sum of regular-file sizes */
    long long artifacts;          /* files session_artifacts would list */
};
/* Usage of one workspace. 0 or -1. */
int cc_walk_usage(int dirfd, struct cc_usage *u);

#endif
