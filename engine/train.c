/* train.c — `chariot train`: trains the evaluation network (eval/nnue.h) on
 * datagen positions with eval/nnue_train.c and writes the quantised
 * network file (docs/NNUE.md, "The trainer"). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "dgformat.h"
#include "nnue.h"
#include "nnue_train.h"
#include "os.h"
#include "proc.h"

enum {
    TR_DEFAULT_EPOCHS = 10,
    TR_DEFAULT_BATCH = 16384,
    TR_DEFAULT_LR_DROP = 4,   /* epochs between learning-rate drops */
    TR_MAX_VALIDATION = 1000000,
    TR_QUANT_CHECK = 10000,   /* validation positions for the integer-vs-float check */
    TR_PROGRESS_MS = 1000,
    TR_LOG_LINE_MS = 60000,
    TR_MAX_THREADS = 64
};
#define TR_DEFAULT_VAL 0.02
#define TR_DEFAULT_GAMMA 0.3

#define TR_USAGE                                                                                                \
    "usage: chariot train DATA [DATA ...] -o NET [--epochs N] [--batch N] [--lr X] [--lr-drop E]\n"          \
    "                     [--lr-gamma G] [--wd W] [--lambda L] [--k K] [--val F] [--threads T]\n"             \
    "                     [--seed S] [--limit N] [--resume] [--quiet]\n"                                       \
    "Trains the evaluation network on datagen files (binary or text) with AdamW and writes the\n"            \
    "quantised network to NET and a checkpoint after every epoch to NET.ckpt; --resume continues\n"          \
    "from it (also to more epochs). Loss: (sigmoid(K * eval) - target)^2, target = L * result +\n"          \
    "(1 - L) * sigmoid(K * score). Learning rate X, times G every E epochs. Defaults: --epochs 10,\n"        \
    "--batch 16384, --lr 0.001, --lr-drop 4, --lr-gamma 0.3, --wd 0.01, --lambda 0.5, --k 0.0019,\n"         \
    "--val 0.02 (at most 1,000,000 positions held out), --threads = CPUs, --seed 1.\n"

/* The state saved beside the weights: the epochs done and the settings and
 * data that the run's results depend on. */
typedef struct TrState {
    uint32_t epochs_done;
    uint32_t fingerprint;
    uint64_t positions;
} TrState;

typedef struct TrConfig {
    const char *paths[256];
    int npaths;
    const char *out;
    int epochs, batch, lr_drop, threads;
    double lr, gamma, val;
    long long limit;
    uint64_t seed;
    bool resume, quiet;
    NnueTrainOptions opt;
} TrConfig;

static uint64_t tr_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void tr_shuffle(uint32_t *a, size_t n, uint64_t seed)
{
    uint64_t rng = seed;
    for (size_t i = n; i > 1; i--) {
        const size_t j = (size_t)(tr_next(&rng) % i);
        const uint32_t x = a[i - 1];
        a[i - 1] = a[j];
        a[j] = x;
    }
}

/* Reads every file's positions as records. False with the reason printed. */
static bool tr_load(const TrConfig *cfg, DgRecord **out, size_t *count)
{
    size_t n = 0, cap = 1 << 16;
    DgRecord *recs = malloc(cap * sizeof *recs);
    DgEntry *e = malloc(sizeof *e);
    char err[320];
    bool ok = recs && e;
    for (int p = 0; ok && p < cfg->npaths; p++) {
        DgReader r;
        if (!dg_reader_open(&r, cfg->paths[p], err, sizeof err)) {
            fprintf(stderr, "train: %s\n", err);
            ok = false;
            break;
        }
        int got = 1;
        while (ok && (cfg->limit == 0 || (long long)n < cfg->limit)) {
            if (n == cap) {
                DgRecord *bigger = realloc(recs, 2 * cap * sizeof *recs);
                if (!bigger) {
                    fputs("train: out of memory\n", stderr);
                    ok = false;
                    break;
                }
                recs = bigger;
                cap *= 2;
            }
            if (r.binary) {
                DgPieces pc;
                got = dg_reader_next_record(&r, &recs[n], err, sizeof err);
                if (got > 0 && !dg_record_pieces(&recs[n], &pc)) {
                    snprintf(err, sizeof err, "%s: record %" PRIu64 ": corrupt record", cfg->paths[p], r.index - 1);
                    got = -1;
                }
            } else {
                char why[160];
                got = dg_reader_next(&r, e, err, sizeof err);
                if (got > 0 && !dg_pack(&e->board, e->score_red, e->result, &recs[n], why, sizeof why)) {
                    snprintf(err, sizeof err, "%s:%lld: %s", cfg->paths[p], r.line, why);
                    got = -1;
                }
            }
            if (got <= 0)
                break;
            n++;
        }
        if (got < 0) {
            fprintf(stderr, "train: %s\n", err);
            ok = false;
        }
        dg_reader_close(&r);
    }
    free(e);
    if (!ok) {
        free(recs);
        return false;
    }
    *out = recs;
    *count = n;
    return true;
}

