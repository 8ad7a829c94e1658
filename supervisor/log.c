#include "supervisor/log.h"
#include "protocol/text_knob.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static enum cc_log_level threshold = CC_LOG_WARNING;

void cc_log_init(void) {
    static const char *const names[] = {"debug", "info", "warning", "error"};
    const char *v = cc_text(CC_TEXT_LOG);
    for (int i = 0; v && i < 4; i++)
        if (strcmp(v, names[i]) == 0) threshold = (enum cc_log_level)i;
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
