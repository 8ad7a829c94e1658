/* A reader of an SMT-LIB2 script's top-level commands (smt2_scan.h). Only
 * as much of the syntax as finding command boundaries needs: parentheses,
 * comments, string literals ("" escapes a quote) and |quoted symbols|. */
#include "workers/symbolic/smt2_scan.h"

#include <stdlib.h>
#include <string.h>

enum tok { T_END, T_OPEN, T_CLOSE, T_ATOM, T_BAD };

struct reader {
    const char *s;
    size_t n, i;
    size_t start, len; /* the last atom */
    size_t counted, line; /* s[0..counted) holds line - 1 newlines */
};

static void skip_space(struct reader *r) {
    while (r->i < r->n) {
        char c = r->s[r->i];
        if (c == ';') {
            while (r->i < r->n && r->s[r->i] != '\n') r->i++;
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            r->i++;
        } else {
            return;
        }
    }
}

/* A string literal or quoted symbol from its opening delimiter; false when
 * unterminated. */
static bool skip_quoted(struct reader *r, char close) {
    for (r->i++; r->i < r->n; r->i++) {
        if (r->s[r->i] != close) continue;
        if (close == '"' && r->i + 1 < r->n && r->s[r->i + 1] == '"') {
            r->i++; /* "" inside a string */
            continue;
        }
        r->i++;
        return true;
    }
    return false;
}

static enum tok next(struct reader *r) {
    skip_space(r);
    if (r->i >= r->n) return T_END;
    char c = r->s[r->i];
    if (c == '(') return r->i++, T_OPEN;
    if (c == ')') return r->i++, T_CLOSE;
    r->start = r->i;
    if (c == '"' || c == '|') {
        if (!skip_quoted(r, c)) return T_BAD;
    } else {
        /* a NUL is no delimiter (strchr would find the set's own
         * terminator and the atom would never advance): the tool refuses
         * NULs before the scan, the scanner must still end */
        do r->i++;
        while (r->i < r->n && !(r->s[r->i] && strchr(" \t\n\r\f\v();\"|", r->s[r->i])));
    }
    r->len = r->i - r->start;
    return T_ATOM;
}

static bool atom_is(const struct reader *r, const char *word) {
    return r->len == strlen(word) && memcmp(r->s + r->start, word, r->len) == 0;
}

/* Consumes tokens up to and including the ')' that closes a form whose '('
 * was already read. false on a malformed script. */
static bool close_form(struct reader *r) {
    for (size_t depth = 1; depth;) {
        enum tok t = next(r);
        if (t == T_END || t == T_BAD) return false;
        if (t == T_OPEN) depth++;
        if (t == T_CLOSE) depth--;
    }
    return true;
}

/* Output options z3 answers anyway, and refuses to set once its context
 * exists ("option value cannot be modified after initialization"). */
static bool benign_option(const struct reader *r) {
    static const char *const names[] = {":produce-models", ":produce-unsat-cores", ":produce-assignments",
                                        ":produce-proofs", ":produce-unsat-assumptions", ":print-success",
                                        NULL};
    for (const char *const *p = names; *p; p++)
        if (atom_is(r, *p)) return true;
    return false;
}

/* (set-option :timeout N) once its keyword was read: N in ms into *ms
 * (clamped to UINT32_MAX); false when N is not a numeral, which is left
 * to z3 to refuse. */
static bool timeout_option(struct reader *r, unsigned long *ms) {
    if (!atom_is(r, ":timeout") || next(r) != T_ATOM || r->len == 0) return false;
    unsigned long v = 0;
    for (size_t k = 0; k < r->len; k++) {
        char c = r->s[r->start + k];
        if (c < '0' || c > '9') return false;
        v = v > 429496729UL ? 4294967295UL : v * 10 + (unsigned long)(c - '0');
        if (v > 4294967295UL) v = 4294967295UL;
    }
    *ms = v;
    return true;
}

static void blank(char *s, size_t from, size_t to) {
    for (size_t k = from; k < to; k++)
        if (s[k] != '\n') s[k] = ' ';
}

/* The body of an assert, after "assert": the label of (! term ... :named
 * label ...), malloc'd, in *name (NULL when unnamed). Leaves the reader
 * after the assert's closing ')'. */
