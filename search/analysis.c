/* analysis.c — the mate prover beside the tree search: the phases of a
 * "go mate N" search, the prover helper thread of analysis, the one-thread
 * analysis turns, and how a proof becomes the best line. */
#define _POSIX_C_SOURCE 200809L

#include <string.h>

#include "search_internal.h"

/* Puts a proof of the mate prover at the head of the root list and reports
 * it as if an iteration of that depth had found it, unless the root list
 * already holds a mate as short (from the normal search before the prover,
 * or an earlier proof). Returns false if the proof's first move is not a
 * root move. */
static bool install_proof(SearchThread *t, const MateProof *proof, bool report)
{
    if (proof->pv_len == 0)
        return false;
    int idx = -1;
    for (int i = 0; i < t->root_count; i++)
        if (t->roots[i].move == proof->pv[0])
            idx = i;
    if (idx < 0)
        return false;
    int plies = 2 * proof->moves - 1;
    if (t->roots[0].score >= SCORE_MATE - plies)
        return true;
    /* Bring the proving move to the front, keeping the others' order. */
    RootMove rm = t->roots[idx];
    memmove(&t->roots[1], &t->roots[0], (size_t)idx * sizeof(RootMove));
    rm.score = rm.prev_score = SCORE_MATE - plies;
    rm.seldepth = plies;
    rm.pv_len = proof->pv_len;
    memcpy(rm.pv, proof->pv, (size_t)proof->pv_len * sizeof(Move));
    t->roots[0] = rm;
    if (report) {
        t->completed_depth = plies;
        t->seldepth = plies;
        search_report_line(t, 0, plies, BOUND_EXACT);
    }
    return true;
}

/* The prover's report of each proof (MateProofFn): the first one is shown
 * at once, so a puzzle counts as solved before tightening ends. */
static void on_mate_proof(SearchThread *t, const MateProof *proof)
{
    /* The node count shown with the line includes the prover's so far. */
    uint64_t before = t->nodes;
    t->nodes += proof->nodes;
    search_publish_nodes(t);
    install_proof(t, proof, true);
    t->nodes = before;
}

/* The mate prover's turn in a "go mate N" search (see analysis_mate_search). Each
 * proof is installed and reported as it stands (on_mate_proof). */
static bool mate_step(SearchThread *t)
{
    MateProof proof;
    bool proven = mate_prove(t, t->s->limits.mate, 0, MATE_PROVER_TIME_PERCENT, on_mate_proof, &proof);
    t->nodes += proof.nodes;
    search_publish_nodes(t);
    return proven && install_proof(t, &proof, true);
}

/* A "go mate N" search on the main thread. In sparse endings, with at most
 * MATE_SPARSE_PIECES pieces besides the two generals, a search with a clock
 * or a node limit is the normal search alone: their mates are long quiet
 * manoeuvres, which the prover's narrow tree (checks and a few quiet
 * moves) does not prove, while the search's eval drives them well, and a
 * turn of the prover would cost the search its unfinished iteration.
 * Without either, nothing is cut short: the prover goes first, as below
 * (a short mate is proven at once where a fixed depth may miss it).
 * Elsewhere, in three phases:
 * (1) the normal search, for MATE_FIRST_SEARCH_PERCENT of the clock
 *     or of the node limit: many puzzles fall to it at once, and then the
 *     prover never runs (skipped when the search has neither a clock nor a
 *     node limit, which could not end the phase, and when helper threads
 *     run);
 * (2) the mate prover (mate.c) up to MATE_PROVER_TIME_PERCENT counted from
 *     the start, or until a helper finds the mate; a proof ends the search;
 * (3) the normal search again in the time left, its table still holding
 *     what phase 1 learnt, when the prover disproves the mate within its
 *     narrow tree (it can find mates with quiet attacking moves that the
 *     prover does not try).
 * Helper threads run the normal search throughout: with them, phase 1 is
 * theirs, and the main thread goes straight to the prover. */
