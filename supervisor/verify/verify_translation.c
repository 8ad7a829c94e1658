/* verify_translation (TOOLS.md 3.4.3): run a program and its port on the
 * same inputs and classify every pair. A local tool: the supervisor checks
 * the arguments, fans the runs out over the exec pool and compares what
 * came back (docs/verification.md). */
#include <stdlib.h>

#include "supervisor/mcp/local_tools.h"
#include "supervisor/sessions/sessions.h"
#include "supervisor/verify/edge_inputs.h"
#include "supervisor/verify/rules.h"
#include "supervisor/verify/translation.h"
#include "workers/common/tool_api.h"

#define RUN_TIMEOUT_S 15

struct call {
    json_t *args;                 /* the programs live here */
    struct cc_translation t;
};

static void idle(struct cc_fanout *fo, void *ud) {
    struct call *c = ud;
    json_t *r = cc_translation_step(&c->t, fo);
    if (!r) return;
    cc_fanout_answer(fo, r);
}

static void destroy(void *ud) {
    struct call *c = ud;
    cc_translation_free(&c->t);
    json_decref(c->args);
    free(c);
}

/* The arguments: both languages and programs, and the inputs (*inputs a
 * new reference). NULL, or the refusal. */
static json_t *read_args(json_t *args, const char **src_lang, const char **tgt_lang, json_t **inputs) {
    json_t *err = NULL;
    if (!(*src_lang = cc_verify_lang_arg(args, "source_language", &err)) ||
        !(*tgt_lang = cc_verify_lang_arg(args, "target_language", &err)) ||
        !cc_verify_str_arg(args, "source_code", true, &err) ||
        !cc_verify_str_arg(args, "target_code", true, &err) ||
        !(*inputs = cc_verify_inputs_arg(args, "test_inputs", &err)))
        return err;
    if (!cc_edges_arg(args, &err) && err) return err;
    return NULL;
}

CC_LOCAL_TOOL(verify_translation) {
    const char *src_lang = NULL, *tgt_lang = NULL;
    json_t *inputs = NULL, *err = read_args(args, &src_lang, &tgt_lang, &inputs);
    struct call *c = err ? NULL : calloc(1, sizeof *c);
    if (c) c->args = json_incref(args);
    struct cc_fanout *fo = cc_fanout_open_shaped(srv, r, c, idle, destroy, err, cc_verify_grade_refusal);
    struct cc_edges edges = {0};
    if (fo && cc_edges_build(&edges, inputs, cc_edges_defaulted(args, "test_inputs"), cc_edges_arg(args, &err)) != 0)
        cc_edges_free(&edges);
    if (fo)
        cc_translation_start(&c->t, fo, src_lang, json_object_get(args, "source_code"), tgt_lang,
                             json_object_get(args, "target_code"), &edges, RUN_TIMEOUT_S);
    json_decref(inputs);
}
