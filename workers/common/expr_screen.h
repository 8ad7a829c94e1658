/* The safety screen every expression passes before it is parsed (TOOLS.md
 * 2.1 length cap, 2.2 token screen and heavy-argument check). */
#ifndef CC_EXPR_SCREEN_H
#define CC_EXPR_SCREEN_H

#include <stdbool.h>
#include <stddef.h>

#include "workers/common/expr_lex.h"

/* Longest expression accepted, in characters (UTF-8 code points). */
#define CC_EXPR_MAX_CHARS 2000
/* Largest integer literal allowed inside a heavy function's arguments. */
#define CC_EXPR_HEAVY_LIMIT 1463

/* 0 when src[0..len) may be parsed; -1 with err set otherwise. Runs the
 * length cap first, so any input, however long, is refused in O(len). */
int cc_expr_screen(const char *src, size_t len, struct cc_expr_error *err);

/* cc_expr_screen() that hands the tokens it made to the caller, so a parse
 * can follow without tokenising again. On success *toks is malloc'd (the
 * caller frees it) with *ntoks entries, the last CC_T_END; on failure -1,
 * err set and *toks NULL. */
int cc_expr_screen_keep(const char *src, size_t len, struct cc_token **toks, size_t *ntoks,
                        struct cc_expr_error *err);

/* Self-check: the screen's word tables are sorted (for the unit tests). */
bool cc_expr_screen_tables_sorted(void);

#endif
