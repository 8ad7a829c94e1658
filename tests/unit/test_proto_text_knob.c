/* protocol/text_knob.c: the one reading of every text CODECALC_* knob
 * (paths, URLs, tokens, word lists), and protocol/cap_policy.c, the one
 * parser of CODECALC_CAPABILITY_POLICY. */
#include <stdlib.h>
#include <string.h>

#include "protocol/cap_policy.h"
#include "protocol/home_path.h"
#include "protocol/text_knob.h"
#include "tests/unit/check.h"
#include "tests/unit/knob_env.h"
#include "workers/common/provider_select.h"
#include "workers/sandbox/sandbox.h"

static bool takes(enum cc_text_id id, const char *v) { return cc_text_parse(&cc_text_defs[id], v); }

/* Each knob's rule, and its neighbours either side. */
static void parse_takes_each_rule_and_nothing_else(void) {
    CHECK(takes(CC_TEXT_LOG, "debug") && takes(CC_TEXT_LOG, "error"));
    CHECK(!takes(CC_TEXT_LOG, "verbose") && !takes(CC_TEXT_LOG, "Warning") && !takes(CC_TEXT_LOG, "info "));
    CHECK(takes(CC_TEXT_CGROUP, "/sys/fs/cgroup/x") && !takes(CC_TEXT_CGROUP, "sys/fs/cgroup/x"));
    CHECK(takes(CC_TEXT_SESSION_ROOT, "/srv/s") && !takes(CC_TEXT_SESSION_ROOT, "./s"));
    CHECK(takes(CC_TEXT_HOME, "/var/lib/codecalc") && !takes(CC_TEXT_HOME, "codecalc"));
    CHECK(takes(CC_TEXT_VALIDATE_PYTHON, "/usr/bin/python3"));
    CHECK(!takes(CC_TEXT_VALIDATE_PYTHON, "python3") && !takes(CC_TEXT_VALIDATE_PYTHON, "/x'; rm -rf /; '"));
    CHECK(takes(CC_TEXT_PIP_INDEX_URL, "none") && takes(CC_TEXT_PIP_INDEX_URL, "NONE"));
    CHECK(takes(CC_TEXT_PIP_INDEX_URL, "https://pypi.org/simple") && takes(CC_TEXT_PIP_INDEX_URL, "file:///w"));
    CHECK(!takes(CC_TEXT_PIP_INDEX_URL, "pypi.org/simple") && !takes(CC_TEXT_PIP_INDEX_URL, "https://"));
    CHECK(takes(CC_TEXT_ADVERTISE_URL, "http://10.0.0.2:8000/mcp") && takes(CC_TEXT_ADVERTISE_URL, "HTTPS://h/mcp"));
    CHECK(!takes(CC_TEXT_ADVERTISE_URL, "10.0.0.2:8000/mcp") && !takes(CC_TEXT_ADVERTISE_URL, "ftp://h/"));
    CHECK(takes(CC_TEXT_EXECUTION_PROVIDER, "local") && !takes(CC_TEXT_EXECUTION_PROVIDER, "lcoal"));
    CHECK(takes(CC_TEXT_CAPABILITY_POLICY, "deny-network, strict") && takes(CC_TEXT_CAPABILITY_POLICY, " ALLOW-NETWORK "));
    CHECK(!takes(CC_TEXT_CAPABILITY_POLICY, "deny-netwrok") && !takes(CC_TEXT_CAPABILITY_POLICY, "strict;deny-network"));
    /* empty: unset for all but the two where it is a value of its own */
    for (int i = 0; i < CC_TEXT_COUNT; i++)
        CHECK(takes((enum cc_text_id)i, "") == (i == CC_TEXT_AUDIT_LOG || i == CC_TEXT_PACKAGE_ALLOWLIST));
    for (int i = 0; i < CC_TEXT_COUNT; i++) CHECK(!takes((enum cc_text_id)i, NULL));
}

/* The policy's one parser: directives in any case, spaces around them
 * and empty ones skipped; an unknown one is named, and the known ones
 * around it still count (what a worker started by hand reads). */
static void cap_policy_parses_directives_and_names_an_unknown_one(void) {
    struct cc_cap_policy p;
    const char *bad = NULL;
    size_t n = 0;
    CHECK_INTEQ(cc_cap_policy_parse(NULL, &p, &bad, &n), 0);
    CHECK(!p.active);
    CHECK_INTEQ(cc_cap_policy_parse("  \t", &p, &bad, &n), 0);
    CHECK(!p.active);
    CHECK_INTEQ(cc_cap_policy_parse(" No-Network ,, strict ", &p, &bad, &n), 0);
    CHECK(p.active && p.deny_network && !p.grant_network && p.strict);
    CHECK_INTEQ(cc_cap_policy_parse("grant-network", &p, &bad, &n), 0);
    CHECK(p.active && p.grant_network && !p.deny_network && !p.strict);
    CHECK_INTEQ(cc_cap_policy_parse("deny-network, stirct , allow-network", &p, &bad, &n), -1);
    CHECK(n == 6 && strncmp(bad, "stirct", n) == 0);
    CHECK(p.active && p.deny_network && p.grant_network && !p.strict);
}

/* A text knob is fixed for the process's life; cc_knobs_reload reads it
 * again (knob_env.h). A value its rule does not take reads as unset. */
