/* test_match_client.c — the protocol client: command splitting, info parsing, go lines, handshakes with toy engines. */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "match.h"
#include "test.h"

static const char *toy;

static void check_split(void)
{
    char **a = client_split_command("  ./eng --x 'a b' \"c \\\"d\\\"\" e\\ f  ");
    CHECK(a != NULL);
    if (!a)
        return;
    CHECK_EQ_STR(a[0], "./eng");
    CHECK_EQ_STR(a[1], "--x");
    CHECK_EQ_STR(a[2], "a b");
    CHECK_EQ_STR(a[3], "c \"d\"");
    CHECK_EQ_STR(a[4], "e f");
    CHECK(a[5] == NULL);
    client_free_argv(a);
    CHECK(client_split_command("a 'b") == NULL);
    CHECK(client_split_command("   ") == NULL);
}

static void check_moves_info(void)
{
    char m[8];
    CHECK(client_move_from_rank1("h3e3", m));
    CHECK_EQ_STR(m, "h2e2");
    CHECK(client_move_from_rank1("a10a9", m));
    CHECK_EQ_STR(m, "a9a8");
    CHECK(!client_move_from_rank1("a11a9", m));
    CHECK(!client_move_from_rank1("a0a1", m));
    CHECK(!client_move_from_rank1("j1j2", m));
    client_move_to_rank1("b9c7", m);
    CHECK_EQ_STR(m, "b10c8");

    ClientSearchInfo info = {0, false, 0, -1, -1, -1};
    client_parse_info("info depth 12 seldepth 18 multipv 1 score cp -35 nodes 567890 nps 460000 time 1234 pv h2e2 h9g7",
                      &info);
    CHECK_EQ_INT(info.depth, 12);
    CHECK(info.has_score);
    CHECK_EQ_INT(info.score, -35);
    CHECK_EQ_INT(info.nodes, 567890);
    CHECK_EQ_INT(info.nps, 460000);
    CHECK_EQ_INT(info.time_ms, 1234);
    client_parse_info("info depth 13 score 40 pv h2e2", &info); /* UCCI: bare score */
    CHECK_EQ_INT(info.score, 40);
    CHECK_EQ_INT(info.depth, 13);
    client_parse_info("info depth 14 score mate -3 nodes 10", &info);
    CHECK_EQ_INT(info.score, -(CLIENT_MATE_SCORE - 3));
    client_parse_info("info string depth 99 nodes 1", &info); /* free text is not parsed */
    CHECK_EQ_INT(info.depth, 14);
    client_parse_info("info depth x score cp", &info); /* malformed: ignored */
    CHECK_EQ_INT(info.depth, 14);
}

static void check_go_lines(void)
{
    ClientEngine e;
    memset(&e, 0, sizeof e);
    ClientGo go = {0, 9500, 10200, 100, 100, 0, 0, -1, 0, 0, false};
    char line[256];
    e.ucci_mode = true;
    e.millisec = true;
    client_format_go(&e, &go, line, sizeof line);
    CHECK_EQ_STR(line, "go time 9500 increment 100 opptime 10200 oppincrement 100");
    e.millisec = false; /* seconds: whole seconds, never 0 while time is left */
    client_format_go(&e, &go, line, sizeof line);
    CHECK_EQ_STR(line, "go time 9 increment 0 opptime 10 oppincrement 0");
    go.own_time = 400;
    client_format_go(&e, &go, line, sizeof line);
    CHECK_EQ_STR(line, "go time 1 increment 0 opptime 10 oppincrement 0");
    e.millisec = true;
    ClientGo mtg = {1, 60000, 50000, 0, 0, 12, 3, -1, 0, 0, false};
    client_format_go(&e, &mtg, line, sizeof line);
    CHECK_EQ_STR(line, "go time 60000 movestogo 12 opptime 50000 oppmovestogo 3");
    ClientGo st = {0, -1, -1, 0, 0, 0, 0, 500, 0, 0, false};
    client_format_go(&e, &st, line, sizeof line);
    CHECK_EQ_STR(line, "go time 500 movestogo 1 opptime 500 oppmovestogo 1 movetime 500");
    ClientGo depth = {0, -1, -1, 0, 0, 0, 0, -1, 7, 0, false};
    client_format_go(&e, &depth, line, sizeof line);
    CHECK_EQ_STR(line, "go depth 7");
    e.ucci_mode = false; /* UCI */
    ClientGo black = {1, 9500, 10200, 100, 200, 0, 0, -1, 0, 5000, false};
    client_format_go(&e, &black, line, sizeof line);
    CHECK_EQ_STR(line, "go wtime 10200 btime 9500 winc 200 binc 100 nodes 5000");
    client_format_go(&e, &mtg, line, sizeof line);
    CHECK_EQ_STR(line, "go wtime 50000 btime 60000 movestogo 12");
    client_format_go(&e, &st, line, sizeof line);
    CHECK_EQ_STR(line, "go movetime 500");

    /* go ponder: the clocks the engine will have once the guessed move is played */
    black.ponder = true;
    client_format_go(&e, &black, line, sizeof line);
    CHECK_EQ_STR(line, "go ponder wtime 10200 btime 9500 winc 200 binc 100 nodes 5000");
    e.ucci_mode = true;
    ClientGo pgo = {0, 9500, 10200, 100, 100, 0, 0, -1, 0, 0, true};
    client_format_go(&e, &pgo, line, sizeof line);
    CHECK_EQ_STR(line, "go ponder time 9500 increment 100 opptime 10200 oppincrement 100");
    ClientGo bare = {0, -1, -1, 0, 0, 0, 0, -1, 0, 0, true};
    client_format_go(&e, &bare, line, sizeof line);
    CHECK_EQ_STR(line, "go ponder infinite");
}

