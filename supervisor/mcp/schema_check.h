/* Argument validation against a tool's input schema (TOOLS.md 0.5): the
 * subset of JSON Schema our tools use (type, type lists, required,
 * properties, items). Leniency of 0.3: a numeric string or an integral real
 * passes for an integer, a numeric string for a number. Messages name the
 * field and the expected type and never echo the value. */
#ifndef CC_SCHEMA_CHECK_H
#define CC_SCHEMA_CHECK_H

#include <jansson.h>
#include <stddef.h>

/* 0 when args satisfy schema; -1 with a message in msg otherwise. */
int cc_schema_check(const json_t *schema, const json_t *args, char *msg, size_t cap);

#endif
