/* One-shot execution: plan, work directory, compile (or cache hit), run,
 * capture, verdict and the envelope. */
#include "workers/exec/execute.h"

#include "protocol/fdio.h"
#include "protocol/host_floor.h"
#include "protocol/knob.h"
#include "protocol/monotonic.h"
#include "protocol/sha256.h"
#include "protocol/utf8.h"

#include "workers/common/program_env.h"
#include "workers/common/tool_api.h"
#include "workers/exec/compile_cache.h"
#include "workers/exec/lang_refusal.h"
#include "workers/exec/languages.h"
#include "workers/exec/warm.h"
#include "workers/sandbox/rundir.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <unistd.h>


/* ---- small utilities --------------------------------------------------- */

int64_t cc_exec_clamp_timeout(int64_t requested, int64_t max_s) {
    if (requested < 1) return 1;
    return requested > max_s ? max_s : requested;
}

uint64_t cc_exec_output_cap(int64_t max_output_kb) {
    /* A result carries each stream twice (text item and structuredContent),
     * JSON-escaped, and MCP clients refuse messages past 10 MiB (the
     * TypeScript SDK's default): 240 KiB per stream keeps even an all-escapes
     * result under that, and far under the 32 MiB worker frame. */
    if (max_output_kb <= 0) return CC_DEFAULT_CAP;
    if (max_output_kb > CC_MAX_OUTPUT_KB) max_output_kb = CC_MAX_OUTPUT_KB;
    return (uint64_t)max_output_kb * 1024;
}

uint64_t cc_exec_compile_memory_bytes(void) {
    return (uint64_t)cc_knob(CC_KNOB_COMPILE_MEMORY_MB) << 20;
}

/* ---- capture ----------------------------------------------------------- */

struct capture {
    char *text;      /* capped, marker appended, valid UTF-8 (owned) */
    size_t len;      /* of text: a program may write NUL bytes */
    bool truncated;
    int64_t bytes;   /* everything the program wrote to the stream */
    /* The captured bytes were not UTF-8 and text holds U+FFFD for some of
     * them: their SHA-256, so that two outputs that differ only in those
     * bytes are not taken for equal (the verification tools); else "". */
    char raw_sha[65];
};

static void capture_free(struct capture *c) {
    free(c->text);
    memset(c, 0, sizeof *c);
}

/* The sandbox kept cap+1 bytes and counted the rest. */
static void capture_take(const struct sbx_stream *s, uint64_t cap, struct capture *c) {
    memset(c, 0, sizeof *c);
    c->bytes = (int64_t)s->total;
    c->truncated = s->total > cap;
    size_t n = s->len > cap ? (size_t)cap : s->len;
    char *buf = malloc(n + sizeof CC_TRUNC_MARKER);
    if (buf) {
        if (n) memcpy(buf, s->data, n);
        if (c->truncated) {
            memcpy(buf + n, CC_TRUNC_MARKER, sizeof CC_TRUNC_MARKER - 1);
            n += sizeof CC_TRUNC_MARKER - 1;
        }
        if (!cc_utf8_valid(buf, n)) cc_sha256_hex(buf, n, c->raw_sha);
        c->text = cc_utf8_repair(buf, n, &c->len);
        free(buf);
    }
    if (!c->text) c->text = strdup(""), c->len = 0;
}

/* The whole capture, NUL bytes included (json_string would stop at the
 * first one, and a verifier would compare only what came before it). */
static json_t *capture_json(const struct capture *c) {
    return json_stringn(c->text ? c->text : "", c->text ? c->len : 0);
}

/* ---- one execution ----------------------------------------------------- */

struct run_ctx {
    const struct cc_exec_req *req;
    const struct cc_lang *lang;
    const struct cc_lang_plan *plan;
    const char *path;          /* runtime PATH */
    char *deciding;            /* the plan's deciding command, resolved on
                                * path when the plan was chosen (owned) */
    struct cc_rundir wd;       /* where the source and a.out live */
    bool have_wd;              /* wd was created */
    const char *cwd;           /* the program's work directory: wd, or the
                                * session workspace that holds wd */
    char io[PATH_MAX];         /* wd as the worker reaches it (session_scratch) */
    int wd_fd;                 /* wd held open, -1 when not */
    struct sbx_box box;        /* the warm box, until a step uses it */
    bool have_box;
    bool cwd_bounded;          /* cwd is a bounded tmpfs (not the host's disk) */
    char *file, *exe;          /* {file}, {exe} */
    bool in_place;             /* {file} is the session's own entry file */
    struct cc_lang_plan own;   /* the plan with its in-place steps, when in_place */
    char own_decide[64];       /* own's deciding command: the original plan's */
    char **envp;               /* program environment (owned) */
    json_t *unenforced;        /* union over the steps (owned) */
    uint64_t cap;
    int64_t t0;
    int stdin_fd;              /* memfd holding stdin, or -1 (empty) */
    int exec_fd;               /* cached artifact executed directly, or -1 */
};

struct step {
    struct sbx_result res;
    int rc;                    /* sbx_box_run's return */
    char *spawn_error;         /* copy kept after res is freed */
    struct capture out, err;
};

static void step_free(struct step *s) {
    sbx_result_free(&s->res);
    free(s->spawn_error);
    capture_free(&s->out);
    capture_free(&s->err);
}

static const char *const env_allow[] = {
    "LANG", "LC_ALL", "JAVA_HOME", "CARGO_HOME", "RUSTUP_HOME", "GOPATH", "GOMODCACHE",
    "SystemRoot", "SYSTEMROOT", "windir", "COMSPEC", "PATHEXT", "TEMP", "TMP", "USERPROFILE",
    "APPDATA", "LOCALAPPDATA", "NUMBER_OF_PROCESSORS", "PROCESSOR_ARCHITECTURE", NULL};

/* Allowlisted variables, then the forced ones: PATH (runtime path),
 * PYTHONUNBUFFERED, HOME = the program's work directory (compilers such as
 * go and rustc need a writable cache dir) and TMPDIR = the run directory
 * (for a session run, its scratch directory): the one place the sandbox uid
 * is sure to be able to write, whatever the host made of /tmp (rustc, go,
 * ghc and mcs put their scratch files there). */
