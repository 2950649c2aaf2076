/* search.c — the search proper: iterative deepening with aspiration windows,
 * PVS with null move (ElephantEye rules), pruning and extensions, quiescence
 * with the EGain bound, and the xiangqi rules inside the tree. */
#define _POSIX_C_SOURCE 200809L

#include <string.h>
#include <time.h>

#include "eval.h"
#include "search_internal.h"

/* Node flags passed down the tree. */
enum { NODE_VERIFY = 1 }; /* inside a null-move verification search: no null moves */

/* One copy of search_node: gcc otherwise clones it for the root's constant
 * ply and flags, and the four 8 KB copies, all hot, crowd each other out of
 * the instruction cache. */
#if defined(__GNUC__) && !defined(__clang__)
#define SEARCH_NOCLONE __attribute__((noclone))
#else
#define SEARCH_NOCLONE /* clang does not clone this way, and has no such attribute */
#endif
static SEARCH_NOCLONE int search_node(SearchThread *t, int alpha, int beta, int depth, int ply, int flags);
static int qsearch(SearchThread *t, int alpha, int beta, int ply, int qply);

/* Step 0 of every node: at the horizon, quiescence, else search_node.
 * Taken before search_node's call, since its entry sets up a frame of over
 * 2 KB before it could test the depth, and a third of the children lie at
 * the horizon. Every search goes through here. */
static inline int search_depth(SearchThread *t, int alpha, int beta, int depth, int ply, int flags)
{
    if (depth <= 0)
        return qsearch(t, alpha, beta, ply, 0);
    return search_node(t, alpha, beta, depth, ply, flags);
}

/* ------------------------------------------------------------- helpers */

/* Keeps a static score out of the rule-win and mate bands. */
static inline int below_rule_band(int v)
{
    if (v >= SCORE_RULE_MIN)
        return SCORE_RULE_MIN - 1;
    if (v <= -SCORE_RULE_MIN)
        return -(SCORE_RULE_MIN - 1);
    return v;
}

/* The thread's eval cache: see evaluate(). */
static inline uint64_t eval_cache_key(uint64_t board_key, int knowledge)
{
    return board_key ^ (uint64_t)knowledge * 0x9E3779B97F4A7C15ull;
}

static inline bool eval_cache_get(const SearchThread *t, uint64_t key, int *v)
{
    const uint64_t e = t->eval_cache[key & (EVAL_CACHE_SIZE - 1)];
    if ((e & ~UINT64_C(0xFFFF)) != (key & ~UINT64_C(0xFFFF)))
        return false;
    *v = (int16_t)(uint16_t)e;
    return true;
}

static inline void eval_cache_put(SearchThread *t, uint64_t key, int v)
{
    t->eval_cache[key & (EVAL_CACHE_SIZE - 1)] = (key & ~UINT64_C(0xFFFF)) | (uint16_t)(int16_t)v;
}

/* The static eval, through the thread's eval cache (EVAL_CACHE_SIZE says
 * why there is one besides the TT's evals; an earlier cache of 16-byte
 * entries was dropped, and this one of 8-byte entries measured 2% fewer
 * instructions on the bench). The index takes the key's low bits and the
 * check its high 48, so they overlap in no bit.
 * After a null move the position differs from its parent only in the side
 * to move, and the parent was evaluated just before (the null move's eval
 * gate needs it): its cached eval gives this one's exactly, unless it sat
 * at the clamp, where the raw value is lost. A null move is tried at about
 * one node in five of the bench, so this saves that many evaluations. */
static inline int evaluate(SearchThread *t)
{
    const int knowledge = t->s->opt.knowledge;
    const uint64_t key = eval_cache_key(t->board.key, knowledge);
    int v;
    if (eval_cache_get(t, key, &v))
        return v;
    int parent;
    if (board_last_move(&t->board) == MOVE_NULL &&
        eval_cache_get(t, eval_cache_key(board_key_after_null(&t->board), knowledge), &parent) &&
        parent < SCORE_RULE_MIN - 1 && parent > -(SCORE_RULE_MIN - 1))
        v = below_rule_band(eval_other_side(parent, knowledge));
    else
        v = below_rule_band(eval_evaluate(&t->board, knowledge));
    eval_cache_put(t, key, v);
    return v;
}

/* ------------------------------------------------- eval correction */

/* The correction tables' indices: one table per board structure key (the
 * pawns, each side's guards, each side's attackers; see BOARD_STRUCT_PAWNS), and
 * one keyed by the move that led here (its piece and target square), which
 * learns how far the eval misjudges what such a move threatens. */
typedef struct CorrKeys {
    uint32_t idx[CORR_NB];
} CorrKeys;

static inline CorrKeys corr_keys(const Board *b)
{
    CorrKeys ck;
    for (int i = 0; i < BOARD_STRUCT_NB; i++)
        ck.idx[i] = (uint32_t)(b->struct_key[i] & (CORR_SIZE - 1));
    /* At the root of a game and after a null move there is no last move:
     * the empty-piece row takes those. */
    const Move last = board_last_move(b);
    ck.idx[CORR_LAST_MOVE] =
        last == MOVE_NONE || last == MOVE_NULL ? 0 : (uint32_t)(b->sq[move_to(last)] * SQ_NB + move_to(last));
    return ck;
}

/* The shrink factor at the natural limit, (R60_SPAN - past) / R60_SPAN, must
 * stay positive, or a winning eval would turn into a losing one. */
_Static_assert(R60_SPAN > BOARD_RULE60_PLIES - R60_FREE, "the natural-limit shrink must keep the eval's sign");

/* The static eval corrected by what the searches below similar structures
 * found, and shrunk toward the draw as the natural limit nears (R60_FREE);
 * kept out of the rule and mate bands like the raw eval. */
static int corrected_eval(const SearchThread *t, const CorrKeys *ck, int raw)
{
    const int side = t->board.side;
    int sum = 0;
    for (int i = 0; i < CORR_NB; i++)
        sum += t->tables.corr[side][i][ck->idx[i]];
    const int c = sum / (CORR_NB * CORR_GRAIN);
    /* A FEN may carry a counter past the limit (the rules judge it a draw
     * before any eval): the shrink stops at the limit's factor. */
    int past = board_rule60(&t->board) - R60_FREE;
    if (past > BOARD_RULE60_PLIES - R60_FREE)
        past = BOARD_RULE60_PLIES - R60_FREE;
    const int v = past > 0 ? (raw + c) * (R60_SPAN - past) / R60_SPAN : raw + c;
    return below_rule_band(v);
}

/* Moves both tables towards the error of the raw eval against a search
 * result, more for deeper searches. */
static void corr_update(SearchThread *t, const CorrKeys *ck, int raw, int result, int depth)
{
    const int side = t->board.side;
    int target = (result - raw) * CORR_GRAIN;
    if (target > CORR_MAX)
        target = CORR_MAX;
    if (target < -CORR_MAX)
        target = -CORR_MAX;
    const int w = depth + 1 < CORR_WEIGHT_MAX ? depth + 1 : CORR_WEIGHT_MAX;
    for (int i = 0; i < CORR_NB; i++) {
        int16_t *e = &t->tables.corr[side][i][ck->idx[i]];
        *e = (int16_t)((*e * (CORR_WEIGHT_SCALE - w) + target * w) / CORR_WEIGHT_SCALE);
    }
}

static bool is_decisive(int score) { return score >= SCORE_RULE_MIN || score <= -SCORE_RULE_MIN; }

/* The eval that the main search's pruning (Step 5, continued) and
 * quiescence's stand pat (its Step 5) compare: a searched bound (entry
 * depth >= 1) that lies beyond the eval on its own side (a lower bound
 * above, an upper bound below, or exact) says more than the eval does, so
 * it stands in for it, moved at most TT_EVAL_CAP. Draws and decisive
 * scores, which depend on the path in xiangqi, are left out, and so are
 * quiescence's own depth-0 bounds, which see only captures. */
static inline int bounded_eval(const Searcher *s, const TTEntry *te, bool hit, int eval)
{
    if (!hit || te->depth < 1 || te->score == 0 || is_decisive(te->score))
        return eval;
    if (!((te->bound == TT_BOUND_LOWER && te->score > eval) || (te->bound == TT_BOUND_UPPER && te->score < eval) ||
          te->bound == TT_BOUND_EXACT))
        return eval;
    const int cap = TUNED(s, TT_EVAL_CAP);
    if (te->score > eval + cap)
        return eval + cap;
    if (te->score < eval - cap)
        return eval - cap;
    return te->score;
}

/* Step 1 of every node: counts it and decides whether the search must stop.
 * Only the main thread watches the clock and the node limit; helpers follow
 * the shared stop flag. With one thread the node limit is exact, so a
 * "go nodes N" search is reproducible. */
