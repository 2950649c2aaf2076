/* movepick.c — move ordering: staged generation of legal moves for the main
 * search (hash move, good captures, killers, counter move, quiets by
 * history and continuation history, losing captures) and for quiescence
 * (captures by MVV-LVA and capture history). */
#include "search_internal.h"

enum {
    ST_TT,
    ST_CAPTURES_GEN,
    ST_GOOD_CAPTURES,
    ST_KILLER1,
    ST_KILLER2,
    ST_COUNTER,
    ST_QUIETS_GEN,
    ST_QUIETS,
    ST_QUIET_CHECKS,
    ST_BAD_CAPTURES,
    ST_DONE,
    ST_QS_TT,
    ST_QS_GEN,
    ST_QS_CAPTURES,
    ST_QS_TT_EV,
    ST_EV_GEN,
    ST_EV_ALL
};

/* Marks, in the quiet list, the moves the check-only stage returns (a move
 * uses bits 0-13 only). */
enum { MOVE_CHECK_MARK = 1 << 15 };

/* Least valuable attacker first; the general last but one (its captures are
 * safe, the generator only produces legal ones), so it ranks as cheap. */
static const int ATTACKER_RANK[PT_NB] = {0, 1, 2, 2, 4, 6, 5, 0};

int movepick_mvv_lva(const Board *b, Move m)
{
    int victim = piece_type(b->sq[move_to(m)]);
    int attacker = piece_type(b->sq[move_from(m)]);
    return BOARD_SEE_VALUE[victim] * 8 - ATTACKER_RANK[attacker];
}

/* Quiescence has no continuation to look up: its evasions read zeros. */
static const ContHist NO_CONT;

bool movepick_losing_capture(const MovePicker *mp) { return mp->stage == ST_BAD_CAPTURES; }

int movepick_quiet_stat(const MovePicker *mp, int pc, int from, int to)
{
    return mp->t->tables.history[pc][to] + mp->t->tables.from_to[piece_color(pc)][from][to] + mp->cont[0][0][pc][to] +
           mp->cont[1][0][pc][to];
}

/* A capture's order key: the victim first, then what this capture has done
 * in earlier cutoffs. */
static int capture_score(const MovePicker *mp, Move m)
{
    return movepick_mvv_lva(mp->b, m) + *search_capt_hist(mp->t, mp->b, m) / CAPT_HIST_DIV;
}

static int quiet_score(const MovePicker *mp, Move m)
{
    return movepick_quiet_stat(mp, mp->b->sq[move_from(m)], move_from(m), move_to(m));
}

/* Whether m is a legal move here. With every legal move at hand (in check)
 * a look through that short list answers it for less than the board's test,
 * which in check scans every attacker of the general. */
static bool legal_here(const Board *b, const MoveList *all, Move m)
{
    if (!all)
        return board_is_legal(b, m);
    for (int i = 0; i < all->count; i++)
        if (all->moves[i] == m)
            return true;
    return false;
}

void movepick_init(MovePicker *mp, const Board *b, const SearchThread *t, Move tt_move, int ply,
                   const MoveList *all)
{
    mp->b = b;
    mp->t = t;
    mp->all = all;
    mp->stage = ST_TT;
    mp->idx = 0;
    mp->list.count = 0;
    mp->bad_count = mp->bad_idx = 0;
    mp->skipped = 0;
    mp->has_threats = false;
    mp->tt_move = tt_move != MOVE_NONE && legal_here(b, all, tt_move) ? tt_move : MOVE_NONE;
    mp->killers[0] = t->stack[ply].killers[0];
    mp->killers[1] = t->stack[ply].killers[1];
    mp->counter = MOVE_NONE;
    mp->cont[0] = search_cont_back(t, ply, 1);
    mp->cont[1] = search_cont_back(t, ply, 2);
    if (USE_COUNTER_MOVE) {
        Move last = board_last_move(b);
        if (last != MOVE_NONE && last != MOVE_NULL)
            mp->counter = t->tables.counter[b->sq[move_to(last)]][move_to(last)];
    }
}

