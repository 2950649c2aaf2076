/* params.h — every tuning constant of the evaluation, named, in one place for a tuner. */
#ifndef CHARIOT_EVAL_PARAMS_H
#define CHARIOT_EVAL_PARAMS_H

#include <stdint.h>

#include "board.h"

/* A packed score: middlegame value in the low 16 bits, endgame value in the
 * high 16 bits. Written as plain signed arithmetic (eg * 65536 + mg) so that
 * packed scores add, subtract and scale by small integers component-wise,
 * with no implementation-defined shifts. Both halves must stay in -32767..32767. */
#define S(mg, eg) ((int32_t)((int32_t)(eg) * 65536 + (int32_t)(mg)))

/* ------------------------------------------------------------ game phase */

/* Phase weight per piece type (both sides count). Only the pieces that carry
 * the attack weigh: advisors, elephants, pawns and kings count nothing. */
enum {
    PHASE_ROOK = 4,
    PHASE_HORSE = 2,
    PHASE_CANNON = 2,
    PHASE_MAX = 2 * (2 * PHASE_ROOK + 2 * PHASE_HORSE + 2 * PHASE_CANNON) /* 32 */
};

/* -------------------------------------------------------------- material */

/* Base value per piece type, before the piece-square bonus. The cannon needs
 * screens, so it loses value as the board empties; the horse gains room. */
#define MAT_KING     S(0, 0)
#define MAT_ADVISOR  S(170, 150)
#define MAT_ELEPHANT S(170, 150)
#define MAT_HORSE    S(430, 470)
#define MAT_ROOK     S(1050, 1150)
#define MAT_CANNON   S(460, 420)
#define MAT_PAWN     S(100, 110)

/* ------------------------------------------------------ piece-square tables
 *
 * Bonuses for a RED piece, added to the material. Each table is a half board
 * drawn as Red sees it: row 0 is rank 9 (Black's back rank), row 9 is rank 0
 * (Red's back rank); columns are files a..e, and files f..i mirror d..a, so
 * every table is left-right symmetric by construction. Black uses the same
 * tables with ranks mirrored (rank r -> 9 - r). Squares a piece can never
 * reach hold 0. */
enum { PSQ_HALF_FILES = 5 };

/* King: stay on the back rank early (a raised general walks into rook and
 * horse attacks); in the endgame a central, slightly raised general helps. */
static const int16_t PSQ_KING_MG[RANK_NB][PSQ_HALF_FILES] = {
    {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0},
    {0, 0, 0, -40, -35},  /* rank 2 */
    {0, 0, 0, -22, -15},  /* rank 1 */
    {0, 0, 0, -8, 0},     /* rank 0 */
};
static const int16_t PSQ_KING_EG[RANK_NB][PSQ_HALF_FILES] = {
    {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0},
    {0, 0, 0, -10, -5},   /* rank 2 */
    {0, 0, 0, -4, 5},     /* rank 1 */
    {0, 0, 0, -6, 0},     /* rank 0 */
};

/* Advisors: the palace centre covers both corners and the general's file. */
static const int16_t PSQ_ADVISOR_MG[RANK_NB][PSQ_HALF_FILES] = {
    {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0},
    {0, 0, 0, -8, 0},     /* rank 2 */
    {0, 0, 0, 0, 10},     /* rank 1 */
    {0, 0, 0, 0, 0},      /* rank 0 */
};
static const int16_t PSQ_ADVISOR_EG[RANK_NB][PSQ_HALF_FILES] = {
    {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0},
    {0, 0, 0, -4, 0},     /* rank 2 */
    {0, 0, 0, 0, 6},      /* rank 1 */
    {0, 0, 0, 0, 0},      /* rank 0 */
};

/* Elephants: the centre eye square links both elephants; the river bank and
 * the edge are loose. */
static const int16_t PSQ_ELEPHANT_MG[RANK_NB][PSQ_HALF_FILES] = {
    {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0},
    {0, 0, -4, 0, 0},     /* rank 4 */
    {0, 0, 0, 0, 0},      /* rank 3 */
    {-8, 0, 0, 0, 10},    /* rank 2 */
    {0, 0, 0, 0, 0},      /* rank 1 */
    {0, 0, 0, 0, 0},      /* rank 0 */
};
static const int16_t PSQ_ELEPHANT_EG[RANK_NB][PSQ_HALF_FILES] = {
    {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0},
    {0, 0, -4, 0, 0},     /* rank 4 */
    {0, 0, 0, 0, 0},      /* rank 3 */
    {-6, 0, 0, 0, 6},     /* rank 2 */
    {0, 0, 0, 0, 0},      /* rank 1 */
    {0, 0, 0, 0, 0},      /* rank 0 */
};

