/* movegen.c — attacks, legal move generation, legality of single moves, SEE, perft. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "tables.h"

/* ---------------------------------------------------------------- attacks */

/* Whether the piece-list square sq (SQ_NONE for an empty slot) is one of
 * the points of a reach set. */
static inline bool reach_has(const StepReach *r, int sq)
{
    return sq != SQ_NONE && ((r->w[sq >> 6] >> (sq & 63)) & 1);
}

/* Whether either horse of piece list pl stands where a horse step from sq
 * lands. A horse step is its own reverse, so only then can one of them
 * attack sq (or be stopped from it by a piece on its leg). */
static inline bool horse_in_reach(const uint8_t *pl, int sq)
{
    const StepReach *r = &board_horse_reach[sq];
    return reach_has(r, pl[SLOT_HORSE]) || reach_has(r, pl[SLOT_HORSE + 1]);
}

/* Is square t attacked by colour `by` in the position that results from moving
 * the piece `mover` from `from` to `to`? from = to = -1 asks about the current
 * position. The board is not touched: the move is applied "virtually" to the
 * two occupancy masks through t and to the few squares the tests read.
 * `full` also counts advisors, elephants and the general's own steps, which
 * can never reach an enemy general and so are skipped for check tests.
 * The mover is never of colour `by` (it is the other side's, or none), so
 * a piece of `by` stands on s after the move exactly when it stands there
 * now and s is not `to` (`from` holds the mover now): BY_AT reads the
 * board first, and the move's squares only when that matches. */
static inline bool attacked_virtual(const Board *b, int t, int by, int from, int to, Piece mover, bool full)
{
#define PIECE_AT(s) ((s) == to ? mover : (s) == from ? PIECE_NONE : b->sq[s])
#define BY_AT(s, piece) (b->sq[s] == (piece) && (s) != to)
    int tr = sq_rank(t), tf = sq_file(t);
    unsigned rocc = b->rank_occ[tr], focc = b->file_occ[tf];
    if (from >= 0) {
        if (sq_rank(from) == tr)
            rocc &= ~(1u << sq_file(from));
        if (sq_file(from) == tf)
            focc &= ~(1u << sq_rank(from));
        if (sq_rank(to) == tr)
            rocc |= 1u << sq_file(to);
        if (sq_file(to) == tf)
            focc |= 1u << sq_rank(to);
    }
    const Piece rook = piece_make(by, ROOK), cannon = piece_make(by, CANNON);
    const Piece horse = piece_make(by, HORSE), pawn = piece_make(by, PAWN), king = piece_make(by, KING);

    /* Rooks and the flying general: the first piece each way along the lines. */
    const SlideEntry *re = &board_rank_slide[tf][rocc];
    const SlideEntry *fe = &board_file_slide[tr][focc];
    for (unsigned bits = re->first; bits; bits &= bits - 1) {
        int s = tr * FILE_NB + __builtin_ctz(bits);
        if (BY_AT(s, rook))
            return true;
    }
    for (unsigned bits = fe->first; bits; bits &= bits - 1) {
        int s = __builtin_ctz(bits) * FILE_NB + tf;
        Piece p = PIECE_AT(s);
        if (p == rook)
            return true;
        if (p == king && PIECE_AT(t) == piece_make(by ^ 1, KING))
            return true;
    }
    /* Cannons: the second piece each way, the first being the screen. */
    for (unsigned bits = re->second; bits; bits &= bits - 1) {
        int s = tr * FILE_NB + __builtin_ctz(bits);
        if (BY_AT(s, cannon))
            return true;
    }
    for (unsigned bits = fe->second; bits; bits &= bits - 1) {
        int s = __builtin_ctz(bits) * FILE_NB + tf;
        if (BY_AT(s, cannon))
            return true;
    }
    /* Horses: the leg is the point diagonally next to the target; when
     * neither horse of `by` is in reach, the legs need no look. */
    if (horse_in_reach(b->plist[by], t)) {
        const StepList *hl = &board_horse_attackers[t];
        for (int i = 0; i < hl->count; i++) {
            int hs = hl->steps[i].to;
            if (BY_AT(hs, horse) && PIECE_AT(hl->steps[i].block) == PIECE_NONE)
                return true;
        }
    }
    const StepList *pl = &board_pawn_attackers[by][t];
    for (int i = 0; i < pl->count; i++)
        if (BY_AT(pl->steps[i].to, pawn))
            return true;
    if (full) {
        if (board_in_palace[by][t]) {
            const StepList *kl = &board_king_steps[t];
            for (int i = 0; i < kl->count; i++)
                if (BY_AT(kl->steps[i].to, king))
                    return true;
            const StepList *al = &board_advisor_steps[t];
            for (int i = 0; i < al->count; i++)
                if (BY_AT(al->steps[i].to, piece_make(by, ADVISOR)))
                    return true;
        }
        const StepList *el = &board_elephant_steps[t];
        for (int i = 0; i < el->count; i++)
            if (BY_AT(el->steps[i].to, piece_make(by, ELEPHANT)) && PIECE_AT(el->steps[i].block) == PIECE_NONE)
                return true;
    }
    return false;
#undef PIECE_AT
#undef BY_AT
}

/* Adds the targets of a leaper's steps whose leg or eye is free. */
static inline void add_step_targets(const Board *b, const StepList *st, SqSet *out)
{
    for (int i = 0; i < st->count; i++) {
        const int blk = st->steps[i].block;
        if (blk == SQ_NONE || !b->sq[blk])
            sqset_add(out, st->steps[i].to);
    }
}

/* The positions on a line past s, seen from p (s != p). */
static inline unsigned beyond(int p, int s) { return s > p ? ~((2u << s) - 1) : (1u << s) - 1; }

/* Adds what a cannon on sq attacks: past each screen, the empty points up
 * to the next piece and that piece. */
static void add_cannon_targets(const Board *b, int sq, SqSet *out)
{
    const int r = sq_rank(sq), f = sq_file(sq);
    const unsigned rocc = b->rank_occ[r], focc = b->file_occ[f];
    for (unsigned sc = board_rank_slide[f][rocc].first; sc; sc &= sc - 1) {
        const int s = __builtin_ctz(sc);
        const SlideEntry *e = &board_rank_slide[s][rocc];
        for (unsigned bits = (e->quiet | e->first) & beyond(f, s) & ((1u << FILE_NB) - 1); bits; bits &= bits - 1)
            sqset_add(out, r * FILE_NB + __builtin_ctz(bits));
    }
    for (unsigned sc = board_file_slide[r][focc].first; sc; sc &= sc - 1) {
        const int s = __builtin_ctz(sc);
        const SlideEntry *e = &board_file_slide[s][focc];
        for (unsigned bits = (e->quiet | e->first) & beyond(r, s) & ((1u << RANK_NB) - 1); bits; bits &= bits - 1)
            sqset_add(out, __builtin_ctz(bits) * FILE_NB + f);
    }
}

/* Adds the step targets of `count` leapers in the piece-list slots from
 * `slots` on, each read from its square's entry of `table`. */
static inline void add_leaper_targets(const Board *b, const uint8_t *slots, int count, const StepList *table,
                                      SqSet *out)
{
    for (int i = 0; i < count; i++)
        if (slots[i] != SQ_NONE)
            add_step_targets(b, &table[slots[i]], out);
}

void board_threats(const Board *b, BoardThreats *t)
{
    const int them = b->side ^ 1;
    const uint8_t *pl = b->plist[them];
    SqSet low = {{0, 0}};
    add_leaper_targets(b, pl + BOARD_SLOT_FIRST[ADVISOR], BOARD_SLOT_COUNT[ADVISOR], board_advisor_steps, &low);
    add_leaper_targets(b, pl + BOARD_SLOT_FIRST[ELEPHANT], BOARD_SLOT_COUNT[ELEPHANT], board_elephant_steps, &low);
    add_leaper_targets(b, pl + SLOT_PAWN, SLOTS_PAWN, board_pawn_steps[them], &low);
    SqSet mid = low;
    add_leaper_targets(b, pl + SLOT_HORSE, SLOTS_PER_PIECE, board_horse_steps, &mid);
    for (int i = 0; i < SLOTS_PER_PIECE; i++)
        if (pl[SLOT_CANNON + i] != SQ_NONE)
            add_cannon_targets(b, pl[SLOT_CANNON + i], &mid);
    t->below_minor = low;
    t->below_rook = mid;
}

