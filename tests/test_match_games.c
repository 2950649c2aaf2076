/* test_match_games.c — refereed games between toy engines: legal results, illegal moves, crashes, time losses, perpetual check and chase, pondering. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "match.h"
#include "test.h"

static const char *toy;

static void player(MatchPlayer *p, const char *name, const char *args, ClientProto proto, const char *tc,
                   double st)
{
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    snprintf(p->cmd, sizeof p->cmd, "%s %s", toy, args);
    p->proto = proto;
    match_tc_init(&p->tc);
    if (tc)
        CHECK(match_tc_parse(tc, &p->tc));
    if (st > 0)
        p->tc.movetime_ms = (int64_t)(st * 1000);
}

static void config(MatchGameConfig *c, const MatchPlayer *red, const MatchPlayer *black, const MatchOpening *op)
{
    memset(c, 0, sizeof *c);
    c->player[RED] = red;
    c->player[BLACK] = black;
    c->proto[RED] = red->proto;
    c->proto[BLACK] = black->proto;
    c->opening = op;
    c->timemargin_ms = 50;
    c->handshake_ms = 20000;
    c->banmoves = true;
}

/* Replays the record: every move legal, no earlier position already decided,
 * and for rule endings the arbiter's verdict on the final position. */
static void check_replay(const MatchGame *g)
{
    Board *b = malloc(sizeof *b);
    char err[128];
    CHECK(board_from_fen(b, g->start_fen, err, sizeof err));
    for (int i = 0; i < g->plies; i++) {
        GameReason why;
        if (!g->moves[i].book)
            CHECK_EQ_INT(board_game_result(b, &why), RESULT_NONE);
        CHECK(board_is_legal(b, g->moves[i].move));
        if (b->ply >= BOARD_HIST_MAX - 4)
            board_compact_history(b);
        board_make(b, g->moves[i].move);
    }
    if (g->end == MATCH_END_RULES) {
        GameReason why;
        CHECK_EQ_INT(board_game_result(b, &why), g->result);
        CHECK_EQ_INT(why, g->rule_reason);
    }
    free(b);
}

static void check_random_games(void)
{
    MatchBook book;
    CHECK(match_book_default(&book));
    MatchPlayer a, b;
    player(&a, "ucci-random", "--proto ucci --seed 11", CLIENT_PROTO_UCCI, "10+0.1", 0);
    player(&b, "uci-random", "--proto uci --seed 7", CLIENT_PROTO_UCI, "40/20", 0);
    for (int i = 0; i < 4; i++) {
        MatchGameConfig c;
        if (i % 2 == 0)
            config(&c, &a, &b, &book.items[i]);
        else
            config(&c, &b, &a, &book.items[i]);
        MatchGame g;
        CHECK(match_play_game(&c, &g));
        CHECK_EQ_INT(g.end, MATCH_END_RULES);
        CHECK(g.result != RESULT_NONE);
        CHECK(g.plies > 0);
        CHECK(g.side[RED].moves > 0 && g.side[BLACK].moves > 0);
        CHECK(g.side[RED].depth_count == g.side[RED].moves);
        CHECK_EQ_INT(g.proto[RED], i % 2 == 0 ? CLIENT_PROTO_UCCI : CLIENT_PROTO_UCI);
        check_replay(&g);

        /* The game's PGN reads back to the same moves. */
        FILE *f = tmpfile();
        CHECK(match_pgn_write(f, &g, NULL, MATCH_PGN_ICCS));
        rewind(f);
        MatchPgnGame *r = malloc(sizeof *r);
        char err[160] = "";
        CHECK_EQ_INT(match_pgn_read(f, r, err, sizeof err), 1);
        CHECK_EQ_INT(r->count, g.plies);
        CHECK_EQ_STR(r->result, match_result_string(g.result));
        free(r);
        fclose(f);
        printf("random game %d: %s %s, %d plies\n", i + 1, match_result_string(g.result), g.reason, g.plies);
        match_game_free(&g);
    }
    match_book_free(&book);
}

