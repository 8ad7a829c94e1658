#include "supervisor/exec_fanout.h"

#include <stdlib.h>

#include "supervisor/sessions/sessions.h"
#include "workers/common/tool_api.h"

struct fanout {
    cc_fanout_cb cb;
    void *ud;
    json_t *results;
    size_t pending;   /* calls not answered yet, plus one while submitting */
};

struct slot {
    struct fanout *f;
    size_t index;
};

static void settle(struct cc_server *srv, struct fanout *f) {
    if (--f->pending > 0) return;
    f->cb(srv, f->ud, f->results);
    json_decref(f->results);
    free(f);
}

static json_t *no_answer(const char *why) {
    return cc_err("internal", "the exec worker gave no result: %s", why ? why : "unknown reason");
}

static void on_answer(struct cc_server *srv, void *ud, json_t *result, const char *err) {
    struct slot *s = ud;
    struct fanout *f = s->f;
    json_array_set_new(f->results, s->index, result ? json_deep_copy(result) : no_answer(err));
    free(s);
    settle(srv, f);
}

int cc_fanout_exec(struct cc_server *srv, const char *op, json_t *args_list, int deadline_s, cc_fanout_cb cb,
                   void *ud) {
    struct fanout *f = calloc(1, sizeof *f);
    size_t n = json_array_size(args_list);
    if (!f || !(f->results = json_array())) {
        free(f);
        return -1;
    }
    f->cb = cb, f->ud = ud, f->pending = 1;
    for (size_t i = 0; i < n; i++) json_array_append_new(f->results, json_null());
    for (size_t i = 0; i < n; i++) {
        struct slot *s = malloc(sizeof *s);
        if (s) *s = (struct slot){f, i};
        f->pending++;
        if (!s || cc_sub_exec(srv, op, json_array_get(args_list, i), deadline_s, on_answer, s) != 0) {
            free(s);
            json_array_set_new(f->results, i, no_answer("it could not be submitted"));
            f->pending--;
        }
    }
    settle(srv, f);
    return 0;
}
