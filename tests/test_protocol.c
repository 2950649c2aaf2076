/* test_protocol.c — drives the real chariot binary through pipes: both
 * handshakes, every command, bad input, EOF, stop latency, batch mode, the
 * UCI dialect and determinism. Usage: test_protocol CHARIOT GROUP. */
#include "test_protocol_driver.h"

#include "board.h"
#include "test.h"

static const char *engine_path;

/* Black to move and already mated (two rooks on ranks 9 and 8). */
static const char *const FEN_MATED = "R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1";
/* Red mates in one with a1a9 (the only mate). */
static const char *const FEN_MATE_IN_1 = "4k4/1R7/9/9/9/9/9/9/R8/3K5 w - - 0 1";
/* Black to move, mated next move whatever it does. */
static const char *const FEN_LOST = "4k4/1R7/9/9/9/9/9/9/R8/3K5 b - - 0 1";
/* Kings and one advisor each: a dead draw. */
static const char *const FEN_BARE = "3k5/4a4/9/9/9/9/9/9/9/4KA3 w - - 0 1";

/* ------------------------------------------------------------- helpers */

static bool start(Engine *e, const char *hello)
{
    if (!drv_start(e, engine_path)) {
        fprintf(stderr, "cannot start %s\n", engine_path);
        return false;
    }
    if (!hello)
        return true;
    drv_send(e, "%s", hello);
    return drv_expect(e, strcmp(hello, "uci") == 0 ? "uciok" : "ucciok", NULL, 0, DRV_TIMEOUT);
}

/* Sends quit, expects bye (UCCI) and a clean exit. */
static void finish(Engine *e, bool ucci)
{
    drv_send(e, "quit");
    if (ucci)
        CHECK(drv_expect(e, "bye", NULL, 0, DRV_TIMEOUT));
    CHECK_EQ_INT(drv_wait_exit(e, DRV_TIMEOUT), 0);
}

/* Plays the moves of a space-separated list from a FEN (NULL: start). */
static bool board_after(Board *b, const char *fen, const char *moves)
{
    if (!board_from_fen(b, fen ? fen : BOARD_START_FEN, NULL, 0))
        return false;
    const char *p = moves ? moves : "";
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        Move m = move_from_iccs(p);
        if (m == MOVE_NONE || !board_is_legal(b, m))
            return false;
        board_make(b, m);
        if (b->ply > BOARD_HIST_MAX - 8)
            board_compact_history(b);
        while (*p && *p != ' ')
            p++;
    }
    return true;
}

/* The move of a "bestmove m ..." line, legal in the given position. */
static bool bestmove_legal(const char *line, const char *fen, const char *moves)
{
    Board *b = calloc(1, sizeof *b);
    bool ok = false;
    if (strncmp(line, "bestmove ", 9) == 0 && strlen(line) >= 13 && (line[13] == '\0' || line[13] == ' ') &&
        board_after(b, fen, moves)) {
        Move m = move_from_iccs(line + 9);
        ok = m != MOVE_NONE && board_is_legal(b, m);
    }
    if (!ok)
        fprintf(stderr, "  not a legal bestmove: '%s'\n", line);
    free(b);
    return ok;
}