/* Horse: strong when advanced and central, best on the classic attacking
 * posts next to the enemy palace (the "crouching" squares c7/g7 and the palace
 * corners d9/f9); poor on the edge and on the home ranks. */
static const int16_t PSQ_HORSE_MG[RANK_NB][PSQ_HALF_FILES] = {
    {-5, 0, 8, 22, 0},    /* rank 9 */
    {0, 18, 28, 32, 22},  /* rank 8 */
    {4, 24, 40, 34, 34},  /* rank 7 */
    {4, 20, 30, 34, 32},  /* rank 6 */
    {0, 14, 24, 28, 28},  /* rank 5 */
    {-2, 10, 18, 18, 20}, /* rank 4 */
    {-6, 4, 14, 10, 14},  /* rank 3 */
    {-10, 0, 10, 8, 4},   /* rank 2 */
    {-16, -8, 0, -8, -12},/* rank 1 */
    {-22, -10, -6, -12, -20}, /* rank 0 */
};
static const int16_t PSQ_HORSE_EG[RANK_NB][PSQ_HALF_FILES] = {
    {-12, -2, 8, 10, 8},  /* rank 9 */
    {-2, 10, 20, 24, 24}, /* rank 8 */
    {0, 14, 24, 28, 30},  /* rank 7 */
    {0, 14, 24, 28, 30},  /* rank 6 */
    {-2, 10, 20, 24, 26}, /* rank 5 */
    {-4, 6, 14, 18, 20},  /* rank 4 */
    {-6, 4, 10, 14, 16},  /* rank 3 */
    {-10, 0, 6, 10, 10},  /* rank 2 */
    {-14, -6, 0, 4, 4},   /* rank 1 */
    {-20, -12, -6, 0, 0}, /* rank 0 */
};

/* Rook: the palace side files d/f and the river banks are its best lines;
 * the back corner is where it starts and should leave early. */
static const int16_t PSQ_ROOK_MG[RANK_NB][PSQ_HALF_FILES] = {
    {8, 10, 6, 16, 10},   /* rank 9 */
    {10, 14, 10, 20, 18}, /* rank 8 */
    {8, 14, 10, 20, 18},  /* rank 7 */
    {8, 14, 14, 20, 20},  /* rank 6 */
    {10, 16, 16, 20, 20}, /* rank 5 */
    {6, 14, 10, 16, 16},  /* rank 4 */
    {0, 8, 4, 10, 8},     /* rank 3 */
    {-4, 4, 0, 10, 4},    /* rank 2 */
    {-8, 4, 0, 6, 0},     /* rank 1 */
    {-14, 0, -4, 4, 0},   /* rank 0 */
};
static const int16_t PSQ_ROOK_EG[RANK_NB][PSQ_HALF_FILES] = {
    {4, 6, 6, 10, 10},    /* rank 9 */
    {6, 10, 10, 14, 14},  /* rank 8 */
    {6, 10, 10, 14, 14},  /* rank 7 */
    {6, 8, 10, 12, 12},   /* rank 6 */
    {4, 6, 8, 10, 10},    /* rank 5 */
    {2, 4, 6, 8, 8},      /* rank 4 */
    {0, 2, 4, 6, 6},      /* rank 3 */
    {-2, 0, 2, 4, 4},     /* rank 2 */
    {-4, -2, 0, 2, 2},    /* rank 1 */
    {-6, -4, -2, 0, 0},   /* rank 0 */
};

/* Cannon: the central file (the king-line terms add the real pressure), the
 * home cannon rank and the enemy back rank; the middle of the enemy half,
 * where it lacks screens and gets trapped, is slightly worse. In the endgame
 * it prefers to stay home, near its own screens. */
