/* Text environment knobs (CODECALC_*: paths, URLs, tokens, word lists):
 * one table with each knob's rule, one reader, one rule for a bad value
 * (docs/configuration.md "Text", docs/contract.md "Text knobs"), as the
 * numeric (knob.h) and on/off (flag.h) knobs have.
 *
 * Why: each had a reader of its own, and a value a reader could not use
 * was quietly something else. CODECALC_CGROUP and CODECALC_SESSION_ROOT
 * set to a relative path were our own cgroup and $CODECALC_HOME/sessions;
 * CODECALC_VALIDATE_PYTHON relative was /usr/bin/python3;
 * CODECALC_CAPABILITY_POLICY "deny-netwrok" was no policy (a line on
 * stderr per run); CODECALC_EXECUTION_PROVIDER "lcoal" started a server
 * that failed every execute_code; CODECALC_ADVERTISE_URL without a scheme
 * was registered for other servers to call. Now every text knob is read
 * here, once per process (with the numeric and on/off ones:
 * cc_knobs_reload reads all three again), and a set knob that its rule
 * does not take stops `codecalc` at start-up (exit 2, naming the knob and
 * the rule). Inside a worker (which only a checked supervisor starts)
 * such a value reads as unset. CODECALC_TOOLS is checked by the tool
 * registry at start (supervisor/registry.c), which knows the groups. */
#ifndef CC_TEXT_KNOB_H
#define CC_TEXT_KNOB_H

#include <stdbool.h>
#include <stddef.h>

enum cc_text_id {
    CC_TEXT_HOME,
    CC_TEXT_TOOLS,
    CC_TEXT_LOG,
    CC_TEXT_AUDIT_LOG,
    CC_TEXT_RUNTIME_PATH,
    CC_TEXT_CGROUP,
    CC_TEXT_CAPABILITY_POLICY,
    CC_TEXT_PIP_INDEX_URL,
    CC_TEXT_PIP_FIND_LINKS,
    CC_TEXT_EXECUTION_PROVIDER,
    CC_TEXT_VALIDATE_PYTHON,
    CC_TEXT_EXTENSION_ALLOWED_PERMISSIONS,
    CC_TEXT_SESSION_ROOT,
    CC_TEXT_PACKAGE_ALLOWLIST,
    CC_TEXT_REPL_DIR,
    CC_TEXT_DATABASE_URL,
    CC_TEXT_CLUSTER_TOKEN,
    CC_TEXT_ADVERTISE_URL,
    CC_TEXT_HTTP_TOKEN,
    CC_TEXT_TEST_OMIT_OP,
    CC_TEXT_COUNT
};

struct cc_text_def {
    const char *name;              /* "CODECALC_..." */
    bool (*valid)(const char *s);  /* NULL: any text */
    const char *rule;              /* what valid takes, for messages and docs */
    bool empty_is_value;           /* set but empty means something (off, deny all) */
};

extern const struct cc_text_def cc_text_defs[CC_TEXT_COUNT];

/* Whether s is a value of k: non-empty (or empty where empty_is_value)
 * and taken by its validator. NULL is not a value. */
bool cc_text_parse(const struct cc_text_def *k, const char *s);

/* The knob's value, or NULL when unset, empty (unless empty_is_value) or
 * not a value of it. Read once per process; the string lives as long as
 * the process (until cc_knobs_reload). Thread-safe. */
const char *cc_text(enum cc_text_id id);

/* The id whose name is name, or -1. */
int cc_text_find(const char *name);

/* Start-up check of every text knob in the environment: 0, or -1 with why
 * naming the first knob set to something its rule does not take. */
int cc_texts_check(char *why, size_t cap);

/* For cc_knobs_reload (knob.h). */
void cc_texts_reload(void);

#endif