/* node under RLIMIT_AS (no memory cgroup) reserves far more address space
 * than it uses (V8's code range, 128 MiB, plus thread stacks): under 128 MiB
 * it hung (a platform thread that could not start was waited for forever),
 * under 256 or 512 MiB it aborted ("Failed to reserve virtual memory for
 * CodeRange"). Its heap is held at the ceiling by V8's own limit instead
 * (--max-old-space-size through NODE_OPTIONS), and RLIMIT_AS gets this much
 * room past the ceiling for the reservations; the result discloses it. */
#define NODE_AS_EXTRA (1024ull << 20)

static bool bounds_own_heap(const struct cc_lang *l) { return strcmp(l->name, "node") == 0; }

/* java (and kotlin, run by java) and go reserve address space they commit
 * only as they grow: under RLIMIT_AS at the ceiling neither started (java:
 * "Could not reserve enough space for code cache", go: "failed to reserve
 * page summary memory", at 256 MiB), and kotlinc not under the compile
 * budget. Without a memory cgroup they get RLIMIT_DATA at the ceiling
 * (memory they commit, touched or not: stricter than a memory cgroup,
 * which counts what is resident) and this much address space past it (the JVM
 * reserves 1 GiB of class space and 240 MiB of code cache; malloc arenas
 * reserve 64 MiB each); the result discloses it. */
#define RESERVING_AS_EXTRA (4096ull << 20)

static bool reserves_address_space(const struct cc_lang *l) {
    return strcmp(l->name, "java") == 0 || strcmp(l->name, "kotlin") == 0 || strcmp(l->name, "go") == 0;
}

/* A JVM sizes its heap from the machine's memory (its initial heap alone,
 * 1/64 of it, can pass a small ceiling): it is told the ceiling instead,
 * as a memory cgroup would tell it. Inserted after argv[0] when that is
 * java. Returns argv, or NULL when out of memory (argv freed). */
static char **java_max_ram(char **argv, uint64_t mem_bytes) {
    const char *slash = strrchr(argv[0], '/');
    if (!mem_bytes || strcmp(slash ? slash + 1 : argv[0], "java") != 0) return argv;
    size_t n = 0;
    while (argv[n]) n++;
    char **out = calloc(n + 2, sizeof *out);
    char *flag = NULL;
    if (!out || asprintf(&flag, "-XX:MaxRAM=%llum", (unsigned long long)(mem_bytes >> 20)) < 0) {
        free(out);
        cc_argv_free(argv);
        return NULL;
    }
    out[0] = argv[0];
    out[1] = flag;
    for (size_t i = 1; i <= n; i++) out[i + 1] = argv[i];
    free(argv); /* the strings moved to out */
    return out;
}

static char **build_env(const char *path, const char *home, const char *tmp, bool session,
                        const char *py_deps, int64_t node_heap_mb) {
    struct cc_env e = {0};
    cc_env_keep(&e, env_allow);
    cc_env_set(&e, "PATH=%s", path);
    cc_env_set(&e, "HOME=%s", home);
    cc_env_set(&e, "PYTHONUNBUFFERED=1");
    cc_env_set(&e, "TMPDIR=%s", tmp);
    /* A session snippet runs from its private scratch directory: modules
     * beside it in the workspace still import. */
    if (session) cc_env_set(&e, "NODE_PATH=%s", home);
    /* HOME is the workspace, and toolchains keep their caches under
     * ~/.cache (go-build, zig, deno, JNA): one zig run left 810 files
     * there, past the session's artifact cap, so the session refused every
     * later run. A session run's caches live and end with its scratch
     * directory, as a one-shot run's do. */
    if (session) cc_env_set(&e, "XDG_CACHE_HOME=%s/.cache", tmp);
    if (node_heap_mb > 0) cc_env_set(&e, "NODE_OPTIONS=--max-old-space-size=%lld", (long long)node_heap_mb);
    if (session || py_deps)
        cc_env_set(&e, "PYTHONPATH=%s%s%s", py_deps ? py_deps : "", py_deps && session ? ":" : "",
                   session ? home : "");
    return cc_env_take(&e);
}

/* node_modules beside the program: the run's dependency environment. */
static int link_node_modules(const char *dir_io, const char *view) {
    char link[PATH_MAX + 16], target[PATH_MAX];
    snprintf(link, sizeof link, "%s/node_modules", dir_io);
    snprintf(target, sizeof target, "%s/node_modules", view);
    return symlink(target, link);
}

/* One entry per limit ("name: why"): a later step's entry replaces an
 * earlier one of the same name (the compile and run steps of a non-root
 * server each report their own RLIMIT_NPROC figure; the run's is kept). */
static void add_unenforced(json_t *list, const struct sbx_result *r) {
    for (size_t i = 0; r->unenforced && r->unenforced[i]; i++) {
        const char *u = r->unenforced[i], *colon = strchr(u, ':');
        size_t name_len = colon ? (size_t)(colon - u) + 1 : strlen(u) + 1;
        size_t j, at = json_array_size(list);
        json_t *e;
        json_array_foreach(list, j, e)
            if (strncmp(json_string_value(e), u, name_len) == 0) at = j;
        if (at < json_array_size(list)) json_array_set_new(list, at, json_string(u));
        else json_array_append_new(list, json_string(u));
    }
}

/* The program's limits; compilation has its own memory budget (the
 * program's ceiling is for the program, docs/languages.md). */
static struct sbx_limits step_limits(const struct cc_exec_req *q, int64_t wall_ms, bool compile) {
    struct sbx_limits l = {.wall_ms = wall_ms, .nofile = 256, .no_net = q->no_net,
                           .fsize_bytes = SBX_FSIZE_DEFAULT};
    l.cpu_s = q->max_cpu > 0 ? q->max_cpu : q->timeout + 8;
    if (compile)
        l.mem_bytes = cc_exec_compile_memory_bytes();
    else if (q->max_memory_mb > 0 && q->max_memory_mb < (1ll << 21))
        l.mem_bytes = (uint64_t)q->max_memory_mb << 20;
    l.pids_max = (uint64_t)cc_knob(CC_KNOB_MAX_PROCESSES);
    return l;
}

