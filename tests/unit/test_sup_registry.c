/* Tool registry and argument validation. */
#include <stdlib.h>
#include <string.h>

#include "protocol/json_convert.h"
#include "supervisor/mcp/registry.h"
#include "supervisor/mcp/schema_check.h"
#include "tests/unit/check.h"

static bool json_type_name(const json_t *v) {
    static const char *const names[] = {"string", "number", "integer", "boolean", "object",
                                        "array", "null"};
    for (size_t i = 0; json_is_string(v) && i < sizeof names / sizeof *names; i++)
        if (!strcmp(json_string_value(v), names[i])) return true;
    return false;
}

/* Every "type" keyword in a schema is a JSON type name or a flat array of
 * them (a nested array, as NULLABLE of a union once produced, makes MCP
 * clients reject the whole tools/list). Walks properties, items,
 * additionalProperties and anyOf/oneOf/allOf. */
static bool types_valid(const json_t *schema) {
    if (!json_is_object(schema)) return true;
    const json_t *type = json_object_get(schema, "type");
    if (type && !json_type_name(type)) {
        if (!json_is_array(type)) return false;
        size_t i;
        json_t *t;
        json_array_foreach(type, i, t) if (!json_type_name(t)) return false;
    }
    const char *k;
    json_t *v;
    json_object_foreach(json_object_get(schema, "properties"), k, v) if (!types_valid(v)) return false;
    if (!types_valid(json_object_get(schema, "items"))) return false;
    if (!types_valid(json_object_get(schema, "additionalProperties"))) return false;
    static const char *const lists[] = {"anyOf", "oneOf", "allOf"};
    for (size_t j = 0; j < 3; j++) {
        size_t i;
        json_t *e;
        json_array_foreach(json_object_get(schema, lists[j]), i, e) if (!types_valid(e)) return false;
    }
    return true;
}

static void every_declared_schema_parses(void) {
    struct cc_registry r;
    char err[1024] = "";
    int rc = cc_registry_load(&r, NULL, err, sizeof err);
    if (rc < 0) fprintf(stderr, "registry: %s\n", err);
    CHECK(rc == 0);
    for (size_t i = 0; rc == 0 && i < r.n; i++) {
        const struct cc_tool *t = r.e[i].tool;
        CHECK(t->description && strlen(t->description) > 10);
        CHECK(t->deadline_s > 0);
        json_error_t je;
        json_t *listing = json_loads(r.e[i].listing, 0, &je);
        CHECK(listing != NULL);
        CHECK_STREQ(json_string_value(json_object_get(listing, "name")), t->name);
        /* A tool that declares no output field lists no output schema;
         * every array tool declares its "result". */
        json_t *out = json_object_get(listing, "outputSchema");
        if (out) CHECK_STREQ(json_string_value(json_object_get(out, "type")), "object");
        else CHECK(!(t->flags & CC_TOOL_ARRAY_RESULT));
        if (!types_valid(out) || !types_valid(json_object_get(listing, "inputSchema")))
            fprintf(stderr, "  %s: a schema has an invalid type keyword\n", t->name);
        CHECK(types_valid(out) && types_valid(json_object_get(listing, "inputSchema")));
        /* The rejected shape must satisfy every output schema: only "ok"
         * (or "result" for array tools) may be required. */
        json_t *req = json_object_get(out, "required");
        size_t k;
        json_t *v;
        json_array_foreach(req, k, v) {
            const char *name = json_string_value(v);
            CHECK(name && (strcmp(name, "ok") == 0 || ((t->flags & CC_TOOL_ARRAY_RESULT) && strcmp(name, "result") == 0)));
        }
        json_decref(listing);
        /* Names are unique. */
        for (size_t j = i + 1; j < r.n; j++) CHECK(strcmp(r.e[j].tool->name, t->name) != 0);
    }
    if (rc == 0) cc_registry_free(&r);
}

static void unknown_group_is_fatal_and_named(void) {
    struct cc_registry r;
    char err[1024] = "";
    CHECK(cc_registry_load(&r, "calculator, bogus", err, sizeof err) < 0);
    CHECK(strstr(err, "bogus") != NULL);
    CHECK(strstr(err, "calculator") != NULL);
    CHECK(strstr(err, "full") != NULL);
}

static void groups_filter_tools(void) {
    struct cc_registry r;
    char err[1024];
    CHECK(cc_registry_load(&r, " core ,", err, sizeof err) == 0);
    for (size_t i = 0; i < r.n; i++) CHECK_STREQ(r.e[i].tool->group, "calculator");
    cc_registry_free(&r);
}

static json_t *parse(const char *s) {
    json_error_t e;
    return cc_json_parse(s, strlen(s), &e);
}

