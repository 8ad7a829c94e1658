/* verify_translation (TOOLS.md 3.4.3): run a program and its port on the
 * same inputs and classify every pair. A local tool: the supervisor checks
 * the arguments, fans the runs out over the exec pool and compares what
 * came back (docs/verification.md). */
#include <stdlib.h>

#include "supervisor/mcp/local_tools.h"
#include "supervisor/sessions/sessions.h"
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

/* A refusal, graded like every result of this tool (1.14). */
static void refuse(struct cc_req *r, json_t *err) {
    cc_verify_grade(err, false, json_string_value(json_object_get(err, "error")));
    cc_session_answer(r, err);
    json_decref(err);
}

CC_LOCAL_TOOL(verify_translation) {
    json_t *err = NULL;
    const char *src_lang = cc_verify_lang_arg(args, "source_language", &err);
    const char *tgt_lang = src_lang ? cc_verify_lang_arg(args, "target_language", &err) : NULL;
    json_t *inputs = NULL;
    if (tgt_lang && cc_verify_str_arg(args, "source_code", true, &err) &&
        cc_verify_str_arg(args, "target_code", true, &err))
        inputs = cc_verify_inputs_arg(args, "test_inputs", &err);
    if (!inputs) {
        refuse(r, err);
        return;
    }
    struct call *c = calloc(1, sizeof *c);
    struct cc_fanout *fo = c ? cc_fanout_new(srv, r, c, idle, destroy) : NULL;
    if (!fo) {
        free(c);
        json_decref(inputs);
        refuse(r, cc_err("internal", "out of memory"));
        return;
    }
    c->args = json_incref(args);
    if (cc_translation_start(&c->t, fo, src_lang, json_object_get(args, "source_code"), tgt_lang,
                             json_object_get(args, "target_code"), inputs, RUN_TIMEOUT_S) != 0) {
        json_t *e = cc_err("internal", "out of memory");
        cc_verify_grade(e, false, "out of memory");
        cc_fanout_answer(fo, e);
    }
    json_decref(inputs);
}
