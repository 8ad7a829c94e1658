/* The audit log (TOOLS.md 10.3): one JSON object per line, keys sorted,
 * {timestamp, event_type, run_id, session_id, decision, reason, ...metadata},
 * in $CODECALC_AUDIT_LOG (default $CODECALC_HOME/audit/audit.log; set but
 * empty disables it). The live file rotates at CODECALC_AUDIT_MAX_MB
 * (default 10): audit.log -> .1 -> .2, two generations kept.
 *
 * Events never carry source, stdin or output; known credential values
 * (CODECALC_HTTP_TOKEN, CODECALC_STRICT_AUTHORIZATION,
 * CODECALC_PISTON_AUTHORIZATION, and each one's part after an auth scheme)
 * are replaced by "[REDACTED]" wherever they appear. Writing is best effort:
 * a failure never fails what is being recorded. Any process may write
 * (server, exec worker, `codecalc cleanup`); appends are whole lines. */
#ifndef CC_AUDIT_H
#define CC_AUDIT_H

#include <jansson.h>
#include <stddef.h>

/* Record one event. run_id, session_id, decision, reason may be NULL (null
 * in the record); metadata (borrowed, may be NULL) adds its members. */
void cc_audit_event(const char *event_type, const char *run_id, const char *session_id,
                    const char *decision, const char *reason, const json_t *metadata);

/* The audit log path into out: 1 enabled, 0 disabled (empty variable),
 * -1 when no path can be formed. */
int cc_audit_path(char *out, size_t cap);

/* {path, enabled, size_bytes, rotate_at_bytes, generations, rotated} for
 * doctor and status. New reference. */
json_t *cc_audit_describe(void);

#endif
