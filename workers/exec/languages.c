/* The registry table of TOOLS.md section 7 and runtime resolution. */
#include "workers/exec/languages.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workers/exec/lang_java.h"

#define GLEAM_RUN                                                                      \
    "bash -c 'gleam new \"$2/proj\" --name prog --skip-git && cp \"$1\" "              \
    "\"$2/proj/src/prog.gleam\" && cd \"$2/proj\" && gleam run' codecalc {file} {work}"

/* escript always skips the first line of a script (it expects "#!..."
 * there), so a program whose first line is code would lose it. Give such a
 * program a header line in a copy; a program with its own "#!" runs as is. */
#define ERLANG_RUN                                                                     \
    "bash -c 'if [ \"$(head -c 2 \"$1\")\" = \"#!\" ]; then exec escript \"$1\"; fi; "      \
    "{ echo \"#!/usr/bin/env escript\"; cat \"$1\"; } > \"$2/main.escript\" && "             \
    "exec escript \"$2/main.escript\"' codecalc {file} {work}"

/* A session entry's directory is its program, as `go build` and javac see
 * it: every .go file beside the entry but the tests, and, when the entry
 * has sibling classes, all the .java files compiled together (a lone file
 * still goes to the source launcher). */
#define GO_DIR_BUILD                                                                   \
    "bash -c 'out=$1; cd \"$(dirname \"$2\")\" || exit 1; set --; for f in *.go; do "         \
    "case $f in *_test.go) ;; *) set -- \"$@\" \"$f\" ;; esac; done; "                      \
    "exec go build -o \"$out\" \"$@\"' codecalc {exe} {file}"
#define JAVA_DIR_RUN                                                                   \
    "bash -c 'f=$1; w=$2; set -- \"$(dirname \"$f\")\"/*.java; "                          \
    "if [ $# -le 1 ]; then exec java \"$f\"; fi; "                                         \
    "javac -d \"$w/classes\" \"$@\" && exec java -cp \"$w/classes\" \"$(basename \"$f\" .java)\"' "  \
    "codecalc {file} {work}"

/* The exact reasons, also answered by list_languages and runtimes_status. */
#define NO_SWIFT "no Debian 12 package and no npm package carries a Swift toolchain; swift.org " \
                 "ships it only as tarballs outside both registries"
#define NO_GLEAM "no Debian 12 package and no npm package carries the gleam compiler; it ships " \
                 "only as GitHub release binaries"
#define NO_MOJO "Modular's Mojo toolchain is proprietary and distributed only through its own " \
                "installer and conda/PyPI channels, neither of which this host reaches"

#define NATIVE(cc) {.compile = cc " -O2 -o {exe} {file}", .run = "{exe}", .artifact = "{exe}"}
#define INTERP(r) {.run = r}

/* java run on many inputs: compiled once (lang_java.h). Decided by java,
 * as the spec's plan is, with bash to run the compile step. */
static const struct cc_lang_plan java_repeated = {
    .compile = JAVA_REPEATED_COMPILE, .run = JAVA_REPEATED_RUN, .artifact = JAVA_REPEATED_ARTIFACT,
    .decide = "java", .extra_tool = "bash"};

