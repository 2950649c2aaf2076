/* tune.c — the linear model of the evaluation and its fit (tune.h): features
 * from traces, the data set, the sigmoid error, the fit of k, Adam, and the
 * writer of eval/weights.h. */
#include "tune.h"

#include "endgame.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Adam's constants (the usual ones) and the range of a written weight: both
 * halves of a packed score must stay within 16 bits with room for sums. */
#define ADAM_BETA1 0.9
#define ADAM_BETA2 0.999
#define ADAM_EPSILON 1e-8
enum { TUNE_WEIGHT_LIMIT = 20000, TUNE_MAX_THREADS = 256 };
/* The search interval of k (per centipawn) and its golden-section steps. */
#define TUNE_K_MIN 0.0005
#define TUNE_K_MAX 0.02
enum { TUNE_K_STEPS = 60 };

/* -------------------------------------------------------------- features */

int tune_features(const EvalTrace *tr, TuneFeature *out)
{
    int n = 0;
    const double mg_share = tr->phase / (double)PHASE_MAX, eg_share = 1.0 - mg_share;
    for (int i = 0; i < W_COUNT; i++) {
        if (i == W_TEMPO)
            continue;
        double vm = tr->scale * (tr->mg[i] * mg_share + tr->eg_from_mg[i] * eg_share);
        double ve = tr->scale * tr->eg[i] * eg_share;
        if (vm != 0)
            out[n++] = (TuneFeature){(uint16_t)(2 * i), (float)vm};
        if (ve != 0)
            out[n++] = (TuneFeature){(uint16_t)(2 * i + 1), (float)ve};
    }
    /* The tempo bonus goes to the side to move, after the scale. */
    out[n++] = (TuneFeature){(uint16_t)(2 * W_TEMPO), tr->red_to_move ? 1.0f : -1.0f};
    return n;
}

/* -------------------------------------------------------------- data set */

/* p grown to n elements of `size` bytes; p itself (and *ok cleared) when
 * memory runs out, so the caller keeps what it had. */
static void *grow_array(void *p, size_t n, size_t size, bool *ok)
{
    void *q = realloc(p, n * size);
    if (!q) {
        *ok = false;
        return p;
    }
    return q;
}

bool tune_set_add(TuneSet *set, const TuneFeature *f, int n, double result, double score, int endgame_entry,
                  double scale)
{
    if (set->count + 1 >= set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 1024;
        bool ok = true;
        set->start = grow_array(set->start, cap + 1, sizeof *set->start, &ok);
        set->result = grow_array(set->result, cap, sizeof *set->result, &ok);
        set->score = grow_array(set->score, cap, sizeof *set->score, &ok);
        set->endgame_entry = grow_array(set->endgame_entry, cap, sizeof *set->endgame_entry, &ok);
        set->scale = grow_array(set->scale, cap, sizeof *set->scale, &ok);
        if (!ok)
            return false;
        if (set->cap == 0)
            set->start[0] = 0;
        set->cap = cap;
    }
    if (set->nfeat + (size_t)n > set->featcap) {
        size_t cap = set->featcap ? set->featcap * 2 : 65536;
        while (cap < set->nfeat + (size_t)n)
            cap *= 2;
        bool ok = true;
        set->feat = grow_array(set->feat, cap, sizeof *set->feat, &ok);
        if (!ok)
            return false;
        set->featcap = cap;
    }
    memcpy(set->feat + set->nfeat, f, (size_t)n * sizeof *f);
    set->nfeat += (size_t)n;
    set->result[set->count] = (float)result;
    set->score[set->count] = (float)score;
    set->endgame_entry[set->count] = (int16_t)endgame_entry;
    set->scale[set->count] = (float)scale;
    set->count++;
    set->start[set->count] = set->nfeat;
    return true;
}

void tune_set_free(TuneSet *set)
{
    free(set->start);
    free(set->feat);
    free(set->result);
    free(set->score);
    free(set->endgame_entry);
    free(set->scale);
    memset(set, 0, sizeof *set);
}