/* Plays one game from the given FEN (or the start) and checks how it ended. */
static void expect(const char *label, const MatchPlayer *red, const MatchPlayer *black, const char *fen,
                   MatchEnd end, GameResult result, int plies, const char *reason_part)
{
    MatchOpening op;
    char err[160];
    if (fen)
        CHECK(match_opening_parse(fen, &op, err, sizeof err));
    MatchGameConfig c;
    config(&c, red, black, fen ? &op : NULL);
    MatchGame g;
    CHECK(match_play_game(&c, &g));
    printf("%s: %s {%s} %d plies\n", label, match_result_string(g.result), g.reason, g.plies);
    if (g.end != end || g.result != result || (plies >= 0 && g.plies != plies) ||
        !strstr(g.reason, reason_part)) {
        fprintf(stderr, "%s: got end %s result %s plies %d reason '%s'\n", label, match_end_name(g.end),
                match_result_string(g.result), g.plies, g.reason);
        test_failures++;
    }
    check_replay(&g);
    match_game_free(&g);
}

static void check_misbehaviour(void)
{
    MatchPlayer good, bad;
    player(&good, "good", "--proto ucci --seed 3", CLIENT_PROTO_UCCI, "10+0.1", 0);

    player(&bad, "illegal", "--proto uci --mode illegal --after 3", CLIENT_PROTO_UCI, "10+0.1", 0);
    expect("illegal (red)", &bad, &good, NULL, MATCH_END_ILLEGAL, RESULT_BLACK_WINS, 6, "Red plays an illegal move");
    player(&bad, "illegal", "--proto ucci --mode illegal --after 0", CLIENT_PROTO_UCCI, "10+0.1", 0);
    expect("illegal (black)", &good, &bad, NULL, MATCH_END_ILLEGAL, RESULT_RED_WINS, 1, "Black plays an illegal move");

    player(&bad, "crash", "--proto ucci --mode crash --after 2", CLIENT_PROTO_UCCI, "10+0.1", 0);
    expect("crash", &good, &bad, NULL, MATCH_END_CRASH, RESULT_RED_WINS, 5, "Black's engine crashed (signal 9)");
    player(&bad, "exit", "--proto uci --mode exit --after 1", CLIENT_PROTO_UCI, "10+0.1", 0);
    expect("exit", &bad, &good, NULL, MATCH_END_CRASH, RESULT_BLACK_WINS, 2, "Red's engine exited (code 3)");

    /* never answers: loses when its 50 ms (+50 ms margin) run out */
    player(&bad, "silent", "--proto ucci --mode silent --after 1", CLIENT_PROTO_UCCI, NULL, 0.05);
    expect("silent", &bad, &good, NULL, MATCH_END_TIME, RESULT_BLACK_WINS, 2, "Red loses on time");
    /* answers after 1.5 s with a 0.2 s clock */
    player(&bad, "late", "--proto uci --mode late --delay 1500 --after 0", CLIENT_PROTO_UCI, "0.2+0", 0);
    expect("late", &good, &bad, NULL, MATCH_END_TIME, RESULT_RED_WINS, 1, "Black loses on time");

    player(&bad, "nomove", "--proto ucci --mode nomove --after 2", CLIENT_PROTO_UCCI, "10+0.1", 0);
    expect("nomove", &bad, &good, NULL, MATCH_END_NOMOVE, RESULT_BLACK_WINS, 4, "returned no move");
    player(&bad, "resign", "--proto uci --mode resign --after 1", CLIENT_PROTO_UCI, "10+0.1", 0);
    expect("resign", &good, &bad, NULL, MATCH_END_RESIGN, RESULT_RED_WINS, 3, "Black resigns");

    /* AUTO detection against a UCI-only engine, in a full game */
    player(&bad, "auto-uci", "--proto uci --seed 5", CLIENT_PROTO_AUTO, NULL, 0);
    bad.tc.depth = 2;
    MatchGameConfig c;
    config(&c, &bad, &good, NULL);
    c.adj.maxplies = 12;
    MatchGame g;
    CHECK(match_play_game(&c, &g));
    CHECK_EQ_INT(g.proto[RED], CLIENT_PROTO_UCI);
    CHECK_EQ_INT(g.end, MATCH_END_MAXPLIES);
    CHECK_EQ_INT(g.result, RESULT_DRAW);
    CHECK_EQ_INT(g.plies, 12);
    match_game_free(&g);

    /* a stop request before the start aborts the game */
    volatile sig_atomic_t stop = 1;
    c.stop = &stop;
    CHECK(match_play_game(&c, &g));
    CHECK_EQ_INT(g.end, MATCH_END_ABORTED);
    match_game_free(&g);

    /* an engine that cannot start */
    player(&bad, "missing", "", CLIENT_PROTO_UCCI, "10+0.1", 0);
    snprintf(bad.cmd, sizeof bad.cmd, "/nonexistent/engine");
    config(&c, &good, &bad, NULL);
    CHECK(!match_play_game(&c, &g));
    CHECK_EQ_INT(g.end, MATCH_END_START_FAIL);
    CHECK(strstr(g.reason, "cannot run") != NULL);
    match_game_free(&g);
}