static bool node_enter(SearchThread *t, int ply)
{
    Searcher *s = t->s;
    t->nodes++;
    if (ply > t->seldepth)
        t->seldepth = ply;
    if (t->stopped)
        return true;
    if (atomic_load_explicit(&s->stop, memory_order_relaxed)) {
        t->stopped = true;
        return true;
    }
    if (t->id != 0) {
        if ((t->nodes & (TM_CHECK_NODES - 1)) == 0)
            search_publish_nodes(t);
        return false;
    }
    if (s->limits.nodes && s->nthreads == 1 && t->nodes >= s->limits.nodes) {
        atomic_store(&s->stop, true);
        t->stopped = true;
        return true;
    }
    /* The end of a phase (see analysis_mate_search) stops this thread only. */
    if (t->phase_nodes && t->nodes >= t->phase_nodes) {
        t->stopped = true;
        return true;
    }
    if ((t->nodes & (TM_CHECK_NODES - 1)) == 0) {
        search_publish_nodes(t);
        if (t->phase_end_ms &&
            tm_now_ms() - atomic_load_explicit(&s->clock_start_ms, memory_order_relaxed) >= t->phase_end_ms) {
            t->stopped = true;
            return true;
        }
        bool stop = false;
        if (s->limits.nodes && s->nthreads > 1 && search_total_nodes(s) >= s->limits.nodes)
            stop = true;
        if (s->tm.timed && !atomic_load_explicit(&s->pondering, memory_order_relaxed)) {
            int64_t elapsed = tm_now_ms() - atomic_load_explicit(&s->clock_start_ms, memory_order_relaxed);
            if (elapsed >= s->tm.hard_ms)
                stop = true;
            /* A proven mate (prover helper) needs no more thought in a game. */
            if (!s->limits.infinite && atomic_load_explicit(&s->helper_proof_moves, memory_order_relaxed) > 0)
                stop = true;
        }
        if (stop) {
            atomic_store(&s->stop, true);
            t->stopped = true;
            return true;
        }
    }
    return false;
}

/* Step 2 of every non-root node: the rules. Returns true with *score set when
 * the position is decided: a repetition verdict (a first repetition inside
 * the tree counts; before the root the position needs two earlier
 * occurrences), the natural limit (unless the side to move has no legal
 * move: that is a loss), or bare material. These scores are never stored. */
/* A forced win by the repetition rules normally scores in its own band below
 * mates, so a game's score never shows it as "mate". In a mate search (go
 * mate N, chariot solve) and in analysis (go infinite) it scores like a mate
 * at that ply instead: that is how the mate puzzles were verified
 * (Fairy-Stockfish scores a perpetual-check loss as being mated), and a
 * defender that can only choose between being mated and losing by the rules
 * has no escape either way: under the Asian rules his perpetual check or
 * chase is forbidden, so he must play on into the mate. */
static int rule_win_score(const SearchThread *t)
{
    return t->s->limits.mate > 0 || t->s->limits.infinite ? SCORE_MATE : SCORE_RULE_WIN;
}

static bool rule_verdict(SearchThread *t, int ply, int *score)
{
    Board *b = &t->board;
    int r60 = board_rule60(b);
    /* A cycle needs at least four plies without a capture. */
    if (r60 >= 4) {
        switch (board_repetition(b, t->root_ply, 2)) {
        case REP_DRAW:
            *score = DRAW_SCORE;
            return true;
        case REP_WIN:
            *score = rule_win_score(t) - ply;
            return true;
        case REP_LOSS:
            *score = -(rule_win_score(t) - ply);
            return true;
        default:
            break;
        }
    }
    if (r60 >= BOARD_RULE60_PLIES) {
        *score = !board_has_legal_move(b) ? -(SCORE_MATE - ply) : DRAW_SCORE;
        return true;
    }
    if (board_insufficient_material(b)) {
        *score = DRAW_SCORE;
        return true;
    }
    return false;
}

/* Whether this search may stop to build a missing endgame table (about
 * 1.5 s for the largest). Not on a game clock, nor under a fixed time per
 * move, which some GUIs use for games: the move would come late. A mate
 * search, chariot solve (which gives its puzzles a movetime), and searches
 * limited by depth or nodes, or not at all, may. */
static bool tb_may_build(const SearchLimits *l)
{
    return !l->use_clock && (l->movetime_ms == 0 || l->mate > 0 || l->analysis);
}

/* The tables' line from this node, as its PV (at PV nodes only: the walk
 * costs a probe per move of each position on the line). */
static void tb_line(SearchThread *t, int ply, int plies)
{
    Board *b = &t->board;
    int n = 0;
    while (n < plies && ply + n < t->ply_limit) { /* the PV array and the board's history end there */
        Move m = egtb_best_move(t->s->egtb, b);
        if (m == MOVE_NONE)
            break;
        t->pv[ply][n++] = m;
        board_make(b, m);
    }
    for (int i = 0; i < n; i++)
        board_unmake(b);
    t->pv_len[ply] = n;
}

/* Step 2 (continued): the endgame tables. A position they cover (one rook,
 * horse or cannon against the guards, see eval/egtb.h) has its exact value.
 * A missing table is built in the searching thread when tb_may_build allows;
 * otherwise only tables an earlier search built are read. A win is taken
 * only when the natural limit cannot come first: the table knows nothing
 * of it. */
static bool tb_verdict(SearchThread *t, int ply, bool pv, int *score)
{
    Board *b = &t->board;
    /* A singular test asks about the node without one move: the table's
     * value may rest on that move. */
    if (!egtb_covers(b) || t->stack[ply].excluded != MOVE_NONE)
        return false;
    EgtbValue v;
    if (!egtb_probe(t->s->egtb, b, tb_may_build(&t->s->limits), &v))
        return false;
    if (v.wdl == EGTB_DRAW) {
        *score = DRAW_SCORE;
        return true;
    }
    if (board_rule60(b) + v.plies > BOARD_RULE60_PLIES || ply + v.plies >= MAX_PLY)
        return false;
    *score = v.wdl == EGTB_WIN ? SCORE_MATE - ply - v.plies : -(SCORE_MATE - ply - v.plies);
    if (pv)
        tb_line(t, ply, v.plies);
    return true;
}

static void update_pv(SearchThread *t, int ply, Move m)
{
    t->pv[ply][0] = m;
    int n = t->pv_len[ply + 1];
    if (n > MAX_PLY - 1 - ply)
        n = MAX_PLY - 1 - ply;
    memcpy(&t->pv[ply][1], t->pv[ply + 1], (size_t)n * sizeof(Move));
    t->pv_len[ply] = n + 1;
}

/* Gravity update: the entry moves by the bonus and decays towards zero in
 * proportion, so it stays within +-HISTORY_MAX (and so within int16). */
static int gravity(int h, int bonus)
{
    int abs_bonus = bonus < 0 ? -bonus : bonus;
    return h + bonus - h * abs_bonus / HISTORY_MAX;
}

static void history_add(int *h, int bonus) { *h = gravity(*h, bonus); }
static void hist16_add(int16_t *h, int bonus) { *h = (int16_t)gravity(*h, bonus); }

/* The bonus of a cutoff at this depth, for every history table alike. The
 * moves tried before the best move lose a percentage of it: captures
 * CAPTURE_MALUS_PCT (update_capture_stats), quiet moves QUIET_MALUS_PCT
 * (quiet_malus). */
static int history_bonus(int depth)
{
    int bonus = depth * depth + HISTORY_BONUS_LINEAR * depth;
    return bonus > HISTORY_BONUS_MAX ? HISTORY_BONUS_MAX : bonus;
}

/* A beta cutoff, or an exact best move (Step 10f), teaches the capture
 * history: that move, when it is a capture, gains; every capture tried
 * before it loses CAPTURE_MALUS_PCT percent of that bonus, whatever the best
 * move was (they were ordered first and did worse). */
static void update_capture_stats(SearchThread *t, Move best, int depth, const Move *captures, int ncaptures)
{
    const Board *b = &t->board;
    const int bonus = history_bonus(depth);
    const int malus = bonus * CAPTURE_MALUS_PCT / 100;
    if (board_is_capture(b, best))
        hist16_add(search_capt_hist(t, b, best), bonus);
    for (int i = 0; i < ncaptures; i++)
        hist16_add(search_capt_hist(t, b, captures[i]), -malus);
}

/* Adds delta to every table movepick_quiet_stat sums for the quiet move m
 * (not yet made): the piece-to and from-to histories and the continuation
 * tables c1 and c2. The bonus and the malus share it, so the tables the
 * order reads and the tables that learn cannot drift apart. */
static void quiet_history_add(SearchThread *t, ContHist *c1, ContHist *c2, Move m, int delta)
{
    const int from = move_from(m), to = move_to(m), pc = t->board.sq[from];
    history_add(&t->tables.history[pc][to], delta);
    hist16_add(&t->tables.from_to[piece_color(pc)][from][to], delta);
    hist16_add(&c1[0][pc][to], delta);
    hist16_add(&c2[0][pc][to], delta);
}

/* The quiet moves searched before the best move, quiet or capture, of a
 * beta cutoff or an exact score (Step 10f) failed to reach its score: a
 * history malus on each, in every quiet history table. */
static void quiet_malus(SearchThread *t, int ply, int depth, const Move *quiets, int nquiets)
{
    /* The malus is QUIET_MALUS_PCT percent of the best move's bonus. */
    const int malus = history_bonus(depth) * QUIET_MALUS_PCT / 100;
    ContHist *c1 = search_cont_back(t, ply, 1), *c2 = search_cont_back(t, ply, 2);
    for (int i = 0; i < nquiets; i++)
        quiet_history_add(t, c1, c2, quiets[i], -malus);
}

/* A quiet move caused a beta cutoff, or was the exact best move (Step 10f):
 * killers, counter move and the history bonus (the quiet moves tried
 * before it get quiet_malus, whatever the best move). */
static void update_quiet_stats(SearchThread *t, int ply, Move m, int depth)
{
    const Board *b = &t->board;
    StackEntry *ss = &t->stack[ply];
    if (ss->killers[0] != m) {
        ss->killers[1] = ss->killers[0];
        ss->killers[0] = m;
    }
    quiet_history_add(t, search_cont_back(t, ply, 1), search_cont_back(t, ply, 2), m, history_bonus(depth));
    Move last = board_last_move(b);
    if (USE_COUNTER_MOVE && last != MOVE_NONE && last != MOVE_NULL)
        t->tables.counter[b->sq[move_to(last)]][move_to(last)] = m;
}

