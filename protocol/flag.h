/* On/off environment knobs (CODECALC_*): one table of them and their
 * defaults, one parser, one rule for a bad value (docs/configuration.md
 * "On/off", docs/contract.md "On/off knobs").
 *
 * Why: ten readers had six rules. CODECALC_ALLOW_GLOBAL_INSTALL took "1"
 * only ("true" was off), CODECALC_ALLOW_RUNTIME_APPLY 1/true/yes/on in any
 * case with spaces trimmed, CODECALC_DISABLE_THIRD_PARTY_EXTENSIONS
 * 1/true/True ("TRUE" was off), CODECALC_REQUIRE_NATIVE anything but "0"
 * ("false" and "" were on), CODECALC_EXEC_TIMINGS and
 * CODECALC_WIN_APPCONTAINER any value at all ("0" was on). Now every
 * on/off knob takes 1, true, yes, on / 0, false, no, off in any case;
 * unset or empty is its default (as for the numeric knobs, knob.h), and
 * anything else (" yes", "2", "nope") stops `codecalc` at start-up
 * (exit 2, naming the knob and the words it takes): an operator who wrote
 * something is never silently given the other state. Inside a worker
 * (which only a checked supervisor starts) such a value reads as the
 * default.
 *
 * Values are read once per process, with the numeric knobs' (knob.h). */
#ifndef CC_FLAG_H
#define CC_FLAG_H

#include <stdbool.h>
#include <stddef.h>

enum cc_flag_id {
    CC_FLAG_REQUIRE_NATIVE,
    CC_FLAG_ALLOW_GLOBAL_INSTALL,
    CC_FLAG_ALLOW_RUNTIME_APPLY,
    CC_FLAG_EXEC_TIMINGS,
    CC_FLAG_PROFILE_SYMBOLIC,
    CC_FLAG_SYMBOLIC_FASTPATH,
    CC_FLAG_SYMBOLIC_NMEMO,
    CC_FLAG_DISABLE_THIRD_PARTY_EXTENSIONS,
    CC_FLAG_WIN_APPCONTAINER,
    CC_FLAG_TEST_OPS,
    CC_FLAG_COUNT
};

struct cc_flag_def {
    const char *name; /* "CODECALC_..." */
    bool dflt;        /* unset or empty */
};

extern const struct cc_flag_def cc_flag_defs[CC_FLAG_COUNT];

/* The words every on/off knob takes, for messages and docs. */
#define CC_FLAG_RULE "one of 1, true, yes, on, 0, false, no, off (any case, no spaces)"

/* 1 (on), 0 (off), or -1 when s is not a value: NULL and "" are not
 * values (an unset or empty knob is its default: cc_flag). */
int cc_flag_parse(const char *s);

/* The knob's state: parsed, or its default when unset, empty or not a
 * value. Read once per process (cc_knobs_reload re-reads it for tests). */
bool cc_flag(enum cc_flag_id id);

/* The id whose name is name, or -1. */
int cc_flag_find(const char *name);

/* Start-up check of every on/off knob in the environment: 0, or -1 with
 * why naming the first knob set to something that is not a value. */
int cc_flags_check(char *why, size_t cap);

/* For cc_knobs_reload (knob.h). */
void cc_flags_reload(void);

#endif
