/* endgame.h — xiangqi endgame theory as data: material signatures of the
 * leading side against the defender, each with a scale factor out of
 * SCALE_ONE (eval/endgame.c names each entry; test_eval holds a position of each).
 * The evaluation multiplies the leading side's score by the factor of the
 * first entry that matches. */
#ifndef CHARIOT_EVAL_ENDGAME_H
#define CHARIOT_EVAL_ENDGAME_H

#include "board.h"

/* Which pawns of the strong side an entry asks for. */
typedef enum EndgamePawns {
    EG_PAWNS_ANY = 0,
    EG_PAWNS_HIGH,   /* every pawn has crossed the river and is not on the last rank */
    EG_PAWNS_BOTTOM  /* every pawn stands on the enemy's back rank */
} EndgamePawns;

/* Counts one side must have: rooks, horses and cannons exactly; pawns,
 * advisors and elephants within [min, max]. */
typedef struct EndgameSide {
    int rooks, horses, cannons;
    int pawns_min, pawns_max;
    int advisors_min, advisors_max;
    int elephants_min, elephants_max;
} EndgameSide;

typedef struct EndgameEntry {
    const char *name;    /* as ENDGAMES.md writes it, strong side first */
    EndgameSide strong;
    EndgamePawns strong_pawns;
    EndgameSide weak;
    EndgamePawns weak_pawns;
} EndgameEntry;

extern const EndgameEntry ENDGAME_TABLE[];
extern const int ENDGAME_TABLE_SIZE;
/* Entry i's scale factor, out of SCALE_ONE: fitted, see endgame_scales.h. */
extern const int ENDGAME_SCALE[];

/* No entry has more than this many rooks, horses and cannons on the board,
 * both sides together: with more, endgame_find() always answers -1, and
 * the evaluation need not ask (it asks at every node). */
enum { ENDGAME_MAX_MAJORS = 3 };

/* Index of the first entry that matches b with `strong` as the leading side,
 * or -1. */
int endgame_find(const Board *b, int strong);

#endif