struct output_relay {
    const struct cc_exec_hooks *h;
    const char *phase;
};

static void relay_output(void *ud, int stream, const char *data, size_t len) {
    struct output_relay *o = ud;
    o->h->on_output(o->h->ud, o->phase, stream, data, len);
}

/* The box for a step: the warm one while it is unused, else a fresh one. */
static int take_box(struct run_ctx *x, struct sbx_box *box, char **why) {
    if (x->have_box) {
        *box = x->box;
        x->have_box = false;
        return 0;
    }
    return sbx_box_prepare(box, x->cwd, x->req->no_net, why);
}

/* Run argv (argv[0] resolved) as one step; st is always filled. */
static void run_step(struct run_ctx *x, const char *phase, char **argv, int64_t wall_ms,
                     struct step *st) {
    memset(st, 0, sizeof *st);
    bool is_run = strcmp(phase, "run") == 0;
    const struct cc_exec_hooks *h = x->req->hooks;
    struct output_relay relay = {.h = h, .phase = phase};
    struct sbx_capture cap = {.keep = x->cap + 1};
    if (h && h->on_output) cap.on_output = relay_output, cap.ud = &relay;
    struct sbx_spec spec = {
        .argv = (const char *const *)argv, .envp = (const char *const *)x->envp,
        .workdir = x->cwd, .stdin_fd = is_run ? x->stdin_fd : -1,
        .stdout_fd = -1, .stderr_fd = -1, .exec_fd = is_run ? x->exec_fd : -1, .capture = &cap,
        .lim = step_limits(x->req, wall_ms, !is_run),
        .tick = h ? h->tick : NULL, .tick_ud = h ? h->ud : NULL, .tick_ms = h ? h->tick_ms : 0};
    /* A directory on the host's disk (a workspace, or a run directory no
     * tmpfs bounds) is watched instead: the run may not take the host's
     * disk below the floor session writes keep (TOOLS.md 4.6). */
    if (!x->cwd_bounded) spec.lim.disk_floor_bytes = cc_host_floor_bytes();
    if (is_run && bounds_own_heap(x->lang) && spec.lim.mem_bytes) spec.lim.as_extra_bytes = NODE_AS_EXTRA;
    /* Both steps: kotlinc is a JVM too. */
    if (reserves_address_space(x->lang) && spec.lim.mem_bytes) {
        spec.lim.data_ceiling = true;
        spec.lim.as_extra_bytes = RESERVING_AS_EXTRA;
    }
    if (h && h->step_start) h->step_start(h->ud, phase);
    struct sbx_box box;
    char *why = NULL;
    if (take_box(x, &box, &why) != 0) {
        st->rc = -1;
        st->spawn_error = why ? why : strdup("sandbox: cannot prepare a box");
        st->res.peak_kb = -1;
        return;
    }
    st->rc = sbx_box_run(&box, &spec, &st->res);
    if (x->req->timing && is_run) {
        x->req->timing->given_us = box.t_given_us;
        x->req->timing->sbx = st->res.timing;
    }
    cc_warm_retire_box(&box);
    if (st->res.spawn_error) st->spawn_error = strdup(st->res.spawn_error);
    add_unenforced(x->unenforced, &st->res);
    capture_take(&st->res.out, x->cap, &st->out);
    capture_take(&st->res.err, x->cap, &st->err);
}

/* ---- results ----------------------------------------------------------- */

static json_t *rejected(const char *code, char *msg) {
    json_t *r = cc_err(code, "%s", msg ? msg : "out of memory");
    json_object_set_new(r, "backend", json_string("native"));
    free(msg);
    return r;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...) {
    char *s = NULL;
    va_list ap;
    va_start(ap, f);
    if (vasprintf(&s, f, ap) < 0) s = NULL;
    va_end(ap);
    return s;
}

/* The 21 keys with "nothing ran" values; callers overwrite what they know. */
static json_t *envelope_base(const struct run_ctx *x, const char *phase) {
    return json_pack(
        "{s:b, s:s, s:s, s:s, s:s, s:s, s:s, s:n, s:b, s:s, s:b, s:n, s:n, s:n, s:I, s:I, s:I, "
        "s:I, s:n, s:O, s:s}",
        "ok", 0, "language", x->lang->name, "phase", phase, "backend", "native", "platform",
#ifdef __linux__
        "linux",
#else
        "unknown",
#endif
        "stdout", "", "stderr", "", "exit_code", "timed_out", 0, "verdict", "RTE",
        "output_truncated", 0, "output_error", "stdout_bytes", "stderr_bytes", "duration_ms",
        (json_int_t)0, "compile_ms", (json_int_t)0, "total_ms", (json_int_t)(cc_now_ms() - x->t0),
        "cpu_ms", (json_int_t)0, "peak_memory_kb", "unenforced", x->unenforced, "workdir",
        x->have_wd ? x->cwd : "");
}

static json_t *bytes_json(int64_t n) { return n < 0 ? json_null() : json_integer(n); }

/* What runtimes print when an allocation failed (read from stderr's end).
 * The first that matches is named in the reason: java's before python's,
 * which is a part of it ("java.lang.OutOfMemoryError" read "MemoryError"). */
static const char *const alloc_failure_marks[] = {
    "java.lang.OutOfMemoryError", "MemoryError", "std::bad_alloc",
    "JavaScript heap out of memory", "runtime: out of memory", "memory allocation of ",
    "out of memory", "Out of memory!", "Out of memory during ",
    "insufficient memory for the Java Runtime Environment", NULL};

static const char *alloc_failure(const struct step *s) {
    const struct sbx_result *r = &s->res;
    if (r->exited && r->exit_code == 0) return NULL;
    const char *t = s->err.text ? s->err.text : "";
    size_t n = s->err.text ? s->err.len : 0;
    size_t from = n > 4096 ? n - 4096 : 0;
    for (const char *const *m = alloc_failure_marks; *m; m++)
        if (memmem(t + from, n - from, *m, strlen(*m))) return *m;
    /* go prints its fatal error first and every goroutine's stack after
     * it, which pushes the line out of the last 4 KiB: that line, written
     * by the runtime as it dies, is looked for anywhere. */
    static const char go_fatal[] = "fatal error: runtime: out of memory";
    if (memmem(t, n, go_fatal, sizeof go_fatal - 1)) return "runtime: out of memory";
    return NULL;
}