static void tr_sample(const DgRecord *rec, NnueSample *s)
{
    DgPieces pc;
    if (!dg_record_pieces(rec, &pc)) { /* checked when loaded */
        memset(s, 0, sizeof *s);
        return;
    }
    nnue_sample_make(s, pc.count, pc.sq, pc.piece, pc.side, pc.score_red, pc.result / 2.0);
}

typedef struct TrDecodeJob {
    const DgRecord *recs;
    const uint32_t *index;
    NnueSample *out;
    size_t lo, hi;
} TrDecodeJob;

static void *tr_decode_job(void *arg)
{
    const TrDecodeJob *j = arg;
    for (size_t k = j->lo; k < j->hi; k++)
        tr_sample(&j->recs[j->index[k]], &j->out[k - j->lo]);
    return NULL;
}

/* Decodes recs[index[0..n)] into out on the trainer's threads. */
static void tr_decode(const DgRecord *recs, const uint32_t *index, size_t n, NnueSample *out, int threads)
{
    TrDecodeJob jobs[TR_MAX_THREADS];
    pthread_t th[TR_MAX_THREADS];
    bool started[TR_MAX_THREADS] = {false};
    for (int i = 0; i < threads; i++) {
        const size_t lo = n * (size_t)i / (size_t)threads, hi = n * (size_t)(i + 1) / (size_t)threads;
        jobs[i] = (TrDecodeJob){recs, index + lo, out + lo, 0, hi - lo};
    }
    for (int i = 1; i < threads; i++)
        started[i] = pthread_create(&th[i], NULL, tr_decode_job, &jobs[i]) == 0;
    tr_decode_job(&jobs[0]);
    for (int i = 1; i < threads; i++) {
        if (started[i])
            pthread_join(th[i], NULL);
        else
            tr_decode_job(&jobs[i]);
    }
}

static uint32_t tr_fingerprint(const TrConfig *cfg, uint64_t positions)
{
    char text[512];
    snprintf(text, sizeof text, "seed %" PRIu64 " batch %d threads %d val %.6g lr %.9g drop %d gamma %.6g wd %.9g "
             "k %.9g lambda %.6g positions %" PRIu64 " hidden %d", cfg->seed, cfg->batch, cfg->threads, cfg->val,
             cfg->lr, cfg->lr_drop, cfg->gamma, cfg->opt.weight_decay, cfg->opt.k, cfg->opt.lambda, positions,
             NNUE_HIDDEN);
    uint32_t h = 2166136261u;
    for (const char *p = text; *p; p++)
        h = (h ^ (uint8_t)*p) * 16777619u;
    return h;
}

/* Writes f's content through a temporary file, so that a kill leaves the
 * old file whole. */
static bool tr_save_checkpoint(const char *out, NnueTrainer *t, const TrState *st)
{
    char path[1024], tmp[1040];
    snprintf(path, sizeof path, "%s.ckpt", out);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    bool ok = f && nnue_checkpoint_write(f, t, st, sizeof *st);
    if (f && fclose(f) != 0)
        ok = false;
    remove(path); /* rename does not replace a file everywhere */
    ok = ok && rename(tmp, path) == 0;
    if (!ok)
        fprintf(stderr, "train: cannot write %s: %s\n", path, strerror(errno));
    return ok;
}

static bool tr_save_net(const char *out, const NnueTrainer *t)
{
    NnueNet *net = malloc(sizeof *net);
    FILE *f = net ? fopen(out, "wb") : NULL;
    bool ok = f != NULL;
    if (ok) {
        nnue_quantise(t, net);
        ok = nnue_write(f, net);
        if (fclose(f) != 0)
            ok = false;
    }
    if (!ok)
        fprintf(stderr, "train: cannot write %s: %s\n", out, strerror(errno));
    free(net);
    return ok;
}