static void check_adjudication(void)
{
    /* toy scores are (k mod 7) - 3 for its k-th move: -3, -2, -1, 0, ... */
    MatchPlayer a, b;
    player(&a, "a", "--proto ucci --seed 1", CLIENT_PROTO_UCCI, "10+0.1", 0);
    player(&b, "b", "--proto uci --seed 2", CLIENT_PROTO_UCI, "10+0.1", 0);
    MatchGameConfig c;
    MatchGame g;
    config(&c, &a, &b, NULL);
    c.adj.resign_movecount = 2;
    c.adj.resign_score = 2;
    CHECK(match_play_game(&c, &g));
    CHECK_EQ_INT(g.end, MATCH_END_ADJ_RESIGN);
    CHECK_EQ_INT(g.result, RESULT_BLACK_WINS);
    CHECK_EQ_INT(g.plies, 3);
    match_game_free(&g);

    config(&c, &a, &b, NULL);
    c.adj.draw_movecount = 2;
    c.adj.draw_score = 3;
    c.adj.draw_movenumber = 3;
    CHECK(match_play_game(&c, &g));
    CHECK_EQ_INT(g.end, MATCH_END_ADJ_DRAW);
    CHECK_EQ_INT(g.result, RESULT_DRAW);
    CHECK_EQ_INT(g.plies, 5); /* 4 quiet plies, but move number 3 starts at ply 5 */
    match_game_free(&g);

    /* book moves of an opening are kept and marked */
    MatchOpening op;
    char err[160];
    CHECK(match_opening_parse("h2e2 h9g7", &op, err, sizeof err));
    config(&c, &a, &b, &op);
    c.adj.maxplies = 6;
    CHECK(match_play_game(&c, &g));
    CHECK_EQ_INT(g.plies, 6);
    CHECK(g.moves[0].book && g.moves[1].book && !g.moves[2].book);
    CHECK(g.startpos);
    CHECK_EQ_INT(g.side[RED].moves + g.side[BLACK].moves, 4);
    match_game_free(&g);
}

static bool file_contains(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[4096];
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, needle) != NULL;
    fclose(f);
    return found;
}

