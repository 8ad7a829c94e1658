/* Per-run dependencies: the spec validator, normalisation and merging
 * (workers/common/deps.c) and PEP 723 blocks (workers/common/pep723.c). */
#include "tests/unit/check.h"
#include "workers/common/deps.h"
#include "workers/common/pep723.h"

#include <stdlib.h>

/* dependencies = [spec] for lang; the normalised set joined by '|', or the
 * error text prefixed "E:". Static storage. */
static const char *read1(const char *lang, const char *spec, const char *code) {
    static char out[2048];
    json_t *args = json_pack("{s:[s]}", "dependencies", spec);
    struct cc_deps d;
    json_t *e = cc_deps_read(args, lang, code, code ? strlen(code) : 0, &d);
    if (e) {
        snprintf(out, sizeof out, "E:%s", json_string_value(json_object_get(e, "error")));
    } else {
        out[0] = '\0';
        for (size_t i = 0; i < d.n; i++)
            snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", i ? "|" : "", d.specs[i]);
    }
    json_decref(e);
    json_decref(args);
    cc_deps_free(&d);
    return out;
}

static bool refused(const char *lang, const char *spec, const char *why) {
    const char *r = read1(lang, spec, NULL);
    bool ok = strncmp(r, "E:", 2) == 0 && strstr(r, why) != NULL;
    if (!ok) fprintf(stderr, "  %s %s -> %s (want %s)\n", lang, spec, r, why);
    return ok;
}

static void test_python_specs(void) {
    CHECK_STREQ(read1("python3", "Requests >= 2.31, <3", NULL), "requests>=2.31,<3");
    CHECK_STREQ(read1("python3", "Zope.Interface_x", NULL), "zope-interface-x");
    CHECK_STREQ(read1("python3", "requests[Security,socks]==2.31.0", NULL), "requests[security,socks]==2.31.0");
    CHECK_STREQ(read1("python3", "numpy~=1.26", NULL), "numpy~=1.26");
    CHECK(refused("python3", "six; os_name == 'nt'", "shell metacharacter"));
    CHECK(refused("python3", "six$(id)", "shell metacharacter"));
    CHECK(refused("python3", "six==1.*", "shell metacharacter"));
    CHECK(refused("python3", "--extra-index-url", "is an option"));
    CHECK(refused("python3", "six --index-url x", "embedded option"));
    CHECK(refused("python3", "./pkg", "is a path"));
    CHECK(refused("python3", "pkg/sub", "a URL or a path"));
    CHECK(refused("python3", "six @ git", "direct reference"));
    CHECK(refused("python3", "git+ssh://x", "URL or a VCS"));
    CHECK(refused("python3", "six==", "incomplete version clause"));
    CHECK(refused("python3", "six>=1,", "incomplete version clause"));
    CHECK(refused("python3", "six=1", "malformed version clause"));
    CHECK(refused("python3", "six[a", "unclosed [extras]"));
    CHECK(refused("python3", "caf\xc3\xa9", "outside ASCII"));
}

static void test_node_specs(void) {
    CHECK_STREQ(read1("node", "left-pad@1.3.0", NULL), "left-pad@1.3.0");
    CHECK_STREQ(read1("node", "@types/node@^20.1 <21", NULL), "@types/node@^20.1 <21");
    CHECK_STREQ(read1("bun", "lodash", NULL), "lodash");
    CHECK(refused("node", "a@1 || 2", "shell metacharacter"));
    CHECK(refused("node", "npm:left-pad@1", "URL or a VCS"));
    CHECK(refused("node", "file:../x", "URL or a VCS"));
    CHECK(refused("node", "user/repo", "is a path"));
    CHECK(refused("node", "x@", "names no version"));
    CHECK(refused("node", "@scope", "without /name"));
}

static void test_limits_and_languages(void) {
    char long_spec[260];
    memset(long_spec, 'a', 201);
    long_spec[201] = '\0';
    CHECK(refused("python3", long_spec, "201 characters long"));
    memset(long_spec, 'a', 200);
    long_spec[200] = '\0';
    CHECK_STREQ(read1("python3", long_spec, NULL), long_spec);
    CHECK(refused("ruby", "rake", "'ruby' has no package manager here"));
    json_t *many = json_pack("{s:[]}", "dependencies");
    for (int i = 0; i < 33; i++) json_array_append_new(json_object_get(many, "dependencies"), json_sprintf("p%d", i));
    struct cc_deps d;
    json_t *e = cc_deps_read(many, "python3", "", 0, &d);
    CHECK(e && strstr(json_string_value(json_object_get(e, "error")), "33 dependencies given; at most 32"));
    json_decref(e);
    json_decref(many);
    /* No dependencies: nothing to do, for any language. */
    json_t *none = json_object();
    CHECK(cc_deps_read(none, "ruby", "puts 1", 6, &d) == NULL && d.n == 0);
    json_decref(none);
}

static void test_pep723_merge(void) {
    const char *code = "#!/usr/bin/env python3\n"
                       "# /// script\n"
                       "# requires-python = \">=3.11\"\n"
                       "# dependencies = [\n"
                       "#   \"Rich\",   # pretty\n"
                       "#   'six==1.16.0',\n"
                       "# ]\n"
                       "# [tool.x]\n"
                       "# dependencies = [\"ignored\"]\n"
                       "# ///\n"
                       "import six\n";
    CHECK_STREQ(read1("python3", "six==1.16.0", code), "rich|six==1.16.0");
    /* Node programs have no PEP 723 block: the comment is just a comment. */
    CHECK_STREQ(read1("node", "left-pad", "# /// script\n# dependencies = [\"x\"]\n# ///\n"), "left-pad");
    char **v;
    size_t n;
    char err[256];
    CHECK_INTEQ(cc_pep723_dependencies("# /// script\n# dependencies = []\n", 33, 32, &v, &n, err, sizeof err), -1);
    CHECK(strstr(err, "not closed") != NULL);
    const char *twice = "# /// script\n# ///\n# /// script\n# ///\n";
    CHECK_INTEQ(cc_pep723_dependencies(twice, strlen(twice), 32, &v, &n, err, sizeof err), -1);
    CHECK(strstr(err, "more than one") != NULL);
    const char *bad = "# /// script\n# dependencies = \"six\"\n# ///\n";
    CHECK_INTEQ(cc_pep723_dependencies(bad, strlen(bad), 32, &v, &n, err, sizeof err), -1);
    const char *none = "print(1)\n# /// scripts\n";
    CHECK_INTEQ(cc_pep723_dependencies(none, strlen(none), 32, &v, &n, err, sizeof err), 0);
    CHECK_INTEQ(n, 0);
    const char *esc = "# /// script\n# dependencies = [\"a\\\"b\"]\n# ///\n";
    CHECK_INTEQ(cc_pep723_dependencies(esc, strlen(esc), 32, &v, &n, err, sizeof err), 0);
    CHECK(n == 1 && strcmp(v[0], "a\"b") == 0);
    cc_pep723_free(v, n);
    /* ... and such an entry is then refused by the spec validator. */
    CHECK(strstr(read1("python3", "six", esc), "shell metacharacter") != NULL);
}

int main(void) {
    RUN(test_python_specs);
    RUN(test_node_specs);
    RUN(test_limits_and_languages);
    RUN(test_pep723_merge);
    return check_summary("deps");
}