bool board_is_attacked(const Board *b, int sq, int by)
{
    return attacked_virtual(b, sq, by, -1, -1, PIECE_NONE, true);
}

/* Does colour `by` check the general on ks once its move from -> to is made?
 * Before that move nothing attacked ks: the side that moved last never
 * leaves its general attacked, and a FEN with the side not to move in check
 * is refused. So only what the move changed can check, and only that is
 * scanned:
 *  - the general's rank and file, when a square of the move lies on them
 *    (the mover itself, a line it opened, or a cannon screen it made or took
 *    away);
 *  - horses, when the mover is one, or when `from` was a horse leg (legs are
 *    diagonally next to the general);
 *  - the mover itself, when it is a pawn.
 * `virt` says the move is not made yet: then the board is read as if it were,
 * as attacked_virtual does; otherwise the board already shows it. */
static inline bool move_checks(const Board *b, int ks, int by, int from, int to, Piece mover, bool virt)
{
    const int vfrom = virt ? from : -1, vto = virt ? to : -1;
#define PIECE_AT(s) ((s) == vto ? mover : (s) == vfrom ? PIECE_NONE : b->sq[s])
    const int kr = sq_rank(ks), kf = sq_file(ks);
    const int fr = sq_rank(from), ff = sq_file(from), tr = sq_rank(to), tf = sq_file(to);
    const Piece rook = piece_make(by, ROOK), cannon = piece_make(by, CANNON);
    if (fr == kr || tr == kr) {
        unsigned rocc = b->rank_occ[kr];
        if (virt)
            rocc = (rocc & ~((unsigned)(fr == kr) << ff)) | ((unsigned)(tr == kr) << tf);
        const SlideEntry *re = &board_rank_slide[kf][rocc];
        for (unsigned bits = re->first; bits; bits &= bits - 1)
            if (PIECE_AT(kr * FILE_NB + __builtin_ctz(bits)) == rook)
                return true;
        for (unsigned bits = re->second; bits; bits &= bits - 1)
            if (PIECE_AT(kr * FILE_NB + __builtin_ctz(bits)) == cannon)
                return true;
    }
    if (ff == kf || tf == kf) {
        unsigned focc = b->file_occ[kf];
        if (virt)
            focc = (focc & ~((unsigned)(ff == kf) << fr)) | ((unsigned)(tf == kf) << tr);
        const SlideEntry *fe = &board_file_slide[kr][focc];
        for (unsigned bits = fe->first; bits; bits &= bits - 1) {
            Piece p = PIECE_AT(__builtin_ctz(bits) * FILE_NB + kf);
            if (p == rook || p == piece_make(by, KING))
                return true;
        }
        for (unsigned bits = fe->second; bits; bits &= bits - 1)
            if (PIECE_AT(__builtin_ctz(bits) * FILE_NB + kf) == cannon)
                return true;
    }
    const Piece horse = piece_make(by, HORSE);
    if (mover == horse || ((fr - kr) * (fr - kr) == 1 && (ff - kf) * (ff - kf) == 1)) {
        const StepList *hl = &board_horse_attackers[ks];
        for (int i = 0; i < hl->count; i++)
            if (PIECE_AT(hl->steps[i].to) == horse && PIECE_AT(hl->steps[i].block) == PIECE_NONE)
                return true;
    }
    if (mover == piece_make(by, PAWN)) {
        const StepList *pl = &board_pawn_attackers[by][ks];
        for (int i = 0; i < pl->count; i++)
            if (pl->steps[i].to == to)
                return true;
    }
    return false;
#undef PIECE_AT
}

bool board_move_gave_check(const Board *b, int from, int to)
{
    int them = b->side, us = them ^ 1;
    return move_checks(b, b->plist[them][0], us, from, to, b->sq[to], false);
}

/* Does the move leave the mover's own general safe? */
static inline bool king_safe_after(const Board *b, int from, int to)
{
    int us = b->side;
    Piece p = b->sq[from];
    if (piece_type(p) == KING)
        return !attacked_virtual(b, to, us ^ 1, from, to, p, false);
    /* Not in check, the general stays put and nothing attacked it: only
     * what the move changes can expose it (see move_checks). */
    if (!b->hist[b->ply].check)
        return !move_checks(b, b->plist[us][0], us ^ 1, from, to, p, true);
    return !attacked_virtual(b, b->plist[us][0], us ^ 1, from, to, p, false);
}

/* The checks on the side to move's general, gathered once for testing many
 * evasions (evasion_safe): whether a rook, cannon or the facing general
 * checks along its rank or file, and the horses (with their legs) and
 * pawns that check it. compute_evasion_points fills it as it finds them. */
typedef struct Checkers {
    bool rank, file;
    int horses, pawns;
    uint8_t horse_sq[2], horse_leg[2], pawn_sq[3];
} Checkers;

/* king_safe_after for the side in check, with its checkers gathered: a move
 * of another piece is legal when it answers every checker (a line checker
 * needs the move to touch its line, a horse to be taken or have its leg
 * blocked, a pawn to be taken) and the lines and legs it touches then hold
 * no attack on the general, which move_checks tells, as out of check: those
 * lines are scanned whole, checkers and all. The general's own moves get
 * the full test. */
static inline bool evasion_safe(const Board *b, const Checkers *c, int from, int to)
{
    const int us = b->side, ks = b->plist[us][0];
    const Piece p = b->sq[from];
    if (piece_type(p) == KING)
        return !attacked_virtual(b, to, us ^ 1, from, to, p, false);
    const int kr = sq_rank(ks), kf = sq_file(ks);
    if (c->rank && sq_rank(from) != kr && sq_rank(to) != kr)
        return false;
    if (c->file && sq_file(from) != kf && sq_file(to) != kf)
        return false;
    for (int i = 0; i < c->horses; i++)
        if (to != c->horse_sq[i] && to != c->horse_leg[i])
            return false;
    for (int i = 0; i < c->pawns; i++)
        if (to != c->pawn_sq[i])
            return false;
    return !move_checks(b, ks, us ^ 1, from, to, p, true);
}

/* The squares move_checks() can react to, looked up by the mover's colour
 * and the enemy general's square (see board_check_filters). */
void board_check_filter(const Board *b, BoardCheckFilter *f)
{
    *f = board_check_filters[b->side][b->plist[b->side ^ 1][0]];
}

bool board_gives_check(const Board *b, Move m)
{
    int from = move_from(m), to = move_to(m), us = b->side;
    return move_checks(b, b->plist[us ^ 1][0], us, from, to, b->sq[from], true);
}

/* ------------------------------------------------------------- generation */

enum { WANT_QUIETS = 1, WANT_CAPTURES = 2 };

/* Whether a move onto a square holding this piece is wanted, by the `want`
 * bits and the mover's colour: empty squares for quiets, enemy pieces for
 * captures. A table rather than tests, so generation has no data-dependent
 * branches: which targets are free is what a predictor cannot guess. */
static const uint8_t TARGET_OK[4][2][PIECE_NB] = {
    {{0}, {0}},
    {{1}, {1}},
    {{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1}, {0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0}},
    {{1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0}},
};

static inline void add(MoveList *l, int from, int to) { l->moves[l->count++] = move_make(from, to); }

/* A leaper's moves. Elephant and horse steps always have an eye or leg to
 * test (`blockable`), the others never. Each step is written and kept or
 * not by its count: MAX_MOVES leaves room for the one extra write. */
static inline void gen_steps(const Board *b, MoveList *l, int from, const StepList *st, int want, bool blockable)
{
    const uint8_t *ok = TARGET_OK[want][b->side];
    int n = l->count;
    for (int i = 0; i < st->count; i++) {
        int to = st->steps[i].to;
        int keep = ok[b->sq[to]];
        if (blockable)
            keep &= b->sq[st->steps[i].block] == PIECE_NONE;
        l->moves[n] = move_make(from, to);
        n += keep;
    }
    l->count = n;
}