static void check_repetitions(void)
{
    char log[64];
    snprintf(log, sizeof log, "/tmp/chariot_toy_%d.log", (int)getpid());
    remove(log);
    MatchPlayer red, black;
    char args[512];

    /* Perpetual check: the red rook checks from h8 and h9, the king shuffles
     * f8-f9. The position after ply 1 comes back at plies 5 and 9: the third
     * occurrence, and Red, checking every move, loses. */
    snprintf(args, sizeof args, "--proto ucci --mode script --log %s --script h7h8,h8h9,h9h8,h8h9,h9h8,h8h9", log);
    player(&red, "checker", args, CLIENT_PROTO_UCCI, "10+0.1", 0);
    player(&black, "king", "--proto uci --mode script --script f8f9,f9f8,f8f9,f9f8,f8f9,f9f8", CLIENT_PROTO_UCI,
           "10+0.1", 0);
    expect("perpetual check", &red, &black, "9/5k3/7R1/9/9/9/9/9/9/3K5 w - - 0 1", MATCH_END_RULES,
           RESULT_BLACK_WINS, 9, "perpetual check by Red");
    /* the checker was told, as a UCCI engine, that h9h8 repeats into a loss */
    CHECK(file_contains(log, "banmoves h9h8"));
    remove(log);

    /* Perpetual chase: the red rook attacks the unprotected black cannon on
     * c5 and c6 in turn; the cannon flees. Red chases every move and loses. */
    player(&red, "chaser", "--proto uci --mode script --script a4a5,a5a6,a6a5,a5a6,a6a5,a5a6", CLIENT_PROTO_UCI,
           "10+0.1", 0);
    player(&black, "cannon", "--proto ucci --mode script --script c5c6,c6c5,c5c6,c6c5,c5c6,c6c5", CLIENT_PROTO_UCCI,
           "10+0.1", 0);
    expect("perpetual chase", &red, &black, "4k4/9/9/9/2c6/R8/9/9/9/3K5 w - - 0 1", MATCH_END_RULES,
           RESULT_BLACK_WINS, 9, "perpetual chase by Red");

    /* The same chase with colours reversed: Black chases and loses. */
    player(&red, "knight", "--proto ucci --mode script --script c4c3,c3c4,c4c3,c3c4,c4c3,c3c4", CLIENT_PROTO_UCCI,
           "10+0.1", 0);
    player(&black, "chaser", "--proto ucci --mode script --script a5a4,a4a3,a3a4,a4a3,a3a4,a4a3", CLIENT_PROTO_UCCI,
           "10+0.1", 0);
    expect("perpetual chase (black)", &red, &black, "4k4/9/9/9/r8/2C6/9/9/9/3K5 b - - 0 1", MATCH_END_RULES,
           RESULT_RED_WINS, 9, "perpetual chase by Black");

    /* A plain repetition with nobody attacking: a draw. */
    player(&red, "shuffle", "--proto ucci --mode script --script d0d1,d1d0,d0d1,d1d0,d0d1", CLIENT_PROTO_UCCI,
           "10+0.1", 0);
    player(&black, "shuffle", "--proto uci --mode script --script e9e8,e8e9,e9e8,e8e9,e9e8", CLIENT_PROTO_UCI,
           "10+0.1", 0);
    expect("repetition draw", &red, &black, "4k4/9/9/9/9/2p6/P8/9/9/3K5 w - - 0 1", MATCH_END_RULES, RESULT_DRAW,
           8, "draw by repetition");
}

/* Lines of a toy's log that start with prefix. */
static int count_lines(const char *path, const char *prefix)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[8192];
    int n = 0;
    while (fgets(line, sizeof line, f))
        n += strncmp(line, prefix, strlen(prefix)) == 0;
    fclose(f);
    return n;
}

/* The last two lines of a toy's log before `quit`, as "a / b". */
static void last_commands(const char *path, char *out, size_t cap)
{
    FILE *f = fopen(path, "r");
    out[0] = '\0';
    if (!f)
        return;
    char line[8192], prev[8192] = "", last[8192] = "";
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (strcmp(line, "quit") != 0) {
            snprintf(prev, sizeof prev, "%s", last);
            snprintf(last, sizeof last, "%s", line);
        }
    }
    fclose(f);
    snprintf(out, cap, "%.100s / %.100s", prev, last);
}

/* Every engine of a finished game has been reaped: no zombie, no orphan. */
static void check_no_children(void)
{
    int st;
    pid_t pid = waitpid(-1, &st, WNOHANG);
    CHECK(pid == -1 && errno == ECHILD);
}

static void ponder_player(MatchPlayer *p, const char *name, const char *args, const char *log, ClientProto proto,
                          const char *tc)
{
    char all[512];
    snprintf(all, sizeof all, "%s --log %s", args, log);
    player(p, name, all, proto, tc, 0);
    p->ponder = true;
}

/* Both paths, in UCCI (red) and UCI (black): the UCI toy names the move its
 * twin plays (always a hit), the UCCI one names a wrong move every third time. */