double tune_eval(const TuneSet *set, size_t k, const double *w)
{
    double v = 0;
    for (size_t j = set->start[k]; j < set->start[k + 1]; j++)
        v += set->feat[j].value * w[set->feat[j].param];
    return v;
}

void tune_weights_current(double *w)
{
    for (int i = 0; i < W_COUNT; i++) {
        w[2 * i] = EVAL_WEIGHTS[i][0];
        w[2 * i + 1] = EVAL_WEIGHTS[i][1];
    }
}

void tune_options_init(TuneOptions *o)
{
    o->k = 0;
    o->lambda = 0.5;
    o->epochs = 400;
    o->lr = 1.0;
    o->threads = 1;
}

/* ------------------------------------------------------- error, gradient */

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* One thread's share of an epoch: the error and, when grad is set, the
 * gradient over positions [from, to). */
typedef struct TuneJob {
    const TuneSet *set;
    const double *w;
    double k, lambda;
    size_t from, to;
    double error;
    double *grad; /* TUNE_PARAMS entries, or NULL */
} TuneJob;

static void *tune_job_run(void *arg)
{
    TuneJob *j = arg;
    const TuneSet *set = j->set;
    double err = 0;
    for (size_t p = j->from; p < j->to; p++) {
        double e = tune_eval(set, p, j->w);
        double s = sigmoid(j->k * e);
        double t = j->lambda * set->result[p] + (1 - j->lambda) * sigmoid(j->k * set->score[p]);
        double d = s - t;
        err += d * d;
        if (j->grad) {
            double g = 2 * d * s * (1 - s) * j->k;
            for (size_t f = set->start[p]; f < set->start[p + 1]; f++)
                j->grad[set->feat[f].param] += g * set->feat[f].value;
        }
    }
    j->error = err;
    return NULL;
}

/* Error (and gradient, summed into grad when not NULL) over the whole set,
 * split across threads. Returns the mean squared error. */
static double tune_pass(const TuneSet *set, const double *w, double k, double lambda, int threads, double *grad)
{
    if (set->count == 0)
        return 0;
    if (threads < 1)
        threads = 1;
    if (threads > TUNE_MAX_THREADS)
        threads = TUNE_MAX_THREADS;
    if ((size_t)threads > set->count)
        threads = (int)set->count;
    TuneJob jobs[TUNE_MAX_THREADS];
    pthread_t th[TUNE_MAX_THREADS];
    bool started[TUNE_MAX_THREADS];
    double *grads = grad ? calloc((size_t)threads * TUNE_PARAMS, sizeof *grads) : NULL;
    for (int i = 0; i < threads; i++) {
        jobs[i] = (TuneJob){set, w, k, lambda, set->count * (size_t)i / (size_t)threads,
                            set->count * (size_t)(i + 1) / (size_t)threads, 0,
                            grads ? grads + (size_t)i * TUNE_PARAMS : NULL};
        started[i] = i > 0 && pthread_create(&th[i], NULL, tune_job_run, &jobs[i]) == 0;
    }
    tune_job_run(&jobs[0]);
    double err = jobs[0].error;
    for (int i = 1; i < threads; i++) {
        if (started[i])
            pthread_join(th[i], NULL);
        else
            tune_job_run(&jobs[i]);
        err += jobs[i].error;
    }
    if (grad) {
        for (int p = 0; p < TUNE_PARAMS; p++)
            grad[p] = 0;
        if (grads)
            for (int i = 0; i < threads; i++)
                for (int p = 0; p < TUNE_PARAMS; p++)
                    grad[p] += grads[(size_t)i * TUNE_PARAMS + p] / (double)set->count;
        free(grads);
    }
    return err / (double)set->count;
}

double tune_error(const TuneSet *set, const double *w, double k, double lambda, int threads)
{
    return tune_pass(set, w, k, lambda, threads, NULL);
}

