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
 * With --format bin: 32-byte records after a header that counts the games
 * written (dgformat.h, docs/NNUE.md), so that a stopped run continues.
 *
 * Games are written in game order: a worker that finishes early parks its
 * game until the ones before it are written, so a seed fixes the file.
 *
 * Reproducibility: game g of a run draws its opening and random plies from
 * a generator seeded by (seed, g), and the search at fixed nodes with a
 * cleared TT is deterministic, so a seed fixes the set of games (their order
 * in the file depends on which worker finishes first). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "cli.h"
#include "commands.h"
#include "dgformat.h"
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
    DG_MAX_CONCURRENCY = 256,
    DG_MAX_SHARDS = 4096,
    /* Games are written in game order: the workers may run at most this many
     * games (plus one each) ahead of the oldest game not yet written. */
    DG_WINDOW_SLACK = 64
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
    bool binary;         /* packed records (dgformat.h) instead of text lines */
    bool seed_given;
    int shard_index;     /* --shard I/N: this run plays the games g with g % N == I */
    int shard_count;
    uint32_t fingerprint; /* the settings that fix the games, for continuing a binary file */
} DgConfig;

typedef struct DgPosition {
    char fen[DG_FEN_MAX];
    int score_red;
    DgRecord rec;
    bool packed; /* rec holds the position (false: a counter outside the binary format) */
} DgPosition;

/* A finished game waiting for the games before it to be written. */
typedef struct DgSlot {
    bool ready;
    GameResult result;
    int n;
    DgPosition *pos;
} DgSlot;

typedef struct DgShared {
    const DgConfig *cfg;
    pthread_mutex_t lock;
    pthread_cond_t moved; /* a game was written, or the run stops */
    FILE *f;
    /* Games are numbered by their place in this run's sequence (seq); game
     * number g = shard_index + seq * shard_count draws the opening. */
    long long next_seq;   /* next game to hand out */
    long long write_seq;  /* next game to write */
    long long end_seq;    /* games of the run (LLONG_MAX: no limit) */
    int window;
    DgSlot *slots;
    bool stop;
    DgHeader header;      /* binary: the file's header as written */
    long long games_done; /* this session */
    long long positions;  /* this session */
    long long positions_before; /* binary: records in the file at the start */
    long long unpackable; /* positions the binary format cannot hold (not written) */
    long long results[3]; /* red wins, draws, black wins */
    bool write_failed;
} DgShared;

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
                DgPosition *p = &pos[*npos];
                board_to_fen(b, p->fen, sizeof p->fen);
                p->score_red = red;
                char unfit[96];
                p->packed = !cfg->binary || dg_pack(b, red, DG_DRAW, &p->rec, unfit, sizeof unfit);
                (*npos)++;
            }
        }
        board_make(b, res.best);
    }
}

/* Whether the run has all the positions it asked for (binary: in the file). */
static bool dg_positions_reached(const DgShared *sh)
{
    const DgConfig *cfg = sh->cfg;
    return cfg->positions > 0 && sh->positions_before + sh->positions >= cfg->positions;
}

/* Writes one finished game (the lock held). Binary: the records, then the
 * header's counts, so that a run killed between the two loses only that
 * game, which the next run cuts and plays again. */
