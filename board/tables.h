/* tables.h — board/'s private precomputed tables (filled once by board_init()).
 * Only files inside board/ include this; other modules use board.h. */
#ifndef CHARIOT_BOARD_TABLES_H
#define CHARIOT_BOARD_TABLES_H

#include "board.h"
#include "steps.h"

/* What a slider on a line of up to 10 points sees from position p with the
 * line's occupancy mask: the empty points it can move to (both directions),
 * the first blocker each way (rook captures, and the flying general), and the
 * second blocker each way (cannon captures). Bits are positions on the line. */
typedef struct SlideEntry {
    uint16_t quiet;
    uint16_t first;
    uint16_t second;
    uint16_t quiet_count; /* popcount of quiet, so counting needs no popcnt instruction */
} SlideEntry;

extern SlideEntry board_rank_slide[FILE_NB][1 << FILE_NB];  /* [file][rank_occ] */
extern SlideEntry board_file_slide[RANK_NB][1 << RANK_NB];  /* [rank][file_occ] */

/* The target squares of each step list above, as a 90-bit set (square s
 * is bit s & 63 of word s >> 6): a leaper none of whose targets holds an
 * enemy piece has no capture, which two ANDs tell. */
typedef struct StepReach {
    uint64_t w[2];
} StepReach;

/* The one-point set of each square, and the empty set for SQ_NONE and any
 * other value of a byte: a piece list becomes a set with no tests. */
extern StepReach board_sq_point[256];

extern StepReach board_king_reach[SQ_NB];
extern StepReach board_advisor_reach[SQ_NB];
extern StepReach board_elephant_reach[SQ_NB];
extern StepReach board_horse_reach[SQ_NB];
extern StepReach board_pawn_reach[2][SQ_NB];

/* [mover's colour][enemy general's square]: the squares move_checks() can
 * react to, the general's rank and file (both ways), the horse legs next to
 * it (left), and the points from which a horse or a pawn of the mover
 * attacks it (reached). A table, because it depends on nothing else and the
 * search asks for it at most nodes. */
extern BoardCheckFilter board_check_filters[2][SQ_NB];

extern uint64_t board_zobrist[PIECE_NB][SQ_NB];
extern uint64_t board_zobrist_side;
/* A piece's term in its structure key (0 for pieces of neither structure),
 * and which key it belongs to (-1: none). */
extern uint64_t board_struct_zobrist[PIECE_NB][SQ_NB];
extern const int8_t BOARD_STRUCT_OF[PIECE_NB];

/* After a move from -> to (already on the board), is the side to move in
 * check? Same answer as a full attack scan of its general, found faster. */
bool board_move_gave_check(const Board *b, int from, int to);

/* True when a pawn of colour c on sq has crossed the river. */
static inline bool board_pawn_crossed(int c, int sq)
{
    return c == RED ? sq_rank(sq) >= 5 : sq_rank(sq) <= 4;
}

#endif
