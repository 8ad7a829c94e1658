/* Calls to the source's own functions (docs/analysis.md "local_call"):
 * a helper with a loop called inside a loop costs both. Each function's
 * total is its own largest term (relative to the loops around its
 * definition) and the totals of the functions it calls; each call site
 * costs the loops around it times its callee's total. Names are matched
 * as the spec matches recursion (the callee's last part), so a method
 * `d.Find(x)` finds `func (d *DSU) Find`. */
#if CC_HAVE_TREE_SITTER
#include <stdio.h>
#include <string.h>

#include "workers/analysis/refine_nodes.h"
#include "workers/analysis/ts_walk.h"

/* Levels of helpers calling helpers that are composed. */
#define COMPOSE_ROUNDS 4

struct cx_cost cx_cost_minus(struct cx_cost c, struct cx_cost base) {
    int halves = 2 * c.k + c.half - (2 * base.k + base.half);
    if (halves < 0) halves = 0;
    struct cx_cost r = {.k = halves / 2, .half = halves % 2, .log = c.log - base.log, .loglog = c.loglog - base.loglog,
                        .exp = c.exp && !base.exp, .fact = c.fact > base.fact ? c.fact : 0,
                        .graph = c.graph && !base.graph};
    if (r.log < 0) r.log = 0;
    if (r.loglog < 0) r.loglog = 0;
    return r;
}

static bool constant(struct cx_cost c) {
    return !c.exp && !c.fact && c.k == 0 && !c.half && c.log == 0 && c.loglog == 0;
}

struct cx_cost cx_cost_times(struct cx_cost a, struct cx_cost b) {
    int halves = 2 * a.k + a.half + 2 * b.k + b.half;
    return (struct cx_cost){.k = halves / 2, .half = halves % 2, .log = a.log + b.log, .loglog = a.loglog + b.loglog,
                            .exp = a.exp || b.exp, .fact = a.fact > b.fact ? a.fact : b.fact,
                            .graph = (a.graph && constant(b)) || (b.graph && constant(a))};
}

/* An argument that stays within the n states a one-argument memo counts:
 * a name, an integer, or a name plus or minus an integer (fib(i),
 * fib(n - 1)); not fib(i * i), whose states reach n^2. */
static bool unit_value(TSNode a) {
    const char *t = ts_node_type(a);
    if (strcmp(t, "identifier") == 0 || strcmp(t, "integer") == 0) return true;
    if (strcmp(t, "binary_operator") != 0) return false;
    TSNode l = ts_node_child_by_field_name(a, "left", 4), r = ts_node_child_by_field_name(a, "right", 5),
           op = ts_node_child_by_field_name(a, "operator", 8);
    if (ts_node_is_null(l) || ts_node_is_null(r) || ts_node_is_null(op)) return false;
    const char *o = ts_node_type(op);
    return strcmp(ts_node_type(l), "identifier") == 0 && strcmp(ts_node_type(r), "integer") == 0 &&
           (strcmp(o, "+") == 0 || strcmp(o, "-") == 0);
}

static bool unit_argument(TSNode call) {
    TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
    return !ts_node_is_null(args) && ts_node_named_child_count(args) == 1 &&
           unit_value(ts_node_named_child(args, 0));
}

void cx_record_call(struct cx_walk *w, TSNode call, struct cx_text callee) {
    if (callee.n == 0 || callee.n == (size_t)-1) return;
    if (w->nsites == CX_SITES_MAX) {
        w->sites_dropped = true;
        return;
    }
    struct cx_site *s = &w->sites[w->nsites++];
    *s = (struct cx_site){.callee = callee, .caller = {"", 0}, .at = cx_cost_here(w, 0), .line = cx_line(call),
                          .unit_arg = w->python && unit_argument(call)};
    if (w->nnloops) s->guard = cx_guard_of(call, w->nloops[w->nnloops - 1]);
    if (w->nfns) {
        s->caller = w->fns[w->nfns - 1].ref_name;
        s->caller_entry = w->fns[w->nfns - 1].entry;
    }
}

static struct cx_fcost *fcost(struct cx_walk *w, struct cx_text name) {
    for (size_t i = 0; i < w->nfcosts; i++)
        if (cx_text_eq(w->fcosts[i].name, name)) return &w->fcosts[i];
    return NULL;
}

void cx_function_cost(struct cx_walk *w, const struct cx_fn *f, struct cx_cost rec, bool memo_total) {
    struct cx_cost total = f->inner;
    if (cx_cost_gt(rec, total)) total = rec;
    else memo_total = memo_total && !cx_cost_gt(total, rec); /* the memo's states are the whole cost */
    if (cx_text_is(f->ref_name, "<anonymous>") || f->ref_name.n == 0) return;
    struct cx_fcost *e = fcost(w, f->ref_name);
    if (e) { /* two functions of one name: the larger, an upper bound, and no amortising */
        if (cx_cost_gt(total, e->total)) e->total = total;
        e->memo_total = false;
        return;
    }
    if (w->nfcosts < CX_FCOSTS_MAX)
        w->fcosts[w->nfcosts++] = (struct cx_fcost){f->ref_name, total, f->node, memo_total};
}

/* Does the function named from call, through the recorded calls, the one
 * named to? (A breadth-first search over the functions' indices.) */
