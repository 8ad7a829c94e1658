/* Content helpers for session files and resources. */
#include "supervisor/session_content.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "protocol/json_convert.h"
#include "protocol/strbuf.h"
#include "supervisor/sessions.h"

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

char *cc_base64(const char *data, size_t len) {
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc((len + 2) / 3 * 4 + 1);
    if (!out) return NULL;
    const unsigned char *p = (const unsigned char *)data;
    size_t o = 0, i = 0;
    for (; i + 2 < len; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        out[o++] = tab[v >> 18];
        out[o++] = tab[(v >> 12) & 63];
        out[o++] = tab[(v >> 6) & 63];
        out[o++] = tab[v & 63];
    }
    if (i < len) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < len ? (uint32_t)p[i + 1] << 8 : 0);
        out[o++] = tab[v >> 18];
        out[o++] = tab[(v >> 12) & 63];
        out[o++] = i + 1 < len ? tab[(v >> 6) & 63] : '=';
        out[o++] = '=';
    }
    out[o] = '\0';
    return out;
}

/* Length of a valid UTF-8 sequence at s, or 0. */
static size_t seq_len(const unsigned char *s, size_t n) {
    unsigned c = s[0], min;
    size_t len;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) len = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF) len = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4) len = 4, min = 0x10000;
    else return 0;
    if (n < len) return 0;
    unsigned cp = c & (0x7Fu >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    return cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ? 0 : len;
}

bool cc_utf8_valid(const char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        size_t k = seq_len((const unsigned char *)s + i, n - i);
        if (!k) return false;
        i += k;
    }
    return true;
}

char *cc_utf8_fix(const char *s, size_t n, size_t *outlen) {
    char *out = malloc(n * 3 + 1);
    if (!out) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t k = seq_len((const unsigned char *)s + i, n - i);
        if (k) memcpy(out + o, s + i, k), o += k, i += k;
        else memcpy(out + o, "\xEF\xBF\xBD", 3), o += 3, i++;
    }
    out[o] = '\0';
    *outlen = o;
    return out;
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
