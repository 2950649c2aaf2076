/* test_cecp.c — drives the real chariot binary through pipes in XBoard mode
 * (CECP version 2): the handshake and features, games with new/go/usermove,
 * force/undo/remove/setboard, ping ordering, pondering with a hit and a miss
 * under every command that may interrupt it, analysis, bad input and quit
 * during a search. Usage: test_cecp CHARIOT GROUP. */
#include "test_protocol_driver.h"

#include "board.h"
#include "test.h"

static const char *engine_path;

/* Red mates in one with a1a9 (the only mate). */
static const char *const FEN_MATE_IN_1 = "4k4/1R7/9/9/9/9/9/9/R8/3K5 w - - 0 1";
/* Black to move and already mated. */
static const char *const FEN_MATED = "R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1";

/* ------------------------------------------------------------- helpers */

/* The game as the test keeps it: the board and the moves played on it. */
typedef struct Game {
    Board b;
    char moves[4096];
} Game;

static void game_reset(Game *g, const char *fen)
{
    const char *text = fen ? fen : BOARD_START_FEN;
    if (!board_from_fen(&g->b, text, NULL, 0))
        fprintf(stderr, "  bad test FEN '%s'\n", text);
    g->moves[0] = '\0';
}

/* True when `move` (4 characters) is legal on the game's board. */
static bool legal_after(const Game *g, const char *move)
{
    Move m = move_from_iccs(move);
    bool ok = m != MOVE_NONE && board_is_legal(&g->b, m);
    if (!ok)
        fprintf(stderr, "  not legal after '%s': '%.4s'\n", g->moves, move);
    return ok;
}

/* Plays a legal move on the game's board (an illegal one is refused). */
static void game_push(Game *g, const char *move)
{
    if (!legal_after(g, move))
        return;
    board_make(&g->b, move_from_iccs(move));
    if (g->b.ply > BOARD_HIST_MAX - 8)
        board_compact_history(&g->b);
    size_t n = strlen(g->moves);
    snprintf(g->moves + n, sizeof g->moves - n, "%s%.4s", n ? " " : "", move);
}

/* A legal move of the side to move (the k-th in generation order), or "". */
static void some_move(const Game *g, int k, char out[5])
{
    MoveList list;
    board_generate(&g->b, GEN_ALL, &list);
    out[0] = '\0';
    if (list.count > 0)
        move_to_iccs(list.moves[k % list.count], out);
}

/* A thinking line: `ply score time nodes pv...`, every PV move legal on the
 * game's board (a line about the book starts with '('). */
static bool thinking_ok(const char *line, const Game *g)
{
    char buf[DRV_LINE];
    snprintf(buf, sizeof buf, "%s", line);
    char *save = NULL, *tok[4];
    for (int i = 0; i < 4; i++) {
        tok[i] = strtok_r(i ? NULL : buf, " ", &save);
        if (!tok[i] || strspn(tok[i] + (tok[i][0] == '-'), "0123456789") != strlen(tok[i] + (tok[i][0] == '-')))
            return false;
    }
    Game *pv = malloc(sizeof *pv);
    *pv = *g;
    bool ok = true;
    for (char *t = strtok_r(NULL, " ", &save); t && ok && t[0] != '('; t = strtok_r(NULL, " ", &save)) {
        char m[5];
        snprintf(m, sizeof m, "%.4s", t);
        ok = legal_after(pv, m);
        game_push(pv, m);
    }
    free(pv);
    return ok;
}

static bool is_thinking(const char *line) { return line[0] >= '0' && line[0] <= '9'; }

static bool start(Engine *e)
{
    if (!drv_start(e, engine_path)) {
        fprintf(stderr, "cannot start %s\n", engine_path);
        return false;
    }
    drv_send(e, "xboard");
    drv_send(e, "protover 2");
    return drv_expect(e, "feature done=1", NULL, 0, DRV_TIMEOUT);
}

/* Sends the commands of `cmds`, separated by ';', one line each. */
static void send_lines(Engine *e, const char *cmds)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", cmds);
    char *save = NULL;
    for (char *c = strtok_r(buf, ";", &save); c; c = strtok_r(NULL, ";", &save))
        drv_send(e, "%s", c);
}