/* ------------------------------------------------------------- quiescence */

/* Steps 1-3 of every node, in search_node and qsearch alike (never at the
 * root, which has its own loop). Returns true when the node is decided, with
 * its score in *score:
 * Step 1. Count the node; stop if asked.
 * Step 2. Rules: repetition verdicts, natural limit, bare material; and the
 *         ply limit.
 * Step 3. Mate-distance pruning, which narrows *alpha and *beta. */
static bool node_prologue(SearchThread *t, int ply, int *alpha, int *beta, int *score)
{
    t->pv_len[ply] = 0;
    if (node_enter(t, ply)) {
        *score = 0;
        return true;
    }
    if (rule_verdict(t, ply, score) || tb_verdict(t, ply, *beta - *alpha > 1, score))
        return true;
    if (ply >= t->ply_limit) {
        *score = evaluate(t);
        return true;
    }
    if (*alpha < -(SCORE_MATE - ply))
        *alpha = -(SCORE_MATE - ply);
    if (*beta > SCORE_MATE - ply - 1)
        *beta = SCORE_MATE - ply - 1;
    if (*alpha >= *beta) {
        *score = *alpha;
        return true;
    }
    return false;
}

/* One quiescence child, a capture or a quiet check: searched and folded
 * into best, alpha and best_move. True on a beta cutoff; the caller checks
 * t->stopped. */
static inline bool qs_child(SearchThread *t, Move m, int ply, int qply, int *alpha, int beta, int *best,
                            Move *best_move)
{
    Board *b = &t->board;
    board_make(b, m);
    int v = -qsearch(t, -beta, -*alpha, ply + 1, qply + 1);
    board_unmake(b);
    if (t->stopped || v <= *best)
        return false;
    *best = v;
    if (v <= *alpha)
        return false;
    *best_move = m;
    if (v >= beta)
        return true;
    *alpha = v;
    return false;
}

/* Quiescence: stand pat on the static eval (or a searched bound beyond it,
 * bounded_eval), then captures in MVV-LVA order; a capture is skipped when
 * the stand-pat score + EGain + QS_DELTA cannot reach alpha, EGain being its
 * SEE gain, at every quiescence ply (sparing the first ply, or checking
 * captures, cost depth and did not gain).
 * So a capture that mates is seen here only if material lets it through;
 * the full-width plies above see the rest. In check there is no stand pat;
 * every evasion is searched until one shows the node is no loss, and after
 * that the quiet evasions that lose their piece by SEE are skipped (Step 6).
 * qply counts the quiescence plies from the
 * horizon (0 there): the first QS_CHECK_PLIES of them also search quiet
 * checks (Step 6b). */
static int qsearch(SearchThread *t, int alpha, int beta, int ply, int qply)
{
    Board *b = &t->board;

    /* Steps 1-3 (quiet evasions can repeat a position, so the rules apply
     * here too). */
    int decided;
    if (node_prologue(t, ply, &alpha, &beta, &decided))
        return decided;
    bool in_check = board_in_check(b);
    const bool pv = beta - alpha > 1;
    const int orig_alpha = alpha;

    /* Step 4. Transposition table: any stored bound cuts at non-PV nodes
     * (every main-search depth is at least the quiescence depth 0), and the
     * stored move is tried first. */
    TTEntry te;
    Searcher *s = t->s;
    bool hit = tt_probe(&s->tt, b->key, ply, &te);
    if (hit && !pv && te.bound != TT_BOUND_NONE) {
        if (te.bound == TT_BOUND_EXACT || (te.bound == TT_BOUND_LOWER && te.score >= beta) ||
            (te.bound == TT_BOUND_UPPER && te.score <= alpha))
            return te.score;
    }

    /* Step 5. Stand pat (the raw eval is cached in the TT, the correction
     * is applied on top). */
    int best = -SCORE_INF, stand = EVAL_NONE, raw = EVAL_NONE;
    if (!in_check) {
        raw = hit && te.eval != EVAL_NONE ? te.eval : evaluate(t);
        const CorrKeys ck = corr_keys(b);
        /* A searched bound beyond the eval stands in for it, as in the
         * main search's pruning eval (not when datagen asks whether
         * captures change the eval itself). */
        stand = corrected_eval(t, &ck, raw);
        if (!t->static_stand_pat)
            stand = bounded_eval(t->s, &te, hit, stand);
        if (stand >= beta) {
            if (!hit)
                tt_store(&s->tt, b->key, ply, MOVE_NONE, stand, raw, 0, TT_BOUND_LOWER, 0);
            return stand;
        }
        if (stand > alpha)
            alpha = stand;
        best = stand;
    }

    /* Step 6. Captures (or evasions), the TT move first when it is one. */
    MovePicker mp;
    movepick_init_qs(&mp, b, t, hit ? te.move : MOVE_NONE);
    int moves = 0;
    Move m, best_move = MOVE_NONE;
    const int qs_delta = TUNED(t->s, QS_DELTA);
    while ((m = movepick_next(&mp)) != MOVE_NONE) {
        moves++;
        if (!in_check) {
            /* EGain bound. The victim's value bounds the SEE gain, so the
             * exchange is only computed when that bound does not prune. */
            int bound = stand + BOARD_SEE_VALUE[piece_type(b->sq[move_to(m)])] + qs_delta;
            if (bound <= alpha) {
                if (bound > best)
                    best = bound;
                /* After the hash move, captures come mostly by victim value,
                 * most valuable first, so the ones left would mostly be
                 * pruned too. Not always: the capture history can lift a
                 * lesser victim above a greater one (by up to 1024 points of
                 * victim value), and the loop then stops before a capture
                 * it would have searched. Searching on measured neutral for
                 * more nodes, so the stop stays. */
                if (m != mp.tt_move)
                    break;
                continue;
            }
            /* The exchange only matters when its floor could prune. */
            if (stand + board_see_floor(b, m) + qs_delta <= alpha) {
                bound = stand + board_see(b, m) + qs_delta;
                if (bound <= alpha) {
                    if (bound > best)
                        best = bound;
                    continue;
                }
            }
        } else if (best > -SCORE_RULE_MIN && m != mp.tt_move && !board_is_capture(b, m) && !board_see_ge(b, m, 0)) {
            /* In check, once an evasion has shown the node is no loss, a
             * quiet evasion that gives its piece away is not searched:
             * the better evasions come first (captures, then history). */
            continue;
        }
        /* The picker prefetched the child buckets of the moves it
         * generated; only the hash move came before that. */
        if (m == mp.tt_move)
            tt_prefetch(&s->tt, board_key_after(b, m));
        if (qs_child(t, m, ply, qply, &alpha, beta, &best, &best_move))
            break;
        if (t->stopped)
            return 0;
    }

    /* Step 6b. Quiet checks, on the first quiescence plies only: a check
     * the captures miss (a cannon or horse that comes round to the general)
     * often decides a xiangqi position, and the reply is an evasion, so
     * the tree stays small. A check that loses its piece by SEE is left out. */
    if (!in_check && qply < QS_CHECK_PLIES && best < beta && !t->stopped) {
        MoveList checks;
        /* Legality is tested last: the SEE test drops many checks first. */
        board_generate(b, GEN_QUIET_CHECKS_PSEUDO, &checks);
        for (int i = 0; i < checks.count; i++) {
            m = checks.moves[i];
            if (!board_see_ge(b, m, 0) || !board_is_legal(b, m))
                continue;
            if (qs_child(t, m, ply, qply, &alpha, beta, &best, &best_move))
                break;
            if (t->stopped)
                return 0;
        }
    }

    /* Step 7. No legal move in check: mated. */
    if (in_check && moves == 0)
        return -(SCORE_MATE - ply);

    /* Step 8. Store at depth 0. A fail-low that pruned captures by the
     * EGain bound is still an upper bound: those captures were bounded. */
    int bound = best >= beta ? TT_BOUND_LOWER : best > orig_alpha ? TT_BOUND_EXACT : TT_BOUND_UPPER;
    tt_store(&s->tt, b->key, ply, best_move, best, raw, 0, bound, 0);
    return best;
}

/* ------------------------------------------------------------- null move */

/* Step 8. Null move, the ElephantEye way, all in one place:
 *  (1) never at the root or a PV node, in check, right after a null move,
 *      inside a verification search or a singular-extension search (Step
 *      10c), or when only a win can pass beta;
 *  (2) NullMoveOkay: own attacking material > NULL_OKAY_MARGIN;
 *  (3) eval gate: only if depth - R - 1 <= 0 or static eval >= beta, where
 *      R = NULL_REDUCTION(depth) = NULL_R + depth / NULL_R_DEPTH_DIV;
 *  (4) null search at depth - R - 1 with a zero window;
 *  (5) on a fail-high cut at once if NullMoveSafe (material > NULL_SAFE_MARGIN)
 *      or depth <= R, else verify at depth - R without null moves and cut
 *      only if that fails high too;
 *  (6) "mated next" after passing sets the mate-threat flag (no pruning or
 *      reductions at this node then);
 *  (7) the TT entry of a null cut has no move and is flagged, so it never
 *      cuts inside a verification search;
 *  (8) SearchStats counts tries, cuts, verifications and their failures.
 * Returns true when the node is cut, with the score in r->result. */
