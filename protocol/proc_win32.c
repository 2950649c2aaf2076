/* proc_win32.c — proc.h on Windows: CreateProcess with anonymous pipes,
 * PeekNamedPipe for waiting with a timeout, GetProcessTimes for CPU time. */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"

/* Pipe buffers as large as Linux's default. The system's default buffer is
 * a few KB: an engine that prints a burst of info lines while its GUI is
 * itself writing a burst of commands then fills both pipes, and each side
 * waits for the other (seen in the protocol fuzz test under wine). */
enum { PIPE_BUFFER_BYTES = 1 << 16 };

/* How long proc_read sleeps between looks at an empty pipe. Anonymous pipes
 * cannot be waited on with a timeout, so the reader polls; 1 ms keeps the
 * latency well under the match runner's time margin. */
enum { PROC_WIN32_POLL_MS = 1 };

/* Exit codes from this value up are NTSTATUS exceptions (an access
 * violation is 0xC0000005): the process crashed rather than exited. */
#define PROC_WIN32_EXCEPTION_BASE 0xC0000000u

int64_t proc_now_ms(void)
{
    LARGE_INTEGER freq, now;
    QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&now);
    return (int64_t)(now.QuadPart / freq.QuadPart * 1000 + now.QuadPart % freq.QuadPart * 1000 / freq.QuadPart);
}

void proc_sleep_ms(int ms) { Sleep(ms > 0 ? (DWORD)ms : 0); }

/* Windows has no SIGPIPE: a write to a closed pipe fails with an error. */
void proc_ignore_sigpipe(void) {}

int proc_cpu_count(void)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwNumberOfProcessors > 0 ? (int)si.dwNumberOfProcessors : 1;
}

static void format_error(char *err, size_t errlen, const char *what, DWORD code)
{
    char msg[160] = "";
    FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, code, 0, msg, sizeof msg, NULL);
    size_t n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == '\r' || msg[n - 1] == '.'))
        msg[--n] = '\0';
    snprintf(err, errlen, "%s: %s", what, n ? msg : "error");
}

/* Appends one argument quoted the way the C runtime's command-line parser
 * reads it back: backslashes are literal except before a quote. */
static bool append_arg(char **buf, size_t *len, size_t *cap, const char *arg)
{
    size_t need = *len + 3 + 2 * strlen(arg) + 1;
    if (need > *cap) {
        size_t ncap = need * 2;
        char *grown = realloc(*buf, ncap);
        if (!grown)
            return false;
        *buf = grown;
        *cap = ncap;
    }
    char *out = *buf + *len;
    if (*len > 0)
        *out++ = ' ';
    bool quote = !*arg || strpbrk(arg, " \t\"") != NULL;
    if (quote)
        *out++ = '"';
    size_t slashes = 0;
    for (const char *p = arg; *p; p++) {
        if (*p == '\\') {
            slashes++;
        } else if (*p == '"') {
            for (size_t i = 0; i < slashes + 1; i++)
                *out++ = '\\';
            slashes = 0;
        } else {
            slashes = 0;
        }
        *out++ = *p;
    }
    if (quote) {
        for (size_t i = 0; i < slashes; i++)
            *out++ = '\\';
        *out++ = '"';
    }
    *out = '\0';
    *len = (size_t)(out - *buf);
    return true;
}