static void check_ponder_hits_and_misses(const char *logr, const char *logb)
{
    MatchPlayer red, black;
    ponder_player(&red, "ucci-ponder", "--proto ucci --ponder --ponder-miss 3 --seed 9", logr, CLIENT_PROTO_UCCI,
                  "10+0.1");
    ponder_player(&black, "uci-ponder", "--proto uci --ponder --seed 9", logb, CLIENT_PROTO_UCI, "10+0.1");
    MatchGameConfig c;
    config(&c, &red, &black, NULL);
    c.adj.maxplies = 24;
    MatchGame g;
    CHECK(match_play_game(&c, &g));
    CHECK_EQ_INT(g.end, MATCH_END_MAXPLIES);
    check_replay(&g);
    check_no_children();
    const MatchSideStats *r = &g.side[RED], *b = &g.side[BLACK];
    printf("ponder: red %d hits of %d, black %d of %d\n", r->ponder_hits, r->ponders, b->ponder_hits, b->ponders);
    /* each side ponders after each of its 12 moves but the last */
    CHECK_EQ_INT(r->ponders, 11);
    CHECK_EQ_INT(b->ponders, 11);
    CHECK(r->ponder_hits > 0 && r->ponder_hits < r->ponders);
    CHECK_EQ_INT(b->ponder_hits, b->ponders);
    CHECK_EQ_INT(count_lines(logr, "setoption ponder true"), 1);
    CHECK_EQ_INT(count_lines(logb, "setoption name Ponder value true"), 1);
    /* red ponders after its last move too: black's reply ends the game */
    CHECK_EQ_INT(count_lines(logr, "go ponder time "), r->ponders + 1);
    CHECK_EQ_INT(count_lines(logb, "go ponder wtime "), b->ponders);
    CHECK_EQ_INT(count_lines(logr, "ponderhit"), r->ponder_hits);
    CHECK_EQ_INT(count_lines(logb, "ponderhit"), b->ponder_hits);
    /* a miss is stopped and synchronised before the new search, and so is
     * the ponder search the game's end cuts short */
    CHECK_EQ_INT(count_lines(logr, "stop"), r->ponders - r->ponder_hits + 1);
    CHECK_EQ_INT(count_lines(logr, "isready"), 1 + r->ponders - r->ponder_hits + 1);
    CHECK_EQ_INT(count_lines(logb, "stop"), 0);
    /* a hit needs no new go; the first move and every miss do */
    CHECK_EQ_INT(count_lines(logr, "go time "), 1 + r->ponders - r->ponder_hits);
    CHECK_EQ_INT(count_lines(logb, "go wtime "), 1);
    match_game_free(&g);
}

/* Reads the clocks of the `go` lines in a toy's log, in order. */
static int read_go_clocks(const char *path, long long own[], long long opp[], bool ponder[], int cap)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[8192];
    int n = 0;
    while (n < cap && fgets(line, sizeof line, f)) {
        long long a, b;
        if (sscanf(line, "go ponder time %lld increment %*d opptime %lld", &a, &b) == 2)
            ponder[n] = true;
        else if (sscanf(line, "go time %lld increment %*d opptime %lld", &a, &b) == 2)
            ponder[n] = false;
        else
            continue;
        own[n] = a;
        opp[n] = b;
        n++;
    }
    fclose(f);
    return n;
}

/* Time charging: red has 0.3 s for the whole game and answers a ponderhit
 * at once; black takes 0.4 s a move. Charged from `go ponder`, red would lose
 * on time at its second move; charged from `ponderhit`, it never does. Every
 * `go` tells red exactly the clock the runner keeps: the base less the time
 * recorded for each of its moves so far, and black's likewise. */
static void check_ponder_clock(const char *logr)
{
    MatchPlayer red, black;
    ponder_player(&red, "quick", "--proto ucci --usemillisec --ponder --seed 4", logr, CLIENT_PROTO_UCCI, "0.3+0");
    player(&black, "slow", "--proto uci --mode late --delay 400 --after 0 --seed 4", CLIENT_PROTO_UCI, "10+0", 0);
    MatchGameConfig c;
    config(&c, &red, &black, NULL);
    c.adj.maxplies = 10;
    MatchGame g;
    CHECK(match_play_game(&c, &g));
    printf("ponder clock: %s {%s}, red %lld ms in %d moves, %d hits\n", match_result_string(g.result), g.reason,
           (long long)g.side[RED].time_ms, g.side[RED].moves, g.side[RED].ponder_hits);
    CHECK_EQ_INT(g.end, MATCH_END_MAXPLIES);
    CHECK_EQ_INT(g.side[RED].ponders, 4);
    CHECK_EQ_INT(g.side[RED].ponder_hits, 4);
    CHECK(g.side[RED].time_ms <= 300 + c.timemargin_ms);
    long long own[16], opp[16];
    bool ponder[16];
    int n = read_go_clocks(logr, own, opp, ponder, 16);
    CHECK_EQ_INT(n, 6); /* the first go, then a go ponder after each of its 5 moves */
    long long red_used = 0, black_used = 0;
    for (int k = 0; k < n; k++) {
        CHECK_EQ_INT(ponder[k], k > 0);
        CHECK_EQ_INT(own[k], 300 - red_used);
        CHECK_EQ_INT(opp[k], 10000 - black_used);
        if (2 * k < g.plies)
            red_used += g.moves[2 * k].time_ms;
        if (k > 0)
            black_used += g.moves[2 * k - 1].time_ms;
    }
    CHECK_EQ_INT(red_used, g.side[RED].time_ms);
    match_game_free(&g);
    check_no_children();
}

