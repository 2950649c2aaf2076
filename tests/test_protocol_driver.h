/* test_protocol_driver.h — runs the real chariot binary behind pipes for the
 * protocol tests: send lines, read lines with timeouts (a hang fails the test
 * instead of blocking ctest), collect what was said, check the exit. */
#ifndef CHARIOT_TEST_PROTOCOL_DRIVER_H
#define CHARIOT_TEST_PROTOCOL_DRIVER_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Processes and pipes through the protocol library's platform layer, so the
 * same tests run on POSIX systems and on Windows (under wine). */
#include "proc.h"

enum {
    DRV_BUF = 1 << 17,
    DRV_LINE = 8192,
    DRV_KEEP = 4096,       /* lines remembered since the last drv_mark() */
    DRV_TIMEOUT = 10000,   /* default wait for an answer, ms (sanitizer builds are slow) */
    DRV_CHUNK = 512        /* bytes written at a time, with the output drained between */
};

typedef struct Engine {
    Proc proc;             /* the engine process and its pipes */
    bool eof;
    char buf[DRV_BUF];
    size_t len;
    int kept;
    char *lines[DRV_KEEP]; /* everything read since drv_mark() */
    bool verbose;
} Engine;

static inline int64_t drv_now_ms(void) { return proc_now_ms(); }

/* Microseconds, at the platform clock's millisecond resolution. */
static inline double drv_now_us(void) { return (double)proc_now_ms() * 1e3; }

static inline void drv_sleep_ms(int ms) { proc_sleep_ms(ms); }

static inline bool drv_start(Engine *e, const char *path)
{
    proc_ignore_sigpipe();
    memset(e, 0, sizeof *e);
    e->verbose = getenv("CHARIOT_TEST_VERBOSE") != NULL;
    char *argv[] = {(char *)path, NULL};
    char err[256];
    /* The engine's stderr stays the test's (fd 2), as a terminal shows it. */
    if (!proc_spawn(&e->proc, argv, NULL, 2, err, sizeof err)) {
        fprintf(stderr, "  (%s)\n", err);
        return false;
    }
    return true;
}

static inline void drv_mark(Engine *e)
{
    for (int i = 0; i < e->kept; i++)
        free(e->lines[i]);
    e->kept = 0;
}

/* Reads whatever output is waiting into buf, waiting up to wait_ms for some
 * (dropping the oldest bytes when an absurd amount piles up), so neither
 * side blocks on a full pipe. */
static inline void drv_pump_wait(Engine *e, int wait_ms)
{
    if (e->eof)
        return;
    if (e->len == sizeof e->buf) {
        memmove(e->buf, e->buf + sizeof e->buf / 2, sizeof e->buf / 2);
        e->len = sizeof e->buf / 2;
    }
    char err[160];
    int k = proc_read(&e->proc, e->buf + e->len, sizeof e->buf - e->len, wait_ms, err, sizeof err);
    if (k == PROC_READ_EOF || k == PROC_READ_ERROR)
        e->eof = true;
    else if (k > 0)
        e->len += (size_t)k;
}

static inline void drv_pump(Engine *e) { drv_pump_wait(e, 0); }

static inline bool drv_send_raw(Engine *e, const void *data, size_t n)
{
    const char *p = data;
    char err[160];
    while (n > 0) {
        /* Drain the engine's output before each small chunk: an engine
         * blocked on a full stdout would never read the rest of its input. */
        drv_pump(e);
        size_t chunk = n < DRV_CHUNK ? n : DRV_CHUNK;
        if (!proc_write_all(&e->proc, p, chunk, err, sizeof err))
            return false;
        p += chunk;
        n -= chunk;
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
            /* Windows text-mode output ends lines in CR LF; GUIs take both. */
            size_t body = n > 0 && e->buf[n - 1] == '\r' ? n - 1 : n;
            size_t c = body < cap - 1 ? body : cap - 1;
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
        drv_pump_wait(e, (int)left);
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
            /* The caller's buffer holds what it needs: a longer line is
             * cut on purpose. */
            if (out && cap > 0) {
                size_t n = strlen(line);
                if (n >= cap)
                    n = cap - 1;
                memcpy(out, line, n);
                out[n] = '\0';
            }
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
 * code, or -1 when it had to be killed or crashed. */
static inline int drv_wait_exit(Engine *e, int timeout_ms)
{
    int64_t deadline = drv_now_ms() + timeout_ms;
    char sink[DRV_LINE];
    bool killed = false;
    while (!proc_has_exited(&e->proc)) {
        if (drv_now_ms() > deadline) {
            fprintf(stderr, "  (engine did not exit: killed)\n");
            proc_kill(&e->proc);
            killed = true;
            break;
        }
        /* keep draining so a chatty engine never blocks on a full pipe */
        if (drv_getline(e, sink, sizeof sink, 20) < 0)
            drv_sleep_ms(5);
    }
    proc_reap(&e->proc, true);
    proc_close_pipes(&e->proc);
    drv_mark(e);
    if (killed)
        return -1;
    if (e->proc.crashed) {
        char how[64];
        proc_exit_text(&e->proc, how, sizeof how);
        fprintf(stderr, "  (engine %s)\n", how);
        return -1;
    }
    return e->proc.exit_code;
}

/* Closes the engine's stdin (EOF) and waits for it to exit. */
static inline int drv_close(Engine *e, int timeout_ms)
{
    proc_close_input(&e->proc);
    return drv_wait_exit(e, timeout_ms);
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
