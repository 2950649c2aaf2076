/* test_egtb.c — the endgame tables: their move generator against the board's,
 * every probed value against the values of its successors (the definition of
 * distance to mate), and two known mates from the puzzle file. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "egtb.h"
#include "test.h"

enum { RANDOM_POSITIONS = 4000, FEN_LEN = 128 };

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint32_t rng_next(void) { return (uint32_t)(test_xorshift(&rng_state) >> 16); }

/* Squares as (file, rank) for the defending (Black) side's guards. */
static const int ADVISOR_PTS[5][2] = {{3, 9}, {5, 9}, {4, 8}, {3, 7}, {5, 7}};
static const int ELEPHANT_PTS[7][2] = {{2, 9}, {6, 9}, {0, 7}, {4, 7}, {8, 7}, {2, 5}, {6, 5}};

/* A random position of one covered material, as a FEN: Red attacks with
 * `major` ('R', 'N' or 'C'); with `flip` the colours and ranks are swapped,
 * so that Black attacks. Returns false when two pieces collided. */
static bool random_fen(char major, int na, int nb, bool flip, char *out)
{
    char grid[RANK_NB][FILE_NB];
    memset(grid, 0, sizeof grid);
    int f, r;
#define PUT(F, R, C)                         \
    do {                                     \
        if (grid[R][F])                      \
            return false;                    \
        grid[R][F] = (C);                    \
    } while (0)
    f = 3 + (int)(rng_next() % 3), r = (int)(rng_next() % 3);
    PUT(f, r, 'K');
    f = (int)(rng_next() % FILE_NB), r = (int)(rng_next() % RANK_NB);
    PUT(f, r, major);
    f = 3 + (int)(rng_next() % 3), r = 7 + (int)(rng_next() % 3);
    PUT(f, r, 'k');
    for (int i = 0; i < na; i++) {
        int k = (int)(rng_next() % 5);
        PUT(ADVISOR_PTS[k][0], ADVISOR_PTS[k][1], 'a');
    }
    for (int i = 0; i < nb; i++) {
        int k = (int)(rng_next() % 7);
        PUT(ELEPHANT_PTS[k][0], ELEPHANT_PTS[k][1], 'b');
    }
#undef PUT
    char *o = out;
    for (int row = 0; row < RANK_NB; row++) {
        int rank = flip ? row : RANK_NB - 1 - row, empty = 0;
        for (int file = 0; file < FILE_NB; file++) {
            char c = grid[rank][file];
            if (!c) {
                empty++;
                continue;
            }
            if (empty)
                *o++ = (char)('0' + empty), empty = 0;
            if (flip)
                c = (char)(c >= 'a' ? c - 'a' + 'A' : c - 'A' + 'a');
            *o++ = c;
        }
        if (empty)
            *o++ = (char)('0' + empty);
        if (row < RANK_NB - 1)
            *o++ = '/';
    }
    sprintf(o, " %c - - 0 1", rng_next() % 2 ? 'w' : 'b');
    return true;
}

static int move_cmp(const void *a, const void *b)
{
    return (int)*(const Move *)a - (int)*(const Move *)b;
}

/* The value of a child position, for the side that moved into it: a child
 * the tables do not cover (the attacker was taken) is a draw. */
static EgtbValue child_value(Egtb *tb, const Board *b)
{
    EgtbValue v = {EGTB_DRAW, 0};
    if (egtb_covers(b))
        CHECK(egtb_probe(tb, b, true, &v));
    return v;
}

static void check_position(Egtb *tb, Board *b, const char *fen, int *wins, int *losses)
{
    /* The tables' generator against the board's. */
    Move mine[MAX_MOVES];
    MoveList list;
    int n = egtb_test_moves(tb, b, mine);
    board_generate(b, GEN_ALL, &list);
    CHECK_EQ_INT(n, list.count);
    if (n == list.count) {
        qsort(mine, (size_t)n, sizeof *mine, move_cmp);
        qsort(list.moves, (size_t)n, sizeof *mine, move_cmp);
        if (memcmp(mine, list.moves, (size_t)n * sizeof *mine) != 0) {
            fprintf(stderr, "moves differ: %s\n", fen);
            test_failures++;
        }
    }
    /* The value against its successors'. */
    EgtbValue v;
    CHECK(egtb_probe(tb, b, true, &v));
    EgtbWdl want = EGTB_LOSS;
    int best_win = -1, worst_loss = -1;
    bool any_draw = false;
    for (int i = 0; i < list.count; i++) {
        board_make(b, list.moves[i]);
        EgtbValue c = child_value(tb, b);
        board_unmake(b);
        if (c.wdl == EGTB_LOSS && (best_win < 0 || c.plies + 1 < best_win))
            best_win = c.plies + 1;
        if (c.wdl == EGTB_DRAW)
            any_draw = true;
        if (c.wdl == EGTB_WIN && c.plies + 1 > worst_loss)
            worst_loss = c.plies + 1;
    }
    int want_plies = 0;
    if (best_win >= 0)
        want = EGTB_WIN, want_plies = best_win;
    else if (any_draw)
        want = EGTB_DRAW;
    else if (list.count > 0)
        want_plies = worst_loss;
    if (v.wdl != want || v.plies != want_plies) {
        fprintf(stderr, "value %d/%d, successors say %d/%d: %s\n", v.wdl, v.plies, want, want_plies, fen);
        test_failures++;
    }
    *wins += v.wdl == EGTB_WIN;
    *losses += v.wdl == EGTB_LOSS;
    /* The best move keeps the value. */
    Move best = egtb_best_move(tb, b);
    CHECK((best == MOVE_NONE) == (list.count == 0));
    if (best != MOVE_NONE && board_is_legal(b, best)) {
        board_make(b, best);
        EgtbValue c = child_value(tb, b);
        board_unmake(b);
        if (v.wdl != EGTB_DRAW)
            CHECK(c.wdl == -v.wdl && c.plies + 1 == v.plies);
        else
            CHECK(c.wdl == EGTB_DRAW);
    }
}

