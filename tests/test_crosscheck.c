/* test_crosscheck.c — the move generator against a deliberately simple,
 * separately written reference: the reference scans a 10x9 grid with plain
 * loops and shares no table or helper with board/. For every test position
 * the set of legal (from, to) pairs must agree, and so must board_is_legal()
 * on all 90x90 pairs, board_gives_check(), the capture/quiet split,
 * board_count_legal() and board_has_legal_move() (also after every legal
 * move, where the checks are), and board_threats() on every point. Positions: every perft.epd position and
 * positions reached by seeded random legal play. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "test.h"

/* ------------------------------------------------------------ reference */

typedef struct Grid {
    int pc[10][9]; /* 0 empty; +type red, -type black (types as in board.h) */
} Grid;

static void grid_from_board(const Board *b, Grid *g)
{
    for (int r = 0; r < 10; r++)
        for (int f = 0; f < 9; f++) {
            Piece p = b->sq[r * 9 + f];
            g->pc[r][f] = p ? (piece_color(p) == RED ? piece_type(p) : -piece_type(p)) : 0;
        }
}

static int color_of(int v) { return v > 0 ? RED : BLACK; }
static int iabs(int v) { return v < 0 ? -v : v; }

static bool in_palace(int c, int f, int r)
{
    return f >= 3 && f <= 5 && (c == RED ? (r >= 0 && r <= 2) : (r >= 7 && r <= 9));
}

static int between(const Grid *g, int f1, int r1, int f2, int r2)
{
    int n = 0;
    if (r1 == r2) {
        for (int f = (f1 < f2 ? f1 : f2) + 1; f < (f1 < f2 ? f2 : f1); f++)
            n += g->pc[r1][f] != 0;
    } else {
        for (int r = (r1 < r2 ? r1 : r2) + 1; r < (r1 < r2 ? r2 : r1); r++)
            n += g->pc[r][f1] != 0;
    }
    return n;
}

/* Does the piece on (f1, r1) move or capture to (f2, r2) by the movement
 * rules alone (general safety ignored)? */
static bool ref_geometry(const Grid *g, int f1, int r1, int f2, int r2)
{
    int v = g->pc[r1][f1], w = g->pc[r2][f2];
    if (!v || (f1 == f2 && r1 == r2))
        return false;
    int c = color_of(v);
    if (w && color_of(w) == c)
        return false;
    int df = f2 - f1, dr = r2 - r1;
    switch (iabs(v)) {
    case KING: return iabs(df) + iabs(dr) == 1 && in_palace(c, f2, r2);
    case ADVISOR: return iabs(df) == 1 && iabs(dr) == 1 && in_palace(c, f2, r2);
    case ELEPHANT:
        return iabs(df) == 2 && iabs(dr) == 2 && g->pc[r1 + dr / 2][f1 + df / 2] == 0 &&
               (c == RED ? r2 <= 4 : r2 >= 5);
    case HORSE:
        if (iabs(df) == 1 && iabs(dr) == 2)
            return g->pc[r1 + dr / 2][f1] == 0;
        if (iabs(df) == 2 && iabs(dr) == 1)
            return g->pc[r1][f1 + df / 2] == 0;
        return false;
    case ROOK:
        return (df == 0 || dr == 0) && between(g, f1, r1, f2, r2) == 0;
    case CANNON:
        if (df != 0 && dr != 0)
            return false;
        return between(g, f1, r1, f2, r2) == (w ? 1 : 0);
    case PAWN: {
        int fwd = c == RED ? 1 : -1;
        bool crossed = c == RED ? r1 >= 5 : r1 <= 4;
        if (df == 0 && dr == fwd)
            return true;
        return crossed && dr == 0 && iabs(df) == 1;
    }
    }
    return false;
}

/* Does the piece on (f1, r1) attack (f2, r2), a point that holds no piece
 * of its own side? A move there, or for a cannon any point past exactly
 * one piece, empty or not. */