static bool null_step(SearchThread *t, int alpha, int beta, int depth, int ply, int flags, int static_eval,
                      int raw_eval, bool in_check, NullStepReport *r)
{
    Board *b = &t->board;
    Searcher *s = t->s;
    int us = b->side;
    memset(r, 0, sizeof *r);

    /* (1) */
    if (!s->opt.null_move || ply == 0 || beta - alpha > 1 || in_check || board_last_move(b) == MOVE_NULL ||
        (flags & NODE_VERIFY) || t->stack[ply].excluded != MOVE_NONE || beta >= SCORE_RULE_MIN)
        return false;
    /* (2) */
    if (b->material[us] <= NULL_OKAY_MARGIN)
        return false;
    /* (3) R is NULL_R plus a ply per NULL_R_DEPTH_DIV of depth: deep nodes
     * can afford a shallower refutation (~40 Elo). */
    const int R = NULL_REDUCTION(depth);
    if (!(depth - R - 1 <= 0 || static_eval >= beta))
        return false;

    /* (4) */
    r->tried = true;
    t->stats.null_tried++;
    t->stack[ply].move = MOVE_NULL;
    t->stack[ply].cont = NULL;
    board_make_null(b);
    int v = -search_depth(t, -beta, -beta + 1, depth - R - 1, ply + 1, flags);
    board_unmake_null(b);
    r->null_score = v;
    if (t->stopped)
        return false;

    if (v >= beta) {
        /* (5) A pass proves no win, so a decisive score becomes beta. */
        if (v >= SCORE_RULE_MIN)
            v = beta;
        if (b->material[us] <= NULL_SAFE_MARGIN && depth > R) {
            r->verified = true;
            t->stats.null_verifications++;
            const int trend = t->stack[ply].trend_eval;
            int vv = search_depth(t, beta - 1, beta, depth - R, ply, flags | NODE_VERIFY);
            /* The verification search at this ply wrote its own. */
            t->stack[ply].trend_eval = trend;
            if (t->stopped)
                return false;
            if (vv < beta) {
                r->verify_failed = true;
                t->stats.null_verify_failures++;
                return false;
            }
        }
        r->cutoff = true;
        r->result = v;
        t->stats.null_cutoffs++;
        /* (7) */
        tt_store(&s->tt, b->key, ply, MOVE_NONE, v, raw_eval, depth, TT_BOUND_LOWER, TT_NULL_CUT);
        return true;
    }

    /* (6) After a pass the fastest mate is on the opponent's move: ply + 2. */
    if (v == -(SCORE_MATE - (ply + 2))) {
        r->mate_threat = true;
        t->stats.null_mate_threats++;
    }
    return false;
}

/* ------------------------------------------------------------- main search */

/* Whether m gives check, computed at most once per move (*cache starts at
 * -1): several pruning rules ask, and most moves never get that far. The
 * node's check filter answers most moves without the full test. */
static bool gives_check_once(const Board *b, const BoardCheckFilter *cf, Move m, int *cache)
{
    if (*cache < 0)
        *cache = board_may_give_check(cf, m) && board_gives_check(b, m);
    return *cache;
}

/* Step 10c's singular test: is the hash move (te->move) the only good move
 * here? The other moves are searched at half depth with a zero window just
 * below the hash move's stored score. If all fail low, the hash move is
 * singular and is extended a ply. If they reach beta too, several moves
 * cut: the node returns at once with that lowered bound, *cut_score
 * (multi-cut, SINGULAR_MULTI_CUT). If they only reach the lowered bound
 * while the hash move's score is at least beta, the hash move is not
 * special and is searched a ply shallower. */
enum { SINGULAR_MULTI_CUT = 2 };
static int singular_step(SearchThread *t, const TTEntry *te, int beta, int depth, int ply, int flags,
                         int *cut_score)
{
    const int singular_beta = te->score - SE_MARGIN * depth;
    const int trend = t->stack[ply].trend_eval;
    t->stack[ply].excluded = te->move;
    int v = search_depth(t, singular_beta - 1, singular_beta, (depth - 1) / 2, ply, flags);
    t->stack[ply].excluded = MOVE_NONE;
    /* The inner search at this ply wrote its own trend eval. */
    t->stack[ply].trend_eval = trend;
    if (t->stopped)
        return 0;
    if (v < singular_beta)
        return 1;
    if (singular_beta >= beta) {
        *cut_score = singular_beta;
        return SINGULAR_MULTI_CUT;
    }
    return te->score >= beta ? -1 : 0;
}

/* The base late-move reduction of the n-th move at this depth (the table
 * stops growing at 63 on both axes). */
static inline int lmr_base(const Searcher *s, int depth, int n)
{
    return s->lmr[depth < 63 ? depth : 63][n < 63 ? n : 63];
}

/* The depth a late quiet move would be searched at after its base
 * reduction: futility and SEE pruning judge a move by it, so that the
 * moves LMR would reduce most are the first to go. */
static inline int lmr_depth(const Searcher *s, int depth, int moves)
{
    int ld = depth - 1 - lmr_base(s, depth, moves);
    return ld > 0 ? ld : 0;
}

/* Step 10a's test: a quiet move at this lmr depth cannot lift the pruning
 * eval (Step 5) to alpha. As the move number rises the lmr depth can only
 * fall, so once true it stays true. */
static inline bool futile(const Searcher *s, int ld, int prune_eval, int alpha)
{
    return ld <= FUTILITY_DEPTH && prune_eval + TUNED(s, FUTILITY_BASE) + TUNED(s, FUTILITY_MARGIN) * ld <= alpha;
}

