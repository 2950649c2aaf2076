/* test_dgformat.c — datagen's binary records (engine/dgformat.c): positions
 * of random games round-trip exactly through pack/unpack and through text
 * lines, and truncated or corrupt files give an error, not a crash.
 * Usage: test_dgformat WORKDIR */
#include <stdint.h>

#include "board.h"
#include "dgformat.h"
#include "test.h"

enum { GAMES = 12, PLIES = 60 };

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void path_in(char *out, size_t n, const char *dir, const char *name) { snprintf(out, n, "%s/%s", dir, name); }

/* Writes the header and records as a binary file; count may exceed the
 * records written (a truncated file). */
static void write_bin(const char *path, const DgRecord *recs, int n, uint64_t count, size_t extra_bytes)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    DgHeader h = {0};
    h.records = count;
    uint8_t head[DG_HEADER_SIZE];
    dg_header_encode(&h, head);
    fwrite(head, 1, sizeof head, f);
    for (int i = 0; i < n; i++)
        fwrite(recs[i].b, 1, DG_RECORD_SIZE, f);
    if (extra_bytes)
        fwrite(recs[0].b, 1, extra_bytes, f);
    fclose(f);
}

/* Reads a whole file through the reader: the entries read, or -1 on error
 * (the message must name the file). */
