/* Registry: apply CODECALC_TOOLS to the tool table, compile the validators. */
#include "supervisor/mcp/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/flag.h"
#include "protocol/strbuf.h"

const struct cc_tool *cc_tool_lookup(const char *name) {
    for (size_t i = 0; i < cc_tools_count; i++)
        if (strcmp(cc_tools[i].name, name) == 0) return &cc_tools[i];
    return NULL;
}

static int group_bit(const char *g, size_t len) {
    for (int i = 0; cc_tool_groups[i]; i++)
        if (strlen(cc_tool_groups[i]) == len && strncmp(g, cc_tool_groups[i], len) == 0) return i;
    return -1;
}

/* Group bit mask for one CODECALC_TOOLS item (a group or a preset); 0 when
 * unknown. */
static unsigned item_mask(const char *item) {
    int bit = group_bit(item, strlen(item));
    if (bit >= 0) return 1u << bit;
    for (const struct cc_tool_preset *p = cc_tool_presets; p->name; p++) {
        if (strcmp(item, p->name) != 0) continue;
        unsigned m = 0;
        for (const char *g = p->groups; *g;) {
            size_t n = strcspn(g, ",");
            int b = group_bit(g, n);
            if (b >= 0) m |= 1u << b;
            g += n + (g[n] == ',');
        }
        return m;
    }
    return 0;
}

static void known_names(struct cc_strbuf *sb) {
    cc_sb_puts(sb, "Known groups: ");
    for (int i = 0; cc_tool_groups[i]; i++) cc_sb_printf(sb, "%s%s", i ? ", " : "", cc_tool_groups[i]);
    cc_sb_puts(sb, ". Known presets: ");
    for (const struct cc_tool_preset *p = cc_tool_presets; p->name; p++)
        cc_sb_printf(sb, "%s%s", p == cc_tool_presets ? "" : ", ", p->name);
    cc_sb_putc(sb, '.');
}

static int parse_groups(const char *env, unsigned *mask, char *err, size_t errcap) {
    *mask = 0;
    if (!env || strspn(env, " \t\r\n") == strlen(env)) {
        *mask = ~0u;
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
        if (!m) cc_sb_printf(&bad, "%s%s", bad.len ? ", " : "", tok);
        *mask |= m;
    }
    free(copy);
    int rc = 0;
    if (bad.len) {
        struct cc_strbuf known;
        cc_sb_init(&known);
        known_names(&known);
        snprintf(err, errcap, "CODECALC_TOOLS names unknown group(s): %s. %s", bad.data, known.data);
        cc_sb_free(&known);
        rc = -1;
    }
    cc_sb_free(&bad);
    return rc;
}

bool cc_tool_offered(const struct cc_tool *t) {
    if (!(t->flags & CC_TOOL_TEST_ONLY)) return true;
    return cc_flag(CC_FLAG_TEST_OPS);
}

int cc_registry_load(struct cc_registry *r, const char *groups_env, char *err, size_t errcap) {
    memset(r, 0, sizeof *r);
    unsigned mask;
    if (parse_groups(groups_env, &mask, err, errcap) < 0) return -1;
    r->e = calloc(cc_tools_count ? cc_tools_count : 1, sizeof *r->e);
    if (!r->e) return -1;
    for (size_t i = 0; i < cc_tools_count; i++) {
        const struct cc_tool *t = &cc_tools[i];
        int bit = group_bit(t->group, strlen(t->group));
        if (bit < 0 || !(mask & (1u << bit))) continue;
        if (!cc_tool_offered(t)) continue;
        char why[256];
        struct cc_validator *v = cc_validator_compile_text(t->input_schema, why, sizeof why);
        if (!v) {
            snprintf(err, errcap, "tool %s (%s): input schema: %s", t->name, t->source, why);
            cc_registry_free(r);
            return -1;
        }
        r->e[r->n++] = (struct cc_reg_entry){.tool = t, .listing = t->listing, .validator = v};
    }
    return 0;
}

void cc_registry_free(struct cc_registry *r) {
    for (size_t i = 0; i < r->n; i++) cc_validator_free(r->e[i].validator);
    free(r->e);
    memset(r, 0, sizeof *r);
}

const struct cc_reg_entry *cc_registry_find(const struct cc_registry *r, const char *name) {
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->e[i].tool->name, name) == 0) return &r->e[i];
    return NULL;
}
