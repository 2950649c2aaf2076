/* egtb.c — retrograde tables of one attacking piece against the guards.
 *
 * Orientation. Every table is stored with the attacking side as Red (the
 * "strong" side) at the bottom; a position where Black attacks is mirrored
 * top to bottom with the colours swapped before the lookup.
 *
 * Index. Side to move (strong first), the strong general's palace point (9),
 * the attacker's square (90), the weak general's palace point (9), the
 * advisors as an unordered set of their 5 points, the elephants as an
 * unordered set of their 7 points. KR v KAABB has 2*9*90*9*10*21 = 3.06 M
 * entries. Squares that overlap, and positions where the side not to move is
 * in check, are marked illegal.
 *
 * Value. One byte per position: 0 a draw, 255 illegal, otherwise 1 + the
 * plies to mate with best play; an odd distance is a win for the side to
 * move, an even one a loss (0 plies: mated, or stalemated, now).
 *
 * Build. The usual retrograde analysis, in order of distance. A first pass
 * counts each position's quiet moves and settles its captures, which leave
 * the table: a capture of the attacker draws (bare guards cannot mate, and
 * cannot stalemate a general that has its palace), and a capture of a guard
 * reads the smaller table, built first. Then each position settled at
 * distance d unmakes one move of the side that moved last (every piece in
 * these tables moves reversibly) and settles its predecessors: all of them
 * win at d + 1 if it is lost; if it is won, each loses one escape, and one
 * whose escapes are all gone is lost at d + 1, or later when a capture lets
 * it hold out longer. Whatever is left at the end is a draw.
 *
 * The tables need their own move generator because they run over millions
 * of positions of at most seven pieces: setting up a full Board (mailbox,
 * piece lists, line masks, keys, history) for each would cost far more than
 * the moves themselves. It reads the board's geometry tables, so the leaps,
 * legs and eyes are the board's own, and test_egtb cross-checks its moves
 * against board_generate on every covered material.
 */
#include "egtb.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "steps.h"

/* ------------------------------------------------------------ geometry */

enum {
    TB_MAJOR_NB = 3,      /* attackers: rook, horse, cannon */
    TB_GUARD_MAX = 2,     /* up to two advisors and two elephants */
    TB_PIECES_MAX = 7,    /* two generals, the attacker, four guards */
    TB_PALACE_NB = 9,
    TB_ADVISOR_PTS = 5,
    TB_ELEPHANT_PTS = 7,
    TB_DRAW = 0,
    TB_ILLEGAL = 255,
    TB_MAX_DTM = 253,     /* plies; the longest win in these tables is far shorter */
    TB_CANNOT_LOSE = 0x80 /* flag bit in the build's per-position move counter */
};

static const int TB_MAJOR_TYPE[TB_MAJOR_NB] = {ROOK, HORSE, CANNON};

/* The weak (Black) side's advisor and elephant points, as (file, rank). */
static const uint8_t TB_ADVISOR_SQ[TB_ADVISOR_PTS] = {3 + 9 * 9, 5 + 9 * 9, 4 + 8 * 9, 3 + 7 * 9, 5 + 7 * 9};
static const uint8_t TB_ELEPHANT_SQ[TB_ELEPHANT_PTS] = {2 + 9 * 9, 6 + 9 * 9, 0 + 7 * 9, 4 + 7 * 9,
                                                        8 + 7 * 9, 2 + 5 * 9, 6 + 5 * 9};
/* Sets of k points out of n: how many, per count 0..2. */
static const int TB_ADVISOR_SETS[TB_GUARD_MAX + 1] = {1, 5, 10};
static const int TB_ELEPHANT_SETS[TB_GUARD_MAX + 1] = {1, 7, 21};

typedef struct TbTable {
    atomic_int state; /* TB_EMPTY, TB_BUILDING, TB_READY or TB_FAILED */
    uint8_t *val;
    uint32_t size;
} TbTable;

enum { TB_EMPTY = 0, TB_BUILDING = 1, TB_READY = 2, TB_FAILED = 3 };

/* Lookups for the index, filled by egtb_new: the index is computed for every
 * move of every position while building, and a search costs too much. */
typedef struct TbGeo {
    int8_t palace_pt[SQ_NB];   /* either palace's point 0..8, -1 outside */
    int8_t advisor_pt[SQ_NB];  /* the weak side's advisor point 0..4, -1 elsewhere */
    int8_t elephant_pt[SQ_NB]; /* the weak side's elephant point 0..6, -1 elsewhere */
    uint8_t advisor_pair[TB_ADVISOR_PTS * TB_ADVISOR_PTS];   /* [a * 5 + b]: the set {a, b} */
    uint8_t elephant_pair[TB_ELEPHANT_PTS * TB_ELEPHANT_PTS]; /* [a * 7 + b] */
    int8_t advisor_set[10][2];  /* set index -> its points (two-advisor sets) */
    int8_t elephant_set[21][2];
} TbGeo;

