/* Numeric environment knobs: the table and the one parser (knob.h says
 * why). docs/configuration.md lists every knob with the rule below. */
#include "protocol/knob.h"

#include "protocol/flag.h"
#include "protocol/text_knob.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB (INT64_C(1) << 20)
#define SEC INT64_C(1000)      /* seconds knobs are read in ms */
#define HOUR (3600 * SEC)      /* hours knobs are read in ms */
#define DAY (24 * HOUR)
#define YEARS_10 (3650 * DAY)

/* The upper ends are the old readers' where they had one; where they had
 * none, a bound far past any sensible value that keeps base units inside
 * an int64 (10^12 MiB is about 2^60 bytes). */
const struct cc_knob_def cc_knob_defs[CC_KNOB_COUNT] = {
    [CC_KNOB_AUDIT_MAX_MB] = {"CODECALC_AUDIT_MAX_MB", MIB, 1, 1048576 * MIB, 10 * MIB},
    [CC_KNOB_MAX_MESSAGE_BYTES] = {"CODECALC_MAX_MESSAGE_BYTES", 1, 1, INT64_C(1) << 32, 16 * MIB},
    [CC_KNOB_RUN_DEADLINE_MARGIN_S] = {"CODECALC_RUN_DEADLINE_MARGIN_S", 1, 1, 3600, 60},
    [CC_KNOB_MAX_CALC_WORKERS] = {"CODECALC_MAX_CALC_WORKERS", 1, 1, 1000000, CC_KNOB_CALLER_DEFAULT},
    [CC_KNOB_MAX_SYMBOLIC_WORKERS] = {"CODECALC_MAX_SYMBOLIC_WORKERS", 1, 1, 1000000, CC_KNOB_CALLER_DEFAULT},
    [CC_KNOB_MAX_EXEC_WORKERS] = {"CODECALC_MAX_EXEC_WORKERS", 1, 1, 1000000, CC_KNOB_CALLER_DEFAULT},
    /* 4194304: the kernel's PID_MAX_LIMIT; no more tasks can exist */
    [CC_KNOB_MAX_PROCESSES] = {"CODECALC_MAX_PROCESSES", 1, 1, 4194304, 512},
    [CC_KNOB_PROCESS_HEADROOM] = {"CODECALC_PROCESS_HEADROOM", 1, 0, 4194304, 512},
    /* whole MiB, read in MiB: these never took a fraction */
    [CC_KNOB_COMPILE_MEMORY_MB] = {"CODECALC_COMPILE_MEMORY_MB", 1, 1, 1048576, 2048},
    [CC_KNOB_COMPILE_CACHE_MB] = {"CODECALC_COMPILE_CACHE_MB", 1, 1, 1048576, 512},
    [CC_KNOB_DEPS_CACHE_MB] = {"CODECALC_DEPS_CACHE_MB", 1, 1, 1048576, 2048},
    [CC_KNOB_SESSION_IDLE_TTL_SECONDS] = {"CODECALC_SESSION_IDLE_TTL_SECONDS", SEC, 0, YEARS_10, DAY},
    [CC_KNOB_SESSION_DISK_QUOTA_MB] = {"CODECALC_SESSION_DISK_QUOTA_MB", MIB, 1, INT64_C(1000000000000) * MIB, 512 * MIB},
    [CC_KNOB_TOTAL_DISK_QUOTA_MB] = {"CODECALC_TOTAL_DISK_QUOTA_MB", MIB, 1, INT64_C(1000000000000) * MIB, 8192 * MIB},
    [CC_KNOB_MAX_ARTIFACT_BYTES] = {"CODECALC_MAX_ARTIFACT_BYTES", 1, 1, INT64_C(1) << 50, 16 * MIB},
    [CC_KNOB_MAX_ARTIFACT_COUNT] = {"CODECALC_MAX_ARTIFACT_COUNT", 1, 1, 1000000000, 500},
    [CC_KNOB_MIN_HOST_FREE_MB] = {"CODECALC_MIN_HOST_FREE_MB", 1, 1, INT64_C(1000000000000), 256},
    [CC_KNOB_RUN_DISK_MB] = {"CODECALC_RUN_DISK_MB", 1, 16, 1048576, 512},
    [CC_KNOB_RUN_INODES] = {"CODECALC_RUN_INODES", 1, 64, 16777216, 32768},
    [CC_KNOB_CLEANUP_ABANDONED_AGE_HOURS] = {"CODECALC_CLEANUP_ABANDONED_AGE_HOURS", HOUR, 0, YEARS_10, 24 * HOUR},
    [CC_KNOB_REPL_MEMORY_MB] = {"CODECALC_REPL_MEMORY_MB", 1, 1, 1048576, 2048},
    [CC_KNOB_MAX_ACTIVE_RUNS] = {"CODECALC_MAX_ACTIVE_RUNS", 1, 1, 1000000, 64},
    [CC_KNOB_RUN_TTL_HOURS] = {"CODECALC_RUN_TTL_HOURS", HOUR, 1, 1000000 * HOUR, 24 * HOUR},
    [CC_KNOB_RUN_LEASE_SECONDS] = {"CODECALC_RUN_LEASE_SECONDS", SEC, SEC, 3600 * SEC, 15 * SEC},
    [CC_KNOB_MAX_QUEUED_RUNS] = {"CODECALC_MAX_QUEUED_RUNS", 1, 1, 1000000000, 10000},
    [CC_KNOB_HTTP_TIMEOUT_MS] = {"CODECALC_HTTP_TIMEOUT_MS", 1, 1, 3600000, 30000},
    [CC_KNOB_HTTP_GRACE_MS] = {"CODECALC_HTTP_GRACE_MS", 1, 0, 3600000, 10000},
    [CC_KNOB_HTTP_STREAM_BACKLOG_BYTES] = {"CODECALC_HTTP_STREAM_BACKLOG_BYTES", 1, 0, INT64_C(1) << 32, 4 * MIB},
    [CC_KNOB_HTTP_MAX_CONNECTIONS] = {"CODECALC_HTTP_MAX_CONNECTIONS", 1, 1, 1000000, 1024},
    [CC_KNOB_HTTP_MAX_SESSIONS] = {"CODECALC_HTTP_MAX_SESSIONS", 1, 1, 1000000, 10000},
    [CC_KNOB_HTTP_SESSION_IDLE_MS] = {"CODECALC_HTTP_SESSION_IDLE_MS", 1, 1, 7 * DAY, 30 * 60 * SEC},
    /* a test knob (docs/configuration.md "Test knobs"); 0 is off */
    [CC_KNOB_TEST_DEADLINE_MS] = {"CODECALC_TEST_DEADLINE_MS", 1, 0, 1000000, 0},
};