/* Engines that answer `go ponder` at once (against the protocol): the early
 * answer is the move on a hit; a miss is synchronised before the new search. */
static void check_ponder_early(const char *logr)
{
    MatchPlayer red, black;
    ponder_player(&red, "early", "--proto ucci --ponder --ponder-early --ponder-miss 2 --seed 6", logr,
                  CLIENT_PROTO_UCCI, "10+0.1");
    player(&black, "plain", "--proto ucci --seed 6", CLIENT_PROTO_UCCI, "10+0.1", 0);
    MatchGameConfig c;
    config(&c, &red, &black, NULL);
    c.adj.maxplies = 16;
    MatchGame g;
    CHECK(match_play_game(&c, &g));
    CHECK_EQ_INT(g.end, MATCH_END_MAXPLIES);
    check_replay(&g);
    const MatchSideStats *r = &g.side[RED];
    CHECK_EQ_INT(r->ponders, 7);
    CHECK(r->ponder_hits > 0 && r->ponder_hits < r->ponders);
    /* an answer the runner has not read yet when the opponent's move comes
     * is read as the answer to ponderhit or stop instead: both are fine
     * (and the game's end may stop the last one) */
    int syncs = count_lines(logr, "isready"), misses = r->ponders - r->ponder_hits;
    CHECK(syncs == 1 + misses || syncs == 2 + misses);
    match_game_free(&g);
    check_no_children();
}

/* An engine that answers a stopped ponder search only after the readyok of
 * the isready sent with the stop: the runner waits for both, and the answer
 * is not taken for the next move's. */
static void check_ponder_late_stop(const char *logr)
{
    MatchPlayer red, black;
    ponder_player(&red, "late-stop", "--proto ucci --ponder --ponder-late-stop --ponder-miss 2 --seed 5", logr,
                  CLIENT_PROTO_UCCI, "10+0.1");
    player(&black, "plain", "--proto uci --seed 5", CLIENT_PROTO_UCI, "10+0.1", 0);
    MatchGameConfig c;
    config(&c, &red, &black, NULL);
    c.adj.maxplies = 16;
    MatchGame g;
    CHECK(match_play_game(&c, &g));
    CHECK_EQ_INT(g.end, MATCH_END_MAXPLIES);
    check_replay(&g);
    const MatchSideStats *r = &g.side[RED];
    CHECK_EQ_INT(r->ponders, 7);
    CHECK(r->ponder_hits > 0 && r->ponder_hits < r->ponders);
    CHECK_EQ_INT(count_lines(logr, "stop"), r->ponders - r->ponder_hits + 1);
    match_game_free(&g);
    check_no_children();
}

/* An engine that never answers the stop of a missed ponder search stalls:
 * with a clock it loses when the clock runs out, without one after -handshake. */
static void check_ponder_stall(const char *logr)
{
    MatchPlayer red, black;
    /* the same seed: the plain toy plays the move the stalling one predicts,
     * and every hint of that one is another move */
    player(&black, "plain", "--proto ucci --seed 2", CLIENT_PROTO_UCCI, "10+0.1", 0);
    ponder_player(&red, "stall", "--proto ucci --ponder --ponder-stall --ponder-miss 1 --seed 2", logr,
                  CLIENT_PROTO_UCCI, "0.2+0");
    expect("ponder stall (clock)", &red, &black, NULL, MATCH_END_TIME, RESULT_BLACK_WINS, 2,
           "Red loses on time (no answer to stop after");
    check_no_children();
    ponder_player(&red, "stall", "--proto uci --ponder --ponder-stall --ponder-miss 1 --seed 2", logr,
                  CLIENT_PROTO_UCI, NULL);
    red.tc.depth = 3;
    MatchGameConfig c;
    config(&c, &black, &red, NULL);
    c.handshake_ms = 1000;
    MatchGame g;
    CHECK(match_play_game(&c, &g));
    CHECK_EQ_INT(g.end, MATCH_END_TIME);
    CHECK_EQ_INT(g.loser, BLACK);
    CHECK(strstr(g.reason, "Black's engine stalls (no answer to stop within") != NULL);
    match_game_free(&g);
    check_no_children();
}

