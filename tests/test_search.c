/* test_search.c — unit tests of the search: null-move rules (through the
 * null-step test hook), rules in the tree (perpetual check), mate scores,
 * limits, multi-PV, root move filters, the background search API and
 * run-to-run determinism. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "eval.h"
#include "search.h"
#include "search_internal.h"
#include "test.h"

static Board *load(const char *fen)
{
    static Board boards[8];
    static int next;
    Board *b = &boards[next++ % 8];
    char err[160];
    if (!board_from_fen(b, fen, err, sizeof err)) {
        fprintf(stderr, "bad test FEN %s: %s\n", fen, err);
        test_failures++;
        board_startpos(b);
    }
    board_set_psq(b, eval_psq_table());
    return b;
}

static void play(Board *b, const char *moves)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        Move m = board_parse_move(b, tok);
        if (m == MOVE_NONE) {
            fprintf(stderr, "illegal test move %s\n", tok);
            test_failures++;
            return;
        }
        board_make(b, m);
    }
}

static SearchResult search_depth(Searcher *s, const Board *b, int depth)
{
    SearchLimits l;
    search_limits_init(&l);
    l.depth = depth;
    return searcher_run(s, b, &l, NULL);
}

static void set_opts(Searcher *s, int threads, int multipv, bool null_move)
{
    SearchOptions o;
    search_options_init(&o);
    o.threads = threads;
    o.multipv = multipv;
    o.null_move = null_move;
    CHECK(searcher_set_options(s, &o));
}

static const char *iccs(Move m, char out[5])
{
    if (m == MOVE_NONE)
        snprintf(out, 5, "none");
    else
        move_to_iccs(m, out);
    return out;
}

/* ------------------------------------------------------------- null move */

/* Zugzwang (found by a brute-force scan with the null-step hook, then checked
 * by hand): red's cannon on e4 and pawn on e3 are boxed in and its general on
 * d2 has no square, so red's only legal move is the capture e4c4, answered by
 * e5c4 mate (the horse then checks from c4 with d1 and e2 covered). If red
 * could pass, black would have no mate in one.
 * At depth 5 (R = 3) the verification search reaches the mate within its
 * full-width plies. Quiescence cannot be relied on for it: its EGain bound
 * skips e5c4 whenever stand pat plus the cannon cannot reach alpha, mate or
 * not, so at depth 4 the verification would wrongly confirm the cut. */
static const char *ZUGZWANG_FEN = "9/9/3k5/9/4n4/2ccCn3/4P4/3K4p/7r1/9 w - - 0 1";
enum { ZUGZWANG_BETA = -9000, ZUGZWANG_DEPTH = 5 };

/* The perpetual-check position, black to move in check: red's rook on a8
 * checks the general on e8, which can only step to e9; then a8a9 checks
 * again and the general returns to e8, and so on. Red is otherwise a horse
 * and a cannon down. */
static const char *PERPETUAL_FEN_BLACK = "9/R3k4/3a1a3/7c1/3N5/6n2/2P1P2r1/9/8r/2BAKAB2 b - - 0 1";

/* Red is a rook and a horse up, quiet position: a pass still fails high. */
static const char *NULL_BASE = "3ak4/4a4/4b4/9/9/9/9/4B4/4A4/R2AK1N2 w - - 0 1";

