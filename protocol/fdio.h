/* Whole-buffer writes and whole-file reads on file descriptors. */
#ifndef CC_FDIO_H
#define CC_FDIO_H

#include <stddef.h>

/* Write all of buf to a blocking fd, retrying on EINTR and short writes.
 * 0, or -1 with errno (EIO when write made no progress). */
int cc_write_all(int fd, const void *buf, size_t n);

/* What fd holds from its offset to end of file, when that is at most cap
 * bytes: a malloc'd, NUL-terminated buffer (the caller frees it) and its
 * length in *len. NULL with errno: EFBIG when there is more than cap,
 * ENOMEM, or read's error. fd is borrowed (left open). */
char *cc_read_fd(int fd, size_t cap, size_t *len);

/* cc_read_fd of path opened O_RDONLY | O_CLOEXEC | oflags (e.g. O_NOFOLLOW).
 * NULL with errno as open or cc_read_fd set it. */
char *cc_read_file(const char *path, int oflags, size_t cap, size_t *len);

#endif
