/* search_internal.h — the search's private types (TT, move picker, time
 * manager, per-thread state, Searcher) and the hooks the unit tests use.
 * Nothing outside search/ and tests/ includes this header. */
#ifndef CHARIOT_SEARCH_INTERNAL_H
#define CHARIOT_SEARCH_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "egtb.h"
#include "mem.h"
#include "search_params.h"
#include "search.h"

/* ----------------------------------------------------------------- TT */

/* Internal bound kinds. TT_BOUND_NONE keeps only a move (and the eval):
 * used for rule-verdict scores, which depend on the path. */
enum { TT_BOUND_NONE = 0, TT_BOUND_UPPER = 1, TT_BOUND_LOWER = 2, TT_BOUND_EXACT = 3 };

/* One slot: the key is stored xor-ed with the data so that a torn write
 * (two threads storing at once) fails the key check instead of returning
 * another position's data. Relaxed atomics make the races defined. */
typedef struct TTSlot {
    _Atomic uint64_t check; /* key ^ data */
    _Atomic uint64_t data;
} TTSlot;

typedef struct TTBucket {
    TTSlot slot[TT_BUCKET_SIZE];
} TTBucket;

typedef struct TT {
    TTBucket *buckets;  /* cache-line aligned, inside block */
    LargeBlock block;   /* what mem_large_alloc mapped */
    uint64_t mask; /* bucket count - 1 (a power of two) */
    uint8_t generation;
} TT;

typedef struct TTEntry {
    Move move;
    int16_t score;   /* adjusted to the probing ply */
    int16_t eval;    /* static eval, SCORE_NONE-free: EVAL_NONE when unknown */
    int depth;
    int bound;       /* TT_BOUND_* */
    bool null_cut;   /* stored by a null-move cutoff */
    bool pv;         /* the position was on a principal variation (TT_PV) */
} TTEntry;

/* tt_store's flags: stored by a null-move cutoff; the position was a PV
 * node, or is one that was (sticky for the key). */
enum { TT_NULL_CUT = 1, TT_PV = 2 };

enum { EVAL_NONE = -32768 };

bool tt_init(TT *tt, int mb);
void tt_free(TT *tt);
void tt_clear(TT *tt);
void tt_new_search(TT *tt);
static inline bool tt_probe(const TT *tt, uint64_t key, int ply, TTEntry *out);
static inline void tt_store(TT *tt, uint64_t key, int ply, Move move, int score, int eval, int depth, int bound,
                            unsigned flags);
int tt_hashfull(const TT *tt);
/* Starts loading the bucket of key into the cache (a hint, no effect on results). */
static inline void tt_prefetch(const TT *tt, uint64_t key)
{
#if defined(__GNUC__)
    __builtin_prefetch(&tt->buckets[key & tt->mask]);
#else
    (void)tt;
    (void)key;
#endif
}
/* Score conversions between "from this node" and "from the root" for mates. */
static inline int tt_score_to(int score, int ply)
{
    if (score >= SCORE_MATE_MIN)
        return score + ply;
    if (score <= -SCORE_MATE_MIN)
        return score - ply;
    return score;
}
static inline int tt_score_from(int score, int ply)
{
    if (score >= SCORE_MATE_MIN)
        return score - ply;
    if (score <= -SCORE_MATE_MIN)
        return score + ply;
    return score;
}

/* Data word layout (64 bits):
 *   0..15 move, 16..31 score (int16), 32..47 static eval (int16),
 *   48..55 depth, 56..57 bound, 58..59 flags (TT_NULL_CUT, TT_PV),
 *   60..63 generation. */
enum { TT_GEN_BITS = 4, TT_GEN_MASK = (1 << TT_GEN_BITS) - 1 };
enum { TT_FLAG_MASK = TT_NULL_CUT | TT_PV };

static inline int tt_data_depth(uint64_t d) { return (int)((d >> 48) & 0xFF); }
static inline int tt_data_bound(uint64_t d) { return (int)((d >> 56) & 3); }
static inline int tt_data_gen(uint64_t d) { return (int)((d >> 60) & TT_GEN_MASK); }
static inline unsigned tt_data_flags(uint64_t d) { return (unsigned)((d >> 58) & TT_FLAG_MASK); }
static inline Move tt_data_move(uint64_t d) { return (Move)(d & 0xFFFF); }

