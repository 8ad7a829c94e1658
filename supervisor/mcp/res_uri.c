/* Percent-encoding of session-file resource URIs (res_uri.h). */
#include "supervisor/mcp/res_uri.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Bytes a path keeps as they are: RFC 3986 unreserved, the path separator
 * and the sub-delims, ':' and '@' (legal in a path segment). '%', '?' and
 * '#' are not among them: each would change how a URI parser splits it. */
static bool keeps(unsigned char ch) {
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')) return true;
    return ch && strchr("-._~/!$&'()*+,;=:@", ch) != NULL;
}

static int hexval(unsigned char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

static size_t escape_into(char *out, const char *s) {
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (keeps(*p)) {
            out[o++] = (char)*p;
        } else {
            out[o++] = '%';
            out[o++] = hex[*p >> 4];
            out[o++] = hex[*p & 15];
        }
    }
    return o;
}

char *cc_res_uri(const char *sid, const char *rel) {
    size_t pre = strlen(CC_RES_URI_PREFIX), mid = strlen("/files/");
    /* Every byte may take three: the bound is the worst case. */
    char *out = malloc(pre + 3 * strlen(sid) + mid + 3 * strlen(rel) + 1);
    if (!out) return NULL;
    size_t o = pre;
    memcpy(out, CC_RES_URI_PREFIX, pre);
    o += escape_into(out + o, sid);
    memcpy(out + o, "/files/", mid);
    o += mid;
    o += escape_into(out + o, rel);
    out[o] = '\0';
    return out;
}

char *cc_res_uri_unescape(const char *s, size_t n) {
    char *out = malloc(n + 1);
    if (!out) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        int hi = i + 2 < n ? hexval((unsigned char)s[i + 1]) : -1;
        int lo = hi >= 0 ? hexval((unsigned char)s[i + 2]) : -1;
        if (s[i] == '%' && lo >= 0) {
            out[o++] = (char)(hi << 4 | lo);
            i += 2;
        } else {
            out[o++] = s[i];
        }
        if (!out[o - 1]) {
            free(out);
            return NULL;
        }
    }
    out[o] = '\0';
    return out;
}