/* Starts the engine for a group: the handshake, `new`, then the commands
 * of `setup`. Exits the test when the engine is missing. */
static void begin(Engine *e, const char *setup)
{
    if (!start(e))
        exit(1);
    drv_send(e, "new");
    send_lines(e, setup);
}

/* ping N / pong N: everything sent before has been done. */
static bool sync_ping(Engine *e, int n)
{
    char want[32];
    snprintf(want, sizeof want, "pong %d", n);
    drv_send(e, "ping %d", n);
    char line[DRV_LINE];
    for (;;) {
        if (drv_getline(e, line, sizeof line, DRV_TIMEOUT) != 1) {
            fprintf(stderr, "  (no '%s')\n", want);
            return false;
        }
        if (strcmp(line, want) == 0)
            return true;
    }
}

/* Reads up to the engine's `move X` (X into out, legal after `think`),
 * checking each thinking line against the game `pv` (NULL: no check, for
 * lines that may come from pondering). Fails on an error or an
 * illegal-move line. */
static bool expect_move_pv(Engine *e, const Game *think, const Game *pv, char out[5])
{
    char line[DRV_LINE];
    for (;;) {
        if (drv_getline(e, line, sizeof line, DRV_TIMEOUT) != 1) {
            fprintf(stderr, "  (no move: timeout or EOF)\n");
            return false;
        }
        if (drv_is(line, "move")) {
            snprintf(out, 5, "%.4s", line + 5);
            return legal_after(think, out);
        }
        if (drv_is(line, "Error") || drv_is(line, "Illegal")) {
            fprintf(stderr, "  unexpected: '%s'\n", line);
            return false;
        }
        if (pv && is_thinking(line) && !thinking_ok(line, pv)) {
            fprintf(stderr, "  bad thinking line: '%s'\n", line);
            return false;
        }
    }
}

static bool expect_move(Engine *e, const Game *think, char out[5]) { return expect_move_pv(e, think, think, out); }

/* Sends quit and expects a clean exit. */
static void finish(Engine *e)
{
    drv_send(e, "quit");
    CHECK_EQ_INT(drv_wait_exit(e, DRV_TIMEOUT), 0);
}

/* ------------------------------------------------------------- groups */

static void group_handshake(void)
{
    Engine e;
    if (!start(&e))
        exit(1);
    static const char *const features[] = {
        "ping=1", "setboard=1", "usermove=1", "time=1", "draw=1", "sigint=0", "sigterm=0", "reuse=1",
        "analyze=1", "san=0", "colors=0", "name=1", "memory=1", "smp=1", "myname=\"Chariot ",
        "variants=\"xiangqi\"",
    };
    bool seen[sizeof features / sizeof *features] = {false};
    int options = 0;
    CHECK(strcmp(e.lines[0], "feature done=0") == 0);
    for (int i = 0; i < e.kept; i++) {
        for (size_t k = 0; k < sizeof features / sizeof *features; k++)
            seen[k] |= drv_is(e.lines[i], "feature") && strstr(e.lines[i], features[k]) != NULL;
        options += strncmp(e.lines[i], "feature option=\"", 16) == 0;
    }
    for (size_t k = 0; k < sizeof features / sizeof *features; k++)
        if (!seen[k]) {
            fprintf(stderr, "  missing feature %s\n", features[k]);
            CHECK(false);
        }
    CHECK(options >= 8);
    CHECK(drv_all_ascii(&e));
    static const char *const option_lines[] = {
        "feature option=\"MultiPV -spin 1 1 16\"",        "feature option=\"Skill Level -spin 20 0 20\"",
        "feature option=\"OwnBook -check 1\"",            "feature option=\"Style -combo *normal /// solid /// risky\"",
        "feature option=\"Clear Hash -button\"",          "feature option=\"BookFile -file",
        "feature option=\"Move Overhead -spin",           "feature option=\"Resign -spin 1500 0 10000\"",
    };
    for (size_t k = 0; k < sizeof option_lines / sizeof *option_lines; k++) {
        bool found = false;
        for (int i = 0; i < e.kept; i++)
            found |= strncmp(e.lines[i], option_lines[k], strlen(option_lines[k])) == 0;
        if (!found) {
            fprintf(stderr, "  missing '%s'\n", option_lines[k]);
            CHECK(false);
        }
    }
    printf("handshake: %d lines\n", e.kept);

    /* What XBoard sends next: answers to the features, the engine's options,
     * memory and cores, then a new game. None of it gets a reply. */
    drv_mark(&e);
    static const char *const boot[] = {
        "accepted done", "accepted ping", "accepted setboard", "accepted usermove", "rejected playother",
        "accepted myname", "accepted variants", "accepted option", "option MultiPV=1", "option Skill Level=20",
        "option OwnBook=0", "option Style=solid", "option Clear Hash", "option Move Overhead=50", "memory 16",
        "cores 1", "new", "variant xiangqi", "random", "level 40 5 0", "post", "hard", "easy", "computer",
        "name fairy-stockfish", "rating 2000 2100", "ics -", "nopost", "white", "black", "force",
    };
    for (size_t i = 0; i < sizeof boot / sizeof *boot; i++)
        drv_send(&e, "%s", boot[i]);
    CHECK(sync_ping(&e, 1));
    CHECK_EQ_INT(e.kept, 1);
    finish(&e);
}