static inline void gen_slider(const Board *b, MoveList *l, int from, bool cannon, int want)
{
    int r = sq_rank(from), f = sq_file(from);
    const SlideEntry *re = &board_rank_slide[f][b->rank_occ[r]];
    const SlideEntry *fe = &board_file_slide[r][b->file_occ[f]];
    if (want & WANT_CAPTURES) {
        const uint8_t *ok = TARGET_OK[WANT_CAPTURES][b->side];
        unsigned rb = cannon ? re->second : re->first, fb = cannon ? fe->second : fe->first;
        int n = l->count;
        for (; rb; rb &= rb - 1) {
            int to = r * FILE_NB + __builtin_ctz(rb);
            l->moves[n] = move_make(from, to);
            n += ok[b->sq[to]];
        }
        for (; fb; fb &= fb - 1) {
            int to = __builtin_ctz(fb) * FILE_NB + f;
            l->moves[n] = move_make(from, to);
            n += ok[b->sq[to]];
        }
        l->count = n;
    }
    if (want & WANT_QUIETS) {
        for (unsigned rb = re->quiet; rb; rb &= rb - 1)
            add(l, from, r * FILE_NB + __builtin_ctz(rb));
        for (unsigned fb = fe->quiet; fb; fb &= fb - 1)
            add(l, from, __builtin_ctz(fb) * FILE_NB + f);
    }
}

/* Whether a leaper with these targets (legs and eyes aside) can reach a
 * point of the set: with the enemy pieces as the set, whether it may
 * capture; with the evasion points, whether it may answer a check. */
static inline bool reach_meets(const SqSet *set, const StepReach *reach)
{
    return ((set->w[0] & reach->w[0]) | (set->w[1] & reach->w[1])) != 0;
}

/* Pseudo-legal moves: obey every movement rule, but may leave the own general
 * attacked (or facing the other general). For captures alone, a leaper none
 * of whose targets holds an enemy piece is passed over without looking at
 * its steps one by one (most of them, most of the time); the enemy pieces'
 * set is the union of their points (board_sq_point: an empty slot adds
 * nothing), with no test per slot. The other kinds skip that filter, which
 * would read a reach set only to find it not empty. Forced inline, so that
 * board_generate gets a copy for each constant `want`, without its tests. */
static inline __attribute__((always_inline)) void gen_pseudo(const Board *b, MoveList *l, int want)
{
    int us = b->side;
    const uint8_t *pl = b->plist[us];
    l->count = 0;
    SqSet enemy = {{0, 0}};
    const bool captures_only = want == WANT_CAPTURES;
    if (captures_only) {
        const uint8_t *el = b->plist[us ^ 1];
        for (int i = 0; i < SLOT_NB; i++) {
            enemy.w[0] |= board_sq_point[el[i]].w[0];
            enemy.w[1] |= board_sq_point[el[i]].w[1];
        }
    }
#define MAY_CAPTURE(reach) (!captures_only || reach_meets(&enemy, (reach)))
    if (MAY_CAPTURE(&board_king_reach[pl[0]]))
        gen_steps(b, l, pl[0], &board_king_steps[pl[0]], want, false);
    for (int i = 1; i <= 2; i++)
        if (pl[i] != SQ_NONE && MAY_CAPTURE(&board_advisor_reach[pl[i]]))
            gen_steps(b, l, pl[i], &board_advisor_steps[pl[i]], want, false);
    for (int i = 3; i <= 4; i++)
        if (pl[i] != SQ_NONE && MAY_CAPTURE(&board_elephant_reach[pl[i]]))
            gen_steps(b, l, pl[i], &board_elephant_steps[pl[i]], want, true);
    for (int i = 5; i <= 6; i++)
        if (pl[i] != SQ_NONE && MAY_CAPTURE(&board_horse_reach[pl[i]]))
            gen_steps(b, l, pl[i], &board_horse_steps[pl[i]], want, true);
    for (int i = 7; i <= 8; i++)
        if (pl[i] != SQ_NONE)
            gen_slider(b, l, pl[i], false, want);
    for (int i = 9; i <= 10; i++)
        if (pl[i] != SQ_NONE)
            gen_slider(b, l, pl[i], true, want);
    for (int i = 11; i <= 15; i++)
        if (pl[i] != SQ_NONE && MAY_CAPTURE(&board_pawn_reach[us][pl[i]]))
            gen_steps(b, l, pl[i], &board_pawn_steps[us][pl[i]], want, false);
#undef MAY_CAPTURE
}

/* Looks along one line (rank or file) through the own general and marks:
 * in `from_risk` own pieces whose departure can expose the general (the only
 * blocker before an enemy rook or facing general, or one of two screens
 * before an enemy cannon); in `to_risk` the empty points between the general
 * and an unscreened enemy cannon, where an arriving piece becomes a screen. */
static inline void scan_line(const Board *b, int them, bool is_file, int line, int pos, unsigned occ, SqSet *from_risk,
                      SqSet *to_risk)
{
    const SlideEntry *tab = is_file ? board_file_slide[pos] : board_rank_slide[pos];
    unsigned first = tab[occ].first, second = tab[occ].second;
    unsigned third = tab[occ & ~(first | second)].first;
    const Piece rook = piece_make(them, ROOK), cannon = piece_make(them, CANNON), king = piece_make(them, KING);
    for (int dir = 0; dir < 2; dir++) {
        /* dir 0: points below pos, dir 1: points above it. */
        unsigned below = (1u << pos) - 1;
        unsigned m1 = first & (dir ? ~below : below), m2 = second & (dir ? ~below : below);
        unsigned m3 = third & (dir ? ~below : below);
        m3 &= ~(first | second);
        if (!m1)
            continue;
        int i1 = __builtin_ctz(m1), s1 = is_file ? i1 * FILE_NB + line : line * FILE_NB + i1;
        Piece p1 = b->sq[s1];
        if (p1 == cannon) {
            int lo = i1 < pos ? i1 + 1 : pos + 1, hi = i1 < pos ? pos : i1;
            for (int i = lo; i < hi; i++)
                sqset_add(to_risk, is_file ? i * FILE_NB + line : line * FILE_NB + i);
        }
        if (!m2)
            continue;
        int i2 = __builtin_ctz(m2), s2 = is_file ? i2 * FILE_NB + line : line * FILE_NB + i2;
        Piece p2 = b->sq[s2], p3 = PIECE_NONE;
        if (m3) {
            int i3 = __builtin_ctz(m3);
            p3 = b->sq[is_file ? i3 * FILE_NB + line : line * FILE_NB + i3];
        }
        /* A line attacker two or three pieces out: removing (or trading along
         * the line) one of the first two pieces can open the line. */
        bool danger = p2 == rook || p2 == cannon || (is_file && p2 == king) || p3 == rook || p3 == cannon ||
                      (is_file && p3 == king);
        if (!danger)
            continue;
        if (piece_color(p1) != them)
            sqset_add(from_risk, s1);
        if (piece_color(p2) != them)
            sqset_add(from_risk, s2);
    }
}

/* The squares whose moves need the full legality test out of check. */
static void compute_risks(const Board *b, SqSet *from_risk, SqSet *to_risk)
{
    int us = b->side, them = us ^ 1;
    int ks = b->plist[us][0], kr = sq_rank(ks), kf = sq_file(ks);
    const uint8_t *enemy = b->plist[them];
    from_risk->w[0] = from_risk->w[1] = to_risk->w[0] = to_risk->w[1] = 0;
    /* A line can only hold a risk with an enemy rook or cannon on it (or,
     * on the file, the enemy general): most often neither line has one, and
     * the piece list tells so faster than a scan. */
    bool rank_line = false, file_line = sq_file(enemy[0]) == kf;
    for (int i = 7; i <= 10; i++) { /* the rook and cannon slots */
        int s = enemy[i];
        if (s == SQ_NONE)
            continue;
        rank_line |= sq_rank(s) == kr;
        file_line |= sq_file(s) == kf;
    }
    if (rank_line)
        scan_line(b, them, false, kr, kf, b->rank_occ[kr], from_risk, to_risk);
    if (file_line)
        scan_line(b, them, true, kf, kr, b->file_occ[kf], from_risk, to_risk);
    /* An own piece on a horse's leg shields the general from that horse;
     * with no enemy horse in reach, no leg needs a look. */
    if (horse_in_reach(enemy, ks)) {
        const StepList *hl = &board_horse_attackers[ks];
        for (int i = 0; i < hl->count; i++)
            if (b->sq[hl->steps[i].to] == piece_make(them, HORSE) && b->sq[hl->steps[i].block])
                sqset_add(from_risk, hl->steps[i].block);
    }
    sqset_add(from_risk, ks);
}

