/* Which state backend this process uses, and who "this server" is to the
 * shared one.
 *
 * CODECALC_DATABASE_URL unset or empty: the embedded sqlite file in
 * CODECALC_HOME (one server). Set: PostgreSQL at that URL, shared by every
 * server given the same URL (docs/cluster.md).
 *
 * The identity is process-wide: the supervisor sets it once at start-up
 * (its server id, and its internal URL when it serves HTTP); the shared
 * stores stamp it on what they write (run claims, session owners).
 */
#ifndef CC_STATE_SHARED_H
#define CC_STATE_SHARED_H

#include <stdbool.h>

/* The URL, or NULL for the embedded database. */
const char *cc_state_database_url(void);

#define CC_SERVER_ID_MAX 64
#define CC_SERVER_URL_MAX 256

void cc_state_set_identity(const char *server_id, const char *url);
const char *cc_state_server_id(void);   /* "" until set */
const char *cc_state_server_url(void);  /* "" when none (no HTTP) */

#endif