static int search_node(SearchThread *t, int alpha, int beta, int depth, int ply, int flags)
{
    Board *b = &t->board;
    Searcher *s = t->s;
    const bool pv = beta - alpha > 1;

    /* Step 0 (search_depth) sent the nodes at the horizon to quiescence. */

    /* Steps 1-3. */
    int decided;
    if (node_prologue(t, ply, &alpha, &beta, &decided))
        return decided;
    const bool in_check = board_in_check(b);
    /* The killers two plies down were left by whatever subtree was searched
     * there last, often a sibling's: clear them, so this node's grandchildren
     * start from what refutes moves in its own subtree. */
    t->stack[ply + 2].killers[0] = t->stack[ply + 2].killers[1] = MOVE_NONE;

    /* Step 4. Transposition table: cut at non-PV nodes. Entries from null
     * cuts never cut inside a verification search (rule 7 of Step 8). */
    TTEntry te;
    bool hit = tt_probe(&s->tt, b->key, ply, &te);
    Move tt_move = hit ? te.move : MOVE_NONE;
    /* A PV node, or one that was: its late moves get less reduction. */
    const bool tt_pv = pv || (hit && te.pv);
    /* A singular-extension search (Step 10c) asks about this position
     * without one move: the entry's bound is not about that question. */
    const Move excluded = t->stack[ply].excluded;
    if (excluded == MOVE_NONE && hit && !pv && te.bound != TT_BOUND_NONE && te.depth >= depth &&
        !(te.null_cut && (flags & NODE_VERIFY))) {
        if (te.bound == TT_BOUND_EXACT || (te.bound == TT_BOUND_LOWER && te.score >= beta) ||
            (te.bound == TT_BOUND_UPPER && te.score <= alpha))
            return te.score;
    }
    /* The children most likely searched first are the hash move's and, at
     * a non-PV node, the null move's: start loading their buckets now, so
     * that the evaluation below overlaps the memory latency. A hash move
     * may be another position's (a key collision): only its squares need
     * to be on the board for its key to be computed. */
    if (tt_move != MOVE_NONE && move_from(tt_move) < SQ_NB && move_to(tt_move) < SQ_NB)
        tt_prefetch(&s->tt, board_key_after(b, tt_move));
    if (!pv && !in_check)
        tt_prefetch(&s->tt, board_key_after_null(b));

    /* Step 5. Static evaluation: the raw eval is cached in the TT, and the
     * correction history adjusts it for what searches of similar
     * structures found. */
    int static_eval = -SCORE_INF, raw_eval = EVAL_NONE;
    CorrKeys ck = {{0}};
    if (!in_check) {
        raw_eval = hit && te.eval != EVAL_NONE ? te.eval : evaluate(t);
        ck = corr_keys(b);
        static_eval = corrected_eval(t, &ck, raw_eval);
    }
    const int pruning = s->opt.pruning;
    /* Step 5 (continued). The pruning eval (bounded_eval): the static eval,
     * or a searched bound beyond it. */
    const int prune_eval = in_check ? static_eval : bounded_eval(s, &te, hit, static_eval);
    t->stack[ply].trend_eval = prune_eval;

    /* Step 6. No razoring: it measured worse and was removed; the step
     * number stays so that later steps keep their names. */

    /* Step 6b. Hindsight depth: the parent reduced this node by a guess;
     * the two static evals now say whether the guess was right. */
    const int prior_r = t->stack[ply - 1].reduction;
    if (!in_check && excluded == MOVE_NONE && !(flags & NODE_VERIFY) && prior_r >= HINDSIGHT_REDUCE_R &&
        t->stack[ply - 1].trend_eval != -SCORE_INF) {
        const int parent_eval = t->stack[ply - 1].trend_eval;
        if (prior_r >= HINDSIGHT_EXTEND_R && prune_eval <= -parent_eval)
            depth++;
        else if (depth >= 2 && prune_eval + parent_eval > TUNED(s, HINDSIGHT_MARGIN))
            depth--;
    }

    /* Step 7. Reverse futility: far above beta near the horizon, stand. It is
     * a static pass, so it is off inside a null-move verification search,
     * whose whole point is to catch positions where passing is not possible.
     * Improving (the pruning eval rose since our previous move; a node in
     * check two plies up counts as improving) takes a ply off the margin. */
    const bool improving = !in_check && (ply < 2 || t->stack[ply - 2].trend_eval == -SCORE_INF ||
                                         prune_eval > t->stack[ply - 2].trend_eval);
    if (pruning >= 2 && !pv && !in_check && !(flags & NODE_VERIFY) && depth <= RFP_DEPTH && !is_decisive(beta) &&
        prune_eval - TUNED(s, RFP_MARGIN) * (depth - (improving ? 1 : 0)) >= beta)
        return prune_eval;

    /* Step 8. Null move (see null_step). */
    NullStepReport nr;
    if (null_step(t, alpha, beta, depth, ply, flags, static_eval, raw_eval, in_check, &nr))
        return nr.result;
    if (t->stopped)
        return 0;
    const bool mate_threat = nr.mate_threat;

    /* Step 9. Internal iterative reduction: a node without a hash move at
     * depth >= IIR_DEPTH is searched a ply shallower. Without a move to try
     * first it is likely a node nobody searched before, and the shallower
     * search fills the TT for the next iteration more cheaply than an
     * internal deepening search would. */
    if (tt_move == MOVE_NONE && depth >= IIR_DEPTH)
        depth--;

    /* Step 10. The moves. */
    MovePicker mp;
    /* In check the legal moves are listed once: their count decides the
     * single-reply extension, and the move picker reuses the list. */
    MoveList evasions;
    if (in_check)
        board_generate(b, GEN_ALL, &evasions);
    movepick_init(&mp, b, t, tt_move, ply, in_check ? &evasions : NULL);
    const bool single_reply = in_check && evasions.count == 1;
    const bool tt_capture = mp.tt_move != MOVE_NONE && board_is_capture(b, mp.tt_move);
    const bool can_extend = ply < EXTENSION_PLY_FACTOR * t->root_depth;
    /* Steps 10a-10b never prune at PV nodes, in check or under a mate
     * threat; per move they also wait for a non-losing move in hand and,
     * in games, a non-mate alpha, so mate scores stay exact. Mate searches
     * and analysis prune at mate-score bounds too, so that a found mate does
     * not stop the pruning in every line that holds it and hide the shorter
     * one. That cannot report a false mate: a node prunes only once it holds
     * a non-losing move, and an attacker that prunes can only miss a mate. */
    const bool may_prune = pruning >= 2 && !pv && !in_check && !mate_threat;
    /* Steps 10a-10b ask whether moves give check (gives_check_once). */
    BoardCheckFilter check_filter;
    if (may_prune)
        board_check_filter(b, &check_filter);
    const bool prune_at_mate_bounds = s->limits.mate > 0 || s->limits.infinite;
    const int lmp_moves = (TUNED(s, LMP_BASE) + depth * depth) / (improving ? 1 : 2);
    const int orig_alpha = alpha;
    int best = -SCORE_INF, moves = 0, searched = 0, nquiets = 0;
    Move best_move = MOVE_NONE, m;
    Move quiets[64], captures[32];
    int ncaptures = 0, nquiets_before_best = 0, ncaptures_before_best = 0;
    bool quiet_skip_tried = false;
    t->pv_len[ply] = 0;

    for (;;) {
        /* Step 10a-10b, wholesale: once futility or late-move pruning
         * holds for the next move, it holds for every later quiet move
         * until one is searched (alpha, best and the move count only move
         * towards more pruning meanwhile). If no quiet move left gives
         * check, all of them would be pruned in turn, so the picker drops
         * them without listing them: the same moves are searched, in the
         * same order. The count of moves then falls short by the dropped
         * ones, which is harmless: past this point it is read only by the
         * quiet moves' pruning (none are left) and by Step 11's "no move"
         * test (a move was searched). */
        if (!quiet_skip_tried && may_prune && searched > 0 && best > -SCORE_RULE_MIN &&
            (prune_at_mate_bounds || !is_decisive(alpha)) &&
            (futile(s, lmr_depth(s, depth, moves + 1), prune_eval, alpha) ||
             (depth <= LMP_DEPTH && moves + 1 > lmp_moves))) {
            quiet_skip_tried = movepick_skip_quiets(&mp) != SKIP_NOT_AT_QUIETS;
        }
        /* After SKIP_QUIET_CHECK the picker passes over the quiet moves
         * that give no check, which Steps 10a-10b would prune one by one
         * (futility or late-move pruning held for the next move, and keeps
         * holding: see above), and counts them as looked at. Only a
         * decisive alpha, after a searched move, can end that pruning;
         * then the picker returns them all again. */
        if (quiet_skip_tried && !prune_at_mate_bounds && is_decisive(alpha))
            movepick_resume_quiets(&mp);
        m = movepick_next(&mp);
        moves += movepick_take_skipped(&mp);
        if (m == MOVE_NONE)
            break;
        if (m == excluded)
            continue;
        /* The child's bucket is a cache miss most of the time: start loading
         * it now, so the pruning tests below overlap the memory latency.
         * Captures had theirs prefetched by the picker as it generated
         * them (and the hash move's after the probe). */
        const bool quiet = !board_is_capture(b, m);
        if (quiet)
            tt_prefetch(&s->tt, board_key_after(b, m));
        const bool special = m == mp.killers[0] || m == mp.killers[1] || m == mp.counter;
        moves++;

        if (may_prune && searched > 0 && best > -SCORE_RULE_MIN && !special &&
            (prune_at_mate_bounds || !is_decisive(alpha))) {
            int checks = -1; /* gives_check_once's cache */
            int ld = quiet ? lmr_depth(s, depth, moves) : depth;
            /* A quiet move the histories call bad is judged as if it came
             * later still: wherever it was tried lately, after these last
             * moves or from this square, it mostly failed. */
            const int stat = quiet ? movepick_quiet_stat(&mp, b->sq[move_from(m)], move_from(m), move_to(m)) : 0;
            if (stat < 0) {
                ld += stat / FUTILITY_HISTORY_DIV;
                if (ld < 0)
                    ld = 0;
            }
            /* Step 10a. Futility: a quiet, non-checking move cannot lift a
             * hopeless node. */
            if (quiet && futile(s, ld, prune_eval, alpha) && !gives_check_once(b, &check_filter, m, &checks))
                continue;
            /* Step 10b. Late-move and SEE pruning near the horizon (~45 Elo
             * with the LMR changes of Step 10d). */
            if (quiet && depth <= LMP_DEPTH && moves > lmp_moves &&
                !gives_check_once(b, &check_filter, m, &checks))
                continue;
            const int see_margin = quiet ? TUNED(s, SEE_QUIET_MARGIN) * ld * ld : TUNED(s, SEE_CAPTURE_MARGIN) * depth;
            if (ld <= SEE_PRUNE_DEPTH && !board_see_ge(b, m, -see_margin) &&
                !gives_check_once(b, &check_filter, m, &checks))
                continue;
        }

        /* Step 10c (first part). Singular extension of the hash move
         * (singular_step). It searches this same position without the hash
         * move, so it runs before the move is made. A verdict, either way,
         * replaces the check and single-reply extensions below. A multi-cut
         * returns the lowered bound: the other moves proved at least that
         * much, while the hash move's own score came from another search. */
        int singular_ext = 0, multi_cut_score;
        if (can_extend && m == mp.tt_move && excluded == MOVE_NONE && depth >= SE_DEPTH && hit &&
            (te.bound == TT_BOUND_LOWER || te.bound == TT_BOUND_EXACT) && te.depth >= depth - SE_TT_DEPTH_MARGIN &&
            !is_decisive(te.score)) {
            singular_ext = singular_step(t, &te, beta, depth, ply, flags, &multi_cut_score);
            if (t->stopped)
                return 0;
            if (singular_ext == SINGULAR_MULTI_CUT)
                return multi_cut_score;
        }

        t->stack[ply].move = m;
        t->stack[ply].cont = search_cont_of(t, b, m);
        board_make(b, m);
        const bool gives_check = board_in_check(b);

        /* Step 10c (second part). Extensions: single replies, and checks
         * that do not simply lose the checking piece (by SEE, read off the
         * board after the move). */
        bool extend = can_extend && single_reply;
        if (can_extend && !extend && gives_check)
            extend = board_see_ge_made(b, 0);
        int new_depth = depth - 1 + (singular_ext != 0 ? singular_ext : extend ? 1 : 0);

        int v;
        if (searched == 0) {
            v = -search_depth(t, -beta, -alpha, new_depth, ply + 1, flags);
        } else {
            /* Step 10d. Late-move reductions for every late move that was
             * not extended (a capture that keeps its material a ply less):
             * more when the eval is not improving, less (more) for a good
             * (bad) history, less at a node that is or was on a PV: the
             * lines a search once found best keep coming back as the best
             * ones. */
            int r = 0;
            if (pruning >= 1 && depth >= LMR_MIN_DEPTH && searched >= LMR_MIN_MOVES && !in_check &&
                !extend && !mate_threat) {
                r = lmr_base(s, depth, searched);
                /* A good capture (the picker's: no SEE loss beyond what
                 * its capture history excuses) keeps a ply of its
                 * reduction back: it changes the material balance. */
                if (!quiet && !movepick_losing_capture(&mp))
                    r -= LMR_GOOD_CAPTURE_BONUS;
                if (tt_pv)
                    r--;
                if (special)
                    r--;
                if (!improving)
                    r++;
                /* A capture as the hash move: the node's best hope is
                 * tactical, so the quiet moves after it are less likely to
                 * matter. */
                if (tt_capture && quiet)
                    r++;
                /* The history term, for quiet moves only (captures have no
                 * history here), and a ply for a threat escaped or walked
                 * into (THREAT_ORDER_ROOK). The move is made: its piece now
                 * stands on move_to(m). */
                if (quiet)
                    r -= movepick_quiet_stat(&mp, b->sq[move_to(m)], move_from(m), move_to(m)) /
                             (2 * TUNED(s, LMR_HISTORY_DIV)) +
                         movepick_threat_sign(&mp, b->sq[move_to(m)], m);
                if (r > new_depth - 1)
                    r = new_depth - 1;
                if (r < 0)
                    r = 0;
            }
            /* Step 10e. PVS: zero window first, re-search when it may be better. */
            t->stack[ply].reduction = r;
            v = -search_depth(t, -alpha - 1, -alpha, new_depth - r, ply + 1, flags);
            t->stack[ply].reduction = 0;
            if (r > 0 && v > alpha && !t->stopped)
                v = -search_depth(t, -alpha - 1, -alpha, new_depth, ply + 1, flags);
            if (pv && v > alpha && v < beta && !t->stopped)
                v = -search_depth(t, -beta, -alpha, new_depth, ply + 1, flags);
        }
        board_unmake(b);
        if (t->stopped)
            return 0;
        searched++;

        if (v > best) {
            best = v;
            if (v > alpha) {
                best_move = m;
                nquiets_before_best = nquiets;
                ncaptures_before_best = ncaptures;
                if (pv)
                    update_pv(t, ply, m);
                if (v >= beta)
                    break;
                alpha = v;
            }
        }
        if (quiet && nquiets < 64)
            quiets[nquiets++] = m;
        else if (!quiet && ncaptures < 32)
            captures[ncaptures++] = m;
    }

    /* Step 10f. The best move teaches the tables, and the moves tried
     * before it are penalised: always after a beta cutoff, and also after
     * an exact score at a PV node (a best move that raised alpha without a
     * cutoff), since it is the move this node's search found best. A
     * singular-extension search (Step 10c) teaches only by its cutoffs: its
     * exact scores answer a question about one move left out. */
    if (best_move != MOVE_NONE && (best >= beta || excluded == MOVE_NONE)) {
        if (!board_is_capture(b, best_move))
            update_quiet_stats(t, ply, best_move, depth);
        /* The quiets before a capture best move too: that is mostly a
         * losing capture, which the picker tries after them, so they failed
         * to reach its score as surely as under a quiet best move. */
        quiet_malus(t, ply, depth, quiets, nquiets_before_best);
        update_capture_stats(t, best_move, depth, captures, ncaptures_before_best);
    }

    /* Step 11. No legal move: a loss, checkmate or stalemate alike. */
    if (moves == 0)
        return excluded != MOVE_NONE ? alpha : -(SCORE_MATE - ply);
    /* A search without one move answers Step 10c's question only; its
     * result is no bound on the position, for the table or for the
     * correction history. */
    if (excluded != MOVE_NONE)
        return best;

    /* Step 12. Store (rule-band scores are kept as move only by tt_store). */
    int bound = best >= beta ? TT_BOUND_LOWER : best > orig_alpha ? TT_BOUND_EXACT : TT_BOUND_UPPER;
    tt_store(&s->tt, b->key, ply, best_move, best, raw_eval, depth, bound, tt_pv ? TT_PV : 0);

    /* Step 13. Correction history: a result the static eval could not
     * foresee (not a capture's gain, not a mate or rule score, and a bound
     * on the side the eval was wrong) teaches the correction tables. */
    if (!in_check && (best_move == MOVE_NONE || !board_is_capture(b, best_move)) && !is_decisive(best) &&
        !(bound == TT_BOUND_LOWER && best <= static_eval) && !(bound == TT_BOUND_UPPER && best >= static_eval))
        corr_update(t, &ck, raw_eval, best, depth);
    return best;
}

