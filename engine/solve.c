/* solve.c — `chariot solve`: runs the search on mate and best-move puzzles
 * given as one FEN or an EPD file, and checks the answers. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, stat */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "commands.h"
#include "eval.h"
#include "os.h"
#include "solve.h"

enum {
    SOLVE_DEFAULT_MOVETIME_MS = 5000,
    SOLVE_DEFAULT_HASH_MB = 64,
    SOLVE_DEFAULT_THREADS = 1,
    SOLVE_MAX_MOVETIME_MS = 24 * 3600 * 1000,
    SOLVE_MAX_THREADS = 256,
    SOLVE_MAX_HASH_MB = 65536
};
static const long long SOLVE_MAX_NODES = 1000000000000LL; /* 10^12 */

static const char *const SOLVE_USAGE =
    "usage: chariot solve FEN|FILE.epd [options]\n"
    "  FEN may carry EPD fields: \"<FEN> ; mate 3 ; bm h2e2\"\n"
    "  EPD lines: <FEN> ; mate N ; bm m1 m2 ; id \"x\"   (# comments, blank lines skipped)\n"
    "  --movetime MS   time per puzzle (default 5000; none when only --depth is given)\n"
    "  --depth D       depth limit per puzzle (deterministic with --threads 1)\n"
    "  --nodes N       node budget per puzzle (deterministic with --threads 1)\n"
    "  --threads T     search threads (default 1)\n"
    "  --hash MB       hash table size (default 64)\n"
    "  --json OUT      also write the results as JSON\n"
    "  --quiet         no board diagram\n"
    "exit code: 0 all solved, 1 a puzzle failed, 2 bad input (or a malformed EPD line was skipped)\n";

typedef struct SolveArgs {
    const char *input;
    const char *json_path;
    bool quiet;
    SolveSettings settings;
} SolveArgs;

/* What the info callback watches during one search. */
typedef struct SolveWatch {
    const SolvePuzzle *puzzle;
    struct timespec start;
    int64_t mate_ms;          /* first info with a correct mate score, -1 before */
    int64_t bm_since_ms;      /* since when the PV has started with a bm move, -1 if it does not */
} SolveWatch;

/* ------------------------------------------------------------- helpers */

static int64_t solve_elapsed_ms(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)(now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

static bool solve_move_listed(const Move *list, int n, Move m)
{
    for (int i = 0; i < n; i++)
        if (list[i] == m)
            return true;
    return false;
}

/* A mate for the side to move in no more than the puzzle's N moves. */
static bool solve_mate_ok(const SolvePuzzle *p, int score)
{
    return p->mate > 0 && score >= SCORE_MATE_MIN && score_mate_moves(score) <= p->mate;
}

/* ------------------------------------------------------------- options */

/* Reads argv into *a. Returns 0 to go on, or the exit code to stop with. */
static int solve_parse_args(int argc, char **argv, SolveArgs *a)
{
    static const struct {
        const char *name;
        long long min, max;
    } numeric[] = {
        {"--movetime", 1, SOLVE_MAX_MOVETIME_MS},
        {"--depth", 1, MAX_PLY - 1},
        {"--threads", 1, SOLVE_MAX_THREADS},
        {"--hash", 1, SOLVE_MAX_HASH_MB},
        {"--nodes", 1, SOLVE_MAX_NODES},
    };
    memset(a, 0, sizeof *a);
    a->settings.threads = SOLVE_DEFAULT_THREADS;
    a->settings.hash_mb = SOLVE_DEFAULT_HASH_MB;
    bool movetime_given = false;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(SOLVE_USAGE, stdout);
            return -1;
        }
        if (strcmp(arg, "--quiet") == 0) {
            a->quiet = true;
            continue;
        }
        if (strncmp(arg, "--", 2) != 0) {
            if (a->input) {
                fprintf(stderr, "chariot solve: more than one input ('%s' and '%s'); quote the FEN\n", a->input, arg);
                return 2;
            }
            a->input = arg;
            continue;
        }
        // "--name value" or "--name=value".
        char name[32];
        const char *value;
        const char *eq = strchr(arg, '=');
        if (eq && (size_t)(eq - arg) < sizeof name) {
            memcpy(name, arg, (size_t)(eq - arg));
            name[eq - arg] = '\0';
            value = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", arg);
            value = i + 1 < argc ? argv[++i] : NULL;
        }
        if (strcmp(name, "--json") == 0) {
            if (!value || !*value) {
                fprintf(stderr, "chariot solve: --json needs a file name\n");
                return 2;
            }
            a->json_path = value;
            continue;
        }
        size_t k = 0;
        while (k < sizeof numeric / sizeof numeric[0] && strcmp(name, numeric[k].name) != 0)
            k++;
        if (k == sizeof numeric / sizeof numeric[0]) {
            fprintf(stderr, "chariot solve: unknown option '%s' (see chariot solve --help)\n", arg);
            return 2;
        }
        long long v;
        if (!cli_parse_ll(value, numeric[k].min, numeric[k].max, &v)) {
            fprintf(stderr, "chariot solve: %s needs a whole number from %lld to %lld, got '%s'\n", name,
                    numeric[k].min, numeric[k].max, value ? value : "");
            return 2;
        }
        switch (k) {
        case 0: a->settings.movetime_ms = v; movetime_given = true; break;
        case 1: a->settings.depth = (int)v; break;
        case 2: a->settings.threads = (int)v; break;
        case 3: a->settings.hash_mb = (int)v; break;
        default: a->settings.nodes = (uint64_t)v; break;
        }
    }
    if (!a->input) {
        fprintf(stderr, "chariot solve: missing FEN or EPD file\n%s", SOLVE_USAGE);
        return 2;
    }
    // A depth or node limit alone makes the run deterministic, so no clock then.
    if (!movetime_given && a->settings.depth == 0 && a->settings.nodes == 0)
        a->settings.movetime_ms = SOLVE_DEFAULT_MOVETIME_MS;
    return 0;
}

