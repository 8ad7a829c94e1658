/* The verification tools' decisions, as pure functions over captured
 * outputs and durations (no I/O, no event loop), so each rule of TOOLS.md
 * 3.1.5 and 3.4.3-3.4.5 is unit-tested on its own
 * (tests/unit/test_verify_rules.c). The supervisor only compares what the
 * exec workers captured; it never evaluates a program.
 *
 * Strings returned are static unless a function says it allocates. */
#ifndef CC_VERIFY_RULES_H
#define CC_VERIFY_RULES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- text (rules_text.c) ---- */

/* 3.4.3 normalisation: trailing whitespace (space, \t, \r, \v, \f) off
 * every line, lines joined with \n, then the whole stripped of leading and
 * trailing whitespace (\n included). A NUL byte becomes the pair C0 80,
 * so the text is a C string that still differs where the outputs do.
 * Malloc'd. */
char *cc_verify_normalise(const char *s, size_t len);
/* Separates a normalised stdout from the digest of its raw bytes when they
 * were not UTF-8: an overlong form (invalid UTF-8) that no repaired text
 * holds, beside the NUL pair C0 80. */
#define CC_RAW_TAG "\xC0\x81"
/* a and b are the same text before their CC_RAW_TAG digests (one or both
 * carrying one): they differ only in bytes that are not UTF-8. */
bool cc_verify_differ_in_raw_bytes(const char *a, const char *b);
/* A normalised text (or a prefix of one) as a JSON string, its NUL bytes
 * restored. New ref. */
json_t *cc_verify_text_json(const char *s);
/* The first max_chars code points of a valid UTF-8 string. Malloc'd. */
char *cc_verify_prefix(const char *s, size_t max_chars);
/* Lines of a normalised text compared as multisets (sorted lines equal). */
bool cc_verify_same_lines_sorted(const char *a, const char *b);

/* ---- verify_translation (rules_translation.c) ---- */

/* One side of a pair as the rules see it. */
struct cc_side {
    bool ran;               /* false: no result at all (treated as a failed run) */
    bool ok;                /* the envelope's ok */
    bool compile_failed;    /* not ok in the compile phase */
    const char *out;        /* normalised stdout */
    bool truncated;         /* stdout was cut at the output cap */
    bool exited;            /* a run-time failure that exited with exit_code (RTE, no signal or timeout) */
    int exit_code;
    bool signalled;         /* a run-time failure by a signal (RTE, no timeout, output not cut) */
    int crash_code;         /* the exit code of an uncaught error in this side's language (cc_lang_crash_code) */
    bool timed_out;         /* the run was stopped at its timeout */
    bool edge;              /* the input is an edge value the tool added (edge_inputs.h) */
    bool complete;          /* exited with a code in a runtime that writes out all it printed (cc_lang_output_complete) */
};

enum cc_outcome { CC_MATCH, CC_MISMATCH, CC_INCONCLUSIVE };

struct cc_pair_verdict {
    enum cc_outcome outcome;
    int rule;               /* 1..7 of 3.4.3; 35 = our truncation rule, 36 = outputs differing only in bytes that are not UTF-8, 37 = a match that did not reproduce, 38 = the same failure printing different output, 39 = failures with different exit codes, 40 = an added edge input that ran out of time, 41 = uncaught errors of two languages after different output */
    const char *reason;
};

/* The table of 3.4.3, first rule wins. Between rules 3 and 4 one rule of
 * ours (docs/contract.md): equal outputs that were cut at the output cap
 * are inconclusive, since what follows the cap was never compared. Before
 * rule 7 another: two runs that exited with the same non-zero code but
 * printed different stdout are a mismatch (rule 38), so are two exits
 * with different codes unless both are their language's uncaught error
 * (rule 39), and those too when what they printed differs and neither
 * output is the start of the other (rule 41). */
struct cc_pair_verdict cc_verify_classify(const struct cc_side *src, const struct cc_side *tgt);
/* The vanished-output re-run: 0 = none, 1 = re-run the source, 2 = the
 * target (rule 3 fired and exactly that side printed nothing). */
int cc_verify_rerun_side(const struct cc_pair_verdict *v, const struct cc_side *src,
                         const struct cc_side *tgt);
