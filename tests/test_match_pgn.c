/* test_match_pgn.c — PGN round trip (write, read back, replay legally), opening lines and the built-in book. */
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "test.h"

/* A deterministic game: at each ply the legal move picked by a fixed hash. */
static void make_game(MatchGame *g, const char *fen, int plies)
{
    memset(g, 0, sizeof *g);
    Board *b = malloc(sizeof *b);
    char err[128];
    if (fen) {
        CHECK(board_from_fen(b, fen, err, sizeof err));
    } else {
        board_startpos(b);
    }
    board_to_fen(b, g->start_fen, sizeof g->start_fen);
    g->startpos = fen == NULL;
    snprintf(g->name[RED], sizeof g->name[RED], "Red \"quoted\" engine");
    snprintf(g->name[BLACK], sizeof g->name[BLACK], "black");
    g->started = 0;
    for (int i = 0; i < plies; i++) {
        MoveList list;
        board_generate(b, GEN_ALL, &list);
        if (list.count == 0)
            break;
        MatchMoveRecord r = {list.moves[(i * 7 + 3) % list.count], i < 2, i % 3 != 0, (i % 2 ? -1 : 1) * 37 * i,
                             i % 9 + 1, 10 * i};
        if (i == 5)
            r.score = CLIENT_MATE_SCORE - 3;
        CHECK(match_game_push(g, &r));
        board_make(b, r.move);
    }
    g->result = RESULT_DRAW;
    g->end = MATCH_END_RULES;
    g->loser = -1;
    snprintf(g->reason, sizeof g->reason, "draw by repetition {really} after a long and winding game");
    free(b);
}

static void round_trip(const char *fen, MatchPgnFormat fmt)
{
    MatchGame g;
    make_game(&g, fen, 90);
    FILE *f = tmpfile();
    MatchPgnInfo info = {"Test \"event\"", "here", 7, "10+0.1"};
    CHECK(match_pgn_write(f, &g, &info, fmt));
    CHECK(match_pgn_write(f, &g, &info, fmt)); /* two games in one file */
    rewind(f);
    MatchPgnGame *r = malloc(sizeof *r);
    char err[160] = "";
    for (int k = 0; k < 2; k++) {
        int got = match_pgn_read(f, r, err, sizeof err);
        CHECK_EQ_INT(got, 1);
        if (got != 1) {
            fprintf(stderr, "read error: %s\n", err);
            break;
        }
        CHECK_EQ_INT(r->count, g.plies);
        for (int i = 0; i < r->count && i < g.plies; i++)
            CHECK_EQ_INT(r->moves[i], g.moves[i].move);
        CHECK_EQ_STR(r->result, "1/2-1/2");
        CHECK_EQ_STR(match_pgn_tag(r, "Game") ? match_pgn_tag(r, "Game") : "", "Chinese Chess");
        CHECK_EQ_STR(match_pgn_tag(r, "Red") ? match_pgn_tag(r, "Red") : "", "Red \"quoted\" engine");
        CHECK_EQ_STR(match_pgn_tag(r, "Event") ? match_pgn_tag(r, "Event") : "", "Test \"event\"");
        CHECK_EQ_STR(match_pgn_tag(r, "Round") ? match_pgn_tag(r, "Round") : "", "7");
        CHECK_EQ_STR(match_pgn_tag(r, "Format") ? match_pgn_tag(r, "Format") : "",
                     fmt == MATCH_PGN_WXF ? "WXF" : "ICCS");
        CHECK_EQ_STR(match_pgn_tag(r, "Result") ? match_pgn_tag(r, "Result") : "", "1/2-1/2");
        CHECK((match_pgn_tag(r, "FEN") != NULL) == (fen != NULL));
        CHECK_EQ_STR(r->fen, g.start_fen);
        CHECK(strstr(r->last_comment, "draw by repetition") != NULL);
    }
    CHECK_EQ_INT(match_pgn_read(f, r, err, sizeof err), 0);
    fclose(f);
    free(r);
    match_game_free(&g);
}

