/* Fuzz target: argument validation against every tool's input schema.
 *
 * The first line names the tool (a name that is no tool picks one by the
 * sum of its bytes, so every byte string reaches some schema); the rest is
 * the "arguments" value as JSON text, parsed as the server parses it
 * (cc_json_parse), checked by the validator the registry compiled from the
 * tool's schema (supervisor/mcp/schema_check.h), exactly as tools/call does.
 *
 * Properties: no sanitizer report; the same arguments get the same verdict
 * and message twice; a refusal has a non-empty, NUL-terminated message;
 * the arguments are not modified. */
#include <string.h>

#include "protocol/json_convert.h"
#include "supervisor/mcp/registry.h"
#include "supervisor/mcp/schema_check.h"
#include "tests/fuzz/fz.h"

static struct cc_registry reg;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    char err[512];
    if (cc_registry_load(&reg, NULL, err, sizeof err) < 0) {
        fprintf(stderr, "fuzz_validator: %s\n", err);
        abort();
    }
    return 0;
}

static int fz_validate(const struct cc_reg_entry *e, const json_t *args, char *msg, size_t cap) {
    return cc_validator_check(e->validator, args, msg, cap);
}

static const struct cc_reg_entry *tool_named(const uint8_t *name, size_t n) {
    unsigned sum = 0;
    for (size_t i = 0; i < reg.n; i++)
        if (strlen(reg.e[i].tool->name) == n && memcmp(reg.e[i].tool->name, name, n) == 0) return &reg.e[i];
    for (size_t i = 0; i < n; i++) sum += name[i];
    return &reg.e[sum % reg.n];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct fz_in in = {data, size};
    const uint8_t *nl = memchr(data, '\n', size);
    size_t nn;
    const uint8_t *name = fz_take(&in, nl ? (size_t)(nl - data) : 0, &nn);
    if (nl) fz_byte(&in);
    const struct cc_reg_entry *e = tool_named(name, nn);
    json_error_t je;
    json_t *args = cc_json_parse((const char *)in.p, in.n, &je);
    if (!args) return 0;
    json_t *before = json_deep_copy(args);
    char m1[512], m2[512];
    memset(m1, 'x', sizeof m1);
    memset(m2, 'y', sizeof m2);
    int a = fz_validate(e, args, m1, sizeof m1), b = fz_validate(e, args, m2, sizeof m2);
    FZ_ASSERT(a == b, "two verdicts for one call of %s", e->tool->name);
    FZ_ASSERT(a == 0 || a == -1, "verdict %d", a);
    if (a < 0) {
        FZ_ASSERT(memchr(m1, 0, sizeof m1) && m1[0], "refusal without a message");
        FZ_ASSERT(strcmp(m1, m2) == 0, "two messages for one refusal: %s / %s", m1, m2);
    }
    FZ_ASSERT(json_equal(before, args), "validation modified the arguments");
    json_decref(before);
    json_decref(args);
    return 0;
}