/* After the re-run of `side` (1 or 2) printed `again` (normalised): the
 * final verdict and its reason (malloc'd into *reason_out). */
struct cc_pair_verdict cc_verify_after_rerun(int side, const char *again, char **reason_out);
/* A match (rule 5) is evidence only when it reproduces: each side is run
 * once more on the same input (docs/contract.md, rule 37). src2/tgt2 are
 * those second runs. The source printing differently the second time is
 * inconclusive (no single behaviour to port); the target doing so, beside
 * a source that printed the same twice, is a mismatch; a second run that
 * failed where the first succeeded is inconclusive; else the match
 * stands. */
struct cc_pair_verdict cc_verify_after_repeat(const struct cc_side *src, const struct cc_side *tgt,
                                              const struct cc_side *src2, const struct cc_side *tgt2);
const char *cc_outcome_name(enum cc_outcome o);
/* The exit code of an uncaught error in lang (python3 1, go's panic 2,
 * rust's 101, php and perl 255; 1 otherwise): two ports crashing each in
 * its own language's way exit differently without behaving differently. */
int cc_lang_crash_code(const char *lang);
/* An exit code as the comparison reads it: an uncaught error in the
 * language (cc_lang_crash_code) is -2, any other code itself. */
int cc_exit_class(int code, const char *lang);

/* ---- how a run died (rules_death.c) ---- */

/* stderr ends with perl's die location ("... at FILE line N." with an
 * optional ", <FH> line M."). */
bool cc_perl_die_trace(const char *err);
/* A run of lang that exited with code and wrote err died of an uncaught
 * error: its language's crash code, perl's die whatever errno made the
 * code, or a rust main that returned Err (exit 1 after "Error: "). */
bool cc_uncaught_exit(const char *lang, int code, const char *err);
/* Exiting with a code (not a signal), lang's runtime writes out all the
 * program printed, so a shorter output is not a lost tail. */
bool cc_lang_output_complete(const char *lang);

/* What the matches of a call rule out (red team 3): each of `matched`
 * inputs (the given ones, and the added edges when `edges` says they were
 * repeated too: red team 6) ran runs_per_input times per program with the
 * same output (twice, or more where runs are cheap: red team 5), so a
 * port answering wrongly at random on a fraction p of its runs passes
 * with chance (1 - p)^(runs_per_input * matched). mismatched: the first
 * runs already mismatched, so one repeat per match was made.
 * {matched_runs_per_program, runs_per_input, edges_repeated,
 * pass_chance_if_wrong_1_in_10, ..._1_in_100, note}. New ref. */
json_t *cc_verify_odds(int matched, int runs_per_input, bool edges, bool mismatched);
/* Aggregate of 3.4.3: *passed and the reason (malloc'd, NULL when passed). */
char *cc_verify_aggregate(int matched, int mismatched, int total, bool *passed);
/* grade, grade_basis, grade_rules_version of 1.14 set on obj. basis_detail
 * is the "not graded: <x>" part when !graded. */
void cc_verify_grade(json_t *obj, bool graded, const char *basis);
/* A refusal graded as such: ungraded, the error being the basis. */
void cc_verify_grade_refusal(json_t *err);
/* "cross-checked: <src> source and <tgt> port independently agreed on
 * <m>/<n> test input(s)". Malloc'd. */
char *cc_verify_translation_basis(const char *src_lang, const char *tgt_lang, int matched, int total);

/* ---- compare_edge_cases (rules_edge.c) ---- */

enum cc_divergence { CC_DIV_NONE, CC_DIV_CONTENT, CC_DIV_ORDER };

/* Over n >= 2 runs of one input: content when the order-insensitive
 * behaviours (ok, sorted lines, exit class) differ, else order when the
 * exact ones (ok, lines) do, else none. exit[i] is the failed run's
 * cc_exit_class, or -1 (a success, or no exit code); NULL: none. */
enum cc_divergence cc_edge_divergence(size_t n, const bool *ok, const char *const *out, const int *exit);
/* Every one of n runs died (ran and failed: an exit code, a signal, a
 * timeout) with one exit class, and each output is the start of the
 * longest (red team 5): what a dying program wrote may still have been in
 * its buffer and lost (rule 41 of verify_translation), so outputs that
 * differ only by a lost tail are not a divergence, and equal ones are not
 * an agreement. exit as cc_edge_divergence's. */
