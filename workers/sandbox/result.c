/* sbx_result's owned parts: the unenforced list, the spawn error and the
 * captured streams. */
#include "workers/sandbox/sandbox.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int append(struct sbx_result *res, char *s) {
    /* Keep the list NULL-terminated after every append. */
    char **grown = realloc(res->unenforced, (res->n_unenforced + 2) * sizeof *grown);
    if (!grown) {
        free(s);
        return -1;
    }
    grown[res->n_unenforced++] = s;
    grown[res->n_unenforced] = NULL;
    res->unenforced = grown;
    return 0;
}

int sbx_unenforced_add(struct sbx_result *res, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    return n < 0 ? -1 : append(res, s);
}

void sbx_unenforced_copy(struct sbx_result *res, char *const *list, size_t n) {
    for (size_t i = 0; i < n; i++) {
        char *s = strdup(list[i]);
        if (s) append(res, s);
    }
}

int sbx_fail(struct sbx_result *res, const char *what, int err) {
    free(res->spawn_error);
    if (asprintf(&res->spawn_error, "%s: %s", what, strerror(err)) < 0)
        res->spawn_error = NULL;
    res->spawn_errno = err;
    res->started = false;
    return -1;
}

void sbx_result_free(struct sbx_result *res) {
    if (!res)
        return;
    for (size_t i = 0; i < res->n_unenforced; i++)
        free(res->unenforced[i]);
    free(res->unenforced);
    free(res->spawn_error);
    free(res->out.data);
    free(res->err.data);
    res->unenforced = NULL;
    res->n_unenforced = 0;
    res->spawn_error = NULL;
    memset(&res->out, 0, sizeof res->out);
    memset(&res->err, 0, sizeof res->err);
}
