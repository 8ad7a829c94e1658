#include "protocol/home_path.h"
#include "protocol/text_knob.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int cc_home_path(char *out, size_t cap) {
    const char *env = cc_text(CC_TEXT_HOME);
    int n;
    if (env) {
        n = snprintf(out, cap, "%s", env);
    } else {
        const char *home = getenv("HOME");
        if (!home || !*home) {
            struct passwd *pw = getpwuid(getuid());
            home = pw ? pw->pw_dir : NULL;
        }
        if (!home) {
            errno = ENOENT;
            return -1;
        }
        n = snprintf(out, cap, "%s/.codecalc", home);
    }
    if (n < 0 || (size_t)n >= cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}
