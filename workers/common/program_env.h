/* The environment of a program started in the sandbox (executed code, a
 * REPL host, a package installer): built from an allowlist of the server's
 * variables plus forced entries, never inherited whole
 * (workers/common/program_env.c). */
#ifndef CC_PROGRAM_ENV_H
#define CC_PROGRAM_ENV_H

#include <stdbool.h>
#include <stddef.h>

struct cc_env {
    char **v;        /* NULL-terminated once anything was added */
    size_t n, cap;
    bool failed;     /* an allocation failed: cc_env_take answers NULL */
};

/* Operator settings that say where package registries are and how to
 * reach them (index URLs, proxies, CA files): passed to installers and
 * package managers, never to executed code. NULL-terminated. */
extern const char *const cc_registry_env[];

/* Append NAME=value for each name in the NULL-terminated list that the
 * server's environment has. */
void cc_env_keep(struct cc_env *e, const char *const *names);
/* Append one "NAME=value" entry, printf-style. */
void cc_env_set(struct cc_env *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The NULL-terminated array (the caller frees it with cc_env_free), or NULL
 * when any step failed (everything is then released). e is emptied. */
char **cc_env_take(struct cc_env *e);
void cc_env_free(char **env);

#endif