static void test_null_rules(Searcher *s)
{
    set_opts(s, 1, 1, true);
    int beta = -200;

    /* Control: a quiet non-PV node with plenty of material tries it and cuts. */
    Board *b = load(NULL_BASE);
    searcher_new_game(s);
    NullStepReport r = search_test_null_step(s, b, beta - 1, beta, 6, 1, false);
    CHECK(r.tried);
    CHECK(r.cutoff);
    CHECK(!r.verified); /* rook + horse = 1300 > NULL_SAFE_MARGIN */
    SearchStats st = searcher_stats(s);
    CHECK_EQ_INT(st.null_tried, 1);
    CHECK_EQ_INT(st.null_cutoffs, 1);

    /* Not at a PV node. */
    r = search_test_null_step(s, b, beta - 50, beta, 6, 1, false);
    CHECK(!r.tried);
    /* Not at the root. */
    r = search_test_null_step(s, b, beta - 1, beta, 6, 0, false);
    CHECK(!r.tried);
    /* Not inside a verification search. */
    r = search_test_null_step(s, b, beta - 1, beta, 6, 1, true);
    CHECK(!r.tried);

    /* Not in check: the red rook gives check on the e-file. */
    b = load("r3k4/9/9/9/9/9/9/9/4R4/3AK1N1R b - - 0 1");
    CHECK(board_in_check(b));
    r = search_test_null_step(s, b, beta - 1, beta, 6, 1, false);
    CHECK(!r.tried);

    /* Not twice in a row. Black, a rook up, may pass in this position...
     * but not right after red passed into it. */
    b = load("r2ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 b - - 0 1");
    r = search_test_null_step(s, b, -201, -200, 6, 1, false);
    CHECK(r.tried);
    b = load("r2ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1");
    board_make_null(b);
    r = search_test_null_step(s, b, -201, -200, 6, 1, false);
    CHECK(!r.tried);

    /* NullMoveOkay: pawns and advisors only (five pawns = 500) never pass. */
    b = load("4k4/9/9/9/9/P1P1P1P1P/9/9/4A4/3AK4 w - - 0 1");
    CHECK(b->material[RED] <= NULL_OKAY_MARGIN);
    r = search_test_null_step(s, b, -10000, -9999, 6, 1, false);
    CHECK(!r.tried);

    /* Option off: never. */
    SearchOptions o = *searcher_options(s);
    o.null_move = false;
    CHECK(searcher_set_options(s, &o));
    b = load(NULL_BASE);
    r = search_test_null_step(s, b, beta - 1, beta, 6, 1, false);
    CHECK(!r.tried);
    set_opts(s, 1, 1, true);

    /* NullMoveSafe fails (a lone rook, 900 <= NULL_SAFE_MARGIN): a fail-high
     * is verified at depth - R before it may cut. */
    b = load("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/R2AK4 w - - 0 1");
    searcher_new_game(s);
    r = search_test_null_step(s, b, -1001, -1000, 6, 1, false);
    CHECK(r.tried);
    CHECK(r.verified);
    CHECK(!r.verify_failed);
    CHECK(r.cutoff);
    st = searcher_stats(s);
    CHECK_EQ_INT(st.null_verifications, 1);
    /* At depth <= R there is no verification. */
    r = search_test_null_step(s, b, -1001, -1000, NULL_R, 1, false);
    CHECK(r.tried && r.cutoff && !r.verified);
}

/* The eval gate: a null move is tried only if depth - R - 1 <= 0 (the null
 * search is then a quiescence search) or the static eval reaches beta. Beta
 * is set around the static eval, which is what null_step compares (a new
 * game: no correction yet). */
static void test_null_gate(Searcher *s)
{
    set_opts(s, 1, 1, true);
    Board *b = load(NULL_BASE);
    const int e = eval_evaluate(b, searcher_options(s)->knowledge);
    enum { SHALLOW = NULL_R + 1, DEEP = 6 };
    _Static_assert(SHALLOW - NULL_REDUCTION(SHALLOW) - 1 <= 0, "SHALLOW is in the shallow branch");
    _Static_assert(DEEP - NULL_REDUCTION(DEEP) - 1 > 0, "DEEP is not");

    /* At or above beta: tried at any depth. */
    searcher_new_game(s);
    NullStepReport r = search_test_null_step(s, b, e - 1, e, DEEP, 1, false);
    CHECK(r.tried);
    /* Below beta: only in the shallow branch. */
    searcher_new_game(s);
    r = search_test_null_step(s, b, e, e + 1, DEEP, 1, false);
    CHECK(!r.tried);
    searcher_new_game(s);
    r = search_test_null_step(s, b, e, e + 1, SHALLOW, 1, false);
    CHECK(r.tried);
    CHECK(!r.cutoff);
}

/* Zugzwang: red (a cannon and a pawn, 550: NullMoveOkay holds, NullMoveSafe
 * does not) is fine if it could pass, but its move loses. The null search
 * fails high, the verification search fails low, and the node is not cut:
 * a full-width search without null moves confirms the cut would have been
 * wrong (red is mated). */
