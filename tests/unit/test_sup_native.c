/* CODECALC_REQUIRE_NATIVE's decision on a capability report of
 * `codecalc-exec --probe` (supervisor/native_check.c): what is missing is
 * named, the variable is named, and a capable host passes. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "supervisor/native_check.h"
#include "tests/unit/check.h"

static json_t *full_report(void) {
    return json_pack("{s:b,s:b,s:b,s:b,s:b,s:b,s:b,s:b,s:b,s:b,s:b}", "userns", 1, "pidns", 1, "mntns", 1,
                     "netns", 1, "ipcns", 1, "utsns", 1, "cgroup_v2", 1, "cgroup_v1_memory", 0,
                     "cgroup_v1_pids", 0, "seccomp", 1, "root", 0);
}

static void capable_host_passes(void) {
    json_t *c = full_report();
    char msg[1024] = "";
    CHECK_INTEQ(cc_native_verdict(c, msg, sizeof msg), 0);
    CHECK_STREQ(msg, "");
    /* cgroup v1 with both controllers serves as well as v2 */
    json_object_set_new(c, "cgroup_v2", json_false());
    json_object_set_new(c, "cgroup_v1_memory", json_true());
    json_object_set_new(c, "cgroup_v1_pids", json_true());
    CHECK_INTEQ(cc_native_verdict(c, msg, sizeof msg), 0);
    /* root needs no user namespace */
    json_object_set_new(c, "userns", json_false());
    json_object_set_new(c, "root", json_true());
    CHECK_INTEQ(cc_native_verdict(c, msg, sizeof msg), 0);
    json_decref(c);
}

static void missing_features_are_named(void) {
    json_t *c = full_report();
    json_object_set_new(c, "pidns", json_false());
    json_object_set_new(c, "seccomp", json_false());
    char msg[1024];
    CHECK_INTEQ(cc_native_verdict(c, msg, sizeof msg), -1);
    CHECK_STREQ(msg, "CODECALC_REQUIRE_NATIVE is set but this host lacks pid namespaces, seccomp filters for "
                     "the native sandbox; unset it to run with those guarantees reported in `unenforced` instead");
    json_decref(c);
}

static void cgroups_and_userns_when_not_root(void) {
    json_t *c = full_report();
    json_object_set_new(c, "cgroup_v2", json_false());
    json_object_set_new(c, "cgroup_v1_memory", json_true());
    json_object_set_new(c, "userns", json_false());
    char msg[1024];
    CHECK_INTEQ(cc_native_verdict(c, msg, sizeof msg), -1);
    CHECK(strstr(msg, "lacks a writable pids cgroup, user namespaces (the server is not root) for") != NULL);
    CHECK(strstr(msg, "memory cgroup") == NULL);
    json_decref(c);
}

/* A report that is not what the probe writes counts as nothing offered. */
static void empty_report_refuses_everything(void) {
    json_t *c = json_object();
    char msg[1024];
    CHECK_INTEQ(cc_native_verdict(c, msg, sizeof msg), -1);
    CHECK(strstr(msg, "lacks pid namespaces, mount namespaces, network namespaces, seccomp filters, a writable "
                      "memory cgroup, a writable pids cgroup, user namespaces") != NULL);
    json_decref(c);
}

int main(void) {
    RUN(capable_host_passes);
    RUN(missing_features_are_named);
    RUN(cgroups_and_userns_when_not_root);
    RUN(empty_report_refuses_everything);
    return check_summary("sup_native");
}
