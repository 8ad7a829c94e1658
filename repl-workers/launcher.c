/* codecalc-repl main: leave the supervisor's process tree, record who we
 * are, start the first host, relay until told to stop (a kill frame, SIGTERM,
 * or our socket vanishing), then kill the host and remove our files.
 *
 * Usage (the supervisor only): codecalc-repl <sockdir> <session-id> <lang>
 * <workdir> <host-script>, with the bound, listening socket as fd 3. */
#include "repl-workers/launcher.h"
#include "repl-workers/repl_langs.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "protocol/monotonic.h"
#include "protocol/proc_stat.h"
#include "workers/exec/warm.h"

#define LISTEN_FD 3

static struct launcher L;

static void on_term(int sig) {
    (void)sig;
    L.stop = true;
}

/* "<pid> <start>\n" (with the start time, a recycled pid never passes for
 * us), written atomically next to the socket. */
static int write_pidfile(void) {
    char tmp[PATH_MAX + 8], text[64];
    int n = snprintf(text, sizeof text, "%ld %llu\n", (long)getpid(), (unsigned long long)cc_proc_start_time(0));
    if (snprintf(tmp, sizeof tmp, "%s.tmp", L.pid_path) >= (int)sizeof tmp) return -1;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) return -1;
    int ok = write(fd, text, (size_t)n) == n && fsync(fd) == 0;
    close(fd);
    if (!ok || rename(tmp, L.pid_path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

static int parse_args(int argc, char **argv) {
    if (argc != 6) return -1;
    L.sockdir = argv[1];
    L.id = argv[2];
    L.lang = argv[3];
    L.workdir = argv[4];
    L.script = argv[5];
    if (!cc_repl_lang_find(L.lang)) return -1;
    if (snprintf(L.sock_path, sizeof L.sock_path, "%s/%s.sock", L.sockdir, L.id) >= (int)sizeof L.sock_path ||
        snprintf(L.pid_path, sizeof L.pid_path, "%s/%s.pid", L.sockdir, L.id) >= (int)sizeof L.pid_path)
        return -1;
    struct stat st;
    if (lstat(L.sock_path, &st) != 0 || !S_ISSOCK(st.st_mode)) return -1;
    L.sock_dev = st.st_dev;
    L.sock_ino = st.st_ino;
    return 0;
}

/* Leave the supervisor's tree: the first process exits at once, the second
 * is re-parented and lives in a session of its own. */
static void detach(void) {
    pid_t p = fork();
    if (p < 0) {
        perror("codecalc-repl: fork");
        _exit(1);
    }
    if (p > 0) _exit(0);
    (void)setsid();
}

static void cleanup(void) {
    rl_host_stop(&L, NULL, NULL);
    /* Only remove what is still ours (a new launcher may own the name). */
    struct stat st;
    if (lstat(L.sock_path, &st) == 0 && st.st_ino == L.sock_ino && st.st_dev == L.sock_dev)
        unlink(L.sock_path);
    unlink(L.pid_path);
    sbx_result_free(&L.setup);
    json_decref(L.req_args);
    rl_queued_drop(&L);
    free(L.notice);
    cc_sb_free(&L.client.out);
    cc_sb_free(&L.host.out);
    cc_frame_reader_free(&L.client.rd);
    cc_frame_reader_free(&L.host.rd);
}

int main(int argc, char **argv) {
    L.client.fd = L.host.fd = -1;
    L.listen_fd = LISTEN_FD;
    L.log_fd = 2;
    cc_frame_reader_init(&L.client.rd);
    cc_frame_reader_init(&L.host.rd);
    if (parse_args(argc, argv) != 0) {
        fprintf(stderr, "usage: codecalc-repl <sockdir> <id> python3|node <workdir> <script> "
                        "(listening socket on fd 3; started by the codecalc server)\n");
        return 2;
    }
    if (fcntl(LISTEN_FD, F_SETFD, FD_CLOEXEC) != 0 || fcntl(LISTEN_FD, F_SETFL, O_NONBLOCK) != 0) {
        perror("codecalc-repl: listening socket");
        return 1;
    }
    detach();
    signal(SIGPIPE, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    struct sigaction sa = {.sa_handler = on_term};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    if (write_pidfile() != 0) fprintf(stderr, "codecalc-repl %s: cannot write %s: %s\n", L.id, L.pid_path, strerror(errno));
    /* The host's cgroups carry our pid: if we are killed, the janitor
     * removes them (the host itself dies with us). */
    if (cc_janitor_start() != 0) fprintf(stderr, "codecalc-repl %s: no janitor: %s\n", L.id, strerror(errno));
    char *why = NULL;
    if (rl_host_start(&L, &why) != 0) {
        /* Not fatal: the first call reports it (and retries the start). */
        fprintf(stderr, "codecalc-repl %s: host did not start: %s\n", L.id, why ? why : "?");
        free(why);
    }
    int rc = rl_relay_run(&L);
    cleanup();
    return rc == 0 ? 0 : 1;
}
