/* test_rules.c — unit tests of board/rules.c: repetition verdicts, natural limit, material, game results. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "test.h"

/* Boards are large (the history); keep them out of the stack. */
static Board board, snapshot;

/* Loads a FEN and checks the position is legal: the side that just moved is
 * not in check and the board's invariants hold. */
static bool setup(Board *b, const char *fen)
{
    char err[160];
    if (!board_from_fen(b, fen, err, sizeof err)) {
        fprintf(stderr, "FEN rejected: %s: %s\n", fen, err);
        test_failures++;
        return false;
    }
    if (!board_validate(b, err, sizeof err)) {
        fprintf(stderr, "FEN inconsistent: %s: %s\n", fen, err);
        test_failures++;
        return false;
    }
    if (board_is_attacked(b, board_king_sq(b, b->side ^ 1), b->side)) {
        fprintf(stderr, "FEN illegal (side not to move in check): %s\n", fen);
        test_failures++;
        return false;
    }
    return true;
}

/* Plays one ICCS move ("null" is a pass), checking it is legal. */
static bool play_one(Board *b, const char *tok)
{
    if (strcmp(tok, "null") == 0) {
        board_make_null(b);
        return true;
    }
    Move m = move_from_iccs(tok);
    if (m == MOVE_NONE || !board_is_legal(b, m)) {
        fprintf(stderr, "illegal move %s at ply %d\n", tok, b->ply);
        test_failures++;
        return false;
    }
    board_make(b, m);
    return true;
}

/* Splits a space-separated move list; returns the number of moves. */
static int split_moves(const char *moves, char out[][8], int max)
{
    int n = 0;
    const char *p = moves;
    while (*p && n < max) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        int len = 0;
        while (p[len] && p[len] != ' ')
            len++;
        if (len >= 8)
            len = 7;
        memcpy(out[n], p, (size_t)len);
        out[n][len] = '\0';
        n++;
        p += len;
        while (*p && *p != ' ')
            p++;
    }
    return n;
}

static bool play(Board *b, const char *moves)
{
    char tok[256][8];
    int n = split_moves(moves, tok, 256);
    for (int i = 0; i < n; i++)
        if (!play_one(b, tok[i]))
            return false;
    return true;
}

/* Plays the moves one by one; the arbiter must see nothing until the last
 * one, then the expected result and reason. */
static void expect_game(const char *name, const char *fen, const char *moves, GameResult want, GameReason why)
{
    if (!setup(&board, fen))
        return;
    char tok[256][8];
    int n = split_moves(moves, tok, 256);
    for (int i = 0; i < n; i++) {
        if (!play_one(&board, tok[i]))
            return;
        GameReason reason = REASON_NONE;
        GameResult r = board_game_result(&board, &reason);
        if (i < n - 1 && r != RESULT_NONE) {
            fprintf(stderr, "%s: early verdict %d (%s) after move %d (%s)\n", name, r, board_reason_name(reason), i + 1,
                    tok[i]);
            test_failures++;
            return;
        }
        if (i == n - 1 && (r != want || reason != why)) {
            fprintf(stderr, "%s: got %d (%s), want %d (%s)\n", name, r, board_reason_name(reason), want,
                    board_reason_name(why));
            test_failures++;
        }
    }
}

/* Every move hist[from..to] has (or has not) given check. */
static bool all_checks(const Board *b, int from, int to, bool check)
{
    for (int k = from; k <= to; k++)
        if ((b->hist[k].check != 0) != check)
            return false;
    return true;
}

/* ------------------------------------------------------------- positions */

/* Red rook a7 checks the black king on rank 9 / rank 8 while it steps e9-e8. */
static const char PERP_CHECK_FEN[] = "4k4/9/R8/9/9/9/9/9/9/3K5 w - - 0 1";
static const char PERP_CHECK_MOVES[] = "a7a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9";

/* Red rook h0/g0 chases the unprotected black cannon h7/g7. */
static const char CHASE_FEN[] = "4k4/9/7c1/9/9/9/9/9/9/3K3R1 b - - 0 1";
static const char CHASE_MOVES[] = "h7g7 h0g0 g7h7 g0h0 h7g7 h0g0 g7h7 g0h0";
/* The same with the cannon protected by the black rook on a7: no chase. */
static const char CHASE_PROTECTED_FEN[] = "4k4/9/r6c1/9/9/9/9/9/9/3K3R1 b - - 0 1";
/* A red cannon (screens g3/h3) chases a protected black rook: a rook attacked
 * by a cannon is always chased. */
