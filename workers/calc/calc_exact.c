/* calc_exact (TOOLS.md 3.3.1): the pipeline (screen, parse, evaluate, format
 * limit) and the tool handler. The evaluator is calc_eval.c, the functions
 * calc_funcs.c and calc_binary64.c, the success object calc_render.c. */
#include "workers/calc/calc_exact.h"

#include <stdlib.h>
#include <string.h>

#include "workers/calc/calc_internal.h"
#include "workers/common/expr_parse.h"

const unsigned CC_CALC_LOOK_BITS[CC_CALC_LOOKS] = {256, 384};

void cc_calc_outcome_init(struct cc_calc_outcome *o) {
    memset(o, 0, sizeof *o);
    mpq_init(o->q);
    for (int k = 0; k < CC_CALC_LOOKS; k++) mpq_init(o->look[k].q);
}

void cc_calc_outcome_clear(struct cc_calc_outcome *o) {
    free(o->message);
    o->message = NULL;
    mpq_clear(o->q);
    for (int k = 0; k < CC_CALC_LOOKS; k++) mpq_clear(o->look[k].q);
}

/* msg NULL means the copy or an earlier step ran out of memory. */
static void set_failure(struct cc_calc_outcome *o, const char *code, const char *msg) {
    o->ok = false;
    o->code = code;
    free(o->message);
    o->message = strdup(msg ? msg : "expression exhausted the memory ceiling");
}

/* |x| >= 10**4300 means more than 4300 decimal digits. */
static bool too_large_to_format(const mpq_t q) {
    if (mpz_sizeinbase(mpq_numref(q), 10) <= CALC_FORMAT_DIGITS &&
        mpz_sizeinbase(mpq_denref(q), 10) <= CALC_FORMAT_DIGITS)
        return false;
    mpz_t lim;
    mpz_init(lim);
    mpz_ui_pow_ui(lim, 10, CALC_FORMAT_DIGITS);
    bool big = mpz_cmpabs(mpq_numref(q), lim) >= 0 || mpz_cmp(mpq_denref(q), lim) >= 0;
    mpz_clear(lim);
    return big;
}

/* Moves an evaluated value (or the evaluation's failure) into o. */
static void settle(struct cc_calc_outcome *o, const struct calc_ev *e, int rc,
                   const struct calc_val *v) {
    if (rc != 0) {
        set_failure(o, e->code, e->msg);
        o->remedy = e->remedy;
        return;
    }
    if (!v->is_bool && too_large_to_format(v->q)) {
        set_failure(o, "resource_exhausted", "result too large to format");
        return;
    }
    o->ok = true;
    o->is_bool = v->is_bool;
    if (v->is_bool) o->truth = mpq_sgn(v->q) != 0;
    else mpq_set(o->q, v->q);
    o->funcs = e->funcs;
    o->consts = e->consts;
}

static bool same_nonzero(mpq_srcptr a, mpq_srcptr b);

/* a and b nonzero, of one sign and equal to bits bits of b's size. */
static bool agree_to_bits(mpq_srcptr a, mpq_srcptr b, unsigned bits) {
    if (mpq_sgn(a) == 0 || mpq_sgn(a) != mpq_sgn(b)) return false;
    mpq_t d, s;
    mpq_inits(d, s, NULL);
    mpq_sub(d, a, b);
    mpq_abs(d, d);
    mpq_abs(s, b);
    mpq_mul_2exp(d, d, bits);
    bool eq = mpq_cmp(d, s) <= 0;
    mpq_clears(d, s, NULL);
    return eq;
}

/* The bits two looks' differences of one comparison must share for it to
 * be real: a residue of approximations shrinks from look to look by about
 * 2^-128 (exp(100) - exp(50)**2 is 6e-34 at 256 bits and 2e-72 at 384),
 * a real difference stays. */
#define CMP_AGREE_BITS 16

/* One comparison as the two looks decided it. Too close for both: real
 * when both find one nonzero difference to 200 bits (exp(-1000) > 0), not
 * when it shrinks with the precision or is 0 (sqrt(2)**2 == 2). Decided
 * by a rule on either look: the same sign. Otherwise the differences must
 * agree to CMP_AGREE_BITS: a comparison beyond both looks' reach of its
 * sides' size can still be a residue of cancelled approximations
 * (exp(100) - exp(50)*exp(50) == 0 was false: 6e-34 and 2e-72 are beyond
 * a reach scaled by 1, and the true difference is 0), and one too close
 * for one look only is real when the other holds it (exp(-221) > 0: 1e-96
 * is within 256 bits' reach, beyond 384's). */
