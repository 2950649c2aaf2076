/* test_protocol_driver.h — runs the real chariot binary behind pipes for the
 * protocol tests: send lines, read lines with timeouts (a hang fails the test
 * instead of blocking ctest), collect what was said, check the exit. */
#ifndef CHARIOT_TEST_PROTOCOL_DRIVER_H
#define CHARIOT_TEST_PROTOCOL_DRIVER_H

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
    DRV_BUF = 1 << 17,
    DRV_LINE = 8192,
    DRV_KEEP = 4096,       /* lines remembered since the last drv_mark() */
    DRV_TIMEOUT = 10000    /* default wait for an answer, ms (sanitizer builds are slow) */
};

typedef struct Engine {
    pid_t pid;
    int to_fd;             /* engine's stdin */
    int from_fd;           /* engine's stdout */
    bool eof;
    char buf[DRV_BUF];
    size_t len;
    int kept;
    char *lines[DRV_KEEP]; /* everything read since drv_mark() */
    bool verbose;
} Engine;

static inline int64_t drv_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline double drv_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static inline void drv_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static inline bool drv_start(Engine *e, const char *path)
{
    int in[2], out[2];
    signal(SIGPIPE, SIG_IGN);
    memset(e, 0, sizeof *e);
    e->verbose = getenv("CHARIOT_TEST_VERBOSE") != NULL;
    if (pipe(in) != 0 || pipe(out) != 0)
        return false;
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    e->pid = pid;
    e->to_fd = in[1];
    e->from_fd = out[0];
    return true;
}

static inline void drv_mark(Engine *e)
{
    for (int i = 0; i < e->kept; i++)
        free(e->lines[i]);
    e->kept = 0;
}

/* Reads whatever output is waiting into buf (dropping the oldest bytes when
 * an absurd amount piles up), so neither side blocks on a full pipe. */
static inline void drv_pump(Engine *e)
{
    if (e->eof)
        return;
    if (e->len == sizeof e->buf) {
        memmove(e->buf, e->buf + sizeof e->buf / 2, sizeof e->buf / 2);
        e->len = sizeof e->buf / 2;
    }
    ssize_t k = read(e->from_fd, e->buf + e->len, sizeof e->buf - e->len);
    if (k == 0 || (k < 0 && errno != EINTR && errno != EAGAIN))
        e->eof = true;
    else if (k > 0)
        e->len += (size_t)k;
}