static bool ref_attacks(const Grid *g, int f1, int r1, int f2, int r2)
{
    if (iabs(g->pc[r1][f1]) == CANNON)
        return (f1 == f2) != (r1 == r2) && between(g, f1, r1, f2, r2) == 1;
    return ref_geometry(g, f1, r1, f2, r2);
}

/* board_threats on every point not holding a piece of the side not to move
 * (the sets say nothing there): by the pieces below a horse or cannon, and
 * by those below a rook. */
static void crosscheck_threats(const Board *b, const Grid *g)
{
    BoardThreats th;
    board_threats(b, &th);
    const int them = b->side ^ 1;
    for (int to = 0; to < SQ_NB; to++) {
        if (b->sq[to] && piece_color(b->sq[to]) == them)
            continue;
        bool below_minor = false, below_rook = false;
        for (int from = 0; from < SQ_NB; from++) {
            const Piece p = b->sq[from];
            if (!p || piece_color(p) != them || piece_type(p) == KING || piece_type(p) == ROOK ||
                !ref_attacks(g, from % 9, from / 9, to % 9, to / 9))
                continue;
            below_rook = true;
            below_minor |= piece_type(p) != HORSE && piece_type(p) != CANNON;
        }
        CHECK(sqset_has(&th.below_minor, to) == below_minor);
        CHECK(sqset_has(&th.below_rook, to) == below_rook);
    }
}

/* Is colour c's general attacked, or facing the other general? */
static bool ref_in_check(const Grid *g, int c)
{
    int kf = -1, kr = -1, ef = -1, er = -1;
    for (int r = 0; r < 10; r++)
        for (int f = 0; f < 9; f++) {
            int v = g->pc[r][f];
            if (iabs(v) == KING && color_of(v) == c) {
                kf = f;
                kr = r;
            } else if (iabs(v) == KING) {
                ef = f;
                er = r;
            }
        }
    if (kf < 0)
        return true;
    if (ef == kf && between(g, kf, kr, ef, er) == 0)
        return true;
    for (int r = 0; r < 10; r++)
        for (int f = 0; f < 9; f++) {
            int v = g->pc[r][f];
            if (v && color_of(v) != c && iabs(v) != KING && ref_geometry(g, f, r, kf, kr))
                return true;
        }
    return false;
}

static bool ref_legal(const Grid *g, int side, int from, int to)
{
    int f1 = from % 9, r1 = from / 9, f2 = to % 9, r2 = to / 9;
    int v = g->pc[r1][f1];
    if (!v || color_of(v) != side || !ref_geometry(g, f1, r1, f2, r2))
        return false;
    Grid h = *g;
    h.pc[r2][f2] = v;
    h.pc[r1][f1] = 0;
    return !ref_in_check(&h, side);
}

/* --------------------------------------------------------------- checks */

static int positions_checked;

static bool has_move(const MoveList *l, Move m)
{
    for (int i = 0; i < l->count; i++)
        if (l->moves[i] == m)
            return true;
    return false;
}

/* `kept` is exactly the moves of `all` that pass `keep`, in their order. */
static void expect_kept(const Board *b, const MoveList *all, bool (*keep)(const Board *, Move), const MoveList *kept)
{
    int n = 0;
    for (int i = 0; i < all->count; i++) {
        if (!keep(b, all->moves[i]))
            continue;
        CHECK(n < kept->count && kept->moves[n] == all->moves[i]);
        n++;
    }
    CHECK_EQ_INT(kept->count, n);
}

