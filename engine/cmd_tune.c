/* cmd_tune.c — `chariot tune`: fits every weight of eval/weights.h to the
 * positions of `chariot datagen` files (Texel-style, eval/tune.h) and writes
 * the header the build compiles in. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "cli.h"
#include "commands.h"
#include "proc.h"
#include "tune.h"

#include "endgame.h"

enum { TUNE_REPORT_EVERY = 50 };
/* An endgame entry's factor is fitted only with this many positions. */
enum { TUNE_ENDGAME_MIN_POSITIONS = 200 };

#define TUNE_USAGE                                                                                              \
    "usage: chariot tune DATA.txt [more.txt ...] -o WEIGHTS.h [--epochs N] [--lambda L] [--lr X]\n"            \
    "                    [--k K] [--threads T] [--limit N]\n"                                                   \
    "       chariot tune DATA.txt [more.txt ...] --endgame-scales -o SCALES.h [--lambda L] [--k K]\n"          \
    "                    [--min-positions N] [--limit N]\n"                                                     \
    "Fits every evaluation weight to 'FEN | RESULT | SCORE' lines (chariot datagen) and writes\n"              \
    "the weights header (eval/weights.h to build with them). Target: L * result + (1 - L) *\n"                  \
    "sigmoid(K * score); K is fitted to the results first unless given. Defaults: --epochs 400,\n"             \
    "--lambda 0.5, --lr 1, --threads = CPUs. With --endgame-scales it fits the endgame table's\n"              \
    "scale factors instead (eval/endgame_scales.h; entries with fewer than --min-positions,\n"                \
    "default 200, keep theirs).\n"

typedef struct TuneProgress {
    int epochs;
    double t0;
} TuneProgress;

static void tune_report(void *ctx, int epoch, double error)
{
    const TuneProgress *p = ctx;
    if (epoch % TUNE_REPORT_EVERY == 0 || epoch == p->epochs)
        fprintf(stderr, "tune: epoch %d/%d, error %.7f, %.1f s\n", epoch, p->epochs, error, cli_now_seconds() - p->t0);
}

/* Parses "FEN | RESULT | SCORE"; false (with a reason) when malformed. */
static bool tune_parse_line(char *line, Board *b, double *result, double *score, char *err, size_t errlen)
{
    char *bar1 = strchr(line, '|');
    char *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
    if (!bar2) {
        snprintf(err, errlen, "expected 'FEN | RESULT | SCORE'");
        return false;
    }
    *bar1 = '\0';
    if (!board_from_fen(b, line, err, errlen))
        return false;
    char *end;
    *result = strtod(bar1 + 1, &end);
    while (*end == ' ')
        end++;
    if (end != bar2 || !(*result == 0 || *result == 0.5 || *result == 1)) {
        snprintf(err, errlen, "the result must be 1, 0.5 or 0");
        return false;
    }
    *score = strtod(bar2 + 1, &end);
    while (*end == ' ' || *end == '\r' || *end == '\n')
        end++;
    if (*end != '\0' || end == bar2 + 1) {
        snprintf(err, errlen, "the score must be a number");
        return false;
    }
    return true;
}

static bool tune_load(const char *path, TuneSet *set, long long limit, Board *b, long long *bad)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "tune: cannot read %s: %s\n", path, strerror(errno));
        return false;
    }
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0;
    TuneFeature feat[TUNE_PARAMS];
    EvalTrace tr;
    bool ok = true;
    while (ok && (limit == 0 || (long long)set->count < limit) && cli_read_line(f, &line, &cap)) {
        lineno++;
        if (line[0] == '\n' || line[0] == '#')
            continue;
        double result, score;
        char err[160];
        if (!tune_parse_line(line, b, &result, &score, err, sizeof err)) {
            if ((*bad)++ < 5)
                fprintf(stderr, "tune: %s:%d: %s; skipped\n", path, lineno, err);
            continue;
        }
        eval_trace_evaluate(b, &tr);
        int n = tune_features(&tr, feat);
        ok = tune_set_add(set, feat, n, result, score, tr.endgame_entry, tr.scale);
    }
    if (!ok)
        fprintf(stderr, "tune: out of memory after %zu positions\n", set->count);
    free(line);
    fclose(f);
    return ok;
}

/* --endgame-scales: fits the endgame table's factors, prints them entry by
 * entry and writes the header. Returns the exit code. */
static int tune_endgame_scales(const TuneSet *set, const double *w, const TuneOptions *o, long long min_positions,
                               const char *out)
{
    const int n = ENDGAME_TABLE_SIZE;
    int *scales = calloc((size_t)n, sizeof *scales);
    long *counts = calloc((size_t)n, sizeof *counts);
    double *before = calloc((size_t)n, sizeof *before), *after = calloc((size_t)n, sizeof *after);
    int rc = 1;
    if (!scales || !counts || !before || !after)
        goto done;
    tune_fit_endgame_scales(set, w, o->k, o->lambda, (long)min_positions, scales, counts, before, after);
    fprintf(stderr, "tune: endgame entry                              positions  factor  error before -> after\n");
    for (int e = 0; e < n; e++)
        fprintf(stderr, "tune: %2d %-40s %8ld  %2d -> %2d  %.5f -> %.5f%s\n", e, ENDGAME_TABLE[e].name, counts[e],
                ENDGAME_SCALE[e], scales[e], before[e], after[e], counts[e] < min_positions ? " (kept: too few)" : "");
    FILE *f = fopen(out, "wb");
    if (!f) {
        fprintf(stderr, "tune: cannot write %s: %s\n", out, strerror(errno));
        goto done;
    }
    bool written = tune_write_endgame_scales(f, scales);
    if (fclose(f) != 0 || !written) {
        fprintf(stderr, "tune: writing %s failed\n", out);
        goto done;
    }
    fprintf(stderr, "tune: wrote %s; copy it to eval/endgame_scales.h and rebuild to play with it\n", out);
    rc = 0;
done:
    free(scales);
    free(counts);
    free(before);
    free(after);
    return rc;
}

