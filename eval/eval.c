/* eval.c — static evaluation: packed material+psq table, game-phase taper and xiangqi knowledge terms.
 *
 * eval_trace.c compiles this file a second time with EVAL_TRACE defined:
 * then every weight the evaluation adds is also counted in an EvalTrace
 * (eval/tune.h), which is what the tuner fits. One source for both keeps
 * the tuner's model and the real evaluation from drifting apart. */
#include "eval.h"

#include <assert.h>
#include <pthread.h>

#include "endgame.h"
#include "params.h"

#ifdef EVAL_TRACE
#include "tune.h"
#define TR_PARAM , EvalTrace *tr
#define TR_ARG , tr
/* Counts weight i n times for side us (the trace holds Red minus Black). */
#define TRACE_W(us, i, n) trace_weight(tr, (us), (i), (n))
/* King danger: the table entry is scaled by the defenders' factor f, and
 * the endgame half is derived from the middlegame value. */
#define TRACE_DANGER(us, units, f) trace_danger(tr, (us), (units), (f))
#define eval_init eval_trace_init
#define eval_psq_table eval_trace_psq_table
#define eval_evaluate eval_trace_evaluate_level

static void trace_weight(EvalTrace *tr, int us, int i, int n)
{
    tr->mg[i] += us == RED ? n : -n;
    tr->eg[i] += us == RED ? n : -n;
}

static void trace_danger(EvalTrace *tr, int us, int units, double f)
{
    double c = us == RED ? f : -f;
    tr->mg[W_KING_DANGER + units] += c;
    tr->eg_from_mg[W_KING_DANGER + units] += c * DANGER_EG_NUM / DANGER_EG_DEN;
}
#else
#define TR_PARAM
#define TR_ARG
#define TRACE_W(us, i, n) ((void)0)
#define TRACE_DANGER(us, units, f) ((void)0)
#endif

/* Adds weight i, n times, to a side's packed score (and to the trace). */
#define ADD_W(se, us, i, n) ((se)->score += WS(i) * (n), TRACE_W(us, i, n))

/* --------------------------------------------------------- read-only tables
 * Filled by eval_init(); never written afterwards, so any number of search
 * threads may evaluate at once. */

static BoardPsqTable psq_table;
/* Number of set bits of a rank (9-bit) or file (10-bit) occupancy mask. */
static uint8_t popcount10[1 << RANK_NB];
/* Horse geometry: per square, the four leg squares and the two destinations
 * behind each leg. Off-board legs and destinations point at the horse's own
 * square instead: it is occupied (a blocked leg) and holds an own piece (not
 * a destination), so the mobility count needs no bounds branches. */
static uint8_t horse_leg[SQ_NB][4];
static uint8_t horse_dest[SQ_NB][4][2];
/* Tables by color and square, indexed up to SQ_NONE = 255 (an empty slot,
 * which reads 0): whether a piece there has crossed the river, and what a
 * pawn there adds to the pawn count of eval_pawns, all in one word (0
 * before the river): its bit in a 5 x 10 grid of the enemy half (bits
 * 0-49), its attack units (from PAWN_UNITS_SHIFT) and 1 for the crossed
 * pawns (from PAWN_CROSSED_SHIFT). Two pawns never share a grid bit, so a
 * sum of entries holds their grid bits as an OR would, and one add per
 * pawn feeds all three. */
enum { PAWN_UNITS_SHIFT = 52, PAWN_CROSSED_SHIFT = 56, PAWN_COUNT_MASK = 0xF };
/* SLOTS_PAWN pawns' units and crossings must fit their 4-bit fields, or one
 * field would carry into the next; the grid bits end below both. */
_Static_assert((int)SLOTS_PAWN * (int)ATTACK_UNITS_PAWN_DEEP <= (int)PAWN_COUNT_MASK &&
                   (int)SLOTS_PAWN <= (int)PAWN_COUNT_MASK,
               "pawn count fields overflow");
_Static_assert(50 <= PAWN_UNITS_SHIFT && PAWN_UNITS_SHIFT + 4 <= PAWN_CROSSED_SHIFT, "pawn count fields overlap");
static uint8_t crossed[2][256];
static uint64_t pawn_count[2][256];
/* Piece code -> its victim index in the threat table (advisor 0 .. pawn 5)
 * when it is an enemy of the color other than the general, else -1. */
static int8_t threat_victim[2][PIECE_NB];
/* The same as a packed score: the threat weight of that attacker class
 * against the piece code, 0 for anything that is not an enemy victim. One
 * load and an add per attacked point, with no branch on what stands there. */
static int32_t threat_score[2][THREAT_ATTACKERS][PIECE_NB];
/* Per major type (CROSS_HORSE, CROSS_ROOK, CROSS_CANNON), colour and square
 * (up to SQ_NONE), for a piece that has crossed the river: 1 in bits 0-7
 * when it stands on files a..e, 1 in bits 8-15 on files e..i (the centre
 * file counts for both), and its attack units from bit CROSS_UNITS_SHIFT on;
 * 0 before the river. One add feeds both flank counters of SideEval and the
 * attack units. */
enum { CROSS_HORSE, CROSS_ROOK, CROSS_CANNON, CROSS_KINDS };
enum { CROSS_UNITS_SHIFT = 16 };
static uint32_t crossing[CROSS_KINDS][2][256];
/* Per colour and square, the points a pawn there attacks: ahead, and beside
 * it once it has crossed the river. A point it lacks (off the board, or
 * beside a pawn that has not crossed) reads the pawn's own square, which
 * holds no victim. */
