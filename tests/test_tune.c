/* test_tune.c — the tuner's model and fit (eval/tune.h): the traced
 * coefficients reproduce eval_evaluate on positions from every phase of the
 * game, Adam recovers the known optimum of a small synthetic data set, and
 * the weights writer reproduces eval/weights.h from its own values.
 * Usage: test_tune [PATH/TO/eval/weights.h] */
#include <math.h>
#include <stdint.h>

#include "board.h"
#include "endgame.h"
#include "eval.h"
#include "test.h"
#include "tune.h"

/* Rounding of eval_evaluate's integer divisions (taper, king-danger factor,
 * drawish scale): the linear model may differ by this much, no more. */
enum { MODEL_TOLERANCE_CP = 3, PLAYOUTS = 40, PLAYOUT_PLIES = 200, SAMPLE_EVERY = 4 };

static uint64_t rng_next(uint64_t *s) { return test_xorshift(s); }

/* Random games from the start, sampled every few plies: openings,
 * middlegames and (after many captures) endgames, with the drawish scale. */
static void test_coefficients(void)
{
    Board *b = malloc(sizeof *b);
    static TuneFeature feat[TUNE_PARAMS];
    EvalTrace tr;
    double w[TUNE_PARAMS];
    tune_weights_current(w);
    TuneSet one;
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    int checked = 0, worst = 0, scaled = 0;
    for (int g = 0; g < PLAYOUTS; g++) {
        board_startpos(b);
        board_set_psq(b, eval_psq_table());
        for (int ply = 0; ply < PLAYOUT_PLIES; ply++) {
            MoveList list;
            board_generate(b, GEN_ALL, &list);
            if (list.count == 0)
                break;
            /* Prefer captures, so that games reach the endgame. */
            MoveList caps;
            board_generate(b, GEN_CAPTURES, &caps);
            const MoveList *from = caps.count > 0 && rng_next(&rng) % 3 ? &caps : &list;
            board_make(b, from->moves[rng_next(&rng) % (uint64_t)from->count]);
            if (ply % SAMPLE_EVERY)
                continue;
            int v = eval_evaluate(b, 3);
            int red = b->side == RED ? v : -v;
            int tv = eval_trace_evaluate(b, &tr);
            CHECK_EQ_INT(tv, v);
            memset(&one, 0, sizeof one);
            int n = tune_features(&tr, feat);
            CHECK(tune_set_add(&one, feat, n, 0.5, 0, tr.endgame_entry, tr.scale));
            double model = tune_eval(&one, 0, w);
            tune_set_free(&one);
            int diff = (int)fabs(model - red);
            if (diff > worst)
                worst = diff;
            if (diff > MODEL_TOLERANCE_CP)
                fprintf(stderr, "  model %.2f vs eval %d at ply %d of game %d\n", model, red, ply, g);
            CHECK(diff <= MODEL_TOLERANCE_CP);
            scaled += tr.scale != 1.0;
            checked++;
        }
    }
    printf("coefficients: %d positions, largest difference %d cp, %d with a drawish scale\n", checked, worst, scaled);
    CHECK(checked >= 500);
    free(b);
}

/* Positions with random sparse features, labelled by the sigmoid of a known
 * weight vector: the fit must find those weights again. */
/* The threat, imbalance, flank and defence terms count what they say, read
 * from the trace (Red minus Black). Red: rook e3, horse c3, full defenders;
 * Black: cannon d5, horse e5, a crossed pawn on e4, no defenders. */
static void test_new_terms(void)
{
    Board *b = malloc(sizeof *b);
    char err[128];
    EvalTrace tr;
    CHECK(board_from_fen(b, "4k4/9/9/9/3cn4/4p4/2N1R4/9/9/2BAKAB2 w - - 0 1", err, sizeof err));
    eval_trace_evaluate(b, &tr);
    /* The rook hits the pawn ahead of it and the pawn hits back; the horse
     * reaches the cannon on d5 and the pawn on e4 through free legs; the
     * black horse's legs are blocked and the cannon has nothing behind its
     * screens. */
    CHECK(tr.mg[THREAT_WEIGHT(THREAT_BY_ROOK, PAWN)] == 1);
    CHECK(tr.mg[THREAT_WEIGHT(THREAT_BY_HORSE, CANNON)] == 1);
    CHECK(tr.mg[THREAT_WEIGHT(THREAT_BY_HORSE, PAWN)] == 1);
    CHECK(tr.mg[THREAT_WEIGHT(THREAT_BY_PAWN, ROOK)] == -1);
    CHECK(tr.mg[THREAT_WEIGHT(THREAT_BY_CANNON, ADVISOR)] == 0);
    /* Red's two advisors against Black's horse; Black's horse against them. */
    CHECK(tr.mg[IMB_WEIGHT(ADVISOR, HORSE)] == 2);
    CHECK(tr.mg[IMB_WEIGHT(HORSE, ADVISOR)] == -2);
    CHECK(tr.mg[IMB_WEIGHT(HORSE, HORSE)] == 0);
    /* Nothing has crossed on either side: the zero entries cancel. */
    CHECK(tr.mg[W_FLANK_MASS + 0] == 0);
    CHECK(tr.mg[W_FULL_DEFENCE] == 1);
    /* Two red rooks and a horse over the river on the right flank. */
    CHECK(board_from_fen(b, "3k5/6R2/6N1R/9/9/9/9/9/9/4K4 w - - 0 1", err, sizeof err));
    eval_trace_evaluate(b, &tr);
    CHECK(tr.mg[W_FLANK_MASS + 3] == 1 && tr.mg[W_FLANK_MASS + 0] == -1);
    free(b);
}

