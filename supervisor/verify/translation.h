/* The comparison behind verify_translation (TOOLS.md 3.4.3) and gate 1 of
 * verify_optimization (3.4.5): both programs compiled once, run on every
 * input through the call's fan-out, each pair classified by the rules
 * (rules.h), vanished outputs re-run once, matches re-run once on both
 * sides to check they reproduce, and the result assembled in input order. */
#ifndef CC_VERIFY_TRANSLATION_H
#define CC_VERIFY_TRANSLATION_H

#include <jansson.h>

#include "supervisor/verify/edge_inputs.h"
#include "supervisor/verify/programs.h"

struct cc_translation {
    struct cc_prog prog[2];      /* source, target */
    struct cc_matrix mx;
    json_t *inputs;              /* owned */
    int64_t timeout_s;
    int stage;                   /* 0 first runs, 1 re-runs, 2 done */
    int *rerun_side;             /* per input: 0, 1 source, 2 target */
    json_t **rerun;              /* per input: the re-run's result */
    void *rslots;
    int reps;                    /* repeats per side of a matched input (runs beyond the first) */
    json_t **again[2];           /* per side: repeat r of input i after a match, [r*n + i] */
    void *aslots;
    struct cc_edges edges;       /* the inputs run: the given ones, then added edge values */
    int edge_mismatched;         /* mismatches on added edge values */
    int repeated_matched;        /* matches whose input was repeated (each run 1 + reps times per side) */
    bool edges_repeated;         /* the added edges' matches were repeated too (they fit the budget) */
    bool mismatched_first;       /* the first runs already mismatched: one repeat per match */
    int source_unstable;         /* inputs where a repeat of the source printed otherwise */
};

/* Start: takes the edges (the inputs to run and which were added; *edges
 * is emptied); languages canonical, codes borrowed from the arguments
 * (which outlive the call). Out of memory, the call is answered with a
 * graded internal error. */
void cc_translation_start(struct cc_translation *t, struct cc_fanout *fo, const char *src_lang,
                         json_t *src_code, const char *tgt_lang, json_t *tgt_code, struct cc_edges *edges,
                         int64_t timeout_s);
/* From the fan-out's idle function: NULL when it queued more work (the
 * re-runs), else the finished result (new reference, graded). */
json_t *cc_translation_step(struct cc_translation *t, struct cc_fanout *fo);
void cc_translation_free(struct cc_translation *t);

#endif
