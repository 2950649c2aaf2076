/* datagen.c — `chariot datagen`: labelled training positions from self-play.
 *
 * Each worker thread plays whole games with its own Searcher (one search
 * thread, fixed nodes per move), judged by the board's arbiter exactly as
 * `chariot match` judges (Asian repetition rules, the 60-move limit, no
 * legal move loses, insufficient material), plus score adjudication. Quiet
 * positions of a finished game are appended to the output file in one
 * locked write, so the file only ever holds whole games: Ctrl-C drops the
 * games in progress and leaves a valid file, and a second run appends.
 *
 * Output format (docs/DATAGEN.md): one position per line,
 *     FEN | RESULT | SCORE
 * RESULT is the game result from Red's point of view (1, 0.5 or 0), SCORE
 * the search score of the position in centipawns from Red's point of view.
 *
 * Reproducibility: game g of a run draws its opening and random plies from
 * a generator seeded by (seed, g), and the search at fixed nodes with a
 * cleared TT is deterministic, so a seed fixes the set of games (their order
 * in the file depends on which worker finishes first). */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "cli.h"
#include "commands.h"
#include "endgame.h"
#include "match.h"
#include "os.h"
#include "proc.h"
#include "search.h"

/* Defaults and adjudication, in plies and centipawns. A side whose score is
 * at least DG_RESIGN_CP for DG_RESIGN_PLIES plies in a row (both sides'
 * searches agreeing) wins; after DG_DRAW_MIN_PLY, DG_DRAW_PLIES plies in a row
 * within DG_DRAW_CP is a draw; DG_MAX_PLIES ends a game as a draw. */
enum {
    DG_DEFAULT_NODES = 5000,
    DG_DEFAULT_GAMES = 1000,
    DG_DEFAULT_RANDOM_PLIES = 6,
    DG_DEFAULT_SKIP_PLIES = 12,
    DG_DEFAULT_HASH_MB = 8,
    DG_RESIGN_CP = 1000,
    DG_RESIGN_PLIES = 6,
    DG_DRAW_CP = 15,
    DG_DRAW_PLIES = 16,
    DG_DRAW_MIN_PLY = 80,
    DG_MAX_PLIES = 400,
    DG_OPENING_TRIES = 32,
    DG_ENDGAME_TRIES = 100000, /* random placements per endgame start (a few hundred at most are needed) */
    DG_ENDGAME_EXTRA_PAWNS = 2, /* a side with a pawn range gets at most this many above its minimum */
    DG_PROGRESS_MS = 1000,
    /* Without a terminal (a log file, nohup) the progress goes out as whole
     * lines, this often: a line a second would swamp the log. */
    DG_LOG_LINE_MS = 60000,
    DG_FEN_MAX = 128,
    DG_MAX_CONCURRENCY = 256
};

/* The program's one global for Ctrl-C, as in match.c: the handler can reach
 * nothing else. Workers read it between moves. */
static volatile sig_atomic_t dg_interrupted;

static void dg_on_signal(int sig)
{
    (void)sig;
    dg_interrupted = 1;
}

typedef struct DgConfig {
    const char *out;
    long long games;      /* games to play (0: until --positions or Ctrl-C) */
    long long positions;  /* stop once this many were written (0: no limit) */
    uint64_t nodes;
    int concurrency;
    uint64_t seed;
    int random_plies;
    int skip_plies;
    int hash_mb;
    MatchBook book;
    bool quiet;
    bool endgame_starts; /* start from random positions of the endgame table's entries */
} DgConfig;

typedef struct DgShared {
    const DgConfig *cfg;
    pthread_mutex_t lock;
    FILE *f;
    long long next_game;  /* next game number to hand out */
    long long games_done;
    long long positions;
    long long results[3]; /* red wins, draws, black wins */
    bool write_failed;
} DgShared;

typedef struct DgPosition {
    char fen[DG_FEN_MAX];
    int score_red;
} DgPosition;

/* splitmix64: a small, good generator; one per game, seeded from the run's
 * seed and the game number. */
static uint64_t dg_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* ------------------------------------------------- endgame-table starts */

