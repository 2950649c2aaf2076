/* os_win32.c — os.h on Windows. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <fcntl.h>
#include <io.h>
#include <signal.h>
#include <sys/stat.h>

#include "os.h"

void os_hostname(char *out, size_t outlen)
{
    if (outlen == 0)
        return;
    DWORD n = (DWORD)outlen;
    if (!GetComputerNameA(out, &n))
        snprintf(out, outlen, "?");
    out[outlen - 1] = '\0';
}

void os_self_path(char *out, size_t outlen)
{
    if (outlen == 0)
        return;
    DWORD n = GetModuleFileNameA(NULL, out, (DWORD)outlen);
    if (n == 0 || n >= outlen)
        snprintf(out, outlen, "chariot.exe");
}

double os_cpu_self(void)
{
    FILETIME created, exited, kernel, user;
    if (!GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user))
        return 0;
    ULARGE_INTEGER k, u;
    k.LowPart = kernel.dwLowDateTime;
    k.HighPart = kernel.dwHighDateTime;
    u.LowPart = user.dwLowDateTime;
    u.HighPart = user.dwHighDateTime;
    return (double)(k.QuadPart + u.QuadPart) / 1e7; /* 100 ns units */
}

/* The C runtime resets a handler to the default when it runs, so a second
 * Ctrl-C ends the program, as SA_RESETHAND does on POSIX. */
void os_stop_signals_catch(void (*handler)(int))
{
    signal(SIGINT, handler);
    signal(SIGTERM, handler);
}

void os_stop_signals_default(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
}

void os_sync_file(FILE *f) { (void)_commit(_fileno(f)); }

long long os_file_size(FILE *f)
{
    struct _stati64 st;
    return _fstati64(_fileno(f), &st) == 0 ? (long long)st.st_size : -1;
}

bool os_truncate_file(const char *path, long long size)
{
    HANDLE h = CreateFileA(path, GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING,
                           FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE)
        return false;
    LARGE_INTEGER at;
    at.QuadPart = size;
    bool ok = SetFilePointerEx(h, at, NULL, FILE_BEGIN) && SetEndOfFile(h);
    CloseHandle(h);
    return ok;
}

/* The C runtime's tmpfile writes to the root of the drive, which needs
 * rights a normal user lacks; use the user's temporary folder, and "D" to
 * have the file deleted when it is closed. */
FILE *os_temp_file(void)
{
    char dir[MAX_PATH], path[MAX_PATH];
    DWORD n = GetTempPathA(sizeof dir, dir);
    if (n == 0 || n >= sizeof dir || !GetTempFileNameA(dir, "cha", 0, path))
        return NULL;
    return fopen(path, "w+bD");
}

void os_binary_stdin(void) { (void)_setmode(_fileno(stdin), _O_BINARY); }

bool os_is_terminal(FILE *f) { return _isatty(_fileno(f)) != 0; }