static const char CANNON_ROOK_FEN[] = "4k4/9/r5r2/9/9/9/6pp1/9/9/3K2C2 b - - 0 1";
static const char CANNON_ROOK_MOVES[] = "g7h7 g0h0 h7g7 h0g0 g7h7 g0h0 h7g7 h0g0";

/* Both sides check on every move: red cannon d2/f2 and rook f0, black rook
 * f3/d3 and cannon d4 uncover and block each other's checks. */
static const char MUTUAL_FEN[] = "5k3/9/3N5/9/9/3c5/5r3/3C5/3K5/5R3 w - - 0 1";
static const char MUTUAL_MOVES[] = "d2f2 f3d3 f2d2 d3f3 d2f2 f3d3 f2d2 d3f3";

/* Red rook alternates a check (a9) and an attack on the unprotected black
 * horse h5 (a5): one check, one chase. */
static const char CHECK_CHASE_FEN[] = "4k4/9/9/9/R6n1/9/9/9/9/3K5 w - - 0 1";
static const char CHECK_CHASE_MOVES[] = "a5a9 e9e8 a9a5 e8e9 a5a9 e9e8 a9a5 e8e9";

static const char QUIET_MOVES[] = "b0c2 b9c7 c2b0 c7b9 b0c2 b9c7 c2b0 c7b9";

/* ----------------------------------------------------------------- tests */

static void test_perpetual_check(void)
{
    expect_game("perpetual check", PERP_CHECK_FEN, PERP_CHECK_MOVES, RESULT_BLACK_WINS, REASON_PERPETUAL_CHECK);
    for (int k = 1; k <= 9; k++)
        CHECK_EQ_INT(board.hist[k].check != 0, k % 2 == 1); /* Red checks, Black's king steps do not */

    /* Search-style (2-fold in the tree): the second occurrence already counts
     * when it lies at or after the root. */
    if (!setup(&board, PERP_CHECK_FEN) || !play(&board, "a7a9 e9e8 a9a8 e8e9 a8a9"))
        return;
    CHECK_EQ_INT(board_repetition(&board, board.ply + 1, 2), REP_NONE);
    CHECK_EQ_INT(board_repetition(&board, board.ply - 4, 2), REP_WIN);
    CHECK_EQ_INT(board_repetition(&board, board.ply - 3, 2), REP_NONE); /* match before root: one is not enough */
    CHECK_EQ_INT(board_repetition(&board, board.ply - 3, 1), REP_WIN);
    /* Three plies later Red is to move: the checker itself loses. */
    if (!play(&board, "e9e8 a9a8 e8e9"))
        return;
    CHECK_EQ_INT(board_repetition(&board, board.ply - 4, 2), REP_LOSS);
    CHECK_EQ_INT(board_repetition(&board, board.ply - 4, 0), REP_LOSS);
}

