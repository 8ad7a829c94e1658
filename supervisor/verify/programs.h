/* What the verification tools share: reading and checking their arguments
 * (docs/verification.md "Bad input"), the programs of a call, and the
 * matrix of runs (programs x inputs) behind verify_translation,
 * compare_edge_cases and compare_execution: each program compiled once,
 * then run once per input from the compile cache. */
#ifndef CC_VERIFY_PROGRAMS_H
#define CC_VERIFY_PROGRAMS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "supervisor/verify/fanout.h"

#define CC_VERIFY_CODE_MAX (1u << 20)   /* bytes of one program */
#define CC_VERIFY_INPUT_MAX (1u << 20)  /* bytes of one stdin */
#define CC_VERIFY_INPUTS_MAX 64
#define CC_VERIFY_MEMORY_MB 1024        /* each run's memory ceiling */
#define CC_VERIFY_SLACK_MS 30000        /* a request's bound beyond its program's timeout */

/* ---- arguments ---- */

/* A refusal {ok:false, code:"validation", error, remedy} with the message
 * formatted. New reference. */
json_t *cc_verify_invalid(const char *remedy, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The string argument key (required), checked against the code cap when
 * is_code. NULL and *err set when refused. */
const char *cc_verify_str_arg(json_t *args, const char *key, bool is_code, json_t **err);
/* The refusal of an unknown language, the error prefixed with "field: ". */
json_t *cc_verify_unknown_language(const char *field, const char *spelled);
/* The canonical name of a language argument, or NULL and *err set (the
 * unknown-language refusal naming key). */
const char *cc_verify_lang_arg(json_t *args, const char *key, json_t **err);
/* The inputs argument key: null/absent/[] -> the seven defaults of 3.4.3;
 * otherwise at most 64 strings within the size cap. New reference, or
 * NULL and *err set. */
json_t *cc_verify_inputs_arg(json_t *args, const char *key, json_t **err);

/* ---- one program of a call ---- */

struct cc_prog {
    const char *lang;       /* canonical (registry name), or as spelled when unknown */
    const char *code;       /* borrowed from the arguments */
    size_t code_len;
    char *label;            /* "source (python3)", "c", ...; owned */
    bool known;             /* a registry language */
    json_t *compile;        /* the compile answer (owned), once it came */
    bool compile_failed;    /* not ok in the compile phase: every run is this */
    int compiles;           /* compiler runs this call caused (cache misses) */
};

/* Free what p owns (label, compile answer). */
void cc_prog_free(struct cc_prog *p);

/* The snippets argument ({language: code}) as programs, in object order.
 * names are the keys as written (borrowed from the arguments). */
struct cc_snippets {
    size_t k;
    struct cc_prog *prog;
    const char **names;
};

#define CC_VERIFY_SNIPPETS_MAX 32

/* Read snippets (an object; may be empty): each code a string within the
 * cap; an unknown language is refused unless unknown_ok (then the program
 * has known = false and lang = the key). NULL, or the refusal. */
json_t *cc_snippets_read(struct cc_snippets *sn, json_t *snippets, bool unknown_ok);
void cc_snippets_free(struct cc_snippets *sn);

/* A finished job's result told whether a compiler ran (a cache miss). */
void cc_prog_count_compile(struct cc_prog *p, const json_t *result);

/* Queue the compile of p (timeout_s budget). done gets the answer. */
void cc_prog_add_compile(struct cc_fanout *fo, const struct cc_prog *p, int64_t timeout_s,
                         cc_fo_done_fn done, void *ud);
/* Queue one run of p on stdin (copied). counted: a planned run (progress). */
void cc_prog_add_run(struct cc_fanout *fo, const struct cc_prog *p, const char *in, size_t in_len,
                     int64_t timeout_s, bool timed, const char *label, cc_fo_done_fn done, void *ud);
/* Record a compile answer on p: sets compile/compile_failed/compiles.
 * Takes ownership of result. */
void cc_prog_compiled(struct cc_prog *p, json_t *result);

/* A label for input i of n: `input 3/7 "-1"` (the input's first 20
 * characters, JSON-quoted). Malloc'd. */
char *cc_input_label(const char *in, size_t i, size_t n);

/* ---- a result's side as the tools report it ---- */

/* {ok, phase, verdict, stdout (normalised, first out_chars), stderr (first
 * err_chars)} of an exec answer (an envelope or a rejected result, whose
 * error becomes its stderr). New reference. *norm gets the whole
 * normalised stdout (malloc'd) when norm is not NULL. */
json_t *cc_side_json(const json_t *res, size_t out_chars, size_t err_chars, char **norm);
/* A result's normalised stdout as the rules compare it: when the program
 * wrote bytes that are not UTF-8 (the exec worker sent `stdout_sha256`),
 * the text is followed by CC_RAW_TAG and that digest, so outputs differing
 * only in the replaced bytes compare unequal. *visible (when asked) gets
 * the text alone, for showing. malloc'd; NULL on OOM. */
char *cc_res_stdout_norm(const json_t *res, char **visible);
/* ok of an exec answer (false for a rejected one). */
bool cc_res_ok(const json_t *res);
/* stdout was cut at the output cap (it ends with the exec worker's marker). */
bool cc_res_stdout_cut(const json_t *res);
/* Not ok in the compile phase. */
bool cc_res_compile_failed(const json_t *res);

/* ---- the matrix: k programs x n inputs ---- */

struct cc_matrix {
    struct cc_fanout *fo;
    size_t k, n;
    struct cc_prog *prog;   /* k, owned by the caller */
    json_t *inputs;         /* array of n strings (borrowed) */
    int64_t timeout_s;
    bool staged;            /* compile everything first, runs only on cc_matrix_runs */
    bool timed;             /* runs are timing runs (one at a time) */
    size_t edge_from;       /* inputs from this index on are added edges (n: none) */
    int64_t edge_timeout_s; /* their per-run timeout */
    json_t **res;           /* k*n results, [j*n + i] */
    void *slots;            /* job ids, owned */
};

/* Set up and queue the compiles (and, unless staged, the runs as each
 * compile answers). Plans k*n runs. 0, or -1 on OOM. */
int cc_matrix_start(struct cc_matrix *mx, struct cc_fanout *fo, struct cc_prog *prog, size_t k,
                    json_t *inputs, int64_t timeout_s, bool staged, bool timed);
/* Inputs from index `from` on are edge values the tool added: their runs
 * get timeout_s (shorter). Call right after cc_matrix_start (runs are
 * queued from the event loop, when the compiles answer). */
void cc_matrix_edges(struct cc_matrix *mx, size_t from, int64_t timeout_s);
/* The per-run timeout of input i. */
int64_t cc_matrix_timeout(const struct cc_matrix *mx, size_t i);
/* Staged: queue every run now (after the compiles answered). */
void cc_matrix_runs(struct cc_matrix *mx);
const json_t *cc_matrix_res(const struct cc_matrix *mx, size_t j, size_t i);
void cc_matrix_free(struct cc_matrix *mx);
/* {"<label of program j>": compiles} over the programs. New reference. */
json_t *cc_matrix_compiles(const struct cc_matrix *mx, const char *const *names);

/* How timed runs are measured, as the results say it. */
#define CC_VERIFY_TIMING_NOTE                                                                    \
    "duration_ms of each program's run step alone (compile, sandbox set-up and queueing "      \
    "excluded); timed runs were made one at a time, with no other run of this call in flight"

/* The result's "execution" object: runs made, compiles, the most runs in
 * flight at once, the call's share of the exec pool, and for timed runs
 * how they were measured (timing.max_in_flight is the most runs of this
 * call in flight while a timed run was: 1). New reference. */
json_t *cc_verify_execution(const struct cc_fanout *fo, json_t *compiles);

#endif
