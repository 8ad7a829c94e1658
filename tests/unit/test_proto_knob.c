/* protocol/knob.c: the one reading of every numeric CODECALC_* knob. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/knob.h"
#include "supervisor/mcp/tool_table.h"
#include "supervisor/sessions/sessions.h"
#include "tests/unit/check.h"
#include "tests/unit/knob_env.h"

#define MiB (INT64_C(1) << 20)

static const struct cc_knob_def *def(enum cc_knob_id id) { return &cc_knob_defs[id]; }

/* -1 when s is not a value of the knob, else its value. */
static int64_t parsed(enum cc_knob_id id, const char *s) {
    int64_t v = -7;
    return cc_knob_parse(def(id), s, &v) ? v : -1;
}

/* Values no knob takes, whole or decimal: each reader had its own subset
 * of these ("5abc" was 5 for stdio's atol, "-5" a huge number for
 * strtoull, " 5" 5 for strtol, "1e3" 1000 for strtod). */
static const char *const never[] = {"", "abc", "-5", "+5", "1e3", " 5", "5 ", "0x10", "inf", "nan",
                                    "5abc", "5MB", "1,000", ".5", "5.", "1..2", "0.5.1", "\t5"};

static void whole_knob_takes_digits_in_range_only(void) {
    /* CODECALC_MAX_ACTIVE_RUNS: a whole number from 1 to 1000000 */
    CHECK_INTEQ(parsed(CC_KNOB_MAX_ACTIVE_RUNS, "1"), 1);
    CHECK_INTEQ(parsed(CC_KNOB_MAX_ACTIVE_RUNS, "64"), 64);
    CHECK_INTEQ(parsed(CC_KNOB_MAX_ACTIVE_RUNS, "007"), 7);
    CHECK_INTEQ(parsed(CC_KNOB_MAX_ACTIVE_RUNS, "1000000"), 1000000);
    CHECK_INTEQ(parsed(CC_KNOB_MAX_ACTIVE_RUNS, "1000001"), -1);
    CHECK_INTEQ(parsed(CC_KNOB_MAX_ACTIVE_RUNS, "0"), -1);
    CHECK_INTEQ(parsed(CC_KNOB_MAX_ACTIVE_RUNS, "2.5"), -1); /* a whole knob takes no fraction */
    CHECK_INTEQ(parsed(CC_KNOB_MAX_ACTIVE_RUNS, "1.0"), -1);
    /* past 2^64, past 10^19 digits: refused, never wrapped */
    CHECK_INTEQ(parsed(CC_KNOB_MAX_ACTIVE_RUNS, "18446744073709551617"), -1);
    CHECK_INTEQ(parsed(CC_KNOB_MAX_ACTIVE_RUNS, "99999999999999999999999999"), -1);
    CHECK_INTEQ(parsed(CC_KNOB_MAX_ACTIVE_RUNS, NULL), -1);
    for (size_t i = 0; i < sizeof never / sizeof *never; i++) {
        if (parsed(CC_KNOB_MAX_ACTIVE_RUNS, never[i]) != -1) fprintf(stderr, "value \"%s\"\n", never[i]);
        CHECK_INTEQ(parsed(CC_KNOB_MAX_ACTIVE_RUNS, never[i]), -1);
    }
    /* a range that starts at 0 takes 0: CODECALC_HTTP_GRACE_MS 0..3600000 */
    CHECK_INTEQ(parsed(CC_KNOB_HTTP_GRACE_MS, "0"), 0);
    CHECK_INTEQ(parsed(CC_KNOB_HTTP_GRACE_MS, "3600000"), 3600000);
    CHECK_INTEQ(parsed(CC_KNOB_HTTP_GRACE_MS, "3600001"), -1);
    /* a range with a floor: CODECALC_RUN_DISK_MB 16..1048576 (was clamped) */
    CHECK_INTEQ(parsed(CC_KNOB_RUN_DISK_MB, "15"), -1);
    CHECK_INTEQ(parsed(CC_KNOB_RUN_DISK_MB, "16"), 16);
    CHECK_INTEQ(parsed(CC_KNOB_RUN_DISK_MB, "1048577"), -1);
}