static void tr_duration(double s, char *out, size_t n)
{
    if (s >= 3600)
        snprintf(out, n, "%dh%02dm", (int)(s / 3600), (int)fmod(s / 60, 60));
    else if (s >= 60)
        snprintf(out, n, "%dm%02ds", (int)(s / 60), (int)fmod(s, 60));
    else
        snprintf(out, n, "%.0fs", s);
}

/* The integer network against the float one on held-out positions. */
static void tr_quant_report(const NnueTrainer *t, const NnueSample *val, const DgRecord *recs, const uint32_t *vidx,
                            size_t nval)
{
    NnueNet *net = malloc(sizeof *net);
    if (!net || nval == 0) {
        free(net);
        return;
    }
    nnue_quantise(t, net);
    const size_t n = nval < TR_QUANT_CHECK ? nval : TR_QUANT_CHECK;
    double sum = 0, worst = 0;
    for (size_t k = 0; k < n; k++) {
        DgPieces pc;
        if (!dg_record_pieces(&recs[vidx[k]], &pc))
            continue;
        const double d = fabs(nnue_evaluate_pieces(net, pc.count, pc.sq, pc.piece, pc.side) - nnue_float_eval(t, &val[k]));
        sum += d;
        worst = d > worst ? d : worst;
    }
    fprintf(stderr, "train: integer network against float on %zu held-out positions: mean |difference| %.2f cp, "
            "largest %.0f cp\n", n, sum / (double)n, worst);
    free(net);
}

static bool tr_parse(int argc, char **argv, TrConfig *cfg, int *rc)
{
    memset(cfg, 0, sizeof *cfg);
    nnue_train_options_init(&cfg->opt);
    cfg->epochs = TR_DEFAULT_EPOCHS;
    cfg->batch = TR_DEFAULT_BATCH;
    cfg->lr_drop = TR_DEFAULT_LR_DROP;
    cfg->lr = cfg->opt.lr;
    cfg->gamma = TR_DEFAULT_GAMMA;
    cfg->val = TR_DEFAULT_VAL;
    cfg->threads = proc_cpu_count();
    cfg->seed = 1;
    *rc = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long n;
        double x;
        char *end = NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(TR_USAGE, stdout);
            *rc = 0;
            return false;
        } else if (strcmp(a, "--resume") == 0) {
            cfg->resume = true;
            continue;
        } else if (strcmp(a, "--quiet") == 0) {
            cfg->quiet = true;
            continue;
        } else if (a[0] != '-') {
            if (cfg->npaths == (int)(sizeof cfg->paths / sizeof cfg->paths[0])) {
                fputs("train: too many data files\n", stderr);
                return false;
            }
            cfg->paths[cfg->npaths++] = a;
            continue;
        }
        if (!v) {
            fprintf(stderr, "train: %s needs a value\n", a);
            return false;
        }
        const bool is_int = strcmp(a, "--epochs") == 0 || strcmp(a, "--batch") == 0 || strcmp(a, "--lr-drop") == 0 ||
                            strcmp(a, "--threads") == 0 || strcmp(a, "--seed") == 0 || strcmp(a, "--limit") == 0;
        if (strcmp(a, "-o") == 0) {
            cfg->out = v;
        } else if (is_int) {
            const long long hi = strcmp(a, "--threads") == 0 ? TR_MAX_THREADS
                                 : strcmp(a, "--seed") == 0 || strcmp(a, "--limit") == 0 ? INT64_MAX
                                                                                           : 1000000;
            const long long lo = strcmp(a, "--seed") == 0 || strcmp(a, "--limit") == 0 ? 0 : 1;
            if (!cli_parse_ll(v, lo, hi, &n)) {
                fprintf(stderr, "train: %s needs a whole number in [%lld, %lld]\n", a, lo, hi);
                return false;
            }
            if (strcmp(a, "--epochs") == 0)
                cfg->epochs = (int)n;
            else if (strcmp(a, "--batch") == 0)
                cfg->batch = (int)n;
            else if (strcmp(a, "--lr-drop") == 0)
                cfg->lr_drop = (int)n;
            else if (strcmp(a, "--threads") == 0)
                cfg->threads = (int)n;
            else if (strcmp(a, "--seed") == 0)
                cfg->seed = (uint64_t)n;
            else
                cfg->limit = n;
        } else {
            x = strtod(v, &end);
            const bool lr = strcmp(a, "--lr") == 0, gamma = strcmp(a, "--lr-gamma") == 0,
                       wd = strcmp(a, "--wd") == 0, lambda = strcmp(a, "--lambda") == 0, k = strcmp(a, "--k") == 0,
                       val = strcmp(a, "--val") == 0;
            if (!(lr || gamma || wd || lambda || k || val)) {
                fprintf(stderr, "train: unknown argument '%s'\n%s", a, TR_USAGE);
                return false;
            }
            const bool in_range = end != v && *end == '\0' && isfinite(x) &&
                                  (lr || k ? x > 0 && x < 1 : gamma ? x > 0 && x <= 1 : val ? x >= 0 && x < 0.5
                                                                                            : x >= 0 && x <= 1);
            if (!in_range) {
                fprintf(stderr, "train: %s: '%s' is out of range\n", a, v);
                return false;
            }
            if (lr)
                cfg->lr = x;
            else if (gamma)
                cfg->gamma = x;
            else if (wd)
                cfg->opt.weight_decay = x;
            else if (lambda)
                cfg->opt.lambda = x;
            else if (k)
                cfg->opt.k = x;
            else
                cfg->val = x;
        }
        i++;
    }
    if (cfg->npaths == 0 || !cfg->out) {
        fputs("train: needs data files and -o NET\n" TR_USAGE, stderr);
        return false;
    }
    cfg->opt.threads = cfg->threads;
    return true;
}