struct Egtb {
    TbGeo geo;
    const atomic_bool *abort; /* when set, a build gives up (NULL: never) */
    TbTable t[TB_MAJOR_NB][TB_GUARD_MAX + 1][TB_GUARD_MAX + 1];
};

/* A position of one table. Pieces: 0 the strong general, 1 the attacker,
 * 2 the weak general, then the advisors, then the elephants; a captured
 * piece's square is SQ_NONE while the capture is made. */
typedef struct TbPos {
    Piece sq[SQ_NB];
    uint8_t at[TB_PIECES_MAX];
    Piece pc[TB_PIECES_MAX];
    int n;        /* pieces */
    int na, nb;   /* advisors, elephants */
    int stm;      /* 0: the strong side (Red) to move, 1: the weak side */
    int major;    /* index into TB_MAJOR_TYPE */
    const TbGeo *geo;
    bool mirrored;/* from a Board where Black attacks: ranks flipped, colours swapped */
} TbPos;

static int palace_square(int color, int point)
{
    return sq_make(3 + point % 3, (color == RED ? 0 : 7) + point / 3);
}

/* The index of a set of k (0..2) distinct points out of n (the order of
 * the two points does not matter), for filling the lookups. */
static int set_index(int n, int k, int p, int q)
{
    if (k == 0)
        return 0;
    if (k == 1)
        return p;
    if (p > q) {
        int x = p;
        p = q;
        q = x;
    }
    return p * (2 * n - p - 1) / 2 + (q - p - 1);
}

/* The two-point sets of n points: pair[a * n + b] is the index of {a, b},
 * set[index] its points in ascending order. */
static void fill_pairs(int n, uint8_t *pair, int8_t (*set)[2])
{
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            if (a != b) {
                int k = set_index(n, 2, a, b);
                pair[a * n + b] = (uint8_t)k;
                set[k][0] = (int8_t)(a < b ? a : b);
                set[k][1] = (int8_t)(a < b ? b : a);
            }
}

static void geo_init(TbGeo *g)
{
    memset(g->palace_pt, -1, sizeof g->palace_pt);
    memset(g->advisor_pt, -1, sizeof g->advisor_pt);
    memset(g->elephant_pt, -1, sizeof g->elephant_pt);
    for (int sq = 0; sq < SQ_NB; sq++) {
        int f = sq_file(sq), r = sq_rank(sq);
        if (f >= 3 && f <= 5 && (r <= 2 || r >= 7))
            g->palace_pt[sq] = (int8_t)((r >= 7 ? r - 7 : r) * 3 + (f - 3));
    }
    for (int i = 0; i < TB_ADVISOR_PTS; i++)
        g->advisor_pt[TB_ADVISOR_SQ[i]] = (int8_t)i;
    for (int i = 0; i < TB_ELEPHANT_PTS; i++)
        g->elephant_pt[TB_ELEPHANT_SQ[i]] = (int8_t)i;
    fill_pairs(TB_ADVISOR_PTS, g->advisor_pair, g->advisor_set);
    fill_pairs(TB_ELEPHANT_PTS, g->elephant_pair, g->elephant_set);
}

static uint32_t table_size(int na, int nb)
{
    return 2u * TB_PALACE_NB * SQ_NB * TB_PALACE_NB * (uint32_t)TB_ADVISOR_SETS[na] * (uint32_t)TB_ELEPHANT_SETS[nb];
}

/* The index of p in its own table (or, with `skip` >= 0, of p without that
 * piece, in the smaller table), with `stm` to move. */
static uint32_t tb_index(const TbPos *p, int stm, int skip)
{
    const TbGeo *g = p->geo;
    int adv[TB_GUARD_MAX] = {0, 0}, ele[TB_GUARD_MAX] = {0, 0}, na = 0, nb = 0;
    for (int i = 3; i < p->n; i++) {
        if (i == skip)
            continue;
        int a = g->advisor_pt[p->at[i]];
        if (a >= 0)
            adv[na++] = a;
        else
            ele[nb++] = g->elephant_pt[p->at[i]];
    }
    uint32_t idx = (uint32_t)stm;
    idx = idx * TB_PALACE_NB + (uint32_t)g->palace_pt[p->at[0]];
    idx = idx * SQ_NB + p->at[1];
    idx = idx * TB_PALACE_NB + (uint32_t)g->palace_pt[p->at[2]];
    idx = idx * (uint32_t)TB_ADVISOR_SETS[na] + (na == 2 ? g->advisor_pair[adv[0] * TB_ADVISOR_PTS + adv[1]] : (uint32_t)adv[0]);
    idx = idx * (uint32_t)TB_ELEPHANT_SETS[nb] + (nb == 2 ? g->elephant_pair[ele[0] * TB_ELEPHANT_PTS + ele[1]] : (uint32_t)ele[0]);
    return idx;
}