static void decimal_knob_is_read_down_to_its_base_unit(void) {
    /* CODECALC_SESSION_DISK_QUOTA_MB: MiB, decimals allowed, read in bytes */
    CHECK_INTEQ(parsed(CC_KNOB_SESSION_DISK_QUOTA_MB, "512"), 512 * MiB);
    CHECK_INTEQ(parsed(CC_KNOB_SESSION_DISK_QUOTA_MB, "0.5"), 512 * 1024);
    CHECK_INTEQ(parsed(CC_KNOB_SESSION_DISK_QUOTA_MB, "0.00001"), 10); /* 10.48576 rounded down */
    CHECK_INTEQ(parsed(CC_KNOB_SESSION_DISK_QUOTA_MB, "0.000001"), 1);
    CHECK_INTEQ(parsed(CC_KNOB_SESSION_DISK_QUOTA_MB, "0.0000001"), -1); /* 0.1 byte: below 1 */
    CHECK_INTEQ(parsed(CC_KNOB_SESSION_DISK_QUOTA_MB, "0"), -1);
    CHECK_INTEQ(parsed(CC_KNOB_SESSION_DISK_QUOTA_MB, "0.0"), -1);
    CHECK_INTEQ(parsed(CC_KNOB_SESSION_DISK_QUOTA_MB, "1000000000000"), INT64_C(1000000000000) * MiB);
    CHECK_INTEQ(parsed(CC_KNOB_SESSION_DISK_QUOTA_MB, "1000000000000.000001"), -1);
    CHECK_INTEQ(parsed(CC_KNOB_SESSION_DISK_QUOTA_MB, "0.123456789012345678"), 129453); /* 18 digits */
    CHECK_INTEQ(parsed(CC_KNOB_SESSION_DISK_QUOTA_MB, "0.1234567890123456789"), -1);   /* 19 */
    for (size_t i = 0; i < sizeof never / sizeof *never; i++) {
        if (parsed(CC_KNOB_SESSION_DISK_QUOTA_MB, never[i]) != -1) fprintf(stderr, "value \"%s\"\n", never[i]);
        CHECK_INTEQ(parsed(CC_KNOB_SESSION_DISK_QUOTA_MB, never[i]), -1);
    }
    /* hours and seconds are read in ms */
    CHECK_INTEQ(parsed(CC_KNOB_RUN_TTL_HOURS, "0.0003"), 1080);
    CHECK_INTEQ(parsed(CC_KNOB_RUN_TTL_HOURS, "24"), 86400000);
    CHECK_INTEQ(parsed(CC_KNOB_SESSION_IDLE_TTL_SECONDS, "0"), 0); /* expiry off */
    CHECK_INTEQ(parsed(CC_KNOB_SESSION_IDLE_TTL_SECONDS, "1.5"), 1500);
    CHECK_INTEQ(parsed(CC_KNOB_RUN_LEASE_SECONDS, "0.999"), -1); /* 1..3600 s */
    CHECK_INTEQ(parsed(CC_KNOB_RUN_LEASE_SECONDS, "1"), 1000);
    CHECK_INTEQ(parsed(CC_KNOB_RUN_LEASE_SECONDS, "3600.001"), -1);
}

static void knob_reads_the_environment_and_falls_back_to_its_default(void) {
    knob_setenv("CODECALC_MAX_QUEUED_RUNS", NULL);
    CHECK_INTEQ(cc_knob(CC_KNOB_MAX_QUEUED_RUNS), 10000);
    knob_setenv("CODECALC_MAX_QUEUED_RUNS", ""); /* set but empty: the default */
    CHECK_INTEQ(cc_knob(CC_KNOB_MAX_QUEUED_RUNS), 10000);
    knob_setenv("CODECALC_MAX_QUEUED_RUNS", "12");
    CHECK_INTEQ(cc_knob(CC_KNOB_MAX_QUEUED_RUNS), 12);
    knob_setenv("CODECALC_MAX_QUEUED_RUNS", "12x");
    CHECK_INTEQ(cc_knob(CC_KNOB_MAX_QUEUED_RUNS), 10000);
    knob_setenv("CODECALC_MAX_QUEUED_RUNS", NULL);
    /* a pool's maximum: the default is the caller's (pools.json) */
    knob_setenv("CODECALC_MAX_EXEC_WORKERS", "3");
    CHECK_INTEQ(cc_knob_or(CC_KNOB_MAX_EXEC_WORKERS, 32), 3);
    knob_setenv("CODECALC_MAX_EXEC_WORKERS", "0");
    CHECK_INTEQ(cc_knob_or(CC_KNOB_MAX_EXEC_WORKERS, 32), 32);
    knob_setenv("CODECALC_MAX_EXEC_WORKERS", NULL);
    CHECK_INTEQ(cc_knob_or((enum cc_knob_id)-1, 9), 9);
}

/* The start-up check names the first bad knob, its value and its rule;
 * unset and empty knobs pass. */
