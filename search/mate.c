/* mate.c — the checks-only mate prover behind "go mate N": proves forced mates
 * in which every attacker move gives check (continuous-check mates), by
 * iterative deepening on the mate length with its own proof table.
 *
 * The attacker (the side to move at the root) tries only checking moves; the
 * defender tries every legal reply. A defender without a legal move is mated
 * (stalemate loses too). Any repetition inside the proof, or the natural
 * limit, counts as an escape for the defender, so a proof is never a line the
 * defender could leave by repeating. The result is exact for "mate in m with
 * checks only", hence an upper bound of the true mate distance. */
#include <stdlib.h>
#include <string.h>

#include "search_internal.h"

/* One table entry. The key includes the side to move, so attacker and
 * defender positions never share an entry. */
typedef struct MateEntry {
    uint64_t key;
    Move move;         /* attacker: the check that proves; defender: an escape */
    uint8_t proven;    /* mate within this many attacker moves; 0: none known */
    uint8_t disproven; /* no checks-only mate within this many; MATE_INFINITE: none at all */
    uint8_t pad[4];
} MateEntry;

/* Entries per bucket: one depth-preferred slot and one always-replaced slot. */
enum { MATE_BUCKET = 2 };
/* "Disproven for every length": the whole checks-only tree below was seen. */
enum { MATE_INFINITE = 255 };

typedef enum MateResult {
    MR_PROVEN,     /* forced mate within the given length */
    MR_DISPROVEN,  /* none, whatever path led here */
    MR_ESCAPE_PATH,/* none, but only because of a repetition with the current path */
    MR_ABORT       /* stopped (time, nodes, stop flag) */
} MateResult;

typedef struct MateProver {
    Searcher *s;
    Board *b;
    int root_ply;
    MateEntry *table;
    uint64_t mask;       /* entry count - 1; buckets start at even indices */
    uint64_t nodes;
    uint64_t max_nodes;  /* 0: none */
    bool timed;          /* the search clock applies */
    int64_t budget_ms;   /* prover share of the hard limit */
    bool stopped;
    bool horizon;        /* a line of the current subtree reached the length limit */
} MateProver;

/* ------------------------------------------------------------- helpers */

/* Counts a node; checks the stop flag every node and the clock and the node
 * budget every MATE_CHECK_NODES nodes. */
static bool mate_tick(MateProver *p)
{
    p->nodes++;
    if (p->stopped)
        return true;
    if (atomic_load_explicit(&p->s->stop, memory_order_relaxed)) {
        p->stopped = true;
        return true;
    }
    if ((p->nodes & (MATE_CHECK_NODES - 1)) == 0) {
        if (p->max_nodes && p->nodes >= p->max_nodes)
            p->stopped = true;
        if (p->timed && !atomic_load_explicit(&p->s->pondering, memory_order_relaxed)) {
            int64_t elapsed = tm_now_ms() - atomic_load_explicit(&p->s->clock_start_ms, memory_order_relaxed);
            if (elapsed >= p->budget_ms)
                p->stopped = true;
        }
    }
    return p->stopped;
}

/* A repetition (any verdict) or the natural limit ends the attack: the
 * defender is not mated there, whoever the rules blame. */
static bool mate_escaped_by_rule(MateProver *p)
{
    Board *b = p->b;
    int r60 = board_rule60(b);
    if (r60 >= 4 && board_repetition(b, p->root_ply, 2) != REP_NONE)
        return true;
    return r60 >= BOARD_RULE60_PLIES;
}

static MateEntry *mate_probe(MateProver *p, uint64_t key)
{
    MateEntry *bucket = &p->table[key & p->mask & ~(uint64_t)1];
    for (int i = 0; i < MATE_BUCKET; i++)
        if (bucket[i].key == key)
            return &bucket[i];
    return NULL;
}

/* Merges a result into the entry of key: proofs keep the shortest length
 * (with its move), disproofs the longest. */
