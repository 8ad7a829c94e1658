/* `codecalc tools [--json]`: the tools this build registers under the
 * current CODECALC_TOOLS, as a table or as JSON (what the SKILL.md test and
 * doctor compare against). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "supervisor/cli/args.h"
#include "protocol/text_knob.h"
#include "supervisor/cli/cli.h"
#include "supervisor/mcp/registry.h"

/* New array of {name, group, title} in registration order. */
json_t *cc_cli_tools_json(const struct cc_registry *reg) {
    json_t *a = json_array();
    for (size_t i = 0; a && i < reg->n; i++) {
        const struct cc_tool *t = reg->e[i].tool;
        json_array_append_new(a, json_pack("{s:s,s:s,s:s?}", "name", t->name, "group", t->group,
                                           "title", t->title));
    }
    return a;
}

/* One line per tool with the size of its tools/list entry, then the total
 * the listing costs a client's context. */
static void print_table(const struct cc_registry *reg) {
    size_t bytes = 0;
    for (size_t i = 0; i < reg->n; i++) {
        const struct cc_tool *t = reg->e[i].tool;
        size_t len = strlen(t->listing);
        bytes += len + (i > 0);
        printf("%-26s %-13s %5zu  %s\n", t->name, t->group, len, t->title);
    }
    printf("%zu tools, %zu bytes of tools/list entries\n", reg->n, bytes);
}

int cc_cli_tools(int argc, char **argv) {
    struct cc_cli_flag flags[] = {{"--json", false, false, NULL}, {NULL, false, false, NULL}};
    if (cc_cli_parse(argc, argv, flags, "usage: codecalc tools [--json]\n") < 0) return 2;
    struct cc_registry reg;
    char err[1024];
    if (cc_registry_load(&reg, cc_text(CC_TEXT_TOOLS), err, sizeof err) < 0) {
        fprintf(stderr, "codecalc: %s\n", err);
        return 2;
    }
    if (flags[0].set) {
        json_t *a = cc_cli_tools_json(&reg);
        char *text = a ? json_dumps(a, JSON_INDENT(2)) : NULL;
        if (text) printf("%s\n", text);
        free(text);
        json_decref(a);
    } else {
        print_table(&reg);
    }
    cc_registry_free(&reg);
    return 0;
}
