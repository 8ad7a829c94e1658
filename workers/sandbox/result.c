/* sbx_result's owned strings: the unenforced list and the spawn error. */
#include "workers/sandbox/sandbox.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sbx_unenforced_add(struct sbx_result *res, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0)
        return -1;
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

void sbx_result_free(struct sbx_result *res) {
    if (!res)
        return;
    for (size_t i = 0; i < res->n_unenforced; i++)
        free(res->unenforced[i]);
    free(res->unenforced);
    free(res->spawn_error);
    res->unenforced = NULL;
    res->n_unenforced = 0;
    res->spawn_error = NULL;
}
