#include "workers/common/provider_select.h"
#include "protocol/text_knob.h"

#include <stdlib.h>
#include <string.h>

#include "workers/common/tool_api.h"

json_t *cc_provider_reject(const char *requested) {
    const char *id = requested;
    if (!id) {
        const char *env = cc_text(CC_TEXT_EXECUTION_PROVIDER);
        id = env ? env : "local";
    }
    if (strcmp(id, "local") == 0) return NULL;
    json_t *r = cc_err("validation", "unknown execution provider '%.100s'; available: local", id);
    json_object_set_new(r, "provider_error", json_string("unknown_provider"));
    json_object_set_new(r, "available_providers", json_pack("[s]", "local"));
    json_object_set_new(r, "requested_provider", json_string(id));
    return r;
}