static void schema_check_types_and_required(void) {
    json_t *schema = parse(
        "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"},\"x\":{\"type\":\"number\"},"
        "\"s\":{\"type\":\"string\"},\"w\":{\"type\":[\"integer\",\"null\"]},"
        "\"nums\":{\"type\":\"array\",\"items\":{\"type\":\"number\"}}},\"required\":[\"n\"]}");
    char msg[256];
    json_t *a = parse("{\"n\": -1180591620717411303424, \"x\": \"2.5\", \"w\": null, \"nums\": [1, 2.5]}");
    CHECK(cc_schema_check(schema, a, msg, sizeof msg) == 0);
    json_decref(a);
    a = parse("{\"n\": 3.0}");
    CHECK(cc_schema_check(schema, a, msg, sizeof msg) == 0);
    json_decref(a);
    a = parse("{}");
    CHECK(cc_schema_check(schema, a, msg, sizeof msg) < 0);
    CHECK(strstr(msg, "'n'") != NULL);
    json_decref(a);
    a = parse("{\"n\": 1, \"s\": 12345}");
    CHECK(cc_schema_check(schema, a, msg, sizeof msg) < 0);
    CHECK(strstr(msg, "'s' must be string") != NULL);
    CHECK(strstr(msg, "12345") == NULL); /* never echo the value */
    json_decref(a);
    a = parse("{\"n\": \"secret-token\"}");
    CHECK(cc_schema_check(schema, a, msg, sizeof msg) < 0);
    CHECK(strstr(msg, "secret") == NULL);
    json_decref(a);
    a = parse("{\"n\": 1, \"nums\": [1, \"x\"]}");
    CHECK(cc_schema_check(schema, a, msg, sizeof msg) < 0);
    CHECK(strstr(msg, "nums[1]") != NULL);
    json_decref(a);
    a = parse("{\"n\": 1.5}");
    CHECK(cc_schema_check(schema, a, msg, sizeof msg) < 0);
    json_decref(a);
    json_decref(schema);
}

/* additionalProperties: false, enum and nested objects, compiled once and
 * checked many times; messages name the field and never the value. */
static void validator_closed_enum_nested(void) {
    json_t *schema = parse(
        "{\"type\":\"object\",\"properties\":{\"op\":{\"type\":\"string\",\"enum\":[\"det\",\"rank\"]},"
        "\"opt\":{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"integer\"}},"
        "\"additionalProperties\":false},\"m\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"boolean\"}}},"
        "\"required\":[\"op\"],\"additionalProperties\":false}");
    char err[256];
    struct cc_validator *v = cc_validator_compile(schema, err, sizeof err);
    CHECK(v != NULL);
    char msg[512];
    json_t *a = parse("{\"op\":\"det\",\"opt\":{\"k\":\"12\"},\"m\":{\"x\":true}}");
    CHECK(cc_validator_check(v, a, msg, sizeof msg) == 0);
    json_decref(a);
    a = parse("{\"op\":\"det\",\"token\":\"s3cret\"}");
    CHECK(cc_validator_check(v, a, msg, sizeof msg) < 0);
    CHECK_STREQ(msg, "unknown argument 'token'; accepted: op, opt, m");
    json_decref(a);
    a = parse("{\"op\":\"s3cret\"}");
    CHECK(cc_validator_check(v, a, msg, sizeof msg) < 0);
    CHECK_STREQ(msg, "'op' must be one of det, rank (got [redacted])");
    json_decref(a);
    a = parse("{\"op\":\"rank\",\"opt\":{\"k\":1,\"z\":2}}");
    CHECK(cc_validator_check(v, a, msg, sizeof msg) < 0);
    CHECK(strstr(msg, "'opt.z'") != NULL);
    json_decref(a);
    a = parse("{\"op\":\"rank\",\"m\":{\"x\":\"s3cret\"}}");
    CHECK(cc_validator_check(v, a, msg, sizeof msg) < 0);
    CHECK(strstr(msg, "'m.x' must be boolean") != NULL && strstr(msg, "s3cret") == NULL);
    json_decref(a);
    a = parse("[1]");
    CHECK(cc_validator_check(v, a, msg, sizeof msg) < 0);
    json_decref(a);
    cc_validator_free(v);
    json_decref(schema);
}

/* A schema keyword the validator does not enforce is refused when the
 * schema is compiled, so no schema promises a check that never happens. */
static void validator_refuses_unenforced_keywords(void) {
    const char *bad[] = {
        "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\",\"minimum\":0}}}",
        "{\"type\":\"object\",\"properties\":{\"s\":{\"type\":\"string\",\"pattern\":\"^a\"}}}",
        "{\"type\":\"objekt\"}",
        "{\"oneOf\":[]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char err[256] = "";
        struct cc_validator *v = cc_validator_compile_text(bad[i], err, sizeof err);
        CHECK(v == NULL);
        CHECK(err[0] != '\0');
        cc_validator_free(v);
    }
}

int main(void) {
    RUN(every_declared_schema_parses);
    RUN(unknown_group_is_fatal_and_named);
    RUN(groups_filter_tools);
    RUN(schema_check_types_and_required);
    RUN(validator_closed_enum_nested);
    RUN(validator_refuses_unenforced_keywords);
    return check_summary("sup_registry");
}
