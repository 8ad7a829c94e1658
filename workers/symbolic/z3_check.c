/* z3_check (TOOLS.md 3.4.1): load an SMT-LIB2 script's declarations and
 * assertions into a Z3 solver, check, and report the verdict with a model,
 * an (empty unless tracked) unsat core, and a grade (1.14). Each
 * (check-sat) is answered on the script up to it (docs/contract.md).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <z3.h>

#include "workers/common/tool_api.h"
#include "workers/symbolic/smt2_scan.h"

json_t *cc_tool_z3_check(json_t *args, cc_wctx *ctx);

#define Z3_TIMEOUT_MS 5000u
/* A script with several (check-sat) commands gets each answered, at most
 * Z3_MAX_CHECKS of them, all within Z3_SCRIPT_BUDGET_MS (the pool's
 * deadline is 30 s). */
#define Z3_MAX_CHECKS 32u
#define Z3_SCRIPT_BUDGET_MS 20000u

/* ---- grades --------------------------------------------------------------- */

static json_t *graded(json_t *r, const char *grade, const char *basis) {
    json_object_set_new(r, "grade", json_string(grade));
    json_object_set_new(r, "grade_basis", json_string(basis));
    json_object_set_new(r, "grade_rules_version", json_string("2"));
    return r;
}

/* A failure: the coded error plus grade "ungraded" whose basis quotes it. */
__attribute__((format(printf, 2, 3)))
static json_t *fail(const char *code, const char *fmt, ...) {
    char *msg = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&msg, fmt, ap);
    va_end(ap);
    if (n < 0) return NULL;
    json_t *r = cc_err(code, "%s", msg);
    char *basis = NULL;
    if (asprintf(&basis, "not graded: %s", json_string_value(json_object_get(r, "error"))) < 0) {
        free(msg);
        json_decref(r);
        return NULL;
    }
    graded(r, "ungraded", basis);
    free(basis);
    free(msg);
    return r;
}

/* ---- the script ------------------------------------------------------------ */

/* true when nothing but ';' comments and whitespace is left. */
static bool script_is_empty(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (s[i] == ';') {
            while (i < n && s[i] != '\n') i++;
        } else if (!(s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r') || (s[i] >= 0x1c && s[i] <= 0x1f))) {
            return false;
        }
    }
    return true;
}

/* Z3 reports parse errors as lines of (error "line L column C: what");
 * keep the inner text, joining several with "; ". Caller frees. */