static void check_tc(void)
{
    MatchTc tc;
    char text[64];
    match_tc_init(&tc);
    CHECK(match_tc_parse("10+0.1", &tc));
    CHECK_EQ_INT(tc.base_ms, 10000);
    CHECK_EQ_INT(tc.inc_ms, 100);
    CHECK_EQ_INT(tc.moves, 0);
    match_tc_describe(&tc, text, sizeof text);
    CHECK_EQ_STR(text, "10+0.1");
    CHECK(match_tc_parse("40/60", &tc));
    CHECK_EQ_INT(tc.moves, 40);
    CHECK_EQ_INT(tc.base_ms, 60000);
    CHECK_EQ_INT(tc.inc_ms, 0);
    match_tc_describe(&tc, text, sizeof text);
    CHECK_EQ_STR(text, "40/60");
    CHECK(match_tc_parse("1:30+1", &tc));
    CHECK_EQ_INT(tc.base_ms, 90000);
    CHECK_EQ_INT(tc.inc_ms, 1000);
    CHECK(!match_tc_parse("abc", &tc));
    CHECK(!match_tc_parse("10+", &tc));
    CHECK(!match_tc_parse("0/10", &tc));
    CHECK(!match_tc_parse("-5", &tc));
    match_tc_init(&tc);
    tc.movetime_ms = 500;
    tc.depth = 6;
    match_tc_describe(&tc, text, sizeof text);
    CHECK_EQ_STR(text, "st=0.5 depth=6");
}

/* Starts the toy with extra arguments and runs the handshake. */
static ClientStatus start_toy(ClientEngine *e, const char *args, ClientProto proto)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s %s", toy, args);
    char **argv = client_split_command(cmd);
    memset(e, 0, sizeof *e);
    CHECK(client_start(e, argv, NULL, -1));
    client_free_argv(argv);
    ClientStatus st = client_handshake(e, proto, 20000, 1000, NULL);
    if (st == CLIENT_OK) {
        client_finish_options(e);
        client_new_game(e);
        st = client_sync(e, client_now_ms() + 20000, NULL);
    }
    return st;
}