/* No memory cgroup: RLIMIT_AS held the ceiling, and a death by a signal
 * with a peak of half the ceiling or more is the best evidence there is
 * that the ceiling ended the program (peak_kb is then the largest
 * process's peak RSS, as RLIMIT_AS is per process too). */
static bool died_near_rlimit_as(const struct cc_exec_req *q, const struct sbx_result *r) {
    return !r->exited && !r->mem_enforced && q->max_memory_mb > 0 &&
           q->max_memory_mb < (1ll << 40) && r->peak_kb >= q->max_memory_mb * 1024 / 2;
}

/* Whether the ceiling can make an allocation fail (rather than end the
 * program through the OOM killer). Without a memory cgroup rlimits hold it,
 * and an allocation past them fails. Under a memory cgroup nothing refuses
 * an allocation for the ceiling's sake: past it the OOM killer ends the
 * program (SBX_KILL_MEMORY), and an allocation the kernel refuses is
 * refused whatever the ceiling (a request beyond the host's memory). Only
 * a runtime that sizes its own heap from the ceiling then reports an
 * allocation failure because of it: V8 (--max-old-space-size), the JVM
 * (-XX:MaxRAM, and its container support reading the cgroup: java, kotlin
 * and kotlinc), .NET (a hard heap limit read from the cgroup). A python
 * program printing "out of memory" and exiting 1 under a 256 MiB ceiling
 * at a peak of 3 MiB was MLE, "an allocation failed ... under the memory
 * ceiling". */
static bool ceiling_fails_allocations(const struct cc_lang *l, const struct sbx_result *r) {
    static const char *const sized_from_ceiling[] = {"node", "java", "kotlin", "csharp", NULL};
    if (!r->mem_enforced) return true;
    for (const char *const *n = sized_from_ceiling; *n; n++)
        if (strcmp(l->name, *n) == 0) return true;
    return false;
}

/* Verdict of one step: TOOLS.md 1.4 as amended (docs/languages.md
 * "Verdicts"): the memory cgroup's OOM kill or an allocation failure the
 * ceiling caused (blamed: ceiling_fails_allocations) is MLE. */
static const char *classify(const struct cc_exec_req *q, const struct step *s, bool truncated,
                            bool compile, bool blamed) {
    const struct sbx_result *r = &s->res;
    if (r->timed_out) return "TLE";
    if (truncated) return "OLE";
    if (r->killed_by == SBX_KILL_MEMORY) return "MLE";
    /* An allocation failure is the ceiling's doing only where there is
     * one that can refuse it; without, it is the program's own error (a
     * MemoryError it raised itself, a request no machine could grant): RTE. */
    if (alloc_failure(s) && blamed && step_limits(q, 1, compile).mem_bytes > 0) return "MLE";
    if (died_near_rlimit_as(q, r)) return "MLE";
    return !r->exited || r->exit_code != 0 ? "RTE" : "OK";
}

static json_t *signal_json(int sig) {
    const char *abbrev = sigabbrev_np(sig);
    char name[32];
    snprintf(name, sizeof name, "SIG%s", abbrev ? abbrev : "UNKNOWN");
    return json_pack("{s:i, s:s}", "number", sig, "name", name);
}

/* One line on why the step ended the way it did; NULL for a plain exit. */
static char *reason(const struct cc_exec_req *q, const struct step *s, int64_t wall_ms,
                    bool compile, bool blamed) {
    const struct sbx_result *r = &s->res;
    uint64_t mem = step_limits(q, wall_ms, compile).mem_bytes >> 20;
    const char *sig = r->term_signal ? sigabbrev_np(r->term_signal) : NULL;
    switch (r->killed_by) {
    case SBX_KILL_TIMEOUT:
        return fmt("killed by the sandbox (SIGKILL): wall-clock timeout of %lld ms exceeded",
                   (long long)wall_ms);
    case SBX_KILL_CANCEL: return fmt("killed by the sandbox (SIGKILL): the call was cancelled");
    case SBX_KILL_MEMORY:
        return fmt("killed by the sandbox (SIG%s): the memory ceiling of %llu MiB was exceeded "
                   "(out-of-memory kill)%s", sig ? sig : "KILL", (unsigned long long)mem,
                   compile ? "; it is the compile step's budget, CODECALC_COMPILE_MEMORY_MB" : "");
    case SBX_KILL_DISK:
        return fmt("killed by the sandbox (SIGKILL): the host's disk under the %s fell below "
                   "%llu MiB free (CODECALC_MIN_HOST_FREE_MB)", q->workdir ? "workspace" : "run directory",
                   (unsigned long long)(cc_host_floor_bytes() >> 20));
    case SBX_KILL_OUTPUT:
        return fmt("killed by the sandbox (SIGKILL): more than %llu MiB of output",
                   (unsigned long long)(SBX_DRAIN_DEFAULT >> 20));
    case SBX_KILL_NONE: break;
    }
    const char *mark = alloc_failure(s);
    if (!blamed) mem = 0; /* the ceiling refused nothing (classify) */
    if (mark && !r->term_signal && compile && mem)
        return fmt("an allocation failed (%s) under the compile step's memory budget of %llu MiB "
                   "(CODECALC_COMPILE_MEMORY_MB)", mark, (unsigned long long)mem);
    if (mark && !r->term_signal)
        return fmt("an allocation failed (%s)%s", mark, mem ? " under the memory ceiling" : "");
    if (!r->term_signal) return NULL;
    if (r->term_signal == SIGXCPU)
        return fmt("killed by SIGXCPU: the CPU time limit was exceeded");
    if (r->term_signal == SIGXFSZ)
        return fmt("killed by SIGXFSZ: a file grew past the %llu MiB file-size ceiling",
                   (unsigned long long)(SBX_FSIZE_DEFAULT >> 20));
    if (!compile && died_near_rlimit_as(q, r))
        return fmt("killed by SIG%s at a peak of %lld MiB: the memory ceiling of %lld MiB was "
                   "reached (an address-space limit: no memory cgroup here)", sig ? sig : "?",
                   (long long)(r->peak_kb >> 10), (long long)q->max_memory_mb);
    const char *d = sigdescr_np(r->term_signal);
    return fmt("killed by SIG%s (%s)%s", sig ? sig : "?", d ? d : "signal",
               mark ? "; an allocation had failed" : "");
}

