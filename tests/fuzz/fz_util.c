/* Helpers several targets share. */
#include "tests/fuzz/fz_util.h"

#include <string.h>

#include "protocol/json_convert.h"
#include "protocol/strbuf.h"
#include "tests/fuzz/fz.h"

void fz_check_result(const json_t *r, const char *what) {
    FZ_ASSERT(r != NULL, "%s returned no result (the worker would answer internal)", what);
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    FZ_ASSERT(cc_json_emit(&sb, r) == 0, "%s: result nests too deeply", what);
    FZ_ASSERT(fz_json_valid(sb.data, sb.len), "%s: result is not valid JSON: %.*s", what,
              (int)(sb.len > 2000 ? 2000 : sb.len), sb.data);
    cc_sb_free(&sb);
    json_t *ok = json_object_get(r, "ok");
    FZ_ASSERT(json_is_boolean(ok), "%s: result without ok", what);
    if (json_is_false(ok)) {
        const char *code = json_string_value(json_object_get(r, "code"));
        bool known = false;
        for (int i = 0; code && i < 8; i++) known |= strcmp(code, cc_codes[i]) == 0;
        FZ_ASSERT(known, "%s: failure with code %s", what, code ? code : "(none)");
        FZ_ASSERT(json_is_string(json_object_get(r, "error")), "%s: failure without error", what);
    }
}

json_t *fz_string(const uint8_t *p, size_t n) {
    return json_stringn((const char *)p, n);
}

void fz_tool_on_text(cc_tool_fn tool, const char *name, const char *key, const uint8_t *p, size_t n) {
    json_t *s = fz_string(p, n);
    if (!s) return;
    json_t *args = json_pack("{s:o}", key, s);
    json_t *r = tool(args, NULL);
    fz_check_result(r, name);
    json_decref(r);
    json_decref(args);
}