/* Marks the points between two squares of one line (exclusive). */
static void add_between(SqSet *set, int a, int c)
{
    int ar = sq_rank(a), af = sq_file(a), cr = sq_rank(c), cf = sq_file(c);
    int step = ar == cr ? (cf > af ? 1 : -1) : (cr > ar ? FILE_NB : -FILE_NB);
    for (int s = a + step; s != c; s += step)
        sqset_add(set, s);
}

/* In check, a move other than the general's own can only help if it lands
 * on a checker or between it and the general (a block, a second cannon
 * screen, a horse leg), or if it takes a cannon's screen away. This marks
 * those points: `to_ok` for arrivals, `from_ok` for departures. Every other
 * non-general move leaves each checker checking, so it needs no test.
 * The checkers it finds on the way go to *c (evasion_safe's input). */
static void compute_evasion_points(const Board *b, SqSet *to_ok, SqSet *from_ok, Checkers *c)
{
    int us = b->side, them = us ^ 1;
    int ks = b->plist[us][0], kr = sq_rank(ks), kf = sq_file(ks);
    to_ok->w[0] = to_ok->w[1] = from_ok->w[0] = from_ok->w[1] = 0;
    c->rank = c->file = false;
    c->horses = c->pawns = 0;
    const Piece rook = piece_make(them, ROOK), cannon = piece_make(them, CANNON), king = piece_make(them, KING);
    const SlideEntry *lines[2] = {&board_rank_slide[kf][b->rank_occ[kr]], &board_file_slide[kr][b->file_occ[kf]]};
    for (int is_file = 0; is_file < 2; is_file++) {
        const SlideEntry *e = lines[is_file];
        for (unsigned bits = e->first; bits; bits &= bits - 1) {
            int i = __builtin_ctz(bits), s = is_file ? i * FILE_NB + kf : kr * FILE_NB + i;
            if (b->sq[s] == rook || b->sq[s] == king) {
                sqset_add(to_ok, s);
                add_between(to_ok, ks, s);
                *(is_file ? &c->file : &c->rank) = true;
            }
        }
        for (unsigned bits = e->second; bits; bits &= bits - 1) {
            int i = __builtin_ctz(bits), s = is_file ? i * FILE_NB + kf : kr * FILE_NB + i;
            if (b->sq[s] != cannon)
                continue;
            sqset_add(to_ok, s);
            *(is_file ? &c->file : &c->rank) = true;
            /* Every point between is a block except the screen, which can
             * leave instead. */
            add_between(to_ok, ks, s);
            unsigned side = i > (is_file ? kr : kf) ? e->first & ~((2u << (is_file ? kr : kf)) - 1)
                                                    : e->first & ((1u << (is_file ? kr : kf)) - 1);
            int j = __builtin_ctz(side), screen = is_file ? j * FILE_NB + kf : kr * FILE_NB + j;
            sqset_add(from_ok, screen);
        }
    }
    /* Horse checks, looked for only when an enemy horse is in reach. */
    if (horse_in_reach(b->plist[them], ks)) {
        const StepList *hl = &board_horse_attackers[ks];
        for (int i = 0; i < hl->count; i++)
            if (b->sq[hl->steps[i].to] == piece_make(them, HORSE) && !b->sq[hl->steps[i].block]) {
                sqset_add(to_ok, hl->steps[i].to);
                sqset_add(to_ok, hl->steps[i].block);
                c->horse_sq[c->horses] = hl->steps[i].to;
                c->horse_leg[c->horses++] = hl->steps[i].block;
            }
    }
    const StepList *pl = &board_pawn_attackers[them][ks];
    for (int i = 0; i < pl->count; i++)
        if (b->sq[pl->steps[i].to] == piece_make(them, PAWN)) {
            sqset_add(to_ok, pl->steps[i].to);
            c->pawn_sq[c->pawns++] = pl->steps[i].to;
        }
    sqset_add(from_ok, ks);
}

/* filter_legal relies on the general's moves coming first in a list (see
 * there); Debug builds check that no later move is the general's. */
#ifdef CHARIOT_DEBUG
static void debug_check_no_move_from(const MoveList *l, int start, int sq)
{
    for (int i = start; i < l->count; i++)
        if (move_from(l->moves[i]) == sq) {
            fprintf(stderr, "filter_legal: a general's move after the first ones\n");
            abort();
        }
}
#else
static inline void debug_check_no_move_from(const MoveList *l, int start, int sq) { (void)l, (void)start, (void)sq; }
#endif

/* Out of check, lists up to this long are tested move by move rather than
 * through compute_risks (the bench's cheapest cut-off; most capture lists
 * are this short). */
enum { FILTER_DIRECT_MAX = 3 };

/* Keeps the legal moves. In check, only the moves compute_evasion_points()
 * lets through get the full attack test. Out of check, only general moves
 * and the moves that compute_risks() flags can expose the general, so only
 * those get it. */
static void filter_legal(const Board *b, MoveList *l)
{
    /* Often no capture at all: then there is nothing to look at. */
    if (l->count == 0)
        return;
    int n = 0;
    if (b->hist[b->ply].check) {
        SqSet to_ok, from_ok;
        Checkers checkers;
        compute_evasion_points(b, &to_ok, &from_ok, &checkers);
        for (int i = 0; i < l->count; i++) {
            Move m = l->moves[i];
            int from = move_from(m), to = move_to(m);
            if ((sqset_has(&from_ok, from) || sqset_has(&to_ok, to)) && king_safe_after(b, from, to))
                l->moves[n++] = m;
        }
        l->count = n;
        return;
    }
    /* A short list (most capture lists) is cheaper to test move by move
     * than to flag: the test is exact for any move out of check. */
    if (l->count <= FILTER_DIRECT_MAX) {
        for (int i = 0; i < l->count; i++)
            if (king_safe_after(b, move_from(l->moves[i]), move_to(l->moves[i])))
                l->moves[n++] = l->moves[i];
        l->count = n;
        return;
    }
    SqSet from_risk, to_risk;
    compute_risks(b, &from_risk, &to_risk);
    const int ks = b->plist[b->side][0];
    SqSet others = from_risk;
    others.w[ks >> 6] &= ~(1ull << (ks & 63));
    if (!(to_risk.w[0] | to_risk.w[1] | others.w[0] | others.w[1])) {
        /* Only the general's own moves can fail (the usual case): both
         * generators that come here list them first (slot 0), so only
         * that prefix is tested, and the moves after it need no look. */
        int i = 0;
        for (; i < l->count && move_from(l->moves[i]) == ks; i++)
            if (king_safe_after(b, ks, move_to(l->moves[i])))
                l->moves[n++] = l->moves[i];
        debug_check_no_move_from(l, i, ks);
        if (n < i) {
            for (; i < l->count; i++)
                l->moves[n++] = l->moves[i];
            l->count = n;
        }
        return;
    }
    if (!(to_risk.w[0] | to_risk.w[1])) {
        /* No bare cannon aims at the general (the usual case): only the
         * departure square can flag a move. The first move that fails
         * starts the compaction; until then the list stays as it is. */
        int i = 0;
        for (; i < l->count; i++) {
            int from = move_from(l->moves[i]);
            if (sqset_has(&from_risk, from) && !king_safe_after(b, from, move_to(l->moves[i])))
                break;
        }
        n = i;
        for (i++; i < l->count; i++) {
            Move m = l->moves[i];
            int from = move_from(m);
            if (!sqset_has(&from_risk, from) || king_safe_after(b, from, move_to(m)))
                l->moves[n++] = m;
        }
        l->count = n;
        return;
    }
    for (int i = 0; i < l->count; i++) {
        Move m = l->moves[i];
        int from = move_from(m), to = move_to(m);
        if ((!sqset_has(&from_risk, from) && !sqset_has(&to_risk, to)) || king_safe_after(b, from, to))
            l->moves[n++] = m;
    }
    l->count = n;
}

/* Counts the pseudo-legal moves of a leaper without listing them. */
static inline int count_steps(const Board *b, const StepList *st)
{
    int us = b->side, n = 0;
    for (int i = 0; i < st->count; i++) {
        int blk = st->steps[i].block;
        if (blk != SQ_NONE && b->sq[blk])
            continue;
        Piece q = b->sq[st->steps[i].to];
        n += !q || piece_color(q) != us;
    }
    return n;
}