/* Points, as (rows from the own back rank, file), where a piece of a kind
 * may stand; the grid below turns them into either colour's squares. */
typedef struct DgPoints {
    int n;
    signed char p[90][2];
} DgPoints;

typedef struct DgEndgamePoints {
    DgPoints any, king, advisor, elephant, pawn_any, pawn_high, pawn_bottom;
} DgEndgamePoints;

static void dg_points_add(DgPoints *ps, int row, int file)
{
    ps->p[ps->n][0] = (signed char)row;
    ps->p[ps->n][1] = (signed char)file;
    ps->n++;
}

static void dg_endgame_points(DgEndgamePoints *pt)
{
    static const signed char ADVISOR_POINTS[5][2] = {{0, 3}, {0, 5}, {1, 4}, {2, 3}, {2, 5}};
    static const signed char ELEPHANT_POINTS[7][2] = {{0, 2}, {0, 6}, {2, 0}, {2, 4}, {2, 8}, {4, 2}, {4, 6}};
    memset(pt, 0, sizeof *pt);
    for (int row = 0; row < RANK_NB; row++)
        for (int file = 0; file < FILE_NB; file++) {
            dg_points_add(&pt->any, row, file);
            if (row <= 2 && file >= 3 && file <= 5)
                dg_points_add(&pt->king, row, file);
            /* Pawns: on their own side only on the start files (rows 3-4),
             * anywhere across the river; "high" stops short of the last row. */
            if ((row >= 3 && row <= 4 && file % 2 == 0) || row >= 5)
                dg_points_add(&pt->pawn_any, row, file);
            if (row >= 5 && row <= 8)
                dg_points_add(&pt->pawn_high, row, file);
            if (row == 9)
                dg_points_add(&pt->pawn_bottom, row, file);
        }
    for (int i = 0; i < 5; i++)
        dg_points_add(&pt->advisor, ADVISOR_POINTS[i][0], ADVISOR_POINTS[i][1]);
    for (int i = 0; i < 7; i++)
        dg_points_add(&pt->elephant, ELEPHANT_POINTS[i][0], ELEPHANT_POINTS[i][1]);
}

static int dg_range(uint64_t *rng, int lo, int hi) { return lo + (int)(dg_next(rng) % (uint64_t)(hi - lo + 1)); }

/* Puts `count` pieces (FEN letter `letter`) of `color` on free random points
 * of ps. False when the points run out. */
static bool dg_place(char grid[RANK_NB][FILE_NB], uint64_t *rng, const DgPoints *ps, int color, char letter, int count)
{
    for (int k = 0; k < count; k++) {
        int free_points = 0;
        for (int i = 0; i < ps->n; i++) {
            int fen_row = color == RED ? RANK_NB - 1 - ps->p[i][0] : ps->p[i][0];
            free_points += grid[fen_row][(int)ps->p[i][1]] == 0;
        }
        if (free_points == 0)
            return false;
        int pick = (int)(dg_next(rng) % (uint64_t)free_points);
        for (int i = 0; i < ps->n; i++) {
            int fen_row = color == RED ? RANK_NB - 1 - ps->p[i][0] : ps->p[i][0];
            char *cell = &grid[fen_row][(int)ps->p[i][1]];
            if (*cell == 0 && pick-- == 0) {
                *cell = color == RED ? letter : (char)(letter - 'A' + 'a');
                break;
            }
        }
    }
    return true;
}

