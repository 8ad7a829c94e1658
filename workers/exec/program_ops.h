/* The exec worker's ops for the verification tools (verify_translation,
 * compare_edge_cases, verify_optimization, compare_execution). The
 * supervisor fans a call out as many small requests (supervisor/verify/);
 * each is one of these internal ops, which no client can call:
 *
 *   CC_EXEC_OP_COMPILE  {language, code, timeout}
 *       compile once into the compile cache; the compile step's envelope
 *       when it failed, else {ok: true, phase: "compile", compiled,
 *       cached, compile_ms} (compiled: false for an interpreted language).
 *   CC_EXEC_OP_RUN      {language, code, stdin, timeout, max_memory_mb}
 *       one one-shot run exactly as execute_code runs it (same sandbox,
 *       verdicts and envelope; a compiled program comes from the cache),
 *       without provider, broker or receipt (TOOLS.md 3.1.5, 3.4.3).
 *
 * timeout is not clamped beyond >= 1 (compare_execution's is not).
 */
#ifndef CC_EXEC_PROGRAM_OPS_H
#define CC_EXEC_PROGRAM_OPS_H

#include <jansson.h>

#include "workers/common/tool_api.h"

#define CC_EXEC_OP_COMPILE "_program_compile"
#define CC_EXEC_OP_RUN "_program_run"

json_t *cc_exec_program_compile(json_t *args, cc_wctx *ctx);
json_t *cc_exec_program_run(json_t *args, cc_wctx *ctx);

#endif
