/* One-shot execution (TOOLS.md 1.3-1.7, 3.1.3): build the plan for a
 * language, run compile and run steps in a fresh run directory under the
 * sandbox, capture and cap the output, classify the verdict and assemble the
 * 21-key envelope. Provider selection, the broker and the receipt are the
 * caller's (ops_exec.c); execute_code_stream reuses this path with hooks.
 */
#ifndef CC_EXECUTE_H
#define CC_EXECUTE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workers/sandbox/sandbox.h"

#define CC_TRUNC_MARKER "\n...[truncated]"
#define CC_TIMEOUT_TEXT "<killed: exceeded wall-clock timeout>"
#define CC_DEFAULT_CAP 65536
#define CC_MAX_OUTPUT_KB 240 /* max_output_kb is clamped to this (KiB per stream) */

/* Optional hooks for a streaming caller. All may be NULL/0. */
struct cc_exec_hooks {
    sbx_tick_fn tick;      /* forwarded to every step's sandbox */
    void *ud;
    int tick_ms;
    /* Called just before a step starts, with "compile" or "run". */
    void (*step_start)(void *ud, const char *phase);
    /* Each chunk the program writes, as it arrives (stream 1 = stdout,
     * 2 = stderr), including what lies beyond the output cap. */
    void (*on_output)(void *ud, const char *phase, int stream, const char *data, size_t len);
};

/* Where the run step's time went (filled when cc_exec_req.timing is set). */
struct cc_exec_timing {
    int64_t given_us;          /* CLOCK_MONOTONIC when the program was handed over */
    struct sbx_timing sbx;     /* the sandbox's own split of the run step */
};

/* A request after clamps (the spec's view) plus what the run applies. */
struct cc_exec_req {
    const char *language;     /* as spelled */
    const char *code;
    size_t code_len;
    const char *stdin_data;
    size_t stdin_len;
    int64_t timeout;          /* seconds, already clamped to [1, cap] */
    int64_t max_memory_mb;    /* <= 0: default */
    int64_t max_output_kb;    /* <= 0: default 64 KiB */
    int64_t max_cpu;          /* <= 0: timeout + 8 */
    bool no_net;              /* effective (after the broker) */
    const struct cc_exec_hooks *hooks; /* may be NULL */
    /* Session runs (set only from supervisor-trusted arguments): run in this
     * existing workspace instead of a fresh directory, never delete it, and
     * capture up to capture_kb per stream when > 0 (the spill rule, 4.7). */
    const char *workdir;
    int64_t capture_kb;
    /* session_run: the entry file's path inside workdir (normalised by the
     * supervisor). A file with the language's extension is compiled and run
     * where it is, so what it includes or imports beside it is found
     * (#include "util.h", mod util;, require('./util')); its outputs still
     * go to the run's scratch directory. */
    const char *entry;
    struct cc_exec_timing *timing; /* may be NULL */
    /* Compile only (the verification tools compile a program once, then
     * run it per input from the compile cache): the compile step's
     * envelope, or {ok: true, phase: "compile", compiled, cached} when it
     * succeeded or there is nothing to compile. */
    bool compile_only;
    /* The program is run on many inputs (the verification tools): use the
     * language's repeated plan when it has one (languages.h). */
    bool repeated;
    /* A dependency environment as the program sees it (CC_DEPS_VIEW/<key>),
     * or NULL: on PYTHONPATH, or (deps_node) as node_modules beside the
     * program. */
    const char *deps_view;
    bool deps_node;
};

/* Clamp a requested timeout to [1, max_s] (values < 1 mean 1). */
int64_t cc_exec_clamp_timeout(int64_t requested, int64_t max_s);

/* Run the request. Returns a new reference: the envelope (1.3), possibly
 * with code/error/remedy for runtime_unavailable, or a rejected result that
 * carries "backend" (unknown language, work directory or source failures,
 * executor failure). Never NULL except on OOM. */
json_t *cc_execute(const struct cc_exec_req *req);
/* Append run_directory_bound to unenforced when rd is on the host's disk
 * (no bounded tmpfs: a non-root server). */
struct cc_rundir;
void cc_exec_disclose_unbound(json_t *unenforced, const struct cc_rundir *rd);
/* The unenforced entry of a run whose directory is a session workspace (on
 * the host's disk, watched only): ops_exec.c adds it, the REPL launcher too. */
const char *cc_exec_workspace_disk_bound(void);

/* Per-stream byte cap for max_output_kb (1.6). */
uint64_t cc_exec_output_cap(int64_t max_output_kb);

/* The memory ceiling of a compile step: CODECALC_COMPILE_MEMORY_MB
 * (default 2048 MiB), whatever max_memory_mb says (docs/languages.md). */
uint64_t cc_exec_compile_memory_bytes(void);

#include "protocol/utf8.h" /* cc_utf8_repair */

/* The compact shape (1.12) of a full result. New reference; a result with no
 * verdict is returned unchanged (as a new reference to the same object). */
json_t *cc_exec_compact(json_t *full);

/* ---- providers (providers.c) ---------------------------------------- */

/* list_execution_providers: descriptors sorted by provider_id (3.1.2). */
json_t *cc_list_providers_json(void);
/* local advertises network_control only when seccomp can enforce no_net. */
bool cc_local_network_control(void);

#endif