static void crosscheck(Board *b)
{
    Grid g;
    grid_from_board(b, &g);
    crosscheck_threats(b, &g);
    MoveList all, caps, quiets, qchecks;
    board_generate(b, GEN_ALL, &all);
    board_generate(b, GEN_CAPTURES, &caps);
    board_generate(b, GEN_QUIETS, &quiets);
    board_generate(b, GEN_QUIET_CHECKS, &qchecks);
    /* The quiet checks are the quiet moves that check, in the same order. */
    expect_kept(b, &quiets, board_gives_check, &qchecks);
    /* Before the legality test: the same moves once board_is_legal has
     * dropped the illegal ones. */
    MoveList pchecks;
    board_generate(b, GEN_QUIET_CHECKS_PSEUDO, &pchecks);
    expect_kept(b, &pchecks, board_is_legal, &qchecks);
    int ref_count = 0;
    for (int from = 0; from < SQ_NB; from++) {
        bool own = b->sq[from] && piece_color(b->sq[from]) == b->side;
        for (int to = 0; to < SQ_NB; to++) {
            Move m = move_make(from, to);
            bool ref = own && ref_legal(&g, b->side, from, to);
            bool gen = has_move(&all, m);
            ref_count += ref;
            if (ref != gen || board_is_legal(b, m) != ref) {
                char fen[128];
                board_to_fen(b, fen, sizeof fen);
                fprintf(stderr, "mismatch %d->%d ref %d gen %d is_legal %d in %s\n", from, to, ref, gen,
                        board_is_legal(b, m), fen);
                test_failures++;
                return;
            }
            if (ref) {
                bool capture = b->sq[to] != PIECE_NONE;
                CHECK(has_move(&caps, m) == capture);
                CHECK(has_move(&quiets, m) == !capture);
                bool gives = board_gives_check(b, m);
                board_make(b, m);
                Grid h;
                grid_from_board(b, &h);
                CHECK(gives == board_in_check(b));
                CHECK(board_has_legal_move(b) == (board_count_legal(b) > 0));
                CHECK(board_in_check(b) == ref_in_check(&h, b->side));
                board_unmake(b);
            }
        }
    }
    CHECK_EQ_INT(all.count, ref_count);
    CHECK_EQ_INT(caps.count + quiets.count, all.count);
    CHECK_EQ_INT(board_count_legal(b), all.count);
    CHECK(board_has_legal_move(b) == (all.count > 0));
    if (board_in_check(b)) {
        MoveList ev;
        board_generate(b, GEN_EVASIONS, &ev);
        CHECK_EQ_INT(ev.count, all.count);
    }
    positions_checked++;
}

static uint64_t rng_state = 0x1234567887654321ull;
static uint32_t rng(void) { return (uint32_t)(test_xorshift(&rng_state) >> 11); }

/* Plays seeded random legal moves from b, cross-checking every position. */
static void random_walk(Board *b, int plies)
{
    int made = 0;
    for (; made < plies; made++) {
        crosscheck(b);
        MoveList l;
        board_generate(b, GEN_ALL, &l);
        if (l.count == 0)
            break;
        /* Prefer captures now and then, to reach thin endgames too. */
        MoveList caps;
        board_generate(b, GEN_CAPTURES, &caps);
        Move m = (caps.count && rng() % 3 == 0) ? caps.moves[rng() % caps.count] : l.moves[rng() % l.count];
        board_make(b, m);
    }
    while (made-- > 0)
        board_unmake(b);
}

int main(int argc, char **argv)
{
    int games = argc > 1 ? atoi(argv[1]) : 60;
    board_init();
    static Board b;
    char err[160];

    FILE *f = fopen(CHARIOT_DATA_DIR "/perft.epd", "r");
    CHECK(f != NULL);
    char line[1024];
    int epd = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *semi = strchr(line, ';');
        if (semi)
            *semi = 0;
        if (!board_from_fen(&b, line, err, sizeof err)) {
            fprintf(stderr, "bad FEN in perft.epd: %s\n", err);
            test_failures++;
            continue;
        }
        epd++;
        random_walk(&b, 12);
    }
    if (f)
        fclose(f);
    CHECK_EQ_INT(epd, 39);

    for (int gi = 0; gi < games; gi++) {
        board_startpos(&b);
        random_walk(&b, 160);
    }
    printf("cross-checked %d positions\n", positions_checked);
    TEST_END();
}