static bool comparison_real(const struct calc_cmp *x, const struct calc_cmp *y) {
    if (x->rule && y->rule) return x->sign == y->sign;
    if (x->rule || y->rule) return x->sign == y->sign && x->sign != 0;
    if (x->near && y->near) return same_nonzero(x->d, y->d);
    return agree_to_bits(x->d, y->d, CMP_AGREE_BITS);
}

/* The looks stand only where they made the same comparisons of
 * approximations, each real (comparison_real). */
static bool near_comparisons_real(const struct calc_ev e[CC_CALC_LOOKS]) {
    if (e[0].ncmp != e[1].ncmp) return false;
    for (int i = 0; i < e[0].ncmp; i++)
        if (!comparison_real(&e[0].cmp[i], &e[1].cmp[i])) return false;
    return true;
}

static void calc_val_init(struct calc_val *v) {
    memset(v, 0, sizeof *v);
    mpq_init(v->q);
}

/* Look l of an outcome whose evaluation on e returned rc with value v. */
static void fill_look(struct cc_calc_look *l, bool is_bool, int rc, const struct calc_ev *e,
                      const struct calc_val *v) {
    l->ok = rc == 0 && !e->close && v->is_bool == is_bool;
    l->truth = v->is_bool && mpq_sgn(v->q) != 0;
    l->tiny = v->is_bool ? 0 : v->tiny;
    l->dist = l->tiny ? v->dist : (struct calc_dist){.known = false};
    l->unproven = !v->is_bool && v->unproven;
    l->no_distance = v->is_bool && e->no_distance;
    mpq_set(l->q, v->q);
}

/* The looks of o end: void unless their too-close comparisons are real;
 * e[] released. */
static void settle_looks(struct calc_ev e[CC_CALC_LOOKS], struct cc_calc_outcome *o) {
    if (!near_comparisons_real(e))
        for (int k = 0; k < CC_CALC_LOOKS; k++) o->look[k].ok = false;
    for (int k = 0; k < CC_CALC_LOOKS; k++) {
        calc_near_clear(&e[k]);
        free(e[k].msg);
    }
    o->looked = true;
}

/* The second looks at an approximated result (calc_internal.h). */
static void look_again(const struct cc_node *root, struct cc_calc_outcome *o) {
    struct calc_ev e[CC_CALC_LOOKS];
    for (int k = 0; k < CC_CALC_LOOKS; k++) {
        e[k] = (struct calc_ev){.prec = CC_CALC_LOOK_BITS[k]};
        struct calc_val v;
        calc_val_init(&v);
        fill_look(&o->look[k], o->is_bool, calc_eval(&e[k], root, &v), &e[k], &v);
        mpq_clear(v.q);
    }
    settle_looks(e, o);
}

/* How the comparison comes out in binary64 as Python's floats compute it
 * (calc_internal.h, b64): TOOLS.md's own evaluation mixes the shortest
 * repr of a function's double with the exact value of a constant's, so
 * atan(10**200) == pi/2 and exp(1) == e were false there, where the doubles
 * are equal. A pass that fails (a float overflow) gives no binary64_value. */
static void binary64_pass(const struct cc_node *root, struct cc_calc_outcome *o) {
    struct calc_ev e = {.b64 = true};
    struct calc_val v;
    mpq_init(v.q);
    v.is_bool = false;
    o->b64_ok = calc_eval(&e, root, &v) == 0 && v.is_bool;
    o->b64_truth = o->b64_ok && mpq_sgn(v.q) != 0;
    free(e.msg);
    mpq_clear(v.q);
}

static void finish_alone(const struct cc_node *root, struct cc_calc_outcome *o);

/* Evaluates root into o; with looks, the looks and binary64 pass an
 * approximated outcome gets (finish_alone). */
static void evaluate_tree(const struct cc_node *root, struct cc_calc_outcome *o, bool looks) {
    struct calc_ev e = {0};
    struct calc_val v;
    mpq_init(v.q);
    v.is_bool = false;
    settle(o, &e, calc_eval(&e, root, &v), &v);
    if (looks) finish_alone(root, o);
    free(e.msg);
    mpq_clear(v.q);
}