static void mate_store(MateProver *p, uint64_t key, Move move, int proven, int disproven)
{
    MateEntry *bucket = &p->table[key & p->mask & ~(uint64_t)1];
    MateEntry *e = NULL;
    for (int i = 0; i < MATE_BUCKET; i++)
        if (bucket[i].key == key)
            e = &bucket[i];
    if (!e) {
        /* Depth-preferred slot 0 keeps the result of the bigger subtree. */
        int worth = proven > disproven ? proven : disproven;
        int old = bucket[0].proven > bucket[0].disproven ? bucket[0].proven : bucket[0].disproven;
        e = worth >= old ? &bucket[0] : &bucket[1];
        if (e == &bucket[0])
            bucket[1] = bucket[0];
        memset(e, 0, sizeof *e);
        e->key = key;
    }
    if (proven > 0 && (e->proven == 0 || proven < e->proven)) {
        e->proven = (uint8_t)proven;
        e->move = move;
    }
    if (disproven > e->disproven) {
        e->disproven = (uint8_t)disproven;
        if (move != MOVE_NONE && proven == 0 && e->proven == 0)
            e->move = move;
    }
}

/* Sorts moves[0..n) by key, smallest first (stable insertion sort, so the
 * result never depends on anything but the generation order). */
static void mate_sort(Move *moves, int *keys, int n)
{
    for (int i = 1; i < n; i++) {
        Move m = moves[i];
        int k = keys[i], j = i - 1;
        while (j >= 0 && keys[j] > k) {
            moves[j + 1] = moves[j];
            keys[j + 1] = keys[j];
            j--;
        }
        moves[j + 1] = m;
        keys[j + 1] = k;
    }
}

/* Finishes a disproof: stores it (unless it depends on the path) with the
 * length, or as "never" when no line below reached the length limit. */
static MateResult mate_fail(MateProver *p, uint64_t key, Move escape, int n, bool path, bool saved_horizon)
{
    bool horizon = p->horizon;
    p->horizon = saved_horizon || horizon;
    if (path)
        return MR_ESCAPE_PATH;
    mate_store(p, key, escape, 0, horizon ? n : MATE_INFINITE);
    return MR_DISPROVEN;
}

static MateResult mate_defend(MateProver *p, int n, int q);

/* Table key of a position searched with a quiet-move budget of q: results
 * for different budgets are different facts, so they get different keys. */
static uint64_t mate_key(const Board *b, int q) { return b->key ^ ((uint64_t)q * 0x9E3779B97F4A7C15ull); }

/* ------------------------------------------------------------- attacker */

/* The attacker to move with n moves left, of which at most q may be quiet
 * (non-checking): is there a move after which every defence is mated within
 * n moves in all? A quiet move is tried only when it threatens a checks-only
 * mate (were the defender allowed to pass), which keeps the tree narrow.
 * `only` restricts the candidates (the root's move list), NULL for all. */