/* ------------------------------------------------------------- root */

static int root_noise(const Searcher *s, Move m)
{
    static const int amp_table[4] = RANDOMNESS_AMPLITUDE;
    int level = s->opt.randomness;
    int amp = level > 0 ? amp_table[level > 3 ? 3 : level] : 0;
    /* A weaker skill level adds its own noise: its mistakes are choices of
     * a worse move, not random blunders in the tree. */
    if (s->opt.skill < SKILL_MAX)
        amp += SKILL_NOISE_CP * (SKILL_MAX - s->opt.skill) / SKILL_MAX;
    if (amp <= 0)
        return 0;
    uint64_t x = s->opt.random_seed ^ s->root.key ^ ((uint64_t)m * 0x9E3779B97F4A7C15ull);
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    x ^= x >> 33;
    return (int)(x % (uint64_t)(2 * amp + 1)) - amp;
}

static void report_currmove(SearchThread *t, Move m, int number, int depth)
{
    Searcher *s = t->s;
    if (t->id != 0 || !s->cb.on_currmove)
        return;
    int64_t now = tm_now_ms();
    if (now - s->search_start_ms < CURRMOVE_DELAY_MS || now - s->last_currmove_ms < CURRMOVE_INTERVAL_MS)
        return;
    s->last_currmove_ms = now;
    s->cb.on_currmove(s->cb.ctx, m, number, depth);
}

/* The root: moves from pv_idx on (earlier ones are the lines already found
 * in this iteration), PVS, no pruning. A move that is not the new best gets
 * -SCORE_INF so that the stable sort keeps the order of the others. */
static int search_root(SearchThread *t, int alpha, int beta, int depth)
{
    Board *b = &t->board;
    Searcher *s = t->s;
    int best = -SCORE_INF, searched = 0;
    t->pv_len[0] = 0;
    t->nodes++;
    /* Two plies down, "improving" compares with the root's eval. */
    t->stack[0].trend_eval = board_in_check(b) ? -SCORE_INF : evaluate(t);
    for (int i = t->pv_idx; i < t->root_count; i++) {
        RootMove *rm = &t->roots[i];
        Move m = rm->move;
        report_currmove(t, m, i + 1, depth);
        /* Root noise (randomness option) shifts the child's window so that
         * the comparison with alpha stays exact. */
        int noise = root_noise(s, m);
        int a = alpha - noise, bt = beta - noise;
        t->stack[0].move = m;
        t->stack[0].cont = search_cont_of(t, b, m);
        board_make(b, m);
        int new_depth = depth - 1 + (board_in_check(b) ? 1 : 0);
        const uint64_t nodes_before = t->nodes;
        int v;
        if (searched == 0) {
            v = -search_depth(t, -bt, -a, new_depth, 1, 0);
        } else {
            v = -search_depth(t, -a - 1, -a, new_depth, 1, 0);
            if (v > a && v < bt && !t->stopped)
                v = -search_depth(t, -bt, -a, new_depth, 1, 0);
        }
        rm->effort += t->nodes - nodes_before;
        board_unmake(b);
        if (t->stopped)
            break;
        if (noise != 0 && !is_decisive(v)) {
            v = below_rule_band(v + noise);
        }
        searched++;
        if (searched == 1 || v > alpha) {
            rm->score = v;
            rm->seldepth = t->seldepth;
            rm->pv[0] = m;
            int n = t->pv_len[1];
            memcpy(&rm->pv[1], t->pv[1], (size_t)n * sizeof(Move));
            rm->pv_len = n + 1;
        } else {
            rm->score = -SCORE_INF;
        }
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (v >= beta)
                    break;
            }
        }
    }
    return best;
}

/* Stable insertion sort of roots[from..to) by score, best first. */
static void sort_roots(SearchThread *t, int from, int to)
{
    for (int i = from + 1; i < to; i++) {
        RootMove tmp = t->roots[i];
        int j = i - 1;
        while (j >= from && t->roots[j].score < tmp.score) {
            t->roots[j + 1] = t->roots[j];
            j--;
        }
        t->roots[j + 1] = tmp;
    }
}

static void fill_info(SearchThread *t, const RootMove *rm, int line, int depth, ScoreBound bound, SearchInfo *info)
{
    Searcher *s = t->s;
    int64_t elapsed = tm_now_ms() - s->search_start_ms;
    info->depth = depth;
    info->seldepth = rm->seldepth > 0 ? rm->seldepth : t->seldepth;
    info->multipv = line;
    info->score = rm->score == -SCORE_INF ? rm->prev_score : rm->score;
    info->bound = bound;
    search_publish_nodes(t);
    info->nodes = s->nthreads == 1 ? t->nodes : search_total_nodes(s);
    info->time_ms = elapsed;
    info->nps = info->nodes * 1000 / (uint64_t)(elapsed > 0 ? elapsed : 1);
    info->hashfull = tt_hashfull(&s->tt);
    info->pv_len = rm->pv_len;
    memcpy(info->pv, rm->pv, (size_t)rm->pv_len * sizeof(Move));
}

/* A mate line cut short (the tree search's PV stops at TT cutoffs) is
 * completed from the TT's moves, so that a GUI, or a checker, can replay it
 * to the mate. Kept only when the completed line is legal and ends with the
 * loser having no legal move; otherwise the short line stands. Output only:
 * the search itself is untouched. */
