/* test_match_shard.c — `chariot match -shard I/N`, `chariot match-merge` and resuming, with Chariot playing itself at fixed nodes. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "match.h"
#include "test.h"

/* Small node counts keep 40 games to a few seconds (more under the
 * sanitizers); two different counts give the pairs varied results. */
#define NODES_A "nodes=400"
#define NODES_B "nodes=700"
enum { GAMES = 40, SHARDS = 4, RESUME_SHARD = 1, RESUME_KEPT = 2 };

static const char *chariot;
static char dir[128];

/* Starts chariot with args (NULL-terminated), stdout and stderr to out. */
static pid_t spawn(char *const *args, const char *out)
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
    return pid;
}

static int finish(pid_t pid)
{
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1000 + WTERMSIG(st);
}

static int run(char *const *args, const char *out)
{
    return finish(spawn(args, out));
}

static char *slurp(const char *path)
{
    size_t len;
    char *s = match_file_read(path, &len);
    return s ? s : calloc(1, 1);
}

static void path(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", dir, name);
}

/* The match of the acceptance test: Chariot against itself, fixed nodes,
 * paired openings, an SPRT so its LLR is compared too. shard < 0: unsharded. */
static int match_args(char **args, int shard, const char *pgn, const char *json)
{
    static char cmd[512], shardarg[32];
    snprintf(cmd, sizeof cmd, "cmd=%s", chariot);
    int n = 0;
    const char *fixed[] = {chariot, "match", "-engine", "name=a", cmd, NODES_A, "-engine", "name=b", cmd, NODES_B,
                           "-games", "40", "-sprt", "elo0=-10", "elo1=10", "-pgnout", pgn, "-json", json};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        args[n++] = (char *)fixed[i];
    if (shard >= 0) {
        snprintf(shardarg, sizeof shardarg, "%d/%d", shard, SHARDS);
        args[n++] = "-shard";
        args[n++] = shardarg;
    }
    args[n] = NULL;
    return n;
}

static MatchJson *load_json(const char *file)
{
    size_t len;
    char *text = match_file_read(file, &len);
    if (!text) {
        fprintf(stderr, "cannot read %s\n", file);
        return NULL;
    }
    char err[160];
    MatchJson *v = match_json_parse(text, len, err, sizeof err);
    if (!v)
        fprintf(stderr, "%s: %s\n", file, err);
    free(text);
    return v;
}

/* Compares member key of two objects; reports which one differs. */
static void check_same(const MatchJson *a, const MatchJson *b, const char *key, const char *where)
{
    const MatchJson *x = match_json_get(a, key), *y = match_json_get(b, key);
    if (!x || !y || !match_json_equal(x, y)) {
        fprintf(stderr, "%s: \"%s\" differs\n", where, key);
        test_failures++;
    }
}

/* Everything a run's statistics say, to the last digit, except what only
 * the clock decides (think time, CPU time, nodes per second). */
static void check_same_statistics(const char *file_a, const char *file_b)
{
    MatchJson *a = load_json(file_a), *b = load_json(file_b);
    CHECK(a && b);
    if (!a || !b)
        goto out;
    static const char *const top[] = {"event", "games_played", "partial", "elo", "pentanomial", "sprt", "pairs"};
    for (size_t i = 0; i < sizeof top / sizeof top[0]; i++)
        check_same(a, b, top[i], "summary");
    static const char *const eng[] = {"name", "proto", "tc", "games", "wins", "draws", "losses", "score",
                                      "time_losses", "illegal_moves", "crashes", "no_moves", "avg_depth",
                                      "median_depth"};
    for (int e = 0; e < 2; e++)
        for (size_t i = 0; i < sizeof eng / sizeof eng[0]; i++)
            check_same(match_json_at(match_json_get(a, "engines"), e), match_json_at(match_json_get(b, "engines"), e),
                       eng[i], "engine");
    static const char *const game[] = {"number", "red", "black", "opening", "result", "end", "plies", "reason",
                                       "pair", "players", "loser", "proto"};
    static const char *const side[] = {"moves", "depth_sum", "depth_count", "nodes", "depth_hist"};
    const MatchJson *ga = match_json_get(a, "games"), *gb = match_json_get(b, "games");
    int count = 0;
    for (const MatchJson *x = ga ? ga->child : NULL, *y = gb ? gb->child : NULL; x || y;
         x = x ? x->next : NULL, y = y ? y->next : NULL, count++) {
        CHECK(x && y);
        if (!x || !y)
            break;
        for (size_t i = 0; i < sizeof game / sizeof game[0]; i++)
            check_same(x, y, game[i], "game");
        for (int c = 0; c < 2; c++)
            for (size_t i = 0; i < sizeof side / sizeof side[0]; i++)
                check_same(match_json_at(match_json_get(x, "stats"), c), match_json_at(match_json_get(y, "stats"), c),
                           side[i], "game stats");
    }
    long long played;
    CHECK(match_json_ll(match_json_get(a, "games_played"), &played) && played == count);
out:
    match_json_free(a);
    match_json_free(b);
}

