/* The verification tools' rules (supervisor/verify/rules.h), one test per
 * rule of TOOLS.md 3.1.5 and 3.4.3-3.4.5, and the fan-out share. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "supervisor/verify/edge_inputs.h"
#include "supervisor/verify/fanout.h"
#include "supervisor/verify/programs.h"
#include "supervisor/verify/rules.h"
#include "tests/unit/check.h"

static void check_norm(const char *in, const char *want) {
    char *n = cc_verify_normalise(in, strlen(in));
    CHECK_STREQ(n, want);
    free(n);
}

static void normalise_strips_line_ends_and_the_whole(void) {
    check_norm("42\n", "42");
    check_norm("a  \nb\t\r\n\n\n", "a\nb");
    check_norm("  lead\nkeep  inner  \n", "lead\nkeep  inner");
    check_norm("x\r\ny\r\n", "x\ny");
    check_norm("", "");
    check_norm("\n \n\t\n", "");
    /* Interior blank lines stay: they are output. */
    check_norm("a\n\nb\n", "a\n\nb");
    /* Not Unicode spaces: stripping less never hides a difference. */
    check_norm("x\xc2\xa0\n", "x\xc2\xa0");
}

/* "ab\0cd" and "ab\0XY" normalised to the same C string "ab": a port
 * that differed after a NUL byte passed as cross_checked. */
static void nul_byte_in_output_does_not_end_the_comparison(void) {
    char *a = cc_verify_normalise("ab\0cd\n", 6), *b = cc_verify_normalise("ab\0XY\n", 6);
    CHECK(a && b && strcmp(a, b) != 0);
    CHECK_STREQ(a, "ab\xc0\x80" "cd");
    json_t *j = cc_verify_text_json(a);
    CHECK(j && json_string_length(j) == 5 && memcmp(json_string_value(j), "ab\0cd", 5) == 0);
    json_decref(j);
    struct cc_side src = {.ran = true, .ok = true, .out = a}, tgt = {.ran = true, .ok = true, .out = b};
    CHECK(cc_verify_classify(&src, &tgt).outcome == CC_MISMATCH);
    free(a), free(b);
}

static void prefix_counts_code_points(void) {
    char *p = cc_verify_prefix("h\xc3\xa9llo", 2);
    CHECK_STREQ(p, "h\xc3\xa9");
    free(p);
    p = cc_verify_prefix("abc", 60);
    CHECK_STREQ(p, "abc");
    free(p);
    p = cc_verify_prefix("\xf0\x9f\x98\x80x", 1);
    CHECK_STREQ(p, "\xf0\x9f\x98\x80");
    free(p);
}

static struct cc_side ok_side(const char *out) { return (struct cc_side){.ran = true, .ok = true, .out = out}; }
static struct cc_side failed_side(void) { return (struct cc_side){.ran = true, .ok = false, .out = ""}; }
static struct cc_side compile_failure(void) {
    return (struct cc_side){.ran = true, .ok = false, .compile_failed = true, .out = ""};
}

static void classify_rules_in_order(void) {
    struct cc_side a = ok_side("6"), b = ok_side("6"), c = ok_side("7"), e = ok_side("");
    struct cc_side f = failed_side(), cf = compile_failure();
    struct cc_pair_verdict v;
    /* 1 beats 2: a source that does not compile verifies nothing. */
    v = cc_verify_classify(&cf, &cf);
    CHECK_INTEQ(v.rule, 1);
    CHECK_INTEQ(v.outcome, CC_INCONCLUSIVE);
    CHECK_STREQ(v.reason, "the source program failed to compile; there is nothing to verify against");
    v = cc_verify_classify(&a, &cf);
    CHECK_INTEQ(v.rule, 2);
    CHECK_INTEQ(v.outcome, CC_MISMATCH);
    CHECK_STREQ(v.reason, "the translation failed to compile");
    v = cc_verify_classify(&f, &cf);
    CHECK_INTEQ(v.rule, 2);
    v = cc_verify_classify(&a, &c);
    CHECK_INTEQ(v.rule, 3);
    CHECK_STREQ(v.reason, "both ran; stdout differs");
    v = cc_verify_classify(&e, &e);
    CHECK_INTEQ(v.rule, 4);
    CHECK_INTEQ(v.outcome, CC_INCONCLUSIVE);
    v = cc_verify_classify(&a, &b);
    CHECK_INTEQ(v.rule, 5);
    CHECK_INTEQ(v.outcome, CC_MATCH);
    CHECK_STREQ(v.reason, "");
    v = cc_verify_classify(&a, &f);
    CHECK_INTEQ(v.rule, 6);
    CHECK_STREQ(v.reason, "the translation failed while the other succeeded");
    v = cc_verify_classify(&f, &a);
    CHECK_STREQ(v.reason, "the source program failed while the other succeeded");
    v = cc_verify_classify(&f, &f);
    CHECK_INTEQ(v.rule, 7);
    CHECK_STREQ(v.reason, "both programs failed at run time; their errors are not comparable");
    /* A rejected request (no result at all) is a run-time failure. */
    struct cc_side none = {.out = ""};
    v = cc_verify_classify(&none, &none);
    CHECK_INTEQ(v.rule, 7);
}

/* same_failure_printing_different_output_was_passed: both exited 1, one
 * after printing 'zero', the other 'nul'; rule 7 made it inconclusive and
 * the other inputs passed the port (rule 38). */
static void same_exit_code_different_output_is_a_mismatch(void) {
    struct cc_side a = {.ran = true, .out = "zero", .exited = true, .exit_code = 1};
    struct cc_side b = {.ran = true, .out = "nul", .exited = true, .exit_code = 1};
    struct cc_pair_verdict v = cc_verify_classify(&a, &b);
    CHECK_INTEQ(v.outcome, CC_MISMATCH);
    CHECK_INTEQ(v.rule, 38);
    CHECK_STREQ(v.reason, "both programs failed at run time with the same exit code, but their stdout differs");
    b.out = "zero"; /* the same output: still not comparable */
    CHECK_INTEQ(cc_verify_classify(&a, &b).rule, 7);
    b.out = "nul", b.exit_code = 2; /* another exit code: another failure (python 1, go panic 2), */
    a.crash_code = 1, b.crash_code = 2; /* but still different output: rule 41 */
    CHECK_INTEQ(cc_verify_classify(&a, &b).rule, 41);
    b.exit_code = 1, b.exited = false; /* a signal or a timeout: output may be lost or cut */
    CHECK_INTEQ(cc_verify_classify(&a, &b).rule, 7);
}

/* uncaught_errors_of_two_languages_after_different_output_passed (red
 * team 4): python printed 'zero' and raised (1), the go port printed 'nul'
 * and panicked (2); rule 7 made the input inconclusive and the call passed
 * on the other inputs. What each printed before dying is compared unless
 * one output is the start of the other (a tail still buffered may be lost). */
static void uncaught_errors_of_two_languages_after_different_output_passed(void) {
    struct cc_side a = {.ran = true, .out = "zero", .exited = true, .exit_code = 1, .crash_code = 1};
    struct cc_side b = {.ran = true, .out = "nul", .exited = true, .exit_code = 2, .crash_code = 2};
    struct cc_pair_verdict v = cc_verify_classify(&a, &b);
    CHECK_INTEQ(v.outcome, CC_MISMATCH);
    CHECK_INTEQ(v.rule, 41);
    CHECK_STREQ(v.reason, "both programs died at run time (of their language's uncaught error or a signal: exit "
                          "codes that are not compared), but what they printed before it differs, and neither output "
                          "is the start of the other");
    b.exit_code = 101, b.crash_code = 101; /* a rust panic */
    CHECK_INTEQ(cc_verify_classify(&a, &b).rule, 41);
    b.out = ""; /* printed nothing: it may have lost its output */
    CHECK_INTEQ(cc_verify_classify(&a, &b).rule, 7);
    b.out = "zero\nmore"; /* a longer output starting with the other's */
    CHECK_INTEQ(cc_verify_classify(&a, &b).rule, 7);
    CHECK_INTEQ(cc_verify_classify(&b, &a).rule, 7);
    b.out = "zerO";
    CHECK_INTEQ(cc_verify_classify(&b, &a).rule, 41);
    b.exited = false, b.signalled = true; /* a C++ port's uncaught exception: SIGABRT */
    CHECK_INTEQ(cc_verify_classify(&a, &b).rule, 41);
    b.out = "";  /* died by a signal with nothing printed: its buffer may be lost */
    CHECK_INTEQ(cc_verify_classify(&a, &b).rule, 7);
    b.out = "zerO", b.signalled = false; /* a timeout: not read */
    CHECK_INTEQ(cc_verify_classify(&a, &b).rule, 7);
}

