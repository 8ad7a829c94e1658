/* session_files, session_read_file, session_write_file, session_artifacts
 * (TOOLS.md 3.2.4-3.2.8), on top of the jail and the quotas. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#include "protocol/fdio.h"
#include "protocol/json_convert.h"
#include "protocol/strbuf.h"
#include "supervisor/mcp/res_uri.h"
#include "supervisor/sessions/jail.h"
#include "supervisor/sessions/quota.h"
#include "supervisor/sessions/content.h"
#include "supervisor/sessions/walk.h"
#include "supervisor/sessions/sessions.h"
#include "workers/common/tool_api.h"
#include "workers/sandbox/sandbox.h"

#define READ_CAP (4u << 20)
#define LISTING_MAX 1000

static void answer_jail(struct cc_req *r, const struct cc_jail_err *e) {
    cc_req_answer_fail(r, e->code, "%s", e->msg);
}

/* The caller's path argument, prechecked. NULL when r was answered. */
static const char *path_arg(struct cc_req *r, json_t *args, const char *key, bool required) {
    json_t *v = json_object_get(args, key);
    if (!v || json_is_null(v)) {
        if (required) cc_req_answer_fail(r, "validation", "%s is required", key);
        return required ? NULL : "";
    }
    if (!json_is_string(v)) {
        cc_req_answer_fail(r, "validation", "%s must be a string", key);
        return NULL;
    }
    struct cc_jail_err e;
    if (cc_jail_precheck(json_string_value(v), json_string_length(v), &e) < 0) {
        answer_jail(r, &e);
        return NULL;
    }
    return json_string_value(v);
}

/* ---- listing ------------------------------------------------------------ */

/* A run's scratch directory is never listed (docs/contract.md 3.2.4). */
static bool not_scratch(void *ud, int dirfd, const char *name) {
    (void)ud, (void)dirfd;
    return !cc_walk_is_scratch(name);
}

json_t *cc_session_listing(int dirfd) {
    char **names;
    long n = cc_dir_names(dirfd, not_scratch, NULL, &names);
    if (n < 0) return NULL;
    json_t *arr = json_array();
    for (long i = 0; i < n; i++) {
        struct stat st;
        if (fstatat(dirfd, names[i], &st, AT_SYMLINK_NOFOLLOW) == 0) {
            char *nm = names[i];
            if (S_ISDIR(st.st_mode)) {
                char buf[300];
                snprintf(buf, sizeof buf, "%s/", nm);
                json_array_append_new(arr, json_pack("{s:s,s:s}", "path", buf, "type", "dir"));
            } else if (S_ISLNK(st.st_mode)) {
                json_array_append_new(arr, json_pack("{s:s,s:s}", "path", nm, "type", "symlink"));
            } else {
                json_array_append_new(arr, json_pack("{s:s,s:s,s:I}", "path", nm, "type", "file",
                                                     "size", (json_int_t)st.st_size));
            }
        }
    }
    cc_dir_names_free(names, n);
    return arr;
}

/* cursor/page_size of 3.2.4: 0 when fine (r untouched), -1 when answered. */
static int page_args(struct cc_req *r, json_t *args, long long *size, long long *off) {
    json_t *ps = json_object_get(args, "page_size"), *cu = json_object_get(args, "cursor");
    *size = -1;
    *off = 0;
    if (ps && !json_is_null(ps)) {
        if (!json_is_integer(ps) || json_integer_value(ps) < 1) {
            cc_req_answer_fail(r, "validation", "page_size must be positive");
            return -1;
        }
        *size = json_integer_value(ps) > 1000 ? 1000 : json_integer_value(ps);
    }
    if (cu && !json_is_null(cu)) {
        const char *c = json_string_value(cu);
        if (!c || !*c || strspn(c, "0123456789") != strlen(c) || strlen(c) > 12) {
            cc_req_answer_fail(r, "validation", "invalid cursor");
            return -1;
        }
        *off = atoll(c);
    }
    return 0;
}

