#include "workers/symbolic/sym_trig.h"

#include <string.h>

static bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool sym_text_calls(const char *text, const char *call) {
    for (const char *p = strstr(text, call); p; p = strstr(p + 1, call))
        if (p == text || !name_char(p[-1]))
            return true;
    return false;
}

/* text calls one of names[0..n) */
static bool calls_any(const char *text, const char *const *names, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (sym_text_calls(text, names[i]))
            return true;
    return false;
}

static const char *const SIN_COS[] = {"sin(", "cos("};
static const char *const OTHERS[] = {"tan(", "sec(", "csc(", "cot("};

bool sym_calls_trig(const char *text) {
    return calls_any(text, SIN_COS, 2) || calls_any(text, OTHERS, 4);
}

bool sym_calls_sin_cos_only(const char *text) {
    return calls_any(text, SIN_COS, 2) && !calls_any(text, OTHERS, 4);
}
