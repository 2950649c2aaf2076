/* bench.c — `chariot bench`: fixed positions searched to a fixed depth; the
 * node count is the search's fingerprint (same on every build), the speed
 * its benchmark. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "cli.h"
#include "commands.h"
#include "search.h"

/* The 12 positions of tests/data/bench.fen (opening, middlegame, endgame),
 * embedded so that the bench needs no file. */
static const char *const BENCH_FENS[] = {
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakabr1/9/1cn3nc1/p1p1p2Rp/6p2/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB2 w - - 8 5",
    "r1bakab1r/9/1cn2cn2/p1p1p3p/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKABR1 w - - 8 5",
    "2bakr3/4a4/n3b4/2p5p/pc5R1/2P2N3/P3P3P/3CB1N1c/9/2BAKA3 w - - 3 18",
    "2bak4/4a4/1c2b1n2/4p1N1p/1np6/3r2P2/2P1P1R2/N3C4/2C6/2BAKAB1c w - - 4 17",
    "2bak2nr/4a4/3cb3c/p3pR2p/1r4p2/P2p4C/4P1P1P/4B1N1C/4A4/2R1KAB2 w - - 6 18",
    "1r2kab2/4a4/1cn1bc3/p3p1p2/2p4np/PR7/2P1P1P1P/N1C1BCN2/4A4/2BAK4 w - - 0 14",
    "1rbaka2r/7c1/1c2b1n2/p3p3p/1n7/2R2N3/P3P3P/2N1C2C1/8R/2BAKAB2 b - - 6 14",
    "3akab2/9/b1n6/p1C3p1p/2p1P1n2/7c1/P1P1N3P/8B/4AN3/2BAK4 b - - 1 20",
    "3a1ab2/C1Nnk4/4n4/9/9/9/9/4B4/4A4/3K1AB2 w - - 10 47",
    "3a5/5k3/b3b4/3Nn4/9/2P1C4/5pp2/4B4/4K4/3A5 b - - 14 60",
    "4c4/3ka4/5a3/1n7/p8/1N7/3C4P/B2A5/4A4/2B1K4 w - - 7 49",
};
enum { BENCH_COUNT = sizeof BENCH_FENS / sizeof BENCH_FENS[0] };

/* Chosen so the whole bench takes a few seconds in Release on one core. */
enum { BENCH_DEFAULT_DEPTH = 10, BENCH_MAX_DEPTH = 64, BENCH_HASH_MB = 16 };

int cmd_bench(int argc, char **argv)
{
    long long depth = BENCH_DEFAULT_DEPTH, threads = 1;
    bool stats = false, have_depth = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--stats") == 0) {
            stats = true;
        } else if (strcmp(argv[i], "--threads") == 0) {
            if (i + 1 >= argc || !cli_parse_ll(argv[i + 1], 1, 256, &threads)) {
                fprintf(stderr, "chariot bench: --threads needs a number 1..256\n");
                return 2;
            }
            i++;
        } else if (!have_depth && cli_parse_ll(argv[i], 1, BENCH_MAX_DEPTH, &depth)) {
            have_depth = true;
        } else {
            fprintf(stderr, "chariot bench: bad argument '%.80s' (usage: chariot bench [DEPTH 1..%d] [--stats] [--threads T])\n",
                    argv[i], BENCH_MAX_DEPTH);
            return 2;
        }
    }

    Searcher *s = searcher_new();
    if (!s) {
        fprintf(stderr, "chariot bench: out of memory\n");
        return 1;
    }
    SearchOptions opt;
    search_options_init(&opt);
    opt.hash_mb = BENCH_HASH_MB;
    opt.threads = (int)threads;
    if (!searcher_set_options(s, &opt)) {
        fprintf(stderr, "chariot bench: cannot apply options\n");
        searcher_free(s);
        return 1;
    }

    static Board b;
    uint64_t total_nodes = 0;
    int64_t total_ms = 0;
    SearchStats sum = {0};
    for (int i = 0; i < BENCH_COUNT; i++) {
        char err[160];
        if (!board_from_fen(&b, BENCH_FENS[i], err, sizeof err)) {
            fprintf(stderr, "chariot bench: bad built-in FEN %d: %s\n", i + 1, err);
            searcher_free(s);
            return 1;
        }
        searcher_new_game(s);
        SearchLimits l;
        search_limits_init(&l);
        l.depth = (int)depth;
        int64_t t0 = cli_now_ms();
        SearchResult r = searcher_run(s, &b, &l, NULL);
        int64_t ms = cli_now_ms() - t0;
        total_nodes += r.nodes;
        total_ms += ms;
        SearchStats st = searcher_stats(s);
        sum.null_tried += st.null_tried;
        sum.null_cutoffs += st.null_cutoffs;
        sum.null_verifications += st.null_verifications;
        sum.null_verify_failures += st.null_verify_failures;
        sum.null_mate_threats += st.null_mate_threats;
        char mv[5] = "none";
        if (r.best != MOVE_NONE)
            move_to_iccs(r.best, mv);
        printf("Position %2d/%d: depth %2d  nodes %10llu  bestmove %s  score %6d  time %6lld ms\n", i + 1,
               BENCH_COUNT, r.depth, (unsigned long long)r.nodes, mv, r.score, (long long)ms);
    }
    searcher_free(s);

    if (stats) {
        printf("Null move: tried %llu, cutoffs %llu, verifications %llu, verification failures %llu, mate threats %llu\n",
               (unsigned long long)sum.null_tried, (unsigned long long)sum.null_cutoffs,
               (unsigned long long)sum.null_verifications, (unsigned long long)sum.null_verify_failures,
               (unsigned long long)sum.null_mate_threats);
    }
    printf("Total time (ms): %lld\n", (long long)total_ms);
    printf("Nodes searched: %llu\n", (unsigned long long)total_nodes);
    printf("Nodes/second: %llu\n", (unsigned long long)(total_nodes * 1000 / (uint64_t)(total_ms > 0 ? total_ms : 1)));
    return 0;
}
