/* Which operator command argv names (TOOLS.md 9.1). */
#include "supervisor/cli/cli.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

void cc_cli_guard_std_fds(void) {
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
        int n = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        /* open() returns the lowest free number, which is fd itself. */
        if (n >= 0 && n != fd) {
            dup2(n, fd);
            close(n);
        }
    }
}

bool cc_cli_dispatch(int argc, char **argv, int *status) {
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } cmds[] = {
        {"doctor", cc_cli_doctor},   {"--check", cc_cli_doctor}, {"--check-install", cc_cli_doctor},
        {"status", cc_cli_status},   {"cleanup", cc_cli_cleanup}, {"setup", cc_cli_setup},
        {"tools", cc_cli_tools},     {"call", cc_cli_run_call},
    };
    if (argc < 2) return false;
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(argv[1], cmds[i].name) == 0) {
            *status = cmds[i].fn(argc - 1, argv + 1);
            return true;
        }
    return false;
}