enum { PAWN_TARGETS = 3 };
static uint8_t pawn_targets[2][SQ_NB][PAWN_TARGETS];
#ifndef EVAL_TRACE
/* What a cannon gains from the piece behind its screen: the threat weight
 * against that victim plus CANNON_THREAT for any enemy (the general too). */
static int32_t cannon_target_score[2][PIECE_NB];
/* What a horse's destination holding this piece code is worth, both terms
 * in one word: its threat weight (sign-extended) in the low bits, and 1 <<
 * HORSE_MOB_SHIFT when it counts for mobility (not an own piece). A horse
 * sums one load per destination; the mobility count and the threat sum
 * come apart exactly, since eight threat weights stay far below
 * HORSE_MOB_OFFSET. */
enum { HORSE_MOB_SHIFT = 40 };
#define HORSE_MOB_OFFSET (INT64_C(1) << (HORSE_MOB_SHIFT - 1))
static int64_t horse_dest_value[2][PIECE_NB];
/* The imbalance of Red against Black in one table: Red's weight for its type
 * t against Black's e, less Black's weight for e against t, since both sides
 * use the same table and Black's share is subtracted. The trace build counts
 * every weight on its own instead (eval_material_terms). */
static int32_t imbalance_net[IMB_TYPES][IMB_TYPES];
/* Black's material as one index, in mixed radix over the advisor .. pawn
 * counts (each at most its board slot count: 2, 2, 2, 2, 2, 5), and for
 * each index the column imbalance_net . counts: Red's counts then take one
 * product each (imbalance). */
static const int IMB_RADIX[IMB_TYPES] = {3, 3, 3, 3, 3, 6};
enum { IMB_SIGS = 3 * 3 * 3 * 3 * 3 * 6 };
static int32_t imbalance_cols[IMB_SIGS][IMB_TYPES];
/* The king-danger table term as a packed score, by missing advisors and
 * elephants (0..2 each, as miss_adv * 3 + miss_ele) and capped attack
 * units: what eval_king_danger's trace build computes from the weights. */
static int32_t danger_score[3 * 3][ATTACK_UNITS_MAX + 1];
#endif
#define PAWN_GRID_MASK ((UINT64_C(1) << 50) - 1)

/* Piece code -> 1 when it is an enemy of the color / when it is not own. */
static const uint8_t IS_ENEMY[2][PIECE_NB] = {
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1},
    {0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0},
};
static const uint8_t NOT_OWN[2][PIECE_NB] = {
    {1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1},
    {1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0},
};

/* The piece loops below use board.h's compile-time slot constants
 * (SLOT_HORSE ...): known at compile time, they unroll and lose their exit
 * branches. eval_init asserts that they match BOARD_SLOT_FIRST. */

/* ------------------------------------------------------------ packed scores */

static inline int score_mg(int32_t s)
{
    int mg = (int)((uint32_t)s & 0xFFFFu);
    return mg >= 0x8000 ? mg - 0x10000 : mg;
}

/* s - mg is an exact multiple of 65536, so the division is exact. */
static inline int score_eg(int32_t s) { return (int)((s - score_mg(s)) / 65536); }

/* ------------------------------------------------------------------- init */

/* Packed value of a Red piece of this type on sq: material plus table bonus.
 * The general has no material value: it is never captured. */
static int32_t red_psq_value(int type, int sq)
{
    int f = sq_file(sq), row = RANK_NB - 1 - sq_rank(sq);
    int hf = f < PSQ_HALF_FILES ? f : FILE_NB - 1 - f;
    return (type == KING ? 0 : MAT_VALUE(type)) + PSQ_VALUE(type, row, hf);
}

static void init_scans(void);

static int on_board(int file, int rank) { return file >= 0 && file < FILE_NB && rank >= 0 && rank < RANK_NB; }