static const int16_t PSQ_CANNON_MG[RANK_NB][PSQ_HALF_FILES] = {
    {14, 10, 0, -4, 0},   /* rank 9 */
    {6, 6, 0, -8, -4},    /* rank 8 */
    {4, 4, 0, -4, 4},     /* rank 7 */
    {0, 0, 0, 0, 8},      /* rank 6 */
    {0, 4, 4, 4, 12},     /* rank 5 */
    {0, 2, 2, 2, 10},     /* rank 4 */
    {0, 4, 4, 4, 14},     /* rank 3 */
    {0, 6, 4, 6, 18},     /* rank 2 */
    {0, 0, 0, 0, 4},      /* rank 1 */
    {-4, -2, 0, 0, 0},    /* rank 0 */
};
static const int16_t PSQ_CANNON_EG[RANK_NB][PSQ_HALF_FILES] = {
    {-6, -4, -4, -4, -4}, /* rank 9 */
    {-4, -2, -2, -2, -2}, /* rank 8 */
    {-4, -2, 0, 0, 0},    /* rank 7 */
    {-4, 0, 0, 0, 0},     /* rank 6 */
    {-2, 0, 2, 2, 2},     /* rank 5 */
    {-2, 0, 2, 4, 4},     /* rank 4 */
    {-2, 2, 4, 4, 6},     /* rank 3 */
    {-2, 2, 4, 6, 8},     /* rank 2 */
    {-4, 0, 2, 4, 6},     /* rank 1 */
    {-6, -2, 0, 2, 4},    /* rank 0 */
};

/* Pawn: worth about one before the river and about two after it, the most on
 * the ranks next to the enemy palace and near its files; a pawn that has
 * reached the last rank ("old pawn") can only move sideways and is worth less.
 * Ranks 0-2 are unreachable. */
static const int16_t PSQ_PAWN_MG[RANK_NB][PSQ_HALF_FILES] = {
    {10, 30, 50, 70, 75},     /* rank 9 */
    {60, 90, 120, 150, 160},  /* rank 8 */
    {60, 90, 110, 140, 150},  /* rank 7 */
    {50, 80, 95, 105, 110},   /* rank 6 */
    {45, 65, 80, 90, 90},     /* rank 5 */
    {0, 0, 10, 0, 15},        /* rank 4 */
    {0, 0, 0, 0, 5},          /* rank 3 */
    {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0},
};
static const int16_t PSQ_PAWN_EG[RANK_NB][PSQ_HALF_FILES] = {
    {0, 20, 40, 55, 60},      /* rank 9 */
    {60, 85, 110, 130, 140},  /* rank 8 */
    {65, 85, 105, 125, 135},  /* rank 7 */
    {65, 80, 90, 100, 100},   /* rank 6 */
    {60, 70, 80, 80, 80},     /* rank 5 */
    {10, 0, 10, 0, 10},       /* rank 4 */
    {0, 0, 0, 0, 0},          /* rank 3 */
    {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0},
};

/* -------------------------------------------------------- knowledge levels */

/* eval_evaluate(b, knowledge) adds the terms level by level, cheapest first. */
enum {
    KNOW_PSQ = 0,      /* material and piece-square tables only */
    KNOW_BASIC = 1,    /* + defenders, king danger, pawn links, tempo, drawish scaling */
    KNOW_MOBILITY = 2, /* + horse, rook and cannon mobility, open files */
    KNOW_FULL = 3      /* + cannon and rook lines against the general, king exposure */
};

/* Bonus for the side to move (centipawns, after the taper). */
enum { TEMPO_BONUS = 10 };

/* ------------------------------------------------------ defenders (level 1) */

/* Per missing advisor, per enemy attacker: missing advisors open the palace
 * to rooks and horses. Per missing elephant: the centre and the river line
 * open to cannons. */
#define ADV_MISSING_VS_ROOK    S(22, 28)
#define ADV_MISSING_VS_HORSE   S(14, 20)
#define ADV_MISSING_VS_CANNON  S(8, 10)
#define ADV_MISSING_VS_PAWN    S(4, 8)
#define ELE_MISSING_VS_ROOK    S(10, 12)
#define ELE_MISSING_VS_HORSE   S(6, 8)
#define ELE_MISSING_VS_CANNON  S(20, 26)
#define ELE_MISSING_VS_PAWN    S(2, 4)

/* ---------------------------------------------------- king danger (level 1) */