/* optimization_defaults_were_all_even (red team 4): verify_optimization's
 * seven defaults and its timing sizes are even but 1, and it added no
 * inputs, so a candidate wrong on every odd n from 3 was verified faster.
 * Few or no inputs got six small sizes, odd ones among them; since red
 * team 5 every call gets 22 (0, 1, primes, powers of two and their
 * neighbours, squares, odd n), however many inputs were given. */
static void optimization_defaults_were_all_even(void) {
    json_t *given = json_pack("[s, s]", "7", "10");
    struct cc_edges e;
    CHECK_INTEQ(cc_edges_build_sizes(&e, given, false, 2000), 0);
    CHECK_INTEQ(json_array_size(e.inputs), 2 + 21); /* 7 was given: not added twice */
    const char *want[] = {"7", "10", "0", "1", "2", "3", "4", "5", "8", "9", "15", "16", "17", "31", "32", "33", "64",
                          "97", "127", "128", "1001", "1024", "1291"};
    for (size_t i = 0; i < 23; i++) CHECK_STREQ(json_string_value(json_array_get(e.inputs, i)), want[i]);
    CHECK(cc_edges_label(&e, 1) == NULL);
    CHECK_STREQ(cc_edges_label(&e, 5), "size: 3 (odd: the defaults and timing sizes are even but 1)");
    CHECK_STREQ(cc_edges_label(&e, 19), "size: 128 (2^7)");
    CHECK_INTEQ(json_integer_value(json_object_get(e.probed, "added")), 21);
    CHECK_STREQ(json_string_value(json_array_get(json_object_get(e.probed, "kinds"), 0)), "size");
    cc_edges_free(&e);
    json_t *seven = json_pack("[s, s, s, s, s, s, s]", "1", "2", "4", "6", "8", "10", "12");
    CHECK_INTEQ(cc_edges_build_sizes(&e, seven, false, 2000), 0);
    CHECK_INTEQ(json_array_size(e.inputs), 7 + 18); /* seven given turned the sizes off before red team 5 */
    CHECK_STREQ(json_string_value(json_array_get(e.inputs, 7)), "0");
    CHECK_STREQ(json_string_value(json_array_get(e.inputs, 8)), "3");
    CHECK(e.probed != NULL);
    cc_edges_free(&e);
    /* none above the smallest timing size: a program timed at 20 may
     * never finish 1001 */
    CHECK_INTEQ(cc_edges_build_sizes(&e, given, true, 20), 0);
    CHECK_INTEQ(json_array_size(e.inputs), 2 + 11); /* 0 1 2 3 4 5 8 9 15 16 17 (7 given), not 31 on */
    CHECK_STREQ(json_string_value(json_array_get(e.inputs, 12)), "17");
    cc_edges_free(&e);
    /* verify_translation's edges never include sizes; its string edges
     * hold code-point order (U+FF01 before an astral character), and every
     * kind the empty stdin (red team 5). */
    CHECK_INTEQ(cc_edges_build(&e, given, true, true), 0);
    CHECK_INTEQ(json_array_size(e.inputs), 2 + 31); /* 28, and red team 6's "42\n", "0.5\n" and 14 words */
    CHECK_STREQ(json_string_value(json_array_get(e.inputs, 2 + 18)), "\xef\xbc\x81\xf0\x9f\x98\x80");
    CHECK_STREQ(json_string_value(json_array_get(e.inputs, 2 + 8)), "42\n");
    CHECK_STREQ(json_string_value(json_array_get(e.inputs, 2 + 6)), "5000");
    cc_edges_free(&e);
    json_decref(given);
    json_decref(seven);
}

/* Regression (red team 3): a port exiting 3 where the source exits 2,
 * both printing the same, was inconclusive and the call passed on the
 * other inputs. Only two uncaught errors, each its language's own code,
 * stay not comparable. */
static void different_exit_codes_are_a_mismatch(void) {
    struct cc_side a = {.ran = true, .out = "n", .exited = true, .exit_code = 2, .crash_code = 1};
    struct cc_side b = {.ran = true, .out = "n", .exited = true, .exit_code = 3, .crash_code = 1};
    struct cc_pair_verdict v = cc_verify_classify(&a, &b);
    CHECK_INTEQ(v.outcome, CC_MISMATCH);
    CHECK_INTEQ(v.rule, 39);
    b.exit_code = 1; /* a deliberate exit 2 against an uncaught error */
    CHECK_INTEQ(cc_verify_classify(&a, &b).rule, 39);
    a.exit_code = 1, b.exit_code = 101, b.crash_code = 101; /* python raise against a rust panic */
    CHECK_INTEQ(cc_verify_classify(&a, &b).rule, 7);
    CHECK_INTEQ(cc_lang_crash_code("python3"), 1);
    CHECK_INTEQ(cc_lang_crash_code("go"), 2);
    CHECK_INTEQ(cc_lang_crash_code("rust"), 101);
    CHECK_INTEQ(cc_exit_class(2, "go"), -2);
    CHECK_INTEQ(cc_exit_class(2, "python3"), 2);
    /* compare_edge_cases: exit 3 against exit 4 is a content divergence */
    const bool ok2[] = {false, false};
    const char *same[] = {"n", "n"};
    const int ex[] = {3, 4}, crash[] = {-2, -2};
    CHECK_INTEQ(cc_edge_divergence(2, ok2, same, ex), CC_DIV_CONTENT);
    CHECK_INTEQ(cc_edge_divergence(2, ok2, same, crash), CC_DIV_NONE);
}

/* Regression (red team 3): an edge input the tool added (n = 2^63) that
 * one side could not finish in the edge time limit was a mismatch
 * (rule 6); it says nothing about the port. */
static void edge_input_timeout_is_inconclusive(void) {
    struct cc_side a = {.ran = true, .ok = true, .out = "1", .edge = true};
    struct cc_side b = {.ran = true, .out = "", .timed_out = true, .edge = true};
    struct cc_pair_verdict v = cc_verify_classify(&a, &b);
    CHECK_INTEQ(v.outcome, CC_INCONCLUSIVE);
    CHECK_INTEQ(v.rule, 40);
    a.edge = b.edge = false; /* a caller's input: the spec's rule 6 */
    CHECK_INTEQ(cc_verify_classify(&a, &b).rule, 6);
}

/* Regression: two outputs cut at the output cap compared equal on their
 * first 64 KiB only, and the pair was a match. */
static void equal_truncated_outputs_are_not_a_match(void) {
    struct cc_side a = ok_side("x...[truncated]"), b = ok_side("x...[truncated]");
    a.truncated = b.truncated = true;
    struct cc_pair_verdict v = cc_verify_classify(&a, &b);
    CHECK_INTEQ(v.outcome, CC_INCONCLUSIVE);
    b = ok_side("y");
    v = cc_verify_classify(&a, &b);
    CHECK_INTEQ(v.outcome, CC_MISMATCH);
}