static void complete_mate_pv(SearchThread *t, SearchInfo *info)
{
    const int plies = SCORE_MATE - info->score;
    if (info->score < SCORE_MATE_MIN || info->pv_len >= plies || plies > MAX_PLY || info->pv_len == 0)
        return;
    Board *b = &t->board;
    Move line[MAX_PLY];
    int n = 0;
    bool ok = true;
    for (; n < info->pv_len && ok; n++) {
        ok = board_is_legal(b, info->pv[n]);
        if (ok) {
            line[n] = info->pv[n];
            board_make(b, info->pv[n]);
        }
    }
    int made = ok ? n : n - 1;
    while (ok && made < plies) {
        TTEntry te;
        Move m = MOVE_NONE;
        if (tt_probe(&t->s->tt, b->key, made, &te) && te.move != MOVE_NONE && board_is_legal(b, te.move))
            m = te.move;
        if (m == MOVE_NONE)
            m = egtb_best_move(t->s->egtb, b); /* the tables store no TT entries */
        if (m == MOVE_NONE && made == plies - 1) {
            /* The mating move itself is seldom stored: find it. */
            MoveList list;
            board_generate(b, GEN_ALL, &list);
            for (int i = 0; i < list.count && m == MOVE_NONE; i++) {
                board_make(b, list.moves[i]);
                if (!board_has_legal_move(b))
                    m = list.moves[i];
                board_unmake(b);
            }
        }
        if (m == MOVE_NONE)
            break;
        line[made++] = m;
        board_make(b, m);
    }
    const bool mates = ok && made == plies && !board_has_legal_move(b);
    for (int i = 0; i < made; i++)
        board_unmake(b);
    if (mates) {
        memcpy(info->pv, line, (size_t)plies * sizeof(Move));
        info->pv_len = plies;
    }
}

void search_report_line(SearchThread *t, int line_idx, int depth, ScoreBound bound)
{
    Searcher *s = t->s;
    if (t->id != 0 || !s->cb.on_info)
        return;
    SearchInfo info;
    fill_info(t, &t->roots[line_idx], line_idx + 1, depth, bound, &info);
    complete_mate_pv(t, &info);
    /* The prover helper reports too (on_helper_proof). */
    pthread_mutex_lock(&s->report_lock);
    s->cb.on_info(s->cb.ctx, &info);
    pthread_mutex_unlock(&s->report_lock);
}

/* Iterative deepening of one thread. The main thread (id 0) reports and
 * decides when to stop; helpers (Lazy SMP) only fill the shared TT, starting
 * at staggered depths so the threads diverge. */
void search_iterate(SearchThread *t)
{
    Searcher *s = t->s;
    const bool main_thread = t->id == 0;
    int multipv = main_thread ? s->opt.multipv : 1;
    if (multipv > t->root_count)
        multipv = t->root_count;
    int max_depth = MAX_PLY - 1;
    if (s->limits.depth > 0 && s->limits.depth < max_depth)
        max_depth = s->limits.depth;
    Move last_best = MOVE_NONE;
    /* The last two completed iterations' scores, newest first, and the
     * time manager's signals (TmSignals). */
    int last_score = 0, last_score2 = 0;
    TmSignals sig = {0};
    const uint64_t nodes_at_start = t->nodes;
    /* A mate search wants mate scores, not exact values: it skips the
     * aspiration windows, whose re-searches cost most where the eval swings
     * between iterations, as in endings with few pieces. Analysis (go
     * infinite) skips them in sparse endings, where its long mates lie. */
    const bool windows = s->limits.mate == 0 &&
                         !(s->limits.infinite && search_piece_count(&t->board) <= MATE_SPARSE_PIECES);

    const int first_depth = t->start_depth > 0 ? t->start_depth : 1 + (main_thread ? 0 : (t->id & 1));
    for (int depth = first_depth; depth <= max_depth; depth++) {
        t->root_depth = depth;
        t->seldepth = 0;
        for (int i = 0; i < t->root_count; i++)
            t->roots[i].prev_score = t->roots[i].score;

        for (t->pv_idx = 0; t->pv_idx < multipv; t->pv_idx++) {
            RootMove *line = &t->roots[t->pv_idx];
            int prev = line->prev_score;
            int delta = ASP_DELTA;
            int alpha = -SCORE_INF, beta = SCORE_INF;
            if (windows && depth >= ASP_MIN_DEPTH && prev != -SCORE_INF && !is_decisive(prev)) {
                alpha = prev - delta > -SCORE_INF ? prev - delta : -SCORE_INF;
                beta = prev + delta < SCORE_INF ? prev + delta : SCORE_INF;
            }
            for (;;) {
                int v = search_root(t, alpha, beta, depth);
                sort_roots(t, t->pv_idx, t->root_count);
                if (t->stopped)
                    break;
                if (v <= alpha && alpha > -SCORE_INF) {
                    search_report_line(t, t->pv_idx, depth, BOUND_UPPER);
                    beta = (alpha + beta) / 2;
                    alpha = v - delta > -SCORE_INF ? v - delta : -SCORE_INF;
                } else if (v >= beta && beta < SCORE_INF) {
                    search_report_line(t, t->pv_idx, depth, BOUND_LOWER);
                    beta = v + delta < SCORE_INF ? v + delta : SCORE_INF;
                } else {
                    break;
                }
                delta += delta / 2;
                if (is_decisive(v)) {
                    alpha = -SCORE_INF;
                    beta = SCORE_INF;
                }
            }
            sort_roots(t, 0, t->pv_idx + 1);
            if (t->stopped)
                break;
        }
        if (t->stopped)
            break;
        t->completed_depth = depth;
        if (!main_thread) {
            /* A helper that finds the mate asked for ends the main thread's
             * prover turn (pn_tick), so the main search, which alone
             * reports, picks the mate up from the shared TT at once. */
            if (s->limits.mate > 0 && t->roots[0].score >= SCORE_MATE - (2 * s->limits.mate - 1))
                atomic_store(&s->helper_mate, true);
            continue;
        }

        /* The root is not stored by the tree search; keep it for probe and
         * for the next search's first move. */
        tt_store(&s->tt, t->board.key, 0, t->roots[0].move, t->roots[0].score, EVAL_NONE, depth, TT_BOUND_EXACT,
                 TT_PV);
        /* Analysis: the prover helper's proof is the best line while the
         * search has no mate as short (reported just below). */
        const bool proven = analysis_adopt_helper_proof(t, false);
        for (int i = 0; i < multipv; i++)
            search_report_line(t, i, depth, BOUND_EXACT);

        /* When to stop deepening. */
        int score = t->roots[0].score;
        Move best = t->roots[0].move;
        bool pondering = atomic_load(&s->pondering);
        if (s->limits.mate > 0 && score >= SCORE_MATE_MIN) {
            /* A mate counts as proven once the full-width depth reaches it. */
            int plies = SCORE_MATE - score;
            if (plies <= 2 * s->limits.mate - 1 && depth >= plies)
                break;
        }
        if (proven && !pondering && s->tm.timed && !s->limits.infinite)
            break;
        if (!pondering && s->limits.use_clock) {
            if (t->root_count == 1)
                break;
            if (score_is_mate(score) && depth >= SCORE_MATE - (score > 0 ? score : -score))
                break;
        }
        if (depth > 1) {
            const bool changed = best != last_best;
            sig.changes_x100 = sig.changes_x100 / 2 + (changed ? 100 : 0);
            sig.stable_iters = changed ? 0 : sig.stable_iters + 1;
            sig.score_drop = (depth > 2 ? (last_score + last_score2) / 2 : last_score) - score;
        }
        const uint64_t searched_nodes = t->nodes - nodes_at_start;
        sig.best_share_pct = searched_nodes > 0 ? (int)(t->roots[0].effort * 100 / searched_nodes) : 0;
        if (!pondering && s->tm.timed && !s->limits.infinite) {
            int64_t elapsed = tm_now_ms() - atomic_load(&s->clock_start_ms);
            if (elapsed >= tm_soft_scaled(&s->tm, &sig))
                break;
        }
        last_best = best;
        last_score2 = last_score;
        last_score = score;
    }
}

/* ------------------------------------------------------------- driver */

static void *helper_entry(void *arg)
{
    SearchThread *t = arg;
    /* Analysis: helper 1 proves mates first (see analysis_prover_helper). */
    if (t->id == 1 && analysis_prover_wanted(t->s))
        analysis_prover_helper(t);
    search_iterate(t);
    search_publish_nodes((SearchThread *)arg);
    return NULL;
}

/* Root moves: legal, restricted to searchmoves, without banmoves, and
 * without moves that repeat into a lost rule verdict unless nothing else
 * is left. Ordered by hash move, captures (MVV-LVA), then quiets. */
static int build_root_moves(Searcher *s, RootMove *out)
{
    Board *b = &s->root;
    const SearchLimits *l = &s->limits;
    MoveList all;
    board_generate(b, GEN_ALL, &all);

    Move keep[MAX_MOVES];
    int n = 0;
    bool any_searchmove = false;
    for (int i = 0; i < l->searchmoves_count && i < MAX_MOVES; i++)
        for (int j = 0; j < all.count; j++)
            if (all.moves[j] == l->searchmoves[i])
                any_searchmove = true;
    for (int j = 0; j < all.count; j++) {
        Move m = all.moves[j];
        bool ok = true;
        if (any_searchmove) {
            ok = false;
            for (int i = 0; i < l->searchmoves_count && i < MAX_MOVES; i++)
                if (l->searchmoves[i] == m)
                    ok = true;
        }
        for (int i = 0; i < l->banmoves_count && i < MAX_MOVES; i++)
            if (l->banmoves[i] == m)
                ok = false;
        if (ok)
            keep[n++] = m;
    }

    /* Never repeat into a lost verdict when anything else exists. */
    bool losing[MAX_MOVES];
    int nlosing = 0;
    for (int i = 0; i < n; i++) {
        board_make(b, keep[i]);
        losing[i] = board_rule60(b) >= 4 && board_repetition(b, b->ply - 1, 2) == REP_WIN;
        board_unmake(b);
        nlosing += losing[i];
    }

    TTEntry te;
    Move tt_move = tt_probe(&s->tt, b->key, 0, &te) ? te.move : MOVE_NONE;
    int scores[MAX_MOVES];
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (losing[i] && nlosing < n)
            continue;
        Move m = keep[i];
        int sc = 0;
        if (m == tt_move)
            sc = 1 << 24;
        else if (board_is_capture(b, m))
            sc = (1 << 20) + movepick_mvv_lva(b, m);
        out[count].move = m;
        out[count].score = out[count].prev_score = -SCORE_INF;
        out[count].seldepth = 0;
        out[count].effort = 0;
        out[count].pv_len = 1;
        out[count].pv[0] = m;
        scores[count++] = sc;
    }
    /* Stable insertion sort by the ordering score. */
    for (int i = 1; i < count; i++) {
        RootMove tmp = out[i];
        int sc = scores[i], j = i - 1;
        while (j >= 0 && scores[j] < sc) {
            out[j + 1] = out[j];
            scores[j + 1] = scores[j];
            j--;
        }
        out[j + 1] = tmp;
        scores[j + 1] = sc;
    }
    return count;
}

