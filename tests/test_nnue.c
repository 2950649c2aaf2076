/* test_nnue.c — the network file (eval/nnue.c) and the trainer's core
 * (eval/nnue_train.c): a network written and read back is the same, a
 * damaged or cut file is refused with a reason, the integer network follows
 * the float one it was rounded from, and AdamW fits a small set. */
#include <math.h>
#include <stdint.h>

#include "board.h"
#include "nnue.h"
#include "nnue_train.h"
#include "test.h"

enum { SAMPLES = 400 };

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

int main(void)
{
    board_init();
    static NnueSample samples[SAMPLES];
    static uint8_t sqs[SAMPLES][NNUE_MAX_ACTIVE], pieces[SAMPLES][NNUE_MAX_ACTIVE];
    static int counts[SAMPLES], sides[SAMPLES];
    Board *b = malloc(sizeof *b);
    uint64_t rng = 12345;
    /* Positions of random games, labelled by material (a target the network can learn). */
    for (int k = 0; k < SAMPLES; k++) {
        board_startpos(b);
        const int plies = 10 + (int)(rng_next(&rng) % 60);
        for (int p = 0; p < plies; p++) {
            MoveList list;
            board_generate(b, GEN_ALL, &list);
            if (list.count == 0)
                break;
            board_make(b, list.moves[rng_next(&rng) % (uint64_t)list.count]);
        }
        int n = 0, material = 0;
        static const int VALUE[PT_NB] = {0, 0, 20, 20, 40, 90, 45, 10};
        for (int s = 0; s < SQ_NB; s++)
            if (b->sq[s]) {
                sqs[k][n] = (uint8_t)s;
                pieces[k][n] = b->sq[s];
                material += (piece_color(b->sq[s]) == RED ? 1 : -1) * VALUE[piece_type(b->sq[s])] * 10;
                n++;
            }
        counts[k] = n;
        sides[k] = b->side;
        nnue_sample_make(&samples[k], n, sqs[k], pieces[k], b->side, material, material > 0 ? 1 : material < 0 ? 0 : 0.5);
    }
    /* The trainer fits them: the loss falls by more than half. */
    NnueTrainOptions o;
    nnue_train_options_init(&o);
    o.threads = 2;
    o.lr = 0.01;
    NnueTrainer *t = nnue_trainer_new(7, 2);
    CHECK(t != NULL);
    const double before = nnue_loss(t, samples, SAMPLES, &o);
    for (int e = 0; e < 40; e++)
        nnue_train_batch(t, samples, SAMPLES, &o);
    const double after = nnue_loss(t, samples, SAMPLES, &o);
    printf("loss %.6f -> %.6f\n", before, after);
    CHECK(after < before * 0.5);

    /* Integer against float: within a few centipawns on average. */
    NnueNet *net = malloc(sizeof *net), *back = malloc(sizeof *back);
    nnue_quantise(t, net);
    double diff = 0;
    for (int k = 0; k < SAMPLES; k++)
        diff += fabs(nnue_evaluate_pieces(net, counts[k], sqs[k], pieces[k], sides[k]) - nnue_float_eval(t, &samples[k]));
    printf("integer against float: mean |difference| %.2f cp\n", diff / SAMPLES);
    CHECK(diff / SAMPLES < 5);

    /* The file round-trips; damage and truncation are refused. */
    /* A file in the working directory: tmpfile() needs the root directory on Windows. */
    const char *path = "test_nnue_net.tmp";
    FILE *f = fopen(path, "w+b");
    CHECK(f && nnue_write(f, net));
    const size_t size = nnue_file_size();
    uint8_t *bytes = malloc(size + 1);
    rewind(f);
    CHECK(fread(bytes, 1, size + 1, f) == size);
    fclose(f);
    remove(path);
    char err[256];
    CHECK(nnue_read(bytes, size, back, err, sizeof err));
    CHECK(memcmp(net, back, sizeof *net) == 0);
    CHECK(!nnue_read(bytes, size - 1, back, err, sizeof err) && strstr(err, "bytes") != NULL);
    bytes[size / 2] ^= 1;
    CHECK(!nnue_read(bytes, size, back, err, sizeof err) && strstr(err, "checksum") != NULL);
    bytes[0] = 'X';
    CHECK(!nnue_read(bytes, size, back, err, sizeof err) && strstr(err, "CXNN") != NULL);
    CHECK(!nnue_read(bytes, 3, back, err, sizeof err));
    free(bytes);
    free(back);
    free(net);
    nnue_trainer_free(t);
    free(b);
    TEST_END();
}
