/* rules.c — game-state rules: repetition verdicts (perpetual check and chase), natural limit, material draws, game result. */
#include <stdbool.h>
#include <string.h>

#include "board.h"
#include "tables.h"

/*
 * Repetition judge (Asian rules, simplified as the xqbase computer league does).
 *
 * A position repeats when its key occurred earlier with the same side to move,
 * inside the reversible window: no capture (rule60 resets there) and no null
 * move in between. The cycle judged is the one between the current position
 * and its most recent earlier occurrence. For each side, over its own moves of
 * that cycle:
 *   - perpetual check: every move gave check;
 *   - perpetual chase: no move gave check, every move chased, and one and the
 *     same enemy piece (slot) is in every move's chased set.
 * Check outranks chase: exactly one side checking perpetually loses; both is a
 * draw; otherwise exactly one side chasing perpetually loses; else a draw. A
 * check has an empty chase set, so "one check, one chase" is nothing: a draw.
 *
 * "Move M chases target T" (the judge's definition, computed lazily):
 *   - only the moved piece counts (no discovered chases), and it is not a king
 *     or a pawn (they may attack freely);
 *   - T is an enemy piece, not the king and not a pawn on its own side of the
 *     river;
 *   - after M the moved piece attacks T, meaning the capture would be legal for
 *     the mover (pins and the flying general respected), and before M, from its
 *     from-square, it did not;
 *   - and one of: T is a rook attacked by a horse or a cannon; the attacker is
 *     an advisor or an elephant and T a rook, horse or cannon; or T is
 *     unprotected, i.e. once the mover took it T's side has no legal recapture
 *     on that square. A same-type attack that T can legally answer by taking
 *     the attacker (rook/rook, cannon/cannon, horse/horse) is not a chase.
 * A move that gives check chases nothing.
 *
 * The chased sets are cached in hist[k].chased (CHASE_UNKNOWN until needed).
 * They are computed by replaying the cycle on a small private mailbox (undo
 * the cycle's moves, then redo them one by one); the Board itself is only
 * written in those hist[k].chased fields, so everything else stays bit-exact.
 */

/* The mover's point of view inside a cycle: index 0 = the side to move now,
 * 1 = its opponent (who made the last move). */
enum { ME = 0, OPP = 1 };

typedef enum RepKind {
    REP_KIND_NONE = 0, /* plain repetition, or both sides at fault */
    REP_KIND_CHECK,    /* decided by a perpetual check */
    REP_KIND_CHASE     /* decided by a perpetual chase */
} RepKind;

/* ----------------------------------------------------------- replay board */

/* Just what the chase test needs: pieces, their slots and the two kings. */
typedef struct ChaseBoard {
    Piece sq[SQ_NB];
    uint8_t slot[SQ_NB];
    uint8_t king[2];
} ChaseBoard;

static const int8_t DIR_FILE[4] = {1, -1, 0, 0};
static const int8_t DIR_RANK[4] = {0, 0, 1, -1};

/* The first and second pieces met from s in direction d (SQ_NONE if none). */
static void ray_blockers(const ChaseBoard *x, int s, int d, int *first, int *second)
{
    int f = sq_file(s), r = sq_rank(s);
    *first = *second = SQ_NONE;
    for (;;) {
        f += DIR_FILE[d];
        r += DIR_RANK[d];
        if (f < 0 || f >= FILE_NB || r < 0 || r >= RANK_NB)
            return;
        int t = sq_make(f, r);
        if (x->sq[t] == PIECE_NONE)
            continue;
        if (*first == SQ_NONE) {
            *first = t;
        } else {
            *second = t;
            return;
        }
    }
}

/* Is the king of colour c attacked (the flying general included)? Advisors,
 * elephants and the enemy king's steps can never reach a general. */