double tune_fit_k(const TuneSet *set, const double *w, int threads)
{
    /* Golden-section search: the error in k is unimodal in practice. */
    const double phi = (sqrt(5.0) - 1) / 2;
    double a = TUNE_K_MIN, b = TUNE_K_MAX;
    double c = b - phi * (b - a), d = a + phi * (b - a);
    double fc = tune_error(set, w, c, 1.0, threads), fd = tune_error(set, w, d, 1.0, threads);
    for (int i = 0; i < TUNE_K_STEPS; i++) {
        if (fc < fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = tune_error(set, w, c, 1.0, threads);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = tune_error(set, w, d, 1.0, threads);
        }
    }
    return (a + b) / 2;
}

void tune_adam(const TuneSet *set, double *w, const TuneOptions *o,
               void (*progress)(void *ctx, int epoch, double error), void *ctx)
{
    double *grad = calloc(TUNE_PARAMS, sizeof *grad);
    double *m = calloc(TUNE_PARAMS, sizeof *m);
    double *v = calloc(TUNE_PARAMS, sizeof *v);
    if (!grad || !m || !v) {
        free(grad);
        free(m);
        free(v);
        return;
    }
    double b1t = 1, b2t = 1;
    for (int epoch = 1; epoch <= o->epochs; epoch++) {
        double err = tune_pass(set, w, o->k, o->lambda, o->threads, grad);
        b1t *= ADAM_BETA1;
        b2t *= ADAM_BETA2;
        for (int p = 0; p < TUNE_PARAMS; p++) {
            if (grad[p] == 0 && m[p] == 0)
                continue; /* a parameter no position uses stays as it is */
            m[p] = ADAM_BETA1 * m[p] + (1 - ADAM_BETA1) * grad[p];
            v[p] = ADAM_BETA2 * v[p] + (1 - ADAM_BETA2) * grad[p] * grad[p];
            double mh = m[p] / (1 - b1t), vh = v[p] / (1 - b2t);
            w[p] -= o->lr * mh / (sqrt(vh) + ADAM_EPSILON);
        }
        if (progress)
            progress(ctx, epoch, err);
    }
    free(grad);
    free(m);
    free(v);
}

/* ---------------------------------------------------------------- writer */

/* The groups of weights.h, in W_* order, as the file shows them. */
typedef struct TuneGroup {
    const char *name;
    const char *what; /* NULL: the name says it */
    int first, count, per_row;
} TuneGroup;

