/* What the host offers the sandbox: namespaces, cgroup controllers in
 * either hierarchy, seccomp, and the uid programs run as. The verdicts come
 * from the sandbox's own probe (it tries each feature); this file adds what
 * an operator needs to act on them: which hierarchy is mounted where, which
 * controllers it offers, and why a feature is unusable. */
#include "supervisor/cli/doctor.h"
#include "protocol/text_knob.h"

#include <mntent.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* First line of a small file into buf; "" when unreadable. */
static const char *first_line(const char *path, char *buf, size_t cap) {
    buf[0] = '\0';
    FILE *f = fopen(path, "re");
    if (!f) return buf;
    if (!fgets(buf, (int)cap, f)) buf[0] = '\0';
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    return buf;
}

/* Mount point of a cgroup hierarchy: type "cgroup2", or "cgroup" carrying
 * the v1 controller ctl, written into found. NULL when not mounted. */
static const char *cgroup_mount(const char *type, const char *ctl, char found[static 512]) {
    FILE *f = setmntent("/proc/self/mounts", "re");
    if (!f) return NULL;
    const char *res = NULL;
    for (struct mntent *m; !res && (m = getmntent(f));) {
        if (strcmp(m->mnt_type, type) != 0) continue;
        if (ctl && !hasmntopt(m, ctl)) continue;
        snprintf(found, 512, "%s", m->mnt_dir);
        res = found;
    }
    endmntent(f);
    return res;
}

static json_t *words(const char *text) {
    json_t *a = json_array();
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    for (char *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        json_array_append_new(a, json_string(w));
    return a;
}

#define HAS(k) json_is_true(json_object_get(caps, k))

static json_t *cgroups(const json_t *caps) {
    char b2[512], bm[512], bp[512];
    const char *v2 = cgroup_mount("cgroup2", NULL, b2);
    char line[1024] = "";
    if (v2) {
        char path[600];
        snprintf(path, sizeof path, "%s/cgroup.controllers", v2);
        first_line(path, line, sizeof line);
    }
    const char *mem = cgroup_mount("cgroup", "memory", bm), *pids = cgroup_mount("cgroup", "pids", bp);
    json_t *v1 = json_pack("{s:{s:b,s:s?,s:b},s:{s:b,s:s?,s:b}}",
                           "memory", "mounted", mem != NULL, "mount", mem, "usable", HAS("cgroup_v1_memory"),
                           "pids", "mounted", pids != NULL, "mount", pids, "usable", HAS("cgroup_v1_pids"));
    const char *cg = cc_text(CC_TEXT_CGROUP);
    const char *in_use = HAS("cgroup_v2") ? "v2" : (HAS("cgroup_v1_memory") || HAS("cgroup_v1_pids")) ? "v1" : "none";
    const char *detail =
        HAS("cgroup_v2") ? NULL
        : HAS("cgroup_v1_memory") && HAS("cgroup_v1_pids")
            ? "cgroup v1 memory and pids hierarchies are used (no delegated v2 group with both controllers)"
        : HAS("cgroup_v1_memory") || HAS("cgroup_v1_pids")
            ? "only one of the memory and pids controllers is writable; the other limit is reported unenforced"
            : "no writable cgroup with the memory and pids controllers: the memory ceiling is RLIMIT_AS and "
              "the process ceiling RLIMIT_NPROC, both disclosed in unenforced (run as root, or delegate a v2 "
              "group and set CODECALC_CGROUP)";
    return json_pack("{s:{s:b,s:s?,s:o,s:b,s:s?},s:o,s:s,s:s?}", "v2", "mounted", v2 != NULL, "mount", v2,
                     "controllers", words(line), "usable", HAS("cgroup_v2"), "delegated_group", cg, "v1", v1,
                     "in_use", in_use, "detail", detail);
}

static json_t *sandbox_user(const json_t *caps, int uid, int gid) {
    if (!HAS("root"))
        return json_pack("{s:i,s:i,s:b,s:s}", "uid", uid, "gid", gid,
                         "user_namespace", HAS("userns"), "detail",
                         HAS("userns") ? "not root: programs run as this user inside a user namespace"
                                   : "not root and no user namespaces: programs run as this user, unconfined by ids");
    struct passwd *pw = getpwuid((uid_t)uid);
    char detail[300];
    if (pw)
        snprintf(detail, sizeof detail,
                 "uid %d belongs to the account '%s': programs could reach that account's files; "
                 "remove the account or give the uid to nothing else",
                 uid, pw->pw_name);
    return json_pack("{s:i,s:i,s:s?,s:b,s:s?}", "uid", uid, "gid", gid, "account",
                     pw ? pw->pw_name : NULL, "dedicated", pw == NULL, "detail", pw ? detail : NULL);
}

json_t *cc_doc_sandbox(const json_t *caps, int uid, int gid) {
    if (!caps) return json_pack("{s:s}", "error", "codecalc-exec --probe could not run: the sandbox is unknown");
    char text[64];
    const char *sec = first_line("/proc/sys/kernel/seccomp/actions_avail", text, sizeof text);
    return json_pack("{s:{s:b,s:b,s:b,s:b,s:b,s:b},s:o,s:{s:b,s:s?},s:o,s:b}", "namespaces", "user", HAS("userns"),
                     "pid", HAS("pidns"), "mount", HAS("mntns"), "network", HAS("netns"), "ipc", HAS("ipcns"), "uts", HAS("utsns"),
                     "cgroups", cgroups(caps), "seccomp", "available", HAS("seccomp"), "detail",
                     HAS("seccomp") ? NULL : *sec ? "the filter could not be built or loaded" : "the kernel offers no seccomp filters",
                     "sandbox_user", sandbox_user(caps, uid, gid), "root", HAS("root"));
}