/* Attack units a piece adds when it stands in the enemy half (crossed the
 * river); pawns count more once they reach the palace ranks. */
enum {
    ATTACK_UNITS_ROOK = 4,
    ATTACK_UNITS_HORSE = 3,
    ATTACK_UNITS_CANNON = 2,
    ATTACK_UNITS_PAWN = 1,
    ATTACK_UNITS_PAWN_DEEP = 2,   /* pawn on the enemy's palace ranks or beyond */
    ATTACK_UNITS_MAX = 24
};
/* Middlegame penalty by attack units (grows roughly with the square). */
static const int16_t KING_DANGER_MG[ATTACK_UNITS_MAX + 1] = {
    0, 0, 0, 2, 5, 9, 14, 20, 27, 35, 44, 54, 65, 77, 90, 104,
    119, 135, 152, 170, 189, 209, 230, 252, 275,
};
/* The penalty is multiplied by (DANGER_DEF_BASE + missing advisors * 2 +
 * missing elephants) / DANGER_DEF_BASE, and the endgame share is
 * DANGER_EG_NUM / DANGER_EG_DEN of it. */
enum { DANGER_DEF_BASE = 4, DANGER_EG_NUM = 1, DANGER_EG_DEN = 2 };

/* ----------------------------------------------------------- pawns (level 1) */

/* Two crossed pawns side by side protect each other and build a wall. */
#define PAWN_LINKED S(20, 35)

/* --------------------------------------------------- drawish endings (level 1) */

/* The score of the leading side is multiplied by SCALE / SCALE_ONE.
 * No rook, horse, cannon or pawn: the general cannot be mated. */
enum { SCALE_ONE = 16, SCALE_NO_ATTACKERS = 1,
       /* a lone horse or cannon (no rook, no pawn) against at least
        * SCALE_LONE_MINOR_DEFENDERS advisors and elephants rarely wins */
       SCALE_LONE_MINOR = 6, SCALE_LONE_MINOR_DEFENDERS = 2 };

/* --------------------------------------------------------- mobility (level 2) */

/* Horse by number of reachable squares (legs free, not onto an own piece).
 * A horse with its legs blocked ("hobbled") is nearly useless. */
static const int16_t HORSE_MOB_MG[9] = {-50, -26, -10, 0, 8, 14, 18, 21, 24};
static const int16_t HORSE_MOB_EG[9] = {-44, -22, -8, 0, 8, 14, 18, 21, 24};

/* Rook and cannon: per empty square reachable along rank and file. */
#define ROOK_MOB_PER_SQ    S(4, 4)
#define CANNON_MOB_PER_SQ  S(2, 1)
/* Rook seeing all the way to the enemy back rank along its file, or whose
 * first piece ahead is an enemy piece. */
#define ROOK_OPEN_FILE      S(20, 10)
#define ROOK_SEMI_OPEN_FILE S(8, 4)
/* Cannon with a screen and an enemy piece behind it, per direction. */
#define CANNON_THREAT       S(6, 8)
/* Cannon with no screen in any direction: it can capture nothing. */
#define CANNON_NO_SCREEN    S(-6, -18)

/* ---------------------------------------------- lines to the general (level 3) */

/* Cannon on the enemy general's file with nothing between ("hollow cannon"):
 * the defender cannot place a piece on that file, the palace centre is dead. */
#define HOLLOW_CANNON_CENTER S(80, 25)   /* general on its central file */
#define HOLLOW_CANNON_SIDE   S(35, 10)   /* general moved to a side file */
/* Cannon on the general's back rank with nothing between ("bottom cannon"). */
#define CANNON_KING_RANK_OPEN S(35, 10)
/* Cannon with two pieces between it and the general (screen plus a pinned
 * piece): one piece moving away gives check. Central cannon further away. */
#define CANNON_KING_LINE_2  S(28, 8)
#define CANNON_KING_FILE_FAR S(10, 0)
/* Rook on the general's file or rank with exactly one piece between: pins it. */
#define ROOK_KING_PIN       S(20, 10)
/* Own general whose file ahead of it is empty, per enemy rook; with one piece
 * ahead, per enemy cannon (a ready screen). */
#define KING_OPEN_FILE_VS_ROOK     S(-25, -10)
#define KING_SCREEN_FILE_VS_CANNON S(-12, -4)

#endif