/* A short game: the engine plays Black, then Red after `go`. */
static void group_game(void)
{
    Engine e;
    begin(&e, "variant xiangqi;level 0 0:10 0.1;sd 4;post");
    Game g;
    game_reset(&g, NULL);
    char m[5], reply[5];
    for (int round = 0; round < 4; round++) {
        some_move(&g, round * 7 + 3, m);
        drv_send(&e, "time 1000");
        drv_send(&e, "otim 1000");
        drv_send(&e, "usermove %s", m);
        game_push(&g, m);
        CHECK(expect_move(&e, &g, reply));
        game_push(&g, reply);
    }
    printf("game: %s\n", g.moves);
    /* The engine takes over the side on move. */
    drv_send(&e, "force");
    some_move(&g, 5, m);
    drv_send(&e, "usermove %s", m);
    game_push(&g, m);
    drv_send(&e, "go");
    CHECK(expect_move(&e, &g, reply));
    game_push(&g, reply);
    CHECK(sync_ping(&e, 2));

    /* A mate in one is played and announced; the game is then over. */
    game_reset(&g, FEN_MATE_IN_1);
    drv_send(&e, "setboard %s", FEN_MATE_IN_1);
    drv_send(&e, "go");
    CHECK(expect_move(&e, &g, reply));
    CHECK_EQ_STR(reply, "a1a9");
    char line[DRV_LINE];
    CHECK(drv_expect(&e, "1-0", line, sizeof line, DRV_TIMEOUT));
    CHECK_EQ_STR(line, "1-0 {Black is mated}");
    /* Mated before it moves: the result, no move. */
    drv_mark(&e);
    drv_send(&e, "setboard %s", FEN_MATED);
    drv_send(&e, "go");
    CHECK(sync_ping(&e, 3));
    CHECK_EQ_INT(drv_count(&e, "1-0 {Black is mated}"), 1);
    CHECK_EQ_INT(drv_count(&e, "move"), 0);

    /* st: a fixed time a move; playother: the engine answers the next move. */
    send_lines(&e, "new;st 0.2;force;usermove h2e2;playother;usermove h9g7");
    game_reset(&g, NULL);
    game_push(&g, "h2e2");
    game_push(&g, "h9g7");
    CHECK(expect_move(&e, &g, reply));
    finish(&e);
}