static void test_random_positions(void)
{
    static const char MAJORS[3] = {'R', 'N', 'C'};
    Egtb *tb = egtb_new(NULL);
    CHECK(tb != NULL);
    Board b;
    char fen[FEN_LEN], err[128];
    int checked = 0, wins = 0, losses = 0;
    for (int i = 0; checked < RANDOM_POSITIONS && i < RANDOM_POSITIONS * 20; i++) {
        char major = MAJORS[rng_next() % 3];
        /* Horses and cannons against the smaller sets keep the test quick;
         * the rook meets every set up to the full one. */
        int na = (int)(rng_next() % 3), nb = (int)(rng_next() % 3);
        if (major != 'R' && na + nb > 2)
            continue;
        if (!random_fen(major, na, nb, rng_next() % 2, fen) || !board_from_fen(&b, fen, err, sizeof err))
            continue;
        CHECK(egtb_covers(&b));
        check_position(tb, &b, fen, &wins, &losses);
        checked++;
    }
    printf("egtb: %d random positions checked (%d won, %d lost for the side to move)\n", checked, wins, losses);
    CHECK(wins > 0 && losses > 0);
    egtb_free(tb);
}

/* Two long mates of tests/data/mate.epd, and their mirror images. */
static void test_known_mates(void)
{
    static const struct {
        const char *fen;
        int plies;
    } CASES[] = {
        {"2bak4/4a4/b8/9/9/2R6/9/9/9/4K4 w - - 0 1", 49},   /* ttxq-cg164: mate 25 (the file says 27) */
        {"3k1ab2/4a4/8b/9/9/9/9/9/4K4/8R w - - 0 1", 45},   /* sqyq-436, mate 23 */
        {"4k4/9/9/9/2r6/9/9/B8/4A4/2BAK4 b - - 0 1", 49}, /* cg164 with the colours swapped */
    };
    Egtb *tb = egtb_new(NULL);
    Board b;
    char err[128];
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        CHECK(board_from_fen(&b, CASES[i].fen, err, sizeof err));
        EgtbValue v;
        CHECK(egtb_probe(tb, &b, true, &v));
        CHECK_EQ_INT(v.wdl, EGTB_WIN);
        CHECK_EQ_INT(v.plies, CASES[i].plies);
    }
    /* Not covered: a pawn, or guards on the attacking side. */
    CHECK(board_from_fen(&b, "4k4/9/9/4P4/9/9/9/2R6/9/4K4 w - - 0 1", err, sizeof err));
    CHECK(!egtb_covers(&b));
    CHECK(board_from_fen(&b, "4k4/9/9/9/9/9/9/2R6/4A4/4K4 w - - 0 1", err, sizeof err));
    CHECK(!egtb_covers(&b));
    egtb_free(tb);
}

/* A set abort flag stops a build, and leaves the table to a later one. */
static void test_abort(void)
{
    atomic_bool abort_flag;
    atomic_init(&abort_flag, true);
    Egtb *tb = egtb_new(&abort_flag);
    Board b;
    char err[128];
    EgtbValue v;
    CHECK(board_from_fen(&b, "3k5/4a4/9/9/9/9/9/9/9/4K3R w - - 0 1", err, sizeof err));
    CHECK(!egtb_probe(tb, &b, true, &v));
    atomic_store(&abort_flag, false);
    CHECK(egtb_probe(tb, &b, true, &v));
    CHECK_EQ_INT(v.wdl, EGTB_WIN);
    CHECK_EQ_INT(v.plies, 5);
    egtb_free(tb);
}

int main(void)
{
    board_init();
    test_abort();
    test_known_mates();
    test_random_positions();
    TEST_END();
}
