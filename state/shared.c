/* Backend choice and server identity (see shared.h). */
#include "state/shared.h"
#include "protocol/text_knob.h"

#include <stdio.h>
#include <stdlib.h>

static char server_id[CC_SERVER_ID_MAX];
static char server_url[CC_SERVER_URL_MAX];

const char *cc_state_database_url(void) {
    return cc_text(CC_TEXT_DATABASE_URL);
}

void cc_state_set_identity(const char *id, const char *url) {
    if (id) snprintf(server_id, sizeof server_id, "%s", id);
    if (url) snprintf(server_url, sizeof server_url, "%s", url);
}

const char *cc_state_server_id(void) { return server_id; }
const char *cc_state_server_url(void) { return server_url; }