/* Same games in the same order: rounds, results, every move. Returns the count. */
static int check_same_pgn(const char *file_a, const char *file_b)
{
    FILE *fa = fopen(file_a, "r"), *fb = fopen(file_b, "r");
    MatchPgnGame *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    int n = 0;
    CHECK(fa && fb && a && b);
    char err[160];
    while (fa && fb && a && b) {
        int ra = match_pgn_read(fa, a, err, sizeof err), rb = match_pgn_read(fb, b, err, sizeof err);
        CHECK_EQ_INT(ra, rb);
        if (ra != 1 || rb != 1)
            break;
        n++;
        CHECK_EQ_STR(match_pgn_tag(a, "Round"), match_pgn_tag(b, "Round"));
        CHECK_EQ_STR(a->result, b->result);
        CHECK_EQ_STR(a->fen, b->fen);
        CHECK_EQ_INT(a->count, b->count);
        CHECK(a->count == b->count && memcmp(a->moves, b->moves, (size_t)a->count * sizeof a->moves[0]) == 0);
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    free(a);
    free(b);
    return n;
}

/* Acceptance 1: 4 shards, merged, equal the 40 games of one run. */
static void check_shards_equal_one_run(void)
{
    char *args[40], pgn[200], json[200], out[200];
    pid_t pids[SHARDS + 1];
    /* the shards and the one run at the same time: each plays one game at a time */
    for (int s = 0; s < SHARDS; s++) {
        char name[32];
        snprintf(name, sizeof name, "s%d.pgn", s);
        path(pgn, sizeof pgn, name);
        snprintf(name, sizeof name, "s%d.json", s);
        path(json, sizeof json, name);
        snprintf(name, sizeof name, "s%d.txt", s);
        path(out, sizeof out, name);
        match_args(args, s, pgn, json);
        pids[s] = spawn(args, out);
    }
    path(pgn, sizeof pgn, "one.pgn");
    path(json, sizeof json, "one.json");
    path(out, sizeof out, "one.txt");
    match_args(args, -1, pgn, json);
    pids[SHARDS] = spawn(args, out);
    for (int s = 0; s <= SHARDS; s++)
        CHECK_EQ_INT(finish(pids[s]), 0);

    char merged[200], mpgn[200], shard_json[SHARDS][200];
    path(merged, sizeof merged, "merged.json");
    path(mpgn, sizeof mpgn, "merged.pgn");
    path(out, sizeof out, "merge.txt");
    char *margs[] = {(char *)chariot, "match-merge", merged, shard_json[2], shard_json[0], shard_json[3],
                     shard_json[1], "-pgn", mpgn, NULL};
    for (int s = 0; s < SHARDS; s++) {
        char name[32];
        snprintf(name, sizeof name, "s%d.json", s);
        path(shard_json[s], sizeof shard_json[s], name);
    }
    CHECK_EQ_INT(run(margs, out), 0);
    char *text = slurp(out);
    CHECK(strstr(text, "Merged 4 of 4 shard(s)") != NULL);
    CHECK(strstr(text, "Results of a vs b (40 games)") != NULL);
    CHECK(strstr(text, "PARTIAL") == NULL);
    free(text);

    path(json, sizeof json, "one.json");
    check_same_statistics(json, merged);
    path(pgn, sizeof pgn, "one.pgn");
    CHECK_EQ_INT(check_same_pgn(pgn, mpgn), GAMES);

    /* the printed tables agree too, down to the per-engine rows but for the clock columns */
    char one_txt[200];
    path(one_txt, sizeof one_txt, "one.txt");
    char *one = slurp(one_txt), *mer = slurp(out);
    const char *keys[] = {"Elo difference (trinomial)", "Elo difference (pentanomial)", "Game pairs [", "LOS: ",
                          "SPRT (pentanomial"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *x = strstr(one, keys[i]), *y = strstr(mer, keys[i]);
        CHECK(x && y);
        if (x && y)
            CHECK(strncmp(x, y, strcspn(x, "\n")) == 0 && strcspn(x, "\n") == strcspn(y, "\n"));
    }
    free(one);
    free(mer);
}

/* Acceptance 2: merge refuses other configurations and a shard given twice;
 * a missing shard makes a partial result. Bad -shard values are refused. */
static void check_merge_errors(void)
{
    char out[200], merged[200], s0[200], s1[200], s3[200], other[200], opgn[200];
    path(out, sizeof out, "err.txt");
    path(merged, sizeof merged, "bad.json");
    path(s0, sizeof s0, "s0.json");
    path(s1, sizeof s1, "s1.json");
    path(s3, sizeof s3, "s3.json");
    path(other, sizeof other, "other.json");
    path(opgn, sizeof opgn, "other.pgn");

    /* a shard of another configuration: b searches more nodes */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cmd=%s", chariot);
    char *oargs[] = {(char *)chariot, "match", "-engine", "name=a", cmd, NODES_A, "-engine", "name=b", cmd,
                     "nodes=900", "-games", "40", "-sprt", "elo0=-10", "elo1=10", "-shard", "1/20", "-pgnout", opgn,
                     "-json", other, NULL};
    CHECK_EQ_INT(run(oargs, out), 0);
    char *margs[] = {(char *)chariot, "match-merge", merged, s0, other, NULL};
    CHECK_EQ_INT(run(margs, out), 2);
    char *text = slurp(out);
    CHECK(strstr(text, "different match configuration") != NULL);
    CHECK(strstr(text, "refusing to merge") != NULL);
    free(text);

    char *dargs[] = {(char *)chariot, "match-merge", merged, s0, s1, s1, NULL};
    CHECK_EQ_INT(run(dargs, out), 2);
    text = slurp(out);
    CHECK(strstr(text, "shard 1/4 given twice") != NULL);
    free(text);

    /* a merged file is not a shard */
    char m2[200];
    path(m2, sizeof m2, "merged.json");
    char *rargs[] = {(char *)chariot, "match-merge", merged, m2, NULL};
    CHECK_EQ_INT(run(rargs, out), 2);
    text = slurp(out);
    CHECK(strstr(text, "already a merged summary") != NULL);
    free(text);

    /* shard 2 missing: a partial result, said so on screen and in the JSON */
    char partial[200];
    path(partial, sizeof partial, "partial.json");
    char *pargs[] = {(char *)chariot, "match-merge", partial, s3, s0, s1, NULL};
    CHECK_EQ_INT(run(pargs, out), 0);
    text = slurp(out);
    CHECK(strstr(text, "PARTIAL result: missing shard(s) [2]") != NULL);
    CHECK(strstr(text, "Merged 3 of 4 shard(s)") != NULL);
    free(text);
    text = slurp(partial);
    CHECK(strstr(text, "\"partial\": true") != NULL);
    CHECK(strstr(text, "\"merged\": [0, 1, 3], \"missing\": [2]") != NULL);
    CHECK(strstr(text, "\"games_played\": 30") != NULL);
    free(text);

    /* -shard I/N with I outside 0..N-1, or not a fraction */
    const char *bad[] = {"4/4", "-1/4", "1", "a/b", "0/0", "1/4x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *sargs[] = {(char *)chariot, "match", "-engine", cmd, "-engine", cmd, "-each", NODES_A, "-shard",
                         (char *)bad[i], NULL};
        CHECK_EQ_INT(run(sargs, out), 2);
        text = slurp(out);
        CHECK(strstr(text, "-shard needs I/N with 0 <= I < N") != NULL);
        free(text);
    }
}