static void pos_clear(TbPos *p)
{
    for (int i = 0; i < p->n; i++)
        if (p->at[i] != SQ_NONE)
            p->sq[p->at[i]] = PIECE_NONE;
}

/* Sets p to entry idx of table (major, na, nb). Returns false when two
 * pieces would share a square (p is then empty). */
static bool pos_decode(TbPos *p, const TbGeo *g, int major, int na, int nb, uint32_t idx)
{
    int es = TB_ELEPHANT_SETS[nb], as = TB_ADVISOR_SETS[na];
    int ei = (int)(idx % (uint32_t)es);
    idx /= (uint32_t)es;
    int ai = (int)(idx % (uint32_t)as);
    idx /= (uint32_t)as;
    int wk = (int)(idx % TB_PALACE_NB);
    idx /= TB_PALACE_NB;
    int x = (int)(idx % SQ_NB);
    idx /= SQ_NB;
    int sk = (int)(idx % TB_PALACE_NB);
    p->stm = (int)(idx / TB_PALACE_NB);
    p->geo = g;
    p->major = major;
    p->na = na;
    p->nb = nb;
    p->n = 0;
    int a0 = na == 1 ? ai : na == 2 ? g->advisor_set[ai][0] : -1, a1 = na == 2 ? g->advisor_set[ai][1] : -1;
    int e0 = nb == 1 ? ei : nb == 2 ? g->elephant_set[ei][0] : -1, e1 = nb == 2 ? g->elephant_set[ei][1] : -1;
    int sqs[TB_PIECES_MAX], n = 0;
    Piece pcs[TB_PIECES_MAX];
    sqs[n] = palace_square(RED, sk), pcs[n++] = piece_make(RED, KING);
    sqs[n] = x, pcs[n++] = piece_make(RED, TB_MAJOR_TYPE[major]);
    sqs[n] = palace_square(BLACK, wk), pcs[n++] = piece_make(BLACK, KING);
    if (a0 >= 0)
        sqs[n] = TB_ADVISOR_SQ[a0], pcs[n++] = piece_make(BLACK, ADVISOR);
    if (a1 >= 0)
        sqs[n] = TB_ADVISOR_SQ[a1], pcs[n++] = piece_make(BLACK, ADVISOR);
    if (e0 >= 0)
        sqs[n] = TB_ELEPHANT_SQ[e0], pcs[n++] = piece_make(BLACK, ELEPHANT);
    if (e1 >= 0)
        sqs[n] = TB_ELEPHANT_SQ[e1], pcs[n++] = piece_make(BLACK, ELEPHANT);
    for (int i = 0; i < n; i++) {
        if (p->sq[sqs[i]] != PIECE_NONE) {
            pos_clear(p);
            p->n = 0;
            return false;
        }
        p->sq[sqs[i]] = pcs[i];
        p->at[i] = (uint8_t)sqs[i];
        p->pc[i] = pcs[i];
        p->n = i + 1;
    }
    return true;
}

/* ------------------------------------------------------- moves and checks */

/* Pieces strictly between two squares of one rank or file; -1 when the two
 * squares share no line. */
static int between(const TbPos *p, int a, int b)
{
    int step;
    if (sq_rank(a) == sq_rank(b))
        step = a < b ? 1 : -1;
    else if (sq_file(a) == sq_file(b))
        step = a < b ? FILE_NB : -FILE_NB;
    else
        return -1;
    int n = 0;
    for (int s = a + step; s != b; s += step)
        n += p->sq[s] != PIECE_NONE;
    return n;
}

static bool piece_attacks(const TbPos *p, int from, Piece pc, int target)
{
    switch (piece_type(pc)) {
    case KING: /* the flying general */
        return sq_file(from) == sq_file(target) && between(p, from, target) == 0;
    case ROOK:
        return between(p, from, target) == 0;
    case CANNON:
        return between(p, from, target) == 1;
    case HORSE: {
        const StepList *sl = &board_horse_steps[from];
        for (int i = 0; i < sl->count; i++)
            if (sl->steps[i].to == target && p->sq[sl->steps[i].block] == PIECE_NONE)
                return true;
        return false;
    }
    default: /* advisors and elephants never reach the other palace */
        return false;
    }
}

