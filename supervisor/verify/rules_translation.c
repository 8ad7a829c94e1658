/* verify_translation's rules (TOOLS.md 3.4.3): the pair table, the
 * vanished-output re-run, the aggregate and the grade (1.14). */
#include "supervisor/verify/rules.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cc_outcome_name(enum cc_outcome o) {
    return o == CC_MATCH ? "match" : o == CC_MISMATCH ? "mismatch" : "inconclusive";
}

/* What each runtime exits with when an error nobody caught ends it (every
 * language not listed: 1). escript exits 127 after an uncaught erlang
 * error, gawk 2 after a fatal error, a gfortran runtime error 2, jq 5
 * after an error raised at run time; without them a python exception
 * against an erlang one read as two programs failing differently (rule 39:
 * a mismatch where the spec's rule 7 says inconclusive). */
int cc_lang_crash_code(const char *lang) {
    static const struct {
        const char *lang;
        int code;
    } t[] = {{"awk", 2},   {"erlang", 127}, {"fortran", 2}, {"go", 2},
             {"jq", 5},    {"perl", 255},   {"php", 255},   {"rust", 101}};
    for (size_t i = 0; lang && i < sizeof t / sizeof t[0]; i++)
        if (strcmp(lang, t[i].lang) == 0) return t[i].code;
    return 1;
}

int cc_exit_class(int code, const char *lang) {
    return code == cc_lang_crash_code(lang) ? -2 : code;
}

static struct cc_pair_verdict verdict(enum cc_outcome o, int rule, const char *reason) {
    return (struct cc_pair_verdict){o, rule, reason};
}

/* a is where b starts (b may be longer). */
static bool prefix_of(const char *a, const char *b) { return strncmp(a, b, strlen(a)) == 0; }

