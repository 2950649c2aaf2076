/* endgame.c — the endgame table (endgame.h): classic verdicts of xiangqi
 * endgame theory as material signatures with scale factors. Each entry has
 * a unit test with a position of its kind (tests/test_eval.c). */
#include "endgame.h"

#include "endgame_scales.h"
#include "params.h"

/* One side's material: rooks, horses, cannons exactly, then pawns,
 * advisors and elephants as ranges. */
#define SIDE(r, h, c, pmin, pmax, amin, amax, emin, emax) {r, h, c, pmin, pmax, amin, amax, emin, emax}
/* A strong side's extra defenders do not change these verdicts. */
#define WITH_ANY_DEFENCE(r, h, c, pmin, pmax) SIDE(r, h, c, pmin, pmax, 0, 2, 0, 2)
/* A defender with no rook, horse or cannon; its pawns do not matter. */
#define DEFENDERS(amin, amax, emin, emax) SIDE(0, 0, 0, 0, 5, amin, amax, emin, emax)

/* Most specific first: the first entry that matches decides. The comments
 * give theory's verdict under best defence; the factors (endgame_scales.h)
 * are fitted to self-play results, which also count how often a defence
 * goes wrong in practice, so a "usually drawn" entry may keep a large
 * factor. */
const EndgameEntry ENDGAME_TABLE[] = {
    /* Nothing that can give mate: the rules' insufficient material when both
     * sides are bare, a dead draw for the leading side in any case. */
    {"no rook, horse, cannon or pawn", SIDE(0, 0, 0, 0, 0, 0, 2, 0, 2), EG_PAWNS_ANY, SIDE(0, 0, 0, 0, 5, 0, 2, 0, 2),
     EG_PAWNS_ANY},
    /* A rook against a full defence usually cannot break the fortress. */
    {"R vs full defence", WITH_ANY_DEFENCE(1, 0, 0, 0, 0), EG_PAWNS_ANY, DEFENDERS(2, 2, 2, 2), EG_PAWNS_ANY},
    {"R vs H + 2E", WITH_ANY_DEFENCE(1, 0, 0, 0, 0), EG_PAWNS_ANY, SIDE(0, 1, 0, 0, 0, 0, 0, 2, 2), EG_PAWNS_ANY},
    {"R vs C + 2A", WITH_ANY_DEFENCE(1, 0, 0, 0, 0), EG_PAWNS_ANY, SIDE(0, 0, 1, 0, 0, 2, 2, 0, 0), EG_PAWNS_ANY},
    {"R vs C + 2E", WITH_ANY_DEFENCE(1, 0, 0, 0, 0), EG_PAWNS_ANY, SIDE(0, 0, 1, 0, 0, 0, 0, 2, 2), EG_PAWNS_ANY},
    /* Rook and cannon against rook with full defence: the defence holds. */
    {"R + C vs R with full defence", WITH_ANY_DEFENCE(1, 0, 1, 0, 0), EG_PAWNS_ANY, SIDE(1, 0, 0, 0, 0, 2, 2, 2, 2),
     EG_PAWNS_ANY},
    /* Rook and high pawn (an advisor at most) against rook and two advisors. */
    {"R + high P vs R + 2A", SIDE(1, 0, 0, 1, 1, 0, 1, 0, 2), EG_PAWNS_HIGH, SIDE(1, 0, 0, 0, 0, 2, 2, 0, 2),
     EG_PAWNS_ANY},
    /* A lone horse cannot mate against two defenders of one kind. */
    {"H vs 2A", WITH_ANY_DEFENCE(0, 1, 0, 0, 0), EG_PAWNS_ANY, DEFENDERS(2, 2, 0, 2), EG_PAWNS_ANY},
    {"H vs 2E", WITH_ANY_DEFENCE(0, 1, 0, 0, 0), EG_PAWNS_ANY, DEFENDERS(0, 2, 2, 2), EG_PAWNS_ANY},
    {"H vs A + E", WITH_ANY_DEFENCE(0, 1, 0, 0, 0), EG_PAWNS_ANY, DEFENDERS(1, 1, 1, 1), EG_PAWNS_ANY},
    /* A horse cannot stop a pawn that has reached the bottom rank from
     * holding the draw. */
    {"H vs bottom P", WITH_ANY_DEFENCE(0, 1, 0, 0, 0), EG_PAWNS_ANY, SIDE(0, 0, 0, 1, 1, 0, 2, 0, 2), EG_PAWNS_BOTTOM},
    {"H + P vs full defence", WITH_ANY_DEFENCE(0, 1, 0, 1, 1), EG_PAWNS_ANY, DEFENDERS(2, 2, 2, 2), EG_PAWNS_ANY},
    /* A cannon needs a screen: alone, with no own piece, it cannot mate. */
    {"lone C vs bare general or one advisor", SIDE(0, 0, 1, 0, 0, 0, 0, 0, 0), EG_PAWNS_ANY, DEFENDERS(0, 1, 0, 0),
     EG_PAWNS_ANY},
    {"C without an advisor", SIDE(0, 0, 1, 0, 0, 0, 0, 0, 2), EG_PAWNS_ANY, DEFENDERS(0, 2, 0, 2), EG_PAWNS_ANY},
    {"C vs 2E", WITH_ANY_DEFENCE(0, 0, 1, 0, 0), EG_PAWNS_ANY, DEFENDERS(0, 2, 2, 2), EG_PAWNS_ANY},
    {"C vs 2A", WITH_ANY_DEFENCE(0, 0, 1, 0, 0), EG_PAWNS_ANY, DEFENDERS(2, 2, 0, 1), EG_PAWNS_ANY},
    {"C vs A + E", WITH_ANY_DEFENCE(0, 0, 1, 0, 0), EG_PAWNS_ANY, DEFENDERS(1, 1, 1, 1), EG_PAWNS_ANY},
    {"C vs C", WITH_ANY_DEFENCE(0, 0, 1, 0, 0), EG_PAWNS_ANY, SIDE(0, 0, 1, 0, 0, 0, 2, 0, 2), EG_PAWNS_ANY},
    {"2C vs 2E", WITH_ANY_DEFENCE(0, 0, 2, 0, 0), EG_PAWNS_ANY, DEFENDERS(0, 2, 2, 2), EG_PAWNS_ANY},
    /* Pawns: a bottom pawn cannot mate alone; elephants stop a lone pawn. */
    {"bottom P vs bare general", WITH_ANY_DEFENCE(0, 0, 0, 1, 1), EG_PAWNS_BOTTOM, SIDE(0, 0, 0, 0, 0, 0, 0, 0, 0),
     EG_PAWNS_ANY},
    {"P vs 2E", WITH_ANY_DEFENCE(0, 0, 0, 1, 1), EG_PAWNS_ANY, DEFENDERS(0, 2, 2, 2), EG_PAWNS_ANY},
    {"high P vs E", WITH_ANY_DEFENCE(0, 0, 0, 1, 1), EG_PAWNS_HIGH, DEFENDERS(0, 2, 1, 2), EG_PAWNS_ANY},
    {"2 high P vs A + E", WITH_ANY_DEFENCE(0, 0, 0, 2, 2), EG_PAWNS_HIGH, DEFENDERS(1, 1, 1, 1), EG_PAWNS_ANY},
};
const int ENDGAME_TABLE_SIZE = (int)(sizeof ENDGAME_TABLE / sizeof ENDGAME_TABLE[0]);