bool cc_edge_all_died_alike(size_t n, const bool *died, const char *const *out, const int *exit);
/* The same, where complete[i] says run i's output cannot have lost a tail
 * (cc_lang_output_complete, exited with a code): such a run that printed
 * less than the longest printed less, so the runs diverge. NULL: none. */
bool cc_edge_all_died_alike_complete(size_t n, const bool *died, const char *const *out, const int *exit,
                                     const bool *complete);
/* How many runs each agreeing input gets (red team 5; compare_edge_cases,
 * and verify_translation's matches): enough for each program to run
 * CC_REPEAT_TARGET times over the agreeing inputs (0.9^44: a program wrong
 * on 1 run in 10 is seen in 99 calls of 100), at most CC_REPEAT_MAX and at
 * least 2, and fewer while the extra runs' cost, at the slowest first
 * run's max_ms each over `share` runs in flight, passes
 * min(30 s, (left_ms - 30 s) / 2). A fixed 0.5 s bound on each first run
 * was tried first: on this loaded host node's runs passed it, and the
 * calls fell back to two runs in 4 of 20. */
#define CC_REPEAT_TARGET 44
#define CC_REPEAT_MAX 15
int cc_repeat_runs(size_t agreeing, size_t programs, double max_ms, int share, int64_t left_ms);
/* One repeat of each of `inputs` inputs by `programs` programs fits the
 * same budget (verify_translation's added edges are repeated only then:
 * red team 6). */
bool cc_repeat_affordable(size_t inputs, size_t programs, double max_ms, int share, int64_t left_ms);
/* What a call's agreements rule out (red team 5): each of `inputs` inputs
 * whose runs agreed ran every snippet runs_per_input times with the same
 * behaviour, so a snippet behaving differently at random on a fraction p
 * of its runs shows no divergence with chance (1 - p)^(runs_per_input *
 * inputs). {runs_per_input, inputs_repeated, runs_per_snippet,
 * no_divergence_chance_if_wrong_1_in_10, ..._1_in_100, note}, and
 * inputs_all_died {count, note} when all_died inputs (every run died) were
 * left out: they are no agreement (red team 6). diverged: the first runs
 * already diverged and the repeats were cut to one per input. New ref. */
json_t *cc_edge_odds(int runs_per_input, int inputs, int all_died, bool diverged);

/* ---- verify_optimization (rules_speed.c) ---- */

/* Auto-scale test of gate 2 over the minimum durations of one round. */
bool cc_speed_should_scale(const double *ms, size_t n);
/* round(x, 2) as Python does it (half-even on the exact binary value). */
double cc_round2(double x);
/* The speedup object of 3.4.5 from the per-size minimum durations. nb/na
 * are the list lengths (mismatched or empty: not comparable). New ref. */
json_t *cc_speedup(const int64_t *sizes, const double *before, size_t nb, const double *after,
                   size_t na);
/* What the programs cost before they do any work that grows with n: each
 * program's fastest of its runs at n = 1 (start-up, imports, fixed work).
 * measured is false when a run at n = 1 failed: then the spec's raw
 * durations stand. */
struct cc_startup {
    bool measured;
    double orig_ms, cand_ms;      /* fastest run at n = 1 per program */
    double floor_ms;              /* min of the two: what both pay */
    double jitter_ms;             /* the larger cc_speed_jitter of the two programs' runs at n = 1 */
};
/* The jitter of a program's runs at n = 1 as timing sees it: its median
 * less its fastest run, at least 1 ms. Timing keeps each size's fastest
 * run, so one slow run (a load spike) says nothing about it; max - min
 * read one 124 ms run among 18 ms ones as 106 ms of jitter and asked for
 * a second of work no size reached (a fresh-clone CI failure). */
double cc_speed_jitter(const double *ms, size_t n);
/* The smallest net time of the original at which a size counts: ten
 * times the start-up runs' jitter, so a same-speed candidate cannot read
 * as 1.15x faster on noise. */
