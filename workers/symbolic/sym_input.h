/* The front half every CAS tool shares: user text -> screened, parsed,
 * shape-checked AST -> giac value, plus the JSON error and printing helpers.
 *
 * Errors come back as a ready rejected-shape object (cc_err), with the
 * per-argument prefix TOOLS.md asks for ("a: ", "expr: ", "entry [0][1]: ")
 * already applied. */
#ifndef CC_SYM_INPUT_H
#define CC_SYM_INPUT_H

#include <jansson.h>
#include <mpc.h>
#include <stdbool.h>
#include <stddef.h>

#include "workers/symbolic/giac_shim.h"
#include "workers/symbolic/sym_tree.h"

/* text[0..len): screen (2.1, 2.2), parse in the symbolic dialect (2.3),
 * shape check (2.4), then build and evaluate. Returns a new handle, or NULL
 * with *err set to a new rejected object. prefix may be "". */
cc_gexpr *sym_input(const char *text, size_t len, const char *prefix, json_t **err);

/* A parsed expression kept with its AST: the AST is what the user wrote,
 * before giac's evaluation rewrote anything (the numeric cross-checks
 * evaluate it). Release with sym_expr_free(). */
struct sym_expr {
    struct cc_arena *arena;
    const struct cc_node *root;
    cc_gexpr *g;
};

/* As sym_input(), keeping the AST. 0, or -1 with *err (e is then empty). */
int sym_input_expr(const char *text, size_t len, const char *prefix, struct sym_expr *e,
                   json_t **err);
void sym_expr_free(struct sym_expr *e);
/* sym_input_expr() in two halves, so that a fast path (sym_fast.h) can
 * answer from the AST before the CAS value is built: the parse alone (e->g
 * stays NULL), then the CAS value of e->root. Each returns 0, or -1 with
 * *err (e is then empty). */
int sym_parse_expr(const char *text, size_t len, const char *prefix, struct sym_expr *e,
                   json_t **err);
int sym_build_expr(struct sym_expr *e, const char *prefix, json_t **err);

/* giac rewrites some inputs as it builds them in a form that holds for real
 * (or positive) values only: sqrt(x**2) becomes Abs(x), log(exp(x)) becomes
 * x. When the built value disagrees numerically with the input as written
 * at complex points (or is undefined where the input has a value), adds
 * out["domain_note"] saying so and returns the input as written as a new
 * tree (sym_free) for the caller to answer with; NULL otherwise, or when
 * the input has no plain arithmetic reading (the note alone then). */
struct sym_node *sym_real_rewrite(const struct sym_expr *e, json_t *out);
/* The same when the caller has e->g printed already (sym_print_str's text,
 * or NULL to print it here): the checks read that text, not a second
 * print of the same value. */
struct sym_node *sym_real_rewrite_printed(const struct sym_expr *e, const char *printed,
                                          json_t *out);

/* true when the printed form text agrees with the input AST at complex
 * points (or neither can be evaluated there) and has a value wherever the
 * input has one (a form with floor(x) is not shown equal by points where
 * it is undefined). An input with no branch cut needs no check: rewriting
 * it algebraically cannot go wrong off the positive reals. */
bool sym_agrees(const struct cc_node *input, const char *text);
/* The same with the input as text; false when it does not parse. */
bool sym_text_agrees(const char *input, const char *text);

/* sym_agrees() of one input, remembered within one call of a tool: its
 * forms often print alike (simplify's x + 1 is also its factored and
 * expanded form), and the check of a text is a function of the input and
 * the text alone (sym_numcheck.h: fixed points, the same 128-bit values),
 * so a text checked once is not checked again. The input must outlive the
 * memo; a memo that is full checks afresh. */
#define SYM_AGREE_MEMO 8
struct sym_agree_memo {
    const struct cc_node *input; /* NULL: agrees with nothing (did not parse) */
    const char *pending;         /* the input as text, not parsed yet (borrowed) */
    struct cc_arena *arena;      /* the input's, when parsed from text here */
    size_t n;
    char *text[SYM_AGREE_MEMO];
    bool ok[SYM_AGREE_MEMO];
};
void sym_agree_memo_init(struct sym_agree_memo *m, const struct cc_node *input);
/* The input as text, parsed at the first check (sym_text_agrees's reading). */
void sym_agree_memo_init_text(struct sym_agree_memo *m, const char *input);
bool sym_agrees_memo(struct sym_agree_memo *m, const char *text);
void sym_agree_memo_clear(struct sym_agree_memo *m);

/* The rejected object for a shim failure (prefix may be ""). New reference. */
json_t *sym_err_json(const struct cc_sym_err *e, const char *prefix);

/* Printed text of g per 2.3 as a new JSON string, or NULL with *err set. */
json_t *sym_print_json(const cc_gexpr *g, json_t **err);
/* Printed items of a CAS list as a new JSON array, or NULL with *err. */
json_t *sym_print_list(const cc_gexpr *list, json_t **err);
/* The same two with floats=true: exact numbers of the value print as floats
 * (sym_to_float), for answers computed exactly from float input. */
json_t *sym_print_json_as(const cc_gexpr *g, bool floats, json_t **err);
json_t *sym_print_list_as(const cc_gexpr *list, bool floats, json_t **err);
/* The tree of g printed as floats (what the _as printers print with
 * floats=true), for callers that assemble their own answer. NULL with *se
 * on failure. */
struct sym_node *sym_float_tree(const cc_gexpr *g, struct cc_sym_err *se);
/* Same as a malloc'd C string. */
char *sym_print_str(const cc_gexpr *g, json_t **err);

/* Reads a string argument: absent -> dflt (may be NULL = required).
 * Returns the string (borrowed from args or dflt), or NULL with *err. */
const char *sym_arg_str(json_t *args, const char *key, const char *dflt, json_t **err);

/* true for an identifier-shaped name (letter first, then letters, digits,
 * '_'); the only names accepted as a variable argument. */
bool sym_valid_name(const char *s);

/* The variable argument key (default "x"), trimmed and checked, as a CAS
 * symbol. *name_out receives the malloc'd trimmed name (caller frees).
 * NULL with *err on failure. */
cc_gexpr *sym_var(json_t *args, const char *key, char **name_out, json_t **err);

/* A trimmed copy of s (malloc'd), NULL on OOM. */
char *sym_trim(const char *s);

/* text (a constant) parsed and evaluated at v's 128 bits; false when it
 * does not parse or has no value. */
bool sym_text_value(const char *text, mpc_t v);

#endif
