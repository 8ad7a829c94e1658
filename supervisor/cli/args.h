/* Flag parsing shared by the operator commands: each command names the
 * flags it takes; anything else is a usage error (exit status 2). */
#ifndef CC_CLI_ARGS_H
#define CC_CLI_ARGS_H

#include <stdbool.h>

struct cc_cli_flag {
    const char *name;     /* "--json" */
    bool takes_value;     /* "--client NAME" or "--client=NAME" */
    bool set;             /* out: seen */
    const char *value;    /* out: the value (borrowed from argv) */
};

/* Parse argv[1..argc-1] against flags (terminated by a NULL name). On an
 * unknown flag or a missing value prints "codecalc CMD: ..." and usage to
 * stderr and returns -1. */
int cc_cli_parse(int argc, char **argv, struct cc_cli_flag *flags, const char *usage);

/* The flag called name (it must be in the table). */
const struct cc_cli_flag *cc_cli_flag(const struct cc_cli_flag *flags, const char *name);

#endif
