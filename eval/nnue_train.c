/* nnue_train.c — float training of the network of nnue.h (nnue_train.h). */
#include "nnue_train.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The parameters as one array: input weights (by input row), input biases,
 * output weights (side to move's half first), output bias. */
enum {
    OFF_W1 = 0,
    OFF_B1 = NNUE_INPUTS * NNUE_HIDDEN,
    OFF_W2 = OFF_B1 + NNUE_HIDDEN,
    OFF_B2 = OFF_W2 + 2 * NNUE_HIDDEN,
    NPARAMS = OFF_B2 + 1
};

enum { NNUE_MAX_THREADS = 64 };

/* AdamW's moment decays and its guard against division by zero. */
#define ADAM_BETA1 0.9
#define ADAM_BETA2 0.999
#define ADAM_EPS 1e-8

/* Defaults: the sigmoid scale is the one `chariot tune` fits to Chariot's
 * own game results, so that the network's centipawns match the search's. */
#define NNUE_DEFAULT_LR 0.001
#define NNUE_DEFAULT_WD 0.01
#define NNUE_DEFAULT_K 0.0019
#define NNUE_DEFAULT_LAMBDA 0.5

struct NnueTrainer {
    float *w;          /* NPARAMS */
    float *m, *v;      /* AdamW moments */
    float *grad[NNUE_MAX_THREADS];
    int threads;
    uint64_t step;
};

void nnue_train_options_init(NnueTrainOptions *o)
{
    o->lr = NNUE_DEFAULT_LR;
    o->weight_decay = NNUE_DEFAULT_WD;
    o->k = NNUE_DEFAULT_K;
    o->lambda = NNUE_DEFAULT_LAMBDA;
    o->threads = 1;
}

void nnue_sample_make(NnueSample *s, int count, const uint8_t *sq, const uint8_t *piece, int side, int score_red,
                      double result_red)
{
    s->count = (uint8_t)count;
    for (int i = 0; i < count; i++) {
        s->feat[0][i] = (uint16_t)nnue_feature(side, piece[i], sq[i]);
        s->feat[1][i] = (uint16_t)nnue_feature(side ^ 1, piece[i], sq[i]);
    }
    s->score = (float)(side == RED ? score_red : -score_red);
    s->result = (float)(side == RED ? result_red : 1.0 - result_red);
}

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in [-a, a]. */
static float uniform(uint64_t *state, double a) { return (float)(a * (2.0 * (splitmix(state) >> 11) / 9007199254740992.0 - 1.0)); }

NnueTrainer *nnue_trainer_new(uint64_t seed, int threads)
{
    if (threads < 1)
        threads = 1;
    if (threads > NNUE_MAX_THREADS)
        threads = NNUE_MAX_THREADS;
    NnueTrainer *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->threads = threads;
    t->w = calloc(NPARAMS, sizeof *t->w);
    t->m = calloc(NPARAMS, sizeof *t->m);
    t->v = calloc(NPARAMS, sizeof *t->v);
    bool ok = t->w && t->m && t->v;
    for (int i = 0; ok && i < threads; i++)
        ok = (t->grad[i] = calloc(NPARAMS, sizeof(float))) != NULL;
    if (!ok) {
        nnue_trainer_free(t);
        return NULL;
    }
    /* About one active input in 40: scale the input weights to the active
     * count, so that accumulators start spread over the activation's range. */
    uint64_t rng = seed ^ 0x6A09E667F3BCC909ULL;
    for (int i = OFF_W1; i < OFF_B1; i++)
        t->w[i] = uniform(&rng, 1.0 / sqrt((double)NNUE_MAX_ACTIVE));
    for (int i = OFF_W2; i < OFF_B2; i++)
        t->w[i] = uniform(&rng, 1.0 / sqrt(2.0 * NNUE_HIDDEN));
    return t;
}

void nnue_trainer_free(NnueTrainer *t)
{
    if (!t)
        return;
    for (int i = 0; i < NNUE_MAX_THREADS; i++)
        free(t->grad[i]);
    free(t->w);
    free(t->m);
    free(t->v);
    free(t);
}

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* The forward pass: the accumulators, the activations and the output (in
 * units of NNUE_SCALE centipawns). */
static float forward(const float *w, const NnueSample *s, float acc[2][NNUE_HIDDEN], float act[2][NNUE_HIDDEN])
{
    float out = w[OFF_B2];
    for (int v = 0; v < 2; v++) {
        float *a = acc[v];
        memcpy(a, w + OFF_B1, sizeof(float) * NNUE_HIDDEN);
        for (int i = 0; i < s->count; i++) {
            const float *row = w + OFF_W1 + (size_t)s->feat[v][i] * NNUE_HIDDEN;
            for (int j = 0; j < NNUE_HIDDEN; j++)
                a[j] += row[j];
        }
        const float *w2 = w + OFF_W2 + v * NNUE_HIDDEN;
        float sum = 0;
        for (int j = 0; j < NNUE_HIDDEN; j++) {
            const float c = a[j] < 0 ? 0 : a[j] > 1 ? 1 : a[j];
            act[v][j] = c * c;
            sum += act[v][j] * w2[j];
        }
        out += sum;
    }
    return out;
}

double nnue_float_eval(const NnueTrainer *t, const NnueSample *s)
{
    float acc[2][NNUE_HIDDEN], act[2][NNUE_HIDDEN];
    return (double)forward(t->w, s, acc, act) * NNUE_SCALE;
}

/* The loss of one position and d(loss)/d(output). */
static double loss_of(float out, const NnueSample *s, const NnueTrainOptions *o, double *dout)
{
    const double p = sigmoid(o->k * NNUE_SCALE * out);
    const double target = o->lambda * s->result + (1 - o->lambda) * sigmoid(o->k * s->score);
    *dout = 2 * (p - target) * p * (1 - p) * o->k * NNUE_SCALE;
    return (p - target) * (p - target);
}

typedef struct Job {
    NnueTrainer *t;
    const NnueSample *s;
    size_t lo, hi;
    const NnueTrainOptions *o;
    float *grad;       /* NULL: loss only */
    double loss;
    /* The update phase: the parameter range and the batch size. */
    int plo, phi, n;
    double lr_t;       /* the bias-corrected step size */
} Job;

static void *job_gradient(void *arg)
{
    Job *j = arg;
    float acc[2][NNUE_HIDDEN], act[2][NNUE_HIDDEN], dacc[NNUE_HIDDEN];
    const float *w = j->t->w;
    float *g = j->grad;
    if (g)
        memset(g, 0, sizeof(float) * NPARAMS);
    double loss = 0;
    for (size_t k = j->lo; k < j->hi; k++) {
        const NnueSample *s = &j->s[k];
        const float out = forward(w, s, acc, act);
        double dout;
        loss += loss_of(out, s, j->o, &dout);
        if (!g)
            continue;
        const float d = (float)dout;
        g[OFF_B2] += d;
        for (int v = 0; v < 2; v++) {
            const float *w2 = w + OFF_W2 + v * NNUE_HIDDEN;
            float *g2 = g + OFF_W2 + v * NNUE_HIDDEN;
            for (int i = 0; i < NNUE_HIDDEN; i++) {
                g2[i] += d * act[v][i];
                const float a = acc[v][i];
                dacc[i] = a > 0 && a < 1 ? d * w2[i] * 2 * a : 0;
                g[OFF_B1 + i] += dacc[i];
            }
            for (int f = 0; f < s->count; f++) {
                float *row = g + OFF_W1 + (size_t)s->feat[v][f] * NNUE_HIDDEN;
                for (int i = 0; i < NNUE_HIDDEN; i++)
                    row[i] += dacc[i];
            }
        }
    }
    j->loss = loss;
    return NULL;
}

static float clip(float x, double bound) { return x < -bound ? (float)-bound : x > bound ? (float)bound : x; }

/* AdamW over a range of parameters, the threads' gradients added in order. */
static void *job_update(void *arg)
{
    Job *j = arg;
    NnueTrainer *t = j->t;
    const float inv_n = 1.0f / (float)j->n;
    const float b1 = (float)ADAM_BETA1, b2 = (float)ADAM_BETA2;
    const float lr_t = (float)j->lr_t, decay = (float)(j->o->lr * j->o->weight_decay);
    for (int i = j->plo; i < j->phi; i++) {
        float g = 0;
        for (int k = 0; k < t->threads; k++)
            g += t->grad[k][i];
        g *= inv_n;
        t->m[i] = b1 * t->m[i] + (1 - b1) * g;
        t->v[i] = b2 * t->v[i] + (1 - b2) * g * g;
        float w = t->w[i] - lr_t * t->m[i] / (sqrtf(t->v[i]) + (float)ADAM_EPS);
        const bool bias = i >= OFF_B1 && i < OFF_W2;
        if (i < OFF_B2 && !bias)
            w -= decay * t->w[i];
        t->w[i] = i < OFF_W2 ? clip(w, NNUE_INPUT_CLIP) : i < OFF_B2 ? clip(w, NNUE_OUTPUT_CLIP) : w;
    }
    return NULL;
}

/* Runs fn on jobs[0..n): n - 1 new threads and this one. */
static void run_jobs(void *(*fn)(void *), Job *jobs, int n)
{
    pthread_t th[NNUE_MAX_THREADS];
    bool started[NNUE_MAX_THREADS] = {false};
    for (int i = 1; i < n; i++)
        started[i] = pthread_create(&th[i], NULL, fn, &jobs[i]) == 0;
    fn(&jobs[0]);
    for (int i = 1; i < n; i++) {
        if (started[i])
            pthread_join(th[i], NULL);
        else
            fn(&jobs[i]); /* no thread: run it here */
    }
}

double nnue_train_batch(NnueTrainer *t, const NnueSample *batch, int n, const NnueTrainOptions *o)
{
    Job jobs[NNUE_MAX_THREADS];
    const int T = t->threads;
    memset(jobs, 0, sizeof jobs);
    for (int i = 0; i < T; i++) {
        jobs[i] = (Job){.t = t, .s = batch, .lo = (size_t)n * i / T, .hi = (size_t)n * (i + 1) / T, .o = o,
                        .grad = t->grad[i]};
    }
    run_jobs(job_gradient, jobs, T);
    double loss = 0;
    for (int i = 0; i < T; i++)
        loss += jobs[i].loss;
    t->step++;
    const double lr_t = o->lr * sqrt(1 - pow(ADAM_BETA2, (double)t->step)) / (1 - pow(ADAM_BETA1, (double)t->step));
    for (int i = 0; i < T; i++) {
        jobs[i].plo = (int)((int64_t)NPARAMS * i / T);
        jobs[i].phi = (int)((int64_t)NPARAMS * (i + 1) / T);
        jobs[i].n = n;
        jobs[i].lr_t = lr_t;
    }
    run_jobs(job_update, jobs, T);
    return n > 0 ? loss / n : 0;
}

double nnue_loss(NnueTrainer *t, const NnueSample *s, size_t n, const NnueTrainOptions *o)
{
    Job jobs[NNUE_MAX_THREADS];
    const int T = t->threads;
    memset(jobs, 0, sizeof jobs);
    for (int i = 0; i < T; i++)
        jobs[i] = (Job){.t = t, .s = s, .lo = n * i / T, .hi = n * (i + 1) / T, .o = o};
    run_jobs(job_gradient, jobs, T);
    double loss = 0;
    for (int i = 0; i < T; i++)
        loss += jobs[i].loss;
    return n > 0 ? loss / (double)n : 0;
}

static int16_t round16(double x)
{
    const double r = floor(x + 0.5);
    return (int16_t)(r < -32768 ? -32768 : r > 32767 ? 32767 : r);
}

void nnue_quantise(const NnueTrainer *t, NnueNet *net)
{
    for (int i = 0; i < OFF_B1; i++)
        net->w1[i] = round16(t->w[OFF_W1 + i] * NNUE_QA);
    for (int i = 0; i < NNUE_HIDDEN; i++)
        net->b1[i] = round16(t->w[OFF_B1 + i] * NNUE_QA);
    for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
        net->w2[i] = round16(t->w[OFF_W2 + i] * NNUE_QB);
    net->b2 = (int32_t)floor(t->w[OFF_B2] * (double)NNUE_QA * NNUE_QB + 0.5);
}

/* Checkpoint header: magic, version, parameter count, a float 1.0 (the byte
 * order of the floats that follow), the caller's state size, the step. */
static const char CKPT_MAGIC[4] = {'C', 'X', 'T', 'C'};
enum { CKPT_VERSION = 1 };

bool nnue_checkpoint_write(FILE *f, const NnueTrainer *t, const void *extra, size_t extra_size)
{
    const uint32_t head[4] = {CKPT_VERSION, NPARAMS, 0x3F800000u, (uint32_t)extra_size};
    return fwrite(CKPT_MAGIC, 1, 4, f) == 4 && fwrite(head, sizeof head, 1, f) == 1 &&
           fwrite(&t->step, sizeof t->step, 1, f) == 1 && fwrite(extra, 1, extra_size, f) == extra_size &&
           fwrite(t->w, sizeof(float), NPARAMS, f) == NPARAMS && fwrite(t->m, sizeof(float), NPARAMS, f) == NPARAMS &&
           fwrite(t->v, sizeof(float), NPARAMS, f) == NPARAMS;
}

bool nnue_checkpoint_read(FILE *f, NnueTrainer *t, void *extra, size_t extra_size, char *err, size_t errlen)
{
    char magic[4];
    uint32_t head[4];
    uint64_t step;
    if (fread(magic, 1, 4, f) != 4 || memcmp(magic, CKPT_MAGIC, 4) != 0 || fread(head, sizeof head, 1, f) != 1) {
        snprintf(err, errlen, "not a chariot train checkpoint");
        return false;
    }
    if (head[0] != CKPT_VERSION || head[1] != NPARAMS || head[2] != 0x3F800000u || head[3] != extra_size) {
        snprintf(err, errlen, "a checkpoint of another version, network shape or byte order");
        return false;
    }
    float *w = malloc(sizeof(float) * NPARAMS * 3);
    bool ok = w && fread(&step, sizeof step, 1, f) == 1 && fread(extra, 1, extra_size, f) == extra_size &&
              fread(w, sizeof(float), (size_t)NPARAMS * 3, f) == (size_t)NPARAMS * 3;
    for (size_t i = 0; ok && i < (size_t)NPARAMS * 3; i++)
        ok = isfinite(w[i]);
    if (!ok) {
        snprintf(err, errlen, "a truncated or damaged checkpoint");
        free(w);
        return false;
    }
    memcpy(t->w, w, sizeof(float) * NPARAMS);
    memcpy(t->m, w + NPARAMS, sizeof(float) * NPARAMS);
    memcpy(t->v, w + 2 * NPARAMS, sizeof(float) * NPARAMS);
    t->step = step;
    free(w);
    return true;
}