/* The writable places the program ran out of space or files in (it got
 * ENOSPC there), named, with their bounds, in space_exhausted and reason. */
static json_t *space_json(const struct run_ctx *x, unsigned full) {
    json_t *a = json_array();
    if (!a) return NULL;
    if (full & SBX_FULL_WORKDIR)
        json_array_append_new(a, json_string(x->cwd_bounded ? "run_directory" : "workspace"));
    if (full & SBX_FULL_TMP) json_array_append_new(a, json_string("tmp"));
    if (full & SBX_FULL_SHM) json_array_append_new(a, json_string("dev_shm"));
    return a;
}

static char *space_reason(const struct run_ctx *x, unsigned full) {
    if (full & SBX_FULL_WORKDIR)
        return !x->cwd_bounded
                   ? fmt("the host's disk holding the %s is full (ENOSPC)",
                         x->req->workdir ? "workspace" : "run directory")
                   : fmt("the run directory's bound was reached (ENOSPC): %llu MiB or %llu files "
                         "(CODECALC_RUN_DISK_MB, CODECALC_RUN_INODES)",
                         (unsigned long long)(sbx_scratch_bytes() >> 20),
                         (unsigned long long)sbx_scratch_inodes());
    if (full & SBX_FULL_TMP)
        return fmt("/tmp's bound was reached (ENOSPC): %u MiB or %u files", SBX_TMP_MB, SBX_TMP_INODES);
    return fmt("/dev/shm's bound was reached (ENOSPC): %u MiB or %u files", SBX_SHM_MB, SBX_SHM_INODES);
}

/* Envelope for a step that ran (compile failure or the run step). */
static json_t *step_envelope(const struct run_ctx *x, const char *phase, const struct step *s,
                             int64_t compile_ms, int64_t wall_ms) {
    const struct sbx_result *r = &s->res;
    bool truncated = s->out.truncated || s->err.truncated;
    bool ok = r->exited && r->exit_code == 0 && !r->timed_out;
    /* codecalc's own note only when the program left stderr empty. */
    bool note = r->timed_out && s->err.bytes <= 0;
    json_t *e = envelope_base(x, phase);
    if (!e) return NULL;
    json_object_set_new(e, "ok", json_boolean(ok));
    json_object_set_new(e, "stdout", capture_json(&s->out));
    json_object_set_new(e, "stderr", note ? json_string(CC_TIMEOUT_TEXT) : capture_json(&s->err));
    json_object_set_new(e, "exit_code", r->exited ? json_integer(r->exit_code) : json_null());
    json_object_set_new(e, "timed_out", json_boolean(r->timed_out));
    bool blamed = ceiling_fails_allocations(x->lang, r);
    json_object_set_new(e, "verdict",
                        json_string(classify(x->req, s, truncated, strcmp(phase, "compile") == 0, blamed)));
    json_object_set_new(e, "output_truncated", json_boolean(truncated));
    json_object_set_new(e, "stdout_bytes", bytes_json(s->out.bytes));
    if (s->out.raw_sha[0]) json_object_set_new(e, "stdout_sha256", json_string(s->out.raw_sha));
    json_object_set_new(e, "stderr_bytes", bytes_json(s->err.bytes));
    json_object_set_new(e, "duration_ms", json_integer(r->wall_ms));
    json_object_set_new(e, "compile_ms", json_integer(compile_ms));
    json_object_set_new(e, "cpu_ms", json_integer(r->cpu_ms));
    json_object_set_new(e, "peak_memory_kb", bytes_json(r->peak_kb));
    if (r->cancelled) json_object_set_new(e, "cancelled", json_true());
    if (r->term_signal) json_object_set_new(e, "signal", signal_json(r->term_signal));
    char *why = reason(x->req, s, wall_ms, strcmp(phase, "compile") == 0, blamed);
    /* The disk watch's kill: the workdir's filesystem ran out of the space
     * a run may take (its floor), whether or not it was found full. */
    unsigned full = r->space_full | (r->killed_by == SBX_KILL_DISK ? SBX_FULL_WORKDIR : 0u);
    if (full) {
        json_object_set_new(e, "space_exhausted", space_json(x, full));
        if (!why) why = space_reason(x, full);
    }
    if (why) json_object_set_new(e, "reason", json_string(why));
    free(why);
    return e;
}

/* A step that never started: the "nothing ran" envelope that also carries
 * code/error/remedy, with stderr = error (TOOLS.md 3.1.1). Takes msg;
 * remedy NULL = the code's default. */
static json_t *unstarted(const struct run_ctx *x, const char *phase, const char *code, char *msg,
                         const char *remedy, int64_t compile_ms) {
    json_t *e = envelope_base(x, phase), *c = cc_err(code, "%s", msg ? msg : "");
    if (remedy) json_object_set_new(c, "remedy", json_string(remedy));
    if (!e) {
        free(msg);
        return c;
    }
    json_object_set_new(e, "stderr", json_string(msg ? msg : ""));
    json_object_set_new(e, "compile_ms", json_integer(compile_ms));
    json_object_update(e, c);
    json_decref(c);
    free(msg);
    return e;
}

/* runtime_unavailable; a language no registry here provides says why. */
static json_t *unavailable(const struct run_ctx *x, const char *phase, const char *argv0,
                           const char *reason, int64_t compile_ms) {
    const char *nowhere = cc_lang_nowhere(x->lang);
    char *msg = nowhere
        ? fmt("runtime unavailable for the %s phase of '%s': '%s' (%s): %s", phase, x->lang->name,
              argv0, reason, nowhere)
        : fmt("runtime unavailable for the %s phase of '%s': '%s' (%s)", phase, x->lang->name,
              argv0, reason);
    return unstarted(x, phase, "runtime_unavailable", msg, NULL, compile_ms);
}

