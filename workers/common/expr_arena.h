/* A bump allocator that owns every node of one parse.
 *
 * Ownership: the caller of cc_arena_new() owns the arena and frees it with
 * cc_arena_free(), which releases every block handed out and mpz_clear()s
 * every integer registered with it (CC_N_INT nodes made by cc_arena_node()).
 * Nothing allocated from an arena may be freed on its own.
 */
#ifndef CC_EXPR_ARENA_H
#define CC_EXPR_ARENA_H

#include <gmp.h>
#include <stddef.h>
#include <stdint.h>

#include "workers/common/expr_ast.h"

struct cc_arena;

/* NULL on allocation failure. */
struct cc_arena *cc_arena_new(void);
/* Accepts NULL. */
void cc_arena_free(struct cc_arena *a);
/* Release everything handed out (as cc_arena_free does) but keep the
 * arena and its first block for the next parse, so a parse on a hot path
 * allocates nothing up front. */
void cc_arena_reset(struct cc_arena *a);
/* Zeroed, 16-byte aligned memory; NULL on allocation failure or overflow. */
void *cc_arena_alloc(struct cc_arena *a, size_t n);
/* NUL-terminated copy of s[0..n); NULL on allocation failure. */
char *cc_arena_strndup(struct cc_arena *a, const char *s, size_t n);
/* Registers an initialised mpz so the arena clears it; 0, or -1 on failure
 * (then the caller still owns z and must clear it). */
int cc_arena_track_mpz(struct cc_arena *a, mpz_ptr z);
/* A zeroed node of the given kind; for CC_N_INT the value is initialised to
 * 0 and tracked. NULL on allocation failure. */
struct cc_node *cc_arena_node(struct cc_arena *a, enum cc_node_kind kind, uint32_t pos);

#endif
