/* eval.h — static evaluation of a xiangqi position. */
#ifndef CHARIOT_EVAL_H
#define CHARIOT_EVAL_H

#include "board.h"

/* Fills the read-only evaluation tables (and the board's) once; thread-safe. */
void eval_init(void);
/* The incremental piece-square table to install with board_set_psq(). */
const BoardPsqTable *eval_psq_table(void);
/* Static score in centipawns from the side to move's point of view.
 * knowledge: 0 (material and tables only) .. 3 (everything, the default). */
int eval_evaluate(const Board *b, int knowledge);
/* eval_evaluate() of the same position with the other side to move, given
 * v = eval_evaluate() of this one: the terms are all colour-symmetric, so
 * only the sign and the side to move's tempo change. The search uses it for
 * the position after a null move, whose parent it has just evaluated. */
int eval_other_side(int v, int knowledge);

#endif