/* |a - b| <= |scale| * 2^-200 (scale at least 1): equal as far as the
 * looks can tell (they carry 256 and 384 bits, less what a long chain of
 * operations costs). */
static bool equal_to_200_bits(mpq_srcptr a, mpq_srcptr b, mpq_srcptr scale) {
    mpq_t d, s;
    mpq_inits(d, s, NULL);
    mpq_sub(d, a, b);
    mpq_abs(d, d);
    mpq_abs(s, scale);
    if (mpq_cmp_ui(s, 1, 1) < 0) mpq_set_ui(s, 1, 1);
    mpq_mul_2exp(d, d, 200);
    bool eq = mpq_cmp(d, s) <= 0;
    mpq_clears(d, s, NULL);
    return eq;
}

/* a and b nonzero, of one sign and equal to 200 bits of their own size.
 * Two looks that agree so carry a nonzero true value, however small: the
 * floor of 1 in equal_to_200_bits() (there for the rounding residue a
 * true zero leaves, different at each precision) read exp(-1000), 5e-435,
 * as equal to the double's 0 and made it exact. */
static bool same_nonzero(mpq_srcptr a, mpq_srcptr b) { return agree_to_bits(a, b, 200); }

/* Both looks differ from v by one nonzero amount, to 200 bits of its size:
 * a real difference, however small beside v (1 + exp(-1000) is not 1,
 * although 5e-435 is far below any tolerance scaled by 1). A true value
 * leaves residues that differ from look to look. */
static bool looks_differ_from(const struct cc_calc_outcome *o, mpq_srcptr v) {
    mpq_t d0, d1;
    mpq_inits(d0, d1, NULL);
    mpq_sub(d0, o->look[0].q, v);
    mpq_sub(d1, o->look[1].q, v);
    bool differ = same_nonzero(d0, d1);
    mpq_clears(d0, d1, NULL);
    return differ;
}

enum cc_calc_verdict cc_calc_check_value(const struct cc_calc_outcome *o, mpq_srcptr v) {
    if (!o->looked || !o->look[0].ok || !o->look[1].ok) return CC_CALC_UNSURE;
    /* only the side of the true value is known, not how far */
    if (o->look[0].tiny || o->look[1].tiny) return CC_CALC_UNSURE;
    if (looks_differ_from(o, v)) return CC_CALC_DIFFERS;
    enum cc_calc_verdict r;
    if (same_nonzero(o->look[0].q, o->look[1].q))
        r = same_nonzero(v, o->look[1].q) ? CC_CALC_SAME : CC_CALC_DIFFERS;
    else if (!equal_to_200_bits(o->look[0].q, o->look[1].q, o->look[1].q))
        r = CC_CALC_UNSURE;
    else
        r = equal_to_200_bits(o->look[1].q, v, v) ? CC_CALC_SAME : CC_CALC_DIFFERS;
    /* agreement to 200 bits is no proof where a function's value was not
     * proven: a difference below what the looks hold looks the same */
    if (r == CC_CALC_SAME && (o->look[0].unproven || o->look[1].unproven)) return CC_CALC_UNSURE;
    return r;
}

enum cc_calc_verdict cc_calc_check_truth(const struct cc_calc_outcome *o) {
    if (!o->looked || !o->look[0].ok || !o->look[1].ok || o->look[0].truth != o->look[1].truth)
        return CC_CALC_UNSURE;
    return o->look[1].truth == o->truth ? CC_CALC_SAME : CC_CALC_DIFFERS;
}

bool cc_calc_value_exact(const struct cc_calc_outcome *o) {
    if (!o->looked) return true;
    return o->consts == 0 && calc_is_int(o->q) && cc_calc_check_value(o, o->q) == CC_CALC_SAME;
}

bool cc_calc_looked_truth(const struct cc_calc_outcome *o, bool *truth) {
    if (!o->looked || !o->is_bool || !o->look[0].ok || !o->look[1].ok ||
        o->look[0].truth != o->look[1].truth)
        return false;
    *truth = o->look[1].truth;
    return true;
}

/* One arena for every evaluation of this (single-threaded) worker, reset
 * after each: the values leave it copied into the outcomes. NULL on OOM. */
static struct cc_arena *shared_arena(void) {
    static struct cc_arena *a;
    if (!a) a = cc_arena_new();
    return a;
}

/* Parses src into a and evaluates it into o; the tree (NULL when the text
 * was refused) lives until a is reset. */
