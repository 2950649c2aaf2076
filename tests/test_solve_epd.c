/* test_solve_epd.c — unit tests of `chariot solve`'s EPD reader, summary and board diagram. */
#include <stdlib.h>

#include "board.h"
#include "eval.h"
#include "solve.h"
#include "test.h"

static const char *const MATE1_FEN = "2bP1N3/2R6/b4k3/4N2nc/9/C5P2/P7P/B3n3B/4Apr2/3AK3c w - - 0 1";

static SolveLineKind parse(const char *line, int lineno, SolvePuzzle *p, char *err)
{
    err[0] = '\0';
    return solve_epd_parse(line, lineno, p, err, 160);
}

static void test_good_lines(void)
{
    SolvePuzzle p;
    char err[160], line[512];

    // The mate.epd form.
    snprintf(line, sizeof line, "%s ; mate 1 ; bm e6g5 ; id \"sqyq-001-ply12\"", MATE1_FEN);
    CHECK_EQ_INT(parse(line, 3, &p, err), SOLVE_LINE_PUZZLE);
    CHECK_EQ_INT(p.line, 3);
    CHECK_EQ_INT(p.mate, 1);
    CHECK_EQ_INT(p.bm_count, 1);
    CHECK_EQ_INT(p.bm[0], move_from_iccs("e6g5"));
    CHECK_EQ_STR(p.id, "sqyq-001-ply12");
    CHECK_EQ_STR(p.fen, MATE1_FEN);

    // Fields in another order, an id holding ';', several bm, CRLF ending.
    CHECK_EQ_INT(parse("startpos ; id \"a;b\" ; bm h2e2 b2e2 ; mate 3\r\n", 1, &p, err), SOLVE_LINE_PUZZLE);
    CHECK_EQ_STR(p.id, "a;b");
    CHECK_EQ_INT(p.mate, 3);
    CHECK_EQ_INT(p.bm_count, 2);
    CHECK_EQ_INT(p.bm[1], move_from_iccs("b2e2"));
    CHECK_EQ_STR(p.fen, BOARD_START_FEN);

    // Classic EPD: the first operation follows the FEN fields directly; "dm" means mate.
    CHECK_EQ_INT(parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - bm h2e2; dm 4; id \"classic\";",
                       5, &p, err),
                 SOLVE_LINE_PUZZLE);
    CHECK_EQ_INT(p.bm_count, 1);
    CHECK_EQ_INT(p.bm[0], move_from_iccs("h2e2"));
    CHECK_EQ_INT(p.mate, 4);
    CHECK_EQ_STR(p.id, "classic");

    // Moves in WXF or Chinese; unknown opcodes ignored; a default id.
    CHECK_EQ_INT(parse("startpos ; bm C2.5 炮八平五 ; c0 \"central cannon\" ; acd 12", 7, &p, err), SOLVE_LINE_PUZZLE);
    CHECK_EQ_INT(p.bm_count, 2);
    CHECK_EQ_INT(p.bm[0], move_from_iccs("h2e2"));
    CHECK_EQ_INT(p.bm[1], move_from_iccs("b2e2"));
    CHECK_EQ_INT(p.mate, 0);
    CHECK_EQ_STR(p.id, "line 7");

    // A bare FEN (the command-line form) is a puzzle without a target.
    CHECK_EQ_INT(parse(MATE1_FEN, 0, &p, err), SOLVE_LINE_PUZZLE);
    CHECK_EQ_INT(p.mate, 0);
    CHECK_EQ_INT(p.bm_count, 0);
    CHECK_EQ_STR(p.id, "fen");

    CHECK_EQ_INT(parse("# a comment ; mate 1", 1, &p, err), SOLVE_LINE_SKIP);
    CHECK_EQ_INT(parse("   \t\n", 1, &p, err), SOLVE_LINE_SKIP);
    CHECK_EQ_INT(parse("", 1, &p, err), SOLVE_LINE_SKIP);
}

static void test_bad_lines(void)
{
    static const char *const bad[] = {
        "xyz ; mate 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w ; mate 1",
        "startpos ; mate 0",
        "startpos ; mate -2",
        "startpos ; mate abc",
        "startpos ; mate 1 2",
        "startpos ; mate 99999999999999999999",
        "startpos ; mate",
        "startpos ; bm",
        "startpos ; bm h2h8",
        "startpos ; bm zz",
        "startpos ; id \"unterminated",
        "startpos ; id \"x\" trailing",
        "startpos ; mate 1 ; mate 2",
        "startpos ; 42",
        " ; mate 1",
        "3k5/9/9/9/9/9/9/9/9/3RK4 w ; mate 1", // the side not to move is in check
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        SolvePuzzle p;
        char err[160];
        SolveLineKind kind = parse(bad[i], 9, &p, err);
        if (kind != SOLVE_LINE_BAD)
            fprintf(stderr, "accepted a malformed line: %s\n", bad[i]);
        CHECK_EQ_INT(kind, SOLVE_LINE_BAD);
        CHECK(err[0] != '\0');
    }
}