void cc_tool_session_files(struct cc_server *srv, struct cc_req *r, json_t *args) {
    struct cc_session *s;
    const char *id, *path;
    int ws;
    long long size, off;
    if (cc_session_open(srv, r, args, &s, &ws, &id) < 0) return;
    cc_session_touch(srv, s);
    if (!(path = path_arg(r, args, "path", false)) || page_args(r, args, &size, &off) < 0) {
        close(ws);
        return;
    }
    int dir = cc_jail_openat(ws, path, O_RDONLY | O_DIRECTORY, 0);
    close(ws);
    if (dir < 0) {
        struct cc_jail_err e;
        cc_jail_errno(errno, path, &e);
        if (!strcmp(e.code, "validation")) cc_req_answer_fail(r, "validation", "no such directory: %s", path);
        else answer_jail(r, &e);
        return;
    }
    json_t *all = cc_session_listing(dir);
    close(dir);
    if (!all) {
        cc_req_answer_fail(r, "internal", "cannot list %s: %s", path, strerror(errno));
        return;
    }
    char *norm = cc_jail_normalize(path);
    json_t *res = json_pack("{s:b,s:s}", "ok", 1, "path", norm && *norm ? norm : ".");
    free(norm);
    /* Without page_size a listing is whole up to LISTING_MAX entries, then
     * pages like any other (docs/protocol.md "Result size bounds"). */
    if (size < 0 && json_array_size(all) > LISTING_MAX) size = LISTING_MAX;
    if (size < 0) {
        json_object_set_new(res, "files", all);
    } else {
        json_t *slice = json_array();
        long long n = (long long)json_array_size(all);
        for (long long i = off; i < n && i < off + size; i++)
            json_array_append(slice, json_array_get(all, (size_t)i));
        json_object_set_new(res, "files", slice);
        if (off + size < n) {
            char c[24];
            snprintf(c, sizeof c, "%lld", off + size);
            json_object_set_new(res, "next_cursor", json_string(c));
        } else {
            json_object_set_new(res, "next_cursor", json_null());
        }
        json_decref(all);
    }
    cc_session_answer(r, res);
    json_decref(res);
}

/* ---- reading ------------------------------------------------------------ */

