#include "supervisor/repl_host_path.h"
#include "protocol/text_knob.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cc_repl_host_path(const char *bindir, const char *name, char *out, size_t cap) {
    const char *env = cc_text(CC_TEXT_REPL_DIR);
    char cand[3][PATH_MAX + 64];
    snprintf(cand[0], sizeof cand[0], "%s/%s", env ? env : "/nonexistent", name);
    snprintf(cand[1], sizeof cand[1], "%s/../../repl-workers/%s", bindir, name);
    snprintf(cand[2], sizeof cand[2], "%s/%s", bindir, name);
    char real[PATH_MAX];
    for (int i = 0; i < 3; i++)
        if (access(cand[i], R_OK) == 0 && realpath(cand[i], real) && strlen(real) < cap) {
            memcpy(out, real, strlen(real) + 1);
            return 0;
        }
    errno = ENOENT;
    return -1;
}