/* Regression: `ok\xff` and `ok\xfe` both reach the supervisor as `ok`
 * + U+FFFD, and verify_translation called the pair a match (passed,
 * cross_checked). The run's stdout_sha256 (the raw bytes' digest, sent
 * only when they were not UTF-8) now takes part in the comparison. */
static void outputs_differing_in_non_utf8_bytes_are_not_a_match(void) {
    json_t *r1 = json_pack("{s:b, s:s, s:s}", "ok", 1, "stdout", "ok\xEF\xBF\xBD\n", "stdout_sha256", "aa");
    json_t *r2 = json_pack("{s:b, s:s, s:s}", "ok", 1, "stdout", "ok\xEF\xBF\xBD", "stdout_sha256", "bb");
    json_t *r3 = json_pack("{s:b, s:s, s:s}", "ok", 1, "stdout", "ok\xEF\xBF\xBD  ", "stdout_sha256", "aa");
    json_t *r4 = json_pack("{s:b, s:s}", "ok", 1, "stdout", "ok\xEF\xBF\xBD");
    char *shown = NULL, *n1 = cc_res_stdout_norm(r1, &shown), *n2 = cc_res_stdout_norm(r2, NULL);
    char *n3 = cc_res_stdout_norm(r3, NULL), *n4 = cc_res_stdout_norm(r4, NULL);
    CHECK_STREQ(shown, "ok\xEF\xBF\xBD"); /* shown without the digest */
    struct cc_side a = ok_side(n1), b = ok_side(n2), c = ok_side(n3), d = ok_side(n4);
    struct cc_pair_verdict v = cc_verify_classify(&a, &b);
    CHECK_INTEQ(v.outcome, CC_INCONCLUSIVE);
    CHECK_INTEQ(v.rule, 36);
    v = cc_verify_classify(&a, &c); /* the same bytes: a match */
    CHECK_INTEQ(v.outcome, CC_MATCH);
    v = cc_verify_classify(&a, &d); /* a real U+FFFD against a replaced byte */
    CHECK_INTEQ(v.outcome, CC_INCONCLUSIVE);
    b = ok_side("other");
    v = cc_verify_classify(&a, &b);
    CHECK_INTEQ(v.outcome, CC_MISMATCH);
    free(shown), free(n1), free(n2), free(n3), free(n4);
    json_decref(r1), json_decref(r2), json_decref(r3), json_decref(r4);
}

static void vanished_output_rerun(void) {
    struct cc_side a = ok_side("6"), e = ok_side(""), f = failed_side(), c = ok_side("7");
    struct cc_pair_verdict v = cc_verify_classify(&a, &e);
    CHECK_INTEQ(cc_verify_rerun_side(&v, &a, &e), 2);
    v = cc_verify_classify(&e, &a);
    CHECK_INTEQ(cc_verify_rerun_side(&v, &e, &a), 1);
    v = cc_verify_classify(&a, &c);
    CHECK_INTEQ(cc_verify_rerun_side(&v, &a, &c), 0); /* both printed */
    v = cc_verify_classify(&a, &f);
    CHECK_INTEQ(cc_verify_rerun_side(&v, &a, &f), 0); /* rule 6, not 3 */
    char *reason;
    v = cc_verify_after_rerun(2, "6", &reason);
    CHECK_INTEQ(v.outcome, CC_INCONCLUSIVE);
    CHECK_STREQ(reason, "the target produced no output on the first run and output on a second run of the "
                        "same input; the runtime is not deterministic here, so neither result is evidence "
                        "about the translation");
    free(reason);
    v = cc_verify_after_rerun(1, "", &reason);
    CHECK_INTEQ(v.outcome, CC_MISMATCH);
    CHECK_STREQ(reason, "both ran; stdout differs (the empty side was re-run and was empty again)");
    free(reason);
}

/* a_match_by_luck_was_cross_checked: one run per side matched a target
 * that answers wrongly one time in ten (and a source printing a set in
 * hash order); the second runs decide (rule 37). */
static void match_that_does_not_reproduce(void) {
    struct cc_side a = ok_side("6"), b = ok_side("6"), other = ok_side("7"), f = failed_side();
    struct cc_pair_verdict v = cc_verify_after_repeat(&a, &b, &a, &b);
    CHECK_INTEQ(v.outcome, CC_MATCH);
    CHECK_INTEQ(v.rule, 5);
    v = cc_verify_after_repeat(&a, &b, &a, &other); /* the target changed its answer */
    CHECK_INTEQ(v.outcome, CC_MISMATCH);
    CHECK_INTEQ(v.rule, 37);
    CHECK(strstr(v.reason, "the translation printed different output on a second run") == v.reason);
    v = cc_verify_after_repeat(&a, &b, &other, &b); /* the source did */
    CHECK_INTEQ(v.outcome, CC_INCONCLUSIVE);
    CHECK(strstr(v.reason, "the source printed different output on a second run") == v.reason);
    v = cc_verify_after_repeat(&a, &b, &other, &other); /* both: no oracle */
    CHECK_INTEQ(v.outcome, CC_INCONCLUSIVE);
    v = cc_verify_after_repeat(&a, &b, &a, &f); /* a second run failed */
    CHECK_INTEQ(v.outcome, CC_INCONCLUSIVE);
    CHECK(strstr(v.reason, "failed where the first succeeded") != NULL);
    v = cc_verify_after_repeat(&a, &b, &f, &b);
    CHECK_INTEQ(v.outcome, CC_INCONCLUSIVE);
    /* flaky_port_crash_on_repeat_read_as_inconclusive: the target died
     * (exit code or signal) on a repeat the source printed the same on. */
    struct cc_side crash = {.ran = true, .out = "", .exited = true, .exit_code = 2, .crash_code = 2};
    v = cc_verify_after_repeat(&a, &b, &a, &crash);
    CHECK_INTEQ(v.outcome, CC_MISMATCH);
    CHECK_INTEQ(v.rule, 37);
    crash.exited = false, crash.signalled = true;
    CHECK_INTEQ(cc_verify_after_repeat(&a, &b, &a, &crash).outcome, CC_MISMATCH);
    crash.signalled = false, crash.timed_out = true; /* the clock: no evidence */
    CHECK_INTEQ(cc_verify_after_repeat(&a, &b, &a, &crash).outcome, CC_INCONCLUSIVE);
    crash.timed_out = false, crash.exited = true; /* the source crashed too: no oracle */
    CHECK_INTEQ(cc_verify_after_repeat(&a, &b, &crash, &crash).outcome, CC_INCONCLUSIVE);
}

static void aggregate_and_grade(void) {
    bool passed;
    char *r = cc_verify_aggregate(2, 1, 7, &passed);
    CHECK(!passed);
    CHECK_STREQ(r, "1 of 7 test input(s) showed different behaviour");
    free(r);
    r = cc_verify_aggregate(0, 0, 3, &passed);
    CHECK(!passed);
    CHECK_STREQ(r, "could not verify: no test input produced a successful run of BOTH programs, so nothing "
                   "was actually compared");
    free(r);
    r = cc_verify_aggregate(0, 0, 0, &passed);
    CHECK(!passed && r != NULL);
    free(r);
    r = cc_verify_aggregate(3, 0, 7, &passed);
    CHECK(passed && r == NULL);
    char *b = cc_verify_translation_basis("python3", "node", 3, 3);
    CHECK_STREQ(b, "cross-checked: python3 source and node port independently agreed on 3/3 test input(s)");
    json_t *o = json_object();
    cc_verify_grade(o, true, b);
    CHECK_STREQ(json_string_value(json_object_get(o, "grade")), "cross_checked");
    CHECK_STREQ(json_string_value(json_object_get(o, "grade_rules_version")), "2");
    cc_verify_grade(o, false, "1 of 7 test input(s) showed different behaviour");
    CHECK_STREQ(json_string_value(json_object_get(o, "grade")), "ungraded");
    CHECK_STREQ(json_string_value(json_object_get(o, "grade_basis")),
                "not graded: 1 of 7 test input(s) showed different behaviour");
    json_decref(o);
    free(b);
}

