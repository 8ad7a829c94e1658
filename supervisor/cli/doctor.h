/* `codecalc doctor` (TOOLS.md 9.2, as amended by issue 18): one report,
 * rendered as JSON or text. The pieces below each build one part of it and
 * return a new jansson reference (never NULL unless out of memory). */
#ifndef CC_DOCTOR_H
#define CC_DOCTOR_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>


/* Namespaces, cgroup controllers (v1 and v2), seccomp and the sandbox user,
 * as this host offers them (doctor_host.c); caps is the probe report of
 * codecalc-exec (supervisor/native_check.h), NULL when it could not run. */
json_t *cc_doc_sandbox(const json_t *caps, int run_uid, int run_gid);
/* $CODECALC_HOME: writable (tested by writing), the lock and who holds it,
 * the database (doctor_state.c). */
json_t *cc_doc_state_dir(void);
/* The temp root programs' run directories live in, tested by writing. */
json_t *cc_doc_workspace(void);
/* Pid holding the flock of path according to /proc/locks; 0 when none. */
long cc_doc_lock_holder(const char *path);

/* Each worker binary started and asked for its hello; the REPL launcher and
 * host programs located (doctor_workers.c). */
json_t *cc_doc_workers(const char *bindir);
/* workers.repl: the launcher and, for every language of the REPL table
 * (repl-workers/repl_langs.c), its host program and where it was found. */
json_t *cc_doc_repl(const char *bindir);
/* true when every pool worker answered its hello. */
bool cc_doc_workers_ok(const json_t *workers);

struct cc_server;
/* --deep: execute the resolved runtimes of rows (from codecalc-exec
 * --doctor), the interpreters through execute_code on srv
 * (doctor_runtimes.c). */
void cc_doc_runtimes_execute(json_t *rows, struct cc_server *srv);
/* Optional components: symbolic (giac + z3: the symbolic worker's hello,
 * and with a server one real evaluation each) and parsing (the tree-sitter
 * grammars compiled into bindir's analysis worker, from its --grammars
 * report); *grammar_cache receives the grammar cache object
 * (doctor_extras.c). */
json_t *cc_doc_extras(const char *bindir, const json_t *workers, struct cc_server *deep, json_t **grammar_cache);
/* The parsing extra from the analysis worker's grammar report (borrowed;
 * NULL when binary gave none, why saying why); *cache receives
 * grammar_cache. */
json_t *cc_doc_parsing(const json_t *report, const char *binary, const char *why, json_t **cache);

/* Counts of runtime rows per status (runtime_summary, returned) and per
 * tier (*tiers): doctor's and status's summaries (doctor.c). */
json_t *cc_doc_summaries(const json_t *runtimes, json_t **tiers);

/* The path of the shipped SKILL.md, or NULL (malloc'd). */
char *cc_doc_skill_file(const char *bindir);

/* The whole report (doctor.c). */
json_t *cc_doctor_report(bool deep);
/* The text rendering (doctor_text.c): never disagrees with the JSON because
 * it reads only the report. */
void cc_doctor_print_text(const json_t *report, FILE *out);

#endif
