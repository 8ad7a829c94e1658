/* MCP resources over session workspaces (TOOLS.md 4.9):
 *   resources/templates/list  the one template
 *   resources/list            every workspace file, paged (cursor = offset)
 *   resources/read            text when the bytes are UTF-8 (and not an
 *                             image), else a base64 blob with its MIME type */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/stat.h>

#include "supervisor/sessions/jail.h"
#include "supervisor/mcp/local_tools.h"
#include "supervisor/mcp/methods.h"
#include "supervisor/mcp/res_uri.h"
#include "supervisor/sessions/content.h"
#include "supervisor/sessions/walk.h"
#include "supervisor/sessions/sessions.h"

#define RES_PAGE 100
#define READ_CAP (4u << 20)
#define URI_PREFIX CC_RES_URI_PREFIX

static void templates_list(struct cc_conn *c, json_t *id) {
    json_t *res = json_pack("{s:[{s:s,s:s,s:s,s:s}]}", "resourceTemplates", "uriTemplate",
                            URI_PREFIX "{session_id}/files/{+path}", "name", "Session file",
                            "description", "A file in a session workspace", "mimeType",
                            "application/octet-stream");
    cc_rpc_send_result(c, id, res);
    json_decref(res);
}

struct collect {
    json_t *arr;
    const char *sid;
};

static int add_resource(void *ud, const char *rel, const struct stat *st) {
    struct collect *k = ud;
    char *uri = cc_res_uri(k->sid, rel);
    if (uri)
        json_array_append_new(k->arr, json_pack("{s:s,s:s,s:s,s:I}", "uri", uri, "name", rel, "mimeType",
                                                cc_mime_guess(rel), "size", (json_int_t)st->st_size));
    free(uri);
    return json_array_size(k->arr) > 100000; /* bound the listing's memory */
}

static void resources_list(struct cc_server *srv, struct cc_conn *c, json_t *id, json_t *params) {
    struct cc_sessions *ss = srv->sessions;
    const char *cursor = json_string_value(json_object_get(params, "cursor"));
    size_t off = 0;
    if (cursor) {
        if (!*cursor || strspn(cursor, "0123456789") != strlen(cursor) || strlen(cursor) > 9) {
            cc_rpc_send_error(c, id, -32602, "Invalid params: unknown cursor");
            return;
        }
        off = (size_t)atol(cursor);
    }
    json_t *all = json_array();
    int fd = openat(ss->root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        int ws = openat(ss->root_fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (ws < 0) continue;
        struct collect k = {all, e->d_name};
        cc_walk_files(ws, add_resource, &k);
        close(ws);
    }
    if (d) closedir(d);
    else if (fd >= 0) close(fd);
    json_t *page = json_array();
    size_t n = json_array_size(all);
    for (size_t i = off; i < n && i < off + RES_PAGE; i++) json_array_append(page, json_array_get(all, i));
    json_t *res = json_pack("{s:o}", "resources", page);
    if (off + RES_PAGE < n) {
        char nc[24];
        snprintf(nc, sizeof nc, "%zu", off + RES_PAGE);
        json_object_set_new(res, "nextCursor", json_string(nc));
    }
    json_decref(all);
    cc_rpc_send_result(c, id, res);
    json_decref(res);
}

/* Splits a session-file URI into its session id (into sid) and its
 * workspace path, both percent-decoded (res_uri.h): the client may have
 * built the URI from the template, which encodes what a raw name holds.
 * NULL when the URI is not one; the path is the caller's to free. */
static char *parse_uri(const char *uri, char sid[CC_SESSION_ID_MAX + 1]) {
    if (!uri || strncmp(uri, URI_PREFIX, strlen(URI_PREFIX))) return NULL;
    const char *p = uri + strlen(URI_PREFIX), *slash = strchr(p, '/');
    if (!slash || strncmp(slash, "/files/", 7)) return NULL;
    char *id = cc_res_uri_unescape(p, (size_t)(slash - p));
    bool fits = id && strlen(id) <= CC_SESSION_ID_MAX;
    if (fits) strcpy(sid, id);
    free(id);
    return fits ? cc_res_uri_unescape(slash + 7, strlen(slash + 7)) : NULL;
}

static void resources_read(struct cc_server *srv, struct cc_conn *c, json_t *id, json_t *params) {
    struct cc_sessions *ss = srv->sessions;
    const char *uri = json_string_value(json_object_get(params, "uri"));
    char sid[CC_SESSION_ID_MAX + 1] = "";
    char *path = parse_uri(uri, sid);
    struct cc_jail_err je;
    int ws = -1;
    if (path && cc_jail_precheck(path, strlen(path), &je) == 0 && !strpbrk(sid, "./") && sid[0])
        ws = openat(ss->root_fd, sid, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    size_t len = 0;
    char *data = ws >= 0 ? cc_session_slurp(ws, path, READ_CAP, &len) : NULL;
    int err = ws >= 0 ? errno : ENOENT;
    /* A raw name holding '%' ("pct%41.txt") was readable by its raw URI
     * before URIs were decoded: when the decoded name does not exist, the
     * name as written is tried, through the same checks. */
    const char *raw = ws >= 0 && !data && err == ENOENT ? strstr(uri + strlen(URI_PREFIX), "/files/") + 7 : NULL;
    if (raw && strcmp(raw, path) && cc_jail_precheck(raw, strlen(raw), &je) == 0) {
        data = cc_session_slurp(ws, raw, READ_CAP, &len);
        err = data ? 0 : errno;
    }
    if (ws >= 0) close(ws);
    if (!data) {
        /* Only a missing file is "not found" (-32002); a large file, a
         * symlink or a directory says what it is (issue 11 item 12). */
        const char *shown = path ? path : (uri ? uri : "");
        cc_session_read_refusal(err, shown, READ_CAP, &je);
        bool missing = !strcmp(je.code, "validation") && !strncmp(je.msg, "no such", 7);
        if (err == EFBIG)
            snprintf(je.msg, sizeof je.msg, "%.150s is larger than the %u MiB resources/read returns; read "
                     "its first bytes with session_read_file (max_bytes)", shown, READ_CAP >> 20);
        cc_rpc_send_error(c, id, missing ? -32002 : -32602, je.msg);
        free(path);
        return;
    }
    cc_session_touch(srv, cc_session_find(srv, sid));
    const char *mime = cc_mime_guess(path);
    json_t *item;
    if (strncmp(mime, "image/", 6) && cc_utf8_valid(data, len)) {
        item = json_pack("{s:s,s:s,s:s%}", "uri", uri, "mimeType",
                         !strcmp(mime, "application/octet-stream") ? "text/plain" : mime, "text", data, len);
    } else {
        char *b64 = cc_base64(data, len);
        item = json_pack("{s:s,s:s,s:s}", "uri", uri, "mimeType", mime, "blob", b64 ? b64 : "");
        free(b64);
    }
    free(data);
    free(path);
    json_t *res = json_pack("{s:[o]}", "contents", item);
    cc_rpc_send_result(c, id, res);
    json_decref(res);
}

bool cc_resources_dispatch(struct cc_server *srv, struct cc_conn *c, json_t *id, const char *method,
                           json_t *params) {
    if (!srv->sessions) return false;
    if (!strcmp(method, "resources/templates/list")) templates_list(c, id);
    else if (!strcmp(method, "resources/list")) resources_list(srv, c, id, params);
    else if (!strcmp(method, "resources/read")) resources_read(srv, c, id, params);
    else return false;
    return true;
}
