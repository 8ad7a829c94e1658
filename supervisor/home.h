/* $CODECALC_HOME (default ~/.codecalc): where state.db, sessions/, runs/ and
 * cache/ live. */
#ifndef CC_HOME_H
#define CC_HOME_H

#include <stddef.h>

/* Writes the absolute path into out; creates the directory (0700) if
 * missing. Returns 0, or -1 with errno set. */
int cc_home_dir(char *out, size_t cap);

#endif