static MateResult mate_attack(MateProver *p, int n, int q, const Move *only, int only_count, Move *best)
{
    Board *b = p->b;
    const uint64_t key = mate_key(b, q);

    /* Step 1. Count the node, stop if asked; rules; length left. */
    if (mate_tick(p))
        return MR_ABORT;
    if (only == NULL && mate_escaped_by_rule(p))
        return MR_ESCAPE_PATH;
    if (n <= 0) {
        p->horizon = true;
        return MR_DISPROVEN;
    }

    /* Step 2. Table: a known proof or disproof for this length. */
    MateEntry *e = only == NULL ? mate_probe(p, key) : NULL;
    Move hash_move = MOVE_NONE;
    if (e) {
        if (e->proven && e->proven <= n) {
            if (best)
                *best = e->move;
            return MR_PROVEN;
        }
        if (e->disproven >= n) {
            if (e->disproven != MATE_INFINITE)
                p->horizon = true;
            return MR_DISPROVEN;
        }
        hash_move = e->move;
    }
    const bool saved_horizon = p->horizon;
    p->horizon = false;

    /* Step 3. The checks, each with the defender's reply count: a check
     * without reply mates at once; otherwise fewer replies go first (the
     * fewer the defences, the faster a proof or refutation), captures
     * and the move that last proved or was tried first break ties. */
    MoveList all;
    if (only) {
        all.count = only_count;
        memcpy(all.moves, only, (size_t)only_count * sizeof(Move));
    } else {
        board_generate(b, GEN_ALL, &all);
    }
    Move checks[MAX_MOVES], quiets[MAX_MOVES];
    int keys[MAX_MOVES];
    int nc = 0, nq = 0;
    for (int i = 0; i < all.count; i++) {
        Move m = all.moves[i];
        if (!board_gives_check(b, m)) {
            /* A quiet move can only matter with budget and a move to follow. */
            if (q > 0) {
                quiets[nq++] = m;
                /* The move that proved before goes first. */
                if (m == hash_move) {
                    quiets[nq - 1] = quiets[0];
                    quiets[0] = m;
                }
            }
            continue;
        }
        bool capture = board_is_capture(b, m);
        board_make(b, m);
        int replies = board_count_legal(b);
        board_unmake(b);
        if (replies == 0) {
            if (!only)
                mate_store(p, key, m, 1, 0);
            if (best)
                *best = m;
            p->horizon = saved_horizon;
            return MR_PROVEN;
        }
        checks[nc] = m;
        keys[nc] = replies * 4 - (capture ? 2 : 0) - (m == hash_move ? 1000 : 0);
        nc++;
    }
    if (n == 1) {
        /* Only an immediate mate could do (a quiet one is looked for in
         * Step 5); longer lines were cut here. */
        if (nc > 0 || q > 0)
            p->horizon = true;
        nc = 0;
    }
    mate_sort(checks, keys, nc);

    /* Step 4. Try them: one proven check proves the node. */
    bool path = false;
    for (int i = 0; i < nc; i++) {
        board_make(b, checks[i]);
        MateResult r = mate_defend(p, n, q);
        board_unmake(b);
        if (r == MR_ABORT)
            return MR_ABORT;
        if (r == MR_PROVEN) {
            if (!only)
                mate_store(p, key, checks[i], n, 0);
            if (best)
                *best = checks[i];
            p->horizon = saved_horizon;
            return MR_PROVEN;
        }
        if (r == MR_ESCAPE_PATH)
            path = true;
    }

    /* Step 5. Quiet moves (budget q > 0), each first tested for a threat:
     * after it and a pass the attacker must mate with checks in n - 1. */
    for (int i = 0; i < nq; i++) {
        Move m = quiets[i];
        board_make(b, m);
        if (board_count_legal(b) == 0) {
            /* Stalemate loses in xiangqi: a quiet mate. */
            board_unmake(b);
            if (!only)
                mate_store(p, key, m, 1, 0);
            if (best)
                *best = m;
            p->horizon = saved_horizon;
            return MR_PROVEN;
        }
        if (n < 2) {
            /* No move left to carry out a threat. */
            board_unmake(b);
            continue;
        }
        board_make_null(b);
        MateResult r = mate_attack(p, n - 1, 0, NULL, 0, NULL);
        board_unmake_null(b);
        if (r == MR_PROVEN)
            r = mate_defend(p, n, q - 1);
        board_unmake(b);
        if (r == MR_ABORT)
            return MR_ABORT;
        if (r == MR_PROVEN) {
            if (!only)
                mate_store(p, key, m, n, 0);
            if (best)
                *best = m;
            p->horizon = saved_horizon;
            return MR_PROVEN;
        }
        if (r == MR_ESCAPE_PATH)
            path = true;
    }
    return mate_fail(p, key, MOVE_NONE, n, path || only != NULL, saved_horizon);
}

/* ------------------------------------------------------------- defender */