static void check_handshakes(void)
{
    ClientEngine e;
    /* UCCI, seconds */
    CHECK_EQ_INT(start_toy(&e, "--proto ucci", CLIENT_PROTO_UCCI), CLIENT_OK);
    CHECK_EQ_INT(e.proto, CLIENT_PROTO_UCCI);
    CHECK(e.ucci_mode && !e.millisec && e.has_newgame);
    CHECK_EQ_STR(e.name, "toy");
    client_position(&e, NULL, NULL, 0);
    ClientGo go = {0, -1, -1, 0, 0, 0, 0, -1, 3, 0, false};
    CHECK(client_go(&e, &go));
    ClientBestMove best;
    ClientSearchInfo info = {0, false, 0, -1, -1, -1};
    CHECK_EQ_INT(client_wait_bestmove(&e, client_now_ms() + 20000, NULL, &best, &info), CLIENT_OK);
    CHECK_EQ_INT(best.reply, CLIENT_REPLY_MOVE);
    CHECK_EQ_INT((int)strlen(best.text), 4);
    CHECK_EQ_INT(info.depth, 3);
    CHECK(info.has_score);
    client_quit(&e, 2000);
    CHECK(e.reaped);
    CHECK(!e.proc.crashed && e.proc.exit_code == 0);
    client_release(&e);

    /* UCCI with usemillisec advertised */
    CHECK_EQ_INT(start_toy(&e, "--proto ucci --usemillisec", CLIENT_PROTO_UCCI), CLIENT_OK);
    CHECK(e.millisec);
    client_quit(&e, 2000);
    client_release(&e);

    /* AUTO on a UCI-only engine falls back to uci */
    CHECK_EQ_INT(start_toy(&e, "--proto uci", CLIENT_PROTO_AUTO), CLIENT_OK);
    CHECK_EQ_INT(e.proto, CLIENT_PROTO_UCI);
    CHECK(!e.ucci_mode);
    client_quit(&e, 2000);
    client_release(&e);

    /* AUTO on an engine speaking both picks UCCI */
    CHECK_EQ_INT(start_toy(&e, "", CLIENT_PROTO_AUTO), CLIENT_OK);
    CHECK_EQ_INT(e.proto, CLIENT_PROTO_UCCI);
    client_quit(&e, 2000);
    client_release(&e);

    /* UCCI requested from a UCI-only engine: no ucciok, a timeout */
    char **argv = client_split_command(toy);
    memset(&e, 0, sizeof e);
    CHECK(client_start(&e, argv, NULL, -1));
    client_free_argv(argv);
    e.proto = CLIENT_PROTO_UCCI;
    client_send(&e, "uci");
    char line[256];
    CHECK_EQ_INT(client_read_line(&e, line, sizeof line, client_now_ms() + 20000, NULL), CLIENT_OK);
    CHECK_EQ_STR(line, "id name toy");
    client_kill(&e);
    CHECK(e.reaped);
    client_release(&e);

    /* a silent engine: reading times out, then the kill reaps it */
    CHECK_EQ_INT(start_toy(&e, "--mode silent", CLIENT_PROTO_UCI), CLIENT_OK);
    client_position(&e, NULL, NULL, 0);
    client_go(&e, &go);
    CHECK_EQ_INT(client_wait_bestmove(&e, client_now_ms() + 100, NULL, &best, &info), CLIENT_TIMEOUT);
    client_kill(&e);
    CHECK(e.reaped);
    client_release(&e);

    /* ponder: the advertised option, `ponder X` read (and translated for
     * UCI10), an answer held until ponderhit, drained without waiting */
    CHECK_EQ_INT(start_toy(&e, "--proto uci --ponder --seed 3", CLIENT_PROTO_UCI10), CLIENT_OK);
    CHECK_EQ_STR(e.ponder_option, "Ponder");
    CHECK(client_enable_ponder(&e));
    client_position(&e, NULL, NULL, 0);
    CHECK(client_go(&e, &go));
    CHECK_EQ_INT(client_wait_bestmove(&e, client_now_ms() + 20000, NULL, &best, &info), CLIENT_OK);
    CHECK_EQ_INT((int)strlen(best.ponder), 4);
    CHECK(best.ponder[1] >= '0' && best.ponder[1] <= '9' && best.ponder[3] >= '0' && best.ponder[3] <= '9');
    const char *line1[] = {best.text, best.ponder};
    client_position(&e, NULL, line1, 2);
    ClientGo ponder_go = {0, 5000, 5000, 0, 0, 0, 0, -1, 0, 0, true};
    CHECK(client_go(&e, &ponder_go));
    CHECK_EQ_INT(client_sync(&e, client_now_ms() + 20000, NULL), CLIENT_OK); /* it has read the go */
    CHECK_EQ_INT(client_poll_bestmove(&e, &best, &info), CLIENT_TIMEOUT);
    CHECK(client_send(&e, "ponderhit"));
    CHECK_EQ_INT(client_sync(&e, client_now_ms() + 20000, NULL), CLIENT_OK); /* the answer came before readyok */
    client_quit(&e, 2000);
    client_release(&e);

    CHECK_EQ_INT(start_toy(&e, "--proto ucci --ponder --ponder-early", CLIENT_PROTO_UCCI), CLIENT_OK);
    CHECK_EQ_STR(e.ponder_option, "ponder");
    client_position(&e, NULL, NULL, 0);
    CHECK(client_go(&e, &ponder_go));
    CHECK_EQ_INT(client_sync(&e, client_now_ms() + 20000, NULL), CLIENT_OK);
    CHECK_EQ_INT(client_poll_bestmove(&e, &best, &info), CLIENT_TIMEOUT); /* swallowed by the sync */
    CHECK(client_go(&e, &ponder_go));
    ClientStatus polled = CLIENT_TIMEOUT;
    for (int i = 0; i < 20000 && polled == CLIENT_TIMEOUT; i++) {
        polled = client_poll_bestmove(&e, &best, &info);
        if (polled == CLIENT_TIMEOUT)
            proc_sleep_ms(1);
    }
    CHECK_EQ_INT(polled, CLIENT_OK); /* the early answer */
    CHECK_EQ_INT(best.reply, CLIENT_REPLY_MOVE);
    CHECK_EQ_INT((int)strlen(best.ponder), 4);
    client_quit(&e, 2000);
    client_release(&e);

    /* a program that does not exist */
    memset(&e, 0, sizeof e);
    char *bad[] = {"/nonexistent/engine", NULL};
    CHECK(!client_start(&e, bad, NULL, -1));
    CHECK(strstr(e.error, "cannot run") != NULL);
    client_release(&e);
    memset(&e, 0, sizeof e);
    char *in_bad_dir[] = {(char *)toy, NULL};
    CHECK(!client_start(&e, in_bad_dir, "/nonexistent/dir", -1));
    CHECK(strstr(e.error, "directory") != NULL);
    client_release(&e);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_match_client TOY_ENGINE\n");
        return 2;
    }
    toy = argv[1];
    board_init();
    client_ignore_sigpipe();
    check_split();
    check_moves_info();
    check_go_lines();
    check_tc();
    check_handshakes();
    TEST_END();
}
