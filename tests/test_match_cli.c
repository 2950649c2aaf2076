/* test_match_cli.c — `chariot match` end to end with toy engines: concurrency, PGN and JSON output, SPRT lines, bad arguments, Ctrl-C. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "match.h"
#include "test.h"

static const char *chariot, *toy;
static char dir[128];

/* Runs chariot with args; stdout and stderr go to out. Returns the exit
 * code, or 1000 + signal. If interrupt_ms > 0, sends SIGINT after that long. */
static int run(char *const *args, const char *out, int interrupt_ms)
{
    pid_t pid = fork();
    if (pid == 0) {
        FILE *f = freopen(out, "w", stdout);
        if (!f)
            _exit(99);
        dup2(1, 2);
        execv(chariot, args);
        _exit(98);
    }
    if (interrupt_ms > 0) {
        struct timespec ts = {interrupt_ms / 1000, (long)(interrupt_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        kill(pid, SIGINT);
    }
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1000 + WTERMSIG(st);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return calloc(1, 1);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = calloc((size_t)n + 1, 1);
    if (fread(s, 1, (size_t)n, f) != (size_t)n)
        s[0] = '\0';
    fclose(f);
    return s;
}

static int count_games(const char *pgn)
{
    FILE *f = fopen(pgn, "r");
    if (!f)
        return -1;
    MatchPgnGame *g = malloc(sizeof *g);
    char err[160];
    int n = 0, r;
    while ((r = match_pgn_read(f, g, err, sizeof err)) == 1)
        n++;
    if (r < 0) {
        fprintf(stderr, "PGN error: %s\n", err);
        n = -1;
    }
    free(g);
    fclose(f);
    return n;
}

static void check_match(void)
{
    char cmd_a[512], cmd_b[512], pgn[160], json[160], out[160];
    snprintf(cmd_a, sizeof cmd_a, "cmd=%s --seed 1", toy);
    snprintf(cmd_b, sizeof cmd_b, "cmd=%s --proto uci --seed 2", toy);
    snprintf(pgn, sizeof pgn, "%s/games.pgn", dir);
    snprintf(json, sizeof json, "%s/summary.json", dir);
    snprintf(out, sizeof out, "%s/out.txt", dir);
    char *args[] = {(char *)chariot, "match", "-engine", "name=alpha", cmd_a, "proto=ucci", "tc=10+0.1",
                    "-engine", "name=beta", cmd_b, "-each", "tc=5+0.05", "proto=auto", "-games", "6",
                    "-concurrency", "2", "-maxplies", "80", "-pgnout", pgn, "-json", json, "-sprt", "elo0=0",
                    "elo1=5", NULL};
    CHECK_EQ_INT(run(args, out, 0), 0);
    char *text = slurp(out);
    CHECK(strstr(text, "Finished game 6") != NULL);
    CHECK(strstr(text, "Score of alpha vs beta") != NULL);
    CHECK(strstr(text, "pentanomial") != NULL);
    CHECK(strstr(text, "Elo difference (trinomial)") != NULL);
    CHECK(strstr(text, "Runner CPU") != NULL);
    CHECK(strstr(text, "alpha: ") != NULL && strstr(text, "[ucci, 10+0.1]") != NULL);
    CHECK(strstr(text, "beta: ") != NULL && strstr(text, "[auto, 5+0.05]") != NULL);
    free(text);
    CHECK_EQ_INT(count_games(pgn), 6);
    text = slurp(json);
    CHECK(strstr(text, "\"games_played\": 6") != NULL);
    CHECK(strstr(text, "\"sprt\": {\"model\": \"pentanomial\"") != NULL);
    CHECK(strstr(text, "\"proto\": \"uci\"") != NULL); /* beta's dialect, found by auto */
    free(text);

    /* WXF PGN, random order, a file of openings with move lists */
    char book[160], pgn2[160];
    snprintf(book, sizeof book, "%s/book.txt", dir);
    snprintf(pgn2, sizeof pgn2, "%s/wxf.pgn", dir);
    FILE *f = fopen(book, "w");
    fputs("# test book\nh2e2 h9g7\n\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1\n", f);
    fclose(f);
    char bookarg[200];
    snprintf(bookarg, sizeof bookarg, "file=%s", book);
    char *args2[] = {(char *)chariot, "match", "-engine", cmd_a, "-engine", cmd_b, "-each", "depth=1",
                     "-games", "4", "-openings", bookarg, "order=random", "seed=3", "-pgnout", pgn2,
                     "-pgnformat", "wxf", "-maxplies", "30", NULL};
    CHECK_EQ_INT(run(args2, out, 0), 0);
    CHECK_EQ_INT(count_games(pgn2), 4);
    text = slurp(pgn2);
    CHECK(strstr(text, "[Format \"WXF\"]") != NULL);
    CHECK(strstr(text, "[Red \"toy_engine\"]") != NULL || strstr(text, "[Red \"toy_engine-2\"]") != NULL);
    free(text);
    /* 4 games on 2 openings at a fixed depth are all distinct: no warning */
    text = slurp(out);
    CHECK(strstr(text, "replays") == NULL);
    free(text);

    /* 6 games on those 2 openings: the last 2 repeat an (opening, colours)
     * pair, which a fixed-depth game replays, and the runner says so */
    char *args3[] = {(char *)chariot, "match", "-engine", cmd_a, "-engine", cmd_b, "-each", "depth=1",
                     "-games", "6", "-openings", bookarg, "-maxplies", "10", NULL};
    CHECK_EQ_INT(run(args3, out, 0), 0);
    text = slurp(out);
    CHECK(strstr(text, "warning: with nodes= or depth= and no clock") != NULL);
    CHECK(strstr(text, "2 opening(s) give 4 distinct games of the 6") != NULL);
    free(text);
    /* with a clock the games vary: no warning */
    char *args4[] = {(char *)chariot, "match", "-engine", cmd_a, "-engine", cmd_b, "-each", "st=0.01",
                     "-games", "6", "-openings", bookarg, "-maxplies", "10", NULL};
    CHECK_EQ_INT(run(args4, out, 0), 0);
    text = slurp(out);
    CHECK(strstr(text, "replays") == NULL);
    free(text);
}

static void check_bad_arguments(void)
{
    char out[160];
    snprintf(out, sizeof out, "%s/bad.txt", dir);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cmd=%s", toy);
    char *one[] = {(char *)chariot, "match", "-engine", cmd, "tc=1+0", NULL};
    CHECK_EQ_INT(run(one, out, 0), 2);
    char *notc[] = {(char *)chariot, "match", "-engine", cmd, "-engine", cmd, NULL};
    CHECK_EQ_INT(run(notc, out, 0), 2);
    char *badtc[] = {(char *)chariot, "match", "-engine", cmd, "tc=abc", "-engine", cmd, NULL};
    CHECK_EQ_INT(run(badtc, out, 0), 2);
    char *badkey[] = {(char *)chariot, "match", "-engine", cmd, "colour=red", "-engine", cmd, "-each", "st=1", NULL};
    CHECK_EQ_INT(run(badkey, out, 0), 2);
    char *badopt[] = {(char *)chariot, "match", "-engine", cmd, "-engine", cmd, "-each", "st=1", "-frobnicate", NULL};
    CHECK_EQ_INT(run(badopt, out, 0), 2);
    char *nobook[] = {(char *)chariot, "match", "-engine", cmd, "-engine", cmd, "-each", "st=1", "-openings",
                      "file=/nonexistent", NULL};
    CHECK_EQ_INT(run(nobook, out, 0), 2);
    /* an engine that does not exist stops the match with exit code 1 */
    char *missing[] = {(char *)chariot, "match", "-engine", cmd, "-engine", "cmd=/nonexistent/engine", "-each",
                       "st=1", NULL};
    CHECK_EQ_INT(run(missing, out, 0), 1);
    char *text = slurp(out);
    CHECK(strstr(text, "cannot run /nonexistent/engine") != NULL);
    free(text);
}

static void check_interrupt(void)
{
    /* Silent engines with a depth limit never finish a move: only Ctrl-C ends it. */
    char cmd[512], out[160], pgn[160], json[160];
    snprintf(cmd, sizeof cmd, "cmd=%s --mode silent --after 2", toy);
    snprintf(out, sizeof out, "%s/int.txt", dir);
    snprintf(pgn, sizeof pgn, "%s/int.pgn", dir);
    snprintf(json, sizeof json, "%s/int.json", dir);
    char *args[] = {(char *)chariot, "match", "-engine", cmd, "-engine", cmd, "-each", "depth=3", "-concurrency",
                    "2", "-games", "4", "-pgnout", pgn, "-json", json, NULL};
    CHECK_EQ_INT(run(args, out, 1500), 130);
    char *text = slurp(out);
    CHECK(strstr(text, "Interrupted: 0 game(s) finished, 2 aborted") != NULL);
    free(text);
    text = slurp(json);
    CHECK(strstr(text, "\"interrupted\": true") != NULL);
    CHECK(strstr(text, "\"games_played\": 0") != NULL);
    free(text);
    CHECK_EQ_INT(count_games(pgn), 0);
}

static int count_substr(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* ponder=true from -each, switched off again by one engine's own key; the
 * counts in the table, the JSON and through match-merge. */
static void check_ponder(void)
{
    char cmd_a[512], cmd_b[512], json[160], merged[160], out[160];
    snprintf(cmd_a, sizeof cmd_a, "cmd=%s --ponder --ponder-miss 4 --seed 8", toy);
    snprintf(cmd_b, sizeof cmd_b, "cmd=%s --proto uci --ponder --seed 8", toy);
    snprintf(json, sizeof json, "%s/ponder.json", dir);
    snprintf(merged, sizeof merged, "%s/ponder-merged.json", dir);
    snprintf(out, sizeof out, "%s/ponder.txt", dir);
    char *args[] = {(char *)chariot, "match", "-engine", "name=a", cmd_a, "-engine", "name=b", cmd_b,
                    "ponder=false", "-engine", "name=c", cmd_b, "-each", "tc=5+0.05", "ponder=true", "-games", "2",
                    "-maxplies", "30", "-json", json, NULL};
    CHECK_EQ_INT(run(args, out, 0), 0);
    char *text = slurp(out);
    CHECK(strstr(text, "[auto, 5+0.05, ponder]") != NULL);
    CHECK(strstr(text, "[auto, 5+0.05]") != NULL);
    CHECK(strstr(text, "a pondered ") != NULL);
    CHECK(strstr(text, "c pondered ") != NULL);
    CHECK(strstr(text, "b pondered ") == NULL);
    free(text);
    text = slurp(json);
    CHECK_EQ_INT(count_substr(text, "\"nodes\": 0}, \"ponder\": true}"), 2);
    const char *a = strstr(text, "\n    {\"name\": \"a\", \"cmd\""); /* the engines' table, not the config */
    a = a ? a + 1 : NULL;
    const char *hits = a ? strstr(a, "\"ponders\": ") : NULL;
    CHECK(hits != NULL && hits < strstr(a, "\n"));
    char counts[64] = "";
    if (hits)
        snprintf(counts, sizeof counts, "%.*s", (int)strcspn(hits, "}"), hits);
    char *args2[] = {(char *)chariot, "match-merge", merged, json, NULL};
    CHECK_EQ_INT(run(args2, out, 0), 0);
    char *text2 = slurp(merged);
    CHECK(counts[0] && strstr(text2, counts) != NULL); /* the records read back */
    free(text2);
    free(text);

    char *bad[] = {(char *)chariot, "match", "-engine", cmd_a, "ponder=maybe", "-engine", cmd_b, "-each", "st=1",
                   NULL};
    CHECK_EQ_INT(run(bad, out, 0), 2);
    text = slurp(out);
    CHECK(strstr(text, "bad ponder 'maybe'") != NULL);
    free(text);
}

/* Chariot against itself, both pondering, at a fast clock: ponder hits, and
 * no time loss, stall, crash or illegal move. */
static void check_ponder_selfplay(void)
{
    char cmd[512], json[160], out[160];
    snprintf(cmd, sizeof cmd, "cmd=%s", chariot);
    snprintf(json, sizeof json, "%s/selfplay.json", dir);
    snprintf(out, sizeof out, "%s/selfplay.txt", dir);
    char *args[] = {(char *)chariot, "match", "-engine", "name=A", cmd, "-engine", "name=B", cmd, "-each",
                    "tc=1+0.02", "ponder=true", "-games", "2", "-maxplies", "60", "-timemargin", "200", "-json", json,
                    NULL};
    CHECK_EQ_INT(run(args, out, 0), 0);
    char *text = slurp(json);
    CHECK_EQ_INT(count_substr(text, "\"time_losses\": 0,"), 2);
    CHECK_EQ_INT(count_substr(text, "\"illegal_moves\": 0, \"crashes\": 0, \"no_moves\": 0,"), 2);
    CHECK_EQ_INT(count_substr(text, "\"ponder_hits\": "), 2 + 2 * 2); /* the engines, and each game's two sides */
    CHECK(strstr(text, "\"games_played\": 2") != NULL);
    free(text);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_match_cli CHARIOT TOY_ENGINE\n");
        return 2;
    }
    chariot = argv[1];
    toy = argv[2];
    board_init();
    snprintf(dir, sizeof dir, "/tmp/chariot_match_cli_%d", (int)getpid());
    char mk[200];
    snprintf(mk, sizeof mk, "mkdir -p %s", dir);
    if (system(mk) != 0)
        return 1;
    check_match();
    check_bad_arguments();
    check_interrupt();
    check_ponder();
    check_ponder_selfplay();
    snprintf(mk, sizeof mk, "rm -rf %s", dir);
    if (system(mk) != 0)
        return 1;
    TEST_END();
}
