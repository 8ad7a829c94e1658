/* Benchmarks of the stdio server, each printed beside a baseline measured in
 * the same run:
 *   spawn   — codecalc start to its initialize answer (median of 20),
 *             beside fork+exec of /bin/true;
 *   rate    — calc_exact calls per second with 64 in flight on one
 *             connection, beside JSON-RPC ping on the same pipe (transport
 *             only): rounds of each, interleaved, medians reported, with
 *             the CPU time the server (supervisor + workers) spent per call,
 *             which a loaded machine disturbs far less than the rate;
 *   latency — p50/p99 of calc_exact with 1 in flight, beside ping;
 *   rss     — supervisor resident memory when idle.
 * usage: bench_stdio PATH-TO-codecalc
 *        bench_stdio --load N calc|ping PATH-TO-codecalc [ARGS...]
 *          (initialize, N calls with 64 in flight, close: a fixed load for
 *          profilers such as `valgrind --tool=callgrind`, which then wraps
 *          the server: --load N calc valgrind ... codecalc) */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct srv {
    pid_t pid;
    int in, out;       /* we write to in, read from out */
    char buf[1 << 20];
    size_t len;
};

static int start(struct srv *s, char *const argv[]) {
    int a[2], b[2];
    if (pipe(a) < 0 || pipe(b) < 0) return -1;
    s->pid = fork();
    if (s->pid < 0) return -1;
    if (s->pid == 0) {
        dup2(a[0], 0);
        dup2(b[1], 1);
        int dn = open("/dev/null", O_WRONLY);
        if (dn >= 0) dup2(dn, 2);
        close(a[1]);
        close(b[0]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(a[0]);
    close(b[1]);
    s->in = a[1];
    s->out = b[0];
    s->len = 0;
    return 0;
}

static void stop(struct srv *s) {
    close(s->in);
    close(s->out);
    kill(s->pid, SIGTERM);
    waitpid(s->pid, NULL, 0);
}

/* Close stdin and wait for the server to drain and exit on its own (a
 * profiler wrapping it then writes its output). */
static void finish(struct srv *s) {
    close(s->in);
    char sink[4096];
    while (read(s->out, sink, sizeof sink) > 0) {}
    close(s->out);
    waitpid(s->pid, NULL, 0);
}

static void send_line(struct srv *s, const char *line) {
    size_t n = strlen(line);
    while (n) {
        ssize_t w = write(s->in, line, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) exit(1);
        line += w;
        n -= (size_t)w;
    }
}

/* Read one complete line (response); returns a pointer valid until next call. */
static char *read_line(struct srv *s) {
    static char line[1 << 16];
    for (;;) {
        char *nl = memchr(s->buf, '\n', s->len);
        if (nl) {
            size_t n = (size_t)(nl - s->buf);
            size_t c = n < sizeof line - 1 ? n : sizeof line - 1;
            memcpy(line, s->buf, c);
            line[c] = '\0';
            memmove(s->buf, nl + 1, s->len - n - 1);
            s->len -= n + 1;
            return line;
        }
        ssize_t r = read(s->out, s->buf + s->len, sizeof s->buf - s->len);
        if (r <= 0) {
            fprintf(stderr, "bench: server closed\n");
            exit(1);
        }
        s->len += (size_t)r;
    }
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof v[0], cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static const char init_msg[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
    "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}\n";

/* Start a server with CODECALC_HOME set to home (when not empty), send
 * initialize and return the milliseconds until its answer. */
static double start_to_initialize(char *const argv[], const char *home, const char *restore) {
    if (*home) setenv("CODECALC_HOME", home, 1);
    struct srv s;
    double t0 = now();
    start(&s, argv);
    send_line(&s, init_msg);
    read_line(&s);
    double ms = (now() - t0) * 1e3;
    stop(&s);
    if (*home) setenv("CODECALC_HOME", restore, 1);
    return ms;
}

static void bench_spawn(const char *bin) {
    double t[20], base[20];
    char *argv[] = {(char *)bin, NULL};
    /* Two state directories, used in turn and set up before the timing: a
     * killed server's lock can outlive it for a moment (a child between its
     * vfork and exec), and a first start creates the database. */
    char base_home[4096], home[2][4200];
    snprintf(base_home, sizeof base_home, "%s", getenv("CODECALC_HOME") ? getenv("CODECALC_HOME") : "");
    for (int k = 0; k < 2; k++) {
        snprintf(home[k], sizeof home[k], "%s/spawn-%d", base_home, k);
        if (!*base_home || mkdir(home[k], 0700) < 0) home[k][0] = '\0';
        start_to_initialize(argv, home[k], base_home);
    }
    for (int i = 0; i < 20; i++) {
        double t0 = now();
        pid_t p = fork();
        if (p == 0) {
            execl("/bin/true", "true", (char *)NULL);
            _exit(127);
        }
        waitpid(p, NULL, 0);
        base[i] = (now() - t0) * 1e3;
        t[i] = start_to_initialize(argv, home[i % 2], base_home);
    }
    double tm = median(t, 20), bm = median(base, 20);
    printf("spawn -> initialize answer: median %.2f ms   (baseline fork+exec /bin/true: %.2f ms, ratio %.1fx; target <= 10 ms)\n",
           tm, bm, tm / bm);
}

static void call_line(char *out, size_t cap, int id, int k, int ping) {
    if (ping)
        snprintf(out, cap, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"ping\"}\n", id);
    else
        snprintf(out, cap,
                 "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":"
                 "\"calc_exact\",\"arguments\":{\"expr\":\"%d*3+1/7\"}}}\n",
                 id, k);
}

static double rate(struct srv *s, int total, int window, int ping) {
    char line[512];
    int sent = 0, got = 0;
    double t0 = now();
    while (got < total) {
        while (sent < total && sent - got < window) {
            call_line(line, sizeof line, 1000 + sent, sent, ping);
            send_line(s, line);
            sent++;
        }
        read_line(s);
        got++;
    }
    return total / (now() - t0);
}

/* CPU time (ns) a task has run: the first field of /proc/PID/schedstat. */
static double task_cpu_ns(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/schedstat", (int)pid);
    FILE *f = fopen(path, "r");
    double ns = 0;
    if (f) {
        if (fscanf(f, "%lf", &ns) != 1) ns = 0;
        fclose(f);
    }
    return ns;
}

/* CPU time of the server: the supervisor and its live children. A worker
 * replaced in between would be missed; none is during a run. */
static double server_cpu_ns(pid_t pid, double *children) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid, (int)pid);
    FILE *f = fopen(path, "r");
    double kids = 0;
    int c;
    while (f && fscanf(f, "%d", &c) == 1) kids += task_cpu_ns(c);
    if (f) fclose(f);
    *children = kids;
    return task_cpu_ns(pid);
}

struct round {
    double rate, sup_us, work_us; /* calls/s; CPU microseconds per call */
};

static struct round measured_rate(struct srv *s, int total, int ping) {
    double k0, k1;
    double s0 = server_cpu_ns(s->pid, &k0);
    struct round r = {.rate = rate(s, total, 64, ping)};
    double s1 = server_cpu_ns(s->pid, &k1);
    r.sup_us = (s1 - s0) / 1e3 / total;
    r.work_us = (k1 - k0) / 1e3 / total;
    return r;
}

static void latency(struct srv *s, int n, int ping, double *p50, double *p99) {
    double *t = calloc((size_t)n, sizeof *t);
    char line[512];
    for (int i = 0; i < n; i++) {
        call_line(line, sizeof line, 500000 + i, i, ping);
        double t0 = now();
        send_line(s, line);
        read_line(s);
        t[i] = (now() - t0) * 1e3;
    }
    qsort(t, (size_t)n, sizeof t[0], cmp);
    *p50 = t[n / 2];
    *p99 = t[n * 99 / 100];
    free(t);
}

static long rss_kb(pid_t pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld", &kb) == 1) break;
    if (f) fclose(f);
    return kb;
}

static int load(int n, const char *kind, char *const argv[]) {
    struct srv s;
    if (start(&s, argv) < 0) return 1;
    send_line(&s, init_msg);
    read_line(&s);
    double r = rate(&s, n, 64, strcmp(kind, "ping") == 0);
    finish(&s);
    fprintf(stderr, "bench_stdio --load: %d %s calls, %.0f/s\n", n, kind, r);
    return 0;
}

#define ROUNDS 7

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    /* A state directory of our own (scripts/bench passes one): one server
     * may hold one, and the default may belong to another server here. */
    if (!getenv("CODECALC_HOME"))
        fprintf(stderr, "bench_stdio: CODECALC_HOME is not set; a server elsewhere on this host "
                        "may hold the default state directory\n");
    if (argc >= 5 && strcmp(argv[1], "--load") == 0) return load(atoi(argv[2]), argv[3], argv + 4);
    if (argc < 2) {
        fprintf(stderr, "usage: bench_stdio PATH-TO-codecalc | --load N calc|ping CMD...\n");
        return 2;
    }
    bench_spawn(argv[1]);

    struct srv s;
    char *sargv[] = {argv[1], NULL};
    start(&s, sargv);
    send_line(&s, init_msg);
    read_line(&s);
    rate(&s, 5000, 64, 0); /* warm the pool */
    double cr[ROUNDS], pr[ROUNDS], ratio[ROUNDS], csup[ROUNDS], cwork[ROUNDS], psup[ROUNDS];
    for (int i = 0; i < ROUNDS; i++) {
        struct round c = measured_rate(&s, 20000, 0), p = measured_rate(&s, 20000, 1);
        cr[i] = c.rate, pr[i] = p.rate, ratio[i] = c.rate / p.rate;
        csup[i] = c.sup_us, cwork[i] = c.work_us, psup[i] = p.sup_us;
    }
    double crm = median(cr, ROUNDS), prm = median(pr, ROUNDS), ratm = median(ratio, ROUNDS);
    printf("calc_exact, 64 in flight: %.0f calls/s   (baseline ping on the same pipe: %.0f/s; "
           "ratio %.2f, median of %d interleaved rounds; target >= 25000 calls/s, ratio >= 0.35)\n",
           crm, prm, ratm, ROUNDS);
    double cs = median(csup, ROUNDS), cw = median(cwork, ROUNDS), ps = median(psup, ROUNDS);
    printf("  server CPU per call: calc_exact %.2f us (supervisor %.2f + workers %.2f), ping %.2f us; "
           "ratio %.2f\n", cs + cw, cs, cw, ps, ps / (cs + cw));
    double p50, p99, b50, b99;
    latency(&s, 2000, 0, &p50, &p99);
    latency(&s, 2000, 1, &b50, &b99);
    printf("calc_exact, 1 in flight: p50 %.3f ms, p99 %.3f ms   (baseline ping: p50 %.3f ms, p99 %.3f ms; target p50 <= 0.2 ms)\n",
           p50, p99, b50, b99);
    sleep(1);
    printf("supervisor idle RSS: %ld KiB   (target <= 10240 KiB)\n", rss_kb(s.pid));
    stop(&s);
    return 0;
}