static bool dg_place_side(char grid[RANK_NB][FILE_NB], uint64_t *rng, const DgEndgamePoints *pt,
                          const EndgameSide *side, EndgamePawns pawns, int color)
{
    int pmax = side->pawns_max < side->pawns_min + DG_ENDGAME_EXTRA_PAWNS ? side->pawns_max
                                                                          : side->pawns_min + DG_ENDGAME_EXTRA_PAWNS;
    const DgPoints *pawn_points = pawns == EG_PAWNS_HIGH     ? &pt->pawn_high
                                  : pawns == EG_PAWNS_BOTTOM ? &pt->pawn_bottom
                                                             : &pt->pawn_any;
    return dg_place(grid, rng, &pt->any, color, 'R', side->rooks) &&
           dg_place(grid, rng, &pt->any, color, 'N', side->horses) &&
           dg_place(grid, rng, &pt->any, color, 'C', side->cannons) &&
           dg_place(grid, rng, pawn_points, color, 'P', dg_range(rng, side->pawns_min, pmax)) &&
           dg_place(grid, rng, &pt->advisor, color, 'A', dg_range(rng, side->advisors_min, side->advisors_max)) &&
           dg_place(grid, rng, &pt->elephant, color, 'B', dg_range(rng, side->elephants_min, side->elephants_max));
}

/* A random position of endgame-table entry `entry`, the leading side's
 * colour and the side to move drawn at random: legal, the side to move not
 * in check and with a move, and classified by endgame_find as that very
 * entry (not an earlier, more specific one). False if no try gave one. */
static bool dg_endgame_start(uint64_t *rng, int entry, Board *b)
{
    DgEndgamePoints pt;
    dg_endgame_points(&pt);
    const EndgameEntry *e = &ENDGAME_TABLE[entry];
    for (int attempt = 0; attempt < DG_ENDGAME_TRIES; attempt++) {
        char grid[RANK_NB][FILE_NB];
        memset(grid, 0, sizeof grid);
        const int strong = (int)(dg_next(rng) & 1);
        if (!dg_place(grid, rng, &pt.king, RED, 'K', 1) || !dg_place(grid, rng, &pt.king, BLACK, 'K', 1) ||
            !dg_place_side(grid, rng, &pt, &e->strong, e->strong_pawns, strong) ||
            !dg_place_side(grid, rng, &pt, &e->weak, e->weak_pawns, strong ^ 1))
            continue;
        char fen[DG_FEN_MAX];
        int n = 0;
        for (int row = 0; row < RANK_NB; row++) {
            int empty = 0;
            for (int file = 0; file < FILE_NB; file++) {
                if (!grid[row][file]) {
                    empty++;
                    continue;
                }
                if (empty)
                    fen[n++] = (char)('0' + empty);
                empty = 0;
                fen[n++] = grid[row][file];
            }
            if (empty)
                fen[n++] = (char)('0' + empty);
            fen[n++] = row + 1 < RANK_NB ? '/' : ' ';
        }
        snprintf(fen + n, sizeof fen - (size_t)n, "%c - - 0 1", (dg_next(rng) & 1) ? 'w' : 'b');
        if (!board_from_fen(b, fen, NULL, 0))
            continue;
        const int us = b->side;
        GameReason why;
        if (board_is_attacked(b, b->plist[us ^ 1][0], us) || board_in_check(b) || !board_has_legal_move(b) ||
            endgame_find(b, strong) != entry || board_game_result(b, &why) != RESULT_NONE)
            continue;
        return true;
    }
    return false;
}

/* Plays cfg->random_plies random legal plies on b. True when the game is
 * still in play afterwards. */
static bool dg_random_plies(const DgConfig *cfg, uint64_t *rng, Board *b)
{
    for (int i = 0; i < cfg->random_plies; i++) {
        MoveList list;
        board_generate(b, GEN_ALL, &list);
        if (list.count == 0)
            return false;
        board_make(b, list.moves[dg_next(rng) % (uint64_t)list.count]);
    }
    GameReason why;
    return board_game_result(b, &why) == RESULT_NONE;
}

/* Sets up game g's start: a book opening (or, with --endgame-starts, a
 * random position of table entry g mod the table size), then random legal
 * plies. False when no try gave a position that is still in play. */