static bool is_int(const char *s, bool allow_sign)
{
    if (allow_sign && *s == '-')
        s++;
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

static bool is_iccs(const char *s)
{
    return strlen(s) == 4 && s[0] >= 'a' && s[0] <= 'i' && s[1] >= '0' && s[1] <= '9' && s[2] >= 'a' &&
           s[2] <= 'i' && s[3] >= '0' && s[3] <= '9';
}

/* Checks a search info line field by field: UCCI `info depth D seldepth S
 * [multipv K] score X time T nodes N nps P [pv m...]`, UCI `info depth D
 * seldepth S multipv K score (cp X|mate N) [bound] nodes N nps P hashfull H
 * time T [pv m...]`. */
static bool info_line_ok(const char *line, bool uci)
{
    char buf[DRV_LINE];
    snprintf(buf, sizeof buf, "%s", line);
    char *tok[512];
    int n = 0;
    for (char *t = strtok(buf, " "); t && n < 512; t = strtok(NULL, " "))
        tok[n++] = t;
    int i = 0;
#define NEED(word) (i < n && strcmp(tok[i], word) == 0 && (i++, true))
#define NUM(sign) (i < n && is_int(tok[i], sign) && (i++, true))
    bool ok = NEED("info") && NEED("depth") && NUM(false) && NEED("seldepth") && NUM(false);
    if (ok && uci)
        ok = NEED("multipv") && NUM(false);
    else if (ok && i < n && strcmp(tok[i], "multipv") == 0)
        ok = NEED("multipv") && NUM(false);
    ok = ok && NEED("score");
    if (ok && uci) {
        ok = (NEED("cp") || NEED("mate")) && NUM(true);
        if (ok && i < n && (strcmp(tok[i], "lowerbound") == 0 || strcmp(tok[i], "upperbound") == 0))
            i++;
        ok = ok && NEED("nodes") && NUM(false) && NEED("nps") && NUM(false) && NEED("hashfull") && NUM(false) &&
             NEED("time") && NUM(false);
    } else if (ok) {
        ok = NUM(true) && NEED("time") && NUM(false) && NEED("nodes") && NUM(false) && NEED("nps") && NUM(false);
    }
    if (ok && i < n) {
        ok = NEED("pv");
        while (ok && i < n)
            ok = is_iccs(tok[i++]);
    }
#undef NEED
#undef NUM
    if (!ok)
        fprintf(stderr, "  bad info line: '%s'\n", line);
    return ok;
}

/* Runs one search to its bestmove/nobestmove line (copied to out); checks
 * every info line on the way. */
static bool search_to_end(Engine *e, bool uci, char *out, size_t cap, int timeout_ms)
{
    char line[DRV_LINE];
    int64_t deadline = drv_now_ms() + timeout_ms;
    for (;;) {
        int64_t left = deadline - drv_now_ms();
        int r = drv_getline(e, line, sizeof line, left > 0 ? (int)left : 0);
        if (r <= 0) {
            fprintf(stderr, "  (no bestmove: %s)\n", r == 0 ? "timeout" : "EOF");
            return false;
        }
        if (drv_is(line, "bestmove") || drv_is(line, "nobestmove")) {
            snprintf(out, cap, "%s", line);
            return true;
        }
        if (drv_is(line, "info") && strstr(line, " depth ") && !strstr(line, "currmove") && !strstr(line, " string "))
            CHECK(info_line_ok(line, uci));
        CHECK(!strstr(line, "score cp") || uci);
    }
}

/* ------------------------------------------------------------- groups */

static const char *const UCCI_OPTION_LINES[] = {
    "option usemillisec type check default false",
    "option batch type check default false",
    "option debug type check default false",
    "option ponder type check default false",
    "option hashsize type spin min 0 max ",
    "option threads type spin min 0 max ",
    "option idle type combo var none ",
    "option pruning type combo var large ",
    "option knowledge type combo var large ",
    "option randomness type combo var none ",
    "option style type combo var normal ",
    "option multipv type spin min 1 max 16 ",
    "option newgame type button",
    "option bookfiles type string",
    "option usebook type check",
    "option resign type spin min 0 ",
    "option moveoverhead type spin min 0 ",
};

static bool seen_prefix(const Engine *e, const char *prefix)
{
    for (int i = 0; i < e->kept; i++)
        if (strncmp(e->lines[i], prefix, strlen(prefix)) == 0)
            return true;
    return false;
}

static void group_handshake(void)
{
    Engine e;
    if (!drv_start(&e, engine_path))
        exit(1);
    drv_send(&e, "ucci");
    CHECK(drv_expect(&e, "ucciok", NULL, 0, DRV_TIMEOUT));
    CHECK(e.kept > 4 && strncmp(e.lines[0], "id name Chariot ", 16) == 0);
    CHECK(seen_prefix(&e, "id version "));
    CHECK(seen_prefix(&e, "id author Chariot developers"));
    for (size_t i = 0; i < sizeof UCCI_OPTION_LINES / sizeof *UCCI_OPTION_LINES; i++) {
        if (!seen_prefix(&e, UCCI_OPTION_LINES[i])) {
            fprintf(stderr, "  missing: '%s'\n", UCCI_OPTION_LINES[i]);
            CHECK(false);
        }
    }
    CHECK(!seen_prefix(&e, "option name"));
    CHECK(drv_all_ascii(&e));
    printf("handshake: %d lines\n", e.kept);

    /* What XQWizard sends after ucciok, then uci2wb's "first var of every
     * combo", then TCHESS's capitalised names: no complaint at all. */
    drv_mark(&e);
    static const char *const boot[] = {
        "setoption guiname XQWizard", "setoption usemillisec true", "setoption promotion false",
        "setoption usebook false", "setoption useegtb false", "setoption bookfiles <empty>",
        "setoption hashsize 16", "setoption threads 1", "setoption idle none", "setoption randomness none",
        "setoption style normal", "setoption newgame", "setoption ponder true", "setoption pruning large",
        "setoption knowledge large", "setoption randomness tiny", "setoption Hash 8", "setoption Threads 1",
        "setoption HashSize 0", "setoption batch false", "setoption debug off", "setoption multipv 1",
        "setoption resign 2000", "setoption moveoverhead 30", "setoption usemillisec false",
        "setoption repetition chineserule", "setoption name Move Overhead value 20", "ucci",
    };
    for (size_t i = 0; i < sizeof boot / sizeof *boot; i++)
        drv_send(&e, "%s", boot[i]);
    CHECK(drv_sync(&e));
    CHECK_EQ_INT(drv_count(&e, "info"), 0);
    CHECK_EQ_INT(drv_count(&e, "ucciok"), 1);

    /* Windows GUIs end lines with CR LF: the CR is no part of a command. */
    drv_mark(&e);
    drv_send(&e, "setoption hashsize 8\r");
    drv_send(&e, "position startpos moves h2e2\r");
    drv_send(&e, "go depth 2\r");
    char best[256];
    CHECK(drv_expect(&e, "bestmove", best, sizeof best, DRV_TIMEOUT));
    drv_send(&e, "isready\r");
    CHECK(drv_expect(&e, "readyok", NULL, 0, DRV_TIMEOUT));
    CHECK_EQ_INT(drv_count(&e, "info string error"), 0);
    finish(&e, true);

    /* An unknown first command: an error, then plain UCCI service. */
    if (!drv_start(&e, engine_path))
        exit(1);
    drv_send(&e, "hello");
    CHECK(drv_sync(&e));
    CHECK_EQ_INT(drv_count(&e, "info string error:"), 1);
    drv_send(&e, "position startpos");
    drv_send(&e, "go depth 2");
    char line[DRV_LINE];
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    CHECK(bestmove_legal(line, NULL, NULL));
    finish(&e, true);
}

/* A random game of `plies` plies from the start (captures preferred, so the
 * no-capture count stays low), never leaving a side without a move. */
static int random_game(char *moves, size_t cap, int plies, uint64_t seed)
{
    Board *b = calloc(1, sizeof *b);
    board_startpos(b);
    size_t len = 0;
    moves[0] = '\0';
    int played = 0;
    for (; played < plies; played++) {
        MoveList list, caps;
        board_generate(b, GEN_ALL, &list);
        board_generate(b, GEN_CAPTURES, &caps);
        test_xorshift(&seed);
        Move m = MOVE_NONE;
        for (int tries = 0; tries < 16 && m == MOVE_NONE; tries++) {
            test_xorshift(&seed);
            Move c = caps.count && (seed & 1) ? caps.moves[(seed >> 8) % (unsigned)caps.count]
                                              : list.moves[(seed >> 8) % (unsigned)list.count];
            board_make(b, c);
            bool alive = board_count_legal(b) > 0 && !board_insufficient_material(b);
            board_unmake(b);
            if (alive)
                m = c;
        }
        if (m == MOVE_NONE)
            break;
        board_make(b, m);
        if (b->ply > BOARD_HIST_MAX - 8)
            board_compact_history(b);
        char s[5];
        move_to_iccs(m, s);
        if (len + 6 >= cap)
            break;
        len += (size_t)snprintf(moves + len, cap - len, "%s%s", len ? " " : "", s);
    }
    free(b);
    return played;
}

static void group_commands(void)
{
    Engine e;
    char line[DRV_LINE], best[DRV_LINE];
    if (!start(&e, "ucci"))
        exit(1);

    drv_send(&e, "position startpos");
    drv_send(&e, "go depth 4");
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    CHECK(bestmove_legal(line, NULL, NULL));
    CHECK(drv_count(&e, "info") >= 1);

    drv_send(&e, "position startpos moves h2e2 h9g7");
    drv_send(&e, "go  depth  3"); /* a Python wrapper's double blanks */
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    CHECK(bestmove_legal(line, NULL, "h2e2 h9g7"));

    /* uci2wb: `moves` followed by nothing; aliases H/E; side `r` */
    drv_send(&e, "position fen %s moves", BOARD_START_FEN);
    drv_send(&e, "go nodes 3000");
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    CHECK(bestmove_legal(line, NULL, NULL));
    drv_send(&e, "position fen rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r - - 0 1 moves h2e2");
    drv_send(&e, "go depth 2");
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    CHECK(bestmove_legal(line, NULL, "h2e2"));

    /* The endgame tables: KR v KA is looked up, so depth 1 already shows
     * the mate in 5 plies (UCCI score 9995) with the table's line. */
    drv_mark(&e);
    drv_send(&e, "position fen 3k5/4a4/9/9/9/9/9/9/9/4K3R w - - 0 1");
    drv_send(&e, "go depth 1");
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    CHECK_EQ_INT(drv_count(&e, "info depth 1 seldepth 1 score 9995"), 1);

    /* debug adds an info string per position */
    drv_mark(&e);
    drv_send(&e, "setoption debug true");
    drv_send(&e, "position startpos moves h2e2");
    drv_send(&e, "setoption debug false");
    CHECK(drv_sync(&e));
    CHECK_EQ_INT(drv_count(&e, "info string position"), 1);
    CHECK_EQ_INT(drv_count(&e, "info string error:"), 0);
    drv_send(&e, "position startpos");

    /* go depth 0: static evaluation, then nobestmove */
    drv_mark(&e);
    drv_send(&e, "go depth 0");
    CHECK(drv_expect(&e, "nobestmove", NULL, 0, DRV_TIMEOUT));
    CHECK(e.kept == 2 && info_line_ok(e.lines[0], false) && drv_is(e.lines[0], "info depth 0"));

    /* stop while idle */
    drv_mark(&e);
    drv_send(&e, "stop");
    CHECK(drv_expect(&e, "nobestmove", NULL, 0, DRV_TIMEOUT));

    /* no legal move */
    drv_send(&e, "position fen %s", FEN_MATED);
    drv_send(&e, "go depth 3");
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    CHECK_EQ_STR(line, "nobestmove");

    /* a mate in one is found */
    drv_send(&e, "position fen %s", FEN_MATE_IN_1);
    drv_send(&e, "go depth 3");
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    CHECK(strncmp(line, "bestmove a1a9", 13) == 0);

    /* banmoves: the banned move is not played; position clears the ban */
    drv_send(&e, "setoption newgame");
    drv_send(&e, "position startpos");
    drv_send(&e, "go depth 3");
    CHECK(search_to_end(&e, false, best, sizeof best, DRV_TIMEOUT));
    CHECK(bestmove_legal(best, NULL, NULL));
    char banned[5] = "";
    if (strlen(best) >= 13)
        memcpy(banned, best + 9, 4), banned[4] = '\0';
    drv_send(&e, "banmoves %s", banned);
    drv_send(&e, "go depth 3");
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    CHECK(bestmove_legal(line, NULL, NULL));
    CHECK(strncmp(line + 9, banned, 4) != 0);
    /* ban every move but one: that one must be played */
    drv_send(&e, "position fen %s", FEN_MATE_IN_1);
    drv_send(&e, "banmoves a1a9 a1a2");
    drv_send(&e, "go depth 3");
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    CHECK(bestmove_legal(line, FEN_MATE_IN_1, NULL));
    CHECK(strncmp(line + 9, "a1a9", 4) != 0 && strncmp(line + 9, "a1a2", 4) != 0);

    /* probe: a searched position is in the hash, an unseen one is not */
    drv_send(&e, "setoption newgame");
    drv_send(&e, "position startpos");
    drv_send(&e, "go depth 5");
    CHECK(search_to_end(&e, false, best, sizeof best, DRV_TIMEOUT));
    CHECK(bestmove_legal(best, NULL, NULL));
    best[13] = '\0';
    drv_send(&e, "probe startpos");
    CHECK(drv_expect(&e, "pophash", line, sizeof line, DRV_TIMEOUT));
    printf("probe startpos: %s\n", line);
    /* the position after the best move was searched to depth 4 */
    drv_send(&e, "probe startpos moves %s", best + 9);
    CHECK(drv_expect(&e, "pophash", line, sizeof line, DRV_TIMEOUT));
    printf("probe startpos moves %s: %s\n", best + 9, line);
    CHECK(strstr(line, "bound ") != NULL && strstr(line, " depth ") != NULL);
    drv_send(&e, "probe fen %s", FEN_BARE);
    CHECK(drv_expect(&e, "pophash", line, sizeof line, DRV_TIMEOUT));
    CHECK_EQ_STR(line, "pophash");
    drv_send(&e, "probe");
    CHECK(drv_expect(&e, "pophash", line, sizeof line, DRV_TIMEOUT));

    /* a whole game from the start (XQWizard), long enough to need compaction */
    static char moves[8192];
    int plies = random_game(moves, sizeof moves, 900, 0x9E3779B97F4A7C15ULL);
    printf("long game: %d plies\n", plies);
    CHECK(plies >= 300);
    drv_mark(&e);
    drv_send(&e, "position startpos moves %s", moves);
    drv_send(&e, "go depth 3");
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    CHECK_EQ_INT(drv_count(&e, "info string error"), 0);
    CHECK(strcmp(line, "nobestmove") == 0 || bestmove_legal(line, NULL, moves));

    /* clocks: seconds by default, ms after usemillisec; keywords in any order */
    drv_send(&e, "position startpos moves h2e2");
    drv_send(&e, "go time 2 increment 0 opptime 2 oppincrement 0");
    CHECK(search_to_end(&e, false, line, sizeof line, 5000));
    CHECK(bestmove_legal(line, NULL, "h2e2"));
    drv_send(&e, "setoption usemillisec true");
    drv_send(&e, "go time 900 opptime 900 movestogo 5 oppincrement 0 increment 0");
    CHECK(search_to_end(&e, false, line, sizeof line, 5000));
    CHECK(bestmove_legal(line, NULL, "h2e2"));
    drv_send(&e, "go movetime 100");
    CHECK(search_to_end(&e, false, line, sizeof line, 5000));
    CHECK(bestmove_legal(line, NULL, "h2e2"));
    drv_send(&e, "go draw time 400 increment 10 opptime 400 oppincrement 10");
    CHECK(search_to_end(&e, false, line, sizeof line, 5000));
    CHECK(bestmove_legal(line, NULL, "h2e2"));

    /* draw and resign */
    drv_send(&e, "setoption newgame");
    drv_send(&e, "position fen %s", FEN_BARE);
    drv_send(&e, "go depth 3");
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    printf("bare kings: %s\n", line);
    CHECK(strlen(line) > 5 && strcmp(line + strlen(line) - 5, " draw") == 0);
    drv_send(&e, "position fen %s", FEN_LOST);
    drv_send(&e, "go depth 4");
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    printf("lost: %s\n", line);
    CHECK(strlen(line) > 7 && strcmp(line + strlen(line) - 7, " resign") == 0);
    drv_send(&e, "setoption resign 0");
    drv_send(&e, "go depth 4");
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    CHECK(strstr(line, "resign") == NULL);
    drv_send(&e, "go infinite");
    drv_sleep_ms(100);
    drv_send(&e, "stop");
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));

    CHECK(drv_sync(&e));
    finish(&e, true);
}

