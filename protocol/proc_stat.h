/* Reading /proc/<pid>/stat: a process's state and its start time, which
 * with the pid names a process no recycled pid can impersonate. */
#ifndef CC_PROC_STAT_H
#define CC_PROC_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* Numeric fields first .. first+count-1 (numbered as in proc(5), first >= 4)
 * of /proc/<pid>/stat into out, and the state letter (field 3) into *state
 * unless state is NULL. pid 0 reads the calling process. 0, or -1 when the
 * file cannot be read or has fewer fields. */
int cc_proc_stat(pid_t pid, char *state, int first, int count, unsigned long long *out);

/* Field 22, starttime (clock ticks after boot) of pid (0: the calling
 * process); 0 when the process is gone, a zombie, or unreadable. */
uint64_t cc_proc_start_time(pid_t pid);

/* Is the process with this identity still running? start 0 = unknown (then
 * only existence is checked). */
bool cc_proc_alive(pid_t pid, uint64_t start);

#endif
