#include "workers/symbolic/sym_trig.h"

#include <string.h>

static bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool sym_calls_trig(const char *text) {
    static const char *const names[] = {"sin(", "cos(", "tan(", "sec(", "csc(", "cot("};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        for (const char *p = strstr(text, names[i]); p; p = strstr(p + 1, names[i]))
            if (p == text || !name_char(p[-1]))
                return true;
    return false;
}
