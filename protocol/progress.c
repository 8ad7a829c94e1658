/* The progress page between a worker and the supervisor (progress.h). */
#include "protocol/progress.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096

int cc_progress_create(int *fd, const struct cc_progress **map) {
    int f = memfd_create("codecalc-progress", MFD_CLOEXEC);
    if (f < 0) return -1;
    void *m = ftruncate(f, PAGE) == 0 ? mmap(NULL, PAGE, PROT_READ, MAP_SHARED, f, 0) : MAP_FAILED;
    if (m == MAP_FAILED) {
        int e = errno;
        close(f);
        errno = e;
        return -1;
    }
    *fd = f;
    *map = m;
    return 0;
}

void cc_progress_unmap(const struct cc_progress *map) {
    if (map) munmap((void *)map, PAGE);
}

struct cc_progress *cc_progress_attach(void) {
    const char *v = getenv(CC_PROGRESS_ENV);
    if (!v) return NULL;
    int fd = atoi(v);
    unsetenv(CC_PROGRESS_ENV);
    if (fd < 3) return NULL;
    void *m = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    return m == MAP_FAILED ? NULL : m;
}