bool proc_spawn(Proc *p, char *const argv[], const char *dir, int stderr_fd, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->to = p->from = -1;

    char *cmd = NULL;
    size_t len = 0, cap = 0;
    for (char *const *a = argv; *a; a++)
        if (!append_arg(&cmd, &len, &cap, *a)) {
            free(cmd);
            snprintf(err, errlen, "out of memory");
            return false;
        }

    /* The child's ends are inheritable, ours are not; the attribute list
     * below restricts inheritance to exactly the child's three handles, so
     * engines started by other game threads at the same moment never hold
     * this engine's pipes open. */
    SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, TRUE};
    HANDLE in_read = NULL, in_write = NULL, out_read = NULL, out_write = NULL, err_handle = NULL;
    bool ok = CreatePipe(&in_read, &in_write, &sa, PIPE_BUFFER_BYTES) &&
              CreatePipe(&out_read, &out_write, &sa, PIPE_BUFFER_BYTES);
    if (!ok) {
        format_error(err, errlen, "pipe", GetLastError());
        goto fail;
    }
    SetHandleInformation(in_write, HANDLE_FLAG_INHERIT, 0);
    SetHandleInformation(out_read, HANDLE_FLAG_INHERIT, 0);
    if (stderr_fd >= 0) {
        HANDLE h = (HANDLE)_get_osfhandle(stderr_fd);
        if (h == INVALID_HANDLE_VALUE ||
            !DuplicateHandle(GetCurrentProcess(), h, GetCurrentProcess(), &err_handle, 0, TRUE,
                             DUPLICATE_SAME_ACCESS))
            err_handle = NULL;
    }
    if (!err_handle) {
        err_handle = CreateFileA("NUL", GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa, OPEN_EXISTING, 0,
                                 NULL);
        if (err_handle == INVALID_HANDLE_VALUE)
            err_handle = NULL;
    }

    HANDLE inherit[3] = {in_read, out_write, err_handle};
    DWORD ninherit = err_handle ? 3 : 2;
    SIZE_T attr_size = 0;
    InitializeProcThreadAttributeList(NULL, 1, 0, &attr_size);
    LPPROC_THREAD_ATTRIBUTE_LIST attrs = malloc(attr_size);
    if (!attrs || !InitializeProcThreadAttributeList(attrs, 1, 0, &attr_size)) {
        free(attrs);
        attrs = NULL;
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    UpdateProcThreadAttribute(attrs, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, inherit, ninherit * sizeof(HANDLE), NULL,
                              NULL);

    STARTUPINFOEXA si;
    memset(&si, 0, sizeof si);
    si.StartupInfo.cb = sizeof si;
    si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    si.StartupInfo.hStdInput = in_read;
    si.StartupInfo.hStdOutput = out_write;
    si.StartupInfo.hStdError = err_handle;
    si.lpAttributeList = attrs;
    PROCESS_INFORMATION pi;
    memset(&pi, 0, sizeof pi);
    /* CREATE_NEW_PROCESS_GROUP: a console Ctrl-C reaches only the runner,
     * which then stops the engines itself. */
    ok = CreateProcessA(NULL, cmd, NULL, NULL, TRUE,
                        EXTENDED_STARTUPINFO_PRESENT | CREATE_NEW_PROCESS_GROUP | CREATE_NO_WINDOW, NULL, dir,
                        &si.StartupInfo, &pi);
    DWORD code = GetLastError();
    DeleteProcThreadAttributeList(attrs);
    free(attrs);
    if (!ok) {
        char what[300];
        snprintf(what, sizeof what, "cannot run %s", argv[0]);
        format_error(err, errlen, what, code);
        goto fail;
    }
    CloseHandle(pi.hThread);
    CloseHandle(in_read);
    CloseHandle(out_write);
    if (err_handle)
        CloseHandle(err_handle);
    free(cmd);
    p->id = (intptr_t)pi.hProcess;
    p->to = (intptr_t)in_write;
    p->from = (intptr_t)out_read;
    return true;

fail:
    free(cmd);
    HANDLE all[5] = {in_read, in_write, out_read, out_write, err_handle};
    for (int i = 0; i < 5; i++)
        if (all[i])
            CloseHandle(all[i]);
    return false;
}

bool proc_write_all(Proc *p, const char *buf, size_t n, char *err, size_t errlen)
{
    if (p->to < 0)
        return false;
    size_t off = 0;
    while (off < n) {
        DWORD wrote = 0;
        if (!WriteFile((HANDLE)p->to, buf + off, (DWORD)(n - off), &wrote, NULL)) {
            format_error(err, errlen, "write to engine", GetLastError());
            return false;
        }
        off += wrote;
    }
    return true;
}

