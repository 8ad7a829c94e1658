/* Code that runs one-shot in a workspace: execute_code on a workspace
 * session (TOOLS.md 4.5 step 5) and session_run (3.2.7). The exec worker
 * runs it with the workspace as its work directory (the "_workdir"
 * argument, which only the supervisor can set); the answer is finished
 * here: output spill (4.7), quota post-check (4.6), session_run's shape. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "supervisor/sessions/jail.h"
#include "supervisor/sessions/quota.h"
#include "supervisor/sessions/sessions.h"
#include "workers/common/tool_api.h"

#define INLINE_CAP 65536
#define SPILL_CAP (4u << 20)
#define ENTRY_CAP (4u << 20)
/* What the exec worker appends to a stream it cut (CC_TRUNC_MARKER). */
#define TRUNC_MARKER "\n...[truncated]"

struct pending {
    struct cc_req *r;
    uint64_t wid;
    char id[CC_SESSION_ID_MAX + 1];
    char *entry_file;      /* session_run only */
    bool spill;            /* apply 4.7 */
    dev_t ws_dev;          /* the workspace the run was given */
    ino_t ws_ino;
    struct cc_server *srv;
    struct cc_sub *sub;    /* the exec sub-request, until it answers */
    bool starting;         /* cc_sub_start has not returned yet */
    bool answered;         /* on_done ran while starting */
};

static void pending_free(struct pending *p) {
    free(p->entry_file);
    free(p);
}

/* true when the worker cut this stream at its capture cap: the text ends
 * with its marker and the program wrote more than the text holds
 * (<name>_bytes counts what it wrote). */
static bool cut_by_capture(json_t *res, const char *name, const char *text, size_t len) {
    size_t m = sizeof TRUNC_MARKER - 1;
    char key[40];
    snprintf(key, sizeof key, "%s_bytes", name);
    json_t *b = json_object_get(res, key);
    return len >= m && memcmp(text + len - m, TRUNC_MARKER, m) == 0 && json_is_integer(b) &&
           json_integer_value(b) > (json_int_t)(len - m);
}

/* One stream past the inline cap: write the spill file, trim, disclose. */
static void spill_stream(struct cc_server *srv, int ws, const char *id, json_t *res, const char *name) {
    json_t *v = json_object_get(res, name);
    const char *text = json_string_value(v);
    size_t len = json_string_length(v);
    if (!text || len <= INLINE_CAP) return;
    bool capped = len >= SPILL_CAP;
    size_t keep = capped ? SPILL_CAP : len;
    /* The capture itself was cut (the program wrote more than it keeps):
     * the spill holds the first bytes, without the marker, and says so. */
    if (cut_by_capture(res, name, text, len)) {
        keep = len - (sizeof TRUNC_MARKER - 1);
        capped = true;
    }
    unsigned char b[16];
    char rel[96], key[40];
    if (getrandom(b, sizeof b, 0) != sizeof b) return;
    int o = snprintf(rel, sizeof rel, ".codecalc-spill/");
    for (int i = 0; i < 16; i++) o += snprintf(rel + o, sizeof rel - (size_t)o, "%02x", b[i]);
    snprintf(rel + o, sizeof rel - (size_t)o, "-%s.bin", name);
    json_t *refused = cc_session_write(srv, ws, id, rel, text, keep, true);
    char *inline_text = malloc(INLINE_CAP + 16);
    if (inline_text) {
        memcpy(inline_text, text, INLINE_CAP);
        memcpy(inline_text + INLINE_CAP, "\n...[truncated]", 15);
        json_object_set_new(res, name, json_stringn_nocheck(inline_text, INLINE_CAP + 15));
        free(inline_text);
    }
    if (refused) {
        snprintf(key, sizeof key, "%s_spill_refused", name);
        char msg[160];
        snprintf(msg, sizeof msg, "disk-quota ceiling reached; only the truncated inline %s above is "
                 "available for this run", name);
        json_object_set_new(res, key, json_string(msg));
        json_decref(refused);
    } else {
        char uri[200];
        snprintf(uri, sizeof uri, "codecalc://session/%s/files/%s", id, rel);
        snprintf(key, sizeof key, "%s_spill", name);
        json_object_set_new(res, key, json_string(uri));
        if (capped) {
            snprintf(key, sizeof key, "%s_spill_capped", name);
            json_object_set_new(res, key, json_true());
        }
    }
    json_object_set_new(res, "output_truncated", json_true());
}

