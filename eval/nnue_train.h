/* nnue_train.h — the network of nnue.h in floating point, for `chariot
 * train`: its forward and backward pass over a batch of positions on several
 * threads, AdamW, the loss, checkpoints and quantisation.
 *
 * Loss per position: (sigmoid(k * eval) - target)^2 with eval the network's
 * output in centipawns (side to move's view) and
 *     target = lambda * result + (1 - lambda) * sigmoid(k * score),
 * result and score the game result (1, 0.5, 0) and the search score from
 * the side to move's view. Results are deterministic for a given seed and
 * thread count: each thread sums a fixed slice of the batch and the slices
 * are added in order. */
#ifndef CHARIOT_NNUE_TRAIN_H
#define CHARIOT_NNUE_TRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nnue.h"

/* One position as the network sees it: the active inputs of both views. */
typedef struct NnueSample {
    uint16_t feat[2][NNUE_MAX_ACTIVE]; /* [0]: the side to move's view, [1]: the other's */
    uint8_t count;
    float score;  /* centipawns, side to move's view */
    float result; /* 1, 0.5 or 0 for the side to move */
} NnueSample;

/* Fills s from pieces piece[i] on sq[i] (count <= NNUE_MAX_ACTIVE), the
 * side to move, and the labels from Red's view (result 0, 0.5 or 1). */
void nnue_sample_make(NnueSample *s, int count, const uint8_t *sq, const uint8_t *piece, int side, int score_red,
                      double result_red);

typedef struct NnueTrainOptions {
    double lr;           /* AdamW step size */
    double weight_decay; /* decoupled, per step, times lr */
    double k;            /* sigmoid scale, 1 / centipawns */
    double lambda;       /* weight of the result in the target */
    int threads;
} NnueTrainOptions;

void nnue_train_options_init(NnueTrainOptions *o);

typedef struct NnueTrainer NnueTrainer;

/* A network with weights drawn from seed. NULL when out of memory. */
NnueTrainer *nnue_trainer_new(uint64_t seed, int threads);
void nnue_trainer_free(NnueTrainer *t);

/* One AdamW step on the batch; returns the batch's mean loss. */
double nnue_train_batch(NnueTrainer *t, const NnueSample *batch, int n, const NnueTrainOptions *o);
/* The mean loss over the positions, without training. */
double nnue_loss(NnueTrainer *t, const NnueSample *s, size_t n, const NnueTrainOptions *o);
/* The float network's evaluation, centipawns, side to move's view. */
double nnue_float_eval(const NnueTrainer *t, const NnueSample *s);

/* Rounds the float weights into the integer network. */
void nnue_quantise(const NnueTrainer *t, NnueNet *net);

/* Checkpoint: the weights, AdamW's moments and step count, and `extra`
 * bytes of the caller's own state (the epoch, the options' fingerprint). */
bool nnue_checkpoint_write(FILE *f, const NnueTrainer *t, const void *extra, size_t extra_size);
/* False with a reason when the file is not a checkpoint of this shape. */
bool nnue_checkpoint_read(FILE *f, NnueTrainer *t, void *extra, size_t extra_size, char *err, size_t errlen);

#endif