/* Whether the general of `color` is attacked. Only the weak side's general
 * can be attacked by more than the other general (the weak side has no
 * attacking piece), so the test looks at no more than two pieces. */
static bool king_attacked(const TbPos *p, int color)
{
    int k = p->at[color == RED ? 0 : 2], other = p->at[color == RED ? 2 : 0];
    if (sq_file(k) == sq_file(other) && between(p, k, other) == 0)
        return true;
    return color == BLACK && p->at[1] != SQ_NONE && piece_attacks(p, p->at[1], p->pc[1], k);
}

typedef struct TbMove {
    uint8_t piece, to;
} TbMove;

enum { TB_MOVES_MAX = 48 };

/* Steps of piece i from sl (with `legs`, a step needs its block square
 * empty); `quiet` keeps only the steps onto empty squares. */
static void add_steps(const TbPos *p, int i, const StepList *sl, bool legs, bool quiet, TbMove *out, int *n)
{
    int color = piece_color(p->pc[i]);
    for (int k = 0; k < sl->count; k++) {
        int to = sl->steps[k].to;
        if (legs && p->sq[sl->steps[k].block] != PIECE_NONE)
            continue;
        if (p->sq[to] != PIECE_NONE && (quiet || piece_color(p->sq[to]) == color))
            continue;
        out[(*n)++] = (TbMove){(uint8_t)i, (uint8_t)to};
    }
}

/* Moves of rooks and cannons along one direction. */
static void add_line(const TbPos *p, int i, int df, int dr, bool quiet, TbMove *out, int *n)
{
    int from = p->at[i], color = piece_color(p->pc[i]);
    bool cannon = piece_type(p->pc[i]) == CANNON, screened = false;
    for (int f = sq_file(from) + df, r = sq_rank(from) + dr; f >= 0 && f < FILE_NB && r >= 0 && r < RANK_NB;
         f += df, r += dr) {
        int s = sq_make(f, r);
        Piece q = p->sq[s];
        if (!screened) {
            if (q == PIECE_NONE) {
                out[(*n)++] = (TbMove){(uint8_t)i, (uint8_t)s};
                continue;
            }
            if (quiet)
                return;
            if (!cannon) {
                if (piece_color(q) != color)
                    out[(*n)++] = (TbMove){(uint8_t)i, (uint8_t)s};
                return;
            }
            screened = true;
        } else if (q != PIECE_NONE) {
            if (piece_color(q) != color)
                out[(*n)++] = (TbMove){(uint8_t)i, (uint8_t)s};
            return;
        }
    }
}

/* The moves of piece i, or with `backward` the empty squares it can have
 * come from by a quiet move: the same steps reversed, which differ only for
 * the horse, whose leg sits next to the square it leaves. Pseudo-legal: own
 * pieces are not captured, checks are not looked at. */
static int piece_moves(const TbPos *p, int i, bool backward, TbMove *out)
{
    int n = 0, from = p->at[i];
    switch (piece_type(p->pc[i])) {
    case KING:
        add_steps(p, i, &board_king_steps[from], false, backward, out, &n);
        break;
    case ADVISOR:
        add_steps(p, i, &board_advisor_steps[from], false, backward, out, &n);
        break;
    case ELEPHANT:
        add_steps(p, i, &board_elephant_steps[from], true, backward, out, &n);
        break;
    case HORSE:
        add_steps(p, i, backward ? &board_horse_attackers[from] : &board_horse_steps[from], true, backward, out, &n);
        break;
    default: /* rook, cannon */
        add_line(p, i, 1, 0, backward, out, &n);
        add_line(p, i, -1, 0, backward, out, &n);
        add_line(p, i, 0, 1, backward, out, &n);
        add_line(p, i, 0, -1, backward, out, &n);
        break;
    }
    return n;
}

/* Pseudo-legal moves of the side to move. */
static int gen_pseudo(const TbPos *p, TbMove *out)
{
    int n = 0, color = p->stm == 0 ? RED : BLACK;
    for (int i = 0; i < p->n; i++)
        if (p->at[i] != SQ_NONE && piece_color(p->pc[i]) == color)
            n += piece_moves(p, i, false, out + n);
    return n;
}

