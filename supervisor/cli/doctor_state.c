/* The directories codecalc writes: the state directory (writable, its lock
 * and who holds it, the database) and the temp root of run directories.
 * Writability is established by writing, never inferred from modes. */
#include "supervisor/cli/doctor.h"
#include "protocol/text_knob.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "supervisor/home.h"

long cc_doc_lock_holder(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    FILE *f = fopen("/proc/locks", "re");
    if (!f) return 0;
    char line[256];
    long holder = 0;
    while (!holder && fgets(line, sizeof line, f)) {
        /* "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF" (a "->" marks a waiter). */
        char kind[16], mode[16], access[16];
        long pid;
        unsigned maj, min;
        unsigned long ino;
        if (strstr(line, "->")) continue;
        if (sscanf(line, "%*d: %15s %15s %15s %ld %x:%x:%lu", kind, mode, access, &pid, &maj, &min, &ino) != 7)
            continue;
        if (strcmp(kind, "FLOCK") == 0 && ino == st.st_ino && maj == major(st.st_dev) && min == minor(st.st_dev))
            holder = pid;
    }
    fclose(f);
    return holder;
}

/* Create, write, read back and remove a file in dir. NULL when that worked,
 * else why not (static storage). */
static const char *write_test(const char *dir) {
    static char why[512];
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/.doctor-XXXXXX", dir) >= (int)sizeof path) return "path too long";
    int fd = mkstemp(path);
    if (fd < 0) {
        snprintf(why, sizeof why, "cannot create a file in %s: %s", dir, strerror(errno));
        return why;
    }
    char back[9] = "";
    bool ok = write(fd, "codecalc", 8) == 8 && pread(fd, back, 8, 0) == 8 && memcmp(back, "codecalc", 8) == 0;
    int e = errno;
    close(fd);
    unlink(path);
    if (ok) return NULL;
    snprintf(why, sizeof why, "cannot write and read back a file in %s: %s", dir, strerror(e));
    return why;
}

json_t *cc_doc_state_dir(void) {
    char home[PATH_MAX];
    if (cc_home_dir(home, sizeof home) < 0) {
        const char *env = cc_text(CC_TEXT_HOME);
        return json_pack("{s:s?,s:b,s:s}", "path", env, "writable", 0, "error", strerror(errno));
    }
    const char *why = write_test(home);
    char lock[PATH_MAX + 8], db[PATH_MAX + 16];
    snprintf(lock, sizeof lock, "%s/lock", home);
    snprintf(db, sizeof db, "%s/state.db", home);
    long holder = cc_doc_lock_holder(lock);
    struct stat st;
    bool have_db = stat(db, &st) == 0;
    return json_pack("{s:s,s:b,s:s?,s:{s:s,s:b,s:o},s:{s:s,s:b,s:o}}", "path", home, "writable", why == NULL,
                     "error", why, "lock", "path", lock, "held", holder != 0, "holder_pid",
                     holder ? json_integer(holder) : json_null(), "database", "path", db, "exists", have_db,
                     "size_bytes", have_db ? json_integer((json_int_t)st.st_size) : json_null());
}

json_t *cc_doc_workspace(void) {
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp) tmp = "/tmp";
    char dir[PATH_MAX];
    if (snprintf(dir, sizeof dir, "%s/codecalc-doctor-XXXXXX", tmp) >= (int)sizeof dir)
        return json_pack("{s:s,s:b,s:s}", "path", tmp, "writable", 0, "error", "TMPDIR is too long");
    if (!mkdtemp(dir)) {
        char why[600];
        snprintf(why, sizeof why, "cannot create a directory in %s: %s", tmp, strerror(errno));
        return json_pack("{s:s,s:b,s:s}", "path", tmp, "writable", 0, "error", why);
    }
    const char *why = write_test(dir);
    rmdir(dir);
    return json_pack("{s:s,s:b,s:s?}", "path", tmp, "writable", why == NULL, "error", why);
}