double cc_speed_net_floor(const struct cc_startup *st);
/* Auto-scale on net durations: scale while the original's largest net
 * time is below max(20 ms, twice the net floor). */
bool cc_speed_should_scale_net(const double *ms, size_t n, const struct cc_startup *st);
/* The estimated duration of the next x10 auto-scaling round: `runs`
 * runs per size (ms: this round's fastest per size, floor_ms the fixed
 * start-up part that does not grow), the work grown by the growth this
 * round showed (10^1 to 10^3). */
double cc_speed_next_round_ms(const int64_t *sizes, const double *ms, size_t n, double floor_ms, int runs);
/* The longest single run the next x10 round would make (its fastest
 * estimate: a loaded host's runs go slower still). */
double cc_speed_next_run_ms(const int64_t *sizes, const double *ms, size_t n, double floor_ms);
/* The speedup object on net durations: each raw minimum less floor_ms
 * (not below 0); a size counts when the original's net time reaches the
 * net floor; the candidate's net time is read as at least jitter_ms (the
 * clock cannot tell less apart). Carries method and startup. New ref. */
json_t *cc_speedup_net(const int64_t *sizes, const double *before, const double *after, size_t n,
                       const struct cc_startup *st);
/* The decision of 3.4.5, first match: *accepted and the reason
 * (malloc'd). min_text is min_speedup as the client wrote it. */
char *cc_speed_decision(const json_t *speedup, double min_speedup, const char *min_text,
                        bool *accepted);
/* Per size, the timed runs the separation rule reads (ms, -1 none). */
struct cc_speed_runs {
    const double *orig_min, *orig_mid;   /* the original's fastest and median of its six */
    const double *cand_mid, *cand_max;   /* the candidate's median and slowest of its three */
};
/* The median of n durations, -1 when n is 0 (ms is not reordered). */
double cc_speed_median_of(const double *ms, size_t n);
/* Whether the speedup stands out of the noise (red team 3): a size is
 * separated when the candidate's median timed run (of three) beat the
 * original's fastest; when only one size counts, its slowest run must.
 * Under equal speed that happens at a size with chance 1/12 (1/84 for the
 * slowest). Marks each per_size row {separated, original_median_ms,
 * original_spread, candidate_median_ms, candidate_slowest_ms} (sizes[i]
 * matched in order) and returns how many rows are separated; *counted
 * gets the rows, *spread the median across them of the original's spread
 * (its median run over its fastest, net of start-up when the row is).
 * Two runs of the same program were "verified faster" at 1.2x on medians
 * of minima. */
int cc_speed_separation(json_t *speedup, const int64_t *sizes, const struct cc_speed_runs *runs, size_t n,
                        int *counted, double *spread);
/* The decision's noise rule: a speedup no larger than the original's own
 * spread is refused (reason malloc'd, NULL when it stands). Separation
 * alone let the same loop as original and candidate at min_speedup 1.01
 * through in a fresh-clone CI: a candidate's median under the original's
 * fastest by luck is 1/12 a size at equal speed; a ratio above the
 * original's spread as well is far rarer (docs/contract.md). */
char *cc_speed_noise_refusal(const json_t *speedup, double spread);
/* The decision's overlap rule: an accepted speedup whose sizes are
 * separated at no more than half of those counted is refused (reason
 * malloc'd, NULL when it stands). */
char *cc_speed_overlap_refusal(const json_t *speedup, int separated, int counted);
/* A number as Python's repr prints it: "0", "1.15", "2.0". Into buf. */
const char *cc_number_text(const json_t *v, char buf[40]);

/* ---- compare_execution (rules_compare.c) ---- */

struct cc_cmp_row {
    const char *language;
    bool ok;
    bool timed_out;         /* still, after the retry */
    bool has_duration;
    int64_t duration_ms;
    bool printed;           /* stdout not blank */
    json_t *exit_code;      /* borrowed: integer or null */
};

/* Index of the fastest ok row with a duration (the first of equals), or -1. */
int cc_cmp_fastest(const struct cc_cmp_row *rows, size_t n);
/* The discrepancies list of 3.1.5. timeout_s is the per-run timeout. New ref. */
json_t *cc_cmp_discrepancies(const struct cc_cmp_row *rows, size_t n, int64_t timeout_s);

#endif