static void test_null_zugzwang(Searcher *s)
{
    set_opts(s, 1, 1, true);
    Board *b = load(ZUGZWANG_FEN);
    CHECK(!board_in_check(b));
    CHECK(b->material[RED] > NULL_OKAY_MARGIN && b->material[RED] <= NULL_SAFE_MARGIN);
    int beta = ZUGZWANG_BETA;
    searcher_new_game(s);
    NullStepReport r = search_test_null_step(s, b, beta - 1, beta, ZUGZWANG_DEPTH, 1, false);
    CHECK(r.tried);
    CHECK(r.null_score >= beta);
    CHECK(r.verified);
    CHECK(r.verify_failed);
    CHECK(!r.cutoff);
    SearchStats st = searcher_stats(s);
    CHECK_EQ_INT(st.null_verify_failures, 1);

    set_opts(s, 1, 1, false);
    searcher_new_game(s);
    SearchResult res = search_depth(s, b, ZUGZWANG_DEPTH);
    CHECK(res.score < beta);
    set_opts(s, 1, 1, true);
    searcher_new_game(s);
    res = search_depth(s, b, ZUGZWANG_DEPTH);
    CHECK(res.score < beta);
}

/* ------------------------------------------------------------- rules */

/* Red's rook can check the black general back and forth (e8 <-> e9) for
 * ever; without the rules that would save red's game (red is a horse and a
 * cannon down). Under the Asian rules the perpetual checker loses, so:
 * the check that repeats the position a third time is never played while
 * other moves exist; played anyway (searchmoves) it scores the rule loss,
 * not a mate; and in self-play red never ends up as the perpetual checker. */
static void test_perpetual_check(Searcher *s)
{
    set_opts(s, 1, 1, true);
    char mv[5];

    /* Root filter: after two shuffles, a9a8 would make the third occurrence
     * of the start position with red the perpetual checker. */
    Board *b = load(PERPETUAL_FEN_BLACK);
    play(b, "e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8");
    Move rep = board_parse_move(b, "a9a8");
    CHECK(rep != MOVE_NONE);
    searcher_new_game(s);
    SearchResult r = search_depth(s, b, 6);
    CHECK(r.best != MOVE_NONE);
    CHECK(r.best != rep);
    CHECK(r.score > -SCORE_RULE_MIN);
    printf("perpetual (root): best %s score %d\n", iccs(r.best, mv), r.score);

    /* The same move forced with searchmoves: a rule loss one ply away. */
    SearchLimits l;
    search_limits_init(&l);
    l.depth = 4;
    l.searchmoves_count = 1;
    l.searchmoves[0] = rep;
    searcher_new_game(s);
    r = searcher_run(s, b, &l, NULL);
    CHECK_EQ_INT(r.best, rep);
    CHECK_EQ_INT(r.score, -(SCORE_RULE_WIN - 1));
    CHECK(!score_is_mate(r.score));

    /* Inside the tree: a fresh position (no history). Red may check, but a
     * first repetition inside the tree already counts, so the search sees
     * the rule loss and red's score stays the material deficit. */
    b = load(PERPETUAL_FEN_BLACK);
    play(b, "e8e9");
    searcher_new_game(s);
    r = search_depth(s, b, 8);
    CHECK(r.score > -SCORE_RULE_MIN && r.score < 0);
    printf("perpetual (tree): best %s score %d\n", iccs(r.best, mv), r.score);

    /* Self-play from there: red never loses by perpetual check while it
     * has a move that does not lose (and nobody else is judged a perpetual
     * checker). Once red's own search sees every move lose (mated, or
     * lost by a rule), the perpetual is one loss among others, and the
     * nearer-mate-worse order of the scores picks it over a mate; how the
     * game gets there depends on the search's move order, not on the rule. */
    GameReason why = REASON_NONE;
    GameResult res = RESULT_NONE;
    bool red_saw_loss = false;
    for (int ply = 0; ply < 24 && res == RESULT_NONE; ply++) {
        const bool red = b->side == RED;
        r = search_depth(s, b, 5);
        if (r.best == MOVE_NONE)
            break;
        red_saw_loss |= red && r.score <= -SCORE_RULE_MIN;
        board_make(b, r.best);
        res = board_game_result(b, &why);
    }
    CHECK(!(res == RESULT_BLACK_WINS && why == REASON_PERPETUAL_CHECK) || red_saw_loss);
    printf("perpetual (self-play): result %d reason %s\n", (int)res, board_reason_name(why));
}

/* ------------------------------------------------------------- mates */