/* c printed "neg" and cpp "negative" into stdio's pipe buffer, then both
 * aborted: both stdouts empty, read as an agreement (red team 5). Runs
 * that all died are not compared on output when each output is the start
 * of the longest (a lost tail); a different exit class, a run that did
 * not die, or outputs that part before either ends stay comparable. */
static void lost_buffer_agreement_was_an_agreement(void) {
    bool died2[] = {true, true}, one[] = {true, false};
    int sig[] = {-1, -1}, codes[] = {3, 4};
    const char *empty[] = {"", ""}, *tail[] = {"5", "5\nx"}, *parted[] = {"5\nx", "5\ny"};
    CHECK(cc_edge_all_died_alike(2, died2, empty, sig));
    CHECK(cc_edge_all_died_alike(2, died2, tail, sig));
    CHECK(!cc_edge_all_died_alike(2, died2, parted, sig));
    CHECK(!cc_edge_all_died_alike(2, died2, empty, codes));
    CHECK(!cc_edge_all_died_alike(2, one, empty, sig));
    CHECK(!cc_edge_all_died_alike(1, died2, empty, sig));
    bool died3[] = {true, true, true};
    int sig3[] = {-1, -1, -1};
    const char *three[] = {"a", "a\nb", ""}, *fork[] = {"a\nb", "a\nc", "a"};
    CHECK(cc_edge_all_died_alike(3, died3, three, sig3));
    CHECK(!cc_edge_all_died_alike(3, died3, fork, sig3));
}

/* A snippet wrong one run in ten passed 13 of 20 calls on three inputs
 * run twice: the odds say what the runs rule out. */
static void nondeterministic_snippet_agreed_by_luck(void) {
    json_t *o = cc_edge_odds(15, 3, 0, false);
    CHECK_INTEQ(json_integer_value(json_object_get(o, "runs_per_input")), 15);
    CHECK_INTEQ(json_integer_value(json_object_get(o, "inputs_repeated")), 3);
    CHECK(!json_object_get(o, "inputs_all_died"));
    CHECK_INTEQ(json_integer_value(json_object_get(o, "runs_per_snippet")), 45);
    CHECK(json_real_value(json_object_get(o, "no_divergence_chance_if_wrong_1_in_10")) == 0.009);
    CHECK(json_real_value(json_object_get(o, "no_divergence_chance_if_wrong_1_in_100")) == 0.636);
    json_decref(o);
    o = cc_edge_odds(2, 3, 0, false);
    CHECK(json_real_value(json_object_get(o, "no_divergence_chance_if_wrong_1_in_10")) == 0.531);
    json_decref(o);
    o = cc_verify_odds(3, 15, false, false); /* verify_translation's matches, repeated the same way */
    CHECK_INTEQ(json_integer_value(json_object_get(o, "matched_runs_per_program")), 45);
    CHECK(json_is_false(json_object_get(o, "edges_repeated")));
    CHECK_INTEQ(json_integer_value(json_object_get(o, "runs_per_input")), 15);
    CHECK(json_real_value(json_object_get(o, "pass_chance_if_wrong_1_in_10")) == 0.009);
    json_decref(o);
}

/* Runs per agreeing input: 44 over the inputs, 2..15, fewer when slow.
 * A fixed 0.5 s bound per first run let node's runs on a loaded host fall
 * back to two runs (4 calls of 20 passed a snippet wrong 1 in 10). */
static void repeats_fell_back_to_two_under_load(void) {
    CHECK_INTEQ(cc_repeat_runs(3, 2, 1000, 8, 800000), 15);  /* 1 s runs: 84 s of runs over 8 slots */
    CHECK_INTEQ(cc_repeat_runs(7, 3, 50, 8, 800000), 7);     /* ceil(44 / 7) */
    CHECK_INTEQ(cc_repeat_runs(34, 2, 50, 8, 800000), 2);
    CHECK_INTEQ(cc_repeat_runs(0, 2, 50, 8, 800000), 2);
    CHECK_INTEQ(cc_repeat_runs(3, 2, 10000, 8, 800000), 5);  /* (5 - 1) * 6 * 10 s = 240 s = 30 s x 8 */
    CHECK_INTEQ(cc_repeat_runs(3, 2, 1000, 8, 50000), 14);   /* 10 s left to spend: 13 * 6 * 1 s <= 80 s */
    CHECK_INTEQ(cc_repeat_runs(3, 2, 1000, 8, 30000), 2);    /* no time left */
    CHECK_INTEQ(cc_repeat_runs(1, 2, 0, 4, 120000), 15);
}

/* An input whose runs all died was counted as an agreement in odds: it
 * is counted apart, and nothing of it enters the chances (red team 6). */
static void odds_counted_all_died_as_agreeing(void) {
    json_t *o = cc_edge_odds(15, 2, 1, false);
    CHECK_INTEQ(json_integer_value(json_object_get(o, "inputs_repeated")), 2);
    CHECK_INTEQ(json_integer_value(json_object_get(o, "runs_per_snippet")), 30);
    CHECK_INTEQ(json_integer_value(json_object_get(json_object_get(o, "inputs_all_died"), "count")), 1);
    json_decref(o);
    o = cc_edge_odds(1, 0, 2, false); /* every input died: no agreement at all */
    CHECK_INTEQ(json_integer_value(json_object_get(o, "runs_per_snippet")), 0);
    CHECK(json_real_value(json_object_get(o, "no_divergence_chance_if_wrong_1_in_10")) == 1.0);
    json_decref(o);
    o = cc_edge_odds(2, 3, 0, true); /* a divergence already: one repeat each, and the note says so */
    CHECK(strstr(json_string_value(json_object_get(o, "note")), "already diverged") != NULL);
    json_decref(o);
}

/* verify_translation's added edges ran once: they are repeated when one
 * repeat of every match fits the repeats' budget (red team 6). */
static void edges_ran_once_in_verify_translation(void) {
    CHECK(cc_repeat_affordable(34, 2, 50, 8, 800000));      /* 34 x 2 x 50 ms <= 30 s x 8 */
    CHECK(!cc_repeat_affordable(34, 2, 5000, 4, 800000));   /* 340 s > 120 s */
    CHECK(!cc_repeat_affordable(3, 2, 10, 8, 30000));       /* no time left */
    json_t *o = cc_verify_odds(34, 2, true, false);
    CHECK_INTEQ(json_integer_value(json_object_get(o, "matched_runs_per_program")), 68);
    CHECK(json_is_true(json_object_get(o, "edges_repeated")));
    json_decref(o);
}

static void edge_divergence_kinds(void) {
    bool ok2[] = {true, true}, mixed[] = {true, false};
    const char *order[] = {"x\ny", "y\nx"}, *content[] = {"x\ny", "x\nz"}, *same[] = {"x\ny", "x\ny"};
    CHECK_INTEQ(cc_edge_divergence(2, ok2, order, NULL), CC_DIV_ORDER);
    CHECK_INTEQ(cc_edge_divergence(2, ok2, content, NULL), CC_DIV_CONTENT);
    CHECK_INTEQ(cc_edge_divergence(2, ok2, same, NULL), CC_DIV_NONE);
    /* Same output, one failed: a different behaviour, not an order. */
    CHECK_INTEQ(cc_edge_divergence(2, mixed, same, NULL), CC_DIV_CONTENT);
    /* Repeated lines count: a multiset, not a set. */
    const char *dup[] = {"a\na\nb", "a\nb\nb"};
    CHECK_INTEQ(cc_edge_divergence(2, ok2, dup, NULL), CC_DIV_CONTENT);
    bool ok3[] = {true, true, true};
    const char *three[] = {"1\n2", "1\n2", "2\n1"};
    CHECK_INTEQ(cc_edge_divergence(3, ok3, three, NULL), CC_DIV_ORDER);
}