static inline bool drv_send_raw(Engine *e, const void *data, size_t n)
{
    const char *p = data;
    while (n > 0) {
        struct pollfd pfd[2] = {{.fd = e->to_fd, .events = POLLOUT}, {.fd = e->from_fd, .events = POLLIN}};
        int r = poll(pfd, e->eof ? 1 : 2, DRV_TIMEOUT);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        if (!e->eof && (pfd[1].revents & (POLLIN | POLLHUP)))
            drv_pump(e);
        if (pfd[0].revents & (POLLERR | POLLHUP))
            return false;
        if (!(pfd[0].revents & POLLOUT))
            continue;
        /* small chunks: a pipe accepts up to PIPE_BUF bytes without blocking */
        size_t chunk = n < 512 ? n : 512;
        ssize_t k = write(e->to_fd, p, chunk);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

static inline bool drv_send(Engine *e, const char *fmt, ...)
{
    char line[DRV_LINE];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= (int)sizeof line - 1)
        return false;
    if (e->verbose)
        fprintf(stderr, ">> %s\n", line);
    line[n++] = '\n';
    return drv_send_raw(e, line, (size_t)n);
}

/* Reads one line (without '\n') into out. 1: got one; 0: timeout; -1: EOF. */
static inline int drv_getline(Engine *e, char *out, size_t cap, int timeout_ms)
{
    int64_t deadline = drv_now_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(e->buf, '\n', e->len);
        if (nl) {
            size_t n = (size_t)(nl - e->buf);
            size_t c = n < cap - 1 ? n : cap - 1;
            memcpy(out, e->buf, c);
            out[c] = '\0';
            memmove(e->buf, nl + 1, e->len - n - 1);
            e->len -= n + 1;
            if (e->kept < DRV_KEEP) {
                e->lines[e->kept] = malloc(c + 1);
                memcpy(e->lines[e->kept++], out, c + 1);
            }
            if (e->verbose)
                fprintf(stderr, "<< %s\n", out);
            return 1;
        }
        if (e->eof)
            return -1;
        int64_t left = deadline - drv_now_ms();
        if (left <= 0)
            return 0;
        struct pollfd pfd = {.fd = e->from_fd, .events = POLLIN};
        int r = poll(&pfd, 1, (int)left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
        drv_pump(e);
    }
}

/* True when line is `word` or starts with `word `. */
static inline bool drv_is(const char *line, const char *word)
{
    size_t n = strlen(word);
    return strncmp(line, word, n) == 0 && (line[n] == '\0' || line[n] == ' ');
}

/* Reads until a line that is/starts with `word` (out gets it, may be NULL). */
static inline bool drv_expect(Engine *e, const char *word, char *out, size_t cap, int timeout_ms)
{
    char line[DRV_LINE];
    int64_t deadline = drv_now_ms() + timeout_ms;
    for (;;) {
        int64_t left = deadline - drv_now_ms();
        if (left < 0)
            left = 0;
        int r = drv_getline(e, line, sizeof line, (int)left);
        if (r <= 0) {
            fprintf(stderr, "  (waited for '%s': %s)\n", word, r == 0 ? "timeout" : "EOF");
            return false;
        }
        if (drv_is(line, word)) {
            if (out)
                snprintf(out, cap, "%s", line);
            return true;
        }
    }
}

/* Number of remembered lines that are/start with `word`. */
static inline int drv_count(const Engine *e, const char *word)
{
    int n = 0;
    for (int i = 0; i < e->kept; i++)
        n += drv_is(e->lines[i], word);
    return n;
}

/* Sends isready and waits for readyok: the engine is alive and has
 * processed everything sent before. */
static inline bool drv_sync(Engine *e)
{
    return drv_send(e, "isready") && drv_expect(e, "readyok", NULL, 0, DRV_TIMEOUT);
}

/* Waits for the process to end; kills it after timeout_ms. Returns the exit
 * status, or -1 when it had to be killed or died of a signal. */
static inline int drv_wait_exit(Engine *e, int timeout_ms)
{
    int64_t deadline = drv_now_ms() + timeout_ms;
    int status = 0;
    char sink[DRV_LINE];
    for (;;) {
        pid_t r = waitpid(e->pid, &status, WNOHANG);
        if (r == e->pid)
            break;
        if (drv_now_ms() > deadline) {
            fprintf(stderr, "  (engine did not exit: killed)\n");
            kill(e->pid, SIGKILL);
            waitpid(e->pid, &status, 0);
            status = -1;
            break;
        }
        /* keep draining so a chatty engine never blocks on a full pipe */
        if (drv_getline(e, sink, sizeof sink, 20) < 0)
            drv_sleep_ms(5);
    }
    close(e->to_fd);
    close(e->from_fd);
    e->to_fd = e->from_fd = -1;
    drv_mark(e);
    if (status == -1 || !WIFEXITED(status)) {
        if (status != -1 && WIFSIGNALED(status))
            fprintf(stderr, "  (engine died of signal %d)\n", WTERMSIG(status));
        return -1;
    }
    return WEXITSTATUS(status);
}

/* Closes the engine's stdin (EOF) and waits for it to exit. */
static inline int drv_close(Engine *e, int timeout_ms)
{
    close(e->to_fd);
    e->to_fd = -1;
    int st = drv_wait_exit(e, timeout_ms);
    return st;
}

/* Every remembered line is non-empty printable ASCII. */
static inline bool drv_all_ascii(const Engine *e)
{
    for (int i = 0; i < e->kept; i++) {
        const unsigned char *p = (const unsigned char *)e->lines[i];
        if (!*p)
            return false;
        for (; *p; p++)
            if (*p < 0x20 || *p >= 0x7F)
                return false;
    }
    return true;
}

#endif
