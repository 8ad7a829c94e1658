/* Tool definitions of the execution family served by the exec worker
 * (TOOLS.md 3.1.1-3.1.4). */
#include "supervisor/mcp/tool_registry.h"

#define REJECTED_PROPS                                                                  \
    "\"ok\":{\"type\":\"boolean\"},"                                                   \
    "\"code\":{\"type\":\"string\",\"description\":\"error category when codecalc diagnosed a failure\"}," \
    "\"error\":{\"type\":\"string\"},"                                                 \
    "\"remedy\":{\"type\":\"string\"}"

static const char list_languages_out[] =
    "{\"type\":\"object\",\"properties\":{\"result\":{\"type\":\"array\",\"items\":{"
    "\"type\":\"object\",\"properties\":{"
    "\"name\":{\"type\":\"string\"},\"extension\":{\"type\":\"string\"},"
    "\"compiled\":{\"type\":\"boolean\"},\"run\":{\"type\":\"string\"},"
    "\"tier\":{\"type\":\"string\",\"enum\":[\"tested\",\"best_effort\",\"plan_only\"]},"
    "\"available\":{\"type\":\"boolean\"},"
    "\"status\":{\"type\":\"string\",\"enum\":[\"installed\",\"supported\"]},"
    "\"status_basis\":{\"type\":\"string\"}}}}," REJECTED_PROPS "},"
    "\"additionalProperties\":true}";

static const char providers_out[] =
    "{\"type\":\"object\",\"properties\":{\"result\":{\"type\":\"array\",\"items\":{"
    "\"type\":\"object\",\"properties\":{"
    "\"interface_version\":{\"type\":\"string\"},\"provider_id\":{\"type\":\"string\"},"
    "\"provider_version\":{\"type\":\"string\"},\"host_class\":{\"type\":\"string\"},"
    "\"strict\":{\"type\":\"boolean\"},\"capabilities\":{\"type\":\"object\"}}}},"
    REJECTED_PROPS "},\"additionalProperties\":true}";