/* Makes m; returns the captured piece's number, or -1. */
static int pos_make(TbPos *p, TbMove m)
{
    int from = p->at[m.piece], cap = -1;
    if (p->sq[m.to] != PIECE_NONE)
        for (int i = 0; i < p->n; i++)
            if (p->at[i] == m.to)
                cap = i;
    if (cap >= 0)
        p->at[cap] = SQ_NONE;
    p->sq[m.to] = p->pc[m.piece];
    p->sq[from] = PIECE_NONE;
    p->at[m.piece] = m.to;
    p->stm ^= 1;
    return cap;
}

static void pos_unmake(TbPos *p, TbMove m, int from, int cap)
{
    p->stm ^= 1;
    p->at[m.piece] = (uint8_t)from;
    p->sq[from] = p->pc[m.piece];
    p->sq[m.to] = PIECE_NONE;
    if (cap >= 0) {
        p->at[cap] = m.to;
        p->sq[m.to] = p->pc[cap];
    }
}

/* Legal moves of the side to move: the pseudo-legal ones that leave its
 * general unattacked. */
static int gen_legal(TbPos *p, TbMove *out)
{
    TbMove mv[TB_MOVES_MAX];
    int n = gen_pseudo(p, mv), legal = 0, mover = p->stm == 0 ? RED : BLACK;
    for (int i = 0; i < n; i++) {
        int from = p->at[mv[i].piece];
        int cap = pos_make(p, mv[i]);
        if (!king_attacked(p, mover))
            out[legal++] = mv[i];
        pos_unmake(p, mv[i], from, cap);
    }
    return legal;
}

/* The value of p just after the capture of piece `cap`, from the smaller
 * table: TB_DRAW when the attacker was taken (bare guards cannot win),
 * TB_ILLEGAL when that table is not built. */
static uint8_t value_after_capture(const Egtb *tb, const TbPos *p, int cap)
{
    if (cap == 1)
        return TB_DRAW;
    int na = p->na - (piece_type(p->pc[cap]) == ADVISOR), nb = p->nb - (piece_type(p->pc[cap]) == ELEPHANT);
    const TbTable *t = &tb->t[p->major][na][nb];
    if (atomic_load_explicit(&t->state, memory_order_acquire) != TB_READY)
        return TB_ILLEGAL;
    return t->val[tb_index(p, p->stm, cap)];
}

/* A move of p in the board's orientation. */
static Move board_move(const TbPos *p, int from, int to)
{
    if (p->mirrored) {
        from = sq_make(sq_file(from), RANK_NB - 1 - sq_rank(from));
        to = sq_make(sq_file(to), RANK_NB - 1 - sq_rank(to));
    }
    return move_make(from, to);
}

/* ------------------------------------------------------------------ build */

typedef struct Bucket {
    uint32_t *v;
    uint32_t n, cap;
} Bucket;

static bool bucket_push(Bucket *b, uint32_t x)
{
    if (b->n == b->cap) {
        uint32_t cap = b->cap ? b->cap * 2 : 1024;
        uint32_t *v = realloc(b->v, cap * sizeof *v);
        if (!v)
            return false;
        b->v = v;
        b->cap = cap;
    }
    b->v[b->n++] = x;
    return true;
}

typedef struct Build {
    const Egtb *tb;
    int major, na, nb;
    uint32_t size;
    uint8_t *val;    /* the table being built */
    uint8_t *cnt;    /* quiet moves not yet refuted, | TB_CANNOT_LOSE */
    uint8_t *capmax; /* the longest loss a capture leads into (a win for the other side), 0 if none */
    uint32_t *order; /* settled positions, in order of distance */
    uint32_t norder;
    Bucket later[TB_MAX_DTM + 2]; /* positions settled by captures at a given distance */
    bool aborted;    /* given up on the abort flag: the table may be built later */
} Build;

enum { TB_ABORT_POLL = 1 << 16 }; /* positions between looks at the abort flag */

static bool build_aborted(Build *bd)
{
    if (bd->tb->abort && atomic_load_explicit(bd->tb->abort, memory_order_relaxed))
        bd->aborted = true;
    return bd->aborted;
}

static void settle(Build *bd, uint32_t idx, int dtm)
{
    bd->val[idx] = (uint8_t)(dtm + 1);
    bd->order[bd->norder++] = idx;
}

