/* The extraction step of extract_function (TOOLS.md 3.5.3), exec-side.
 *
 * The supervisor (supervisor/analysis/extract_function.c) sends the exec
 * pool one internal request, op CC_EXEC_OP_EXTRACT, with the client's
 *   language, code, function_name, call (string or null)
 * The worker canonicalises the language and runs the extractor
 * (workers/exec/extract_function.py, embedded at build time) with python3
 * in the sandbox: the code is untrusted, and it is only ever parsed there,
 * by Python's own ast for python3 and by the spec's brace reading for every
 * other language. The answer is
 *   {ok: true, language (canonical), function, extracted_program, signature}
 * plus `warning` when the program is not to be run (no `call` outside
 * python3), or a rejected result (validation: parse error, function not
 * found, unknown language; or the extractor's own failure). */
#ifndef CC_EXEC_EXTRACT_H
#define CC_EXEC_EXTRACT_H

#include "workers/common/tool_api.h"

#define CC_EXEC_OP_EXTRACT "_extract_function"

/* The extractor run's wall clock. */
#define CC_EXTRACT_TIMEOUT_S 15

json_t *cc_exec_extract(json_t *args, cc_wctx *ctx);

#endif