struct cc_pair_verdict cc_verify_classify(const struct cc_side *src, const struct cc_side *tgt) {
    bool s_ok = src->ran && src->ok, t_ok = tgt->ran && tgt->ok;
    if (src->compile_failed)
        return verdict(CC_INCONCLUSIVE, 1,
                       "the source program failed to compile; there is nothing to verify against");
    if (tgt->compile_failed) return verdict(CC_MISMATCH, 2, "the translation failed to compile");
    /* A program looping n times meets n = 2^63 among the added edges:
     * running out of time there says nothing about the port. */
    if (src->edge && (src->timed_out || tgt->timed_out))
        return verdict(CC_INCONCLUSIVE, 40,
                       "an edge input the tool added ran out of its time limit (edge_inputs.note): the value is "
                       "too large or slow for the program here, so this input says nothing about the translation");
    if (s_ok && t_ok) {
        if (strcmp(src->out, tgt->out) != 0) {
            if (cc_verify_differ_in_raw_bytes(src->out, tgt->out))
                return verdict(CC_INCONCLUSIVE, 36,
                               "both ran and their stdout reads the same as text, but it held bytes that are not "
                               "UTF-8 (shown as U+FFFD) and those bytes differ; whether that is a real difference "
                               "or only whitespace the comparison ignores cannot be told from here");
            return verdict(CC_MISMATCH, 3, "both ran; stdout differs");
        }
        if (src->truncated || tgt->truncated)
            return verdict(CC_INCONCLUSIVE, 35,
                           "both ran and their stdout agrees up to the output cap, but it was cut "
                           "there; what followed was never compared");
        if (!src->out[0])
            return verdict(CC_INCONCLUSIVE, 4,
                           "both programs succeeded but produced no output; an absence of output is "
                           "not evidence of a match");
        return verdict(CC_MATCH, 5, "");
    }
    if (s_ok != t_ok)
        return verdict(CC_MISMATCH, 6, s_ok ? "the translation failed while the other succeeded"
                                            : "the source program failed while the other succeeded");
    /* Their errors are not comparable, but the same exit code with
     * different output is the same failure path printing different things:
     * a port printing 'nul' where the source printed 'zero' before both
     * exited 1 was passed on the other inputs. */
    if (src->ran && tgt->ran && src->exited && tgt->exited && src->exit_code == tgt->exit_code &&
        strcmp(src->out, tgt->out) != 0 && !cc_verify_differ_in_raw_bytes(src->out, tgt->out))
        return verdict(CC_MISMATCH, 38,
                       "both programs failed at run time with the same exit code, but their stdout differs");
    /* A port exiting 3 where the source exits 2, or exiting deliberately
     * where the source dies of an uncaught error, fails differently; two
     * uncaught errors (python's 1, a go panic's 2) are not comparable. */
    if (src->ran && tgt->ran && src->exited && tgt->exited && src->exit_code != tgt->exit_code &&
        !(src->exit_code == src->crash_code && tgt->exit_code == tgt->crash_code))
        return verdict(CC_MISMATCH, 39,
                       "both programs failed at run time, but with different exit codes (each side's exit_code), "
                       "and they are not both their language's code for an uncaught error");
    /* A deliberate exit (a code that is not the language's uncaught
     * error) against a death by a signal (a C++ uncaught exception, an
     * abort, a segfault) fails differently too: a python sys.exit(3)
     * ported as a C++ throw was rule 7 and passed. compare_edge_cases
     * already reads the pair as a divergence. */
    bool s_deliberate = src->exited && src->exit_code != src->crash_code,
         t_deliberate = tgt->exited && tgt->exit_code != tgt->crash_code;
    if (src->ran && tgt->ran && ((s_deliberate && tgt->signalled) || (t_deliberate && src->signalled)))
        return verdict(CC_MISMATCH, 39,
                       "both programs failed at run time, but one exited with a code that is not its language's "
                       "code for an uncaught error (a deliberate exit) and the other died by a signal");
    /* Two uncaught errors (python's 1, a go panic's 2) are not comparable
     * as errors, but what each printed before it is: a port printing 'nul'
     * where the source printed 'zero' before each died in its own way was
     * inconclusive there and passed on the other inputs. A C++ port's
     * uncaught exception is a signal (SIGABRT): the same. What a dying
     * program printed is a prefix of what it wrote (a buffered tail may be
     * lost), so an output that is the start of the other stays rule 7. */
    bool s_died = src->exited || src->signalled, t_died = tgt->exited || tgt->signalled;
    /* A shorter output from a run that exited in a runtime writing out
     * all it printed (python3, C's exit) is what it printed: a python
     * exception printing nothing against a go port printing 'zero' before
     * its panic differ. */
    bool s_short = prefix_of(src->out, tgt->out) && !src->complete,
         t_short = prefix_of(tgt->out, src->out) && !tgt->complete;
    if (src->ran && tgt->ran && s_died && t_died && strcmp(src->out, tgt->out) != 0 && !s_short && !t_short &&
        !cc_verify_differ_in_raw_bytes(src->out, tgt->out))
        return verdict(CC_MISMATCH, 41,
                       "both programs died at run time (of their language's uncaught error or a signal: exit codes "
                       "that are not compared), but what they printed before it differs, and neither output is the "
                       "start of the other");
    return verdict(CC_INCONCLUSIVE, 7, "both programs failed at run time; their errors are not comparable");
}

int cc_verify_rerun_side(const struct cc_pair_verdict *v, const struct cc_side *src,
                         const struct cc_side *tgt) {
    if (v->rule != 3) return 0;
    bool s_empty = !src->out[0], t_empty = !tgt->out[0];
    if (s_empty == t_empty) return 0;
    return s_empty ? 1 : 2;
}

struct cc_pair_verdict cc_verify_after_rerun(int side, const char *again, char **reason_out) {
    char *r = NULL;
    struct cc_pair_verdict v;
    if (again && again[0]) {
        v = verdict(CC_INCONCLUSIVE, 3, NULL);
        if (asprintf(&r, "the %s produced no output on the first run and output on a second run of "
                     "the same input; the runtime is not deterministic here, so neither result is "
                     "evidence about the translation", side == 1 ? "source" : "target") < 0)
            r = NULL;
    } else {
        v = verdict(CC_MISMATCH, 3, NULL);
        r = strdup("both ran; stdout differs (the empty side was re-run and was empty again)");
    }
    *reason_out = r;
    v.reason = r;
    return v;
}

