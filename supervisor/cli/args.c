#include "supervisor/cli/args.h"

#include <stdio.h>
#include <string.h>

static struct cc_cli_flag *find(struct cc_cli_flag *flags, const char *arg, size_t len) {
    for (struct cc_cli_flag *f = flags; f->name; f++)
        if (strlen(f->name) == len && strncmp(f->name, arg, len) == 0) return f;
    return NULL;
}

int cc_cli_parse(int argc, char **argv, struct cc_cli_flag *flags, const char *usage) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        struct cc_cli_flag *f = find(flags, a, len);
        if (!f || (eq && !f->takes_value)) {
            fprintf(stderr, "codecalc %s: unknown argument '%s'\n%s", argv[0], a, usage);
            return -1;
        }
        f->set = true;
        if (!f->takes_value) continue;
        f->value = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
        if (!f->value || !*f->value) {
            fprintf(stderr, "codecalc %s: %s needs a value\n%s", argv[0], f->name, usage);
            return -1;
        }
    }
    return 0;
}

const struct cc_cli_flag *cc_cli_flag(const struct cc_cli_flag *flags, const char *name) {
    for (const struct cc_cli_flag *f = flags; f->name; f++)
        if (strcmp(f->name, name) == 0) return f;
    return NULL;
}
