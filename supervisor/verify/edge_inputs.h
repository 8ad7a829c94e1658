/* Typed edge inputs for verify_translation and compare_edge_cases
 * (docs/contract.md, "Verification red team 3"). The seven default inputs
 * never reach the values where ports usually differ: negative odd
 * division, negative zero, integers past 2^31, 2^53 and 2^63, float
 * printing and NaN, non-ASCII and astral strings, case mapping, CRLF,
 * empty lists. When the caller gives no inputs, or fewer than seven, the
 * tool adds the edge values of the kinds of input it was given (all kinds
 * for the defaults), each case saying which edge it probes. */
#ifndef CC_VERIFY_EDGE_INPUTS_H
#define CC_VERIFY_EDGE_INPUTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Fewer caller inputs than this are "few": edges are added. */
#define CC_EDGE_FEW 7
/* Seconds an added edge input may run: the tools' own per-run timeout.
 * 4 s, then 10 s were tried so that a program looping n times on
 * n = 2^63 would not hold the call long, but eight JVMs in flight on a
 * loaded 2-core host took longer than that to start, and every edge of a
 * java port ran out of time (inconclusive) and caught nothing. */
#define CC_EDGE_TIMEOUT_S 15

/* CC_EDGE_SIZE: small sizes n for verify_optimization's stdin-N programs
 * (never added by the other tools). */
enum cc_edge_kind { CC_EDGE_INT = 1, CC_EDGE_FLOAT = 2, CC_EDGE_STRING = 4, CC_EDGE_LIST = 8, CC_EDGE_SIZE = 16 };

/* The kinds of one input as the edge table reads it (0 for an empty or
 * blank input). */
unsigned cc_edge_kind_of(const char *in, size_t len);

struct cc_edges {
    json_t *inputs;     /* the inputs to run: the given ones, then the added edges (new ref) */
    size_t given;       /* how many of inputs came from the caller (or the defaults) */
    json_t *labels;     /* per added input, what it probes (array of strings, new ref) */
    json_t *probed;     /* the result's edge_inputs object, or NULL when none were added (new ref) */
};

/* From the inputs argument as read (cc_verify_inputs_arg: the defaults
 * when defaulted) and whether edges are wanted (the edge_inputs argument,
 * true unless false). 0, or -1 on OOM. */
int cc_edges_build(struct cc_edges *e, json_t *inputs, bool defaulted, bool wanted);
/* verify_optimization's: the size edges after the inputs, however many
 * were given (0, 1, primes, powers of two and their neighbours, squares,
 * odd n). Its seven defaults and its timing sizes are all even but 1, so
 * a candidate wrong on every odd n from 3 was "verified faster", and
 * seven given inputs turned the sizes off. Only sizes up to max_n (the
 * smallest timing size: a program timed at n runs n, and one timed at 20
 * may never finish 1001). 0, or -1 on OOM. */
int cc_edges_build_sizes(struct cc_edges *e, json_t *inputs, bool defaulted, long long max_n);
/* The label of input i, or NULL when it is one of the given inputs. */
const char *cc_edges_label(const struct cc_edges *e, size_t i);
void cc_edges_free(struct cc_edges *e);
/* Keep at most max inputs (never fewer than the given ones): the added
 * edges beyond are dropped, and the result's count says so. */
void cc_edges_trim(struct cc_edges *e, size_t max);

/* The edge_inputs argument: absent or a boolean; NULL and *err when not. */
bool cc_edges_arg(json_t *args, json_t **err);
/* The inputs argument was absent, null or [] (the defaults stand). */
bool cc_edges_defaulted(json_t *args, const char *key);

#endif
