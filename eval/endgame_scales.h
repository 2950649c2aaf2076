/* endgame_scales.h — the scale factor, out of SCALE_ONE, of each entry of
 * ENDGAME_TABLE (eval/endgame.c), in table order. Written by `chariot tune
 * --endgame-scales` (docs/TUNING.md); the next fit rewrites this file. */
#ifndef CHARIOT_EVAL_ENDGAME_SCALES_H
#define CHARIOT_EVAL_ENDGAME_SCALES_H

/* clang-format off */
#define ENDGAME_SCALES { \
    1, /* no rook, horse, cannon or pawn */ \
    5, /* R vs full defence */ \
    6, /* R vs H + 2E */ \
    4, /* R vs C + 2A */ \
    4, /* R vs C + 2E */ \
    3, /* R + C vs R with full defence */ \
    1, /* R + high P vs R + 2A */ \
    1, /* H vs 2A */ \
    1, /* H vs 2E */ \
    1, /* H vs A + E */ \
    1, /* H vs bottom P */ \
    2, /* H + P vs full defence */ \
    1, /* lone C vs bare general or one advisor */ \
    1, /* C without an advisor */ \
    2, /* C vs 2E */ \
    10, /* C vs 2A */ \
    2, /* C vs A + E */ \
    1, /* C vs C */ \
    7, /* 2C vs 2E */ \
    1, /* bottom P vs bare general */ \
    1, /* P vs 2E */ \
    1, /* high P vs E */ \
    1, /* 2 high P vs A + E */ \
}
/* clang-format on */

#endif