/* The factors are fitted to self-play results by `chariot tune
 * --endgame-scales` (docs/TUNING.md), which writes endgame_scales.h. */
const int ENDGAME_SCALE[] = ENDGAME_SCALES;
_Static_assert(sizeof ENDGAME_SCALE / sizeof ENDGAME_SCALE[0] == sizeof ENDGAME_TABLE / sizeof ENDGAME_TABLE[0],
               "endgame_scales.h must have one factor per table entry: regenerate it");

static int count_of(const Board *b, int color, int type) { return b->count[piece_make(color, type)]; }

/* Whether every pawn of `color` is of the kind asked for. */
static bool pawns_are(const Board *b, int color, EndgamePawns kind)
{
    if (kind == EG_PAWNS_ANY)
        return true;
    for (int s = BOARD_SLOT_FIRST[PAWN]; s < BOARD_SLOT_FIRST[PAWN] + BOARD_SLOT_COUNT[PAWN]; s++) {
        int sq = b->plist[color][s];
        if (sq == SQ_NONE)
            continue;
        int rr = color == RED ? sq_rank(sq) : RANK_NB - 1 - sq_rank(sq);
        bool bottom = rr == RANK_NB - 1, high = rr >= RANK_NB / 2 && !bottom;
        if (kind == EG_PAWNS_HIGH ? !high : !bottom)
            return false;
    }
    return true;
}

static bool side_matches(const Board *b, int color, const EndgameSide *s, EndgamePawns kind)
{
    int p = count_of(b, color, PAWN), a = count_of(b, color, ADVISOR), e = count_of(b, color, ELEPHANT);
    return count_of(b, color, ROOK) == s->rooks && count_of(b, color, HORSE) == s->horses &&
           count_of(b, color, CANNON) == s->cannons && p >= s->pawns_min && p <= s->pawns_max &&
           a >= s->advisors_min && a <= s->advisors_max && e >= s->elephants_min && e <= s->elephants_max &&
           pawns_are(b, color, kind);
}

int endgame_find(const Board *b, int strong)
{
    int weak = strong ^ 1;
    /* Every entry has at most two rooks, horses and cannons in all: a quick
     * exit for the middlegame, where the table never applies. */
    int big = count_of(b, strong, ROOK) + count_of(b, strong, HORSE) + count_of(b, strong, CANNON) +
              count_of(b, weak, ROOK) + count_of(b, weak, HORSE) + count_of(b, weak, CANNON);
    if (big > ENDGAME_MAX_MAJORS)
        return -1;
    for (int i = 0; i < ENDGAME_TABLE_SIZE; i++) {
        const EndgameEntry *e = &ENDGAME_TABLE[i];
        if (side_matches(b, strong, &e->strong, e->strong_pawns) && side_matches(b, weak, &e->weak, e->weak_pawns))
            return i;
    }
    return -1;
}