void analysis_mate_search(SearchThread *t)
{
    Searcher *s = t->s;
    const bool timed = s->tm.timed && !s->limits.infinite;
    if ((timed || s->limits.nodes) && search_piece_count(&t->board) <= MATE_SPARSE_PIECES) {
        search_iterate(t);
        return;
    }
    /* With helpers, they run the normal search from the start, so the main
     * thread goes straight to the prover. */
    if ((timed || s->limits.nodes) && s->nthreads == 1) {
        t->phase_end_ms = timed ? s->tm.hard_ms * MATE_FIRST_SEARCH_PERCENT / 100 : 0;
        t->phase_nodes = s->limits.nodes / 100 * MATE_FIRST_SEARCH_PERCENT;
        if (t->phase_end_ms <= 0 && t->phase_nodes == 0)
            t->phase_nodes = 1;
        search_iterate(t);
        t->phase_end_ms = 0;
        t->phase_nodes = 0;
        /* Finished (a mate proven, or the depth limit), or told to stop. */
        if (!t->stopped || atomic_load(&s->stop))
            return;
        t->stopped = false;
    }
    if (mate_step(t) || atomic_load(&s->stop))
        return;
    /* The iterations phase 1 completed stand: its root order and the
     * history tables are still there, so the search resumes after them. */
    t->start_depth = t->completed_depth + 1;
    search_iterate(t);
}

/* ------------------------------------------------- the prover in analysis */

/* Whether the prover runs beside a search without "go mate N": GUI analysis
 * (infinite), pondering and clocked searches. Never beside depth or node
 * limits (bench and the reproducible tests stay as they are) nor multi-PV,
 * whose lines a proof would reorder. */
bool analysis_prover_wanted(const Searcher *s)
{
    const SearchLimits *l = &s->limits;
    if (l->mate > 0 || l->depth > 0 || l->nodes > 0 || s->opt.multipv > 1)
        return false;
    return l->infinite || l->ponder || s->tm.timed;
}

/* The prover helper's report of each proof (MateProofFn): kept for the main
 * thread, which alone owns the result, and shown at once, since the main
 * thread reports only at the end of an iteration. */
static void on_helper_proof(SearchThread *t, const MateProof *proof)
{
    Searcher *s = t->s;
    pthread_mutex_lock(&s->report_lock);
    int held = atomic_load(&s->helper_proof_moves);
    if (held == 0 || proof->moves < held) {
        s->helper_proof = *proof;
        atomic_store(&s->helper_proof_moves, proof->moves);
        if (s->cb.on_info) {
            const int plies = 2 * proof->moves - 1;
            int64_t elapsed = tm_now_ms() - s->search_start_ms;
            SearchInfo info;
            memset(&info, 0, sizeof info);
            info.depth = info.seldepth = plies;
            info.multipv = 1;
            info.score = SCORE_MATE - plies;
            info.bound = BOUND_EXACT;
            info.nodes = search_total_nodes(s) + proof->nodes;
            info.time_ms = elapsed;
            info.nps = info.nodes * 1000 / (uint64_t)(elapsed > 0 ? elapsed : 1);
            info.hashfull = tt_hashfull(&s->tt);
            info.pv_len = proof->pv_len;
            memcpy(info.pv, proof->pv, (size_t)proof->pv_len * sizeof(Move));
            s->cb.on_info(s->cb.ctx, &info);
        }
    }
    pthread_mutex_unlock(&s->report_lock);
}

/* One-thread analysis: the main thread's own proof is kept where a
 * helper's would be (already shown by on_mate_proof), so that every later
 * iteration, and the final answer, put it back in front (analysis_adopt_helper_proof)
 * unless the search holds a mate as short. Without it a resumed iteration
 * that cannot see the mate overwrote the proven line with its own score,
 * and the bestmove after "stop" could come without the mate just shown. */
static void keep_own_proof(Searcher *s, const MateProof *proof)
{
    pthread_mutex_lock(&s->report_lock);
    int held = atomic_load(&s->helper_proof_moves);
    if (held == 0 || proof->moves < held) {
        s->helper_proof = *proof;
        atomic_store(&s->helper_proof_moves, proof->moves);
    }
    pthread_mutex_unlock(&s->report_lock);
}

/* Main thread: puts the prover helper's proof at the head of the root list
 * unless the search holds a mate as short. Returns true when the best line
 * is then a proven mate. */
bool analysis_adopt_helper_proof(SearchThread *t, bool report)
{
    Searcher *s = t->s;
    if (t->id != 0 || atomic_load(&s->helper_proof_moves) == 0)
        return false;
    MateProof proof;
    pthread_mutex_lock(&s->report_lock);
    proof = s->helper_proof;
    pthread_mutex_unlock(&s->report_lock);
    return install_proof(t, &proof, report);
}

/* The side to move has a checking move: without one the prover's first
 * pass is empty and a mate is unlikely to be near. */
static bool root_has_check(SearchThread *t)
{
    for (int i = 0; i < t->root_count; i++)
        if (board_gives_check(&t->board, t->roots[i].move))
            return true;
    return false;
}