static void speed_autoscale(void) {
    double fast[] = {0, 2, 3, 4}, slow[] = {2, 3, 25}, zero[] = {0, 0}, mid[] = {6, 7};
    CHECK(cc_speed_should_scale(fast, 4));
    CHECK(!cc_speed_should_scale(slow, 3));
    CHECK(!cc_speed_should_scale(zero, 2)); /* M empty */
    CHECK(!cc_speed_should_scale(mid, 2));  /* min(M) >= 5 */
}

static void round2_is_pythons(void) {
    CHECK(cc_round2(2.675) == 2.67); /* the binary value is below the tie */
    CHECK(cc_round2(1.005) == 1.0);
    CHECK(cc_round2(0.125) == 0.12); /* an exact tie rounds to even */
    CHECK(cc_round2(4.1875) == 4.19);
}

static json_t *speedup_of(double before, double after) {
    int64_t n[] = {100};
    return cc_speedup(n, &before, 1, &after, 1);
}

static void speedup_object(void) {
    int64_t n[] = {10, 20, 30};
    double before[] = {20, 40, 0.5}, after[] = {10, 10, 1};
    json_t *s = cc_speedup(n, before, 3, after, 3);
    CHECK(json_is_true(json_object_get(s, "measurable")));
    /* The third size is below the 1 ms floor: median of 2.0 and 4.0. */
    CHECK(json_real_value(json_object_get(s, "ratio")) == 3.0);
    CHECK_INTEQ(json_array_size(json_object_get(s, "per_size")), 2);
    CHECK(json_object_get(s, "slower_at") == NULL);
    json_decref(s);
    s = cc_speedup(n, before, 3, after, 2);
    CHECK_STREQ(json_string_value(json_object_get(s, "reason")), "no comparable timings");
    CHECK(json_is_null(json_object_get(s, "ratio")));
    json_decref(s);
    s = speedup_of(0.9, 1);
    CHECK(json_is_false(json_object_get(s, "measurable")));
    CHECK_STREQ(json_string_value(json_object_get(s, "reason")),
                "no size where both runs were measurable (baseline below the 1ms noise floor, or the "
                "optimized run measured 0ms)");
    json_decref(s);
}

/* A candidate slower at the largest size was accepted on the median with
 * no word: the sizes where it lost are listed (slower_at). */
static void slower_sizes_hidden_by_the_median(void) {
    int64_t n[] = {1000, 2000, 4000};
    double before[] = {40, 80, 160}, after[] = {10, 20, 200};
    json_t *s = cc_speedup(n, before, 3, after, 3);
    CHECK(json_real_value(json_object_get(s, "ratio")) == 4.0);
    json_t *slower = json_object_get(s, "slower_at");
    CHECK_INTEQ(json_array_size(slower), 1);
    CHECK_INTEQ(json_integer_value(json_array_get(slower, 0)), 4000);
    bool acc;
    char *r = cc_speed_decision(s, 1.15, "1.15", &acc);
    CHECK(acc); /* the spec's decision stands; verify_optimization adds its caution */
    free(r);
    json_decref(s);
}


/* Python's ~40 ms start-up dominated raw durations: a candidate doing a
 * tenth of the work read as 1.1x and was refused, and auto-scaling never
 * ran. On net durations the work is compared. */
static void startup_dominated_speedup_was_refused(void) {
    struct cc_startup st = {true, 40, 41, 40, 2};
    int64_t n[] = {1000, 2000, 4000};
    double before[] = {40 + 100, 40 + 200, 40 + 400}, after[] = {40 + 10, 40 + 20, 40 + 40};
    json_t *raw = cc_speedup(n, before, 3, after, 3);
    CHECK(json_real_value(json_object_get(raw, "ratio")) == 4.0); /* the start-up hides a 10x */
    json_decref(raw);
    json_t *s = cc_speedup_net(n, before, after, 3, &st);
    CHECK(json_is_true(json_object_get(s, "measurable")));
    CHECK(json_real_value(json_object_get(s, "ratio")) == 10.0);
    json_t *p0 = json_array_get(json_object_get(s, "per_size"), 0);
    CHECK_INTEQ(json_integer_value(json_object_get(p0, "before_ms")), 140);
    CHECK_INTEQ(json_integer_value(json_object_get(p0, "before_net_ms")), 100);
    CHECK_INTEQ(json_integer_value(json_object_get(p0, "after_net_ms")), 10);
    CHECK_INTEQ(json_integer_value(json_object_get(json_object_get(s, "startup"), "floor_ms")), 40);
    CHECK(strstr(json_string_value(json_object_get(s, "method")), "net of start-up") != NULL);
    json_decref(s);
}

/* The same program measured twice differs by the clock's jitter: a size
 * counts only when the original's net time is ten jitters, and the
 * candidate's net time is read as at least one, so noise cannot make 1.15x. */
static void net_noise_cannot_accept_the_same_program(void) {
    struct cc_startup st = {true, 40, 40, 40, 3};
    int64_t n[] = {10, 20};
    double before[] = {40 + 4, 40 + 6}, after[] = {40 + 1, 40 + 2};
    json_t *s = cc_speedup_net(n, before, after, 2, &st); /* below 30 ms net: not counted */
    CHECK(json_is_false(json_object_get(s, "measurable")));
    CHECK(strstr(json_string_value(json_object_get(s, "reason")), "30 ms") != NULL);
    json_decref(s);
    double b2[] = {40 + 40}, a2[] = {40 + 0};
    s = cc_speedup_net(n, b2, a2, 1, &st); /* a 0 ms candidate reads as 3 ms */
    CHECK(json_real_value(json_object_get(s, "ratio")) == cc_round2(40.0 / 3));
    json_decref(s);
    CHECK(cc_speed_should_scale_net(before, 2, &st));   /* 6 ms net < 2 x 30 */
    double near[] = {40 + 35}, big[] = {40 + 65};
    CHECK(cc_speed_should_scale_net(near, 1, &st));     /* counts, but a second phase may dip below 30 */
    CHECK(!cc_speed_should_scale_net(big, 1, &st));
    struct cc_startup quiet = {true, 1, 1, 1, 1};
    double c15[] = {1 + 15};
    CHECK(cc_speed_should_scale_net(c15, 1, &quiet));   /* below 20 ms */
}

/* A fresh-clone CI's start-up runs of 18, 20 and 124 ms read as 106 ms of
 * jitter (max - min): no size reached the 1,060 ms of work that asked for,
 * and "half the work" was not measurable. Timing keeps each size's fastest
 * run, so the jitter is the median's distance from the fastest. */
static void one_slow_startup_run_set_the_jitter(void) {
    double ci[] = {18, 124, 20, 19, 21};
    CHECK(cc_speed_jitter(ci, 5) == 2);           /* median 20 - 18 */
    double spiky[] = {124, 18, 130, 20, 19};
    CHECK(cc_speed_jitter(spiky, 5) == 2);        /* two spikes: median 20 */
    double loaded[] = {40, 90, 120, 70, 150};
    CHECK(cc_speed_jitter(loaded, 5) == 50);      /* a host slow most of the time still shows */
    double three[] = {30, 31, 200};
    CHECK(cc_speed_jitter(three, 3) == 1);
    double same[] = {25, 25, 25};
    CHECK(cc_speed_jitter(same, 3) == 1);         /* at least 1 ms: the clock's grain */
    CHECK(cc_speed_jitter(same, 0) == 1);
}

/* Under load a x10 round of a linear loop (n = 4*10^7) left the candidate
 * 17 s of the call and timed out: the call failed on sizes the caller
 * never asked for. The round's cost is estimated before it starts: start-up
 * as is, the work grown by the growth the round showed (1 to 3). */
static bool about(double got, double want) {
    return fabs(got - want) <= 1e-9 * want;
}