/* Sorted by name (strcmp order); the unit test asserts it. */
static const struct cc_lang table[] = {
    {"awk", {NULL}, "awk", "best_effort", {INTERP("awk -f {file}")}},
    {"bash", {"sh", "shell", NULL}, "sh", "best_effort", {INTERP("bash {file}")}},
    {"bun", {NULL}, "ts", "best_effort", {INTERP("bun run {file}")}},
    {"c", {NULL}, "c", "best_effort", {NATIVE("gcc")}},
    {"c++", {"cxx", NULL}, "cpp", "best_effort", {NATIVE("g++")}},
    {"cpp", {NULL}, "cpp", "best_effort", {NATIVE("g++")}},
    {"csharp", {"cs", "c#", "dotnet", NULL}, "cs", "best_effort",
     {INTERP("dotnet run {file}"),
      {.compile = "mcs -out:{exe} {file}", .run = "mono {exe}", .artifact = "{exe}"}}},
    {"deno", {NULL}, "ts", "best_effort", {INTERP("deno run {file}")}},
    {"elixir", {NULL}, "exs", "best_effort", {INTERP("elixir {file}")}},
    {"erlang", {NULL}, "erl", "best_effort",
     {{.run = ERLANG_RUN, .decide = "escript", .extra_tool = "bash"}}},
    /* Module files (.mod) go to the run directory, not the work directory
     * (a session's workspace). */
    {"fortran", {NULL}, "f90", "best_effort", {NATIVE("gfortran -J {work}")}},
    {"gleam", {NULL}, "gleam", "best_effort",
     {{.run = GLEAM_RUN, .decide = "gleam", .extra_tool = "bash"}}},
    {"go", {NULL}, "go", "best_effort",
     {{.compile = "go build -o {exe} {file}", .run = "{exe}", .artifact = "{exe}",
       .in_place_compile = GO_DIR_BUILD}}},
    /* .hi and .o go to the run directory, not beside the source (a session
     * entry is compiled where it is). */
    {"haskell", {"ghc", "hs", NULL}, "hs", "best_effort", {NATIVE("ghc -outputdir {work}")}},
    {"java", {NULL}, "java", "best_effort", {{.run = "java {file}", .in_place_run = JAVA_DIR_RUN, .repeated = &java_repeated}}},
    {"jq", {NULL}, "jq", "best_effort", {INTERP("jq -n -f {file}")}},
    {"kotlin", {NULL}, "kt", "best_effort",
     {{.compile = "kotlinc {file} -include-runtime -d {work}/out.jar",
       .run = "java -jar {work}/out.jar", .artifact = "{work}/out.jar"}}},
    {"lua", {NULL}, "lua", "best_effort", {INTERP("lua {file}")}},
    {"mojo", {NULL}, "mojo", "best_effort", {INTERP("mojo run {file}")}},
    {"node", {"js", "javascript", "nodejs", NULL}, "js", "tested", {INTERP("node {file}")}},
    {"perl", {NULL}, "pl", "best_effort", {INTERP("perl {file}")}},
    {"php", {NULL}, "php", "best_effort", {INTERP("php {file}")}},
    {"python3", {"python", "py", "python3.14", "python3.12", NULL}, "py", "tested",
     {INTERP("python3 {file}")}},
    {"r", {"rscript", NULL}, "R", "best_effort", {INTERP("Rscript {file}")}},
    {"ruby", {NULL}, "rb", "best_effort", {INTERP("ruby {file}")}},
    {"rust", {NULL}, "rs", "best_effort",
     {{.compile = "rustc -O -o {exe} {file}", .run = "{exe}", .artifact = "{exe}"}}},
    {"sqlite", {NULL}, "sql", "best_effort", {INTERP("sqlite3 :memory: \".read {file}\"")}},
    {"swift", {NULL}, "swift", "best_effort", {INTERP("swift {file}")}},
    {"tcl", {NULL}, "tcl", "best_effort", {INTERP("tclsh {file}")}},
    /* deno is the spec's runner; the others are what npm/Debian may provide. */
    {"typescript", {"ts", NULL}, "ts", "best_effort",
     {INTERP("deno run {file}"), INTERP("bun run {file}"), INTERP("tsx {file}"),
      INTERP("ts-node {file}")}},
    /* Compiled apart from running (like go) so the compile cache serves it:
     * a fresh zig builds its compiler_rt on every compile, seconds each. */
    {"zig", {NULL}, "zig", "best_effort",
     {{.compile = "zig build-exe -femit-bin={exe} {file}", .run = "{exe}", .artifact = "{exe}"}}},
    {"zsh", {NULL}, "zsh", "best_effort", {INTERP("zsh {file}")}},
};

#define NLANG (sizeof table / sizeof table[0])

size_t cc_lang_count(void) { return NLANG; }

const struct cc_lang *cc_lang_at(size_t i) { return i < NLANG ? &table[i] : NULL; }

/* Compare the trimmed spelling s[0..n) with a name, ignoring ASCII case. */
static bool same_name(const char *s, size_t n, const char *name) {
    return strlen(name) == n && strncasecmp(s, name, n) == 0;
}

const struct cc_lang *cc_lang_find(const char *spelled) {
    if (!spelled) return NULL;
    while (isspace((unsigned char)*spelled)) spelled++;
    size_t n = strlen(spelled);
    while (n && isspace((unsigned char)spelled[n - 1])) n--;
    /* Names first, then aliases: the spec's matching order. */
    for (size_t i = 0; i < NLANG; i++)
        if (same_name(spelled, n, table[i].name)) return &table[i];
    for (size_t i = 0; i < NLANG; i++)
        for (const char *const *a = table[i].aliases; *a; a++)
            if (same_name(spelled, n, *a)) return &table[i];
    return NULL;
}