static bool king_attacked(const ChaseBoard *x, int c)
{
    int k = x->king[c], o = c ^ 1;
    const Piece rook = piece_make(o, ROOK), cannon = piece_make(o, CANNON);
    const Piece horse = piece_make(o, HORSE), pawn = piece_make(o, PAWN);
    for (int d = 0; d < 4; d++) {
        int first, second;
        ray_blockers(x, k, d, &first, &second);
        if (first == SQ_NONE)
            continue;
        Piece p = x->sq[first];
        if (p == rook || (DIR_FILE[d] == 0 && p == piece_make(o, KING)))
            return true;
        if (second != SQ_NONE && x->sq[second] == cannon)
            return true;
    }
    const StepList *hs = &board_horse_attackers[k];
    for (int i = 0; i < hs->count; i++)
        if (x->sq[hs->steps[i].to] == horse && x->sq[hs->steps[i].block] == PIECE_NONE)
            return true;
    const StepList *ps = &board_pawn_attackers[o][k];
    for (int i = 0; i < ps->count; i++)
        if (x->sq[ps->steps[i].to] == pawn)
            return true;
    return false;
}

/* Moves (or captures with) the piece on `from` to `to`; returns what was there. */
static Piece cb_move(ChaseBoard *x, int from, int to)
{
    Piece p = x->sq[from], cap = x->sq[to];
    x->sq[to] = p;
    x->slot[to] = x->slot[from];
    x->sq[from] = PIECE_NONE;
    if (piece_type(p) == KING)
        x->king[piece_color(p)] = (uint8_t)to;
    return cap;
}

/* Undoes cb_move(x, from, to), which returned cap; cap_slot is the slot
 * x->slot[to] held before it. */
static void cb_unmove(ChaseBoard *x, int from, int to, Piece cap, uint8_t cap_slot)
{
    Piece p = x->sq[to];
    x->sq[from] = p;
    x->slot[from] = x->slot[to];
    x->sq[to] = cap;
    x->slot[to] = cap_slot;
    if (piece_type(p) == KING)
        x->king[piece_color(p)] = (uint8_t)from;
}

/* Would moving the piece on `from` to `to` leave its own king safe? */
static bool cb_legal(ChaseBoard *x, int from, int to)
{
    int c = piece_color(x->sq[from]);
    uint8_t cap_slot = x->slot[to];
    Piece cap = cb_move(x, from, to);
    bool ok = !king_attacked(x, c);
    cb_unmove(x, from, to, cap, cap_slot);
    return ok;
}

static void steps_targets(const ChaseBoard *x, const StepList *st, int enemy, uint8_t *out, int *n)
{
    for (int i = 0; i < st->count; i++) {
        int t = st->steps[i].to, blk = st->steps[i].block;
        if (blk != SQ_NONE && x->sq[blk] != PIECE_NONE)
            continue;
        if (x->sq[t] != PIECE_NONE && piece_color(x->sq[t]) == enemy)
            out[(*n)++] = (uint8_t)t;
    }
}

/* Enemy pieces the piece on s could capture, pseudo-legally. At most 8. */
static int pseudo_targets(const ChaseBoard *x, int s, uint8_t out[8])
{
    Piece p = x->sq[s];
    int c = piece_color(p), enemy = c ^ 1, n = 0;
    switch (piece_type(p)) {
    case ROOK:
    case CANNON:
        for (int d = 0; d < 4; d++) {
            int first, second;
            ray_blockers(x, s, d, &first, &second);
            int t = piece_type(p) == ROOK ? first : second;
            if (t != SQ_NONE && piece_color(x->sq[t]) == enemy)
                out[n++] = (uint8_t)t;
        }
        break;
    case HORSE:
        steps_targets(x, &board_horse_steps[s], enemy, out, &n);
        break;
    case ELEPHANT:
        steps_targets(x, &board_elephant_steps[s], enemy, out, &n);
        break;
    case ADVISOR:
        steps_targets(x, &board_advisor_steps[s], enemy, out, &n);
        break;
    case KING:
        steps_targets(x, &board_king_steps[s], enemy, out, &n);
        break;
    case PAWN:
        steps_targets(x, &board_pawn_steps[c][s], enemy, out, &n);
        break;
    default:
        break;
    }
    return n;
}

/* Enemy pieces the piece on s could legally capture. */
static int legal_targets(ChaseBoard *x, int s, uint8_t out[8])
{
    uint8_t pseudo[8];
    int np = pseudo_targets(x, s, pseudo), n = 0;
    for (int i = 0; i < np; i++)
        if (cb_legal(x, s, pseudo[i]))
            out[n++] = pseudo[i];
    return n;
}

