/* steps.h — the leaper step tables of board/ (filled once by board_init()):
 * board/'s second public header, for code that walks the moves of a piece
 * type itself, as eval/egtb.c's retrograde analysis does. */
#ifndef CHARIOT_BOARD_STEPS_H
#define CHARIOT_BOARD_STEPS_H

#include "board.h"

/* A leaper step: the target square and the square that must be empty for it
 * (the horse's leg, the elephant's eye; SQ_NONE when nothing can block). */
typedef struct Step {
    uint8_t to;
    uint8_t block;
} Step;

typedef struct StepList {
    uint8_t count;
    Step steps[8];
} StepList;

extern StepList board_king_steps[SQ_NB];      /* orthogonal, inside the own palace */
extern StepList board_advisor_steps[SQ_NB];   /* diagonal, inside the palace */
extern StepList board_elephant_steps[SQ_NB];  /* two points diagonally, not across the river */
extern StepList board_horse_steps[SQ_NB];     /* horse moves with their legs */
extern StepList board_horse_attackers[SQ_NB]; /* squares a horse attacks this one from, with legs */
extern StepList board_pawn_steps[2][SQ_NB];   /* forward, and sideways after the river */
extern StepList board_pawn_attackers[2][SQ_NB]; /* squares a pawn of that colour attacks this one from */

/* 1 when the square is inside the palace of that colour. */
extern uint8_t board_in_palace[2][SQ_NB];

#endif
