/* Registry: collect tool definitions, apply CODECALC_TOOLS, pre-render. */
#include "supervisor/mcp/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/json_convert.h"
#include "protocol/strbuf.h"

extern const struct cc_tool cc_tooldefs_test[];

static const struct cc_tool *const *tables(void) {
    static const struct cc_tool *const t[] = {
        cc_tooldefs_exact, cc_tooldefs_programmer, cc_tooldefs_units_logic,
        cc_tooldefs_symbolic, cc_tooldefs_exec, cc_tooldefs_runs, cc_tooldefs_sessions, NULL,
    };
    static const struct cc_tool *const with_test[] = {
        cc_tooldefs_exact, cc_tooldefs_programmer, cc_tooldefs_units_logic,
        cc_tooldefs_symbolic, cc_tooldefs_exec, cc_tooldefs_runs, cc_tooldefs_sessions, cc_tooldefs_test,
        NULL,
    };
    const char *v = getenv("CODECALC_TEST_OPS");
    return v && strcmp(v, "1") == 0 ? with_test : t;
}

static const char *const groups[] = {"calculator", "verification", "execution",
                                     "sessions", "analysis", "admin", NULL};

/* Group bit mask for one CODECALC_TOOLS item; 0 when unknown. */
static unsigned item_mask(const char *item) {
    for (int i = 0; groups[i]; i++)
        if (strcmp(item, groups[i]) == 0) return 1u << i;
    if (strcmp(item, "core") == 0) return 1u << 0;
    if (strcmp(item, "dev") == 0) return 1u << 0 | 1u << 1 | 1u << 2 | 1u << 4;
    if (strcmp(item, "full") == 0) return 0x3Fu;
    return 0;
}

static int parse_groups(const char *env, unsigned *mask, char *err, size_t errcap) {
    *mask = 0;
    if (!env || strspn(env, " \t\r\n") == strlen(env)) {
        *mask = 0x3Fu;
        return 0;
    }
    char *copy = strdup(env), *save = NULL;
    if (!copy) return -1;
    struct cc_strbuf bad;
    cc_sb_init(&bad);
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ' || *tok == '\t') tok++;
        char *end = tok + strlen(tok);
        while (end > tok && (end[-1] == ' ' || end[-1] == '\t')) *--end = '\0';
        if (!*tok) continue;
        unsigned m = item_mask(tok);
        if (!m) {
            if (bad.len) cc_sb_puts(&bad, ", ");
            cc_sb_puts(&bad, tok);
        }
        *mask |= m;
    }
    free(copy);
    if (bad.len) {
        snprintf(err, errcap,
                 "CODECALC_TOOLS names unknown group(s): %s. Known groups: calculator, "
                 "verification, execution, sessions, analysis, admin. Known presets: core, dev, full.",
                 bad.data);
        cc_sb_free(&bad);
        return -1;
    }
    cc_sb_free(&bad);
    return 0;
}

static int group_bit(const char *g) {
    for (int i = 0; groups[i]; i++)
        if (strcmp(g, groups[i]) == 0) return i;
    return -1;
}

static char *render_listing(const struct cc_tool *t, const json_t *in, const json_t *out) {
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(t->name));
    json_object_set_new(o, "title", json_string(t->title ? t->title : t->name));
    json_object_set_new(o, "description", json_string(t->description ? t->description : ""));
    json_object_set(o, "inputSchema", (json_t *)in);
    json_object_set(o, "outputSchema", (json_t *)out);
    json_t *ann = json_object();
    json_object_set_new(ann, "title", json_string(t->title ? t->title : t->name));
    json_object_set_new(ann, "readOnlyHint", json_boolean(t->hints & CC_HINT_READONLY));
    json_object_set_new(ann, "destructiveHint", json_boolean(t->hints & CC_HINT_DESTRUCTIVE));
    json_object_set_new(ann, "idempotentHint", json_boolean(t->hints & CC_HINT_IDEMPOTENT));
    json_object_set_new(ann, "openWorldHint", json_boolean(t->hints & CC_HINT_OPENWORLD));
    json_object_set_new(o, "annotations", ann);
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    cc_json_emit(&sb, o);
    json_decref(o);
    return cc_sb_take(&sb, NULL);
}

static json_t *parse_schema(const char *text, const char *fallback, const char *tool,
                            const char *which, char *err, size_t errcap) {
    json_error_t je;
    json_t *s = json_loads(text ? text : fallback, 0, &je);
    if (!s || !json_is_object(s) || !json_is_string(json_object_get(s, "type")) ||
        strcmp(json_string_value(json_object_get(s, "type")), "object") != 0) {
        snprintf(err, errcap, "tool %s: malformed %s schema (%s)", tool, which,
                 s ? "type must be \"object\"" : je.text);
        json_decref(s);
        return NULL;
    }
    return s;
}

static const char array_out_schema[] =
    "{\"type\":\"object\",\"properties\":{\"result\":{\"type\":\"array\"}},\"required\":[\"result\"]}";

int cc_registry_load(struct cc_registry *r, const char *groups_env, char *err, size_t errcap) {
    memset(r, 0, sizeof *r);
    unsigned mask;
    if (parse_groups(groups_env, &mask, err, errcap) < 0) return -1;
    size_t cap = 0;
    for (const struct cc_tool *const *tb = tables(); *tb; tb++)
        for (const struct cc_tool *t = *tb; t->name; t++) cap++;
    r->e = calloc(cap ? cap : 1, sizeof *r->e);
    if (!r->e) return -1;
    for (const struct cc_tool *const *tb = tables(); *tb; tb++) {
        for (const struct cc_tool *t = *tb; t->name; t++) {
            int bit = group_bit(t->group ? t->group : "");
            if (bit < 0) {
                snprintf(err, errcap, "tool %s: unknown group '%s'", t->name, t->group ? t->group : "");
                cc_registry_free(r);
                return -1;
            }
            if (!(mask & (1u << bit))) continue;
            json_t *in = parse_schema(t->input_schema, "{\"type\":\"object\"}", t->name, "input", err, errcap);
            json_t *out = in ? parse_schema(t->output_schema ? t->output_schema
                                                             : t->array_result ? array_out_schema : NULL,
                                            "{\"type\":\"object\"}", t->name, "output", err, errcap)
                             : NULL;
            if (!in || !out) {
                json_decref(in);
                cc_registry_free(r);
                return -1;
            }
            struct cc_reg_entry *e = &r->e[r->n++];
            e->tool = t;
            e->input_schema = in;
            e->listing = render_listing(t, in, out);
            json_decref(out);
        }
    }
    return 0;
}

void cc_registry_free(struct cc_registry *r) {
    for (size_t i = 0; i < r->n; i++) {
        json_decref(r->e[i].input_schema);
        free(r->e[i].listing);
    }
    free(r->e);
    memset(r, 0, sizeof *r);
}

const struct cc_reg_entry *cc_registry_find(const struct cc_registry *r, const char *name) {
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->e[i].tool->name, name) == 0) return &r->e[i];
    return NULL;
}