static bool try_capture(ChaseBoard *x, int from, int t, Piece want)
{
    return x->sq[from] == want && cb_legal(x, from, t);
}

/* Can colour o legally capture the enemy piece on t? Walks the squares a
 * piece of each type would capture from. */
static bool can_capture_on(ChaseBoard *x, int t, int o)
{
    for (int d = 0; d < 4; d++) {
        int first, second;
        ray_blockers(x, t, d, &first, &second);
        if (first == SQ_NONE)
            continue;
        if (try_capture(x, first, t, piece_make(o, ROOK)))
            return true;
        if (second != SQ_NONE && try_capture(x, second, t, piece_make(o, CANNON)))
            return true;
    }
    const StepList *hs = &board_horse_attackers[t];
    for (int i = 0; i < hs->count; i++)
        if (x->sq[hs->steps[i].block] == PIECE_NONE && try_capture(x, hs->steps[i].to, t, piece_make(o, HORSE)))
            return true;
    const StepList *ps = &board_pawn_attackers[o][t];
    for (int i = 0; i < ps->count; i++)
        if (try_capture(x, ps->steps[i].to, t, piece_make(o, PAWN)))
            return true;
    /* Elephant, advisor and king steps are symmetric: a piece on e reaches t
     * through the same eye as t reaches e. */
    const StepList *es = &board_elephant_steps[t];
    for (int i = 0; i < es->count; i++)
        if (x->sq[es->steps[i].block] == PIECE_NONE && try_capture(x, es->steps[i].to, t, piece_make(o, ELEPHANT)))
            return true;
    const StepList *as = &board_advisor_steps[t];
    for (int i = 0; i < as->count; i++)
        if (try_capture(x, as->steps[i].to, t, piece_make(o, ADVISOR)))
            return true;
    const StepList *ks = &board_king_steps[t];
    for (int i = 0; i < ks->count; i++)
        if (try_capture(x, ks->steps[i].to, t, piece_make(o, KING)))
            return true;
    return false;
}

static bool in_list(const uint8_t *l, int n, int s)
{
    for (int i = 0; i < n; i++)
        if (l[i] == s)
            return true;
    return false;
}

/* Is T (on t, attacked by the piece on `at`) protected: after the capture,
 * can T's side legally take back on t? */
static bool protected_after_capture(ChaseBoard *x, int at, int t)
{
    int o = piece_color(x->sq[t]);
    uint8_t cap_slot = x->slot[t];
    Piece cap = cb_move(x, at, t);
    bool prot = can_capture_on(x, t, o);
    cb_unmove(x, at, t, cap, cap_slot);
    return prot;
}

/* Plays the quiet move from -> to on x and returns the slots of the enemy
 * pieces it newly chases (see the definition at the top of the file). The
 * caller has already excluded checking moves. */
static uint16_t play_and_chase(ChaseBoard *x, int from, int to)
{
    Piece p = x->sq[from];
    int pt = piece_type(p), enemy = piece_color(p) ^ 1;
    if (pt == KING || pt == PAWN) {
        cb_move(x, from, to);
        return 0;
    }
    uint8_t before[8], after[8];
    int nb = legal_targets(x, from, before);
    cb_move(x, from, to);
    int na = legal_targets(x, to, after);

    uint16_t set = 0;
    for (int i = 0; i < na; i++) {
        int t = after[i];
        if (in_list(before, nb, t))
            continue;
        int tt = piece_type(x->sq[t]);
        if (tt == KING || (tt == PAWN && !board_pawn_crossed(enemy, t)))
            continue;
        bool always = (tt == ROOK && (pt == HORSE || pt == CANNON)) ||
                      ((pt == ADVISOR || pt == ELEPHANT) && (tt == ROOK || tt == HORSE || tt == CANNON));
        if (!always) {
            if (tt == pt) {
                /* A same-type attack T can answer by taking the attacker is mutual. */
                uint8_t back[8];
                int nback = legal_targets(x, t, back);
                if (in_list(back, nback, to))
                    continue;
            }
            if (protected_after_capture(x, to, t))
                continue;
        }
        set |= (uint16_t)(1u << x->slot[t]);
    }
    return set;
}

