/* Memory ceiling of the compute workers (TOOLS.md 2.5: 2048 MiB). A
 * sanitizer build reserves terabytes of shadow address space, so there the
 * ceiling cannot be an address-space rlimit and is left off. */
#ifndef CC_LIMITS_H
#define CC_LIMITS_H

#if defined(__SANITIZE_ADDRESS__)
#define CC_COMPUTE_AS_LIMIT 0ULL
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CC_COMPUTE_AS_LIMIT 0ULL
#endif
#endif
#ifndef CC_COMPUTE_AS_LIMIT
#define CC_COMPUTE_AS_LIMIT (2048ULL << 20)
#endif
#define CC_COMPUTE_CPU_S 10

#endif
