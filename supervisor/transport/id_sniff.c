/* Find the JSON-RPC id of a message too large to parse, from its first and
 * last bytes only, so the refusal can be addressed to the request that
 * caused it (a client waiting on that id would otherwise hang). Only the
 * unambiguous shapes are accepted: "id" as one of the leading members before
 * any nested value, or as the very last member ("...,"id":7}"). Anything
 * else yields NULL and the error goes out with id null. */
#include "supervisor/transport/id_sniff.h"

#include <ctype.h>
#include <string.h>

/* A number or an escape-free string starting at p; returns its length. */
static size_t scalar_len(const char *p, size_t n) {
    if (n == 0) return 0;
    if (*p == '"') {
        for (size_t i = 1; i < n; i++) {
            if (p[i] == '\\') return 0;
            if (p[i] == '"') return i + 1;
        }
        return 0;
    }
    size_t i = (*p == '-');
    while (i < n && isdigit((unsigned char)p[i])) i++;
    return i > (size_t)(*p == '-') ? i : 0;
}

static json_t *as_id(const char *p, size_t n) {
    json_error_t e;
    json_t *v = json_loadb(p, n, JSON_DECODE_ANY, &e);
    if (v && (json_is_integer(v) || json_is_string(v))) return v;
    json_decref(v);
    return NULL;
}

static size_t skip_ws(const char *p, size_t i, size_t n) {
    while (i < n && isspace((unsigned char)p[i])) i++;
    return i;
}

static json_t *from_head(const char *p, size_t n) {
    size_t i = skip_ws(p, 0, n);
    if (i >= n || p[i++] != '{') return NULL;
    for (int member = 0; member < 8; member++) {
        i = skip_ws(p, i, n);
        size_t kl = scalar_len(p + i, n - i);
        if (kl < 2 || p[i] != '"') return NULL;
        bool is_id = kl == 4 && memcmp(p + i, "\"id\"", 4) == 0;
        i = skip_ws(p, i + kl, n);
        if (i >= n || p[i++] != ':') return NULL;
        i = skip_ws(p, i, n);
        size_t vl = scalar_len(p + i, n - i);
        if (vl == 0) return NULL; /* a nested value: stop, ambiguity ahead */
        size_t end = skip_ws(p, i + vl, n);
        /* The scalar must end there: "1000.5" is not the id 1000, and a
         * number cut off by the end of the head may have more digits. */
        if (end >= n || (p[end] != ',' && p[end] != '}')) return NULL;
        if (is_id) return as_id(p + i, vl);
        i = end;
        if (p[i++] != ',') return NULL;
    }
    return NULL;
}

static json_t *from_tail(const char *p, size_t n) {
    while (n && isspace((unsigned char)p[n - 1])) n--;
    if (!n || p[--n] != '}') return NULL;
    while (n && isspace((unsigned char)p[n - 1])) n--;
    /* The value ends at n: find where it starts. */
    size_t end = n, start;
    if (n && p[n - 1] == '"') {
        start = n - 1;
        while (start > 0 && p[start - 1] != '"') start--;
        if (start == 0) return NULL;
        start--;
    } else {
        start = n;
        while (start > 0 && (isdigit((unsigned char)p[start - 1]) || p[start - 1] == '-')) start--;
    }
    if (start == end || scalar_len(p + start, end - start) != end - start) return NULL;
    size_t i = start;
    while (i && isspace((unsigned char)p[i - 1])) i--;
    if (!i || p[--i] != ':') return NULL;
    while (i && isspace((unsigned char)p[i - 1])) i--;
    if (i < 5 || memcmp(p + i - 4, "\"id\"", 4) != 0) return NULL;
    i -= 4;
    while (i && isspace((unsigned char)p[i - 1])) i--;
    if (!i || (p[i - 1] != ',' && p[i - 1] != '{')) return NULL;
    return as_id(p + start, end - start);
}

json_t *cc_sniff_rpc_id(const char *head, size_t hn, const char *tail, size_t tn) {
    json_t *id = tail ? from_tail(tail, tn) : NULL;
    return id ? id : head ? from_head(head, hn) : NULL;
}