int proc_read(Proc *p, char *buf, size_t cap, int wait_ms, char *err, size_t errlen)
{
    if (p->from < 0)
        return PROC_READ_EOF;
    int64_t deadline = wait_ms >= 0 ? proc_now_ms() + wait_ms : -1;
    for (;;) {
        DWORD avail = 0;
        if (!PeekNamedPipe((HANDLE)p->from, NULL, 0, NULL, &avail, NULL)) {
            DWORD code = GetLastError();
            if (code == ERROR_BROKEN_PIPE || code == ERROR_PIPE_NOT_CONNECTED)
                return PROC_READ_EOF;
            format_error(err, errlen, "read from engine", code);
            return PROC_READ_ERROR;
        }
        if (avail > 0) {
            DWORD got = 0;
            DWORD want = avail < cap ? avail : (DWORD)cap;
            if (!ReadFile((HANDLE)p->from, buf, want, &got, NULL)) {
                DWORD code = GetLastError();
                if (code == ERROR_BROKEN_PIPE)
                    return PROC_READ_EOF;
                format_error(err, errlen, "read from engine", code);
                return PROC_READ_ERROR;
            }
            return got > 0 ? (int)got : PROC_READ_NONE;
        }
        if (deadline >= 0 && proc_now_ms() >= deadline)
            return PROC_READ_NONE;
        Sleep(PROC_WIN32_POLL_MS);
    }
}

void proc_close_input(Proc *p)
{
    if (p->to >= 0)
        CloseHandle((HANDLE)p->to);
    p->to = -1;
}

void proc_close_pipes(Proc *p)
{
    proc_close_input(p);
    if (p->from >= 0)
        CloseHandle((HANDLE)p->from);
    p->from = -1;
}

static double filetime_seconds(FILETIME ft)
{
    ULARGE_INTEGER u;
    u.LowPart = ft.dwLowDateTime;
    u.HighPart = ft.dwHighDateTime;
    return (double)u.QuadPart / 1e7; /* 100 ns units */
}

bool proc_reap(Proc *p, bool block)
{
    if (p->id == 0 || p->reaped)
        return true;
    HANDLE h = (HANDLE)p->id;
    if (WaitForSingleObject(h, block ? INFINITE : 0) != WAIT_OBJECT_0)
        return false;
    DWORD code = 0;
    GetExitCodeProcess(h, &code);
    FILETIME created, exited, kernel, user;
    if (GetProcessTimes(h, &created, &exited, &kernel, &user))
        p->cpu_seconds = filetime_seconds(kernel) + filetime_seconds(user);
    p->crashed = code >= PROC_WIN32_EXCEPTION_BASE;
    p->exit_code = (int)code;
    p->reaped = true;
    CloseHandle(h);
    return true;
}

bool proc_has_exited(Proc *p)
{
    if (p->id == 0 || p->reaped)
        return true;
    return WaitForSingleObject((HANDLE)p->id, 0) == WAIT_OBJECT_0;
}

void proc_kill(Proc *p)
{
    if (p->id != 0 && !p->reaped) {
        /* A killed engine's exit code is this value, which is not an
         * exception code, so it reads as "exited (code 137)" as on POSIX
         * shells. */
        TerminateProcess((HANDLE)p->id, 137);
        proc_reap(p, true);
    }
}

void proc_exit_text(const Proc *p, char *out, size_t outlen)
{
    if (!p->reaped)
        snprintf(out, outlen, "is gone");
    else if (p->crashed)
        snprintf(out, outlen, "crashed (exception 0x%08X)", (unsigned)p->exit_code);
    else
        snprintf(out, outlen, "exited (code %d)", p->exit_code);
}
