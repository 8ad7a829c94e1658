/* PEP 723 script blocks (pep723.h). */
#include "workers/common/pep723.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The next line of [*p, end): its start and length without the newline
 * (and a CR before it); *p moves past it. false at the end. */
static bool next_line(const char **p, const char *end, const char **line, size_t *len) {
    if (*p >= end) return false;
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    const char *stop = nl ? nl : end;
    *line = *p;
    *len = (size_t)(stop - *p);
    if (*len && (*line)[*len - 1] == '\r') (*len)--;
    *p = nl ? nl + 1 : end;
    return true;
}

static bool line_is(const char *line, size_t len, const char *text) {
    return len == strlen(text) && memcmp(line, text, len) == 0;
}

/* The TOML text of the first "script" block (comment markers removed), or
 * NULL with *found false when there is none. -1 on a malformed block. */
static int script_block(const char *code, size_t n, char **toml, char *err, size_t errcap) {
    const char *p = code, *end = code + n, *line;
    size_t len;
    *toml = NULL;
    while (next_line(&p, end, &line, &len)) {
        if (!line_is(line, len, "# /// script")) continue;
        if (*toml) {
            free(*toml);
            *toml = NULL;
            snprintf(err, errcap, "the code has more than one '# /// script' block (PEP 723 allows one)");
            return -1;
        }
        size_t cap = 256, used = 0;
        char *t = malloc(cap);
        bool closed = false;
        while (t && next_line(&p, end, &line, &len)) {
            if (line_is(line, len, "# ///")) {
                closed = true;
                break;
            }
            if (!(line_is(line, len, "#") || (len >= 2 && line[0] == '#' && line[1] == ' '))) break;
            size_t take = len > 2 ? len - 2 : 0;
            if (used + take + 2 > cap) {
                while (used + take + 2 > cap) cap *= 2;
                char *g = realloc(t, cap);
                if (!g) {
                    free(t);
                    t = NULL;
                    break;
                }
                t = g;
            }
            memcpy(t + used, line + 2, take);
            used += take;
            t[used++] = '\n';
        }
        if (!t) return snprintf(err, errcap, "out of memory"), -1;
        t[used] = '\0';
        if (!closed) {
            free(t);
            snprintf(err, errcap, "the '# /// script' block is not closed by a '# ///' line (PEP 723)");
            return -1;
        }
        *toml = t;
    }
    return 0;
}

/* Whitespace, newlines and # comments. */
static const char *skip_blank(const char *s) {
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
        if (*s != '#') return s;
        while (*s && *s != '\n') s++;
    }
}

/* A TOML basic ("...", escapes \" and \\ only) or literal ('...') string
 * on one line. Malloc'd; *s moves past it; NULL when malformed. */
static char *toml_string(const char **s) {
    char q = **s;
    const char *p = *s + 1;
    size_t cap = strlen(p) + 1, n = 0;
    char *out = malloc(cap);
    if (!out) return NULL;
    while (*p && *p != q && *p != '\n') {
        if (q == '"' && *p == '\\') {
            if (p[1] != '"' && p[1] != '\\') break;
            p++;
        }
        out[n++] = *p++;
    }
    if (*p != q) {
        free(out);
        return NULL;
    }
    out[n] = '\0';
    *s = p + 1;
    return out;
}

/* `dependencies = [ "a", 'b', ]` at the top level of the block. */
static int parse_array(const char *v, size_t max, char ***out, size_t *n, char *err, size_t errcap) {
    const char *s = skip_blank(v);
    if (*s != '[') return snprintf(err, errcap, "'dependencies' in the script block must be an array of strings"), -1;
    s = skip_blank(s + 1);
    char **list = calloc(max + 1, sizeof *list);
    size_t k = 0;
    if (!list) return snprintf(err, errcap, "out of memory"), -1;
    while (*s != ']') {
        if (*s != '"' && *s != '\'') goto bad;
        if (k == max) {
            snprintf(err, errcap, "the script block lists more than %zu dependencies", max);
            cc_pep723_free(list, k);
            return -1;
        }
        if (!(list[k] = toml_string(&s))) goto bad;
        k++;
        s = skip_blank(s);
        if (*s == ',') s = skip_blank(s + 1);
        else if (*s != ']') goto bad;
    }
    *out = list;
    *n = k;
    return 0;
bad:
    cc_pep723_free(list, k);
    snprintf(err, errcap, "'dependencies' in the script block must be an array of strings "
             "(TOML, one string per entry)");
    return -1;
}

int cc_pep723_dependencies(const char *code, size_t len, size_t max, char ***out, size_t *n, char *err,
                           size_t errcap) {
    *out = NULL;
    *n = 0;
    char *toml;
    if (script_block(code, len, &toml, err, errcap) < 0) return -1;
    if (!toml) return 0;
    int rc = 0;
    /* Top-level keys come before the first [table] header. */
    for (const char *line = toml; *line; line = strchr(line, '\n') + 1) {
        const char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (*s == '[') break;
        if (strncmp(s, "dependencies", 12) == 0) {
            s += 12;
            while (*s == ' ' || *s == '\t') s++;
            if (*s == '=') {
                rc = parse_array(s + 1, max, out, n, err, errcap);
                break;
            }
        }
    }
    free(toml);
    return rc;
}

void cc_pep723_free(char **v, size_t n) {
    if (!v) return;
    for (size_t i = 0; i < n; i++) free(v[i]);
    free(v);
}