/* --------------------------------------------------------- cycle verdict */

/* Computes the unknown chased sets of the cycle's moves hist[start+1..ply]
 * that belong to a side in want[], stopping for a side as soon as its running
 * intersection inter[] is empty. */
static void compute_chases(Board *b, int start, const bool want[2], uint32_t inter[2])
{
    HistEntry *h = b->hist;
    int ply = b->ply;
    ChaseBoard x;
    memcpy(x.sq, b->sq, sizeof x.sq);
    memcpy(x.slot, b->slot, sizeof x.slot);
    x.king[RED] = b->plist[RED][0];
    x.king[BLACK] = b->plist[BLACK][0];

    /* The cycle has no capture, so undoing a move just slides the piece back. */
    for (int k = ply; k > start; k--)
        cb_move(&x, move_to(h[k].move), move_from(h[k].move));

    for (int k = start + 1; k <= ply; k++) {
        int from = move_from(h[k].move), to = move_to(h[k].move);
        int who = ((ply - k) & 1) ? ME : OPP;
        if (!want[who] || inter[who] == 0 || h[k].chased != CHASE_UNKNOWN) {
            cb_move(&x, from, to);
            continue;
        }
        uint16_t set;
        if (h[k].check) {
            cb_move(&x, from, to);
            set = 0;
        } else {
            set = play_and_chase(&x, from, to);
        }
        h[k].chased = set;
        inter[who] &= set;
    }
}

/* Judges the cycle hist[start..ply] (hist[start].key == hist[ply].key). */
static RepVerdict judge_cycle(Board *b, int start, RepKind *kind)
{
    const HistEntry *h = b->hist;
    int ply = b->ply;
    bool all_check[2] = {true, true}, any_check[2] = {false, false};
    for (int k = start + 1; k <= ply; k++) {
        /* The window excludes these; a key collision could still get here. */
        if (h[k].captured != PIECE_NONE || h[k].move == MOVE_NULL || h[k].move == MOVE_NONE)
            return REP_NONE;
        int who = ((ply - k) & 1) ? ME : OPP;
        if (h[k].check)
            any_check[who] = true;
        else
            all_check[who] = false;
    }

    /* Check outranks chase. */
    if (all_check[ME] || all_check[OPP]) {
        *kind = REP_KIND_CHECK;
        if (all_check[ME] && all_check[OPP]) {
            *kind = REP_KIND_NONE;
            return REP_DRAW;
        }
        return all_check[ME] ? REP_LOSS : REP_WIN;
    }

    /* A side that checked even once chases nothing on that move. Intersect
     * the cached sets first: often they already settle it. */
    bool want[2] = {!any_check[ME], !any_check[OPP]};
    uint32_t inter[2] = {0xFFFF, 0xFFFF};
    bool missing = false;
    for (int k = start + 1; k <= ply; k++) {
        int who = ((ply - k) & 1) ? ME : OPP;
        if (h[k].chased == CHASE_UNKNOWN)
            missing |= want[who];
        else
            inter[who] &= h[k].chased;
    }
    for (int s = 0; s < 2; s++)
        if (inter[s] == 0)
            want[s] = false;
    if (missing && (want[ME] || want[OPP]))
        compute_chases(b, start, want, inter);

    bool chase[2] = {want[ME] && inter[ME] != 0, want[OPP] && inter[OPP] != 0};
    if (chase[ME] != chase[OPP]) {
        *kind = REP_KIND_CHASE;
        return chase[ME] ? REP_LOSS : REP_WIN;
    }
    *kind = REP_KIND_NONE;
    return REP_DRAW;
}