#define FRAC_DIGITS_MAX 18

/* digits[.digits]: the whole part and the fraction as a numerator over
 * 10^k; false for anything else or a whole part past 19 digits. */
static bool split_decimal(const char *s, bool fraction_ok, unsigned __int128 *whole,
                          unsigned __int128 *num, unsigned __int128 *den) {
    size_t nw = strspn(s, "0123456789");
    if (nw == 0 || nw > 19) return false; /* "", ".5", or past 10^19 */
    *whole = 0;
    for (size_t i = 0; i < nw; i++) *whole = *whole * 10 + (unsigned)(s[i] - '0');
    *num = 0;
    *den = 1;
    if (s[nw] == '\0') return true;
    if (!fraction_ok || s[nw] != '.') return false;
    const char *f = s + nw + 1;
    size_t nf = strspn(f, "0123456789");
    if (nf == 0 || nf > FRAC_DIGITS_MAX || f[nf] != '\0') return false; /* "5." too */
    for (size_t i = 0; i < nf; i++) {
        *num = *num * 10 + (unsigned)(f[i] - '0');
        *den *= 10;
    }
    return true;
}

bool cc_knob_parse(const struct cc_knob_def *k, const char *s, int64_t *out) {
    if (!s) return false;
    unsigned __int128 whole, num, den;
    if (!split_decimal(s, k->scale > 1, &whole, &num, &den)) return false;
    /* 10^19 * 2^32 and 10^18 * 2^32 both fit 128 bits: no overflow here */
    unsigned __int128 v = whole * (unsigned __int128)k->scale + num * (unsigned __int128)k->scale / den;
    if (v < (unsigned __int128)k->lo || v > (unsigned __int128)k->hi) return false;
    *out = (int64_t)v;
    return true;
}