/* First word of a template, unquoted (templates' first words are plain). */
static void first_word(const char *t, char *buf, size_t bufsz) {
    size_t n = strcspn(t, " ");
    if (n >= bufsz) n = bufsz - 1;
    memcpy(buf, t, n);
    buf[n] = '\0';
}

const char *cc_plan_deciding(const struct cc_lang_plan *p, char *buf, size_t bufsz) {
    if (p->decide) return p->decide;
    const char *t = (p->run[0] == '{' && p->compile) ? p->compile : p->run;
    first_word(t, buf, bufsz);
    if (strcmp(buf, "sh") == 0) return "bash";
    return buf;
}

/* The plan's deciding command (and extra tool) resolve on path; *abs gets
 * the deciding command's resolved path when abs is not NULL. */
static bool plan_resolves(const struct cc_lang_plan *p, const char *path, char **abs) {
    char buf[64];
    char *a = cc_resolve_cmd(cc_plan_deciding(p, buf, sizeof buf), path);
    bool ok = a != NULL;
    if (ok && p->extra_tool) {
        char *t = cc_resolve_cmd(p->extra_tool, path);
        ok = t != NULL;
        free(t);
    }
    if (ok && abs) *abs = a;
    else free(a);
    return ok;
}

const struct cc_lang_plan *cc_lang_plan_resolve(const struct cc_lang *l, const char *path,
                                                bool *installed, char **deciding_abs) {
    if (deciding_abs) *deciding_abs = NULL;
    for (int i = 0; i < CC_LANG_MAX_PLANS && l->plans[i].run; i++) {
        if (plan_resolves(&l->plans[i], path, deciding_abs)) {
            *installed = true;
            return &l->plans[i];
        }
    }
    *installed = false;
    return &l->plans[0];
}

const struct cc_lang_plan *cc_lang_plan_for(const struct cc_lang *l, const char *path,
                                            bool *installed) {
    return cc_lang_plan_resolve(l, path, installed, NULL);
}

/* ---- template words ---------------------------------------------------- */

/* A growable byte buffer and a growable word vector; both freed on error. */
struct wbuf { char *s; size_t n, cap; };
struct wvec { char **v; size_t n, cap; };

static int wbuf_put(struct wbuf *b, char c) {
    if (b->n + 2 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 32;
        char *s = realloc(b->s, cap);
        if (!s) return -1;
        b->s = s;
        b->cap = cap;
    }
    b->s[b->n++] = c;
    b->s[b->n] = '\0';
    return 0;
}

static int wvec_push(struct wvec *w, char *word) {
    if (w->n + 2 > w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 8;
        char **v = realloc(w->v, cap * sizeof *v);
        if (!v) return -1;
        w->v = v;
        w->cap = cap;
    }
    w->v[w->n++] = word;
    w->v[w->n] = NULL;
    return 0;
}

void cc_argv_free(char **argv) {
    if (!argv) return;
    for (char **p = argv; *p; p++) free(*p);
    free(argv);
}

/* Inside double quotes a backslash only escapes these (POSIX 2.2.3). */
static bool dq_escapable(char c) { return c == '$' || c == '`' || c == '"' || c == '\\' || c == '\n'; }

/* Consume one word starting at *pp into b. Returns 0, or -1 on unbalanced
 * quoting or allocation failure. */
static int scan_word(const char **pp, struct wbuf *b) {
    const char *p = *pp;
    while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
        if (*p == '\'') {
            const char *end = strchr(p + 1, '\'');
            if (!end) return -1;
            for (p++; p < end; p++)
                if (wbuf_put(b, *p)) return -1;
            p++;
        } else if (*p == '"') {
            for (p++; *p && *p != '"'; p++) {
                if (*p == '\\' && dq_escapable(p[1])) p++;
                if (wbuf_put(b, *p)) return -1;
            }
            if (*p != '"') return -1;
            p++;
        } else if (*p == '\\' && p[1]) {
            if (wbuf_put(b, p[1])) return -1;
            p += 2;
        } else {
            if (wbuf_put(b, *p++)) return -1;
        }
    }
    *pp = p;
    /* A word made only of empty quotes ('') is still a word. */
    return wbuf_put(b, '\0') ? -1 : (b->n--, 0);
}

char **cc_split_words(const char *tmpl) {
    struct wvec w = {0};
    const char *p = tmpl ? tmpl : "";
    if (wvec_push(&w, NULL) == 0) w.n = 0; /* allocate so an empty template is {NULL} */
    else return NULL;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n') p++;
        if (!*p) return w.v;
        struct wbuf b = {0};
        if (scan_word(&p, &b) || wvec_push(&w, b.s)) {
            free(b.s);
            cc_argv_free(w.v);
            return NULL;
        }
    }
}