static SolveOutcome outcome(bool scored, bool solved, int64_t solve_ms)
{
    SolveOutcome o;
    memset(&o, 0, sizeof o);
    o.scored = scored;
    o.solved = solved;
    o.solve_ms = solve_ms;
    o.time_ms = 100;
    o.result.nodes = 10;
    return o;
}

static void test_summary(void)
{
    SolveOutcome o[5] = {outcome(true, true, 200), outcome(true, false, -1), outcome(true, true, 1500),
                         outcome(false, false, -1), outcome(true, true, 1000)};
    SolveSummary s;
    solve_summarize(o, 5, &s);
    CHECK_EQ_INT(s.total, 4);
    CHECK_EQ_INT(s.solved, 3);
    CHECK_EQ_INT(s.within_1s, 2);
    CHECK_EQ_INT(s.unscored, 1);
    CHECK_EQ_INT(s.median_ms, 1000);
    CHECK_EQ_INT(s.p90_ms, 1500); // nearest rank: the 3rd of 3
    CHECK_EQ_INT(s.time_ms, 500);
    CHECK_EQ_INT(s.nodes, 50);
    solve_summarize(o, 3, &s); // even count: the mean of the middle two
    CHECK_EQ_INT(s.median_ms, 850);
    CHECK_EQ_INT(s.p90_ms, 1500);
    solve_summarize(o + 1, 1, &s);
    CHECK_EQ_INT(s.median_ms, -1);
    CHECK_EQ_INT(s.p90_ms, -1);
}

static void test_format(void)
{
    char buf[64];
    solve_format_score(SCORE_MATE - 5, buf, sizeof buf);
    CHECK_EQ_STR(buf, "mate in 3");
    solve_format_score(-(SCORE_MATE - 4), buf, sizeof buf);
    CHECK_EQ_STR(buf, "mated in 2");
    solve_format_score(35, buf, sizeof buf);
    CHECK_EQ_STR(buf, "+35 cp");
    solve_format_seconds(1234, buf, sizeof buf);
    CHECK_EQ_STR(buf, "1.234s");

    SolvePuzzle p;
    memset(&p, 0, sizeof p);
    p.bm_count = 2;
    p.bm[0] = move_from_iccs("h2e2");
    p.bm[1] = move_from_iccs("b2e2");
    solve_format_expected(&p, buf, sizeof buf);
    CHECK_EQ_STR(buf, "bm h2e2 b2e2");
    p.mate = 4;
    solve_format_expected(&p, buf, sizeof buf);
    CHECK_EQ_STR(buf, "mate 4");
}

static void test_board_diagram(void)
{
    Board b;
    board_startpos(&b);
    /* A temporary file, not open_memstream, which not every C library has. */
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f)
        return;
    solve_print_board(f, &b, false);
    long n = ftell(f);
    char *text = malloc(n > 0 ? (size_t)n + 1 : 1);
    CHECK(text != NULL);
    if (!text) {
        fclose(f);
        return;
    }
    rewind(f);
    size_t got = fread(text, 1, n > 0 ? (size_t)n : 0, f);
    text[got] = '\0';
    fclose(f);
    // Black's numbers on top, Red's at the bottom, pieces in Chinese.
    CHECK(strstr(text, " １  ２  ３ ") != NULL);
    CHECK(strstr(text, " 九  八  七 ") != NULL);
    CHECK(strstr(text, " 9 [车][马][象][士][将][士][象][马][车] 9") != NULL);
    CHECK(strstr(text, " 0 (车)(马)(相)(仕)(帅)(仕)(相)(马)(车) 0") != NULL);
    CHECK(strstr(text, " 6 [卒] ・ [卒] ・ [卒] ・ [卒] ・ [卒] 6") != NULL);
    CHECK(strstr(text, "楚 河") != NULL);
    free(text);
}

int main(void)
{
    board_init();
    eval_init();
    test_good_lines();
    test_bad_lines();
    test_summary();
    test_format();
    test_board_diagram();
    TEST_END();
}