static void dg_write_game(DgShared *sh, const DgSlot *slot)
{
    const DgConfig *cfg = sh->cfg;
    const GameResult r = slot->result;
    int written = 0;
    bool ok = true;
    if (cfg->binary) {
        const int code = r == RESULT_RED_WINS ? DG_RED_WON : r == RESULT_BLACK_WINS ? DG_BLACK_WON : DG_DRAW;
        for (int i = 0; i < slot->n && ok; i++) {
            if (!slot->pos[i].packed) {
                sh->unpackable++;
                continue;
            }
            DgRecord rec = slot->pos[i].rec;
            dg_set_result(&rec, code);
            ok = fwrite(rec.b, 1, DG_RECORD_SIZE, sh->f) == DG_RECORD_SIZE;
            written++;
        }
        ok = ok && fflush(sh->f) == 0;
        if (ok) {
            sh->header.games++;
            sh->header.records += (uint64_t)written;
            uint8_t head[DG_HEADER_SIZE];
            dg_header_encode(&sh->header, head);
            ok = fseek(sh->f, 0, SEEK_SET) == 0 && fwrite(head, 1, sizeof head, sh->f) == sizeof head &&
                 fflush(sh->f) == 0 && fseek(sh->f, 0, SEEK_END) == 0;
        }
    } else {
        const char *res = r == RESULT_RED_WINS ? "1" : r == RESULT_BLACK_WINS ? "0" : "0.5";
        for (int i = 0; i < slot->n; i++)
            fprintf(sh->f, "%s | %s | %d\n", slot->pos[i].fen, res, slot->pos[i].score_red);
        written = slot->n;
        ok = fflush(sh->f) == 0;
    }
    if (!ok) {
        sh->write_failed = true;
        return;
    }
    sh->games_done++;
    sh->positions += written;
    sh->results[r == RESULT_RED_WINS ? 0 : r == RESULT_DRAW ? 1 : 2]++;
}

/* Whether the run is over: every game written, enough positions, a stop. */
static bool dg_finished(DgShared *sh)
{
    pthread_mutex_lock(&sh->lock);
    const bool done = sh->write_failed || sh->stop || sh->write_seq >= sh->end_seq || dg_positions_reached(sh);
    pthread_mutex_unlock(&sh->lock);
    return done;
}

/* Writes the finished games that are next in order (the lock held). */
static void dg_flush_ready(DgShared *sh)
{
    for (;;) {
        DgSlot *slot = &sh->slots[sh->write_seq % sh->window];
        if (!slot->ready || sh->stop || sh->write_failed)
            break;
        if (dg_positions_reached(sh)) {
            sh->stop = true;
            break;
        }
        dg_write_game(sh, slot);
        slot->ready = false;
        sh->write_seq++;
    }
    pthread_cond_broadcast(&sh->moved);
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
        pthread_cond_broadcast(&sh->moved);
        pthread_mutex_unlock(&sh->lock);
        goto done;
    }
    for (;;) {
        long long seq = -1;
        pthread_mutex_lock(&sh->lock);
        while (!dg_interrupted && !sh->stop && !sh->write_failed && sh->next_seq < sh->end_seq &&
               !dg_positions_reached(sh)) {
            if (sh->next_seq < sh->write_seq + sh->window) {
                seq = sh->next_seq++;
                break;
            }
            pthread_cond_wait(&sh->moved, &sh->lock);
        }
        pthread_mutex_unlock(&sh->lock);
        if (seq < 0)
            break;
        const long long game = cfg->shard_index + seq * cfg->shard_count;
        int n = 0;
        GameResult r = dg_play(cfg, s, (uint64_t)game, b, pos, &n);
        pthread_mutex_lock(&sh->lock);
        if (r == RESULT_NONE) {
            /* Stopped: the games after this one can no longer be written. */
            sh->stop = true;
            pthread_cond_broadcast(&sh->moved);
            pthread_mutex_unlock(&sh->lock);
            break;
        }
        /* Hand the positions to the slot and take its buffer in exchange. */
        DgSlot *slot = &sh->slots[seq % sh->window];
        DgPosition *spare = slot->pos;
        slot->pos = pos;
        slot->n = n;
        slot->result = r;
        slot->ready = true;
        pos = spare;
        dg_flush_ready(sh);
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
    "usage: chariot datagen -o FILE [--format text|bin] [--games N] [--positions N] [--nodes N]\n"             \
    "                       [--concurrency N] [--seed S] [--shard I/N] [--openings FILE] [--random-plies N]\n" \
    "                       [--skip-plies N] [--hash MB] [--endgame-starts] [--quiet]\n"                        \
    "Self-play at fixed nodes per move; appends quiet positions as 'FEN | RESULT | SCORE' lines\n"              \
    "(result and score from Red's point of view), or as 32-byte records with --format bin (the\n"              \
    "default for a .bin file; docs/NNUE.md). Defaults: --games 1000, --nodes 5000,\n"                           \
    "--concurrency = CPUs, --random-plies 6, --skip-plies 12, --hash 8, the built-in openings.\n"              \
    "A binary file continues its own run: the same command again resumes it where it stopped.\n"               \
    "--shard I/N plays the games g with g % N == I of the run of that seed.\n"                                  \
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
    const long long games_left = sh->end_seq == LLONG_MAX ? -1 : sh->end_seq - sh->write_seq;
    const long long before = sh->positions_before;
    pthread_mutex_unlock(&sh->lock);
    double secs = cli_now_seconds() - t0;
    double pps = secs > 0 ? positions / secs : 0;
    char eta[48] = "", total[64] = "";
    double left = -1;
    if (cfg->positions > 0 && pps > 0)
        left = (cfg->positions - before - positions) / pps;
    if (games_left >= 0 && games > 0) {
        double by_games = games_left * secs / games;
        if (left < 0 || by_games < left)
            left = by_games;
    }
    if (!final && left >= 0)
        snprintf(eta, sizeof eta, ", ETA %.0f s", left > 0 ? left : 0);
    if (before > 0)
        snprintf(total, sizeof total, " (%lld in the file)", before + positions);
    fprintf(stderr, "%sdatagen: %lld games (+%lld =%lld -%lld), %lld positions%s, %.0f positions/s, %.1f s%s%s",
            kind == DG_REPORT_TTY ? "\r" : "", games, rw, dr, bw, positions, total, pps, secs, eta,
            kind == DG_REPORT_TTY ? "   " : "\n");
    fflush(stderr);
}