char *cc_session_read_head(int ws_fd, const char *rel, size_t max, size_t *len, uint64_t *size) {
    int fd = cc_jail_openat(ws_fd, rel, O_RDONLY | O_NOFOLLOW | O_NONBLOCK, 0);
    if (fd < 0) return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        close(fd);
        errno = e;
        return NULL;
    }
    *size = (uint64_t)st.st_size;
    size_t want = (uint64_t)st.st_size < max ? (size_t)st.st_size : max;
    char *buf = malloc(want + 1);
    size_t got = 0;
    while (buf && got < want) {
        ssize_t n = read(fd, buf + got, want - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(fd);
    if (!buf) {
        errno = ENOMEM;
        return NULL;
    }
    buf[got] = '\0';
    *len = got;
    return buf;
}

char *cc_session_slurp(int ws_fd, const char *rel, size_t cap, size_t *len) {
    uint64_t size = 0;
    /* One byte more than allowed tells a file too large, or one that grew. */
    char *buf = cc_session_read_head(ws_fd, rel, cap + 1, len, &size);
    if (buf && *len > cap) {
        free(buf);
        errno = EFBIG;
        return NULL;
    }
    return buf;
}

void cc_session_read_refusal(int err, const char *path, uint64_t cap, struct cc_jail_err *e) {
    static const struct {
        int err;
        const char *code, *why;
    } reasons[] = {
        {ELOOP, "permission_denied", "is a symlink; links are not followed in a workspace"},
        {EISDIR, "validation", "is a directory (list it with session_files)"},
        {EINVAL, "validation", "is not a regular file"},
        /* open(2) of a unix socket: it exists, it is just not a file. */
        {ENXIO, "validation", "is not a regular file"},
        {EFBIG, "resource_exhausted", "is larger than the bytes that can be returned whole:"},
    };
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if (reasons[i].err == err) {
            e->code = reasons[i].code;
            int n = snprintf(e->msg, sizeof e->msg, "%.200s %s", path, reasons[i].why);
            if (err == EFBIG && n > 0 && (size_t)n < sizeof e->msg)
                snprintf(e->msg + n, sizeof e->msg - (size_t)n, " %llu", (unsigned long long)cap);
            return;
        }
    cc_jail_errno(err, path, e);
}

void cc_tool_session_read_file(struct cc_server *srv, struct cc_req *r, json_t *args) {
    struct cc_session *s;
    const char *id, *path;
    int ws;
    if (cc_session_open(srv, r, args, &s, &ws, &id) < 0) return;
    cc_session_touch(srv, s);
    json_t *mb = json_object_get(args, "max_bytes");
    long long max = 65536;
    if (mb && !json_is_null(mb)) {
        if (!json_is_integer(mb) || json_integer_value(mb) < 0) {
            close(ws);
            cc_req_answer_fail(r, "validation", "max_bytes must be non-negative");
            return;
        }
        max = json_integer_value(mb);
    }
    if (!(path = path_arg(r, args, "path", true))) {
        close(ws);
        return;
    }
    size_t len = 0;
    uint64_t size = 0;
    const char *mime = cc_mime_guess(path);
    bool image = !strncmp(mime, "image/", 6);
    bool as_image = image || json_is_true(json_object_get(args, "as_image"));
    /* Text: the first max_bytes of a file of any size (issue 11 item 12);
     * an image travels whole or not at all. */
    size_t want = as_image ? READ_CAP + 1 : (unsigned long long)max < READ_CAP ? (size_t)max : READ_CAP;
    char *data = cc_session_read_head(ws, path, want, &len, &size);
    int err = errno;
    close(ws);
    if (data && as_image && size > READ_CAP) {
        free(data);
        data = NULL;
        err = EFBIG;
    }
    if (!data) {
        struct cc_jail_err e;
        cc_session_read_refusal(err, path, READ_CAP, &e);
        answer_jail(r, &e);
        return;
    }
    if (as_image) {
        char *b64 = cc_base64(data, len);
        free(data);
        if (!b64) {
            cc_req_answer_fail(r, "internal", "out of memory");
            return;
        }
        json_t *meta = json_pack("{s:b,s:s,s:I,s:s,s:s}", "ok", 1, "path", path, "size", (json_int_t)len,
                                 "mimeType", image ? mime : "image/png", "contract_version", CC_CONTRACT_VERSION);
        cc_session_answer_image(r, b64, image ? mime : "image/png", meta);
        json_decref(meta);
        free(b64);
        return;
    }
    size_t tl;
    char *text = cc_utf8_repair(data, len, &tl);
    char *norm = cc_jail_normalize(path);
    char *uri = cc_res_uri(id, norm ? norm : path);
    json_t *res = json_pack("{s:b,s:s,s:I,s:s%,s:b,s:s}", "ok", 1, "path", norm ? norm : path,
                            "size", (json_int_t)size, "content", text ? text : "", text ? tl : 0,
                            "truncated", size > len, "resource", uri ? uri : "");
    free(uri);
    free(norm);
    free(text);
    free(data);
    cc_session_answer(r, res);
    json_decref(res);
}

/* ---- writing ------------------------------------------------------------ */

/* Temp file beside the target, then rename: a refused or failed write
 * leaves nothing behind, and readers never see half a file. */
static int atomic_write(int dir, const char *leaf, const char *data, size_t len, bool exclusive) {
    unsigned char b[8];
    char tmp[64];
    if (getrandom(b, sizeof b, 0) != sizeof b) return -1;
    snprintf(tmp, sizeof tmp, ".cc-write-%02x%02x%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3],
             b[4], b[5], b[6], b[7]);
    int fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) return -1;
    bool ok = cc_write_all(fd, data, len) == 0;
    if (ok && geteuid() == 0 && fchown(fd, SBX_RUN_UID, SBX_RUN_GID) != 0) ok = false;
    int e = errno;
    if (close(fd) != 0 && ok) ok = false, e = errno;
    if (ok) {
        int rc = exclusive ? renameat2(dir, tmp, dir, leaf, RENAME_NOREPLACE) : renameat(dir, tmp, dir, leaf);
        if (rc == 0) return 0;
        e = errno;
    }
    unlinkat(dir, tmp, 0);
    errno = e;
    return -1;
}

