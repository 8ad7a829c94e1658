/* Corpus replay without libFuzzer (`make check`): each argument is a file or
 * a directory of files; every file is run once through the target's
 * LLVMFuzzerTestOneInput, in name order, under the sanitizer build. A
 * sanitizer report or a broken FZ_ASSERT aborts with the file's name
 * printed first. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/fz.h"

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    return 0;
}

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            unsigned char *nb = realloc(buf, cap * 2);
            if (!nb) break;
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) return -1;
    fprintf(stderr, "replay: %s\n", path);
    /* An exact-size copy, so ASan sees reads past the input's end. */
    unsigned char *exact = malloc(n ? n : 1);
    if (!exact) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b) {
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int run_path(const char *path, int *count) {
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        (*count)++;
        return run_file(path);
    }
    struct dirent **ents;
    int k = scandir(path, &ents, NULL, by_name);
    if (k < 0) return -1;
    int rc = 0;
    for (int i = 0; i < k; i++) {
        if (ents[i]->d_name[0] != '.' && rc == 0) {
            char sub[4096];
            snprintf(sub, sizeof sub, "%s/%s", path, ents[i]->d_name);
            rc = run_path(sub, count);
        }
        free(ents[i]);
    }
    free(ents);
    return rc;
}

int main(int argc, char **argv) {
    LLVMFuzzerInitialize(&argc, &argv);
    int count = 0;
    for (int i = 1; i < argc; i++)
        if (run_path(argv[i], &count) < 0) return 1;
    const char *name = argc > 0 ? argv[0] : "?", *slash = strrchr(name, '/');
    printf("%s: %d inputs, 0 failures\n", slash ? slash + 1 : name, count);
    return 0;
}
