/* The loops around read(2) and write(2) that every process needs once.
 *
 * Why here: a write to a pipe, socket or file may be short or interrupted by
 * a signal, and a read of a file may return less than was asked before end
 * of file; a hand-written loop per call site is where such a case goes
 * missing. Reads are bounded by the caller's cap, never by what the file
 * claims: a file may grow between fstat and read, so one byte past the cap
 * is asked for and its arrival means "too large". */
#include "protocol/fdio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int cc_write_all(int fd, const void *buf, size_t n) {
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) return -1;
        if (w == 0) return errno = EIO, -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

char *cc_read_fd(int fd, size_t cap, size_t *len) {
    if (cap > SIZE_MAX / 4) cap = SIZE_MAX / 4;
    struct stat st;
    bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    /* A regular file's size refuses an oversized one before any allocation
     * and sizes the buffer; anything else grows it as bytes arrive. */
    if (regular && (uint64_t)st.st_size > cap) return errno = EFBIG, NULL;
    size_t want = regular ? (size_t)st.st_size : (cap < 4096 ? cap : 4096);
    size_t size = want + 2, got = 0;
    char *buf = malloc(size);
    if (!buf) return errno = ENOMEM, NULL;
    for (;;) {
        if (got == size - 1) {
            if (got > cap) break;
            size_t bigger = size * 2 < cap + 2 ? size * 2 : cap + 2;
            char *nb = realloc(buf, bigger);
            if (!nb) {
                free(buf);
                return errno = ENOMEM, NULL;
            }
            buf = nb;
            size = bigger;
        }
        ssize_t n = read(fd, buf + got, size - 1 - got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            int e = errno;
            free(buf);
            return errno = e, NULL;
        }
        if (n == 0) break;
        got += (size_t)n;
    }
    if (got > cap) {
        free(buf);
        return errno = EFBIG, NULL;
    }
    buf[got] = '\0';
    *len = got;
    return buf;
}

char *cc_read_file(const char *path, int oflags, size_t cap, size_t *len) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | oflags);
    if (fd < 0) return NULL;
    char *buf = cc_read_fd(fd, cap, len);
    int e = errno;
    close(fd);
    errno = e;
    return buf;
}
