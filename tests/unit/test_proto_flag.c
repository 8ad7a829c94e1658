/* protocol/flag.c: the one reading of every on/off CODECALC_* knob. */
#include <stdlib.h>
#include <string.h>

#include "protocol/flag.h"
#include "protocol/knob.h"
#include "supervisor/native_check.h"
#include "tests/unit/check.h"
#include "tests/unit/knob_env.h"
#include "workers/common/test_ops.h"

/* The brief's values and their neighbours: the eight words in any case
 * are values; nothing else is (NULL and "" are unset: the default). */
static void parse_takes_the_eight_words_in_any_case_only(void) {
    CHECK_INTEQ(cc_flag_parse("1"), 1);
    CHECK_INTEQ(cc_flag_parse("0"), 0);
    CHECK_INTEQ(cc_flag_parse("TRUE"), 1);
    CHECK_INTEQ(cc_flag_parse("On"), 1);
    CHECK_INTEQ(cc_flag_parse("yes"), 1);
    CHECK_INTEQ(cc_flag_parse("true"), 1);
    CHECK_INTEQ(cc_flag_parse("oN"), 1);
    CHECK_INTEQ(cc_flag_parse("false"), 0);
    CHECK_INTEQ(cc_flag_parse("No"), 0);
    CHECK_INTEQ(cc_flag_parse("OFF"), 0);
    CHECK_INTEQ(cc_flag_parse("FaLsE"), 0);
    static const char *const never[] = {"", "2", "yes ", " yes", "nope", "-1", "01", "00", "10", "y",
                                        "n", "t", "f", "enable", "enabled", "disabled", "1.0", "truee",
                                        "on\n", "\t1", "ja", "0x1", "+1"};
    for (size_t i = 0; i < sizeof never / sizeof *never; i++) {
        if (cc_flag_parse(never[i]) != -1) fprintf(stderr, "value \"%s\"\n", never[i]);
        CHECK_INTEQ(cc_flag_parse(never[i]), -1);
    }
    CHECK_INTEQ(cc_flag_parse(NULL), -1);
}

/* Unset and empty are the default (off for most, on for the symbolic fast
 * paths); a value that is not one reads as the default inside a process
 * that was not checked (a worker started by hand). */
static void flag_reads_its_value_or_its_default(void) {
    knob_setenv("CODECALC_ALLOW_GLOBAL_INSTALL", NULL);
    CHECK(!cc_flag(CC_FLAG_ALLOW_GLOBAL_INSTALL));
    knob_setenv("CODECALC_ALLOW_GLOBAL_INSTALL", "");
    CHECK(!cc_flag(CC_FLAG_ALLOW_GLOBAL_INSTALL));
    knob_setenv("CODECALC_ALLOW_GLOBAL_INSTALL", "TRUE");
    CHECK(cc_flag(CC_FLAG_ALLOW_GLOBAL_INSTALL));
    knob_setenv("CODECALC_ALLOW_GLOBAL_INSTALL", "2");
    CHECK(!cc_flag(CC_FLAG_ALLOW_GLOBAL_INSTALL));
    knob_setenv("CODECALC_ALLOW_GLOBAL_INSTALL", NULL);
    knob_setenv("CODECALC_SYMBOLIC_FASTPATH", NULL);
    CHECK(cc_flag(CC_FLAG_SYMBOLIC_FASTPATH));
    knob_setenv("CODECALC_SYMBOLIC_FASTPATH", "off");
    CHECK(!cc_flag(CC_FLAG_SYMBOLIC_FASTPATH));
    knob_setenv("CODECALC_SYMBOLIC_FASTPATH", "nope");
    CHECK(cc_flag(CC_FLAG_SYMBOLIC_FASTPATH));
    knob_setenv("CODECALC_SYMBOLIC_FASTPATH", NULL);
    CHECK(!cc_flag((enum cc_flag_id)CC_FLAG_COUNT));
}

/* A knob is fixed for the process's life: a setenv after the first read
 * changes nothing until cc_knobs_reload (which tests use, knob_env.h). */
static void values_are_read_once_per_process(void) {
    knob_setenv("CODECALC_EXEC_TIMINGS", NULL);
    knob_setenv("CODECALC_MAX_ACTIVE_RUNS", NULL);
    CHECK(!cc_flag(CC_FLAG_EXEC_TIMINGS));
    CHECK_INTEQ(cc_knob(CC_KNOB_MAX_ACTIVE_RUNS), 64);
    setenv("CODECALC_EXEC_TIMINGS", "1", 1);
    setenv("CODECALC_MAX_ACTIVE_RUNS", "7", 1);
    CHECK(!cc_flag(CC_FLAG_EXEC_TIMINGS));
    CHECK_INTEQ(cc_knob(CC_KNOB_MAX_ACTIVE_RUNS), 64);
    CHECK(!cc_knob_given(CC_KNOB_MAX_ACTIVE_RUNS));
    cc_knobs_reload();
    CHECK(cc_flag(CC_FLAG_EXEC_TIMINGS));
    CHECK_INTEQ(cc_knob(CC_KNOB_MAX_ACTIVE_RUNS), 7);
    CHECK(cc_knob_given(CC_KNOB_MAX_ACTIVE_RUNS));
    knob_setenv("CODECALC_EXEC_TIMINGS", NULL);
    knob_setenv("CODECALC_MAX_ACTIVE_RUNS", NULL);
    CHECK(!cc_knob_given(CC_KNOB_MAX_ACTIVE_RUNS));
}