static void init_tables(void)
{
    assert(BOARD_SLOT_FIRST[HORSE] == SLOT_HORSE && BOARD_SLOT_FIRST[ROOK] == SLOT_ROOK &&
           BOARD_SLOT_FIRST[CANNON] == SLOT_CANNON && BOARD_SLOT_FIRST[PAWN] == SLOT_PAWN &&
           BOARD_SLOT_COUNT[HORSE] == SLOTS_PER_PIECE && BOARD_SLOT_COUNT[ROOK] == SLOTS_PER_PIECE &&
           BOARD_SLOT_COUNT[CANNON] == SLOTS_PER_PIECE && BOARD_SLOT_COUNT[PAWN] == SLOTS_PAWN);
    for (int p = 0; p < PIECE_NB; p++)
        for (int sq = 0; sq < SQ_NB; sq++)
            psq_table[p][sq] = 0;
    /* Black's entry is the negated Red entry of the rank-mirrored square, so a
     * colour-mirrored position sums to exactly the negated psq. */
    for (int type = KING; type <= PAWN; type++) {
        for (int sq = 0; sq < SQ_NB; sq++) {
            int32_t v = red_psq_value(type, sq);
            psq_table[piece_make(RED, type)][sq] = v;
            psq_table[piece_make(BLACK, type)][sq_make(sq_file(sq), RANK_NB - 1 - sq_rank(sq))] = -v;
        }
    }

    for (int m = 0; m < (1 << RANK_NB); m++) {
        int n = 0;
        for (int x = m; x; x &= x - 1)
            n++;
        popcount10[m] = (uint8_t)n;
    }

    /* Leg directions: up, down, right, left; the destinations lie two steps
     * beyond the leg's direction and one step to either side. */
    static const int LEG_DF[4] = {0, 0, 1, -1}, LEG_DR[4] = {1, -1, 0, 0};
    for (int sq = 0; sq < SQ_NB; sq++) {
        int f = sq_file(sq), r = sq_rank(sq);
        for (int d = 0; d < 4; d++) {
            int lf = f + LEG_DF[d], lr = r + LEG_DR[d];
            horse_leg[sq][d] = (uint8_t)(on_board(lf, lr) ? sq_make(lf, lr) : sq);
            for (int k = 0; k < 2; k++) {
                int side = k ? 1 : -1;
                int tf = f + 2 * LEG_DF[d] + (LEG_DF[d] ? 0 : side);
                int tr = r + 2 * LEG_DR[d] + (LEG_DR[d] ? 0 : side);
                horse_dest[sq][d][k] = (uint8_t)(on_board(lf, lr) && on_board(tf, tr) ? sq_make(tf, tr) : sq);
            }
        }
    }

    init_scans();

    for (int c = RED; c <= BLACK; c++)
        for (int sq = 0; sq < 256; sq++) {
            int rr = sq >= SQ_NB ? 0 : c == RED ? sq_rank(sq) : RANK_NB - 1 - sq_rank(sq);
            crossed[c][sq] = (uint8_t)(rr >= 5);
            const uint64_t units = rr >= 7 ? ATTACK_UNITS_PAWN_DEEP : ATTACK_UNITS_PAWN;
            pawn_count[c][sq] = rr < 5 ? 0
                                       : UINT64_C(1) << ((rr - 5) * 10 + sq_file(sq)) | units << PAWN_UNITS_SHIFT |
                                             UINT64_C(1) << PAWN_CROSSED_SHIFT;
        }
    for (int c = RED; c <= BLACK; c++)
        for (int p = 0; p < PIECE_NB; p++) {
            int type = piece_type((Piece)p);
            bool victim = p != PIECE_NONE && piece_color((Piece)p) != c && type != KING && type != PT_NONE;
            threat_victim[c][p] = (int8_t)(victim ? type - ADVISOR : -1);
            for (int a = 0; a < THREAT_ATTACKERS; a++)
                threat_score[c][a][p] = victim ? WS(W_THREAT + a * THREAT_VICTIMS + type - ADVISOR) : 0;
        }
    for (int c = RED; c <= BLACK; c++)
        for (int sq = 0; sq < SQ_NB; sq++) {
            int f = sq_file(sq), r = sq_rank(sq), ahead = r + (c == RED ? 1 : -1);
            pawn_targets[c][sq][0] = (uint8_t)(on_board(f, ahead) ? sq_make(f, ahead) : sq);
            pawn_targets[c][sq][1] = (uint8_t)(crossed[c][sq] && on_board(f - 1, r) ? sq_make(f - 1, r) : sq);
            pawn_targets[c][sq][2] = (uint8_t)(crossed[c][sq] && on_board(f + 1, r) ? sq_make(f + 1, r) : sq);
        }
    static const int CROSS_UNITS[CROSS_KINDS] = {ATTACK_UNITS_HORSE, ATTACK_UNITS_ROOK, ATTACK_UNITS_CANNON};
    for (int k = 0; k < CROSS_KINDS; k++)
        for (int c = RED; c <= BLACK; c++)
            for (int sq = 0; sq < 256; sq++) {
                int f = sq < SQ_NB ? sq_file(sq) : 0;
                uint32_t flank = (uint32_t)((f <= FILE_NB / 2) + ((f >= FILE_NB / 2) << 8));
                crossing[k][c][sq] = crossed[c][sq] * (flank + ((uint32_t)CROSS_UNITS[k] << CROSS_UNITS_SHIFT));
            }
#ifndef EVAL_TRACE
    for (int c = RED; c <= BLACK; c++)
        for (int p = 0; p < PIECE_NB; p++)
            cannon_target_score[c][p] = threat_score[c][THREAT_BY_CANNON][p] + (IS_ENEMY[c][p] ? CANNON_THREAT : 0);
    for (int c = RED; c <= BLACK; c++)
        for (int p = 0; p < PIECE_NB; p++)
            horse_dest_value[c][p] =
                (int64_t)threat_score[c][THREAT_BY_HORSE][p] + ((int64_t)NOT_OWN[c][p] << HORSE_MOB_SHIFT);
    for (int t = 0; t < IMB_TYPES; t++)
        for (int e = 0; e < IMB_TYPES; e++)
            imbalance_net[t][e] = WS(W_IMBALANCE + t * IMB_TYPES + e) - WS(W_IMBALANCE + e * IMB_TYPES + t);
    for (int miss_adv = 0; miss_adv < 3; miss_adv++)
        for (int miss_ele = 0; miss_ele < 3; miss_ele++)
            for (int units = 0; units <= ATTACK_UNITS_MAX; units++) {
                int d = KING_DANGER_MG(units) * (DANGER_DEF_BASE + 2 * miss_adv + miss_ele) / DANGER_DEF_BASE;
                danger_score[miss_adv * 3 + miss_ele][units] = S(d, d * DANGER_EG_NUM / DANGER_EG_DEN);
            }
    for (int t = 0; t < IMB_TYPES; t++)
        assert(IMB_RADIX[t] == BOARD_SLOT_COUNT[ADVISOR + t] + 1);
    for (int sig = 0; sig < IMB_SIGS; sig++) {
        int n[IMB_TYPES];
        for (int e = 0, rest = sig; e < IMB_TYPES; e++) {
            n[e] = rest % IMB_RADIX[e];
            rest /= IMB_RADIX[e];
        }
        for (int t = 0; t < IMB_TYPES; t++) {
            int32_t col = 0;
            for (int e = 0; e < IMB_TYPES; e++)
                col += imbalance_net[t][e] * n[e];
            imbalance_cols[sig][t] = col;
        }
    }
#endif
}