/* The data word of an entry (see the layout above). */
static inline uint64_t tt_pack(Move move, int score, int eval, int depth, int bound, unsigned flags, int gen)
{
    return (uint64_t)move | (uint64_t)(uint16_t)(int16_t)score << 16 | (uint64_t)(uint16_t)(int16_t)eval << 32 |
           (uint64_t)(uint8_t)depth << 48 | (uint64_t)(bound & 3) << 56 | (uint64_t)(flags & TT_FLAG_MASK) << 58 |
           (uint64_t)(gen & TT_GEN_MASK) << 60;
}

/* Stores an entry: depth-preferred replacement with aging, mate scores by
 * ply. Inline, like tt_probe: the search stores at most nodes. */
static inline void tt_store(TT *tt, uint64_t key, int ply, Move move, int score, int eval, int depth, int bound,
                            unsigned flags)
{
    const bool null_cut = (flags & TT_NULL_CUT) != 0;
    TTBucket *bk = &tt->buckets[key & tt->mask];
    int gen = tt->generation;
    TTSlot *victim = NULL;
    int victim_value = 1 << 30;
    if (depth < 0)
        depth = 0;
    if (depth > 255)
        depth = 255;
    /* Rule-verdict scores (perpetual check or chase) depend on the path to
     * the position: keep the move, never the score. */
    if (bound != TT_BOUND_NONE && score > -SCORE_MATE_MIN && score < SCORE_MATE_MIN &&
        (score >= SCORE_RULE_MIN || score <= -SCORE_RULE_MIN))
        bound = TT_BOUND_NONE;
    if (bound == TT_BOUND_NONE)
        score = 0;

    for (int i = 0; i < TT_BUCKET_SIZE; i++) {
        TTSlot *sl = &bk->slot[i];
        uint64_t d = atomic_load_explicit(&sl->data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&sl->check, memory_order_relaxed);
        if (d != 0 && (c ^ d) == key) {
            /* Same position: depth-preferred, but a newer search, an exact
             * score or an entry without a usable score always replace. */
            int old_bound = tt_data_bound(d);
            if (bound != TT_BOUND_EXACT && old_bound != TT_BOUND_NONE && tt_data_gen(d) == gen &&
                depth + 2 < tt_data_depth(d))
                return;
            if (move == MOVE_NONE && !null_cut)
                move = tt_data_move(d);
            /* Once on a principal variation, always: a shallower store
             * (quiescence, a null cut) does not make the position less
             * important. */
            flags |= tt_data_flags(d) & TT_PV;
            victim = sl;
            break;
        }
        int age = (gen - tt_data_gen(d)) & TT_GEN_MASK;
        int value = d == 0 ? -(1 << 20) : tt_data_depth(d) - TT_AGE_WEIGHT * age;
        if (value < victim_value) {
            victim_value = value;
            victim = sl;
        }
    }
    uint64_t data = tt_pack(move, bound == TT_BOUND_NONE ? 0 : tt_score_to(score, ply), eval, depth, bound, flags, gen);
    if (data == 0)
        return; /* nothing worth keeping */
    atomic_store_explicit(&victim->data, data, memory_order_relaxed);
    atomic_store_explicit(&victim->check, key ^ data, memory_order_relaxed);
}

/* Looks the key up; on a hit fills *out (score adjusted to ply). Inline:
 * the search probes at every node, and its callers keep the entry's
 * fields in registers instead of reading them back from memory. */