/* ------------------------------------------------------------- search */

static void solve_on_info(void *ctx, const SearchInfo *info)
{
    SolveWatch *w = ctx;
    if (info->multipv > 1 || info->pv_len == 0)
        return;
    int64_t now = solve_elapsed_ms(&w->start);
    // An upper bound proves nothing; an exact or lower-bound mate score does.
    if (w->mate_ms < 0 && info->bound != BOUND_UPPER && solve_mate_ok(w->puzzle, info->score))
        w->mate_ms = now;
    if (solve_move_listed(w->puzzle->bm, w->puzzle->bm_count, info->pv[0])) {
        if (w->bm_since_ms < 0)
            w->bm_since_ms = now;
    } else {
        w->bm_since_ms = -1;
    }
}

/* Replays the PV on scratch: counts its legal prefix and notes whether it
 * reaches a position where the side that got mated has no legal move. */
static void solve_check_pv(const Board *root, const SearchResult *r, Board *scratch, SolveOutcome *o)
{
    *scratch = *root;
    int winner = root->side;
    o->pv_legal = 0;
    o->pv_mates = false;
    for (int i = 0; i < r->pv_len; i++) {
        if (!board_is_legal(scratch, r->pv[i]))
            return;
        board_make(scratch, r->pv[i]);
        o->pv_legal++;
        if (scratch->side != winner && board_count_legal(scratch) == 0) {
            o->pv_mates = r->score > 0;
            return;
        }
    }
}

