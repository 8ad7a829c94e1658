/* Tool definitions of background runs (TOOLS.md 3.2.9-3.2.11), answered in
 * the supervisor (supervisor/runs/runs.c). */
#include "supervisor/mcp/tool_registry.h"

#define RUN_REJECTED_PROPS                                                              \
    "\"ok\":{\"type\":\"boolean\"},"                                                   \
    "\"code\":{\"type\":\"string\",\"description\":\"error category when codecalc diagnosed a failure\"}," \
    "\"error\":{\"type\":\"string\"},"                                                 \
    "\"remedy\":{\"type\":\"string\"},"                                                \
    "\"provider_error\":{\"type\":\"string\"},"                                        \
    "\"contract_version\":{\"type\":\"string\"}"

#define RUN_LIFECYCLE_PROPS                                                             \
    "\"run_id\":{\"type\":\"string\",\"description\":\"32 lowercase hex characters\"}," \
    "\"provider_id\":{\"type\":\"string\"},"                                           \
    "\"started_at\":{\"type\":\"number\",\"description\":\"Unix epoch seconds\"},"     \
    "\"deadline\":{\"type\":\"number\",\"description\":\"started_at + timeout\"},"     \
    "\"state\":{\"type\":\"string\",\"enum\":[\"running\",\"cancelling\",\"finished\",\"cleaned\",\"cancelled\",\"lost\",\"recovered\"]}," \
    "\"cleaned\":{\"type\":\"boolean\"},\"cancelled\":{\"type\":\"boolean\"}"

static const char submit_in[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"language\":{\"type\":\"string\",\"description\":\"language name or alias (see list_languages), case-insensitive\"},"
    "\"code\":{\"type\":\"string\",\"description\":\"program source, written to main.<ext>\"},"
    "\"stdin\":{\"type\":\"string\",\"default\":\"\",\"description\":\"text fed to standard input\"},"
    "\"timeout\":{\"type\":\"integer\",\"default\":30,\"description\":\"seconds the work may take (compile+run); clamped to 1..120\"},"
    "\"max_memory_mb\":{\"type\":\"integer\",\"default\":0,\"description\":\"memory ceiling in MiB; 0 or less = no extra ceiling\"},"
    "\"max_output_kb\":{\"type\":\"integer\",\"default\":0,\"description\":\"per-stream output cap in KiB; 0 or less = 64 KiB\"},"
    "\"max_cpu\":{\"type\":\"integer\",\"default\":0,\"description\":\"CPU seconds; 0 or less = timeout + 8\"},"
    "\"no_net\":{\"type\":\"boolean\",\"default\":false,\"description\":\"block IPv4/IPv6 sockets for the program\"},"
    "\"provider\":{\"type\":[\"string\",\"null\"],\"default\":null,\"description\":\"execution provider id; null = the server default (local)\"}"
    "},\"required\":[\"language\",\"code\"]}";

static const char run_id_in[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"run_id\":{\"type\":\"string\",\"description\":\"the id run_submit returned\"}"
    "},\"required\":[\"run_id\"]}";

static const char submit_out[] =
    "{\"type\":\"object\",\"properties\":{" RUN_REJECTED_PROPS "," RUN_LIFECYCLE_PROPS ","
    "\"active_runs\":{\"type\":\"integer\"},\"limit\":{\"type\":\"integer\"}"
    "},\"required\":[\"ok\"],\"additionalProperties\":true}";

static const char inspect_out[] =
    "{\"type\":\"object\",\"properties\":{" RUN_REJECTED_PROPS "," RUN_LIFECYCLE_PROPS ","
    "\"expired\":{\"type\":\"boolean\",\"description\":\"the result was deleted after the retention period\"},"
    "\"verdict\":{\"type\":\"string\"},\"stdout\":{\"type\":\"string\"},\"stderr\":{\"type\":\"string\"},"
    "\"exit_code\":{\"type\":[\"integer\",\"null\"]},\"timed_out\":{\"type\":\"boolean\"},"
    "\"provider\":{\"type\":\"object\"}"
    "},\"required\":[\"ok\"],\"additionalProperties\":true}";

static const char cancel_out[] =
    "{\"type\":\"object\",\"properties\":{" RUN_REJECTED_PROPS "," RUN_LIFECYCLE_PROPS
    "},\"required\":[\"ok\"],\"additionalProperties\":true}";

const struct cc_tool cc_tooldefs_runs[] = {
    {.name = "run_submit", .title = "Submit a background run", .group = "sessions",
     .route = CC_ROUTE_LOCAL, .deadline_s = 15, .hints = CC_HINT_OPENWORLD,
     .description = "Start a program in the sandbox in the background and get a run id at once. "
                    "The run survives a server restart; poll it with run_inspect, stop it with "
                    "run_cancel. Use for work that may outlast a single call.",
     .input_schema = submit_in, .output_schema = submit_out},
    {.name = "run_inspect", .title = "Inspect a background run", .group = "sessions",
     .route = CC_ROUTE_LOCAL, .deadline_s = 10, .hints = CC_HINT_READONLY | CC_HINT_IDEMPOTENT,
     .description = "Poll a background run: while it is active you get its state; once it is done, "
                    "the same result execute_code would have returned, with the run's id and state. "
                    "Repeatable until the retention period removes the result.",
     .input_schema = run_id_in, .output_schema = inspect_out},
    {.name = "run_cancel", .title = "Cancel a background run", .group = "sessions",
     .route = CC_ROUTE_LOCAL, .deadline_s = 15, .hints = CC_HINT_DESTRUCTIVE | CC_HINT_IDEMPOTENT,
     .description = "Stop a background run: its whole process tree is killed and the run ends as "
                    "cancelled. Cancelling a run that already ended is answered, not an error.",
     .input_schema = run_id_in, .output_schema = cancel_out},
    {.name = NULL},
};