/* FNV-1a over the settings that fix a run's games (not the seed, the
 * concurrency or where the run stops): a binary file is continued only by
 * a run with the same ones. Never 0, which marks files not from a run. */
static uint32_t dg_fingerprint(const DgConfig *cfg)
{
    uint32_t h = 2166136261u;
    char text[256];
    snprintf(text, sizeof text, "v1 nodes %" PRIu64 " random %d skip %d hash %d endgame %d shard %d/%d", cfg->nodes,
             cfg->random_plies, cfg->skip_plies, cfg->hash_mb, cfg->endgame_starts, cfg->shard_index,
             cfg->shard_count);
    for (const char *p = text; *p; p++)
        h = (h ^ (uint8_t)*p) * 16777619u;
    for (int i = 0; i < cfg->book.count; i++) {
        const MatchOpening *op = &cfg->book.items[i];
        for (const char *p = op->startpos ? "startpos" : op->fen; *p; p++)
            h = (h ^ (uint8_t)*p) * 16777619u;
        for (int k = 0; k < op->count; k++)
            h = (h ^ op->moves[k]) * 16777619u;
        h = (h ^ '\n') * 16777619u;
    }
    return h ? h : 1;
}

/* Opens a binary output: a new file gets a header; an existing one must be
 * the same run (settings and seed), whose uncommitted tail is cut, and the
 * run continues after its last whole game. Returns the exit code on
 * failure, 0 on success. */