static void check_refuses_a_bad_value_naming_the_rule(void) {
    char why[512] = "";
    for (int i = 0; i < CC_KNOB_COUNT; i++) unsetenv(cc_knob_defs[i].name);
    CHECK_INTEQ(cc_knobs_check(why, sizeof why), 0);
    knob_setenv("CODECALC_HTTP_TIMEOUT_MS", "");
    CHECK_INTEQ(cc_knobs_check(why, sizeof why), 0);
    knob_setenv("CODECALC_HTTP_TIMEOUT_MS", "0"); /* was "no timeout at all" */
    CHECK_INTEQ(cc_knobs_check(why, sizeof why), -1);
    CHECK_STREQ(why, "CODECALC_HTTP_TIMEOUT_MS=\"0\" is not a whole number from 1 to 3600000 "
                     "(docs/configuration.md); unset it for the default");
    knob_setenv("CODECALC_HTTP_TIMEOUT_MS", NULL);
    knob_setenv("CODECALC_TOTAL_DISK_QUOTA_MB", "1e3");
    CHECK_INTEQ(cc_knobs_check(why, sizeof why), -1);
    CHECK_STREQ(why, "CODECALC_TOTAL_DISK_QUOTA_MB=\"1e3\" is not a number above 0 (decimals allowed) "
                     "up to 1000000000000 (docs/configuration.md); unset it for the default");
    knob_setenv("CODECALC_TOTAL_DISK_QUOTA_MB", NULL);
    knob_setenv("CODECALC_RUN_LEASE_SECONDS", "0.5");
    CHECK_INTEQ(cc_knobs_check(why, sizeof why), -1);
    CHECK_STREQ(why, "CODECALC_RUN_LEASE_SECONDS=\"0.5\" is not a number (decimals allowed) from 1 to 3600 "
                     "(docs/configuration.md); unset it for the default");
    knob_setenv("CODECALC_RUN_LEASE_SECONDS", NULL);
    /* a long value is cut in the message */
    char long_value[200];
    memset(long_value, '9', sizeof long_value - 1);
    long_value[sizeof long_value - 1] = '\0';
    knob_setenv("CODECALC_RUN_INODES", long_value);
    CHECK_INTEQ(cc_knobs_check(why, sizeof why), -1);
    CHECK(strstr(why, "CODECALC_RUN_INODES=\"9999999999999999999999999999999999999999...\" is not a whole "
                      "number from 64 to 16777216") == why);
    knob_setenv("CODECALC_RUN_INODES", NULL);
    CHECK_INTEQ(cc_knobs_check(why, sizeof why), 0);
}

/* CODECALC_MAX_PROCESSES "0" was an RLIMIT_NPROC of 0 in the sandbox's
 * plan and the default 512 pids in the exec worker's: now it is no value
 * (start-up refuses it) and one reading serves both. */
static void regression_max_processes_zero_was_two_numbers(void) {
    CHECK_INTEQ(parsed(CC_KNOB_MAX_PROCESSES, "0"), -1);
    knob_setenv("CODECALC_MAX_PROCESSES", "0");
    CHECK_INTEQ(cc_knob(CC_KNOB_MAX_PROCESSES), 512);
    knob_setenv("CODECALC_MAX_PROCESSES", "40");
    CHECK_INTEQ(cc_knob(CC_KNOB_MAX_PROCESSES), 40);
    knob_setenv("CODECALC_MAX_PROCESSES", NULL);
    /* the headroom may be 0: exactly the tasks the uid has */
    CHECK_INTEQ(parsed(CC_KNOB_PROCESS_HEADROOM, "0"), 0);
}

/* `codecalc cleanup` read CODECALC_SESSION_IDLE_TTL_SECONDS with a default
 * of its own, 0 ("never"), where the server's is 24 h: it now asks the
 * server's reading. */
static void regression_cleanup_read_another_idle_ttl_default(void) {
    knob_setenv("CODECALC_SESSION_IDLE_TTL_SECONDS", NULL);
    CHECK(cc_session_idle_ttl() == 86400.0);
    knob_setenv("CODECALC_SESSION_IDLE_TTL_SECONDS", "0.5");
    CHECK(cc_session_idle_ttl() == 0.5);
    knob_setenv("CODECALC_SESSION_IDLE_TTL_SECONDS", "-1");
    CHECK(cc_session_idle_ttl() == 86400.0);
    knob_setenv("CODECALC_SESSION_IDLE_TTL_SECONDS", NULL);
}

static void table_is_consistent(void) {
    for (int i = 0; i < CC_KNOB_COUNT; i++) {
        const struct cc_knob_def *k = def((enum cc_knob_id)i);
        CHECK(k->name && strncmp(k->name, "CODECALC_", 9) == 0);
        CHECK(k->scale >= 1 && k->lo >= 0 && k->lo <= k->hi);
        CHECK(k->dflt == CC_KNOB_CALLER_DEFAULT || (k->lo <= k->dflt && k->dflt <= k->hi));
        CHECK_INTEQ(cc_knob_find(k->name), i);
        /* the default is a value the knob can be written as */
        if (k->dflt != CC_KNOB_CALLER_DEFAULT) CHECK_INTEQ(k->dflt % k->scale, 0);
    }
    CHECK_INTEQ(cc_knob_find("CODECALC_NOT_A_KNOB"), -1);
    CHECK_INTEQ(cc_knob_find(NULL), -1);
    /* every pool maximum the server reads is a knob the start-up check sees */
    for (int i = 0; i < CC_WORKER_POOLS; i++)
        if (cc_pool_defs[i].max_env) {
            int id = cc_knob_find(cc_pool_defs[i].max_env);
            CHECK(id >= 0);
            if (id >= 0) CHECK(cc_knob_defs[id].dflt == CC_KNOB_CALLER_DEFAULT);
        }
}

int main(void) {
    RUN(whole_knob_takes_digits_in_range_only);
    RUN(decimal_knob_is_read_down_to_its_base_unit);
    RUN(knob_reads_the_environment_and_falls_back_to_its_default);
    RUN(check_refuses_a_bad_value_naming_the_rule);
    RUN(regression_max_processes_zero_was_two_numbers);
    RUN(regression_cleanup_read_another_idle_ttl_default);
    RUN(table_is_consistent);
    return check_summary("test_proto_knob");
}