static const TuneGroup TUNE_GROUPS[] = {
    {"MAT", "material: advisor, elephant, horse, rook, cannon, pawn", W_MAT, 6, 6},
    {"PSQ_KING", "piece-square table, king (rows: rank 9 .. rank 0, files a..e)", W_PSQ + 0 * PSQ_HALF_SQUARES,
     PSQ_HALF_SQUARES, PSQ_HALF_FILES},
    {"PSQ_ADVISOR", "piece-square table, advisor (rows: rank 9 .. rank 0, files a..e)",
     W_PSQ + 1 * PSQ_HALF_SQUARES, PSQ_HALF_SQUARES, PSQ_HALF_FILES},
    {"PSQ_ELEPHANT", "piece-square table, elephant (rows: rank 9 .. rank 0, files a..e)",
     W_PSQ + 2 * PSQ_HALF_SQUARES, PSQ_HALF_SQUARES, PSQ_HALF_FILES},
    {"PSQ_HORSE", "piece-square table, horse (rows: rank 9 .. rank 0, files a..e)", W_PSQ + 3 * PSQ_HALF_SQUARES,
     PSQ_HALF_SQUARES, PSQ_HALF_FILES},
    {"PSQ_ROOK", "piece-square table, rook (rows: rank 9 .. rank 0, files a..e)", W_PSQ + 4 * PSQ_HALF_SQUARES,
     PSQ_HALF_SQUARES, PSQ_HALF_FILES},
    {"PSQ_CANNON", "piece-square table, cannon (rows: rank 9 .. rank 0, files a..e)", W_PSQ + 5 * PSQ_HALF_SQUARES,
     PSQ_HALF_SQUARES, PSQ_HALF_FILES},
    {"PSQ_PAWN", "piece-square table, pawn (rows: rank 9 .. rank 0, files a..e)", W_PSQ + 6 * PSQ_HALF_SQUARES,
     PSQ_HALF_SQUARES, PSQ_HALF_FILES},
    {"ADV_MISSING", "per missing advisor, per enemy rook, horse, cannon, crossed pawn", W_ADV_MISSING, 4, 4},
    {"ELE_MISSING", "per missing elephant, per enemy rook, horse, cannon, crossed pawn", W_ELE_MISSING, 4, 4},
    {"KING_DANGER", "king danger by attack units 0..24 (middlegame; the endgame half is derived)", W_KING_DANGER,
     25, 5},
    {"PAWN_LINKED", "side-by-side crossed pawns", W_PAWN_LINKED, 1, 1},
    {"HORSE_MOB", "horse mobility by reachable squares 0..8", W_HORSE_MOB, 9, 9},
    {"ROOK_MOB_PER_SQ", NULL, W_ROOK_MOB_PER_SQ, 1, 1},
    {"CANNON_MOB_PER_SQ", NULL, W_CANNON_MOB_PER_SQ, 1, 1},
    {"ROOK_OPEN_FILE", NULL, W_ROOK_OPEN_FILE, 1, 1},
    {"ROOK_SEMI_OPEN_FILE", NULL, W_ROOK_SEMI_OPEN_FILE, 1, 1},
    {"CANNON_THREAT", NULL, W_CANNON_THREAT, 1, 1},
    {"CANNON_NO_SCREEN", NULL, W_CANNON_NO_SCREEN, 1, 1},
    {"HOLLOW_CANNON_CENTER", NULL, W_HOLLOW_CANNON_CENTER, 1, 1},
    {"HOLLOW_CANNON_SIDE", NULL, W_HOLLOW_CANNON_SIDE, 1, 1},
    {"CANNON_KING_RANK_OPEN", NULL, W_CANNON_KING_RANK_OPEN, 1, 1},
    {"CANNON_KING_LINE_2", NULL, W_CANNON_KING_LINE_2, 1, 1},
    {"CANNON_KING_FILE_FAR", NULL, W_CANNON_KING_FILE_FAR, 1, 1},
    {"ROOK_KING_PIN", NULL, W_ROOK_KING_PIN, 1, 1},
    {"KING_OPEN_FILE_VS_ROOK", NULL, W_KING_OPEN_FILE_VS_ROOK, 1, 1},
    {"KING_SCREEN_FILE_VS_CANNON", NULL, W_KING_SCREEN_FILE_VS_CANNON, 1, 1},
    {"THREAT", "per attacker (rows: rook, horse, cannon, pawn), per victim advisor .. pawn", W_THREAT,
     THREAT_ATTACKERS * THREAT_VICTIMS, THREAT_VICTIMS},
    {"IMBALANCE", "own type (rows: advisor .. pawn) times enemy type (advisor .. pawn)", W_IMBALANCE,
     IMB_TYPES * IMB_TYPES, IMB_TYPES},
    {"FLANK_MASS", "by the most crossed rooks, horses and cannons on one flank, 0..6", W_FLANK_MASS,
     FLANK_MASS_MAX + 1, FLANK_MASS_MAX + 1},
    {"FULL_DEFENCE", "both advisors and both elephants", W_FULL_DEFENCE, 1, 1},
    {"TEMPO", "bonus for the side to move (not tapered: the middlegame value counts)", W_TEMPO, 1, 1},
};

static int tune_round(double x)
{
    if (x > TUNE_WEIGHT_LIMIT)
        return TUNE_WEIGHT_LIMIT;
    if (x < -TUNE_WEIGHT_LIMIT)
        return -TUNE_WEIGHT_LIMIT;
    return (int)lround(x);
}