static const struct cc_node *parse_and_evaluate(struct cc_arena *a, const char *src, size_t len,
                                                struct cc_calc_outcome *o, bool looks) {
    struct cc_expr_error err = {0};
    const struct cc_node *root = cc_expr_screen_parse(a, src, len, CC_DIALECT_PYTHON, &err);
    if (root) evaluate_tree(root, o, looks);
    else set_failure(o, err.code, err.message);
    return root;
}

void cc_calc_evaluate(const char *src, size_t len, struct cc_calc_outcome *o) {
    struct cc_arena *a = shared_arena();
    if (!a) {
        set_failure(o, "resource_exhausted", NULL);
        return;
    }
    parse_and_evaluate(a, src, len, o, true);
    cc_arena_reset(a);
}

/* l op r as one comparison node of the two parsed trees (which stay
 * theirs: the node only points at them). NULL on OOM. */
static const struct cc_node *relation_node(struct cc_arena *a, const struct cc_node *l,
                                           const struct cc_node *r, enum cc_op op) {
    struct cc_node *n = cc_arena_node(a, CC_N_COMPARE, 0);
    struct cc_node **kids = cc_arena_alloc(a, 2 * sizeof *kids);
    enum cc_op *ops = cc_arena_alloc(a, sizeof *ops);
    if (!n || !kids || !ops) return NULL;
    kids[0] = (struct cc_node *)l;
    kids[1] = (struct cc_node *)r;
    ops[0] = op;
    n->nchild = 2;
    n->child = kids;
    n->cmp_ops = ops;
    return n;
}

/* The state of the comparison of two sides evaluated on el and er: what
 * one evaluation of "l op r" would have recorded by the time both operands
 * were done (a look too close to call, the too-close comparisons in
 * order, a comparison decided without its distance). */
static void join_sides(struct calc_ev *c, const struct calc_ev *el, const struct calc_ev *er) {
    c->close = el->close || er->close;
    c->no_distance = el->no_distance || er->no_distance;
    for (int s = 0; s < 2; s++) {
        const struct calc_ev *from = s ? er : el;
        for (int i = 0; i < from->ncmp; i++) {
            if (c->ncmp == CALC_CMP_MAX) { /* calc_near_equal's bound */
                c->close = true;
                return;
            }
            struct calc_cmp *to = &c->cmp[c->ncmp++];
            mpq_init(to->d);
            mpq_set(to->d, from->cmp[i].d);
            to->sign = from->cmp[i].sign;
            to->near = from->cmp[i].near;
            to->rule = from->cmp[i].rule;
        }
    }
}

/* The looks of l, r (those approximated) and rel = "l op r" (node n over
 * the sides' trees ln, rn), from one evaluation of each side per look: the
 * relation is decided on the sides' values (calc_compare_values) instead
 * of evaluating both trees again. */
static void look_relation(const struct cc_node *n, struct cc_calc_outcome *l,
                          struct cc_calc_outcome *r, struct cc_calc_outcome *rel) {
    struct calc_ev el[CC_CALC_LOOKS], er[CC_CALC_LOOKS], ec[CC_CALC_LOOKS];
    bool need_l = l->funcs || l->consts, need_r = r->funcs || r->consts;
    for (int k = 0; k < CC_CALC_LOOKS; k++) {
        unsigned prec = CC_CALC_LOOK_BITS[k];
        el[k] = er[k] = ec[k] = (struct calc_ev){.prec = prec};
        struct calc_val vl, vr;
        calc_val_init(&vl);
        calc_val_init(&vr);
        int rcl = calc_eval(&el[k], n->child[0], &vl);
        int rcr = calc_eval(&er[k], n->child[1], &vr);
        if (need_l) fill_look(&l->look[k], false, rcl, &el[k], &vl);
        if (need_r) fill_look(&r->look[k], false, rcr, &er[k], &vr);
        int rc = -1;
        if (rcl == 0 && rcr == 0) {
            join_sides(&ec[k], &el[k], &er[k]);
            rc = calc_compare_values(&ec[k], n, &vl, &vr, false, 0);
        }
        fill_look(&rel->look[k], true, rc, &ec[k], &vl);
        mpq_clear(vl.q);
        mpq_clear(vr.q);
    }
    if (need_l) settle_looks(el, l);
    else for (int k = 0; k < CC_CALC_LOOKS; k++) calc_near_clear(&el[k]), free(el[k].msg);
    if (need_r) settle_looks(er, r);
    else for (int k = 0; k < CC_CALC_LOOKS; k++) calc_near_clear(&er[k]), free(er[k].msg);
    settle_looks(ec, rel);
}