static void test_mates(Searcher *s)
{
    set_opts(s, 1, 1, true);
    FILE *f = fopen(CHARIOT_DATA_DIR "/mate.epd", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    int taken[4] = {0};
    const int want[4] = {0, 4, 3, 2}; /* mate in 1, 2, 3 */
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *semi = strchr(line, ';');
        if (!semi)
            continue;
        *semi = '\0';
        int n = 0;
        if (sscanf(semi + 1, " mate %d", &n) != 1 || n < 1 || n > 3 || taken[n] >= want[n])
            continue;
        char *bm = strstr(semi + 1, "bm ");
        taken[n]++;
        Board *b = load(line);
        searcher_new_game(s);
        int plies = 2 * n - 1;
        SearchResult r = search_depth(s, b, plies + 2);
        char mv[5];
        iccs(r.best, mv);
        if (r.score != SCORE_MATE - plies)
            fprintf(stderr, "mate %d: %s got score %d move %s\n", n, line, r.score, mv);
        CHECK_EQ_INT(r.score, SCORE_MATE - plies);
        CHECK(bm && strstr(bm, mv) != NULL);

        /* "go mate N": stops by itself once the mate is proven. */
        SearchLimits l;
        search_limits_init(&l);
        l.mate = n;
        searcher_new_game(s);
        r = searcher_run(s, b, &l, NULL);
        CHECK_EQ_INT(r.score, SCORE_MATE - plies);
        CHECK(r.depth >= plies);

        /* The mated side sees the same distance, one ply later; after a mate
         * in one it has no move at all (no best move, mated score). */
        board_make(b, board_parse_move(b, mv));
        searcher_new_game(s);
        r = search_depth(s, b, plies + 1);
        if (n == 1) {
            CHECK_EQ_INT(board_count_legal(b), 0);
            CHECK_EQ_INT(r.best, MOVE_NONE);
            CHECK_EQ_INT(r.score, -SCORE_MATE);
        } else {
            CHECK_EQ_INT(r.score, -(SCORE_MATE - (plies - 1)));
        }
    }
    fclose(f);
    CHECK_EQ_INT(taken[1] + taken[2] + taken[3], 9);
}

/* ------------------------------------------------------------- mate prover */

/* Node budget of the prover in these tests: far above what the short
 * puzzles need, small enough to keep the test fast under sanitizers. */
enum { PROVER_TEST_NODES = 200000 };
/* ...and for the one long mate among them. */
enum { PROVER_LONG_TEST_NODES = 500000 };

/* Replays a prover line on a copy of b: every move legal, and it ends with
 * the defender (the side not to move at b) without a legal move. */
static bool prover_line_mates(const Board *b, const MateProof *p)
{
    static Board scratch;
    scratch = *b;
    for (int i = 0; i < p->pv_len; i++) {
        if (!board_is_legal(&scratch, p->pv[i]))
            return false;
        board_make(&scratch, p->pv[i]);
    }
    return p->pv_len == 2 * p->moves - 1 && scratch.side != b->side && board_count_legal(&scratch) == 0;
}

