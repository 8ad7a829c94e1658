/* The environment builder of sandboxed programs (workers/common/program_env.c):
 * only allowlisted variables pass, forced entries follow in order, and the
 * array grows past any fixed size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/check.h"
#include "workers/common/program_env.h"

static size_t count(char **env) {
    size_t n = 0;
    while (env && env[n]) n++;
    return n;
}

static void only_allowlisted_variables_pass(void) {
    setenv("CC_TEST_KEPT", "yes", 1);
    setenv("CC_TEST_SECRET", "canary", 1);
    unsetenv("CC_TEST_ABSENT");
    static const char *const keep[] = {"CC_TEST_KEPT", "CC_TEST_ABSENT", NULL};
    struct cc_env e = {0};
    cc_env_keep(&e, keep);
    cc_env_set(&e, "PATH=%s", "/usr/bin");
    cc_env_set(&e, "HOME=%s/.cache", "/w");
    char **env = cc_env_take(&e);
    CHECK_INTEQ(count(env), 3);
    CHECK_STREQ(env[0], "CC_TEST_KEPT=yes");
    CHECK_STREQ(env[1], "PATH=/usr/bin");
    CHECK_STREQ(env[2], "HOME=/w/.cache");
    for (size_t i = 0; env && env[i]; i++) CHECK(strstr(env[i], "canary") == NULL);
    CHECK(e.v == NULL && e.n == 0);
    cc_env_free(env);
}

static void empty_environment_is_a_terminated_array(void) {
    struct cc_env e = {0};
    char **env = cc_env_take(&e);
    CHECK(env != NULL);
    CHECK_INTEQ(count(env), 0);
    cc_env_free(env);
}

static void grows_past_its_first_allocation(void) {
    struct cc_env e = {0};
    for (int i = 0; i < 100; i++) cc_env_set(&e, "V%d=%d", i, i * i);
    char **env = cc_env_take(&e);
    CHECK_INTEQ(count(env), 100);
    CHECK_STREQ(env[99], "V99=9801");
    cc_env_free(env);
}

int main(void) {
    RUN(only_allowlisted_variables_pass);
    RUN(empty_environment_is_a_terminated_array);
    RUN(grows_past_its_first_allocation);
    return check_summary("program_env");
}