static void solve_run_puzzle(Searcher *s, const SolvePuzzle *p, const SolveSettings *set, const Board *b,
                             Board *scratch, SolveOutcome *o)
{
    SearchLimits limits;
    search_limits_init(&limits);
    limits.mate = p->mate;
    limits.analysis = true;
    limits.depth = set->depth;
    limits.movetime_ms = set->movetime_ms;
    limits.nodes = set->nodes;

    SolveWatch watch = {.puzzle = p, .mate_ms = -1, .bm_since_ms = -1};
    SearchCallbacks cb = {.ctx = &watch, .on_info = solve_on_info};
    searcher_new_game(s);
    clock_gettime(CLOCK_MONOTONIC, &watch.start);
    SearchResult r = searcher_run(s, b, &limits, &cb);

    memset(o, 0, sizeof *o);
    o->result = r;
    o->time_ms = solve_elapsed_ms(&watch.start);
    o->scored = p->mate > 0 || p->bm_count > 0;
    o->best_in_bm = solve_move_listed(p->bm, p->bm_count, r.best);
    bool legal = r.best != MOVE_NONE && board_is_legal(b, r.best);
    if (r.best != MOVE_NONE && !legal) {
        char iccs[5];
        move_to_iccs(r.best, iccs);
        fprintf(stderr, "chariot solve: %s: the search returned an illegal move %s\n", p->id, iccs);
    }
    if (r.pv_len < 0 || r.pv_len > MAX_PLY)
        o->result.pv_len = r.pv_len = 0;
    solve_check_pv(b, &r, scratch, o);

    if (p->mate > 0)
        o->solved = legal && solve_mate_ok(p, r.score);
    else
        o->solved = legal && o->best_in_bm;
    if (!o->solved)
        o->solve_ms = -1;
    else if (p->mate > 0)
        o->solve_ms = watch.mate_ms >= 0 ? watch.mate_ms : o->time_ms;
    else
        o->solve_ms = watch.bm_since_ms >= 0 ? watch.bm_since_ms : o->time_ms;
}

/* Allocates the searcher with the run's options; NULL after an error message. */
static Searcher *solve_make_searcher(const SolveSettings *set)
{
    Searcher *s = searcher_new();
    if (!s) {
        fprintf(stderr, "chariot solve: cannot create the searcher (out of memory?)\n");
        return NULL;
    }
    SearchOptions o;
    search_options_init(&o);
    o.threads = set->threads;
    o.hash_mb = set->hash_mb;
    if (!searcher_set_options(s, &o)) {
        fprintf(stderr, "chariot solve: the search refused --threads %d --hash %d\n", set->threads, set->hash_mb);
        searcher_free(s);
        return NULL;
    }
    return s;
}

static void solve_describe_limits(FILE *f, const SolvePuzzle *p, const SolveSettings *set)
{
    fputs("Search: ", f);
    if (p->mate > 0)
        fprintf(f, "mate in %d, ", p->mate);
    if (set->depth > 0)
        fprintf(f, "depth %d, ", set->depth);
    if (set->nodes > 0)
        fprintf(f, "nodes %llu, ", (unsigned long long)set->nodes);
    if (set->movetime_ms > 0)
        fprintf(f, "movetime %lld ms, ", (long long)set->movetime_ms);
    fprintf(f, "%d thread%s, %d MB hash\n", set->threads, set->threads == 1 ? "" : "s", set->hash_mb);
}

static bool solve_write_json_file(const char *path, const SolveSettings *set, const SolvePuzzle *p,
                                  const SolveOutcome *o, int n, const SolveSkipped *skipped, int nskipped)
{
    FILE *f = fopen(path, "w");
    bool ok = f && solve_write_json(f, set, p, o, n, skipped, nskipped);
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        fprintf(stderr, "chariot solve: cannot write '%s': %s\n", path, strerror(errno));
    return ok;
}

/* Checks early that the JSON file can be written, so a typo does not cost a
 * whole run. The file is written for real at the end. */
static bool solve_json_writable(const char *path)
{
    if (!path)
        return true;
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(stderr, "chariot solve: cannot write '%s': %s\n", path, strerror(errno));
        return false;
    }
    fclose(f);
    return true;
}

/* ------------------------------------------------------------- one FEN */