static void test_mate_prover(Searcher *s)
{
    set_opts(s, 1, 1, true);
    /* Short puzzles of tests/data/mate.epd: a stalemate (quiet) mate in 1, a
     * quiet first move, and continuous-check mates. */
    static const char *const ids[] = {"\"ttxq-cg139-ply22\"", "\"sqyq-175-ply22\"", "\"sqyq-040-ply22\"",
                                      "\"sqyq-115\""};
    FILE *f = fopen(CHARIOT_DATA_DIR "/mate.epd", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char line[1024];
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        bool wanted = false;
        for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
            if (strstr(line, ids[i]))
                wanted = true;
        char *semi = strchr(line, ';');
        int n = 0;
        if (!wanted || !semi || sscanf(semi + 1, " mate %d", &n) != 1)
            continue;
        *semi = '\0';
        found++;
        Board *b = load(line);
        MateProof p;
        int got = search_test_mate_prove(s, b, n, PROVER_TEST_NODES, &p);
        if (got != n)
            fprintf(stderr, "prover: %s mate %d, got %d (%llu nodes)\n", line, n, got, (unsigned long long)p.nodes);
        CHECK_EQ_INT(got, n);
        CHECK(prover_line_mates(b, &p));
        /* One move less is not enough: the puzzles' lengths are exact. */
        if (n > 1)
            CHECK_EQ_INT(search_test_mate_prove(s, b, n - 1, PROVER_TEST_NODES, &p), 0);

        /* Deterministic: the same proof, line and node count again. */
        MateProof p1, p2;
        search_test_mate_prove(s, b, n, PROVER_TEST_NODES, &p1);
        search_test_mate_prove(s, b, n, PROVER_TEST_NODES, &p2);
        CHECK_EQ_INT((int)p1.nodes, (int)p2.nodes);
        CHECK_EQ_INT(p1.pv_len, p2.pv_len);
        CHECK(memcmp(p1.pv, p2.pv, (size_t)p1.pv_len * sizeof(Move)) == 0);

        /* Through the search: "go mate n" reports the proven mate. */
        SearchLimits l;
        search_limits_init(&l);
        l.mate = n;
        searcher_new_game(s);
        SearchResult r = searcher_run(s, b, &l, NULL);
        CHECK_EQ_INT(r.score, SCORE_MATE - (2 * n - 1));
        CHECK(r.best != MOVE_NONE && board_is_legal(b, r.best));
    }
    fclose(f);
    CHECK_EQ_INT(found, 4);

    /* Red can check forever (a8a9, a9a8) but is material down: the general
     * escapes by repetition, which never counts as a mate. */
    Board *b = load(PERPETUAL_FEN_BLACK);
    play(b, "e8e9");
    MateProof p;
    CHECK_EQ_INT(search_test_mate_prove(s, b, 10, PROVER_TEST_NODES, &p), 0);
    CHECK(!p.proven);

    /* sqyq-358, a mate in 16 with quiet moves. When any repetition of the
     * path ended the attack, the table's path-free keys carried those
     * escapes to other paths and the prover disproved it (619k nodes); the
     * attacker's moves now ignore the path's repetitions and it is proven
     * (336k nodes), by a line that repeats no position. */
    b = load("5a3/4a4/5k3/9/6P1R/9/1pp6/3A5/1n1KA4/4r4 w - - 0 1");
    CHECK_EQ_INT(search_test_mate_prove(s, b, 16, PROVER_LONG_TEST_NODES, &p), 16);
    CHECK(prover_line_mates(b, &p));
    {
        static Board walk;
        walk = *b;
        uint64_t keys[MAX_PLY + 1];
        keys[0] = walk.key;
        bool repeats = false;
        for (int i = 0; i < p.pv_len && i < MAX_PLY; i++) {
            board_make(&walk, p.pv[i]);
            keys[i + 1] = walk.key;
            for (int j = 0; j <= i; j++)
                repeats |= keys[j] == walk.key;
        }
        CHECK(!repeats);
    }

    /* A lone rook against a full defence: no mate by checks (or two quiet
     * moves) in 5, the defender always has a non-losing reply. */
    b = load("2bak4/4a4/b8/9/9/2R6/9/9/9/4K4 w - - 0 1");
    CHECK_EQ_INT(search_test_mate_prove(s, b, 5, PROVER_TEST_NODES, &p), 0);

    /* The prover leaves the searcher's board as it found it, whether it
     * proves (main line rebuilt, tightening tried) or runs out of nodes. */
    b = load("3k1ab2/4a4/8b/9/9/9/9/9/4K4/8R w - - 0 1");
    uint64_t key = b->key;
    search_test_mate_prove(s, b, 23, 5000, &p);
    CHECK(!p.proven);
    CHECK(s->threads[0]->board.key == key && s->threads[0]->board.ply == s->threads[0]->root_ply);
    b = load("9/4k1P2/b2Nb4/7r1/9/9/9/3n5/4p3r/2R2K3 w - - 0 1");
    key = b->key;
    CHECK_EQ_INT(search_test_mate_prove(s, b, 3, PROVER_TEST_NODES, &p), 1);
    CHECK(prover_line_mates(b, &p));
    CHECK(s->threads[0]->board.key == key && s->threads[0]->board.ply == s->threads[0]->root_ply);
}

/* ------------------------------------------------------------- limits and API */

typedef struct Collect {
    int infos;
    int bestmoves;
    int lines[MAX_MULTIPV + 1];
    Move first[MAX_MULTIPV + 1];
    int score[MAX_MULTIPV + 1];
    int last_depth;
    SearchResult result;
} Collect;

static void col_info(void *ctx, const SearchInfo *info)
{
    Collect *c = ctx;
    c->infos++;
    if (info->bound != BOUND_EXACT || info->multipv < 1 || info->multipv > MAX_MULTIPV)
        return;
    c->lines[info->multipv]++;
    c->first[info->multipv] = info->pv_len > 0 ? info->pv[0] : MOVE_NONE;
    c->score[info->multipv] = info->score;
    c->last_depth = info->depth;
}

static void col_best(void *ctx, const SearchResult *r)
{
    Collect *c = ctx;
    c->bestmoves++;
    c->result = *r;
}