static void scaled_round_ran_past_the_deadline(void) {
    int64_t sz[] = {1000, 2000};
    double linear[] = {140, 240}, square[] = {140, 440}, jitter[] = {45, 44}, below[] = {30};
    CHECK(about(cc_speed_next_round_ms(sz, linear, 2, 40, 9), 9 * ((40 + 1000) + (40 + 2000))));
    CHECK(about(cc_speed_next_round_ms(sz, square, 2, 40, 9), 9 * ((40 + 10000) + (40 + 40000))));
    /* n^6 growth is held at 10^3 */
    double steep[] = {41, 40 + 64};
    CHECK(about(cc_speed_next_round_ms(sz, steep, 2, 40, 1), (40 + 1000) + (40 + 64000)));
    /* a larger size measured faster reads as linear growth, not none */
    CHECK(about(cc_speed_next_round_ms(sz, jitter, 2, 40, 1), (40 + 50) + (40 + 40)));
    /* below the start-up floor nothing grows; one size is linear */
    CHECK(about(cc_speed_next_round_ms(sz, below, 1, 40, 3), 3 * 30));
    CHECK(about(cc_speed_next_round_ms(sz, linear, 1, 0, 1), 1400));
}

/* A fresh-clone CI scaled a python loop from n = 2*10^7 (about 2 s a
 * run) to 2*10^8: the round fit the call's deadline, but its first run
 * passed the 30 s a timed run may take and the call failed with
 * "baseline measurement failed" for a size nobody asked for. The longest
 * single run of the next round is estimated too. */
static void scaled_run_passed_the_run_timeout(void) {
    int64_t sz[] = {2000000, 20000000};
    double linear[] = {240, 2040}, square[] = {60, 2040}, one[] = {140};
    CHECK(about(cc_speed_next_run_ms(sz, linear, 2, 40), 40 + 20000));
    CHECK(about(cc_speed_next_run_ms(sz, square, 2, 40), 40 + 200000));
    CHECK(about(cc_speed_next_run_ms(sz, one, 1, 40), 40 + 1000));
    /* the smaller size's run is never the longest one of a growing round */
    CHECK(cc_speed_next_run_ms(sz, linear, 2, 40) > 10 * 2040 - 400);
}

/* The four decisions of the 3.4.5 examples, and not measurable first. */
static void speed_decisions(void) {
    bool acc;
    json_t *s = speedup_of(10, 20); /* ratio 0.5 */
    char *r = cc_speed_decision(s, 0, "0", &acc);
    CHECK(!acc);
    CHECK_STREQ(r, "min_speedup=0 does not demand a speedup (it must be > 1) — refusing to certify a "
                   "non-improvement");
    free(r);
    json_decref(s);
    s = speedup_of(10, 10);
    r = cc_speed_decision(s, 1.15, "1.15", &acc);
    CHECK(!acc);
    CHECK_STREQ(r, "measured ratio 1.0x is not a speedup (> 1x); equivalent but not faster");
    free(r);
    json_decref(s);
    s = speedup_of(20, 10);
    r = cc_speed_decision(s, 1.15, "1.15", &acc);
    CHECK(acc);
    CHECK_STREQ(r, "verified faster");
    free(r);
    json_decref(s);
    s = speedup_of(103, 100);
    r = cc_speed_decision(s, 1.15, "1.15", &acc);
    CHECK(!acc);
    CHECK_STREQ(r, "measured 1.03x is below the required 1.15x");
    free(r);
    json_decref(s);
    s = speedup_of(0.5, 10);
    r = cc_speed_decision(s, 0, "0", &acc);
    CHECK_STREQ(r, "equivalent but not measurably faster");
    free(r);
    json_decref(s);
    char buf[40];
    json_t *v = json_integer(0);
    CHECK_STREQ(cc_number_text(v, buf), "0");
    json_decref(v);
    v = json_real(1.0);
    CHECK_STREQ(cc_number_text(v, buf), "1.0");
    json_decref(v);
}

static json_t *code(int c) { return json_integer(c); }

static void compare_fastest_and_discrepancies(void) {
    json_t *z = code(0);
    struct cc_cmp_row rows[] = {
        {.language = "python3", .ok = true, .has_duration = true, .duration_ms = 30, .printed = true, .exit_code = z},
        {.language = "node", .ok = true, .has_duration = true, .duration_ms = 0, .printed = false, .exit_code = z},
        {.language = "c", .ok = true, .has_duration = true, .duration_ms = 0, .printed = true, .exit_code = z},
    };
    /* A 0 ms run is a valid minimum; the first of equals wins. */
    CHECK_INTEQ(cc_cmp_fastest(rows, 3), 1);
    json_t *d = cc_cmp_discrepancies(rows, 3, 15);
    CHECK_INTEQ(json_array_size(d), 1);
    json_t *row = json_array_get(d, 0);
    CHECK_STREQ(json_string_value(json_object_get(row, "language")), "node");
    CHECK_STREQ(json_string_value(json_object_get(row, "issue")), "no stdout while another language produced some");
    CHECK(json_is_true(json_object_get(row, "ok")));
    CHECK(strstr(json_string_value(json_object_get(row, "detail")), "lost") != NULL);
    json_decref(d);
    /* One snippet alone has no sibling to disagree with. */
    d = cc_cmp_discrepancies(&rows[1], 1, 15);
    CHECK_INTEQ(json_array_size(d), 0);
    json_decref(d);
    struct cc_cmp_row none[] = {{.language = "x", .ok = false, .exit_code = z}};
    CHECK_INTEQ(cc_cmp_fastest(none, 1), -1);
    json_decref(z);
}

static void compare_timeout_notes(void) {
    json_t *z = code(0), *null = json_null();
    struct cc_cmp_row rows[] = {
        {.language = "python3", .timed_out = true, .exit_code = null},
        {.language = "node", .ok = true, .has_duration = true, .duration_ms = 40, .printed = true, .exit_code = z},
        {.language = "c", .ok = true, .has_duration = true, .duration_ms = 30, .printed = true, .exit_code = z},
    };
    json_t *d = cc_cmp_discrepancies(rows, 3, 15);
    CHECK_INTEQ(json_array_size(d), 1); /* the silent timed-out row is flagged once */
    json_t *row = json_array_get(d, 0);
    CHECK_STREQ(json_string_value(json_object_get(row, "issue")), "timed out and stayed timed out after one warm retry");
    json_t *sib = json_object_get(row, "sibling_durations_ms");
    CHECK_INTEQ(json_object_size(sib), 2);
    CHECK_INTEQ(json_integer_value(json_object_get(sib, "node")), 40);
    CHECK(strstr(json_string_value(json_object_get(row, "variance_note")), "specific") != NULL);
    json_decref(d);
    rows[2].duration_ms = 2; /* 40 / 2 >= 10: the runner is suspect */
    d = cc_cmp_discrepancies(rows, 3, 15);
    CHECK(strstr(json_string_value(json_object_get(json_array_get(d, 0), "variance_note")), "runner") != NULL);
    json_decref(d);
    rows[2].duration_ms = 30;
    rows[1].duration_ms = 4000; /* >= 25% of the 15 s timeout */
    d = cc_cmp_discrepancies(rows, 3, 15);
    CHECK(strstr(json_string_value(json_object_get(json_array_get(d, 0), "variance_note")), "runner") != NULL);
    json_decref(d);
    rows[1].ok = rows[2].ok = false;
    d = cc_cmp_discrepancies(rows, 3, 15);
    CHECK(strstr(json_string_value(json_object_get(json_array_get(d, 0), "variance_note")), "nothing to compare") != NULL);
    json_decref(d);
    json_decref(z);
}

