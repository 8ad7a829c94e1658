/* Typed edge inputs (see edge_inputs.h). */
#include "supervisor/verify/edge_inputs.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "supervisor/verify/programs.h"

struct edge {
    unsigned kind;              /* the kinds (enum cc_edge_kind bits) it is added for */
    const char *in;
    const char *why;
};

/* Each value is where some pair of languages print differently. */
static const struct edge table[] = {
    {CC_EDGE_INT, "-7", "int: negative odd (floor or truncating division and modulo)"},
    {CC_EDGE_INT, "-0", "int: negative zero (-0 in JavaScript)"},
    {CC_EDGE_INT, "2147483648", "int: 2^31 (past a 32-bit int)"},
    {CC_EDGE_INT, "4294967296", "int: 2^32 (its square passes 2^64)"},
    {CC_EDGE_INT, "9007199254740993", "int: 2^53 + 1 (not exact as a double)"},
    {CC_EDGE_INT, "9223372036854775808", "int: 2^63 (past a 64-bit int)"},
    /* Between the defaults' 100 and 2^31 (red team 5): python's recursion
     * stops at depth 1000, node's and java's near 10^4; 5000! and fib(5000)
     * pass 2^64 long before. Small enough for any loop. */
    {CC_EDGE_INT, "5000", "int: 5000 (deeper than python's recursion limit of 1000; past 20!, where int64 products wrap)"},
    {CC_EDGE_INT, "100000", "int: 100000 (deeper than node's and java's default stacks)"},
    /* The inputs are fed as given ("3"), but a shell or a file ends the
     * line ("3\n"): rust's str::parse and go's strconv.Atoi without a
     * trim fail on it, and a port passed every input (red team 6). */
    {CC_EDGE_INT, "42\n", "int: a number and its line end, as a shell or a file gives stdin (a parse without a trim fails)"},
    {CC_EDGE_FLOAT, "2.5", "float: a half (rounding half to even or away from zero)"},
    {CC_EDGE_FLOAT, "-0.0", "float: negative zero"},
    {CC_EDGE_FLOAT, "1e16", "float: 1e16 (printed 1e+16 or 10000000000000000)"},
    {CC_EDGE_FLOAT, "1e308", "float: near the largest double (overflow to infinity)"},
    {CC_EDGE_FLOAT, "nan", "float: NaN"},
    {CC_EDGE_FLOAT, "inf", "float: infinity"},
    {CC_EDGE_FLOAT, "0.5\n", "float: a number and its line end, as a shell or a file gives stdin (a parse without a trim fails)"},
    {CC_EDGE_STRING, "h\xc3\xa9llo w\xc3\xb6rld", "string: non-ASCII (bytes or characters)"},
    {CC_EDGE_STRING, "\xf0\x9f\x98\x80", "string: an astral character (2 UTF-16 units, 4 bytes)"},
    {CC_EDGE_STRING, "\xef\xbc\x81\xf0\x9f\x98\x80",
     "string: U+FF01 before an astral character (sorted by code point, not by UTF-16 unit)"},
    {CC_EDGE_STRING, "Stra\xc3\x9f" "e", "string: \xc3\x9f (upper-cases to SS, casefolds to ss)"},
    {CC_EDGE_STRING, "\xc4\xb0stanbul", "string: \xc4\xb0 (lower-cases to two code points)"},
    {CC_EDGE_STRING, "  a  b  ", "string: spaces around and between words"},
    {CC_EDGE_STRING, "x\r\n", "string: a CRLF line end"},
    {CC_EDGE_STRING, "b A a B", "string: mixed-case words (code-point order puts upper case first, locale order does not)"},
    /* A python Counter or dict keeps insertion order where a JavaScript
     * object lists integer keys first, in numeric order; python's sorted,
     * JavaScript's and java's sorts are stable, go's sort.Slice past 12
     * elements and C's qsort need not be. Short word lists reached
     * neither (red team 6). */
    {CC_EDGE_STRING, "b 10 a 2 b dd cc 33 a ee ff 4 gg hh",
     "string: 14 words with numbers among them, repeats and ties in length (dict insertion order against a "
     "JavaScript object's integer keys first; a stable sort against go's sort.Slice or C's qsort)"},
    /* Every kind: the defaults have it, the typed edges did not (red team 5). */
    {CC_EDGE_INT | CC_EDGE_FLOAT | CC_EDGE_STRING | CC_EDGE_LIST, "", "empty stdin (end of input before any token)"},
    {CC_EDGE_LIST, "0\n", "list: empty (a count of 0)"},
    {CC_EDGE_LIST, "-7 2", "list: a negative over a positive (floor or truncating division and modulo)"},
    {CC_EDGE_LIST, "7 -2", "list: a positive over a negative (floor or truncating division and modulo)"},
    {CC_EDGE_LIST, "3\n3 -1 3", "list: a negative and a duplicate"},
    {CC_EDGE_LIST, "2\n4294967296 4294967296", "list: values whose sum passes 2^32 and product 2^64"},
    /* Small enough for any loop over n: the classes where a closed form
     * or a shortcut breaks (red team 5): nothing and one element, primes,
     * powers of two and their neighbours, perfect squares, odd n (the
     * defaults and timing sizes are even but 1), a cube past 2^31. */
    {CC_EDGE_SIZE, "0", "size: 0 (nothing to do: an empty range)"},
    {CC_EDGE_SIZE, "1", "size: 1 (one element)"},
    {CC_EDGE_SIZE, "2", "size: 2 (the smallest n above 1)"},
    {CC_EDGE_SIZE, "3", "size: 3 (odd: the defaults and timing sizes are even but 1)"},
    {CC_EDGE_SIZE, "4", "size: 4 (2^2, a perfect square)"},
    {CC_EDGE_SIZE, "5", "size: 5 (an odd prime)"},
    {CC_EDGE_SIZE, "7", "size: 7 (an odd prime)"},
    {CC_EDGE_SIZE, "8", "size: 8 (2^3)"},
    {CC_EDGE_SIZE, "9", "size: 9 (3^2, an odd perfect square)"},
    {CC_EDGE_SIZE, "15", "size: 15 (odd, one below a power of 2)"},
    {CC_EDGE_SIZE, "16", "size: 16 (2^4, a perfect square)"},
    {CC_EDGE_SIZE, "17", "size: 17 (2^4 + 1, a prime)"},
    {CC_EDGE_SIZE, "31", "size: 31 (2^5 - 1, a prime)"},
    {CC_EDGE_SIZE, "32", "size: 32 (2^5)"},
    {CC_EDGE_SIZE, "33", "size: 33 (2^5 + 1)"},
    {CC_EDGE_SIZE, "64", "size: 64 (2^6, a perfect square)"},
    {CC_EDGE_SIZE, "97", "size: 97 (an odd prime near the default 100)"},
    {CC_EDGE_SIZE, "127", "size: 127 (2^7 - 1, a prime)"},
    {CC_EDGE_SIZE, "128", "size: 128 (2^7)"},
    {CC_EDGE_SIZE, "1001", "size: 1001 (odd, past 1000)"},
    {CC_EDGE_SIZE, "1024", "size: 1024 (2^10, a perfect square)"},
    {CC_EDGE_SIZE, "1291", "size: 1291 (its cube passes 2^31)"},
};
#define N_EDGES (sizeof table / sizeof table[0])

