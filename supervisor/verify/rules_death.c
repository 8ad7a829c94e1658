/* How a failed run died, as the comparison rules read it: of its
 * language's uncaught error or by a deliberate exit, and whether what it
 * printed before is all it wrote (docs/contract.md, lane verred). */
#include "supervisor/verify/rules.h"

#include <ctype.h>
#include <string.h>

/* The end of s (len bytes) less its trailing newlines. */
static size_t trimmed(const char *s, size_t len) {
    while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\r')) len--;
    return len;
}

/* s[0..len) ends with "<word> <digits>" (word "line" or "chunk"): where
 * the space before the word starts, or (size_t)-1. */
static size_t counted(const char *s, size_t len) {
    size_t d = len;
    while (d > 0 && isdigit((unsigned char)s[d - 1])) d--;
    if (d == len) return (size_t)-1;
    if (d >= 6 && memcmp(s + d - 6, " line ", 6) == 0) return d - 6;
    if (d >= 7 && memcmp(s + d - 7, " chunk ", 7) == 0) return d - 7;
    return (size_t)-1;
}

/* Perl's die (and croak, and a run-time error) ends stderr with
 * "<message> at <file> line <n>." and, after a read, ", <FH> line <m>."
 * or "chunk <m>.". Its exit code is errno when that is non-zero (2 after
 * a failed open), else 255, so the code alone does not tell it from a
 * deliberate exit. */
bool cc_perl_die_trace(const char *err) {
    if (!err) return false;
    size_t len = trimmed(err, strlen(err)), start = len;
    while (start > 0 && err[start - 1] != '\n') start--;
    const char *l = err + start;
    size_t n = len - start;
    if (n < 2 || l[n - 1] != '.') return false;
    n--;
    /* ", <STDIN> line 3" after the file's line: cut it off first. */
    for (size_t i = n; i-- > 0;)
        if (i + 3 <= n && memcmp(l + i, ", <", 3) == 0) {
            size_t w = counted(l, n);
            if (w != (size_t)-1 && w > i && l[w - 1] == '>') n = i;
            break;
        }
    size_t at = counted(l, n);
    if (at == (size_t)-1 || l[at + 1] != 'l') return false;
    return memmem(l, at, " at ", 4) != NULL;
}

/* A rust main returning Err (an error passed up with `?` to the top, the
 * language's way to leave it uncaught) exits 1 after "Error: <debug>". */
static bool rust_main_err(int code, const char *err) {
    return code == 1 && err && (strncmp(err, "Error: ", 7) == 0 || strstr(err, "\nError: ") != NULL);
}

bool cc_uncaught_exit(const char *lang, int code, const char *err) {
    if (code == cc_lang_crash_code(lang)) return true;
    if (!lang || code == 0) return false;
    if (strcmp(lang, "perl") == 0) return cc_perl_die_trace(err);
    if (strcmp(lang, "rust") == 0) return rust_main_err(code, err);
    return false;
}

/* Runtimes whose exit path, deliberate or by an uncaught error, writes
 * out everything the program printed: python3 runs unbuffered
 * (PYTHONUNBUFFERED), C's exit() and a return from main flush stdio, and
 * lua, perl, ruby and php flush their own buffers at exit. go, java, rust
 * and others lose what a user-level buffer (bufio, BufferedWriter,
 * BufWriter) still held. A death by a signal loses it everywhere. */
bool cc_lang_output_complete(const char *lang) {
    static const char *const t[] = {"python3", "c", "c++", "cpp", "lua", "perl", "ruby", "php"};
    for (size_t i = 0; lang && i < sizeof t / sizeof t[0]; i++)
        if (strcmp(lang, t[i]) == 0) return true;
    return false;
}
