/* One prepared box per exec worker, and the deferred destruction of spent
 * ones (see warm.h). */
#include "workers/exec/warm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRAVE_CAP 4

static struct {
    bool enabled;
    bool janitor;
    bool ready;                       /* box + dir below are prepared */
    struct sbx_box box;
    struct cc_rundir dir;
    struct sbx_box boxes[GRAVE_CAP];  /* retired, not yet destroyed */
    int n_boxes;
    struct cc_rundir dirs[GRAVE_CAP];
    int n_dirs;
} warm;

const char *cc_exec_tmp_base(void) {
    const char *t = getenv("TMPDIR");
    return t && *t == '/' ? t : "/tmp";
}

void cc_warm_enable(void) { warm.enabled = true; }

bool cc_warm_take(struct sbx_box *box, struct cc_rundir *dir) {
    if (!warm.ready)
        return false;
    *box = warm.box;
    *dir = warm.dir;
    warm.ready = false;
    return true;
}

void cc_warm_retire_box(struct sbx_box *box) {
    if (box->pid <= 0 && !box->shared)
        return;
    if (warm.enabled && warm.n_boxes < GRAVE_CAP)
        warm.boxes[warm.n_boxes++] = *box;
    else
        sbx_box_destroy(box);
    memset(box, 0, sizeof *box);
    box->pidfd = box->sock = -1;
}

void cc_warm_retire_dir(struct cc_rundir *dir) {
    if (!dir->have_id)
        return;
    /* A failed removal is a visible leak by design (TOOLS.md 1.5). */
    if (warm.enabled && warm.n_dirs < GRAVE_CAP)
        warm.dirs[warm.n_dirs++] = *dir;
    else
        cc_rundir_remove(dir);
    memset(dir, 0, sizeof *dir);
}

static void bury(void) {
    for (int i = 0; i < warm.n_boxes; i++)
        sbx_box_destroy(&warm.boxes[i]);
    for (int i = 0; i < warm.n_dirs; i++)
        cc_rundir_remove(&warm.dirs[i]);
    warm.n_boxes = warm.n_dirs = 0;
}

static void prepare(void) {
    if (cc_rundir_create(cc_exec_tmp_base(), NULL, 0, &warm.dir) != 0)
        return;
    char *why = NULL;
    if (sbx_box_prepare(&warm.box, warm.dir.path, false, &why) != 0) {
        fprintf(stderr, "codecalc exec: cannot prepare a sandbox: %s\n", why ? why : "?");
        free(why);
        cc_rundir_remove(&warm.dir);
        return;
    }
    warm.ready = true;
}

void cc_warm_idle(void) {
    if (!warm.enabled)
        return;
    if (!warm.janitor)
        warm.janitor = cc_janitor_start() == 0;
    bury();
    if (!warm.ready)
        prepare();
}

void cc_warm_shutdown(void) {
    bury();
    if (warm.ready) {
        sbx_box_destroy(&warm.box);
        cc_rundir_remove(&warm.dir);
        warm.ready = false;
    }
}
