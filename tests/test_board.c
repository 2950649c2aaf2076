/* test_board.c — FEN in/out, bad FENs, make/unmake exactness, board
 * invariants after every move, null moves, SEE and history compaction. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "test.h"

static Board b, c;

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rng(void) { return (uint32_t)(test_xorshift(&rng_state) >> 11); }

/* Everything but the history beyond the current entry must be restored. */
static bool same_board(const Board *x, const Board *y)
{
    return memcmp(x, y, offsetof(Board, hist)) == 0 &&
           memcmp(x->hist, y->hist, sizeof(HistEntry) * (size_t)(x->ply + 1)) == 0;
}

static void expect_bad(const char *fen, const char *fragment)
{
    char err[160] = "";
    board_startpos(&b);
    c = b;
    bool ok = board_from_fen(&b, fen, err, sizeof err);
    CHECK(!ok);
    CHECK(same_board(&b, &c));
    if (!strstr(err, fragment)) {
        fprintf(stderr, "FEN '%.60s': message '%s' lacks '%s'\n", fen, err, fragment);
        test_failures++;
    }
}

static void test_fen_round_trip(void)
{
    FILE *f = fopen(CHARIOT_DATA_DIR "/perft.epd", "r");
    CHECK(f != NULL);
    char line[1024], err[160], out[128], again[128];
    int n = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        *strchr(line, ';') = 0;
        CHECK(board_from_fen(&b, line, err, sizeof err));
        board_to_fen(&b, out, sizeof out);
        /* The canonical form keeps board, side and counters. */
        CHECK(strncmp(out, line, strcspn(line, " ")) == 0);
        CHECK(board_from_fen(&c, out, err, sizeof err));
        board_to_fen(&c, again, sizeof again);
        CHECK_EQ_STR(out, again);
        CHECK(b.key == c.key);
        n++;
    }
    if (f)
        fclose(f);
    CHECK_EQ_INT(n, 39);

    board_startpos(&b);
    board_to_fen(&b, out, sizeof out);
    CHECK_EQ_STR(out, BOARD_START_FEN);
    /* Aliases, side letters and missing counters. */
    CHECK(board_from_fen(&c, "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r", err, sizeof err));
    CHECK(c.key == b.key);
    CHECK(board_from_fen(&c, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", err, sizeof err));
    CHECK(c.key == b.key);
    CHECK(board_from_fen(&c, "  startpos", err, sizeof err));
    CHECK(c.key == b.key);
    CHECK(board_from_fen(&c, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12", err,
                         sizeof err));
    CHECK(c.key != b.key);
    CHECK_EQ_INT(board_rule60(&c), 7);
    board_to_fen(&c, out, sizeof out);
    CHECK_EQ_STR(out, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 12");
}

static void test_bad_fens(void)
{
    expect_bad("4k4/9/9/9/9/9/9/9/4K4 w", "the board has 9 ranks");
    expect_bad("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/9/RNBAKABNR w", "more than 10 ranks");
    expect_bad("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/8/RNBAKABNR w", "rank 1 has 8 files");
    expect_bad("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w", "more than 9 files");
    expect_bad("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w", "unknown piece letter 'X'");
    expect_bad("rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "missing black general");
    expect_bad("4k4/9/9/9/9/4K4/9/9/9/9 w", "general on e4");
    expect_bad("4k4/9/9/9/9/9/9/9/3KK4/9 w", "too many red generals");
    expect_bad("4k4/9/9/9/9/9/9/9/9/RRR1K4 w", "too many red rooks");
    expect_bad("4k4/9/9/9/PPPPPP3/9/9/9/9/4K4 w", "too many red pawns");
    expect_bad("4k4/9/9/9/9/9/9/9/9/A3K4 w", "advisor on a0");
    expect_bad("4k4/9/9/9/9/9/9/9/3A5/4K4 w", "advisor on d1");
    expect_bad("4k4/9/9/9/4B4/9/9/9/9/4K4 w", "elephant on e5");
    expect_bad("4k4/9/9/9/9/9/9/9/P8/4K4 w", "pawn on a1");
    expect_bad("4k4/9/9/9/9/9/1P7/9/9/4K4 w", "pawn on b3");
    expect_bad("4k4/9/9/9/9/9/9/9/9/4K4 w", "could capture the enemy general");
    expect_bad("4k4/9/9/9/9/9/9/9/4R4/3K5 w", "could capture the enemy general");
    expect_bad("4k4/9/9/9/9/9/9/9/9/3K5 x", "side to move");
    expect_bad("4k4/9/9/9/9/9/9/9/9/3K5 w - - abc 1", "bad counter");
    expect_bad("", "empty");
    expect_bad("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 extra words here", "unexpected text");

    /* 10 KB of garbage, and every prefix of a good FEN. */
    static char junk[10241];
    for (int i = 0; i < 10240; i++)
        junk[i] = (char)(1 + rng() % 255);
    junk[10240] = 0;
    char err[160];
    CHECK(!board_from_fen(&b, junk, err, sizeof err));
    memset(junk, '9', 10240);
    CHECK(!board_from_fen(&b, junk, err, sizeof err));
    memset(junk, '/', 10240);
    CHECK(!board_from_fen(&b, junk, err, sizeof err));
    char prefix[128];
    size_t len = strlen(BOARD_START_FEN);
    for (size_t n = 0; n < len; n++) {
        memcpy(prefix, BOARD_START_FEN, n);
        prefix[n] = 0;
        bool ok = board_from_fen(&b, prefix, err, sizeof err);
        (void)ok; /* either way: no crash, and a message when it fails */
        CHECK(ok || err[0]);
    }
}

/* Random games: every make and unmake keeps the invariants, and unmaking
 * everything restores the board exactly. */
static void test_make_unmake(void)
{
    char err[160];
    for (int game = 0; game < 40; game++) {
        board_startpos(&b);
        c = b;
        int plies = 0;
        for (; plies < 300; plies++) {
            MoveList l;
            board_generate(&b, GEN_ALL, &l);
            if (!l.count)
                break;
            Move m = l.moves[rng() % l.count];
            Board before = b;
            /* The look-ahead helpers agree with the move once made. */
            uint64_t key_after = board_key_after(&b, m);
            int rule60_after = board_rule60_after(&b, m);
            bool may_repeat = board_may_repeat_after(&b, m);
            board_make(&b, m);
            CHECK(b.key == key_after);
            CHECK_EQ_INT(board_rule60(&b), rule60_after);
            if (!may_repeat)
                CHECK_EQ_INT(board_repetition(&b, 0, 1), REP_NONE);
            if (!board_validate(&b, err, sizeof err)) {
                fprintf(stderr, "after make: %s\n", err);
                test_failures++;
                return;
            }
            if (rng() % 4 == 0) {
                board_unmake(&b);
                CHECK(same_board(&b, &before));
                board_make(&b, m);
            }
            if (!board_in_check(&b) && rng() % 5 == 0) {
                Board pre_null = b;
                board_make_null(&b);
                CHECK(b.side != pre_null.side && b.key != pre_null.key);
                board_unmake_null(&b);
                CHECK(same_board(&b, &pre_null));
            }
        }
        while (b.ply > 0) {
            board_unmake(&b);
            if (!board_validate(&b, err, sizeof err)) {
                fprintf(stderr, "after unmake: %s\n", err);
                test_failures++;
                return;
            }
        }
        CHECK(same_board(&b, &c));
    }
}

static void test_see(void)
{
    char err[160];
    /* Rook takes a pawn defended by a pawn: loses the exchange. */
    CHECK(board_from_fen(&b, "4k4/9/9/4p4/4p4/9/9/9/4R4/3K5 w", err, sizeof err));
    CHECK_EQ_INT(board_see(&b, move_from_iccs("e1e5")), 100 - 900);
    /* Rook takes an undefended cannon. */
    CHECK(board_from_fen(&b, "4k4/9/9/9/4c4/9/9/9/4R4/3K5 w", err, sizeof err));
    CHECK_EQ_INT(board_see(&b, move_from_iccs("e1e5")), 450);
    /* Cannon captures a horse over a screen and a rook takes it back. */
    CHECK(board_from_fen(&b, "3k5/9/9/4r4/4n4/9/4P4/4C4/9/5K3 w", err, sizeof err));
    CHECK_EQ_INT(board_see(&b, move_from_iccs("e2e5")), 400 - 450);
    CHECK(board_from_fen(&b, "3k5/9/9/9/4n4/9/4P4/4C4/9/5K3 w", err, sizeof err));
    CHECK_EQ_INT(board_see(&b, move_from_iccs("e2e5")), 400);
}

/* The early-stopping exchange agrees with the whole one at every threshold
 * (around each value, where the comparison turns), for every legal move of
 * positions from random games, and so does board_see_ge_made after it. */
static void test_see_reaches(void)
{
    static const int offsets[] = {-1000, -451, -450, -401, -400, -101, -100, -1, 0, 1, 100, 101, 400, 450, 901};
    for (int game = 0; game < 30; game++) {
        board_startpos(&b);
        for (int plies = 0; plies < 200; plies++) {
            MoveList l;
            board_generate(&b, GEN_ALL, &l);
            if (!l.count)
                break;
            for (int i = 0; i < l.count; i++) {
                int v = board_see(&b, l.moves[i]);
                for (size_t k = 0; k < sizeof offsets / sizeof offsets[0]; k++) {
                    int t = v + offsets[k];
                    if (board_see_reaches(&b, l.moves[i], t) != (v >= t)) {
                        fprintf(stderr, "see_reaches: move %d value %d threshold %d\n", l.moves[i], v, t);
                        test_failures++;
                        return;
                    }
                    CHECK(board_see_reaches(&b, l.moves[i], offsets[k]) == (v >= offsets[k]));
                }
                /* The same answer read off the board after the move. */
                board_make(&b, l.moves[i]);
                for (size_t k = 0; k < sizeof offsets / sizeof offsets[0]; k++)
                    CHECK(board_see_ge_made(&b, v + offsets[k]) == (v >= v + offsets[k]));
                board_unmake(&b);
            }
            /* Captures first, so the games keep exchanges on the board. */
            Move m = l.moves[rng() % l.count];
            for (int i = 0; i < l.count && rng() % 2; i++)
                if (board_is_capture(&b, l.moves[i]))
                    m = l.moves[i];
            board_make(&b, m);
        }
    }
}

static void test_compaction(void)
{
    board_startpos(&b);
    /* Shuffle horses back and forth far beyond half the history. */
    const char *cycle[4] = {"b0c2", "b9c7", "c2b0", "c7b9"};
    for (int i = 0; i < BOARD_HIST_MAX - 200; i++) {
        board_make(&b, move_from_iccs(cycle[i % 4]));
        board_compact_history(&b);
    }
    char err[160];
    CHECK(b.ply < BOARD_HIST_MAX / 2 + 4);
    CHECK(board_validate(&b, err, sizeof err));
    CHECK_EQ_INT(b.hist[b.ply].rule60, BOARD_HIST_MAX - 200);
}

/* The square tables agree with the arithmetic for every byte value. */
static void test_square_tables(void)
{
    for (int s = 0; s < 256; s++) {
        CHECK(sq_file(s) == s % FILE_NB);
        CHECK(sq_rank(s) == s / FILE_NB);
    }
}

int main(void)
{
    board_init();
    test_square_tables();
    test_fen_round_trip();
    test_bad_fens();
    test_make_unmake();
    test_see();
    test_see_reaches();
    test_compaction();
    TEST_END();
}
