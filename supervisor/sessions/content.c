/* Content helpers for session files and resources. */
#include "supervisor/sessions/content.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "protocol/json_convert.h"
#include "protocol/strbuf.h"
#include "supervisor/sessions/sessions.h"

static const char *const mime_table[][2] = {
    {"png", "image/png"}, {"jpg", "image/jpeg"}, {"jpeg", "image/jpeg"}, {"gif", "image/gif"},
    {"webp", "image/webp"}, {"bmp", "image/bmp"}, {"svg", "image/svg+xml"},
    {"ico", "image/vnd.microsoft.icon"}, {"tif", "image/tiff"}, {"tiff", "image/tiff"},
    {"txt", "text/plain"}, {"csv", "text/csv"}, {"json", "application/json"},
    {"html", "text/html"}, {"md", "text/markdown"}, {"py", "text/x-python"},
    {"js", "text/javascript"}, {"pdf", "application/pdf"}, {NULL, NULL}};

const char *cc_mime_guess(const char *path) {
    const char *base = strrchr(path, '/');
    const char *dot = strrchr(base ? base : path, '.');
    for (int i = 0; dot && mime_table[i][0]; i++)
        if (!strcasecmp(dot + 1, mime_table[i][0])) return mime_table[i][1];
    return "application/octet-stream";
}



/* request.c has no image answer: write the JSON-RPC response here, with the
 * same deliver-then-free order it uses. */
void cc_session_answer_image(struct cc_req *r, const char *b64, const char *mime, json_t *meta) {
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    cc_sb_puts(&sb, "{\"jsonrpc\":\"2.0\",\"id\":");
    cc_json_emit(&sb, r->rpc_id);
    cc_sb_puts(&sb, ",\"result\":{\"content\":[{\"type\":\"image\",\"data\":");
    cc_sb_json_string(&sb, b64, strlen(b64));
    cc_sb_puts(&sb, ",\"mimeType\":");
    cc_sb_json_string(&sb, mime, strlen(mime));
    /* structuredContent too: clients check it against the output schema. */
    cc_sb_puts(&sb, "}],\"structuredContent\":");
    cc_json_emit(&sb, meta);
    cc_sb_puts(&sb, ",\"isError\":false}}");
    struct cc_conn *c = r->conn;
    bool deliver = !r->cancelled && !c->closed;
    cc_conn_ref(c);
    cc_req_free(r);
    if (deliver) cc_conn_send(c, sb.data, sb.len);
    cc_conn_unref(c);
    cc_sb_free(&sb);
}