/* The clock's limits (tm_init), read without searching: the hard limit
 * always keeps the move overhead and TM_RESERVE_MS in hand, and never takes
 * more than its percentage of the clock. */
static void test_clock_limits(void)
{
    const int overhead = 30;
    const int64_t clocks[] = {1, 60, 100, 131, 150, 250, 500, 2000, 10000};
    for (size_t i = 0; i < sizeof clocks / sizeof clocks[0]; i++) {
        for (int mtg = 0; mtg <= 1; mtg++) {
            SearchLimits l;
            search_limits_init(&l);
            l.use_clock = true;
            l.time_ms = clocks[i];
            l.inc_ms = 20;
            l.movestogo = mtg;
            TimeManager tm;
            tm_init(&tm, &l, overhead, 30);
            CHECK(tm.timed);
            CHECK(tm.hard_ms >= 1 && tm.soft_ms >= 1 && tm.soft_ms <= tm.hard_ms);
            const int64_t keep = clocks[i] - overhead - TM_RESERVE_MS;
            CHECK(tm.hard_ms <= (keep > 1 ? keep : 1));
            CHECK(tm.hard_ms <= (clocks[i] - overhead) * TM_HARD_MAX_PERCENT / 100 || mtg == 1 || tm.hard_ms == 1);
        }
    }
    /* Sudden death at 2 s on move 1: 40 moves to go share the clock less the
     * overhead and the reserve, and the hard limit is TM_HARD_FACTOR soft
     * limits (the percentage cap does not bind). */
    SearchLimits l;
    search_limits_init(&l);
    l.use_clock = true;
    l.time_ms = 2000;
    TimeManager tm;
    tm_init(&tm, &l, overhead, 1);
    CHECK(tm.hard_ms == (2000 - overhead - TM_RESERVE_MS) / TM_SUDDEN_MAX * TM_HARD_FACTOR);
}

static void test_limits(Searcher *s)
{
    set_opts(s, 1, 1, true);
    Board *b = load("startpos");

    /* Node limit: never more than asked (exact with one thread). */
    SearchLimits l;
    search_limits_init(&l);
    l.nodes = 5000;
    searcher_new_game(s);
    SearchResult r = searcher_run(s, b, &l, NULL);
    CHECK(r.nodes <= 5000);
    CHECK(r.best != MOVE_NONE && board_is_legal(b, r.best));

    /* Determinism: the same search twice gives the same nodes and move. */
    searcher_new_game(s);
    SearchResult r1 = search_depth(s, b, 6);
    searcher_new_game(s);
    SearchResult r2 = search_depth(s, b, 6);
    CHECK_EQ_INT(r1.nodes, r2.nodes);
    CHECK_EQ_INT(r1.best, r2.best);
    CHECK_EQ_INT(r1.score, r2.score);
    CHECK_EQ_INT(r1.depth, 6);

    /* A very short clock still answers with a legal move. */
    search_limits_init(&l);
    l.use_clock = true;
    l.time_ms = 200;
    l.inc_ms = 10;
    r = searcher_run(s, b, &l, NULL);
    CHECK(r.best != MOVE_NONE && board_is_legal(b, r.best));

    /* searchmoves restricts the root; banmoves excludes. */
    Move h2e2 = board_parse_move(b, "h2e2");
    search_limits_init(&l);
    l.depth = 3;
    l.searchmoves_count = 1;
    l.searchmoves[0] = h2e2;
    r = searcher_run(s, b, &l, NULL);
    CHECK_EQ_INT(r.best, h2e2);
    search_limits_init(&l);
    l.depth = 4;
    r1 = searcher_run(s, b, &l, NULL);
    l.banmoves_count = 1;
    l.banmoves[0] = r1.best;
    r2 = searcher_run(s, b, &l, NULL);
    CHECK(r2.best != r1.best && r2.best != MOVE_NONE);

    /* The TT answers probe after a search. */
    TTProbe p;
    CHECK(searcher_probe(s, b, &p));
    CHECK(p.depth >= 1);
}

