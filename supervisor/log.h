/* Logging to stderr (stdout belongs to the protocol on the stdio transport).
 * Levels follow MCP's syslog names; the threshold comes from CODECALC_LOG. */
#ifndef CC_LOG_H
#define CC_LOG_H

enum cc_log_level { CC_LOG_DEBUG, CC_LOG_INFO, CC_LOG_WARNING, CC_LOG_ERROR };

/* Read CODECALC_LOG: debug, info, warning (default) or error. Any other
 * value refused start before this (protocol/text_knob.c: a typo must not
 * silently mean the default). */
void cc_log_init(void);
void cc_log(enum cc_log_level lvl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
