/* Regression: limit(...) inside evaluate_expression printed giac's
 * placeholder as the answer: limit(sin(1/x), x, 0) was
 * "bounded_function(2)" with ok true (SymPy: AccumBounds(-1, 1); no
 * limit). It is nan with a note, as an undefined limit (limit(x*sin(x),
 * x, oo)) already was; limit_expression says "does not exist". */
#include "tests/unit/check.h"
#include "tests/unit/sym_eval.h"

static void oscillation_is_nan_with_note(void) {
    static const char *const in[] = {"limit(sin(1/x), x, 0)", "limit(sin(x), x, oo)",
                                     "limit(cos(1/x)**2, x, 0)"};
    for (size_t i = 0; i < sizeof in / sizeof *in; i++) {
        json_t *r = sym_eval(in[i]);
        const char *got = sym_str(r, "expression"), *note = sym_str(r, "note");
        if (!got || strcmp(got, "nan") || !note)
            fprintf(stderr, "  %s: got %s (%s)\n", in[i], got ? got : "(none)", note ? note : "");
        CHECK_STREQ(got, "nan");
        CHECK(note && strstr(note, "oscillates") != NULL);
        json_decref(r);
    }
}

static void limits_unchanged(void) {
    sym_expect("limit(x*sin(1/x), x, 0)", "0");
    sym_expect("limit(sin(x)/x, x, 0)", "1");
    sym_expect("limit(1/x, x, 0)", "oo");
}

int main(void) {
    cc_symbolic_warmup();
    RUN(oscillation_is_nan_with_note);
    RUN(limits_unchanged);
    return check_summary("sym_limit_call_oscillation");
}