static void test_perpetual_chase(void)
{
    expect_game("perpetual chase", CHASE_FEN, CHASE_MOVES, RESULT_BLACK_WINS, REASON_PERPETUAL_CHASE);
    CHECK(all_checks(&board, 1, 8, false));
    int cannon = sq_make(7, 7); /* h7 */
    CHECK_EQ_INT(board.sq[cannon], piece_make(BLACK, CANNON));
    uint16_t slot_bit = (uint16_t)(1u << board.slot[cannon]);
    CHECK_EQ_INT(board.hist[6].chased, slot_bit);
    CHECK_EQ_INT(board.hist[8].chased, slot_bit);
    CHECK_EQ_INT(board.hist[5].chased, 0); /* the cannon's escape chases nothing */
    CHECK_EQ_INT(board_repetition(&board, board.ply + 1, 2), REP_WIN);

    expect_game("protected cannon", CHASE_PROTECTED_FEN, CHASE_MOVES, RESULT_DRAW, REASON_REPETITION);
    expect_game("cannon chases rook", CANNON_ROOK_FEN, CANNON_ROOK_MOVES, RESULT_BLACK_WINS,
                REASON_PERPETUAL_CHASE);
    /* Rook against rook is mutual: not a chase. */
    expect_game("rook vs rook", "4k4/9/7r1/9/9/9/9/9/9/3K3R1 b - - 0 1", CHASE_MOVES, RESULT_DRAW,
                REASON_REPETITION);
    /* The red rook is pinned on rank 0 by the black rook i0: its capture
     * would be illegal, so it attacks nothing. */
    expect_game("pinned chaser", "4k4/9/7c1/9/9/9/9/9/9/3K3Rr b - - 0 1", CHASE_MOVES, RESULT_DRAW,
                REASON_REPETITION);
    /* A horse e6/g5 chases the unprotected cannon g7/h7. */
    expect_game("horse chases cannon", "4k4/9/6c2/4N4/9/9/9/9/9/3K5 b - - 0 1",
                "g7h7 e6g5 h7g7 g5e6 g7h7 e6g5 h7g7 g5e6", RESULT_BLACK_WINS, REASON_PERPETUAL_CHASE);
    /* A pawn across the river can be chased. */
    expect_game("crossed pawn", "4k4/9/9/9/9/9/7p1/9/9/3K3R1 b - - 0 1", "h3g3 h0g0 g3h3 g0h0 h3g3 h0g0 g3h3 g0h0",
                RESULT_BLACK_WINS, REASON_PERPETUAL_CHASE);

    /* Search-style, 2-fold: Black to move wins, then Red to move loses. */
    if (!setup(&board, CHASE_FEN) || !play(&board, "h7g7 h0g0 g7h7 g0h0 h7g7 h0g0"))
        return;
    CHECK_EQ_INT(board_repetition(&board, board.ply - 4, 2), REP_WIN);
    if (!play(&board, "g7h7"))
        return;
    CHECK_EQ_INT(board_repetition(&board, board.ply - 4, 2), REP_LOSS);
}

static void test_mutual_check(void)
{
    expect_game("mutual perpetual check", MUTUAL_FEN, MUTUAL_MOVES, RESULT_DRAW, REASON_REPETITION);
    CHECK(all_checks(&board, 1, 8, true));
    CHECK_EQ_INT(board_repetition(&board, board.ply - 4, 2), REP_DRAW);
}

static void test_check_chase_alternation(void)
{
    expect_game("one check one chase", CHECK_CHASE_FEN, CHECK_CHASE_MOVES, RESULT_DRAW, REASON_REPETITION);
    CHECK(board.hist[5].check && !board.hist[7].check);
    CHECK_EQ_INT(board_repetition(&board, board.ply - 4, 2), REP_DRAW);
}

static void test_quiet_repetition(void)
{
    expect_game("quiet repetition", BOARD_START_FEN, QUIET_MOVES, RESULT_DRAW, REASON_REPETITION);
    if (!setup(&board, BOARD_START_FEN) || !play(&board, "b0c2 b9c7 c2b0"))
        return;
    /* The look-ahead sees the coming repetition, and no other. */
    CHECK(board_may_repeat_after(&board, move_from_iccs("c7b9")));
    CHECK(!board_may_repeat_after(&board, move_from_iccs("c7e8")));
    if (!play(&board, "c7b9"))
        return;
    CHECK_EQ_INT(board_repetition(&board, board.ply - 4, 2), REP_DRAW);
    CHECK_EQ_INT(board_repetition(&board, board.ply + 1, 2), REP_NONE);
    CHECK_EQ_INT(board_repetition(&board, board.ply + 1, 1), REP_DRAW);
    /* Not a repetition after a different move. */
    if (!play(&board, "h2e2"))
        return;
    CHECK_EQ_INT(board_repetition(&board, 0, 1), REP_NONE);
}

/* Repetitions after a capture count from the capture on. */
static void test_after_capture(void)
{
    /* The rook shuffles, then takes a pawn and the shuffle goes on. */
    if (!setup(&board, "4k4/9/9/9/9/4p4/9/9/9/R2K5 w - - 0 1"))
        return;
    if (!play(&board, "a0a1 e4d4 a1a0 d4e4 a0a4 e4d4 a4d4"))
        return;
    CHECK_EQ_INT(board_rule60(&board), 0);
    if (!play(&board, "e9e8 d4d5 e8e9 d5d4"))
        return;
    CHECK_EQ_INT(board_repetition(&board, board.ply - 4, 2), REP_DRAW);
    CHECK_EQ_INT(board_repetition(&board, board.ply + 1, 2), REP_NONE); /* only the second occurrence */
    CHECK_EQ_INT(board_repetition(&board, board.ply + 1, 1), REP_DRAW);
}

