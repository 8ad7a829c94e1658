/* Content-addressed cache of compiled artifacts under $CODECALC_HOME/cache/v2
 * (default ~/.codecalc/cache/v2).
 *
 * Key: SHA-256 over the language, the toolchain identity (the resolved
 * compiler binary's device, inode, size and mtime: an upgrade replaces the
 * file and so changes the key without running the compiler to ask its
 * version), the compile template (flags) and the source bytes.
 *
 * Entry file "<key>": the artifact itself, mode 0555, so a hit is one hash
 * (the key) and one open, and a native program runs straight from the
 * entry (execveat on its fd) with no copy and no source written. Writers
 * write a temp name, fsync, then rename (atomic): a reader never sees a
 * torn entry. Least-recently-used eviction keeps the directory under
 * CODECALC_COMPILE_CACHE_MB (default 512) MiB; a hit refreshes the entry's
 * mtime, which is the LRU clock, when it is a minute old or more.
 */
#ifndef CC_COMPILE_CACHE_H
#define CC_COMPILE_CACHE_H

#include <stddef.h>

/* The cache directory, created (0700) if missing: once per process and
 * state directory (cc_cache_store re-creates it if it went since).
 * Malloc'd, NULL if it cannot be made (the caller then simply compiles). */
char *cc_cache_dir(void);

/* 64 hex digits + NUL into key. compiler_path is the resolved absolute path.
 * Returns 0, or -1 when the compiler cannot be stat'ed. */
int cc_cache_key(const char *lang, const char *compiler_path, const char *flags,
                 const char *src, size_t src_len, char key[65]);

/* The entry for key opened read-only (close-on-exec), or -1 on a miss. */
int cc_cache_open(const char *dir, const char *key);

/* Copy an open entry to dest (created exclusively, mode 0755). 0, or -1
 * (dest is removed). */
int cc_cache_copy(int entry_fd, const char *dest);

/* Store the file at src under key, then evict. Returns 0 or -1 (the cache is
 * an optimisation: callers ignore failures). */
int cc_cache_store(const char *dir, const char *key, const char *src);

#endif