static void share_of_the_exec_pool(void) {
    CHECK_INTEQ(cc_fanout_share(32), 8);  /* the default cap */
    CHECK_INTEQ(cc_fanout_share(64), 16);
    CHECK_INTEQ(cc_fanout_share(8), 4);   /* at least 4 ... */
    CHECK_INTEQ(cc_fanout_share(5), 4);
    CHECK_INTEQ(cc_fanout_share(4), 3);   /* ... but never every worker */
    CHECK_INTEQ(cc_fanout_share(2), 1);
    CHECK_INTEQ(cc_fanout_share(1), 1);
}

/* Regression (red team 3): the same program as original and candidate
 * was "verified faster" at 1.2x (per-size ratios 1.17 and 1.22 of the
 * fastest runs under a changing load) while every size's runs overlapped.
 * A speedup now needs the candidate's median run under the original's
 * fastest at more than half the sizes counted (its slowest run when one
 * size counts). */
static void overlapping_timings_are_not_a_speedup(void) {
    const int64_t sizes[] = {1000, 2000, 4000};
    const double orig_min[] = {356, 996, 2000}, same_mid[] = {380, 1000, 2050}, same_max[] = {400, 1100, 2100};
    json_t *sp = json_pack("{s:f, s:b, s:[{s:I}, {s:I}]}", "ratio", 1.2, "measurable", 1, "per_size", "n",
                           (json_int_t)2000, "n", (json_int_t)4000);
    struct cc_speed_runs runs = {orig_min, orig_min, same_mid, same_max};
    double spread;
    int counted, sep = cc_speed_separation(sp, sizes, &runs, 3, &counted, &spread);
    CHECK_INTEQ(counted, 2);
    CHECK_INTEQ(sep, 0);
    CHECK(spread == 1); /* an original whose median is its fastest */
    CHECK(json_is_false(json_object_get(json_array_get(json_object_get(sp, "per_size"), 0), "separated")));
    char *why = cc_speed_overlap_refusal(sp, sep, counted);
    CHECK_STREQ(why, "measured 1.2x, but the timings overlap: at 2 of 2 size(s) the candidate's median run was "
                     "not faster than the original's fastest, so the speedup cannot be told from noise on this "
                     "host; equivalent but not measurably faster");
    free(why);
    /* 2000 separated (a load spike on one candidate run does not undo
     * it: the median is read), 4000 not: half is not more than half */
    const double half_mid[] = {150, 500, 2050}, half_max[] = {150, 1500, 2100};
    runs.cand_mid = half_mid, runs.cand_max = half_max;
    sep = cc_speed_separation(sp, sizes, &runs, 3, &counted, &spread);
    CHECK_INTEQ(sep, 1);
    why = cc_speed_overlap_refusal(sp, sep, counted);
    CHECK(why != NULL);
    free(why);
    const double fast_mid[] = {150, 500, 900}, fast_max[] = {150, 1500, 2100};
    runs.cand_mid = fast_mid, runs.cand_max = fast_max;
    sep = cc_speed_separation(sp, sizes, &runs, 3, &counted, &spread);
    CHECK_INTEQ(sep, 2);
    CHECK(cc_speed_overlap_refusal(sp, sep, counted) == NULL);
    CHECK_INTEQ(json_integer_value(json_object_get(json_array_get(json_object_get(sp, "per_size"), 1),
                                                   "candidate_median_ms")), 900);
    json_decref(sp);
    /* One size counted: all three candidate runs must beat the original. */
    json_t *one = json_pack("{s:f, s:b, s:[{s:I}]}", "ratio", 1.17, "measurable", 1, "per_size", "n", (json_int_t)2000);
    sep = cc_speed_separation(one, sizes, &runs, 3, &counted, &spread);
    CHECK_INTEQ(counted, 1);
    CHECK_INTEQ(sep, 0);
    why = cc_speed_overlap_refusal(one, sep, counted);
    CHECK(why && strstr(why, "the candidate's slowest run") != NULL);
    free(why);
    json_decref(one);
}

/* Regression (fresh-clone CI of stop 36): the same loop as original and
 * candidate at min_speedup 1.01 was "verified faster": under load a
 * candidate's median run lands under the original's fastest of six by luck
 * (1/12 a size at equal speed). A speedup must now also exceed the
 * original's own spread, its median run over its fastest, net of start-up,
 * the median across sizes. A real speedup far above the noise stands: the
 * closed form's 18.73x with the original's runs spread 2x at the smaller
 * size, as a later fresh-clone CI measured it (the first form of this fix,
 * a bar in milliseconds, refused that). */
static void same_program_beat_the_fastest_by_luck(void) {
    const int64_t sizes[] = {800000, 1600000};
    /* the original's six runs at each size, in the order they ran */
    const double o1[] = {400, 470, 520, 420, 600, 450}, o2[] = {800, 950, 830, 1200, 900, 1000};
    const double orig_min[] = {400, 800};
    const double orig_mid[] = {cc_speed_median_of(o1, 6), cc_speed_median_of(o2, 6)};
    CHECK(orig_mid[0] == 460 && orig_mid[1] == 925);
    CHECK(o1[1] == 470 && o2[3] == 1200); /* the runs are read, not reordered */
    CHECK(cc_speed_median_of(o1, 0) == -1);
    /* the same program, net of 50 ms of start-up: medians under the
     * original's fastest, a ratio of 1.1 */
    const double same_mid[] = {390, 790}, same_max[] = {430, 1000};
    json_t *sp = json_pack("{s:f, s:b, s:[{s:I, s:I}, {s:I, s:I}]}", "ratio", 1.1, "measurable", 1, "per_size",
                           "n", (json_int_t)800000, "before_net_ms", (json_int_t)350, "n", (json_int_t)1600000,
                           "before_net_ms", (json_int_t)750);
    struct cc_speed_runs runs = {orig_min, orig_mid, same_mid, same_max};
    double spread;
    int counted, sep = cc_speed_separation(sp, sizes, &runs, 2, &counted, &spread);
    CHECK_INTEQ(sep, 2); /* separation alone let it through */
    CHECK(cc_speed_overlap_refusal(sp, sep, counted) == NULL);
    /* spreads (460 - 50)/350 = 1.171 and (925 - 50)/750 = 1.167 */
    CHECK(spread > 1.168 && spread < 1.17);
    json_t *row = json_array_get(json_object_get(sp, "per_size"), 0);
    CHECK(json_real_value(json_object_get(row, "original_spread")) == 1.17);
    CHECK_INTEQ(json_integer_value(json_object_get(row, "original_median_ms")), 460);
    char *why = cc_speed_noise_refusal(sp, spread);
    CHECK_STREQ(why, "measured 1.1x, but the original's own runs vary by 1.17x (its median run over its fastest, "
                     "net of start-up; original_spread in per_size, the median across sizes): the speedup cannot "
                     "be told from noise on this host; equivalent but not measurably faster");
    free(why);
    json_decref(sp);
    /* the CI's closed form: 18.73x, the loop's runs spread 115 against
     * 81 at n = 800000 (net 32, start-up 49) */
    const int64_t ci_sizes[] = {800000, 1600000};
    const double ci_min[] = {81, 121}, ci_mid[] = {115, 148}, ci_cmid[] = {71, 67}, ci_cmax[] = {93, 67};
    json_t *ci = json_pack("{s:f, s:b, s:[{s:I, s:I}, {s:I, s:I}]}", "ratio", 18.73, "measurable", 1, "per_size",
                           "n", (json_int_t)800000, "before_net_ms", (json_int_t)32, "n", (json_int_t)1600000,
                           "before_net_ms", (json_int_t)72);
    struct cc_speed_runs ci_runs = {ci_min, ci_mid, ci_cmid, ci_cmax};
    sep = cc_speed_separation(ci, ci_sizes, &ci_runs, 2, &counted, &spread);
    CHECK_INTEQ(sep, 2);
    CHECK(spread > 1.7 && spread < 1.75); /* 66/32 = 2.06 and 99/72 = 1.375 */
    CHECK(cc_speed_noise_refusal(ci, spread) == NULL);
    json_decref(ci);
    /* raw rows (start-up not measured): the spread of the raw times */
    json_t *raw = json_pack("{s:f, s:b, s:[{s:I}]}", "ratio", 1.15, "measurable", 1, "per_size", "n",
                            (json_int_t)800000);
    sep = cc_speed_separation(raw, sizes, &runs, 2, &counted, &spread);
    CHECK(spread == 1.15); /* 460 / 400 */
    why = cc_speed_noise_refusal(raw, spread);
    CHECK(why != NULL); /* 1.15 is not above 1.15 */
    free(why);
    json_decref(raw);
}

