/* The counters behind /metrics and /status (metrics.h). One slot per row
 * of the tool table, allocated at the first call; a tool keeps at most 16
 * distinct codes (the rest count as "other"), so a misbehaving worker
 * cannot grow the exposition without bound. */
#include "supervisor/metrics/metrics.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_VERDICTS 16
#define RECENT 32

const double cc_metrics_bucket_le[CC_METRICS_BUCKETS] = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                          0.1,    0.25,  0.5,    1,     2.5,  10,    60};

static struct cc_metrics_tool *tools; /* cc_tools_count slots, by row */
static struct cc_metrics_code verdicts[MAX_VERDICTS];
static size_t nverdicts;
static uint64_t restarts[CC_POOL_COUNT];
static struct cc_metrics_recent recent[RECENT];
static size_t recent_next, recent_n;
static double started;

double cc_metrics_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double cc_metrics_started(void) {
    if (started == 0) started = cc_metrics_now();
    return started;
}

/* name into out (cap bytes), cut short when longer: per call, where
 * snprintf's format machinery costs more than the rest of the counting. */
static void copy_name(char *out, size_t cap, const char *name) {
    size_t n = strnlen(name, cap - 1);
    memcpy(out, name, n);
    out[n] = '\0';
}

/* The slot of a row of cc_tools; NULL for anything else (compared as
 * addresses: the sessions layer's own request descriptions are no rows). */
static struct cc_metrics_tool *tool_slot(const struct cc_tool *tool) {
    uintptr_t off = (uintptr_t)tool - (uintptr_t)cc_tools;
    if (off >= cc_tools_count * sizeof *cc_tools || off % sizeof *cc_tools) return NULL;
    if (!tools && !(tools = calloc(cc_tools_count, sizeof *tools))) return NULL;
    struct cc_metrics_tool *t = &tools[off / sizeof *cc_tools];
    t->name = tool->name;
    return t;
}

/* The counter called name in table (grown up to cap; the last slot
 * becomes "other" when full). */
static struct cc_metrics_code *code_slot(struct cc_metrics_code *table, size_t *n, size_t cap, const char *name) {
    for (size_t i = 0; i < *n; i++)
        if (strcmp(table[i].code, name) == 0) return &table[i];
    /* ">=": once "other" took the last slot, *n is cap and every new name
     * must still land there (found by fuzz_frame: the 17th code of a tool
     * was written past its table). */
    if (*n >= cap - 1) name = "other";
    for (size_t i = 0; i < *n; i++)
        if (strcmp(table[i].code, name) == 0) return &table[i];
    struct cc_metrics_code *c = &table[(*n)++];
    copy_name(c->code, sizeof c->code, name);
    return c;
}

void cc_metrics_call_done(const struct cc_tool *tool, const char *code, const char *verdict, int64_t elapsed_us) {
    cc_metrics_started();
    struct cc_metrics_tool *t = tool_slot(tool);
    if (!t) return;
    size_t nc = (size_t)t->ncodes;
    code_slot(t->codes, &nc, sizeof t->codes / sizeof t->codes[0], code)->n++;
    t->ncodes = (int)nc;
    double s = (double)(elapsed_us < 0 ? 0 : elapsed_us) / 1e6;
    int b = 0;
    while (b < CC_METRICS_BUCKETS && s > cc_metrics_bucket_le[b]) b++;
    if (b < CC_METRICS_BUCKETS) t->buckets[b]++;
    t->count++;
    t->sum_s += s;
    if (verdict && *verdict) code_slot(verdicts, &nverdicts, MAX_VERDICTS, verdict)->n++;
    struct cc_metrics_recent *r = &recent[recent_next];
    r->tool = t->name;
    copy_name(r->code, sizeof r->code, code);
    r->seconds = s;
    r->at = cc_metrics_now();
    recent_next = (recent_next + 1) % RECENT;
    if (recent_n < RECENT) recent_n++;
}

void cc_metrics_worker_restarted(enum cc_pool_id pool) {
    if (pool < CC_POOL_COUNT) restarts[pool]++;
}

const struct cc_metrics_tool *cc_metrics_tool_at(size_t i) {
    return tools && i < cc_tools_count && tools[i].count ? &tools[i] : NULL;
}
size_t cc_metrics_nverdicts(void) { return nverdicts; }
const struct cc_metrics_code *cc_metrics_verdict_at(size_t i) { return i < nverdicts ? &verdicts[i] : NULL; }
uint64_t cc_metrics_restarts(enum cc_pool_id pool) { return pool < CC_POOL_COUNT ? restarts[pool] : 0; }

size_t cc_metrics_recent(struct cc_metrics_recent *out, size_t n) {
    size_t k = 0;
    for (; k < n && k < recent_n; k++) out[k] = recent[(recent_next + RECENT - 1 - k) % RECENT];
    return k;
}