/* The opponent's general is short of squares: at most max_free of the
 * palace points next to it are neither held by its own pieces nor attacked
 * by the side to move (as the board stands). */
static bool king_boxed(const Board *b, int max_free)
{
    static const int steps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    const int them = b->side ^ 1;
    const int k = board_king_sq(b, them);
    int free_squares = 0;
    for (int i = 0; i < 4; i++) {
        int f = sq_file(k) + steps[i][0], r = sq_rank(k) + steps[i][1];
        bool palace = f >= 3 && f <= 5 && (them == RED ? r <= 2 : r >= 7) && r >= 0 && r <= 9;
        if (!palace)
            continue;
        int sq = sq_make(f, r);
        if (b->sq[sq] != PIECE_NONE && piece_color(b->sq[sq]) == them)
            continue;
        free_squares += !board_is_attacked(b, sq, b->side);
    }
    return free_squares <= max_free;
}

/* Helper 1 in analysis: the mate prover instead of the Lazy SMP search, then
 * the search like the other helpers. In a clocked game it runs only when the
 * position looks forcing (a check at hand, the opposing general boxed in),
 * and stops at MATE_HELPER_TIMED_PERCENT of the hard limit, so that the
 * helper mostly deepens the shared TT as before. */
void analysis_prover_helper(SearchThread *t)
{
    Searcher *s = t->s;
    const bool timed = s->tm.timed && !s->limits.infinite;
    if (timed && !(root_has_check(t) && king_boxed(&t->board, MATE_KING_FREE_MAX)))
        return;
    MateProof proof;
    mate_prove(t, MATE_ANALYSIS_MOVES, 0, timed ? MATE_HELPER_TIMED_PERCENT : 100, on_helper_proof, &proof);
    t->nodes += proof.nodes;
    search_publish_nodes(t);
}

/* One-thread analysis (go infinite): the search and the prover take turns
 * that grow geometrically (MATE_SLICE_*), each proof reported as it stands;
 * after a proof of N moves the next turns look for a mate in N-1, until
 * the prover disproves its bound; then the search alone. Pondering with one
 * thread does not get turns: a ponderhit makes it a game search, whose
 * clock a prover turn or a broken-off iteration would spend. */
void analysis_search(SearchThread *t)
{
    Searcher *s = t->s;
    /* Only forcing positions get turns; in small endings the general may
     * have a free point or two (see MATE_SLICE_ENDING_PIECES). Sparse
     * endings do not: their long quiet mates are the search's. */
    const int pieces = search_piece_count(&t->board);
    const int max_free = pieces <= MATE_SLICE_ENDING_PIECES ? MATE_SLICE_KING_FREE_MAX : MATE_KING_FREE_MAX;
    if (pieces <= MATE_SPARSE_PIECES || !root_has_check(t) || !king_boxed(&t->board, max_free)) {
        search_iterate(t);
        return;
    }
    /* A position let in only by the endings' wider test keeps its turns
     * only once the prover has proven a mate: the search finds many of
     * those mates itself and needs the time. */
    const bool tentative = !king_boxed(&t->board, MATE_KING_FREE_MAX);
    bool proven_once = false;
    int64_t search_end = MATE_SLICE_FIRST_MS;
    int bound = MATE_ANALYSIS_MOVES;
    for (;;) {
        t->phase_end_ms = search_end;
        search_iterate(t);
        t->phase_end_ms = 0;
        /* Finished (the depth limit), or told to stop. */
        if (!t->stopped || atomic_load(&s->stop))
            return;
        t->stopped = false;
        const int done = t->completed_depth;
        int64_t elapsed = tm_now_ms() - atomic_load(&s->clock_start_ms);
        t->prover_end_ms = (elapsed > 1 ? elapsed : 1) * MATE_SLICE_PROVER_FACTOR;
        MateProof proof;
        mate_prove(t, bound, 0, 100, on_mate_proof, &proof);
        t->prover_end_ms = 0;
        t->nodes += proof.nodes;
        search_publish_nodes(t);
        if (atomic_load(&s->stop))
            return;
        if (proof.proven) {
            keep_own_proof(s, &proof);
            bound = proof.moves - 1;
            proven_once = true;
        }
        const bool settled = proof.disproven || bound < 1 || (tentative && !proven_once);
        /* The iterations done stand; the search resumes after them. */
        t->completed_depth = done;
        t->start_depth = done + 1;
        if (settled)
            break;
        search_end = (tm_now_ms() - atomic_load(&s->clock_start_ms)) * MATE_SLICE_SEARCH_PERCENT / 100;
    }
    search_iterate(t);
}
