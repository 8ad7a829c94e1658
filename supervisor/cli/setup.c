/* `codecalc setup [--client NAME] [--write]`: configure an MCP client to
 * launch this codecalc over stdio. Without --write it prints the file it
 * would change and the result; with --write it merges our entry into the
 * client's file (other servers and settings kept), after copying the old
 * file to <file>.bak-<UTC time>. A file that exists but does not parse as a
 * JSON object is never overwritten (exit 1): the user's comments or syntax
 * would be lost.
 *
 * Each client gets its own state directory (~/.local/state/codecalc/NAME),
 * because one state directory serves one server at a time. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "protocol/fdio.h"
#include "protocol/json_convert.h"
#include "supervisor/cli/args.h"
#include "supervisor/cli/cli.h"
#include "supervisor/server.h"

enum shape { MCP_SERVERS, VSCODE_SERVERS, ZED_CONTEXT };

struct client {
    const char *name;
    const char *base;  /* "config", "home" or "cwd" */
    const char *rel;
    enum shape shape;
};

static const struct client clients[] = {
    {"claude-desktop", "config", "Claude/claude_desktop_config.json", MCP_SERVERS},
    {"claude-code", "cwd", ".mcp.json", MCP_SERVERS},
    {"cursor", "home", ".cursor/mcp.json", MCP_SERVERS},
    {"vscode", "cwd", ".vscode/mcp.json", VSCODE_SERVERS},
    {"zed", "config", "zed/settings.json", ZED_CONTEXT},
};
#define NCLIENTS (sizeof clients / sizeof clients[0])

static const char usage[] =
    "usage: codecalc setup [--client NAME] [--write]\n"
    "  NAME: claude-desktop, claude-code, cursor, vscode, zed\n"
    "  without --write the change is printed, not made\n";

static const char *home_dir(void) {
    const char *h = getenv("HOME");
    return h && *h ? h : "/";
}

static int target_path(const struct client *c, char *out, size_t cap) {
    char base[PATH_MAX];
    const char *xdg = getenv("XDG_CONFIG_HOME");
    if (strcmp(c->base, "config") == 0) {
        if (xdg && *xdg == '/') snprintf(base, sizeof base, "%s", xdg);
        else snprintf(base, sizeof base, "%s/.config", home_dir());
    } else if (strcmp(c->base, "home") == 0) {
        snprintf(base, sizeof base, "%s", home_dir());
    } else if (!getcwd(base, sizeof base)) {
        return -1;
    }
    return (size_t)snprintf(out, cap, "%s/%s", base, c->rel) < cap ? 0 : -1;
}

/* The entry for this client (new reference). */
static json_t *entry(const struct client *c) {
    char bindir[PATH_MAX], cmd[PATH_MAX + 16], state[PATH_MAX + 64];
    if (cc_server_bindir(bindir, sizeof bindir) < 0) snprintf(bindir, sizeof bindir, "/usr/bin");
    snprintf(cmd, sizeof cmd, "%s/codecalc", bindir);
    const char *xs = getenv("XDG_STATE_HOME");
    if (xs && *xs == '/') snprintf(state, sizeof state, "%s/codecalc/%s", xs, c->name);
    else snprintf(state, sizeof state, "%s/.local/state/codecalc/%s", home_dir(), c->name);
    json_t *env = json_pack("{s:s}", "CODECALC_HOME", state);
    if (c->shape == VSCODE_SERVERS)
        return json_pack("{s:s,s:s,s:[],s:o}", "type", "stdio", "command", cmd, "args", "env", env);
    return json_pack("{s:s,s:[],s:o}", "command", cmd, "args", "env", env);
}

static const char *container_key(enum shape s) {
    return s == MCP_SERVERS ? "mcpServers" : s == VSCODE_SERVERS ? "servers" : "context_servers";
}

/* The file as it is now: *doc a new object (empty when the file is absent).
 * -1 with why filled when it exists but is not a JSON object. */
static int load(const char *path, json_t **doc, bool *exists, char *why, size_t cap) {
    *doc = NULL;
    *exists = false;
    FILE *f = fopen(path, "re");
    if (!f) {
        if (errno != ENOENT) {
            snprintf(why, cap, "cannot read %s: %s", path, strerror(errno));
            return -1;
        }
        *doc = json_object();
        return 0;
    }
    *exists = true;
    json_error_t je;
    json_t *j = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
    fclose(f);
    if (!json_is_object(j)) {
        if (j) snprintf(why, cap, "%s holds JSON that is not an object", path);
        else snprintf(why, cap, "%s is not plain JSON (line %d: %s); it was left untouched — edit it by hand", path,
                      je.line, je.text);
        json_decref(j);
        return -1;
    }
    *doc = j;
    return 0;
}

static int merge(json_t *doc, const struct client *c, char *why, size_t cap) {
    const char *key = container_key(c->shape);
    json_t *box = json_object_get(doc, key);
    if (box && !json_is_object(box)) {
        snprintf(why, cap, "its \"%s\" member is not an object; it was left untouched", key);
        return -1;
    }
    if (!box) json_object_set_new(doc, key, box = json_object());
    json_object_set_new(box, "codecalc", entry(c));
    return 0;
}

