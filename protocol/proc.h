/* proc.h — the few operating-system services the protocol library needs:
 * an engine process with its stdin/stdout as pipes, waiting on its output
 * with a timeout, its exit status and CPU time, a monotonic clock, the CPU
 * count and broken-pipe handling.
 *
 * One header, two implementations chosen by the build: proc_posix.c
 * (fork/exec, poll, wait4) and proc_win32.c (CreateProcess, anonymous pipes,
 * PeekNamedPipe). Nothing else in the library touches the operating system
 * directly, so a port is one file (docs/ARCHITECTURE.md, "Platforms"). */
#ifndef CHARIOT_PROC_H
#define CHARIOT_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Proc {
    intptr_t id;       /* POSIX pid or Win32 process handle; 0 when none */
    intptr_t to;       /* write end of its stdin; -1 when closed */
    intptr_t from;     /* read end of its stdout; -1 when closed */
    bool reaped;       /* its exit status and CPU time are known */
    bool crashed;      /* killed by a signal (POSIX) or an exception (Win32) */
    int exit_code;     /* exit code, or the signal / exception code when crashed */
    double cpu_seconds; /* user + system CPU time, known once reaped */
} Proc;

/* Results of proc_read besides a byte count. */
enum { PROC_READ_EOF = 0, PROC_READ_NONE = -1, PROC_READ_ERROR = -2 };

/* Starts argv[0] with argv (searched in PATH), in directory dir (NULL:
 * current), stdin and stdout as pipes, stderr to stderr_fd (-1: discarded).
 * The child gets none of the runner's other pipe ends, so another engine's
 * death is seen as EOF. On failure writes a message into err. */
bool proc_spawn(Proc *p, char *const argv[], const char *dir, int stderr_fd, char *err, size_t errlen);
/* Writes all n bytes to its stdin; false (with a message) if it is gone. */
bool proc_write_all(Proc *p, const char *buf, size_t n, char *err, size_t errlen);
/* Reads what its stdout holds, waiting up to wait_ms (< 0: no limit) for
 * something: a byte count, PROC_READ_EOF, PROC_READ_NONE (nothing in time)
 * or PROC_READ_ERROR (message in err). */
int proc_read(Proc *p, char *buf, size_t cap, int wait_ms, char *err, size_t errlen);
/* Closes its stdin (a second hint to exit, after `quit`). */
void proc_close_input(Proc *p);
/* Closes both pipe ends. */
void proc_close_pipes(Proc *p);
/* Collects the exit status and CPU time if it has exited (or waits for it
 * when block is set); true once reaped. */
bool proc_reap(Proc *p, bool block);
/* Whether it has exited, without reaping it (so its id stays reserved). */
bool proc_has_exited(Proc *p);
/* Kills it and whatever it started, then reaps it. */
void proc_kill(Proc *p);
/* "exited (code N)" or "crashed (signal N)" / "crashed (exception 0x...)". */
void proc_exit_text(const Proc *p, char *out, size_t outlen);

/* Milliseconds on a monotonic clock. */
int64_t proc_now_ms(void);
void proc_sleep_ms(int ms);
/* Writing to an engine that died must give an error, not end the runner. */
void proc_ignore_sigpipe(void);
/* Processors online, at least 1. */
int proc_cpu_count(void);

#endif
