/* os_posix.c — os.h on POSIX systems. */
#define _XOPEN_SOURCE 700 /* sigaction with SA_RESETHAND, getrusage, gethostname, fsync */
#include "os.h"

#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

void os_hostname(char *out, size_t outlen)
{
    if (outlen == 0)
        return;
    if (gethostname(out, outlen) != 0)
        snprintf(out, outlen, "?");
    out[outlen - 1] = '\0';
}

void os_self_path(char *out, size_t outlen)
{
    if (outlen == 0)
        return;
    ssize_t n = readlink("/proc/self/exe", out, outlen - 1);
    if (n <= 0)
        snprintf(out, outlen, "chariot");
    else
        out[n] = '\0';
}

double os_cpu_self(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

static void set_stop_handlers(void (*handler)(int), int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void os_stop_signals_catch(void (*handler)(int))
{
    /* SA_RESETHAND: a second Ctrl-C kills the program outright. */
    set_stop_handlers(handler, SA_RESETHAND);
}

void os_stop_signals_default(void) { set_stop_handlers(SIG_DFL, 0); }

void os_sync_file(FILE *f)
{
    /* fsync can fail on pipes or odd filesystems; the data is already written. */
    (void)fsync(fileno(f));
}

long long os_file_size(FILE *f)
{
    struct stat st;
    return fstat(fileno(f), &st) == 0 ? (long long)st.st_size : -1;
}

bool os_truncate_file(const char *path, long long size) { return truncate(path, (off_t)size) == 0; }

FILE *os_temp_file(void) { return tmpfile(); }

void os_binary_stdin(void) {}

bool os_is_terminal(FILE *f) { return isatty(fileno(f)) != 0; }