/* A once-flag and the tables it fills are the accepted exception to "no
 * mutable globals": any thread may call eval_init, the tables are filled once. */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

void eval_init(void)
{
    board_init();
    pthread_once(&tables_once, init_tables);
}

const BoardPsqTable *eval_psq_table(void) { return &psq_table; }

/* ------------------------------------------------------------ line helpers */

static inline int bit_low(unsigned x) { return __builtin_ctz(x); }
static inline int bit_high(unsigned x) { return 31 - __builtin_clz(x); }

/* The first occupied point below and above `pos` on a line of n points
 * (none is reported as a point < 0 below or >= n above), the number of
 * empty points between them (the mobility count), and the first and second
 * occupied points each way for reading the board (the t* fields): a point
 * that does not exist reads `pos` instead, where the piece itself stands
 * (own, so neither an enemy nor a victim), and the readers need no test
 * for the board's edge. Two virtual blockers beyond each end make every
 * scan find two pieces each way, so the scan has no branches. */
typedef struct LineScan {
    int lo1, hi1, empty;
    int tlo1, tlo2, thi1, thi2;
} LineScan;

static inline int on_line_or(int x, int n, int pos) { return x >= 0 && x < n ? x : pos; }

static inline LineScan line_scan(unsigned occ, int pos, int n)
{
    unsigned ext = (occ << 2) | 3u | (3u << (n + 2));
    unsigned below = ext & ((4u << pos) - 1);
    unsigned above = ext & ~((8u << pos) - 1);
    LineScan ls;
    int lo1 = bit_high(below);
    const int lo2 = bit_high(below ^ (1u << lo1)) - 2;
    ls.lo1 = lo1 - 2;
    ls.hi1 = bit_low(above) - 2;
    const int hi2 = bit_low(above & (above - 1)) - 2;
    ls.empty = ls.hi1 - ls.lo1 - 2;
    ls.tlo1 = on_line_or(ls.lo1, n, pos);
    ls.tlo2 = on_line_or(lo2, n, pos);
    ls.thi1 = on_line_or(ls.hi1, n, pos);
    ls.thi2 = on_line_or(hi2, n, pos);
    return ls;
}

/* line_scan's answer for every point and occupancy of a rank and of a file,
 * packed in bytes: a lookup instead of a dozen dependent bit operations for
 * each rook and cannon line (filled by eval_init). */
typedef struct PackedScan {
    int8_t lo1, hi1;
    uint8_t empty;
    uint8_t pad; /* keeps an entry 8 bytes, so that indexing is a shift (callgrind: 7 bytes cost 0.5%) */
    uint8_t tlo1, tlo2, thi1, thi2;
} PackedScan;
static PackedScan rank_scans[FILE_NB][1 << FILE_NB];
static PackedScan file_scans[RANK_NB][1 << RANK_NB];

static void pack_scan(PackedScan *p, unsigned occ, int pos, int n)
{
    LineScan ls = line_scan(occ, pos, n);
    p->lo1 = (int8_t)ls.lo1;
    p->hi1 = (int8_t)ls.hi1;
    p->empty = (uint8_t)ls.empty;
    p->tlo1 = (uint8_t)ls.tlo1;
    p->tlo2 = (uint8_t)ls.tlo2;
    p->thi1 = (uint8_t)ls.thi1;
    p->thi2 = (uint8_t)ls.thi2;
}

static inline LineScan unpack_scan(const PackedScan *p)
{
    LineScan ls = {p->lo1, p->hi1, p->empty, p->tlo1, p->tlo2, p->thi1, p->thi2};
    return ls;
}

static void init_scans(void)
{
    for (int p = 0; p < FILE_NB; p++)
        for (unsigned occ = 0; occ < (1u << FILE_NB); occ++)
            pack_scan(&rank_scans[p][occ], occ, p, FILE_NB);
    for (int p = 0; p < RANK_NB; p++)
        for (unsigned occ = 0; occ < (1u << RANK_NB); occ++)
            pack_scan(&file_scans[p][occ], occ, p, RANK_NB);
}

static inline LineScan rank_scan(const Board *b, int r, int f) { return unpack_scan(&rank_scans[f][b->rank_occ[r]]); }
static inline LineScan file_scan(const Board *b, int f, int r) { return unpack_scan(&file_scans[r][b->file_occ[f]]); }

/* Empty points reachable before the first blocker on either side. */
static inline int line_empty(const LineScan *ls) { return ls->empty; }

/* Pieces strictly between points a and b of a line. */
static inline int line_between(unsigned occ, int a, int b)
{
    int lo = a < b ? a : b, hi = a < b ? b : a;
    return popcount10[occ & ((1u << hi) - 1) & ~((2u << lo) - 1)];
}

/* ------------------------------------------------------------ knowledge */