/* execve refused for lack of processes (EAGAIN: the sandbox uid is at its
 * RLIMIT_NPROC, which only holds where no pids cgroup does): the runtime is
 * installed, so "install the runtime" would mislead. Same envelope as
 * runtime_unavailable (verdict RTE, TOOLS.md 1.4 rule 4), its own code. */
static json_t *not_started(const struct run_ctx *x, const char *phase, const char *argv0,
                           const char *reason, int64_t compile_ms) {
    return unstarted(x, phase, "resource_exhausted",
                     fmt("the %s phase of '%s' could not be started: '%s' (%s); the sandbox user "
                         "is at its process limit on this host, so nothing of the program ran",
                         phase, x->lang->name, argv0, reason),
                     "retry when fewer runs are active on this host (their processes count "
                     "against the same limit)", compile_ms);
}

/* The run step never started because compiling used the whole budget (1.7). */
static json_t *budget_exhausted(const struct run_ctx *x, int64_t compile_ms) {
    json_t *e = envelope_base(x, "run");
    if (!e) return NULL;
    json_object_set_new(e, "stderr", json_string(CC_TIMEOUT_TEXT));
    json_object_set_new(e, "timed_out", json_true());
    json_object_set_new(e, "verdict", json_string("TLE"));
    json_object_set_new(e, "compile_ms", json_integer(compile_ms));
    json_object_set_new(e, "peak_memory_kb", json_integer(0));
    json_object_set_new(e, "unenforced", json_array());
    return e;
}

/* ---- orchestration ----------------------------------------------------- */

static int write_file(const char *path, const char *data, size_t len) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) return -1;
    if (cc_write_all(fd, data, len) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return close(fd);
}

/* name ends in "." ext */
static bool has_extension(const char *name, const char *ext) {
    size_t n = strlen(name), e = strlen(ext);
    return n > e + 1 && name[n - e - 1] == '.' && strcmp(name + n - e, ext) == 0;
}

/* A session run's scratch directory: a fresh hidden directory inside the
 * workspace (the one tree the sandbox mounts), so the source, a.out and
 * anything else of the runner's never land on the user's files (issue 11 item 1). The
 * worker reaches it only through /proc/self/fd/N: the workspace belongs to
 * the program, and a concurrent run of the same session could swap the
 * directory's name for a symlink, which the descriptor cannot follow. */
static int session_scratch(struct run_ctx *x, const char *workspace) {
    char name[64], nonce[17];
    unsigned char b[8];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) return -1;
    for (size_t i = 0; i < sizeof b; i++) snprintf(nonce + 2 * i, 3, "%02x", b[i]);
    snprintf(name, sizeof name, CC_SESSION_SCRATCH_PREFIX "%s", nonce);
    int ws = open(workspace, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (ws < 0) return -1;
    int fd = -1;
    struct stat st;
    if (mkdirat(ws, name, 0700) == 0) {
        fd = openat(ws, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0 && (fstat(fd, &st) != 0 ||
                        (geteuid() == 0 && fchown(fd, SBX_RUN_UID, SBX_RUN_GID) != 0))) {
            close(fd);
            fd = -1;
        }
        if (fd < 0) unlinkat(ws, name, AT_REMOVEDIR);
    }
    int e = errno;
    close(ws);
    errno = e;
    if (fd < 0) return -1;
    int n = snprintf(x->wd.path, sizeof x->wd.path, "%s/%s", workspace, name);
    if (n < 0 || (size_t)n >= sizeof x->wd.path) {
        close(fd);
        errno = ENAMETOOLONG;
        return -1;
    }
    x->wd.dev = st.st_dev;
    x->wd.ino = st.st_ino;
    x->wd.have_id = true;
    x->wd_fd = fd;
    snprintf(x->io, sizeof x->io, "/proc/self/fd/%d", fd);
    return 0;
}

/* stdin lives in memory (a sealed-size memfd, rewound), never in the run
 * directory: -1 (the program reads /dev/null) when empty. */
static int stdin_memfd(const char *data, size_t len) {
    if (!data || len == 0) return -1;
    int fd = memfd_create("codecalc-stdin", MFD_CLOEXEC);
    if (fd < 0) return -2;
    if (cc_write_all(fd, data, len) != 0 || lseek(fd, 0, SEEK_SET) != 0) {
        close(fd);
        return -2;
    }
    return fd;
}

/* Work directory (the warm one when there is one), paths, environment and
 * stdin. NULL on success, else the rejected result. */
static json_t *prepare(struct run_ctx *x) {
    const struct cc_exec_req *q = x->req;
    bool session = q->workdir != NULL;
    if (session) {
        /* A session workspace: the program's work directory, kept (1.5). */
        if (session_scratch(x, q->workdir) != 0)
            return rejected("internal", fmt("cannot create a scratch directory in %s: %s",
                                            q->workdir, strerror(errno)));
        x->cwd = q->workdir;
        /* A caller's run directory (execute_python) may be bounded already. */
        struct statfs fs;
        x->cwd_bounded = statfs(q->workdir, &fs) == 0 && fs.f_type == TMPFS_MAGIC;
    } else {
        if (cc_warm_take(&x->box, &x->wd)) {
            x->have_box = true;
        } else if (cc_rundir_create(cc_exec_tmp_base(), NULL, 0, &x->wd) != 0) {
            return rejected("internal", fmt("cannot create a work directory in %s: %s",
                                            cc_exec_tmp_base(), strerror(errno)));
        }
        x->cwd = x->wd.path;
        x->cwd_bounded = x->wd.bounded;
        memcpy(x->io, x->wd.path, sizeof x->io);
        cc_exec_disclose_unbound(x->unenforced, &x->wd);
    }
    x->have_wd = true;
    x->in_place = session && q->entry && has_extension(q->entry, x->lang->ext);
    if (x->in_place && (x->plan->in_place_compile || x->plan->in_place_run)) {
        x->own = *x->plan;
        /* the steps start with bash; the command that chose the plan
         * (go, java) still decides it */
        x->own.decide = cc_plan_deciding(x->plan, x->own_decide, sizeof x->own_decide);
        x->own.extra_tool = "bash";
        if (x->own.in_place_compile) x->own.compile = x->own.in_place_compile;
        if (x->own.in_place_run) x->own.run = x->own.in_place_run;
        x->plan = &x->own;
    }
    if (x->in_place ? asprintf(&x->file, "%s/%s", q->workdir, q->entry) < 0
                    : asprintf(&x->file, "%s/main.%s", x->wd.path, x->lang->ext) < 0)
        x->file = NULL;
    if (asprintf(&x->exe, "%s/a.out", x->wd.path) < 0) x->exe = NULL;
    int64_t node_heap_mb = bounds_own_heap(x->lang) ? (int64_t)(step_limits(q, 1, false).mem_bytes >> 20) : 0;
    x->envp = build_env(x->path, x->cwd, x->wd.path, session, q->deps_node ? NULL : q->deps_view, node_heap_mb);
    if (q->deps_view && q->deps_node && link_node_modules(x->io, q->deps_view) != 0)
        return rejected("internal", fmt("cannot place node_modules beside the program: %s", strerror(errno)));
    if (!x->file || !x->exe || !x->envp)
        return rejected("internal", fmt("executor failed: out of memory"));
    x->stdin_fd = stdin_memfd(q->stdin_data, q->stdin_len);
    if (x->stdin_fd == -2)
        return rejected("internal", fmt("executor failed: cannot hold stdin: %s", strerror(errno)));
    return NULL;
}

