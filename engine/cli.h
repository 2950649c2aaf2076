/* cli.h — small helpers shared by the subcommands: numbers from argv, clocks, lines. */
#ifndef CHARIOT_CLI_H
#define CHARIOT_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Parses a whole decimal number in [lo, hi]; false on anything else. */
bool cli_parse_ll(const char *s, long long lo, long long hi, long long *out);
/* Monotonic clock in milliseconds and in seconds. */
int64_t cli_now_ms(void);
double cli_now_seconds(void);
/* Reads one whole line of any length into *line (grown as needed), like
 * POSIX getline, which not every C library has. False at end of file. */
bool cli_read_line(FILE *f, char **line, size_t *cap);
/* The array v of *cap elements of `size` bytes, grown (doubling, from
 * `first`) to hold at least n + 1; NULL when out of memory (v stays valid). */
void *cli_grow(void *v, int *cap, int n, size_t size, int first);

#endif