static bool dg_opening(const DgConfig *cfg, uint64_t game, uint64_t *rng, Board *b)
{
    if (cfg->endgame_starts)
        return dg_endgame_start(rng, (int)(game % (uint64_t)ENDGAME_TABLE_SIZE), b) && dg_random_plies(cfg, rng, b);
    for (int attempt = 0; attempt < DG_OPENING_TRIES; attempt++) {
        const MatchOpening *op = &cfg->book.items[dg_next(rng) % (uint64_t)cfg->book.count];
        if (op->startpos)
            board_startpos(b);
        else if (!board_from_fen(b, op->fen, NULL, 0))
            continue;
        bool ok = true;
        for (int i = 0; i < op->count && ok; i++) {
            ok = board_is_legal(b, op->moves[i]);
            if (ok)
                board_make(b, op->moves[i]);
        }
        if (ok && dg_random_plies(cfg, rng, b))
            return true;
    }
    return false;
}

/* Plays one game to the end. Returns the result (RESULT_NONE when stopped
 * by Ctrl-C) and fills pos/npos with the quiet positions worth keeping. */
static GameResult dg_play(const DgConfig *cfg, Searcher *s, uint64_t game, Board *b, DgPosition *pos, int *npos)
{
    uint64_t rng = cfg->seed ^ (game * 0xD1B54A32D192ED03ULL);
    dg_next(&rng);
    *npos = 0;
    if (!dg_opening(cfg, game, &rng, b))
        return RESULT_DRAW; /* never seen: no playable line; counted, no positions */
    searcher_new_game(s);
    SearchLimits l;
    search_limits_init(&l);
    l.nodes = cfg->nodes;

    int resign_run = 0, resign_sign = 0, draw_run = 0;
    for (int plies = 0;; plies++) {
        if (dg_interrupted)
            return RESULT_NONE;
        GameReason why;
        GameResult r = board_game_result(b, &why);
        if (r != RESULT_NONE)
            return r;
        if (plies >= DG_MAX_PLIES)
            return RESULT_DRAW;
        if (b->ply > BOARD_HIST_MAX - MAX_PLY - 16)
            board_compact_history(b);

        SearchResult res = searcher_run(s, b, &l, NULL);
        if (res.best == MOVE_NONE)
            return b->side == RED ? RESULT_BLACK_WINS : RESULT_RED_WINS;
        const int red = b->side == RED ? res.score : -res.score;

        /* Adjudication on the searches' agreement. */
        const int sign = red >= DG_RESIGN_CP ? 1 : red <= -DG_RESIGN_CP ? -1 : 0;
        resign_run = sign != 0 && sign == resign_sign ? resign_run + 1 : sign != 0;
        resign_sign = sign;
        if (resign_run >= DG_RESIGN_PLIES)
            return sign > 0 ? RESULT_RED_WINS : RESULT_BLACK_WINS;
        draw_run = plies >= DG_DRAW_MIN_PLY && red <= DG_DRAW_CP && red >= -DG_DRAW_CP ? draw_run + 1 : 0;
        if (draw_run >= DG_DRAW_PLIES)
            return RESULT_DRAW;

        /* A position is kept when it is quiet (not in check, no capture
         * chosen, quiescence equals the static eval), its score is not a
         * mate or rule verdict, and the opening plies are behind. */
        if (plies >= cfg->skip_plies && *npos < DG_MAX_PLIES && !board_in_check(b) && !board_is_capture(b, res.best) &&
            !score_is_mate(res.score) && !score_is_rule(res.score)) {
            int stat, q;
            searcher_quiet_eval(s, b, &stat, &q);
            if (stat == q) {
                board_to_fen(b, pos[*npos].fen, sizeof pos[*npos].fen);
                pos[*npos].score_red = red;
                (*npos)++;
            }
        }
        board_make(b, res.best);
    }
}