static int dg_open_binary(DgConfig *cfg, DgShared *sh)
{
    FILE *f = fopen(cfg->out, "r+b");
    long long size = 0;
    if (f && (size = os_file_size(f)) < 0) {
        fprintf(stderr, "datagen: cannot read %s: %s\n", cfg->out, strerror(errno));
        fclose(f);
        return 1;
    }
    if (!f || size == 0) {
        if (!f)
            f = fopen(cfg->out, "w+b");
        if (!f) {
            fprintf(stderr, "datagen: cannot open %s: %s\n", cfg->out, strerror(errno));
            return 1;
        }
        memset(&sh->header, 0, sizeof sh->header);
        sh->header.seed = cfg->seed;
        sh->header.config = cfg->fingerprint;
        uint8_t head[DG_HEADER_SIZE];
        dg_header_encode(&sh->header, head);
        if (fwrite(head, 1, sizeof head, f) != sizeof head || fflush(f) != 0) {
            fprintf(stderr, "datagen: writing %s failed\n", cfg->out);
            fclose(f);
            return 1;
        }
        sh->f = f;
        return 0;
    }
    uint8_t head[DG_HEADER_SIZE];
    char why[200];
    DgHeader h;
    bool ok = size >= DG_HEADER_SIZE && fread(head, 1, sizeof head, f) == sizeof head &&
              dg_header_decode(head, &h, why, sizeof why);
    if (!ok) {
        fprintf(stderr, "datagen: %s exists and is not a binary datagen file%s%s; choose another file\n", cfg->out,
                size >= DG_HEADER_SIZE ? ": " : "", size >= DG_HEADER_SIZE ? why : "");
        fclose(f);
        return 2;
    }
    if (h.config != cfg->fingerprint || (cfg->seed_given && h.seed != cfg->seed)) {
        fprintf(stderr,
                "datagen: %s holds another run (%s); continue it with its own settings and seed %" PRIu64
                ", or write to another file\n",
                cfg->out, h.config == 0 ? "converted or merged, not a datagen run" : "other settings or seed",
                h.seed);
        fclose(f);
        return 2;
    }
    const long long committed = DG_HEADER_SIZE + (long long)h.records * DG_RECORD_SIZE;
    if (size < committed) {
        fprintf(stderr, "datagen: %s is truncated: its header counts %" PRIu64 " records; choose another file\n",
                cfg->out, h.records);
        fclose(f);
        return 1;
    }
    fclose(f);
    if (size > committed) {
        fprintf(stderr, "datagen: %s ended with %lld bytes of an unfinished write; cut them\n", cfg->out,
                size - committed);
        if (!os_truncate_file(cfg->out, committed)) {
            fprintf(stderr, "datagen: cannot cut %s: %s\n", cfg->out, strerror(errno));
            return 1;
        }
    }
    f = fopen(cfg->out, "r+b");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        fprintf(stderr, "datagen: cannot open %s: %s\n", cfg->out, strerror(errno));
        if (f)
            fclose(f);
        return 1;
    }
    cfg->seed = h.seed;
    sh->header = h;
    sh->next_seq = sh->write_seq = h.games;
    sh->positions_before = (long long)h.records;
    sh->f = f;
    if (!cfg->quiet)
        fprintf(stderr, "datagen: %s: continuing after %" PRIu32 " games and %" PRIu64 " positions\n", cfg->out,
                h.games, h.records);
    return 0;
}

/* "I/N": shard I (0-based) of N. */
static bool dg_parse_shard(const char *v, int *index, int *count)
{
    char *end;
    long i, n;
    if (!v)
        return false;
    i = strtol(v, &end, 10);
    if (end == v || *end != '/')
        return false;
    const char *q = end + 1;
    n = strtol(q, &end, 10);
    if (end == q || *end || n < 1 || n > DG_MAX_SHARDS || i < 0 || i >= n)
        return false;
    *index = (int)i;
    *count = (int)n;
    return true;
}