/* The defender to move after a check; the attacker has n moves in all,
 * the check just played included. Mated unless some reply escapes. */
static MateResult mate_defend(MateProver *p, int n, int q)
{
    Board *b = p->b;
    const uint64_t key = mate_key(b, q);

    /* Step 1. Count the node, stop if asked; repetition (perpetual check
     * is no mate). */
    if (mate_tick(p))
        return MR_ABORT;
    int r60 = board_rule60(b);
    if (r60 >= 4 && board_repetition(b, p->root_ply, 2) != REP_NONE)
        return MR_ESCAPE_PATH;

    /* Step 2. No legal reply: mated (or stalemated, a loss as well). */
    MoveList replies;
    board_generate(b, GEN_ALL, &replies);
    if (replies.count == 0)
        return MR_PROVEN;
    if (r60 >= BOARD_RULE60_PLIES)
        return MR_ESCAPE_PATH;
    if (n <= 1) {
        p->horizon = true;
        return MR_DISPROVEN;
    }

    /* Step 3. Table. */
    MateEntry *e = mate_probe(p, key);
    Move escape = MOVE_NONE;
    if (e) {
        if (e->proven && e->proven <= n)
            return MR_PROVEN;
        if (e->disproven >= n) {
            if (e->disproven != MATE_INFINITE)
                p->horizon = true;
            return MR_DISPROVEN;
        }
        escape = e->move;
    }
    const bool saved_horizon = p->horizon;
    p->horizon = false;

    /* Step 4. Order: the last known escape, then captures (taking the
     * checker is the likeliest way out; bigger victims first), then the
     * rest in generation order. */
    int keys[MAX_MOVES];
    for (int i = 0; i < replies.count; i++) {
        Move m = replies.moves[i];
        keys[i] = m == escape ? -100000 : board_is_capture(b, m) ? -movepick_mvv_lva(b, m) - 1 : 0;
    }
    mate_sort(replies.moves, keys, replies.count);

    /* Step 5. Every reply must lose within n - 1 more attacker moves. */
    for (int i = 0; i < replies.count; i++) {
        Move m = replies.moves[i];
        board_make(b, m);
        MateResult r = mate_attack(p, n - 1, q, NULL, 0, NULL);
        board_unmake(b);
        if (r == MR_ABORT)
            return MR_ABORT;
        if (r == MR_DISPROVEN)
            return mate_fail(p, key, m, n, false, saved_horizon);
        if (r == MR_ESCAPE_PATH)
            return mate_fail(p, key, m, n, true, saved_horizon);
    }
    mate_store(p, key, MOVE_NONE, n, 0);
    p->horizon = saved_horizon;
    return MR_PROVEN;
}

/* ------------------------------------------------------------- main line */

/* Rebuilds a main line of the proof of length n starting with `first`: the
 * defender picks the reply the table says lasts longest, the attacker the
 * proving check (re-proved when the table lost it). Leaves the board as
 * it found it. */
static int mate_main_line(MateProver *p, Move first, int n, int q, Move *pv, int max)
{
    Board *b = p->b;
    int len = 0, left = n;
    Move a = first;
    while (a != MOVE_NONE && len + 2 <= max) {
        if (!board_gives_check(b, a) && q > 0)
            q--;
        board_make(b, a);
        pv[len++] = a;
        MoveList replies;
        board_generate(b, GEN_ALL, &replies);
        if (replies.count == 0 || left <= 1)
            break;
        /* Step 1. The defence that lasts longest by the table. */
        Move pick = MOVE_NONE;
        int pick_len = -1;
        for (int i = 0; i < replies.count; i++) {
            board_make(b, replies.moves[i]);
            MateEntry *e = mate_probe(p, mate_key(b, q));
            int d = e && e->proven ? e->proven : left - 1;
            board_unmake(b);
            if (d > pick_len) {
                pick_len = d;
                pick = replies.moves[i];
            }
        }
        board_make(b, pick);
        pv[len++] = pick;
        left = pick_len < left - 1 ? pick_len : left - 1;
        /* Step 2. The attacker's proving move. */
        a = MOVE_NONE;
        MateEntry *e = mate_probe(p, mate_key(b, q));
        if (e && e->proven && e->proven <= left && board_is_legal(b, e->move)) {
            a = e->move;
        } else {
            bool saved = p->horizon;
            Move m = MOVE_NONE;
            if (mate_attack(p, left, q, NULL, 0, &m) == MR_PROVEN && board_is_legal(b, m))
                a = m;
            p->horizon = saved;
        }
    }
    for (int i = 0; i < len; i++)
        board_unmake(b);
    return len;
}