static void *dg_worker(void *arg)
{
    DgShared *sh = arg;
    const DgConfig *cfg = sh->cfg;
    Searcher *s = searcher_new();
    Board *b = malloc(sizeof *b);
    DgPosition *pos = malloc(sizeof *pos * DG_MAX_PLIES);
    SearchOptions o = *searcher_options(s);
    o.threads = 1;
    o.hash_mb = cfg->hash_mb;
    if (!s || !b || !pos || !searcher_set_options(s, &o)) {
        fprintf(stderr, "datagen: out of memory\n");
        pthread_mutex_lock(&sh->lock);
        sh->write_failed = true;
        pthread_mutex_unlock(&sh->lock);
        goto done;
    }
    for (;;) {
        pthread_mutex_lock(&sh->lock);
        const bool more = !dg_interrupted && !sh->write_failed && (cfg->games == 0 || sh->next_game < cfg->games) &&
                          (cfg->positions == 0 || sh->positions < cfg->positions);
        const long long game = sh->next_game++;
        pthread_mutex_unlock(&sh->lock);
        if (!more)
            break;
        int n = 0;
        GameResult r = dg_play(cfg, s, (uint64_t)game, b, pos, &n);
        if (r == RESULT_NONE)
            break;
        const char *res = r == RESULT_RED_WINS ? "1" : r == RESULT_BLACK_WINS ? "0" : "0.5";
        pthread_mutex_lock(&sh->lock);
        for (int i = 0; i < n; i++)
            fprintf(sh->f, "%s | %s | %d\n", pos[i].fen, res, pos[i].score_red);
        if (fflush(sh->f) != 0) {
            sh->write_failed = true;
        } else {
            sh->games_done++;
            sh->positions += n;
            sh->results[r == RESULT_RED_WINS ? 0 : r == RESULT_DRAW ? 1 : 2]++;
        }
        pthread_mutex_unlock(&sh->lock);
    }
done:
    free(pos);
    free(b);
    if (s)
        searcher_free(s);
    return NULL;
}

/* A run killed in the middle of a write can leave a torn last line: cut it,
 * so that appending continues a valid file. */
static bool dg_repair_tail(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return true; /* a new file */
    long long size = 0, last_nl = -1;
    int c;
    while ((c = fgetc(f)) != EOF) {
        if (c == '\n')
            last_nl = size;
        size++;
    }
    fclose(f);
    if (last_nl == size - 1 || size == 0)
        return true;
    fprintf(stderr, "datagen: %s ended with a torn line; cut it\n", path);
    return os_truncate_file(path, last_nl + 1);
}

#define DG_USAGE                                                                                                 \
    "usage: chariot datagen -o FILE [--games N] [--positions N] [--nodes N] [--concurrency N]\n"               \
    "                       [--seed S] [--openings FILE] [--random-plies N] [--skip-plies N] [--hash MB]\n"    \
    "                       [--endgame-starts] [--quiet]\n"                                                     \
    "Self-play at fixed nodes per move; appends quiet positions as 'FEN | RESULT | SCORE' lines\n"              \
    "(result and score from Red's point of view). Defaults: --games 1000, --nodes 5000,\n"                      \
    "--concurrency = CPUs, --random-plies 6, --skip-plies 12, --hash 8, the built-in openings.\n"              \
    "--endgame-starts: game g starts from a random position of endgame-table entry g mod the\n"                \
    "table size (for chariot tune --endgame-scales); random and skipped plies default to 0.\n"

static bool dg_number(const char *opt, const char *v, long long lo, long long hi, long long *out)
{
    if (!v || !cli_parse_ll(v, lo, hi, out)) {
        fprintf(stderr, "datagen: %s needs a whole number in [%lld, %lld]\n", opt, lo, hi);
        return false;
    }
    return true;
}

/* How a progress report ends: rewritten in place on a terminal, a whole
 * line in a log, or the final line. */
typedef enum { DG_REPORT_TTY, DG_REPORT_LINE, DG_REPORT_FINAL } DgReport;

static void dg_progress(DgShared *sh, double t0, DgReport kind)
{
    const bool final = kind == DG_REPORT_FINAL;
    const DgConfig *cfg = sh->cfg;
    pthread_mutex_lock(&sh->lock);
    long long games = sh->games_done, positions = sh->positions;
    long long rw = sh->results[0], dr = sh->results[1], bw = sh->results[2];
    pthread_mutex_unlock(&sh->lock);
    double secs = cli_now_seconds() - t0;
    double pps = secs > 0 ? positions / secs : 0;
    char eta[48] = "";
    double left = -1;
    if (cfg->positions > 0 && pps > 0)
        left = (cfg->positions - positions) / pps;
    if (cfg->games > 0 && games > 0) {
        double by_games = (cfg->games - games) * secs / games;
        if (left < 0 || by_games < left)
            left = by_games;
    }
    if (!final && left >= 0)
        snprintf(eta, sizeof eta, ", ETA %.0f s", left > 0 ? left : 0);
    fprintf(stderr, "%sdatagen: %lld games (+%lld =%lld -%lld), %lld positions, %.0f positions/s, %.1f s%s%s",
            kind == DG_REPORT_TTY ? "\r" : "", games, rw, dr, bw, positions, pps, secs, eta,
            kind == DG_REPORT_TTY ? "   " : "\n");
    fflush(stderr);
}

