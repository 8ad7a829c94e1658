/* Handing install_package's installer run to the exec pool
 * (supervisor/sessions/installer.c); answers the request when it ends. */
#ifndef CC_SESSION_INSTALLER_H
#define CC_SESSION_INSTALLER_H

#include "supervisor/request.h"
#include "supervisor/server.h"

/* Borrowed by cc_install_run (it copies what it keeps). */
struct cc_install_spec {
    char *lang;              /* canonical language */
    char *spec;              /* package with its pin, as reported */
    char *target;            /* absolute directory: the only writable one */
    char *session_id;        /* NULL for the shared cache */
    char *script;            /* /bin/sh -c script run with cwd = target */
    char *no_exec_flag;      /* e.g. "--ignore-scripts", for the failure hint */
};

/* Start the installer; r is answered later (or now, on a start failure). */
void cc_install_run(struct cc_server *srv, struct cc_req *r, const struct cc_install_spec *sp);

#endif
