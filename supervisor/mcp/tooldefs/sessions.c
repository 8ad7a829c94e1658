/* Tool definitions of the sessions family (TOOLS.md 3.2.1-3.2.8) and
 * install_package (3.6.1), all answered inside the supervisor. */
#include "supervisor/mcp/tool_registry.h"

#define REJ "\"ok\":{\"type\":\"boolean\"},\"code\":{\"type\":\"string\"},\"error\":{\"type\":\"string\"},\"remedy\":{\"type\":\"string\"}"
#define OUT(props) "{\"type\":\"object\",\"properties\":{" REJ props "},\"required\":[\"ok\"],\"additionalProperties\":true}"
#define SID "\"session_id\":{\"type\":\"string\",\"description\":\"id returned by session_start\"}"

static const char start_in[] =
    "{\"type\":\"object\",\"properties\":{\"language\":{\"type\":\"string\",\"default\":\"python3\","
    "\"description\":\"language of the session; python3 and node keep interpreter state between calls, "
    "others keep files only; an unknown name starts python3\"}}}";
static const char start_out[] = OUT(",\"session_id\":{\"type\":\"string\"},\"language\":{\"type\":\"string\"},"
    "\"stateful\":{\"type\":\"boolean\"},\"workdir\":{\"type\":\"string\"},\"files\":{\"type\":\"array\"},"
    "\"confined\":{\"type\":\"boolean\"},\"unenforced\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}");
static const char sid_in[] = "{\"type\":\"object\",\"properties\":{" SID "},\"required\":[\"session_id\"]}";
static const char stop_in[] = "{\"type\":\"object\",\"properties\":{" SID ",\"keep_workspace\":{\"type\":\"boolean\","
    "\"default\":false,\"description\":\"keep the workspace directory on disk\"}},\"required\":[\"session_id\"]}";
static const char stop_out[] = OUT(",\"session_id\":{\"type\":\"string\"},\"deleted\":{\"type\":\"boolean\"}");
static const char list_in[] = "{\"type\":\"object\",\"properties\":{}}";
static const char list_out[] = OUT(",\"sessions\":{\"type\":\"array\",\"items\":{\"type\":\"object\"}}");
static const char files_in[] =
    "{\"type\":\"object\",\"properties\":{" SID ","
    "\"path\":{\"type\":\"string\",\"default\":\"\",\"description\":\"directory relative to the workspace; empty = root\"},"
    "\"page_size\":{\"type\":[\"integer\",\"null\"],\"default\":null,\"description\":\"entries per page (1..1000)\"},"
    "\"cursor\":{\"type\":[\"string\",\"null\"],\"default\":null,\"description\":\"next_cursor of the previous page\"}},"
    "\"required\":[\"session_id\"]}";
static const char files_out[] = OUT(",\"path\":{\"type\":\"string\"},\"files\":{\"type\":\"array\"},"
    "\"next_cursor\":{\"type\":[\"string\",\"null\"]}");
static const char write_in[] =
    "{\"type\":\"object\",\"properties\":{" SID ","
    "\"path\":{\"type\":\"string\",\"description\":\"file path relative to the workspace; parents are created\"},"
    "\"content\":{\"type\":\"string\",\"description\":\"text written as UTF-8\"}},"
    "\"required\":[\"session_id\",\"path\",\"content\"]}";
static const char write_out[] = OUT(",\"path\":{\"type\":\"string\"}");
static const char read_in[] =
    "{\"type\":\"object\",\"properties\":{" SID ","
    "\"path\":{\"type\":\"string\",\"description\":\"file path relative to the workspace\"},"
    "\"max_bytes\":{\"type\":\"integer\",\"default\":65536,\"description\":\"bytes of content to return as text\"},"
    "\"as_image\":{\"type\":\"boolean\",\"default\":false,\"description\":\"return the file as image content\"}},"
    "\"required\":[\"session_id\",\"path\"]}";
static const char read_out[] = OUT(",\"path\":{\"type\":\"string\"},\"size\":{\"type\":\"integer\"},"
    "\"content\":{\"type\":\"string\"},\"truncated\":{\"type\":\"boolean\"},\"resource\":{\"type\":\"string\"}");