static void group_badinput(void)
{
    Engine e;
    if (!start(&e, "ucci"))
        exit(1);
    drv_send(&e, "position fen %s", FEN_MATED);
    drv_send(&e, "setoption multipv 2");
    CHECK(drv_sync(&e));

    static char big[100 * 1024 + 2];
    memset(big, 'x', sizeof big - 2);
    memcpy(big, "position startpos moves ", 24);
    big[sizeof big - 2] = '\n';
    static char garbage[600];
    for (size_t i = 0; i < sizeof garbage; i++) {
        unsigned char c = (unsigned char)(i * 37 + 11);
        garbage[i] = (char)(c == '\n' ? 0 : c);
    }
    garbage[sizeof garbage - 1] = '\n';

    static const char *const bad[] = {
        "foo",
        "position",
        "position fen",
        "position fen xyz",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
        "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", /* generals face each other */
        "position startpos moves h2e3",
        "position startpos moves h2e2 h2e2",
        "position startpos moves zz99",
        "position startpos junk",
        "startpos moves e3e4 e3e4",
        "fen",
        "setoption hashsize 999999",
        "setoption hashsize -1",
        "setoption threads abc",
        "setoption multipv 99",
        "setoption pruning bogus",
        "setoption usemillisec maybe",
        "setoption resign 100000",
        "setoption",
        "banmoves a0a5",
        "banmoves qq",
        "probe fen nonsense",
        "\xff\xfe\xc0\x80 \x81",
        "\xe4\xb8\xad go",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad + 2; i++) {
        drv_mark(&e);
        const char *what;
        if (i < sizeof bad / sizeof *bad) {
            what = bad[i];
            drv_send(&e, "%s", bad[i]);
        } else if (i == sizeof bad / sizeof *bad) {
            what = "100 KB line";
            drv_send_raw(&e, big, sizeof big - 1);
        } else {
            what = "binary garbage";
            drv_send_raw(&e, garbage, sizeof garbage);
        }
        CHECK(drv_sync(&e));
        int errors = drv_count(&e, "info string error:");
        if (errors != 1) {
            fprintf(stderr, "  '%.40s': %d error lines\n", what, errors);
            CHECK(false);
        }
        CHECK(drv_all_ascii(&e));
    }

    /* the mated position survived all of that */
    char line[DRV_LINE];
    drv_send(&e, "go depth 2");
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    CHECK_EQ_STR(line, "nobestmove");
    /* multipv 2 survived too: two lines per depth */
    drv_mark(&e);
    drv_send(&e, "position startpos");
    drv_send(&e, "go depth 3");
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    bool second = false;
    for (int i = 0; i < e.kept; i++)
        second |= strstr(e.lines[i], " multipv 2 ") != NULL;
    CHECK(second);
    /* an unknown go keyword complains once and still searches */
    drv_mark(&e);
    drv_send(&e, "go depth 2 sideways");
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    CHECK(bestmove_legal(line, NULL, NULL));
    CHECK_EQ_INT(drv_count(&e, "info string error:"), 1);
    /* so does "mate 0", which is out of range */
    drv_mark(&e);
    drv_send(&e, "go mate 0 depth 2");
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    CHECK(bestmove_legal(line, NULL, NULL));
    CHECK_EQ_INT(drv_count(&e, "info string error: go: 'mate 0' ignored:"), 1);
    finish(&e, true);
}