/* The terms of one side, written for a colour `us` and expanded inline for
 * each of the two colours by eval_side, so that every table indexed by the
 * colour is addressed as a constant (a call per side would keep the colour
 * in a register and index by it at each of the ~100 table reads). */
#define PER_SIDE inline __attribute__((always_inline))

/* What one side's pieces contribute: its packed score (good for that side)
 * and what it threatens against the enemy general. */
typedef struct SideEval {
    int32_t score;
    int attack_units;   /* crossed attackers, for the enemy's king danger */
    int crossed_pawns;
    /* Crossed rooks, horses and cannons: on files a..e in bits 0-7, on e..i
     * in bits 8-15; the piece loops add their attack units above those
     * (crossing), which eval_side then moves to attack_units. */
    int flank;
} SideEval;

/* Counts a crossed piece of that kind for the flank-massing term and the
 * attack units. */
static inline void count_crossing(SideEval *se, int kind, int us, int sq) { se->flank += (int)crossing[kind][us][sq]; }

/* The piece on sq, when it is an enemy other than the general, is under
 * threat from one of our pieces of the given attacker class. */
static inline void add_threat(const Board *b, int us, int attacker, int sq, SideEval *se TR_PARAM)
{
#ifdef EVAL_TRACE
    int v = threat_victim[us][b->sq[sq]];
    if (v >= 0)
        ADD_W(se, us, W_THREAT + attacker * THREAT_VICTIMS + v, 1);
#else
    se->score += threat_score[us][attacker][b->sq[sq]];
#endif
}

/* Squares of rank r / file f at point x. */
static inline int rank_sq(int r, int x) { return r * FILE_NB + x; }
static inline int file_sq(int f, int x) { return x * FILE_NB + f; }

static int count_of(const Board *b, int color, int type) { return b->count[piece_make(color, type)]; }

static PER_SIDE void eval_horses(const Board *b, int us, int knowledge, SideEval *se TR_PARAM)
{
    for (int s = SLOT_HORSE; s < SLOT_HORSE + SLOTS_PER_PIECE; s++) {
        int sq = b->plist[us][s];
        if (sq == SQ_NONE)
            continue;
        count_crossing(se, CROSS_HORSE, us, sq);
        if (knowledge < KNOW_MOBILITY)
            continue;
        /* Mobility counts destinations through free legs only, so a horse
         * with blocked legs scores (much) lower. */
#ifdef EVAL_TRACE
        const uint8_t *not_own = NOT_OWN[us];
        int mob = 0;
        for (int d = 0; d < 4; d++) {
            if (b->sq[horse_leg[sq][d]] != PIECE_NONE)
                continue;
            mob += not_own[b->sq[horse_dest[sq][d][0]]] + not_own[b->sq[horse_dest[sq][d][1]]];
            /* Off-board destinations read the horse's own square: no victim. */
            add_threat(b, us, THREAT_BY_HORSE, horse_dest[sq][d][0], se TR_ARG);
            add_threat(b, us, THREAT_BY_HORSE, horse_dest[sq][d][1], se TR_ARG);
        }
#else
        /* Both terms of each destination at once (horse_dest_value); an
         * off-board one reads the horse's own square, worth nothing. */
        const int64_t *value = horse_dest_value[us];
        int64_t sum = 0;
        for (int d = 0; d < 4; d++) {
            if (b->sq[horse_leg[sq][d]] != PIECE_NONE)
                continue;
            sum += value[b->sq[horse_dest[sq][d][0]]] + value[b->sq[horse_dest[sq][d][1]]];
        }
        const int mob = (int)((uint64_t)(sum + HORSE_MOB_OFFSET) >> HORSE_MOB_SHIFT);
        se->score += (int32_t)(sum - ((int64_t)mob << HORSE_MOB_SHIFT));
#endif
        ADD_W(se, us, W_HORSE_MOB + mob, 1);
    }
}

static PER_SIDE void eval_rooks(const Board *b, int us, int knowledge, SideEval *se TR_PARAM)
{
    int them = us ^ 1, ek = board_king_sq(b, them);
    for (int s = SLOT_ROOK; s < SLOT_ROOK + SLOTS_PER_PIECE; s++) {
        int sq = b->plist[us][s];
        if (sq == SQ_NONE)
            continue;
        int f = sq_file(sq), r = sq_rank(sq);
        count_crossing(se, CROSS_ROOK, us, sq);
        if (knowledge < KNOW_MOBILITY)
            continue;
        LineScan rs = rank_scan(b, r, f);
        LineScan fs = file_scan(b, f, r);
        ADD_W(se, us, W_ROOK_MOB_PER_SQ, line_empty(&rs) + line_empty(&fs));
        /* The rook attacks the first piece each way. */
        add_threat(b, us, THREAT_BY_ROOK, rank_sq(r, rs.tlo1), se TR_ARG);
        add_threat(b, us, THREAT_BY_ROOK, rank_sq(r, rs.thi1), se TR_ARG);
        add_threat(b, us, THREAT_BY_ROOK, file_sq(f, fs.tlo1), se TR_ARG);
        add_threat(b, us, THREAT_BY_ROOK, file_sq(f, fs.thi1), se TR_ARG);
        /* Open file: nothing ahead up to the enemy back rank. */
        int ahead = us == RED ? fs.hi1 : fs.lo1;
        if ((unsigned)ahead >= RANK_NB)
            ADD_W(se, us, W_ROOK_OPEN_FILE, 1);
        else
            ADD_W(se, us, W_ROOK_SEMI_OPEN_FILE, IS_ENEMY[us][b->sq[sq_make(f, ahead)]]);
        if (knowledge < KNOW_FULL || ek == SQ_NONE)
            continue;
        /* A rook lined up with the general pins the one piece between. */
        if (f == sq_file(ek) && line_between(b->file_occ[f], r, sq_rank(ek)) == 1)
            ADD_W(se, us, W_ROOK_KING_PIN, 1);
        if (r == sq_rank(ek) && line_between(b->rank_occ[r], f, sq_file(ek)) == 1)
            ADD_W(se, us, W_ROOK_KING_PIN, 1);
    }
}

