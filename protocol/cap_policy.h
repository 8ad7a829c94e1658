/* CODECALC_CAPABILITY_POLICY (TOOLS.md 10.2): its directives, read by one
 * parser. The start-up check (protocol/text_knob.c) refuses a policy with a
 * directive this does not know; the broker (workers/exec/receipt.c) reads
 * the same text with the same parser.
 *
 * Why one: the broker ignored an unknown directive with a line on stderr,
 * once per run ("deny-netwrok" was no policy at all, and the server said so
 * only in its log), and the supervisor's runs_submit decided "is there a
 * policy" with a blank test of its own. */
#ifndef CC_CAP_POLICY_H
#define CC_CAP_POLICY_H

#include <stdbool.h>
#include <stddef.h>

struct cc_cap_policy {
    bool active;        /* any non-blank text */
    bool deny_network;  /* deny-network, no-network, default-deny-network */
    bool grant_network; /* allow-network, grant-network */
    bool strict;
};

/* The directives every policy is made of, for messages and docs. */
#define CC_CAP_POLICY_RULE                                                                                  \
    "comma-separated directives deny-network, no-network, default-deny-network, allow-network, "          \
    "grant-network, strict (any case, spaces around them ignored)"

/* Parse text (NULL or blank: no policy). Directives are separated by
 * commas, spaces around them ignored, any case; empty ones (",,") skipped.
 * 0, or -1 when a directive is not one of CC_CAP_POLICY_RULE (*p then
 * holds the ones before and after it; *bad and *bad_len name it when
 * non-NULL). */
int cc_cap_policy_parse(const char *text, struct cc_cap_policy *p, const char **bad, size_t *bad_len);

#endif