static inline int count_slider(const Board *b, int from, bool cannon)
{
    int us = b->side, r = sq_rank(from), f = sq_file(from);
    const SlideEntry *re = &board_rank_slide[f][b->rank_occ[r]];
    const SlideEntry *fe = &board_file_slide[r][b->file_occ[f]];
    int n = re->quiet_count + fe->quiet_count;
    for (unsigned rb = cannon ? re->second : re->first; rb; rb &= rb - 1)
        n += piece_color(b->sq[r * FILE_NB + __builtin_ctz(rb)]) != us;
    for (unsigned fb = cannon ? fe->second : fe->first; fb; fb &= fb - 1)
        n += piece_color(b->sq[__builtin_ctz(fb) * FILE_NB + f]) != us;
    return n;
}

/* The pseudo-legal moves of the piece standing on from. */
static inline void gen_piece(const Board *b, MoveList *l, int from)
{
    const int want = WANT_QUIETS | WANT_CAPTURES;
    l->count = 0;
    switch (piece_type(b->sq[from])) {
    case KING: gen_steps(b, l, from, &board_king_steps[from], want, false); break;
    case ADVISOR: gen_steps(b, l, from, &board_advisor_steps[from], want, false); break;
    case ELEPHANT: gen_steps(b, l, from, &board_elephant_steps[from], want, true); break;
    case HORSE: gen_steps(b, l, from, &board_horse_steps[from], want, true); break;
    case ROOK: gen_slider(b, l, from, false, want); break;
    case CANNON: gen_slider(b, l, from, true, want); break;
    default: gen_steps(b, l, from, &board_pawn_steps[b->side][from], want, false); break;
    }
}

/* Legal moves of the piece on `from`, one by one (for flagged pieces). */
static int count_tested(const Board *b, int from)
{
    MoveList l;
    gen_piece(b, &l, from);
    int n = 0;
    for (int i = 0; i < l.count; i++)
        n += king_safe_after(b, from, move_to(l.moves[i]));
    return n;
}

/* Legal moves in check: only the moves compute_evasion_points() lets
 * through are tested, and a piece none of whose moves can pass (a rook or
 * cannon with no such point on its rank or file and not a screen, a
 * leaper with none within reach) is not even generated. Listed into `out`
 * when it is not NULL, in gen_pseudo's order (the moves filter_legal
 * keeps from GEN_ALL); the count is returned either way. */
static inline int list_evasions(const Board *b, MoveList *out)
{
    SqSet to_ok, from_ok;
    Checkers checkers;
    compute_evasion_points(b, &to_ok, &from_ok, &checkers);
    /* The to_ok points by line: ok_rank[r] has bit f for point (f, r),
     * ok_file[f] bit r. */
    uint16_t ok_rank[RANK_NB] = {0}, ok_file[FILE_NB] = {0};
    for (int w = 0; w < 2; w++)
        for (uint64_t bits = to_ok.w[w]; bits; bits &= bits - 1) {
            int sq = w * 64 + __builtin_ctzll(bits);
            ok_rank[sq_rank(sq)] |= (uint16_t)(1u << sq_file(sq));
            ok_file[sq_file(sq)] |= (uint16_t)(1u << sq_rank(sq));
        }
    const uint8_t *pl = b->plist[b->side];
    const uint8_t *enemy = TARGET_OK[WANT_CAPTURES][b->side];
    int n = 0;
    for (int i = 0; i < SLOT_NB; i++) {
        int from = pl[i];
        if (from == SQ_NONE)
            continue;
        bool leaves_ok = sqset_has(&from_ok, from);
        int type = piece_type(b->sq[from]);
        if ((type == ROOK || type == CANNON) && !leaves_ok) {
            /* It must land on a to_ok point of its rank or file: only
             * those are looked at, in gen_slider's order (captures along
             * the rank, then the file, then quiet moves the same way). */
            const int r = sq_rank(from), f = sq_file(from);
            if (!ok_rank[r] && !ok_file[f])
                continue;
            const SlideEntry *re = &board_rank_slide[f][b->rank_occ[r]];
            const SlideEntry *fe = &board_file_slide[r][b->file_occ[f]];
            const bool cannon = type == CANNON;
            unsigned lines[4] = {(cannon ? re->second : re->first) & ok_rank[r],
                                 (cannon ? fe->second : fe->first) & ok_file[f], re->quiet & ok_rank[r],
                                 fe->quiet & ok_file[f]};
            for (int k = 0; k < 4; k++)
                for (unsigned bits = lines[k]; bits; bits &= bits - 1) {
                    const int x = __builtin_ctz(bits), to = k & 1 ? x * FILE_NB + f : r * FILE_NB + x;
                    if (k < 2 && !enemy[b->sq[to]])
                        continue;
                    if (evasion_safe(b, &checkers, from, to)) {
                        if (out)
                            out->moves[n] = move_make(from, to);
                        n++;
                    }
                }
            continue;
        }
        /* A leaper that stays out of from_ok must land on a to_ok point:
         * its reach (legs and eyes aside) tells whether any is in range. */
        const StepReach *reach = type == HORSE      ? &board_horse_reach[from]
                                 : type == ADVISOR  ? &board_advisor_reach[from]
                                 : type == ELEPHANT ? &board_elephant_reach[from]
                                 : type == PAWN     ? &board_pawn_reach[b->side][from]
                                                    : NULL;
        if (reach && !leaves_ok && !reach_meets(&to_ok, reach))
            continue;
        MoveList l;
        gen_piece(b, &l, from);
        for (int j = 0; j < l.count; j++) {
            int to = move_to(l.moves[j]);
            if ((leaves_ok || sqset_has(&to_ok, to)) && evasion_safe(b, &checkers, from, to)) {
                if (out)
                    out->moves[n] = l.moves[j];
                n++;
            }
        }
    }
    if (out)
        out->count = n;
    return n;
}

static int count_evasions(const Board *b) { return list_evasions(b, NULL); }

/* Whether the side to move has a legal move: generated piece by piece, the
 * general first, and tested only until one passes (a mate test usually
 * stops at the first general step). */
bool board_has_legal_move(const Board *b)
{
    const bool check = b->hist[b->ply].check;
    SqSet a, c; /* arrival and departure points: to_ok and from_ok in check, else to_risk and from_risk */
    Checkers checkers;
    if (check)
        compute_evasion_points(b, &a, &c, &checkers);
    else
        compute_risks(b, &c, &a);
    const uint8_t *pl = b->plist[b->side];
    for (int i = 0; i < SLOT_NB; i++) {
        int from = pl[i];
        if (from == SQ_NONE)
            continue;
        MoveList l;
        gen_piece(b, &l, from);
        for (int j = 0; j < l.count; j++) {
            int to = move_to(l.moves[j]);
            /* The same rules as filter_legal: in check, only flagged moves
             * can be legal; out of check, only flagged moves need a test. */
            bool flagged = sqset_has(&c, from) || sqset_has(&a, to);
            if (flagged ? king_safe_after(b, from, to) : !check)
                return true;
        }
    }
    return false;
}

int board_count_legal(const Board *b)
{
    SqSet from_risk, to_risk;
    if (b->hist[b->ply].check)
        return count_evasions(b);
    compute_risks(b, &from_risk, &to_risk);
    /* A piece arriving between the general and a bare cannon is rare enough
     * to take the listing path. */
    if (to_risk.w[0] | to_risk.w[1])
        goto slow;
    int us = b->side, n = 0;
    const uint8_t *pl = b->plist[us];
    for (int i = 0; i < SLOT_NB; i++) {
        int s = pl[i];
        if (s == SQ_NONE)
            continue;
        if (sqset_has(&from_risk, s)) {
            n += count_tested(b, s);
            continue;
        }
        if (i >= 11)
            n += count_steps(b, &board_pawn_steps[us][s]);
        else if (i >= 9)
            n += count_slider(b, s, true);
        else if (i >= 7)
            n += count_slider(b, s, false);
        else if (i >= 5)
            n += count_steps(b, &board_horse_steps[s]);
        else if (i >= 3)
            n += count_steps(b, &board_elephant_steps[s]);
        else
            n += count_steps(b, &board_advisor_steps[s]);
    }
    return n;
slow:;
    MoveList l;
    board_generate(b, GEN_ALL, &l);
    return l.count;
}