static bool dg_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
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
    cfg.shard_count = 1;
    const char *openings = NULL, *format = NULL;
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
            cfg.seed_given = true;
        } else if (strcmp(a, "--format") == 0) {
            if (!val || (strcmp(val, "text") != 0 && strcmp(val, "bin") != 0)) {
                fputs("datagen: --format needs text or bin\n", stderr);
                return 2;
            }
            format = val;
        } else if (strcmp(a, "--shard") == 0) {
            if (!dg_parse_shard(val, &cfg.shard_index, &cfg.shard_count)) {
                fprintf(stderr, "datagen: --shard needs I/N with 0 <= I < N <= %d (e.g. --shard 0/4), got '%s'\n",
                        DG_MAX_SHARDS, val ? val : "");
                return 2;
            }
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
    cfg.binary = format ? strcmp(format, "bin") == 0 : dg_ends_with(cfg.out, ".bin");
    cfg.fingerprint = dg_fingerprint(&cfg);
    DgShared sh;
    memset(&sh, 0, sizeof sh);
    sh.cfg = &cfg;
    if (cfg.binary) {
        const int rc = dg_open_binary(&cfg, &sh);
        if (rc != 0) {
            match_book_free(&cfg.book);
            return rc;
        }
    } else {
        if (!dg_repair_tail(cfg.out)) {
            fprintf(stderr, "datagen: cannot repair %s: %s\n", cfg.out, strerror(errno));
            match_book_free(&cfg.book);
            return 1;
        }
        sh.f = fopen(cfg.out, "ab"); /* binary: LF line ends on every system */
        if (!sh.f) {
            fprintf(stderr, "datagen: cannot open %s: %s\n", cfg.out, strerror(errno));
            match_book_free(&cfg.book);
            return 1;
        }
    }
    /* The games of this shard below --games: g = I + seq * N < games. */
    sh.end_seq = cfg.games == 0                   ? LLONG_MAX
                 : cfg.games <= cfg.shard_index ? 0
                                                : (cfg.games - cfg.shard_index + cfg.shard_count - 1) / cfg.shard_count;
    sh.window = cfg.concurrency + DG_WINDOW_SLACK;
    sh.slots = calloc((size_t)sh.window, sizeof *sh.slots);
    bool mem_ok = sh.slots != NULL;
    for (int i = 0; mem_ok && i < sh.window; i++)
        mem_ok = (sh.slots[i].pos = malloc(sizeof *sh.slots[i].pos * DG_MAX_PLIES)) != NULL;
    if (!mem_ok) {
        fputs("datagen: out of memory\n", stderr);
        for (int i = 0; sh.slots && i < sh.window; i++)
            free(sh.slots[i].pos);
        free(sh.slots);
        fclose(sh.f);
        match_book_free(&cfg.book);
        return 1;
    }
    pthread_mutex_init(&sh.lock, NULL);
    pthread_cond_init(&sh.moved, NULL);
    if (!cfg.quiet)
        fprintf(stderr, "datagen: %s (%s), seed %" PRIu64 ", nodes %" PRIu64 ", concurrency %d, shard %d/%d, %d %s\n",
                cfg.out, cfg.binary ? "binary" : "text", cfg.seed, cfg.nodes, cfg.concurrency, cfg.shard_index,
                cfg.shard_count, cfg.endgame_starts ? ENDGAME_TABLE_SIZE : cfg.book.count,
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
        if (dg_finished(&sh) || dg_interrupted)
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
            if (dg_finished(&sh))
                break;
        }
    }
    /* Wake the workers waiting for a slot, so that they see the end. */
    pthread_mutex_lock(&sh.lock);
    if (dg_interrupted)
        sh.stop = true;
    pthread_cond_broadcast(&sh.moved);
    pthread_mutex_unlock(&sh.lock);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    /* A text file keeps every finished game, even one whose predecessors were
     * stopped; a binary file holds a run's games in order, so that it can
     * continue. */
    if (!cfg.binary && !sh.write_failed)
        for (long long seq = sh.write_seq; seq < sh.next_seq && !dg_positions_reached(&sh); seq++) {
            DgSlot *slot = &sh.slots[seq % sh.window];
            if (slot->ready)
                dg_write_game(&sh, slot);
        }
    os_stop_signals_default();
    if (!cfg.quiet)
        dg_progress(&sh, t0, DG_REPORT_FINAL);
    bool failed = sh.write_failed;
    if (fclose(sh.f) != 0)
        failed = true;
    if (failed)
        fprintf(stderr, "datagen: writing %s failed\n", cfg.out);
    else if (dg_interrupted && cfg.binary)
        fprintf(stderr, "datagen: stopped; %s holds whole games only, run the same command to continue\n", cfg.out);
    else if (dg_interrupted)
        fprintf(stderr, "datagen: stopped; %s holds whole games only, run again (another seed) to append\n", cfg.out);
    else if (sh.unpackable > 0)
        fprintf(stderr, "datagen: %lld positions had counters beyond the binary format and were left out\n",
                sh.unpackable);
    for (int i = 0; i < sh.window; i++)
        free(sh.slots[i].pos);
    free(sh.slots);
    pthread_cond_destroy(&sh.moved);
    pthread_mutex_destroy(&sh.lock);
    match_book_free(&cfg.book);
    return failed ? 1 : 0;
}