static void test_synthetic(void)
{
    enum { POSITIONS = 2000, USED = 8 };
    static const double truth[USED] = {120, -40, 75, 10, -90, 30, 55, -15};
    const double k = 0.01;
    TuneSet set;
    memset(&set, 0, sizeof set);
    uint64_t rng = 12345;
    for (int p = 0; p < POSITIONS; p++) {
        TuneFeature f[USED];
        int n = 0;
        double e = 0;
        for (int i = 0; i < USED; i++) {
            int c = (int)(rng_next(&rng) % 5) - 2;
            if (c == 0)
                continue;
            f[n++] = (TuneFeature){(uint16_t)(2 * i), (float)c};
            e += c * truth[i];
        }
        double target = 1 / (1 + exp(-k * e));
        CHECK(tune_set_add(&set, f, n, target, 0, -1, 1));
    }
    double *w = calloc(TUNE_PARAMS, sizeof *w);
    TuneOptions o;
    tune_options_init(&o);
    o.k = k;
    o.lambda = 1.0;
    o.epochs = 1500;
    o.lr = 2.0;
    o.threads = 2;
    double before = tune_error(&set, w, k, 1.0, 1);
    tune_adam(&set, w, &o, NULL, NULL);
    double after = tune_error(&set, w, k, 1.0, 2);
    double worst = 0;
    for (int i = 0; i < USED; i++)
        worst = fmax(worst, fabs(w[2 * i] - truth[i]));
    printf("synthetic: error %.6f -> %.8f, largest weight error %.2f\n", before, after, worst);
    CHECK(after < 1e-5);
    CHECK(worst < 2.0);
    /* Parameters no position uses stay where they were. */
    CHECK(w[2 * USED] == 0 && w[1] == 0);
    /* k is found again from results that follow the truth. */
    for (int i = 0; i < USED; i++)
        w[2 * i] = truth[i];
    double kfit = tune_fit_k(&set, w, 2);
    printf("synthetic: k fitted %.5f (truth %.5f)\n", kfit, k);
    CHECK(fabs(kfit - k) < 0.0005);
    free(w);
    tune_set_free(&set);
}

/* The endgame-scale fit finds the factor the results were made with, and
 * leaves entries without (enough) positions alone. */
static void test_endgame_scales(void)
{
    enum { POSITIONS = 600, ENTRY = 1, TRUE_SCALE = 5 };
    const double k = 0.01;
    TuneSet set;
    memset(&set, 0, sizeof set);
    uint64_t rng = 777;
    for (int p = 0; p < POSITIONS; p++) {
        /* One feature of 1..600 cp, stored as the evaluation would give it
         * under a factor of 3/16; the results follow 5/16. */
        double unscaled = 1 + (double)(rng_next(&rng) % 600);
        const double stored_scale = 3.0 / SCALE_ONE;
        TuneFeature f = {0, (float)(unscaled * stored_scale)};
        double target = 1 / (1 + exp(-k * unscaled * TRUE_SCALE / SCALE_ONE));
        CHECK(tune_set_add(&set, &f, 1, target, 0, ENTRY, stored_scale));
    }
    double *w = calloc(TUNE_PARAMS, sizeof *w);
    w[0] = 1;
    int *scales = calloc((size_t)ENDGAME_TABLE_SIZE, sizeof *scales);
    long *counts = calloc((size_t)ENDGAME_TABLE_SIZE, sizeof *counts);
    tune_fit_endgame_scales(&set, w, k, 1.0, 100, scales, counts, NULL, NULL);
    printf("endgame scales: entry %d fitted %d/16 (truth %d/16) from %ld positions\n", ENTRY, scales[ENTRY],
           TRUE_SCALE, counts[ENTRY]);
    CHECK_EQ_INT(scales[ENTRY], TRUE_SCALE);
    CHECK(counts[ENTRY] == POSITIONS);
    for (int e = 0; e < ENDGAME_TABLE_SIZE; e++)
        if (e != ENTRY)
            CHECK_EQ_INT(scales[e], ENDGAME_SCALE[e]);
    /* Too few positions: the factor stays. */
    tune_fit_endgame_scales(&set, w, k, 1.0, POSITIONS + 1, scales, NULL, NULL, NULL);
    CHECK_EQ_INT(scales[ENTRY], ENDGAME_SCALE[ENTRY]);
    free(w);
    free(scales);
    free(counts);
    tune_set_free(&set);
}

static void test_writer(const char *path)
{
    FILE *src = fopen(path, "rb");
    CHECK(src != NULL);
    if (!src)
        return;
    static char want[1 << 16], got[1 << 16];
    size_t nwant = fread(want, 1, sizeof want, src);
    fclose(src);
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f)
        return;
    double w[TUNE_PARAMS];
    tune_weights_current(w);
    CHECK(tune_write_weights(f, w));
    rewind(f);
    size_t ngot = fread(got, 1, sizeof got, f);
    fclose(f);
    CHECK_EQ_INT(ngot, nwant);
    CHECK(ngot == nwant && memcmp(got, want, ngot) == 0);
    printf("writer: %zu bytes, identical to %s\n", ngot, path);
}

int main(int argc, char **argv)
{
    board_init();
    eval_init();
    eval_trace_init();
    test_coefficients();
    test_new_terms();
    test_synthetic();
    test_endgame_scales();
    if (argc > 1)
        test_writer(argv[1]);
    TEST_END();
}
