/* eval.h — static evaluation of a xiangqi position. */
#ifndef CHARIOT_EVAL_H
#define CHARIOT_EVAL_H

#include "board.h"

/* Fills the read-only evaluation tables. Call once from main() after board_init(). */
void eval_init(void);
/* The incremental piece-square table to install with board_set_psq(). */
const BoardPsqTable *eval_psq_table(void);
/* Static score in centipawns from the side to move's point of view.
 * knowledge: 0 (material and tables only) .. 3 (everything, the default). */
int eval_evaluate(const Board *b, int knowledge);

#endif