static bool reaches(struct cx_walk *w, struct cx_text from, struct cx_text to) {
    bool seen[CX_FCOSTS_MAX] = {false};
    size_t queue[CX_FCOSTS_MAX], head = 0, tail = 0;
    struct cx_fcost *f = fcost(w, from);
    if (!f) return false;
    queue[tail++] = (size_t)(f - w->fcosts);
    seen[queue[0]] = true;
    while (head < tail) {
        struct cx_text name = w->fcosts[queue[head++]].name;
        for (size_t i = 0; i < w->nsites; i++) {
            if (!cx_text_eq(w->sites[i].caller, name)) continue;
            if (cx_text_eq(w->sites[i].callee, to)) return true;
            struct cx_fcost *g = fcost(w, w->sites[i].callee);
            if (g && !seen[g - w->fcosts]) {
                seen[g - w->fcosts] = true;
                queue[tail++] = (size_t)(g - w->fcosts);
            }
        }
    }
    return false;
}

/* A call under a visited test its callee marks for good (`if not
 * seen[v]: dfs(v)`): the callee enters each vertex once over all such
 * calls, whose total is its own, not one per iteration. */
static bool amortized_site(struct cx_walk *w, const struct cx_site *s, const struct cx_fcost *callee) {
    return !ts_node_is_null(s->guard) && !ts_node_is_null(callee->node) && cx_marks_for_good(w, s->guard, callee->node);
}

static struct cx_cost site_cost(struct cx_cost at, struct cx_cost total, bool amortized) {
    if (!amortized) return cx_cost_times(at, total);
    return cx_cost_gt(total, at) || (total.graph && !cx_cost_gt(at, total)) ? total : at;
}

void cx_compose_calls(struct cx_walk *w) {
    /* Calls that close a cycle (f calls g, g calls f): recursion through
     * another function, which this model does not bound; composing round
     * the cycle would only multiply the same costs again. */
    for (size_t i = 0; i < w->nsites; i++) {
        struct cx_site *s = &w->sites[i];
        if (!s->caller.n || !fcost(w, s->callee) || cx_text_eq(s->callee, s->caller) ||
            !reaches(w, s->callee, s->caller))
            continue;
        s->cyclic = true;
        cx_refinement(w, "mutual_recursion", s->line,
                      "%.*s(...) at line %u calls back into %.*s through other functions: recursion this model does "
                      "not bound (the estimate leaves it out)", cx_shown(s->callee), s->callee.s, s->line,
                      cx_shown(s->caller), s->caller.s);
    }
    for (int round = 0; round < COMPOSE_ROUNDS; round++) {
        bool changed = false;
        for (size_t i = 0; i < w->nsites; i++) {
            struct cx_site *s = &w->sites[i];
            struct cx_fcost *callee = fcost(w, s->callee);
            if (!callee || constant(callee->total) || cx_text_eq(s->callee, s->caller) || s->cyclic) continue;
            struct cx_fcost *caller = s->caller.n ? fcost(w, s->caller) : NULL;
            if (caller) {
                struct cx_cost rel = site_cost(cx_cost_minus(s->at, s->caller_entry), callee->total,
                                               (callee->memo_total && s->unit_arg) ||
                                                   amortized_site(w, s, callee));
                if (cx_cost_gt(rel, caller->total)) caller->total = rel, changed = true;
            }
        }
        if (!changed) break;
    }
    for (size_t i = 0; i < w->nsites; i++) {
        struct cx_site *s = &w->sites[i];
        struct cx_fcost *callee = fcost(w, s->callee);
        if (!callee || constant(callee->total) || cx_text_eq(s->callee, s->caller) || s->cyclic) continue;
        char cost[64], own[64];
        if (callee->memo_total && s->unit_arg) {
            struct cx_cost c = site_cost(s->at, callee->total, true);
            if (!cx_cost_gt(c, w->best)) continue;
            cx_consider(w, c);
            cx_refinement(w, "memoized_call", s->line,
                          "%.*s(...) at line %u is memoised by a decorator whose cache outlives the call, and its "
                          "one argument stays among the states it counts: all its calls together compute each "
                          "state once (%s), then O(1) each: %s", cx_shown(s->callee),
                          s->callee.s, s->line, cx_cost_text(callee->total, own, sizeof own),
                          cx_cost_text(c, cost, sizeof cost));
            continue;
        }
        if (amortized_site(w, s, callee)) {
            struct cx_cost c = site_cost(s->at, callee->total, true);
            if (!cx_cost_gt(c, w->best) && !(c.graph && !cx_cost_gt(w->best, c))) continue;
            cx_consider(w, c);
            cx_refinement(w, "visited_call", s->line,
                          "%.*s(...) at line %u runs only for what it has not yet marked in the collection its test "
                          "reads, and it marks for good: its calls from this loop cost %s in all, not per "
                          "iteration: %s", cx_shown(s->callee), s->callee.s, s->line,
                          cx_cost_text(callee->total, own, sizeof own), cx_cost_text(c, cost, sizeof cost));
            continue;
        }
        struct cx_cost c = cx_cost_times(s->at, callee->total);
        if (!cx_cost_gt(c, w->best)) continue;
        cx_consider(w, c);
        cx_refinement(w, "local_call", s->line,
                      "%.*s(...) at line %u runs a function of this source that costs %s, inside the loops around "
                      "the call: %s", cx_shown(s->callee), s->callee.s, s->line,
                      cx_cost_text(callee->total, own, sizeof own), cx_cost_text(c, cost, sizeof cost));
    }
    if (w->sites_dropped)
        cx_refinement(w, "local_call", 0, "more than %d calls: the later ones were not composed with their "
                      "callees' costs (the estimate may be low)", CX_SITES_MAX);
}
#endif
