/* os.h — the operating-system services of the chariot program itself (the
 * match runner and the command line): host name, own CPU time, Ctrl-C
 * handling, flushing a file to disk and terminal detection.
 *
 * One header, two implementations chosen by the build: os_posix.c and
 * os_win32.c (docs/ARCHITECTURE.md, "Platforms"). Engine processes, pipes
 * and clocks live one layer down, in protocol/proc.h. */
#ifndef CHARIOT_OS_H
#define CHARIOT_OS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The machine's name for PGN Site tags, "?" when unknown. */
void os_hostname(char *out, size_t outlen);
/* User + system CPU seconds used by this process so far. */
double os_cpu_self(void);
/* Routes Ctrl-C and termination requests to handler once; a second Ctrl-C
 * then ends the program the usual way. */
void os_stop_signals_catch(void (*handler)(int));
/* Puts the default handling back. */
void os_stop_signals_default(void);
/* Asks the system to put what was written to f on disk (after fflush). */
void os_sync_file(FILE *f);
/* The size in bytes of the open file f, -1 on failure (64-bit everywhere,
 * where ftell is 32-bit on Windows). */
long long os_file_size(FILE *f);
/* Cuts the file at path to size bytes; false on failure. */
bool os_truncate_file(const char *path, long long size);
/* An anonymous read-write temporary file, deleted when closed; NULL on failure. */
FILE *os_temp_file(void);
/* Puts standard input in binary mode where the C library distinguishes:
 * Windows' text mode ends input at a Ctrl-Z byte, which a GUI (or garbage)
 * may send inside a line. CR LF line ends are stripped by the protocol. */
void os_binary_stdin(void);
/* The full path of the running program, so it can start copies of itself
 * as an engine; "chariot" when the system cannot tell. */
void os_self_path(char *out, size_t outlen);
/* Whether f is a terminal (colours and progress lines only there). */
bool os_is_terminal(FILE *f);

#endif
