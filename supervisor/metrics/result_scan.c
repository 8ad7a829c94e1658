/* Reading a tool result's outcome for the metrics without parsing it: one
 * pass over the JSON text that tracks nesting and strings, and looks only
 * at the members of the outermost object. A nested "code" (inside a
 * receipt, say) or the text "code" inside a program's output can never be
 * mistaken for the result's own. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "supervisor/metrics/metrics.h"

/* Length of the JSON string starting at p[0] == '"' (quotes included), or
 * 0 when it does not end within n. */
static size_t string_len(const char *p, size_t n) {
    for (size_t i = 1; i < n; i++) {
        if (p[i] == '\\') i++;
        else if (p[i] == '"') return i + 1;
    }
    return 0;
}

/* Copy a short string value (without escapes) into out. */
static void take(const char *p, size_t len, char *out, size_t cap) {
    size_t n = len >= 2 ? len - 2 : 0;
    if (n >= cap || memchr(p + 1, '\\', n)) n = 0;
    memcpy(out, p + 1, n);
    out[n] = '\0';
}

void cc_metrics_scan_result(const char *json, size_t len, char code[static 48], char verdict[static 16]) {
    snprintf(code, 48, "ok");
    verdict[0] = '\0';
    int depth = 0;
    bool expect_key = false;
    const char *key = NULL;
    size_t keylen = 0;
    for (size_t i = 0; i < len; i++) {
        char c = json[i];
        if (c == '"') {
            size_t sl = string_len(json + i, len - i);
            if (!sl) return;
            if (depth == 1 && expect_key) {
                key = json + i + 1;
                keylen = sl - 2;
            } else if (depth == 1 && key) {
                if (keylen == 4 && memcmp(key, "code", 4) == 0) take(json + i, sl, code, 48);
                else if (keylen == 7 && memcmp(key, "verdict", 7) == 0) take(json + i, sl, verdict, 16);
                key = NULL;
            }
            i += sl - 1;
            expect_key = false;
        } else if (c == '{' || c == '[') {
            depth++;
            expect_key = depth == 1 && c == '{';
        } else if (c == '}' || c == ']') {
            depth--;
        } else if (c == ',' && depth == 1) {
            expect_key = true;
            key = NULL;
        }
    }
    if (!code[0]) snprintf(code, 48, "other");
}
