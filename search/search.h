/* search.h — finding the best move: the Searcher (TT, threads, options, stop
 * flag) and the limits and callbacks through which callers drive it.
 *
 * The search never prints and never reads stdin: everything it has to say
 * goes through SearchCallbacks, and everything it is told comes through
 * these functions.
 */
#ifndef CHARIOT_SEARCH_H
#define CHARIOT_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"

/* ------------------------------------------------------------------ scores */

/* Scores are centipawns from the side to move's point of view.
 * A mate in p plies scores +/-(SCORE_MATE - p), as ElephantEye reports it.
 * A win by the repetition rules (perpetual check or chase) scores in a band
 * below real mates, +/-(SCORE_RULE_WIN - p), so it is never shown as "mate". */
enum {
    MAX_PLY = 128,
    SCORE_MATE = 10000,
    SCORE_MATE_MIN = SCORE_MATE - MAX_PLY,        /* |score| >= this: a real mate */
    SCORE_RULE_WIN = 9700,
    SCORE_RULE_MIN = SCORE_RULE_WIN - MAX_PLY,    /* |score| >= this and < SCORE_MATE_MIN: a rule win */
    SCORE_INF = 10001,
    SCORE_NONE = 32000
};

static inline bool score_is_mate(int s) { return s >= SCORE_MATE_MIN || s <= -SCORE_MATE_MIN; }
/* A win or loss by the repetition rules (perpetual check or chase), not a mate. */
static inline bool score_is_rule(int s)
{
    return !score_is_mate(s) && (s >= SCORE_RULE_MIN || s <= -SCORE_RULE_MIN);
}
/* Moves (not plies) to mate, positive when the side to move mates. */
static inline int score_mate_moves(int s)
{
    return s > 0 ? (SCORE_MATE - s + 1) / 2 : -(SCORE_MATE + s) / 2;
}

/* ------------------------------------------------------------------ limits */

typedef struct SearchLimits {
    int depth;               /* 0: no depth limit */
    uint64_t nodes;          /* 0: no node limit */
    int64_t movetime_ms;     /* 0: none; search exactly this long */
    bool use_clock;          /* the clock fields below are valid */
    int64_t time_ms;         /* own remaining time */
    int64_t inc_ms;          /* own increment per move */
    int movestogo;           /* 0: sudden death (or increment) */
    int64_t opptime_ms;      /* opponent's remaining time, 0 if unknown */
    int64_t oppinc_ms;
    int mate;                /* >0: look for a mate in this many moves, stop when proven */
    bool infinite;           /* search until searcher_stop() */
    bool ponder;             /* the clock starts at searcher_ponderhit() */
    bool analysis;           /* not a game's move (chariot solve): a movetime may be overrun
                                to build an endgame table */
    int searchmoves_count;   /* >0: only these root moves */
    Move searchmoves[MAX_MOVES];
    int banmoves_count;      /* these root moves are excluded (UCCI banmoves) */
    Move banmoves[MAX_MOVES];
} SearchLimits;

/* Fills *l with "no limit at all". */
void search_limits_init(SearchLimits *l);

/* ----------------------------------------------------------------- options */

/* Search constants that a build with the CMake option CHARIOT_SPSA lets a
 * tuner set at run time (tools/spsa.py, docs/TUNING.md): each has a name
 * (its name in search/search_params.h) and the range a value must lie in; its
 * default is SearchOptions.tune[i] after search_options_init. */
enum { SEARCH_TUNE_MAX = 16 };
typedef struct SearchTunable {
    const char *name;
    int min, max;
} SearchTunable;
/* Sets *list to the tunables and returns their count: 0 in a normal build,
 * whose constants are compiled in. */
int search_tunables(const SearchTunable **list);

typedef struct SearchOptions {
    int hash_mb;             /* transposition table size in MB (1..65536) */
    int threads;             /* Lazy SMP threads (1..256) */
    int multipv;             /* lines to report (1..MAX_MULTIPV) */
    int move_overhead_ms;    /* subtracted from every clock budget (0..5000) */
    bool null_move;          /* null-move pruning on/off (UCCI "pruning none" turns it off) */
    int pruning;             /* 0 none, 1 small, 2 medium, 3 large (default) */
    int knowledge;           /* 0 none .. 3 large (default): eval detail */
    int randomness;          /* 0 none (default) .. 3 large: root noise in centipawns */
    uint64_t random_seed;    /* seed for randomness, so games stay reproducible */
    int skill;               /* 0 (weakest) .. SKILL_MAX (full strength, default) */
    /* The search constants an SPSA build reads at run time (search_tunables);
     * a normal build compiles the constants in and ignores these. */
    int tune[SEARCH_TUNE_MAX];
} SearchOptions;

/* Strength levels for human opponents: below SKILL_MAX a search gets a node
 * budget that shrinks with the level and noise on the root moves that grows
 * as the level drops (search/search_params.h, SKILL_*). */
enum { SKILL_MAX = 20 };
/* The calibrated skill level nearest in rating to an Elo (UCI_Elo), and the
 * range UCI_Elo accepts (search/search_params.h, SKILL_ELO_TABLE; docs/RESULTS.md,
 * "Strength levels"). */
enum { SKILL_ELO_MIN = 800, SKILL_ELO_MAX = 2800 };
int search_skill_for_elo(int elo);

enum { MAX_MULTIPV = 16 };

void search_options_init(SearchOptions *o);

/* ------------------------------------------------------------------ output */

typedef enum ScoreBound { BOUND_EXACT = 0, BOUND_LOWER, BOUND_UPPER } ScoreBound;

