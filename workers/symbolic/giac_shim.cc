// The giac shim: our AST -> giac values, giac operations, giac values -> our
// result tree. See giac_shim.h for the contract. Nothing here parses text.
#include <giac/config.h>
// The Debian library is built with the constants (plus_inf, cst_pi...) as
// plain objects; the headers must be told so or they read them as pointers.
#define GIAC_GENERIC_CONSTANTS
#include <giac/giac.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <streambuf>
#include <string>

extern "C" {
#include "workers/common/expr_funcs.h"
#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_float.h"
#include "workers/symbolic/sym_limcheck.h"
#include "workers/symbolic/sym_numeval.h"
#include "workers/symbolic/sym_nval.h"
#include "workers/symbolic/sym_print.h"
#include "workers/symbolic/sym_sumest.h"
}
#include "workers/symbolic/sym_profile.h"

using namespace giac;

struct cc_gexpr {
    gen g;
};

namespace {

context *g_ctx;

// Every internal failure is thrown as this and turned into *err at the API
// boundary; giac's own exceptions are caught there too.
struct shim_error {
    const char *code;
    std::string msg;
};

[[noreturn]] void fail(const char *code, const char *fmt, ...) {
    char buf[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    throw shim_error{code, buf};
}

// giac writes warnings to std::cout/cerr; the worker's stdout is a protocol
// pipe, so both C++ streams are pointed at a sink that drops everything.
struct null_buf : std::streambuf {
    int overflow(int c) override { return c == EOF ? 0 : c; }
};
// Never destroyed: the iostream teardown at exit still flushes std::cout,
// so a static sink destroyed before it would be used after its lifetime.
null_buf *const g_null = new null_buf;

const char *const PREFIX = "u_";

gen user_symbol(const char *name) {
    return gen(identificateur(std::string(PREFIX) + name));
}

void set_err(cc_sym_err *err, const char *code, const std::string &msg) {
    if (!err)
        return;
    err->code = code;
    err->declined = false;
    snprintf(err->msg, sizeof err->msg, "%s", msg.c_str());
}

// giac reports many errors as a string value rather than an exception.
gen checked(const gen &r) {
    if (r.type == _STRNG)
        fail("validation", "%s", r._STRNGptr->c_str());
    return r;
}

// The context's modes as a step found them, restored when it ends: giac's
// integrate of x**2/(x**4 + 5) over [0, 3] switched complex_mode on and
// left it so, and from then on the worker read sqrt(x**2) as x (in that
// request and every later one: limit(sqrt(x**2)/x, x, 0) answered
// two_sided 1).
struct keep_modes {
    bool complex, trig;
    keep_modes() : complex(complex_mode(g_ctx)), trig(all_trig_sol(g_ctx)) {}
    ~keep_modes() {
        complex_mode(complex, g_ctx);
        all_trig_sol(g_ctx) = trig;
    }
    keep_modes(const keep_modes &) = delete;
    keep_modes &operator=(const keep_modes &) = delete;
};

// giac's context digits and MPFR's default precision, restored on leaving
// a scope: evalf at 30 digits leaves both raised, and every float made
// after it printed 25 digits (0.6366197723675813824328884).
struct keep_precision {
    int digits;
    mpfr_prec_t prec;
    keep_precision() : digits(decimal_digits(g_ctx)), prec(mpfr_get_default_prec()) {}
    ~keep_precision() {
        decimal_digits(g_ctx) = digits;
        mpfr_set_default_prec(prec);
    }
    keep_precision(const keep_precision &) = delete;
    keep_precision &operator=(const keep_precision &) = delete;
};

gen call(const unary_function_ptr *f, const gen &args) {
    keep_modes keep;
    return checked(symbolic(f, args).eval(1, g_ctx));
}

// ---- AST -> gen ------------------------------------------------------------

// Floats in calls (defined with settled(), below the function table).
bool float_part(const gen &x);
bool float_number(const gen &r);
bool is_finite_real(const gen &x);
bool float_at_pole(const cc_node *n, const char *name);
bool float_constant_value(const cc_node *n, gen &out);

// giac's pow() helper rewrites a^b as exp(b*ln(a)); the ^ node keeps x**2.
// giac's pow(0, 0) is undef; SymPy and Python define 0**0 = 1 (as x**0 = 1
// already gives every other base), so an exact 0**0 is 1.
gen power(const gen &a, const gen &b) {
    if (a.type == _INT_ && a.val == 0 && b.type == _INT_ && b.val == 0)
        return gen(1);
    // 0.0**0.0 (and 0**0.0, 0.0**0) is 1.0 in SymPy and Python, not a nan
    if (is_exactly_zero(a) && is_exactly_zero(b) && (float_part(a) || float_part(b)))
        return gen(1.0);
    // giac evaluates 0^x to undef for a symbolic x, but 0**x is 0 wherever
    // Re(x) > 0 (SymPy keeps it as written): the power stays unevaluated
    if (a.type == _INT_ && a.val == 0 && !lidnt(b).empty() && b.type != _INT_)
        return symbolic(at_pow, makesequence(a, b));
    return call(at_pow, makesequence(a, b));
}

// giac's immediate doubles lose low mantissa bits to its type tag; a 53-bit
// MPFR real keeps binary64 values exact (0.1 + 0.2 prints as sympy does).
gen real53(double d) { return gen(real_object(d)); }

// giac expects small integers as immediate _INT_ values (a _ZINT exponent 2
// sends x^2 down the exp(2*ln(x)) path), so only big ones stay _ZINT.
gen integer(const mpz_t v) {
    if (mpz_fits_sint_p(v))
        return gen((int)mpz_get_si(v));
    mpz_t t; // giac's constructor wants a non-const mpz
    mpz_init_set(t, v);
    try {
        gen g(t);
        mpz_clear(t);
        return g;
    } catch (...) {
        mpz_clear(t);
        throw;
    }
}

gen from_node(const cc_node *n);

gen seq_of(const cc_node *n, size_t from = 0) {
    vecteur v;
    for (size_t i = from; i < n->nchild; i++)
        v.push_back(from_node(n->child[i]));
    return gen(v, _SEQ__VECT);
}

gen from_name(const cc_node *n) {
    const char *s = n->v.name;
    if (!strcmp(s, "pi"))
        return cst_pi;
    if (!strcmp(s, "E"))
        return symbolic(at_exp, gen(1));
    if (!strcmp(s, "EulerGamma"))
        return cst_euler_gamma;
    if (!strcmp(s, "I"))
        return cst_i;
    if (!strcmp(s, "oo"))
        return plus_inf;
    if (!strcmp(s, "zoo"))
        return unsigned_inf;
    if (!strcmp(s, "nan"))
        return undef;
    if (cc_expr_is_function(s))
        fail("validation", "parse error: function '%s' used without arguments", s);
    return user_symbol(s);
}

void need_args(const char *name, const cc_node *n, size_t lo, size_t hi) {
    if (n->nchild < lo || n->nchild > hi)
        fail("validation", "parse error: %s() takes %zu to %zu arguments, got %u", name, lo,
             hi, (unsigned)n->nchild);
}

gen arg(const cc_node *n, size_t i) { return from_node(n->child[i]); }

// A (var, lo, hi) tuple or a bare var, flattened into v.
void push_limits(vecteur &v, const cc_node *n) {
    if (n->kind == CC_N_TUPLE) {
        for (size_t i = 0; i < n->nchild; i++)
            v.push_back(from_node(n->child[i]));
    } else {
        v.push_back(from_node(n));
    }
}

gen integral_args(const cc_node *n) {
    vecteur v(1, arg(n, 0));
    for (size_t i = 1; i < n->nchild; i++)
        push_limits(v, n->child[i]);
    if (v.size() == 1) { // integrate(f): the one free symbol
        vecteur ids = lidnt(v[0]);
        if (ids.size() != 1)
            fail("validation", "parse error: integrate() needs the variable of integration");
        v.push_back(ids[0]);
    }
    return gen(v, _SEQ__VECT);
}

gen prime_factors(const gen &n) {
    gen f = call(at_ifactors, n);
    if (f.type != _VECT)
        fail("validation", "parse error: primefactors() needs an integer");
    vecteur out;
    for (size_t i = 0; i + 1 < f._VECTptr->size(); i += 2)
        out.push_back((*f._VECTptr)[i]);
    return gen(out, 0);
}

// factorint: [p1, e1, p2, e2, ...] tagged as a map so to_tree emits a dict.
gen factor_int(const gen &n) {
    gen f = call(at_ifactors, n);
    if (f.type != _VECT)
        fail("validation", "parse error: factorint() needs an integer");
    return gen(*f._VECTptr, _POLY1__VECT);
}

typedef gen (*special_fn)(const cc_node *n, const char *name);

struct fn_entry {
    const char *name;
    const unary_function_ptr *f; // applied to the evaluated arguments
    unsigned lo, hi;
    special_fn special;           // or built by hand
};

// A value holding a user symbol (a parameter) is no number, and is never
// handed to evalf: evalf of an unevaluated integral with a parameter runs
// giac's quadrature on it, whose sign tests recurse without end
// (integrate(exp(-a*x), (x, 0, oo)) exhausted the worker's CPU).
bool has_user_symbol(const gen &g) {
    for (const gen &v : lidnt(g))
        if (v.type == _IDNT && !strncmp(v._IDNTptr->id_name, PREFIX, strlen(PREFIX)))
            return true;
    return false;
}

// cbrt of a real number is its real cube root (cbrt(-8) = -2), as a caller
// means it; of anything else, the principal power x**(1/3) as in sympy.
// The note says which root was taken.
std::string g_note;

gen sp_cbrt(const cc_node *n, const char *) {
    gen x = arg(n, 0);
    if (has_user_symbol(x)) {
        // solve(cbrt(x) + 3) answered [] with nothing said: the root taken
        // decides which equations have solutions
        if (g_note.empty())
            g_note = "cbrt of an expression with a symbol is the principal root (u)**(1/3), as in "
                     "SymPy: complex where u is negative, so cbrt(x) = -3 has no solution (the real "
                     "cube root of a number, cbrt(-27) = -3, is taken only for a number)";
        return power(x, fraction(1, 3));
    }
    gen v = evalf_double(evalf(x, 1, g_ctx), 1, g_ctx);
    if (v.type == _DOUBLE_ && v._DOUBLE_val < 0) {
        g_note = "cbrt of a negative real number is its real cube root; the principal "
                 "(complex) root is (x)**(1/3)";
        return -_simplify(power(-x, fraction(1, 3)), g_ctx);
    }
    return power(x, fraction(1, 3));
}
gen sp_root(const cc_node *n, const char *) {
    gen k = arg(n, 1);
    if (is_exactly_zero(k))
        fail("validation", "parse error: root() of order 0");
    return power(arg(n, 0), inv(k, g_ctx));
}
gen sp_log(const cc_node *n, const char *) {
    gen x = call(at_ln, arg(n, 0));
    if (n->nchild == 1)
        return x;
    return x / call(at_ln, arg(n, 1));
}
// giac's zero test takes a float below its epsilon for 0: atan2(-1e-20, 0)
// and arg(-1e-20*I) were nan (they are -pi/2), gamma(-1e-20) stayed
// unevaluated as at a pole (it is -1e20 - 0.58). Where giac gives no number
// for an argument holding a float, our evaluator's value stands.
gen float_fallback(const cc_node *n, const gen &r, const unary_function_ptr *f) {
    gen mine;
    bool none = is_undef(r) || (r.type == _SYMB && r._SYMBptr->sommet == f);
    return none && float_constant_value(n, mine) ? mine : r;
}
int value_sign(const cc_node *a);
bool agrees(const gen &r, const gen &mine);

// giac's value where our evaluator's value of the float constant n agrees
// with it, else ours (see settled).
gen float_checked(const cc_node *n, const gen &r) {
    gen mine;
    if (float_constant_value(n, mine) && !agrees(r, mine))
        return mine;
    return float_fallback(n, r, at_arg);
}

// The argument of 0 is undefined: SymPy's arg(0) and atan2(0, 0) are nan
// (as 0/0 is here); giac's were 0. Only a value that is 0 is: giac's zero
// test takes a float expression that cancels in binary64 for 0, and
// arg(exp(1e-25) - 1 - 1e-25) was pi (the literals' value is 5e-51 > 0),
// so a real argument's sign comes from our evaluator (value_sign).
gen sp_atan2(const cc_node *n, const char *) {
    gen y = arg(n, 0), x = arg(n, 1);
    int sy = value_sign(n->child[0]), sx = value_sign(n->child[1]);
    if (is_exactly_zero(y) && is_exactly_zero(x) && !sy && !sx)
        return undef;
    if (is_exactly_zero(y) && !sy && sx)
        return sx > 0 ? gen(0) : cst_pi;
    return float_checked(n, call(at_arg, x + cst_i * y));
}
gen sp_arg(const cc_node *n, const char *) {
    gen x = arg(n, 0);
    int s = value_sign(n->child[0]);
    if (s)
        return s > 0 ? gen(0) : cst_pi;
    if (is_exactly_zero(x))
        return undef;
    return float_checked(n, call(at_arg, x));
}
gen sp_gamma(const cc_node *n, const char *) {
    return float_fallback(n, call(at_Gamma, arg(n, 0)), at_Gamma);
}
gen sp_mod(const cc_node *n, const char *) {
    gen a = arg(n, 0), b = arg(n, 1);
    if (is_exactly_zero(b)) // Mod(5, 1e-20) was nan
        return undef;
    return a - b * call(at_floor, a / b);
}
gen sp_rational(const cc_node *n, const char *) {
    gen d = n->nchild > 1 ? arg(n, 1) : gen(1);
    if (is_exactly_zero(d))
        return unsigned_inf;
    return arg(n, 0) / d;
}
// giac's real-mode antiderivatives write ln(abs(u)); sympy's write log(u).
// Both differentiate to the integrand; the sympy spelling is what clients
// compare with, so indefinite integrals drop the abs inside ln.
// Rebuilds g bottom-up: every symbolic node f(args) becomes node(f, args')
// where args' are the rebuilt arguments.
template <class F> gen map_tree(const gen &g, F node) {
    if (g.type == _VECT) {
        vecteur v = *g._VECTptr;
        for (gen &e : v)
            e = map_tree(e, node);
        return gen(v, g.subtype);
    }
    if (g.type != _SYMB)
        return g;
    return node(g._SYMBptr->sommet, map_tree(g._SYMBptr->feuille, node));
}

gen drop_abs_in_ln(const gen &g) {
    return map_tree(g, [](const unary_function_ptr &f, const gen &args) -> gen {
        if (f == at_ln && args.is_symb_of_sommet(at_abs))
            return symbolic(at_ln, args._SYMBptr->feuille);
        return symbolic(f, args);
    });
}

// ---- definite integrals that giac gets wrong ----------------------------
// Across a pole giac answers the Cauchy principal value: integrate(1/x, x,
// -1, 1) = 0, tan(x) over [0, pi] = 0, 1/(x - 1) over [0, 2] = 0. Those
// integrals diverge, and a finite number for them is a confident wrong
// answer. Before a finite definite value is believed, every singular point
// of the integrand in [a, b] is tested: f is integrable next to s only if
// (x - s)*f(x) -> 0 there (a pole of any order gives a nonzero or infinite
// limit; 1/sqrt|x| and log|x| give 0). giac's singular() lists the
// principal singular points only, so a periodic integrand's poles are also
// taken from the general solutions of its denominator, enumerated over
// [a, b].

// An exact 0 (or any small integer) stays an integer under evalf, so it is
// read as one: integrate(tan(x), x, 0, pi) = 0 must still be checked.
bool real_value(const gen &g, double &d) {
    if (has_user_symbol(g))
        return false;
    gen v = evalf_double(evalf(g, 1, g_ctx), 1, g_ctx);
    if (v.type == _INT_) {
        d = v.val;
        return true;
    }
    if (v.type != _DOUBLE_ || !std::isfinite(v._DOUBLE_val))
        return false;
    d = v._DOUBLE_val;
    return true;
}

// true when the variable x occurs in g (a derivative cannot tell: giac
// differentiates sign(x) to 0).
bool mentions(const gen &g, const gen &x) {
    for (const gen &v : lidnt(g))
        if (v == x)
            return true;
    return false;
}

// (real_value fails on anything with a free symbol; lidnt cannot tell, as it
// lists pi among the identifiers of pi/2)
bool finite_number(const gen &g) {
    double d;
    return real_value(g, d);
}

// The solutions of den(x) = 0 over every period: s(n) for the integers n
// that put s(n) in [lo, hi] (at most 64), when s is linear in n.
void periodic_points(const gen &den, const gen &x, double lo, double hi, vecteur &out) {
    bool old = all_trig_sol(g_ctx);
    all_trig_sol(g_ctx) = true;
    gen sols;
    try {
        sols = call(at_solve, makesequence(symb_equal(den, 0), x));
    } catch (...) {
        all_trig_sol(g_ctx) = old;
        return;
    }
    all_trig_sol(g_ctx) = old;
    if (sols.type != _VECT)
        return;
    for (const gen &s : *sols._VECTptr) {
        vecteur ns;
        for (const gen &v : lidnt(s))
            if (v.type == _IDNT && !strncmp(v._IDNTptr->id_name, "n_", 2))
                ns.push_back(v);
        double s0, s1, s2;
        if (ns.size() != 1 || !real_value(subst(s, ns[0], 0, false, g_ctx), s0) ||
            !real_value(subst(s, ns[0], 1, false, g_ctx), s1) ||
            !real_value(subst(s, ns[0], 2, false, g_ctx), s2))
            continue;
        double p = s1 - s0;
        if (p == 0 || std::fabs((s2 - s1) - p) > 1e-9 * std::fabs(p))
            continue;
        // an infinite range holds infinitely many: the first 64 from its
        // finite end (or around 0) are enough to find a pole
        double span = 64 * std::fabs(p);
        double flo = std::isfinite(lo) ? lo : (std::isfinite(hi) ? hi - span : -span);
        double fhi = std::isfinite(hi) ? hi : flo + 2 * span;
        double na = (flo - s0) / p, nb = (fhi - s0) / p;
        long first = (long)std::ceil(std::min(na, nb) - 1e-9);
        long last = (long)std::floor(std::max(na, nb) + 1e-9);
        for (long k = first; k <= last && out.size() < 64; k++)
            out.push_back(_simplify(subst(s, ns[0], gen(k), false, g_ctx), g_ctx));
    }
}

// true when (x - s)*f does not tend to 0 from the side(s) of s that lie in
// [lo, hi]; an undecided limit (an oscillation) is not counted.
bool pole_at(const gen &f, const gen &x, const gen &s, double sd, double lo, double hi) {
    gen g = (x - s) * f;
    for (int side : {1, -1}) {
        if ((side == 1 && sd >= hi) || (side == -1 && sd <= lo))
            continue;
        gen l;
        try {
            l = call(at_limit, makesequence(g, x, s, gen(side)));
        } catch (...) {
            continue;
        }
        if (is_inf(l) || (finite_number(l) && !is_zero(_simplify(l, g_ctx))))
            return true;
    }
    return false;
}

// A point of [lo, hi] where the integral of f diverges, or undef.
gen divergence_point(const gen &f, const gen &x, double lo, double hi) {
    // each source of candidates on its own: one that throws does not hide
    // the other's points
    vecteur cand;
    try {
        cand = singular(f, x, g_ctx);
    } catch (...) {
        cand.clear();
    }
    try {
        gen den = checked(_denom(normal(tan2sincos(f, g_ctx), g_ctx), g_ctx));
        if (mentions(den, x))
            periodic_points(den, x, lo, hi, cand);
    } catch (...) {
    }
    for (const gen &s : cand) {
        double sd;
        if (!real_value(s, sd) || sd < lo - 1e-12 || sd > hi + 1e-12)
            continue;
        if (pole_at(f, x, s, sd, lo, hi))
            return s;
    }
    return undef;
}

gen sign_to_ratio(const gen &g) {
    return map_tree(g, [](const unary_function_ptr &f, const gen &args) -> gen {
        if (f == at_sign)
            return args / symbolic(at_abs, args);
        return symbolic(f, args);
    });
}

// The end at +-oo (end) of an integral of f diverges when x*f does not tend
// to 0 there: f ~ c/x (x**3/(x**4 + 1) over (-oo, oo), where giac gave the
// principal value 0) or larger. A bounded oscillation (sin(x)/x) or an
// undecided limit is not counted.
bool tail_diverges(const gen &f, const gen &x, const gen &end, gen &lim) {
    try {
        lim = call(at_limit, makesequence(x * f, x, end));
    } catch (...) {
        return false;
    }
    return is_inf(lim) || (finite_number(lim) && !is_zero(_simplify(lim, g_ctx)));
}

// A user symbol's name as the user wrote it (without the shim's prefix).
std::string user_name(const gen &s) { return std::string(s.print(g_ctx)).substr(strlen(PREFIX)); }

// A bound of a definite integral as a double (+-inf for oo); false for a
// bound that is no real number.
bool bound_value(const gen &b, double &d) {
    if (is_inf(b)) {
        if (b == plus_inf)
            d = INFINITY;
        else if (b == minus_inf)
            d = -INFINITY;
        else
            return false;
        return true;
    }
    return real_value(b, d);
}

// true (and g_note set) when the integral of f over [a, b], whose finite
// value r giac gave, diverges.
bool divergence_note(const gen &f, const gen &x, const gen &a, const gen &b, const gen &r) {
    double lo, hi;
    if (!bound_value(a, lo) || !bound_value(b, hi))
        return false;
    std::string var = user_name(x);
    for (const gen &end : {a, b}) {
        gen lim;
        if (is_inf(end) && tail_diverges(f, x, end, lim)) {
            g_note = std::string("the integral diverges: at ") + (end == plus_inf ? "oo" : "-oo") +
                     " the integrand " +
                     "does not decay faster than 1/" + var + " (" + var + "*f(" + var + ") tends to " +
                     lim.print(g_ctx) + ", not 0), so the finite value " + r.print(g_ctx) +
                     " would be a principal value";
            return true;
        }
    }
    gen s = divergence_point(f, x, std::min(lo, hi), std::max(lo, hi));
    if (is_undef(s))
        return false;
    g_note = "the integral diverges: the integrand has a non-integrable singularity at " + var +
             " = " + s.print(g_ctx) + " (the finite value " + r.print(g_ctx) +
             " would be a Cauchy principal value)";
    return true;
}

// true when the limit of g at (x -> s, from side, 0 for none) is a
// nonzero number or an infinity; an undecided limit is not counted.
bool limit_nonzero(const gen &g, const gen &x, const gen &s, int side) {
    gen l;
    try {
        l = side ? call(at_limit, makesequence(g, x, s, gen(side))) : call(at_limit, makesequence(g, x, s));
    } catch (...) {
        return false;
    }
    return is_inf(l) || (finite_number(l) && !is_zero(_simplify(l, g_ctx)));
}

// giac answered an infinity for the integral of f over [a, b] (no
// parameter but x): it stands only when a divergence is found. giac gave
// zoo for x**(3/2)/(1 + x**(7/2)) over (0, oo), which converges
// (1.14807...): a real integral that converges is no infinity. Found means
// an end at +-oo where x*f, or x*log|x|*f (1/(x*log(x)) over (2, oo)),
// does not tend to 0, or a point s of [a, b] (a bound, or a singular point
// of f) where (x - s)*f or (x - s)*log|x - s|*f does not. Bounds that are
// no real numbers are not checked.
bool divergence_found(const gen &f, const gen &x, const gen &a, const gen &b) {
    double lo, hi;
    if (!bound_value(a, lo) || !bound_value(b, hi))
        return true;
    for (const gen &s : lidnt(f))
        if (s != x && has_user_symbol(s))
            return true;
    if (lo > hi)
        std::swap(lo, hi);
    for (const gen &end : {a, b}) {
        if (!is_inf(end))
            continue;
        gen lim, lx = symbolic(at_ln, symbolic(at_abs, x));
        if (tail_diverges(f, x, end, lim) || limit_nonzero(x * lx * f, x, end, 0))
            return true;
    }
    if (!is_undef(divergence_point(f, x, lo, hi)))
        return true;
    vecteur cand;
    try {
        cand = singular(f, x, g_ctx);
    } catch (...) {
        cand.clear();
    }
    for (const gen &end : {a, b})
        if (!is_inf(end))
            cand.push_back(end);
    for (const gen &s : cand) {
        double sd;
        if (!real_value(s, sd) || sd < lo - 1e-12 || sd > hi + 1e-12)
            continue;
        gen g = (x - s) * symbolic(at_ln, symbolic(at_abs, x - s)) * f;
        for (int side : {1, -1})
            if (!((side == 1 && sd >= hi) || (side == -1 && sd <= lo)) &&
                (limit_nonzero((x - s) * f, x, s, side) || limit_nonzero(g, x, s, side)))
                return true;
    }
    return false;
}

extern std::vector<gen> g_assumed;

// The parameters of a definite integral v = [f, x, a, b]: its user symbols
// other than x.
vecteur parameters(const vecteur &v) {
    vecteur out;
    for (const gen &s : lidnt(gen(v, _SEQ__VECT)))
        if (s != v[1] && has_user_symbol(s))
            out.push_back(s);
    return out;
}

// The note integrate_positive_parameters() writes holds this after the
// parameters' names.
const char POSITIVE_NOTE[] = " > 0 only: the CAS could not integrate";

// giac leaves a definite integral with a parameter unevaluated when the
// answer depends on the parameter's sign (integrate(exp(-a*x), (x, 0, oo))).
// It is retried with every parameter assumed positive, and an answer found
// so says so in the note; the request's own assumptions are never dropped
// (no retry when the caller assumed anything).
gen integrate_positive_parameters(const vecteur &v) {
    vecteur ps = parameters(v);
    if (ps.empty() || !g_assumed.empty())
        return undef;
    gen r = undef;
    try {
        for (const gen &p : ps)
            call(at_assume, symb_superieur_strict(p, 0));
        r = call(at_integrate, gen(v, _SEQ__VECT));
    } catch (...) {
        r = undef;
    }
    for (const gen &p : ps)
        try {
            _purge(p, g_ctx);
        } catch (...) {
        }
    if (is_undef(r) || r.is_symb_of_sommet(at_integrate) || mentions(r, v[1]))
        return undef;
    std::string names;
    for (const gen &p : ps)
        names += (names.empty() ? "" : ", ") + user_name(p);
    g_note = "for " + names + POSITIVE_NOTE + " for every value of the "
             "parameter" + std::string(ps.size() > 1 ? "s" : "") + " and assumed " +
             (ps.size() > 1 ? "them" : "it") + " positive (elsewhere the integral may diverge or "
             "have another value)";
    return r;
}

// The note parameter_note() writes starts so.
const char PARAM_NOTE[] = "the value holds only for the parameter values where the integral converges";

// The parameter values at which parameter_note() tries an integral: each
// parameter set to the same one in turn (0 and the negative ones are where
// exp(-a*x**2) and 1/(x**2 + a) stop converging).
const int PARAM_PROBES[] = {-1, 0, 1, 2, -2};

// giac evaluates some definite integrals with a parameter without saying
// that the value holds only where the integral converges:
// integrate(exp(-a*x**2), (x, -oo, oo)) = sqrt(pi)/sqrt(a), which diverges
// for a <= 0. The integral is tried at a few parameter values, and where it
// diverges at one of them (a tail that does not decay, a non-integrable
// singularity inside) the note says so, naming the value. Nothing is said
// when every try converges or cannot be decided.
void parameter_note(const vecteur &v, const gen &r) {
    vecteur ps = parameters(v);
    if (ps.empty() || !g_note.empty() || is_undef(r) || is_inf(r))
        return;
    for (int t : PARAM_PROBES) {
        bool diverges = false;
        try {
            vecteur vals(ps.size(), gen(t));
            // an infinite bound is kept as it is: subst rebuilds -oo in a
            // form bound_value() does not read
            gen f = subst(v[0], ps, vals, false, g_ctx),
                a = is_inf(v[2]) ? v[2] : subst(v[2], ps, vals, false, g_ctx),
                b = is_inf(v[3]) ? v[3] : subst(v[3], ps, vals, false, g_ctx);
            diverges = !is_undef(f) && divergence_note(f, v[1], a, b, r);
        } catch (...) {
            diverges = false;
        }
        g_note.clear();
        if (!diverges)
            continue;
        std::string names;
        for (const gen &p : ps)
            names += (names.empty() ? "" : ", ") + user_name(p);
        g_note = std::string(PARAM_NOTE) + ", a condition the CAS does not state: at " + names +
                 " = " + std::to_string(t) + " it diverges";
        return;
    }
}

// Integrands giac gets wrong, rewritten before a definite integration:
// Min(u, v) and Max(u, v) of two arguments as (u + v -+ |u - v|)/2 (giac
// integrated Min(x**2, 3) over (-3, 2) numerically, 8.07179676972208 for
// 15 - 4*sqrt(3) = 8.07179676972449), and DiracDelta(k*x + b) with a
// constant k != 1 as DiracDelta(x + b/k)/|k| (giac dropped the 1/|k|:
// integrate(DiracDelta(2*x - 1)*x, (x, 0, 4)) was 1/2, it is 1/4).
gen integrand_rewrites(const gen &f, const gen &x) {
    return map_tree(f, [&x](const unary_function_ptr &op, const gen &args) -> gen {
        if ((op == at_min || op == at_max) && args.type == _VECT && args._VECTptr->size() == 2) {
            const gen &u = (*args._VECTptr)[0], &w = (*args._VECTptr)[1];
            gen d = symbolic(at_abs, u - w);
            return (u + w + (op == at_max ? d : -d)) / 2;
        }
        if (op == at_Dirac && args.type != _VECT && mentions(args, x)) {
            gen k = _simplify(call(at_derive, makesequence(args, x)), g_ctx);
            if (!mentions(k, x) && finite_number(k) && !is_zero(k) && !is_one(k)) {
                gen b = _simplify(args - k * x, g_ctx);
                if (!mentions(b, x))
                    return symbolic(at_Dirac, x + b / k) / symbolic(at_abs, k);
            }
        }
        return symbolic(op, args);
    });
}

// true when giac's singular points of f include a real one strictly
// inside (lo, hi).
bool singular_inside(const gen &f, const gen &x, double lo, double hi) {
    vecteur cand;
    try {
        cand = singular(f, x, g_ctx);
    } catch (...) {
        return false;
    }
    for (const gen &s : cand) {
        double sd;
        if (real_value(s, sd) && sd > lo && sd < hi)
            return true;
    }
    return false;
}

// A closed form of a definite integral that numeric quadrature refutes is
// refused: giac integrated -atan(1/y)/y + atan(2/y)/y (the inner integral
// of 1/(x**2 + y**2) over x in (1, 2)) over (-1, 1) to -5*atan(2)/2 +
// 3*pi/4 = -0.41 for a positive integrand (0.857486...): its antiderivative
// jumps at y = 0. Checked when the integrand holds no symbol but x and a
// singular point strictly inside the bounds (where such jumps are; a
// quadrature of a smooth oscillating integrand costs 400 ms and finds
// nothing), the bounds are finite real numbers and the value r is a
// number: giac's adaptive Gauss-Kronrod quadrature (gaussquad) must agree
// to 1e-4 of max(1, |q|), far looser than its error on the integrands
// tried (1e-6 on sin(1/x) near 0), far tighter than a lost jump. A
// quadrature that gives no finite real number proves nothing.
void quadrature_check(const gen &f, const gen &x, const gen &a, const gen &b, const gen &r) {
    double lo, hi;
    if (!real_value(a, lo) || !real_value(b, hi) || lo == hi || has_user_symbol(r) || is_inf(r) ||
        is_undef(r))
        return;
    for (const gen &s : lidnt(f))
        if (s != x && has_user_symbol(s))
            return;
    if (!singular_inside(f, x, std::min(lo, hi), std::max(lo, hi)))
        return;
    gen q, rv;
    try {
        q = evalf_double(evalf(_gaussquad(makesequence(f, x, a, b), g_ctx), 1, g_ctx), 1, g_ctx);
        rv = evalf_double(evalf(r, 1, g_ctx), 1, g_ctx);
    } catch (...) {
        return;
    }
    if (q.type != _DOUBLE_ || !std::isfinite(q._DOUBLE_val))
        return;
    double qd = q._DOUBLE_val, re, im = 0;
    if (rv.type == _DOUBLE_ || rv.type == _INT_) {
        re = rv.type == _INT_ ? rv.val : rv._DOUBLE_val;
    } else if (rv.type == _CPLX && rv._CPLXptr[0].type == _DOUBLE_ && rv._CPLXptr[1].type == _DOUBLE_) {
        re = rv._CPLXptr[0]._DOUBLE_val;
        im = rv._CPLXptr[1]._DOUBLE_val;
    } else {
        return;
    }
    if (std::hypot(re - qd, im) <= 1e-4 * std::max(1.0, std::fabs(qd)))
        return;
    std::string rs = r.print(g_ctx);
    fail("validation", "the CAS's closed form of this definite integral, %s, disagrees with numeric "
                       "quadrature (%.10g), so neither is given as its value; try splitting the "
                       "interval at the integrand's singular points", rs.c_str(), qd);
}

// Adaptive Simpson quadrature of f over (a, b) in binary64, its integrand
// valued by giac at each point. Every interval is split at least MIN_DEPTH
// times (a rule can match its halves by chance across a jump of a
// piecewise constant integrand: floor(exp(x)) over (0, 2) matched at the
// first level), then until the halves agree with the whole to tol, which
// confines each jump to an interval too short to matter. The ends are
// moved inward by 1e-14 of the width (log(1 + x) is not valued at -1).
// ok is false when a value is not a finite real or the budget runs out.
struct jump_quad {
    const gen &f, &x;
    double tol;
    long evals = 0;
    bool ok = true;
    static const int MIN_DEPTH = 6, MAX_DEPTH = 50;
    static const long BUDGET = 60000;
    double value(double t) {
        if (!ok || ++evals > BUDGET) {
            ok = false;
            return 0;
        }
        gen v = evalf_double(evalf(subst(f, x, gen(t), false, g_ctx), 1, g_ctx), 1, g_ctx);
        if (v.type == _INT_)
            return v.val;
        if (v.type != _DOUBLE_ || !std::isfinite(v._DOUBLE_val))
            ok = false;
        return ok ? v._DOUBLE_val : 0;
    }
    double adapt(double a, double b, double fa, double fm, double fb, double whole, int depth) {
        double m = (a + b) / 2, flm = value((a + m) / 2), frm = value((m + b) / 2);
        double l = (m - a) / 6 * (fa + 4 * flm + fm), r = (b - m) / 6 * (fm + 4 * frm + fb);
        if (!ok || depth >= MAX_DEPTH ||
            (depth >= MIN_DEPTH && std::fabs(l + r - whole) <= 15 * tol))
            return l + r + (l + r - whole) / 15;
        return adapt(a, m, fa, flm, fm, l, depth + 1) + adapt(m, b, fm, frm, fb, r, depth + 1);
    }
    double integral(double lo, double hi) {
        double a = lo + (hi - lo) * 1e-14, b = hi - (hi - lo) * 1e-14;
        double fa = value(a), fm = value((a + b) / 2), fb = value(b);
        return adapt(a, b, fa, fm, fb, (b - a) / 6 * (fa + 4 * fm + fb), 0);
    }
};

// A float value of a definite integral whose integrand jumps (floor,
// ceiling, sign, Heaviside) comes from giac's numeric quadrature, which
// misplaces the jumps: integrate(floor(x**2), (x, 1, 3)) was
// 7.69399883186981 (24 - sqrt(1) - ... - sqrt(8) = 7.69399947396428),
// integrate(floor(exp(x)), (x, 0, 2)) 5.47490152391742 (14 - log(5040) =
// 5.47483863917), each flagged "about 15 significant digits"; giac's
// gaussquad gives the same values. The value stands only when our
// adaptive quadrature (jump_quad, which bisects down to each jump) agrees
// to 1e-9 of max(1, |q|); otherwise it is refused, as quadrature_check
// refuses a closed form. Only finite real bounds and a real float value
// are checked.
bool holds_op(const gen &g, const unary_function_ptr *op);
void jump_quadrature_check(const gen &f, const gen &x, const gen &a, const gen &b, const gen &r) {
    double lo, hi, rv;
    if (!float_number(r) || has_user_symbol(r) || !real_value(r, rv) || !real_value(a, lo) ||
        !real_value(b, hi) || lo == hi || !std::isfinite(lo) || !std::isfinite(hi) ||
        !(holds_op(f, at_floor) || holds_op(f, at_ceil) || holds_op(f, at_sign) ||
          holds_op(f, at_Heaviside)))
        return;
    for (const gen &s : lidnt(f))
        if (s != x && has_user_symbol(s))
            return;
    double q = 0;
    bool ok = true;
    try {
        jump_quad jq{f, x, 1e-13 * std::max(1.0, std::fabs(rv))};
        q = jq.integral(lo, hi);
        ok = jq.ok;
    } catch (...) {
        ok = false;
    }
    if (!ok || std::fabs(rv - q) <= 1e-9 * std::max(1.0, std::fabs(q)))
        return;
    std::string rs = r.print(g_ctx);
    fail("validation", "the CAS evaluated this definite integral numerically (%s), and an adaptive "
                       "quadrature that resolves the integrand's jumps (floor, ceiling, sign or "
                       "Heaviside) gives %.12g, so neither is given as its value; split the interval "
                       "at the jumps",
         rs.c_str(), q);
}

gen exactly_if_tiny_complex(const gen &args, const unary_function_ptr *f);
void float_integral_check(const gen &f, const gen &x, const gen &a, const gen &b, const gen &r);

// One definite integration step, v = [f, x, a, b].
gen definite_as_given(const vecteur &v) {
    const gen &f = v[0], &x = v[1];
    gen r = exactly_if_tiny_complex(gen(v, _SEQ__VECT), at_integrate);
    // integrate(sign(x), x, -2, 3) = 5*sign(x): giac took sign(x) for a
    // constant. sign(u) = u/|u| (off a null set), which giac splits by
    // intervals; an answer that still holds x is never returned.
    if (mentions(r, x) && f != sign_to_ratio(f)) {
        vecteur w = v;
        w[0] = sign_to_ratio(f);
        r = call(at_integrate, gen(w, _SEQ__VECT));
    }
    // giac's numeric fallback gives two estimates when it does not
    // converge: integrate(floor(1/x), (x, 0.01, 1)) was [4.18895873076224,
    // 4.18778443888749] with ok true (4.18737751763962); a list is no value
    // of a scalar integrand
    if (r.type == _VECT && f.type != _VECT)
        fail("validation", "the CAS's numeric quadrature of this definite integral did not converge "
                           "(it gave the estimates %s); split the interval where the integrand jumps "
                           "or oscillates",
             r.print(g_ctx).c_str());
    if (r.is_symb_of_sommet(at_integrate)) {
        gen p = integrate_positive_parameters(v);
        if (!is_undef(p))
            return p;
    }
    if (mentions(r, x))
        fail("validation", "the CAS could not evaluate this definite integral (its answer still "
                           "depends on the variable of integration)");
    // a constant that is no real number is checked too: cos(x)/x over
    // (-2, 3) was -Ci(-2) + Ci(3) (Ci(-2) is complex), over a pole at 0
    bool constant = !has_user_symbol(r) && !is_inf(r) && !is_undef(r);
    if (is_inf(r) && !divergence_found(f, x, v[2], v[3]))
        fail("validation", "the CAS answered an infinity (%s) for this definite integral, but no divergence was "
                           "found (the integrand decays fast enough at each infinite end and is "
                           "integrable at each bound and singular point), so the infinite value is "
                           "not given; try splitting the interval or a substitution",
             r == plus_inf ? "oo" : (r == minus_inf ? "-oo" : "zoo"));
    if (!finite_number(r) && !constant) {
        parameter_note(v, r);
        return r;
    }
    if (divergence_note(f, x, v[2], v[3], r))
        return undef;
    quadrature_check(f, x, v[2], v[3], r);
    jump_quadrature_check(f, x, v[2], v[3], r);
    float_integral_check(f, x, v[2], v[3], r);
    return r;
}

// One definite integration step with integrand_rewrites() applied; the
// integrand as given when the rewritten one fails or comes back undefined
// with no reason (giac answers nan for ((x - 1 + Abs(x - 1))/2)**2, the
// rewritten Max(x - 1, 0)**2).
gen definite(const vecteur &v0) {
    vecteur v = v0;
    v[0] = integrand_rewrites(v0[0], v0[1]);
    if (v[0] == v0[0])
        return definite_as_given(v0);
    gen r;
    try {
        r = definite_as_given(v);
    } catch (...) {
        g_note.clear();
        return definite_as_given(v0);
    }
    if (is_undef(r) && g_note.empty())
        return definite_as_given(v0);
    return r;
}

// The inner step v = [f, x, a, b] was integrated with its parameters
// assumed positive (integrate_positive_parameters), and the next range is
// w = [y, c, d] with lower end lo: integrate(atan(y/x), (x, -1, 0), (y,
// -2, -1)) integrated the inner one for y > 0, then took that over y in
// (-2, -1), a complex value for a real integrand. With y the only
// parameter and lo >= 0 the assumption holds on the range and the note
// goes; with lo < 0 the value is refused.
void positive_inner(const vecteur &v, const vecteur &w, double lo) {
    vecteur ps = parameters(v);
    bool ranged = false;
    for (const gen &p : ps)
        ranged |= p == w[0];
    if (!ranged)
        return;
    std::string y = user_name(w[0]), x = user_name(v[1]);
    if (lo < 0)
        fail("validation", "the CAS could integrate over %s only for %s > 0, and %s ranges over (%s, %s); "
                           "split the range at 0, or integrate over %s first", x.c_str(), y.c_str(), y.c_str(),
             w[1].print(g_ctx).c_str(), w[2].print(g_ctx).c_str(), y.c_str());
    if (ps.size() == 1)
        g_note.clear();
}

// The inner step v = [f, x, a, b] of a multiple integral whose next range
// is w = [y, c, d]. parameter_note() probed y at -1, 0, 1, 2, -2, wherever
// those lie: integrate(1/(x + y), (x, 1, 2), (y, 1, 2)) carried "at y = -1
// it diverges" to its right answer, while integrate(1/(x - y), (x, 0, 1),
// (y, 0, 1)) answered 0 and integrate(1/(1 + x + y), (x, -1, 1), (y, -1,
// 2)) 6*log(2), principal values of integrals that diverge: for every y
// of a range (not one point, where the double integral may still
// converge: 1/sqrt(x**2 + y**2) at y = 0) the inner one has a
// non-integrable singularity. So y, when it is the only parameter, is
// probed at 7 points inside (c, d) instead: none diverging drops that
// note, one keeps a note naming it, two or more make the whole integral
// diverge (true, with g_note).
bool inner_diverges(const vecteur &v, const vecteur &w) {
    double c, d;
    if (w.size() != 3 || !real_value(w[1], c) || !real_value(w[2], d))
        return false;
    if (g_note.find(POSITIVE_NOTE) != std::string::npos)
        positive_inner(v, w, std::min(c, d));
    /* with another parameter left (a third range) a probe cannot decide,
     * and parameter_note()'s note stands */
    if (g_note.compare(0, sizeof PARAM_NOTE - 1, PARAM_NOTE) != 0 || parameters(v).size() != 1)
        return false;
    g_note.clear();
    int hits = 0;
    gen first;
    for (int k = 1; k <= 7; k++) {
        gen t = w[1] + (w[2] - w[1]) * gen(k) / gen(8);
        bool diverges = false;
        try {
            gen f = subst(v[0], w[0], t, false, g_ctx), a = subst(v[2], w[0], t, false, g_ctx),
                b = subst(v[3], w[0], t, false, g_ctx);
            diverges = !is_undef(f) && divergence_note(f, v[1], a, b, gen(0));
        } catch (...) {
            diverges = false;
        }
        g_note.clear();
        if (diverges && hits++ == 0)
            first = t;
    }
    if (hits == 0)
        return false;
    std::string y = user_name(w[0]), x = user_name(v[1]);
    if (hits == 1) {
        g_note = "at " + y + " = " + first.print(g_ctx) + " the inner integral over " + x +
                 " diverges (a non-integrable singularity), and the value may be a principal value there";
        return false;
    }
    g_note = "the integral diverges: for " + y + " in a part of (" + w[1].print(g_ctx) + ", " +
             w[2].print(g_ctx) + ") the inner integral over " + x + " has a non-integrable singularity (at " +
             y + " = " + first.print(g_ctx) + ", for one); a finite value would be a principal value";
    return true;
}

// integrate(f, x, y) and integrate(f, (x, a, b), (y, c, d)): one variable
// (or limits tuple) after another, innermost first, as sympy reads them.
// A single bare variable keeps giac's own argument forms.
gen sp_integrate(const cc_node *n, const char *) {
    if (n->nchild <= 2 || (n->nchild == 4 && n->child[1]->kind != CC_N_TUPLE)) {
        gen args = integral_args(n);
        if (args._VECTptr->size() == 4)
            return definite(*args._VECTptr);
        gen r = exactly_if_tiny_complex(args, at_integrate);
        return args._VECTptr->size() == 2 ? drop_abs_in_ln(r) : r;
    }
    gen r = arg(n, 0);
    for (size_t i = 1; i < n->nchild; i++) {
        vecteur v(1, r);
        push_limits(v, n->child[i]);
        if (v.size() != 2 && v.size() != 4)
            fail("validation", "parse error: integrate() takes (var) or (var, lower, upper) tuples");
        if (v.size() == 4) {
            vecteur next;
            if (i + 1 < n->nchild)
                push_limits(next, n->child[i + 1]);
            r = definite(v);
            if (inner_diverges(v, next))
                return undef;
            continue;
        }
        r = exactly_if_tiny_complex(gen(v, _SEQ__VECT), at_integrate);
        r = drop_abs_in_ln(r);
    }
    return r;
}
gen sp_integral(const cc_node *n, const char *) { return symbolic(at_integrate, integral_args(n)); }
bool tiny_complex_part(const gen &g, bool exact_too = false);
gen float_answer(const gen &r);
gen exact_floats(const gen &g);

// giac's arithmetic takes a complex float whose imaginary part is tiny
// beside its real part for real (is_one, is_zero within its epsilon):
// diff((1 + 1e-12*I)*x**3, x) was 3*x**2. Such floats are read as the
// rationals they hold, and the answer given back as floats (float_answer),
// as limit, summation and product do.
gen exactly_if_tiny_complex(const gen &args, const unary_function_ptr *f) {
    if (!tiny_complex_part(args))
        return call(f, args);
    return float_answer(call(f, eval(exact_floats(args), 1, g_ctx)));
}

gen sp_diff(const cc_node *n, const char *) {
    if (n->nchild == 1) {
        vecteur ids = lidnt(arg(n, 0));
        if (ids.size() != 1)
            fail("validation", "parse error: diff() needs the variable");
        return exactly_if_tiny_complex(makesequence(arg(n, 0), ids[0]), at_derive);
    }
    return exactly_if_tiny_complex(seq_of(n), at_derive);
}
gen sp_derivative(const cc_node *n, const char *) { return symbolic(at_derive, seq_of(n)); }
// ---- squeeze: a bounded factor times one that tends to 0 ---------------
// giac refuses exp(sin(x))/x at oo ("unable to handle exp(sin(...))").
// With B(x) proven bounded for real x and R(x) -> 0, B*R -> 0; with B
// bounded away from 0 by a known sign and R -> +-oo, B*R tends to the
// signed infinity. Bounds are proven by interval arithmetic on the tree:
// sin, cos, tanh, atan of a real argument, exp of a bounded one, sums,
// products, integer powers and reciprocals of intervals that exclude 0.

struct interval {
    double lo, hi;
};

// true when g is real for real x (away from poles): x, real constants,
// + - * /, integer powers, and the real functions of real arguments
bool real_for_real(const gen &g, const gen &x) {
    if (g == x)
        return true;
    if (!mentions(g, x))
        return finite_number(g);
    if (g.type != _SYMB)
        return false;
    const unary_function_ptr &f = g._SYMBptr->sommet;
    const gen &a = g._SYMBptr->feuille;
    if (f == at_plus || f == at_prod) {
        if (a.type != _VECT)
            return real_for_real(a, x);
        for (const gen &e : *a._VECTptr)
            if (!real_for_real(e, x))
                return false;
        return true;
    }
    if (f == at_pow)
        return a.type == _VECT && a._VECTptr->size() == 2 && (*a._VECTptr)[1].type == _INT_ &&
               real_for_real((*a._VECTptr)[0], x);
    return (f == at_neg || f == at_inv || f == at_sin || f == at_cos || f == at_exp ||
            f == at_atan || f == at_tanh || f == at_sinh || f == at_cosh || f == at_abs ||
            f == at_floor || f == at_ceil) &&
           real_for_real(a, x);
}

interval imul(interval a, interval b) {
    double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
    return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
}

// Bounds of g for every real x, widened outwards by a relative 1e-9 (the
// doubles' rounding); false when no bound is proven.
bool bounds_of(const gen &g, const gen &x, interval &out) {
    if (!mentions(g, x)) {
        double d;
        if (!real_value(g, d))
            return false;
        out = {d - 1e-9 * (1 + std::fabs(d)), d + 1e-9 * (1 + std::fabs(d))};
        return true;
    }
    if (g.type != _SYMB)
        return false;
    const unary_function_ptr &f = g._SYMBptr->sommet;
    const gen &a = g._SYMBptr->feuille;
    interval i;
    if (f == at_sin || f == at_cos || f == at_tanh) {
        out = {-1, 1};
        return real_for_real(a, x);
    }
    if (f == at_atan) {
        out = {-1.5707963268, 1.5707963268};
        return real_for_real(a, x);
    }
    if (f == at_exp) {
        if (!bounds_of(a, x, i) || i.hi > 700)
            return false;
        out = {std::exp(i.lo) * (1 - 1e-9), std::exp(i.hi) * (1 + 1e-9)};
        return true;
    }
    if (f == at_neg) {
        if (!bounds_of(a, x, i))
            return false;
        out = {-i.hi, -i.lo};
        return true;
    }
    if (f == at_abs) {
        if (!bounds_of(a, x, i))
            return false;
        out = {i.lo > 0 ? i.lo : i.hi < 0 ? -i.hi : 0, std::max(std::fabs(i.lo), std::fabs(i.hi))};
        return true;
    }
    if (f == at_inv) {
        if (!bounds_of(a, x, i) || (i.lo <= 0 && i.hi >= 0))
            return false;
        out = {1 / i.hi * (1 - 1e-9), 1 / i.lo * (1 + 1e-9)};
        if (out.lo > out.hi)
            std::swap(out.lo, out.hi);
        return true;
    }
    if (f == at_pow) {
        if (a.type != _VECT || a._VECTptr->size() != 2 || (*a._VECTptr)[1].type != _INT_)
            return false;
        int e = (*a._VECTptr)[1].val;
        if (e < 1 || e > 64 || !bounds_of((*a._VECTptr)[0], x, i))
            return false;
        out = i;
        for (int k = 1; k < e; k++)
            out = imul(out, i);
        if (e % 2 == 0 && out.lo < 0)
            out.lo = 0;
        return true;
    }
    if ((f != at_plus && f != at_prod) || a.type != _VECT)
        return false;
    bool first = true;
    for (const gen &t : *a._VECTptr) {
        if (!bounds_of(t, x, i))
            return false;
        if (first)
            out = i;
        else if (f == at_plus)
            out = {out.lo + i.lo, out.hi + i.hi};
        else
            out = imul(out, i);
        first = false;
    }
    return !first && std::isfinite(out.lo) && std::isfinite(out.hi);
}

// giac's limit of f (x -> pt; dir 0 at an infinity, else the side)
gen plain_limit(const gen &f, const gen &x, const gen &pt, int dir) {
    if (dir == 0)
        return call(at_limit, makesequence(f, x, pt));
    return call(at_limit, makesequence(f, x, pt, gen(dir)));
}

// true when some node of g (g itself, an operator's argument, a vector's
// element) satisfies p
template <class P> bool any_node(const gen &g, P p) {
    if (p(g))
        return true;
    if (g.type == _SYMB)
        return any_node(g._SYMBptr->feuille, p);
    if (g.type == _VECT)
        for (const gen &e : *g._VECTptr)
            if (any_node(e, p))
                return true;
    return false;
}

bool holds_op(const gen &g, const unary_function_ptr *op) {
    return any_node(g, [op](const gen &e) { return e.is_symb_of_sommet(op); });
}

// The squeeze limit of f, or undef when it does not apply: f's factors
// split into the bounded ones (their product B) and the rest (R).
gen squeeze_limit(const gen &f, const gen &x, const gen &pt, int dir) {
    if (f.is_symb_of_sommet(at_neg)) { // -(B*R): (2 + sin(x))*(-x) arrives so
        gen s = squeeze_limit(f._SYMBptr->feuille, x, pt, dir);
        return is_undef(s) ? s : s == plus_inf ? minus_inf : s == minus_inf ? plus_inf : gen(-s);
    }
    vecteur fs = f.is_symb_of_sommet(at_prod) && f._SYMBptr->feuille.type == _VECT
                     ? *f._SYMBptr->feuille._VECTptr
                     : vecteur(1, f);
    gen rest = 1;
    interval b = {1, 1}, i;
    bool any = false;
    for (const gen &t : fs) {
        if (mentions(t, x) && bounds_of(t, x, i)) {
            b = imul(b, i);
            any = true;
        } else {
            rest = rest * t;
        }
    }
    if (!any)
        return undef;
    gen l;
    try {
        l = plain_limit(rest, x, pt, dir);
    } catch (...) {
        return undef;
    }
    if (is_zero(l))
        return 0;
    if (l == plus_inf || l == minus_inf) {
        int s = l == plus_inf ? 1 : -1;
        if (b.lo > 0)
            return s > 0 ? plus_inf : minus_inf;
        if (b.hi < 0)
            return s > 0 ? minus_inf : plus_inf;
    }
    return undef;
}

// ---- an infinite limit followed along the zeros of an oscillation ------
// giac takes a bounded oscillating factor times an unbounded one for
// unbounded: cos(x)**2*exp(x) and x*sin(x)**2 at oo were oo, sin(1/x)**2/x
// at 0 from the right oo; each is 0 at points arbitrarily near the point
// (x = pi/2 + k*pi, k*pi, 1/(k*pi)), so no infinite limit exists. For each
// sin(g) or cos(g) in f whose argument g is real for real x and tends to
// +-oo at the point, g passes through every k*pi and pi/2 + k*pi there: f
// is followed along those points, with sin(g) = 0 and cos(g) = +-1, or
// cos(g) = 0 and sin(g) = +-1 substituted. When f so restricted holds no
// other oscillation of an unbounded argument, its limit is f's limit along
// a sequence tending to the point; a different one refutes the CAS's.

// The arguments g of the sin(g) and cos(g) in f that tend to +-oo at the
// point (dir as plain_limit), each once: continuous real functions of x,
// so g takes every value k*pi and pi/2 + k*pi near the point.
void unbounded_phases(const gen &f, const gen &x, const gen &pt, int dir, vecteur &out) {
    if (f.type == _VECT) {
        for (const gen &e : *f._VECTptr)
            unbounded_phases(e, x, pt, dir, out);
        return;
    }
    if (f.type != _SYMB)
        return;
    const gen &a = f._SYMBptr->feuille;
    // floor and ceil would make g jump past the zeros (sin(floor(x)) is never 0 for x > 1)
    if ((f.is_symb_of_sommet(at_sin) || f.is_symb_of_sommet(at_cos)) && mentions(a, x) &&
        real_for_real(a, x) && !holds_op(a, at_floor) && !holds_op(a, at_ceil) &&
        std::find(out.begin(), out.end(), a) == out.end()) {
        gen l;
        try {
            l = plain_limit(a, x, pt, dir);
        } catch (...) {
            l = undef;
        }
        if (l == plus_inf || l == minus_inf)
            out.push_back(a);
    }
    unbounded_phases(a, x, pt, dir, out);
}

// The limit of f along the points where sin(g) = s and cos(g) = c, or undef
// when f there still oscillates or the CAS finds none.
gen limit_along(const gen &f, const gen &x, const gen &pt, int dir, const gen &g, int s, int c) {
    try {
        vecteur from, to;
        from.push_back(symbolic(at_sin, g));
        from.push_back(symbolic(at_cos, g));
        to.push_back(gen(s));
        to.push_back(gen(c));
        gen h = subst(f, from, to, false, g_ctx);
        vecteur left;
        unbounded_phases(h, x, pt, dir, left);
        if (!left.empty() || is_undef(h) || holds_op(h, at_tan))
            return undef;
        gen l = plain_limit(h, x, pt, dir);
        if (holds_op(l, at_bounded_function) || !(is_inf(l) ? l == plus_inf || l == minus_inf
                                                             : finite_number(l)))
            return undef;
        return l;
    } catch (...) {
        return undef;
    }
}

// g as a note writes it: SymPy's spelling (x**2, oo), no internal prefix.
std::string shown(const gen &g) {
    if (g == plus_inf || g == minus_inf)
        return g == plus_inf ? "oo" : "-oo";
    std::string t = g.print(g_ctx);
    for (size_t i; (i = t.find(PREFIX)) != std::string::npos;)
        t.erase(i, strlen(PREFIX));
    for (size_t i; (i = t.find('^')) != std::string::npos;)
        t.replace(i, 1, "**");
    return t;
}

// true (and g_note set) when f's limit r = +-oo is refuted along the zeros
// of one of its oscillations.
bool infinity_refuted(const gen &f0, const gen &x, const gen &pt, int dir, const gen &r) {
    // with parameters (x*sin(a*x)**2 was oo), the claim holds for every
    // value or it is wrong: it is tried at every parameter = 1
    vecteur ps;
    for (const gen &s : lidnt(f0))
        if (s != x && has_user_symbol(s))
            ps.push_back(s);
    gen f = f0;
    if (!ps.empty() && !g_assumed.empty())
        return false; // 1 may break the caller's assumptions
    if (!ps.empty()) {
        try {
            f = subst(f0, ps, vecteur(ps.size(), gen(1)), false, g_ctx);
        } catch (...) {
            return false;
        }
    }
    vecteur phases;
    unbounded_phases(f, x, pt, dir, phases);
    static const int sc[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
    for (const gen &g : phases)
        for (const auto &p : sc) {
            gen l = limit_along(f, x, pt, dir, g, p[0], p[1]);
            if (is_undef(l) || l == r)
                continue;
            g_note = "undefined: the CAS answered " + shown(r) + ", but " +
                     (ps.empty() ? "" : "with every parameter = 1, ") + "where " +
                     (p[0] == 0 ? "sin(" : "cos(") + shown(g) + ") = 0 (and " +
                     (p[0] == 0 ? "cos(" : "sin(") + shown(g) + ") = " + std::to_string(p[0] + p[1]) +
                     "), at points arbitrarily near the limit point, the expression tends to " +
                     shown(l) + ": it has no limit there";
            return true;
        }
    return false;
}

gen limit_or_squeeze(const gen &f, const gen &x, const gen &pt, int dir);

// ---- the squeeze for sums ------------------------------------------------
// giac answers undef for (2 + sin(x))*(-x) - 2 at -oo and for (1 -
// cos(2*x))*x + log(log(x)) at oo; both tend to oo. Each term is read for
// its limit (limit_or_squeeze, so a term's own squeeze and refutation
// apply) or, failing that, for a side it stays on: a bounded term (proven
// as for the squeeze) is bounded on both sides; B*R with B proven >= 0 and
// R -> +oo is eventually >= 0 (bounded below), and so on by signs. A term
// tending to +oo with every other term finite, tending to +oo or bounded
// below makes the sum tend to +oo; -oo likewise.

struct term_side {
    gen lim;           // the term's limit (finite or +-oo), or undef
    bool below, above; // bounded below / above near the point
};

// Exact bounds [lo, hi] of g for real x, for the shapes where the doubles'
// widening would blur a bound of exactly 0 (1 - cos(2*x) >= 0): constants,
// sin and cos of a real argument, negation, sums, constant multiples and
// even powers. false when g is of another shape.
bool exact_bounds(const gen &g, const gen &x, gen &lo, gen &hi) {
    if (!mentions(g, x)) {
        if (!finite_number(g))
            return false;
        lo = hi = g;
        return true;
    }
    if (g.type != _SYMB)
        return false;
    const unary_function_ptr &f = g._SYMBptr->sommet;
    const gen &a = g._SYMBptr->feuille;
    gen l, h;
    if (f == at_sin || f == at_cos) {
        lo = -1;
        hi = 1;
        return real_for_real(a, x);
    }
    if (f == at_neg) {
        if (!exact_bounds(a, x, l, h))
            return false;
        lo = -h;
        hi = -l;
        return true;
    }
    if (f == at_pow) {
        if (a.type != _VECT || a._VECTptr->size() != 2 || (*a._VECTptr)[1].type != _INT_)
            return false;
        int e = (*a._VECTptr)[1].val;
        if (e < 2 || e % 2 || e > 64 || !exact_bounds((*a._VECTptr)[0], x, l, h))
            return false;
        gen m = _simplify(symbolic(at_max, makesequence(-l, h)), g_ctx);
        lo = 0;
        hi = pow(m, e);
        return true;
    }
    if ((f != at_plus && f != at_prod) || a.type != _VECT)
        return false;
    lo = f == at_plus ? 0 : 1;
    hi = lo;
    bool varying = false;
    for (const gen &t : *a._VECTptr) {
        if (!exact_bounds(t, x, l, h))
            return false;
        if (f == at_plus) {
            lo = lo + l;
            hi = hi + h;
            continue;
        }
        // a product: one varying factor times constants
        if (mentions(t, x)) {
            if (varying)
                return false;
            varying = true;
        }
        // [lo, hi]*[l, h], one of them a point: its ends are among these
        gen c[4] = {lo * l, lo * h, hi * l, hi * h};
        double d[4];
        for (int k = 0; k < 4; k++)
            if (!real_value(c[k], d[k]))
                return false;
        int mn = 0, mx = 0;
        for (int k = 1; k < 4; k++) {
            mn = d[k] < d[mn] ? k : mn;
            mx = d[k] > d[mx] ? k : mx;
        }
        lo = c[mn];
        hi = c[mx];
    }
    lo = _simplify(lo, g_ctx);
    hi = _simplify(hi, g_ctx);
    return true;
}

// true when the product of the bounded factors bs is >= 0 (sign > 0) or
// <= 0 (sign < 0) for every real x: the interval says so with room to
// spare, or exact_bounds proves a bound of exactly 0.
bool keeps_sign(const vecteur &bs, const interval &b, const gen &x, int sign) {
    if (sign > 0 ? b.lo > 1e-7 : b.hi < -1e-7)
        return true;
    if (bs.size() != 1)
        return false;
    gen lo, hi;
    double d;
    if (!exact_bounds(bs[0], x, lo, hi))
        return false;
    const gen &edge = sign > 0 ? lo : hi;
    return is_zero(edge) || (real_value(edge, d) && (sign > 0 ? d > 0 : d < 0));
}

// t's factors (t itself when it is no product) split into those bounded in
// x, whose product's interval is multiplied into b and which are listed in
// bs, and the product of the others, returned.
static gen split_bounded_factors(const gen &t, const gen &x, interval &b, vecteur &bs) {
    vecteur fs = t.is_symb_of_sommet(at_prod) && t._SYMBptr->feuille.type == _VECT
                     ? *t._SYMBptr->feuille._VECTptr
                     : vecteur(1, t);
    gen rest = 1;
    interval i;
    for (const gen &u : fs) {
        if (mentions(u, x) && bounds_of(u, x, i)) {
            b = imul(b, i);
            bs.push_back(u);
        } else {
            rest = rest * u;
        }
    }
    return rest;
}

term_side term_behaviour(const gen &t, const gen &x, const gen &pt, int dir) {
    term_side ts = {undef, false, false};
    interval i;
    if (t.is_symb_of_sommet(at_neg)) {
        term_side n = term_behaviour(t._SYMBptr->feuille, x, pt, dir);
        ts.lim = is_undef(n.lim) ? undef : n.lim == plus_inf ? minus_inf
                                       : n.lim == minus_inf ? plus_inf
                                                            : gen(-n.lim);
        ts.below = n.above;
        ts.above = n.below;
        return ts;
    }
    if (!mentions(t, x) || bounds_of(t, x, i)) {
        ts.below = ts.above = true;
        if (!mentions(t, x))
            ts.lim = t;
        return ts;
    }
    try {
        gen l = limit_or_squeeze(t, x, pt, dir);
        if (l == plus_inf || l == minus_inf || (!is_inf(l) && finite_number(l))) {
            ts.lim = l;
            ts.below = l != minus_inf;
            ts.above = l != plus_inf;
            return ts;
        }
    } catch (...) {
    }
    interval b = {1, 1};
    vecteur bs;
    gen rest = split_bounded_factors(t, x, b, bs);
    gen l;
    try {
        l = plain_limit(rest, x, pt, dir);
    } catch (...) {
        return ts;
    }
    if (bs.empty())
        return ts;
    if (l == plus_inf || l == minus_inf) {
        bool nonneg = keeps_sign(bs, b, x, 1), nonpos = keeps_sign(bs, b, x, -1);
        ts.below = l == plus_inf ? nonneg : nonpos;
        ts.above = l == plus_inf ? nonpos : nonneg;
    } else if (!is_inf(l) && finite_number(l)) {
        ts.below = ts.above = true;
    }
    return ts;
}

// Functions L <= t <= U near the point without oscillation, for the
// comparison of sum_squeeze: t itself when it holds no sin/cos of an
// unbounded argument; a bounded t's bounds; B*R with B bounded in [lo,
// hi] (exact_bounds where it applies, else the interval) and R -> +-oo
// without oscillation: lo*R and hi*R, by R's sign. false (each) when
// none is known.
bool term_bound_fns(const gen &t, const gen &x, const gen &pt, int dir, gen &L, gen &U) {
    if (t.is_symb_of_sommet(at_neg)) {
        gen l, u;
        if (!term_bound_fns(t._SYMBptr->feuille, x, pt, dir, l, u))
            return false;
        L = -u;
        U = -l;
        return true;
    }
    vecteur ph;
    unbounded_phases(t, x, pt, dir, ph);
    if (ph.empty()) {
        L = U = t;
        return true;
    }
    interval i, b = {1, 1};
    gen lo, hi;
    if (bounds_of(t, x, i)) {
        if (!exact_bounds(t, x, L, U)) {
            L = gen(i.lo);
            U = gen(i.hi);
        }
        return true;
    }
    vecteur bs;
    gen rest = split_bounded_factors(t, x, b, bs);
    ph.clear();
    unbounded_phases(rest, x, pt, dir, ph);
    if (bs.empty() || !ph.empty())
        return false;
    gen l;
    try {
        l = plain_limit(rest, x, pt, dir);
    } catch (...) {
        return false;
    }
    if (l != plus_inf && l != minus_inf)
        return false;
    if (bs.size() != 1 || !exact_bounds(bs[0], x, lo, hi)) {
        lo = gen(b.lo);
        hi = gen(b.hi);
    }
    L = (l == plus_inf ? lo : hi) * rest;
    U = (l == plus_inf ? hi : lo) * rest;
    return true;
}

// The comparison: the sum of the terms' lower functions tending to +oo
// makes the sum tend to +oo ((2 + sin(1/x))*exp(1/x) - log(-log(x)) at 0+:
// exp(1/x) - log(-log(x)) -> oo); the upper functions' tending to -oo,
// -oo. undef otherwise.
gen sum_comparison(const gen &f, const gen &x, const gen &pt, int dir) {
    gen sl = 0, su = 0, L, U;
    for (const gen &t : *f._SYMBptr->feuille._VECTptr) {
        if (!term_bound_fns(t, x, pt, dir, L, U))
            return undef;
        sl = sl + L;
        su = su + U;
    }
    try {
        if (plain_limit(sl, x, pt, dir) == plus_inf)
            return plus_inf;
        if (plain_limit(su, x, pt, dir) == minus_inf)
            return minus_inf;
    } catch (...) {
    }
    return undef;
}

gen sum_squeeze(const gen &f, const gen &x, const gen &pt, int dir) {
    if (!f.is_symb_of_sommet(at_plus) || f._SYMBptr->feuille.type != _VECT)
        return undef;
    bool up = false, down = false, all_below = true, all_above = true;
    std::string note = g_note; // a term's refutation is no word on the sum
    for (const gen &t : *f._SYMBptr->feuille._VECTptr) {
        term_side ts = term_behaviour(t, x, pt, dir);
        up |= ts.lim == plus_inf;
        down |= ts.lim == minus_inf;
        all_below &= ts.below;
        all_above &= ts.above;
    }
    g_note = note;
    if (up && !down && all_below)
        return plus_inf;
    if (down && !up && all_above)
        return minus_inf;
    return sum_comparison(f, x, pt, dir);
}

// true (and g_note set) when f tends to two different limits along the
// points where sin(g) = 0 and where cos(g) = 0 for one of its phases (as
// infinity_refuted): then f has no limit. giac cannot expand
// Abs(sin(x))*x**2 at oo and failed; it is 0 at x = k*pi and x**2 at x =
// pi/2 + k*pi. No parameters (their values decide).
bool sequences_disagree(const gen &f, const gen &x, const gen &pt, int dir) {
    for (const gen &s : lidnt(f))
        if (s != x && has_user_symbol(s))
            return false;
    vecteur phases;
    unbounded_phases(f, x, pt, dir, phases);
    static const int sc[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
    for (const gen &g : phases) {
        gen seen[4];
        for (int k = 0; k < 4; k++) {
            seen[k] = limit_along(f, x, pt, dir, g, sc[k][0], sc[k][1]);
            for (int j = 0; j < k; j++) {
                if (is_undef(seen[j]) || is_undef(seen[k]) || seen[j] == seen[k] ||
                    (!is_inf(seen[j]) && !is_inf(seen[k]) &&
                     is_zero(_simplify(seen[j] - seen[k], g_ctx))))
                    continue;
                auto where = [&g](int m) {
                    return std::string(sc[m][0] == 0 ? "sin(" : "cos(") + shown(g) + ") = 0 and " +
                           (sc[m][0] == 0 ? "cos(" : "sin(") + shown(g) +
                           ") = " + std::to_string(sc[m][0] + sc[m][1]);
                };
                g_note = "undefined: where " + where(j) + " the expression tends to " +
                         shown(seen[j]) + ", where " + where(k) + " to " + shown(seen[k]) +
                         " (both at points arbitrarily near the limit point): it has no limit there";
                return true;
            }
        }
    }
    return false;
}

// ---- floats through limit, sum and product ---------------------------------
// giac's limit, sum and product read a float as the rational its exact()
// finds within giac's epsilon, and answer in those rationals as if they
// were exact: limit(sqrt(-2.0)*x, x, 1) was 1607521*I/1136689 (1.6e-12
// off sqrt(2)), product(1 - 0.25/k**2, (k, 1, oo)) 364913/573204 (2/pi to
// 12 digits). Each float is instead read as the rational it holds exactly
// (a float is a dyadic rational), and the exact answer is given back as a
// float: floats in, floats out, as SymPy answers.

bool holds_float(const gen &g);

// The exact value of a finite float; g itself for any other value.
gen float_as_rational(const gen &g) {
    mpfr_t v;
    mpfr_init2(v, g.type == _REAL ? mpfr_get_prec(g._REALptr->inf) : 53);
    if (g.type == _REAL)
        mpfr_set(v, g._REALptr->inf, MPFR_RNDN);
    else
        mpfr_set_d(v, g._DOUBLE_val, MPFR_RNDN);
    if (!mpfr_number_p(v)) {
        mpfr_clear(v);
        return g;
    }
    mpz_t m;
    mpq_t q;
    mpz_init(m);
    mpq_init(q);
    long e = mpfr_get_z_2exp(m, v); /* v = m * 2**e */
    mpq_set_z(q, m);
    if (e >= 0)
        mpq_mul_2exp(q, q, (mp_bitcnt_t)e);
    else
        mpq_div_2exp(q, q, (mp_bitcnt_t)-e);
    gen num = integer(mpq_numref(q)), den = integer(mpq_denref(q));
    mpq_clear(q);
    mpz_clear(m);
    mpfr_clear(v);
    return is_one(den) ? num : num / den;
}

// g with each float f in it (in a complex number, a call, a list) replaced
// by leaf(f)
template <class F> gen map_floats(const gen &g, F leaf) {
    if (float_part(g))
        return leaf(g);
    if (g.type == _CPLX)
        return map_floats(g._CPLXptr[0], leaf) + cst_i * map_floats(g._CPLXptr[1], leaf);
    if (g.type == _SYMB)
        return symbolic(g._SYMBptr->sommet, map_floats(g._SYMBptr->feuille, leaf));
    if (g.type == _VECT) {
        vecteur v;
        for (const gen &e : *g._VECTptr)
            v.push_back(map_floats(e, leaf));
        return gen(v, g.subtype);
    }
    return g;
}

gen exact_floats(const gen &g) { return map_floats(g, float_as_rational); }

// Each float of g rounded to binary64 (a real53).
gen to_binary64(const gen &g) {
    return map_floats(g, [](const gen &f) {
        return real53(f.type == _REAL ? mpfr_get_d(f._REALptr->inf, MPFR_RNDN) : f._DOUBLE_val);
    });
}

// r with its sums distributed when it has symbols: giac's exact answer
// is one fraction ((18014398509481984*pi + 5404319552844595*y)/
// 18014398509481984), whose float form is no reading of 0.3*y + pi.
// Kept as it is when expanding makes it much longer.
gen float_summands(const gen &r) {
    if (lidnt(r).empty())
        return r;
    gen e = checked(expand(r, g_ctx));
    return taille(e, 4096) <= 2 * taille(r, 4096) + 8 ? e : r;
}

bool tiny_complex_part(const gen &g, bool exact_too);

// A constant's value at 30 digits, a complex one's parts each on its own.
gen evalf_parts(const gen &c) {
    gen re_f = checked(call(at_evalf, makesequence(re(c, g_ctx), gen(30))));
    if (is_zero(im(c, g_ctx)))
        return re_f;
    return gen(re_f, checked(call(at_evalf, makesequence(im(c, g_ctx), gen(30)))));
}

// g with each constant valued (evalf_parts) and every node rebuilt
// unevaluated: a product's constant factors are multiplied exactly and
// valued as one, an integer exponent stays exact.
gen evalf_kept(const gen &g) {
    if (lidnt(g).empty() && g.type != _VECT)
        return evalf_parts(g);
    if (g.type == _VECT) {
        vecteur v;
        for (const gen &e : *g._VECTptr)
            v.push_back(evalf_kept(e));
        return gen(v, g.subtype);
    }
    if (g.type != _SYMB)
        return g;
    const gen &args = g._SYMBptr->feuille;
    if (g._SYMBptr->sommet == at_prod && args.type == _VECT) {
        gen c = 1;
        vecteur rest;
        for (const gen &e : *args._VECTptr) {
            if (lidnt(e).empty())
                c = c * e;
            else
                rest.push_back(evalf_kept(e));
        }
        if (!is_one(c) || !is_exactly_zero(im(c, g_ctx)))
            rest.insert(rest.begin(), evalf_parts(c));
        return rest.size() == 1 ? rest[0] : symbolic(at_prod, gen(rest, _SEQ__VECT));
    }
    if (g._SYMBptr->sommet == at_pow && args.type == _VECT && args._VECTptr->size() == 2 &&
        is_integer((*args._VECTptr)[1]))
        return symbolic(at_pow, makesequence(evalf_kept((*args._VECTptr)[0]), (*args._VECTptr)[1]));
    return symbolic(g._SYMBptr->sommet, evalf_kept(args));
}

// An exact answer reached from floats, given back as floats: evaluated at
// 30 digits, each number then rounded once to binary64 (giac's evalf at
// its default precision left pi**2/6 as 1.64493406684820, 3e-14 off). An
// exact 0 (exp(-0.5*x) at oo: the floats vanished), an infinity, undef or
// an oscillation's placeholder stays as it is.
gen float_answer(const gen &r) {
    if (is_zero(r) || is_undef(r) || is_inf(r) || r.type == _STRNG || holds_op(r, at_bounded_function))
        return r;
    gen f;
    // giac's evalf of x**2*(1 + I/10**13) dropped the factor as 1 (its
    // is_one within its epsilon), and expand((1 + 1e-13*I)*(x + 1)**2)
    // lost the x**2 term's imaginary part: with such a part, the constants
    // are valued on their own and the products rebuilt unevaluated
    if (!lidnt(r).empty() && tiny_complex_part(r, true)) {
        keep_precision keep;
        f = evalf_kept(float_summands(r));
        return to_binary64(f);
    }
    { // restored before the binary64 floats are made, which take MPFR's default
        keep_precision keep;
        // a constant's parts each on its own: giac's evalf of a complex
        // number drops an imaginary part below its epsilon, and
        // summation(1e-13*I/2**k, (k, 1, oo)) was 0.0 (it is 1.0e-13*I),
        // x**2 + 1e-30 = 0 solved as 0.0, 0.0
        if (lidnt(r).empty() && !is_zero(im(r, g_ctx))) {
            gen re_f = checked(call(at_evalf, makesequence(re(r, g_ctx), gen(30))));
            gen im_f = checked(call(at_evalf, makesequence(im(r, g_ctx), gen(30))));
            return to_binary64(re_f) + cst_i * to_binary64(im_f);
        }
        f = checked(call(at_evalf, makesequence(float_summands(r), gen(30))));
    }
    return to_binary64(f);
}

// limit_or_squeeze of an expression or point with floats in it, the floats
// read exactly (above).
gen limit_of_floats(const gen &f, const gen &x, const gen &pt, int dir) {
    if (!holds_float(f) && !holds_float(pt))
        return limit_or_squeeze(f, x, pt, dir);
    gen r = limit_or_squeeze(eval(exact_floats(f), 1, g_ctx), x, eval(exact_floats(pt), 1, g_ctx), dir);
    return float_answer(r);
}

// giac's limit, or the squeeze's where giac fails or answers an
// oscillation (bounded_function) or undef for a product the squeeze
// decides (or a sum sum_squeeze decides); an infinite answer refuted along
// the zeros of an oscillation (infinity_refuted) is undef, with the note;
// where giac fails and no squeeze decides, two sequences with different
// limits (sequences_disagree) make it undef with the note.
gen limit_or_squeeze(const gen &f, const gen &x, const gen &pt, int dir) {
    gen r;
    try {
        r = plain_limit(f, x, pt, dir);
    } catch (...) {
        gen s = squeeze_limit(f, x, pt, dir);
        if (is_undef(s))
            s = sum_squeeze(f, x, pt, dir);
        if (is_undef(s) && sequences_disagree(f, x, pt, dir))
            return undef;
        if (is_undef(s))
            throw;
        return s;
    }
    if (is_undef(r) || holds_op(r, at_bounded_function)) {
        gen s = squeeze_limit(f, x, pt, dir);
        if (is_undef(s))
            s = sum_squeeze(f, x, pt, dir);
        if (!is_undef(s))
            return s;
    }
    if ((r == plus_inf || r == minus_inf) && infinity_refuted(f, x, pt, dir, r))
        return undef;
    return r;
}

// limit(f, x, pt) inside an expression: as the limit tool, with its check
// of a finite limit at +-oo against f's own values (sym_limcheck.h: giac's
// limit(cos(sqrt(x))/x, x, -oo) was 0; cos(I*t) = cosh(t) grows).
gen sp_limit(const cc_node *n, const char *) {
    gen pt = arg(n, 2);
    gen r = limit_of_floats(arg(n, 0), arg(n, 1), pt, is_inf(pt) ? 0 : 1);
    if (holds_op(r, at_bounded_function)) {
        // giac's placeholder printed as the answer (limit(sin(1/x), x, 0)
        // was bounded_function(2)); limit_expression says "does not exist"
        g_note = "undefined: the expression oscillates between bounds without approaching a value";
        return undef;
    }
    int sgn = pt == plus_inf ? 1 : pt == minus_inf ? -1 : 0;
    long ex = 0;
    if (sgn && finite_number(r) && n->child[1]->kind == CC_N_NAME &&
        sym_limit_grows(n->child[0], n->child[1]->v.name, sgn, &ex)) {
        g_note = "undefined: the CAS answered " + shown(r) +
                 ", but the expression's values grow without bound (|f| is about 10**" +
                 std::to_string(ex) + " at " + n->child[1]->v.name + " = " + (sgn < 0 ? "-" : "") +
                 "10**16); at -oo the expression may take non-real values (sqrt or log of a "
                 "negative number)";
        if (sgn > 0)
            g_note.erase(g_note.find("; at -oo"));
        return undef;
    }
    return r;
}
// The limit of a series' term f(k) as k -> oo, or undef when giac cannot
// say (an oscillation comes back as bounded_function(...)).
gen term_limit(const gen &f, const gen &k) {
    try {
        return call(at_limit, makesequence(f, k, plus_inf));
    } catch (...) {
        return undef;
    }
}

// true when g holds abs or sign, the marks of a formula giac wrote for real
// values (log(abs(u)))
bool holds_real(const gen &g) { return holds_op(g, at_abs) || holds_op(g, at_sign); }

// giac's infinite sum of a telescoping rational term with a gap of 3 or
// more is wrong: summation(1/(k*(k + 3)), (k, 1, oo)) was zoo (11/18),
// summation(1/(k*(k + 5)), (k, 1, oo)) 5/12 (137/300). The sum up to a
// symbol n has a closed form (rational terms only), checked against the sum
// term by term at two bounds; its limit as n -> oo is the series' value when finite. undef
// when it is not (or v is not a sum from a finite start to +oo).
bool estimate_refutes(const vecteur &v, const cc_node *n, const gen &s);
bool sum_estimate_of(const vecteur &v, const cc_node *n, double &est, double &spread);
bool gap_refutes(double value, double est, double spread);

// the term t is a rational function of k alone
bool rational_term(const gen &t, const gen &k) {
    vecteur kernels = lvar(t);
    return kernels.size() == 1 && kernels[0] == k;
}

gen partial_sum_limit(const vecteur &v, const cc_node *node) {
    if (v[3] != plus_inf || is_inf(v[2]))
        return undef;
    try {
        if (!rational_term(v[0], v[1]))
            return undef;
        gen n = user_symbol("partial_sum_bound_");
        gen part = call(at_sum, makesequence(v[0], v[1], v[2], n));
        // a float in the closed form (giac's partial sum of 1/(k**2 + 1)
        // is digammas plus 1.07667404747) is no exact answer, and giac's
        // limit turns it into a fraction: 698741/648981 was answered as
        // the exact sum, 3e-13 off
        if (part.is_symb_of_sommet(at_sum) || holds_float(part))
            return undef;
        // the closed form must match the sum term by term at two bounds
        for (int m : {17, 40}) {
            gen direct = call(at_sum, makesequence(v[0], v[1], v[2], gen(m)));
            gen closed = subst(part, n, gen(m), false, g_ctx);
            if (!is_zero(_simplify(direct - closed, g_ctx)))
                return undef;
        }
        gen lim = call(at_limit, makesequence(part, n, plus_inf));
        lim = _simplify(lim, g_ctx);
        if (!finite_number(lim) || holds_float(lim) || estimate_refutes(v, node, lim))
            return undef;
        return lim;
    } catch (...) {
        return undef;
    }
}

// true when our numeric estimate of the series v (sym_sumest.h) is far from
// s: a limit of giac's closed partial sum was once 1/2 for
// summation(1/((4*k - 1)*(4*k + 1)), (k, 1, oo)), 1/2 - pi/8 (a CI run
// under load; the same call alone was right). The estimate's own error is
// about its spread (a one-sign series' tail), so only a gap of many
// spreads refutes; false when no estimate can be made.
bool estimate_refutes(const vecteur &v, const cc_node *n, const gen &s) {
    double sv, est, spread;
    return real_value(s, sv) && sum_estimate_of(v, n, est, spread) && gap_refutes(sv, est, spread);
}

// The numeric estimate of the sum v (term, index, integer start) whose
// call is the AST n; false when none can be made.
bool sum_estimate_of(const vecteur &v, const cc_node *n, double &est, double &spread) {
    const cc_node *tup = n && n->nchild > 1 ? n->child[1] : nullptr;
    est = 0;
    spread = INFINITY;
    return tup && tup->kind == CC_N_TUPLE && tup->nchild == 3 && tup->child[0]->kind == CC_N_NAME &&
           v[2].type == _INT_ && sym_sum_estimate(n->child[0], tup->child[0]->v.name, v[2].val, &est, &spread);
}

// A value many spreads from an estimate (even an unconverged one) is
// refuted by it.
bool gap_refutes(double value, double est, double spread) {
    return std::isfinite(spread) && std::fabs(value - est) > 8 * spread + 1e-9 * std::max(1.0, std::fabs(est));
}

// giac's closed form of an infinite sum from an integer start can be wrong
// where the same series from another start is right: summation((-1)**n/n**3,
// (n, 2, oo)) was -1 + 3*zeta(3)/4 (-0.0985; it is +0.0985, the sum from 1,
// -3*zeta(3)/4, less its first term -1), summation((-1)**n/n**2, (n, 2, oo))
// -1 + pi**2/12, summation((-1)**n/n, (n, 3, oo)) 3/2 - log(2) (redsym7).
// An alternating sum is recomputed from the next two starts and the
// previous one, with the terms between, and every sum is estimated
// numerically (sym_sumest.h). The closed form that
// agrees with a converged estimate is the answer; when none does, or the
// forms contradict each other and the estimate cannot choose, the sum is
// left unevaluated with a note. A form that is no finite number, or a term
// without a real value, decides nothing.
// true when the AST holds a power of a negative number ((-1)**n): the
// alternating terms whose sums giac got wrong from some starts
bool negative_power(const cc_node *n) {
    if (n->kind == CC_N_BINARY && n->op == CC_OP_POW && n->child[0]->kind == CC_N_UNARY &&
        n->child[0]->op == CC_OP_NEG)
        return true;
    for (uint32_t i = 0; i < n->nchild; i++)
        if (n->child[i] && negative_power(n->child[i]))
            return true;
    return false;
}

gen shift_checked(const vecteur &v, const gen &r, const gen &args, const cc_node *n) {
    double rv;
    if (v[3] != plus_inf || v[2].type != _INT_ || !real_value(r, rv))
        return r;
    std::vector<std::pair<gen, double>> cands{{r, rv}};
    bool contradiction = false;
    // the other starts cost three more sums: only for alternating terms
    for (int d : {1, 2, -1}) {
        if (!negative_power(n->child[0]))
            break;
        try {
            gen start = v[2] + gen(d);
            gen rest = call(at_sum, makesequence(v[0], v[1], start, plus_inf));
            gen head = d > 0 ? call(at_sum, makesequence(v[0], v[1], v[2], start - gen(1)))
                             : -call(at_sum, makesequence(v[0], v[1], start, v[2] - gen(1)));
            gen alt = rest + head;
            double av;
            if (!real_value(alt, av))
                continue;
            cands.push_back({alt, av});
            contradiction |= std::fabs(av - rv) > 1e-9 * std::max(1.0, std::fabs(rv));
        } catch (...) {
        }
    }
    double est, spread;
    bool have = sum_estimate_of(v, n, est, spread);
    double scale = std::max(1.0, std::fabs(est));
    bool converged = have && spread <= 1e-12 * scale;
    // An estimate that has not converged still refutes a form many spreads
    // away: summation(1/((4*k - 1)*(4*k + 1)), (k, 1, oo)) came back 1/2
    // (it is 1/2 - pi/8 = 0.1073) in a CI run under load, and the
    // unconverged estimate let it through.
    bool refuted = have && gap_refutes(rv, est, spread);
    if (!contradiction && !refuted && (!converged || std::fabs(rv - est) <= 1e-7 * scale))
        return r;
    // the candidates the estimate confirms (all equal to each other)
    double tol = std::max(1e-7, 10 * spread / scale) * scale;
    const std::pair<gen, double> *pick = nullptr;
    bool clash = !have;
    for (const auto &c : cands)
        if (have && std::fabs(c.second - est) <= tol) {
            clash |= pick && std::fabs(c.second - pick->second) > 1e-9 * scale;
            if (!pick)
                pick = &c;
        }
    if (pick && !clash) {
        if (pick != &cands[0])
            g_note = "the CAS's closed forms of this series contradict each other (the one from "
                     "the start given is another number); the one a numeric estimate of the "
                     "series confirms (from another start, with the terms between) is given";
        return pick == &cands[0] ? r : _simplify(pick->first, g_ctx);
    }
    g_note = "the CAS's closed forms of this series (from the start given and from the next "
             "ones, with the terms between) contradict each other or a numeric estimate of the "
             "series, so the sum is left unevaluated";
    return symbolic(at_sum, args);
}

// An infinite sum whose terms do not tend to 0 diverges (giac's closed form
// of a geometric series is its Abel sum: summation(cos(n), (n, 0, oo)) =
// 1/2); one with a parameter (summation(x**n, (n, 0, oo)) = 1/(1 - x)) is
// the closed form only where it converges (|x| < 1), which the note says.
gen checked_series(const vecteur &v, const gen &r, const gen &args, const cc_node *n,
                   bool partial_tried) {
    if (!is_inf(v[3]) && !is_inf(v[2]))
        return r;
    gen l = term_limit(v[0], v[1]);
    if (is_undef(l)) {
        // giac has no limit for i^n; the terms' modulus may have one, and a
        // non-zero one is as good (summation(I**n) was the Abel sum 1/2 + I/2)
        gen m = term_limit(call(at_abs, v[0]), v[1]);
        if (is_inf(m) || (finite_number(m) && !is_zero(_simplify(m, g_ctx))))
            l = m;
    }
    if (is_inf(l) && is_inf(r))
        return r;
    if (is_inf(l) || l.is_symb_of_sommet(at_bounded_function) ||
        (finite_number(l) && !is_zero(_simplify(l, g_ctx)))) {
        g_note = "the series diverges: its terms do not tend to 0";
        return undef;
    }
    if (is_zero(l)) {
        // giac's own infinite sum is checked against it: it was 5/12 for
        // summation(1/(k*(k + 5)), (k, 1, oo)), which is 137/300
        gen s = partial_tried ? undef : partial_sum_limit(v, n);
        if (!is_undef(s) && (is_inf(r) || is_undef(r) || !is_zero(_simplify(r - s, g_ctx))))
            return s;
        // and a rational term's against the numbers, when the partial sum
        // gave nothing (an alternating one is shift_checked's, below)
        if (is_undef(s) && rational_term(v[0], v[1]) && finite_number(r) && estimate_refutes(v, n, r)) {
            g_note = "the CAS's closed form disagrees with the series' numeric estimate, so the "
                     "sum is left unevaluated";
            return symbolic(at_sum, args);
        }
    }
    bool parameters = false;
    for (const gen &s : lidnt(v[0]))
        parameters |= s != v[1];
    if (!parameters)
        return shift_checked(v, r, args, n);
    if (!is_undef(r) && !is_inf(r) && !r.is_symb_of_sommet(at_sum))
        g_note = holds_real(r)
                     ? "the closed form holds only for real parameter values where the series "
                       "converges: it uses Abs or sign, which the series' complex values do not "
                       "follow (summation(x**k/k) is -log(1 - x) for complex |x| < 1, not "
                       "-log(Abs(1 - x)))"
                     : "the closed form holds only for the parameter values where the series "
                       "converges (the CAS does not state that condition)";
    return r;
}

// giac's product up to a symbol is checked against the product term by
// term at two bounds, as partial_sum_limit's sums are: product(1 + 1/n**2,
// (n, 1, M)) was factorial(M + I)*factorial(M - I)/(0.289999999999999*
// factorial(M)**2) (the constant is pi/sinh(pi) = 0.2720...). false when a
// bound refutes it (or no bound can be evaluated).
bool partial_product_holds(const vecteur &v, const gen &bound, const gen &closed) {
    for (int m : {7, 19}) {
        try {
            gen direct = call(at_product, makesequence(v[0], v[1], v[2], gen(m)));
            gen at = subst(closed, bound, gen(m), false, g_ctx);
            double d, c;
            if (!real_value(direct, d) || !real_value(at, c) ||
                std::fabs(d - c) > 1e-10 * std::max(1.0, std::fabs(d)))
                return false;
        } catch (...) {
            return false;
        }
    }
    return true;
}

// The limit of the checked product up to a symbol, or undef.
gen partial_product_limit(const vecteur &v) {
    try {
        gen m = user_symbol("partial_product_bound_");
        gen part = call(at_product, makesequence(v[0], v[1], v[2], m));
        if (part.is_symb_of_sommet(at_product) || is_undef(part) || !partial_product_holds(v, m, part))
            return undef;
        gen lim = _simplify(call(at_limit, makesequence(part, m, plus_inf)), g_ctx);
        return finite_number(lim) ? lim : undef;
    } catch (...) {
        return undef;
    }
}

bool inexact(const gen &g);
long tree_size(const gen &g);
gen with_complex(gen (*fn)(const gen &), const gen &a);

// The roots of polynomial p in x with their multiplicities, all exact
// (giac's roots over the complex numbers), counted up to p's degree; false
// otherwise.
bool exact_roots(const gen &p, const gen &x, std::vector<std::pair<gen, int>> &out) {
    gen r = with_complex([](const gen &a) { return _roots(a, g_ctx); }, makesequence(p, x));
    if (r.type != _VECT)
        return false;
    int total = 0;
    for (const gen &row : *r._VECTptr) {
        if (row.type != _VECT || row._VECTptr->size() != 2 || (*row._VECTptr)[1].type != _INT_ ||
            inexact((*row._VECTptr)[0]))
            return false;
        out.push_back({(*row._VECTptr)[0], (*row._VECTptr)[1].val});
        total += (*row._VECTptr)[1].val;
    }
    gen deg = _degree(makesequence(p, x), g_ctx);
    return deg.type == _INT_ && deg.val == total;
}

// gamma(u)*gamma(m - u) for an integer m, by the reflection formula
// gamma(u)*gamma(1 - u) = pi/sin(pi*u) and the recurrence
gen reflected(const gen &u, int m) {
    gen r = cst_pi / call(at_sin, cst_pi * u);
    for (int j = 1; j <= m - 1; j++)
        r = r * (gen(j) - u);
    for (int j = m; j <= 0; j++)
        r = r / (gen(j) - u);
    return r;
}

// sin and cos of a constant a + b*I split into real functions,
// sin(a)*cosh(b) + I*cos(a)*sinh(b) and cos(a)*cosh(b) - I*sin(a)*sinh(b),
// then normal: the reflected gammas of conjugate roots are real numbers
// (I*sin(pi*(1 + I))/pi is sinh(pi)/pi). g itself when a non-real
// constant is left.
gen real_trig(const gen &g) {
    gen r = map_tree(g, [](const unary_function_ptr &f, const gen &u) -> gen {
        if ((f != at_sin && f != at_cos) || u.type == _VECT || has_user_symbol(u))
            return symbolic(f, u);
        gen a = _simplify(giac::re(u, g_ctx), g_ctx), b = _simplify(giac::im(u, g_ctx), g_ctx);
        if (is_zero(b))
            return symbolic(f, u);
        if (f == at_sin)
            return call(at_sin, a) * call(at_cosh, b) + cst_i * call(at_cos, a) * call(at_sinh, b);
        return call(at_cos, a) * call(at_cosh, b) - cst_i * call(at_sin, a) * call(at_sinh, b);
    });
    r = normal(r, g_ctx);
    double d;
    return real_value(r, d) ? r : g;
}

// A rational term tending to 1, (n - a1)...(n - ar)/((n - b1)...(n - br))
// with a1 + ... + ar = b1 + ... + br, has the infinite product from k
// gamma(k - b1)...gamma(k - br)/(gamma(k - a1)...gamma(k - ar)); pairs of
// gamma at arguments summing to an integer become sines (reflected):
// product(1 + 1/n**2, (n, 1, oo)) = 1/(gamma(1 - I)*gamma(1 + I)) =
// sinh(pi)/pi, which giac has no product for. undef where the term is
// not of that kind (a root the CAS cannot write, a gamma at a pole).
gen gamma_product(const gen &term, const gen &n, int k) {
    try {
        gen f = normal(term, g_ctx);
        gen num = _numer(f, g_ctx), den = _denom(f, g_ctx);
        std::vector<std::pair<gen, int>> a, b;
        if (!exact_roots(num, n, a) || !exact_roots(den, n, b) || a.empty())
            return undef;
        if (!is_one(_simplify(call(at_limit, makesequence(f, n, plus_inf)), g_ctx)))
            return undef;
        gen sa(0), sb(0);
        std::vector<std::pair<gen, int>> args; // gamma's argument, its power
        for (const auto &r : a) {
            sa += r.first * gen(r.second);
            args.push_back({gen(k) - r.first, -r.second});
        }
        for (const auto &r : b) {
            sb += r.first * gen(r.second);
            args.push_back({gen(k) - r.first, r.second});
        }
        if (!is_zero(_simplify(sa - sb, g_ctx)))
            return undef;
        gen value(1);
        std::vector<bool> used(args.size(), false);
        for (size_t i = 0; i < args.size(); i++) {
            if (used[i])
                continue;
            gen u = args[i].first;
            if (is_integer(u) && !is_strictly_positive(u, g_ctx))
                return undef; // gamma's pole (the term is 0 or infinite at some n)
            for (size_t j = i + 1; j < args.size() && !is_integer(u); j++) {
                gen m = _simplify(u + args[j].first, g_ctx);
                if (used[j] || args[j].second != args[i].second || m.type != _INT_ ||
                    std::abs(m.val) > 50)
                    continue;
                used[i] = used[j] = true;
                value = value * pow(reflected(u, m.val), args[i].second, g_ctx);
                break;
            }
            if (!used[i])
                value = value * pow(call(at_Gamma, u), args[i].second, g_ctx);
            used[i] = true;
        }
        return real_trig(_simplify(value, g_ctx));
    } catch (...) {
        return undef;
    }
}

// Infinite products stayed unevaluated (product(1 - 1/n**2, (n, 2, oo)) is
// 1/2: giac has no infinite product of it). The limit of the checked
// partial product is the value, and every finite positive value (giac's
// own or that limit) is compared with the log partial products
// extrapolated in 1/M (sym_product_estimate): a value they refute is not
// given (the product stays unevaluated with a note), and a limit they
// cannot confirm is not given either. A product up to a symbol is checked
// at two bounds. Parameter-free terms only.
gen checked_product(const vecteur &v, const gen &r, const cc_node *n) {
    if (v.size() != 4)
        return r;
    for (const gen &s : lidnt(v[0]))
        if (s != v[1])
            return r;
    if (v[3].type == _IDNT && !is_inf(v[3]) && !is_undef(r) && !partial_product_holds(v, v[3], r)) {
        g_note = "the CAS's closed form of this product disagrees with the product term by term, "
                 "so it is left unevaluated";
        return undef;
    }
    if (v[3] != plus_inf || v[2].type != _INT_)
        return r;
    bool own = finite_number(r);
    gen c = own ? r : partial_product_limit(v);
    double cv;
    if (!own && !real_value(c, cv))
        c = gamma_product(v[0], v[1], v[2].val);
    if (!real_value(c, cv))
        return r;
    const cc_node *tup = n->nchild > 1 ? n->child[1] : nullptr;
    double est = 0, spread = INFINITY;
    bool have = tup && tup->kind == CC_N_TUPLE && tup->nchild == 3 &&
                tup->child[0]->kind == CC_N_NAME &&
                sym_product_estimate(n->child[0], tup->child[0]->v.name, v[2].val, &est, &spread);
    if (cv > 0 && have && spread <= 1e-6 && std::fabs(std::log(cv) - est) <= 1e-6)
        return c; // confirmed
    if (cv == 0 && !own && have && est < -5)
        return c; // the checked limit 0, the partial products falling toward it
    bool refuted = have && spread <= 1e-6 && (cv <= 0 || std::fabs(std::log(cv) - est) > 1e-4);
    if (refuted) {
        g_note = "the closed form of this infinite product contradicts its partial products "
                 "(extrapolated), so it is left unevaluated";
        return undef;
    }
    return own ? r : undef;
}

// Sum(...) is inert, as SymPy's, but giac evaluates it later (the
// simplified and expanded forms) with its own sum, unchecked: Sum(1/(k*(k +
// 5)), (k, 1, oo)) was simplified to 5/12 (it is 137/300), Sum(cos(k), (k,
// 0, oo)) to 1/2 (it diverges), Sum(x**k, (k, 0, oo)) expanded to -1/(x - 1)
// without the condition |x| < 1. An infinite sum is checked as summation()
// checks it; when the check changes the value or has something to say, the
// checked value and its note are the answer, else the sum stays inert.
gen inert_sum(const vecteur &v, const gen &args, const cc_node *n) {
    if (!is_inf(v[3]) && !is_inf(v[2]))
        return symbolic(at_sum, args);
    std::string before = g_note;
    g_note.clear();
    gen plain = call(at_sum, args);
    gen checked = checked_series(v, plain, args, n, false);
    if (g_note.empty() && !is_undef(checked) && checked == plain) {
        g_note = before;
        return symbolic(at_sum, args);
    }
    if (g_note.empty())
        g_note = before;
    return checked;
}

gen exact_sum(vecteur &v, const cc_node *n, const char *name);

// summation and product (not the inert Sum) of floats: each float read
// exactly, the answer given back as a float (limit_of_floats).
gen sp_sum(const cc_node *n, const char *name) {
    vecteur v(1, arg(n, 0));
    push_limits(v, n->child[1]);
    if (v.size() != 4)
        fail("validation", "parse error: %s() needs (expr, (k, lower, upper))", name);
    if (strcmp(name, "Sum") && holds_float(gen(v, _SEQ__VECT))) {
        vecteur exact(v);
        for (gen &e : exact)
            e = eval(exact_floats(e), 1, g_ctx);
        gen r = exact_sum(exact, n, name);
        // left unevaluated: shown with the floats the caller wrote
        if (!holds_op(r, at_sum) && !holds_op(r, at_product))
            return float_answer(r);
    }
    return exact_sum(v, n, name);
}

// The sum, product or inert Sum of v = (expr, k, lower, upper), checked
// (checked_series, checked_product) as their exact values.
gen exact_sum(vecteur &v, const cc_node *n, const char *name) {
    gen args(v, _SEQ__VECT);
    if (!strcmp(name, "Sum"))
        return inert_sum(v, args, n);
    if (!strcmp(name, "product")) {
        // giac answers undef for an infinite product it cannot evaluate
        // (prod(1 + 1/n^2) = sinh(pi)/pi): undefined it is not
        gen r = checked_product(v, call(at_product, args), n);
        return is_undef(r) ? symbolic(at_product, args) : r;
    }
    // a rational term's partial sum, verified and taken to the limit, is
    // the value giac's own infinite sum is checked against: taken first,
    // since giac's sum of 1/((3*k - 1)*(3*k + 1)) to oo never returned
    // (the worker's CPU limit ended it; its partial sum is digammas, 40 ms)
    gen s = partial_sum_limit(v, n);
    if (!is_undef(s))
        return s;
    return checked_series(v, call(at_sum, args), args, n, true);
}
// giac's series carries an order_size(x) remainder term; the truncated
// polynomial is what we report.
bool has_order(const gen &g) { return holds_op(g, at_order_size); }

gen drop_order_term(const gen &s) {
    if (!s.is_symb_of_sommet(at_plus) || s._SYMBptr->feuille.type != _VECT)
        return has_order(s) ? gen(0) : s;
    gen sum(0);
    for (const gen &t : *s._SYMBptr->feuille._VECTptr)
        if (!has_order(t))
            sum = sum + t;
    return sum;
}

// sympy's O(...) term: an application of an internal identifier (user
// names all carry PREFIX, so no user symbol can be this one), which giac's
// simplify and expand leave alone and to_tree prints as O(...).
const char *const ORDER_FN = "cc_O";

gen order_term(const gen &x, const gen &x0, const gen &order) {
    // at +-oo the expansion is in 1/x: SymPy's O(x**(-n), (x, oo)); x - x0
    // was -oo there, and the term printed O(-oo, (x, oo)) (redsym7)
    if (is_inf(x0))
        return symbolic(at_of, makesequence(gen(identificateur(ORDER_FN)),
                                            makesequence(power(x, -order), x, x0)));
    gen base = is_zero(x0) ? x : x - x0;
    gen args = is_zero(x0) ? power(base, order) : makesequence(power(base, order), x, x0);
    return symbolic(at_of, makesequence(gen(identificateur(ORDER_FN)), args));
}

// |f - s| at x = x0 + h, valued at dig digits, as a double (+inf when it
// overflows one); false when it is no number (undefined there, or the
// valuation fails).
bool series_gap(const gen &d, const gen &x, const gen &p, int dig, double &out) {
    keep_precision keep;
    try {
        gen v = checked(call(at_evalf, makesequence(subst(d, x, p, false, g_ctx), gen(dig))));
        // each part on its own: the abs of a complex multiprecision float
        // came back as 0
        double part[2];
        for (int i = 0; i < 2; i++) {
            gen a = evalf_double(i ? im(v, g_ctx) : re(v, g_ctx), 1, g_ctx);
            if (a.type == _INT_)
                part[i] = a.val;
            else if (a.type == _DOUBLE_ && !std::isnan(a._DOUBLE_val))
                part[i] = a._DOUBLE_val;
            else
                return false;
        }
        out = std::hypot(part[0], part[1]);
        return true;
    } catch (...) {
        return false;
    }
}

// true unless a series s of f at a finite x0 to O((x - x0)**order) is
// refuted on the right of x0, where sympy's series holds: f - s must shrink like
// h**order. giac answered O(x**4) for acot(x), atan(1/x) and exp(1/x) at
// 0, and -sqrt(2)*sqrt(x) for acos(1 - x) (it is +sqrt(2*x)). The gap is
// valued at h = 1e-3 and 1e-6 (at 6*order + 30 digits, so the remainder
// stands above the rounding); from one to the other it must fall by at
// least 10**(-3*(order - 1/4)) (a remainder h**order*log(h) falls by
// 10**(-3*order + 0.3)); a gap at rounding level passes (g1, g2 the gaps).
// Only series without other symbols and of order up to 20 are checked.
bool series_holds(const gen &f, const gen &x, const gen &x0, int order, const gen &s, double &g1, double &g2) {
    if (is_inf(x0) || order > 20 || has_user_symbol(x0))
        return true;
    for (const gen &v : lidnt(f))
        if (v != x && has_user_symbol(v))
            return true;
    int dig = 6 * order + 30;
    gen d = f - s;
    double f2;
    gen h1 = gen(1) / gen(1000), h2 = gen(1) / gen(1000000);
    if (!series_gap(d, x, x0 + h1, dig, g1) || !series_gap(d, x, x0 + h2, dig, g2) ||
        !series_gap(f, x, x0 + h2, dig, f2))
        return true;
    double noise = std::pow(10.0, -(dig - 12)) * std::max(1.0, f2);
    if (std::isfinite(g2) && (g2 <= noise || g1 <= noise))
        return true;
    return std::isfinite(g2) && std::isfinite(g1) && g2 <= g1 * std::pow(10.0, -3.0 * (order - 0.25));
}

// The terms of the truncated series s whose degree in x - x0 is below
// order: a term t is kept when t/(x - x0)**order is unbounded as x -> x0+.
gen terms_below(const gen &s, const gen &x, const gen &x0, int order) {
    vecteur ts;
    if (s.is_symb_of_sommet(at_plus) && s._SYMBptr->feuille.type == _VECT)
        ts = *s._SYMBptr->feuille._VECTptr;
    else
        ts.push_back(s);
    gen sum(0);
    for (const gen &t : ts) {
        gen l = call(at_limit, makesequence(t / power(x - x0, gen(order)), x, x0, gen(1)));
        if (is_inf(l))
            sum = sum + t;
        else if (!is_zero(l))
            throw std::runtime_error("a term of the series has no degree");
    }
    return sum;
}

// giac keeps the terms of degree up to order - 1 and drops those of a
// fractional degree between order - 1 and order: series(sqrt(x + x**2),
// x, 0, 3) was sqrt(x) + x**(3/2)/2 + O(x**3), without -x**(5/2)/8. A
// series that series_holds() refutes is asked once more at one degree
// more, and its terms below order kept; one still refuted is refused.
gen checked_series_expansion(const gen &f, const gen &x, const gen &x0, int order, const gen &s,
                             bool &redone) {
    double g1, g2;
    redone = false;
    if (series_holds(f, x, x0, order, drop_order_term(s), g1, g2))
        return s;
    try {
        gen t = call(at_series, makesequence(f, symb_equal(x, x0), gen(order)));
        gen kept = terms_below(drop_order_term(t), x, x0, order);
        double k1, k2;
        if (has_order(t) && series_holds(f, x, x0, order, kept, k1, k2)) {
            redone = true;
            return kept + order_term(x, x0, gen(order));
        }
    } catch (...) {
    }
    fail("validation", "the CAS's series does not match the expression near the point: at %s + 1e-6 "
                       "the expression and the series differ by %.3g, more than a remainder of "
                       "order %d allows (at %s + 1e-3 by %.3g), so it is not given (the expression "
                       "may have no such expansion there)",
         x0.print(g_ctx).c_str(), g2, order, x0.print(g_ctx).c_str(), g1);
}

gen sp_series(const cc_node *n, const char *) {
    gen x = n->nchild > 1 ? arg(n, 1) : gen(0);
    if (n->nchild == 1) { // series(f): the one free symbol, as sympy does
        vecteur ids = lidnt(arg(n, 0));
        if (ids.size() == 1)
            x = ids[0];
    }
    gen x0 = n->nchild > 2 ? arg(n, 2) : gen(0);
    gen order = n->nchild > 3 ? arg(n, 3) : gen(6);
    if (x.type != _IDNT)
        fail("validation", "parse error: series() needs a variable");
    if (order.type != _INT_ || order.val < 1 || order.val > 100)
        fail("validation", "parse error: series() order must be an integer from 1 to 100");
    // giac's order is the highest kept degree; sympy's n excludes it.
    gen s = call(at_series, makesequence(arg(n, 0), symb_equal(x, x0), order - 1));
    // an exact polynomial of low degree has no remainder, and sympy then
    // prints no O term either
    bool redone;
    s = checked_series_expansion(arg(n, 0), x, x0, order.val, s, redone);
    if (redone)
        return s;
    if (!has_order(s))
        return s;
    return drop_order_term(s) + order_term(x, x0, order);
}
gen sp_eq(const cc_node *n, const char *) {
    return symbolic(at_equal, makesequence(arg(n, 0), n->nchild > 1 ? arg(n, 1) : gen(0)));
}
void complete_poly_roots(const gen &args, vecteur &v);
void casus_roots(const gen &args, vecteur &v);
gen sp_solve(const cc_node *n, const char *) {
    gen e = arg(n, 0);
    gen v;
    if (n->nchild > 1) {
        v = arg(n, 1);
    } else {
        vecteur ids = lidnt(e);
        if (ids.size() != 1)
            fail("validation", "parse error: solve() needs the variable");
        v = ids[0];
    }
    bool old = complex_mode(g_ctx);
    complex_mode(true, g_ctx);
    gen r;
    try {
        r = call(at_solve, makesequence(e, v));
        // giac's complex solve drops the roots of a factor of some
        // polynomials (x**5 - 2*x gave [0]); solve_expression completes
        // them since redsym9, and solve(...) here answered [0] still
        if (r.type == _VECT) {
            vecteur all = *r._VECTptr;
            complete_poly_roots(makesequence(e, v), all);
            // giac's rootof(...) has no spelling in the language:
            // solve(x**3 - x + 1, x) printed three of them;
            // solve_expression's radicals (casus_roots) replace them
            if (holds_op(gen(all, 0), at_rootof))
                casus_roots(makesequence(e, v), all);
            r = gen(all, 0);
        }
    } catch (...) {
        complex_mode(old, g_ctx);
        throw;
    }
    complex_mode(old, g_ctx);
    return r.type == _VECT ? gen(*r._VECTptr, 0) : r;
}
gen sp_isprime(const cc_node *n, const char *) {
    gen r = call(at_is_prime, arg(n, 0));
    gen b(is_one(r) ? 1 : 0);
    b.subtype = _INT_BOOLEAN;
    return b;
}
gen sp_primefactors(const cc_node *n, const char *) { return prime_factors(arg(n, 0)); }
gen sp_factorint(const cc_node *n, const char *) { return factor_int(arg(n, 0)); }
// sympy's polygamma(n, x) is giac's Psi(x, n).
gen sp_polygamma(const cc_node *n, const char *) {
    if (float_at_pole(n, "polygamma")) // giac's polygamma(0, 0.0) never returned
        return unsigned_inf;
    return call(at_Psi, makesequence(arg(n, 1), arg(n, 0)));
}
// Special functions SymPy has and giac lacks, by their definitions
// (issue 12 item 3: exact where exact exists). beta(a, b) is
// gamma(a)*gamma(b)/gamma(a + b), simplified when a and b are numbers
// (beta(2, 3) = 1/12, beta(1/2, 1/2) = pi).
gen sp_beta(const cc_node *n, const char *) {
    gen a = arg(n, 0), b = arg(n, 1);
    gen r = call(at_Gamma, a) * call(at_Gamma, b) / call(at_Gamma, a + b);
    return lidnt(r).empty() ? call(at_simplify, r) : r;
}
// harmonic(n[, m]) is the sum of 1/k**m for k = 1..n: exact for an integer
// n (harmonic(10) = 7381/2520), giac's digamma form for a symbol.
// A non-integer number n is no count of terms: harmonic(2.5) summed k = 1,
// 2 and answered 1.5 where SymPy has digamma(3.5) + EulerGamma = 1.68.
gen sp_harmonic(const cc_node *n, const char *) {
    gen m = n->nchild > 1 ? arg(n, 1) : gen(1), x = arg(n, 0);
    if (lidnt(x).empty() && !is_integer(x) && x.type != _CPLX) {
        if (!is_one(m))
            fail("validation", "harmonic(n, m) of a non-integer n is supported for m = 1 only");
        gen r = call(at_Psi, x + 1) + identificateur("euler_gamma");
        return float_part(x) ? evalf(r, 1, g_ctx) : r;
    }
    gen k(identificateur("cc_harmonic_k"));
    return call(at_sum, makesequence(pow(k, -m, g_ctx), k, gen(1), arg(n, 0)));
}
// polylog(s, z) where it has a closed form: an integer s <= 1 (a rational
// function of z, or -log(1 - z)), z = 1 (zeta(s), s > 1), z = -1
// (-(1 - 2**(1 - s))*zeta(s)) and polylog(2, 1/2). Elsewhere it is refused:
// giac has no polylog to carry it.
gen sp_polylog(const cc_node *n, const char *) {
    gen s = arg(n, 0), z = arg(n, 1);
    if (s.type != _INT_)
        fail("validation", "polylog(s, z) is supported for an integer s only");
    if (s.val <= 1) {
        if (s.val == 1)
            return -call(at_ln, 1 - z);
        if (s.val < -40)
            fail("resource_exhausted", "polylog(s, z) with s < -40 is not expanded");
        gen t(identificateur("cc_polylog_t"));
        gen f = t / (1 - t); // polylog(0, t); each further order is t*d/dt
        for (int i = 0; i > s.val; i--)
            f = call(at_normal, t * derive(f, t, g_ctx));
        return call(at_normal, subst(f, t, z, false, g_ctx));
    }
    if (is_one(z))
        return call(at_Zeta, s);
    if (is_minus_one(z))
        return -(1 - pow(gen(2), 1 - s, g_ctx)) * call(at_Zeta, s);
    if (s.val == 2 && is_zero(z - fraction(1, 2)))
        return pow(cst_pi, 2, g_ctx) / 12 - pow(call(at_ln, gen(2)), 2, g_ctx) / 2;
    fail("validation", "polylog(s, z) has a closed form here only for an integer s <= 1, "
                       "z = 1, z = -1 and polylog(2, 1/2); it is not supported elsewhere");
}

// ---- functions SymPy has and giac lacks, where they have an exact value ----
// Each is exact where SymPy is (fibonacci(100), uppergamma(3, x) =
// 2*(x**2/2 + x + 1)*exp(-x)) and refused by name elsewhere: a function
// we cannot carry is an honest error, never an unknown-function guess.

struct mpz_holder { // GMP integer released however the scope is left
    mpz_t z;
    mpz_holder() { mpz_init(z); }
    ~mpz_holder() { mpz_clear(z); }
    mpz_holder(const mpz_holder &) = delete;
    mpz_holder &operator=(const mpz_holder &) = delete;
};

// argument i of n as an integer in [lo, hi], else a validation error
long int_arg(const cc_node *n, size_t i, const char *fn, long lo, long hi) {
    gen v = arg(n, i);
    if (v.type != _INT_ || v.val < lo || v.val > hi)
        fail("validation", "%s() is supported for an integer argument from %ld to %ld only", fn,
             lo, hi);
    return v.val;
}

// fibonacci(-m) = (-1)**(m + 1)*fibonacci(m), as SymPy extends it
gen sp_fibonacci(const cc_node *n, const char *) {
    if (n->nchild > 1)
        fail("validation", "fibonacci(n, x) (the polynomials) is not supported; fibonacci(n) is");
    long m = int_arg(n, 0, "fibonacci", -100000, 100000);
    mpz_holder f;
    mpz_fib_ui(f.z, (unsigned long)labs(m));
    if (m < 0 && m % 2 == 0)
        mpz_neg(f.z, f.z);
    return integer(f.z);
}
gen sp_lucas(const cc_node *n, const char *) {
    mpz_holder l;
    mpz_lucnum_ui(l.z, (unsigned long)int_arg(n, 0, "lucas", 0, 100000));
    return integer(l.z);
}
// giac's bernoulli(1) is -1/2; SymPy (1.12 on) has +1/2 for the number
// and keeps x - 1/2 for the polynomial, whose sum uses -1/2.
gen bernoulli_minus(long k) {
    return k == 1 ? gen(fraction(-1, 2)) : call(at_bernoulli, gen((int)k));
}
gen sp_bernoulli(const cc_node *n, const char *) {
    if (n->nchild == 1) {
        long m = int_arg(n, 0, "bernoulli", 0, 1000);
        return m == 1 ? gen(fraction(1, 2)) : bernoulli_minus(m);
    }
    long m = int_arg(n, 0, "bernoulli", 0, 100);
    gen x = arg(n, 1), sum(0);
    for (long k = 0; k <= m; k++)
        sum = sum + call(at_comb, makesequence(gen((int)m), gen((int)k))) * bernoulli_minus(k) *
                        pow(x, (int)(m - k), g_ctx);
    return sum;
}
// SymPy's euler(n), the Euler numbers (euler(4) = 5, 0 at odd n): E_0 = 1,
// E_m = -sum(binomial(m, 2k)*E_2k, 2k < m) for even m, exact; O(n**2)
// products of numbers of up to 1,300 digits at the bound. giac's euler is
// the totient, and the name was unknown here.
gen sp_euler(const cc_node *n, const char *) {
    if (n->nchild > 1)
        fail("validation", "euler(n, x) (the polynomials) is not supported; euler(n) is");
    long m = int_arg(n, 0, "euler", 0, 500);
    if (m % 2)
        return gen(0);
    std::vector<mpz_holder> e((size_t)m / 2 + 1);
    mpz_set_ui(e[0].z, 1);
    mpz_holder b, t;
    for (long j = 2; j <= m; j += 2) {
        mpz_set_ui(e[(size_t)j / 2].z, 0);
        for (long k = 0; k < j; k += 2) {
            mpz_bin_uiui(b.z, (unsigned long)j, (unsigned long)k);
            mpz_mul(t.z, b.z, e[(size_t)k / 2].z);
            mpz_sub(e[(size_t)j / 2].z, e[(size_t)j / 2].z, t.z);
        }
    }
    return integer(e[(size_t)m / 2].z);
}
// SymPy's catalan(n), the Catalan numbers binomial(2n, n)/(n + 1) (the
// constant is Catalan)
gen sp_catalan(const cc_node *n, const char *) {
    long m = int_arg(n, 0, "catalan", 0, 100000);
    mpz_holder c;
    mpz_bin_uiui(c.z, 2 * (unsigned long)m, (unsigned long)m);
    mpz_divexact_ui(c.z, c.z, (unsigned long)m + 1);
    return integer(c.z);
}
// Gamma(s, x) = (s - 1)!*exp(-x)*sum(x**k/k!, k < s) for an integer s >= 1
// and sqrt(pi)*erfc(sqrt(x)) for s = 1/2 (SymPy's forms, entire in x or
// with sqrt's branch cut, as SymPy's); lowergamma is gamma(s) minus it.
gen incomplete_gamma(const cc_node *n, bool upper) {
    gen s = arg(n, 0), x = arg(n, 1);
    if (is_zero(s - fraction(1, 2)))
        return call(at_sqrt, cst_pi) * call(upper ? at_erfc : at_erf, call(at_sqrt, x));
    if (s.type != _INT_ || s.val < 1 || s.val > 60)
        fail("validation", "%s(s, x) has a closed form here only for s = 1/2 and an integer s "
                           "from 1 to 60; it is not supported elsewhere",
             upper ? "uppergamma" : "lowergamma");
    gen sum(0);
    for (int i = 0; i < s.val; i++)
        sum = sum + pow(x, i, g_ctx) / call(at_factorial, gen(i));
    gen whole = call(at_factorial, gen(s.val - 1));
    gen up = whole * call(at_exp, -x) * sum;
    return upper ? up : whole - up;
}
gen sp_uppergamma(const cc_node *n, const char *) { return incomplete_gamma(n, true); }
gen sp_lowergamma(const cc_node *n, const char *) { return incomplete_gamma(n, false); }

bool positive_rational(const gen &v) {
    return (v.type == _INT_ || v.type == _ZINT || v.type == _FRAC) && is_strictly_positive(v, g_ctx);
}
bool nonzero_rational(const gen &v) {
    return (v.type == _INT_ || v.type == _ZINT || v.type == _FRAC) && !is_zero(v);
}

// expint(0, x) = exp(-x)/x; for a positive rational x, E1(x) = -Ei(-x) and
// E(m + 1, x) = (exp(-x) - x*E(m, x))/m (off the positive axis Ei's branch
// cut makes -Ei(-x) a different function, so it is refused there).
gen sp_expint(const cc_node *n, const char *) {
    long m = int_arg(n, 0, "expint", 0, 60);
    gen x = arg(n, 1);
    if (m == 0)
        return call(at_exp, -x) / x;
    if (!positive_rational(x))
        fail("validation", "expint(n, x) has a closed form here only for n = 0, or an integer "
                           "n >= 1 and a positive rational x; it is not supported elsewhere");
    gen e = -call(at_Ei, -x);
    for (long i = 1; i < m; i++)
        e = (call(at_exp, -x) - x * e) / gen((int)i);
    return e;
}
// Shi(x) = (Ei(x) - Ei(-x))/2 for a real x != 0, Chi(x) = (Ei(x) +
// Ei(-x))/2 for x > 0 (Chi has a branch cut on the negative axis); both
// refused elsewhere. Shi(0) = 0, fresnels(0) = fresnelc(0) = 0 and
// elliptic_k(0) = pi/2 are their only exact values here.
gen sp_shi(const cc_node *n, const char *) {
    gen x = arg(n, 0);
    if (is_zero(x))
        return gen(0);
    if (!nonzero_rational(x))
        fail("validation", "Shi(x) is supported for a rational x only");
    return (call(at_Ei, x) - call(at_Ei, -x)) / 2;
}
gen sp_chi(const cc_node *n, const char *) {
    gen x = arg(n, 0);
    if (!positive_rational(x))
        fail("validation", "Chi(x) is supported for a positive rational x only");
    return (call(at_Ei, x) + call(at_Ei, -x)) / 2;
}
gen sp_at_zero_only(const cc_node *n, const char *name) {
    gen x = arg(n, 0);
    if (!is_zero(x))
        fail("validation", "%s(x) is supported at x = 0 only (it has no closed form elsewhere)",
             name);
    return strcmp(name, "elliptic_k") == 0 ? cst_pi / 2 : gen(0);
}

// floor and ceiling of an exact constant giac leaves unevaluated
// (floor(exp(pi*sqrt(163))), whose value is 262537412640768743.99999999999925):
// the integer, when N's correctly rounded loop puts the value farther from
// an integer than its rounding error, at 40, 80, 160 or 320 digits. A tie
// beyond that is never decided by a rounded value (see sp_floor_ceiling).
// The loop may go to CANCEL_BITS: a value that cancels far below its terms
// (sin(1e-20) - 1e-20 is -1.7e-61) settles only there, and floor of it was
// 0 (it is -1).
const mpfr_prec_t CANCEL_BITS = 4096;
bool integer_part_by_value(const cc_node *a, bool up, mpz_t z) {
    for (int d = 40; d <= 320; d *= 2) {
        mpfr_prec_t bits = (mpfr_prec_t)(d * 3.33) + 32;
        mpc_t v;
        mpc_init2(v, bits);
        bool ok = sym_nvalue_mpc_bits(a, d, CANCEL_BITS, v) && mpfr_zero_p(mpc_imagref(v)) &&
                  mpfr_number_p(mpc_realref(v));
        bool decided = false;
        if (ok) {
            mpfr_t f, err;
            mpfr_inits2(bits, f, err, (mpfr_ptr)0);
            mpfr_rint(f, mpc_realref(v), MPFR_RNDN);
            mpfr_sub(f, mpc_realref(v), f, MPFR_RNDN);
            mpfr_abs(f, f, MPFR_RNDN); // distance to the nearest integer
            mpfr_set_ui(err, 10, MPFR_RNDU);
            mpfr_pow_si(err, err, 2 - d, MPFR_RNDU);
            mpfr_mul(err, err, mpc_realref(v), MPFR_RNDU);
            mpfr_abs(err, err, MPFR_RNDU); // 10 units of the d-th digit, and more
            if (mpfr_cmp(f, err) > 0) {
                mpfr_get_z(z, mpc_realref(v), up ? MPFR_RNDU : MPFR_RNDD);
                decided = true;
            }
            mpfr_clears(f, err, (mpfr_ptr)0);
        }
        mpc_clear(v);
        if (decided)
            return true;
        if (!ok)
            return false;
    }
    return false;
}
// The sign (-1 or 1) of a real constant a, by our evaluator to 3 digits
// with the loop going on to CANCEL_BITS; 0 when a has a symbol, is not
// real, or did not settle (an exact 0 among the reasons). giac evaluates a
// float expression in binary64 and its zero test takes what cancels there
// for 0: Heaviside(sin(1e-20) - 1e-20) was 1/2 and sign(cos(1e-10) - 1)
// was 0, though the literals' values differ by 1.7e-61 and 5e-21.
int value_sign(const cc_node *a) {
    const char *names[1];
    size_t nsyms = 0;
    sym_numeval_symbols(a, names, &nsyms, 1);
    if (nsyms > 0)
        return 0;
    mpc_t v;
    mpc_init2(v, 64);
    bool ok = sym_nvalue_mpc_bits(a, 3, CANCEL_BITS, v) && mpfr_zero_p(mpc_imagref(v)) &&
              mpfr_number_p(mpc_realref(v));
    int s = ok ? mpfr_sgn(mpc_realref(v)) : 0;
    mpc_clear(v);
    return s > 0 ? 1 : s < 0 ? -1 : 0;
}

gen sp_floor_ceiling(const cc_node *n, const char *name) {
    const unary_function_ptr *f = name[0] == 'c' ? at_ceil : at_floor;
    const char *names[1];
    size_t nsyms = 0;
    sym_numeval_symbols(n->child[0], names, &nsyms, 1);
    if (nsyms > 0)
        return call(f, arg(n, 0));
    mpz_holder z;
    if (integer_part_by_value(n->child[0], f == at_ceil, z.z))
        return integer(z.z);
    // at (or within 10**-300 of) an integer: giac's floor evaluates
    // numerically and lost exp(100) + 1 - exp(100) to cancellation (floor
    // 0, for 1); it is trusted only with an exact rational or a float
    gen s = call(at_simplify, arg(n, 0));
    if (s.type == _INT_ || s.type == _ZINT || s.type == _FRAC || s.type == _DOUBLE_ ||
        s.type == _REAL)
        return call(f, s);
    return symbolic(f, arg(n, 0));
}

// giac evaluates a Bessel function of numbers to a float at once (and
// refuses a symbolic order): the application is kept as written, exact,
// and evalf gives its value when one is asked for.
gen sp_bessel(const cc_node *n, const char *name) {
    const unary_function_ptr *f = name[6] == 'j' ? at_BesselJ : name[6] == 'y' ? at_BesselY
                                  : name[6] == 'i' ? at_BesselI : at_BesselK;
    return symbolic(f, makesequence(arg(n, 0), arg(n, 1)));
}

// loggamma(x) as log(gamma(x)): equal on the positive reals, where it is
// mostly asked for. loggamma is the analytic continuation, not the
// principal log: at a negative real x it is log|gamma(x)| - I*pi*ceil(-x)
// (SymPy's and mpmath's; loggamma(-5/2) was answered log(-8*sqrt(pi)/15),
// +pi*I where -3*pi*I is right), and at a pole oo. At a non-real number
// the two differ by a multiple of 2*pi*I that takes a path to decide: refused.
// loggamma at a negative float: mpfr's log|gamma(x)| and
// -pi*ceil(-x) at the float's precision plus guard bits, each rounded once
// (giac left gamma(-2.5) unevaluated and its pi was a unit off in the 15th
// digit). A literal of more than 17 digits keeps its precision.
gen loggamma_negative_float(const gen &x) {
    mpfr_prec_t prec = x.type == _REAL ? mpfr_get_prec(x._REALptr->inf) : 53;
    mpfr_t v, c, p;
    mpfr_inits2(prec + 32, v, c, p, (mpfr_ptr)0);
    if (x.type == _REAL)
        mpfr_set(v, x._REALptr->inf, MPFR_RNDN);
    else
        mpfr_set_d(v, x._DOUBLE_val, MPFR_RNDN);
    if (mpfr_integer_p(v)) { // a pole (giac's is_zero of 1 - 1e-20 said so too)
        mpfr_clears(v, c, p, (mpfr_ptr)0);
        return plus_inf;
    }
    mpfr_neg(c, v, MPFR_RNDN);
    mpfr_ceil(c, c);
    int sign = 0;
    mpfr_lgamma(v, &sign, v, MPFR_RNDN);
    mpfr_const_pi(p, MPFR_RNDN);
    mpfr_mul(p, p, c, MPFR_RNDN);
    mpfr_neg(p, p, MPFR_RNDN);
    mpfr_prec_round(v, prec, MPFR_RNDN);
    mpfr_prec_round(p, prec, MPFR_RNDN);
    gen r = gen(real_object(v)) + cst_i * gen(real_object(p));
    mpfr_clears(v, c, p, (mpfr_ptr)0);
    return r;
}

gen sp_loggamma(const cc_node *n, const char *) {
    gen x = arg(n, 0);
    if (x.type == _CPLX)
        fail("validation", "loggamma of a non-real number is not supported (log(gamma(z)) "
                           "differs from it by a multiple of 2*pi*I)");
    if (!is_finite_real(x) || is_strictly_positive(x, g_ctx))
        return call(at_ln, call(at_Gamma, x));
    if (x.type == _DOUBLE_ || x.type == _REAL) // a float's value is a float
        return loggamma_negative_float(x);
    gen up = call(at_ceil, -x); // ceil(-x) for x <= 0
    if (is_zero(up + x))        // x a non-positive integer: a pole
        return plus_inf;
    return call(at_ln, call(at_abs, call(at_Gamma, x))) - cst_i * cst_pi * up;
}
// acoth(x) as atanh(1/x) (sympy's definition); acoth(0) is I*pi/2 (SymPy;
// acoth(0.0) printed nan), a float's value is our evaluator's (acoth(0.5)
// was a nan from giac's real atanh(2.0)).
gen sp_acoth(const cc_node *n, const char *) {
    gen x = arg(n, 0), mine;
    if (is_exactly_zero(x)) // acoth(1e-20) was I*pi/2 (its imaginary part is -pi/2)
        return cst_i * cst_pi / 2;
    if (float_constant_value(n, mine))
        return mine;
    return call(at_atanh, inv(x, g_ctx));
}

// acot and Heaviside jump at 0, and giac's zero test takes a float below
// its epsilon for 0: acot(-1e-20) was pi/2 (it is -pi/2 + 1e-20, SymPy's
// atan(1/x) convention) and Heaviside(-1e-20) was 1/2 (it is 0). Only an
// exact zero is 0 here; a float argument gets our evaluator's value (acot)
// or its sign (Heaviside).
gen sp_acot(const cc_node *n, const char *) {
    gen x = arg(n, 0), mine;
    if (is_exactly_zero(x)) // SymPy: acot(0) = pi/2
        return cst_pi / 2;
    if (float_constant_value(n, mine))
        return mine;
    return call(at_acot, x);
}

// The sign of a float expression x that is not 0 (-1 or 1); 0 for an exact
// zero, an exact or symbolic x, or a float that is 0.
int float_sign(const gen &x) {
    double d;
    if (is_exactly_zero(x) || !holds_float(x) || !real_value(x, d) || d == 0)
        return 0;
    return d > 0 ? 1 : -1;
}

gen sp_heaviside(const cc_node *n, const char *) {
    gen x = arg(n, 0);
    int sign = value_sign(n->child[0]);
    if (!sign && is_exactly_zero(x)) // SymPy's Heaviside(0)
        return gen(1) / gen(2);
    if (!sign)
        sign = float_sign(x);
    return sign ? gen(sign > 0 ? 1 : 0) : call(at_Heaviside, x);
}

// DiracDelta(1e-20) was zoo, as DiracDelta(0): a float away from 0 is 0
// (SymPy), and at 0 it stays as written (SymPy's DiracDelta(0); giac's
// infinity is no value of a distribution).
gen sp_dirac(const cc_node *n, const char *) {
    gen x = arg(n, 0);
    if (value_sign(n->child[0]))
        return gen(0);
    if (is_exactly_zero(x))
        return symbolic(at_Dirac, x);
    return float_sign(x) ? gen(0) : call(at_Dirac, x);
}

gen settled(const cc_node *n, const gen &r);

// sign of a constant is its sign by value (see value_sign): giac's took
// a cancelled float for 0 (sign(cos(1e-10) - 1) was 0) or for its binary64
// value (sign(exp(1e-30) - 1 - 1e-30) was -1; it is 1). giac's answer
// stands where it agrees, or where no sign is found.
gen part_gen(mpfr_srcptr x);

// The real value of the constant a by our evaluator, its loop allowed to
// CANCEL_BITS (see value_sign), into v; false when it has none.
bool wide_real_value(const cc_node *a, mpc_t v) {
    const char *names[1];
    size_t nsyms = 0;
    sym_numeval_symbols(a, names, &nsyms, 1);
    return nsyms == 0 && sym_nvalue_mpc_bits(a, 17, CANCEL_BITS, v) &&
           mpfr_zero_p(mpc_imagref(v)) && mpfr_number_p(mpc_realref(v));
}

// Min and Max of real constants written with floats, compared by our
// values: giac compares binary64 values, and Min(exp(1e-20) - 1 - 1e-20, 0)
// was -1e-20 (exp(1e-20) is 1.0 there; the literals' value is 5e-41, and
// the minimum 0). Where giac picked another argument, the chosen one is
// given exactly when it holds no float, else as our value; anything else
// is giac's, checked as before.
gen sp_minmax(const cc_node *n, const char *name) {
    bool is_max = name[1] == 'a';
    gen giacs = settled(n, call(is_max ? at_max : at_min, n->nchild == 1 ? arg(n, 0) : seq_of(n)));
    if (n->nchild < 2 || !cc_node_any(n, cc_node_is_float))
        return giacs;
    mpc_t best, v;
    mpc_init2(best, 64);
    mpc_init2(v, 64);
    size_t at = 0;
    bool ok = true;
    for (size_t i = 0; ok && i < n->nchild; i++) {
        ok = wide_real_value(n->child[i], v);
        int c = ok && i ? mpfr_cmp(mpc_realref(v), mpc_realref(best)) : 0;
        if (ok && (i == 0 || (is_max ? c > 0 : c < 0))) {
            mpc_set(best, v, MPC_RNDNN);
            at = i;
        }
    }
    gen r = giacs;
    // giac's answer stands where it picked the same argument: its binary64
    // value then cancels with the same value elsewhere in the expression
    // (Max(exp(8e-10) - 1, 8e-10) - (exp(8e-10) - 1) is 0.0, and our value
    // beside giac's made it -6.6e-17)
    if (ok && !is_exactly_zero(giacs - arg(n, at)))
        r = cc_node_any(n->child[at], cc_node_is_float) ? part_gen(mpc_realref(best)) : arg(n, at);
    mpc_clear(best);
    mpc_clear(v);
    return r;
}

gen sp_sign(const cc_node *n, const char *) {
    gen r = settled(n, call(at_sign, arg(n, 0)));
    int s = value_sign(n->child[0]);
    double d;
    if (!s || (real_value(r, d) && d == s))
        return r;
    return gen(s);
}

// The reciprocal hyperbolic functions and their inverses, which giac lacks,
// by SymPy's definitions: coth = 1/tanh, sech = 1/cosh, csch = 1/sinh,
// asech(x) = acosh(1/x), acsch(x) = asinh(1/x) (the same logarithms, so
// the same branch cuts). A float argument gets our evaluator's value.
gen sp_rechyp(const cc_node *n, const char *name) {
    gen x = arg(n, 0), mine;
    if (float_constant_value(n, mine))
        return mine;
    if (!strcmp(name, "coth")) return inv(call(at_tanh, x), g_ctx);
    if (!strcmp(name, "sech")) return inv(call(at_cosh, x), g_ctx);
    if (!strcmp(name, "csch")) return inv(call(at_sinh, x), g_ctx);
    if (is_exactly_zero(x)) // asech(0) = oo, acsch(0) = zoo (SymPy)
        return !strcmp(name, "asech") ? plus_inf : unsigned_inf;
    return call(!strcmp(name, "asech") ? at_acosh : at_asinh, inv(x, g_ctx));
}
// Guard digits of a multiprecision value: N(x, d) past binary64 evaluates
// at d + GUARD_DIGITS digits and real_tree prints GUARD_DIGITS fewer than
// the precision holds, so the last printed digit is the correctly rounded
// one (at exactly d digits giac's binary value of e rounds to
// ...0452353 where e is ...04523536).
const int GUARD_DIGITS = 5;

// A decimal literal is the decimal it spells: one with more significant
// digits than a double holds (1.000000000000000000001) becomes a
// multiprecision real printing those digits (and GUARD_DIGITS more, which
// real_tree drops), as SymPy's Float keeps them; a shorter one is the
// double, as before.
gen float_literal(const cc_node *n) {
    int digits = sym_literal_digits(n->v.f.text);
    char buf[512];
    if (digits <= SYM_LITERAL_DOUBLE_DIGITS || !sym_literal_clean(n->v.f.text, buf, sizeof buf))
        return real53(n->v.f.d);
    mpfr_t m;
    mpfr_init2(m, (mpfr_prec_t)lround((digits + GUARD_DIGITS) / 0.30102999566398120));
    mpfr_set_str(m, buf, 10, MPFR_RNDN);
    gen g = gen(real_object(m));
    mpfr_clear(m);
    return g;
}

void check_quadratures(const gen &g);
gen sp_N(const cc_node *n, const char *) {
    check_quadratures(arg(n, 0));
    gen d = n->nchild > 1 ? arg(n, 1) : gen(15);
    if (d.type == _INT_ && d.val > 15)
        d = gen(d.val + GUARD_DIGITS);
    return call(at_evalf, makesequence(arg(n, 0), d));
}

gen settled(const cc_node *n, const gen &r);
bool as_double(const gen &g, double &d);

// w is W_k(z) (k 0 or -1) exactly: w e^w = z exactly, and w real on k's
// side of -1 (W_0 >= -1, W_-1 <= -1).
bool lambertw_is(const gen &z, long k, const gen &w) {
    double d;
    if (!as_double(w, d) || (k == 0 ? d < -1 : d > -1))
        return false;
    return is_zero(_simplify(w * exp(w, g_ctx) - z, g_ctx));
}

// The exact W_k(z) of a constant z built as w e^w from a kernel of its
// own: the exponent u of an exp(u) in z (W(-exp(-1)) = -1, W(2 e^2) = 2,
// on branch -1 W(-2 e^-2) = -2), or a log(a) in z (W(2 log 2) = log 2,
// W(-log(2)/2) = -log 2); and at z = -pi/2, W_0 = I pi/2 and W_-1 =
// -I pi/2 (the values from above the cut, SymPy's). giac keeps most of
// these as LambertW(...), and its floats at the branch point -1/e are
// Newton's slow steps toward a double root (N(LambertW(-exp(-1)) + 1) was
// 4.3e-61).
bool lambertw_exact(const gen &z, long k, gen &w) {
    if (is_zero(_simplify(z + cst_pi / 2, g_ctx))) {
        w = (k == 0 ? gen(1) : gen(-1)) * cst_i * cst_pi / 2;
        return true;
    }
    vecteur cands;
    for (const gen &e : lop(z, at_exp))
        cands.push_back(e._SYMBptr->feuille);
    for (const gen &l : lop(z, at_ln))
        cands.push_back(l);
    for (const gen &c : cands)
        for (const gen &cand : {c, gen(-c)})
            if (lambertw_is(z, k, cand)) {
                w = cand;
                return true;
            }
    return false;
}

gen sp_lambertw(const cc_node *n, const char *) {
    gen built = settled(n, call(at_LambertW, n->nchild == 1 ? arg(n, 0) : seq_of(n)));
    if (cc_node_any(n, cc_node_is_float) || built.type != _SYMB || built._SYMBptr->sommet != at_LambertW)
        return built;
    gen z = arg(n, 0), k = n->nchild > 1 ? arg(n, 1) : gen(0);
    if (k.type != _INT_ || (k.val != 0 && k.val != -1) || has_user_symbol(z))
        return built;
    gen w;
    return lambertw_exact(z, k.val, w) ? w : built;
}

const fn_entry FUNCS[] = {
    {"sqrt", at_sqrt, 1, 1, nullptr},      {"cbrt", nullptr, 1, 1, sp_cbrt},
    {"root", nullptr, 2, 2, sp_root},      {"exp", at_exp, 1, 1, nullptr},
    {"log", nullptr, 1, 2, sp_log},        {"sin", at_sin, 1, 1, nullptr},
    {"cos", at_cos, 1, 1, nullptr},        {"tan", at_tan, 1, 1, nullptr},
    {"cot", at_cot, 1, 1, nullptr},        {"sec", at_sec, 1, 1, nullptr},
    {"csc", at_csc, 1, 1, nullptr},        {"asin", at_asin, 1, 1, nullptr},
    {"acos", at_acos, 1, 1, nullptr},      {"atan", at_atan, 1, 1, nullptr},
    {"atan2", nullptr, 2, 2, sp_atan2},    {"sinh", at_sinh, 1, 1, nullptr},
    {"cosh", at_cosh, 1, 1, nullptr},      {"tanh", at_tanh, 1, 1, nullptr},
    {"asinh", at_asinh, 1, 1, nullptr},    {"acosh", at_acosh, 1, 1, nullptr},
    {"atanh", at_atanh, 1, 1, nullptr},    {"Abs", at_abs, 1, 1, nullptr},
    {"sign", nullptr, 1, 1, sp_sign},      {"floor", nullptr, 1, 1, sp_floor_ceiling},
    {"ceiling", nullptr, 1, 1, sp_floor_ceiling},   {"Min", nullptr, 1, 64, sp_minmax},
    {"Max", nullptr, 1, 64, sp_minmax},       {"Mod", nullptr, 2, 2, sp_mod},
    {"factorial", at_factorial, 1, 1, nullptr}, {"binomial", at_comb, 2, 2, nullptr},
    {"gamma", nullptr, 1, 1, sp_gamma},    {"gcd", at_gcd, 2, 64, nullptr},
    {"lcm", at_lcm, 2, 64, nullptr},       {"isprime", nullptr, 1, 1, sp_isprime},
    {"nextprime", at_nextprime, 1, 1, nullptr}, {"prevprime", at_prevprime, 1, 1, nullptr},
    {"prime", at_ithprime, 1, 1, nullptr}, {"primefactors", nullptr, 1, 1, sp_primefactors},
    {"factorint", nullptr, 1, 1, sp_factorint}, {"divisors", at_idivis, 1, 1, nullptr},
    {"totient", at_euler, 1, 1, nullptr},  {"Rational", nullptr, 1, 2, sp_rational},
    {"N", nullptr, 1, 2, sp_N},            {"re", at_re, 1, 1, nullptr},
    {"im", at_im, 1, 1, nullptr},          {"conjugate", at_conj, 1, 1, nullptr},
    {"arg", nullptr, 1, 1, sp_arg},        {"integrate", nullptr, 1, 8, sp_integrate},
    {"diff", nullptr, 1, 8, sp_diff},      {"limit", nullptr, 3, 3, sp_limit},
    {"series", nullptr, 1, 4, sp_series},  {"summation", nullptr, 2, 2, sp_sum},
    {"product", nullptr, 2, 2, sp_sum},    {"simplify", at_simplify, 1, 1, nullptr},
    {"expand", at_expand, 1, 1, nullptr},  {"factor", at_factor, 1, 1, nullptr},
    {"cancel", at_normal, 1, 1, nullptr},  {"apart", at_partfrac, 1, 2, nullptr},
    {"together", at_normal, 1, 1, nullptr}, {"trigsimp", at_trigsimplify, 1, 1, nullptr},
    {"solve", nullptr, 1, 2, sp_solve},    {"Eq", nullptr, 1, 2, sp_eq},
    {"Integral", nullptr, 1, 4, sp_integral}, {"Derivative", nullptr, 1, 8, sp_derivative},
    {"Sum", nullptr, 2, 2, sp_sum},
    {"LambertW", nullptr, 1, 2, sp_lambertw}, {"erf", at_erf, 1, 1, nullptr},
    {"erfc", at_erfc, 1, 1, nullptr},      {"Ei", at_Ei, 1, 1, nullptr},
    {"Si", at_Si, 1, 1, nullptr},          {"Ci", at_Ci, 1, 1, nullptr},
    {"zeta", at_Zeta, 1, 1, nullptr},      {"digamma", at_Psi, 1, 1, nullptr},
    {"polygamma", nullptr, 2, 2, sp_polygamma}, {"loggamma", nullptr, 1, 1, sp_loggamma},
    {"besselj", nullptr, 2, 2, sp_bessel}, {"bessely", nullptr, 2, 2, sp_bessel},
    {"besseli", nullptr, 2, 2, sp_bessel}, {"besselk", nullptr, 2, 2, sp_bessel},
    {"beta", nullptr, 2, 2, sp_beta},      {"harmonic", nullptr, 1, 2, sp_harmonic},
    {"polylog", nullptr, 2, 2, sp_polylog},
    {"fibonacci", nullptr, 1, 2, sp_fibonacci}, {"lucas", nullptr, 1, 1, sp_lucas},
    {"bernoulli", nullptr, 1, 2, sp_bernoulli}, {"euler", nullptr, 1, 2, sp_euler},
    {"catalan", nullptr, 1, 1, sp_catalan},
    {"uppergamma", nullptr, 2, 2, sp_uppergamma}, {"lowergamma", nullptr, 2, 2, sp_lowergamma},
    {"expint", nullptr, 2, 2, sp_expint},  {"Shi", nullptr, 1, 1, sp_shi},
    {"Chi", nullptr, 1, 1, sp_chi},        {"elliptic_k", nullptr, 1, 1, sp_at_zero_only},
    {"fresnels", nullptr, 1, 1, sp_at_zero_only}, {"fresnelc", nullptr, 1, 1, sp_at_zero_only},
    {"acot", nullptr, 1, 1, sp_acot},      {"asec", at_asec, 1, 1, nullptr},
    {"acsc", at_acsc, 1, 1, nullptr},      {"acoth", nullptr, 1, 1, sp_acoth},
    {"coth", nullptr, 1, 1, sp_rechyp},    {"sech", nullptr, 1, 1, sp_rechyp},
    {"csch", nullptr, 1, 1, sp_rechyp},    {"asech", nullptr, 1, 1, sp_rechyp},
    {"acsch", nullptr, 1, 1, sp_rechyp},
    {"Heaviside", nullptr, 1, 1, sp_heaviside}, {"DiracDelta", nullptr, 1, 1, sp_dirac},
};

// giac's float evaluation of a float input off the real domain (asin(2.0),
// acosh(0.5)) or past binary64 (exp(1000.0)) is a nan or an infinity: no
// number to print. Printing failed and was reported as out of memory, and
// inside a product the value was lost (limit(asin(2.0)*x, x, 1) was 1).
[[noreturn]] void no_number(bool nan) {
    fail("validation",
         "the CAS's floating-point evaluation gave %s, not a number: a float argument may be "
         "outside the function's real domain or the value beyond binary64; write exact numbers "
         "(2 instead of 2.0) for the exact value, or N(expr, digits)",
         nan ? "nan" : "an infinity");
}

bool is_nan(const gen &x) {
    return (x.type == _DOUBLE_ && std::isnan(x._DOUBLE_val)) ||
           (x.type == _REAL && mpfr_nan_p(x._REALptr->inf));
}

bool no_number_part(const gen &x) {
    return (x.type == _DOUBLE_ && !std::isfinite(x._DOUBLE_val)) ||
           (x.type == _REAL && !mpfr_number_p(x._REALptr->inf));
}

bool float_part(const gen &x) { return x.type == _DOUBLE_ || x.type == _REAL; }

bool float_number(const gen &r) {
    return float_part(r) ||
           (r.type == _CPLX && (float_part(r._CPLXptr[0]) || float_part(r._CPLXptr[1])));
}

// The gamma family's poles at a float that is a non-positive integer
// (digamma(-1.0)): giac's binary64 answers a huge finite number there
// (-2.56530507880075e+16), SymPy zoo.
bool float_at_pole(const cc_node *n, const char *name) {
    size_t i = !strcmp(name, "polygamma") ? 1 : 0;
    if ((strcmp(name, "gamma") && strcmp(name, "digamma") && strcmp(name, "factorial") &&
         strcmp(name, "polygamma")) || i >= n->nchild)
        return false;
    const cc_node *a = n->child[i];
    double sign = 1;
    if (a->kind == CC_N_UNARY && (a->op == CC_OP_NEG || a->op == CC_OP_POS)) {
        sign = a->op == CC_OP_NEG ? -1 : 1;
        a = a->child[0];
    }
    if (a->kind != CC_N_FLOAT)
        return false;
    double x = sign * a->v.f.d;
    return x == std::floor(x) && (x < 0 || (x == 0 && strcmp(name, "factorial")));
}

// One part of our evaluator's value: a double where binary64 holds it, else
// a 53-bit multiprecision float (Ei(-1e5) is -3.6e-43435, not -0.0).
gen part_gen(mpfr_srcptr x) {
    double d = mpfr_get_d(x, MPFR_RNDN);
    if (mpfr_zero_p(x) || (std::isfinite(d) && d != 0 && std::fabs(d) >= DBL_MIN))
        return gen(d);
    mpfr_t r;
    mpfr_init2(r, 53);
    mpfr_set(r, x, MPFR_RNDN);
    gen g = gen(real_object(r));
    mpfr_clear(r);
    return g;
}

// Our evaluator's value of the call n on constants (17 digits), or false
// (a symbol, a function it lacks, a value beyond its range).
bool our_value(const cc_node *n, gen &out) {
    mpc_t v;
    mpc_init2(v, 64);
    bool ok = sym_nvalue_mpc(n, 17, v) && mpfr_number_p(mpc_realref(v)) &&
              mpfr_number_p(mpc_imagref(v));
    if (ok) {
        gen re = part_gen(mpc_realref(v));
        out = mpfr_zero_p(mpc_imagref(v)) ? re : gen(re, part_gen(mpc_imagref(v)));
    }
    mpc_clear(v);
    return ok;
}

// A call n on constants written with a float: our evaluator's value into
// out, or false (a symbol in it among the reasons).
bool float_constant_value(const cc_node *n, gen &out) {
    return cc_node_any(n, cc_node_is_float) && our_value(n, out);
}

// giac's value stands where ours agrees with it to 12 digits (its printed
// digits unchanged); a zero of giac's where ours is not (an underflow) or
// any larger difference does not. (Measured against max(1, |ours|): giac's
// binary64 value of a small float call then stands, and cancels with the
// same value elsewhere in the expression; see sp_minmax.)
bool agrees(const gen &r, const gen &mine) {
    gen d = evalf(abs(r - mine, g_ctx), 1, g_ctx), m = evalf(abs(mine, g_ctx), 1, g_ctx);
    if (d.type != _DOUBLE_ || m.type != _DOUBLE_ || (is_zero(r) && m._DOUBLE_val != 0))
        return false;
    return d._DOUBLE_val <= 1e-12 * std::max(1.0, m._DOUBLE_val);
}

// giac evaluates a function of a float in binary64 over the reals:
// asin(2.0) and acosh(0.5) are nan. Left in giac's hands a nan vanished
// from products and sums (limit(asin(2.0)*x, x, 1) answered 1, solve(x -
// asin(2.0)) solved x = 0), and near a pole its value is noise. A float
// value of a call on floats is checked against our evaluator (SymPy's
// complex value, correctly rounded), which wins where they differ; a nan
// or infinity with no value of ours is refused.
gen settled(const cc_node *n, const gen &r) {
    bool bad = no_number_part(r) ||
               (r.type == _CPLX && (no_number_part(r._CPLXptr[0]) || no_number_part(r._CPLXptr[1])));
    if (!bad && !(float_number(r) && cc_node_any(n, cc_node_is_float)))
        return r;
    gen mine;
    if (!our_value(n, mine)) {
        if (bad)
            no_number(is_nan(r) || (r.type == _CPLX && (is_nan(r._CPLXptr[0]) || is_nan(r._CPLXptr[1]))));
        return r;
    }
    return !bad && agrees(r, mine) ? r : mine;
}

gen from_call(const cc_node *n) {
    const char *name = cc_expr_canonical_function(n->v.name);
    for (const fn_entry &e : FUNCS) {
        if (strcmp(e.name, name) != 0)
            continue;
        need_args(name, n, e.lo, e.hi);
        if (e.special) {
            keep_modes keep; // the whole of integrate, limit, summation...
            return e.special(n, name);
        }
        if (float_at_pole(n, name)) // giac's digamma(0.0) never returned
            return unsigned_inf;
        gen mine; // giac's erf(1e5) and erfc(1e5) never returned
        if (!strncmp(name, "erf", 3) && float_constant_value(n, mine))
            return mine;
        if (!strncmp(name, "erf", 3) && cc_node_any(n, cc_node_is_float) && lidnt(arg(n, 0)).empty())
            fail("validation", "%s of this float is beyond the range of the evaluator", name);
        return settled(n, exactly_if_tiny_complex(n->nchild == 1 ? arg(n, 0) : seq_of(n), e.f));
    }
    const char *near[4];
    size_t k = cc_expr_suggest(name, near, 4);
    std::string s;
    for (size_t i = 0; i < k; i++)
        s += (i ? ", " : "") + std::string(near[i]);
    if (k)
        fail("validation", "unknown function '%s' (did you mean %s?)", name, s.c_str());
    fail("validation", "unknown function '%s'", name);
}

gen logical(const unary_function_ptr *f, const gen &a, const gen &b) {
    return checked(symbolic(f, makesequence(a, b)).eval(1, g_ctx));
}

// A finite real number's binary64 value (a float literal is a 53-bit
// _REAL), or false.
bool as_double(const gen &g, double &d) {
    gen f = evalf(g, 1, g_ctx);
    if (f.type == _DOUBLE_)
        d = f._DOUBLE_val;
    else if (f.type == _REAL)
        d = mpfr_get_d(f._REALptr->inf, MPFR_RNDN);
    else
        return false;
    return std::isfinite(d);
}

// a % b of real numbers one of which is a float, as Python's float %:
// fmod is exact, and the result takes b's sign (a - b*floor(a/b) in
// binary64 rounded a/b first: 5 % 1e-20 was 0.0, not 3.64e-21). Anything
// else (a complex or symbolic operand) keeps the floor form.
gen float_mod(const gen &a, const gen &b) {
    double x, y;
    if (!as_double(a, x) || !as_double(b, y))
        return a - b * call(at_floor, a / b);
    double r = std::fmod(x, y);
    if (r != 0 && (r < 0) != (y < 0))
        r += y;
    return gen(r);
}

// A complex float that giac's is_one() takes for 1 but is not exactly 1:
// is_one tests the imaginary part against giac's epsilon, and the product
// with it was dropped as a product with 1: (1 + 1e-12*I)*k was k, and
// summation((1 + 1e-15*I)/2**k, (k, 0, oo)) was 2 (2 + 2e-15*I).
bool complex_float_near_one(const gen &g) {
    if (g.type != _CPLX || !float_number(g) || !is_one(g))
        return false;
    return !(is_one(g._CPLXptr[0]) && is_exactly_zero(g._CPLXptr[1]));
}

// a*b, kept as a product where giac would drop a factor near 1
gen times(const gen &a, const gen &b) {
    if (complex_float_near_one(a) || complex_float_near_one(b))
        return symbolic(at_prod, makesequence(a, b));
    return a * b;
}

gen from_binary(const cc_node *n) {
    gen a = arg(n, 0), b = arg(n, 1);
    switch (n->op) {
    case CC_OP_ADD: return a + b;
    case CC_OP_SUB: return a - b;
    case CC_OP_MUL: return times(a, b);
    // exactly zero: giac's is_zero() calls a float below its epsilon zero,
    // so 1/1e-13 was zoo and 5 % 1e-20 nan
    case CC_OP_DIV:
        if (is_exactly_zero(b) && !is_exactly_zero(a))
            return unsigned_inf;
        return complex_float_near_one(a) || complex_float_near_one(b) ? times(a, inv(b, g_ctx))
                                                                      : a / b;
    case CC_OP_FLOORDIV:
        if (is_exactly_zero(b))
            return unsigned_inf;
        return call(at_floor, a / b);
    case CC_OP_MOD: // of floats: 5 % 1e-20 was 0.0 (a rounded a/b), not 3.64e-21
        if (is_exactly_zero(b))
            return undef;
        if ((float_part(a) || float_part(b)) && is_finite_real(a) && is_finite_real(b))
            return float_mod(a, b);
        return a - b * call(at_floor, a / b);
    case CC_OP_POW: return power(a, b);
    case CC_OP_BITAND: case CC_OP_AND: return logical(at_and, a, b);
    case CC_OP_BITOR: case CC_OP_OR: return logical(at_ou, a, b);
    case CC_OP_BITXOR: return power(a, b);
    default:
        fail("validation", "parse error: operator not supported in symbolic expressions");
    }
}

const unary_function_ptr *rel_fn(cc_op op) {
    switch (op) {
    case CC_OP_EQ: return at_equal;
    case CC_OP_NE: return at_different;
    case CC_OP_LT: return at_inferieur_strict;
    case CC_OP_LE: return at_inferieur_egal;
    case CC_OP_GT: return at_superieur_strict;
    default: return at_superieur_egal;
    }
}

int value_sign(const cc_node *a);

// An order comparison of two constants written with floats, decided by the
// sign of their difference by value (value_sign): giac compares binary64
// values, and sin(1e-20) < 1e-20 was False (sin(1e-20) is 1e-20 there; the
// literals' values differ by 1.7e-61), while Heaviside(1e-20 - sin(1e-20))
// is 1. 0 when undecided (equal values, a symbol): giac's comparison.
int compare_by_value(const cc_node *a, const cc_node *b, cc_op op) {
    if (op == CC_OP_EQ || op == CC_OP_NE ||
        !(cc_node_any(a, cc_node_is_float) || cc_node_any(b, cc_node_is_float)))
        return 0;
    cc_node *kids[2] = {(cc_node *)a, (cc_node *)b};
    cc_node d = {};
    d.kind = CC_N_BINARY;
    d.op = CC_OP_SUB;
    d.nchild = 2;
    d.child = kids;
    d.pos = a->pos;
    int s = value_sign(&d);
    if (!s)
        return 0;
    bool holds = (op == CC_OP_LT || op == CC_OP_LE) ? s < 0 : s > 0;
    return holds ? 1 : -1;
}

gen from_compare(const cc_node *n) {
    gen acc;
    for (size_t i = 0; i + 1 < n->nchild; i++) {
        gen r = symbolic(rel_fn(n->cmp_ops[i]), makesequence(arg(n, i), arg(n, i + 1)));
        int byval = compare_by_value(n->child[i], n->child[i + 1], n->cmp_ops[i]);
        if (byval) {
            r = gen(byval > 0 ? 1 : 0);
            r.subtype = _INT_BOOLEAN;
        } else if (n->cmp_ops[i] != CC_OP_EQ)
            r = checked(r.eval(1, g_ctx));
        acc = i == 0 ? r : logical(at_and, acc, r);
    }
    return acc;
}

gen from_node(const cc_node *n) {
    switch (n->kind) {
    case CC_N_INT: return integer(n->v.z);
    case CC_N_FLOAT: return float_literal(n);
    case CC_N_BOOL: {
        gen b(n->v.b ? 1 : 0);
        b.subtype = _INT_BOOLEAN;
        return b;
    }
    case CC_N_NAME: return from_name(n);
    case CC_N_CALL: return from_call(n);
    case CC_N_TUPLE: return seq_of(n);
    case CC_N_COMPARE: return from_compare(n);
    case CC_N_BINARY: return from_binary(n);
    case CC_N_UNARY:
        switch (n->op) {
        case CC_OP_NEG: return -arg(n, 0);
        case CC_OP_POS: return arg(n, 0);
        case CC_OP_FACT: return call(at_factorial, arg(n, 0));
        default: return call(at_not, arg(n, 0));
        }
    }
    fail("internal", "unknown AST node kind %d", (int)n->kind);
}

// ---- gen -> tree -----------------------------------------------------------

struct tree_holder { // frees a partial tree if conversion throws
    sym_node *p = nullptr;
    ~tree_holder() { sym_free(p); }
    sym_node *release() { sym_node *r = p; p = nullptr; return r; }
};

sym_node *need(sym_node *n) {
    if (!n)
        fail("resource_exhausted", "expression exhausted the memory ceiling");
    return n;
}

sym_node *to_tree(const gen &g);

sym_node *kids_node(sym_kind k, const gen &f) {
    tree_holder h;
    h.p = need(sym_nary(k, nullptr, 0));
    if (f.type == _VECT) {
        for (const gen &e : *f._VECTptr)
            if (sym_append(h.p, to_tree(e)) < 0)
                need(nullptr);
    } else if (sym_append(h.p, to_tree(f)) < 0) {
        need(nullptr);
    }
    return h.release();
}

struct name_map {
    const char *giac, *sympy;
};
const name_map FN_NAMES[] = {
    {"ln", "log"}, {"abs", "Abs"}, {"ceil", "ceiling"}, {"min", "Min"}, {"max", "Max"},
    {"Gamma", "gamma"}, {"comb", "binomial"}, {"conj", "conjugate"}, {"integrate", "Integral"},
    {"derive", "Derivative"}, {"sum", "Sum"}, {"and", "And"}, {"or", "Or"}, {"not", "Not"},
    {"product", "Product"}, {"atan", "atan"}, {"Zeta", "zeta"}, {"Psi", "digamma"},
    {"lgamma", "loggamma"}, {"BesselJ", "besselj"}, {"BesselY", "bessely"}, {"BesselI", "besseli"},
    {"BesselK", "besselk"}, {"Dirac", "DiracDelta"},
};

const char *sympy_name(const char *giac_name) {
    for (const name_map &m : FN_NAMES)
        if (!strcmp(m.giac, giac_name))
            return m.sympy;
    return giac_name;
}

int rel_of(const unary_function_ptr &s) {
    if (s == at_equal) return SYM_EQ;
    if (s == at_different) return SYM_NE;
    if (s == at_inferieur_strict) return SYM_LT;
    if (s == at_inferieur_egal) return SYM_LE;
    if (s == at_superieur_strict) return SYM_GT;
    if (s == at_superieur_egal) return SYM_GE;
    return -1;
}

sym_node *half(int sign) {
    mpq_t q;
    mpq_init(q);
    mpq_set_si(q, sign, 2);
    sym_node *r = sym_num_q(q);
    mpq_clear(q);
    return need(r);
}

// O(p) or O(p, (x, x0)) from order_term().
sym_node *order_tree(const gen &f) {
    const gen &a = (*f._VECTptr)[1];
    tree_holder h;
    h.p = need(sym_func("O", nullptr, 0));
    if (a.type == _VECT && a._VECTptr->size() == 3) {
        const vecteur &v = *a._VECTptr;
        if (sym_append(h.p, to_tree(v[0])) < 0 ||
            sym_append(h.p, sym_bin(SYM_TUPLE, to_tree(v[1]), to_tree(v[2]))) < 0)
            need(nullptr);
    } else if (sym_append(h.p, to_tree(a)) < 0) {
        need(nullptr);
    }
    return h.release();
}

bool is_order_call(const unary_function_ptr &s, const gen &f) {
    return s == at_of && f.type == _VECT && f._VECTptr->size() == 2 &&
           (*f._VECTptr)[0].type == _IDNT && !strcmp((*f._VECTptr)[0]._IDNTptr->id_name, ORDER_FN);
}

// giac's Psi(x, n) printed as sympy's polygamma(n, x)
sym_node *polygamma_tree(const gen &f) {
    tree_holder h;
    h.p = need(sym_func("polygamma", nullptr, 0));
    if (sym_append(h.p, to_tree((*f._VECTptr)[1])) < 0 || sym_append(h.p, to_tree((*f._VECTptr)[0])) < 0)
        need(nullptr);
    return h.release();
}

// giac's Zeta(u, n) is the n-th derivative of zeta at u (diff(zeta(x), x)
// is Zeta(x, 1)); SymPy's zeta(u, n) is the Hurwitz zeta, so the two-argument
// form printed as such read as zeta(x) itself. At a symbol it is SymPy's
// Derivative(zeta(x), (x, n)); at any other argument it has no short
// spelling, and is refused rather than misprinted.
sym_node *zeta_derivative_tree(const gen &f) {
    const gen &u = (*f._VECTptr)[0], &order = (*f._VECTptr)[1];
    if (u.type != _IDNT || order.type != _INT_ || order.val < 1)
        fail("validation", "the CAS's answer holds a derivative of zeta at a compound "
                           "argument, which has no SymPy spelling");
    tree_holder h;
    h.p = need(sym_func("Derivative", nullptr, 0));
    sym_node *z = need(sym_func("zeta", nullptr, 0));
    if (sym_append(z, to_tree(u)) < 0) {
        sym_free(z);
        need(nullptr);
    }
    if (sym_append(h.p, z) < 0 || sym_append(h.p, sym_bin(SYM_TUPLE, to_tree(u), sym_int(order.val))) < 0)
        need(nullptr);
    return h.release();
}

// giac's sum(f, k, a, b), product(...) and integrate(f, x, a, b) in
// SymPy's spelling, the limits a tuple: Sum(f, (k, a, b)). They printed
// as Sum(f, k, 1, oo), which SymPy reads as a sum over k, then over 1 and
// oo (an error); the tuple form is what our input reads too (redsym9).
sym_node *limits_tree(const char *name, const gen &f) {
    const vecteur &v = *f._VECTptr;
    tree_holder h, lim; // each freed if a conversion throws
    h.p = need(sym_func(name, nullptr, 0));
    lim.p = need(sym_nary(SYM_TUPLE, nullptr, 0));
    for (int i = 1; i <= 3; i++)
        if (sym_append(lim.p, to_tree(v[i])) < 0)
            need(nullptr);
    if (sym_append(h.p, to_tree(v[0])) < 0 || sym_append(h.p, lim.release()) < 0)
        need(nullptr);
    return h.release();
}

sym_node *symb_tree(const gen &g) {
    const unary_function_ptr &s = g._SYMBptr->sommet;
    const gen &f = g._SYMBptr->feuille;
    if (is_order_call(s, f))
        return order_tree(f);
    if ((s == at_sum || s == at_product || s == at_integrate) && f.type == _VECT &&
        f._VECTptr->size() == 4 && (*f._VECTptr)[1].type == _IDNT)
        return limits_tree(s == at_sum ? "Sum" : s == at_product ? "Product" : "Integral", f);
    if (s == at_plus) {
        if (f.type != _VECT && is_inf(f))
            return need(sym_const(SYM_OO));
        return f.type == _VECT ? kids_node(SYM_ADD, f) : to_tree(f);
    }
    if (s == at_neg) {
        if (is_inf(f))
            return need(sym_const(SYM_NEG_OO));
        return need(sym_bin(SYM_MUL, sym_int(-1), to_tree(f)));
    }
    if (s == at_prod)
        return kids_node(SYM_MUL, f);
    if (s == at_inv)
        return need(sym_bin(SYM_POW, to_tree(f), sym_int(-1)));
    if (s == at_pow || s == at_sqrt) {
        if (s == at_sqrt)
            return need(sym_bin(SYM_POW, to_tree(f), half(1)));
        if (f.type != _VECT || f._VECTptr->size() != 2)
            fail("internal", "malformed power from the CAS");
        return need(sym_bin(SYM_POW, to_tree((*f._VECTptr)[0]), to_tree((*f._VECTptr)[1])));
    }
    if (s == at_exp && is_one(f))
        return need(sym_const(SYM_E));
    int rop = rel_of(s);
    if (rop >= 0 && f.type == _VECT && f._VECTptr->size() == 2)
        return need(sym_rel((enum sym_rel)rop, to_tree((*f._VECTptr)[0]), to_tree((*f._VECTptr)[1])));
    if (s == at_Psi && f.type == _VECT && f._VECTptr->size() == 2) // Psi(x, n)
        return polygamma_tree(f);
    if (s == at_Zeta && f.type == _VECT && f._VECTptr->size() == 2) // Zeta(x, n)
        return zeta_derivative_tree(f);
    sym_node *k = kids_node(SYM_FUNC, f);
    k->name = strdup(sympy_name(s.ptr()->s));
    if (!k->name) {
        sym_free(k);
        need(nullptr);
    }
    return k;
}

sym_node *idnt_tree(const gen &g) {
    const char *name = g._IDNTptr->id_name;
    if (!strncmp(name, PREFIX, strlen(PREFIX)))
        return need(sym_symbol(name + strlen(PREFIX)));
    if (g == cst_pi)
        return need(sym_const(SYM_PI));
    if (g == unsigned_inf)
        return need(sym_const(SYM_ZOO));
    if (g == undef)
        return need(sym_const(SYM_NAN));
    if (!strcmp(name, "euler_gamma"))
        return need(sym_symbol("EulerGamma"));
    return need(sym_symbol(name));
}

// A multiprecision float (N(pi, 50)) keeps its digits: the node carries its
// decimal text and digit count beside the binary64 value; the last
// GUARD_DIGITS of the precision are not printed.
// mpfr's decimal digits and exponent as "[-]0.DIGITSeEXP" (sym_nv_decimal's
// form); empty on allocation failure.
std::string mpfr_decimal(const mpfr_t x, size_t digits) {
    mpfr_exp_t e;
    char *d = mpfr_get_str(nullptr, &e, 10, digits, x, MPFR_RNDN);
    if (!d)
        return std::string();
    bool neg = d[0] == '-';
    std::string t = std::string(neg ? "-" : "") + "0." + (d + neg) + "e" + std::to_string((long)e);
    mpfr_free_str(d);
    return t;
}

// A finite value binary64 cannot hold (it rounds to an infinity or to 0):
// its own 17 digits, printed at 15 (sym_float_decimal).
sym_node *beyond_binary64(const mpfr_t x) {
    std::string t = mpfr_decimal(x, 17);
    return need(t.empty() ? nullptr : sym_float_decimal(t.c_str()));
}

sym_node *real_tree(const mpfr_t x) {
    if (!mpfr_number_p(x))
        no_number(mpfr_nan_p(x));
    mpfr_prec_t p = mpfr_get_prec(x);
    double d = mpfr_get_d(x, MPFR_RNDN);
    if (p <= 64 && (std::isinf(d) || (d == 0 && !mpfr_zero_p(x))))
        return beyond_binary64(x); // exp(1000.0) printed inf: out of memory
    sym_node *n = need(sym_float(d));
    if (p <= 64)
        return n;
    int digits = (int)lround((double)p * 0.30102999566398120) - GUARD_DIGITS;
    std::string t = mpfr_decimal(x, (size_t)digits + 3);
    n->name = t.empty() ? nullptr : strdup(t.c_str());
    n->ival = digits;
    if (!n->name) {
        sym_free(n);
        need(nullptr);
    }
    return n;
}

bool float_zero(const gen &x) {
    return (x.type == _DOUBLE_ && x._DOUBLE_val == 0) ||
           (x.type == _REAL && mpfr_zero_p(x._REALptr->inf));
}

sym_node *to_tree(const gen &g) {
    switch (g.type) {
    case _INT_:
        if (g.subtype == _INT_BOOLEAN)
            return need(sym_bool(g.val != 0));
        return need(sym_int(g.val));
    case _ZINT: return need(sym_num_mpz(*g._ZINTptr));
    case _FRAC: {
        const gen &a = g._FRACptr->num, &b = g._FRACptr->den;
        if (a.type == _INT_ && b.type == _INT_ && b.val != 0) {
            mpq_t q;
            mpq_init(q);
            mpq_set_si(q, a.val, 1);
            mpz_set_si(mpq_denref(q), b.val);
            mpq_canonicalize(q);
            sym_node *r = sym_num_q(q);
            mpq_clear(q);
            return need(r);
        }
        return need(sym_bin(SYM_MUL, to_tree(a), sym_bin(SYM_POW, to_tree(b), sym_int(-1))));
    }
    case _DOUBLE_:
        if (!std::isfinite(g._DOUBLE_val))
            no_number(std::isnan(g._DOUBLE_val));
        return need(sym_float(g._DOUBLE_val));
    case _REAL: return real_tree(g._REALptr->inf);
    case _CPLX: {
        sym_node *im = sym_bin(SYM_MUL, to_tree(g._CPLXptr[1]), sym_const(SYM_I));
        if (float_zero(g._CPLXptr[0])) // x*(0.0 + 1.41421356237*I): SymPy has no 0.0 there
            return need(im);
        return need(sym_bin(SYM_ADD, to_tree(g._CPLXptr[0]), im));
    }
    case _IDNT: return idnt_tree(g);
    case _SYMB: return symb_tree(g);
    case _VECT:
        if (g.subtype == _POLY1__VECT) // factorint's pairs
            return kids_node(SYM_DICT, g);
        return kids_node(SYM_LIST, g);
    case _STRNG: fail("validation", "%s", g._STRNGptr->c_str());
    default: fail("validation", "the CAS returned a value of a kind this tool cannot print");
    }
}

// ---- operations ------------------------------------------------------------

gen with_complex(gen (*fn)(const gen &), const gen &a) {
    bool old = complex_mode(g_ctx);
    complex_mode(true, g_ctx);
    try {
        gen r = fn(a);
        complex_mode(old, g_ctx);
        return r;
    } catch (...) {
        complex_mode(old, g_ctx);
        throw;
    }
}

bool numeric_parts(const gen &g, double &re, double &im) {
    if (has_user_symbol(g))
        return false;
    gen v = evalf_double(evalf(g, 1, g_ctx), 1, g_ctx);
    if (v.type == _DOUBLE_) {
        re = v._DOUBLE_val;
        im = 0;
        return true;
    }
    if (v.type == _CPLX && v._CPLXptr[0].type == _DOUBLE_ && v._CPLXptr[1].type == _DOUBLE_) {
        re = v._CPLXptr[0]._DOUBLE_val;
        im = v._CPLXptr[1]._DOUBLE_val;
        return true;
    }
    return false;
}

// Real roots ascending, then non-real roots by real then imaginary part.
void sort_roots(vecteur &v) {
    struct item { gen g; double re, im; bool num; };
    std::vector<item> it;
    for (const gen &g : v) {
        item x{g, 0, 0, false};
        x.num = numeric_parts(g, x.re, x.im);
        it.push_back(x);
    }
    std::stable_sort(it.begin(), it.end(), [](const item &a, const item &b) {
        if (a.num != b.num)
            return a.num;
        bool ra = a.im == 0, rb = b.im == 0;
        if (ra != rb)
            return ra;
        if (a.re != b.re)
            return a.re < b.re;
        return a.im < b.im;
    });
    for (size_t i = 0; i < v.size(); i++)
        v[i] = it[i].g;
}

bool eliminant_roots(const gen &p, const gen &x, vecteur &out, bool *approx, bool numeric);
// e at the root c: 1 when finite, 0 when undefined there (a 0/0 or a pole
// of the equation as written), -1 when it cannot be evaluated
int defined_at(const gen &e, const gen &x, const gen &c) {
    gen v = subst(e, x, c, false, g_ctx);
    if (is_undef(v) || is_inf(v))
        return 0;
    double re, im;
    if (!numeric_parts(v, re, im))
        return -1;
    return std::isfinite(re) && std::isfinite(im) ? 1 : 0;
}

// lhs - rhs for an equation lhs = rhs; any other expression as it is
gen as_difference(const gen &e) {
    if (e.is_symb_of_sommet(at_equal) && e._SYMBptr->feuille.type == _VECT)
        return (*e._SYMBptr->feuille._VECTptr)[0] - (*e._SYMBptr->feuille._VECTptr)[1];
    return e;
}

// giac's complex solve of x**5 - 2*x gave [0] (x**6 - 2*x**2 too: the
// roots of x**4 - 2 dropped), a confident incomplete answer, while x*(x**4
// - 2) gave all five. For a polynomial with numeric coefficients the roots
// are those of its irreducible factors: when giac's are fewer, they are
// eliminant_roots' in its solver-only mode (no 40-digit fallback; giac's
// own floats for a factor it has no radicals for are kept: an exact-only
// mode lost the four roots of x**4 = 2 of (x**5 - x - 1)*(x**5 - 2*x)),
// less the roots where the equation as written is undefined (x**2*(x -
// 1)/(x**2 - x) at 0, a 0/0 giac rightly left out), and replace giac's when
// they are more (redsym9; one root loop with solve_system's since
// redsym11).
void complete_poly_roots(const gen &args, vecteur &v) {
    if (!complex_mode(g_ctx) || args.type != _VECT || args._VECTptr->size() != 2)
        return;
    gen e = (*args._VECTptr)[0], x = (*args._VECTptr)[1];
    e = as_difference(e);
    try {
        gen num = _numer(normal(e, g_ctx), g_ctx);
        vecteur k = lvar(num);
        if (k.size() != 1 || k[0] != x)
            return;
        vecteur all, kept;
        bool numeric = false;
        if (!eliminant_roots(num, x, all, &numeric, false))
            return;
        for (const gen &c : all) {
            int ok = defined_at(e, x, c);
            if (ok < 0)
                return;
            if (ok)
                kept.push_back(c);
        }
        if (v.size() < kept.size())
            v = kept;
    } catch (...) {
    }
}

static bool within(const gen &a, const gen &b, double rel, bool own_size = false);
long degree_in(const gen &p, const gen &x);
bool inexact(const gen &g);

// ---- casus irreducibilis ----------------------------------------------------
// A cubic with rational coefficients and three distinct real roots has no
// real radical form when it is irreducible (casus irreducibilis): giac's
// solve answers floats, and the answer was flagged approximate. Its roots
// are exact in Viete's trigonometric form: with x = t - b/(3a) and t**3 +
// p*t + q = 0 (p < 0),
//   t_k = 2*sqrt(-p/3)*cos(acos(3*q/(2*p)*sqrt(-3/p))/3 - 2*pi*k/3),
// k = 0, 1, 2 (x**3 - 3*x + 1 = 0 at 2*cos(2*pi/9), 2*cos(4*pi/9),
// -2*cos(pi/9)).

bool rational_number(const gen &g) { return g.type == _INT_ || g.type == _ZINT || g.type == _FRAC; }

// The coefficient of x**k in the cubic f, as the k-th derivative at 0 / k!
gen cubic_coefficient(const gen &f, const gen &x, int k) {
    gen d = f;
    for (int i = 0; i < k; i++)
        d = derive(d, x, g_ctx);
    static const int fact[] = {1, 1, 2, 6};
    return ratnormal(subst(d, x, 0, false, g_ctx), g_ctx) / gen(fact[k]);
}

// The real cube root of the real number w (w**(1/3) is the principal,
// complex one for w < 0)
gen real_cbrt(const gen &w) {
    if (is_strictly_positive(-w, g_ctx))
        return -pow(-w, gen(1) / 3, g_ctx);
    return pow(w, gen(1) / 3, g_ctx);
}

// The roots of t**3 + p*t + q = 0 less shift, one real and two complex
// (4*p**3 + 27*q**2 > 0), by Cardano's formula with real cube roots u, v:
// u + v and -(u + v)/2 -+ sqrt(3)*(u - v)*I/2. giac's complex solve gave
// floats for x**3 - x - 1.
bool cardano_roots(const gen &p, const gen &q, const gen &shift, vecteur &out) {
    gen s = call(at_sqrt, q * q / 4 + p * p * p / 27);
    gen u = real_cbrt(eval(-q / 2 + s, 1, g_ctx)), v = real_cbrt(eval(-q / 2 - s, 1, g_ctx));
    gen re = eval(-(u + v) / 2 - shift, 1, g_ctx), im = eval(call(at_sqrt, 3) * (u - v) / 2, 1, g_ctx);
    out.push_back(eval(u + v - shift, 1, g_ctx));
    out.push_back(re - cst_i * im);
    out.push_back(re + cst_i * im);
    return true;
}

// f's three roots in closed form into out: Viete's trigonometric form for
// three distinct real roots, Cardano's for one; false unless f is a cubic
// in x with rational coefficients and no repeated root.
bool cubic_closed_roots(const gen &f, const gen &x, vecteur &out) {
    if (degree_in(f, x) != 3)
        return false;
    gen c[4];
    for (int k = 0; k < 4; k++)
        if (!rational_number(c[k] = eval(cubic_coefficient(f, x, k), 1, g_ctx)))
            return false;
    const gen &a = c[3], &b = c[2], &cc = c[1], &d = c[0];
    gen p = (3 * a * cc - b * b) / (3 * a * a);
    gen q = (2 * b * b * b - 9 * a * b * cc + 27 * a * a * d) / (27 * a * a * a);
    gen disc = 4 * p * p * p + 27 * q * q;
    if (is_strictly_positive(disc, g_ctx))
        return cardano_roots(p, q, b / (3 * a), out);
    if (!is_strictly_positive(-disc, g_ctx))
        return false;
    gen m = 2 * call(at_sqrt, -p / 3), y = eval(3 * q / (2 * p) * call(at_sqrt, gen(-3) / p), 1, g_ctx);
    gen th = call(at_acos, y);
    // acos of a value it knows (-1/2: 2*pi/3) evaluates to cos(2*pi/9)
    // forms; any other giac rewrites as pi/2 - asin and folds into
    // cos(-7*pi/6 + asin(...)/3): that one is kept as Viete wrote it
    bool known = !holds_op(th, at_acos) && !holds_op(th, at_asin);
    for (int k = 0; k < 3; k++) {
        gen angle = (known ? th : symbolic(at_acos, y)) / 3 - gen(2 * k) * cst_pi / 3;
        gen cosine = known ? call(at_cos, angle) : symbolic(at_cos, angle);
        out.push_back(known ? eval(m * cosine - b / (3 * a), 1, g_ctx) : m * cosine - b / (3 * a));
    }
    return true;
}

// Each inexact root in v (a float or a rootof) of an irreducible cubic
// factor of the polynomial equation args replaced by its trigonometric
// form; v unchanged unless every root of such a factor is matched (to
// 1e-9).
void casus_roots(const gen &args, vecteur &v) {
    if (args.type != _VECT || args._VECTptr->size() != 2 || !inexact(gen(v, 0)))
        return;
    gen e = as_difference((*args._VECTptr)[0]), x = (*args._VECTptr)[1];
    try {
        gen num = _numer(normal(e, g_ctx), g_ctx);
        vecteur k = lvar(num);
        if (k.size() != 1 || k[0] != x)
            return;
        gen fs = _factors(num, g_ctx);
        if (fs.type != _VECT || fs._VECTptr->size() % 2)
            return;
        vecteur w = v;
        for (size_t i = 0; i < fs._VECTptr->size(); i += 2) {
            vecteur exact;
            if (!cubic_closed_roots((*fs._VECTptr)[i], x, exact))
                continue;
            for (const gen &r : exact) {
                size_t j = 0;
                while (j < w.size() && !(inexact(w[j]) && within(w[j], r, 1e-9)))
                    j++;
                if (j == w.size())
                    return;
                w[j] = r;
            }
        }
        v = w;
    } catch (...) {
    }
}


// u when g is inv(u) or u**(-n), else 0
gen denominator_base(const gen &g) {
    if (g.is_symb_of_sommet(at_inv))
        return g._SYMBptr->feuille;
    const gen &f = g.type == _SYMB ? g._SYMBptr->feuille : g;
    if (g.is_symb_of_sommet(at_pow) && f.type == _VECT && f._VECTptr->size() == 2 &&
        is_strictly_positive(-(*f._VECTptr)[1], g_ctx))
        return (*f._VECTptr)[0];
    return 0;
}

// The bases of e's denominators as our parser reads e: u of inv(u) and of
// u**(-n), not those inside u (1/(1/x) is x, and 0 solves 1/(1/x) + x**2
// = 0), nor one whose base is also a factor of the same product
// ((x**5 - x - 1)**2/(x**5 - x - 1) is x**5 - x - 1, as the printed
// equation says)
void written_denominators(const gen &e, vecteur &out) {
    if (e.type != _SYMB)
        return;
    const gen &f = e._SYMBptr->feuille;
    if (e.is_symb_of_sommet(at_prod) && f.type == _VECT) {
        vecteur bases;
        for (const gen &a : *f._VECTptr)
            if (is_zero(denominator_base(a)))
                bases.push_back(a.is_symb_of_sommet(at_pow) && a._SYMBptr->feuille.type == _VECT
                                    ? (*a._SYMBptr->feuille._VECTptr)[0]
                                    : a);
        for (const gen &a : *f._VECTptr) {
            gen u = denominator_base(a);
            if (is_zero(u))
                written_denominators(a, out);
            else if (std::find(bases.begin(), bases.end(), u) == bases.end())
                out.push_back(u);
        }
        return;
    }
    gen u = denominator_base(e);
    if (!is_zero(u)) {
        out.push_back(u);
        return;
    }
    if (f.type == _VECT)
        for (const gen &a : *f._VECTptr)
            written_denominators(a, out);
    else
        written_denominators(f, out);
}

// giac solves the reduced equation: (x**14 - ...)/(x**5 - 3*x + 1) = 0,
// whose numerator holds (x**5 - 3*x + 1)**2, was answered with the five
// roots of x**5 - 3*x + 1, where the equation as written is 0/0 (redsym11;
// an exact root there giac drops itself, a float one it cannot tell). For
// an equation whose reduced numerator is a polynomial in x, a root of a
// denominator as written (a polynomial in x too) is no root: each
// candidate within 1e-10 of one (40 digits) is dropped.
void drop_written_poles(const gen &args, vecteur &v) {
    if (args.type != _VECT || args._VECTptr->size() != 2 || v.empty())
        return;
    gen e = (*args._VECTptr)[0], x = (*args._VECTptr)[1];
    e = as_difference(e);
    vecteur dens, poles;
    written_denominators(e, dens);
    if (dens.empty())
        return;
    try {
        gen num = _numer(normal(e, g_ctx), g_ctx);
        vecteur k = lvar(num);
        if (k.size() != 1 || k[0] != x)
            return;
        for (const gen &d : dens) {
            gen dn = _numer(normal(d, g_ctx), g_ctx);
            vecteur kd = lvar(dn);
            bool ap = false;
            if (kd.size() != 1 || kd[0] != x)
                continue;
            // the written denominator's own roots, not only those it shares
            // with the reduced numerator: n/d with a simple common factor
            // (x**3 - 3*x + 1 in both) loses it in the reduction, and giac
            // answered one of its roots, -1.879, where n/d is 0/0
            if (degree_in(dn, x) >= 1 && !eliminant_roots(dn, x, poles, &ap, true))
                return;
        }
        vecteur kept;
        for (const gen &c : v) {
            bool pole = false;
            // an exact candidate against an exact pole is compared to its
            // own size: 1/10**20 was within 1e-10 of the pole 0 (the test
            // is against max(1, |pole|)), and 1/x = 10**20 had no root
            for (const gen &p : poles)
                pole = pole || (inexact(c) || inexact(p) ? within(c, p, 1e-10) : within(c, p, 1e-20, true));
            if (!pole)
                kept.push_back(c);
        }
        v = kept;
    } catch (...) {
    }
}

// The roots of the reduced numerator of a rational function of x alone
// (args = (equation, x)) into r; false for anything else. giac's solve of
// (x**10 + 6*x**9 + ... + 9*x)/(x**3 - x**2) failed ("Not invertible")
// where its numerator's solves; the written poles are dropped after.
bool numerator_solve(const gen &args, gen &r) {
    if (args.type != _VECT || args._VECTptr->size() != 2)
        return false;
    gen x = (*args._VECTptr)[1], num = _numer(normal(as_difference((*args._VECTptr)[0]), g_ctx), g_ctx);
    vecteur k = lvar(num);
    if (k.size() != 1 || k[0] != x)
        return false;
    r = call(at_solve, makesequence(num, x));
    return true;
}

gen solve_one(const gen &args) {
    gen r;
    try {
        r = call(at_solve, args);
    } catch (const std::runtime_error &) {
        if (!numerator_solve(args, r))
            throw;
    }
    if (r.type != _VECT)
        fail("validation", "the solver could not solve this equation");
    vecteur v = *r._VECTptr;
    complete_poly_roots(args, v);
    casus_roots(args, v);
    drop_written_poles(args, v);
    sort_roots(v);
    return gen(v, 0);
}

// giac names the integer of a periodic family n_0, n_1...; ours are k, k2...
bool is_family_param(const gen &g) {
    return g.type == _IDNT && !strncmp(g._IDNTptr->id_name, "n_", 2);
}

// The coefficients c of x in every exponential exp(c*x + d) (and b**(c*x +
// d), as c*ln(b); (b**x)**m, as giac reads b**(m*x), as m*ln(b)) of f;
// false when x also occurs outside such an exponential, or in one whose
// exponent is not linear in x: then f is not periodic in x. A coefficient
// may hold parameters (exp(a*x) = b has the period 2*pi*I/a wherever its
// principal root log(b)/a exists).
bool exp_coefficients(const gen &f, const gen &x, vecteur &cs) {
    if (!mentions(f, x))
        return true;
    if (f.is_symb_of_sommet(at_pow) && f._SYMBptr->feuille.type == _VECT &&
        f._SYMBptr->feuille._VECTptr->size() == 2 &&
        mentions((*f._SYMBptr->feuille._VECTptr)[0], x) &&
        (*f._SYMBptr->feuille._VECTptr)[1].type == _INT_) {
        vecteur inner;
        if (!exp_coefficients((*f._SYMBptr->feuille._VECTptr)[0], x, inner))
            return false;
        for (const gen &c : inner)
            cs.push_back(c * (*f._SYMBptr->feuille._VECTptr)[1]);
        return true;
    }
    gen u, scale(1);
    if (f.is_symb_of_sommet(at_exp)) {
        u = f._SYMBptr->feuille;
    } else if (f.is_symb_of_sommet(at_pow) && f._SYMBptr->feuille.type == _VECT &&
               f._SYMBptr->feuille._VECTptr->size() == 2 &&
               !mentions((*f._SYMBptr->feuille._VECTptr)[0], x)) {
        scale = call(at_ln, (*f._SYMBptr->feuille._VECTptr)[0]);
        u = (*f._SYMBptr->feuille._VECTptr)[1];
    }
    if (!is_zero(u) || f.is_symb_of_sommet(at_exp)) {
        gen c = _simplify(derive(u, x, g_ctx) * scale, g_ctx);
        if (mentions(c, x) || is_zero(c))
            return false;
        cs.push_back(c);
        return true;
    }
    if (f.type == _SYMB) {
        gen a = f._SYMBptr->feuille;
        if (a.type != _VECT)
            return exp_coefficients(a, x, cs);
        for (const gen &e : *a._VECTptr)
            if (!exp_coefficients(e, x, cs))
                return false;
        return true;
    }
    return false; // x itself, outside any exponential
}

// exp(2*x) = 7 holds for log(7)/2 + I*pi*k: an equation in which x occurs
// only in exponentials exp(c*x + d) whose coefficients are integer
// multiples of one c0 is a rational equation in w = exp(c0*x); each root
// w != 0 gives the family log(w)/c0 + 2*pi*I*k/c0. Empty when f is not of
// that shape (giac's general solver knows trigonometric periods only).
// Two exponential terms at incommensurable rates (3**x = 2**x, 3**x -
// 2**x = 0): t1 + t2 = 0 is -t1/t2 = 1, and that ratio is q0*exp(c*x) (its
// logarithmic derivative c is constant), so x = (2*pi*I*k - ln(q0))/c.
// Empty when f is not two such terms.
gen two_term_general(const gen &f, const gen &x) {
    if (!f.is_symb_of_sommet(at_plus) || f._SYMBptr->feuille.type != _VECT ||
        f._SYMBptr->feuille._VECTptr->size() != 2)
        return gen(vecteur(), 0);
    const vecteur &t = *f._SYMBptr->feuille._VECTptr;
    if (!mentions(t[0], x) || !mentions(t[1], x))
        return gen(vecteur(), 0);
    gen q = _pow2exp(-t[0] / t[1], g_ctx);
    gen c = _simplify(derive(q, x, g_ctx) / q, g_ctx);
    if (mentions(c, x) || is_zero(c))
        return gen(vecteur(), 0);
    gen q0 = _simplify(subst(q, x, gen(0), false, g_ctx), g_ctx);
    if (is_zero(q0) || is_undef(q0) || is_inf(q0))
        return gen(vecteur(), 0);
    gen k(identificateur("k"));
    return gen(vecteur(1, _simplify((2 * cst_pi * cst_i * k - call(at_ln, q0)) / c, g_ctx)), 0);
}

gen exp_general(const gen &f, const gen &x) {
    vecteur cs;
    if (!exp_coefficients(f, x, cs) || cs.empty())
        return gen(vecteur(), 0);
    gen c0 = cs[0];
    for (const gen &c : cs) {
        gen q = _simplify(c / c0, g_ctx);
        if (q.type != _INT_ && q.type != _ZINT && q.type != _FRAC)
            return two_term_general(f, x);
        if (q.type == _FRAC) // c0 = c0 / denominator, until all are integer multiples
            c0 = c0 / q._FRACptr->den;
    }
    gen w(identificateur("cc_w"));
    // b**u as exp(u*ln(b)) first, so that the substitution collapses to
    // powers of w (2**(2*x) is (2**x)**2 to giac)
    gen fe = _pow2exp(f, g_ctx);
    gen fw = _simplify(subst(fe, x, call(at_ln, w) / c0, false, g_ctx), g_ctx);
    vecteur vars = lvarx(fw, w);
    if (mentions(fw, x) || vars.size() != 1 || vars[0] != w)
        return gen(vecteur(), 0); // not rational in w (exp(x) + x, ln(w) left over)
    gen ws = with_complex([](const gen &a) { return call(at_solve, a); }, makesequence(fw, w));
    if (ws.type != _VECT)
        return gen(vecteur(), 0);
    gen k(identificateur("k"));
    gen period = _simplify(2 * cst_pi * cst_i / c0, g_ctx);
    vecteur out;
    for (const gen &r : *ws._VECTptr) {
        if (is_zero(r))
            continue;
        out.push_back(_simplify(call(at_ln, r) / c0, g_ctx) + period * k);
    }
    return gen(out, 0);
}

bool eliminant_roots(const gen &p, const gen &x, vecteur &out, bool *approx, bool numeric);

// (exp(x) - 1)*(x - 2) = 0 and x*(exp(x) - 2) = 0 had no general
// solution: x occurs outside the exponentials, so exp_general gives none,
// and the principal roots (0, 2; 0, log(2)) were all the answer said,
// though 2*pi*I*k solves the first for every integer k (redsym11). A
// product is 0 where a factor is: the families of each factor exp_general
// solves, and the roots of each polynomial factor (eliminant_roots,
// solver-only) as constant members, the form giac gives for trigonometric
// products. Empty when a factor is neither, or x is in a denominator.
gen product_general(const gen &f, const gen &x) {
    gen e = f;
    e = as_difference(e);
    gen fs = _factors(e, g_ctx);
    if (fs.type != _VECT || fs._VECTptr->size() % 2 || fs._VECTptr->size() < 4)
        return gen(vecteur(), 0);
    vecteur out;
    bool periodic = false;
    for (size_t i = 0; i < fs._VECTptr->size(); i += 2) {
        const gen &fi = (*fs._VECTptr)[i], &m = (*fs._VECTptr)[i + 1];
        if (!mentions(fi, x))
            continue;
        if (m.type != _INT_ || m.val < 1)
            return gen(vecteur(), 0);
        vecteur cs, k = lvar(fi);
        bool ap = false;
        if (exp_coefficients(fi, x, cs) && !cs.empty()) {
            gen g = exp_general(fi, x);
            if (g.type != _VECT || g._VECTptr->empty())
                return gen(vecteur(), 0);
            for (const gen &c : *g._VECTptr)
                out.push_back(c);
            periodic = true;
        } else if (k.size() != 1 || k[0] != x || !eliminant_roots(fi, x, out, &ap, false)) {
            return gen(vecteur(), 0);
        }
    }
    return gen(periodic ? out : vecteur(), 0);
}

gen exp_or_product_general(const gen &f, const gen &x) {
    gen g = exp_general(f, x);
    return g.type == _VECT && !g._VECTptr->empty() ? g : product_general(f, x);
}

// true when every function in g is one giac's solver isolates without
// consulting all_trig_sol: sums, products, powers, exp and ln. all_trig_sol
// changes giac's solve only in isolating sin, cos, tan, sinh, cosh and tanh
// (the integer parameters n_0, ...); an equation of these functions alone
// solves with it exactly as without it.
bool trig_free(const gen &g) {
    if (g.type == _CPLX) /* I: the conversions giac may make are not worth a proof */
        return false;
    if (g.type == _VECT)
        return std::all_of(g._VECTptr->begin(), g._VECTptr->end(), trig_free);
    if (g.type != _SYMB)
        return true;
    const unary_function_ptr &f = g._SYMBptr->sommet;
    if (f != at_plus && f != at_prod && f != at_pow && f != at_inv && f != at_neg && f != at_exp &&
        f != at_ln && f != at_equal)
        return false;
    return trig_free(g._SYMBptr->feuille);
}

gen general_solutions(const gen &args);

// general_solutions after a complex solve of the same equation that gave a
// list (solve_one): an equation free of trigonometric and hyperbolic
// functions (trig_free) gives giac's general solve that very list, holding
// no integer parameter, so only the exponential families (and those of a
// product's exponential factors) remain to be found. giac's second solve is
// skipped: when it cannot isolate x it runs
// its bisection again (x**x = 4: 45 M instructions).
gen general_solutions_after_solve(const gen &args) {
    const gen &e = (*args._VECTptr)[0];
    if (!trig_free(e))
        return general_solutions(args);
    return exp_or_product_general(e, (*args._VECTptr)[1]);
}

// The integers of a family's parameter k where it is undefined, for
// cc_giac_take_family_note(): sin(1/x) = 0 has the family 1/(pi*k) and
// sin(exp(x)) = 0 log(pi*k), and neither is anything at k = 0, though the
// note said "k stands for any integer". Each family of one parameter k is
// valued at k = -2 .. 2; where it, or the equation e at it, is no finite
// value, "k = t in <family>" is noted.
std::string g_family_note;

// f printed as the tools print it.
std::string family_text(const gen &f) {
    sym_node *t = to_tree(f);
    char *c = t ? sym_print(t) : nullptr;
    sym_free(t);
    std::string out = c ? c : f.print(g_ctx);
    free(c);
    return out;
}

bool undefined_value(const gen &g) {
    try {
        gen v = eval(g, 1, g_ctx);
        if (is_undef(v) || is_inf(v))
            return true;
        gen d = evalf_double(evalf(v, 1, g_ctx), 1, g_ctx);
        return is_undef(d) || is_inf(d);
    } catch (...) {
        return false;
    }
}

// The members of the families at k = -1 and 1 that solve e = 0 (valued at
// 30 digits to 1e-20), for cc_giac_take_family_samples(): tan(1/x) = 0
// answered solutions [] (giac's principal root 1/x = 0 is no number), and
// 1/pi solves it.
struct family_root {
    bool real;
    double re, im;
    std::string text;
};
std::vector<family_root> g_family_samples;

void family_sample(const gen &e, const gen &x, const gen &at) {
    try {
        keep_precision keep;
        gen v = _simplify(at, g_ctx);
        gen r = checked(call(at_evalf, makesequence(subst(e, x, v, false, g_ctx), gen(30))));
        gen a = evalf_double(call(at_abs, r), 1, g_ctx);
        if (a.type != _DOUBLE_ && a.type != _INT_)
            return;
        if ((a.type == _INT_ ? (double)a.val : a._DOUBLE_val) > 1e-20)
            return;
        gen vr = evalf_double(re(v, g_ctx), 1, g_ctx), vi = evalf_double(im(v, g_ctx), 1, g_ctx);
        double dr = vr.type == _DOUBLE_ ? vr._DOUBLE_val : vr.type == _INT_ ? vr.val : NAN;
        double di = vi.type == _DOUBLE_ ? vi._DOUBLE_val : vi.type == _INT_ ? vi.val : NAN;
        if (std::isnan(dr) || std::isnan(di))
            return;
        std::string t = family_text(v);
        for (const family_root &f : g_family_samples)
            if (f.text == t)
                return;
        g_family_samples.push_back({std::fabs(di) <= 1e-15 * std::max(1.0, std::fabs(dr)), dr, di, t});
    } catch (...) {
    }
}

void family_exclusions(const vecteur &fams, const gen &e, const gen &x) {
    gen k(identificateur("k"));
    for (const gen &f : fams) {
        vecteur ids = lidnt(f);
        bool only_k = false;
        for (const gen &v : ids)
            only_k = only_k || v == k;
        for (const gen &v : ids)
            only_k = only_k && (v == k || !has_user_symbol(v));
        if (!only_k)
            continue;
        std::string bad;
        for (int t = -2; t <= 2; t++) {
            gen at = subst(f, k, gen(t), false, g_ctx);
            if (undefined_value(at) || undefined_value(subst(e, x, at, false, g_ctx)))
                bad += (bad.empty() ? "" : ", ") + std::to_string(t);
            else if (t == -1 || t == 1)
                family_sample(e, x, at);
        }
        if (bad.empty())
            continue;
        g_family_note += std::string(g_family_note.empty() ? "" : "; ") + "k = " + bad + " in " +
                         family_text(f);
    }
}

gen general_solutions(const gen &args) {
    bool old = all_trig_sol(g_ctx);
    all_trig_sol(g_ctx) = true;
    gen r;
    try {
        r = with_complex([](const gen &s) { return call(at_solve, s); }, args);
    } catch (...) {
        all_trig_sol(g_ctx) = old;
        throw;
    }
    all_trig_sol(g_ctx) = old;
    if (r.type != _VECT)
        return exp_or_product_general((*args._VECTptr)[0], (*args._VECTptr)[1]);
    vecteur params, names;
    for (const gen &v : lidnt(r))
        if (is_family_param(v)) {
            params.push_back(v);
            names.push_back(gen(identificateur(params.size() == 1 ? "k" : "k" + std::to_string(params.size()))));
        }
    if (params.empty())
        return exp_or_product_general((*args._VECTptr)[0], (*args._VECTptr)[1]);
    vecteur out;
    for (const gen &e : *r._VECTptr)
        out.push_back(_simplify(subst(e, params, names, false, g_ctx), g_ctx));
    family_exclusions(out, (*args._VECTptr)[0], (*args._VECTptr)[1]);
    return gen(out, 0);
}

long degree_in(const gen &p, const gen &x);
gen approx(const gen &g, int digits);

// The root c of the irreducible (so square-free) factor f in l, refined
// by Newton's iteration at 60 digits: proot's roots are about binary64
// accurate only (x**3 - 10*x**2 + 22*x + 11 at 4.32447262533628, for
// 4.32447262533630); the printer rounds the value to 15 digits once.
gen refined_root(const gen &f, const gen &l, gen c) {
    gen df = derive(f, l, g_ctx);
    c = approx(exact_floats(c), 60); // evalf keeps a double a double
    for (int i = 0; i < 8; i++) {
        gen d = approx(subst(df, l, c, false, g_ctx), 60);
        if (is_zero(d))
            break;
        c = approx(c - approx(subst(f, l, c, false, g_ctx), 60) / d, 60);
    }
    return c;
}

// The eigenvalues of the rational matrix m from its characteristic
// polynomial, factor by factor, each as often as its multiplicity: the
// solver's closed forms when it writes all of a factor's roots so, else
// the factor's roots found by proot and refined to 60 digits. false when a
// factor's roots cannot all be found.
bool eigen_by_factors(const gen &m, vecteur &out) {
    size_t n = m._VECTptr->size();
    gen l(identificateur("cc_eig_l"));
    gen p = normal(_det(m - l * gen(midn((int)n), _MATRIX__VECT), g_ctx), g_ctx);
    gen fs = _factors(p, g_ctx);
    if (fs.type != _VECT || fs._VECTptr->size() % 2)
        return false;
    for (size_t i = 0; i < fs._VECTptr->size(); i += 2) {
        const gen &f = (*fs._VECTptr)[i], &mult = (*fs._VECTptr)[i + 1];
        long d = degree_in(f, l);
        if (d < 1)
            continue;
        if (mult.type != _INT_ || mult.val < 1)
            return false;
        gen r = call(at_solve, makesequence(f, l));
        if (r.type != _VECT || (long)r._VECTptr->size() != d || inexact(r)) {
            r = call(at_proot, makesequence(f, gen(40)));
            if (r.type != _VECT || (long)r._VECTptr->size() != d)
                return false;
            for (gen &c : *r._VECTptr)
                c = refined_root(f, l, c);
        }
        for (int k = 0; k < mult.val; k++)
            for (const gen &c : *r._VECTptr)
                out.push_back(c);
    }
    return out.size() == n;
}

// every entry a Gaussian rational: the characteristic polynomial is then
// factored over the rationals (over an algebraic extension, sqrt(2) and
// sqrt(3) entries, factoring can take seconds)
bool rational_matrix(const gen &m) {
    for (const gen &row : *m._VECTptr)
        for (const gen &e : *row._VECTptr)
            if (!rational_number(e) &&
                !(e.type == _CPLX && rational_number(e._CPLXptr[0]) && rational_number(e._CPLXptr[1])))
                return false;
    return true;
}

// giac's eigenvals lists each eigenvalue as often as its multiplicity, but
// an eigenvalue it can only write as rootof(...) is valued in binary64 on a
// representation that can cancel catastrophically ([[1, 10**21 + 8,
// 10**11], [-3, 1, 3], [1, 0, -10**17]] gave -6.1e12 and 6.1e12 for
// 1 +- 5.48e10*I), and with symbols in the entries the eigenvalues it has no
// closed form for were left out (a 3x3 gave no eigenvalue at all). A
// rational matrix with such an answer is solved again from its
// characteristic polynomial; another one fails rather than answer part.
gen eigen(const gen &m) {
    gen r = checked(_eigenvals(m, g_ctx));
    size_t n = m._VECTptr->size();
    bool complete = r.type == _VECT && r._VECTptr->size() == n;
    if (complete && !inexact(r))
        return r;
    vecteur mine;
    if (rational_matrix(m) && eigen_by_factors(m, mine))
        return gen(mine, 0);
    if (!complete)
        fail("validation",
             "the CAS found %zu of the %zu eigenvalues of this matrix (the others are roots of a "
             "polynomial it cannot solve in closed form): give rational entries to get their values",
             r.type == _VECT ? r._VECTptr->size() : (size_t)0, n);
    return r;
}

void need_matrix(const gen &m) {
    if (!ckmatrix(m))
        fail("validation", "expected a matrix");
}

gen inverse(const gen &m) {
    gen d = _simplify(_det(m, g_ctx), g_ctx);
    if (is_zero(d))
        fail("validation", "matrix is singular (determinant is 0): it has no inverse");
    return checked(_inv(m, g_ctx));
}

gen approx(const gen &g, int digits);

// |a - b| within rel of max(1, |b|), or with own_size of max(|a|, |b|) (no
// floor of 1: exact numbers, which 30 digits give to their own size), all
// evaluated at 30 digits
static bool within(const gen &a, const gen &b, double rel, bool own_size) {
    double dre, dim, are = 0, aim = 0, bre, bim;
    try {
        if (!numeric_parts(approx(a - b, 30), dre, dim) || !numeric_parts(approx(b, 30), bre, bim) ||
            (own_size && !numeric_parts(approx(a, 30), are, aim)))
            return false;
    } catch (...) {
        return false;
    }
    double scale = own_size ? std::max(std::hypot(are, aim), std::hypot(bre, bim))
                            : std::max(1.0, std::hypot(bre, bim));
    return std::hypot(dre, dim) <= rel * scale;
}

// |a - b| below 1e-20 of max(1, |b|): two algebraic numbers taken as equal
// (giac's evalf of a rootof finds its root numerically)
bool numerically_equal(const gen &a, const gen &b) { return within(a, b, 1e-20); }

// true when g holds a floating-point number: a value of giac's numeric
// fallback for a system it cannot solve exactly
bool holds_float(const gen &g) {
    if (g.type == _DOUBLE_ || g.type == _REAL)
        return true;
    if (g.type == _CPLX)
        return holds_float(g._CPLXptr[0]) || holds_float(g._CPLXptr[1]);
    if (g.type == _SYMB)
        return holds_float(g._SYMBptr->feuille);
    if (g.type == _VECT)
        for (const gen &e : *g._VECTptr)
            if (holds_float(e))
                return true;
    return false;
}

// A complex float one of whose parts is nonzero and below 1e-10 of the
// other: giac's epsilon tests may drop it (see exactly_if_tiny_complex).
bool tiny_complex_part(const gen &g, bool exact_too) {
    return any_node(g, [exact_too](const gen &e) {
        if (e.type != _CPLX || !(exact_too || float_number(e)))
            return false;
        gen r = evalf_double(e._CPLXptr[0], 1, g_ctx), i = evalf_double(e._CPLXptr[1], 1, g_ctx);
        if (r.type != _DOUBLE_ || i.type != _DOUBLE_)
            return false;
        double re = std::fabs(r._DOUBLE_val), im = std::fabs(i._DOUBLE_val);
        return re != 0 && im != 0 && std::min(re, im) < 1e-10 * std::max(re, im);
    });
}

// a solution component that is not an exact closed form: a rootof or a
// float
bool inexact(const gen &g) { return holds_op(g, at_rootof) || holds_float(g); }

// |a - b| within 1e-8 of max(1, |b|): an exact root taken for a float of
// giac's numeric fallback (its values are good to about 1e-14)
bool near_float(const gen &a, const gen &b) { return within(a, b, 1e-8); }

// An exact root (in radicals) equal to the value v of variable x: a root
// of an equation of the system in x alone once the exact values are
// substituted. A rootof v must equal it (30 digits); a float v (giac's
// numeric fallback) must be near exactly one root. undef when none is.
// The shortest form of the exact root c found for component i: c, its
// normal form, or another exact component of the solution equal to it
// (x**2*y = 2; x*y**2 = 2 gave x = 8/((-1 + sqrt(3)*I)**2*(2**(1/3))**2)
// beside y = 2**(1/3)*(-1/2 + sqrt(3)*I/2), the same number; giac's
// simplify of it took over 15 s)
gen shortest_root(const gen &c, const vecteur &sol, size_t i) {
    gen best = c;
    try {
        gen n = normal(c, g_ctx);
        if (tree_size(n) < tree_size(best))
            best = n;
    } catch (...) {
    }
    for (size_t j = 0; j < sol.size(); j++)
        if (j != i && !inexact(sol[j]) && tree_size(sol[j]) < tree_size(best) && numerically_equal(sol[j], c))
            best = sol[j];
    return best;
}

gen radical_for(const vecteur &eqs, const vecteur &vars, const vecteur &sol, size_t i) {
    vecteur from, to;
    for (size_t j = 0; j < vars.size() && j < sol.size(); j++)
        if (j != i && !inexact(sol[j])) {
            from.push_back(vars[j]);
            to.push_back(sol[j]);
        }
    bool fl = !holds_op(sol[i], at_rootof);
    for (const gen &e : eqs) {
        gen f = subst(e, from, to, false, g_ctx);
        vecteur ids = lidnt(f);
        if (ids.size() != 1 || ids[0] != vars[i])
            continue;
        gen roots = with_complex([](const gen &a) { return call(at_solve, a); }, makesequence(f, vars[i]));
        if (roots.type != _VECT)
            continue;
        gen pick = undef;
        int near = 0;
        for (const gen &c : *roots._VECTptr) {
            if (inexact(c))
                continue;
            if (!fl && numerically_equal(c, sol[i]))
                return shortest_root(c, sol, i);
            if (fl && near_float(c, sol[i]) && near++ == 0)
                pick = c;
        }
        if (near == 1)
            return shortest_root(pick, sol, i);
    }
    return undef;
}

// true when every equation is affine in the variables: its derivatives in
// them mention none of them
bool linear_system(const vecteur &eqs, const vecteur &vars) {
    for (const gen &e : eqs)
        for (const gen &v : vars) {
            gen d = derive(e, v, g_ctx);
            for (const gen &w : vars)
                if (mentions(d, w))
                    return false;
        }
    return true;
}

// true when the equations provably have no common solution: their
// numerators are polynomials in the variables alone (no parameter, no
// other function) whose Groebner basis is [1]. A solution of the system
// is one of its numerators, so none there is none here.
bool proven_inconsistent(const vecteur &eqs, const vecteur &vars) {
    vecteur nums;
    for (const gen &e : eqs) {
        gen num = call(at_numer, normal(e, g_ctx));
        for (const gen &k : lvar(num))
            if (std::find(vars.begin(), vars.end(), k) == vars.end())
                return false;
        nums.push_back(num);
    }
    gen b = call(at_gbasis, makesequence(gen(nums, 0), gen(vars, 0)));
    if (b.type != _VECT)
        return false;
    for (const gen &g : *b._VECTptr)
        if (g.type == _INT_ && g.val != 0)
            return true;
    return false;
}

// giac's solve answered [] ("inconsistent") for the dependent linear
// system x/10 + y/5 = 3/10; 3*x/10 + 3*y/5 = 9/10 (0.1*x + 0.2*y = 0.3;
// 0.3*x + 0.6*y = 0.9 in decimals, read exactly), whose solutions are x =
// 3 - 2*y; x + 2*y = 3; 3*x + 6*y = 9 it solved. An empty answer to a
// linear system that is not proven inconsistent is solved again by giac's
// linsolve (Gaussian elimination); its solution, when it finds one,
// replaces the empty answer.
gen linear_retry(const vecteur &eqs, const vecteur &vars, const gen &r) {
    if (!linear_system(eqs, vars) || proven_inconsistent(eqs, vars))
        return r;
    // each equation over its common denominator: giac's linsolve gives []
    // for the rational equations as they are, and solves x + 2*y - 3 = 0
    vecteur whole;
    for (const gen &e : eqs)
        whole.push_back(call(at_numer, normal(e, g_ctx)));
    gen l = call(at_linsolve, makesequence(gen(whole, 0), gen(vars, 0)));
    if (l.type != _VECT || l._VECTptr->size() != vars.size())
        return r;
    for (const gen &e : whole) // the solution, checked in every equation
        if (!is_exactly_zero(normal(subst(e, gen(vars, 0), l, false, g_ctx), g_ctx)))
            return r;
    return gen(vecteur(1, l), r.subtype);
}

// giac's solver answered [] for x**3*y = 2; x*y**3 = 2 (x = y = 2**(1/4)
// is one of 8 solutions), a confident "inconsistent". An empty answer to a
// nonlinear system stands only when proven_inconsistent; otherwise the
// call fails with a remedy.
void check_empty(const vecteur &eqs, const vecteur &vars) {
    if (linear_system(eqs, vars) || proven_inconsistent(eqs, vars))
        return;
    fail("validation", "the CAS found no solution of this nonlinear system but could not prove "
                       "that it has none: eliminate variables and solve the remaining equation in "
                       "one variable with solve_expression");
}

// true when a part of a float component of sol is non-zero and below
// 1e-10 of its largest component (or of 1): a residue of giac's numeric
// fallback, maybe for 0 (y = 3.55e-14; a real root's imaginary part)
bool residue_left(const vecteur &sol) {
    double big = 1;
    std::vector<std::pair<double, double>> parts;
    for (const gen &c : sol) {
        double re = 0, im = 0;
        if (!numeric_parts(approx(c, 30), re, im))
            re = im = 0;
        parts.push_back({std::fabs(re), std::fabs(im)});
        big = std::max(big, std::hypot(re, im));
    }
    for (size_t i = 0; i < sol.size(); i++)
        if (holds_float(sol[i]))
            for (double p : {parts[i].first, parts[i].second})
                if (p > 0 && p <= 1e-10 * big)
                    return true;
    return false;
}

// giac writes some solutions of a nonlinear system with rootof(...), an
// algebraic number by its minimal polynomial, which means nothing to a
// reader: x**2*y = 2; x*y**2 = 2 gave x = -rootof([-I, -1, 10*I, ...], [1,
// 0, -9, ...])/(12 + 48*I) beside y = 2**(1/3)*(-1/2 + sqrt(3)*I/2) (x is
// y there). Each such value becomes the root in radicals it equals
// (radical_for; repeated while that helps, a value found helping the
// next); a solution that keeps one fails the call: no rootof is printed.
// The same holds for the floats of giac's numeric fallback (redsym9):
// x**5 - x + y = 1; y = 0 gave y = 3.55e-14 beside each float x, a
// residue for the exact 0 that y = 0 states; it is 0 now. A float
// component left near 0 (below 1e-10 of the solution's largest) is a
// residue nothing here can tell from a value: the call fails rather than
// print it.
gen radical_solutions(const gen &eqs, const gen &vars, const gen &r) {
    if (!inexact(r) || eqs.type != _VECT || vars.type != _VECT)
        return r;
    vecteur out;
    for (const gen &s0 : *r._VECTptr) {
        if (s0.type != _VECT) {
            out.push_back(s0);
            continue;
        }
        vecteur sol = *s0._VECTptr;
        for (bool progress = true; progress && inexact(gen(sol));) {
            progress = false;
            for (size_t i = 0; i < sol.size(); i++)
                if (inexact(sol[i])) {
                    gen c = radical_for(*eqs._VECTptr, *vars._VECTptr, sol, i);
                    progress |= !is_undef(c);
                    if (!is_undef(c))
                        sol[i] = c;
                }
        }
        if (holds_op(gen(sol), at_rootof))
            fail("validation", "this system is not linear, and some of its solutions are algebraic "
                               "numbers the CAS can write only as rootof(...), not in radicals: "
                               "eliminate variables and solve the remaining equation in one "
                               "variable with solve_expression");
        if (residue_left(sol))
            fail("validation", "the CAS solved this system only numerically, and a component of a "
                               "solution came out near 0 (a value or a rounding residue, which the "
                               "numbers cannot tell apart): eliminate variables and solve the "
                               "remaining equation in one variable with solve_expression");
        out.push_back(gen(sol, s0.subtype));
    }
    return gen(out, r.subtype);
}

// ---- every solution of a polynomial system (redsym10) ----------------------
//
// giac's system solve dropped roots: x**5 - 2*x + y = 1; y = 1 answered
// only {x: 0, y: 1} (x**4 = 2 has four more), and x**5 + x*y = 1; y = 1 was
// refused (roots of x**3 + x**2 - 1 only as rootof). For a system of
// polynomials with numeric coefficients whose solutions are finitely many,
// their number is that of the distinct values of a separating linear form
// t = x + 5*y + ... (the roots of the squarefree part of the polynomial in
// t alone of a lexicographic Groebner basis). When giac's answer is short
// of that count, or giac fails, the solutions are rebuilt: each variable's
// values are the roots of its own eliminant, solved per irreducible factor
// (radicals where the CAS has them, else 40-digit numeric roots), and the
// tuples of them that satisfy every equation at 40 digits are the
// solutions, kept only when they are exactly as many as the count says.

// The numerators of eqs when each equation is a polynomial in vars with
// numeric coefficients over a constant denominator; false otherwise.
bool numeric_polynomials(const vecteur &eqs, const vecteur &vars, vecteur &nums) {
    for (const gen &e : eqs) {
        gen n = normal(e, g_ctx);
        gen num = _numer(n, g_ctx), den = _denom(n, g_ctx);
        if (!lvar(den).empty())
            return false;
        for (const gen &k : lvar(num))
            if (std::find(vars.begin(), vars.end(), k) == vars.end())
                return false;
        if (!is_zero(num))
            nums.push_back(num);
    }
    return !nums.empty();
}

gen plex_basis(const vecteur &polys, const vecteur &order) {
    gen o(_PLEX_ORDER);
    o.subtype = _INT_GROEBNER;
    return call(at_gbasis, makesequence(gen(polys, 0), gen(order, 0), o));
}

// true when the basis is [1]: no solution
bool unit_basis(const gen &b) {
    if (b.type != _VECT)
        return false;
    for (const gen &p : *b._VECTptr)
        if (!is_zero(p) && lvar(p).empty())
            return true;
    return false;
}

// The squarefree part of the polynomial of basis b in x alone; 0 when the
// basis has none (infinitely many solutions, or no basis).
gen eliminant(const gen &b, const gen &x) {
    if (b.type != _VECT)
        return 0;
    for (const gen &p : *b._VECTptr) {
        vecteur k = lvar(p);
        if (k.size() == 1 && k[0] == x) {
            gen g = call(at_gcd, makesequence(p, derive(p, x, g_ctx)));
            return normal(p / g, g_ctx);
        }
    }
    return 0;
}

long degree_in(const gen &p, const gen &x) {
    gen d = _degree(makesequence(p, x), g_ctx);
    return d.type == _INT_ ? d.val : -1;
}

// The number of solutions of the polynomials nums in vars: 0 when none,
// -1 when they are infinitely many or the count fails.
long solution_count(const vecteur &nums, const vecteur &vars) {
    static const int coef[] = {1, 5, 11, 23, 37, 53, 71, 97};
    gen t(identificateur("cc_sep_t"));
    gen form = t;
    for (size_t i = 0; i < vars.size(); i++)
        form = form - coef[i % 8] * vars[i];
    vecteur polys = nums, order = vars;
    polys.push_back(form);
    order.push_back(t);
    gen b = plex_basis(polys, order);
    if (unit_basis(b))
        return 0;
    gen p = eliminant(b, t);
    return is_zero(p) ? -1 : degree_in(p, t);
}

// The roots of the polynomial p in x, per irreducible factor: giac's
// closed forms when it gives all of a factor's, else (numeric) its roots at
// 40 digits (*approx set). numeric false is the solver's word alone: all
// of a factor's roots as giac's solve gives them, closed forms or its own
// 15-digit floats, and no 40-digit fallback. false when a factor's roots
// cannot all be found.
bool eliminant_roots(const gen &p, const gen &x, vecteur &out, bool *approx, bool numeric) {
    gen fs = _factors(p, g_ctx);
    if (fs.type != _VECT || fs._VECTptr->size() % 2)
        return false;
    for (size_t i = 0; i < fs._VECTptr->size(); i += 2) {
        const gen &f = (*fs._VECTptr)[i];
        long d = degree_in(f, x);
        if (d < 1)
            continue;
        if (d > 60)
            return false;
        gen r = with_complex([](const gen &a) { return call(at_solve, a); }, makesequence(f, x));
        if (r.type == _VECT && (long)r._VECTptr->size() == d && (!numeric || !inexact(r))) {
            for (const gen &c : *r._VECTptr)
                out.push_back(c);
            continue;
        }
        if (!numeric)
            return false;
        r = call(at_proot, makesequence(f, gen(40)));
        if (r.type != _VECT || (long)r._VECTptr->size() != d)
            return false;
        for (const gen &c : *r._VECTptr)
            out.push_back(c);
        *approx = true;
    }
    return true;
}

// |p| at the point (from -> to) below 1e-25 of its largest term there, at
// 40 digits
bool vanishes_at(const gen &p, const vecteur &from, const vecteur &to) {
    gen e = expand(p, g_ctx);
    vecteur terms(1, e);
    if (e.is_symb_of_sommet(at_plus) && e._SYMBptr->feuille.type == _VECT)
        terms = *e._SYMBptr->feuille._VECTptr;
    gen v = approx(subst(e, from, to, false, g_ctx), 40);
    double re, im, big = 0;
    for (const gen &tm : terms) {
        if (!numeric_parts(approx(subst(tm, from, to, false, g_ctx), 40), re, im))
            return false;
        big = std::max(big, std::hypot(re, im));
    }
    gen m = approx(call(at_abs, v), 40);
    gen lim = approx(gen(big) * gen(1e-25), 40);
    return is_zero(v) || is_greater(lim, m, g_ctx);
}

// The equations among nums whose variables are all among the first k
// of vars and not all among the first k - 1: checked once the k-th is set.
std::vector<vecteur> equations_by_level(const vecteur &nums, const vecteur &vars) {
    std::vector<vecteur> lv(vars.size());
    for (const gen &p : nums) {
        size_t last = 0;
        for (size_t i = 0; i < vars.size(); i++)
            if (mentions(p, vars[i]))
                last = i;
        lv[last].push_back(p);
    }
    return lv;
}

void search_tuples(const std::vector<vecteur> &roots, const std::vector<vecteur> &vals,
                   const std::vector<vecteur> &level, const vecteur &vars, vecteur &pick,
                   vecteur &num, std::vector<vecteur> &out, size_t limit) {
    size_t k = pick.size();
    if (k == vars.size()) {
        out.push_back(pick);
        return;
    }
    vecteur from;
    for (size_t i = 0; i <= k; i++)
        from.push_back(vars[i]);
    for (size_t j = 0; j < roots[k].size() && out.size() <= limit; j++) {
        pick.push_back(roots[k][j]);
        num.push_back(vals[k][j]);
        bool ok = true;
        for (const gen &p : level[k])
            if (!(ok = vanishes_at(p, from, num)))
                break;
        if (ok)
            search_tuples(roots, vals, level, vars, pick, num, out, limit);
        pick.pop_back();
        num.pop_back();
    }
}

// A 40-digit root as the printed float, 15 digits: a multiprecision value
// of 16 digits (a giac double drops the low bits of its mantissa, and
// 0.75487766624669276... printed 0.754877666246692), a part below 1e-30 of
// the other dropped (a real root's rounding residue)
gen float_root(const gen &c) {
    gen a = approx(giac::re(c, g_ctx), 40), b = approx(giac::im(c, g_ctx), 40);
    double ra, ia, rb, ib;
    if (!numeric_parts(a, ra, ia) || !numeric_parts(b, rb, ib))
        return c;
    auto short_real = [](const gen &v) { return checked(call(at_evalf, makesequence(v, gen(16)))); };
    if (std::fabs(rb) <= 1e-30 * std::fabs(ra))
        return short_real(a);
    if (std::fabs(ra) <= 1e-30 * std::fabs(rb))
        return gen(0, 1) * short_real(b);
    return gen(short_real(a), short_real(b));
}

// Every solution of the polynomials nums in vars, which number n (> 0);
// undef when they cannot all be found.
gen polynomial_solutions(const vecteur &nums, const vecteur &vars, long n) {
    std::vector<vecteur> roots(vars.size()), vals(vars.size());
    bool approx_any = false;
    for (size_t i = 0; i < vars.size(); i++) {
        vecteur order;
        for (size_t j = 0; j < vars.size(); j++)
            if (j != i)
                order.push_back(vars[j]);
        order.push_back(vars[i]);
        gen p = eliminant(plex_basis(nums, order), vars[i]);
        bool ap = false;
        if (is_zero(p) || !eliminant_roots(p, vars[i], roots[i], &ap, true))
            return undef;
        approx_any |= ap;
        sort_roots(roots[i]);
        for (const gen &c : roots[i])
            vals[i].push_back(approx(c, 40));
    }
    std::vector<vecteur> found;
    vecteur pick, num;
    search_tuples(roots, vals, equations_by_level(nums, vars), vars, pick, num, found, (size_t)n);
    if ((long)found.size() != n)
        return undef;
    vecteur out;
    for (vecteur &s : found) {
        for (gen &c : s)
            if (inexact(c))
                c = float_root(c);
        out.push_back(gen(s, 0));
    }
    if (approx_any)
        g_note = "numeric roots: some solutions have no closed form the CAS found, so each such "
                 "value is given to about 15 significant digits, checked against every equation";
    return gen(out, 0);
}

// giac's solutions of the system, rebuilt by polynomial_solutions when it
// fails or finds fewer than there are (see above); a short answer that
// cannot be rebuilt is an error, never printed as the answer.
gen solve_mentioned(const gen &eqs, const gen &vars) {
    gen r;
    shim_error first{nullptr, ""};
    bool failed = false;
    try {
        r = with_complex([](const gen &s) { return call(at_solve, s); }, makesequence(eqs, vars));
        if (r.type != _VECT)
            fail("validation", "the solver could not solve this system");
        if (r._VECTptr->empty() && eqs.type == _VECT && vars.type == _VECT)
            r = linear_retry(*eqs._VECTptr, *vars._VECTptr, r);
        if (r._VECTptr->empty() && eqs.type == _VECT && vars.type == _VECT)
            check_empty(*eqs._VECTptr, *vars._VECTptr);
        r = radical_solutions(eqs, vars, r);
    } catch (const shim_error &e) {
        first = e;
        failed = true;
    }
    vecteur nums;
    long n = -1;
    if (eqs.type == _VECT && vars.type == _VECT && vars._VECTptr->size() <= 6 &&
        !linear_system(*eqs._VECTptr, *vars._VECTptr)) {
        try {
            if (numeric_polynomials(*eqs._VECTptr, *vars._VECTptr, nums))
                n = solution_count(nums, *vars._VECTptr);
        } catch (const shim_error &) {
            n = -1;
        } catch (const std::runtime_error &) {
            n = -1;
        }
    }
    long have = failed ? -1 : (long)r._VECTptr->size();
    if (n > 0 && have < n) {
        gen own = undef;
        try {
            own = polynomial_solutions(nums, *vars._VECTptr, n);
        } catch (const shim_error &) {
            own = undef;
        } catch (const std::runtime_error &) {
            own = undef;
        }
        if (!is_undef(own))
            return own;
        if (!failed)
            fail("validation", "the CAS found %ld of the %ld solutions of this polynomial system and "
                               "could not find the others: eliminate variables and solve the "
                               "remaining equation in one variable with solve_expression",
                 have, n);
    }
    if (failed)
        throw first;
    return r;
}

// The user symbols of g as written (the shim's prefix dropped), ", "
// between them
std::string user_symbols(const gen &g) {
    std::string out;
    for (const gen &v : lidnt(g))
        if (v.type == _IDNT && !strncmp(v._IDNTptr->id_name, PREFIX, strlen(PREFIX)))
            out += (out.empty() ? "" : ", ") + std::string(v._IDNTptr->id_name + strlen(PREFIX));
    return out;
}

// A requested variable that no equation mentions is free, and it made the
// solutions infinitely many, so the completeness count (solution_count)
// was skipped: x**5 - 2*x + y = 1; y = 1 for x, y, z kept giac's one
// solution of five, and x**5 + x*y = 1; y = 1 for x, y, z was refused with
// the rootof error the count's rebuild had removed for x, y (redsym11).
// The system is solved in the variables it mentions; each free one comes
// back as itself, which report() lists as unsolved. An equation that
// mentions no variable but other symbols is a condition on those: x + y =
// 1 for z answered [] ("inconsistent") though every z solves it where x +
// y = 1; the call now fails saying so.
gen solve_system_as_given(const gen &eqs, const gen &vars) {
    if (eqs.type != _VECT || vars.type != _VECT)
        return solve_mentioned(eqs, vars);
    const vecteur &ev = *eqs._VECTptr, &vv = *vars._VECTptr;
    for (size_t i = 0; i < ev.size(); i++) {
        bool any = false;
        for (const gen &v : vv)
            any = any || mentions(ev[i], v);
        std::string syms = any ? "" : user_symbols(ev[i]);
        if (!syms.empty())
            fail("validation", "equation %zu mentions none of the variables to solve for, only %s: "
                               "it is a condition on %s, and the system has solutions only where it "
                               "holds; list %s among the variables, or substitute a value",
                 i + 1, syms.c_str(), syms.c_str(), syms.c_str());
    }
    vecteur used;
    for (const gen &v : vv) {
        bool any = false;
        for (const gen &e : ev)
            any = any || mentions(e, v);
        if (any)
            used.push_back(v);
    }
    if (used.empty() || used.size() == vv.size())
        return solve_mentioned(eqs, vars);
    gen r = solve_mentioned(eqs, gen(used, 0));
    if (r.type != _VECT)
        return r;
    vecteur out;
    for (const gen &sol : *r._VECTptr) {
        if (sol.type != _VECT || sol._VECTptr->size() != used.size())
            return solve_mentioned(eqs, vars); // a shape not met: as before
        vecteur full;
        size_t j = 0;
        for (const gen &v : vv) {
            bool in = std::find(used.begin(), used.end(), v) != used.end();
            full.push_back(in ? (*sol._VECTptr)[j++] : v);
        }
        out.push_back(gen(full, 0));
    }
    return gen(out, r.subtype);
}

// A system with no solution for the variables asked, but other symbols in
// it, may be one whose equations also fix those: x + y = 10; x - y = 2 for
// x alone answered [] (no x works for every y), and an agent wanting x = 6
// read "inconsistent". When the system solved for the variables and the
// other symbols together has a solution, the call fails saying so, naming
// them; a system inconsistent either way keeps its [].
gen solve_system(const gen &eqs, const gen &vars) {
    gen r = solve_system_as_given(eqs, vars);
    if (r.type != _VECT || !r._VECTptr->empty() || eqs.type != _VECT || vars.type != _VECT)
        return r;
    vecteur all = *vars._VECTptr;
    std::string names;
    for (const gen &v : lidnt(eqs)) {
        bool listed = false;
        for (const gen &w : *vars._VECTptr)
            listed = listed || v == w;
        if (listed || v.type != _IDNT || strncmp(v._IDNTptr->id_name, PREFIX, strlen(PREFIX)))
            continue;
        all.push_back(v);
        names += (names.empty() ? "" : ", ") + user_name(v);
    }
    if (names.empty())
        return r;
    gen wider;
    try {
        wider = solve_system_as_given(eqs, gen(all, 0));
    } catch (...) {
        return r;
    }
    if (wider.type != _VECT || wider._VECTptr->empty())
        return r;
    fail("validation", "no value of the variables solves this system for every value of %s (taken as "
                       "parameters), but the system also determines %s: solved together with %s it has "
                       "%zu solution(s); list %s among the variables",
         names.c_str(), names.c_str(), names.c_str(), wider._VECTptr->size(), names.c_str());
}

gen apply(cc_giac_op op, cc_gexpr *const *a, size_t n) {
    static const size_t arity[] = {1, 1, 1, 2, 2, 3, 2, 1, 1, 1, 1, 1, 1, 2, 3, 2, 2, 2};
    if ((size_t)op >= sizeof arity / sizeof arity[0] || n != arity[op])
        fail("internal", "giac shim: bad arity for op %d", (int)op);
    for (size_t i = 0; i < n; i++)
        if (!a[i])
            fail("internal", "giac shim: null argument");
    const gen &x = a[0]->g;
    switch (op) {
    case CC_G_SIMPLIFY: return checked(_simplify(x, g_ctx));
    case CC_G_FACTOR: return checked(_factor(x, g_ctx));
    case CC_G_EXPAND: return checked(expand(x, g_ctx));
    case CC_G_SUB: return x - a[1]->g;
    case CC_G_SOLVE: return with_complex(solve_one, makesequence(x, a[1]->g));
    case CC_G_LIMIT: {
        const gen &pt = a[2]->g;
        return limit_of_floats(x, a[1]->g, pt, is_inf(pt) ? 0 : 1);
    }
    case CC_G_SOLVE_SYSTEM: return solve_system(x, a[1]->g);
    case CC_G_DET: need_matrix(x); return checked(_det(x, g_ctx));
    case CC_G_INVERSE: need_matrix(x); return inverse(x);
    case CC_G_EIGENVALUES: {
        need_matrix(x);
        gen r = with_complex(eigen, x);
        if (r.type != _VECT)
            fail("validation", "the CAS could not compute the eigenvalues");
        return gen(*r._VECTptr, 0);
    }
    case CC_G_RANK: need_matrix(x); return checked(_rank(x, g_ctx));
    case CC_G_TRACE: need_matrix(x); return call(at_trace, x);
    case CC_G_TRANSPOSE: need_matrix(x); return checked(_tran(x, g_ctx));
    case CC_G_SOLVE_GENERAL: return general_solutions(makesequence(x, a[1]->g));
    case CC_G_SOLVE_GENERAL_AFTER: return general_solutions_after_solve(makesequence(x, a[1]->g));
    case CC_G_SOLVE_REAL: return solve_one(makesequence(x, a[1]->g));
    case CC_G_SOLVE_EXACTED: {
        gen r = with_complex(solve_one, makesequence(exact_floats(x), a[1]->g));
        vecteur v = *r._VECTptr;
        for (gen &e : v)
            e = float_answer(e);
        return gen(v, 0);
    }
    case CC_G_LIMIT_LEFT: return limit_of_floats(x, a[1]->g, a[2]->g, -1);
    }
    fail("internal", "giac shim: unknown op");
}

std::string decimal(const gen &x) {
    std::ostringstream os;
    os << x;
    return os.str();
}

char *dup_str(const std::string &s) {
    char *p = strdup(s.c_str());
    if (!p)
        fail("resource_exhausted", "expression exhausted the memory ceiling");
    return p;
}

bool is_finite_real(const gen &x) {
    return x.type == _DOUBLE_ || x.type == _REAL || x.type == _INT_ || x.type == _ZINT ||
           x.type == _FRAC;
}

// true when g holds the imaginary unit or a complex number
static bool holds_complex(const gen &g) {
    return any_node(g, [](const gen &e) { return e.type == _CPLX; });
}

// Up to 15 digits a hardware double is enough when evalf yields one; more
// digits always take the multiprecision path, so the double is not computed
// (or computed twice) just to be thrown away.
gen approx(const gen &g, int digits) {
    gen v;
    if (digits <= 15)
        v = evalf(g, 1, g_ctx);
    if (v.type != _DOUBLE_)
        v = checked(call(at_evalf, makesequence(g, gen(digits))));
    // giac's evalf drops an imaginary part below its epsilon relative to
    // the value (1.0e-15*I evaluated to 0.0, and x**2 + 1e-30 = 0 lost its
    // roots to the check): a complex constant that came back real has its
    // imaginary part evaluated on its own
    if ((v.type == _DOUBLE_ || v.type == _REAL) && holds_complex(g) && lidnt(g).empty()) {
        gen vi = checked(call(at_evalf, makesequence(im(g, g_ctx), gen(std::max(digits, 16)))));
        if ((vi.type == _DOUBLE_ || vi.type == _REAL) && !is_exactly_zero(vi))
            v = gen(v, vi);
    }
    return v;
}

// Runs body, converting every exception into *err. Returns ok.
template <class F> bool guarded(cc_sym_err *err, F body) {
    struct phase { // every shim entry point is giac time
        sym_phase prev = sym_prof_enter(SYM_PH_GIAC);
        ~phase() { sym_prof_leave(prev); }
    } in_giac;
    try {
        body();
        return true;
    } catch (const shim_error &e) {
        set_err(err, e.code, e.msg);
    } catch (const std::bad_alloc &) {
        set_err(err, "resource_exhausted", "expression exhausted the memory ceiling");
    } catch (const std::exception &e) {
        set_err(err, "validation", std::string("the CAS failed: ") + e.what());
        if (err)
            err->declined = true;
    } catch (...) {
        set_err(err, "internal", "the CAS failed with an unknown exception");
    }
    return false;
}

cc_gexpr *wrap(cc_sym_err *err, const gen &g) {
    cc_gexpr *r = nullptr;
    guarded(err, [&] { r = new cc_gexpr{g}; });
    return r;
}

// The first call of each giac algorithm pays for page faults on its code
// and lazy symbol binding (several ms each under a VM); touching the paths
// every simplify_expression request takes (simplify, factor, expand, and
// the printing of their results) moves that cost before the worker says
// hello, where it overlaps the client's handshake.
void warm_up() {
    gen x = user_symbol("x");
    gen p = pow(x, 2, g_ctx) - 1;
    gen forms[] = {_simplify(p, g_ctx), _factor(p, g_ctx), expand(p * (x + 1), g_ctx)};
    for (const gen &f : forms)
        sym_free(sym_normalize(to_tree(f)));
}

bool ready(cc_sym_err *err) {
    if (g_ctx)
        return true;
    return cc_giac_init(err) == 0;
}

std::vector<gen> g_assumed;
// the symbols among them assumed integer (giac's assume(n, integer) does not
// reduce floor(n) to n; integer_rounding() does)
std::vector<gen> g_integers;

// A type constant as giac's parser makes it for `integer` (DOM_INT): the
// type number with subtype _INT_TYPE. (gen(a, b) would be the complex
// number a + b*i: assume(n, 2 + i) throws, and the assumption was lost.)
gen type_constant(int type) {
    gen t(type);
    t.subtype = _INT_TYPE;
    return t;
}

gen domain_fact(const gen &x, cc_num_dom d) {
    switch (d) {
    case CC_DOM_POSITIVE: return symb_superieur_strict(x, 0);
    case CC_DOM_NONNEG: return symb_superieur_egal(x, 0);
    case CC_DOM_INTEGER: return makesequence(x, type_constant(_ZINT));
    default: return makesequence(x, type_constant(_DOUBLE_));
    }
}

// exp(a)*exp(b)*c -> exp(a + b)*c and exp(a)/exp(b) -> exp(a - b),
// bottom-up (giac keeps the factors apart); both hold for every complex a, b.
gen combine_exp(const gen &g) {
    return map_tree(g, [](const unary_function_ptr &f, const gen &args) -> gen {
        if (f != at_prod || args.type != _VECT)
            return symbolic(f, args);
        gen arg(0), rest(1);
        int n = 0;
        for (const gen &t : *args._VECTptr) {
            if (t.is_symb_of_sommet(at_exp)) {
                arg = arg + t._SYMBptr->feuille;
                n++;
            } else if (t.is_symb_of_sommet(at_inv) &&
                       t._SYMBptr->feuille.is_symb_of_sommet(at_exp)) {
                arg = arg - t._SYMBptr->feuille._SYMBptr->feuille;
                n++;
            } else {
                rest = rest * t;
            }
        }
        return n < 2 ? symbolic(f, args) : rest * symbolic(at_exp, arg);
    });
}

// true when g takes integer values only, given the symbols assumed integer:
// integers, those symbols, floor/ceiling of anything, and sums, products and
// non-negative integer powers of such values.
bool integer_valued(const gen &g) {
    if (g.type == _INT_ || g.type == _ZINT)
        return true;
    if (g.type == _IDNT)
        return std::find(g_integers.begin(), g_integers.end(), g) != g_integers.end();
    if (g.type != _SYMB)
        return false;
    const gen &a = g._SYMBptr->feuille;
    if (g.is_symb_of_sommet(at_floor) || g.is_symb_of_sommet(at_ceil))
        return true;
    if (g.is_symb_of_sommet(at_neg))
        return integer_valued(a);
    if (g.is_symb_of_sommet(at_pow))
        return a.type == _VECT && a._VECTptr->size() == 2 && integer_valued((*a._VECTptr)[0]) &&
               (*a._VECTptr)[1].type == _INT_ && (*a._VECTptr)[1].val >= 0;
    if (!g.is_symb_of_sommet(at_plus) && !g.is_symb_of_sommet(at_prod))
        return false;
    if (a.type != _VECT)
        return integer_valued(a);
    for (const gen &t : *a._VECTptr)
        if (!integer_valued(t))
            return false;
    return true;
}

// floor(m + u) -> m + floor(u) and likewise ceiling, for an integer-valued
// m (floor(n) = n, floor(n + 1/2) = n for an integer n); true for every u,
// real or complex (floor acts on each part).
gen integer_rounding(const gen &g) {
    if (g_integers.empty())
        return g;
    gen r = map_tree(g, [](const unary_function_ptr &f, const gen &args) -> gen {
        if ((f != at_floor && f != at_ceil) || args.type == _VECT)
            return symbolic(f, args);
        if (integer_valued(args))
            return args;
        if (!args.is_symb_of_sommet(at_plus) || args._SYMBptr->feuille.type != _VECT)
            return symbolic(f, args);
        gen whole(0), rest(0);
        for (const gen &t : *args._SYMBptr->feuille._VECTptr)
            (integer_valued(t) ? whole : rest) += t;
        return whole + symbolic(f, rest);
    });
    return _simplify(r, g_ctx);
}

// exp(u) -> cosh(u) + sinh(u), then the hyperbolic terms collected:
// (exp(x) - exp(-x))/2 becomes sinh(x) (the rewriting first turns
// hyperbolic functions into exponentials: tanh(x)*cosh(x) becomes sinh(x)).
// Both hold for every complex u; simplify's measure decides whether the
// hyperbolic form is the shorter one.
gen exp_to_hyperbolic(const gen &g) {
    gen h = map_tree(g, [](const unary_function_ptr &f, const gen &args) -> gen {
        if (f == at_exp)
            return call(at_cosh, args) + call(at_sinh, args);
        return symbolic(f, args);
    });
    return call(at_normal, h);
}

// sinh, cosh and tanh of u as the trigonometric functions of I*u, which
// giac keeps as they are (sin(I*x) stays sin(I*x)): its trigonometric
// rewritings then find the hyperbolic identities it has no rewriting for
// (tcollect: 2*sinh(x)*cosh(x) is sinh(2*x); simplify: sinh(x)/cosh(x) is
// tanh(x)). Each identity holds for every complex u.
gen hyperbolic_to_trig(const gen &g) {
    return map_tree(g, [](const unary_function_ptr &f, const gen &args) -> gen {
        if (args.type == _VECT)
            return symbolic(f, args);
        if (f == at_sinh)
            return -cst_i * call(at_sin, cst_i * args);
        if (f == at_cosh)
            return call(at_cos, cst_i * args);
        if (f == at_tanh)
            return -cst_i * call(at_tan, cst_i * args);
        return symbolic(f, args);
    });
}

// The way back: sin, cos and tan of an argument that is I times an
// expression free of I become I*sinh, cosh and I*tanh of that expression;
// any other trigonometric call stays as it is.
gen trig_to_hyperbolic(const gen &g) {
    gen h = map_tree(g, [](const unary_function_ptr &f, const gen &args) -> gen {
        if (args.type == _VECT || (f != at_sin && f != at_cos && f != at_tan))
            return symbolic(f, args);
        gen b = call(at_normal, -cst_i * args);
        if (has_i(b))
            return symbolic(f, args);
        if (f == at_cos)
            return call(at_cosh, b);
        return cst_i * call(f == at_sin ? at_sinh : at_tanh, b);
    });
    return call(at_normal, h);
}

// giac's simplify of each term of a sum on its own: on the whole sum it
// leaves a quotient that a term alone turns into tan (the trigonometric
// form of sinh(y)/cosh(y) + cosh(x)).
gen simplify_terms(const gen &g) {
    if (!g.is_symb_of_sommet(at_plus) || g._SYMBptr->feuille.type != _VECT)
        return _simplify(g, g_ctx);
    gen sum(0);
    for (const gen &t : *g._SYMBptr->feuille._VECTptr)
        sum += _simplify(t, g_ctx);
    return sum;
}

// The nodes of g's tree: a size to choose between forms of one term
long tree_size(const gen &g) {
    if (g.type == _SYMB)
        return 1 + tree_size(g._SYMBptr->feuille);
    if (g.type == _VECT) {
        long n = 0;
        for (const gen &e : *g._VECTptr)
            n += tree_size(e);
        return n;
    }
    if (g.type == _CPLX)
        return 3;
    return 1;
}

// Each term of a sum on its own (redsym9): the smallest of the term and
// its forms by simplify, simplify of the trigonometric form (sinh(x)/
// cosh(x) is tanh(x)), simplify of the exponential form turned back
// (sinh(2*x)/sinh(x) is exp(x) + exp(-x), 2*cosh(x)) and simplify of the
// expanded form (texpand). giac's simplify of the whole sum left
// sinh(x)/cosh(x) - sinh(x)*sinh(y) and sinh(2*x)/sinh(x) as they were.
// Each form is an identity for every complex value; simplify's measure
// still decides against the input.
// exponentials back to hyperbolic functions: exp(u)**k as exp(k*u),
// products of exponentials combined, then exp_to_hyperbolic (giac's
// simplify of the trigonometric form of sinh(2*x)/sinh(x) is
// exp(-x)**2*exp(x) + exp(x), which is 2*cosh(x))
gen exp_back_to_hyperbolic(const gen &g) {
    gen h = map_tree(g, [](const unary_function_ptr &f, const gen &args) -> gen {
        if (f == at_pow && args.type == _VECT && args._VECTptr->size() == 2 &&
            (*args._VECTptr)[0].is_symb_of_sommet(at_exp) && is_integer((*args._VECTptr)[1]))
            return call(at_exp, (*args._VECTptr)[1] * (*args._VECTptr)[0]._SYMBptr->feuille);
        return symbolic(f, args);
    });
    return exp_to_hyperbolic(combine_exp(h));
}

gen smallest_terms(const gen &g) {
    vecteur terms = g.is_symb_of_sommet(at_plus) && g._SYMBptr->feuille.type == _VECT
                        ? *g._SYMBptr->feuille._VECTptr
                        : vecteur(1, g);
    gen sum(0);
    for (const gen &t : terms) {
        gen best = t;
        for (int how = 0; how < 4; how++) {
            try {
                gen c = how == 0   ? _simplify(t, g_ctx)
                        : how == 1 ? trig_to_hyperbolic(_simplify(hyperbolic_to_trig(t), g_ctx))
                        : how == 2 ? _simplify(_hyp2exp(t, g_ctx), g_ctx)
                                   : _simplify(_texpand(t, g_ctx), g_ctx);
                for (const gen &d : {c, exp_back_to_hyperbolic(c)})
                    if (tree_size(d) < tree_size(best))
                        best = d;
            } catch (...) {
            }
        }
        sum += best;
    }
    return sum;
}

gen rewrite(cc_rw how, const gen &x) {
    switch (how) {
    case CC_RW_NORMAL: return call(at_normal, x);
    case CC_RW_TRIGSIMPLIFY: return _trigsimplify(x, g_ctx);
    case CC_RW_TCOLLECT: return _tcollect(x, g_ctx);
    case CC_RW_TLIN: return _tlin(x, g_ctx);
    case CC_RW_EXP2TRIG: return _simplify(_exp2trig(x, g_ctx), g_ctx);
    case CC_RW_LNCOLLECT: return _lncollect(x, g_ctx);
    case CC_RW_HYP2EXP: return _simplify(_hyp2exp(x, g_ctx), g_ctx);
    case CC_RW_TRIG2EXP: return _simplify(_trig2exp(x, g_ctx), g_ctx);
    case CC_RW_EXPCOLLECT: return combine_exp(x);
    case CC_RW_EXP2HYP: return exp_to_hyperbolic(_hyp2exp(x, g_ctx));
    case CC_RW_INTROUND: return integer_rounding(x);
    case CC_RW_HYPTCOLLECT: return trig_to_hyperbolic(_tcollect(hyperbolic_to_trig(x), g_ctx));
    case CC_RW_HYPSIMPLIFY: return trig_to_hyperbolic(simplify_terms(hyperbolic_to_trig(x)));
    case CC_RW_HYPTERMS: return smallest_terms(x);
    case CC_RW_RATNORMAL: return ratnormal(x, g_ctx);
    case CC_RW_TRIG2EXP_RAT: return ratnormal(_trig2exp(x, g_ctx), g_ctx);
    case CC_RW_COUNT: break;
    }
    fail("internal", "giac shim: unknown rewrite");
}

} // namespace

// ---- C API -----------------------------------------------------------------

// MPFR's default precision as the worker started (53 bits)
static mpfr_prec_t g_default_prec = 53;

extern "C" int cc_giac_init(cc_sym_err *err) {
    if (g_ctx)
        return 0;
    g_default_prec = mpfr_get_default_prec();
    return guarded(err, [] {
               std::cout.rdbuf(g_null);
               std::cerr.rdbuf(g_null);
               g_ctx = new context;
               complex_mode(false, g_ctx);
               warm_up();
           })
               ? 0
               : -1;
}

namespace {
void forget_stale_assumptions();
}

extern "C" cc_gexpr *cc_giac_from_ast(const cc_node *root, cc_sym_err *err) {
    if (!root || !ready(err))
        return nullptr;
    g_note.clear();
    cc_gexpr *r = nullptr;
    // every input is read in the real mode the context starts in, whatever
    // an earlier step left behind
    complex_mode(false, g_ctx);
    forget_stale_assumptions();
    // giac's integrate over an infinite range raised MPFR's default
    // precision to 100 bits and left it so: every later float literal was
    // printed with 25 digits (x + sin(0.5) -> x + 0.4794255386042030002732879)
    if (mpfr_get_default_prec() != g_default_prec)
        mpfr_set_default_prec(g_default_prec);
    guarded(err, [&] { r = new cc_gexpr{from_node(root)}; });
    return r;
}

extern "C" cc_gexpr *cc_giac_int(const mpz_t v, cc_sym_err *err) {
    if (!ready(err))
        return nullptr;
    cc_gexpr *r = nullptr;
    guarded(err, [&] { r = new cc_gexpr{integer(v)}; });
    return r;
}

extern "C" cc_gexpr *cc_giac_float(double d, cc_sym_err *err) {
    return ready(err) ? wrap(err, real53(d)) : nullptr;
}

extern "C" cc_gexpr *cc_giac_rational(const mpq_t q, cc_sym_err *err) {
    if (!ready(err))
        return nullptr;
    cc_gexpr *r = nullptr;
    guarded(err, [&] {
        gen num = integer(mpq_numref(q)), den = integer(mpq_denref(q));
        r = new cc_gexpr{is_one(den) ? num : num / den};
    });
    return r;
}

extern "C" cc_gexpr *cc_giac_symbol(const char *name, cc_sym_err *err) {
    if (!ready(err))
        return nullptr;
    cc_gexpr *r = nullptr;
    guarded(err, [&] { r = new cc_gexpr{user_symbol(name)}; });
    return r;
}

extern "C" cc_gexpr *cc_giac_infinity(cc_sym_err *err) {
    return ready(err) ? wrap(err, plus_inf) : nullptr;
}

extern "C" cc_gexpr *cc_giac_list(cc_gexpr *const *items, size_t n, cc_sym_err *err) {
    if (!ready(err))
        return nullptr;
    cc_gexpr *r = nullptr;
    guarded(err, [&] {
        vecteur v;
        for (size_t i = 0; i < n; i++)
            v.push_back(items[i]->g);
        r = new cc_gexpr{gen(v, 0)};
    });
    return r;
}

extern "C" cc_gexpr *cc_giac_matrix(cc_gexpr *const *e, size_t rows, size_t cols,
                                   cc_sym_err *err) {
    if (!ready(err))
        return nullptr;
    cc_gexpr *r = nullptr;
    guarded(err, [&] {
        vecteur m;
        for (size_t i = 0; i < rows; i++) {
            vecteur row;
            for (size_t j = 0; j < cols; j++)
                row.push_back(e[i * cols + j]->g);
            m.push_back(gen(row, 0));
        }
        r = new cc_gexpr{gen(m, _MATRIX__VECT)};
    });
    return r;
}

extern "C" void cc_gexpr_free(cc_gexpr *g) { delete g; }

extern "C" cc_gexpr *cc_giac_apply(cc_giac_op op, cc_gexpr *const *args, size_t n,
                                  cc_sym_err *err) {
    if (!ready(err))
        return nullptr;
    cc_gexpr *r = nullptr;
    guarded(err, [&] { r = new cc_gexpr{apply(op, args, n)}; });
    return r;
}

extern "C" long cc_giac_len(const cc_gexpr *g) {
    return g && g->g.type == _VECT ? (long)g->g._VECTptr->size() : -1;
}

extern "C" cc_gexpr *cc_giac_item(const cc_gexpr *g, size_t i, cc_sym_err *err) {
    if (cc_giac_len(g) < 0 || i >= (size_t)cc_giac_len(g)) {
        set_err(err, "internal", "giac shim: item index out of range");
        return nullptr;
    }
    return wrap(err, (*g->g._VECTptr)[i]);
}

extern "C" bool cc_giac_is_zero(const cc_gexpr *g) {
    bool z = false;
    // exactly: giac's is_zero() calls a float below its epsilon zero, which
    // would make x**2 and x**2 + 1e-40 "identical"
    guarded(nullptr, [&] { z = is_exactly_zero(_simplify(g->g, g_ctx)); });
    return z;
}

extern "C" bool cc_giac_is_literal_zero(const cc_gexpr *g) {
    bool z = false;
    guarded(nullptr, [&] { z = is_exactly_zero(g->g); });
    return z;
}

extern "C" bool cc_giac_same(const cc_gexpr *a, const cc_gexpr *b) {
    bool same = false;
    guarded(nullptr, [&] { same = a->g == b->g; });
    return same;
}

extern "C" bool cc_giac_is_symbol(const cc_gexpr *g, const char *name) {
    return g->g.type == _IDNT && !strncmp(g->g._IDNTptr->id_name, PREFIX, strlen(PREFIX)) &&
           !strcmp(g->g._IDNTptr->id_name + strlen(PREFIX), name);
}

extern "C" bool cc_giac_is_number(const cc_gexpr *g) {
    bool ok = false;
    guarded(nullptr, [&] {
        if (has_user_symbol(g->g))
            return;
        gen v = evalf(g->g, 1, g_ctx);
        ok = is_finite_real(v) ||
             (v.type == _CPLX && is_finite_real(v._CPLXptr[0]) && is_finite_real(v._CPLXptr[1]));
    });
    return ok;
}

extern "C" sym_node *cc_giac_tree(const cc_gexpr *g, cc_sym_err *err) {
    sym_node *r = nullptr;
    guarded(err, [&] { r = need(sym_normalize(to_tree(g->g))); });
    return r;
}

namespace {
// A part of cc_giac_approx's value in decimals. A double printed by giac
// shows 12 digits, so asked for 40 or more (solve_expression's root check
// asks 50) it is printed with all 17 of its own: the check read the root
// -1.38879198440725 of the expanded (x**2 + x + 1)*(x**4 + 1)**2*(x**5 -
// 3*x + 1) as -1.38879198441, where the residual (f' is 535) failed the
// 1e-9 test, and dropped it: 10 roots of 11 said to be all (redsym11).
// Fewer digits asked keep giac's print (the values printed as floats).
std::string approx_part(const gen &p, int digits) {
    if (p.type != _DOUBLE_ || digits < 40)
        return decimal(p);
    char buf[40];
    snprintf(buf, sizeof buf, "%.17g", p._DOUBLE_val);
    return buf;
}
} // namespace

namespace {
// f (of x alone) at t in binary64, valued by giac; false when it is no
// finite real number.
bool real_at(const gen &f, const gen &x, double t, double &out) {
    return real_value(subst(f, x, gen(t), false, g_ctx), out);
}

// o (a positive binary64) as the exact binary fraction it is.
gen exact_double(double o) {
    int ex;
    double m = std::frexp(o, &ex);
    return gen((long long)std::ldexp(m, 53)) * giac::pow(gen(2), gen(ex - 53), g_ctx);
}

// The tanh-sinh quadrature of f over the finite (a, b) (ga, gb as given),
// its step halved down to 2**-7 until two steps agree to 1e-11 of max(1,
// |q|); false when they never do or a value is no finite real. Its nodes
// crowd the ends doubly exponentially, so an integrable end singularity
// costs it no digits; a node within 1e-6 of an end is the end plus an
// exact offset, valued at 30 digits (in binary64 1 - 1e-17 is 1, and the
// nodes there carry 1/sqrt(1 - x)'s weight).
bool tanh_sinh(const gen &f, const gen &x, const gen &ga, const gen &gb, double a, double b, double &q) {
    const double d = (b - a) / 2, tmax = 3.5;
    double sum = 0, prev = NAN;
    // a check, not the answer: an integrand too costly to value some 900
    // times in 2 s goes unchecked rather than push the call past its limit
    auto start = std::chrono::steady_clock::now();
    for (int level = 0; level <= 7; level++) {
        if (std::chrono::steady_clock::now() - start > std::chrono::seconds(2))
            return false;
        double h = std::ldexp(1.0, -level);
        // each level adds the odd multiples of h (all of them at level 0)
        for (double t = level ? h : 0; t <= tmax; t += level ? 2 * h : h) {
            double u = M_PI / 2 * std::sinh(t), e = 2 / (1 + std::exp(2 * u));
            double w = M_PI / 2 * std::cosh(t) * e * (2 - e); // d(tanh u)/dt
            for (int side : {1, -1}) {
                if ((t == 0 && side == -1) || w == 0 || d * e == 0)
                    continue;
                double v;
                if (d * e < 1e-6 * d) {
                    gen pt = side == 1 ? gb - exact_double(d * e) : ga + exact_double(d * e);
                    gen r = evalf_double(approx(subst(f, x, pt, false, g_ctx), 30), 1, g_ctx);
                    if (r.type != _DOUBLE_ || !std::isfinite(r._DOUBLE_val))
                        return false;
                    v = r._DOUBLE_val;
                } else if (!real_at(f, x, side == 1 ? b - d * e : a + d * e, v)) {
                    return false;
                }
                sum += w * v;
            }
        }
        q = d * h * sum;
        if (level >= 3 && std::fabs(q - prev) <= 1e-11 * std::max(1.0, std::fabs(q)))
            return true;
        prev = q;
    }
    return false;
}

// A float value r giac's integrate gave for f over the finite (a, b) is
// its numeric quadrature, flagged "about 15 significant digits": for
// log(1 + x**2)*cos(x)**2 over (-3, -1) it was 1.35912350256044 (it is
// 1.35912352148104). It stands only when a converged tanh-sinh quadrature
// agrees to 1e-9 of max(1, |q|); otherwise it is refused.
void float_integral_check(const gen &f, const gen &x, const gen &a, const gen &b, const gen &r) {
    double lo, hi, rv, q = 0;
    if (!float_number(r) || has_user_symbol(r) || !real_value(r, rv) || !real_value(a, lo) ||
        !real_value(b, hi) || lo == hi || !std::isfinite(lo) || !std::isfinite(hi) ||
        holds_op(f, at_floor) || holds_op(f, at_ceil) || holds_op(f, at_sign) || holds_op(f, at_Heaviside))
        return; // a jumping integrand is jump_quadrature_check's
    for (const gen &s : lidnt(f))
        if (s != x && has_user_symbol(s))
            return;
    try {
        bool up = lo < hi;
        if (!tanh_sinh(f, x, up ? a : b, up ? b : a, std::min(lo, hi), std::max(lo, hi), q))
            return;
        if (!up)
            q = -q;
    } catch (...) {
        return;
    }
    if (std::fabs(rv - q) <= 1e-9 * std::max(1.0, std::fabs(q)))
        return;
    fail("validation", "the CAS evaluated this definite integral numerically (%.15g), and a tanh-sinh "
                       "quadrature gives %.15g, so neither is given as its value",
         rv, q);
}

// Each Integral(f, (x, a, b)) left in g, with finite real bounds and no
// symbol but x, is valued by giac's numeric quadrature when g is
// approximated: integrate(sqrt(1 - x)*sqrt(x**2 + 1/2), (x, -2, 1)) came
// out 4.32511002302826 for 4.32511004097105 (an end where the integrand
// has a square root; 12 digits shown, 8 right). giac's value stands only
// when a tanh-sinh quadrature that converges agrees to 1e-9 of max(1,
// |q|); otherwise the value is refused. One that does not converge proves
// nothing.
void check_quadratures(const gen &g) {
    if (g.type == _VECT) {
        for (const gen &e : *g._VECTptr)
            check_quadratures(e);
        return;
    }
    if (g.type != _SYMB)
        return;
    const gen &args = g._SYMBptr->feuille;
    check_quadratures(args);
    if (!g.is_symb_of_sommet(at_integrate) || args.type != _VECT || args._VECTptr->size() != 4)
        return;
    const vecteur &v = *args._VECTptr;
    double lo, hi, q = 0;
    if (v[1].type != _IDNT || !real_value(v[2], lo) || !real_value(v[3], hi) || lo == hi)
        return;
    for (const gen &s : lidnt(v[0]))
        if (s != v[1] && has_user_symbol(s))
            return;
    gen giacs;
    try {
        bool up = lo < hi;
        if (!tanh_sinh(v[0], v[1], up ? v[2] : v[3], up ? v[3] : v[2], std::min(lo, hi), std::max(lo, hi), q))
            return;
        if (lo > hi)
            q = -q;
        giacs = evalf_double(approx(g, 30), 1, g_ctx);
    } catch (...) {
        return;
    }
    if (giacs.type != _DOUBLE_ || std::fabs(giacs._DOUBLE_val - q) <= 1e-9 * std::max(1.0, std::fabs(q)))
        return;
    fail("validation", "the CAS's numeric quadrature of an integral it left unevaluated gave %.15g, "
                       "and a tanh-sinh quadrature gives %.15g, so no value is given",
         giacs._DOUBLE_val, q);
}
} // namespace

extern "C" int cc_giac_approx(const cc_gexpr *g, int digits, char **re, char **im,
                              cc_sym_err *err) {
    *re = *im = nullptr;
    bool ok = guarded(err, [&] {
        check_quadratures(g->g);
        gen v = approx(g->g, digits);
        gen r = v, i = gen(0);
        if (v.type == _CPLX) {
            r = v._CPLXptr[0];
            i = v._CPLXptr[1];
        }
        if (!is_finite_real(r) || !is_finite_real(i))
            fail("validation", "the value is not a finite number");
        *re = dup_str(approx_part(r, digits));
        *im = dup_str(approx_part(i, digits));
    });
    if (!ok) {
        free(*re);
        free(*im);
        *re = *im = nullptr;
    }
    return ok ? 0 : -1;
}

extern "C" int cc_giac_assume(const char *name, cc_num_dom d, cc_sym_err *err) {
    if (!ready(err))
        return -1;
    return guarded(err, [&] {
               gen x = user_symbol(name);
               g_assumed.push_back(x);
               if (d == CC_DOM_INTEGER)
                   g_integers.push_back(x);
               call(at_assume, domain_fact(x, d));
           })
               ? 0
               : -1;
}

namespace {
// giac keeps assumptions in the context's table keyed by the identifier's
// name pointer. Its integrate assumes things of temporary identifiers
// (t >= 0) and frees some before purging them, so their entries stay,
// under a key pointing at freed memory; a later identifier whose name lands
// there inherits the assumption. That made answers depend on earlier
// requests: sqrt(x*y) - sqrt(x)*sqrt(y) printed with Abs(x),
// integrate(sin(x)/x, (x, 0, oo)) answered 0, solve_linear answered [].
// Every assumption but those the current request made (g_assumed) is
// dropped; entries are erased by iterator, their keys never read.
void forget_stale_assumptions() {
    sym_tab *t = g_ctx ? g_ctx->tabptr : nullptr;
    if (!t)
        return;
    for (auto it = t->begin(); it != t->end();) {
        const gen &v = it->second;
        bool assumption = v.type == _VECT && v.subtype == _ASSUME__VECT;
        bool ours = std::any_of(g_assumed.begin(), g_assumed.end(), [&](const gen &x) {
            return x.type == _IDNT && x._IDNTptr->id_name == it->first;
        });
        if (assumption && !ours)
            it = t->erase(it);
        else
            ++it;
    }
}
} // namespace

extern "C" void cc_giac_forget_all(void) {
    for (const gen &x : g_assumed)
        guarded(nullptr, [&] { _purge(x, g_ctx); });
    g_assumed.clear();
    g_integers.clear();
    forget_stale_assumptions();
}

extern "C" size_t cc_giac_assumption_count(void) {
    size_t n = 0;
    if (g_ctx && g_ctx->tabptr)
        for (const auto &kv : *g_ctx->tabptr)
            n += kv.second.type == _VECT && kv.second.subtype == _ASSUME__VECT;
    return n;
}

extern "C" cc_gexpr *cc_giac_rewrite(cc_rw how, const cc_gexpr *g, cc_sym_err *err) {
    if (!ready(err))
        return nullptr;
    cc_gexpr *r = nullptr;
    guarded(err, [&] { r = new cc_gexpr{checked(rewrite(how, g->g))}; });
    return r;
}

// in the order of TOOLS.md 3.3.16: real roots ascending, then the others
extern "C" char *cc_giac_take_family_samples(void) {
    if (g_family_samples.empty())
        return nullptr;
    std::sort(g_family_samples.begin(), g_family_samples.end(), [](const family_root &a, const family_root &b) {
        if (a.real != b.real)
            return a.real;
        return a.re != b.re ? a.re < b.re : a.im < b.im;
    });
    std::string out;
    for (const family_root &f : g_family_samples)
        out += (out.empty() ? "" : "\n") + f.text;
    g_family_samples.clear();
    return strdup(out.c_str());
}

extern "C" char *cc_giac_take_family_note(void) {
    if (g_family_note.empty())
        return nullptr;
    char *r = strdup(g_family_note.c_str());
    g_family_note.clear();
    return r;
}

extern "C" char *cc_giac_take_note(void) {
    if (g_note.empty())
        return nullptr;
    char *r = strdup(g_note.c_str());
    g_note.clear();
    return r;
}
