/* The operator endpoints of serve-http: GET /metrics, GET /status and
 * GET /status.json. The transport has already checked Origin/Host and the
 * token (Bearer, or Basic with the token as password so a browser can
 * open the page); this answers the request. */
#ifndef CC_METRICS_HTTP_ROUTES_H
#define CC_METRICS_HTTP_ROUTES_H

#include <event2/http.h>
#include <stdbool.h>

#include "supervisor/metrics/metrics.h"

/* Is path one of ours? */
bool cc_ops_path(const char *path);
/* Answer req for path. */
void cc_ops_serve(struct evhttp_request *req, const char *path, struct cc_server *srv,
                  const struct cc_metrics_http *http);
/* Basic credentials whose password is token (the user name is ignored). */
bool cc_ops_basic_matches(const char *authorization, const char *token,
                          bool (*equal)(const char *a, const char *b));

#endif