static PER_SIDE void eval_cannons(const Board *b, int us, int knowledge, SideEval *se TR_PARAM)
{
    int them = us ^ 1, ek = board_king_sq(b, them);
    for (int s = SLOT_CANNON; s < SLOT_CANNON + SLOTS_PER_PIECE; s++) {
        int sq = b->plist[us][s];
        if (sq == SQ_NONE)
            continue;
        int f = sq_file(sq), r = sq_rank(sq);
        count_crossing(se, CROSS_CANNON, us, sq);
        if (knowledge < KNOW_MOBILITY)
            continue;
        LineScan rs = rank_scan(b, r, f);
        LineScan fs = file_scan(b, f, r);
        ADD_W(se, us, W_CANNON_MOB_PER_SQ, line_empty(&rs) + line_empty(&fs));
        /* Screens: the first piece in a direction; what lies behind it is
         * what the cannon attacks. */
        if (rs.lo1 < 0 && rs.hi1 >= FILE_NB && fs.lo1 < 0 && fs.hi1 >= RANK_NB)
            ADD_W(se, us, W_CANNON_NO_SCREEN, 1);
#ifdef EVAL_TRACE
        const int targets[4] = {rank_sq(r, rs.tlo2), rank_sq(r, rs.thi2), file_sq(f, fs.tlo2), file_sq(f, fs.thi2)};
        const uint8_t *is_enemy = IS_ENEMY[us];
        ADD_W(se, us, W_CANNON_THREAT, is_enemy[b->sq[targets[0]]] + is_enemy[b->sq[targets[1]]] +
                                      is_enemy[b->sq[targets[2]]] + is_enemy[b->sq[targets[3]]]);
        for (int i = 0; i < 4; i++)
            add_threat(b, us, THREAT_BY_CANNON, targets[i], se TR_ARG);
#else
        /* Both terms of a cannon's target at once (cannon_target_score). */
        const int32_t *target = cannon_target_score[us];
        se->score += target[b->sq[rank_sq(r, rs.tlo2)]] + target[b->sq[rank_sq(r, rs.thi2)]] +
                     target[b->sq[file_sq(f, fs.tlo2)]] + target[b->sq[file_sq(f, fs.thi2)]];
#endif
        if (knowledge < KNOW_FULL || ek == SQ_NONE)
            continue;
        int kf = sq_file(ek), kr = sq_rank(ek);
        if (f == kf) {
            int n = line_between(b->file_occ[f], r, kr);
            if (n == 0)
                ADD_W(se, us, kf == FILE_NB / 2 ? W_HOLLOW_CANNON_CENTER : W_HOLLOW_CANNON_SIDE, 1);
            else if (n == 2)
                ADD_W(se, us, W_CANNON_KING_LINE_2, 1);
            else if (n >= 3 && f == FILE_NB / 2)
                ADD_W(se, us, W_CANNON_KING_FILE_FAR, 1);
        }
        if (r == kr) {
            int n = line_between(b->rank_occ[r], f, kf);
            if (n == 0)
                ADD_W(se, us, W_CANNON_KING_RANK_OPEN, 1);
            else if (n == 2)
                ADD_W(se, us, W_CANNON_KING_LINE_2, 1);
        }
    }
}

static PER_SIDE void eval_pawns(const Board *b, int us, int knowledge, SideEval *se TR_PARAM)
{
    /* Captured pawns (SQ_NONE) read zeros from the tables: no branches. */
    uint64_t count = 0;
    for (int s = SLOT_PAWN; s < SLOT_PAWN + SLOTS_PAWN; s++)
        count += pawn_count[us][b->plist[us][s]];
    se->crossed_pawns += (int)((count >> PAWN_CROSSED_SHIFT) & PAWN_COUNT_MASK);
    se->attack_units += (int)((count >> PAWN_UNITS_SHIFT) & PAWN_COUNT_MASK);
    const uint64_t grid = count & PAWN_GRID_MASK;
    /* Side-by-side crossed pawns, each pair once. Rows are 10 bits apart
     * and file bits go up to 8, so the shift never pairs across rows. */
    uint64_t pairs = grid & (grid >> 1);
    for (; pairs; pairs &= pairs - 1)
        ADD_W(se, us, W_PAWN_LINKED, 1);
    if (knowledge < KNOW_MOBILITY)
        return;
    /* A pawn attacks the point ahead, and the points beside it once it has
     * crossed the river (before, those read its own square: no victim, so
     * they are not looked at). */
    for (int s = SLOT_PAWN; s < SLOT_PAWN + SLOTS_PAWN; s++) {
        int sq = b->plist[us][s];
        if (sq == SQ_NONE)
            continue;
        add_threat(b, us, THREAT_BY_PAWN, pawn_targets[us][sq][0], se TR_ARG);
        if (crossed[us][sq])
            for (int i = 1; i < PAWN_TARGETS; i++)
                add_threat(b, us, THREAT_BY_PAWN, pawn_targets[us][sq][i], se TR_ARG);
    }
}