static const char run_in[] =
    "{\"type\":\"object\",\"properties\":{" SID ","
    "\"entry_file\":{\"type\":\"string\",\"description\":\"workspace file to run\"},"
    "\"language\":{\"type\":[\"string\",\"null\"],\"default\":null,\"description\":\"null = from the file extension\"},"
    "\"stdin\":{\"type\":\"string\",\"default\":\"\",\"description\":\"text fed to standard input\"},"
    "\"timeout\":{\"type\":\"integer\",\"default\":30,\"description\":\"seconds (at least 1)\"}},"
    "\"required\":[\"session_id\",\"entry_file\"]}";
static const char run_out[] = OUT(",\"verdict\":{\"type\":\"string\"},\"stdout\":{\"type\":\"string\"},"
    "\"stderr\":{\"type\":\"string\"},\"exit_code\":{\"type\":[\"integer\",\"null\"]},\"entry_file\":{\"type\":\"string\"},"
    "\"language\":{\"type\":\"string\"}");
static const char artifacts_out[] = OUT(",\"session_id\":{\"type\":\"string\"},\"artifacts\":{\"type\":\"array\"}");
static const char install_in[] =
    "{\"type\":\"object\",\"properties\":{"
    "\"language\":{\"type\":\"string\",\"description\":\"ecosystem, e.g. python3 or node\"},"
    "\"package\":{\"type\":\"string\",\"description\":\"package name, optionally with extras\"},"
    "\"session_id\":{\"type\":[\"string\",\"null\"],\"default\":null,\"description\":\"install into this session's workspace; null means the shared cache, allowed only with CODECALC_ALLOW_GLOBAL_INSTALL=1\"},"
    "\"version\":{\"type\":[\"string\",\"null\"],\"default\":null,\"description\":\"version pin\"}},"
    "\"required\":[\"language\",\"package\"]}";
static const char install_out[] = OUT(",\"language\":{\"type\":\"string\"},\"package\":{\"type\":\"string\"},"
    "\"target\":{\"type\":\"string\"},\"importable\":{\"type\":\"boolean\"},\"output_tail\":{\"type\":\"string\"},"
    "\"note\":{\"type\":[\"string\",\"null\"]},\"unenforced\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}");

#define T(n, ti, g, h, d, i, o) \
    {.name = n, .title = ti, .group = g, .route = CC_ROUTE_LOCAL, .deadline_s = 900, .hints = h, \
     .description = d, .input_schema = i, .output_schema = o}

const struct cc_tool cc_tooldefs_sessions[] = {
    T("session_start", "Start a session", "sessions", 0,
      "Create a persistent workspace for follow-up calls. python3 and node sessions keep variables, "
      "imports and definitions between execute_code calls; other languages keep files.",
      start_in, start_out),
    T("session_stop", "Stop a session", "sessions", CC_HINT_DESTRUCTIVE | CC_HINT_IDEMPOTENT,
      "End a session: stop its interpreter and delete its workspace.", stop_in, stop_out),
    T("session_list", "List sessions", "sessions", CC_HINT_READONLY,
      "List the sessions this server knows and the workspaces on disk, with whether each interpreter is alive.",
      list_in, list_out),
    T("session_files", "List workspace files", "sessions", CC_HINT_READONLY,
      "List one directory of a session workspace (not recursive), optionally paged.", files_in, files_out),
    T("session_write_file", "Write a workspace file", "sessions", 0,
      "Write a text file into a session workspace, e.g. to seed input data or a module to import.",
      write_in, write_out),
    T("session_read_file", "Read a workspace file", "sessions", CC_HINT_READONLY,
      "Read a file from a session workspace as text, or as an inline image for pictures such as plots.",
      read_in, read_out),
    T("session_run", "Run a workspace file", "sessions", 0,
      "Run a file already in the workspace as a fresh sandboxed program, so it can import sibling "
      "files and read data files.", run_in, run_out),
    T("session_artifacts", "List created files", "sessions", CC_HINT_READONLY,
      "List every file in a session workspace recursively with its size, leaving out the runner's own files.",
      sid_in, artifacts_out),
    T("install_package", "Install a package", "admin", CC_HINT_OPENWORLD,
      "Install a package (npm for node; uv or pip for python3 when a package index is reachable) into a "
      "session workspace so that session's code can import or require it. Without session_id the install "
      "goes to the shared cache and is refused unless the operator set CODECALC_ALLOW_GLOBAL_INSTALL=1.",
      install_in, install_out),
    {.name = NULL},
};
