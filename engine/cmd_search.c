/* cmd_search.c — `chariot search`: searches one position from the command line
 * and prints every iteration and the best move. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "cli.h"
#include "commands.h"
#include "search.h"

/* Used when no limit is given: deterministic and a few seconds at most. */
enum { SEARCH_DEFAULT_DEPTH = 10 };

static void print_score(int score)
{
    if (score_is_mate(score))
        printf("score mate %d", score_mate_moves(score));
    else
        printf("score cp %d", score);
}

static void print_pv(const Move *pv, int n)
{
    printf(" pv");
    for (int i = 0; i < n; i++) {
        char mv[5];
        move_to_iccs(pv[i], mv);
        printf(" %s", mv);
    }
}

static void on_info(void *ctx, const SearchInfo *info)
{
    (void)ctx;
    printf("info depth %d seldepth %d multipv %d ", info->depth, info->seldepth, info->multipv);
    print_score(info->score);
    if (info->bound == BOUND_LOWER)
        printf(" lowerbound");
    else if (info->bound == BOUND_UPPER)
        printf(" upperbound");
    printf(" nodes %llu nps %llu time %lld hashfull %d", (unsigned long long)info->nodes,
           (unsigned long long)info->nps, (long long)info->time_ms, info->hashfull);
    print_pv(info->pv, info->pv_len);
    printf("\n");
    fflush(stdout);
}

static void on_bestmove(void *ctx, const SearchResult *r)
{
    (void)ctx;
    if (r->best == MOVE_NONE) {
        printf("nobestmove\n");
        return;
    }
    char mv[5], pd[5];
    move_to_iccs(r->best, mv);
    printf("bestmove %s", mv);
    if (r->ponder != MOVE_NONE) {
        move_to_iccs(r->ponder, pd);
        printf(" ponder %s", pd);
    }
    printf("\n");
}

static int usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "chariot search: %s '%.80s' (usage: chariot search \"<FEN>\"|startpos [--depth D | --movetime MS | --nodes N] [--multipv K] [--threads T] [--hash MB])\n",
            what, arg ? arg : "");
    return 2;
}

int cmd_search(int argc, char **argv)
{
    const char *fen = NULL;
    SearchLimits l;
    search_limits_init(&l);
    SearchOptions opt;
    search_options_init(&opt);
    bool limited = false;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long n;
        if (strcmp(a, "--depth") == 0) {
            if (!cli_parse_ll(v, 1, MAX_PLY - 1, &n))
                return usage_error("bad --depth", v);
            l.depth = (int)n;
            limited = true;
            i++;
        } else if (strcmp(a, "--movetime") == 0) {
            if (!cli_parse_ll(v, 1, 86400000LL, &n))
                return usage_error("bad --movetime", v);
            l.movetime_ms = n;
            limited = true;
            i++;
        } else if (strcmp(a, "--nodes") == 0) {
            if (!cli_parse_ll(v, 1, 1000000000000LL, &n))
                return usage_error("bad --nodes", v);
            l.nodes = (uint64_t)n;
            limited = true;
            i++;
        } else if (strcmp(a, "--multipv") == 0) {
            if (!cli_parse_ll(v, 1, MAX_MULTIPV, &n))
                return usage_error("bad --multipv", v);
            opt.multipv = (int)n;
            i++;
        } else if (strcmp(a, "--threads") == 0) {
            if (!cli_parse_ll(v, 1, 256, &n))
                return usage_error("bad --threads", v);
            opt.threads = (int)n;
            i++;
        } else if (strcmp(a, "--hash") == 0) {
            if (!cli_parse_ll(v, 1, 65536, &n))
                return usage_error("bad --hash", v);
            opt.hash_mb = (int)n;
            i++;
        } else if (a[0] == '-' && a[1] == '-') {
            return usage_error("unknown option", a);
        } else if (!fen) {
            fen = a;
        } else {
            return usage_error("unexpected argument", a);
        }
    }
    if (!fen)
        return usage_error("missing position", "");
    if (!limited)
        l.depth = SEARCH_DEFAULT_DEPTH;

    static Board b;
    char err[160];
    if (!board_from_fen(&b, fen, err, sizeof err)) {
        fprintf(stderr, "chariot search: bad FEN: %s\n", err);
        return 2;
    }
    Searcher *s = searcher_new();
    if (!s) {
        fprintf(stderr, "chariot search: out of memory\n");
        return 1;
    }
    if (!searcher_set_options(s, &opt)) {
        fprintf(stderr, "chariot search: cannot allocate %d MB of hash\n", opt.hash_mb);
        searcher_free(s);
        return 1;
    }
    SearchCallbacks cb = {.ctx = NULL, .on_info = on_info, .on_currmove = NULL, .on_bestmove = on_bestmove};
    searcher_run(s, &b, &l, &cb);
    searcher_free(s);
    return 0;
}
