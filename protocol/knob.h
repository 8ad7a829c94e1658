/* Numeric environment knobs (CODECALC_*): one table of their ranges and
 * defaults, one parser, one rule for a bad value (docs/configuration.md,
 * docs/contract.md "Numeric knobs").
 *
 * Why: seven readers had seven rules. "-5" was a huge number for one
 * (strtoull), the default for others; "5abc" was 5 for the stdio message
 * cap (atol) and the default for the HTTP one; a value out of range was
 * clamped by one and the default for the rest; CODECALC_MAX_PROCESSES "0"
 * was an RLIMIT_NPROC of 0 in the sandbox and 512 pids in the exec worker;
 * CODECALC_SESSION_IDLE_TTL_SECONDS unset was 24 h for the server and "no
 * expiry" for `codecalc cleanup`. Now every numeric knob is read here, and
 * a set knob that does not parse or is out of range stops `codecalc` at
 * start-up (exit 2, naming the knob and its rule): it never silently
 * becomes another number. Inside a worker (which only a checked
 * supervisor starts) such a value reads as the default.
 *
 * Lives in protocol/: every binary links it, the supervisor included
 * (which must not link workers/sandbox). */
#ifndef CC_KNOB_H
#define CC_KNOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cc_knob_id {
    CC_KNOB_AUDIT_MAX_MB,
    CC_KNOB_MAX_MESSAGE_BYTES,
    CC_KNOB_RUN_DEADLINE_MARGIN_S,
    CC_KNOB_MAX_CALC_WORKERS,
    CC_KNOB_MAX_SYMBOLIC_WORKERS,
    CC_KNOB_MAX_EXEC_WORKERS,
    CC_KNOB_MAX_PROCESSES,
    CC_KNOB_PROCESS_HEADROOM,
    CC_KNOB_COMPILE_MEMORY_MB,
    CC_KNOB_COMPILE_CACHE_MB,
    CC_KNOB_DEPS_CACHE_MB,
    CC_KNOB_SESSION_IDLE_TTL_SECONDS,
    CC_KNOB_SESSION_DISK_QUOTA_MB,
    CC_KNOB_TOTAL_DISK_QUOTA_MB,
    CC_KNOB_MAX_ARTIFACT_BYTES,
    CC_KNOB_MAX_ARTIFACT_COUNT,
    CC_KNOB_MIN_HOST_FREE_MB,
    CC_KNOB_RUN_DISK_MB,
    CC_KNOB_RUN_INODES,
    CC_KNOB_CLEANUP_ABANDONED_AGE_HOURS,
    CC_KNOB_REPL_MEMORY_MB,
    CC_KNOB_MAX_ACTIVE_RUNS,
    CC_KNOB_RUN_TTL_HOURS,
    CC_KNOB_RUN_LEASE_SECONDS,
    CC_KNOB_MAX_QUEUED_RUNS,
    CC_KNOB_HTTP_TIMEOUT_MS,
    CC_KNOB_HTTP_GRACE_MS,
    CC_KNOB_HTTP_STREAM_BACKLOG_BYTES,
    CC_KNOB_HTTP_MAX_CONNECTIONS,
    CC_KNOB_HTTP_MAX_SESSIONS,
    CC_KNOB_HTTP_SESSION_IDLE_MS,
    CC_KNOB_TEST_DEADLINE_MS,
    CC_KNOB_COUNT
};

/* One knob. The value is kept in base units: what is written times scale.
 * scale 1: a whole number, digits only. scale > 1 (MiB knobs read in
 * bytes, seconds and hours read in milliseconds): digits with an optional
 * '.' and up to 18 more digits, rounded down to a base unit. Never a sign,
 * an exponent, spaces, a suffix or a thousands separator. lo, hi and dflt
 * are base units; dflt CC_KNOB_CALLER_DEFAULT means the reader supplies it
 * (a worker pool's maximum is in protocol/tools/pools.json). */
struct cc_knob_def {
    const char *name;   /* "CODECALC_..." */
    int64_t scale;
    int64_t lo, hi;
    int64_t dflt;
};

#define CC_KNOB_CALLER_DEFAULT INT64_MIN

extern const struct cc_knob_def cc_knob_defs[CC_KNOB_COUNT];

/* Whether s is a value of k; *out (base units) only when it is. NULL and ""
 * are not values (an unset or empty knob is its default: cc_knob). */
bool cc_knob_parse(const struct cc_knob_def *k, const char *s, int64_t *out);

/* The knob's value: the parsed value, or its default when unset, empty or
 * not a value. A knob is fixed for the life of a process: the first call
 * of any of these reads and parses every knob once (a process's
 * environment cannot be changed from outside, and the exec path asks for
 * several knobs per run; each used to scan the environment and parse
 * again). Thread-safe. */
int64_t cc_knob(enum cc_knob_id id);
/* The same with the default given by the caller. */
int64_t cc_knob_or(enum cc_knob_id id, int64_t dflt);
/* Whether the knob is set to a value of it (unset, empty or not a value:
 * false). */
bool cc_knob_given(enum cc_knob_id id);

/* Read every knob (numeric and on/off, protocol/flag.h) again, for tests
 * that change the environment with setenv; not thread-safe. */
void cc_knobs_reload(void);

/* The id whose name is name, or -1. */
int cc_knob_find(const char *name);

/* The rule of k as a phrase for messages and docs: "a whole number from
 * 1 to 3600", "a number (decimals allowed) from 0.001 to 1048576". */
void cc_knob_rule(const struct cc_knob_def *k, char *buf, size_t cap);

/* Start-up check of every knob in the environment: 0, or -1 with why
 * naming the first knob set to something that is not a value of it. */
int cc_knobs_check(char *why, size_t cap);

/* The one refusal line of every kind of knob (numeric, on/off, text):
 * NAME="value" (cut at 40 bytes) is not RULE, where to read, what to do.
 * Returns -1, what the checks return for a refusal. */
int cc_knob_refusal(char *why, size_t cap, const char *name, const char *value, const char *rule);

#endif