/* true when ws (-1 when it could not be opened) is still the workspace the
 * run was given: session_stop removes it under a run in progress. */
static bool same_workspace(int ws, const struct pending *p) {
    struct stat st;
    return ws >= 0 && fstat(ws, &st) == 0 && st.st_dev == p->ws_dev && st.st_ino == p->ws_ino;
}

/* on_done is finished with p: free it, unless cc_sub_start (which may
 * answer at once) has not returned yet; submit frees it then. */
static void finish_pending(struct pending *p) {
    if (p->starting) p->answered = true;
    else pending_free(p);
}

static void on_done(struct cc_server *srv, void *ud, json_t *result, const char *err) {
    struct pending *p = ud;
    cc_session_release(srv, p->id);
    p->sub = NULL;
    /* The work is over: the request's end no longer has anything to stop. */
    if (!p->starting && cc_session_req_alive(srv, p->r, p->wid)) p->r->on_free = NULL;
    if (!cc_session_req_alive(srv, p->r, p->wid) || !srv->sessions) {
        finish_pending(p);
        return;
    }
    if (!result) {
        cc_req_answer_fail(p->r, "internal", "workspace run failed: %s", err);
        finish_pending(p);
        return;
    }
    struct cc_sessions *ss = srv->sessions;
    int ws = openat(ss->root_fd, p->id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (!same_workspace(ws, p)) {
        if (ws >= 0) close(ws);
        cc_req_answer_fail(p->r, "worker_failure", "the session was stopped while this run was in progress: "
                           "its workspace was removed under the program, so the run's result is not "
                           "reported (an error about a missing file or directory would have come from "
                           "that, not from the program)");
        finish_pending(p);
        return;
    }
    json_t *res = json_deep_copy(result);
    if (ws >= 0 && json_object_get(res, "verdict")) {
        if (p->spill) {
            spill_stream(srv, ws, p->id, res, "stdout");
            spill_stream(srv, ws, p->id, res, "stderr");
        }
        cc_quota_postcheck(res, ss->root_fd, ws);
    }
    if (ws >= 0) close(ws);
    if (p->entry_file) {
        json_object_del(res, "provider");
        json_object_set_new(res, "entry_file", json_string(p->entry_file));
    }
    cc_session_answer(p->r, res);
    json_decref(res);
    finish_pending(p);
}

/* The request ended without our answer (cancelled, deadline, client
 * gone): stop the run; on_done will not be called. */
static void on_request_free(void *owner) {
    struct pending *p = owner;
    if (p->sub) cc_sub_cancel(p->sub);
    cc_session_release(p->srv, p->id);
    pending_free(p);
}

/* Submit args (owned by the caller) to the exec worker for session id. */
static void submit(struct cc_server *srv, struct cc_req *r, json_t *args, const char *id,
                   const char *entry, bool spill) {
    struct pending *p = calloc(1, sizeof *p);
    if (!p || (entry && !(p->entry_file = strdup(entry)))) {
        free(p);
        cc_req_answer_fail(r, "internal", "out of memory");
        return;
    }
    p->r = r;
    p->wid = r->wid;
    p->spill = spill;
    snprintf(p->id, sizeof p->id, "%s", id);
    struct stat st;
    if (fstatat(cc_sessions_of(srv)->root_fd, id, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        p->ws_dev = st.st_dev;
        p->ws_ino = st.st_ino;
    }
    char wd[PATH_MAX + 80];
    snprintf(wd, sizeof wd, "%s/%s", cc_sessions_of(srv)->root, id);
    json_object_set_new(args, "_workdir", json_string(wd));
    json_object_set_new(args, "session_id", json_string(id));
    if (spill) json_object_set_new(args, "_capture_kb", json_integer(SPILL_CAP / 1024));
    /* The idle-expiry timer must not remove the workspace under the run. */
    cc_session_hold(srv, id);
    p->srv = srv;
    p->starting = true;
    struct cc_sub *sub = cc_sub_start(srv, "execute_code", args, 900 * 1000, on_done, p);
    p->starting = false;
    if (p->answered) {
        pending_free(p);
        return;
    }
    if (!sub) {
        cc_session_release(srv, id);
        pending_free(p);
        cc_req_answer_fail(r, "internal", "cannot reach the exec workers");
        return;
    }
    /* A cancelled call (or a client gone) stops its program, as a one-shot
     * execute_code does, instead of letting it run on in the workspace. */
    p->sub = sub;
    r->on_free = on_request_free;
    r->owner = p;
}

/* A copy of the client's arguments without any "_" key: those are ours. */
static json_t *clean_args(json_t *args) {
    json_t *c = json_object();
    const char *k;
    json_t *v;
    json_object_foreach(args, k, v) if (k[0] != '_') json_object_set(c, k, v);
    return c;
}

void cc_session_exec_workspace(struct cc_server *srv, struct cc_req *r, json_t *args,
                               struct cc_session *s, const char *id) {
    (void)s;
    json_t *a = clean_args(args);
    json_t *mo = json_object_get(a, "max_output_kb");
    bool spill = !mo || json_is_null(mo) || (json_is_integer(mo) && json_integer_value(mo) <= 0);
    submit(srv, r, a, id, NULL, spill);
    json_decref(a);
}

void cc_tool_session_run(struct cc_server *srv, struct cc_req *r, json_t *args) {
    struct cc_session *s;
    const char *id;
    int ws;
    if (cc_session_open(srv, r, args, &s, &ws, &id) < 0) return;
    cc_session_touch(srv, s);
    struct cc_sessions *ss = srv->sessions;
    json_t *q = cc_quota_precheck(ss->root_fd, ws, id);
    json_t *ef = json_object_get(args, "entry_file");
    const char *entry = json_string_value(ef);
    struct cc_jail_err e;
    if (q) {
        close(ws);
        cc_session_answer(r, q);
        json_decref(q);
        return;
    }
    if (!entry || cc_jail_precheck(entry, json_string_length(ef), &e) < 0) {
        close(ws);
        if (entry) cc_req_answer_fail(r, e.code, "%s", e.msg);
        else cc_req_answer_fail(r, "validation", "entry_file must be a string");
        return;
    }
    size_t len;
    char *code = cc_session_slurp(ws, entry, ENTRY_CAP, &len);
    int err = errno;
    close(ws);
    if (!code) {
        cc_session_read_refusal(err, entry, ENTRY_CAP, &e);
        cc_req_answer_fail(r, e.code, "%s", e.msg);
        return;
    }
    const char *lang = json_string_value(json_object_get(args, "language"));
    json_t *t = json_object_get(args, "timeout"), *in = json_object_get(args, "stdin");
    json_t *a = json_pack("{s:s,s:s%}", "language", lang ? lang : cc_session_lang_for_file(entry),
                          "code", code, len);
    free(code);
    json_int_t secs = json_is_integer(t) ? json_integer_value(t) : 30;
    json_object_set_new(a, "timeout", json_integer(secs < 1 ? 1 : secs));
    if (json_is_string(in)) json_object_set(a, "stdin", in);
    char *norm = cc_jail_normalize(entry);
    json_object_set_new(a, "_entry", json_string(norm ? norm : entry));
    submit(srv, r, a, id, norm ? norm : entry, true);
    free(norm);
    json_decref(a);
}
