/* Content-addressed cache of compiled artifacts under $CODECALC_HOME/cache
 * (default ~/.codecalc/cache).
 *
 * Key: SHA-256 over the language, the toolchain identity (the resolved
 * compiler binary's device, inode, size and mtime: an upgrade replaces the
 * file and so changes the key without running the compiler to ask its
 * version), the compile template (flags) and the source bytes.
 *
 * Entry file "<key>": "CCC1" + SHA-256 of the payload + payload. Writers
 * write a temp name then rename (atomic); readers never lock and verify the
 * checksum while copying, so a torn or corrupt entry is deleted and reported
 * as a miss (rebuilt, never run). Least-recently-used eviction keeps the
 * directory under CODECALC_COMPILE_CACHE_MB (default 512) MiB; a hit
 * refreshes the entry's mtime, which is the LRU clock.
 */
#ifndef CC_COMPILE_CACHE_H
#define CC_COMPILE_CACHE_H

#include <stddef.h>

/* The cache directory, created (0700) if missing. Malloc'd, NULL if it cannot
 * be made (the caller then simply compiles). */
char *cc_cache_dir(void);

/* 64 hex digits + NUL into key. compiler_path is the resolved absolute path.
 * Returns 0, or -1 when the compiler cannot be stat'ed. */
int cc_cache_key(const char *lang, const char *compiler_path, const char *flags,
                 const char *src, size_t src_len, char key[65]);

/* Copy a valid entry to dest (created exclusively, mode 0755). Returns 1 on a
 * hit, 0 on a miss (a corrupt entry is removed first), -1 on an I/O error
 * (dest is removed). */
int cc_cache_fetch(const char *dir, const char *key, const char *dest);

/* Store the file at src under key, then evict. Returns 0 or -1 (the cache is
 * an optimisation: callers ignore failures). */
int cc_cache_store(const char *dir, const char *key, const char *src);

#endif
