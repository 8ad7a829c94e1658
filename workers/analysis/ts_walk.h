/* The tree-sitter walk of analyze_complexity (TOOLS.md 3.5.1) and the hooks
 * of the refinement model it drives (refine.c). Internal to
 * workers/analysis; compiled only when the tree-sitter core was fetched. */
#ifndef CC_ANALYSIS_TS_WALK_H
#define CC_ANALYSIS_TS_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "workers/analysis/complexity.h"

/* Names longer than this are never compared (a recursion through a longer
 * name is not seen): bounds the work per call node whatever the source. */
#define CX_CMP_MAX 255

/* A slice of the source. */
struct cx_text {
    const char *s;
    size_t n;
};

/* Parameters of a python function whose kinds are read and restored;
 * the names of later ones are forgotten for good (read as unknown: an
 * upper bound, never a shadowed kind). */
#define CX_PARAMS_MAX 8

/* One open function node. */
struct cx_fn {
    struct cx_text spec_name;   /* `name` field, or "<anonymous>" */
    struct cx_text ref_name;    /* spec_name, else the C/C++ declarator's name */
    bool named_by_declarator;
    bool named_by_binding;      /* an anonymous function bound to a name (const f = () => ...) */
    uint32_t line;              /* 1-based */
    int rdepth_at_entry;        /* counted loops open when it started */
    int body_k;                 /* deepest counted loop inside, relative */
    int self_calls, tail_calls, halving_calls, split_calls;
    bool self_call_in_loop;
    bool memoized;              /* python @cache / @lru_cache */
    bool memo_kept;             /* ...by a decorator: its states stay computed across calls */
    TSNode node;
    /* Self-calls inside a loop: under a visited test of a collection the
     * function marks (DFS), under any condition (backtracking with a
     * guard), on a shrunk input (permutations of the rest), or on the
     * loop's counter + 1 (subsets). */
    struct cx_cost entry;       /* the cost at its start (the loops around it) */
    struct cx_cost inner;       /* its own largest term, relative to entry */
    int looped_calls, visited_calls, guarded_calls, shrinking_calls, subset_calls, structural_calls;
    /* python: its parameters' names and the kinds those names had outside
     * (-1 none), restored when it ends (refine_params.c) */
    struct cx_text params[CX_PARAMS_MAX];
    signed char params_outside[CX_PARAMS_MAX];
    int nparams;
};

/* Names a python walk has seen assigned a list, a hash structure or a
 * string. */
#define CX_KINDS_MAX 256
enum { CX_KIND_HASH, CX_KIND_LIST, CX_KIND_STR };
struct cx_kind {
    struct cx_text name;
    int kind;                   /* CX_KIND_* */
};

/* Names a walk has seen assigned a value of one shape (bounded: names
 * past the bound are not remembered, which only loses a refinement). */
#define CX_NAMES_MAX 32
#define CX_NAME_LEN 64
struct cx_names {
    char v[CX_NAMES_MAX][CX_NAME_LEN];
    size_t n;
};

/* A call to a name that may be a function of the same source, and what
 * the functions cost (refine_calls.c). Bounded: calls past the bound are
 * not composed, which only loses a term; the composition then notes it. */
#define CX_SITES_MAX 512
#define CX_FCOSTS_MAX 256
struct cx_site {
    struct cx_text callee, caller; /* caller empty at top level */
    struct cx_cost at, caller_entry;
    uint32_t line;
    TSNode guard;                  /* the condition of an `if` around it in its loop */
    bool cyclic;                   /* it closes a cycle of calls (mutual recursion) */
    bool unit_arg;                 /* one argument, a name or a name +- a literal (or a literal) */
};
struct cx_fcost {
    struct cx_text name;
    struct cx_cost total;
    TSNode node;
    /* total is every state of a memo that outlives the call: calls from
     * a loop cost it once in all, then O(1) each (memoized_call) */
    bool memo_total;
};

