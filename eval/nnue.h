/* nnue.h — the evaluation network's definition, shared by the trainer
 * (`chariot train`, eval/nnue_train.c) and the inference: its inputs, its
 * size, its quantisation and its file format (docs/NNUE.md, "Architecture").
 *
 * The network: for each side a 1260-input piece-square view (7 types x own
 * or enemy x 90 squares, Black's view mirrored top to bottom so that each
 * side sees itself at the bottom), one shared input layer of NNUE_HIDDEN
 * neurons per view (the accumulator), the squared clipped ReLU
 * clamp(x, 0, 1)^2, the two views concatenated side to move first, and one
 * output: the evaluation from the side to move's view, NNUE_SCALE
 * centipawns per unit of output. */
#ifndef CHARIOT_NNUE_H
#define CHARIOT_NNUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "board.h"

enum {
    NNUE_PIECE_TYPES = 7,
    NNUE_INPUTS = 2 * NNUE_PIECE_TYPES * SQ_NB, /* 1260 per view */
    NNUE_HIDDEN = 256,
    NNUE_MAX_ACTIVE = 32,                        /* pieces on the board at most */
    /* Quantisation: input weights and biases x NNUE_QA in int16, output
     * weights x NNUE_QB in int16, output bias x NNUE_QA x NNUE_QB in int32. */
    NNUE_QA = 255,
    NNUE_QB = 256,
    NNUE_SCALE = 400,
    NNUE_FILE_VERSION = 1
};

/* Bounds the trainer keeps the float weights in, so that the integers fit:
 * an accumulator (the bias plus at most 32 input weights, x NNUE_QA) stays
 * inside int16, and an activation (at most NNUE_QA) times an output weight
 * (x NNUE_QB) stays inside int16 for the SIMD inference. */
#define NNUE_INPUT_CLIP (32767.0 / NNUE_QA / (NNUE_MAX_ACTIVE + 1))
#define NNUE_OUTPUT_CLIP (127.0 / NNUE_QB)

/* The input of `piece` on `sq` in the view of side `view`. */
static inline int nnue_feature(int view, Piece piece, int sq)
{
    const int own = piece_color(piece) == view ? 0 : 1;
    const int vsq = view == RED ? sq : sq_make(sq_file(sq), RANK_NB - 1 - sq_rank(sq));
    return ((own * NNUE_PIECE_TYPES) + piece_type(piece) - 1) * SQ_NB + vsq;
}

/* The quantised network: input weights by input row, then by neuron. */
typedef struct NnueNet {
    int16_t w1[NNUE_INPUTS * NNUE_HIDDEN];
    int16_t b1[NNUE_HIDDEN];
    int16_t w2[2 * NNUE_HIDDEN]; /* the side to move's half, then the other's */
    int32_t b2;
} NnueNet;

/* The file: a 16-byte header (magic "CXNN", version, inputs, hidden, QA,
 * QB, scale: uint16 each after the magic), w1, b1, w2 as int16 and b2 as
 * int32, little-endian, then the FNV-1a 32 checksum of everything before. */
bool nnue_write(FILE *f, const NnueNet *net);
/* Reads a network from memory; false with a reason when the bytes are not
 * a network of this build's shape or fail the checksum. */
bool nnue_read(const uint8_t *data, size_t size, NnueNet *net, char *err, size_t errlen);
/* The file's size for this build's shape. */
size_t nnue_file_size(void);

/* Integer evaluation from scratch, in centipawns from the side to move's
 * view, of the pieces piece[i] on sq[i]: the reference the incremental
 * inference must equal. */
int nnue_evaluate_pieces(const NnueNet *net, int count, const uint8_t *sq, const uint8_t *piece, int side);

#endif