static int solve_one(const SolveArgs *a, const SolvePuzzle *p)
{
    const SolveSettings *set = &a->settings;
    Board *b = malloc(sizeof *b), *scratch = malloc(sizeof *scratch);
    char err[160];
    if (!b || !scratch || !solve_parse_position(b, p->fen, err, sizeof err)) {
        fprintf(stderr, "chariot solve: cannot set up the position\n");
        free(b);
        free(scratch);
        return 2;
    }
    board_set_psq(b, eval_psq_table());
    Searcher *s = solve_make_searcher(set);
    if (!s) {
        free(b);
        free(scratch);
        return 2;
    }

    // 1. The position.
    if (!a->quiet) {
        solve_print_board(stdout, b, os_is_terminal(stdout) && !getenv("NO_COLOR"));
        fputc('\n', stdout);
    }
    printf("FEN: %s\n", p->fen);
    printf("%s to move (%s)\n", b->side == RED ? "Red" : "Black", b->side == RED ? "红方走" : "黑方走");
    solve_describe_limits(stdout, p, set);
    fflush(stdout);

    // 2. The search.
    SolveOutcome o;
    solve_run_puzzle(s, p, set, b, scratch, &o);
    const SearchResult *r = &o.result;

    // 3. What it found.
    char score[48], secs[32];
    if (r->best == MOVE_NONE) {
        printf("Result: %s has no legal move and has lost\n", b->side == RED ? "Red" : "Black");
    } else {
        char iccs[5], wxf[8] = "?", chinese[32] = "?";
        move_to_iccs(r->best, iccs);
        board_move_to_wxf(b, r->best, wxf, sizeof wxf);
        board_move_to_chinese(b, r->best, chinese, sizeof chinese);
        solve_format_score(r->score, score, sizeof score);
        printf("Result: %s, best move %s (%s, %s)\n", score, iccs, wxf, chinese);
        if (o.pv_legal > 0) {
            printf("Main line (ICCS, WXF, 中文)%s:\n", o.pv_mates ? ", ends in mate on the board" : "");
            solve_print_line(stdout, b, r->pv, o.pv_legal);
        }
        if (o.pv_legal < r->pv_len)
            printf("  (the search's line has an illegal move at ply %d; shown up to it)\n", o.pv_legal + 1);
    }
    solve_format_seconds(o.time_ms, secs, sizeof secs);
    printf("Depth %d/%d, nodes %llu, time %s", r->depth, r->seldepth, (unsigned long long)r->nodes, secs);
    if (o.time_ms > 0)
        printf(", %llu knps", (unsigned long long)(r->nodes / (uint64_t)o.time_ms));
    fputc('\n', stdout);

    // 4. Against the expectation, when the input had one.
    int rc = 0;
    if (o.scored) {
        char expected[160];
        solve_format_expected(p, expected, sizeof expected);
        if (o.solved) {
            solve_format_seconds(o.solve_ms, secs, sizeof secs);
            printf("Expected %s: ok, found at %s%s\n", expected, secs,
                   p->bm_count > 0 && !o.best_in_bm ? " (a mating first move not in the bm list)" : "");
        } else {
            printf("Expected %s: FAIL\n", expected);
            rc = 1;
        }
    }
    fflush(stdout);
    if (a->json_path && !solve_write_json_file(a->json_path, set, p, &o, 1, NULL, 0))
        rc = 2;
    searcher_free(s);
    free(b);
    free(scratch);
    return rc;
}

/* ------------------------------------------------------------- a file */

/* Reads every line; malformed ones are reported and collected in *skipped. */
static bool solve_read_file(const char *path, FILE *f, SolvePuzzle **out, int *count, SolveSkipped **skipped,
                            int *nskipped)
{
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0, n = 0, cap_p = 0, ns = 0, cap_s = 0;
    SolvePuzzle *p = NULL;
    SolveSkipped *sk = NULL;
    bool ok = true;
    while (ok && cli_read_line(f, &line, &cap)) {
        lineno++;
        SolvePuzzle tmp;
        char err[160];
        SolveLineKind kind = solve_epd_parse(line, lineno, &tmp, err, sizeof err);
        if (kind == SOLVE_LINE_SKIP)
            continue;
        if (kind == SOLVE_LINE_BAD) {
            fprintf(stderr, "chariot solve: %s:%d: %s (line skipped)\n", path, lineno, err);
            SolveSkipped *grown_sk = cli_grow(sk, &cap_s, ns, sizeof *sk, 8);
            if (!grown_sk) {
                ok = false;
                break;
            }
            sk = grown_sk;
            sk[ns].line = lineno;
            snprintf(sk[ns].error, sizeof sk[ns].error, "%s", err);
            ns++;
            continue;
        }
        SolvePuzzle *grown_p = cli_grow(p, &cap_p, n, sizeof *p, 64);
        if (!grown_p) {
            ok = false;
            break;
        }
        p = grown_p;
        p[n++] = tmp;
    }
    if (ferror(f)) {
        fprintf(stderr, "chariot solve: error reading '%s': %s\n", path, strerror(errno));
        ok = false;
    } else if (!ok) {
        fprintf(stderr, "chariot solve: out of memory reading '%s'\n", path);
    }
    free(line);
    *out = p;
    *count = n;
    *skipped = sk;
    *nskipped = ns;
    return ok;
}

