/* stall_host.c — makes this machine stall now and then, as a loaded or
 * virtual host does, so that a `chariot match` at a fast clock shows whether
 * an engine keeps enough time in hand. A tool for developers (Linux, root);
 * no test and no build target uses it.
 *
 * Every PERIOD_MS on average (uniformly 0.5x to 1.5x, from a fixed seed) it
 * runs THREADS busy threads at real-time priority for BURST_MS: with one
 * thread a core, nothing else on the machine runs meanwhile, engines and
 * match runner alike, which is what another job or a hypervisor's steal does.
 * The kernel's real-time throttling (sched_rt_runtime_us) still leaves 5% of
 * each second to the rest, so a mistaken call cannot lock the machine up.
 *
 * build: cc -O2 -pthread -o /tmp/stall_host tools/stall_host.c
 * usage: /tmp/stall_host BURST_MS PERIOD_MS [THREADS]   (THREADS: 2)
 *   e.g. /tmp/stall_host 120 2000 & tools/sprt_nodes.sh NEW BASE OPEN.fen OUT tc=2+0.02
 *   then read the TimeL column of OUT/out.log; kill the stall_host after. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

enum { MAX_THREADS = 64, BURST_PRIORITY = 50, REPORT_EVERY = 100 };

typedef struct Stall {
    int burst_ms;
    pthread_barrier_t start, done; /* every burst starts and ends on all threads together */
} Stall;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void *burst_thread(void *arg)
{
    Stall *st = arg;
    struct sched_param sp = {.sched_priority = BURST_PRIORITY};
    if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) != 0)
        fprintf(stderr, "stall_host: no real-time priority (not root?): the bursts will only share the cores\n");
    for (;;) {
        pthread_barrier_wait(&st->start);
        const double end = now_ms() + st->burst_ms;
        volatile unsigned spin = 0;
        while (now_ms() < end)
            spin++;
        pthread_barrier_wait(&st->done);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s BURST_MS PERIOD_MS [THREADS]\n", argv[0]);
        return 2;
    }
    Stall st = {.burst_ms = atoi(argv[1])};
    const int period_ms = atoi(argv[2]);
    const int threads = argc > 3 ? atoi(argv[3]) : 2;
    if (st.burst_ms < 1 || period_ms < 2 || threads < 1 || threads > MAX_THREADS) {
        fprintf(stderr, "stall_host: BURST_MS >= 1, PERIOD_MS >= 2, 1 <= THREADS <= %d\n", MAX_THREADS);
        return 2;
    }
    pthread_barrier_init(&st.start, NULL, (unsigned)threads + 1);
    pthread_barrier_init(&st.done, NULL, (unsigned)threads + 1);
    pthread_t tid[MAX_THREADS];
    for (int i = 0; i < threads; i++)
        if (pthread_create(&tid[i], NULL, burst_thread, &st) != 0) {
            fprintf(stderr, "stall_host: cannot start thread %d\n", i);
            return 1;
        }
    srand(7); /* a fixed seed: two runs stall alike */
    for (long n = 1;; n++) {
        const int gap_ms = period_ms / 2 + rand() % (period_ms + 1);
        usleep((useconds_t)gap_ms * 1000);
        pthread_barrier_wait(&st.start);
        pthread_barrier_wait(&st.done);
        if (n % REPORT_EVERY == 0)
            fprintf(stderr, "stall_host: %ld bursts\n", n);
    }
}
