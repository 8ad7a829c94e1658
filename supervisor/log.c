#include "supervisor/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static enum cc_log_level threshold = CC_LOG_WARNING;

void cc_log_init(void) {
    const char *v = getenv("CODECALC_LOG");
    if (!v) return;
    if (strcmp(v, "debug") == 0) threshold = CC_LOG_DEBUG;
    else if (strcmp(v, "info") == 0) threshold = CC_LOG_INFO;
    else if (strcmp(v, "error") == 0) threshold = CC_LOG_ERROR;
}

void cc_log(enum cc_log_level lvl, const char *fmt, ...) {
    if (lvl < threshold) return;
    static const char *names[] = {"debug", "info", "warning", "error"};
    char line[1024];
    int off = snprintf(line, sizeof line, "codecalc[%d] %s: ", (int)getpid(), names[lvl]);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + off, sizeof line - (size_t)off, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", line);
}
