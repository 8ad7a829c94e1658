/* The seccomp wall a compute worker raises after warm-up: nothing it does
 * afterwards may open files for writing, create files, execute programs,
 * fork, use sockets or touch other processes. A forbidden call fails with
 * EPERM (the handler then reports an error) rather than killing the worker,
 * so a library that probes a file does not take a request down with it. */
#ifndef CC_LOCKDOWN_H
#define CC_LOCKDOWN_H

int cc_lockdown_compute(void);

#endif