int cmd_train(int argc, char **argv)
{
    TrConfig cfg;
    int rc;
    if (!tr_parse(argc, argv, &cfg, &rc))
        return rc;
    DgRecord *recs = NULL;
    size_t n = 0;
    const double t_load = cli_now_seconds();
    if (!tr_load(&cfg, &recs, &n))
        return 1;
    if (n < 2 || n > UINT32_MAX) {
        fprintf(stderr, "train: %zu positions; need between 2 and %u\n", n, UINT32_MAX);
        free(recs);
        return 2;
    }
    /* The held-out positions: a seeded share of the data. */
    uint32_t *index = malloc(n * sizeof *index), *order = NULL;
    size_t nval = (size_t)(cfg.val * (double)n);
    nval = nval > TR_MAX_VALIDATION ? TR_MAX_VALIDATION : nval;
    const size_t ntrain = n - nval;
    NnueSample *val = malloc((nval ? nval : 1) * sizeof *val);
    NnueSample *batch = malloc((size_t)cfg.batch * sizeof *batch);
    order = malloc((ntrain ? ntrain : 1) * sizeof *order);
    NnueTrainer *t = nnue_trainer_new(cfg.seed, cfg.threads);
    if (!index || !val || !batch || !order || !t) {
        fputs("train: out of memory\n", stderr);
        rc = 1;
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        index[i] = (uint32_t)i;
    tr_shuffle(index, n, cfg.seed ^ 0xC2B2AE3D27D4EB4FULL);
    tr_decode(recs, index, nval, val, cfg.threads);
    const uint32_t *train_index = index + nval;

    TrState st = {0, tr_fingerprint(&cfg, n), n};
    if (cfg.resume) {
        char path[1024], err[200];
        snprintf(path, sizeof path, "%s.ckpt", cfg.out);
        FILE *f = fopen(path, "rb");
        TrState saved;
        if (!f) {
            fprintf(stderr, "train: --resume: cannot read %s: %s\n", path, strerror(errno));
            rc = 1;
            goto done;
        }
        const bool ok = nnue_checkpoint_read(f, t, &saved, sizeof saved, err, sizeof err);
        fclose(f);
        if (!ok || saved.fingerprint != st.fingerprint) {
            fprintf(stderr, "train: --resume: %s: %s\n", path,
                    ok ? "a run with other settings or data (the same data, seed, threads, batch and rates are needed)"
                       : err);
            rc = 2;
            goto done;
        }
        st.epochs_done = saved.epochs_done;
    }
    if (!cfg.quiet)
        fprintf(stderr,
                "train: %zu positions (%zu training, %zu held out) read in %.1f s; %d neurons, %d threads, "
                "batch %d, seed %" PRIu64 "%s\n",
                n, ntrain, nval, cli_now_seconds() - t_load, NNUE_HIDDEN, cfg.threads, cfg.batch, cfg.seed,
                st.epochs_done ? ", resumed" : "");
    if (!cfg.quiet && st.epochs_done > 0)
        fprintf(stderr, "train: continuing after epoch %u\n", st.epochs_done);

    const bool tty = os_is_terminal(stderr);
    const double t0 = cli_now_seconds();
    double last_report = t0, last_line = t0, last_val = nan("");
    const size_t batches = (ntrain + (size_t)cfg.batch - 1) / (size_t)cfg.batch;
    const size_t total_batches = batches * (size_t)(cfg.epochs - (int)st.epochs_done);
    size_t batches_run = 0;
    rc = 0;
    for (int epoch = (int)st.epochs_done; epoch < cfg.epochs; epoch++) {
        memcpy(order, train_index, ntrain * sizeof *order);
        tr_shuffle(order, ntrain, cfg.seed * 0x9E3779B97F4A7C15ULL + (uint64_t)epoch + 1);
        NnueTrainOptions o = cfg.opt;
        o.lr = cfg.lr * pow(cfg.gamma, (double)(epoch / cfg.lr_drop));
        double loss_sum = 0;
        size_t seen = 0;
        const double te = cli_now_seconds();
        for (size_t b = 0; b < batches; b++) {
            const size_t lo = b * (size_t)cfg.batch, hi = lo + (size_t)cfg.batch < ntrain ? lo + (size_t)cfg.batch : ntrain;
            tr_decode(recs, order + lo, hi - lo, batch, cfg.threads);
            loss_sum += nnue_train_batch(t, batch, (int)(hi - lo), &o) * (double)(hi - lo);
            seen += hi - lo;
            batches_run++;
            const double now = cli_now_seconds();
            const bool line_due = !tty && (now - last_line) * 1000 >= TR_LOG_LINE_MS;
            if (!cfg.quiet && ((tty && (now - last_report) * 1000 >= TR_PROGRESS_MS) || line_due)) {
                const double pps = (double)batches_run * cfg.batch / (now - t0);
                char eta[32], vtext[40] = "";
                tr_duration((double)(total_batches - batches_run) * (now - t0) / (double)batches_run, eta, sizeof eta);
                if (!isnan(last_val))
                    snprintf(vtext, sizeof vtext, ", validation %.6f", last_val);
                fprintf(stderr, "%strain: epoch %d/%d %3.0f%%, %.0f positions/s, loss %.6f%s, ETA %s%s",
                        tty ? "\r" : "", epoch + 1, cfg.epochs, 100.0 * (double)(b + 1) / (double)batches, pps,
                        loss_sum / (double)seen, vtext, eta, tty ? "   " : "\n");
                fflush(stderr);
                last_report = now;
                if (line_due)
                    last_line = now;
            }
        }
        last_val = nnue_loss(t, val, nval, &o);
        st.epochs_done = (uint32_t)epoch + 1;
        const double secs = cli_now_seconds() - te;
        if (!cfg.quiet)
            fprintf(stderr, "%strain: epoch %d/%d: loss %.6f, validation %.6f, lr %.3g, %.0f positions/s, %.1f s\n",
                    tty ? "\r" : "", epoch + 1, cfg.epochs, loss_sum / (double)(seen ? seen : 1), last_val, o.lr,
                    (double)seen / (secs > 0 ? secs : 1), secs);
        if (!tr_save_checkpoint(cfg.out, t, &st) || !tr_save_net(cfg.out, t)) {
            rc = 1;
            goto done;
        }
    }
    if (!cfg.quiet) {
        tr_quant_report(t, val, recs, index, nval);
        fprintf(stderr, "train: wrote %s (%zu bytes) after %u epochs, %.1f s\n", cfg.out, nnue_file_size(),
                st.epochs_done, cli_now_seconds() - t0);
    }
    if (st.epochs_done == (uint32_t)cfg.epochs && !tr_save_net(cfg.out, t))
        rc = 1;
done:
    nnue_trainer_free(t);
    free(order);
    free(batch);
    free(val);
    free(index);
    free(recs);
    return rc;
}