static void group_eof(void)
{
    Engine e;
    /* nothing at all */
    if (!drv_start(&e, engine_path))
        exit(1);
    CHECK_EQ_INT(drv_close(&e, DRV_TIMEOUT), 0);
    /* idle */
    if (!start(&e, "ucci"))
        exit(1);
    CHECK_EQ_INT(drv_close(&e, DRV_TIMEOUT), 0);
    /* thinking */
    if (!start(&e, "ucci"))
        exit(1);
    drv_send(&e, "position startpos");
    drv_send(&e, "go infinite");
    CHECK(drv_expect(&e, "info", NULL, 0, DRV_TIMEOUT));
    int64_t t0 = drv_now_ms();
    CHECK_EQ_INT(drv_close(&e, DRV_TIMEOUT), 0);
    printf("exit after EOF while thinking: %lld ms\n", (long long)(drv_now_ms() - t0));
    /* a last line without a newline is still obeyed */
    if (!drv_start(&e, engine_path))
        exit(1);
    drv_send_raw(&e, "ucci\nisready", 12);
    proc_close_input(&e.proc);
    CHECK(drv_expect(&e, "readyok", NULL, 0, DRV_TIMEOUT));
    CHECK_EQ_INT(drv_wait_exit(&e, DRV_TIMEOUT), 0);
    /* quit while thinking */
    if (!start(&e, "ucci"))
        exit(1);
    drv_send(&e, "go infinite");
    CHECK(drv_expect(&e, "info", NULL, 0, DRV_TIMEOUT));
    finish(&e, true);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void group_stop(void)
{
    Engine e;
    char line[DRV_LINE];
    if (!start(&e, "ucci"))
        exit(1);
    drv_send(&e, "position startpos");
    enum { RUNS = 8 };
    double lat[RUNS];
    for (int r = 0; r < RUNS; r++) {
        drv_send(&e, r % 2 ? "go depth 100" : "go infinite");
        CHECK(drv_expect(&e, "info", NULL, 0, DRV_TIMEOUT));
        drv_sleep_ms(50 + 40 * r);
        double t0 = drv_now_us();
        drv_send(&e, "stop");
        bool got = drv_expect(&e, "bestmove", line, sizeof line, 5000);
        lat[r] = (drv_now_us() - t0) / 1000.0;
        CHECK(got);
        CHECK(bestmove_legal(line, NULL, NULL));
    }
    qsort(lat, RUNS, sizeof *lat, cmp_double);
    printf("stop latency over %d runs: min %.2f ms, median %.2f ms, max %.2f ms\n", RUNS, lat[0], lat[RUNS / 2],
           lat[RUNS - 1]);

    /* while thinking: isready, probe, a second go (refused), stop */
    drv_mark(&e);
    drv_send(&e, "go infinite");
    CHECK(drv_expect(&e, "info", NULL, 0, DRV_TIMEOUT));
    for (int i = 0; i < 200; i++)
        drv_send(&e, "isready");
    drv_send(&e, "probe startpos");
    drv_send(&e, "go depth 3");
    for (int i = 0; i < 200; i++)
        CHECK(drv_expect(&e, "readyok", NULL, 0, DRV_TIMEOUT));
    CHECK(drv_expect(&e, "pophash", NULL, 0, DRV_TIMEOUT));
    CHECK(drv_expect(&e, "info string error:", NULL, 0, DRV_TIMEOUT));
    drv_send(&e, "stop");
    CHECK(drv_expect(&e, "bestmove", NULL, 0, 5000));
    CHECK(drv_sync(&e));
    CHECK_EQ_INT(drv_count(&e, "bestmove"), 1);
    CHECK_EQ_INT(drv_count(&e, "info string error:"), 1);
    /* every line whole: nothing but the words we print */
    for (int i = 0; i < e.kept; i++) {
        const char *l = e.lines[i];
        bool known = drv_is(l, "info") || drv_is(l, "readyok") || drv_is(l, "pophash") || drv_is(l, "bestmove");
        if (!known)
            fprintf(stderr, "  mangled line: '%s'\n", l);
        CHECK(known);
    }

    /* ponder: no answer before ponderhit; then the clock runs */
    drv_send(&e, "setoption usemillisec true");
    drv_send(&e, "position startpos moves h2e2");
    drv_mark(&e);
    drv_send(&e, "go ponder time 1500 increment 0 opptime 1500 oppincrement 0");
    drv_sleep_ms(300);
    CHECK(drv_sync(&e));
    CHECK_EQ_INT(drv_count(&e, "bestmove"), 0);
    drv_send(&e, "ponderhit");
    CHECK(search_to_end(&e, false, line, sizeof line, 5000));
    CHECK(bestmove_legal(line, NULL, "h2e2"));
    /* ponder miss: stop answers at once */
    drv_send(&e, "go ponder time 1500 increment 0 opptime 1500 oppincrement 0");
    drv_sleep_ms(100);
    drv_send(&e, "stop");
    CHECK(search_to_end(&e, false, line, sizeof line, 5000));
    /* ponderhit draw: the opponent offers a draw in a dead-drawn position */
    drv_send(&e, "position fen %s", FEN_BARE);
    drv_send(&e, "go ponder time 1000 increment 0 opptime 1000 oppincrement 0");
    drv_sleep_ms(50);
    drv_send(&e, "ponderhit draw");
    CHECK(search_to_end(&e, false, line, sizeof line, 5000));
    printf("ponderhit draw: %s\n", line);
    CHECK(strlen(line) > 5 && strcmp(line + strlen(line) - 5, " draw") == 0);
    /* depth infinite is infinite */
    drv_send(&e, "position startpos");
    drv_mark(&e);
    drv_send(&e, "go depth infinite");
    drv_sleep_ms(200);
    CHECK(drv_sync(&e));
    CHECK_EQ_INT(drv_count(&e, "bestmove"), 0);
    drv_send(&e, "stop");
    CHECK(search_to_end(&e, false, line, sizeof line, 5000));
    CHECK(bestmove_legal(line, NULL, NULL));
    /* GUI sends the next position and go right after stop: no refusal */
    drv_mark(&e);
    drv_send(&e, "go infinite");
    drv_sleep_ms(100);
    drv_send(&e, "stop");
    drv_send(&e, "position startpos");
    drv_send(&e, "go depth 2");
    CHECK(drv_expect(&e, "bestmove", NULL, 0, 5000));
    CHECK(search_to_end(&e, false, line, sizeof line, DRV_TIMEOUT));
    CHECK_EQ_INT(drv_count(&e, "info string error:"), 0);
    /* Answers known without a search wait too: go ponder depth 0 until
     * ponderhit, go ponder / go infinite with no legal move until stop. */
    drv_mark(&e);
    drv_send(&e, "go ponder depth 0");
    CHECK(drv_sync(&e));
    CHECK_EQ_INT(drv_count(&e, "nobestmove"), 0);
    drv_send(&e, "ponderhit");
    CHECK(drv_expect(&e, "nobestmove", NULL, 0, DRV_TIMEOUT));
    drv_send(&e, "position fen %s", FEN_MATED);
    for (int k = 0; k < 2; k++) {
        drv_mark(&e);
        drv_send(&e, k ? "go infinite" : "go ponder time 1000 increment 0");
        CHECK(drv_sync(&e));
        CHECK_EQ_INT(drv_count(&e, "nobestmove"), 0);
        drv_send(&e, "stop");
        CHECK(drv_expect(&e, "nobestmove", NULL, 0, DRV_TIMEOUT));
        CHECK(drv_sync(&e));
        CHECK_EQ_INT(drv_count(&e, "nobestmove"), 1);
    }
    finish(&e, true);
}

static void group_batch(void)
{
    Engine e;
    if (!start(&e, "ucci"))
        exit(1);
    drv_send(&e, "setoption batch true");
    CHECK(drv_sync(&e));
    drv_mark(&e);
    char script[1024];
    snprintf(script, sizeof script,
             "position startpos\ngo depth 4\nposition fen %s\ngo depth 3\n"
             "position startpos moves h2e2\ngo depth 3\nisready\nquit\n",
             FEN_MATED);
    drv_send_raw(&e, script, strlen(script));
    CHECK(drv_expect(&e, "bye", NULL, 0, DRV_TIMEOUT));
    /* the answers come in script order */
    const char *order[5] = {NULL};
    int k = 0;
    for (int i = 0; i < e.kept && k < 5; i++) {
        const char *l = e.lines[i];
        if (drv_is(l, "bestmove") || drv_is(l, "nobestmove") || drv_is(l, "readyok") || drv_is(l, "bye"))
            order[k++] = l;
    }
    CHECK_EQ_INT(k, 5);
    if (k == 5) {
        CHECK(bestmove_legal(order[0], NULL, NULL));
        CHECK_EQ_STR(order[1], "nobestmove");
        CHECK(bestmove_legal(order[2], NULL, "h2e2"));
        CHECK_EQ_STR(order[3], "readyok");
        CHECK_EQ_STR(order[4], "bye");
    }
    CHECK_EQ_INT(drv_count(&e, "info string error"), 0);
    CHECK_EQ_INT(drv_wait_exit(&e, DRV_TIMEOUT), 0);
}

static void group_uci(void)
{
    Engine e;
    char line[DRV_LINE];
    if (!drv_start(&e, engine_path))
        exit(1);
    drv_send(&e, "uci");
    CHECK(drv_expect(&e, "uciok", NULL, 0, DRV_TIMEOUT));
    CHECK(seen_prefix(&e, "id name Chariot"));
    CHECK(seen_prefix(&e, "id author Chariot developers"));
    static const char *const opts[] = {
        "option name Hash type spin default ",   "option name Threads type spin default ",
        "option name MultiPV type spin default ", "option name Ponder type check default ",
        "option name Move Overhead type spin default ",
    };
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
        CHECK(seen_prefix(&e, opts[i]));
    CHECK(!seen_prefix(&e, "option usemillisec"));
    CHECK(drv_all_ascii(&e));
#ifdef CHARIOT_SPSA
    /* The SPSA build lists the search constants as range-checked options
     * for tools/spsa.py: an in-range value is taken silently, one out of
     * range gets one error. */
    CHECK(seen_prefix(&e, "option name SPSA_LMR_BASE type spin default 50 min -50 max 200"));
    drv_mark(&e);
    drv_send(&e, "setoption name SPSA_LMR_BASE value 60");
    drv_send(&e, "setoption name SPSA_LMR_BASE value 999");
    drv_send(&e, "setoption name SPSA_LMR_BASE value 50");
    CHECK(drv_sync(&e));
    CHECK_EQ_INT(drv_count(&e, "info"), 1);
    CHECK(seen_prefix(&e, "info string error: "));
#else
    /* A normal build has no tuning options. */
    CHECK(!seen_prefix(&e, "option name SPSA_"));
#endif

    drv_mark(&e);
    drv_send(&e, "setoption name Hash value 8");
    drv_send(&e, "setoption name Threads value 1");
    drv_send(&e, "setoption name Move Overhead value 50");
    drv_send(&e, "setoption name MultiPV value 1");
    drv_send(&e, "setoption name Ponder value false");
    drv_send(&e, "setoption name UCI_Variant value xiangqi");
    drv_send(&e, "setoption name hashsize value 0");
    drv_send(&e, "setoption name Clear Hash");
    drv_send(&e, "ucinewgame");
    drv_send(&e, "debug off");
    CHECK(drv_sync(&e));
    CHECK_EQ_INT(drv_count(&e, "info"), 0);

    /* A UCI GUI's error names the option as the GUI set it. */
    drv_mark(&e);
    drv_send(&e, "setoption name Hash value -5");
    CHECK(drv_sync(&e));
    CHECK(seen_prefix(&e, "info string error: option Hash: -5 is out of range"));
    CHECK_EQ_INT(drv_count(&e, "info"), 1);

    drv_send(&e, "position startpos moves h2e2 h9g7");
    drv_send(&e, "go depth 4");
    CHECK(search_to_end(&e, true, line, sizeof line, DRV_TIMEOUT));
    CHECK(bestmove_legal(line, NULL, "h2e2 h9g7"));
    CHECK(seen_prefix(&e, "info depth"));

    /* Cyclone: bare fen / startpos lines */
    drv_send(&e, "startpos moves h2e2");
    drv_send(&e, "go depth 2");
    CHECK(search_to_end(&e, true, line, sizeof line, DRV_TIMEOUT));
    CHECK(bestmove_legal(line, NULL, "h2e2"));
    drv_send(&e, "fen %s moves b0c2", BOARD_START_FEN);
    drv_send(&e, "go nodes 2000");
    CHECK(search_to_end(&e, true, line, sizeof line, DRV_TIMEOUT));
    CHECK(bestmove_legal(line, NULL, "b0c2"));

    /* clocks by colour: Black to move uses btime */
    drv_send(&e, "position startpos moves h2e2");
    drv_send(&e, "go wtime 100 btime 1500 winc 0 binc 0");
    CHECK(search_to_end(&e, true, line, sizeof line, 5000));
    CHECK(bestmove_legal(line, NULL, "h2e2"));
    drv_send(&e, "go movetime 100");
    CHECK(search_to_end(&e, true, line, sizeof line, 5000));
    drv_send(&e, "go depth 3 searchmoves h9g7 b9c7");
    CHECK(search_to_end(&e, true, line, sizeof line, DRV_TIMEOUT));
    CHECK(strncmp(line, "bestmove h9g7", 13) == 0 || strncmp(line, "bestmove b9c7", 13) == 0);

    /* mate scores in moves; no move: bestmove (none) */
    drv_mark(&e);
    drv_send(&e, "position fen %s", FEN_MATE_IN_1);
    drv_send(&e, "go mate 1");
    CHECK(search_to_end(&e, true, line, sizeof line, DRV_TIMEOUT));
    CHECK(strncmp(line, "bestmove a1a9", 13) == 0);
    CHECK(seen_prefix(&e, "info depth") && drv_count(&e, "info") > 0);
    bool mate1 = false;
    for (int i = 0; i < e.kept; i++)
        mate1 |= strstr(e.lines[i], " score mate 1 ") != NULL;
    CHECK(mate1);
    drv_send(&e, "position fen %s", FEN_LOST);
    drv_send(&e, "go depth 4");
    CHECK(search_to_end(&e, true, line, sizeof line, DRV_TIMEOUT));
    CHECK(strstr(line, "resign") == NULL && strstr(line, "draw") == NULL);
    drv_send(&e, "position fen %s", FEN_MATED);
    drv_send(&e, "go depth 3");
    CHECK(search_to_end(&e, true, line, sizeof line, DRV_TIMEOUT));
    CHECK_EQ_STR(line, "bestmove (none)");

    /* stop while idle says nothing in UCI; infinite waits for stop */
    drv_mark(&e);
    drv_send(&e, "stop");
    CHECK(drv_sync(&e));
    CHECK_EQ_INT(e.kept, 1);
    drv_send(&e, "position startpos");
    drv_send(&e, "go infinite");
    drv_sleep_ms(200);
    drv_send(&e, "stop");
    CHECK(search_to_end(&e, true, line, sizeof line, 5000));
    CHECK(bestmove_legal(line, NULL, NULL));
    drv_send(&e, "go ponder wtime 1000 btime 1000");
    drv_sleep_ms(100);
    drv_send(&e, "ponderhit");
    CHECK(search_to_end(&e, true, line, sizeof line, 5000));

    drv_send(&e, "quit");
    CHECK_EQ_INT(drv_wait_exit(&e, DRV_TIMEOUT), 0);
}

/* The info lines of one `go nodes`, with the timing fields removed. */
static int collect_run(Engine *e, char lines[][DRV_LINE], int max)
{
    drv_send(e, "setoption newgame");
    drv_send(e, "position startpos moves h2e2");
    drv_send(e, "go nodes 20000");
    int n = 0;
    char line[DRV_LINE];
    while (n < max && drv_getline(e, line, sizeof line, DRV_TIMEOUT) == 1) {
        if (drv_is(line, "info") && strstr(line, "currmove"))
            continue;
        char out[DRV_LINE];
        size_t k = 0;
        char *save = NULL;
        bool skip = false;
        for (char *t = strtok_r(line, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
            if (skip) {
                skip = false;
                continue;
            }
            if (strcmp(t, "time") == 0 || strcmp(t, "nps") == 0) {
                skip = true;
                continue;
            }
            k += (size_t)snprintf(out + k, sizeof out - k, "%s%s", k ? " " : "", t);
            if (k >= sizeof out)
                k = sizeof out - 1;
        }
        snprintf(lines[n++], DRV_LINE, "%s", out);
        if (drv_is(out, "bestmove") || drv_is(out, "nobestmove"))
            break;
    }
    return n;
}

static void group_determinism(void)
{
    static char a[128][DRV_LINE], b[128][DRV_LINE], c[128][DRV_LINE];
    Engine e;
    if (!start(&e, "ucci"))
        exit(1);
    int na = collect_run(&e, a, 128);
    int nb = collect_run(&e, b, 128);
    finish(&e, true);
    if (!start(&e, "ucci"))
        exit(1);
    int nc = collect_run(&e, c, 128);
    finish(&e, true);
    printf("determinism: %d lines, last '%s'\n", na, na ? a[na - 1] : "");
    CHECK(na >= 2);
    CHECK(drv_is(a[na - 1], "bestmove"));
    CHECK_EQ_INT(na, nb);
    CHECK_EQ_INT(na, nc);
    for (int i = 0; i < na && i < nb && i < nc; i++) {
        CHECK_EQ_STR(a[i], b[i]);
        CHECK_EQ_STR(a[i], c[i]);
    }
}

/* The opening book: tests/data/book_small.dat holds the start position
 * (h2e2 10, b2e2 10, c3c4 3) and, only as its mirror, the position after
 * h2e2 (h9g7 7, b9c7 2). */
static void group_book(void)
{
    Engine e;
    char line[DRV_LINE];
    if (!start(&e, "ucci"))
        exit(1);
    CHECK(seen_prefix(&e, "option usebook type check default true"));
    CHECK(seen_prefix(&e, "option bookfiles type string"));
    drv_send(&e, "setoption usemillisec true");
    drv_send(&e, "setoption bookfiles %s/book_small.dat", CHARIOT_DATA_DIR);
    drv_send(&e, "position startpos");
    drv_mark(&e);
    drv_send(&e, "go time 3000 increment 0");
    CHECK(drv_expect(&e, "bestmove", line, sizeof line, DRV_TIMEOUT));
    CHECK(strcmp(line, "bestmove h2e2 ponder h9g7") == 0 || strcmp(line, "bestmove b2e2 ponder b9c7") == 0 ||
          strcmp(line, "bestmove c3c4") == 0);
    CHECK_EQ_INT(drv_count(&e, "info"), 3);
    CHECK(seen_prefix(&e, "info depth 0 score 10 pv h2e2"));
    CHECK(seen_prefix(&e, "info depth 0 score 3 pv c3c4"));

    /* Found through the mirror; the heaviest reply is listed first. */
    drv_send(&e, "position startpos moves h2e2");
    drv_mark(&e);
    drv_send(&e, "go time 3000 increment 0");
    CHECK(drv_expect(&e, "bestmove", line, sizeof line, DRV_TIMEOUT));
    CHECK(strcmp(line, "bestmove h9g7") == 0 || strcmp(line, "bestmove b9c7") == 0);
    CHECK(seen_prefix(&e, "info depth 0 score 7 pv h9g7"));

    /* banmoves removes book moves; with none left the search answers. */
    drv_send(&e, "position startpos moves h2e2");
    drv_send(&e, "banmoves h9g7 b9c7");
    drv_mark(&e);
    drv_send(&e, "go time 3000 increment 0");
    CHECK(drv_expect(&e, "bestmove", line, sizeof line, DRV_TIMEOUT));
    CHECK(strncmp(line, "bestmove h9g7", 13) != 0 && strncmp(line, "bestmove b9c7", 13) != 0);
    CHECK_EQ_INT(drv_count(&e, "info depth 0"), 0);

    /* Analysis never answers from the book; usebook false turns it off. */
    drv_send(&e, "position startpos");
    drv_mark(&e);
    drv_send(&e, "go depth 3");
    CHECK(drv_expect(&e, "bestmove", NULL, 0, DRV_TIMEOUT));
    CHECK_EQ_INT(drv_count(&e, "info depth 0"), 0);
    drv_send(&e, "setoption usebook false");
    drv_mark(&e);
    drv_send(&e, "go time 3000 increment 0");
    CHECK(drv_expect(&e, "bestmove", NULL, 0, DRV_TIMEOUT));
    CHECK_EQ_INT(drv_count(&e, "info depth 0"), 0);
    drv_send(&e, "setoption usebook true");

    /* A missing or corrupt book: one error, the old book stays, no crash. */
    drv_mark(&e);
    drv_send(&e, "setoption bookfiles /nonexistent/BOOK.DAT");
    drv_send(&e, "setoption bookfiles %s/perft.epd", CHARIOT_DATA_DIR);
    CHECK(drv_sync(&e));
    int book_errors = 0;
    for (int i = 0; i < e.kept; i++)
        book_errors += strncmp(e.lines[i], "info string error: option bookfiles", 35) == 0;
    CHECK_EQ_INT(book_errors, 2);
    drv_mark(&e);
    drv_send(&e, "go time 3000 increment 0");
    CHECK(drv_expect(&e, "bestmove", NULL, 0, DRV_TIMEOUT));
    CHECK_EQ_INT(drv_count(&e, "info depth 0"), 3);
    /* <empty> drops the book: the search answers. */
    drv_send(&e, "setoption bookfiles <empty>");
    drv_mark(&e);
    drv_send(&e, "go time 3000 increment 0");
    CHECK(drv_expect(&e, "bestmove", NULL, 0, DRV_TIMEOUT));
    CHECK_EQ_INT(drv_count(&e, "info depth 0"), 0);
    finish(&e, true);

    /* The UCI dialect's names: OwnBook and BookFile. */
    if (!start(&e, "uci"))
        exit(1);
    CHECK(seen_prefix(&e, "option name OwnBook type check default true"));
    CHECK(seen_prefix(&e, "option name BookFile type string"));
    drv_send(&e, "setoption name BookFile value %s/book_small.dat", CHARIOT_DATA_DIR);
    drv_send(&e, "position startpos");
    drv_mark(&e);
    drv_send(&e, "go wtime 3000 btime 3000");
    CHECK(drv_expect(&e, "bestmove", NULL, 0, DRV_TIMEOUT));
    CHECK(seen_prefix(&e, "info depth 0 score cp 10 pv h2e2"));
    finish(&e, false);
}

/* Strength levels: skill (UCCI), Skill Level / UCI_LimitStrength / UCI_Elo
 * (UCI). A weak level searches a small node budget. */
static void group_skill(void)
{
    Engine e;
    char line[DRV_LINE];
    if (!start(&e, "ucci"))
        exit(1);
    CHECK(seen_prefix(&e, "option skill type spin min 0 max 20 default 20"));
    CHECK(!seen_prefix(&e, "option ucielo"));
    drv_mark(&e);
    drv_send(&e, "setoption skill 21");
    CHECK(drv_sync(&e));
    CHECK_EQ_INT(drv_count(&e, "info"), 1); /* the out-of-range error */
    drv_send(&e, "setoption usemillisec true");
    drv_send(&e, "setoption skill 0");
    drv_send(&e, "position startpos");
    drv_mark(&e);
    drv_send(&e, "go time 60000 increment 0");
    CHECK(drv_expect(&e, "bestmove", line, sizeof line, DRV_TIMEOUT));
    /* Level 0's budget is a few hundred nodes; the search checks it every
     * 1024 nodes at most, so no iteration reports more than a few thousand. */
    long long most = 0;
    for (int i = 0; i < e.kept; i++) {
        const char *p = strstr(e.lines[i], " nodes ");
        if (p && strncmp(e.lines[i], "info depth", 10) == 0 && atoll(p + 7) > most)
            most = atoll(p + 7);
    }
    CHECK(most > 0 && most <= 4096);
    finish(&e, true);

    if (!start(&e, "uci"))
        exit(1);
    CHECK(seen_prefix(&e, "option name Skill Level type spin default 20 min 0 max 20"));
    CHECK(seen_prefix(&e, "option name UCI_LimitStrength type check default false"));
    CHECK(seen_prefix(&e, "option name UCI_Elo type spin default 2800 min 800 max 2800"));
    drv_mark(&e);
    drv_send(&e, "setoption name UCI_Elo value 100");
    drv_send(&e, "setoption name UCI_LimitStrength value true");
    drv_send(&e, "setoption name UCI_Elo value 1000");
    drv_send(&e, "setoption name Skill Level value 3");
    CHECK(drv_sync(&e));
    CHECK_EQ_INT(drv_count(&e, "info"), 1); /* only UCI_Elo 100 is refused */
    drv_send(&e, "position startpos");
    drv_send(&e, "go wtime 60000 btime 60000");
    CHECK(drv_expect(&e, "bestmove", NULL, 0, DRV_TIMEOUT));
    finish(&e, false);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_protocol CHARIOT GROUP\n");
        return 2;
    }
    engine_path = argv[1];
    board_init();
    static const struct {
        const char *name;
        void (*run)(void);
    } groups[] = {
        {"handshake", group_handshake}, {"commands", group_commands}, {"badinput", group_badinput},
        {"eof", group_eof},             {"stop", group_stop},         {"batch", group_batch},
        {"uci", group_uci},             {"determinism", group_determinism}, {"book", group_book},
        {"skill", group_skill},
    };
    for (size_t i = 0; i < sizeof groups / sizeof *groups; i++) {
        if (strcmp(argv[2], groups[i].name) == 0) {
            groups[i].run();
            TEST_END();
        }
    }
    fprintf(stderr, "unknown group %s\n", argv[2]);
    return 2;
}
