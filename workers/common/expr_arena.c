/* Bump allocator for parse trees (see expr_arena.h). Blocks are chained so
 * one free walks them all; integers are remembered in their own chain because
 * GMP owns their limbs and only mpz_clear() may release them. */
#include "workers/common/expr_arena.h"

#include <stdlib.h>
#include <string.h>

#define ARENA_BLOCK 8192u
#define MPZ_PER_LIST 64u

struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

struct mpz_list {
    struct mpz_list *next;
    size_t n;
    mpz_ptr items[MPZ_PER_LIST];
};

struct cc_arena {
    struct arena_block *blocks;
    struct mpz_list *ints;
};

struct cc_arena *cc_arena_new(void) {
    return calloc(1, sizeof(struct cc_arena));
}

static void clear_ints(struct cc_arena *a) {
    for (struct mpz_list *l = a->ints, *next; l; l = next) {
        next = l->next;
        for (size_t i = 0; i < l->n; i++) mpz_clear(l->items[i]);
        free(l);
    }
    a->ints = NULL;
}

static void free_blocks(struct arena_block *b) {
    for (struct arena_block *next; b; b = next) {
        next = b->next;
        free(b);
    }
}

void cc_arena_free(struct cc_arena *a) {
    if (!a) return;
    clear_ints(a);
    free_blocks(a->blocks);
    free(a);
}

void cc_arena_reset(struct cc_arena *a) {
    clear_ints(a);
    /* keep one ordinary block; big ones (a request of its own) go */
    struct arena_block *keep = NULL, *b = a->blocks;
    for (struct arena_block **pp = &b; *pp; pp = &(*pp)->next)
        if ((*pp)->cap == ARENA_BLOCK) {
            keep = *pp;
            *pp = keep->next;
            break;
        }
    free_blocks(b);
    if (keep) {
        keep->next = NULL;
        keep->used = 0;
    }
    a->blocks = keep;
}

static struct arena_block *new_block(size_t cap) {
    if (cap > SIZE_MAX - sizeof(struct arena_block)) return NULL;
    struct arena_block *b = malloc(sizeof *b + cap);
    if (!b) return NULL;
    b->next = NULL;
    b->used = 0;
    b->cap = cap;
    return b;
}

void *cc_arena_alloc(struct cc_arena *a, size_t n) {
    if (!a || n > SIZE_MAX - 15) return NULL;
    n = (n + 15) & ~(size_t)15;
    if (n == 0) n = 16;
    struct arena_block *b = a->blocks;
    if (!b || b->cap - b->used < n) {
        /* Big requests get their own block so a small block is never wasted
         * on them; the new block goes behind the current one in that case. */
        struct arena_block *nb = new_block(n > ARENA_BLOCK ? n : ARENA_BLOCK);
        if (!nb) return NULL;
        if (b && n > ARENA_BLOCK) {
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->blocks = nb;
        }
        b = nb;
    }
    void *p = b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

char *cc_arena_strndup(struct cc_arena *a, const char *s, size_t n) {
    if (n == SIZE_MAX) return NULL;
    char *p = cc_arena_alloc(a, n + 1);
    if (!p) return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

int cc_arena_track_mpz(struct cc_arena *a, mpz_ptr z) {
    if (!a) return -1;
    struct mpz_list *l = a->ints;
    if (!l || l->n == MPZ_PER_LIST) {
        l = calloc(1, sizeof *l);
        if (!l) return -1;
        l->next = a->ints;
        a->ints = l;
    }
    l->items[l->n++] = z;
    return 0;
}

struct cc_node *cc_arena_node(struct cc_arena *a, enum cc_node_kind kind, uint32_t pos) {
    struct cc_node *n = cc_arena_alloc(a, sizeof *n);
    if (!n) return NULL;
    n->kind = kind;
    n->pos = pos;
    if (kind == CC_N_INT) {
        mpz_init(n->v.z);
        if (cc_arena_track_mpz(a, n->v.z) != 0) {
            mpz_clear(n->v.z);
            return NULL;
        }
    }
    return n;
}