/* force, undo, remove, setboard: each checked by the move a `go` gets. */
static void group_force(void)
{
    Engine e;
    begin(&e, "sd 2;force");
    Game g;
    char reply[5];
    static const char *const moves[] = {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"};
    for (int i = 0; i < 6; i++)
        drv_send(&e, "usermove %s", moves[i]);
    CHECK(sync_ping(&e, 1));
    CHECK_EQ_INT(drv_count(&e, "move"), 0); /* force mode: no thinking */
    drv_send(&e, "undo");
    drv_send(&e, "remove");
    drv_send(&e, "go"); /* Black to move after h2e2 h9g7 h0g2 */
    game_reset(&g, NULL);
    for (int i = 0; i < 3; i++)
        game_push(&g, moves[i]);
    CHECK(expect_move(&e, &g, reply));

    send_lines(&e, "force;setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b - - 0 1;go");
    game_reset(&g, "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b - - 0 1");
    CHECK(expect_move(&e, &g, reply));
    drv_send(&e, "force");
    drv_send(&e, "undo");
    drv_send(&e, "undo"); /* nothing left to undo after the setboard */
    CHECK(sync_ping(&e, 2));
    CHECK_EQ_INT(drv_count(&e, "Error (command not legal now): undo"), 1);
    drv_send(&e, "go");
    CHECK(expect_move(&e, &g, reply));
    finish(&e);
}

/* pong comes after everything the earlier commands print: after the move
 * when the engine was thinking on it, at once otherwise. */
static void group_ping(void)
{
    Engine e;
    begin(&e, "st 0.5");
    drv_send(&e, "ping 1");
    CHECK(drv_expect(&e, "pong 1", NULL, 0, DRV_TIMEOUT));
    for (int i = 0; i < 3; i++) {
        drv_mark(&e);
        drv_send(&e, i == 0 ? "usermove h2e2" : "go");
        drv_send(&e, "ping %d", 10 + i);
        char want[32];
        snprintf(want, sizeof want, "pong %d", 10 + i);
        CHECK(drv_expect(&e, want, NULL, 0, DRV_TIMEOUT));
        CHECK_EQ_INT(drv_count(&e, "move"), 1);
        CHECK(drv_is(e.lines[e.kept - 2], "move")); /* the move, then the pong */
        drv_send(&e, "force");
    }
    /* `?` moves at once; the pong after it follows the move. */
    drv_mark(&e);
    drv_send(&e, "st 60");
    drv_send(&e, "go");
    drv_sleep_ms(50);
    drv_send(&e, "?");
    drv_send(&e, "ping 20");
    CHECK(drv_expect(&e, "pong 20", NULL, 0, DRV_TIMEOUT));
    CHECK_EQ_INT(drv_count(&e, "move"), 1);
    finish(&e);
}

/* The predicted reply from the last `Hint:` line (post on), or "". */
static void last_hint(const Engine *e, char out[5])
{
    out[0] = '\0';
    for (int i = 0; i < e->kept; i++)
        if (strncmp(e->lines[i], "Hint: ", 6) == 0)
            snprintf(out, 5, "%.4s", e->lines[i] + 6);
}

/* hard: after its move the engine ponders on the predicted reply. A hit and
 * a miss give a legal move; every command that may come during pondering
 * leaves the engine answering. */
static void group_ponder(void)
{
    Engine e;
    begin(&e, "level 0 0:30 0.2;hard;post");
    Game g;
    char reply[5], hint[5], m[5];
    game_reset(&g, NULL);
    int hits = 0, misses = 0;
    for (int round = 0; round < 6; round++) {
        if (round == 0) {
            drv_send(&e, "usermove h2e2");
            game_push(&g, "h2e2");
        }
        drv_mark(&e);
        drv_send(&e, "time 1000");
        drv_send(&e, "otim 1000");
        CHECK(expect_move_pv(&e, &g, NULL, reply));
        game_push(&g, reply);
        CHECK(sync_ping(&e, 100 + round)); /* pong at once while pondering */
        last_hint(&e, hint);
        if (round % 2 == 0 && hint[0] && legal_after(&g, hint)) {
            snprintf(m, sizeof m, "%s", hint);
            hits++;
        } else {
            some_move(&g, round, m);
            misses += strcmp(m, hint) != 0;
        }
        drv_sleep_ms(30 * round);
        drv_send(&e, "time 900");
        drv_send(&e, "otim 900");
        drv_send(&e, "usermove %s", m);
        game_push(&g, m);
    }
    CHECK(expect_move_pv(&e, &g, NULL, reply));
    game_push(&g, reply);
    printf("ponder: %d hits, %d misses: %s\n", hits, misses, g.moves);
    CHECK(hits >= 1 && misses >= 1);

    /* Commands that end or change pondering, each after a move of the engine. */
    static const char *const interrupts[] = {"easy", "force", "new", "undo", "remove", "result 1/2-1/2 {test}",
                                             "setboard rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
                                             "hint", ".", "draw", "post", "nopost", "memory 8", "cores 1",
                                             "option MultiPV=2", "analyze"};
    for (size_t i = 0; i < sizeof interrupts / sizeof *interrupts; i++) {
        send_lines(&e, "new;hard;post;st 0.1;usermove h2e2");
        game_reset(&g, NULL);
        game_push(&g, "h2e2");
        CHECK(expect_move_pv(&e, &g, NULL, reply));
        drv_sleep_ms((int)(i % 4) * 20);
        drv_send(&e, "%s", interrupts[i]);
        CHECK(sync_ping(&e, 200 + (int)i));
        drv_send(&e, "exit");
        drv_send(&e, "force");
    }
    /* Quit and end of input while pondering: a clean exit. */
    game_reset(&g, NULL);
    game_push(&g, "h2e2");
    for (int way = 0; way < 2; way++) {
        if (way == 1)
            begin(&e, "");
        send_lines(&e, "new;hard;st 0.1;usermove h2e2");
        CHECK(expect_move_pv(&e, &g, NULL, reply));
        if (way == 0)
            finish(&e);
        else
            CHECK_EQ_INT(drv_close(&e, DRV_TIMEOUT), 0);
    }
}

/* Thinking lines until a pong: every PV legal on the game's board. */
static int analysis_lines(Engine *e, const Game *g, int ping)
{
    drv_sleep_ms(150);
    drv_send(e, "ping %d", ping);
    char line[DRV_LINE], want[32];
    snprintf(want, sizeof want, "pong %d", ping);
    int n = 0;
    while (drv_getline(e, line, sizeof line, DRV_TIMEOUT) == 1 && strcmp(line, want) != 0) {
        if (is_thinking(line)) {
            CHECK(thinking_ok(line, g));
            n++;
        }
    }
    return n;
}

/* Reads up to a thinking line legal on g (lines of the board before, whose
 * analysis was cut short, are passed over). */
static bool line_on_board(Engine *e, const Game *g)
{
    char line[DRV_LINE];
    while (drv_getline(e, line, sizeof line, DRV_TIMEOUT) == 1)
        if (is_thinking(line) && thinking_ok(line, g))
            return true;
    fprintf(stderr, "  (no thinking line on the new board)\n");
    return false;
}

static void group_analyze(void)
{
    Engine e;
    begin(&e, "force;post;analyze");
    Game g;
    game_reset(&g, NULL);
    CHECK(analysis_lines(&e, &g, 1) >= 1);
    /* Board changes restart the analysis: the lines after each ping follow
     * the new board. */
    drv_send(&e, "usermove h2e2");
    CHECK(sync_ping(&e, 2));
    game_push(&g, "h2e2");
    CHECK(analysis_lines(&e, &g, 3) >= 1);
    drv_mark(&e);
    drv_send(&e, ".");
    CHECK(sync_ping(&e, 4));
    CHECK_EQ_INT(drv_count(&e, "stat01:"), 1);
    drv_send(&e, "undo");
    CHECK(sync_ping(&e, 5));
    game_reset(&g, NULL);
    CHECK(analysis_lines(&e, &g, 6) >= 1);
    /* The mate in one is analysed to the last depth at once, and then
     * prints nothing more: wait for its first line, however slow the build. */
    drv_send(&e, "setboard %s", FEN_MATE_IN_1);
    game_reset(&g, FEN_MATE_IN_1);
    CHECK(line_on_board(&e, &g));
    CHECK(sync_ping(&e, 8));
    drv_send(&e, "usermove a1a9"); /* mated: nothing to analyse */
    CHECK(sync_ping(&e, 9));
    drv_send(&e, "new");
    CHECK(sync_ping(&e, 10));
    game_reset(&g, NULL);
    CHECK(analysis_lines(&e, &g, 11) >= 1);
    drv_send(&e, "exit");
    CHECK(sync_ping(&e, 12));
    drv_mark(&e);
    drv_sleep_ms(100);
    CHECK(sync_ping(&e, 13));
    CHECK_EQ_INT(e.kept, 1); /* no more thinking after exit */
    finish(&e);
}

/* Bad input: one error line each, and the state stays as it was. */
static void group_badinput(void)
{
    Engine e;
    begin(&e, "sd 2;force;usermove h2e2");
    drv_mark(&e);
    static const char *const bad[][2] = {
        {"frobnicate", "Error (unknown command): frobnicate"},
        {"usermove h9h3", "Illegal move (not a legal move): h9h3"},
        {"usermove e2e3", "Illegal move (no piece of the side to move there): e2e3"},
        {"usermove zz99", "Illegal move (not a move in coordinates such as h2e2): zz99"},
        {"setboard 9/9/9 w - - 0 1", "tellusererror Illegal position"},
        {"setboard rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1", "tellusererror"},
        {"option MultiPV=99", "Error (option MultiPV: 99 is out of range 1..16; unchanged): option MultiPV=99"},
        {"option Style=wild", "Error (option style: 'wild' is not one of normal/solid/risky"},
        {"option Nonsense=1", "Error (unknown option): option Nonsense=1"},
        {"variant chess", "Error (unsupported variant): variant chess"},
        {"level 40 x 0", "Error (expected level MPS BASE INC): level 40 x 0"},
        {"sd -3", "Error (expected a number from 1 to 128): sd -3"},
        {"memory 99999999", "Error (expected a number from 1 to 65536): memory 99999999"},
        {"undo", NULL},
        {"remove", "Error (command not legal now): remove"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        drv_mark(&e);
        drv_send(&e, "%s", bad[i][0]);
        CHECK(sync_ping(&e, (int)i + 1));
        if (!bad[i][1])
            continue;
        bool found = false;
        for (int k = 0; k < e.kept; k++)
            found |= strncmp(e.lines[k], bad[i][1], strlen(bad[i][1])) == 0;
        if (!found) {
            fprintf(stderr, "  '%s': expected '%s'\n", bad[i][0], bad[i][1]);
            CHECK(false);
        }
    }
    /* The undo above took back h2e2: Red is on move at the start. */
    Game g;
    game_reset(&g, NULL);
    drv_send(&e, "go");
    char reply[5];
    CHECK(expect_move(&e, &g, reply));
    /* A move while the engine thinks on its own move: refused. */
    send_lines(&e, "new;st 30;go");
    drv_sleep_ms(50);
    drv_mark(&e);
    drv_send(&e, "usermove h9g7");
    CHECK(drv_expect(&e, "Error (command not legal now): usermove h9g7", NULL, 0, DRV_TIMEOUT));
    drv_send(&e, "?");
    CHECK(expect_move(&e, &g, reply));
    /* Long and binary lines. */
    drv_mark(&e);
    static char longline[70000];
    memset(longline, 'x', sizeof longline - 1);
    drv_send_raw(&e, longline, sizeof longline - 1);
    drv_send_raw(&e, "\n", 1);
    drv_send_raw(&e, "po\001ng\n", 6);
    CHECK(sync_ping(&e, 99));
    CHECK_EQ_INT(drv_count(&e, "Error"), 2);
    CHECK(drv_all_ascii(&e));
    finish(&e);
}

/* quit during the engine's own search ends the process at once. */
static void group_quit(void)
{
    Engine e;
    begin(&e, "st 60;go");
    drv_sleep_ms(100);
    int64_t t0 = drv_now_ms();
    finish(&e);
    printf("quit during a search: exit after %lld ms\n", (long long)(drv_now_ms() - t0));
    /* And in analysis. */
    begin(&e, "analyze");
    drv_sleep_ms(100);
    finish(&e);
}

typedef struct Group {
    const char *name;
    void (*run)(void);
} Group;

static const Group GROUPS[] = {
    {"handshake", group_handshake}, {"game", group_game},     {"force", group_force},
    {"ping", group_ping},           {"ponder", group_ponder}, {"analyze", group_analyze},
    {"badinput", group_badinput},   {"quit", group_quit},
};

int main(int argc, char **argv)
{
    const Group *g = NULL;
    for (size_t i = 0; argc == 3 && !g && i < sizeof GROUPS / sizeof *GROUPS; i++)
        if (strcmp(argv[2], GROUPS[i].name) == 0)
            g = &GROUPS[i];
    if (!g) {
        fprintf(stderr, "usage: test_cecp CHARIOT GROUP (handshake game force ping ponder analyze badinput quit)\n");
        return 2;
    }
    engine_path = argv[1];
    board_init();
    g->run();
    TEST_END();
}