bool tune_write_weights(FILE *f, const double *w)
{
    fputs("/* weights.h — the evaluation's weights, written by `chariot tune` in the\n"
          " * order of the W_* indices of eval/params.h, where each one is explained.\n"
          " * Each entry is {middlegame, endgame} in centipawns. The next tuning run\n"
          " * rewrites this file; edit it by hand only on purpose. */\n"
          "#ifndef CHARIOT_EVAL_WEIGHTS_H\n#define CHARIOT_EVAL_WEIGHTS_H\n\n#include <stdint.h>\n\n"
          "static const int16_t EVAL_WEIGHTS[][2] = {\n",
          f);
    for (size_t g = 0; g < sizeof TUNE_GROUPS / sizeof TUNE_GROUPS[0]; g++) {
        const TuneGroup *tg = &TUNE_GROUPS[g];
        fprintf(f, "    /* %s%s%s */\n", tg->name, tg->what ? ": " : "", tg->what ? tg->what : "");
        for (int i = 0; i < tg->count; i++) {
            int idx = tg->first + i;
            fprintf(f, "%s{%d, %d},%s", i % tg->per_row == 0 ? "    " : " ", tune_round(w[2 * idx]),
                    tune_round(w[2 * idx + 1]), (i + 1) % tg->per_row == 0 || i + 1 == tg->count ? "\n" : "");
        }
    }
    fputs("};\n\n#endif\n", f);
    return !ferror(f);
}

/* ------------------------------------------------------ endgame scales */

void tune_fit_endgame_scales(const TuneSet *set, const double *w, double k, double lambda, long min_positions,
                             int *scales, long *counts, double *err_before, double *err_after)
{
    const int n = ENDGAME_TABLE_SIZE;
    /* err[e][s - 1]: the summed error of entry e's positions with factor s. */
    double (*err)[SCALE_ONE] = calloc((size_t)n, sizeof *err);
    long *cnt = calloc((size_t)n, sizeof *cnt);
    for (int e = 0; e < n; e++)
        scales[e] = ENDGAME_SCALE[e];
    if (!err || !cnt) {
        free(err);
        free(cnt);
        return;
    }
    for (size_t p = 0; p < set->count; p++) {
        int e = set->endgame_entry[p];
        if (e < 0 || e >= n || set->scale[p] <= 0)
            continue;
        /* The tempo bonus is added after the factor: take it out first
         * (tune_features puts it last). */
        const size_t last = set->start[p + 1] - 1;
        const double tempo = set->start[p + 1] > set->start[p] && set->feat[last].param == 2 * W_TEMPO
                                 ? set->feat[last].value * w[2 * W_TEMPO]
                                 : 0;
        const double unscaled = (tune_eval(set, p, w) - tempo) / set->scale[p];
        const double target = lambda * set->result[p] + (1 - lambda) * sigmoid(k * set->score[p]);
        for (int sc = 1; sc <= SCALE_ONE; sc++) {
            double d = sigmoid(k * (unscaled * sc / SCALE_ONE + tempo)) - target;
            err[e][sc - 1] += d * d;
        }
        cnt[e]++;
    }
    for (int e = 0; e < n; e++) {
        int best = scales[e];
        if (cnt[e] >= min_positions)
            for (int sc = 1; sc <= SCALE_ONE; sc++)
                if (err[e][sc - 1] < err[e][best - 1])
                    best = sc;
        if (counts)
            counts[e] = cnt[e];
        if (err_before)
            err_before[e] = cnt[e] ? err[e][scales[e] - 1] / (double)cnt[e] : 0;
        if (err_after)
            err_after[e] = cnt[e] ? err[e][best - 1] / (double)cnt[e] : 0;
        scales[e] = best;
    }
    free(err);
    free(cnt);
}

bool tune_write_endgame_scales(FILE *f, const int *scales)
{
    fputs("/* endgame_scales.h — the scale factor, out of SCALE_ONE, of each entry of\n"
          " * ENDGAME_TABLE (eval/endgame.c), in table order. Written by `chariot tune\n"
          " * --endgame-scales` (docs/TUNING.md); the next fit rewrites this file. */\n"
          "#ifndef CHARIOT_EVAL_ENDGAME_SCALES_H\n#define CHARIOT_EVAL_ENDGAME_SCALES_H\n\n"
          "/* clang-format off */\n#define ENDGAME_SCALES { \\\n",
          f);
    for (int e = 0; e < ENDGAME_TABLE_SIZE; e++)
        fprintf(f, "    %d, /* %s */ \\\n", scales[e], ENDGAME_TABLE[e].name);
    fputs("}\n/* clang-format on */\n\n#endif\n", f);
    return !ferror(f);
}