/* Where a quiet move of the side to move must start or land to have a
 * chance of checking the enemy general (see move_checks): it leaves a
 * square of `disc`, uncovering an own rook, cannon, horse or the facing
 * general, or it lands on a target point for its piece type. Those are the
 * empty points between the general and a bare own cannon (the screens: any
 * piece there becomes its screen) and the points from which a piece of
 * that type attacks the general itself: a rook next to it on a line, a
 * cannon one piece away, a horse whose leg is free, a pawn, and for the
 * own general the facing point on the file. Per position, not per move: a
 * generator that wants only checks finds them once and lists few moves
 * (board_gives_check still decides each). The points on the general's
 * rank and file are kept as line masks (CheckLines), which the sliders
 * read directly; only the leapers that can reach a target need them as
 * sets of squares. */
typedef struct CheckLines {
    /* [0]: the general's rank (bit = file), [1]: its file (bit = rank). */
    unsigned rook[2], cannon[2], screen[2];
} CheckLines;

/* Adds the points of a line mask (positions on rank `line` or file `line`). */
static inline void sqset_add_line(SqSet *set, unsigned bits, bool is_file, int line)
{
    for (; bits; bits &= bits - 1) {
        int i = __builtin_ctz(bits);
        sqset_add(set, is_file ? i * FILE_NB + line : line * FILE_NB + i);
    }
}

/* What a slider at point pos of the general's rank (or file) sees. */
static inline const SlideEntry *line_entry(bool is_file, int pos, unsigned occ)
{
    return is_file ? &board_file_slide[pos][occ] : &board_rank_slide[pos][occ];
}

/* The line part of the check points: scans the enemy general's rank and
 * file into *cl, and adds to `disc` the own pieces whose departure from
 * those lines uncovers an own rook, the facing general or a cannon. */
static inline void check_lines(const Board *b, SqSet *disc, CheckLines *cl)
{
    const int us = b->side, ks = b->plist[us ^ 1][0], kr = sq_rank(ks), kf = sq_file(ks);
    const Piece rook = piece_make(us, ROOK), cannon = piece_make(us, CANNON), king = piece_make(us, KING);
    for (int is_file = 0; is_file < 2; is_file++) {
        const int pos = is_file ? kr : kf, line = is_file ? kf : kr;
        const unsigned occ = is_file ? b->file_occ[kf] : b->rank_occ[kr];
        const SlideEntry *e = line_entry(is_file, pos, occ);
        unsigned rook_pts = 0, cannon_pts = 0, screen_pts = 0;
        for (int dir = 0; dir < 2; dir++) {
            /* dir 0: points below pos, dir 1: points above it. */
            const unsigned side = dir ? ~((2u << pos) - 1) : (1u << pos) - 1;
            const unsigned near = e->quiet & side, f1 = e->first & side;
            rook_pts |= near;
            if (!f1)
                continue;
            const int i1 = __builtin_ctz(f1), s1 = is_file ? i1 * FILE_NB + line : line * FILE_NB + i1;
            if (b->sq[s1] == cannon)
                screen_pts |= near;
            /* The points past the first piece, up to the second. */
            const SlideEntry *e1 = line_entry(is_file, i1, occ);
            cannon_pts |= e1->quiet & side;
            const unsigned f2 = e->second & side;
            if (!f2)
                continue;
            const int i2 = __builtin_ctz(f2), s2 = is_file ? i2 * FILE_NB + line : line * FILE_NB + i2;
            const Piece p2 = b->sq[s2];
            if (p2 == rook || (is_file && p2 == king))
                sqset_add(disc, s1);
            const unsigned f3 = line_entry(is_file, i2, occ)->first & side & ~f1;
            if (f3) {
                const int i3 = __builtin_ctz(f3);
                if (b->sq[is_file ? i3 * FILE_NB + line : line * FILE_NB + i3] == cannon) {
                    sqset_add(disc, s1);
                    sqset_add(disc, s2);
                }
            }
        }
        cl->rook[is_file] = rook_pts;
        cl->cannon[is_file] = cannon_pts;
        cl->screen[is_file] = screen_pts;
    }
}

/* The horse part: the points from which an own horse would attack the
 * enemy general through a free leg go to `horse_to`; the occupied legs of
 * own horses already in place go to `disc`. */
static inline void check_horses(const Board *b, SqSet *disc, SqSet *horse_to)
{
    const int us = b->side, ks = b->plist[us ^ 1][0];
    const StepList *hl = &board_horse_attackers[ks];
    for (int i = 0; i < hl->count; i++) {
        if (b->sq[hl->steps[i].block] == PIECE_NONE)
            sqset_add(horse_to, hl->steps[i].to);
        else if (b->sq[hl->steps[i].to] == piece_make(us, HORSE))
            sqset_add(disc, hl->steps[i].block);
    }
}

/* Every check point in one set, and every discovering square in another. */
void board_check_filter_quiet(const Board *b, BoardCheckFilter *f)
{
    const int ks = b->plist[b->side ^ 1][0], kr = sq_rank(ks), kf = sq_file(ks);
    SqSet *to = &f->to;
    f->from.w[0] = f->from.w[1] = to->w[0] = to->w[1] = 0;
    CheckLines cl;
    check_lines(b, &f->from, &cl);
    sqset_add_line(to, cl.rook[0] | cl.cannon[0] | cl.screen[0], false, kr);
    sqset_add_line(to, cl.rook[1] | cl.cannon[1] | cl.screen[1], true, kf);
    check_horses(b, &f->from, to);
    const StepList *pl = &board_pawn_attackers[b->side][ks];
    for (int i = 0; i < pl->count; i++)
        sqset_add(to, pl->steps[i].to);
}

/* gen_steps' quiet moves that land on a point of `targets`. */
static inline void gen_steps_onto(const Board *b, MoveList *l, int from, const StepList *st, const SqSet *targets,
                                  bool blockable)
{
    int n = l->count;
    for (int i = 0; i < st->count; i++) {
        int to = st->steps[i].to;
        int keep = (b->sq[to] == PIECE_NONE) & sqset_has(targets, to);
        if (blockable)
            keep &= b->sq[st->steps[i].block] == PIECE_NONE;
        l->moves[n] = move_make(from, to);
        n += keep;
    }
    l->count = n;
}

/* Whether point `to`, reached along a rank or file from a slider, is one of
 * the line masks' points: on the general's rank at a file of `rank_mask`,
 * or on its file at a rank of `file_mask`. */
static inline bool on_check_line(int to, int kr, int kf, unsigned rank_mask, unsigned file_mask)
{
    const int r = sq_rank(to), f = sq_file(to);
    return (r == kr && ((rank_mask >> f) & 1)) || (f == kf && ((file_mask >> r) & 1));
}

/* The pseudo-legal quiet moves that may give check, in gen_pseudo's
 * order: a piece on a `disc` square lists all its quiet moves, any other
 * only those onto its targets, and most pieces list nothing. A leaper none
 * of whose steps reaches a target is passed over at once, and the target
 * sets of the leapers are built only when one of them is within reach (an
 * advisor's or elephant's are the screens alone, most often none); a rook
 * or cannon can reach at most two target points, where its rank and its
 * file cross the general's lines. */