static void test_multipv(Searcher *s)
{
    set_opts(s, 1, 3, true);
    Board *b = load("startpos");
    Collect c;
    memset(&c, 0, sizeof c);
    SearchCallbacks cb = {.ctx = &c, .on_info = col_info, .on_currmove = NULL, .on_bestmove = col_best};
    searcher_new_game(s);
    SearchLimits l;
    search_limits_init(&l);
    l.depth = 5;
    SearchResult r = searcher_run(s, b, &l, &cb);
    CHECK_EQ_INT(c.bestmoves, 1);
    CHECK(c.lines[1] >= 5 && c.lines[2] >= 5 && c.lines[3] >= 5);
    CHECK(c.first[1] != c.first[2] && c.first[2] != c.first[3] && c.first[1] != c.first[3]);
    CHECK(c.score[1] >= c.score[2] && c.score[2] >= c.score[3]);
    CHECK_EQ_INT(r.best, c.first[1]);
    set_opts(s, 1, 1, true);
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void test_background(Searcher *s)
{
    Board *b = load("startpos");
    Collect c;
    memset(&c, 0, sizeof c);
    SearchCallbacks cb = {.ctx = &c, .on_info = col_info, .on_currmove = NULL, .on_bestmove = col_best};

    /* Infinite: runs until stop, then exactly one bestmove. */
    SearchLimits l;
    search_limits_init(&l);
    l.infinite = true;
    searcher_start(s, b, &l, &cb);
    sleep_ms(30);
    CHECK(searcher_is_running(s));
    searcher_stop(s);
    searcher_wait(s);
    CHECK(!searcher_is_running(s));
    CHECK_EQ_INT(c.bestmoves, 1);
    CHECK(c.result.best != MOVE_NONE && board_is_legal(b, c.result.best));

    /* Ponder with a movetime: the clock does not run until ponderhit, and the
     * depth limit does not end it either. */
    memset(&c, 0, sizeof c);
    search_limits_init(&l);
    l.ponder = true;
    l.movetime_ms = 10;
    l.depth = 2;
    searcher_start(s, b, &l, &cb);
    sleep_ms(50);
    CHECK(searcher_is_running(s));
    CHECK_EQ_INT(c.bestmoves, 0);
    searcher_ponderhit(s);
    searcher_wait(s);
    CHECK_EQ_INT(c.bestmoves, 1);

    /* Two threads share the TT and still answer once. */
    set_opts(s, 2, 1, true);
    memset(&c, 0, sizeof c);
    search_limits_init(&l);
    l.depth = 6;
    searcher_start(s, b, &l, &cb);
    searcher_wait(s);
    CHECK_EQ_INT(c.bestmoves, 1);
    CHECK(c.result.best != MOVE_NONE && c.result.depth == 6);
    set_opts(s, 1, 1, true);
}

/* The static eval shrinks toward the draw once R60_FREE plies have passed
 * without a capture, by 1/R60_SPAN a ply, and stops shrinking at the
 * natural limit (a FEN may carry a larger counter). */
static void test_natural_limit_eval(Searcher *s)
{
    static const char *const fens[] = {"3k5/4a4/9/9/9/9/9/9/R8/4K4 w - - %d 1",
                                       "3k5/4a4/9/9/9/9/9/9/R8/4K4 b - - %d 1"};
    for (int i = 0; i < 2; i++) {
        char fen[96];
        int v[4], q;
        const int counters[4] = {0, R60_FREE, 100, 150};
        for (int k = 0; k < 4; k++) {
            searcher_new_game(s); /* no learned correction */
            snprintf(fen, sizeof fen, fens[i], counters[k]);
            searcher_quiet_eval(s, load(fen), &v[k], &q);
        }
        CHECK(v[0] != 0);
        CHECK_EQ_INT(v[1], v[0]);
        CHECK_EQ_INT(v[2], v[0] * (R60_SPAN - (100 - R60_FREE)) / R60_SPAN);
        CHECK_EQ_INT(v[3], v[0] * (R60_SPAN - (BOARD_RULE60_PLIES - R60_FREE)) / R60_SPAN);
    }
}

static void test_options(Searcher *s)
{
    SearchOptions o;
    search_options_init(&o);
    o.hash_mb = 0;
    CHECK(!searcher_set_options(s, &o));
    search_options_init(&o);
    o.multipv = MAX_MULTIPV + 1;
    CHECK(!searcher_set_options(s, &o));
    search_options_init(&o);
    o.hash_mb = 2;
    CHECK(searcher_set_options(s, &o));
    CHECK_EQ_INT(searcher_options(s)->hash_mb, 2);
    search_options_init(&o);
    CHECK(searcher_set_options(s, &o));

    /* UCI_Elo picks the calibrated level nearest in rating. */
    CHECK_EQ_INT(search_skill_for_elo(SKILL_ELO_MAX), SKILL_MAX);
    CHECK_EQ_INT(search_skill_for_elo(SKILL_ELO_MIN), 0);
    CHECK_EQ_INT(search_skill_for_elo(1700), 8);
    CHECK_EQ_INT(search_skill_for_elo(2000), 12);
    CHECK_EQ_INT(search_skill_for_elo(2300), SKILL_MAX);
    for (int elo = SKILL_ELO_MIN; elo < SKILL_ELO_MAX; elo += 50)
        CHECK(search_skill_for_elo(elo) <= search_skill_for_elo(elo + 50));
}

/* Analysis proves mates (search_execute, analysis_search, analysis_prover_helper).
 * sqyq-115 of mate.epd, a mate in 20 that the prover finds at once and the
 * search alone needs seconds for. The limits are generous; nothing here
 * depends on the machine's speed. */
typedef struct MateWatch {
    _Atomic int best_mate;   /* shortest mate score seen (0: none) */
    _Atomic int bestmoves;
    SearchResult result;
} MateWatch;

static void watch_info(void *ctx, const SearchInfo *info)
{
    MateWatch *w = ctx;
    if (info->score >= SCORE_MATE_MIN && info->score > atomic_load(&w->best_mate))
        atomic_store(&w->best_mate, info->score);
}

static void watch_best(void *ctx, const SearchResult *r)
{
    MateWatch *w = ctx;
    w->result = *r;
    atomic_fetch_add(&w->bestmoves, 1);
}

static bool result_line_mates(const Board *b, const SearchResult *r)
{
    static Board scratch;
    scratch = *b;
    for (int i = 0; i < r->pv_len; i++) {
        if (!board_is_legal(&scratch, r->pv[i]))
            return false;
        board_make(&scratch, r->pv[i]);
    }
    return r->pv_len == SCORE_MATE - r->score && board_count_legal(&scratch) == 0;
}

static void test_analysis_prover(Searcher *s)
{
    static const char *const fen = "4k4/3PaR3/4ba3/2NN5/2p1r1b2/9/9/4C4/1nrpA4/c3KAR2 w - - 0 1";
    const int mate_score = SCORE_MATE - 39;
    Board *b = load(fen);
    SearchCallbacks cb = {.ctx = NULL, .on_info = watch_info, .on_currmove = NULL, .on_bestmove = watch_best};

    /* One thread, go infinite: the prover's turn shows the mate; stop then
     * answers with the proof's move. */
    for (int threads = 1; threads <= 2; threads++) {
        set_opts(s, threads, 1, true);
        searcher_new_game(s);
        MateWatch w;
        memset(&w, 0, sizeof w);
        cb.ctx = &w;
        SearchLimits l;
        search_limits_init(&l);
        l.infinite = true;
        searcher_start(s, b, &l, &cb);
        for (int waited = 0; waited < 200000 && atomic_load(&w.best_mate) < mate_score; waited += 10)
            sleep_ms(10);
        searcher_stop(s);
        searcher_wait(s);
        CHECK(atomic_load(&w.best_mate) >= mate_score);
        CHECK_EQ_INT(atomic_load(&w.bestmoves), 1);
        CHECK(w.result.score >= mate_score);
        CHECK(result_line_mates(b, &w.result));
    }

    /* Two threads, a clocked search: the prover helper's proof ends it and
     * is the answer (the clock is far longer than the proof takes). */
    MateWatch w;
    memset(&w, 0, sizeof w);
    cb.ctx = &w;
    SearchLimits l;
    search_limits_init(&l);
    l.movetime_ms = 200000;
    searcher_new_game(s);
    SearchResult r = searcher_run(s, b, &l, &cb);
    CHECK(r.score >= mate_score);
    CHECK(result_line_mates(b, &r));
    set_opts(s, 1, 1, true);
}

int main(void)
{
    board_init();
    eval_init();
    Searcher *s = searcher_new();
    CHECK(s != NULL);
    if (!s)
        TEST_END();
    test_options(s);
    test_natural_limit_eval(s);
    test_null_rules(s);
    test_null_gate(s);
    test_null_zugzwang(s);
    test_perpetual_check(s);
    test_mates(s);
    test_mate_prover(s);
    test_limits(s);
    test_clock_limits();
    test_multipv(s);
    test_background(s);
    test_analysis_prover(s);
    searcher_free(s);
    TEST_END();
}