/* Create every directory above the last '/' of path. */
static void mkdirs(const char *path, mode_t mode) {
    char d[PATH_MAX];
    snprintf(d, sizeof d, "%.4000s", path);
    for (char *p = d + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(d, mode);
            *p = '/';
        }
}

static int copy_file(const char *from, const char *to) {
    int in = open(from, O_RDONLY | O_CLOEXEC), out = -1;
    struct stat st;
    if (in < 0 || fstat(in, &st) != 0) goto fail;
    out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, st.st_mode & 0777);
    if (out < 0) goto fail;
    char buf[65536];
    ssize_t n;
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (cc_write_all(out, buf, (size_t)n) != 0) goto fail;
    if (n < 0 || close(out) != 0) {
        out = -1;
        goto fail;
    }
    close(in);
    return 0;
fail:
    if (in >= 0) close(in);
    if (out >= 0) close(out);
    return -1;
}

/* Back up, then replace atomically (temp file + rename). */
static int write_doc(const char *path, const char *text, bool exists, char *backup, size_t bcap, char *why,
                     size_t cap) {
    backup[0] = '\0';
    mkdirs(path, 0755);
    mode_t mode = 0644;
    struct stat st;
    if (exists && stat(path, &st) == 0) mode = st.st_mode & 0777;
    if (exists) {
        char stamp[32];
        time_t now = time(NULL);
        struct tm tm;
        gmtime_r(&now, &tm);
        strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
        snprintf(backup, bcap, "%s.bak-%s", path, stamp);
        if (copy_file(path, backup) != 0) {
            snprintf(why, cap, "cannot back up %.1000s to %.1000s: %s; nothing was changed", path, backup, strerror(errno));
            return -1;
        }
    }
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(tmp);
    size_t len = strlen(text);
    bool ok = fd >= 0 && fchmod(fd, mode) == 0 && cc_write_all(fd, text, len) == 0 && cc_write_all(fd, "\n", 1) == 0 &&
              fsync(fd) == 0;
    int e = errno;
    if (fd >= 0) close(fd);
    if (ok && rename(tmp, path) == 0) return 0;
    if (fd >= 0) unlink(tmp);
    snprintf(why, cap, "cannot write %.1000s: %s", path, strerror(ok ? errno : e));
    return -1;
}

/* The client's state directory must exist with its parents: the server
 * creates only the last component. */
static void make_state_dir(const struct client *c) {
    json_t *e = entry(c);
    const char *dir = json_string_value(json_object_get(json_object_get(e, "env"), "CODECALC_HOME"));
    char d[PATH_MAX + 2];
    snprintf(d, sizeof d, "%s/", dir ? dir : "");
    if (dir) mkdirs(d, 0700);
    json_decref(e);
}

static int setup_one(const struct client *c, bool do_write) {
    char path[PATH_MAX], why[PATH_MAX + 300], backup[PATH_MAX + 40];
    if (target_path(c, path, sizeof path) < 0) {
        fprintf(stderr, "codecalc setup: cannot form the %s configuration path\n", c->name);
        return 1;
    }
    json_t *doc;
    bool exists;
    if (load(path, &doc, &exists, why, sizeof why) < 0 || merge(doc, c, why, sizeof why) < 0) {
        fprintf(stderr, "codecalc setup: refusing to change %s: %s\n", c->name, why);
        json_decref(doc);
        return 1;
    }
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(doc);
    if (!text) return 1;
    int rc = 0;
    if (!do_write) {
        printf("%s: %s (%s)\n%s\n", c->name, path, exists ? "would be updated" : "would be created", text);
    } else if (write_doc(path, text, exists, backup, sizeof backup, why, sizeof why) < 0) {
        fprintf(stderr, "codecalc setup: %s\n", why);
        rc = 1;
    } else {
        if (*backup) printf("%s: wrote %s (previous version saved as %s)\n", c->name, path, backup);
        else printf("%s: wrote %s\n", c->name, path);
        make_state_dir(c);
    }
    free(text);
    return rc;
}

int cc_cli_setup(int argc, char **argv) {
    struct cc_cli_flag flags[] = {{"--client", true, false, NULL}, {"--write", false, false, NULL}, {NULL, false, false, NULL}};
    if (cc_cli_parse(argc, argv, flags, usage) < 0) return 2;
    const char *name = flags[0].value;
    if (!name) {
        if (flags[1].set) {
            fprintf(stderr, "codecalc setup: --write needs --client NAME\n%s", usage);
            return 2;
        }
        int rc = 0;
        for (size_t i = 0; i < NCLIENTS; i++) rc |= setup_one(&clients[i], false);
        puts("run `codecalc setup --client NAME --write` to apply one of these");
        return rc;
    }
    for (size_t i = 0; i < NCLIENTS; i++)
        if (strcmp(clients[i].name, name) == 0) return setup_one(&clients[i], flags[1].set);
    fprintf(stderr, "codecalc setup: unknown client '%s'\n%s", name, usage);
    return 2;
}