void movepick_init_qs(MovePicker *mp, const Board *b, const SearchThread *t, Move tt_move)
{
    mp->b = b;
    mp->t = t;
    const bool in_check = board_in_check(b);
    mp->stage = in_check ? ST_EV_GEN : ST_QS_GEN;
    mp->all = NULL;
    mp->idx = 0;
    mp->list.count = 0;
    mp->bad_count = mp->bad_idx = 0;
    mp->skipped = 0;
    mp->has_threats = false;
    /* Out of check only captures are searched, so a quiet hash move is not. */
    mp->tt_move = MOVE_NONE;
    if (tt_move != MOVE_NONE && (in_check || board_is_capture(b, tt_move)) && board_is_legal(b, tt_move)) {
        mp->tt_move = tt_move;
        mp->stage = in_check ? ST_QS_TT_EV : ST_QS_TT;
    }
    mp->killers[0] = mp->killers[1] = MOVE_NONE;
    mp->counter = MOVE_NONE;
    mp->cont[0] = mp->cont[1] = &NO_CONT;
}

/* In check, quiescence orders every capture before the quiet evasions. */
enum { EVASION_CAPTURE_BIAS = 1 << 20 };

/* A move's order key: its score times ORDER_RADIX plus a tie-breaker that
 * ranks the earlier place in the list higher, so the largest key is the
 * best score's first place, and pick_best finds the move in one pass (a
 * max over plain integers, which the compiler vectorises) with no second
 * pass looking for where the top score sits: 0.5% fewer instructions on
 * the bench than the two passes. Scores stay within +-ORDER_SCORE_LIMIT
 * (quiet ones sum four histories of at most HISTORY_MAX, captures are
 * MVV-LVA plus a capture history, evasion captures add
 * EVASION_CAPTURE_BIAS), so keys fit an int. */
enum { ORDER_RADIX = 256, ORDER_SCORE_LIMIT = 1 << 22 };
_Static_assert((int)MAX_MOVES <= (int)ORDER_RADIX, "a list place fits the order key's tie-breaker");
_Static_assert(4 * HISTORY_MAX + THREAT_ORDER_ROOK < ORDER_SCORE_LIMIT && EVASION_CAPTURE_BIAS * 2 < ORDER_SCORE_LIMIT,
               "order scores fit the order key");
_Static_assert((long long)ORDER_SCORE_LIMIT * ORDER_RADIX <= 0x7FFFFFFF, "order keys fit an int");

static inline int order_key(int score, int place) { return score * ORDER_RADIX + (ORDER_RADIX - 1 - place); }
static inline int key_place(int key) { return ORDER_RADIX - 1 - (int)((unsigned)key % ORDER_RADIX); }

/* The best-scored move left in the list (the first of equals), swapped to
 * mp->idx; the move that was there moves to its place and takes that
 * place's tie-breaker, as if it had always stood there. */
static Move pick_best(MovePicker *mp)
{
    int *sc = mp->scores;
    int top = sc[mp->idx];
    for (int i = mp->idx + 1; i < mp->list.count; i++)
        top = sc[i] > top ? sc[i] : top;
    const int best = key_place(top);
    Move m = mp->list.moves[best];
    mp->list.moves[best] = mp->list.moves[mp->idx];
    sc[best] = sc[mp->idx] + mp->idx - best;
    mp->list.moves[mp->idx] = m;
    mp->idx++;
    return m;
}

static bool is_special(const MovePicker *mp, Move m)
{
    return m == mp->tt_move || m == mp->killers[0] || m == mp->killers[1] || m == mp->counter;
}

/* A killer or counter move is usable when it is a legal quiet move not tried
 * already in an earlier stage. */
static bool quiet_candidate(const MovePicker *mp, Move m)
{
    return m != MOVE_NONE && m != mp->tt_move && !board_is_capture(mp->b, m) && legal_here(mp->b, mp->all, m);
}

/* The captures or quiet moves of the position into mp->list: from mp->all
 * when the caller generated every move already (GEN_ALL lists each piece's
 * captures and quiets in the order GEN_CAPTURES and GEN_QUIETS do, so the
 * split keeps that order), else generated. */
static void take_or_generate(MovePicker *mp, GenType type)
{
    if (!mp->all) {
        board_generate(mp->b, type, &mp->list);
        return;
    }
    const bool captures = type == GEN_CAPTURES;
    int n = 0;
    for (int i = 0; i < mp->all->count; i++) {
        Move m = mp->all->moves[i];
        if (board_is_capture(mp->b, m) == captures)
            mp->list.moves[n++] = m;
    }
    mp->list.count = n;
}

/* Starts loading the TT bucket of m's child. Captures and evasions are
 * few, and most that are not pruned get searched soon; each child probes a
 * bucket that is likely not in the cache, so asking for them all as soon as
 * the moves are known hides much more of that latency than asking just
 * before each move is made. Quiet moves are too many, and mostly pruned,
 * for this to pay. */