static void thread_reset(SearchThread *t, const Searcher *s, const RootMove *roots, int root_count)
{
    t->board = s->root;
    t->root_ply = s->root.ply;
    t->ply_limit = MAX_PLY - 1;
    if (t->root_ply + t->ply_limit + 2 > BOARD_HIST_MAX)
        t->ply_limit = BOARD_HIST_MAX - 2 - t->root_ply;
    t->nodes = 0;
    atomic_store_explicit(&t->nodes_shared, 0, memory_order_relaxed);
    t->seldepth = 0;
    t->root_depth = 0;
    t->completed_depth = 0;
    t->pv_idx = 0;
    t->stopped = false;
    t->phase_end_ms = 0;
    t->prover_end_ms = 0;
    t->phase_nodes = 0;
    t->start_depth = 0;
    t->static_stand_pat = false;
    memset(&t->stats, 0, sizeof t->stats);
    memset(t->stack, 0, sizeof t->stack);
    memset(t->pv_len, 0, sizeof t->pv_len);
    t->root_count = root_count;
    memcpy(t->roots, roots, (size_t)root_count * sizeof(RootMove));
}

void search_prepare(Searcher *s, const Board *b, const SearchLimits *l, const SearchCallbacks *cb)
{
    s->limits = *l;
    /* A skill level below full strength caps the nodes of game searches
     * (analysis and mate searches keep their full strength). */
    if (s->opt.skill < SKILL_MAX && !l->infinite && l->mate == 0) {
        uint64_t cap = SKILL_BASE_NODES;
        for (int i = 0; i < s->opt.skill; i++)
            cap = cap * SKILL_NODES_GROWTH_PCT / 100;
        if (s->limits.nodes == 0 || s->limits.nodes > cap)
            s->limits.nodes = cap;
    }
    if (s->limits.searchmoves_count < 0)
        s->limits.searchmoves_count = 0;
    if (s->limits.banmoves_count < 0)
        s->limits.banmoves_count = 0;
    if (cb)
        s->cb = *cb;
    else
        memset(&s->cb, 0, sizeof s->cb);
    atomic_store(&s->stop, false);
    atomic_store(&s->helper_mate, false);
    atomic_store(&s->helper_proof_moves, 0);
    atomic_store(&s->pondering, l->ponder);
    s->search_start_ms = tm_now_ms();
    atomic_store(&s->clock_start_ms, s->search_start_ms);
    s->last_currmove_ms = 0;
    tm_init(&s->tm, l, s->opt.move_overhead_ms, b->fullmove);
    tt_new_search(&s->tt);

    s->root = *b;
    board_set_psq(&s->root, eval_psq_table());
    if (s->root.ply > BOARD_HIST_MAX - MAX_PLY - 8)
        board_compact_history(&s->root);

    s->root_count = build_root_moves(s, s->root_moves);
    for (int i = 0; i < s->nthreads; i++)
        thread_reset(s->threads[i], s, s->root_moves, s->root_count);
}

SearchResult search_execute(Searcher *s)
{
    SearchThread *main_t = s->threads[0];
    SearchResult res;
    memset(&res, 0, sizeof res);

    if (main_t->root_count > 0) {
        /* Helpers (Lazy SMP) start first: in a mate search they run the normal
         * search while the main thread tries the mate prover, so on several
         * cores neither waits for the other; what they find is in the shared
         * TT when the main thread's own search starts. */
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, 8u << 20);
        int started = 1;
        for (int i = 1; i < s->nthreads; i++) {
            if (pthread_create(&s->threads[i]->handle, &attr, helper_entry, s->threads[i]) != 0)
                break;
            started++;
        }
        pthread_attr_destroy(&attr);
        /* Mate searches mix the normal search with the mate prover. */
        if (s->limits.mate > 0)
            analysis_mate_search(main_t);
        else if (s->nthreads == 1 && analysis_prover_wanted(s) && s->limits.infinite)
            analysis_search(main_t);
        else
            search_iterate(main_t);
        search_publish_nodes(main_t);
        /* Infinite and ponder searches hold their bestmove until told. */
        while (!atomic_load(&s->stop) && (s->limits.infinite || atomic_load(&s->pondering))) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
        atomic_store(&s->stop, true);
        for (int i = 1; i < started; i++)
            pthread_join(s->threads[i]->handle, NULL);
    } else {
        while (!atomic_load(&s->stop) && (s->limits.infinite || atomic_load(&s->pondering))) {
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
        }
    }
    /* A proof found while the main thread's iteration was under way, or
     * overwritten by an iteration cut short by the stop. */
    analysis_adopt_helper_proof(main_t, true);

    res.nodes = s->nthreads == 1 ? main_t->nodes : search_total_nodes(s);
    res.time_ms = tm_now_ms() - s->search_start_ms;
    if (main_t->root_count == 0) {
        res.best = MOVE_NONE;
        res.score = -SCORE_MATE;
        return res;
    }
    /* The deepest completed iteration wins: a Lazy SMP helper that finished
     * an iteration beyond the main thread's has seen further. Mate and
     * multi-PV searches keep the main thread's lines, which were reported,
     * and so does a decisive main-thread score (a proof or a rule verdict). */
    SearchThread *pick = main_t;
    const int main_score = main_t->roots[0].score;
    if (s->limits.mate == 0 && s->opt.multipv <= 1 && main_score != -SCORE_INF && !is_decisive(main_score))
        for (int i = 1; i < s->nthreads; i++) {
            SearchThread *h = s->threads[i];
            if (h->completed_depth > pick->completed_depth && h->root_count == main_t->root_count &&
                h->roots[0].score != -SCORE_INF && !is_decisive(h->roots[0].score))
                pick = h;
        }
    const RootMove *rm = &pick->roots[0];
    if (pick != main_t && s->cb.on_info) {
        /* The GUI's last line should be the one the bestmove comes from. */
        SearchInfo info;
        fill_info(pick, rm, 1, pick->completed_depth, BOUND_EXACT, &info);
        s->cb.on_info(s->cb.ctx, &info);
    }
    res.best = rm->move;
    res.score = rm->score != -SCORE_INF ? rm->score : rm->prev_score != -SCORE_INF ? rm->prev_score : 0;
    res.depth = pick->completed_depth;
    res.seldepth = rm->seldepth;
    res.pv_len = rm->pv_len;
    memcpy(res.pv, rm->pv, (size_t)rm->pv_len * sizeof(Move));
    if (rm->pv_len >= 2) {
        res.ponder = rm->pv[1];
    } else {
        /* Ask the TT for a reply, checking it is legal. */
        Board *b = &main_t->board;
        board_make(b, rm->move);
        TTEntry te;
        if (tt_probe(&s->tt, b->key, 1, &te) && te.move != MOVE_NONE && board_is_legal(b, te.move))
            res.ponder = te.move;
        board_unmake(b);
    }
    return res;
}

/* ------------------------------------------------------------- test hook */

void searcher_quiet_eval(Searcher *s, const Board *b, int *static_eval, int *qscore)
{
    SearchLimits l;
    search_limits_init(&l);
    search_prepare(s, b, &l, NULL);
    SearchThread *t = s->threads[0];
    /* Quiescence stands pat on the corrected eval, so that is the value
     * its score is compared with. */
    *static_eval = -SCORE_INF;
    if (!board_in_check(&t->board)) {
        const CorrKeys ck = corr_keys(&t->board);
        *static_eval = corrected_eval(t, &ck, evaluate(t));
    }
    /* Captures only (it starts past the quiet-check plies): datagen calls a
     * position quiet when no capture changes its score, as the tuner's
     * static model assumes; a quiet check is a move like any other there.
     * For the same reason every stand pat is the eval alone: the TT holds
     * the game's searches, whose bounds would otherwise stand in for it. */
    t->static_stand_pat = true;
    *qscore = qsearch(t, -SCORE_INF, SCORE_INF, 0, QS_CHECK_PLIES);
    t->static_stand_pat = false;
}

NullStepReport search_test_null_step(Searcher *s, const Board *b, int alpha, int beta, int depth, int ply,
                                     bool verifying)
{
    SearchLimits l;
    search_limits_init(&l);
    search_prepare(s, b, &l, NULL);
    SearchThread *t = s->threads[0];
    t->root_depth = depth;
    bool in_check = board_in_check(&t->board);
    int static_eval = in_check ? -SCORE_INF : evaluate(t);
    t->stack[ply].trend_eval = static_eval;
    NullStepReport r;
    const int raw_eval = in_check ? EVAL_NONE : static_eval;
    null_step(t, alpha, beta, depth, ply, verifying ? NODE_VERIFY : 0, static_eval, raw_eval, in_check, &r);
    return r;
}
