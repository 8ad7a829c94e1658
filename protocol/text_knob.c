/* Text environment knobs: the table and the one reader (text_knob.h says
 * why). docs/configuration.md "Text" lists every knob with its rule. */
#include "protocol/text_knob.h"

#include "protocol/cap_policy.h"
#include "protocol/knob.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool absolute(const char *s) { return s[0] == '/'; }

/* An interpreter path spliced into a shell line between single quotes
 * (workers/exec/validate/run.c): no quote inside. */
static bool absolute_unquoted(const char *s) { return absolute(s) && !strchr(s, '\''); }

static bool log_level(const char *s) {
    return !strcmp(s, "debug") || !strcmp(s, "info") || !strcmp(s, "warning") || !strcmp(s, "error");
}

static bool cap_policy(const char *s) {
    struct cc_cap_policy p;
    return cc_cap_policy_parse(s, &p, NULL, NULL) == 0;
}

/* scheme://rest (RFC 3986 scheme), rest non-empty. */
static bool url(const char *s) {
    if (!isalpha((unsigned char)s[0])) return false;
    size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-");
    return strncmp(s + n, "://", 3) == 0 && s[n + 3] != '\0';
}

static bool index_url(const char *s) { return strcasecmp(s, "none") == 0 || url(s); }

static bool http_url(const char *s) {
    return (!strncasecmp(s, "http://", 7) && s[7]) || (!strncasecmp(s, "https://", 8) && s[8]);
}

static bool provider(const char *s) { return strcmp(s, "local") == 0; }

#define ANY NULL, "any text"

const struct cc_text_def cc_text_defs[CC_TEXT_COUNT] = {
    [CC_TEXT_HOME] = {"CODECALC_HOME", absolute, "an absolute path", false},
    /* the tool registry checks the names at start: it knows the groups */
    [CC_TEXT_TOOLS] = {"CODECALC_TOOLS", NULL, "tool groups and presets (checked by the tool registry)", false},
    [CC_TEXT_LOG] = {"CODECALC_LOG", log_level, "one of debug, info, warning, error", false},
    [CC_TEXT_AUDIT_LOG] = {"CODECALC_AUDIT_LOG", ANY, true},
    [CC_TEXT_RUNTIME_PATH] = {"CODECALC_RUNTIME_PATH", ANY, false},
    [CC_TEXT_CGROUP] = {"CODECALC_CGROUP", absolute, "an absolute path", false},
    [CC_TEXT_CAPABILITY_POLICY] = {"CODECALC_CAPABILITY_POLICY", cap_policy, CC_CAP_POLICY_RULE, false},
    [CC_TEXT_PIP_INDEX_URL] = {"CODECALC_PIP_INDEX_URL", index_url, "none, or a URL (scheme://...)", false},
    [CC_TEXT_PIP_FIND_LINKS] = {"CODECALC_PIP_FIND_LINKS", ANY, false},
    [CC_TEXT_EXECUTION_PROVIDER] = {"CODECALC_EXECUTION_PROVIDER", provider, "local (the one provider of this build)", false},
    [CC_TEXT_VALIDATE_PYTHON] = {"CODECALC_VALIDATE_PYTHON", absolute_unquoted, "an absolute path without a ' in it", false},
    [CC_TEXT_EXTENSION_ALLOWED_PERMISSIONS] = {"CODECALC_EXTENSION_ALLOWED_PERMISSIONS", ANY, false},
    [CC_TEXT_SESSION_ROOT] = {"CODECALC_SESSION_ROOT", absolute, "an absolute path", false},
    [CC_TEXT_PACKAGE_ALLOWLIST] = {"CODECALC_PACKAGE_ALLOWLIST", ANY, true},
    [CC_TEXT_REPL_DIR] = {"CODECALC_REPL_DIR", ANY, false},
    [CC_TEXT_DATABASE_URL] = {"CODECALC_DATABASE_URL", ANY, false},
    [CC_TEXT_CLUSTER_TOKEN] = {"CODECALC_CLUSTER_TOKEN", ANY, false},
    [CC_TEXT_ADVERTISE_URL] = {"CODECALC_ADVERTISE_URL", http_url, "an http:// or https:// URL", false},
    [CC_TEXT_HTTP_TOKEN] = {"CODECALC_HTTP_TOKEN", ANY, false},
    /* a test knob (docs/configuration.md "Tests only") */
    [CC_TEXT_TEST_OMIT_OP] = {"CODECALC_TEST_OMIT_OP", ANY, false},
};

bool cc_text_parse(const struct cc_text_def *k, const char *s) {
    if (!s) return false;
    if (!*s) return k->empty_is_value;
    return !k->valid || k->valid(s);
}

/* Every knob read once per process: a copy of the value, NULL where it is
 * unset, empty (unless that is a value) or not a value of it. */
static char *cache[CC_TEXT_COUNT];
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static void load(void) {
    for (int i = 0; i < CC_TEXT_COUNT; i++) {
        free(cache[i]);
        const char *v = getenv(cc_text_defs[i].name);
        cache[i] = cc_text_parse(&cc_text_defs[i], v) ? strdup(v) : NULL;
    }
}

void cc_texts_reload(void) {
    pthread_once(&loaded, load);
    load();
}

const char *cc_text(enum cc_text_id id) {
    if ((unsigned)id >= CC_TEXT_COUNT) return NULL;
    pthread_once(&loaded, load);
    return cache[id];
}

int cc_text_find(const char *name) {
    for (int i = 0; name && i < CC_TEXT_COUNT; i++)
        if (strcmp(cc_text_defs[i].name, name) == 0) return i;
    return -1;
}

int cc_texts_check(char *why, size_t cap) {
    for (int i = 0; i < CC_TEXT_COUNT; i++) {
        const struct cc_text_def *k = &cc_text_defs[i];
        const char *v = getenv(k->name);
        if (!v || !*v || cc_text_parse(k, v)) continue;
        return cc_knob_refusal(why, cap, k->name, v, k->rule);
    }
    return 0;
}
