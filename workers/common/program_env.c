/* Environments of sandboxed programs (program_env.h).
 *
 * Why one builder: what a program sees of the server's environment is a
 * security boundary (a secret in the server's environment must never reach
 * executed code), so each caller names what passes -- an allowlist and
 * forced entries -- and the array grows as needed instead of trusting a
 * fixed count to fit the allowlist. */
#include "workers/common/program_env.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

const char *const cc_registry_env[] = {
    "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_NO_INDEX", "PIP_CERT",
    "UV_INDEX_URL", "npm_config_registry", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy",
    "http_proxy", "no_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE",
    "npm_config_cafile", NULL};

static void push(struct cc_env *e, char *entry) {
    if (!entry) {
        e->failed = true;
        return;
    }
    if (e->n + 1 >= e->cap) {
        size_t cap = e->cap ? e->cap * 2 : 16;
        char **v = realloc(e->v, cap * sizeof *v);
        if (!v) {
            free(entry);
            e->failed = true;
            return;
        }
        e->v = v;
        e->cap = cap;
    }
    e->v[e->n++] = entry;
    e->v[e->n] = NULL;
}

void cc_env_keep(struct cc_env *e, const char *const *names) {
    for (; *names; names++) {
        const char *v = getenv(*names);
        char *entry;
        if (v) push(e, asprintf(&entry, "%s=%s", *names, v) < 0 ? NULL : entry);
    }
}

void cc_env_set(struct cc_env *e, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *entry;
    int rc = vasprintf(&entry, fmt, ap);
    va_end(ap);
    push(e, rc < 0 ? NULL : entry);
}

char **cc_env_take(struct cc_env *e) {
    char **v = e->v;
    bool failed = e->failed;
    *e = (struct cc_env){0};
    if (!failed && !v) v = calloc(1, sizeof *v); /* an empty environment */
    if (failed || !v) {
        cc_env_free(v);
        return NULL;
    }
    return v;
}

void cc_env_free(char **env) {
    for (size_t i = 0; env && env[i]; i++) free(env[i]);
    free(env);
}