struct cc_pair_verdict cc_verify_after_repeat(const struct cc_side *src, const struct cc_side *tgt,
                                              const struct cc_side *src2, const struct cc_side *tgt2) {
    bool s_ok = src2->ran && src2->ok, t_ok = tgt2->ran && tgt2->ok;
    if (s_ok && strcmp(src2->out, src->out) != 0)
        return verdict(CC_INCONCLUSIVE, 37,
                       "the source printed different output on a second run of the same input: it is not "
                       "deterministic here (random numbers, time, hash or thread order), so there is no single "
                       "behaviour to compare the translation with, and one matching run was luck");
    if (s_ok && t_ok && strcmp(tgt2->out, tgt->out) != 0)
        return verdict(CC_MISMATCH, 37,
                       "the translation printed different output on a second run of the same input while the "
                       "source printed the same twice: the translation is not deterministic here and does not "
                       "reproduce the source's output (the first runs matched by luck)");
    /* The target crashing on a second run (an exit code or a signal, not
     * the clock) beside a source that printed the same twice: a port that
     * dies now and then (a data race, uninitialised memory) is wrong on
     * this input; read as inconclusive, the other inputs passed it. */
    if (s_ok && tgt2->ran && !tgt2->compile_failed && (tgt2->exited || tgt2->signalled) && !tgt2->timed_out)
        return verdict(CC_MISMATCH, 37,
                       "the translation failed at run time on a second run of the same input (see repeat: an exit "
                       "code or a signal, not a timeout) while the source printed the same output twice: the "
                       "translation does not reliably reproduce the source's behaviour here");
    if (!s_ok || !t_ok)
        return verdict(CC_INCONCLUSIVE, 37,
                       "the outputs matched, but a second run of the same input, made to check that the match "
                       "reproduces, failed where the first succeeded; the program is not deterministic here or "
                       "the host was too loaded, so the match is not evidence");
    return verdict(CC_MATCH, 5, "");
}

static double chance(double p, int runs) {
    return round(pow(1 - p, runs) * 1000) / 1000;
}

json_t *cc_verify_odds(int matched, int runs_per_input, bool edges, bool mismatched) {
    int runs = runs_per_input * matched;
    const char *note =
        mismatched ? "the first runs already mismatched (the call fails on that), so each other matched input ran "
                     "only twice per program (runs_per_input): enough to flag a program that is often "
                     "nondeterministic, not one wrong 1 run in 10 (the chance given)"
        : edges ? "each matched input (the given ones and the added edges) ran runs_per_input times per program "
                  "(2 to 15: up to 44 runs over the matched inputs, fewer when runs are slow) and printed the same "
                  "each time; a port that answers wrongly at random on 1 run in 10 (or 100) would still have "
                  "matched everywhere with the chance given. More inputs or another call lower it; no number of "
                  "runs removes it"
                : "each matched given input ran runs_per_input times per program (2 to 15: up to 44 runs over the "
                  "matched inputs, fewer when runs are slow) and printed the same each time; the added edges ran "
                  "once (their repeats did not fit the time left); a port that answers wrongly at random on 1 run "
                  "in 10 (or 100) would still have matched everywhere with the chance given. More inputs or "
                  "another call lower it; no number of runs removes it";
    return json_pack("{s:i, s:i, s:b, s:f, s:f, s:s}", "matched_runs_per_program", runs, "runs_per_input",
                     runs_per_input, "edges_repeated", edges, "pass_chance_if_wrong_1_in_10", chance(0.1, runs),
                     "pass_chance_if_wrong_1_in_100", chance(0.01, runs), "note", note);
}

char *cc_verify_aggregate(int matched, int mismatched, int total, bool *passed) {
    char *r = NULL;
    *passed = false;
    if (mismatched > 0) {
        if (asprintf(&r, "%d of %d test input(s) showed different behaviour", mismatched, total) < 0) r = NULL;
        return r;
    }
    if (matched == 0)
        return strdup("could not verify: no test input produced a successful run of BOTH programs, so "
                      "nothing was actually compared");
    *passed = true;
    return NULL;
}

void cc_verify_grade(json_t *obj, bool graded, const char *basis) {
    char *b = NULL;
    if (!graded && asprintf(&b, "not graded: %s", basis ? basis : "") < 0) b = NULL;
    json_object_set_new(obj, "grade", json_string(graded ? "cross_checked" : "ungraded"));
    json_object_set_new(obj, "grade_basis", json_string(graded ? basis : b ? b : "not graded"));
    json_object_set_new(obj, "grade_rules_version", json_string("2"));
    free(b);
}

void cc_verify_grade_refusal(json_t *err) {
    cc_verify_grade(err, false, json_string_value(json_object_get(err, "error")));
}

char *cc_verify_translation_basis(const char *src_lang, const char *tgt_lang, int matched, int total) {
    char *b = NULL;
    if (asprintf(&b, "cross-checked: %s source and %s port independently agreed on %d/%d test input(s)",
                 src_lang, tgt_lang, matched, total) < 0)
        b = NULL;
    return b;
}
