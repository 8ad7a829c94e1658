/* Argument validation against a tool's input schema (TOOLS.md 0.5).
 *
 * A schema is compiled once, when the registry loads, into a validator tree;
 * a call then walks that tree, never the schema text. The keywords are the
 * subset the tool table allows (scripts/gen-tools refuses any other, so a
 * schema never promises a check that does not happen): type (or a list of
 * types), properties, required, additionalProperties (false, or a schema),
 * items, enum; description and default are documentation.
 *
 * Leniency of TOOLS.md 0.3: a decimal string, an integral real or a big
 * integer passes for an integer, a numeric string for a number. Messages
 * name the field and what was expected and never echo the value. */
#ifndef CC_SCHEMA_CHECK_H
#define CC_SCHEMA_CHECK_H

#include <jansson.h>
#include <stddef.h>

struct cc_validator;

/* Compile schema (borrowed); NULL with a message in err when it uses a
 * keyword or a type this validator does not enforce. */
struct cc_validator *cc_validator_compile(const json_t *schema, char *err, size_t errcap);
/* The same from JSON text. */
struct cc_validator *cc_validator_compile_text(const char *schema, char *err, size_t errcap);
void cc_validator_free(struct cc_validator *v);

/* 0 when args satisfy the validator; -1 with a message in msg otherwise. */
int cc_validator_check(const struct cc_validator *v, const json_t *args, char *msg, size_t cap);

/* Compile, check and free: for tests and one-off checks, not per call. */
int cc_schema_check(const json_t *schema, const json_t *args, char *msg, size_t cap);

#endif
