/* One definition of a big integer inside a process (protocol/json_convert.h,
 * cc_json_bigint_digits): the transport, the schema check and the workers'
 * argument readers used to have three, and disagreed at their edges. */
#include <gmp.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/json_convert.h"
#include "protocol/mp_write.h"
#include "protocol/strbuf.h"
#include "supervisor/mcp/schema_check.h"
#include "tests/unit/check.h"
#include "workers/common/tool_api.h"

/* The marker string for text (NUL-prefixed). */
static json_t *marker(const char *text) {
    size_t n = strlen(text);
    char *b = malloc(CC_BIGINT_PREFIX_LEN + n);
    memcpy(b, CC_BIGINT_PREFIX, CC_BIGINT_PREFIX_LEN);
    memcpy(b + CC_BIGINT_PREFIX_LEN, text, n);
    json_t *j = json_stringn(b, CC_BIGINT_PREFIX_LEN + n);
    free(b);
    return j;
}

/* Whether the schema check takes j for {"type": "integer"}. */
static bool schema_integer(const json_t *j) {
    char err[256], msg[256];
    struct cc_validator *v = cc_validator_compile_text(
        "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"}}}", err, sizeof err);
    json_t *a = json_pack("{s:O}", "a", j);
    bool ok = v && cc_validator_check(v, a, msg, sizeof msg) == 0;
    json_decref(a);
    cc_validator_free(v);
    return ok;
}

/* Whether the transport packs j as a big integer (a msgpack ext). */
static bool transport_integer(const json_t *j) {
    msgpack_sbuffer sb;
    msgpack_sbuffer_init(&sb);
    bool ext = false;
    if (cc_mpw_json(&sb, j) == 0) {
        msgpack_unpacked u;
        msgpack_unpacked_init(&u);
        if (msgpack_unpack_next(&u, sb.data, sb.size, NULL) == MSGPACK_UNPACK_SUCCESS)
            ext = u.data.type == MSGPACK_OBJECT_EXT;
        msgpack_unpacked_destroy(&u);
    }
    msgpack_sbuffer_destroy(&sb);
    return ext;
}

/* Whether a worker reads j as an integer argument. */
static bool worker_integer(const json_t *j) {
    mpz_t z;
    mpz_init(z);
    bool ok = cc_json_is_bigint(j) && cc_json_get_mpz(j, z) == 0;
    mpz_clear(z);
    return ok;
}

/* Every reader gives the same verdict on the same marker string. */
static void readers_agree_on_every_marker(void) {
    static const struct {
        const char *text;
        bool integer;
    } cases[] = {
        {"5", true}, {"-5", true}, {"0", true}, {"-0", true},
        {"123456789012345678901234567890", true}, {"-99999999999999999999", true},
        /* the workers took these (a '+' and leading zeros), the transport
         * sent them as strings: nobody writes an integer that way in JSON */
        {"+5", false}, {"005", false}, {"-007", false},
        /* the schema check took these (it looked at the prefix only) */
        {"abc", false}, {"5x", false}, {"", false}, {"-", false}, {" 5", false}, {"5 ", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        json_t *j = marker(cases[i].text);
        size_t n;
        bool got = cc_json_bigint_digits(j, &n) != NULL;
        if (got != cases[i].integer || cc_json_is_bigint(j) != got || schema_integer(j) != got ||
            transport_integer(j) != got || worker_integer(j) != got)
            fprintf(stderr, "marker \"%s\": digits %d is %d schema %d transport %d worker %d\n", cases[i].text,
                    got, cc_json_is_bigint(j), schema_integer(j), transport_integer(j), worker_integer(j));
        CHECK(got == cases[i].integer);
        CHECK(cc_json_is_bigint(j) == got);
        CHECK(schema_integer(j) == got);
        CHECK(transport_integer(j) == got);
        CHECK(worker_integer(j) == got);
        json_decref(j);
    }
}

/* A worker read "\0bigint:+5" as 5 and bitop answered for it (`codecalc
 * call bitop '{"op":"not","a":"\u0000bigint:+5","width":8}'` gave 250);
 * the transport had sent it as a string. Now it is a string everywhere,
 * and a string with a NUL is no integer. */
static void regression_worker_read_a_plus_marker_as_an_integer(void) {
    json_t *j = marker("+5");
    mpz_t z;
    mpz_init_set_ui(z, 77);
    CHECK_INTEQ(cc_json_get_mpz(j, z), -1);
    CHECK(mpz_cmp_ui(z, 77) == 0);
    double d = 0;
    CHECK_INTEQ(cc_json_get_double(j, &d), -1);
    mpz_clear(z);
    json_decref(j);
    /* a plain digit string keeps TOOLS.md 0.3's leniency */
    j = json_string(" +5 ");
    mpz_init(z);
    CHECK_INTEQ(cc_json_get_mpz(j, z), 0);
    CHECK(mpz_cmp_ui(z, 5) == 0);
    mpz_clear(z);
    json_decref(j);
}

/* A JSON-RPC id (or any integer) of more than 10^6 digits was parsed into a
 * marker, then emitted as the string "\u0000bigint:1000..." instead of the
 * number sent: the transport's definition stopped at 10^6 digits, the
 * parser's did not. It is echoed as written now. */
static void regression_id_past_a_million_digits_was_echoed_as_a_marker_string(void) {
    size_t nd = 1000001;
    char *text = malloc(nd + 16);
    memcpy(text, "[", 1);
    text[1] = '1';
    memset(text + 2, '0', nd - 1);
    memcpy(text + 1 + nd, "]", 2);
    json_error_t e;
    json_t *v = cc_json_parse_client(text, strlen(text), &e);
    CHECK(v != NULL);
    struct cc_strbuf sb;
    cc_sb_init(&sb);
    CHECK_INTEQ(cc_json_emit(&sb, v), 0);
    CHECK(sb.len == strlen(text) && memcmp(sb.data, text, sb.len) == 0);
    CHECK(transport_integer(json_array_get(v, 0)));
    mpz_t z;
    mpz_init(z);
    CHECK_INTEQ(cc_json_get_mpz(json_array_get(v, 0), z), 0);
    CHECK(mpz_sizeinbase(z, 10) == nd);
    mpz_clear(z);
    cc_sb_free(&sb);
    json_decref(v);
    free(text);
}

int main(void) {
    RUN(readers_agree_on_every_marker);
    RUN(regression_worker_read_a_plus_marker_as_an_integer);
    RUN(regression_id_past_a_million_digits_was_echoed_as_a_marker_string);
    return check_summary("test_proto_bigint");
}
