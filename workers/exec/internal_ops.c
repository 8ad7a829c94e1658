/* The exec worker's ops that are no tool: only the supervisor sends them
 * (a tools/call never routes one), and the worker announces them in its
 * hello with the rest. */
#include "workers/exec/extract.h"
#include "workers/exec/install.h"
#include "workers/exec/program_ops.h"

static const struct cc_tool_def internal_ops[] = {
    {CC_EXEC_OP_INSTALL, cc_exec_install, false},
    {CC_EXEC_OP_COMPILE, cc_exec_program_compile, false},
    {CC_EXEC_OP_RUN, cc_exec_program_run, false},
    {CC_EXEC_OP_EXTRACT, cc_exec_extract, false},
    {NULL, NULL, false},
};

const struct cc_tool_def *cc_exec_internal_ops(void) { return internal_ops; }