int cmd_tune(int argc, char **argv)
{
    TuneOptions o;
    tune_options_init(&o);
    o.threads = proc_cpu_count();
    const char *out = NULL;
    long long limit = 0, v, min_positions = TUNE_ENDGAME_MIN_POSITIONS;
    bool endgame_scales = false;
    const char **files = calloc((size_t)argc, sizeof *files);
    int nfiles = 0;
    if (!files)
        return 1;
    int rc = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (strcmp(a, "-o") == 0 && val) {
            out = val;
            i++;
        } else if (strcmp(a, "--epochs") == 0 && val && cli_parse_ll(val, 1, 1000000, &v)) {
            o.epochs = (int)v;
            i++;
        } else if (strcmp(a, "--threads") == 0 && val && cli_parse_ll(val, 1, 256, &v)) {
            o.threads = (int)v;
            i++;
        } else if (strcmp(a, "--endgame-scales") == 0) {
            endgame_scales = true;
        } else if (strcmp(a, "--min-positions") == 0 && val && cli_parse_ll(val, 1, 1000000000000LL, &v)) {
            min_positions = v;
            i++;
        } else if (strcmp(a, "--limit") == 0 && val && cli_parse_ll(val, 1, 1000000000000LL, &v)) {
            limit = v;
            i++;
        } else if (strcmp(a, "--lambda") == 0 && val && (o.lambda = strtod(val, &end), *end == '\0') &&
                   o.lambda >= 0 && o.lambda <= 1) {
            i++;
        } else if (strcmp(a, "--lr") == 0 && val && (o.lr = strtod(val, &end), *end == '\0') && o.lr > 0 &&
                   o.lr <= 1000) {
            i++;
        } else if (strcmp(a, "--k") == 0 && val && (o.k = strtod(val, &end), *end == '\0') && o.k > 0 && o.k < 1) {
            i++;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(TUNE_USAGE, stdout);
            free(files);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "tune: bad or incomplete option '%s'\n%s", a, TUNE_USAGE);
            free(files);
            return 2;
        } else {
            files[nfiles++] = a;
        }
    }
    if (!out || nfiles == 0) {
        fprintf(stderr, "tune: %s\n%s", !out ? "-o WEIGHTS.h is required" : "no data file given", TUNE_USAGE);
        free(files);
        return 2;
    }

    const double t0 = cli_now_seconds();
    TuneSet set;
    memset(&set, 0, sizeof set);
    Board *b = malloc(sizeof *b);
    double *w = malloc(TUNE_PARAMS * sizeof *w);
    long long bad = 0;
    if (!b || !w)
        goto done;
    eval_trace_init();
    for (int i = 0; i < nfiles; i++)
        if (!tune_load(files[i], &set, limit, b, &bad)) {
            rc = 1;
            goto done;
        }
    if (set.count == 0) {
        fprintf(stderr, "tune: no positions\n");
        goto done;
    }
    const double t_load = cli_now_seconds() - t0;
    fprintf(stderr, "tune: %zu positions (%lld lines skipped), %.1f features each, loaded in %.1f s\n", set.count,
            bad, (double)set.nfeat / (double)set.count, t_load);

    tune_weights_current(w);
    if (o.k == 0) {
        o.k = tune_fit_k(&set, w, o.threads);
        fprintf(stderr, "tune: fitted k = %.6f\n", o.k);
    }
    if (endgame_scales) {
        rc = tune_endgame_scales(&set, w, &o, min_positions, out);
        goto done;
    }
    const double before = tune_error(&set, w, o.k, o.lambda, o.threads);
    fprintf(stderr, "tune: error of the current weights %.7f (lambda %.2f)\n", before, o.lambda);
    TuneProgress prog = {o.epochs, cli_now_seconds()};
    tune_adam(&set, w, &o, tune_report, &prog);
    const double after = tune_error(&set, w, o.k, o.lambda, o.threads);
    const double t_fit = cli_now_seconds() - prog.t0;
    fprintf(stderr, "tune: error %.7f -> %.7f in %d epochs, %.1f s (%.3f s per epoch)\n", before, after, o.epochs,
            t_fit, t_fit / o.epochs);

    FILE *f = fopen(out, "wb");
    if (!f) {
        fprintf(stderr, "tune: cannot write %s: %s\n", out, strerror(errno));
        rc = 1;
        goto done;
    }
    bool written = tune_write_weights(f, w);
    if (fclose(f) != 0 || !written) {
        fprintf(stderr, "tune: writing %s failed\n", out);
        rc = 1;
        goto done;
    }
    fprintf(stderr, "tune: wrote %s; copy it to eval/weights.h and rebuild to play with it\n", out);
    rc = 0;
done:
    tune_set_free(&set);
    free(b);
    free(w);
    free(files);
    return rc;
}
