/* Benchmarks of the stdio server, each printed beside a baseline measured in
 * the same run:
 *   spawn   — codecalc start to its initialize answer (median of 20),
 *             beside fork+exec of /bin/true;
 *   rate    — calc_exact calls per second with 64 in flight on one
 *             connection, beside a ping round trip rate (transport only);
 *   latency — p50/p99 of calc_exact with 1 in flight, beside ping;
 *   rss     — supervisor resident memory when idle.
 * usage: bench_stdio PATH-TO-codecalc */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static int start(struct srv *s, const char *bin) {
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
        execl(bin, bin, (char *)NULL);
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

static const char init_msg[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
    "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}\n";

static void bench_spawn(const char *bin) {
    double t[20], base[20];
    for (int i = 0; i < 20; i++) {
        double t0 = now();
        pid_t p = fork();
        if (p == 0) {
            execl("/bin/true", "true", (char *)NULL);
            _exit(127);
        }
        waitpid(p, NULL, 0);
        base[i] = (now() - t0) * 1e3;

        struct srv s;
        t0 = now();
        start(&s, bin);
        send_line(&s, init_msg);
        read_line(&s);
        t[i] = (now() - t0) * 1e3;
        stop(&s);
    }
    qsort(t, 20, sizeof t[0], cmp);
    qsort(base, 20, sizeof base[0], cmp);
    printf("spawn -> initialize answer: median %.2f ms   (baseline fork+exec /bin/true: %.2f ms, ratio %.1fx; target <= 15 ms)\n",
           t[10], base[10], t[10] / base[10]);
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

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: bench_stdio PATH-TO-codecalc\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    bench_spawn(argv[1]);

    struct srv s;
    start(&s, argv[1]);
    send_line(&s, init_msg);
    read_line(&s);
    rate(&s, 2000, 64, 0); /* warm the pool */
    double r = rate(&s, 20000, 64, 0), rp = rate(&s, 20000, 64, 1);
    printf("calc_exact, 64 in flight: %.0f calls/s   (baseline ping, transport only: %.0f/s; target >= 20000)\n", r, rp);
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