/* Raises a stop flag once a toy's log holds `count` lines starting with `prefix`. */
typedef struct RaiseWhen {
    volatile sig_atomic_t *flag;
    const char *log;
    const char *prefix;
    int count;
} RaiseWhen;

static void *raise_when(void *arg)
{
    RaiseWhen *r = arg;
    struct timespec ts = {0, 10 * 1000000L};
    for (int i = 0; i < 3000 && count_lines(r->log, r->prefix) < r->count; i++)
        nanosleep(&ts, NULL);
    *r->flag = 1;
    return NULL;
}

/* The game ends while an engine ponders: by the opponent's resignation, by
 * adjudication, by the user's stop. The ponder search gets `stop` and
 * `isready` (its answer read) before `quit`, and every process is reaped. */
static void check_ponder_game_end(const char *logr)
{
    MatchPlayer red, black;
    char last[256];
    ponder_player(&red, "ponderer", "--proto ucci --ponder --seed 3", logr, CLIENT_PROTO_UCCI, "10+0.1");
    player(&black, "resigner", "--proto uci --mode resign --after 2 --seed 3", CLIENT_PROTO_UCI, "10+0.1", 0);
    remove(logr);
    expect("ponder, opponent resigns", &red, &black, NULL, MATCH_END_RESIGN, RESULT_RED_WINS, 5, "Black resigns");
    last_commands(logr, last, sizeof last);
    CHECK_EQ_STR(last, "stop / isready");
    CHECK_EQ_INT(count_lines(logr, "quit"), 1);
    check_no_children();

    /* adjudicated after red's fifth ply, with black pondering */
    player(&black, "a", "--proto ucci --seed 3", CLIENT_PROTO_UCCI, "10+0.1", 0);
    MatchGameConfig c;
    config(&c, &black, &red, NULL);
    c.adj.draw_movecount = 2;
    c.adj.draw_score = 3;
    c.adj.draw_movenumber = 3;
    remove(logr);
    MatchGame g;
    CHECK(match_play_game(&c, &g));
    CHECK_EQ_INT(g.end, MATCH_END_ADJ_DRAW);
    CHECK_EQ_INT(g.plies, 5);
    last_commands(logr, last, sizeof last);
    CHECK_EQ_STR(last, "stop / isready");
    match_game_free(&g);
    check_no_children();

    /* the user stops the match while red ponders and black thinks forever */
    player(&black, "silent", "--proto uci --mode silent --after 1 --seed 3", CLIENT_PROTO_UCI, NULL, 0);
    black.tc.depth = 3;
    config(&c, &red, &black, NULL);
    volatile sig_atomic_t stop = 0;
    c.stop = &stop;
    remove(logr);
    /* once red ponders after its second move, black has gone silent */
    RaiseWhen when = {&stop, logr, "go ponder", 2};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, raise_when, &when) == 0);
    CHECK(match_play_game(&c, &g));
    pthread_join(th, NULL);
    CHECK_EQ_INT(g.end, MATCH_END_ABORTED);
    CHECK_EQ_INT(g.plies, 3);
    last_commands(logr, last, sizeof last);
    CHECK_EQ_STR(last, "stop / isready");
    match_game_free(&g);
    check_no_children();
}

static void check_ponder(void)
{
    char logr[64], logb[64];
    snprintf(logr, sizeof logr, "/tmp/chariot_ponder_r_%d.log", (int)getpid());
    snprintf(logb, sizeof logb, "/tmp/chariot_ponder_b_%d.log", (int)getpid());
    remove(logr);
    remove(logb);
    check_ponder_hits_and_misses(logr, logb);
    remove(logr);
    check_ponder_clock(logr);
    remove(logr);
    check_ponder_early(logr);
    remove(logr);
    check_ponder_late_stop(logr);
    remove(logr);
    check_ponder_stall(logr);
    check_ponder_game_end(logr);
    remove(logr);
    remove(logb);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_match_games TOY_ENGINE\n");
        return 2;
    }
    toy = argv[1];
    board_init();
    client_ignore_sigpipe();
    check_random_games();
    check_misbehaviour();
    check_adjudication();
    check_repetitions();
    check_ponder();
    TEST_END();
}