static void check_pgn_text(void)
{
    /* Hand-written PGN in our format, with a black-to-move FEN. */
    const char *text = "[Game \"Chinese Chess\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1\"]\n"
                       "[Format \"ICCS\"]\n\n1... H9-G7 {+0.10/5 0.1s} 2. H0-G2 h7h0 ; a comment\n3. I0-H0 * \n";
    FILE *f = tmpfile();
    fputs(text, f);
    rewind(f);
    MatchPgnGame *r = malloc(sizeof *r);
    char err[160] = "";
    CHECK_EQ_INT(match_pgn_read(f, r, err, sizeof err), 1);
    CHECK_EQ_INT(r->count, 4);
    CHECK_EQ_STR(r->result, "*");
    fclose(f);

    /* An illegal move is reported, not replayed. */
    f = tmpfile();
    fputs("[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 2. E2-E9 1-0\n", f);
    rewind(f);
    CHECK_EQ_INT(match_pgn_read(f, r, err, sizeof err), -1);
    CHECK(strstr(err, "ply 3") != NULL);
    fclose(f);
    free(r);
}

static void check_openings(void)
{
    MatchOpening op;
    char err[160];
    CHECK(match_opening_parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", &op, err,
                              sizeof err));
    CHECK(op.startpos);
    CHECK_EQ_INT(op.count, 0);
    CHECK(match_opening_parse("h2e2 h9g7 h0g2", &op, err, sizeof err));
    CHECK(op.startpos);
    CHECK_EQ_INT(op.count, 3);
    CHECK(match_opening_parse("H2-E2 H9-G7", &op, err, sizeof err));
    CHECK_EQ_INT(op.count, 2);
    CHECK(match_opening_parse("startpos moves b2e2", &op, err, sizeof err));
    CHECK_EQ_INT(op.count, 1);
    CHECK(match_opening_parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1 moves h9g7",
                              &op, err, sizeof err));
    CHECK(!op.startpos);
    CHECK_EQ_INT(op.count, 1);
    /* EPD with operations */
    CHECK(match_opening_parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - bm h9g7; id \"x\";",
                              &op, err, sizeof err));
    CHECK(!match_opening_parse("h2e2 h2e2", &op, err, sizeof err)); /* second move illegal */
    CHECK(!match_opening_parse("not a fen at all", &op, err, sizeof err));
    CHECK(!match_opening_parse("startpos moves z9z9", &op, err, sizeof err));

    /* The built-in book is tests/data/openings.fen. */
    MatchBook file, builtin;
    CHECK(match_book_load(&file, CHARIOT_DATA_DIR "/openings.fen", err, sizeof err));
    CHECK(match_book_default(&builtin));
    CHECK_EQ_INT(builtin.count, 60);
    CHECK_EQ_INT(file.count, builtin.count);
    for (int i = 0; i < file.count && i < builtin.count; i++)
        CHECK_EQ_STR(file.items[i].fen, builtin.items[i].fen);

    /* Shuffling is a seeded permutation. */
    MatchBook a, b;
    CHECK(match_book_default(&a));
    CHECK(match_book_default(&b));
    match_book_shuffle(&a, 42);
    match_book_shuffle(&b, 42);
    int moved = 0;
    for (int i = 0; i < a.count; i++) {
        CHECK_EQ_STR(a.items[i].fen, b.items[i].fen);
        moved += strcmp(a.items[i].fen, builtin.items[i].fen) != 0;
        int found = 0;
        for (int k = 0; k < builtin.count; k++)
            found += strcmp(a.items[i].fen, builtin.items[k].fen) == 0;
        CHECK(found >= 1);
    }
    CHECK(moved > 30);
    match_book_free(&a);
    match_book_free(&b);
    match_book_free(&file);
    match_book_free(&builtin);
    CHECK(!match_book_load(&file, "/nonexistent/openings.fen", err, sizeof err));
}

int main(void)
{
    board_init();
    round_trip(NULL, MATCH_PGN_ICCS);
    round_trip(NULL, MATCH_PGN_WXF);
    round_trip("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1", MATCH_PGN_ICCS);
    round_trip("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1", MATCH_PGN_WXF);
    check_pgn_text();
    check_openings();
    TEST_END();
}
