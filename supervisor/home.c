#include "supervisor/home.h"

#include <errno.h>
#include <sys/stat.h>

#include "protocol/home_path.h"

int cc_home_dir(char *out, size_t cap) {
    if (cc_home_path(out, cap) < 0) return -1;
    if (mkdir(out, 0700) < 0 && errno != EEXIST) return -1;
    return 0;
}
