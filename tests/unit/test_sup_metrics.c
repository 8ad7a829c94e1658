/* The counters behind /metrics and /status (supervisor/metrics/counters.c). */
#include <stdio.h>
#include <string.h>

#include "supervisor/metrics/metrics.h"
#include "tests/unit/check.h"

static const struct cc_metrics_code *code_named(const struct cc_metrics_tool *t, const char *name) {
    for (int i = 0; i < t->ncodes; i++)
        if (strcmp(t->codes[i].code, name) == 0) return &t->codes[i];
    return NULL;
}

/* Found by fuzz_frame (ASan, heap-buffer-overflow): a tool keeps 16 codes,
 * the 16th being "other"; once "other" held the last slot, the 17th
 * distinct code a worker sent was written past the tool's table (and the
 * 17th verdict past the verdict table). Every code beyond the 15th now
 * counts as "other". */
static void regression_codes_beyond_the_table_count_as_other(void) {
    const struct cc_tool *tool = &cc_tools[0];
    char code[48];
    for (int i = 0; i < 40; i++) {
        snprintf(code, sizeof code, "code_%d", i);
        cc_metrics_call_done(tool, code, code, 1000);
    }
    const struct cc_metrics_tool *t = cc_metrics_tool_at(0);
    CHECK(t != NULL);
    if (!t) return;
    CHECK_INTEQ(t->ncodes, 16);
    CHECK_INTEQ((long)t->count, 40);
    CHECK(code_named(t, "code_14") != NULL);
    CHECK(code_named(t, "code_15") == NULL);
    const struct cc_metrics_code *other = code_named(t, "other");
    CHECK(other && other->n == 25);
    CHECK_INTEQ((long)cc_metrics_nverdicts(), 16);
    const struct cc_metrics_code *last = cc_metrics_verdict_at(15);
    CHECK(last && strcmp(last->code, "other") == 0 && last->n == 25);
    CHECK(cc_metrics_verdict_at(16) == NULL);
}

int main(void) {
    RUN(regression_codes_beyond_the_table_count_as_other);
    return check_summary("sup_metrics");
}
