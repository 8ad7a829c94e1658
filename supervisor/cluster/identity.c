/* This server's identity in the cluster (see cluster.h). */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "protocol/knob.h"
#include "protocol/text_knob.h"
#include "protocol/fdio.h"
#include "state/shared.h"
#include "supervisor/cluster/cluster.h"
#include "supervisor/log.h"

#define ID_FILE "server-id"

/* A short readable id: host name (cut) + 8 random hex. Kept across
 * restarts, so a restarted server still owns the runs its surviving
 * shepherds hold. */
static int make_id(char *out, size_t cap) {
    unsigned char b[4];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b) return -1;
    char host[32] = "server";
    if (gethostname(host, sizeof host) < 0) snprintf(host, sizeof host, "server");
    host[sizeof host - 1] = '\0';
    for (char *p = host; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-')) *p = '-';
    snprintf(out, cap, "%.31s-%02x%02x%02x%02x", host, b[0], b[1], b[2], b[3]);
    return 0;
}

/* Ids appear in metric labels and log lines: only
 * [A-Za-z0-9_-], as make_id writes them. */
static bool id_valid(const char *id) {
    if (!id[0]) return false;
    for (const char *p = id; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
            return false;
    return true;
}

int cc_cluster_identity_init(const char *home) {
    char path[4200], id[CC_SERVER_ID_MAX] = "";
    if (snprintf(path, sizeof path, "%s/%s", home, ID_FILE) >= (int)sizeof path) return -1;
    size_t len;
    char *text = cc_read_file(path, O_NOFOLLOW, 256, &len);
    if (text) {
        text[strcspn(text, "\r\n")] = '\0';
        snprintf(id, sizeof id, "%s", text);
        free(text);
    }
    if (!id_valid(id)) {
        if (make_id(id, sizeof id) < 0) return -1;
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
        char line[CC_SERVER_ID_MAX + 2];
        int n = snprintf(line, sizeof line, "%s\n", id);
        if (fd < 0 || cc_write_all(fd, line, (size_t)n) < 0 || close(fd) < 0) {
            fprintf(stderr, "codecalc: cannot record the server id in %s: %s\n", path, strerror(errno));
            if (fd >= 0) close(fd);
            return -1;
        }
    }
    const char *adv = cc_text(CC_TEXT_ADVERTISE_URL);
    cc_state_set_identity(id, adv ? adv : "");
    return 0;
}

void cc_cluster_advertise(struct cc_server *srv, const char *host, int port) {
    (void)srv;
    if (cc_text(CC_TEXT_ADVERTISE_URL)) return;
    char url[CC_SERVER_URL_MAX];
    bool v6 = strchr(host, ':') != NULL;
    snprintf(url, sizeof url, "http://%s%s%s:%d/mcp", v6 ? "[" : "", host, v6 ? "]" : "", port);
    cc_state_set_identity(NULL, url);
}

double cc_cluster_lease_s(void) { return (double)cc_knob(CC_KNOB_RUN_LEASE_SECONDS) / 1000.0; }