/* Material balance, flank massing and a full set of defenders: terms of the
 * piece counts and of the crossing counts gathered by the piece loops. The
 * normal build adds the imbalance for both sides at once (imbalance). */
static PER_SIDE void eval_material_terms(const Board *b, int us, SideEval *se TR_PARAM)
{
#ifdef EVAL_TRACE
    int them = us ^ 1;
    for (int t = ADVISOR; t <= PAWN; t++) {
        int own = count_of(b, us, t);
        if (own == 0)
            continue;
        for (int e = ADVISOR; e <= PAWN; e++)
            ADD_W(se, us, IMB_WEIGHT(t, e), own * count_of(b, them, e));
    }
#endif
    int west = se->flank & 0xFF, east = se->flank >> 8;
    int mass = west > east ? west : east;
    ADD_W(se, us, W_FLANK_MASS + (mass < FLANK_MASS_MAX ? mass : FLANK_MASS_MAX), 1);
    if (count_of(b, us, ADVISOR) == 2 && count_of(b, us, ELEPHANT) == 2)
        ADD_W(se, us, W_FULL_DEFENCE, 1);
}

/* Our general's file ahead of it: empty invites an enemy rook, a single
 * piece is a ready screen for an enemy cannon. */
static PER_SIDE int32_t eval_king_exposure(const Board *b, int us TR_PARAM)
{
    int them = us ^ 1, k = board_king_sq(b, us);
    if (k == SQ_NONE)
        return 0;
    unsigned occ = b->file_occ[sq_file(k)];
    int kr = sq_rank(k);
    unsigned ahead = us == RED ? occ >> (kr + 1) : occ & ((1u << kr) - 1);
    int n = popcount10[ahead];
    if (n == 0) {
        TRACE_W(us, W_KING_OPEN_FILE_VS_ROOK, count_of(b, them, ROOK));
        return KING_OPEN_FILE_VS_ROOK * count_of(b, them, ROOK);
    }
    if (n == 1) {
        TRACE_W(us, W_KING_SCREEN_FILE_VS_CANNON, count_of(b, them, CANNON));
        return KING_SCREEN_FILE_VS_CANNON * count_of(b, them, CANNON);
    }
    return 0;
}

/* Missing defenders weighed against the attackers that exploit them, and the
 * danger from enemy pieces across the river. Returns a penalty (>= 0). */
static inline int32_t eval_king_danger(const Board *b, int us, const SideEval *enemy TR_PARAM)
{
    int them = us ^ 1;
    int miss_adv = 2 - count_of(b, us, ADVISOR), miss_ele = 2 - count_of(b, us, ELEPHANT);
    miss_adv = miss_adv < 0 ? 0 : miss_adv;
    miss_ele = miss_ele < 0 ? 0 : miss_ele;
    int er = count_of(b, them, ROOK), eh = count_of(b, them, HORSE), ec = count_of(b, them, CANNON);
    int ep = enemy->crossed_pawns;

    int32_t pen = miss_adv * (ADV_MISSING_VS_ROOK * er + ADV_MISSING_VS_HORSE * eh + ADV_MISSING_VS_CANNON * ec +
                              ADV_MISSING_VS_PAWN * ep) +
                  miss_ele * (ELE_MISSING_VS_ROOK * er + ELE_MISSING_VS_HORSE * eh + ELE_MISSING_VS_CANNON * ec +
                              ELE_MISSING_VS_PAWN * ep);

    /* The trace counts the penalty negatively: it is subtracted. */
    TRACE_W(us, W_ADV_MISSING + 0, -miss_adv * er);
    TRACE_W(us, W_ADV_MISSING + 1, -miss_adv * eh);
    TRACE_W(us, W_ADV_MISSING + 2, -miss_adv * ec);
    TRACE_W(us, W_ADV_MISSING + 3, -miss_adv * ep);
    TRACE_W(us, W_ELE_MISSING + 0, -miss_ele * er);
    TRACE_W(us, W_ELE_MISSING + 1, -miss_ele * eh);
    TRACE_W(us, W_ELE_MISSING + 2, -miss_ele * ec);
    TRACE_W(us, W_ELE_MISSING + 3, -miss_ele * ep);

    int units = enemy->attack_units < ATTACK_UNITS_MAX ? enemy->attack_units : ATTACK_UNITS_MAX;
#ifdef EVAL_TRACE
    int d = KING_DANGER_MG(units) * (DANGER_DEF_BASE + 2 * miss_adv + miss_ele) / DANGER_DEF_BASE;
    TRACE_DANGER(us, units, -(double)(DANGER_DEF_BASE + 2 * miss_adv + miss_ele) / DANGER_DEF_BASE);
    pen += S(d, d * DANGER_EG_NUM / DANGER_EG_DEN);
#else
    pen += danger_score[miss_adv * 3 + miss_ele][units];
#endif
    return pen;
}

/* Rooks, horses and cannons of both sides, by type. */
typedef struct Majors {
    int rooks, horses, cannons;
} Majors;

static Majors count_majors(const Board *b)
{
    Majors m = {count_of(b, RED, ROOK) + count_of(b, BLACK, ROOK), count_of(b, RED, HORSE) + count_of(b, BLACK, HORSE),
                count_of(b, RED, CANNON) + count_of(b, BLACK, CANNON)};
    return m;
}