/* The first pass: legality, mates, and what the captures decide. */
static bool build_init(Build *bd)
{
    TbPos p;
    memset(&p, 0, sizeof p);
    for (uint32_t idx = 0; idx < bd->size; idx++) {
        if (idx % TB_ABORT_POLL == 0 && build_aborted(bd))
            return false;
        if (!pos_decode(&p, &bd->tb->geo, bd->major, bd->na, bd->nb, idx)) {
            bd->val[idx] = TB_ILLEGAL;
            continue;
        }
        if (king_attacked(&p, p.stm == 0 ? BLACK : RED)) {
            bd->val[idx] = TB_ILLEGAL;
            pos_clear(&p);
            continue;
        }
        TbMove mv[TB_MOVES_MAX];
        int legal = gen_legal(&p, mv), quiet = 0, capwin = -1, capmax = 0;
        bool cannot_lose = false;
        for (int i = 0; i < legal; i++) {
            if (p.sq[mv[i].to] == PIECE_NONE) {
                quiet++;
                continue;
            }
            int from = p.at[mv[i].piece];
            int cap = pos_make(&p, mv[i]);
            uint8_t v = value_after_capture(bd->tb, &p, cap); /* the smaller tables are built first */
            pos_unmake(&p, mv[i], from, cap);
            if (v == TB_DRAW) {
                cannot_lose = true;
            } else {
                int d = v - 1;
                if (d % 2 == 0) { /* the other side is lost: a win */
                    cannot_lose = true;
                    if (capwin < 0 || d + 1 < capwin)
                        capwin = d + 1;
                } else if (d > capmax) {
                    capmax = d;
                }
            }
        }
        pos_clear(&p);
        bd->val[idx] = TB_DRAW;
        bd->cnt[idx] = (uint8_t)(quiet | (cannot_lose ? TB_CANNOT_LOSE : 0));
        bd->capmax[idx] = (uint8_t)capmax;
        if (legal == 0)
            settle(bd, idx, 0);
        else if (capwin >= 0 && !bucket_push(&bd->later[capwin], idx))
            return false;
        else if (capwin < 0 && quiet == 0 && !cannot_lose && !bucket_push(&bd->later[capmax + 1], idx))
            return false;
    }
    return true;
}

/* Settles the predecessors of position idx, which has distance dtm. */
static bool retro(Build *bd, TbPos *p, uint32_t idx, int dtm)
{
    const TbGeo *g = &bd->tb->geo;
    pos_decode(p, g, bd->major, bd->na, bd->nb, idx);
    int mover = p->stm == 0 ? BLACK : RED; /* the side that made the last move */
    /* The index with the other side to move, and the weight of each
     * general's and the attacker's digit. */
    const uint32_t guards = (uint32_t)TB_ADVISOR_SETS[bd->na] * (uint32_t)TB_ELEPHANT_SETS[bd->nb];
    const uint32_t stride[3] = {guards * TB_PALACE_NB * SQ_NB, guards * TB_PALACE_NB, guards};
    const uint32_t half = bd->size / 2;
    const uint32_t flipped = idx >= half ? idx - half : idx + half;
    bool ok = true;
    for (int i = 0; i < p->n && ok; i++) {
        if (piece_color(p->pc[i]) != mover)
            continue;
        int q = p->at[i];
        TbMove back[TB_MOVES_MAX];
        int nb = piece_moves(p, i, true, back);
        for (int k = 0; k < nb && ok; k++) {
            /* Unmake: the piece goes back to back[k].to, the mover to move.
             * A general or the attacker changes one digit of the index. */
            uint32_t j;
            if (i <= 2) {
                int32_t diff = i == 1 ? (int32_t)back[k].to - q : g->palace_pt[back[k].to] - g->palace_pt[q];
                j = (uint32_t)((int64_t)flipped + (int64_t)diff * stride[i]);
            } else {
                p->at[i] = back[k].to;
                j = tb_index(p, p->stm ^ 1, -1);
                p->at[i] = (uint8_t)q;
            }
            if (bd->val[j] != TB_DRAW)
                continue; /* illegal, or settled already */
            if (dtm % 2 == 0) {
                settle(bd, j, dtm + 1);
            } else if (!(bd->cnt[j] & TB_CANNOT_LOSE) && --bd->cnt[j] == 0) {
                int d = bd->capmax[j] + 1 > dtm + 1 ? bd->capmax[j] + 1 : dtm + 1;
                if (d == dtm + 1)
                    settle(bd, j, d);
                else
                    ok = bucket_push(&bd->later[d], j);
            }
        }
    }
    pos_clear(p);
    return ok;
}

/* Builds one table; returns TB_READY, TB_FAILED (out of memory, or a
 * distance too long for a byte), or TB_EMPTY when the abort flag stopped it. */
