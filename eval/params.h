/* params.h — every tuning constant of the evaluation, named, in one place for a tuner.
 * The weights' values live in weights.h (written by `chariot tune`). */
#ifndef CHARIOT_EVAL_PARAMS_H
#define CHARIOT_EVAL_PARAMS_H

#include <stdint.h>

#include "board.h"

/* A packed score: middlegame value in the low 16 bits, endgame value in the
 * high 16 bits. Written as plain signed arithmetic (eg * 65536 + mg) so that
 * packed scores add, subtract and scale by small integers component-wise,
 * with no implementation-defined shifts. Both halves must stay in -32767..32767. */
#define S(mg, eg) ((int32_t)((int32_t)(eg) * 65536 + (int32_t)(mg)))

/* Every weight a tuner may change is an entry {mg, eg} of EVAL_WEIGHTS, in
 * eval/weights.h, which `chariot tune` writes; the W_* indices below say
 * which entry is which. WS(i) is entry i as a packed score. The constants
 * that are not weights of a linear term (phase weights, attack units,
 * scale factors, the king-danger multipliers) stay plain constants here. */
#include "weights.h"
#define WS(i) S(EVAL_WEIGHTS[i][0], EVAL_WEIGHTS[i][1])

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
enum { W_MAT = 0 }; /* W_MAT + type - ADVISOR: advisor, elephant, horse, rook, cannon, pawn */
#define MAT_VALUE(type) WS(W_MAT + (type) - ADVISOR)

/* ------------------------------------------------------ piece-square tables
 *
 * Bonuses for a RED piece, added to the material. Each table is a half board
 * drawn as Red sees it: row 0 is rank 9 (Black's back rank), row 9 is rank 0
 * (Red's back rank); columns are files a..e, and files f..i mirror d..a, so
 * every table is left-right symmetric by construction. Black uses the same
 * tables with ranks mirrored (rank r -> 9 - r). Squares a piece can never
 * reach hold 0. */
enum { PSQ_HALF_FILES = 5, PSQ_HALF_SQUARES = RANK_NB * PSQ_HALF_FILES };
/* One table of PSQ_HALF_SQUARES weights per piece type (king .. pawn), in
 * rows of five: W_PSQ + (type - KING) * PSQ_HALF_SQUARES + row * 5 + file. */
enum { W_PSQ = W_MAT + 6 };
#define PSQ_VALUE(type, row, half_file) WS(W_PSQ + ((type) - KING) * PSQ_HALF_SQUARES + (row) * PSQ_HALF_FILES + (half_file))

/* What the tables encode, by piece:
 * - King: stay on the back rank early (a raised general walks into rook and
 *   horse attacks); in the endgame a central, slightly raised general helps.
 * - Advisors: the palace centre covers both corners and the general's file.
 * - Elephants: the centre eye square links both elephants; the river bank and
 *   the edge are loose.
 * - Horse: strong when advanced and central, best on the classic attacking
 *   posts next to the enemy palace (the "crouching" squares c7/g7 and the
 *   palace corners d9/f9); poor on the edge and on the home ranks.
 * - Rook: the palace side files d/f and the river banks are its best lines;
 *   the back corner is where it starts and should leave early.
 * - Cannon: the central file (the king-line terms add the real pressure), the
 *   home cannon rank and the enemy back rank; the middle of the enemy half,
 *   where it lacks screens and gets trapped, is slightly worse. In the
 *   endgame it prefers to stay home, near its own screens.
 * - Pawn: worth about one before the river and about two after it, the most
 *   on the ranks next to the enemy palace and near its files; a pawn that has
 *   reached the last rank ("old pawn") can only move sideways and is worth
 *   less. Ranks 0-2 are unreachable.
 */

/* -------------------------------------------------------- knowledge levels */

/* eval_evaluate(b, knowledge) adds the terms level by level, cheapest first. */
enum {
    KNOW_PSQ = 0,      /* material and piece-square tables only */
    KNOW_BASIC = 1,    /* + defenders, king danger, pawn links, tempo, drawish scaling */
    KNOW_MOBILITY = 2, /* + horse, rook and cannon mobility, open files */
    KNOW_FULL = 3      /* + cannon and rook lines against the general, king exposure */
};

/* Sizes of the weight groups below. */
enum {
    THREAT_ATTACKERS = 4, /* rook, horse, cannon, pawn */
    THREAT_VICTIMS = 6,   /* advisor, elephant, horse, rook, cannon, pawn */
    IMB_TYPES = 6,        /* advisor .. pawn */
    FLANK_MASS_MAX = 6    /* two rooks, two horses, two cannons */
};

