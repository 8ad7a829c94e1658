/* codecalc: the command line. With no arguments (or arguments it does not
 * recognise, since an MCP client may pass anything) it serves MCP on stdio. */
#include <stdio.h>
#include <string.h>

#include "protocol/flag.h"
#include "protocol/knob.h"
#include "protocol/text_knob.h"
#include "supervisor/cli/cli.h"
#include "supervisor/log.h"
#include "supervisor/mcp/methods.h"
#include "supervisor/server.h"
#include "supervisor/transport/http.h"
#include "supervisor/transport/stdio.h"

static const char usage[] =
    "usage: codecalc [COMMAND]\n"
    "\n"
    "With no command, serve MCP over stdio (what an MCP client launches).\n"
    "\n"
    "commands:\n"
    "  call TOOL 'JSON'   run one tool with the given arguments and print its result\n"
    "                     (exit 0 when the result is ok, 1 otherwise)\n"
    "  tools [--json]     list the registered tools\n"
    "  serve-http [--host H] [--port P]\n"
    "                     serve MCP over Streamable HTTP (default 127.0.0.1:8000),\n"
    "                     with GET /metrics (Prometheus) and GET /status (live page)\n"
    "  doctor [--json] [--deep]\n"
    "                     installation report; exit 0 when healthy, 1 otherwise\n"
    "                     (--deep also executes the runtimes and the engines)\n"
    "  status [--json]    read-only snapshot of sessions, disk use, quotas, the audit log\n"
    "  cleanup [--dry-run|--write] [--include-unmarked]\n"
    "                     reclaim disk from dead session workspaces (dry run by default)\n"
    "  setup [--client NAME] [--write]\n"
    "                     configure an MCP client: claude-desktop, claude-code, cursor,\n"
    "                     vscode, zed (prints the change unless --write)\n"
    "  -h, --help         this text\n"
    "  -V, --version      print the version\n"
    "\n"
    "environment: CODECALC_HOME (state, default ~/.codecalc), CODECALC_TOOLS (tool groups),\n"
    "CODECALC_RUNTIME_PATH (where language runtimes are found),\n"
    "CODECALC_LOG (debug|info|warning|error, default warning; logs go to stderr),\n"
    "CODECALC_AUDIT_LOG (audit trail; empty disables). docs/configuration.md lists them all.\n"
    "`codecalc call` works beside a running server except for calls that use the state\n"
    "directory (session_*, run_*, install_package, execute_code with a session_id).\n";

int main(int argc, char **argv) {
    cc_cli_guard_std_fds();
    /* A numeric, on/off or text knob set to what is not a value of it
     * (protocol/knob.h, flag.h, text_knob.h): no command runs on a number,
     * a state or a setting the operator did not write. */
    char why[512];
    if (cc_knobs_check(why, sizeof why) < 0 || cc_flags_check(why, sizeof why) < 0 ||
        cc_texts_check(why, sizeof why) < 0) {
        fprintf(stderr, "codecalc: %s\n", why);
        return 2;
    }
    cc_log_init();
    const char *cmd = argc > 1 ? argv[1] : "";
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
        printf("codecalc %s\n", CC_VERSION);
        return 0;
    }
    int status;
    if (cc_cli_dispatch(argc, argv, &status)) return status;
    if (strcmp(cmd, "serve-http") == 0) return cc_http_main(argc - 2, argv + 2);
    struct cc_server srv;
    if (cc_server_init(&srv, true, true) < 0) return 2;
    int rc = cc_stdio_serve(&srv);
    if (srv.fatal) rc = 2;
    cc_server_free(&srv);
    return rc;
}
