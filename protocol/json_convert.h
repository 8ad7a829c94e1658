/* JSON (jansson) <-> msgpack conversion, and msgpack -> JSON text.
 *
 * Big integers: JSON numbers beyond int64 cannot live in a jansson integer,
 * so inside a process they are jansson strings with the sentinel prefix
 * CC_BIGINT_PREFIX followed by decimal digits; on the wire they are a msgpack
 * ext of type CC_MP_EXT_BIGINT whose payload is the decimal digits; in JSON
 * text they are bare numbers. Binary data (msgpack bin) becomes a base64
 * JSON string. Floats are printed in the shortest form that round-trips,
 * always with a '.' or an exponent; non-finite floats become null. */
#ifndef CC_JSON_CONVERT_H
#define CC_JSON_CONVERT_H

#include <jansson.h>
#include <msgpack.h>
#include <stdbool.h>

#include "protocol/strbuf.h"

#ifndef CC_BIGINT_PREFIX
#define CC_BIGINT_PREFIX "\0bigint:"
#define CC_BIGINT_PREFIX_LEN 8
#endif
#define CC_MP_EXT_BIGINT 1

/* Deepest nesting of arrays and objects cc_mpw_json (protocol/mp_write.h)
 * packs. msgpack-c's unpacker refuses a value with more than 32 containers open at once
 * (MSGPACK_EMBED_STACK_SIZE), and every value we pack travels inside the
 * map of a frame: one level for the frame, 31 for the value. A deeper value
 * would be packed fine and then kill the process that cannot decode it. */
#define CC_MP_MAX_NESTING 31

/* The digits of a big-integer sentinel string, or NULL when j is no such
 * string (then it is an ordinary string). The one definition of a big
 * integer inside a process: the prefix, an optional '-', then "0" or
 * digits without a leading zero (what the parser and the msgpack ext make,
 * and what JSON text can print); the transport, the schema check and the
 * workers all ask it. */
const char *cc_json_bigint_digits(const json_t *j, size_t *n);
/* cc_json_bigint_digits(j) != NULL. */
bool cc_json_is_bigint(const json_t *j);
/* New jansson value for o, or NULL on nesting > 512 / allocation failure. */
json_t *cc_mp_to_json(const msgpack_object *o);
/* Append o as compact JSON text. Returns 0, or -1 on nesting > 512. */
int cc_mp_emit_json(struct cc_strbuf *sb, const msgpack_object *o);
/* Append j as compact JSON text (same float and bigint rules). */
int cc_json_emit(struct cc_strbuf *sb, const json_t *j);

/* Parse JSON text from an untrusted peer. Integers beyond int64 become
 * sentinel strings instead of a parse failure. Returns NULL with err->text
 * filled on malformed input. */
json_t *cc_json_parse(const char *text, size_t len, json_error_t *err);
/* cc_json_parse for a message from a client: a string spelled
 * "\u0000bigint:..." (the marker above, which would read as a number) is
 * refused, with err->text saying so. */
json_t *cc_json_parse_client(const char *text, size_t len, json_error_t *err);

/* Shortest round-trip text of a finite double, JSON style ("0.1", "3.0",
 * "1e+300"). buf >= 32 bytes. */
char *cc_json_double(double d, char buf[32]);

#endif
