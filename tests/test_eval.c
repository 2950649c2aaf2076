/* test_eval.c — evaluation tests: colour and left-right symmetry, incremental psq, sanity values. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "endgame.h"
#include "eval.h"
#include "test.h"

enum { MAX_POSITIONS = 256, FEN_LEN = 128, RANDOM_PLIES = 60 };

static char fens[MAX_POSITIONS][FEN_LEN];
static int fen_count;

/* Adds every FEN of a file: the text before the first ';', comments skipped. */
static void load_fens(const char *name)
{
    char path[512], line[1024];
    snprintf(path, sizeof path, "%s/%s", CHARIOT_DATA_DIR, name);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    while (fgets(line, sizeof line, f) && fen_count < MAX_POSITIONS) {
        char *semi = strchr(line, ';');
        if (semi)
            *semi = '\0';
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
            line[--n] = '\0';
        if (n == 0 || line[0] == '#' || n >= FEN_LEN)
            continue;
        memcpy(fens[fen_count++], line, n + 1);
    }
    fclose(f);
}

/* Mirrors a FEN: colour (swap colours, rank r -> 9 - r, flip the side to
 * move) and/or left-right (file f -> 8 - f). Counters are kept. */
static bool mirror_fen(const char *fen, bool colour, bool leftright, char *out, size_t outlen)
{
    char grid[RANK_NB][FILE_NB];
    int row = 0, file = 0;
    const char *p = fen;
    memset(grid, '.', sizeof grid);
    for (; *p && *p != ' '; p++) {
        if (*p == '/') {
            if (file != FILE_NB)
                return false;
            row++, file = 0;
        } else if (*p >= '1' && *p <= '9') {
            file += *p - '0';
        } else {
            if (row >= RANK_NB || file >= FILE_NB)
                return false;
            grid[row][file++] = *p;
        }
    }
    if (row != RANK_NB - 1 || file != FILE_NB)
        return false;
    size_t n = 0;
    for (int r = 0; r < RANK_NB; r++) {
        int src_row = colour ? RANK_NB - 1 - r : r, empty = 0;
        for (int f = 0; f < FILE_NB; f++) {
            char c = grid[src_row][leftright ? FILE_NB - 1 - f : f];
            if (c == '.') {
                empty++;
                continue;
            }
            if (empty)
                out[n++] = (char)('0' + empty), empty = 0;
            if (colour)
                c = (char)(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c - 'A' + 'a');
            out[n++] = c;
        }
        if (empty)
            out[n++] = (char)('0' + empty);
        if (r < RANK_NB - 1)
            out[n++] = '/';
    }
    while (*p == ' ')
        p++;
    char side = *p ? *p : 'w';
    if (colour)
        side = (side == 'b' || side == 'B') ? 'w' : 'b';
    const char *rest = *p ? p + 1 : "";
    snprintf(out + n, outlen - n, " %c%s", side, rest);
    return true;
}

/* The psq sum recomputed from the mailbox. */
static int32_t psq_from_scratch(const Board *b)
{
    const BoardPsqTable *t = eval_psq_table();
    int32_t s = 0;
    for (int sq = 0; sq < SQ_NB; sq++)
        s += (*t)[b->sq[sq]][sq];
    return s;
}

static bool load(Board *b, const char *fen)
{
    char err[256];
    if (!board_from_fen(b, fen, err, sizeof err)) {
        fprintf(stderr, "bad FEN '%s': %s\n", fen, err);
        return false;
    }
    board_set_psq(b, eval_psq_table());
    return true;
}