/* An evaluated outcome's looks and binary64 pass, as evaluate_tree gives
 * them (root evaluated into o without them). */
static void finish_alone(const struct cc_node *root, struct cc_calc_outcome *o) {
    if (!o->ok || !(o->funcs || o->consts)) return;
    look_again(root, o);
    if (o->is_bool) binary64_pass(root, o);
}

void cc_calc_evaluate_relation(const char *sa, size_t alen, const char *sb, size_t blen, enum cc_op op,
                               struct cc_calc_outcome *l, struct cc_calc_outcome *r,
                               struct cc_calc_outcome *rel) {
    struct cc_arena *a = shared_arena();
    if (!a) {
        set_failure(l, "resource_exhausted", NULL);
        set_failure(r, "resource_exhausted", NULL);
        return;
    }
    const struct cc_node *ln = parse_and_evaluate(a, sa, alen, l, false);
    const struct cc_node *rn = parse_and_evaluate(a, sb, blen, r, false);
    const struct cc_node *n = NULL;
    if (l->ok && r->ok && !l->is_bool && !r->is_bool && (l->funcs || l->consts || r->funcs || r->consts))
        n = relation_node(a, ln, rn, op);
    if (n) {
        rel->ok = true;
        rel->is_bool = true;
        look_relation(n, l, r, rel);
    } else {
        finish_alone(ln, l);
        finish_alone(rn, r);
    }
    cc_arena_reset(a);
}

/* A comparison's answer. Of approximated values (sqrt(2) == 1.4142135623730951
 * is true between the doubles) the truth is the true values', as the second
 * looks tell it, and null when they cannot (sqrt(2)**2 == 2: equal to every
 * bit they carry, which no evaluation can turn into a proof);
 * binary64_value is the b64 pass's. */
static json_t *render_truth(const struct cc_calc_outcome *o) {
    json_t *r = cc_ok();
    enum cc_calc_verdict v = o->looked ? cc_calc_check_truth(o) : CC_CALC_SAME;
    bool truth = v == CC_CALC_DIFFERS ? !o->truth : o->truth;
    json_object_set_new(r, "value", v == CC_CALC_UNSURE ? json_null() : json_boolean(truth));
    json_object_set_new(r, "type", json_string("bool"));
    if (!o->looked) return r;
    json_object_set_new(r, "binary64_value", o->b64_ok ? json_boolean(o->b64_truth) : json_null());
    const char *note =
        v == CC_CALC_UNSURE
            ? "undecided: the sides hold binary64 approximations and are too close for an evaluation at "
              "256 and 384 bits to tell them apart (an identity such as sqrt(2)**2 == 2 looks like this); "
              "prove it symbolically, e.g. with algebraic_equiv"
        : !o->b64_ok ? "the sides hold binary64 approximations; evaluated again at 256 and 384 bits the "
                       "comparison comes out as given (in Python's floats it overflows: binary64_value null)"
        : truth == o->b64_truth ? "the sides hold binary64 approximations; evaluated again at 256 and 384 bits "
                                  "the comparison comes out the same"
                                : "the sides hold binary64 approximations and the comparison between them "
                                  "(binary64_value) is not the comparison of the true values: evaluated at 256 "
                                  "and 384 bits it comes out the other way, which is the value given";
    json_object_set_new(r, "note", json_string(note));
    return r;
}

json_t *cc_tool_calc_exact(json_t *args, cc_wctx *ctx) {
    (void)ctx;
    json_t *j = json_object_get(args, "expr");
    if (!json_is_string(j)) return cc_err("validation", "expr must be a string");
    struct cc_calc_outcome o;
    cc_calc_outcome_init(&o);
    cc_calc_evaluate(json_string_value(j), json_string_length(j), &o);
    json_t *r;
    if (!o.ok) {
        r = cc_err(o.code, "%s", o.message ? o.message : "evaluation failed");
        if (o.remedy) json_object_set_new(r, "remedy", json_string(o.remedy));
    } else if (o.is_bool) {
        r = render_truth(&o);
    } else {
        r = calc_render_number(&o);
    }
    cc_calc_outcome_clear(&o);
    return r;
}