/* board_repetition() plus the reason for a win or loss. */
static RepVerdict repetition_judge(Board *b, int root_ply, int before_root_count, RepKind *kind)
{
    const HistEntry *h = b->hist;
    const int ply = b->ply;
    *kind = REP_KIND_NONE;

    /* A cycle needs at least four reversible plies: two moves per side. */
    int window = h[ply].rule60;
    if (window > ply)
        window = ply;
    if (window < 4)
        return REP_NONE;

    const uint64_t key = h[ply].key;
    const int lo = ply - window;
    const int need = before_root_count > 1 ? before_root_count : 1;
    int seen = 0, start = -1;
    int clean = ply + 1; /* hist[clean..ply] are known not to be null moves */
    /* Same side to move: every second entry. The common case is no match at
     * all, so the loop reads keys only; a match first checks that no null
     * move lies between it and now (past a null nothing can count). */
    for (int j = ply - 4; j >= lo; j -= 2) {
        if (h[j].key != key)
            continue;
        for (; clean > j + 1; clean--)
            if (h[clean - 1].move == MOVE_NULL)
                return REP_NONE;
        if (start < 0)
            start = j;
        if (j >= root_ply || ++seen >= need)
            return judge_cycle(b, start, kind);
    }
    return REP_NONE;
}

bool board_may_repeat_key(const Board *b, uint64_t key_after, int rule60_after)
{
    /* The scan of repetition_judge, for the position one ply ahead. */
    const int ply = b->ply + 1;
    int window = rule60_after;
    if (window > ply)
        window = ply;
    if (window < 4)
        return false;
    for (int j = ply - 4; j >= ply - window; j -= 2)
        if (b->hist[j].key == key_after)
            return true;
    return false;
}

bool board_may_repeat_after(const Board *b, Move m)
{
    return board_may_repeat_key(b, board_key_after(b, m), board_rule60_after(b, m));
}

RepVerdict board_repetition(Board *b, int root_ply, int before_root_count)
{
    RepKind kind;
    return repetition_judge(b, root_ply, before_root_count, &kind);
}

/* ------------------------------------------------------------ game state */

bool board_insufficient_material(const Board *b)
{
    static const int ATTACKERS[4] = {HORSE, ROOK, CANNON, PAWN};
    for (int c = 0; c < 2; c++)
        for (int i = 0; i < 4; i++)
            if (b->count[piece_make(c, ATTACKERS[i])])
                return false;
    return true;
}

GameResult board_game_result(Board *b, GameReason *reason)
{
    GameResult side_loses = b->side == RED ? RESULT_BLACK_WINS : RESULT_RED_WINS;
    GameResult side_wins = b->side == RED ? RESULT_RED_WINS : RESULT_BLACK_WINS;
    GameResult result = RESULT_NONE;
    GameReason why = REASON_NONE;

    /* 1. No legal move loses, in check or not. */
    if (!board_has_legal_move(b)) {
        result = side_loses;
        why = board_in_check(b) ? REASON_CHECKMATE : REASON_STALEMATE;
    } else {
        /* 2. Third occurrence of the position. */
        RepKind kind;
        RepVerdict v = repetition_judge(b, b->ply + 1, 2, &kind);
        if (v == REP_WIN || v == REP_LOSS) {
            result = v == REP_WIN ? side_wins : side_loses;
            why = kind == REP_KIND_CHECK ? REASON_PERPETUAL_CHECK : REASON_PERPETUAL_CHASE;
        } else if (v == REP_DRAW) {
            result = RESULT_DRAW;
            why = REASON_REPETITION;
        } else if (board_rule60(b) >= BOARD_RULE60_PLIES) {
            /* 3. Natural limit (a mate on the last move was caught above). */
            result = RESULT_DRAW;
            why = REASON_RULE60;
        } else if (board_insufficient_material(b)) {
            /* 4. Nobody can attack any more. */
            result = RESULT_DRAW;
            why = REASON_INSUFFICIENT;
        }
    }
    if (reason)
        *reason = why;
    return result;
}

const char *board_reason_name(GameReason r)
{
    switch (r) {
    case REASON_NONE: return "none";
    case REASON_CHECKMATE: return "checkmate";
    case REASON_STALEMATE: return "stalemate";
    case REASON_PERPETUAL_CHECK: return "perpetual check";
    case REASON_PERPETUAL_CHASE: return "perpetual chase";
    case REASON_REPETITION: return "repetition";
    case REASON_RULE60: return "60-move rule";
    case REASON_INSUFFICIENT: return "insufficient material";
    }
    return "unknown";
}