static bool assert_body(struct reader *r, char **name) {
    *name = NULL;
    enum tok t = next(r);
    if (t == T_ATOM) return close_form(r); /* (assert p) */
    if (t != T_OPEN) return false;
    enum tok h = next(r);
    if (h == T_ATOM && atom_is(r, "!")) {
        for (;;) {
            t = next(r);
            if (t == T_END || t == T_BAD) return false;
            if (t == T_CLOSE) break;
            if (t == T_OPEN) {
                if (!close_form(r)) return false;
                continue;
            }
            if (atom_is(r, ":named") && next(r) == T_ATOM && !*name) {
                size_t a = r->start, len = r->len;
                if (len >= 2 && r->s[a] == '|') a++, len -= 2; /* |a b| is the symbol a b */
                *name = strndup(r->s + a, len);
                if (!*name) return false;
            }
        }
        return close_form(r);
    }
    if (h == T_END || h == T_BAD) return false;
    if (h == T_OPEN && !close_form(r)) return false; /* a form in head position */
    if (h != T_CLOSE && !close_form(r)) return false; /* the term */
    return close_form(r);                             /* the assert */
}

static bool record(struct cc_smt2_scan *out, char *name) {
    char **grown = realloc(out->names, (out->n_asserts + 1) * sizeof *grown);
    if (!grown) return false;
    out->names = grown;
    out->names[out->n_asserts++] = name;
    return true;
}

/* The 1-based line of offset at; offsets are asked in increasing order,
 * so the whole scan counts each newline once. */
static size_t line_of(struct reader *r, size_t at) {
    for (; r->counted < at; r->counted++) r->line += r->s[r->counted] == '\n';
    return r->line;
}

static bool is_check(const struct reader *r) {
    return atom_is(r, "check-sat") || atom_is(r, "check-sat-assuming");
}

/* Check number n_checks - 1 ends at end. false when out of memory. */
static bool record_check(struct cc_smt2_scan *out, struct reader *r, size_t start, size_t end) {
    size_t k = out->n_checks - 1;
    if (k == out->check_cap) {
        size_t cap = out->check_cap ? 2 * out->check_cap : 4;
        struct cc_smt2_check *grown = reallocarray(out->checks, cap, sizeof *grown);
        if (!grown) return false;
        out->checks = grown;
        out->check_cap = cap;
    }
    out->checks[k] = (struct cc_smt2_check){
        .end = end, .line = line_of(r, start), .asserts = out->n_asserts, .timeout_ms = out->timeout_ms};
    return true;
}

int cc_smt2_scan(char *script, size_t n, struct cc_smt2_scan *out) {
    memset(out, 0, sizeof *out);
    struct reader r = {.s = script, .n = n, .line = 1};
    for (;;) {
        enum tok t = next(&r);
        if (t == T_END) out->complete = true;
        if (t != T_OPEN) return 0; /* the end, or something z3 will name */
        size_t start = r.i - 1;
        if (next(&r) != T_ATOM) return 0;
        if (atom_is(&r, "exit")) {
            out->complete = true;
            return 0;
        }
        bool check = is_check(&r);
        if (check) {
            out->n_checks++;
            out->assuming |= atom_is(&r, "check-sat-assuming");
        }
        if (atom_is(&r, "assert")) {
            char *name;
            bool ok = assert_body(&r, &name);
            if (!ok) {
                free(name);
                return 0;
            }
            if (!record(out, name)) {
                free(name);
                cc_smt2_scan_free(out);
                return -1;
            }
            continue;
        }
        if (atom_is(&r, "push") || atom_is(&r, "pop") || atom_is(&r, "reset") || atom_is(&r, "reset-assertions"))
            out->has_scopes = true;
        bool option = false;
        if (atom_is(&r, "set-option") && next(&r) == T_ATOM)
            option = benign_option(&r) || timeout_option(&r, &out->timeout_ms);
        if (!close_form(&r)) return 0;
        if (option) blank(script, start, r.i);
        if (check && !record_check(out, &r, start, r.i)) {
            cc_smt2_scan_free(out);
            return -1;
        }
    }
}

void cc_smt2_scan_free(struct cc_smt2_scan *s) {
    for (size_t i = 0; i < s->n_asserts; i++) free(s->names[i]);
    free(s->names);
    free(s->checks);
    memset(s, 0, sizeof *s);
}