static inline void prefetch_child(const MovePicker *mp, Move m)
{
    tt_prefetch(&mp->t->s->tt, board_key_after(mp->b, m));
}

/* A quiet move's threat term (THREAT_ORDER_ROOK): plus for leaving a point
 * a cheaper piece attacks for one none does, minus for arriving on one. */
static int threat_sign(const BoardThreats *th, int pt, Move m)
{
    const SqSet *by = pt == ROOK ? &th->below_rook : pt == HORSE || pt == CANNON ? &th->below_minor : NULL;
    if (!by)
        return 0;
    if (sqset_has(by, move_to(m)))
        return -1;
    return sqset_has(by, move_from(m)) ? 1 : 0;
}

static int threat_order(const Board *b, const BoardThreats *th, Move m)
{
    const int pt = piece_type(b->sq[move_from(m)]);
    return threat_sign(th, pt, m) * (pt == ROOK ? THREAT_ORDER_ROOK : THREAT_ORDER_MINOR);
}

int movepick_threat_sign(const MovePicker *mp, Piece pc, Move m)
{
    return mp->has_threats ? threat_sign(&mp->threats, piece_type(pc), m) : 0;
}

/* Enters a capture stage, the main search's or quiescence's, once the
 * captures are listed: scores them and starts loading their children's
 * buckets (prefetch_child says why). Inline, as it runs at every node
 * that reaches the captures. */
static inline void start_captures(MovePicker *mp, int stage)
{
    for (int i = 0; i < mp->list.count; i++) {
        mp->scores[i] = order_key(capture_score(mp, mp->list.moves[i]), i);
        prefetch_child(mp, mp->list.moves[i]);
    }
    mp->idx = 0;
    mp->stage = stage;
}

/* Enters the quiet stage: the quiet moves, scored by history and threats. */
static void start_quiets(MovePicker *mp)
{
    take_or_generate(mp, GEN_QUIETS);
    board_threats(mp->b, &mp->threats);
    mp->has_threats = true;
    for (int i = 0; i < mp->list.count; i++)
        mp->scores[i] =
            order_key(quiet_score(mp, mp->list.moves[i]) + threat_order(mp->b, &mp->threats, mp->list.moves[i]), i);
    mp->idx = 0;
    mp->stage = ST_QUIETS;
}

int movepick_skip_quiets(MovePicker *mp)
{
    if (mp->stage == ST_QUIETS_GEN) {
        /* Not generated yet: only the quiet checks decide, and listing
         * those alone is much cheaper than listing every quiet move. The
         * picker stays where it was if one of them is still to come. */
        MoveList checks;
        board_generate(mp->b, GEN_QUIET_CHECKS_PSEUDO, &checks);
        for (int i = 0; i < checks.count; i++)
            if (!is_special(mp, checks.moves[i]) && board_is_legal(mp->b, checks.moves[i]))
                return SKIP_QUIET_CHECK;
        mp->stage = ST_BAD_CAPTURES;
        return SKIP_DONE;
    }
    if (mp->stage != ST_QUIETS)
        return SKIP_NOT_AT_QUIETS;
    /* The moves the quiet stage has yet to return are the non-special ones
     * left in the list, whatever their order. Those that give check are
     * marked for the check-only stage. The list holds quiet moves only:
     * the position's own filter lets few of them through. */
    BoardCheckFilter cf;
    board_check_filter_quiet(mp->b, &cf);
    int marked = 0;
    for (int i = mp->idx; i < mp->list.count; i++) {
        Move m = mp->list.moves[i];
        if (board_may_give_check(&cf, m) && !is_special(mp, m) && board_gives_check(mp->b, m)) {
            mp->list.moves[i] = (Move)(m | MOVE_CHECK_MARK);
            marked++;
        }
    }
    mp->checks_left = marked;
    if (marked) {
        mp->stage = ST_QUIET_CHECKS;
        return SKIP_QUIET_CHECK;
    }
    mp->idx = mp->list.count;
    return SKIP_DONE;
}

int movepick_take_skipped(MovePicker *mp)
{
    const int n = mp->skipped;
    mp->skipped = 0;
    return n;
}

void movepick_resume_quiets(MovePicker *mp)
{
    if (mp->stage != ST_QUIET_CHECKS)
        return;
    for (int i = mp->idx; i < mp->list.count; i++)
        mp->list.moves[i] &= (Move)~MOVE_CHECK_MARK;
    mp->stage = ST_QUIETS;
}