/* A null move (search pass) closes the window too. */
static void test_null_window(void)
{
    /* Counter 10 so that the window reaches the start: hist[6] equals hist[0]
     * only through the passes, which lie inside the window, not at its end. */
    if (!setup(&board, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 10 1"))
        return;
    uint64_t start_key = board.key;
    if (!play(&board, "null h9g7 h2e2 null e2h2 g7h9"))
        return;
    CHECK(board.key == start_key);
    CHECK_EQ_INT(board_repetition(&board, 0, 1), REP_NONE);
    CHECK_EQ_INT(board_repetition(&board, 0, 0), REP_NONE);
    /* Ending on a pass is never a repetition either. */
    board_make_null(&board);
    CHECK_EQ_INT(board_repetition(&board, 0, 1), REP_NONE);

    /* The start position recurs at ply 6 (after a rook triangle and a pass)
     * and at ply 10: only the occurrence after the pass counts. */
    if (!setup(&board, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 20 1"))
        return;
    if (!play(&board, "a0a2 a9a8 a2a1 a8a9 a1a0 null b0c2 b9c7 c2b0 c7b9"))
        return;
    CHECK(board.key == start_key && board.hist[6].key == start_key);
    CHECK_EQ_INT(board_repetition(&board, board.ply + 1, 2), REP_NONE);
    CHECK_EQ_INT(board_repetition(&board, board.ply + 1, 1), REP_DRAW);
}

/* A piece that keeps attacking the same target does not chase it anew. */
static void test_standing_attack(void)
{
    expect_game("standing attack", "4k4/9/7c1/9/9/9/9/9/9/3K3R1 w - - 0 1", "h0h1 e9e8 h1h0 e8e9 h0h1 e9e8 h1h0 e8e9",
                RESULT_DRAW, REASON_REPETITION);
}

static void test_rule60(void)
{
    expect_game("60-move rule", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 118 60",
                "h2e2 h9g7", RESULT_DRAW, REASON_RULE60);
    CHECK_EQ_INT(board_rule60(&board), BOARD_RULE60_PLIES);
    /* A capture on the 120th ply resets the count. */
    expect_game("60-move rule reset", "4k4/9/9/9/9/p8/9/9/9/R2K5 w - - 119 1", "a0a4", RESULT_NONE,
                REASON_NONE);
    CHECK_EQ_INT(board_rule60(&board), 0);
    /* Mate on the last ply beats the natural limit. */
    expect_game("mate beats rule60", "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 119 1", "a1d1", RESULT_RED_WINS,
                REASON_CHECKMATE);
}

static void test_no_moves(void)
{
    GameReason reason;
    /* Black king e9: e8 and f9 are covered by the rooks, d9 faces the red king. */
    if (setup(&board, "4k4/R8/9/9/9/9/9/9/9/3K1R3 b - - 0 1")) {
        CHECK(!board_in_check(&board));
        CHECK_EQ_INT(board_count_legal(&board), 0);
        CHECK_EQ_INT(board_game_result(&board, &reason), RESULT_RED_WINS);
        CHECK_EQ_INT(reason, REASON_STALEMATE);
    }
    if (setup(&board, "R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1")) {
        CHECK(board_in_check(&board));
        CHECK_EQ_INT(board_count_legal(&board), 0);
        CHECK_EQ_INT(board_game_result(&board, &reason), RESULT_RED_WINS);
        CHECK_EQ_INT(reason, REASON_CHECKMATE);
    }
    /* The mirror: Red to move and mated. */
    if (setup(&board, "3k5/9/9/9/9/9/9/9/r8/4K3r w - - 0 1")) {
        CHECK(board_in_check(&board));
        CHECK_EQ_INT(board_game_result(&board, &reason), RESULT_BLACK_WINS);
        CHECK_EQ_INT(reason, REASON_CHECKMATE);
    }
    /* A mate played out through the arbiter. */
    expect_game("checkmate", "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1", "a1d1", RESULT_RED_WINS, REASON_CHECKMATE);
}

static void test_material(void)
{
    GameReason reason;
    if (setup(&board, "3ak4/4a4/4b4/9/9/9/9/9/4A4/3AK1B2 w - - 0 1")) {
        CHECK(board_insufficient_material(&board));
        CHECK_EQ_INT(board_game_result(&board, &reason), RESULT_DRAW);
        CHECK_EQ_INT(reason, REASON_INSUFFICIENT);
    }
    if (setup(&board, "4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1")) {
        CHECK(board_insufficient_material(&board));
        CHECK_EQ_INT(board_game_result(&board, &reason), RESULT_DRAW);
    }
    if (setup(&board, "3ak4/4a4/4b4/9/9/9/4p4/9/4A4/3AK1B2 w - - 0 1"))
        CHECK(!board_insufficient_material(&board));
    static const char *ONE_ATTACKER[] = {"4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1", "4k4/9/9/9/9/9/9/9/9/3K1N3 w - - 0 1",
                                         "4k4/9/9/9/9/9/9/9/9/3K1C3 w - - 0 1", "4k4/9/9/9/9/9/P8/9/9/3K5 w - - 0 1",
                                         "4k4/9/9/n8/9/9/9/9/9/3K5 w - - 0 1"};
    for (size_t i = 0; i < sizeof ONE_ATTACKER / sizeof *ONE_ATTACKER; i++)
        if (setup(&board, ONE_ATTACKER[i]))
            CHECK(!board_insufficient_material(&board));
    board_startpos(&board);
    CHECK(!board_insufficient_material(&board));
    CHECK_EQ_INT(board_game_result(&board, &reason), RESULT_NONE);
    CHECK_EQ_INT(reason, REASON_NONE);
    CHECK_EQ_INT(board_game_result(&board, NULL), RESULT_NONE);
}

/* board_repetition may only fill hist[k].chased; a second call changes nothing. */
static void test_board_restored(void)
{
    const struct {
        const char *fen, *moves;
    } CASES[] = {{CHASE_FEN, CHASE_MOVES}, {CHASE_PROTECTED_FEN, CHASE_MOVES}, {CANNON_ROOK_FEN, CANNON_ROOK_MOVES},
                 {CHECK_CHASE_FEN, CHECK_CHASE_MOVES}, {MUTUAL_FEN, MUTUAL_MOVES}, {BOARD_START_FEN, QUIET_MOVES}};
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        if (!setup(&board, CASES[i].fen) || !play(&board, CASES[i].moves))
            continue;
        /* Leave stale entries above the current one: they must survive too. */
        MoveList list;
        board_generate(&board, GEN_ALL, &list);
        if (list.count > 0) {
            board_make(&board, list.moves[0]);
            board_unmake(&board);
        }
        memcpy(&snapshot, &board, sizeof board);
        RepVerdict first = board_repetition(&board, board.ply + 1, 2);
        CHECK(first != REP_NONE);
        for (int k = 0; k < BOARD_HIST_MAX; k++) {
            if (snapshot.hist[k].chased != board.hist[k].chased) {
                CHECK(k <= board.ply && snapshot.hist[k].chased == CHASE_UNKNOWN);
                snapshot.hist[k].chased = board.hist[k].chased;
            }
        }
        CHECK(memcmp(&snapshot, &board, sizeof board) == 0);
        memcpy(&snapshot, &board, sizeof board);
        CHECK_EQ_INT(board_repetition(&board, board.ply + 1, 2), first);
        GameReason reason;
        board_game_result(&board, &reason);
        board_repetition(&board, board.ply - 4, 2);
        CHECK(memcmp(&snapshot, &board, sizeof board) == 0);
    }
}

static void test_reason_names(void)
{
    CHECK_EQ_STR(board_reason_name(REASON_CHECKMATE), "checkmate");
    CHECK_EQ_STR(board_reason_name(REASON_STALEMATE), "stalemate");
    CHECK_EQ_STR(board_reason_name(REASON_PERPETUAL_CHECK), "perpetual check");
    CHECK_EQ_STR(board_reason_name(REASON_PERPETUAL_CHASE), "perpetual chase");
    CHECK_EQ_STR(board_reason_name(REASON_REPETITION), "repetition");
    CHECK_EQ_STR(board_reason_name(REASON_RULE60), "60-move rule");
    CHECK_EQ_STR(board_reason_name(REASON_INSUFFICIENT), "insufficient material");
    CHECK_EQ_STR(board_reason_name(REASON_NONE), "none");
    CHECK_EQ_STR(board_reason_name((GameReason)99), "unknown");
}

int main(void)
{
    board_init();
    test_perpetual_check();
    test_perpetual_chase();
    test_mutual_check();
    test_check_chase_alternation();
    test_quiet_repetition();
    test_after_capture();
    test_standing_attack();
    test_null_window();
    test_rule60();
    test_no_moves();
    test_material();
    test_board_restored();
    test_reason_names();
    TEST_END();
}