int cmd_datagen(int argc, char **argv)
{
    DgConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.games = DG_DEFAULT_GAMES;
    cfg.nodes = DG_DEFAULT_NODES;
    cfg.concurrency = proc_cpu_count();
    cfg.seed = (uint64_t)time(NULL) ^ ((uint64_t)cli_now_ms() << 20);
    cfg.random_plies = DG_DEFAULT_RANDOM_PLIES;
    cfg.skip_plies = DG_DEFAULT_SKIP_PLIES;
    cfg.hash_mb = DG_DEFAULT_HASH_MB;
    const char *openings = NULL;
    bool games_given = false, random_given = false, skip_given = false;
    long long v;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-o") == 0 || strcmp(a, "--out") == 0) {
            if (!val) {
                fputs("datagen: -o needs a file name\n", stderr);
                return 2;
            }
            cfg.out = val;
        } else if (strcmp(a, "--games") == 0) {
            if (!dg_number(a, val, 0, 1000000000LL, &v))
                return 2;
            cfg.games = v;
            games_given = true;
        } else if (strcmp(a, "--positions") == 0) {
            if (!dg_number(a, val, 1, 100000000000LL, &v))
                return 2;
            cfg.positions = v;
        } else if (strcmp(a, "--nodes") == 0) {
            if (!dg_number(a, val, 1, 1000000000LL, &v))
                return 2;
            cfg.nodes = (uint64_t)v;
        } else if (strcmp(a, "--concurrency") == 0) {
            if (!dg_number(a, val, 1, DG_MAX_CONCURRENCY, &v))
                return 2;
            cfg.concurrency = (int)v;
        } else if (strcmp(a, "--seed") == 0) {
            if (!dg_number(a, val, 0, INT64_MAX, &v))
                return 2;
            cfg.seed = (uint64_t)v;
        } else if (strcmp(a, "--openings") == 0) {
            if (!val) {
                fputs("datagen: --openings needs a file name\n", stderr);
                return 2;
            }
            openings = val;
        } else if (strcmp(a, "--random-plies") == 0) {
            if (!dg_number(a, val, 0, 40, &v))
                return 2;
            cfg.random_plies = (int)v;
            random_given = true;
        } else if (strcmp(a, "--skip-plies") == 0) {
            if (!dg_number(a, val, 0, DG_MAX_PLIES, &v))
                return 2;
            cfg.skip_plies = (int)v;
            skip_given = true;
        } else if (strcmp(a, "--hash") == 0) {
            if (!dg_number(a, val, 1, 4096, &v))
                return 2;
            cfg.hash_mb = (int)v;
        } else if (strcmp(a, "--quiet") == 0) {
            cfg.quiet = true;
            continue;
        } else if (strcmp(a, "--endgame-starts") == 0) {
            cfg.endgame_starts = true;
            continue;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(DG_USAGE, stdout);
            return 0;
        } else {
            fprintf(stderr, "datagen: unknown argument '%s'\n%s", a, DG_USAGE);
            return 2;
        }
        i++;
    }
    if (!cfg.out) {
        fputs("datagen: -o FILE is required\n" DG_USAGE, stderr);
        return 2;
    }
    /* An endgame start is already random and already the position wanted. */
    if (cfg.endgame_starts && !random_given)
        cfg.random_plies = 0;
    if (cfg.endgame_starts && !skip_given)
        cfg.skip_plies = 0;
    if (cfg.positions > 0 && !games_given)
        cfg.games = 0; /* --positions alone: play until that many are written */
    if (cfg.concurrency < 1)
        cfg.concurrency = 1;
    char err[256];
    bool loaded = openings ? match_book_load(&cfg.book, openings, err, sizeof err) : match_book_default(&cfg.book);
    if (!loaded || cfg.book.count == 0) {
        fprintf(stderr, "datagen: openings: %s\n", loaded ? "the file has no opening" : err);
        if (loaded)
            match_book_free(&cfg.book);
        return 2;
    }
    if (!dg_repair_tail(cfg.out)) {
        fprintf(stderr, "datagen: cannot repair %s: %s\n", cfg.out, strerror(errno));
        match_book_free(&cfg.book);
        return 1;
    }
    DgShared sh;
    memset(&sh, 0, sizeof sh);
    sh.cfg = &cfg;
    sh.f = fopen(cfg.out, "ab"); /* binary: LF line ends on every system */
    if (!sh.f) {
        fprintf(stderr, "datagen: cannot open %s: %s\n", cfg.out, strerror(errno));
        match_book_free(&cfg.book);
        return 1;
    }
    pthread_mutex_init(&sh.lock, NULL);
    if (!cfg.quiet)
        fprintf(stderr, "datagen: %s, seed %" PRIu64 ", nodes %" PRIu64 ", concurrency %d, %d %s\n", cfg.out,
                cfg.seed, cfg.nodes, cfg.concurrency, cfg.endgame_starts ? ENDGAME_TABLE_SIZE : cfg.book.count,
                cfg.endgame_starts ? "endgame-table entries" : "openings");

    dg_interrupted = 0;
    os_stop_signals_catch(dg_on_signal); /* a second Ctrl-C ends the program at once */
    const double t0 = cli_now_seconds();
    pthread_t th[DG_MAX_CONCURRENCY];
    int started = 0;
    for (int i = 0; i < cfg.concurrency; i++)
        if (pthread_create(&th[i], NULL, dg_worker, &sh) == 0)
            started++;
    if (started == 0)
        dg_worker(&sh);
    /* Progress while the workers play: the main thread only watches. */
    const bool tty = os_is_terminal(stderr);
    double last_line = t0;
    for (;;) {
        pthread_mutex_lock(&sh.lock);
        bool finished = sh.write_failed || (cfg.games > 0 && sh.games_done >= cfg.games) ||
                        (cfg.positions > 0 && sh.positions >= cfg.positions);
        pthread_mutex_unlock(&sh.lock);
        if (finished || dg_interrupted)
            break;
        if (!cfg.quiet) {
            const double now = cli_now_seconds();
            if (tty) {
                dg_progress(&sh, t0, DG_REPORT_TTY);
            } else if ((now - last_line) * 1000 >= DG_LOG_LINE_MS) {
                dg_progress(&sh, t0, DG_REPORT_LINE);
                last_line = now;
            }
        }
        /* Short naps, so the end is noticed quickly. */
        for (int k = 0; k < DG_PROGRESS_MS / 50 && !dg_interrupted; k++) {
            proc_sleep_ms(50);
            pthread_mutex_lock(&sh.lock);
            bool done_now = sh.write_failed || (cfg.games > 0 && sh.games_done >= cfg.games) ||
                            (cfg.positions > 0 && sh.positions >= cfg.positions);
            pthread_mutex_unlock(&sh.lock);
            if (done_now)
                break;
        }
    }
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    os_stop_signals_default();
    if (!cfg.quiet)
        dg_progress(&sh, t0, DG_REPORT_FINAL);
    bool failed = sh.write_failed;
    if (fclose(sh.f) != 0)
        failed = true;
    if (failed)
        fprintf(stderr, "datagen: writing %s failed\n", cfg.out);
    else if (dg_interrupted)
        fprintf(stderr, "datagen: stopped; %s holds whole games only, run again to append\n", cfg.out);
    pthread_mutex_destroy(&sh.lock);
    match_book_free(&cfg.book);
    return failed ? 1 : 0;
}
