/* cli.c — small helpers shared by the subcommands: numbers from argv, clocks, lines. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

bool cli_parse_ll(const char *s, long long lo, long long hi, long long *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

int64_t cli_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

double cli_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

bool cli_read_line(FILE *f, char **line, size_t *cap)
{
    size_t len = 0;
    for (;;) {
        if (*cap - len < 2 || !*line) {
            size_t ncap = *cap ? *cap * 2 : 256;
            char *grown = realloc(*line, ncap);
            if (!grown)
                return false;
            *line = grown;
            *cap = ncap;
        }
        if (!fgets(*line + len, (int)(*cap - len), f))
            return len > 0;
        len += strlen(*line + len);
        if (len > 0 && (*line)[len - 1] == '\n')
            return true;
    }
}

void *cli_grow(void *v, int *cap, int n, size_t size, int first)
{
    if (n < *cap)
        return v;
    const int ncap = *cap ? 2 * *cap : first;
    void *grown = realloc(v, size * (size_t)ncap);
    if (grown)
        *cap = ncap;
    return grown;
}