/* Every knowledge level gives the same score after each kind of mirror. */
static void check_symmetry(const Board *b)
{
    static Board m; /* large; one at a time is enough */
    char fen[FEN_LEN], mfen[FEN_LEN + 16];
    board_to_fen(b, fen, sizeof fen);
    for (int kind = 1; kind <= 3; kind++) {
        bool colour = kind & 1, lr = kind & 2;
        CHECK(mirror_fen(fen, colour, lr, mfen, sizeof mfen));
        if (!load(&m, mfen)) {
            CHECK(false);
            continue;
        }
        CHECK_EQ_INT(m.psq, colour ? -b->psq : b->psq);
        for (int k = 0; k <= 3; k++) {
            int v = eval_evaluate(b, k), mv = eval_evaluate(&m, k);
            if (v != mv)
                fprintf(stderr, "asymmetry (mirror %s%s, knowledge %d): %s = %d, %s = %d\n", colour ? "colour" : "",
                        lr ? " left-right" : "", k, fen, v, mfen, mv);
            CHECK_EQ_INT(v, mv);
        }
    }
}

/* The search derives the eval after a null move from its parent's
 * (eval_other_side): the position with the other side to move must score
 * exactly that at every knowledge level. A term that looked at the side to
 * move would break it. */
static int other_side_checked;
static void check_other_side(Board *b)
{
    if (board_in_check(b))
        return;
    for (int k = 0; k <= 3; k++) {
        int v = eval_evaluate(b, k);
        board_make_null(b);
        int nv = eval_evaluate(b, k);
        board_unmake_null(b);
        CHECK_EQ_INT(nv, eval_other_side(v, k));
    }
    other_side_checked++;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rng_next(void) { return (uint32_t)(test_xorshift(&rng_state) >> 32); }

static void test_symmetry_and_incremental(void)
{
    static Board b;
    int positions = 0, random_positions = 0;
    for (int i = 0; i < fen_count; i++) {
        if (!load(&b, fens[i])) {
            CHECK(false);
            continue;
        }
        positions++;
        CHECK_EQ_INT(b.psq, psq_from_scratch(&b));
        check_symmetry(&b);
        check_other_side(&b);

        /* Random walk: the incremental sum must track the mailbox, and the
         * mirrors must still agree in the positions reached. */
        int32_t start_psq = b.psq;
        uint64_t start_key = b.key;
        int start_ply = b.ply, made = 0;
        for (int ply = 0; ply < RANDOM_PLIES && b.ply < BOARD_HIST_MAX - 2; ply++) {
            MoveList list;
            board_generate(&b, GEN_ALL, &list);
            if (list.count == 0)
                break;
            board_make(&b, list.moves[rng_next() % (uint32_t)list.count]);
            made++;
            CHECK_EQ_INT(b.psq, psq_from_scratch(&b));
            if (ply % 4 == 3) {
                check_symmetry(&b);
                check_other_side(&b);
                random_positions++;
            }
        }
        while (made--)
            board_unmake(&b);
        CHECK_EQ_INT(b.ply, start_ply);
        CHECK_EQ_INT(b.psq, start_psq);
        CHECK(b.key == start_key);
    }
    CHECK(positions >= 20);
    CHECK(other_side_checked >= positions);
    printf("symmetry: %d file positions, %d random positions, %d with the other side to move\n", positions,
           random_positions, other_side_checked);
}

static void test_sanity(void)
{
    static Board b;
    CHECK(load(&b, BOARD_START_FEN));
    for (int k = 0; k <= 3; k++) {
        int v = eval_evaluate(&b, k);
        CHECK(v >= -50 && v <= 50);
    }
    CHECK(load(&b, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"));
    for (int k = 0; k <= 3; k++) {
        int v = eval_evaluate(&b, k);
        CHECK(v >= -50 && v <= 50);
    }

    /* Black's a9 rook removed: Red is a rook up, whoever moves. */
    const char *red_up = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    char fen[FEN_LEN];
    for (int k = 0; k <= 3; k++) {
        snprintf(fen, sizeof fen, "%s w - - 0 1", red_up);
        CHECK(load(&b, fen));
        CHECK(eval_evaluate(&b, k) > 700);
        snprintf(fen, sizeof fen, "%s b - - 0 1", red_up);
        CHECK(load(&b, fen));
        CHECK(eval_evaluate(&b, k) < -700);
    }
    /* And the other way round: Red's i0 rook missing. */
    CHECK(load(&b, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN1 b - - 0 1"));
    for (int k = 0; k <= 3; k++)
        CHECK(eval_evaluate(&b, k) > 700);

    /* In the middlegame a crossed pawn is worth more than one at home (by
     * how much is the tuner's business: eval/weights.h; in a bare ending
     * the tuned tables need not agree, as a home pawn still crosses). */
    static Board c;
    CHECK(load(&b, BOARD_START_FEN));
    CHECK(load(&c, "rnbakabnr/9/1c5c1/p1p1p1p1p/4P4/9/P1P3P1P/1C5C1/9/RNBAKABNR w - - 0 1"));
    CHECK(eval_evaluate(&c, 0) > eval_evaluate(&b, 0));

    /* Bare kings plus defenders cannot win: knowledge scales it near zero. */
    CHECK(load(&b, "4k4/9/9/9/9/9/9/4B4/4A4/2BAK4 w - - 0 1"));
    int v0 = eval_evaluate(&b, 0), v3 = eval_evaluate(&b, 3);
    CHECK(v0 > 50);
    CHECK(v3 < 100 && v3 < v0 / 4);
}

/* The endgame table: one position of each entry's kind (Red the stronger
 * side), found as that entry; a colour-mirrored copy finds it for Black; and
 * Red's score shrinks by the entry's factor. */
static void test_endgame_table(void)
{
    static const struct {
        const char *fen;
        const char *entry;
    } cases[] = {
        {"3k5/9/9/9/9/9/9/4B4/4A4/2BAK4 w", "no rook, horse, cannon or pawn"},
        {"2bk1ab2/4a4/9/9/R8/9/9/9/9/4K4 w", "R vs full defence"},
        {"2bk2b2/4n4/9/9/R8/9/9/9/9/4K4 w", "R vs H + 2E"},
        {"3k1a3/4a4/4c4/9/R8/9/9/9/9/4K4 w", "R vs C + 2A"},
        {"2bk2b2/9/4c4/9/R8/9/9/9/9/4K4 w", "R vs C + 2E"},
        {"2bk1ab2/4a4/9/9/8r/9/9/R8/9/2C1K4 w", "R + C vs R with full defence"},
        {"3k1a3/4a4/9/2P6/8r/9/9/R8/9/4K4 w", "R + high P vs R + 2A"},
        {"3k1a3/4a4/9/9/9/9/9/9/4N4/4K4 w", "H vs 2A"},
        {"2bk2b2/9/9/9/9/9/9/9/4N4/4K4 w", "H vs 2E"},
        {"2bk1a3/9/9/9/9/9/9/9/4N4/4K4 w", "H vs A + E"},
        {"3k5/9/9/9/9/9/9/9/4N4/p3K4 w", "H vs bottom P"},
        {"2bk1ab2/4a4/9/2P6/9/9/9/9/4N4/4K4 w", "H + P vs full defence"},
        {"3k5/9/9/9/9/9/9/9/4C4/4K4 w", "lone C vs bare general or one advisor"},
        {"2bk1ab2/4a4/9/9/9/9/9/4B4/4C4/4K4 w", "C without an advisor"},
        {"2bk2b2/9/9/9/9/9/9/9/4A4/2C1K4 w", "C vs 2E"},
        {"3k1a3/4a4/9/9/9/9/9/9/4A4/2C1K4 w", "C vs 2A"},
        {"2bk1a3/9/9/9/9/9/9/9/4A4/2C1K4 w", "C vs A + E"},
        {"3k5/9/4c4/9/9/9/9/9/4A4/2C1K4 w", "C vs C"},
        {"2bk2b2/9/9/9/9/9/9/9/4A4/2C1KC3 w", "2C vs 2E"},
        {"P2k5/9/9/9/9/9/9/9/9/4K4 w", "bottom P vs bare general"},
        {"2bk2b2/9/9/9/9/9/P8/9/9/4K4 w", "P vs 2E"},
        {"2bk5/9/9/2P6/9/9/9/9/9/4K4 w", "high P vs E"},
        {"2bk1a3/9/9/2P1P4/9/9/9/9/9/4K4 w", "2 high P vs A + E"},
    };
    static Board b;
    int n = (int)(sizeof cases / sizeof cases[0]);
    CHECK_EQ_INT(n, ENDGAME_TABLE_SIZE);
    for (int i = 0; i < n; i++) {
        CHECK(load(&b, cases[i].fen));
        int found = endgame_find(&b, RED);
        if (found < 0 || strcmp(ENDGAME_TABLE[found].name, cases[i].entry) != 0)
            fprintf(stderr, "  %s: found '%s', want '%s'\n", cases[i].fen, found < 0 ? "none" : ENDGAME_TABLE[found].name,
                    cases[i].entry);
        CHECK(found >= 0 && strcmp(ENDGAME_TABLE[found].name, cases[i].entry) == 0);
        /* Where Red leads on material and tables, its full score is that
         * lead scaled by the entry, give or take the knowledge terms. */
        int v0 = eval_evaluate(&b, 0), v3 = eval_evaluate(&b, 3);
        if (found >= 0 && v0 > 0 && v3 > v0 * ENDGAME_SCALE[found] / 16 + 150)
            fprintf(stderr, "  %s: scaled %d from %d\n", cases[i].fen, v3, v0);
        if (found >= 0 && v0 > 0)
            CHECK(v3 <= v0 * ENDGAME_SCALE[found] / 16 + 150);
        /* The same with colours swapped, for Black. */
        char fen[FEN_LEN];
        CHECK(mirror_fen(cases[i].fen, true, false, fen, sizeof fen));
        CHECK(load(&b, fen));
        CHECK_EQ_INT(endgame_find(&b, BLACK), found);
    }
    /* Positions the table must leave alone: the start, a rook against a
     * bare general, two rooks against a full defence. */
    CHECK(load(&b, BOARD_START_FEN));
    CHECK_EQ_INT(endgame_find(&b, RED), -1);
    CHECK(load(&b, "3k5/9/9/9/R8/9/9/9/9/4K4 w"));
    CHECK_EQ_INT(endgame_find(&b, RED), -1);
    CHECK(load(&b, "2bk1ab2/4a4/9/9/R7R/9/9/9/9/4K4 w"));
    CHECK_EQ_INT(endgame_find(&b, RED), -1);
    printf("endgame table: %d entries, each found on its position\n", n);
}

static void test_init_idempotent(void)
{
    static BoardPsqTable copy;
    memcpy(copy, *eval_psq_table(), sizeof copy);
    eval_init();
    CHECK(memcmp(copy, *eval_psq_table(), sizeof copy) == 0);
    /* Red and Black entries mirror each other exactly. */
    const BoardPsqTable *t = eval_psq_table();
    for (int type = KING; type <= PAWN; type++)
        for (int sq = 0; sq < SQ_NB; sq++) {
            int msq = sq_make(sq_file(sq), RANK_NB - 1 - sq_rank(sq));
            int lsq = sq_make(FILE_NB - 1 - sq_file(sq), sq_rank(sq));
            CHECK_EQ_INT((*t)[piece_make(RED, type)][sq], -(*t)[piece_make(BLACK, type)][msq]);
            CHECK_EQ_INT((*t)[piece_make(RED, type)][sq], (*t)[piece_make(RED, type)][lsq]);
        }
    for (int sq = 0; sq < SQ_NB; sq++)
        CHECK_EQ_INT((*t)[PIECE_NONE][sq], 0);
}

int main(void)
{
    board_init();
    eval_init();
    load_fens("bench.fen");
    load_fens("perft.epd");
    test_init_idempotent();
    test_sanity();
    test_endgame_table();
    test_symmetry_and_incremental();
    TEST_END();
}
