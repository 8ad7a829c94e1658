/* The operator commands of the command line (TOOLS.md 9.1): doctor, status,
 * cleanup, setup and tools. Each writes to stdout, never starts the MCP
 * server, and returns the process exit status. argv[0] is the command name. */
#ifndef CC_CLI_H
#define CC_CLI_H

#include <jansson.h>
#include <stdbool.h>

struct cc_registry;

/* Run the operator command named by argv[1], if it is one: returns true
 * and sets *status; false when argv[1] is not an operator command. */
bool cc_cli_dispatch(int argc, char **argv, int *status);

/* Make sure descriptors 0, 1 and 2 are open (on /dev/null when they were
 * closed), so no file the server opens later can take their numbers and be
 * mistaken for the protocol stream. */
void cc_cli_guard_std_fds(void);

int cc_cli_doctor(int argc, char **argv);
int cc_cli_status(int argc, char **argv);
int cc_cli_cleanup(int argc, char **argv);
int cc_cli_setup(int argc, char **argv);
int cc_cli_tools(int argc, char **argv);
int cc_cli_run_call(int argc, char **argv);

/* New array of {name, group, title} of reg, in registration order. */
json_t *cc_cli_tools_json(const struct cc_registry *reg);

#endif