/* Regression (lane execred): a python exception (exit 1) against an
 * erlang one (escript's 127), a gawk fatal error (2), a gfortran runtime
 * error (2) or a jq error (5) read as two programs failing differently:
 * rule 39's mismatch, where two uncaught errors are rule 7's
 * inconclusive. compare_edge_cases read them as a content divergence. */
static void uncaught_error_codes_of_erlang_awk_fortran_jq(void) {
    static const struct {
        const char *lang;
        int code;
    } t[] = {{"erlang", 127}, {"awk", 2}, {"fortran", 2}, {"jq", 5}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        CHECK_INTEQ(cc_lang_crash_code(t[i].lang), t[i].code);
        CHECK_INTEQ(cc_exit_class(t[i].code, t[i].lang), -2);
        struct cc_side a = {.ran = true, .out = "", .exited = true, .exit_code = 1, .crash_code = 1};
        struct cc_side b = {.ran = true, .out = "", .exited = true, .exit_code = t[i].code,
                            .crash_code = cc_lang_crash_code(t[i].lang)};
        struct cc_pair_verdict v = cc_verify_classify(&a, &b);
        CHECK_INTEQ(v.outcome, CC_INCONCLUSIVE);
        CHECK_INTEQ(v.rule, 7);
        b.exit_code = 3; /* a deliberate exit 3 is still not an uncaught error */
        CHECK_INTEQ(cc_verify_classify(&a, &b).rule, 39);
    }
    CHECK_INTEQ(cc_exit_class(1, "erlang"), 1);
    CHECK_INTEQ(cc_lang_crash_code("elixir"), 1);
}

/* perl's die exits with errno when set (2 after a failed open): its
 * uncaught error read as a deliberate exit 2 (rule 39). Its stderr's
 * location line tells it. A flushed shorter output is no lost tail. */
static void perl_die_errno_read_as_a_deliberate_exit(void) { /* and rust_main_err_read_as_a_deliberate_exit */
    CHECK(cc_perl_die_trace("cannot open cfg: No such file or directory at /tmp/x/main.pl line 2.\n"));
    CHECK(cc_perl_die_trace("bad at /tmp/x/main.pl line 1, <STDIN> line 1.\n"));
    CHECK(cc_perl_die_trace("warn\nDied at main.pl line 12, <$fh> chunk 3.\n"));
    CHECK(!cc_perl_die_trace("cannot open cfg\n"));
    CHECK(!cc_perl_die_trace("usage: prog n\n"));
    CHECK(!cc_perl_die_trace("see line 4.\n"));
    CHECK(!cc_perl_die_trace(""));
    CHECK(cc_uncaught_exit("perl", 2, "x at main.pl line 1.\n"));
    CHECK(!cc_uncaught_exit("perl", 2, "usage\n"));
    CHECK(!cc_uncaught_exit("python3", 2, "x at main.pl line 1.\n"));
    CHECK(cc_uncaught_exit("perl", 255, ""));
    CHECK(cc_uncaught_exit("rust", 1, "Error: ParseIntError { kind: InvalidDigit }\n"));
    CHECK(cc_uncaught_exit("rust", 1, "warning\nError: Custom { kind: Other }\n"));
    CHECK(!cc_uncaught_exit("rust", 1, "usage: prog n\n"));
    CHECK(!cc_uncaught_exit("rust", 3, "Error: x\n"));
    struct cc_side a = {.ran = true, .out = "", .exited = true, .exit_code = 1, .crash_code = 1, .complete = true};
    struct cc_side b = {.ran = true, .out = "zero", .exited = true, .exit_code = 2, .crash_code = 2};
    CHECK_INTEQ(cc_verify_classify(&a, &b).rule, 41);
    a.complete = false; /* a runtime that may have lost a tail */
    CHECK_INTEQ(cc_verify_classify(&a, &b).rule, 7);
    const bool died[] = {true, true}, complete[] = {true, false};
    const char *const out[] = {"", "zero"};
    const int ex[] = {-2, -2};
    CHECK(!cc_edge_all_died_alike_complete(2, died, out, ex, complete));
    CHECK(cc_edge_all_died_alike_complete(2, died, out, ex, NULL));
}

/* deliberate_exit_against_a_signal_read_as_inconclusive: python's
 * sys.exit(3) against a C++ port's uncaught exception (SIGABRT) was
 * rule 7; a python crash (its exit 1) against it stays rule 7. */
static void deliberate_exit_against_a_signal_read_as_inconclusive(void) {
    struct cc_side a = {.ran = true, .out = "", .exited = true, .exit_code = 3, .crash_code = 1};
    struct cc_side b = {.ran = true, .out = "", .signalled = true, .crash_code = 1};
    struct cc_pair_verdict v = cc_verify_classify(&a, &b);
    CHECK_INTEQ(v.outcome, CC_MISMATCH);
    CHECK_INTEQ(v.rule, 39);
    CHECK_INTEQ(cc_verify_classify(&b, &a).rule, 39);
    a.exit_code = 1; /* python's uncaught error */
    CHECK_INTEQ(cc_verify_classify(&a, &b).rule, 7);
}

int main(void) {
    RUN(normalise_strips_line_ends_and_the_whole);
    RUN(nul_byte_in_output_does_not_end_the_comparison);
    RUN(prefix_counts_code_points);
    RUN(classify_rules_in_order);
    RUN(same_exit_code_different_output_is_a_mismatch);
    RUN(different_exit_codes_are_a_mismatch);
    RUN(uncaught_error_codes_of_erlang_awk_fortran_jq);
    RUN(perl_die_errno_read_as_a_deliberate_exit);
    RUN(deliberate_exit_against_a_signal_read_as_inconclusive);
    RUN(uncaught_errors_of_two_languages_after_different_output_passed);
    RUN(optimization_defaults_were_all_even);
    RUN(edge_input_timeout_is_inconclusive);
    RUN(equal_truncated_outputs_are_not_a_match);
    RUN(outputs_differing_in_non_utf8_bytes_are_not_a_match);
    RUN(vanished_output_rerun);
    RUN(match_that_does_not_reproduce);
    RUN(aggregate_and_grade);
    RUN(edge_divergence_kinds);
    RUN(lost_buffer_agreement_was_an_agreement);
    RUN(nondeterministic_snippet_agreed_by_luck);
    RUN(repeats_fell_back_to_two_under_load);
    RUN(odds_counted_all_died_as_agreeing);
    RUN(edges_ran_once_in_verify_translation);
    RUN(speed_autoscale);
    RUN(round2_is_pythons);
    RUN(speedup_object);
    RUN(slower_sizes_hidden_by_the_median);
    RUN(speed_decisions);
    RUN(scaled_round_ran_past_the_deadline);
    RUN(scaled_run_passed_the_run_timeout);
    RUN(startup_dominated_speedup_was_refused);
    RUN(net_noise_cannot_accept_the_same_program);
    RUN(one_slow_startup_run_set_the_jitter);
    RUN(overlapping_timings_are_not_a_speedup);
    RUN(same_program_beat_the_fastest_by_luck);
    RUN(compare_fastest_and_discrepancies);
    RUN(compare_timeout_notes);
    RUN(share_of_the_exec_pool);
    return check_summary("verify_rules");
}