static inline bool tt_probe(const TT *tt, uint64_t key, int ply, TTEntry *out)
{
    const TTBucket *bk = &tt->buckets[key & tt->mask];
    for (int i = 0; i < TT_BUCKET_SIZE; i++) {
        uint64_t d = atomic_load_explicit(&bk->slot[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&bk->slot[i].check, memory_order_relaxed);
        if (d == 0 || (c ^ d) != key)
            continue;
        out->move = tt_data_move(d);
        out->score = (int16_t)tt_score_from((int16_t)(uint16_t)(d >> 16), ply);
        out->eval = (int16_t)(uint16_t)(d >> 32);
        out->depth = tt_data_depth(d);
        out->bound = tt_data_bound(d);
        const unsigned flags = tt_data_flags(d);
        out->null_cut = (flags & TT_NULL_CUT) != 0;
        out->pv = (flags & TT_PV) != 0;
        return true;
    }
    /* A miss reads as an empty entry, so that no caller can read stale
     * fields (and the compiler can see that none does). */
    *out = (TTEntry){.move = MOVE_NONE, .eval = EVAL_NONE, .bound = TT_BOUND_NONE};
    return false;
}

/* ---------------------------------------------------------------- time */

typedef struct TimeManager {
    int64_t start_ms;  /* when the clock started (search start or ponderhit) */
    int64_t soft_ms;   /* no new iteration after this (0: none) */
    int64_t hard_ms;   /* abort the search at this (0: none) */
    bool timed;        /* soft/hard limits apply */
} TimeManager;

int64_t tm_now_ms(void);
/* Fills the limits from the clock fields, for the move numbered fullmove
 * (the FEN's count); start_ms is set by the caller. */
void tm_init(TimeManager *tm, const SearchLimits *l, int move_overhead_ms, int fullmove);
/* What the last completed iteration says about the best move, for the
 * soft limit's scaling (see TM_UNSTABLE_PERCENT). */
typedef struct TmSignals {
    int changes_x100;   /* recent best-move changes, decayed, in hundredths */
    int stable_iters;   /* iterations the best move has stood unchanged */
    int score_drop;     /* centipawns below the mean of the two iterations before */
    int best_share_pct; /* the best move's share of the search's nodes */
} TmSignals;
/* Soft limit scaled by the signals, in ms since the start. */
int64_t tm_soft_scaled(const TimeManager *tm, const TmSignals *sig);

/* ----------------------------------------------------------- move picker */

struct SearchThread;

/* Continuation history: a quiet move's record after a given previous move,
 * indexed [piece][to] of that move, then [piece][to] of the reply. */
typedef int16_t ContHist[PIECE_NB][SQ_NB];

typedef struct MovePicker {
    const Board *b;
    const struct SearchThread *t;
    int stage;
    Move tt_move;
    Move killers[2];
    Move counter;
    const ContHist *cont[2]; /* replies to the previous move, and to the one before */
    int idx;
    MoveList list;
    int scores[MAX_MOVES];
    int bad_count, bad_idx;
    Move bad[MAX_MOVES];
    const MoveList *all; /* every legal move, when the caller already has them (in check); else NULL */
    int skipped;         /* quiet moves dropped unseen since movepick_take_skipped (see there) */
    int checks_left;     /* marked quiet checks the check-only stage has yet to return */
    bool has_threats;    /* threats holds the position's board_threats (the quiet stage computed it) */
    BoardThreats threats;
} MovePicker;

/* Main search: hash move, good captures, killers, counter move, quiets by
 * history, losing captures. Every move returned is legal. `all`, when not
 * NULL, holds every legal move of the position (board_generate GEN_ALL, in
 * its order); the stages then split it instead of generating again, and
 * return the same moves in the same order. */
void movepick_init(MovePicker *mp, const Board *b, const struct SearchThread *t, Move tt_move, int ply,
                   const MoveList *all);
/* Quiescence: the hash move (a legal capture, or any legal evasion in
 * check), then captures in MVV-LVA order refined by the capture history,
 * or every evasion when in check. */
void movepick_init_qs(MovePicker *mp, const Board *b, const struct SearchThread *t, Move tt_move);
Move movepick_next(MovePicker *mp);
/* +1 for a quiet move of piece pc (m made or not) that leaves a point a
 * cheaper enemy piece attacks for one none does, -1 for one that steps onto
 * such a point, 0 otherwise or before the quiet stage. */
int movepick_threat_sign(const MovePicker *mp, Piece pc, Move m);
/* When the picker is at (or just before) the quiet stage and none of the
 * quiet moves it has yet to return gives check, drops them all and returns
 * SKIP_DONE. Otherwise it drops nothing and returns SKIP_NOT_AT_QUIETS (the
 * picker is before or past that stage) or SKIP_QUIET_CHECK (one of them
 * gives check). For a caller that would prune every quiet non-checking move
 * unseen: it saves generating (or ordering) them. The dropped moves are not
 * counted: a caller that has searched a move already needs no count. */
enum { SKIP_DONE = 0, SKIP_NOT_AT_QUIETS = -1, SKIP_QUIET_CHECK = -2 };
int movepick_skip_quiets(MovePicker *mp);
/* After SKIP_QUIET_CHECK from the quiet stage, the picker returns only the
 * quiet moves that give check, in the order it would return all of them,
 * and counts the others it passes over: a caller that would prune each of
 * them at once takes that count (as moves it looked at and pruned) with
 * movepick_take_skipped after every movepick_next. A caller that stops
 * pruning them calls movepick_resume_quiets before asking for the next
 * move: the picker then returns every quiet move again. */
int movepick_take_skipped(MovePicker *mp);
void movepick_resume_quiets(MovePicker *mp);
/* A quiet move's record for piece pc moving from to to: the piece-to
 * history, the side's from-to history and both continuation histories
 * (the quiet order, and LMR's history term). The from-to table adds what
 * the piece-to one cannot see: which square the piece leaves, so a horse
 * that abandons a defence scores apart from one that steps up to the same
 * square. */
int movepick_quiet_stat(const MovePicker *mp, int pc, int from, int to);
/* Whether the move movepick_next returned last is a losing capture (the
 * picker's last stage): one that loses by SEE more than its capture history
 * excuses (CAPT_GOOD_SEE_DIV). */
bool movepick_losing_capture(const MovePicker *mp);
/* MVV-LVA key of a capture (larger first). */
int movepick_mvv_lva(const Board *b, Move m);

/* ---------------------------------------------------------------- threads */

typedef struct RootMove {
    Move move;
    int score;       /* this iteration; -SCORE_INF when it failed low */
    int prev_score;  /* last completed iteration */
    int seldepth;
    uint64_t effort; /* nodes spent below this move in this search */
    int pv_len;
    Move pv[MAX_PLY];
} RootMove;

/* The correction tables (see CORR_SIZE): one per board structure key, then
 * one keyed by the last move's piece and target square. */
enum { CORR_LAST_MOVE = BOARD_STRUCT_NB, CORR_NB = BOARD_STRUCT_NB + 1 };
_Static_assert(PIECE_NB * SQ_NB <= CORR_SIZE, "the last-move key fits a correction table");

typedef struct StackEntry {
    /* What "improving" compares two plies apart: the pruning eval
     * (bounded_eval), -SCORE_INF in check. */
    int trend_eval;
    Move move;
    Move killers[2];
    ContHist *cont; /* the table of replies to `move` (a sentinel after a null move) */
    Move excluded;  /* the move a singular-extension search leaves out, or MOVE_NONE */
    int reduction;  /* LMR plies taken off the child now searched (0 outside a reduced search) */
} StackEntry;

/* What a thread learns as it searches, kept across searches: moved to
 * the new threads when the thread count changes, and cleared for a new
 * game, as one block, so a table added here needs no other change. */
typedef struct SearchTables {
    int history[PIECE_NB][SQ_NB];
    /* Butterfly history by [side][from][to]: what the move from-to has done
     * for that side, whatever piece made it (summed with history[][]). */
    int16_t from_to[2][SQ_NB][SQ_NB];
    Move counter[PIECE_NB][SQ_NB];
    ContHist cont_hist[PIECE_NB][SQ_NB];
    /* Capture history [moving piece][to][captured piece type]: how often a
     * capture cut a node off, against the captures tried before a cutoff. */
    int16_t capt_hist[PIECE_NB][SQ_NB][PT_NB];
    /* Static-eval corrections [side to move][key], see CORR_SIZE and
     * CORR_LAST_MOVE. */
    int16_t corr[2][CORR_NB][CORR_SIZE];
} SearchTables;

typedef struct SearchThread {
    struct Searcher *s;
    int id;
    pthread_t handle;
    Board board;                    /* private copy, history included */
    int root_ply;                   /* board.ply at the root */
    int ply_limit;                  /* deepest ply the history has room for */
    uint64_t nodes;                 /* owner-only counter */
    _Atomic uint64_t nodes_shared;  /* published copy for the other threads */
    int seldepth;
    int root_depth;                 /* depth of the iteration under way */
    int completed_depth;
    int pv_idx;                     /* multi-PV line being searched */
    bool stopped;                   /* this thread saw the stop flag, or its phase ended */
    int64_t phase_end_ms;           /* main thread: end of the current phase since the clock start (0: none) */
    int64_t prover_end_ms;          /* mate prover: its turn ends at this time since the search start (0: none) */
    uint64_t phase_nodes;           /* main thread: node count that ends the current phase (0: none) */
    int start_depth;                /* first iteration of iterate() (0: from the start) */
    bool static_stand_pat;          /* quiescence stands pat on the eval alone (searcher_quiet_eval) */
    SearchStats stats;
    StackEntry stack[MAX_PLY + 8];
    int pv_len[MAX_PLY + 1];
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int root_count;
    RootMove roots[MAX_MOVES];
    SearchTables tables;
    /* Static evals (see EVAL_CACHE_SIZE): the key's high 48 bits, and the
     * eval in the low 16. A pure cache: the eval is a function of the
     * position (and the knowledge level, mixed into the key). */
    uint64_t eval_cache[EVAL_CACHE_SIZE];
} SearchThread;

/* The continuation table of replies to the move made `back` plies above a
 * node at `ply`. Above the root, and after a null move, that is a sentinel
 * (the no-piece row), which learns nothing useful but needs no branches. */
static inline ContHist *search_cont_back(const SearchThread *t, int ply, int back)
{
    ContHist *c = ply >= back ? t->stack[ply - back].cont : NULL;
    return c ? c : (ContHist *)&t->tables.cont_hist[PIECE_NONE][0];
}

/* The continuation table that records replies to move m, which is about
 * to be made on b (its piece still stands on move_from(m)). */
static inline ContHist *search_cont_of(SearchThread *t, const Board *b, Move m)
{
    return &t->tables.cont_hist[b->sq[move_from(m)]][move_to(m)];
}

/* The capture-history entry of capture m, about to be made on b (the
 * mover and the victim still stand on their squares). */
static inline int16_t *search_capt_hist(const SearchThread *t, const Board *b, Move m)
{
    return (int16_t *)&t->tables.capt_hist[b->sq[move_from(m)]][move_to(m)][piece_type(b->sq[move_to(m)])];
}

/* What the df-pn mate prover found (mate.c). */
typedef struct MateProof {
    bool proven;
    bool disproven;          /* no mate within the bound under the prover's move rules */
    int moves;               /* mate in this many moves (the shortest the prover certified) */
    int pv_len;
    Move pv[MAX_PLY];        /* a main line of the proof */
    uint64_t nodes;
} MateProof;

struct Searcher {
    SearchOptions opt;
    TT tt;
    Egtb *egtb;                     /* endgame tables, built on first need (see tb_verdict) */
    int nthreads;
    SearchThread **threads;
    int lmr[64][64];                /* reduction in plies by [depth][move number] */

    /* the search in progress */
    atomic_bool stop;
    atomic_bool helper_mate;        /* mate search: a helper's last iteration found a mate within limits.mate */
    /* Analysis (no "go mate"): the proof of the prover helper thread, which
     * the main thread adopts as its best line (see analysis_prover_helper). Guarded
     * by report_lock, which also serialises the threads' on_info calls. */
    pthread_mutex_t report_lock;
    atomic_int helper_proof_moves;  /* 0: no proof yet; else helper_proof.moves */
    MateProof helper_proof;
    atomic_bool pondering;
    atomic_bool running;
    _Atomic int64_t clock_start_ms;
    int64_t search_start_ms;
    TimeManager tm;
    SearchLimits limits;
    SearchCallbacks cb;
    Board root;
    int root_count;
    RootMove root_moves[MAX_MOVES];
    int64_t last_currmove_ms;

    /* the background thread of searcher_start */
    pthread_mutex_t lock;
    pthread_cond_t done_cond;
    bool bg_active;                 /* a background thread exists, not joined */
    bool bg_done;
    pthread_t bg;
};

/* Runs the whole search in the calling thread (threads, result, on_bestmove). */
SearchResult search_execute(struct Searcher *s);
/* Prepares the Searcher for a search of b (copies, limits, clock). */
void search_prepare(struct Searcher *s, const Board *b, const SearchLimits *l, const SearchCallbacks *cb);

/* Pieces besides the two generals. */
static inline int search_piece_count(const Board *b)
{
    int pieces = -2;
    for (int pc = 0; pc < PIECE_NB; pc++)
        pieces += b->count[pc];
    return pieces;
}

static inline uint64_t search_total_nodes(const struct Searcher *s)
{
    uint64_t n = 0;
    for (int i = 0; i < s->nthreads; i++)
        n += atomic_load_explicit(&s->threads[i]->nodes_shared, memory_order_relaxed);
    return n;
}

static inline void search_publish_nodes(SearchThread *t)
{
    atomic_store_explicit(&t->nodes_shared, t->nodes, memory_order_relaxed);
}

/* Iterative deepening of one thread (search.c). */
void search_iterate(SearchThread *t);
/* Reports root line line_idx of the main thread through on_info. */
void search_report_line(SearchThread *t, int line_idx, int depth, ScoreBound bound);

/* -------------------------------------------------- analysis (analysis.c) */

/* A "go mate N" search on the main thread: search and prover in phases. */
void analysis_mate_search(SearchThread *t);
/* One-thread "go infinite": search and prover in growing turns. */
void analysis_search(SearchThread *t);
/* Whether the prover runs beside a search without "go mate N". */
bool analysis_prover_wanted(const struct Searcher *s);
/* Helper thread 1 in analysis: the prover first, then the search. */
void analysis_prover_helper(SearchThread *t);
/* Main thread: puts a helper's (or its own kept) proof at the head of the
 * root list unless the search holds a mate as short; true when the best
 * line is then a proven mate. */
bool analysis_adopt_helper_proof(SearchThread *t, bool report);

/* ----------------------------------------------------------- mate prover */

/* Called by the prover with each proof it certifies: the first one, then
 * every shorter one that tightening finds. The board is at the root. */
typedef void (*MateProofFn)(SearchThread *t, const MateProof *proof);

/* Proves a mate in at most max_moves moves (checks, forced evasions and up
 * to MATE_MAX_QUIET quiet attacker moves a line) from the root of
 * thread t (its root move list), on t's board, which it restores. Stops at
 * the stop flag, once share_percent of the clock (or of the node limit) has
 * passed since the search started, or at max_nodes (0: the default budget
 * of an untimed search). on_proof (may be NULL) hears of
 * each proof as soon as it stands, so a caller can report the mate before
 * tightening ends. Returns out->proven. */
bool mate_prove(SearchThread *t, int max_moves, uint64_t max_nodes, int share_percent, MateProofFn on_proof,
                MateProof *out);

/* ------------------------------------------------------------ test hooks */

/* What the null-move step did at one node. */
typedef struct NullStepReport {
    bool tried;          /* the null search ran */
    int null_score;      /* its score (valid when tried) */
    bool verified;       /* a verification search ran */
    bool verify_failed;  /* ...and did not fail high */
    bool cutoff;         /* the node would be cut */
    bool mate_threat;    /* the null search said "mated next" */
    int result;          /* node score on a cutoff */
} NullStepReport;

/* Runs only the null-move step (Step 8 of search_node) on a copy of b at
 * search ply `ply` (0 is the root), with window (alpha, beta) and the given
 * depth; `verifying` marks the node as inside a verification search. Uses
 * the Searcher's TT and options; the board's own ply is taken as the root. */
NullStepReport search_test_null_step(struct Searcher *s, const Board *b, int alpha, int beta, int depth,
                                     int ply, bool verifying);

/* Runs only the mate prover on b (limits "mate max_moves", no clock) with a
 * node budget; returns the mate length proven, 0 if none. */
int search_test_mate_prove(struct Searcher *s, const Board *b, int max_moves, uint64_t max_nodes, MateProof *out);

#endif
