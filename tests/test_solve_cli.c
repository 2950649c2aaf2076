/* test_solve_cli.c — runs the built `chariot solve` on good and bad input and
 * checks exit codes, messages and output. Usage: test_solve_cli CHARIOT TMPDIR */
#define _POSIX_C_SOURCE 200809L /* posix_spawn, waitpid */
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

extern char **environ;

/* Small depth and hash: these cases test the command, not the search. */
#define FAST "--depth", "3", "--hash", "4"

static const char *chariot;
static char tmpdir[512];

typedef struct RunOutput {
    int rc;
    char out[1 << 16];
    char err[1 << 14];
} RunOutput;

static RunOutput run_out;

static void read_file(const char *path, char *buf, size_t cap)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* Runs chariot with the given arguments (NULL-terminated); fills run_out. */
static const RunOutput *run(const char *const *args)
{
    char out_path[600], err_path[600];
    snprintf(out_path, sizeof out_path, "%s/solve_cli_%d.out", tmpdir, (int)getpid());
    snprintf(err_path, sizeof err_path, "%s/solve_cli_%d.err", tmpdir, (int)getpid());
    const char *argv[32];
    int n = 0;
    argv[n++] = chariot;
    for (; args[n - 1] && n < 31; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    run_out.rc = -1;
    if (posix_spawn(&pid, chariot, &fa, NULL, (char *const *)argv, environ) == 0) {
        int status;
        if (waitpid(pid, &status, 0) == pid && WIFEXITED(status))
            run_out.rc = WEXITSTATUS(status);
    }
    posix_spawn_file_actions_destroy(&fa);
    read_file(out_path, run_out.out, sizeof run_out.out);
    read_file(err_path, run_out.err, sizeof run_out.err);
    remove(out_path);
    remove(err_path);
    return &run_out;
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* An error: exit code 2 and exactly one line on stderr holding `word`. */
static void expect_error(const char *const *args, const char *word)
{
    const RunOutput *r = run(args);
    CHECK_EQ_INT(r->rc, 2);
    CHECK_EQ_INT(count_lines(r->err), 1);
    CHECK(strstr(r->err, word) != NULL);
    if (r->rc != 2 || !strstr(r->err, word))
        fprintf(stderr, "  args[0]=%s stderr: %s", args[0] ? args[0] : "(none)", r->err);
}

static void test_bad_input(void)
{
    expect_error((const char *const[]){"solve", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w", NULL},
                 "FEN");
    expect_error((const char *const[]){"solve", "4k4/9/9 w - - 0 1", NULL}, "FEN");
    expect_error((const char *const[]){"solve", "/nonexistent-dir/puzzles.epd", NULL}, "/nonexistent-dir/puzzles.epd");
    expect_error((const char *const[]){"solve", "no-such-puzzles", NULL}, "cannot open");
    expect_error((const char *const[]){"solve", "startpos", "--movetime", "abc", NULL}, "--movetime");
    expect_error((const char *const[]){"solve", "startpos", "--depth", NULL}, "--depth");
    expect_error((const char *const[]){"solve", "startpos", "--threads", "0", NULL}, "--threads");
    expect_error((const char *const[]){"solve", "startpos", "--hash", "99999999", NULL}, "--hash");
    expect_error((const char *const[]){"solve", "startpos", "--frobnicate", NULL}, "--frobnicate");
    expect_error((const char *const[]){"solve", "startpos", "--nodes", "0", NULL}, "--nodes");
    expect_error((const char *const[]){"solve", "startpos", "--nodes", "12x", NULL}, "--nodes");
    expect_error((const char *const[]){"solve", "startpos", "--json", "/nonexistent-dir/out.json", "--depth", "1", NULL},
                 "out.json");
    const RunOutput *r = run((const char *const[]){"solve", NULL});
    CHECK_EQ_INT(r->rc, 2);
    CHECK(strstr(r->err, "missing") != NULL);
}

static void test_one_fen(void)
{
    char json[600];
    snprintf(json, sizeof json, "%s/solve_cli_%d.json", tmpdir, (int)getpid());
    // sqyq-001-ply12 of mate.epd: a mate in 1.
    const RunOutput *r = run((const char *const[]){
        "solve", "2bP1N3/2R6/b4k3/4N2nc/9/C5P2/P7P/B3n3B/4Apr2/3AK3c w - - 0 1 ; mate 1 ; bm e6g5", FAST, "--json", json,
        NULL});
    CHECK_EQ_INT(r->rc, 0);
    CHECK(strstr(r->out, "(帅)") != NULL);      // the diagram
    CHECK(strstr(r->out, "[将]") != NULL);
    CHECK(strstr(r->out, " １ ") != NULL);
    CHECK(strstr(r->out, " 一 ") != NULL);
    CHECK(strstr(r->out, "Red to move") != NULL);
    CHECK(strstr(r->out, "mate in 1") != NULL);
    CHECK(strstr(r->out, "e6g5") != NULL);      // ICCS ...
    CHECK(strstr(r->out, "H5-3") != NULL);      // ... WXF ...
    CHECK(strstr(r->out, "马五退三") != NULL);  // ... and Chinese
    CHECK(strstr(r->out, "nodes") != NULL);
    CHECK(strstr(r->out, ": ok") != NULL);
    if (r->rc != 0)
        fprintf(stderr, "stdout:\n%s\nstderr:\n%s\n", r->out, r->err);

    static char text[1 << 14];
    read_file(json, text, sizeof text);
    CHECK(strstr(text, "\"found_move\": \"e6g5\"") != NULL);
    CHECK(strstr(text, "\"solved\": 1,") != NULL);
    CHECK(strstr(text, "\"total\": 1,") != NULL);
    remove(json);

    // No target: analysed, exit 0; --quiet drops the diagram.
    r = run((const char *const[]){"solve", "startpos", "--quiet", "--depth", "2", "--hash", "4", NULL});
    CHECK_EQ_INT(r->rc, 0);
    CHECK(strstr(r->out, "楚 河") == NULL);
    CHECK(strstr(r->out, "Result:") != NULL);

    // A mate that is not there: FAIL, exit 1.
    r = run((const char *const[]){"solve", "startpos ; mate 1", "--quiet", FAST, NULL});
    CHECK_EQ_INT(r->rc, 1);
    CHECK(strstr(r->out, "FAIL") != NULL);
}

/* Node budget: no clock, so two runs search the same tree and report the
 * same node count, which stays within the budget (the prover's nodes of a
 * mate puzzle included). */
static void test_nodes(void)
{
    long long first = -1;
    for (int i = 0; i < 2; i++) {
        const RunOutput *r =
            run((const char *const[]){"solve", "startpos", "--quiet", "--nodes", "20000", "--hash", "4", NULL});
        CHECK_EQ_INT(r->rc, 0);
        CHECK(strstr(r->out, "nodes 20000,") != NULL); // the limits line
        const char *line = strstr(r->out, "\nDepth ");
        const char *n = line ? strstr(line, ", nodes ") : NULL;
        CHECK(n != NULL);
        if (!n)
            return;
        long long nodes = strtoll(n + strlen(", nodes "), NULL, 10);
        CHECK(nodes > 0 && nodes <= 20000);
        if (i == 0)
            first = nodes;
        else
            CHECK(nodes == first);
    }
    // ttxq-cg095 of mate.epd (mate 16): far beyond 20000 nodes of either search.
    // (sqyq-436, used here before, is now an endgame table's position.)
    const RunOutput *r = run((const char *const[]){"solve", "3n5/3ka4/2P6/6N2/9/9/9/9/9/4K4 w - - 0 1 ; mate 16",
                                                   "--quiet", "--nodes", "20000", "--hash", "4", NULL});
    CHECK_EQ_INT(r->rc, 1);
    const char *n = strstr(r->out, "\nDepth ");
    n = n ? strstr(n, ", nodes ") : NULL;
    CHECK(n != NULL);
    if (n)
        CHECK(strtoll(n + strlen(", nodes "), NULL, 10) <= 20000);
}

static void test_file(void)
{
    char epd[600];
    snprintf(epd, sizeof epd, "%s/solve_cli_%d.epd", tmpdir, (int)getpid());
    FILE *f = fopen(epd, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs("# two good puzzles and three malformed lines\n"
          "2bP1N3/2R6/b4k3/4N2nc/9/C5P2/P7P/B3n3B/4Apr2/3AK3c w - - 0 1 ; mate 1 ; bm e6g5 ; id \"first\"\n"
          "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w ; mate 1 ; id \"badfen\"\n"
          "\n"
          "startpos ; mate x ; id \"badmate\"\n"
          "2bP1N3/2R6/b4k3/4N2nc/9/C5P2/P7P/B3n3B/4Apr2/3AK3c w - - 0 1 ; bm a0a9 ; id \"badbm\"\n"
          "2bP1N3/2R6/b4k3/4N2nc/9/C5P2/P7P/B3n3B/4Apr2/3AK3c w - - 0 1 ; id \"second\" ; mate 1\n",
          f);
    fclose(f);
    const RunOutput *r = run((const char *const[]){"solve", epd, FAST, NULL});
    // Malformed lines are reported with their numbers and skipped; the rest run.
    CHECK_EQ_INT(r->rc, 2);
    CHECK(strstr(r->err, ":3:") != NULL);
    CHECK(strstr(r->err, ":5:") != NULL);
    CHECK(strstr(r->err, ":6:") != NULL);
    CHECK(strstr(r->err, ":2:") == NULL && strstr(r->err, ":7:") == NULL);
    CHECK(strstr(r->err, "[2/2] solved 2") != NULL); // progress, plain lines when not a tty
    CHECK(strstr(r->out, "first") != NULL && strstr(r->out, "second") != NULL);
    CHECK(strstr(r->out, "badfen") == NULL);
    CHECK(strstr(r->out, "solved 2/2, within 1 s: ") != NULL);
    CHECK(strstr(r->out, "median time-to-solve") != NULL);
    CHECK(strstr(r->out, "p90") != NULL);
    CHECK(strstr(r->out, "3 malformed line(s) skipped") != NULL);
    if (r->rc != 2)
        fprintf(stderr, "stdout:\n%s\nstderr:\n%s\n", r->out, r->err);

    // A file of comments only has no puzzles: bad input.
    f = fopen(epd, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("# nothing here\n\n", f);
        fclose(f);
        expect_error((const char *const[]){"solve", epd, NULL}, "no puzzles");
    }
    remove(epd);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_solve_cli CHARIOT TMPDIR\n");
        return 2;
    }
    chariot = argv[1];
    snprintf(tmpdir, sizeof tmpdir, "%s", argv[2]);
    test_bad_input();
    test_one_fen();
    test_nodes();
    test_file();
    TEST_END();
}
