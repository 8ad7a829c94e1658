/* runtimes_status (TOOLS.md 3.1.6 as amended by issue 16): the report of
 * workers/exec/runtimes.c, changing nothing. */
#include "workers/exec/runtimes.h"

CC_TOOL(runtimes_status) {
    json_t *names = json_object_get(args, "languages");
    if (names && !json_is_null(names) && !json_is_string(names))
        return cc_err("validation", "languages must be a string");
    return cc_runtimes_status(json_string_value(names), ctx);
}