/* ------------------------------------------------------------- driver */

bool mate_prove(SearchThread *t, int max_moves, uint64_t max_nodes, MateProof *out)
{
    Searcher *s = t->s;
    memset(out, 0, sizeof *out);
    if (max_moves <= 0 || t->root_count == 0)
        return false;
    /* Step 1. The length cap: 2m - 1 plies must fit the history room. */
    if (2 * max_moves + 1 > t->ply_limit)
        max_moves = (t->ply_limit - 1) / 2;
    if (max_moves > MATE_INFINITE - 1)
        max_moves = MATE_INFINITE - 1;

    MateProver p;
    memset(&p, 0, sizeof p);
    p.s = s;
    p.b = &t->board;
    p.root_ply = t->root_ply;
    uint64_t entries = (uint64_t)1 << MATE_TABLE_BITS;
    /* calloc maps zeroed pages lazily: a short proof touches little of it. */
    p.table = calloc((size_t)entries, sizeof(MateEntry));
    if (!p.table)
        return false;
    p.mask = entries - 1;
    p.max_nodes = max_nodes;
    p.timed = s->tm.timed && !s->limits.infinite;
    p.budget_ms = s->tm.hard_ms * MATE_PROVER_TIME_PERCENT / 100;
    if (!p.timed && p.max_nodes == 0)
        p.max_nodes = MATE_PROVER_MAX_NODES;
    if (s->limits.nodes && (p.max_nodes == 0 || s->limits.nodes < p.max_nodes))
        p.max_nodes = s->limits.nodes;

    Move root_moves[MAX_MOVES];
    for (int i = 0; i < t->root_count; i++)
        root_moves[i] = t->roots[i].move;

    /* Step 2. Iterative deepening on the mate length, first with checks
     * only, then allowing 1..MATE_MAX_QUIET quiet attacker moves: the first
     * proof is the shortest with the fewest quiet moves. A budget whose whole
     * tree was seen without reaching the length limit is done: longer
     * lengths change nothing there. */
    for (int q = 0; q <= MATE_MAX_QUIET && !out->proven && !p.stopped; q++) {
        for (int m = 1; m <= max_moves; m++) {
            p.horizon = false;
            Move best = MOVE_NONE;
            MateResult r = mate_attack(&p, m, q, root_moves, t->root_count, &best);
            if (r == MR_ABORT)
                break;
            if (r == MR_PROVEN) {
                out->proven = true;
                out->moves = m;
                out->pv_len = mate_main_line(&p, best, m, q, out->pv, MAX_PLY);
                if (out->pv_len == 0) {
                    out->pv[0] = best;
                    out->pv_len = 1;
                }
                break;
            }
            if (!p.horizon)
                break;
        }
    }
    out->nodes = p.nodes;
    free(p.table);
    return out->proven;
}

/* ------------------------------------------------------------- test hook */

int search_test_mate_prove(Searcher *s, const Board *b, int max_moves, uint64_t max_nodes, MateProof *out)
{
    SearchLimits l;
    search_limits_init(&l);
    l.mate = max_moves;
    search_prepare(s, b, &l, NULL);
    return mate_prove(s->threads[0], max_moves, max_nodes, out) ? out->moves : 0;
}