static bool write_file(const char *file, const char *text, size_t len)
{
    FILE *f = fopen(file, "w");
    if (!f)
        return false;
    bool ok = fwrite(text, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

/* Acceptance for resuming: the state a kill leaves behind, rebuilt by hand
 * from the finished shard's files, so no timing is involved. The journal has
 * RESUME_KEPT games and a torn line; the PGN has an older match's game before
 * this run's part, those games, a complete game the journal never got (a
 * kill between the PGN and the journal) and a torn game. The restarted shard
 * must end with exactly the uninterrupted shard's games and figures. */
static void check_resume(void)
{
    char ref_json[200], ref_pgn[200], ref_journal[256], pgn[200], json[200], journal[256], out[200];
    snprintf(ref_json, sizeof ref_json, "%s/s%d.json", dir, RESUME_SHARD);
    snprintf(ref_pgn, sizeof ref_pgn, "%s/s%d.pgn", dir, RESUME_SHARD);
    snprintf(ref_journal, sizeof ref_journal, "%s.journal", ref_json);
    path(pgn, sizeof pgn, "resume.pgn");
    path(json, sizeof json, "resume.json");
    snprintf(journal, sizeof journal, "%s.journal", json);
    path(out, sizeof out, "resume.txt");

    /* the journal: a header naming the new PGN, RESUME_KEPT games, half a line */
    char *ref = slurp(ref_journal);
    char *line_end = strchr(ref, '\n');
    CHECK(line_end != NULL);
    if (!line_end) {
        free(ref);
        return;
    }
    char err[160];
    MatchJson *header = match_json_parse(ref, (size_t)(line_end - ref), err, sizeof err);
    CHECK(header != NULL);
    const char *hash = match_json_str(match_json_get(header, "config_hash"));

    char *ref_pgn_text = slurp(ref_pgn);
    MatchPgnBlock *blocks;
    int nblocks = match_pgn_blocks(ref_pgn_text, strlen(ref_pgn_text), &blocks);
    CHECK(nblocks >= RESUME_KEPT + 2);
    char opgn[200];
    path(opgn, sizeof opgn, "other.pgn"); /* check_merge_errors played it */
    char *other = slurp(opgn);
    MatchPgnBlock *oblocks;
    int onblocks = match_pgn_blocks(other, strlen(other), &oblocks);
    CHECK(onblocks >= 1);
    if (!hash || nblocks < RESUME_KEPT + 2 || onblocks < 1) {
        match_json_free(header);
        free(ref);
        free(ref_pgn_text);
        free(other);
        free(blocks);
        free(oblocks);
        return;
    }
    /* the PGN: an older game, then this run's part */
    size_t cap = strlen(ref_pgn_text) + strlen(other) + 1, len = 0;
    char *text = malloc(cap);
    memcpy(text, other + oblocks[0].start, oblocks[0].len);
    len = oblocks[0].len;
    long long offset = (long long)len;
    for (int i = 0; i <= RESUME_KEPT; i++) {
        memcpy(text + len, ref_pgn_text + blocks[i].start, blocks[i].len);
        len += blocks[i].len;
    }
    memcpy(text + len, ref_pgn_text + blocks[RESUME_KEPT + 1].start, blocks[RESUME_KEPT + 1].len / 2);
    len += blocks[RESUME_KEPT + 1].len / 2;
    CHECK(write_file(pgn, text, len));
    free(text);

    char head[1024];
    int hl = snprintf(head, sizeof head,
                      "{\"journal\": \"chariot-match-journal\", \"version\": 1, \"config_hash\": \"%s\", \"shard\": %d, "
                      "\"shards\": %d, \"pgn\": \"%s\", \"pgn_offset\": %lld}\n",
                      hash, RESUME_SHARD, SHARDS, pgn, offset);
    const char *p = line_end + 1;
    for (int i = 0; i < RESUME_KEPT; i++)
        p = strchr(p, '\n') + 1;
    const char *torn_end = p + strcspn(p, "\n") / 2;
    size_t body = (size_t)(torn_end - (line_end + 1));
    char *jtext = malloc((size_t)hl + body + 1);
    memcpy(jtext, head, (size_t)hl);
    memcpy(jtext + hl, line_end + 1, body);
    CHECK(write_file(journal, jtext, (size_t)hl + body));
    free(jtext);

    char *args[40];
    match_args(args, RESUME_SHARD, pgn, json);
    CHECK_EQ_INT(run(args, out), 0);
    char *screen = slurp(out);
    char expect[512];
    snprintf(expect, sizeof expect, "Resuming from %s: %d of %d game(s) already finished", journal, RESUME_KEPT,
             GAMES / SHARDS);
    CHECK(strstr(screen, expect) != NULL);
    free(screen);

    check_same_statistics(ref_json, json);
    /* this run's part of the PGN is the uninterrupted shard's PGN */
    char *after = slurp(pgn);
    CHECK(strncmp(after, other + oblocks[0].start, oblocks[0].len) == 0);
    char tail[200];
    path(tail, sizeof tail, "resume_tail.pgn");
    CHECK(write_file(tail, after + offset, strlen(after) - (size_t)offset));
    CHECK_EQ_INT(check_same_pgn(ref_pgn, tail), GAMES / SHARDS);
    free(after);
    /* the journal holds every game once */
    char *jt = slurp(journal);
    int lines = 0;
    for (const char *q = jt; *q; q++)
        lines += *q == '\n';
    CHECK_EQ_INT(lines, 1 + GAMES / SHARDS);
    free(jt);

    /* started again when all is done: nothing is played and nothing changes */
    char *before = slurp(pgn);
    CHECK_EQ_INT(run(args, out), 0);
    char *again = slurp(pgn);
    CHECK(strcmp(before, again) == 0);
    free(before);
    free(again);
    check_same_statistics(ref_json, json);

    match_json_free(header);
    free(ref);
    free(ref_pgn_text);
    free(other);
    free(blocks);
    free(oblocks);
}

/* A resume may raise -games (an SPRT that reached its cap goes on): 20
 * games, then the same match with -games 40, end with the one run's 40
 * games and figures. Lowering it is refused, and changes nothing. */
static void check_raise_games(void)
{
    char *args[40], pgn[200], json[200], out[200], one_pgn[200], one_json[200];
    path(pgn, sizeof pgn, "raise.pgn");
    path(json, sizeof json, "raise.json");
    path(out, sizeof out, "raise.txt");
    path(one_pgn, sizeof one_pgn, "one.pgn");
    path(one_json, sizeof one_json, "one.json");
    int n = match_args(args, -1, pgn, json);
    int games_at = -1;
    for (int i = 0; i + 1 < n; i++)
        if (strcmp(args[i], "-games") == 0)
            games_at = i + 1;
    CHECK(games_at > 0);
    if (games_at < 0)
        return;
    args[games_at] = "20";
    CHECK_EQ_INT(run(args, out), 0);
    args[games_at] = "40";
    CHECK_EQ_INT(run(args, out), 0);
    char *screen = slurp(out);
    CHECK(strstr(screen, "Raising -games from 20 to 40") != NULL);
    free(screen);
    check_same_statistics(one_json, json);
    CHECK_EQ_INT(check_same_pgn(one_pgn, pgn), GAMES);

    char *before = slurp(pgn);
    args[games_at] = "30";
    CHECK_EQ_INT(run(args, out), 2);
    screen = slurp(out);
    CHECK(strstr(screen, "only upwards") != NULL);
    free(screen);
    char *after = slurp(pgn);
    CHECK(strcmp(before, after) == 0);
    free(before);
    free(after);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_match_shard CHARIOT\n");
        return 2;
    }
    chariot = argv[1];
    board_init();
    snprintf(dir, sizeof dir, "/tmp/chariot_match_shard_%d", (int)getpid());
    char mk[200];
    snprintf(mk, sizeof mk, "mkdir -p %s", dir);
    if (system(mk) != 0)
        return 1;
    check_shards_equal_one_run();
    check_merge_errors();
    check_resume();
    check_raise_games();
    if (test_failures == 0) {
        snprintf(mk, sizeof mk, "rm -rf %s", dir);
        if (system(mk) != 0)
            return 1;
    }
    TEST_END();
}