/* The source, written as the worker reaches the directory (x->io); a
 * session entry run in place is already there. */
static json_t *write_source(struct run_ctx *x) {
    const struct cc_exec_req *q = x->req;
    if (x->in_place) return NULL;
    char *file_io = NULL;
    if (asprintf(&file_io, "%s/main.%s", x->io, x->lang->ext) < 0)
        return rejected("internal", fmt("executor failed: out of memory"));
    int rc = write_file(file_io, q->code ? q->code : "", q->code ? q->code_len : 0);
    free(file_io);
    if (rc != 0)
        return rejected("internal", fmt("failed to write source to %s: %s", x->file, strerror(errno)));
    return NULL;
}

/* The compile step left a regular file at {exe} (seen by the worker's
 * path to the run directory). */
static bool built_here(const struct run_ctx *x) {
    char exe_io[PATH_MAX + 8];
    struct stat st;
    int n = snprintf(exe_io, sizeof exe_io, "%s/a.out", x->io);
    return n > 0 && (size_t)n < sizeof exe_io && lstat(exe_io, &st) == 0 && S_ISREG(st.st_mode);
}

/* argv for a template with argv[0] resolved on the runtime PATH (or kept
 * as is when the artifact runs from its cache fd). On a missing runtime
 * *result is the runtime_unavailable envelope. */
static char **resolve_step(struct run_ctx *x, const char *tmpl, const char *phase,
                           int64_t compile_ms, json_t **result) {
    char **argv = cc_plan_argv(tmpl, x->file, x->exe, x->wd.path);
    if (!argv || !argv[0]) {
        cc_argv_free(argv);
        *result = rejected("internal", fmt("executor failed: cannot build the %s command", phase));
        return NULL;
    }
    if (x->exec_fd >= 0 && strcmp(phase, "run") == 0) return argv;
    /* The program just built runs from the run directory, which the sandbox
     * mounts: the host directories above a session's workspace (a root
     * server's /root/.codecalc, mode 0700) need not be searchable by the
     * sandbox uid, as a runtime's must. It was "runtime unavailable ...
     * a.out (not found in PATH)" for every compiled session run. */
    if (strcmp(argv[0], x->exe) == 0 && built_here(x)) return argv;
    /* The command that chose the plan was resolved a moment ago. */
    char word[64];
    char *abs = x->deciding && strcmp(argv[0], cc_plan_deciding(x->plan, word, sizeof word)) == 0
                    ? strdup(x->deciding) : cc_resolve_cmd(argv[0], x->path);
    if (!abs) {
        *result = unavailable(x, phase, argv[0], "not found in PATH", compile_ms);
        cc_argv_free(argv);
        return NULL;
    }
    free(argv[0]);
    argv[0] = abs;
    return argv;
}

/* A step that did not produce an envelope of its own: executor failure or
 * spawn failure. NULL when the step ran. */
static json_t *step_failure(struct run_ctx *x, const char *phase, char **argv, struct step *s,
                            int64_t compile_ms) {
    /* A failed execve means the runtime cannot be spawned, whichever way the
     * sandbox reports it; anything else before the start is ours. */
    bool exec_failed = !s->res.started && s->spawn_error && strstr(s->spawn_error, "execve");
    if (s->rc != 0 && !exec_failed)
        return rejected("internal", fmt("executor failed: %s", s->spawn_error ? s->spawn_error : "unknown"));
    if (exec_failed && s->res.spawn_errno == EAGAIN)
        return not_started(x, phase, argv[0], s->spawn_error, compile_ms);
    if (!s->res.started)
        return unavailable(x, phase, argv[0], s->spawn_error ? s->spawn_error : "could not be spawned",
                           compile_ms);
    return NULL;
}

/* A cached artifact: run straight from the cache when it is the program
 * itself and the program cannot write it (another uid), else copied into
 * the work directory. 1 = hit, 0 = miss. */
static int use_cached(struct run_ctx *x, const char *dir, const char *key, const char *art) {
    int fd = cc_cache_open(dir, key);
    if (fd < 0) return 0;
    bool direct = strcmp(x->plan->run, "{exe}") == 0 && strcmp(x->plan->artifact, "{exe}") == 0 &&
                  sbx_probe()->root;
    if (direct) {
        x->exec_fd = fd;
        return 1;
    }
    int rc = cc_cache_copy(fd, art);
    close(fd);
    return rc == 0;
}

/* Compile step with the compile cache: a hit writes no source and starts
 * no compiler. Returns NULL to go on to the run step, else the final
 * result. *compile_ms, *cached are set. */
