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
    return cc_edge_all_died_alike_complete(n, died, out, exit, NULL);
}

bool cc_edge_all_died_alike_complete(size_t n, const bool *died, const char *const *out, const int *exit,
                                     const bool *complete) {
    size_t longest = 0;
    if (n < 2) return false;
    for (size_t i = 0; i < n; i++) {
        if (!died[i] || (exit && exit[i] != exit[0])) return false;
        if (strlen(out[i]) > strlen(out[longest])) longest = i;
    }
    for (size_t i = 0; i < n; i++)
        if (!prefix_of(out[i], out[longest]) || cc_verify_differ_in_raw_bytes(out[i], out[longest]) ||
            (complete && complete[i] && strcmp(out[i], out[longest]) != 0))
            return false;
    return true;
}

/* The repeats' time budget: min(30 s, (left_ms - 30 s) / 2), <= 0 when
 * none is left. */
static double repeat_budget(int64_t left_ms) {
    double budget = (double)(left_ms - 30000) / 2;
    return budget > 30000 ? 30000 : budget;
}

/* runs - 1 repeats of `inputs` inputs by `programs` programs, each costed
 * at max_ms over `share` runs in flight, pass the budget. */
static bool over_budget(size_t runs, size_t inputs, size_t programs, double max_ms, int share, double budget) {
    if (max_ms < 1) max_ms = 1;
    return (double)(runs - 1) * (double)(inputs * programs) * max_ms > budget * (share < 1 ? 1 : share);
}

int cc_repeat_runs(size_t agreeing, size_t programs, double max_ms, int share, int64_t left_ms) {
    if (agreeing == 0 || programs == 0) return 2;
    size_t runs = (CC_REPEAT_TARGET + agreeing - 1) / agreeing;
    if (runs > CC_REPEAT_MAX) runs = CC_REPEAT_MAX;
    if (runs < 2) runs = 2;
    double budget = repeat_budget(left_ms);
    if (budget <= 0) return 2;
    while (runs > 2 && over_budget(runs, agreeing, programs, max_ms, share, budget)) runs--;
    return (int)runs;
}

bool cc_repeat_affordable(size_t inputs, size_t programs, double max_ms, int share, int64_t left_ms) {
    double budget = repeat_budget(left_ms);
    return budget > 0 && !over_budget(2, inputs, programs, max_ms, share, budget);
}

static double chance(double p, int runs) { return round(pow(1 - p, runs) * 1000) / 1000; }

json_t *cc_edge_odds(int runs_per_input, int inputs, int all_died, bool diverged) {
    int runs = runs_per_input * inputs;
    json_t *o = json_pack(
        "{s:i, s:i, s:i, s:f, s:f, s:s}", "runs_per_input", runs_per_input, "inputs_repeated", inputs,
        "runs_per_snippet", runs, "no_divergence_chance_if_wrong_1_in_10", chance(0.1, runs),
        "no_divergence_chance_if_wrong_1_in_100", chance(0.01, runs), "note",
        diverged ? "the first runs already diverged, so each other input whose runs agreed (the added edges "
                   "included) ran every snippet only twice (runs_per_input), with the same behaviour both times: "
                   "enough to flag a snippet that is often nondeterministic, not one wrong 1 run in 10 (the chance "
                   "given). The divergences found stand either way"
                 : "each input whose runs agreed (the added edges included) ran every snippet runs_per_input times "
                   "(2 to 15: up to 44 runs over those inputs, fewer when runs are slow) with the same behaviour "
                   "each time; a snippet that behaves differently at random on 1 run in 10 (or 100) would still "
                   "have shown no divergence with the chance given. More inputs or another call lower it; no "
                   "number of runs removes it");
    if (all_died)
        json_object_set_new(o, "inputs_all_died", json_pack("{s:i, s:s}", "count", all_died, "note",
                                                            "inputs whose runs all died (incomplete rows) are no "
                                                            "agreement: they were not repeated and are not counted "
                                                            "in inputs_repeated or the chances"));
    return o;
}