static char *error_detail(Z3_context c, Z3_error_code e) {
    const char *raw = Z3_get_error_msg(c, e);
    if (!raw) raw = "unknown error";
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f) return NULL;
    const char *p = raw, *open;
    int found = 0;
    while ((open = strstr(p, "(error \"")) != NULL) {
        const char *start = open + 8, *end = strstr(start, "\")");
        if (!end) break;
        fprintf(f, "%s%.*s", found++ ? "; " : "", (int)(end - start), start);
        p = end + 2;
    }
    if (!found) {
        size_t n = strlen(raw);
        while (n && (raw[n - 1] == '\n' || raw[n - 1] == ' ')) n--;
        fprintf(f, "%.*s", (int)n, raw);
    }
    if (fclose(f) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

static json_t *z3_failure(Z3_context c, Z3_error_code e) {
    char *detail = error_detail(c, e);
    json_t *r = detail ? fail("validation", "z3 error: %s", detail) : NULL;
    free(detail);
    return r;
}

/* Errors are read back with Z3_get_error_code after each call; the handler
 * exists only to replace Z3's default one, which would end the process. */
static void ignore_z3_error(Z3_context c, Z3_error_code e) {
    (void)c;
    (void)e;
}

/* ---- model values --------------------------------------------------------- */

/* A value in Z3's display form: numerals as plain numbers ("6", "-3",
 * "1/2"), algebraic reals as decimals with a trailing '?', everything else
 * as Z3 prints it. Caller frees. Z3's strings live only until the next
 * call, hence the copies. */
static char *value_string(Z3_context c, Z3_ast v) {
    if (!v) return strdup("?");
    if (Z3_is_algebraic_number(c, v)) return strdup(Z3_get_numeral_decimal_string(c, v, 10));
    if (Z3_get_ast_kind(c, v) == Z3_NUMERAL_AST) {
        Z3_sort_kind k = Z3_get_sort_kind(c, Z3_get_sort(c, v));
        if (k == Z3_INT_SORT || k == Z3_REAL_SORT || k == Z3_BV_SORT)
            return strdup(Z3_get_numeral_string(c, v));
    }
    return strdup(Z3_ast_to_string(c, v));
}

static void put_value(FILE *f, Z3_context c, Z3_ast v) {
    char *s = value_string(c, v);
    fputs(s ? s : "?", f);
    free(s);
}

/* One entry: "1 -> 2", or "(1, 2) -> 3" for several arguments. */
static void put_entry(FILE *f, Z3_context c, Z3_func_entry e) {
    Z3_func_entry_inc_ref(c, e);
    unsigned n = Z3_func_entry_get_num_args(c, e);
    if (n > 1) fputc('(', f);
    for (unsigned i = 0; i < n; i++) {
        if (i) fputs(", ", f);
        put_value(f, c, Z3_func_entry_get_arg(c, e, i));
    }
    if (n > 1) fputc(')', f);
    fputs(" -> ", f);
    put_value(f, c, Z3_func_entry_get_value(c, e));
    Z3_func_entry_dec_ref(c, e);
}

/* A function interpretation as "[1 -> 2, else -> 0]". Caller frees. */
static char *func_string(Z3_context c, Z3_func_interp fi) {
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f) return NULL;
    Z3_func_interp_inc_ref(c, fi);
    fputc('[', f);
    unsigned n = Z3_func_interp_get_num_entries(c, fi);
    for (unsigned i = 0; i < n; i++) {
        put_entry(f, c, Z3_func_interp_get_entry(c, fi, i));
        fputs(", ", f);
    }
    fputs("else -> ", f);
    put_value(f, c, Z3_func_interp_get_else(c, fi));
    fputc(']', f);
    Z3_func_interp_dec_ref(c, fi);
    if (fclose(f) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

static void set_owned(json_t *obj, char *key, char *value) {
    if (key && value) json_object_set_new(obj, key, json_string(value));
    free(key);
    free(value);
}

static char *decl_name(Z3_context c, Z3_func_decl d) {
    return strdup(Z3_get_symbol_string(c, Z3_get_decl_name(c, d)));
}

static json_t *model_object(Z3_context c, Z3_model m) {
    json_t *obj = json_object();
    if (!obj) return NULL;
    unsigned nc = Z3_model_get_num_consts(c, m);
    for (unsigned i = 0; i < nc; i++) {
        Z3_func_decl d = Z3_model_get_const_decl(c, m, i);
        set_owned(obj, decl_name(c, d), value_string(c, Z3_model_get_const_interp(c, m, d)));
    }
    unsigned nf = Z3_model_get_num_funcs(c, m);
    for (unsigned i = 0; i < nf; i++) {
        Z3_func_decl d = Z3_model_get_func_decl(c, m, i);
        Z3_func_interp fi = Z3_model_get_func_interp(c, m, d);
        set_owned(obj, decl_name(c, d), fi ? func_string(c, fi) : strdup("?"));
    }
    return obj;
}

/* {"unsat_core": [...]}: empty unless the assertions were tracked. */
static json_t *unsat_core(Z3_context c, Z3_solver s) {
    json_t *core = json_array();
    if (!core) return NULL;
    Z3_ast_vector v = Z3_solver_get_unsat_core(c, s);
    if (v) {
        Z3_ast_vector_inc_ref(c, v);
        for (unsigned i = 0; i < Z3_ast_vector_size(c, v); i++)
            json_array_append_new(core, json_string(Z3_ast_to_string(c, Z3_ast_vector_get(c, v, i))));
        Z3_ast_vector_dec_ref(c, v);
    }
    json_t *obj = json_object();
    if (obj) json_object_set_new(obj, "unsat_core", core);
    else json_decref(core);
    return obj;
}

/* ---- results ----------------------------------------------------------------- */

static void engine_name(char buf[64]) {
    unsigned major, minor, build, rev;
    Z3_get_version(&major, &minor, &build, &rev);
    snprintf(buf, 64, "z3 %u.%u.%u", major, minor, build);
}

/* The limit a check ran under: Z3_TIMEOUT_MS, or the script's :timeout below it. */
static unsigned check_limit_ms(unsigned long script_ms) {
    return script_ms && script_ms < Z3_TIMEOUT_MS ? (unsigned)script_ms : Z3_TIMEOUT_MS;
}

/* The fields of an answer, before its grade; takes model. */
static json_t *answer(const char *word, json_t *model, size_t n_assertions, unsigned limit_ms) {
    char engine[64];
    engine_name(engine);
    json_t *res = cc_ok();
    json_object_set_new(res, "result", json_string(word));
    json_object_set_new(res, "model", model ? model : json_null());
    json_object_set_new(res, "assertions", json_integer((json_int_t)n_assertions));
    json_object_set_new(res, "engine", json_string(engine));
    json_object_set_new(res, "timeout_ms", json_integer(limit_ms));
    return res;
}

static json_t *verdict(Z3_context c, Z3_solver s, Z3_lbool r, unsigned n_assertions, unsigned limit_ms) {
    char engine[64], basis[160];
    engine_name(engine);
    json_t *model;
    const char *word, *grade = "ungraded", *why;
    if (r == Z3_L_TRUE) {
        word = "sat";
        Z3_model m = Z3_solver_get_model(c, s);
        if (!m || Z3_get_error_code(c) != Z3_OK) return z3_failure(c, Z3_get_error_code(c));
        Z3_model_inc_ref(c, m);
        model = model_object(c, m);
        Z3_model_dec_ref(c, m);
        why = "sat: a model was found \xe2\x80\x94 satisfiability is decided, but solver_proven is "
              "reserved for unsat verdicts so a counterexample can never wear a proof grade; "
              "widening sat to solver_proven would be a deliberate, separate decision";
    } else if (r == Z3_L_FALSE) {
        word = "unsat";
        model = unsat_core(c, s);
        grade = "solver_proven";
        snprintf(basis, sizeof basis, "%s returned unsat within its %ums timeout", engine, limit_ms);
        why = basis;
    } else {
        word = "unknown";
        model = json_null();
        why = "not graded: z3 returned 'unknown', which decides nothing";
    }
    if (Z3_get_error_code(c) != Z3_OK) {
        json_decref(model);
        return z3_failure(c, Z3_get_error_code(c));
    }
    return graded(answer(word, model, n_assertions, limit_ms), grade, why);
}

/* ---- the 5000 ms limit -------------------------------------------------------
 *
 * Z3's own "timeout" parameter is not used: in the Z3 4.8.x series shipped
 * by Debian its timer thread deadlocks when the timer fires (Z3 PR #5371),
 * which would hang the worker forever. A watchdog thread of ours calls
 * Z3_interrupt() instead; the check then returns unknown ("interrupted").
 * A script's own (set-option :timeout N) set that parameter and brought
 * the deadlock back (test_z3_check hung 1 run in 8 on it): the scan blanks
 * it and the watchdog keeps N when it is below the limit.
 */
struct watchdog {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool done, fired;
    unsigned interrupts; /* Z3_interrupt calls made */
    Z3_context c;
    unsigned ms; /* the limit: Z3_TIMEOUT_MS, or the script's :timeout below it */
    pthread_t thread;
};

/* ---- test hooks (tests/unit/test_z3_check.c; no request reaches them) ----
 * The race REINTERRUPT_MS mends, made to happen every time: with
 * fire_before_check the watchdog's first interrupt is made, and seen made,
 * before Z3_solver_check starts. And what the last check's watchdog did,
 * so a test asserts what the limit did rather than how long it took. */
struct z3_check_watch_facts {
    unsigned interrupts;      /* Z3_interrupt calls the watchdog made */
    char reason_unknown[64];  /* z3's reason for an unknown verdict, else "" */
};
static bool hook_fire_before_check, hooks_on;
static struct z3_check_watch_facts last_watch;

void z3_check_test_fire_before_check(bool on);
void z3_check_test_last_watch(struct z3_check_watch_facts *out);

void z3_check_test_fire_before_check(bool on) {
    hook_fire_before_check = on;
    hooks_on = true;
}

void z3_check_test_last_watch(struct z3_check_watch_facts *out) {
    *out = last_watch;
    hooks_on = true;
}

/* After the limit the interrupt is repeated at this pace until the check
 * returns: z3 clears a pending interrupt when a check starts, so one that
 * came before Z3_solver_check began its work (a 1 ms :timeout on a loaded
 * host) was lost and the check ran unbounded (test_z3_check hung for 30
 * minutes at load 10 on a^3 + b^3 = c^3 with :timeout 1). */
#define REINTERRUPT_MS 10

static void add_ms(struct timespec *t, unsigned ms) {
    t->tv_sec += ms / 1000;
    t->tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t->tv_nsec >= 1000000000L) t->tv_sec++, t->tv_nsec -= 1000000000L;
}

static void *watchdog_main(void *arg) {
    struct watchdog *w = arg;
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    if (!hook_fire_before_check) add_ms(&until, w->ms);
    pthread_mutex_lock(&w->mu);
    while (!w->done) {
        if (pthread_cond_timedwait(&w->cv, &w->mu, &until) == ETIMEDOUT && !w->done) {
            w->fired = true;
            w->interrupts++;
            Z3_interrupt(w->c);
            pthread_cond_broadcast(&w->cv); /* the hook's wait in guarded_check */
            add_ms(&until, REINTERRUPT_MS);
        }
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Returns 0 with the watchdog running, or -1 (nothing to clean up). */
static int watchdog_start(struct watchdog *w, Z3_context c, unsigned limit_ms) {
    memset(w, 0, sizeof *w);
    w->c = c;
    w->ms = limit_ms;
    pthread_condattr_t attr;
    if (pthread_condattr_init(&attr) != 0) return -1;
    int rc = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    if (rc == 0) rc = pthread_cond_init(&w->cv, &attr);
    pthread_condattr_destroy(&attr);
    if (rc != 0) return -1;
    if (pthread_mutex_init(&w->mu, NULL) != 0) {
        pthread_cond_destroy(&w->cv);
        return -1;
    }
    if (pthread_create(&w->thread, NULL, watchdog_main, w) != 0) {
        pthread_mutex_destroy(&w->mu);
        pthread_cond_destroy(&w->cv);
        return -1;
    }
    return 0;
}

/* Stops the watchdog; returns true when it interrupted the solver. */
static bool watchdog_stop(struct watchdog *w) {
    pthread_mutex_lock(&w->mu);
    w->done = true;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    return w->fired;
}

/* ---- checking --------------------------------------------------------------- */

/* One check under the watchdog: returns 0 with *r set, or -1 when the
 * watchdog could not be started (no check ran: an unguarded check could
 * outlive every deadline). *spoiled is set when the context must not be
 * reused (it was interrupted, or Z3 reported an error mid-check). */
static int guarded_check(Z3_context c, Z3_solver s, unsigned limit_ms, Z3_lbool *r, bool *spoiled) {
    struct watchdog w;
    if (watchdog_start(&w, c, limit_ms) != 0) return -1;
    if (hook_fire_before_check) {
        pthread_mutex_lock(&w.mu);
        while (!w.fired) pthread_cond_wait(&w.cv, &w.mu);
        pthread_mutex_unlock(&w.mu);
    }
    *r = Z3_solver_check(c, s);
    if (watchdog_stop(&w) || Z3_get_error_code(c) != Z3_OK) *spoiled = true;
    if (hooks_on) {
        last_watch = (struct z3_check_watch_facts){.interrupts = w.interrupts};
        /* only when no error is pending: the call would clear it */
        if (*r == Z3_L_UNDEF && Z3_get_error_code(c) == Z3_OK) {
            snprintf(last_watch.reason_unknown, sizeof last_watch.reason_unknown, "%s",
                     Z3_solver_get_reason_unknown(c, s));
            Z3_set_error(c, Z3_OK);
        }
    }
    return 0;
}

/* Assertion i into the solver: tracked under its :named label, so an unsat
 * core names it, when the scan's asserts are the parser's one for one. */
static void assert_one(Z3_context c, Z3_solver s, Z3_ast f, const struct cc_smt2_scan *scan, unsigned i,
                       unsigned n) {
    const char *label = !scan->has_scopes && scan->n_asserts == n ? scan->names[i] : NULL;
    if (!label) {
        Z3_solver_assert(c, s, f);
        return;
    }
    Z3_ast p = Z3_mk_const(c, Z3_mk_string_symbol(c, label), Z3_mk_bool_sort(c));
    if (!p) return;
    Z3_inc_ref(c, p);
    Z3_solver_assert_and_track(c, s, f, p);
    Z3_dec_ref(c, p);
}

/* A :named label is a name for an assertion, not a variable of the
 * problem: it leaves the model (z3 listed big = (not (<= x 5))). */
static json_t *drop_labels(json_t *res, const struct cc_smt2_scan *scan) {
    json_t *model = json_object_get(res, "model");
    if (!json_is_object(model) || json_object_get(model, "unsat_core")) return res;
    for (size_t i = 0; i < scan->n_asserts; i++)
        if (scan->names[i]) json_object_del(model, scan->names[i]);
    return res;
}

/* Parse, assert everything into one fresh solver, check once. */
static json_t *check_in(Z3_context c, const char *script, const struct cc_smt2_scan *scan, unsigned limit_ms,
                        bool *spoiled) {
    /* Z3_parse_smtlib2_string does not clear the error code a previous
     * failed parse left in the context; without this, one bad script would
     * make every later one on this context fail with the old message. */
    Z3_set_error(c, Z3_OK);
    Z3_ast_vector v = Z3_parse_smtlib2_string(c, script, 0, NULL, NULL, 0, NULL, NULL);
    Z3_error_code e = Z3_get_error_code(c); /* the next API call resets it */
    if (e != Z3_OK || !v) {
        json_t *err = z3_failure(c, e);
        /* a failed parse may still hand back a vector; release it, or it
         * would live as long as the shared context */
        if (v) {
            Z3_ast_vector_inc_ref(c, v);
            Z3_ast_vector_dec_ref(c, v);
        }
        return err;
    }
    Z3_ast_vector_inc_ref(c, v);
    json_t *res;
    Z3_solver s = Z3_mk_solver(c);
    if (!s || Z3_get_error_code(c) != Z3_OK) {
        res = z3_failure(c, Z3_get_error_code(c));
        s = NULL;
    } else {
        Z3_solver_inc_ref(c, s);
        unsigned n = Z3_ast_vector_size(c, v);
        for (unsigned i = 0; i < n && Z3_get_error_code(c) == Z3_OK; i++)
            assert_one(c, s, Z3_ast_vector_get(c, v, i), scan, i, n);
        if (Z3_get_error_code(c) != Z3_OK) {
            res = z3_failure(c, Z3_get_error_code(c));
        } else {
            Z3_lbool r = Z3_L_UNDEF;
            if (guarded_check(c, s, limit_ms, &r, spoiled) != 0)
                res = fail("resource_exhausted", "could not start the solver's time limit (thread creation failed)");
            else if (Z3_get_error_code(c) != Z3_OK)
                res = z3_failure(c, Z3_get_error_code(c));
            else
                res = drop_labels(verdict(c, s, r, n, limit_ms), scan);
        }
    }
    if (s) Z3_solver_dec_ref(c, s);
    Z3_ast_vector_dec_ref(c, v);
    return res;
}

/* One reference-counted context per worker process, reused across requests
 * (a fresh context costs from one to over a hundred milliseconds; a fresh
 * solver costs microseconds). Every script is parsed into its own command
 * context, so no declaration survives a request (named assertions and
 * definitions do: a script with :named or a define- command drops the
 * context). Reference counting keeps
 * the context from growing: everything a request made is released by the
 * end of it. The context is dropped after an interrupt or an error. */
static Z3_context shared_ctx;

static Z3_context context_get(void) {
    if (shared_ctx) return shared_ctx;
    Z3_config cfg = Z3_mk_config();
    if (!cfg) return NULL;
    shared_ctx = Z3_mk_context_rc(cfg);
    Z3_del_config(cfg);
    if (shared_ctx) Z3_set_error_handler(shared_ctx, ignore_z3_error);
    return shared_ctx;
}

static void context_drop(void) {
    if (shared_ctx) Z3_del_context(shared_ctx);
    shared_ctx = NULL;
}

/* What the tool cannot answer as the script asks. (check-sat-assuming (p))
 * was answered sat with p = false: the parser drops the assumptions. NULL
 * when every check can be answered. */
static json_t *unanswerable(const struct cc_smt2_scan *sc) {
    if (!sc->complete) return NULL; /* z3 names what stopped the scan */
    if (sc->n_checks == 0)
        return fail("validation", "script has no (check-sat) command (the word appears only in a comment, "
                                  "string or symbol); z3 would report the state of an unchecked solver, not a "
                                  "verdict");
    if (sc->assuming)
        return fail("validation", "(check-sat-assuming ...) is not supported: this tool checks the asserted "
                                  "formulas only, so its answer would ignore the assumptions; assert them "
                                  "instead: (assert p) (check-sat)");
    if (sc->n_checks > Z3_MAX_CHECKS)
        return fail("validation", "the script has %zu (check-sat) commands; this tool answers at most %u in "
                    "one call (each is a solver run of up to %u ms): split the script", sc->n_checks,
                    Z3_MAX_CHECKS, Z3_TIMEOUT_MS);
    return NULL;
}

static long elapsed_ms(const struct timespec *t0) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* A check the script's time budget left no time for. */
static json_t *not_run(size_t asserts) {
    json_t *r = answer("unknown", json_null(), asserts, 0);
    json_object_set_new(r, "reason", json_string("not run: the checks before it spent the script's "
                                                 "time budget"));
    return graded(r, "ungraded", "not graded: the check was not run, which decides nothing");
}

/* Check k answered at its place: the script up to its closing ')' is
 * parsed alone, so the assertions the parser leaves are the ones in scope
 * when the script asked (a check inside a scope popped later was answered
 * for the outer scope; an assert after the check changed its answer). */
static json_t *check_at(Z3_context c, char *text, const struct cc_smt2_scan *scan, size_t k, unsigned budget_ms,
                        bool *spoiled) {
    const struct cc_smt2_check *at = &scan->checks[k];
    unsigned limit_ms = check_limit_ms(at->timeout_ms);
    if (budget_ms == 0) return not_run(at->asserts);
    if (budget_ms < limit_ms) limit_ms = budget_ms;
    struct cc_smt2_scan view = *scan;
    view.n_asserts = at->asserts; /* the labels of the asserts it sees */
    char saved = text[at->end];
    text[at->end] = '\0';
    json_t *r = check_in(c, text, &view, limit_ms, spoiled);
    text[at->end] = saved;
    return r;
}

/* checks[k]: the line and answer of check k. */
static json_t *check_entry(const struct cc_smt2_check *at, const json_t *r) {
    json_t *e = json_object();
    json_object_set_new(e, "line", json_integer((json_int_t)at->line));
    static const char *const keys[] = {"result", "model", "assertions", "reason"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        json_t *v = json_object_get(r, keys[i]);
        if (v) json_object_set(e, keys[i], v);
    }
    return e;
}

/* Every check of a complete scan, in order, under one time budget. The
 * result is the last check's (what a one-check script gets), plus, when
 * there are several, each check's answer in checks. A failing check fails
 * the call. A check interrupted or failed inside z3 leaves the context
 * unfit: the next check gets a fresh one. */
static json_t *check_all(char *text, const struct cc_smt2_scan *scan, bool *spoiled) {
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    json_t *list = json_array(), *last = NULL;
    for (size_t k = 0; k < scan->n_checks; k++) {
        Z3_context c = context_get();
        if (!c) {
            json_decref(last);
            last = NULL;
            break;
        }
        long used = elapsed_ms(&t0);
        unsigned budget = used >= Z3_SCRIPT_BUDGET_MS ? 0 : Z3_SCRIPT_BUDGET_MS - (unsigned)used;
        bool unfit = *spoiled;
        json_decref(last);
        last = check_at(c, text, scan, k, budget, &unfit);
        if (unfit && k + 1 < scan->n_checks) context_drop();
        *spoiled |= unfit;
        if (!last || !json_is_true(json_object_get(last, "ok"))) break;
        json_array_append_new(list, check_entry(&scan->checks[k], last));
    }
    if (last && json_is_true(json_object_get(last, "ok")) && scan->n_checks > 1) {
        json_object_set_new(last, "checks", list);
        json_object_set_new(last, "note", json_sprintf("the script has %zu (check-sat) commands: checks answers "
                                                       "each at its place; result, model and grade are the "
                                                       "last one's", scan->n_checks));
        return last;
    }
    json_decref(list);
    return last;
}

json_t *cc_tool_z3_check(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    const json_t *js = json_object_get(args, "smt2");
    if (!json_is_string(js)) return fail("validation", "smt2 must be a string");
    const char *script = json_string_value(js);
    size_t n = json_string_length(js);
    if (script_is_empty(script, n))
        return fail("validation", "empty SMT-LIB2 script: nothing to check. An empty script is "
                                  "trivially satisfiable, which is not an answer to any question.");
    if (!memmem(script, n, "check-sat", 9))
        return fail("validation", "script has no (check-sat); z3 would report the state of an "
                                  "unchecked solver, not a verdict");
    if (memchr(script, '\0', n)) return fail("validation", "smt2 must not contain NUL characters");

    Z3_context c = context_get();
    if (!c) return NULL;
    /* A named assertion (:named a1) outlives its command context: z3 keeps
     * the name bound in the shared context, and every later model on this
     * worker listed a1 with its formula, another caller's assertion. A
     * script that names assertions gets the context dropped after it. */
    bool spoiled = memmem(script, n, ":named", 6) != NULL;
    /* So does a definition: after (define-fun key () String "..."), every
     * later model on this worker that touched strings or arrays listed key
     * with its value, another caller's definition. define-fun-rec,
     * define-funs-rec and z3's define-const do the same (a false match, in a
     * comment or a string, costs only a fresh context). */
    spoiled |= memmem(script, n, "define-", 7) != NULL;
    char *text = strndup(script, n);
    struct cc_smt2_scan scan;
    if (!text || cc_smt2_scan(text, n, &scan) != 0) {
        free(text);
        return NULL;
    }
    /* An option the script sets (other than the output options the scan
     * blanked) outlives it: z3's parser stores most of them as global
     * parameters, which a fresh context inherits, and after
     * (set-option :timeout 1) every later script on this worker, another
     * caller's, was answered unknown. Such a script drops the context and
     * resets the global parameters (this worker sets none of its own). */
    bool options = memmem(text, n, "set-option", 10) != NULL;
    spoiled |= options;
    json_t *res = unanswerable(&scan);
    if (!res && scan.complete) res = check_all(text, &scan, &spoiled);
    /* a script that does not scan: z3 reads it whole and names the fault */
    else if (!res) res = check_in(c, text, &scan, check_limit_ms(scan.timeout_ms), &spoiled);
    cc_smt2_scan_free(&scan);
    free(text);
    if (spoiled) context_drop();
    if (options) Z3_global_param_reset_all();
    return res;
}