/* The live progress line: rewritten in place on a terminal, one line per
 * puzzle otherwise (logs and CI). */
static void solve_progress(bool tty, int done, int total, int solved, int64_t elapsed_ms, const char *next_id)
{
    char rate[32] = "-";
    if (done > 0)
        snprintf(rate, sizeof rate, "%.1fs", (double)elapsed_ms / 1000.0 / done);
    if (tty) {
        fprintf(stderr, "\r\033[K[%d/%d] solved %d, %s/puzzle", done, total, solved, rate);
        if (next_id)
            fprintf(stderr, "  (%s)", next_id);
    } else {
        fprintf(stderr, "[%d/%d] solved %d, %s/puzzle\n", done, total, solved, rate);
    }
    fflush(stderr);
}

/* Everything a file run works on. */
typedef struct SolveRun {
    const SolveArgs *args;
    Searcher *searcher;
    const SolvePuzzle *puzzles;
    SolveOutcome *outcomes;
    int count;
    const SolveSkipped *skipped;
    int nskipped;
    Board *board;
    Board *scratch;
} SolveRun;

static void solve_print_summary(const SolveRun *run)
{
    SolveSummary sum;
    solve_summarize(run->outcomes, run->count, &sum);
    char median[32] = "-", p90[32] = "-", total_time[32];
    if (sum.median_ms >= 0)
        solve_format_seconds(sum.median_ms, median, sizeof median);
    if (sum.p90_ms >= 0)
        solve_format_seconds(sum.p90_ms, p90, sizeof p90);
    solve_format_seconds(sum.time_ms, total_time, sizeof total_time);
    printf("\nsolved %d/%d, within 1 s: %d, median time-to-solve %s, p90 %s, total time %s, nodes %llu\n", sum.solved,
           sum.total, sum.within_1s, median, p90, total_time, (unsigned long long)sum.nodes);
    if (sum.unscored > 0)
        printf("%d puzzle(s) without mate/bm were analysed only\n", sum.unscored);
    if (sum.solved < sum.total) {
        printf("failed:");
        for (int i = 0; i < run->count; i++)
            if (run->outcomes[i].scored && !run->outcomes[i].solved)
                printf(" %s", run->puzzles[i].id);
        putchar('\n');
    }
    if (run->nskipped > 0)
        printf("%d malformed line(s) skipped (see stderr)\n", run->nskipped);
    fflush(stdout);
}

static int solve_file_run(const SolveRun *run)
{
    const SolveSettings *set = &run->args->settings;
    int n = run->count;
    bool tty = os_is_terminal(stderr);
    printf("%-24s %-12s %-16s %9s %9s  %s\n", "id", "expected", "found", "solved at", "time", "result");
    fflush(stdout);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int solved = 0, failed = 0;
    for (int i = 0; i < n; i++) {
        const SolvePuzzle *p = &run->puzzles[i];
        SolveOutcome *o = &run->outcomes[i];
        if (tty)
            solve_progress(tty, i, n, solved, solve_elapsed_ms(&start), p->id);
        char err[160];
        // The FEN was parsed once already while reading, so this holds.
        if (solve_parse_position(run->board, p->fen, err, sizeof err)) {
            board_set_psq(run->board, eval_psq_table());
            solve_run_puzzle(run->searcher, p, set, run->board, run->scratch, o);
        } else {
            fprintf(stderr, "chariot solve: %s: %s\n", p->id, err);
            memset(o, 0, sizeof *o);
            o->scored = true;
            o->solve_ms = -1;
        }
        solved += o->solved;
        failed += o->scored && !o->solved;

        char expected[160], found[48], at[32] = "-", total[32];
        solve_format_expected(p, expected, sizeof expected);
        solve_format_found(o, found, sizeof found);
        if (o->solved)
            solve_format_seconds(o->solve_ms, at, sizeof at);
        solve_format_seconds(o->time_ms, total, sizeof total);
        if (tty)
            fputs("\r\033[K", stderr);
        printf("%-24s %-12s %-16s %9s %9s  %s\n", p->id, expected, found, at, total,
               !o->scored ? "-" : o->solved ? "ok" : "FAIL");
        fflush(stdout);
        if (!tty)
            solve_progress(tty, i + 1, n, solved, solve_elapsed_ms(&start), NULL);
    }
    if (tty)
        fputs("\r\033[K", stderr);
    solve_print_summary(run);

    int rc = failed > 0 ? 1 : run->nskipped > 0 ? 2 : 0;
    const char *json = run->args->json_path;
    if (json && !solve_write_json_file(json, set, run->puzzles, run->outcomes, n, run->skipped, run->nskipped))
        rc = 2;
    return rc;
}