static json_t *compile(struct run_ctx *x, int64_t *compile_ms, bool *cached) {
    const struct cc_lang_plan *p = x->plan;
    json_t *result = NULL;
    char **argv = resolve_step(x, p->compile, "compile", 0, &result);
    if (!argv) return result;
    char key[65], *dir = NULL, **art = NULL, *exe_io = NULL;
    bool keyed = false;
    /* The cache copies the artifact in and out as the worker: by x->io. */
    if (asprintf(&exe_io, "%s/a.out", x->io) < 0) exe_io = NULL;
    /* An entry compiled in place may read any file of its workspace: the
     * source alone does not key what it builds. */
    if (p->artifact && exe_io && (art = cc_plan_argv(p->artifact, x->file, exe_io, x->io)) && art[0] &&
        !x->in_place && (dir = cc_cache_dir()))
        keyed = cc_cache_key(x->lang->name, argv[0], p->compile, x->req->code ? x->req->code : "",
                             x->req->code_len, key) == 0;
    *cached = keyed && use_cached(x, dir, key, art[0]);
    if (!*cached && !(result = write_source(x))) {
        struct step s;
        int64_t wall = x->req->timeout * 1000;
        run_step(x, "compile", argv, wall, &s);
        *compile_ms = s.res.wall_ms;
        result = step_failure(x, "compile", argv, &s, 0);
        bool ok = !result && s.res.exited && s.res.exit_code == 0 && !s.res.timed_out;
        if (!result && !ok) result = step_envelope(x, "compile", &s, s.res.wall_ms, wall);
        if (ok && keyed) cc_cache_store(dir, key, art[0]);
        step_free(&s);
    }
    cc_argv_free(art);
    cc_argv_free(argv);
    free(exe_io);
    free(dir);
    return result;
}

static json_t *run(struct run_ctx *x, int64_t compile_ms) {
    int64_t elapsed = cc_now_ms() - x->t0, budget = x->req->timeout * 1000;
    if (x->plan->compile && elapsed >= budget) return budget_exhausted(x, compile_ms);
    /* The run step gets the rest of the budget, rounded up to whole seconds. */
    int64_t wall_ms = x->plan->compile ? (budget - elapsed + 999) / 1000 * 1000 : budget;
    json_t *result = NULL;
    char **argv = resolve_step(x, x->plan->run, "run", compile_ms, &result);
    if (!argv) return result;
    if (!(argv = java_max_ram(argv, step_limits(x->req, 1, false).mem_bytes)))
        return rejected("internal", fmt("executor failed: out of memory"));
    struct step s;
    run_step(x, "run", argv, wall_ms, &s);
    result = step_failure(x, "run", argv, &s, compile_ms);
    if (!result) result = step_envelope(x, "run", &s, compile_ms, wall_ms);
    step_free(&s);
    cc_argv_free(argv);
    return result;
}

static json_t *unknown_language(const char *spelled) {
    json_t *r = cc_unknown_language(spelled);
    json_object_set_new(r, "backend", json_string("native"));
    return r;
}

/* Everything the run held goes back: the work directory (not a session's)
 * and an unused warm box are destroyed after the response. */
static void release(struct run_ctx *x) {
    if (x->have_box) cc_warm_retire_box(&x->box);
    /* A session's scratch goes at once: the session's next call must not
     * meet it. A failed removal is a visible leak by design (1.5). */
    if (x->have_wd && x->req->workdir) cc_rundir_remove(&x->wd);
    else if (x->have_wd) cc_warm_retire_dir(&x->wd);
    if (x->wd_fd >= 0) close(x->wd_fd);
    if (x->stdin_fd >= 0) close(x->stdin_fd);
    if (x->exec_fd >= 0) close(x->exec_fd);
    free(x->file);
    free(x->exe);
    free(x->deciding);
    cc_argv_free(x->envp);
    json_decref(x->unenforced);
}

/* compile_only: the compile step succeeded (or there is none). */
static json_t *compiled(const struct run_ctx *x, int64_t compile_ms) {
    return json_pack("{s:b, s:s, s:s, s:s, s:b, s:I, s:I}", "ok", 1, "language", x->lang->name,
                     "phase", "compile", "verdict", "OK", "compiled", x->plan->compile != NULL,
                     "compile_ms", (json_int_t)compile_ms, "duration_ms", (json_int_t)compile_ms);
}

void cc_exec_disclose_unbound(json_t *unenforced, const struct cc_rundir *rd) {
    if (rd->bounded || !unenforced) return;
    /* Terse: it is in every result of a non-root server (1 KB budget). */
    json_array_append_new(unenforced, json_sprintf(
        "run_directory_bound: on the host's disk (%s); only RLIMIT_FSIZE and the "
        "CODECALC_MIN_HOST_FREE_MB watch bound it", rd->unbound[0] ? rd->unbound : "not created here"));
}

json_t *cc_execute(const struct cc_exec_req *req) {
    struct run_ctx x = {.req = req, .lang = cc_lang_find(req->language), .t0 = cc_now_ms(),
                        .stdin_fd = -1, .exec_fd = -1, .wd_fd = -1};
    if (!x.lang) return unknown_language(req->language);
    bool installed;
    x.path = cc_runtime_path();
    x.plan = cc_lang_plan_resolve(x.lang, x.path, &installed, &x.deciding);
    /* Its deciding command is the one just resolved (languages.h). */
    if (req->repeated && installed && !req->workdir && x.plan->repeated) x.plan = x.plan->repeated;
    /* Nothing to compile: answer before taking the warm box. */
    if (req->compile_only && !x.plan->compile) {
        free(x.deciding);
        return compiled(&x, 0);
    }
    x.cap = cc_exec_output_cap(req->workdir && req->capture_kb > 0 && req->max_output_kb <= 0
                                   ? req->capture_kb : req->max_output_kb);
    x.unenforced = json_array();
    json_t *result = x.unenforced ? prepare(&x) : rejected("internal", fmt("executor failed: out of memory"));
    int64_t compile_ms = 0;
    bool cached = false;
    if (!result && x.plan->compile) result = compile(&x, &compile_ms, &cached);
    else if (!result) result = write_source(&x);
    if (!result) result = req->compile_only ? compiled(&x, compile_ms) : run(&x, compile_ms);
    if (result && json_object_get(result, "verdict")) {
        json_object_set_new(result, "total_ms", json_integer(cc_now_ms() - x.t0));
        if (x.plan->artifact) json_object_set_new(result, "cached", json_boolean(cached));
    }
    release(&x);
    return result;
}
