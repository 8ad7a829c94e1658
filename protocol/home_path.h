/* Where the state directory is: $CODECALC_HOME, else ~/.codecalc (HOME,
 * else the password entry). Shared by the supervisor (which creates it,
 * supervisor/home.h) and the workers (the audit log lives under it). */
#ifndef CC_HOME_PATH_H
#define CC_HOME_PATH_H

#include <stddef.h>

/* The path into out, nothing created. 0, or -1 with errno set (ENOENT: no
 * home directory known; ENAMETOOLONG). */
int cc_home_path(char *out, size_t cap);

#endif