static int build_table(Egtb *tb, int major, int na, int nb)
{
    Build bd;
    memset(&bd, 0, sizeof bd);
    bd.tb = tb;
    bd.major = major;
    bd.na = na;
    bd.nb = nb;
    bd.size = table_size(na, nb);
    bd.val = malloc(bd.size);
    bd.cnt = malloc(bd.size);
    bd.capmax = malloc(bd.size);
    bd.order = malloc((size_t)bd.size * sizeof *bd.order);
    bool ok = bd.val && bd.cnt && bd.capmax && bd.order && build_init(&bd);
    TbPos p;
    memset(&p, 0, sizeof p);
    uint32_t head = 0;
    for (int dtm = 0; ok && dtm <= TB_MAX_DTM; dtm++) {
        Bucket *bk = &bd.later[dtm];
        for (uint32_t i = 0; i < bk->n; i++)
            if (bd.val[bk->v[i]] == TB_DRAW)
                settle(&bd, bk->v[i], dtm);
        while (ok && head < bd.norder && bd.val[bd.order[head]] == dtm + 1) {
            ok = retro(&bd, &p, bd.order[head++], dtm);
            if (head % TB_ABORT_POLL == 0 && build_aborted(&bd))
                ok = false;
        }
        /* A distance past the byte's range would need a wider table. */
        if (ok && dtm == TB_MAX_DTM && head < bd.norder)
            ok = false;
    }
    for (int i = 0; i <= TB_MAX_DTM + 1; i++)
        free(bd.later[i].v);
    free(bd.cnt);
    free(bd.capmax);
    free(bd.order);
    TbTable *t = &tb->t[major][na][nb];
    if (!ok) {
        free(bd.val);
        return bd.aborted ? TB_EMPTY : TB_FAILED;
    }
    t->val = bd.val;
    t->size = bd.size;
    return TB_READY;
}

/* Builds (major, na, nb) and the smaller tables it reads, in the calling
 * thread. Returns true when it is ready. Another thread's build in progress
 * counts as not ready. */
static bool ensure_table(Egtb *tb, int major, int na, int nb, bool build)
{
    TbTable *t = &tb->t[major][na][nb];
    int st = atomic_load_explicit(&t->state, memory_order_acquire);
    if (st == TB_READY)
        return true;
    if (st != TB_EMPTY || !build)
        return false;
    if ((na > 0 && !ensure_table(tb, major, na - 1, nb, true)) || (nb > 0 && !ensure_table(tb, major, na, nb - 1, true)))
        return false;
    int expected = TB_EMPTY;
    if (!atomic_compare_exchange_strong(&t->state, &expected, TB_BUILDING))
        return atomic_load_explicit(&t->state, memory_order_acquire) == TB_READY;
    int done = build_table(tb, major, na, nb);
    atomic_store_explicit(&t->state, done, memory_order_release);
    return done == TB_READY;
}

/* ------------------------------------------------------------------ public */

Egtb *egtb_new(const atomic_bool *abort)
{
    Egtb *tb = calloc(1, sizeof *tb);
    if (tb) {
        geo_init(&tb->geo);
        tb->abort = abort;
    }
    return tb;
}

void egtb_free(Egtb *tb)
{
    if (!tb)
        return;
    for (int m = 0; m < TB_MAJOR_NB; m++)
        for (int a = 0; a <= TB_GUARD_MAX; a++)
            for (int e = 0; e <= TB_GUARD_MAX; e++)
                free(tb->t[m][a][e].val);
    free(tb);
}

/* The attacking side of a covered material, or -1. */
static int strong_side(const Board *b)
{
    /* Advisors, elephants and generals count no attacking material, so a
     * covered position has exactly one side with none. */
    if ((b->material[RED] == 0) == (b->material[BLACK] == 0))
        return -1;
    int s = b->material[RED] != 0 ? RED : BLACK;
    int majors = 0, others = 0;
    for (int pt = ADVISOR; pt <= PAWN; pt++) {
        int c = b->count[piece_make(s, pt)];
        if (pt == ROOK || pt == HORSE || pt == CANNON)
            majors += c;
        else
            others += c;
    }
    return majors == 1 && others == 0 ? s : -1;
}

bool egtb_covers(const Board *b) { return strong_side(b) >= 0; }

