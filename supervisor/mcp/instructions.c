/* Server instructions from the registered tools (instructions.h). */
#include "supervisor/mcp/instructions.h"

#include <stdbool.h>
#include <stdlib.h>

#include "protocol/strbuf.h"

/* The headline tools of TOOLS.md 0.1 in the order the text names them,
 * each with what a model needs to pick it. */
static const struct {
    const char *name, *gloss;
} headline[] = {
    {"list_languages", " (what this host can run)"},
    {"execute_code", " (run a program in any language list_languages reports available, in a sandbox, with "
                     "time/memory/output/network limits and an honest verdict OK/RTE/TLE/MLE/OLE)"},
    {"calc_exact", " (exact rational arithmetic: 0.1+0.2 == 0.3 is true)"},
    {"evaluate_expression", " (symbolic math)"},
    {"truth_table", ""},
    {"z3_check", " (SMT-LIB2)"},
    {"solve_linear", ""},
    {"analyze_complexity", " (static big-O estimate)"},
    {"benchmark", " (measured growth with input size)"},
    {"compare_execution", " (one task in several languages)"},
};

static const char *const programmer[] = {"bitop", "float_repr", "int_widths", "base_repr"};

static const char intro[] =
    "codecalc is a universal coding and logic calculator. Call it instead of guessing whenever "
    "a number, a bit pattern, a formula or a program's behaviour matters.\n";

static const char tail[] =
    "Sandbox tier: native. Programs run under this server's own C sandbox (namespaces, "
    "cgroups, seccomp, rlimits). Any limit this host could not apply is named in the result's "
    "`unenforced` list; an empty list means every limit held. Set CODECALC_REQUIRE_NATIVE to "
    "refuse to start where the native tier is unavailable.\n"
    "Every result carries ok and contract_version. A failure is {ok: false, code, error, remedy}: "
    "branch on the stable `code` (validation, runtime_unavailable, timeout, resource_exhausted, "
    "permission_denied, dependency_missing, worker_failure, internal). Output schemas list only "
    "each tool's own fields; input schemas are closed: an argument a schema does not list is "
    "refused.";

/* ", " between items, "Headline tools: " before the first. */
static void item(struct cc_strbuf *sb, bool *first) {
    cc_sb_puts(sb, *first ? "Headline tools: " : ", ");
    *first = false;
}

/* The programmer tools that are registered, as "bitop, float_repr, ...". */
static size_t programmer_list(const struct cc_registry *reg, struct cc_strbuf *sb) {
    size_t n = 0;
    for (size_t i = 0; i < sizeof programmer / sizeof *programmer; i++) {
        if (!cc_registry_find(reg, programmer[i])) continue;
        cc_sb_puts(sb, n++ ? ", " : "");
        cc_sb_puts(sb, programmer[i]);
    }
    return n;
}

char *cc_mcp_instructions(const struct cc_registry *reg) {
    struct cc_strbuf sb, prog;
    cc_sb_init(&sb);
    cc_sb_init(&prog);
    cc_sb_puts(&sb, intro);
    bool first = true;
    for (size_t i = 0; i < sizeof headline / sizeof *headline; i++) {
        if (!cc_registry_find(reg, headline[i].name)) continue;
        item(&sb, &first);
        cc_sb_puts(&sb, headline[i].name);
        cc_sb_puts(&sb, headline[i].gloss);
    }
    if (programmer_list(reg, &prog)) {
        item(&sb, &first);
        cc_sb_puts(&sb, "the programmer tools (");
        cc_sb_put(&sb, prog.data, prog.len);
        cc_sb_puts(&sb, ")");
    }
    if (!first) cc_sb_puts(&sb, ".\n");
    cc_sb_puts(&sb, tail);
    cc_sb_free(&prog);
    return sb.data;
}