static const char execute_in[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"language\":{\"type\":\"string\",\"description\":\"language name or alias (see list_languages), case-insensitive\"},"
    "\"code\":{\"type\":\"string\",\"description\":\"program source, written to main.<ext>\"},"
    "\"stdin\":{\"type\":\"string\",\"default\":\"\",\"description\":\"text fed to standard input\"},"
    "\"timeout\":{\"type\":\"integer\",\"default\":10,\"description\":\"total compile+run budget in seconds; clamped to 1..120\"},"
    "\"session_id\":{\"type\":[\"string\",\"null\"],\"default\":null,\"description\":\"run inside this session instead of a fresh directory\"},"
    "\"max_memory_mb\":{\"type\":\"integer\",\"default\":0,\"description\":\"memory ceiling in MiB; 0 or less = no extra ceiling\"},"
    "\"max_output_kb\":{\"type\":\"integer\",\"default\":0,\"description\":\"per-stream output cap in KiB; 0 or less = 64 KiB; clamped to 240\"},"
    "\"max_cpu\":{\"type\":\"integer\",\"default\":0,\"description\":\"CPU seconds; 0 or less = timeout + 8\"},"
    "\"no_net\":{\"type\":\"boolean\",\"default\":false,\"description\":\"block IPv4/IPv6 sockets for the program\"},"
    "\"compact\":{\"type\":\"boolean\",\"default\":false,\"description\":\"return only ok, verdict, stdout, exit_code and what is non-empty\"},"
    "\"receipt\":{\"type\":\"boolean\",\"default\":false,\"description\":\"include the full execution receipt (default: provider_id and spec_hash only)\"},"
    "\"provider\":{\"type\":[\"string\",\"null\"],\"default\":null,\"description\":\"execution provider id (see list_execution_providers); null = the server default\"}"
    "},\"required\":[\"language\",\"code\"]}";

static const char execute_out[] =
    "{\"type\":\"object\",\"properties\":{" REJECTED_PROPS ","
    "\"language\":{\"type\":\"string\"},\"phase\":{\"type\":\"string\",\"enum\":[\"compile\",\"run\"]},"
    "\"backend\":{\"type\":\"string\"},\"platform\":{\"type\":\"string\"},"
    "\"stdout\":{\"type\":\"string\"},\"stderr\":{\"type\":\"string\"},"
    "\"exit_code\":{\"type\":[\"integer\",\"null\"]},\"timed_out\":{\"type\":\"boolean\"},"
    "\"verdict\":{\"type\":\"string\",\"enum\":[\"OK\",\"TLE\",\"OLE\",\"MLE\",\"RTE\"]},"
    "\"output_truncated\":{\"type\":\"boolean\"},\"output_error\":{\"type\":[\"string\",\"null\"]},"
    "\"stdout_bytes\":{\"type\":[\"integer\",\"null\"]},\"stderr_bytes\":{\"type\":[\"integer\",\"null\"]},"
    "\"duration_ms\":{\"type\":\"integer\"},\"compile_ms\":{\"type\":\"integer\"},"
    "\"total_ms\":{\"type\":\"integer\"},\"cpu_ms\":{\"type\":\"integer\"},"
    "\"peak_memory_kb\":{\"type\":[\"integer\",\"null\"]},"
    "\"unenforced\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},"
    "\"workdir\":{\"type\":\"string\"},\"cached\":{\"type\":\"boolean\"},"
    "\"signal\":{\"type\":\"object\"},\"reason\":{\"type\":\"string\"},"
    "\"provider\":{\"type\":\"object\"},\"contract_version\":{\"type\":\"string\"}"
    "},\"required\":[\"ok\"],\"additionalProperties\":true}";

static const char stream_in[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"language\":{\"type\":\"string\",\"description\":\"language name or alias (see list_languages), case-insensitive\"},"
    "\"code\":{\"type\":\"string\",\"description\":\"program source, written to main.<ext>\"},"
    "\"stdin\":{\"type\":\"string\",\"default\":\"\",\"description\":\"text fed to standard input\"},"
    "\"timeout\":{\"type\":\"integer\",\"default\":30,\"description\":\"total compile+run budget in seconds; clamped to 1..300\"},"
    "\"max_memory_mb\":{\"type\":\"integer\",\"default\":0,\"description\":\"memory ceiling in MiB; 0 or less = no extra ceiling\"},"
    "\"max_output_kb\":{\"type\":\"integer\",\"default\":0,\"description\":\"per-stream output cap in KiB; 0 or less = 64 KiB; clamped to 240\"},"
    "\"max_cpu\":{\"type\":\"integer\",\"default\":0,\"description\":\"CPU seconds; 0 or less = timeout + 8\"},"
    "\"no_net\":{\"type\":\"boolean\",\"default\":false,\"description\":\"block IPv4/IPv6 sockets for the program\"},"
    "\"receipt\":{\"type\":\"boolean\",\"default\":false,\"description\":\"include the full execution receipt\"},"
    "\"provider\":{\"type\":[\"string\",\"null\"],\"default\":null,\"description\":\"execution provider id; null = the server default\"}"
    "},\"required\":[\"language\",\"code\"]}";

static const char no_args[] = "{\"type\":\"object\",\"properties\":{},\"required\":[]}";

const struct cc_tool cc_tooldefs_exec[] = {
    {.name = "list_languages", .title = "List languages", .group = "execution",
     .route = CC_ROUTE_EXEC, .deadline_s = 900, .hints = CC_HINT_READONLY | CC_HINT_IDEMPOTENT,
     .description = "List the 31 languages (32 registry names) execute_code accepts, with their "
                    "file extension, run command, reliability tier and whether this host has the "
                    "runtime installed.",
     .input_schema = no_args, .output_schema = list_languages_out, .array_result = true},
    {.name = "list_execution_providers", .title = "List execution providers",
     .group = "execution", .route = CC_ROUTE_EXEC, .deadline_s = 900,
     .hints = CC_HINT_READONLY | CC_HINT_IDEMPOTENT,
     .description = "Describe the execution backends code can be routed to (the local sandbox "
                    "and a strict placeholder) and which capabilities each one offers, such as "
                    "streaming or network control.",
     .input_schema = no_args, .output_schema = providers_out, .array_result = true},
    {.name = "execute_code", .title = "Execute code", .group = "execution",
     .route = CC_ROUTE_EXEC, .deadline_s = 900, .hints = CC_HINT_OPENWORLD,
     .description = "Compile if needed and run a program in a sandbox, returning stdout, stderr, "
                    "exit code, timings and a verdict (OK, RTE, TLE, MLE, OLE). Use it to check "
                    "what code really prints instead of predicting it; call list_languages for "
                    "the accepted languages.",
     .input_schema = execute_in, .output_schema = execute_out},
    {.name = "execute_code_stream", .title = "Execute code with live output", .group = "execution",
     .route = CC_ROUTE_EXEC, .deadline_s = 900, .hints = CC_HINT_OPENWORLD,
     .description = "Like execute_code, but reports progress while the program runs (stdout bytes "
                    "so far, to a client that sent a progressToken) and allows up to 300 s. The "
                    "result adds streamed and streamed_partial.",
     .input_schema = stream_in, .output_schema = execute_out},
    {.name = NULL},
};
