/* proc_posix.c — proc.h on POSIX systems: fork/exec, pipes, poll, wait4. */
#define _GNU_SOURCE /* pipe2, wait4 */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int64_t proc_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void proc_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

void proc_ignore_sigpipe(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPIPE, &sa, NULL);
}

int proc_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static void close_pair(int fds[2])
{
    close(fds[0]);
    close(fds[1]);
}

bool proc_spawn(Proc *p, char *const argv[], const char *dir, int stderr_fd, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->to = p->from = -1;
    int in_pipe[2], out_pipe[2];
    /* O_CLOEXEC: engines started by other game threads must not inherit these
     * ends, or the runner would never see EOF when this engine dies. */
    if (pipe2(in_pipe, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return false;
    }
    if (pipe2(out_pipe, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        close_pair(in_pipe);
        return false;
    }
    /* The exec-status pipe: closed by a successful exec, or carrying errno. */
    int status_pipe[2];
    if (pipe2(status_pipe, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        close_pair(in_pipe);
        close_pair(out_pipe);
        return false;
    }
    int devnull = -1;
    if (stderr_fd < 0)
        devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        close_pair(in_pipe);
        close_pair(out_pipe);
        close_pair(status_pipe);
        if (devnull >= 0)
            close(devnull);
        return false;
    }
    if (pid == 0) {
        /* Child: only async-signal-safe calls until exec. Its own process
         * group keeps a terminal Ctrl-C away from it. */
        setpgid(0, 0);
        dup2(in_pipe[0], 0);
        dup2(out_pipe[1], 1);
        int errfd = stderr_fd >= 0 ? stderr_fd : devnull;
        if (errfd >= 0)
            dup2(errfd, 2);
        int code;
        if (dir && chdir(dir) != 0) {
            code = -errno; /* negative: the directory failed */
            if (write(status_pipe[1], &code, sizeof code) < 0) {
            }
            _exit(126);
        }
        execvp(argv[0], argv);
        code = errno;
        if (write(status_pipe[1], &code, sizeof code) < 0) {
        }
        _exit(127);
    }
    setpgid(pid, pid); /* also from the parent, to win the race with kill() */
    close(in_pipe[0]);
    close(out_pipe[1]);
    close(status_pipe[1]);
    if (devnull >= 0)
        close(devnull);
    int child_err = 0;
    ssize_t got;
    do {
        got = read(status_pipe[0], &child_err, sizeof child_err);
    } while (got < 0 && errno == EINTR);
    close(status_pipe[0]);
    if (got == (ssize_t)sizeof child_err) {
        if (child_err < 0)
            snprintf(err, errlen, "cannot enter directory %s: %s", dir, strerror(-child_err));
        else
            snprintf(err, errlen, "cannot run %s: %s", argv[0], strerror(child_err));
        close(in_pipe[1]);
        close(out_pipe[0]);
        int st;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
        }
        return false;
    }
    fcntl(out_pipe[0], F_SETFL, fcntl(out_pipe[0], F_GETFL) | O_NONBLOCK);
    p->id = pid;
    p->to = in_pipe[1];
    p->from = out_pipe[0];
    return true;
}

bool proc_write_all(Proc *p, const char *buf, size_t n, char *err, size_t errlen)
{
    if (p->to < 0)
        return false;
    size_t off = 0;
    while (off < n) {
        ssize_t w = write((int)p->to, buf + off, n - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            snprintf(err, errlen, "write to engine: %s", strerror(errno));
            return false;
        }
        off += (size_t)w;
    }
    return true;
}

int proc_read(Proc *p, char *buf, size_t cap, int wait_ms, char *err, size_t errlen)
{
    if (p->from < 0)
        return PROC_READ_EOF;
    struct pollfd pfd = {(int)p->from, POLLIN, 0};
    int r = poll(&pfd, 1, wait_ms);
    if (r < 0) {
        if (errno == EINTR)
            return PROC_READ_NONE;
        snprintf(err, errlen, "poll: %s", strerror(errno));
        return PROC_READ_ERROR;
    }
    if (r == 0)
        return PROC_READ_NONE;
    ssize_t got = read((int)p->from, buf, cap);
    if (got > 0)
        return (int)got;
    if (got < 0 && (errno == EAGAIN || errno == EINTR || errno == EWOULDBLOCK))
        return PROC_READ_NONE;
    return PROC_READ_EOF;
}

void proc_close_input(Proc *p)
{
    if (p->to >= 0)
        close((int)p->to);
    p->to = -1;
}

void proc_close_pipes(Proc *p)
{
    proc_close_input(p);
    if (p->from >= 0)
        close((int)p->from);
    p->from = -1;
}

bool proc_reap(Proc *p, bool block)
{
    if (p->id <= 0 || p->reaped)
        return true;
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    pid_t r;
    do {
        r = wait4((pid_t)p->id, &status, block ? 0 : WNOHANG, &ru);
    } while (r < 0 && errno == EINTR);
    if (r == 0)
        return false;
    p->reaped = true;
    if (r == (pid_t)p->id) {
        p->crashed = WIFSIGNALED(status);
        p->exit_code = p->crashed ? WTERMSIG(status) : WIFEXITED(status) ? WEXITSTATUS(status) : 0;
        p->cpu_seconds = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
                         ru.ru_stime.tv_usec / 1e6;
    }
    return true;
}

bool proc_has_exited(Proc *p)
{
    if (p->id <= 0 || p->reaped)
        return true;
    /* WNOWAIT: the exited process stays a zombie, so its pid and process
     * group cannot be reused before a group kill. */
    siginfo_t info;
    memset(&info, 0, sizeof info);
    int r = waitid(P_PID, (id_t)p->id, &info, WEXITED | WNOHANG | WNOWAIT);
    return r != 0 || info.si_pid == (pid_t)p->id;
}

void proc_kill(Proc *p)
{
    if (p->id > 0 && !p->reaped) {
        /* The whole process group: a wrapper script's children go too. */
        kill(-(pid_t)p->id, SIGKILL);
        kill((pid_t)p->id, SIGKILL);
        proc_reap(p, true);
    }
}

void proc_exit_text(const Proc *p, char *out, size_t outlen)
{
    if (!p->reaped)
        snprintf(out, outlen, "is gone");
    else if (p->crashed)
        snprintf(out, outlen, "crashed (signal %d)", p->exit_code);
    else
        snprintf(out, outlen, "exited (code %d)", p->exit_code);
}
