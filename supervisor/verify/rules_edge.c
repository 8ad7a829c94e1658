/* compare_edge_cases' divergence (TOOLS.md 3.4.4). The spec builds two sets
 * of behaviours over the runs of one input; a set has more than one member
 * exactly when some run differs from the first, which is what is tested. */
#include "supervisor/verify/rules.h"

#include <math.h>
#include <string.h>

enum cc_divergence cc_edge_divergence(size_t n, const bool *ok, const char *const *out, const int *exit) {
    bool exact = false, content = false;
    for (size_t i = 1; i < n; i++) {
        /* Failures exiting differently (3 against 4, or a deliberate
         * exit against an uncaught error) are different behaviours. */
        if (ok[i] != ok[0] || (exit && exit[i] != exit[0])) {
            content = true;
            break;
        }
        if (strcmp(out[i], out[0]) == 0) continue;
        exact = true;
        if (!cc_verify_same_lines_sorted(out[i], out[0])) {
            content = true;
            break;
        }
    }
    return content ? CC_DIV_CONTENT : exact ? CC_DIV_ORDER : CC_DIV_NONE;
}

/* a is where b starts (b may be longer). */
static bool prefix_of(const char *a, const char *b) { return strncmp(a, b, strlen(a)) == 0; }

bool cc_edge_all_died_alike(size_t n, const bool *died, const char *const *out, const int *exit) {
    size_t longest = 0;
    if (n < 2) return false;
    for (size_t i = 0; i < n; i++) {
        if (!died[i] || (exit && exit[i] != exit[0])) return false;
        if (strlen(out[i]) > strlen(out[longest])) longest = i;
    }
    for (size_t i = 0; i < n; i++)
        if (!prefix_of(out[i], out[longest]) || cc_verify_differ_in_raw_bytes(out[i], out[longest])) return false;
    return true;
}

int cc_repeat_runs(size_t agreeing, size_t programs, double max_ms, int share, int64_t left_ms) {
    if (agreeing == 0 || programs == 0) return 2;
    size_t runs = (CC_REPEAT_TARGET + agreeing - 1) / agreeing;
    if (runs > CC_REPEAT_MAX) runs = CC_REPEAT_MAX;
    if (runs < 2) runs = 2;
    double budget = (double)(left_ms - 30000) / 2;
    if (budget > 30000) budget = 30000;
    if (budget <= 0) return 2;
    if (max_ms < 1) max_ms = 1;
    while (runs > 2 && (double)(runs - 1) * (double)(agreeing * programs) * max_ms > budget * (share < 1 ? 1 : share))
        runs--;
    return (int)runs;
}

static double chance(double p, int runs) { return round(pow(1 - p, runs) * 1000) / 1000; }

json_t *cc_edge_odds(int runs_per_input, int inputs) {
    int runs = runs_per_input * inputs;
    return json_pack("{s:i, s:i, s:f, s:f, s:s}", "runs_per_input", runs_per_input, "runs_per_snippet", runs,
                     "no_divergence_chance_if_wrong_1_in_10", chance(0.1, runs),
                     "no_divergence_chance_if_wrong_1_in_100", chance(0.01, runs), "note",
                     "each input whose runs agreed ran every snippet runs_per_input times (2 to 15: up to 44 runs "
                     "over the agreeing inputs, fewer when runs are slow) with the same behaviour each time; a snippet that behaves differently at random "
                     "on 1 run in 10 (or 100) would still have shown no divergence with the chance given. More "
                     "inputs or another call lower it; no number of runs removes it");
}