/* The weights after the tables, in this order (W_COUNT in all). */
enum {
    /* Per missing advisor / elephant, per enemy rook, horse, cannon and
     * crossed pawn (four each). */
    W_ADV_MISSING = W_PSQ + 7 * PSQ_HALF_SQUARES,
    W_ELE_MISSING = W_ADV_MISSING + 4,
    /* King danger by attack units, middlegame only (see DANGER_*). */
    W_KING_DANGER = W_ELE_MISSING + 4,
    W_PAWN_LINKED = W_KING_DANGER + 25,
    W_HORSE_MOB,                 /* nine: by reachable squares 0..8 */
    W_ROOK_MOB_PER_SQ = W_HORSE_MOB + 9,
    W_CANNON_MOB_PER_SQ,
    W_ROOK_OPEN_FILE,
    W_ROOK_SEMI_OPEN_FILE,
    W_CANNON_THREAT,
    W_CANNON_NO_SCREEN,
    W_HOLLOW_CANNON_CENTER,
    W_HOLLOW_CANNON_SIDE,
    W_CANNON_KING_RANK_OPEN,
    W_CANNON_KING_LINE_2,
    W_CANNON_KING_FILE_FAR,
    W_ROOK_KING_PIN,
    W_KING_OPEN_FILE_VS_ROOK,
    W_KING_SCREEN_FILE_VS_CANNON,
    /* Threats (level 2): per attacker type (rook, horse, cannon, pawn) and
     * per victim type (advisor .. pawn), six each. */
    W_THREAT,
    /* Material imbalance (level 1): per own type and enemy type (advisor ..
     * pawn), six by six, times both counts. */
    W_IMBALANCE = W_THREAT + THREAT_ATTACKERS * THREAT_VICTIMS,
    /* Flank massing (level 1): by the most crossed rooks, horses and cannons
     * on one flank, 0..6. */
    W_FLANK_MASS = W_IMBALANCE + IMB_TYPES * IMB_TYPES,
    W_FULL_DEFENCE = W_FLANK_MASS + FLANK_MASS_MAX + 1,
    W_TEMPO,                     /* middlegame value only: not tapered */
    W_COUNT
};

/* Bonus for the side to move (centipawns, after the taper). */
#define TEMPO_BONUS (EVAL_WEIGHTS[W_TEMPO][0])

/* ------------------------------------------------------ defenders (level 1) */

/* Per missing advisor, per enemy attacker: missing advisors open the palace
 * to rooks and horses. Per missing elephant: the centre and the river line
 * open to cannons. */
#define ADV_MISSING_VS_ROOK    WS(W_ADV_MISSING + 0)
#define ADV_MISSING_VS_HORSE   WS(W_ADV_MISSING + 1)
#define ADV_MISSING_VS_CANNON  WS(W_ADV_MISSING + 2)
#define ADV_MISSING_VS_PAWN    WS(W_ADV_MISSING + 3)
#define ELE_MISSING_VS_ROOK    WS(W_ELE_MISSING + 0)
#define ELE_MISSING_VS_HORSE   WS(W_ELE_MISSING + 1)
#define ELE_MISSING_VS_CANNON  WS(W_ELE_MISSING + 2)
#define ELE_MISSING_VS_PAWN    WS(W_ELE_MISSING + 3)

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
#define KING_DANGER_MG(units) (EVAL_WEIGHTS[W_KING_DANGER + (units)][0])
/* The penalty is multiplied by (DANGER_DEF_BASE + missing advisors * 2 +
 * missing elephants) / DANGER_DEF_BASE, and the endgame share is
 * DANGER_EG_NUM / DANGER_EG_DEN of it. */
enum { DANGER_DEF_BASE = 4, DANGER_EG_NUM = 1, DANGER_EG_DEN = 2 };

/* ----------------------------------------------------------- pawns (level 1) */

/* Two crossed pawns side by side protect each other and build a wall. */
#define PAWN_LINKED WS(W_PAWN_LINKED)

/* --------------------------------------------------- drawish endings (level 1) */

/* The score of the leading side is multiplied by a scale factor out of
 * SCALE_ONE from the endgame table (eval/endgame.c) when its material
 * rarely or never wins. */
enum { SCALE_ONE = 16 };