static bool is_int_token(const char *s, size_t n) {
    size_t i = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    if (i == n) return false;
    for (; i < n; i++)
        if (!isdigit((unsigned char)s[i])) return false;
    return true;
}

static bool is_float_token(const char *s, size_t n) {
    char buf[64];
    if (n == 0 || n >= sizeof buf) return false;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end = NULL;
    errno = 0;
    (void)strtod(buf, &end);
    return end == buf + n;
}

unsigned cc_edge_kind_of(const char *in, size_t len) {
    size_t tokens = 0, ints = 0, nums = 0, i = 0;
    while (i < len) {
        while (i < len && isspace((unsigned char)in[i])) i++;
        size_t b = i;
        while (i < len && !isspace((unsigned char)in[i])) i++;
        if (i == b) break;
        tokens++;
        if (is_int_token(in + b, i - b)) ints++, nums++;
        else if (is_float_token(in + b, i - b)) nums++;
    }
    if (tokens == 0) return 0;
    if (nums < tokens) return CC_EDGE_STRING;
    if (tokens > 1) return CC_EDGE_LIST;
    return ints ? CC_EDGE_INT : CC_EDGE_FLOAT;
}

static const char *kind_name(unsigned k) {
    return k == CC_EDGE_INT ? "int" : k == CC_EDGE_FLOAT ? "float" : k == CC_EDGE_STRING ? "string"
         : k == CC_EDGE_LIST ? "list" : "size";
}