typedef struct SearchInfo {
    int depth;
    int seldepth;
    int multipv;             /* 1-based line number */
    int score;
    ScoreBound bound;
    uint64_t nodes;
    int64_t time_ms;
    uint64_t nps;
    int hashfull;            /* permille */
    int pv_len;
    Move pv[MAX_PLY];
} SearchInfo;

typedef struct SearchResult {
    Move best;               /* MOVE_NONE when there is no legal move */
    Move ponder;             /* MOVE_NONE when unknown */
    int score;
    int depth;
    int seldepth;
    uint64_t nodes;
    int64_t time_ms;
    int pv_len;
    Move pv[MAX_PLY];
} SearchResult;

typedef struct SearchCallbacks {
    void *ctx;
    /* After every completed iteration (and aspiration fail), once per PV line. */
    void (*on_info)(void *ctx, const SearchInfo *info);
    /* Root move being searched now (1-based number), at most a few per second. */
    void (*on_currmove)(void *ctx, Move m, int number, int depth);
    /* Exactly once per search, when it ends. */
    void (*on_bestmove)(void *ctx, const SearchResult *result);
} SearchCallbacks;

/* Null-move counters, for `chariot bench --stats`. */
typedef struct SearchStats {
    uint64_t null_tried;
    uint64_t null_cutoffs;
    uint64_t null_verifications;
    uint64_t null_verify_failures;
    uint64_t null_mate_threats;
} SearchStats;

/* --------------------------------------------------------------- searcher */

typedef struct Searcher Searcher;

Searcher *searcher_new(void);
void searcher_free(Searcher *s);
/* Applies options (resizes the TT, restarts threads) while idle.
 * Returns false, changing nothing, when a value is out of range, the TT
 * cannot be allocated, or a search is running.
 * pruning: 0 none (no LMR or futility), 1 LMR only, 2 + futility and reverse
 * futility, 3 (default) the same as 2 for now (razoring was measured and
 * removed). Null move is null_move alone. */
bool searcher_set_options(Searcher *s, const SearchOptions *o);
const SearchOptions *searcher_options(const Searcher *s);
/* Clears the TT and all learned tables (UCCI newgame, ucinewgame). */
void searcher_new_game(Searcher *s);

/* Starts a search in the background on a copy of *b (history included) and
 * returns at once. on_bestmove is called from the search thread. */
void searcher_start(Searcher *s, const Board *b, const SearchLimits *l, const SearchCallbacks *cb);
/* Runs a search to the end in the calling thread and returns its result
 * (callbacks may be NULL). */
SearchResult searcher_run(Searcher *s, const Board *b, const SearchLimits *l, const SearchCallbacks *cb);
/* Asks a running search to stop as soon as possible (async-signal-safe flag). */
void searcher_stop(Searcher *s);
/* The pondered move was played: the clock starts now. */
void searcher_ponderhit(Searcher *s);
/* Blocks until the running search (if any) has delivered its bestmove. */
void searcher_wait(Searcher *s);
bool searcher_is_running(const Searcher *s);

/* TT lookup for UCCI `probe`. Returns false when the position is not stored. */
typedef struct TTProbe {
    Move move;
    int score;
    int depth;
    ScoreBound bound;
} TTProbe;
bool searcher_probe(Searcher *s, const Board *b, TTProbe *out);

/* ------------------------------------------------------ opening book */

/* ElephantEye's BOOK.DAT (the format: search/book.c). */
enum { BOOK_PIECE_TYPES = 14, BOOK_SQUARES = 256 };
/* Books larger than this are refused (the largest known is under 1 MB). */
enum { BOOK_MAX_BYTES = 64 << 20 };

/* The lock words: one per piece type and 16x16 square, and the side to move. */
typedef struct BookLocks {
    uint32_t piece[BOOK_PIECE_TYPES][BOOK_SQUARES];
    uint32_t side;
} BookLocks;

typedef struct BookRecord {
    uint32_t lock;
    uint16_t move;   /* from | to << 8, squares on the 16x16 board */
    uint16_t weight;
} BookRecord;

typedef struct Book {
    BookRecord *records; /* sorted by lock */
    size_t count;
    BookLocks locks;
} Book;

typedef struct BookMove {
    Move move;
    int weight;
} BookMove;

void book_locks_init(BookLocks *bl);
/* The book's lock of b, of its left-right mirror when mirror is set. */
uint32_t book_lock(const BookLocks *bl, const Board *b, bool mirror);
/* A board square on the format's 16x16 board (mirrored when asked). */
int book_square(int sq, bool mirror);
/* Reads a book file; NULL with a message for a missing, unreadable,
 * truncated or unsorted file. */
Book *book_open(const char *path, char *err, size_t errlen);
/* The same from bytes in memory. */
Book *book_load(const uint8_t *data, size_t size, char *err, size_t errlen);
void book_free(Book *bk);
/* The legal book moves of b, heaviest first (looked up as stored, else
 * through the mirror); their count, at most max. */
int book_probe(const Book *bk, const Board *b, BookMove *out, int max);
/* Index of a move drawn in proportion to the weights, given a uniform random
 * number; -1 when there is none. */
int book_pick(const BookMove *moves, int n, uint64_t random);

/* For training data: the static evaluation of b (with the search's learned
 * correction, the value quiescence stands pat on) and its quiescence score,
 * both from the side to move's point of view (static_eval is -SCORE_INF in
 * check). A position is quiet when the two agree. Call it while idle. */
void searcher_quiet_eval(Searcher *s, const Board *b, int *static_eval, int *qscore);

/* Counters of the last search (summed over threads). Call it while idle. */
SearchStats searcher_stats(const Searcher *s);

#endif