/* Sets p to b, normalised so that the strong side is Red. */
static bool pos_from_board(const Egtb *tb, TbPos *p, const Board *b)
{
    int s = strong_side(b);
    if (s < 0)
        return false;
    memset(p, 0, sizeof *p);
    p->geo = &tb->geo;
    Piece pcs[TB_PIECES_MAX];
    int sqs[TB_PIECES_MAX], n = 3;
    for (int sq = 0; sq < SQ_NB; sq++) {
        Piece pc = b->sq[sq];
        if (pc == PIECE_NONE)
            continue;
        int color = piece_color(pc) == s ? RED : BLACK, type = piece_type(pc);
        int nsq = s == RED ? sq : sq_make(sq_file(sq), RANK_NB - 1 - sq_rank(sq));
        /* A FEN may put guards off their points; no table holds those. */
        if ((color == BLACK && type == ADVISOR && tb->geo.advisor_pt[nsq] < 0) ||
            (color == BLACK && type == ELEPHANT && tb->geo.elephant_pt[nsq] < 0) ||
            (type == KING && !board_in_palace[color][nsq]))
            return false;
        int slot;
        if (type == KING)
            slot = color == RED ? 0 : 2;
        else if (color == RED)
            slot = 1;
        else if (n < TB_PIECES_MAX)
            slot = n++;
        else
            return false;
        if (color == RED && type != KING) {
            for (int m = 0; m < TB_MAJOR_NB; m++)
                if (TB_MAJOR_TYPE[m] == type)
                    p->major = m;
        }
        p->na += color == BLACK && type == ADVISOR;
        p->nb += color == BLACK && type == ELEPHANT;
        sqs[slot] = nsq;
        pcs[slot] = piece_make(color, type);
    }
    if (p->na > TB_GUARD_MAX || p->nb > TB_GUARD_MAX)
        return false;
    /* Advisors before elephants, as tb_index expects. */
    for (int i = 3; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (piece_type(pcs[j]) == ADVISOR && piece_type(pcs[i]) == ELEPHANT) {
                Piece tp = pcs[i];
                int ts = sqs[i];
                pcs[i] = pcs[j], sqs[i] = sqs[j];
                pcs[j] = tp, sqs[j] = ts;
            }
    p->n = n;
    for (int i = 0; i < n; i++) {
        p->at[i] = (uint8_t)sqs[i];
        p->pc[i] = pcs[i];
        p->sq[sqs[i]] = pcs[i];
    }
    p->stm = b->side == s ? 0 : 1;
    p->mirrored = s == BLACK;
    return true;
}

static bool value_of(uint8_t v, EgtbValue *out)
{
    if (v == TB_ILLEGAL)
        return false;
    if (v == TB_DRAW) {
        *out = (EgtbValue){EGTB_DRAW, 0};
    } else {
        int d = v - 1;
        *out = (EgtbValue){d % 2 ? EGTB_WIN : EGTB_LOSS, d};
    }
    return true;
}

bool egtb_probe(Egtb *tb, const Board *b, bool build, EgtbValue *out)
{
    TbPos p;
    if (!tb || !pos_from_board(tb, &p, b) || !ensure_table(tb, p.major, p.na, p.nb, build))
        return false;
    return value_of(tb->t[p.major][p.na][p.nb].val[tb_index(&p, p.stm, -1)], out);
}

/* Orders values from the mover's point of view: higher is better. */
static int preference(EgtbValue v)
{
    if (v.wdl == EGTB_WIN)
        return 1000 - v.plies;
    if (v.wdl == EGTB_LOSS)
        return -1000 + v.plies;
    return 0;
}

Move egtb_best_move(Egtb *tb, const Board *b)
{
    TbPos p;
    if (!tb || !pos_from_board(tb, &p, b))
        return MOVE_NONE;
    const TbTable *t = &tb->t[p.major][p.na][p.nb];
    if (atomic_load_explicit(&t->state, memory_order_acquire) != TB_READY)
        return MOVE_NONE;
    TbMove mv[TB_MOVES_MAX];
    int n = gen_legal(&p, mv), best_pref = -1000000;
    Move best = MOVE_NONE;
    for (int i = 0; i < n; i++) {
        int from = p.at[mv[i].piece];
        int cap = pos_make(&p, mv[i]);
        uint8_t v = cap < 0 ? t->val[tb_index(&p, p.stm, -1)] : value_after_capture(tb, &p, cap);
        pos_unmake(&p, mv[i], from, cap);
        EgtbValue child;
        if (!value_of(v, &child))
            continue;
        /* The child's value is for the opponent; ours is one ply longer. */
        EgtbValue mine = {(EgtbWdl)-child.wdl, child.wdl == EGTB_DRAW ? 0 : child.plies + 1};
        int pref = preference(mine);
        if (pref > best_pref) {
            best_pref = pref;
            best = board_move(&p, from, mv[i].to);
        }
    }
    return best;
}

int egtb_test_moves(const Egtb *tb, const Board *b, Move *out)
{
    TbPos p;
    if (!pos_from_board(tb, &p, b))
        return -1;
    TbMove mv[TB_MOVES_MAX];
    int n = gen_legal(&p, mv);
    for (int i = 0; i < n; i++)
        out[i] = board_move(&p, p.at[mv[i].piece], mv[i].to);
    return n;
}