static long read_all(const char *path, char *err, size_t errlen)
{
    DgReader r;
    DgEntry *e = malloc(sizeof *e);
    err[0] = '\0';
    if (!dg_reader_open(&r, path, err, errlen)) {
        free(e);
        return -1;
    }
    long n = 0;
    int got;
    while ((got = dg_reader_next(&r, e, err, errlen)) > 0)
        n++;
    dg_reader_close(&r);
    free(e);
    return got < 0 ? -1 : n;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_dgformat WORKDIR\n");
        return 2;
    }
    board_init();
    const char *dir = argv[1];
    static DgRecord recs[GAMES * PLIES];
    static char lines[GAMES * PLIES][DG_LINE_MAX];
    int n = 0;
    Board *b = malloc(sizeof *b);
    DgEntry *e = malloc(sizeof *e);
    uint64_t rng = 0x9E3779B97F4A7C15ULL;

    /* Random games: every position with random labels round-trips. */
    for (int g = 0; g < GAMES; g++) {
        board_startpos(b);
        for (int p = 0; p < PLIES; p++) {
            MoveList list;
            board_generate(b, GEN_ALL, &list);
            if (list.count == 0)
                break;
            board_make(b, list.moves[rng_next(&rng) % (uint64_t)list.count]);
            if (b->ply > BOARD_HIST_MAX - 16)
                board_compact_history(b);
            const int score = (int)(rng_next(&rng) % 65536) - 32768;
            const int result = (int)(rng_next(&rng) % 3);
            char err[160];
            CHECK(dg_pack(b, score, result, &recs[n], err, sizeof err));
            CHECK(dg_unpack(&recs[n], e, err, sizeof err));
            char fen_a[DG_LINE_MAX], fen_b[DG_LINE_MAX];
            board_to_fen(b, fen_a, sizeof fen_a);
            board_to_fen(&e->board, fen_b, sizeof fen_b);
            CHECK_EQ_STR(fen_a, fen_b);
            CHECK_EQ_INT(e->score_red, score);
            CHECK_EQ_INT(e->result, result);
            /* Text line -> entry -> record: the same bytes. */
            dg_format_line(e, lines[n], sizeof lines[n]);
            DgEntry *e2 = malloc(sizeof *e2);
            DgRecord again;
            CHECK(dg_parse_line(lines[n], e2, err, sizeof err));
            CHECK(dg_pack(&e2->board, e2->score_red, e2->result, &again, err, sizeof err));
            CHECK(memcmp(again.b, recs[n].b, DG_RECORD_SIZE) == 0);
            free(e2);
            n++;
        }
    }
    CHECK(n > 300);

    /* Fields that do not fit are refused with a reason. */
    {
        char err[160] = "";
        Board *big = malloc(sizeof *big);
        CHECK(board_from_fen(big, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 600", err,
                             sizeof err));
        DgRecord r;
        CHECK(!dg_pack(big, 0, DG_DRAW, &r, err, sizeof err) && err[0]);
        CHECK(board_from_fen(big, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", err,
                             sizeof err));
        CHECK(!dg_pack(big, 40000, DG_DRAW, &r, err, sizeof err));
        CHECK(!dg_parse_line("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 2 | 5", e, err,
                             sizeof err));
        CHECK(!dg_parse_line("rnbakabnr/9 | 1 | 5", e, err, sizeof err));
        CHECK(!dg_parse_line("no bars at all", e, err, sizeof err));
        free(big);
    }

    /* Files: a whole one reads back every entry, in order. */
    char path[512], err[400];
    path_in(path, sizeof path, dir, "dgformat_ok.bin");
    write_bin(path, recs, n, (uint64_t)n, 0);
    CHECK_EQ_INT(read_all(path, err, sizeof err), n);
    {
        DgReader r;
        CHECK(dg_reader_open(&r, path, err, sizeof err) && r.binary);
        int i = 0;
        while (i < n && dg_reader_next(&r, e, err, sizeof err) > 0) {
            char line[DG_LINE_MAX + 32];
            dg_format_line(e, line, sizeof line);
            CHECK_EQ_STR(line, lines[i]);
            i++;
        }
        CHECK_EQ_INT(i, n);
        dg_reader_close(&r);
    }
    /* Bytes past the committed records (a killed run) are not read. */
    path_in(path, sizeof path, dir, "dgformat_tail.bin");
    write_bin(path, recs, n, (uint64_t)n, 13);
    CHECK_EQ_INT(read_all(path, err, sizeof err), n);
    /* Truncated: the header counts more records than the file holds. */
    path_in(path, sizeof path, dir, "dgformat_short.bin");
    write_bin(path, recs, n - 1, (uint64_t)n, 7);
    CHECK_EQ_INT(read_all(path, err, sizeof err), -1);
    CHECK(strstr(err, "truncated") != NULL && strstr(err, "dgformat_short.bin") != NULL);
    /* A header cut short. */
    {
        path_in(path, sizeof path, dir, "dgformat_head.bin");
        FILE *f = fopen(path, "wb");
        fwrite("CXDG\1\0", 1, 6, f);
        fclose(f);
        CHECK_EQ_INT(read_all(path, err, sizeof err), -1);
        CHECK(strstr(err, "header") != NULL);
    }
    /* Corrupt records: a bad piece code, a reserved bit, an impossible
     * position (a general outside its palace). Each is named, none crashes. */
    {
        DgRecord bad[3];
        for (int k = 0; k < 3; k++)
            bad[k] = recs[k];
        bad[0].b[12] &= 0xF0;          /* the first piece's code becomes 0 */
        bad[1].b[11] |= 0x80;          /* bit 95 is reserved */
        memset(bad[2].b, 0, DG_RECORD_SIZE);
        bad[2].b[0] = 1;               /* a lone red general on a1 */
        bad[2].b[12] = (uint8_t)piece_make(RED, KING);
        for (int k = 0; k < 3; k++) {
            char name[64];
            snprintf(name, sizeof name, "dgformat_bad%d.bin", k);
            path_in(path, sizeof path, dir, name);
            DgRecord two[2] = {recs[5], bad[k]};
            write_bin(path, two, 2, 2, 0);
            CHECK_EQ_INT(read_all(path, err, sizeof err), -1);
            CHECK(strstr(err, "record 1") != NULL);
        }
    }
    /* A text file with a torn last line: the line is named. */
    {
        path_in(path, sizeof path, dir, "dgformat_torn.txt");
        FILE *f = fopen(path, "wb");
        fprintf(f, "%s\n%s\n2bakr3/4an3/c3b4/p3p1", lines[0], lines[1]);
        fclose(f);
        CHECK_EQ_INT(read_all(path, err, sizeof err), -1);
        CHECK(strstr(err, ":3:") != NULL);
    }
    free(e);
    free(b);
    TEST_END();
}