/* Every knob parsed once per process (knob.h says why): given is false
 * where the knob is unset, empty or not a value of it. */
static struct {
    int64_t v;
    bool given;
} cache[CC_KNOB_COUNT];
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static void load(void) {
    for (int i = 0; i < CC_KNOB_COUNT; i++)
        cache[i].given = cc_knob_parse(&cc_knob_defs[i], getenv(cc_knob_defs[i].name), &cache[i].v);
}

void cc_knobs_reload(void) {
    pthread_once(&loaded, load);
    load();
    cc_flags_reload();
    cc_texts_reload();
}

bool cc_knob_given(enum cc_knob_id id) {
    if ((unsigned)id >= CC_KNOB_COUNT) return false;
    pthread_once(&loaded, load);
    return cache[id].given;
}

int64_t cc_knob_or(enum cc_knob_id id, int64_t dflt) {
    return cc_knob_given(id) ? cache[id].v : dflt;
}

int64_t cc_knob(enum cc_knob_id id) { return cc_knob_or(id, cc_knob_defs[id].dflt); }

int cc_knob_find(const char *name) {
    for (int i = 0; name && i < CC_KNOB_COUNT; i++)
        if (strcmp(cc_knob_defs[i].name, name) == 0) return i;
    return -1;
}

/* A base-unit amount in the knob's written unit: exact, no exponent. */
static void written(const struct cc_knob_def *k, int64_t v, char *buf, size_t cap) {
    if (v % k->scale == 0 || k->scale == 1) {
        snprintf(buf, cap, "%lld", (long long)(v / k->scale));
        return;
    }
    /* scale is 1000, 3600000 or 2^20: 20 decimals are exact for all */
    snprintf(buf, cap, "%.20g", (double)v / (double)k->scale);
}

void cc_knob_rule(const struct cc_knob_def *k, char *buf, size_t cap) {
    char lo[48], hi[48];
    written(k, k->hi, hi, sizeof hi);
    if (k->scale > 1 && k->lo == 1) {
        snprintf(buf, cap, "a number above 0 (decimals allowed) up to %s", hi);
        return;
    }
    written(k, k->lo, lo, sizeof lo);
    snprintf(buf, cap, "%s from %s to %s", k->scale > 1 ? "a number (decimals allowed)" : "a whole number",
             lo, hi);
}

int cc_knobs_check(char *why, size_t cap) {
    for (int i = 0; i < CC_KNOB_COUNT; i++) {
        const struct cc_knob_def *k = &cc_knob_defs[i];
        const char *v = getenv(k->name);
        int64_t x;
        if (!v || !*v || cc_knob_parse(k, v, &x)) continue;
        char rule[160];
        cc_knob_rule(k, rule, sizeof rule);
        return cc_knob_refusal(why, cap, k->name, v, rule);
    }
    return 0;
}

int cc_knob_refusal(char *why, size_t cap, const char *name, const char *value, const char *rule) {
    snprintf(why, cap, "%s=\"%.40s%s\" is not %s (docs/configuration.md); unset it for the default", name, value,
             strlen(value) > 40 ? "..." : "", rule);
    return -1;
}
