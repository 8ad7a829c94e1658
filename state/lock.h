/* One server per state directory: an exclusive flock on <dir>/lock, held for
 * the life of the process. The lock file records the holder's pid so the
 * refusal can name it.
 *
 * Process-wide and idempotent: runs and sessions both call cc_state_lock()
 * at start-up; the second call in the same process is a no-op. The
 * descriptor is close-on-exec, so children (workers, run shepherds) never
 * inherit the lock and a restarted server can take it while they live on.
 */
#ifndef CC_STATE_LOCK_H
#define CC_STATE_LOCK_H

#include <stddef.h>

/* 0 when this process holds the lock of dir; -1 with a message in err
 * (another process holds it, or the file cannot be opened). */
int cc_state_lock(const char *dir, char *err, size_t errcap);
/* Release (at exit). Safe to call when not held. */
void cc_state_unlock(void);

#endif