static int solve_file(const SolveArgs *a, FILE *f)
{
    SolveRun run = {.args = a};
    SolvePuzzle *puzzles;
    SolveSkipped *skipped;
    bool read_ok = solve_read_file(a->input, f, &puzzles, &run.count, &skipped, &run.nskipped);
    fclose(f);
    run.puzzles = puzzles;
    run.skipped = skipped;
    if (read_ok && run.count == 0)
        fprintf(stderr, "chariot solve: no puzzles in '%s'\n", a->input);
    run.outcomes = run.count > 0 ? calloc((size_t)run.count, sizeof *run.outcomes) : NULL;
    run.board = malloc(sizeof *run.board);
    run.scratch = malloc(sizeof *run.scratch);
    int rc = 2;
    if (read_ok && run.count > 0 && (!run.outcomes || !run.board || !run.scratch))
        fprintf(stderr, "chariot solve: out of memory\n");
    else if (read_ok && run.count > 0 && run.outcomes && run.board && run.scratch && solve_json_writable(a->json_path) &&
        (run.searcher = solve_make_searcher(&a->settings)) != NULL)
        rc = solve_file_run(&run);
    if (run.searcher)
        searcher_free(run.searcher);
    free(run.board);
    free(run.scratch);
    free(run.outcomes);
    free(puzzles);
    free(skipped);
    return rc;
}

/* ------------------------------------------------------------- entry */

/* A lone word without '/' cannot be a FEN (except "startpos"), so it is
 * taken as a file name; so is anything ending like one. */
static bool solve_looks_like_path(const char *s)
{
    size_t n = strlen(s);
    static const char *const exts[] = {".epd", ".fen", ".txt"};
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        size_t e = strlen(exts[i]);
        if (n >= e && strcmp(s + n - e, exts[i]) == 0)
            return true;
    }
    return !strchr(s, '/') && !strchr(s, ' ') && strcmp(s, "startpos") != 0;
}

int cmd_solve(int argc, char **argv)
{
    SolveArgs a;
    int rc = solve_parse_args(argc, argv, &a);
    if (rc != 0)
        return rc < 0 ? 0 : rc;

    struct stat st;
    if (stat(a.input, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "chariot solve: '%s' is a directory, not an EPD file\n", a.input);
        return 2;
    }
    if (stat(a.input, &st) == 0 || solve_looks_like_path(a.input)) {
        FILE *f = fopen(a.input, "r");
        if (!f) {
            fprintf(stderr, "chariot solve: cannot open '%s': %s\n", a.input, strerror(errno));
            return 2;
        }
        return solve_file(&a, f);
    }

    SolvePuzzle p;
    char err[160];
    SolveLineKind kind = solve_epd_parse(a.input, 0, &p, err, sizeof err);
    if (kind != SOLVE_LINE_PUZZLE) {
        fprintf(stderr, "chariot solve: %s\n", kind == SOLVE_LINE_SKIP ? "empty FEN" : err);
        return 2;
    }
    if (!solve_json_writable(a.json_path))
        return 2;
    return solve_one(&a, &p);
}