static void gen_quiet_check_candidates(const Board *b, MoveList *l)
{
    const int us = b->side, ks = b->plist[us ^ 1][0], kr = sq_rank(ks), kf = sq_file(ks);
    const uint8_t *pl = b->plist[us];
    SqSet disc = {{0, 0}}, screens = {{0, 0}};
    CheckLines cl;
    check_lines(b, &disc, &cl);
    sqset_add_line(&screens, cl.screen[0], false, kr);
    sqset_add_line(&screens, cl.screen[1], true, kf);
    const bool any_screen = (screens.w[0] | screens.w[1]) != 0;
    /* The horses' points, when an own horse stands on one (behind a leg:
     * a discovery) or can reach one; a horse step is its own reverse, so
     * the general's own horse reach is the set of points it is attacked
     * from. */
    SqSet horse_to = screens;
    const StepReach *kreach = &board_horse_reach[ks];
    const SqSet katt = {{kreach->w[0], kreach->w[1]}};
    bool horse_near = false;
    for (int i = SLOT_HORSE; i < SLOT_HORSE + SLOTS_PER_PIECE; i++)
        horse_near |= pl[i] != SQ_NONE && (reach_has(kreach, pl[i]) || reach_meets(&katt, &board_horse_reach[pl[i]]));
    if (horse_near)
        check_horses(b, &disc, &horse_to);
    l->count = 0;
    /* Most positions have no discovering square at all. */
    const bool any_disc = (disc.w[0] | disc.w[1]) != 0;
#define LEAPER(sq, targets, steps, reach, blockable)                                                                   \
    do {                                                                                                               \
        if (any_disc && sqset_has(&disc, (sq)))                                                                        \
            gen_steps(b, l, (sq), &(steps)[(sq)], WANT_QUIETS, (blockable));                                           \
        else if (reach_meets((targets), &(reach)[(sq)]))                                                               \
            gen_steps_onto(b, l, (sq), &(steps)[(sq)], (targets), (blockable));                                        \
    } while (0)
    /* The own general checks by facing: its steps can reach the enemy
     * general's file only from a file next to it or on it. */
    SqSet king_to = screens;
    const int own_kf = sq_file(pl[0]);
    if (cl.rook[1] && own_kf - kf <= 1 && kf - own_kf <= 1)
        sqset_add_line(&king_to, cl.rook[1], true, kf);
    LEAPER(pl[0], &king_to, board_king_steps, board_king_reach, false);
    for (int i = 1; i <= 4; i++) {
        if (pl[i] == SQ_NONE || (!any_screen && !(any_disc && sqset_has(&disc, pl[i]))))
            continue;
        if (i <= 2)
            LEAPER(pl[i], &screens, board_advisor_steps, board_advisor_reach, false);
        else
            LEAPER(pl[i], &screens, board_elephant_steps, board_elephant_reach, true);
    }
    for (int i = SLOT_HORSE; i < SLOT_HORSE + SLOTS_PER_PIECE; i++)
        if (pl[i] != SQ_NONE)
            LEAPER(pl[i], &horse_to, board_horse_steps, board_horse_reach, true);
    for (int i = SLOT_ROOK; i < SLOT_CANNON + SLOTS_PER_PIECE; i++) {
        int from = pl[i];
        if (from == SQ_NONE)
            continue;
        const bool cannon = i >= SLOT_CANNON;
        if (any_disc && sqset_has(&disc, from)) {
            gen_slider(b, l, from, cannon, WANT_QUIETS);
            continue;
        }
        const unsigned rank_mask = (cannon ? cl.cannon[0] : cl.rook[0]) | cl.screen[0];
        const unsigned file_mask = (cannon ? cl.cannon[1] : cl.rook[1]) | cl.screen[1];
        int r = sq_rank(from), f = sq_file(from);
        if ((board_rank_slide[f][b->rank_occ[r]].quiet & (1u << kf)) &&
            on_check_line(r * FILE_NB + kf, kr, kf, rank_mask, file_mask))
            add(l, from, r * FILE_NB + kf);
        if ((board_file_slide[r][b->file_occ[f]].quiet & (1u << kr)) &&
            on_check_line(kr * FILE_NB + f, kr, kf, rank_mask, file_mask))
            add(l, from, kr * FILE_NB + f);
    }
    SqSet pawn_to = screens;
    const StepList *pa = &board_pawn_attackers[us][ks];
    for (int i = 0; i < pa->count; i++)
        sqset_add(&pawn_to, pa->steps[i].to);
    for (int i = SLOT_PAWN; i < SLOT_PAWN + SLOTS_PAWN; i++)
        if (pl[i] != SQ_NONE)
            LEAPER(pl[i], &pawn_to, board_pawn_steps[us], board_pawn_reach[us], false);
#undef LEAPER
}

void board_generate(const Board *b, GenType type, MoveList *list)
{
    if (type == GEN_QUIET_CHECKS || type == GEN_QUIET_CHECKS_PSEUDO) {
        gen_quiet_check_candidates(b, list);
        int n = 0;
        for (int i = 0; i < list->count; i++)
            if (board_gives_check(b, list->moves[i]))
                list->moves[n++] = list->moves[i];
        list->count = n;
        if (type == GEN_QUIET_CHECKS)
            filter_legal(b, list);
        return;
    }
    /* In check, every legal move is an evasion: listed without the moves
     * that cannot be one. */
    if ((type == GEN_ALL || type == GEN_EVASIONS) && b->hist[b->ply].check) {
        list_evasions(b, list);
        return;
    }
    /* One gen_pseudo per kind (see there). */
    if (type == GEN_CAPTURES)
        gen_pseudo(b, list, WANT_CAPTURES);
    else if (type == GEN_QUIETS)
        gen_pseudo(b, list, WANT_QUIETS);
    else
        gen_pseudo(b, list, WANT_QUIETS | WANT_CAPTURES);
    filter_legal(b, list);
}

uint64_t board_perft(Board *b, int depth)
{
    if (depth <= 0)
        return 1;
    if (depth == 1)
        return (uint64_t)board_count_legal(b);
    MoveList l;
    board_generate(b, GEN_ALL, &l);
    uint64_t total = 0;
    for (int i = 0; i < l.count; i++) {
        board_make(b, l.moves[i]);
        total += board_perft(b, depth - 1);
        board_unmake(b);
    }
    return total;
}

/* -------------------------------------------------------- single moves */

static bool in_steps(const StepList *st, int to, const Board *b)
{
    for (int i = 0; i < st->count; i++)
        if (st->steps[i].to == to)
            return st->steps[i].block == SQ_NONE || b->sq[st->steps[i].block] == PIECE_NONE;
    return false;
}

/* Number of pieces strictly between two squares on one line, or -1 when they
 * are not on one line. */
static int pieces_between(const Board *b, int from, int to)
{
    int fr = sq_rank(from), ff = sq_file(from), tr = sq_rank(to), tf = sq_file(to);
    unsigned occ, lo, hi;
    if (fr == tr) {
        occ = b->rank_occ[fr];
        lo = (unsigned)(ff < tf ? ff : tf);
        hi = (unsigned)(ff < tf ? tf : ff);
    } else if (ff == tf) {
        occ = b->file_occ[ff];
        lo = (unsigned)(fr < tr ? fr : tr);
        hi = (unsigned)(fr < tr ? tr : fr);
    } else {
        return -1;
    }
    unsigned between = ((1u << hi) - 1) & ~((1u << (lo + 1)) - 1);
    return __builtin_popcount(occ & between);
}

bool board_is_legal(const Board *b, Move m)
{
    int from = move_from(m), to = move_to(m);
    if (m == MOVE_NONE || m == MOVE_NULL || (m >> 14) || from >= SQ_NB || to >= SQ_NB || from == to)
        return false;
    Piece p = b->sq[from], q = b->sq[to];
    int us = b->side;
    if (!p || piece_color(p) != us || (q && piece_color(q) == us))
        return false;
    bool ok;
    switch (piece_type(p)) {
    case KING: ok = in_steps(&board_king_steps[from], to, b); break;
    case ADVISOR: ok = in_steps(&board_advisor_steps[from], to, b); break;
    case ELEPHANT: ok = in_steps(&board_elephant_steps[from], to, b); break;
    case HORSE: ok = in_steps(&board_horse_steps[from], to, b); break;
    case PAWN: ok = in_steps(&board_pawn_steps[us][from], to, b); break;
    case ROOK: ok = pieces_between(b, from, to) == 0; break;
    case CANNON: ok = pieces_between(b, from, to) == (q ? 1 : 0); break;
    default: ok = false;
    }
    return ok && king_safe_after(b, from, to);
}

/* -------------------------------------------------------------------- SEE */

/* The scratch position SEE plays captures on: mailbox and line masks only. */
typedef struct SeeBoard {
    Piece sq[SQ_NB];
    uint16_t rank_occ[RANK_NB];
    uint16_t file_occ[FILE_NB];
} SeeBoard;

static inline void see_lift(SeeBoard *s, int sq)
{
    s->sq[sq] = PIECE_NONE;
    s->rank_occ[sq_rank(sq)] &= (uint16_t)~(1u << sq_file(sq));
    s->file_occ[sq_file(sq)] &= (uint16_t)~(1u << sq_rank(sq));
}

/* Whether a rook or cannon slot's square lies on rank tr or file tf. */
static inline bool on_lines(int sq, int tr, int tf)
{
    return sq != SQ_NONE && (sq_rank(sq) == tr || sq_file(sq) == tf);
}