Move movepick_next(MovePicker *mp)
{
    const Board *b = mp->b;
    for (;;) {
        switch (mp->stage) {
        case ST_TT:
            mp->stage = ST_CAPTURES_GEN;
            if (mp->tt_move != MOVE_NONE)
                return mp->tt_move;
            break;
        case ST_CAPTURES_GEN:
            take_or_generate(mp, GEN_CAPTURES);
            start_captures(mp, ST_GOOD_CAPTURES);
            break;
        case ST_GOOD_CAPTURES:
            while (mp->idx < mp->list.count) {
                Move m = pick_best(mp);
                if (m == mp->tt_move)
                    continue;
                /* A losing exchange goes to the bad captures, unless the
                 * capture history vouches for it (CAPT_GOOD_SEE_DIV). */
                const int hist = *search_capt_hist(mp->t, b, m);
                if (!board_see_ge(b, m, hist > 0 ? -hist / CAPT_GOOD_SEE_DIV : 0)) {
                    mp->bad[mp->bad_count++] = m;
                    continue;
                }
                return m;
            }
            mp->stage = ST_KILLER1;
            break;
        case ST_KILLER1:
            mp->stage = ST_KILLER2;
            if (quiet_candidate(mp, mp->killers[0]))
                return mp->killers[0];
            break;
        case ST_KILLER2:
            mp->stage = ST_COUNTER;
            if (mp->killers[1] != mp->killers[0] && quiet_candidate(mp, mp->killers[1]))
                return mp->killers[1];
            break;
        case ST_COUNTER:
            mp->stage = ST_QUIETS_GEN;
            if (mp->counter != mp->killers[0] && mp->counter != mp->killers[1] && quiet_candidate(mp, mp->counter))
                return mp->counter;
            break;
        case ST_QUIETS_GEN:
            start_quiets(mp);
            break;
        case ST_QUIETS:
            while (mp->idx < mp->list.count) {
                Move m = pick_best(mp);
                if (!is_special(mp, m))
                    return m;
            }
            mp->stage = ST_BAD_CAPTURES;
            break;
        case ST_QUIET_CHECKS:
            /* The quiet stage's order, passing over (and counting) the
             * non-special moves that give no check. Once the last check
             * is out and the caller still prunes (it would have resumed
             * otherwise), the moves left would all be pruned: they are
             * dropped unordered (the count past the last quiet move
             * matters to no pruning rule). */
            while (mp->checks_left > 0 && mp->idx < mp->list.count) {
                Move m = pick_best(mp);
                if (m & MOVE_CHECK_MARK) {
                    mp->checks_left--;
                    return (Move)(m & ~MOVE_CHECK_MARK);
                }
                if (!is_special(mp, m))
                    mp->skipped++;
            }
            mp->stage = ST_BAD_CAPTURES;
            break;
        case ST_BAD_CAPTURES:
            if (mp->bad_idx < mp->bad_count)
                return mp->bad[mp->bad_idx++];
            mp->stage = ST_DONE;
            break;
        case ST_QS_GEN:
            board_generate(b, GEN_CAPTURES, &mp->list);
            start_captures(mp, ST_QS_CAPTURES);
            break;
        case ST_QS_TT:
            mp->stage = ST_QS_GEN;
            return mp->tt_move;
        case ST_QS_TT_EV:
            mp->stage = ST_EV_GEN;
            return mp->tt_move;
        case ST_EV_GEN:
            board_generate(b, GEN_EVASIONS, &mp->list);
            /* Captures first by MVV-LVA, then the quiet evasions by history. */
            for (int i = 0; i < mp->list.count; i++) {
                Move m = mp->list.moves[i];
                const int score =
                    board_is_capture(b, m) ? EVASION_CAPTURE_BIAS + movepick_mvv_lva(b, m) : quiet_score(mp, m);
                mp->scores[i] = order_key(score, i);
                prefetch_child(mp, m);
            }
            mp->idx = 0;
            mp->stage = ST_EV_ALL;
            break;
        /* Quiescence's captures and the evasions: the rest by score. */
        case ST_QS_CAPTURES:
        case ST_EV_ALL:
            while (mp->idx < mp->list.count) {
                Move m = pick_best(mp);
                if (m != mp->tt_move)
                    return m;
            }
            mp->stage = ST_DONE;
            break;
        default:
            return MOVE_NONE;
        }
    }
}