/* The result's edge_inputs object: what was added and why. */
static json_t *probed_json(unsigned kinds, size_t added, bool defaulted) {
    json_t *names = json_array();
    for (unsigned k = 1; k <= CC_EDGE_SIZE; k <<= 1)
        if (kinds & k) json_array_append_new(names, json_string(kind_name(k)));
    return json_pack("{s:I, s:o, s:s}", "added", (json_int_t)added, "kinds", names, "note",
                     kinds == CC_EDGE_SIZE
                         ? "small sizes n where closed forms and shortcuts break (0, 1, primes, powers of two and "
                           "their neighbours, perfect squares, odd n), up to the smallest timing size, were added "
                           "after the test inputs (cases marked edge): a sampled check, not a proof"
                     : defaulted ? "no test inputs were given: the seven defaults were followed by edge values of "
                                 "every kind (cases marked edge); a mismatch there is a real difference on that "
                                 "input. Pass edge_inputs: false to run only the defaults"
                               : "fewer than 7 test inputs were given: edge values of the kinds given were added "
                                 "after them (cases marked edge; an added input that runs out of time is "
                                 "inconclusive). Pass edge_inputs: false to run only yours");
}

/* Append the edges of kinds that repeat no given input (a size edge only
 * up to max_n). */
static int add_edges(struct cc_edges *e, json_t *inputs, unsigned kinds, bool defaulted, long long max_n) {
    size_t i;
    json_t *v;
    size_t added = 0;
    for (size_t t = 0; t < N_EDGES; t++) {
        if (!(kinds & table[t].kind)) continue;
        if (table[t].kind == CC_EDGE_SIZE && atoll(table[t].in) > max_n) continue;
        bool dup = false;
        json_array_foreach(inputs, i, v) dup = dup || strcmp(json_string_value(v), table[t].in) == 0;
        if (dup || json_array_size(e->inputs) >= CC_VERIFY_INPUTS_MAX) continue;
        json_array_append_new(e->inputs, json_string(table[t].in));
        json_array_append_new(e->labels, json_string(table[t].why));
        added++;
    }
    if (added) e->probed = probed_json(kinds, added, defaulted);
    return 0;
}

int cc_edges_build(struct cc_edges *e, json_t *inputs, bool defaulted, bool wanted) {
    *e = (struct cc_edges){.inputs = json_copy(inputs), .given = json_array_size(inputs), .labels = json_array()};
    if (!e->inputs || !e->labels) return -1;
    if (!wanted || (!defaulted && e->given >= CC_EDGE_FEW)) return 0;
    unsigned kinds = 0;
    size_t i;
    json_t *v;
    if (defaulted) kinds = CC_EDGE_INT | CC_EDGE_FLOAT | CC_EDGE_STRING | CC_EDGE_LIST;
    else
        json_array_foreach(inputs, i, v) kinds |= cc_edge_kind_of(json_string_value(v), json_string_length(v));
    return add_edges(e, inputs, kinds, defaulted, 0);
}

int cc_edges_build_sizes(struct cc_edges *e, json_t *inputs, bool defaulted, long long max_n) {
    *e = (struct cc_edges){.inputs = json_copy(inputs), .given = json_array_size(inputs), .labels = json_array()};
    if (!e->inputs || !e->labels) return -1;
    /* However many inputs were given: seven even ones let a candidate
     * wrong on every odd n through (red team 5). */
    return add_edges(e, inputs, CC_EDGE_SIZE, defaulted, max_n);
}

const char *cc_edges_label(const struct cc_edges *e, size_t i) {
    return i < e->given ? NULL : json_string_value(json_array_get(e->labels, i - e->given));
}

void cc_edges_free(struct cc_edges *e) {
    json_decref(e->inputs);
    json_decref(e->labels);
    json_decref(e->probed);
    *e = (struct cc_edges){0};
}

void cc_edges_trim(struct cc_edges *e, size_t max) {
    if (max < e->given) max = e->given;
    size_t n = json_array_size(e->inputs);
    if (n <= max) return;
    for (size_t i = n; i > max; i--) {
        json_array_remove(e->inputs, i - 1);
        json_array_remove(e->labels, i - 1 - e->given);
    }
    if (e->probed) json_object_set_new(e->probed, "added", json_integer((json_int_t)(max - e->given)));
}

bool cc_edges_arg(json_t *args, json_t **err) {
    json_t *v = json_object_get(args, "edge_inputs");
    if (!v || json_is_null(v)) return true;
    if (!json_is_boolean(v)) {
        *err = cc_verify_invalid("pass edge_inputs: false to run only the given inputs",
                                 "edge_inputs must be a boolean");
        return false;
    }
    return json_is_true(v);
}

bool cc_edges_defaulted(json_t *args, const char *key) {
    json_t *v = json_object_get(args, key);
    return !v || json_is_null(v) || (json_is_array(v) && json_array_size(v) == 0);
}