struct cx_walk {
    const char *src;
    size_t len;
    struct cx_reading *r;
    bool python;
    const char *lang;           /* the grammar's name */
    int type_scans;             /* declarations looked up in the text (refine.c) */
    /* spec */
    int depth;                  /* loops open */
    struct cx_fn *fns;
    size_t nfns, capfns;
    /* refinement */
    int rdepth;                 /* counted loops open */
    int ldepth;                 /* geometric (O(log n)) loops open */
    int sdepth;                 /* O(sqrt n) loops open (i * i <= n) */
    int lldepth;                /* O(log log n) factors open (a sieve's inner loop) */
    int fdepth;                 /* n! factors open (a loop over permutations) */
    int gdepth;                 /* graph loops open: n counted there is V + E */
    int edepth;                 /* 2^n factors open (a loop to 1 << n) */
    struct cx_cost best;
    bool any_sort_call;
    struct cx_kind kinds[CX_KINDS_MAX];
    size_t nkinds;
    /* Names assigned half of something (m = (lo + hi) // 2): a self-call
     * on one of them halves its input like f(mid) does. */
    struct cx_names halving;
    /* Names assigned one side of a partition (left = [x for x in a if x <
     * p]) or a partition's pivot index (p = partition(a, lo, hi)). */
    struct cx_names split;
    /* Names assigned a shrunk copy of a collection (rest = a[:i] + a[i+1:]). */
    struct cx_names shrunk;
    /* The counters of the loops over n open around this point, innermost
     * last. */
    struct cx_names counters;
    TSNode cloops[CX_NAMES_MAX];    /* the loop of each counter */
    bool csqrt[CX_NAMES_MAX];       /* that loop is bounded by a square root */
    /* The loops over n open around this point, innermost last (bounded:
     * deeper ones are not kept, which only loses a refinement). */
    TSNode nloops[CX_NAMES_MAX];
    size_t nnloops;
    struct cx_site sites[CX_SITES_MAX];
    size_t nsites;
    bool sites_dropped;
    struct cx_fcost fcosts[CX_FCOSTS_MAX];
    size_t nfcosts;
    /* Nodes the tree-based rules may still visit in this parse (a
     * pointer, so that rules reading a const walk can spend it). */
    long *visits_left;
};
#define CX_RULE_VISITS 4000000

struct cx_text cx_node_text(const struct cx_walk *w, TSNode n);
/* The grammar type is a loop / a function (the walk's own classes). */
bool cx_is_loop_type(const char *type);
bool cx_is_function_type(const char *type);
bool cx_text_eq(struct cx_text a, struct cx_text b);
bool cx_text_is(struct cx_text a, const char *lit);
uint32_t cx_line(TSNode n);
/* The part after the last ".", "->" or "::" (only the last CX_CMP_MAX + 2
 * bytes are looked at; a longer part comes back with n = SIZE_MAX). */
struct cx_text cx_reduce_callee(struct cx_text t);
/* The callee of a call node: its `function` or `name` field, else its first
 * child, reduced. */
struct cx_text cx_callee(const struct cx_walk *w, TSNode call);

/* ---- refinement hooks (refine.c, refine_loops.c) ---- */
/* The factors a loop adds to the depths open around its body (each a
 * count: n, log n, sqrt n, log log n, n!, graph), undone when it is left. */
struct cx_factor {
    int r, l, s, ll, f, g, e;
};
/* A loop node is entered: the factors it counts as, already added to the
 * walk's depths; its counter is pushed on w->counters when *pushed says so,
 * and a loop over n on w->nloops when *held does. */
void cx_refine_loop(struct cx_walk *w, TSNode loop, const char *type, struct cx_factor *fac, bool *pushed,
                    bool *held);
/* A function node is entered (f is its frame, already filled). */
void cx_refine_function(struct cx_walk *w, TSNode fn, struct cx_fn *f);
/* A call node (callee reduced), after the spec's recursion check. */
void cx_refine_call(struct cx_walk *w, TSNode call, struct cx_text callee);
/* A call whose callback runs once per item (map, filter, reduce, a sort's
 * key): the factor its subtree is inside, already added to the depths. */
void cx_refine_call_scope(struct cx_walk *w, TSNode call, struct cx_text callee, struct cx_factor *fac);
/* Any other named node (membership tests, assignments). */
void cx_refine_node(struct cx_walk *w, TSNode n, const char *type);
/* A function frame is closed: its recursion is judged. */
void cx_refine_function_end(struct cx_walk *w, const struct cx_fn *f);
/* The walk is over: r->refined is final. */
void cx_refine_finish(struct cx_walk *w, bool spec_sort);

/* Add {rule, line, note} to r->refinements (at most CX_REFINEMENTS_MAX). */
#define CX_REFINEMENTS_MAX 50
void cx_refinement(struct cx_walk *w, const char *rule, uint32_t line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void cx_consider(struct cx_walk *w, struct cx_cost c);

#endif