/* The least valuable piece of colour `by` that can capture on t, or -1.
 * `pl` is by's piece list on the board the exchange started from: pieces
 * only leave their squares during an exchange (or are taken on t), so when
 * no horse (rook, cannon) of by stood within reach of t (on its rank or
 * file) there, none does now, and that scan is passed over; the scans that
 * run are unchanged, and so is the attacker they find. The short pawn,
 * advisor and elephant scans cost less than such a test (callgrind).
 * Forced inline: with two exchange loops calling it, gcc made it a call,
 * which cost more (callgrind) than the threshold exchange's early stop saved. */
static inline __attribute__((always_inline)) int see_least_attacker(const SeeBoard *s, const uint8_t *pl, int t,
                                                                    int by)
{
    int tr = sq_rank(t), tf = sq_file(t);
    const StepList *pa = &board_pawn_attackers[by][t];
    for (int i = 0; i < pa->count; i++)
        if (s->sq[pa->steps[i].to] == piece_make(by, PAWN))
            return pa->steps[i].to;
    const bool palace = board_in_palace[by][t];
    if (palace) {
        const StepList *al = &board_advisor_steps[t];
        for (int i = 0; i < al->count; i++)
            if (s->sq[al->steps[i].to] == piece_make(by, ADVISOR))
                return al->steps[i].to;
    }
    const StepList *el = &board_elephant_steps[t];
    for (int i = 0; i < el->count; i++)
        if (s->sq[el->steps[i].to] == piece_make(by, ELEPHANT) && !s->sq[el->steps[i].block])
            return el->steps[i].to;
    if (horse_in_reach(pl, t)) {
        const StepList *hl = &board_horse_attackers[t];
        for (int i = 0; i < hl->count; i++)
            if (s->sq[hl->steps[i].to] == piece_make(by, HORSE) && !s->sq[hl->steps[i].block])
                return hl->steps[i].to;
    }
    const SlideEntry *re = &board_rank_slide[tf][s->rank_occ[tr]];
    const SlideEntry *fe = &board_file_slide[tr][s->file_occ[tf]];
    if (on_lines(pl[SLOT_CANNON], tr, tf) || on_lines(pl[SLOT_CANNON + 1], tr, tf)) {
        for (unsigned bits = re->second; bits; bits &= bits - 1) {
            int q = tr * FILE_NB + __builtin_ctz(bits);
            if (s->sq[q] == piece_make(by, CANNON))
                return q;
        }
        for (unsigned bits = fe->second; bits; bits &= bits - 1) {
            int q = __builtin_ctz(bits) * FILE_NB + tf;
            if (s->sq[q] == piece_make(by, CANNON))
                return q;
        }
    }
    if (on_lines(pl[SLOT_ROOK], tr, tf) || on_lines(pl[SLOT_ROOK + 1], tr, tf)) {
        for (unsigned bits = re->first; bits; bits &= bits - 1) {
            int q = tr * FILE_NB + __builtin_ctz(bits);
            if (s->sq[q] == piece_make(by, ROOK))
                return q;
        }
        for (unsigned bits = fe->first; bits; bits &= bits - 1) {
            int q = __builtin_ctz(bits) * FILE_NB + tf;
            if (s->sq[q] == piece_make(by, ROOK))
                return q;
        }
    }
    if (palace) {
        const StepList *kl = &board_king_steps[t];
        for (int i = 0; i < kl->count; i++)
            if (s->sq[kl->steps[i].to] == piece_make(by, KING))
                return kl->steps[i].to;
    }
    return -1;
}

static void see_copy(SeeBoard *s, const Board *b)
{
    memcpy(s->sq, b->sq, sizeof s->sq);
    memcpy(s->rank_occ, b->rank_occ, sizeof s->rank_occ);
    memcpy(s->file_occ, b->file_occ, sizeof s->file_occ);
}

/* Puts the piece from `from` on t (a capture on the copy). */
static inline void see_take(SeeBoard *s, int from, int t)
{
    Piece p = s->sq[from];
    see_lift(s, from);
    s->sq[t] = p;
    s->rank_occ[sq_rank(t)] |= (uint16_t)(1u << sq_file(t));
    s->file_occ[sq_file(t)] |= (uint16_t)(1u << sq_rank(t));
}

int board_see(const Board *b, Move m)
{
    int from = move_from(m), to = move_to(m);
    SeeBoard s;
    see_copy(&s, b);

    int gain[40], d = 0;
    gain[0] = s.sq[to] ? BOARD_SEE_VALUE[piece_type(s.sq[to])] : 0;
    see_take(&s, from, to);
    int side = b->side ^ 1;
    while (d < 38) {
        int att = see_least_attacker(&s, b->plist[side], to, side);
        if (att < 0)
            break;
        /* A general may only take when nothing can take it back. */
        if (piece_type(s.sq[att]) == KING) {
            SeeBoard t = s;
            see_take(&t, att, to);
            if (see_least_attacker(&t, b->plist[side ^ 1], to, side ^ 1) >= 0)
                break;
        }
        d++;
        gain[d] = BOARD_SEE_VALUE[piece_type(s.sq[to])] - gain[d - 1];
        see_take(&s, att, to);
        side ^= 1;
    }
    while (d > 0) {
        /* The side to capture at depth d may also decline. */
        if (-gain[d] < gain[d - 1])
            gain[d - 1] = -gain[d];
        d--;
    }
    return gain[0];
}

/* board_see(b, m) >= threshold, without the whole exchange: it stops as
 * soon as the side to capture can no longer change the answer. `balance` is
 * what the side that just captured stands to be short of the threshold by
 * (from its own view) if its piece is taken next; `wins` says whether the
 * mover's side reaches the threshold if the exchange stops here. Either
 * side may stop after the forced first capture, as in board_see, and the
 * general takes only when nothing can take it back. */
/* board_see_reaches' exchange on the copy s, where the first capture on
 * `to` is made already and `side` is to answer it; `balance` as there.
 * Forced inline: its two callers keep their own copy of the loop. */
static inline __attribute__((always_inline)) bool see_exchange(const Board *b, SeeBoard *s, int to, int side,
                                                                int balance)
{
    bool wins = true;
    for (;;) {
        int att = see_least_attacker(s, b->plist[side], to, side);
        if (att < 0)
            break;
        if (piece_type(s->sq[att]) == KING) {
            SeeBoard t = *s;
            see_take(&t, att, to);
            /* The general's capture, when allowed, ends the exchange in its
             * side's favour. */
            if (see_least_attacker(&t, b->plist[side ^ 1], to, side ^ 1) < 0)
                wins = !wins;
            break;
        }
        wins = !wins;
        /* If the piece that now takes is lost in turn, its side still gets
         * what it wanted only when balance stays within its value. */
        balance = BOARD_SEE_VALUE[piece_type(s->sq[att])] - balance;
        if (balance < (int)wins)
            break;
        see_take(s, att, to);
        side ^= 1;
    }
    return wins;
}

bool board_see_reaches(const Board *b, Move m, int threshold)
{
    int from = move_from(m), to = move_to(m);
    int balance = BOARD_SEE_VALUE[piece_type(b->sq[to])] - threshold;
    if (balance < 0)
        return false; /* even an unanswered capture falls short */
    balance = BOARD_SEE_VALUE[piece_type(b->sq[from])] - balance;
    if (balance <= 0)
        return true; /* even losing the mover leaves enough */
    SeeBoard s;
    see_copy(&s, b);
    see_take(&s, from, to);
    return see_exchange(b, &s, to, b->side ^ 1, balance);
}

/* The board after the move already is the exchange's position after its
 * first capture (the piece lists differ only by the piece taken on `to`,
 * which attacks nothing there, and by the mover, which now stands on it). */
bool board_see_ge_made(const Board *b, int threshold)
{
    const HistEntry *h = &b->hist[b->ply];
    const int to = move_to(h->move);
    const int victim = BOARD_SEE_VALUE[piece_type(h->captured)], mover = BOARD_SEE_VALUE[piece_type(b->sq[to])];
    if (victim - mover >= threshold)
        return true; /* board_see_floor */
    int balance = victim - threshold;
    if (balance < 0)
        return false;
    balance = mover - balance;
    if (balance <= 0)
        return true;
    SeeBoard s;
    see_copy(&s, b);
    return see_exchange(b, &s, to, b->side, balance);
}