/* Endings the leading side (the sign of v) can rarely or never win: the
 * entry of the endgame table (endgame.c) that matches, or -1. The table
 * holds only endings with few majors; most positions stop at that test. */
static int drawish_entry(const Board *b, const Majors *m, int v)
{
    if (v == 0 || m->rooks + m->horses + m->cannons > ENDGAME_MAX_MAJORS)
        return -1;
    return endgame_find(b, v > 0 ? RED : BLACK);
}

static int game_phase(const Majors *m)
{
    int ph = PHASE_ROOK * m->rooks + PHASE_HORSE * m->horses + PHASE_CANNON * m->cannons;
    return ph < PHASE_MAX ? ph : PHASE_MAX;
}

/* b->psq is only ours when our table is installed; otherwise (a board that
 * never saw board_set_psq) sum it here rather than return nonsense. */
static int32_t psq_sum(const Board *b TR_PARAM)
{
#ifdef EVAL_TRACE
    /* Material and table entry of every piece; a Black piece counts the Red
     * entry of the rank-mirrored square, negatively (see eval_init). */
    for (int sq = 0; sq < SQ_NB; sq++) {
        Piece p = b->sq[sq];
        if (p == PIECE_NONE)
            continue;
        int us = piece_color(p), type = piece_type(p);
        int rsq = us == RED ? sq : sq_make(sq_file(sq), RANK_NB - 1 - sq_rank(sq));
        int f = sq_file(rsq), row = RANK_NB - 1 - sq_rank(rsq);
        int hf = f < PSQ_HALF_FILES ? f : FILE_NB - 1 - f;
        if (type != KING)
            TRACE_W(us, W_MAT + type - ADVISOR, 1);
        TRACE_W(us, W_PSQ + (type - KING) * PSQ_HALF_SQUARES + row * PSQ_HALF_FILES + hf, 1);
    }
#else
    if (b->psq_table == &psq_table)
        return b->psq;
#endif
    int32_t s = 0;
    for (int sq = 0; sq < SQ_NB; sq++)
        s += psq_table[b->sq[sq]][sq];
    return s;
}

#ifndef EVAL_TRACE
/* Red's imbalance less Black's, from imbalance_cols: the same sum as the
 * trace build's per-side loops, with six multiplications. */
static int32_t imbalance(const Board *b)
{
    int sig = 0;
    for (int e = IMB_TYPES - 1; e >= 0; e--)
        sig = sig * IMB_RADIX[e] + count_of(b, BLACK, ADVISOR + e);
    const int32_t *col = imbalance_cols[sig];
    int32_t s = 0;
    for (int t = 0; t < IMB_TYPES; t++)
        s += count_of(b, RED, ADVISOR + t) * col[t];
    return s;
}
#endif

/* The side to move's bonus: the one term that is not colour-symmetric
 * (eval_other_side relies on that). */
static inline int tempo(int knowledge) { return knowledge >= KNOW_BASIC ? TEMPO_BONUS : 0; }

/* Every knowledge term of one side (see PER_SIDE). */
static PER_SIDE void eval_side(const Board *b, int us, int knowledge, SideEval *se TR_PARAM)
{
    eval_horses(b, us, knowledge, se TR_ARG);
    eval_rooks(b, us, knowledge, se TR_ARG);
    eval_cannons(b, us, knowledge, se TR_ARG);
    se->attack_units += se->flank >> CROSS_UNITS_SHIFT;
    se->flank &= (1 << CROSS_UNITS_SHIFT) - 1;
    eval_pawns(b, us, knowledge, se TR_ARG);
    eval_material_terms(b, us, se TR_ARG);
    if (knowledge >= KNOW_FULL)
        se->score += eval_king_exposure(b, us TR_ARG);
}

int eval_evaluate(const Board *b, int knowledge TR_PARAM)
{
    int32_t packed = psq_sum(b TR_ARG);

    if (knowledge >= KNOW_BASIC) {
        SideEval se[2] = {{.score = 0}, {.score = 0}};
        eval_side(b, RED, knowledge, &se[RED] TR_ARG);
        eval_side(b, BLACK, knowledge, &se[BLACK] TR_ARG);
        packed += se[RED].score - se[BLACK].score;
#ifndef EVAL_TRACE
        packed += imbalance(b);
#endif
        packed -= eval_king_danger(b, RED, &se[BLACK] TR_ARG) - eval_king_danger(b, BLACK, &se[RED] TR_ARG);
    }

    /* Taper: C division truncates toward zero, so a colour-mirrored position
     * gets exactly the negated value. */
    const Majors majors = count_majors(b);
    int phase = game_phase(&majors);
    int v = (score_mg(packed) * phase + score_eg(packed) * (PHASE_MAX - phase)) / PHASE_MAX;

    const int entry = knowledge >= KNOW_BASIC ? drawish_entry(b, &majors, v) : -1;
    const int scale = entry < 0 ? SCALE_ONE : ENDGAME_SCALE[entry];
    v = v * scale / SCALE_ONE;
#ifdef EVAL_TRACE
    tr->phase = phase;
    tr->scale = (double)scale / SCALE_ONE;
    tr->endgame_entry = entry;
    tr->red_to_move = b->side == RED;
#endif
    v = b->side == RED ? v : -v;
    return v + tempo(knowledge);
}

#ifndef EVAL_TRACE
int eval_other_side(int v, int knowledge) { return 2 * tempo(knowledge) - v; }
#endif