json_t *cc_session_write(struct cc_server *srv, int ws_fd, const char *id, const char *rel,
                         const char *data, size_t len, bool exclusive) {
    struct cc_sessions *ss = srv->sessions;
    char *leaf = NULL;
    uid_t uid = geteuid() == 0 ? SBX_RUN_UID : (uid_t)-1;
    int dir = cc_jail_open_parent(ws_fd, rel, true, uid, SBX_RUN_GID, &leaf);
    struct cc_jail_err e;
    if (dir < 0) {
        cc_jail_errno(errno, rel, &e);
        return cc_err(e.code, "%s", e.msg);
    }
    json_t *res = NULL;
    struct stat st;
    bool exists = leaf && fstatat(dir, leaf, &st, AT_SYMLINK_NOFOLLOW) == 0;
    if (!leaf || (exists && S_ISDIR(st.st_mode))) {
        res = cc_err("validation", "path is a directory: %s", rel);
    } else if (exists && !S_ISREG(st.st_mode)) {
        res = cc_err("permission_denied", "refusing to write through a non-regular file: %s", rel);
    } else {
        int64_t net = (int64_t)len - (exists ? (int64_t)st.st_size : 0);
        res = cc_quota_write_check(ss->root_fd, ws_fd, id, len, net, !exists);
        if (!res && atomic_write(dir, leaf, data, len, exclusive) != 0)
            res = errno == ENOSPC || errno == EDQUOT || errno == EFBIG
                      ? cc_err("resource_exhausted", "write of %zu bytes failed: %s", len, strerror(errno))
                      : cc_err("internal", "write failed: %s", strerror(errno));
    }
    free(leaf);
    close(dir);
    return res;
}

/* Does any component of path name a run's scratch directory? A user file
 * there would be hidden from every listing (docs/contract.md 3.2.4). */
static bool names_scratch(const char *path) {
    for (const char *p = path; p && *p; p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL)
        if (cc_walk_is_scratch(p)) return true;
    return false;
}

void cc_tool_session_write_file(struct cc_server *srv, struct cc_req *r, json_t *args) {
    struct cc_session *s;
    const char *id, *path;
    int ws;
    if (cc_session_open(srv, r, args, &s, &ws, &id) < 0) return;
    cc_session_touch(srv, s);
    json_t *content = json_object_get(args, "content");
    if (!(path = path_arg(r, args, "path", true))) {
        close(ws);
        return;
    }
    if (!json_is_string(content)) {
        close(ws);
        cc_req_answer_fail(r, "validation", "content must be a string");
        return;
    }
    if (names_scratch(path)) {
        close(ws);
        cc_req_answer_fail(r, "permission_denied", "%s: names beginning with " CC_SESSION_SCRATCH_PREFIX
                           " are reserved for the scratch directories of runs (hidden from listings and "
                           "removed after each run); choose another name", path);
        return;
    }
    json_t *res = cc_session_write(srv, ws, id, path, json_string_value(content),
                                   json_string_length(content), false);
    close(ws);
    if (!res) {
        char *norm = cc_jail_normalize(path);
        res = json_pack("{s:b,s:s}", "ok", 1, "path", norm ? norm : path);
        free(norm);
    }
    cc_session_answer(r, res);
    json_decref(res);
}

/* ---- artifacts ---------------------------------------------------------- */

static int add_artifact(void *ud, const char *rel, const struct stat *st) {
    if (cc_walk_is_artifact(rel))
        json_array_append_new(ud, json_pack("{s:s,s:I}", "path", rel, "size", (json_int_t)st->st_size));
    return 0;
}

static int cmp_path(const void *a, const void *b) {
    return strcmp(json_string_value(json_object_get(*(json_t *const *)a, "path")),
                  json_string_value(json_object_get(*(json_t *const *)b, "path")));
}

void cc_tool_session_artifacts(struct cc_server *srv, struct cc_req *r, json_t *args) {
    struct cc_session *s;
    const char *id;
    int ws;
    if (cc_session_open(srv, r, args, &s, &ws, &id) < 0) return;
    cc_session_touch(srv, s);
    json_t *arr = json_array();
    cc_walk_files(ws, add_artifact, arr);
    close(ws);
    size_t n = json_array_size(arr);
    json_t **items = malloc((n ? n : 1) * sizeof *items);
    json_t *sorted = json_array();
    if (items) {
        for (size_t i = 0; i < n; i++) items[i] = json_array_get(arr, i);
        qsort(items, n, sizeof *items, cmp_path);
        for (size_t i = 0; i < n; i++) json_array_append(sorted, items[i]);
    }
    free(items);
    json_decref(arr);
    json_t *res = json_pack("{s:b,s:s,s:o}", "ok", 1, "session_id", id, "artifacts", sorted);
    cc_session_answer(r, res);
    json_decref(res);
}
