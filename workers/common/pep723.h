/* The inline script metadata of PEP 723: a python program may declare its
 * dependencies in a comment block
 *
 *     # /// script
 *     # dependencies = ["requests<3", "rich"]
 *     # ///
 *
 * which per-run `dependencies` merge with (docs/contract.md). Only the
 * `dependencies` key is read; its value is a TOML array of strings (basic or
 * literal), possibly over several lines, with comments and a trailing comma.
 *
 * Ownership: the list is a malloc'd array of malloc'd strings (cc_pep723_free). */
#ifndef CC_PEP723_H
#define CC_PEP723_H

#include <stddef.h>

/* 0 with the list in out and its length in n (0 when the code has no script block or the block no
 * dependencies); -1 with a sentence in err when the block is malformed
 * (unclosed, twice, a value that is not an array of strings). At most
 * max entries are read; more is an error. */
int cc_pep723_dependencies(const char *code, size_t len, size_t max, char ***out, size_t *n, char *err,
                           size_t errcap);
void cc_pep723_free(char **v, size_t n);

#endif
