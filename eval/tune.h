/* tune.h — the evaluation as a linear model of its weights, for `chariot
 * tune` (Texel-style tuning): the trace of one evaluation, the features a
 * position contributes, a data set of positions, and the fit.
 *
 * The model: with w the weights of eval/weights.h (two parameters per
 * weight, its middlegame and its endgame value), the evaluation from Red's
 * point of view is
 *     scale * (sum(mg coefficients * w) * phase + sum(eg coefficients * w) * (32 - phase)) / 32 + tempo
 * which eval_evaluate computes with integers; the two agree up to the
 * rounding of its integer divisions (the taper, the king-danger factor and
 * the drawish scale: a few centipawns at most). The scale factor and the
 * king-danger multipliers are not linear and are taken as constants of the
 * position; phase weights and attack units are not tuned, and the endgame
 * table's scale factors have a fit of their own (tune_fit_endgame_scales). */
#ifndef CHARIOT_EVAL_TUNE_H
#define CHARIOT_EVAL_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "board.h"
#include "params.h"

typedef struct EvalTrace {
    double mg[W_COUNT];          /* times each weight's middlegame value enters the middlegame sum (Red - Black) */
    double eg[W_COUNT];          /* times its endgame value enters the endgame sum */
    double eg_from_mg[W_COUNT];  /* times its middlegame value enters the endgame sum (king danger) */
    int phase;                   /* 0 .. PHASE_MAX */
    double scale;                /* drawish-ending factor, 1 when none */
    int endgame_entry;           /* the endgame table's entry that gave it, -1 when none */
    bool red_to_move;
} EvalTrace;

/* The traced build of eval.c (eval_trace.c): call eval_trace_init before use. */
void eval_trace_init(void);
const BoardPsqTable *eval_trace_psq_table(void);
int eval_trace_evaluate_level(const Board *b, int knowledge, EvalTrace *tr);
/* eval_evaluate(b, KNOW_FULL), filling *tr (cleared first). */
int eval_trace_evaluate(const Board *b, EvalTrace *tr);

/* Parameter 2i is weight i's middlegame value, 2i + 1 its endgame value. */
enum { TUNE_PARAMS = 2 * W_COUNT };

typedef struct TuneFeature {
    uint16_t param;
    float value;
} TuneFeature;

/* The nonzero features of a trace (at most TUNE_PARAMS): the model's
 * Red-view evaluation is the sum of value * w[param]. Returns their count. */
int tune_features(const EvalTrace *tr, TuneFeature *out);

/* Positions as features, with the game result and the search score (both
 * from Red's point of view: result 0..1, score in centipawns). */
typedef struct TuneSet {
    size_t count, cap;
    size_t *start;           /* position k's features: feat[start[k] .. start[k + 1]) */
    TuneFeature *feat;
    size_t nfeat, featcap;
    float *result;
    float *score;
    int16_t *endgame_entry;  /* the trace's endgame_entry (-1: none) */
    float *scale;            /* the trace's scale */
} TuneSet;

/* Adds a position: its features, result, score, and the endgame entry and
 * scale of its trace (-1 and 1 when none). */
bool tune_set_add(TuneSet *set, const TuneFeature *f, int n, double result, double score, int endgame_entry,
                  double scale);
void tune_set_free(TuneSet *set);
/* The model's evaluation of position k (Red's view, centipawns). */
double tune_eval(const TuneSet *set, size_t k, const double *w);

/* The weights of eval/weights.h as parameters. */
void tune_weights_current(double *w);

typedef struct TuneOptions {
    double k;        /* sigmoid scale; 0: fitted to the results first */
    double lambda;   /* target = lambda * result + (1 - lambda) * sigmoid(k * score) */
    int epochs;
    double lr;       /* Adam step size, centipawns */
    int threads;
} TuneOptions;

void tune_options_init(TuneOptions *o);
/* Mean squared error of sigmoid(k * eval) against the target. */
double tune_error(const TuneSet *set, const double *w, double k, double lambda, int threads);
/* The k that minimises the error against the game results alone. */
double tune_fit_k(const TuneSet *set, const double *w, int threads);
/* Adam over every parameter; progress (may be NULL) after each epoch. */
void tune_adam(const TuneSet *set, double *w, const TuneOptions *o,
               void (*progress)(void *ctx, int epoch, double error), void *ctx);
/* Writes w, rounded, as eval/weights.h. False on a write error. */
bool tune_write_weights(FILE *f, const double *w);

/* The endgame table's scale factors (eval/endgame.c), fitted one entry at a
 * time: the factor s in 1..SCALE_ONE minimising the error over the
 * positions of that entry, whose unscaled evaluation is the model's (w)
 * with their own factor taken out. An entry with fewer than min_positions
 * positions keeps its factor. Per entry: the factor (scales), its
 * positions (counts) and the error before and after (may be NULL). */
void tune_fit_endgame_scales(const TuneSet *set, const double *w, double k, double lambda, long min_positions,
                             int *scales, long *counts, double *err_before, double *err_after);
/* Writes scales as eval/endgame_scales.h. False on a write error. */
bool tune_write_endgame_scales(FILE *f, const int *scales);

#endif