/* Replace every placeholder in one word. Malloc'd, NULL on OOM. */
static char *substitute(const char *word, const char *file, const char *exe, const char *work) {
    static const char *const keys[3] = {"{file}", "{exe}", "{work}"};
    const char *vals[3] = {file, exe, work};
    struct wbuf b = {0};
    if (wbuf_put(&b, '\0')) return NULL;
    b.n = 0;
    for (const char *p = word; *p;) {
        int k = 0;
        while (k < 3 && strncmp(p, keys[k], strlen(keys[k])) != 0) k++;
        const char *src = k < 3 ? vals[k] : NULL;
        if (k < 3) {
            for (const char *s = src ? src : ""; *s; s++)
                if (wbuf_put(&b, *s)) goto oom;
            p += strlen(keys[k]);
        } else if (wbuf_put(&b, *p++)) {
            goto oom;
        }
    }
    return b.s;
oom:
    free(b.s);
    return NULL;
}

char **cc_plan_argv(const char *tmpl, const char *file, const char *exe, const char *work) {
    char **words = cc_split_words(tmpl);
    if (!words) return NULL;
    for (char **w = words; *w; w++) {
        char *s = substitute(*w, file, exe, work);
        if (!s) {
            cc_argv_free(words);
            return NULL;
        }
        free(*w);
        *w = s;
    }
    return words;
}

/* ---- list_languages ---------------------------------------------------- */

/* Run template words joined by single spaces, "{work}/" removed (3.1.1). */
static json_t *run_display(const char *tmpl) {
    char **words = cc_split_words(tmpl);
    struct wbuf b = {0};
    if (!words || wbuf_put(&b, '\0')) goto fail;
    b.n = 0;
    for (char **w = words; *w; w++) {
        if (w != words && wbuf_put(&b, ' ')) goto fail;
        for (const char *p = *w; *p;) {
            if (strncmp(p, "{work}/", 7) == 0) { p += 7; continue; }
            if (wbuf_put(&b, *p++)) goto fail;
        }
    }
    json_t *s = json_string(b.s);
    cc_argv_free(words);
    free(b.s);
    return s;
fail:
    cc_argv_free(words);
    free(b.s);
    return NULL;
}

const char *cc_lang_nowhere(const struct cc_lang *l) {
    static const struct { const char *name, *why; } nowhere[] = {
        {"gleam", NO_GLEAM}, {"mojo", NO_MOJO}, {"swift", NO_SWIFT}};
    for (size_t i = 0; i < sizeof nowhere / sizeof nowhere[0]; i++)
        if (!strcmp(l->name, nowhere[i].name)) return nowhere[i].why;
    return NULL;
}

const char *cc_lang_unavailable_reason(const struct cc_lang *l, char *buf, size_t bufsz) {
    if (cc_lang_nowhere(l)) return cc_lang_nowhere(l);
    char word[64];
    const char *cmd = cc_plan_deciding(&l->plans[0], word, sizeof word);
    snprintf(buf, bufsz, "not installed here: '%s' is not on the runtime PATH as the sandbox user "
             "sees it; scripts/install-runtimes installs it", cmd);
    return buf;
}

static json_t *lang_entry(const struct cc_lang *l, const char *path) {
    bool installed;
    const struct cc_lang_plan *p = cc_lang_plan_for(l, path, &installed);
    json_t *run = run_display(p->run);
    if (!run) return NULL;
    json_t *e = json_pack("{s:s, s:s, s:b, s:o, s:s, s:b, s:s, s:s}", "name", l->name, "extension",
                          l->ext, "compiled", p->compile != NULL, "run", run, "tier", l->tier,
                          "available", installed, "status", installed ? "installed" : "supported",
                          "status_basis", "resolved");
    if (e && !installed) {
        char buf[256];
        json_object_set_new(e, "reason", json_string(cc_lang_unavailable_reason(l, buf, sizeof buf)));
    }
    return e;
}

json_t *cc_list_languages_json(void) {
    const char *path = cc_runtime_path();
    json_t *arr = json_array();
    if (!arr) return NULL;
    for (size_t i = 0; i < NLANG; i++) {
        json_t *e = lang_entry(&table[i], path);
        if (!e || json_array_append_new(arr, e)) {
            json_decref(arr);
            return NULL;
        }
    }
    return arr;
}