static void values_are_read_once_and_bad_ones_read_as_unset(void) {
    knob_setenv("CODECALC_PIP_FIND_LINKS", NULL);
    CHECK(cc_text(CC_TEXT_PIP_FIND_LINKS) == NULL);
    setenv("CODECALC_PIP_FIND_LINKS", "/w", 1);
    CHECK(cc_text(CC_TEXT_PIP_FIND_LINKS) == NULL);
    cc_knobs_reload();
    CHECK_STREQ(cc_text(CC_TEXT_PIP_FIND_LINKS), "/w");
    knob_setenv("CODECALC_PIP_FIND_LINKS", "");
    CHECK(cc_text(CC_TEXT_PIP_FIND_LINKS) == NULL);
    knob_setenv("CODECALC_AUDIT_LOG", "");
    CHECK_STREQ(cc_text(CC_TEXT_AUDIT_LOG), "");
    knob_setenv("CODECALC_AUDIT_LOG", NULL);
    CHECK(cc_text(CC_TEXT_AUDIT_LOG) == NULL);
    knob_setenv("CODECALC_PIP_FIND_LINKS", NULL);
    CHECK(cc_text((enum cc_text_id)CC_TEXT_COUNT) == NULL);
    CHECK_INTEQ(cc_text_find("CODECALC_CGROUP"), CC_TEXT_CGROUP);
    CHECK_INTEQ(cc_text_find("CODECALC_NOPE"), -1);
}

/* The start-up check names the first bad knob and its rule; unset and
 * empty pass. */
static void check_refuses_a_bad_value_naming_the_rule(void) {
    char why[512] = "";
    for (int i = 0; i < CC_TEXT_COUNT; i++) unsetenv(cc_text_defs[i].name);
    CHECK_INTEQ(cc_texts_check(why, sizeof why), 0);
    setenv("CODECALC_CGROUP", "", 1);
    CHECK_INTEQ(cc_texts_check(why, sizeof why), 0);
    setenv("CODECALC_CGROUP", "codecalc.slice", 1);
    CHECK_INTEQ(cc_texts_check(why, sizeof why), -1);
    CHECK_STREQ(why, "CODECALC_CGROUP=\"codecalc.slice\" is not an absolute path (docs/configuration.md); "
                     "unset it for the default");
    unsetenv("CODECALC_CGROUP");
    setenv("CODECALC_CAPABILITY_POLICY", "deny-netwrok", 1);
    CHECK_INTEQ(cc_texts_check(why, sizeof why), -1);
    CHECK(strstr(why, "CODECALC_CAPABILITY_POLICY=\"deny-netwrok\" is not comma-separated directives") == why);
    unsetenv("CODECALC_CAPABILITY_POLICY");
    setenv("CODECALC_LOG", "verbose", 1);
    CHECK_INTEQ(cc_texts_check(why, sizeof why), -1);
    CHECK(strstr(why, "CODECALC_LOG=\"verbose\" is not one of debug, info, warning, error") == why);
    unsetenv("CODECALC_LOG");
    CHECK_INTEQ(cc_texts_check(why, sizeof why), 0);
}

/* Each reader had its own rule, and a value it could not use was quietly
 * something else: a relative CODECALC_CGROUP our own cgroup, a relative
 * CODECALC_HOME one directory for the server and $HOME/.codecalc for the
 * sandbox's view of it. Inside a worker such a value now reads as unset
 * in every reader alike (a server refuses to start on it). */
static void regression_text_knob_readers_had_rules_of_their_own(void) {
    char a[4096], b[4096];
    const char *saved = getenv("HOME");
    char *keep = saved ? strdup(saved) : NULL;
    setenv("HOME", "/tmp/cc-text-knob-home", 1);
    knob_setenv("CODECALC_HOME", "relative/home");
    CHECK_INTEQ(cc_home_path(a, sizeof a), 0);
    sbx_codecalc_home(b, sizeof b);
    CHECK_STREQ(a, "/tmp/cc-text-knob-home/.codecalc");
    CHECK_STREQ(b, "/tmp/cc-text-knob-home/.codecalc");
    knob_setenv("CODECALC_HOME", "/abs/home");
    CHECK_INTEQ(cc_home_path(a, sizeof a), 0);
    sbx_codecalc_home(b, sizeof b);
    CHECK_STREQ(a, "/abs/home");
    CHECK_STREQ(b, "/abs/home");
    knob_setenv("CODECALC_HOME", NULL);
    if (keep) setenv("HOME", keep, 1);
    else unsetenv("HOME");
    free(keep);
    /* an unknown provider in the environment: a server refuses to start;
     * asked for by name in a call, it is still refused by the call */
    knob_setenv("CODECALC_EXECUTION_PROVIDER", "local");
    CHECK(cc_provider_reject(NULL) == NULL);
    json_t *r = cc_provider_reject("lcoal");
    CHECK(r != NULL);
    json_decref(r);
    knob_setenv("CODECALC_EXECUTION_PROVIDER", NULL);
}

int main(void) {
    RUN(parse_takes_each_rule_and_nothing_else);
    RUN(cap_policy_parses_directives_and_names_an_unknown_one);
    RUN(values_are_read_once_and_bad_ones_read_as_unset);
    RUN(check_refuses_a_bad_value_naming_the_rule);
    RUN(regression_text_knob_readers_had_rules_of_their_own);
    return check_summary("test_proto_text_knob");
}
