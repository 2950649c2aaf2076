/* test.h — the tiny assertion kit every Chariot test program uses. */
#ifndef CHARIOT_TEST_H
#define CHARIOT_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* xorshift64: the tests' seeded random numbers (one state per program). */
static inline uint64_t test_xorshift(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* Failures are counted, not fatal, so one run reports every broken case. */
static int test_failures;

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            test_failures++;                                                     \
        }                                                                        \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                       \
    do {                                                                         \
        long long va_ = (long long)(a), vb_ = (long long)(b);                    \
        if (va_ != vb_) {                                                        \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%lld vs %lld)\n",    \
                    __FILE__, __LINE__, #a, #b, va_, vb_);                       \
            test_failures++;                                                     \
        }                                                                        \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                       \
    do {                                                                         \
        const char *sa_ = (a), *sb_ = (b);                                       \
        if (strcmp(sa_, sb_) != 0) {                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (\"%s\" vs \"%s\")\n",\
                    __FILE__, __LINE__, #a, #b, sa_, sb_);                       \
            test_failures++;                                                     \
        }                                                                        \
    } while (0)

/* Ends main(): prints a summary and returns the exit status. */
#define TEST_END()                                                               \
    do {                                                                         \
        if (test_failures) {                                                     \
            fprintf(stderr, "%d check(s) failed\n", test_failures);              \
            return 1;                                                            \
        }                                                                        \
        printf("all checks passed\n");                                           \
        return 0;                                                                \
    } while (0)

#endif