/* The start-up check names the first bad switch and the words it takes. */
static void check_refuses_a_bad_value_naming_the_rule(void) {
    char why[512] = "";
    for (int i = 0; i < CC_FLAG_COUNT; i++) unsetenv(cc_flag_defs[i].name);
    CHECK_INTEQ(cc_flags_check(why, sizeof why), 0);
    static const char *const fine[] = {"", "1", "0", "TRUE", "On", "no", "off"};
    for (size_t i = 0; i < sizeof fine / sizeof *fine; i++) {
        setenv("CODECALC_REQUIRE_NATIVE", fine[i], 1);
        CHECK_INTEQ(cc_flags_check(why, sizeof why), 0);
    }
    setenv("CODECALC_REQUIRE_NATIVE", "yes ", 1);
    CHECK_INTEQ(cc_flags_check(why, sizeof why), -1);
    CHECK_STREQ(why, "CODECALC_REQUIRE_NATIVE=\"yes \" is not one of 1, true, yes, on, 0, false, no, off "
                     "(any case, no spaces) (docs/configuration.md); unset it for the default");
    unsetenv("CODECALC_REQUIRE_NATIVE");
    setenv("CODECALC_TEST_OPS", "2", 1);
    CHECK_INTEQ(cc_flags_check(why, sizeof why), -1);
    CHECK(strstr(why, "CODECALC_TEST_OPS=\"2\" is not one of") == why);
    setenv("CODECALC_TEST_OPS", "nope", 1);
    CHECK_INTEQ(cc_flags_check(why, sizeof why), -1);
    CHECK(strstr(why, "CODECALC_TEST_OPS=\"nope\" is not one of") == why);
    unsetenv("CODECALC_TEST_OPS");
    CHECK_INTEQ(cc_flags_check(why, sizeof why), 0);
}

/* Each reader had its own rule; these values meant the opposite of what
 * they say for one of them. Now one reading serves all. */
static void regression_readers_had_six_rules(void) {
    /* CODECALC_REQUIRE_NATIVE "false" and "" were on (anything but "0") */
    knob_setenv("CODECALC_REQUIRE_NATIVE", "false");
    CHECK(!cc_native_required());
    knob_setenv("CODECALC_REQUIRE_NATIVE", "");
    CHECK(!cc_native_required());
    knob_setenv("CODECALC_REQUIRE_NATIVE", "ON");
    CHECK(cc_native_required());
    knob_setenv("CODECALC_REQUIRE_NATIVE", NULL);
    /* CODECALC_TEST_OPS "true" was off ("1" only), in the workers and in
     * the supervisor's tool table alike */
    knob_setenv("CODECALC_TEST_OPS", "true");
    CHECK(cc_test_ops_enabled());
    knob_setenv("CODECALC_TEST_OPS", "0");
    CHECK(!cc_test_ops_enabled());
    knob_setenv("CODECALC_TEST_OPS", NULL);
    /* CODECALC_EXEC_TIMINGS "0" was on (any value) */
    knob_setenv("CODECALC_EXEC_TIMINGS", "0");
    CHECK(!cc_flag(CC_FLAG_EXEC_TIMINGS));
    knob_setenv("CODECALC_EXEC_TIMINGS", NULL);
    /* CODECALC_ALLOW_GLOBAL_INSTALL "true" was off ("1" only) */
    knob_setenv("CODECALC_ALLOW_GLOBAL_INSTALL", "true");
    CHECK(cc_flag(CC_FLAG_ALLOW_GLOBAL_INSTALL));
    knob_setenv("CODECALC_ALLOW_GLOBAL_INSTALL", NULL);
    /* CODECALC_DISABLE_THIRD_PARTY_EXTENSIONS "TRUE" was off (1/true/True) */
    knob_setenv("CODECALC_DISABLE_THIRD_PARTY_EXTENSIONS", "TRUE");
    CHECK(cc_flag(CC_FLAG_DISABLE_THIRD_PARTY_EXTENSIONS));
    knob_setenv("CODECALC_DISABLE_THIRD_PARTY_EXTENSIONS", NULL);
    /* CODECALC_SYMBOLIC_NMEMO "off" was on (anything but "0") */
    knob_setenv("CODECALC_SYMBOLIC_NMEMO", "off");
    CHECK(!cc_flag(CC_FLAG_SYMBOLIC_NMEMO));
    knob_setenv("CODECALC_SYMBOLIC_NMEMO", NULL);
}

static void table_is_consistent(void) {
    for (int i = 0; i < CC_FLAG_COUNT; i++) {
        const char *n = cc_flag_defs[i].name;
        CHECK(n && strncmp(n, "CODECALC_", 9) == 0);
        CHECK_INTEQ(cc_flag_find(n), i);
        /* no name is both a numeric and an on/off knob */
        CHECK_INTEQ(cc_knob_find(n), -1);
    }
    CHECK_INTEQ(cc_flag_find("CODECALC_NOT_A_FLAG"), -1);
    CHECK_INTEQ(cc_flag_find(NULL), -1);
}

int main(void) {
    RUN(parse_takes_the_eight_words_in_any_case_only);
    RUN(flag_reads_its_value_or_its_default);
    RUN(values_are_read_once_per_process);
    RUN(check_refuses_a_bad_value_naming_the_rule);
    RUN(regression_readers_had_six_rules);
    RUN(table_is_consistent);
    return check_summary("test_proto_flag");
}