/* --------------------------------------------------------- mobility (level 2) */

/* Horse by number of reachable squares (legs free, not onto an own piece).
 * A horse with its legs blocked ("hobbled") is nearly useless. */
#define HORSE_MOB(n) WS(W_HORSE_MOB + (n))

/* Rook and cannon: per empty square reachable along rank and file. */
#define ROOK_MOB_PER_SQ    WS(W_ROOK_MOB_PER_SQ)
#define CANNON_MOB_PER_SQ  WS(W_CANNON_MOB_PER_SQ)
/* Rook seeing all the way to the enemy back rank along its file, or whose
 * first piece ahead is an enemy piece. */
#define ROOK_OPEN_FILE      WS(W_ROOK_OPEN_FILE)
#define ROOK_SEMI_OPEN_FILE WS(W_ROOK_SEMI_OPEN_FILE)
/* Cannon with a screen and an enemy piece behind it, per direction. */
#define CANNON_THREAT       WS(W_CANNON_THREAT)
/* Cannon with no screen in any direction: it can capture nothing. */
#define CANNON_NO_SCREEN    WS(W_CANNON_NO_SCREEN)

/* ---------------------------------------------- lines to the general (level 3) */

/* Cannon on the enemy general's file with nothing between ("hollow cannon"):
 * the defender cannot place a piece on that file, the palace centre is dead. */
#define HOLLOW_CANNON_CENTER WS(W_HOLLOW_CANNON_CENTER)   /* general on its central file */
#define HOLLOW_CANNON_SIDE   WS(W_HOLLOW_CANNON_SIDE)   /* general moved to a side file */
/* Cannon on the general's back rank with nothing between ("bottom cannon"). */
#define CANNON_KING_RANK_OPEN WS(W_CANNON_KING_RANK_OPEN)
/* Cannon with two pieces between it and the general (screen plus a pinned
 * piece): one piece moving away gives check. Central cannon further away. */
#define CANNON_KING_LINE_2  WS(W_CANNON_KING_LINE_2)
#define CANNON_KING_FILE_FAR WS(W_CANNON_KING_FILE_FAR)
/* Rook on the general's file or rank with exactly one piece between: pins it. */
#define ROOK_KING_PIN       WS(W_ROOK_KING_PIN)
/* Own general whose file ahead of it is empty, per enemy rook; with one piece
 * ahead, per enemy cannon (a ready screen). */
#define KING_OPEN_FILE_VS_ROOK     WS(W_KING_OPEN_FILE_VS_ROOK)
#define KING_SCREEN_FILE_VS_CANNON WS(W_KING_SCREEN_FILE_VS_CANNON)

/* ------------------------------------------------------ threats (level 2) */

/* One of our pieces that can capture an enemy piece now: a free tempo's
 * worth of pressure, worth most when the victim is dearer than the attacker
 * or undefended, which the table learns per pair. The general is no victim
 * (that is check) and no attacker (it rarely captures profitably). */
enum { THREAT_BY_ROOK = 0, THREAT_BY_HORSE = 1, THREAT_BY_CANNON = 2, THREAT_BY_PAWN = 3 };
#define THREAT_WEIGHT(attacker, victim_type) (W_THREAT + (attacker) * THREAT_VICTIMS + (victim_type) - ADVISOR)

/* ---------------------------------------------- material balance (level 1) */

/* The worth of a piece depends on what the enemy keeps: horses gain against
 * a bare palace, cannons lose once the screens are gone, rooks weigh more
 * against missing advisors. The evaluation adds, for each side, own count
 * times enemy count times the pair's weight. Only the antisymmetric part
 * of the table can matter (a pair counted for both sides cancels), so a
 * tuned table has W[a][b] = -W[b][a]. */
#define IMB_WEIGHT(own_type, enemy_type) (W_IMBALANCE + ((own_type) - ADVISOR) * IMB_TYPES + (enemy_type) - ADVISOR)

/* W_FLANK_MASS: rooks, horses and cannons across the river massed on one
 * flank (多子归边), the classic mating build-up. Flanks are files a..e and
 * e..i (the centre file counts for both).
 * W_FULL_DEFENCE: both advisors and both elephants (士象全): the palace holds
 * against far more than each defender's separate worth suggests. */

_Static_assert(sizeof EVAL_WEIGHTS / sizeof EVAL_WEIGHTS[0] == W_COUNT, "weights.h does not match the W_* indices");

#endif
