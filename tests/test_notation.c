/* test_notation.c — ICCS, WXF and Chinese move notation: known strings, round trips, garbage. */
#include "board.h"
#include "test.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng_next(void)
{
    /* xorshift64*: deterministic, so a failure reproduces. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static void load(Board *b, const char *fen)
{
    char err[128];
    if (!board_from_fen(b, fen, err, sizeof err)) {
        fprintf(stderr, "bad test FEN %s: %s\n", fen, err);
        test_failures++;
        board_startpos(b);
    }
}

static Move iccs(const char *s)
{
    Move m = move_from_iccs(s);
    CHECK(m != MOVE_NONE);
    return m;
}

/* The move's three notations are exactly the expected strings and parse back. */
static void expect_move(const Board *b, const char *iccs_text, const char *wxf, const char *chinese)
{
    Move m = iccs(iccs_text);
    char out[32];
    CHECK(board_is_legal(b, m));
    CHECK(board_move_to_wxf(b, m, out, 8));
    CHECK_EQ_STR(out, wxf);
    CHECK(board_move_to_chinese(b, m, out, sizeof out));
    CHECK_EQ_STR(out, chinese);
    CHECK_EQ_INT(board_parse_move(b, iccs_text), m);
    CHECK_EQ_INT(board_parse_move(b, wxf), m);
    CHECK_EQ_INT(board_parse_move(b, chinese), m);
}

static void expect_parse(const Board *b, const char *text, const char *iccs_text)
{
    Move want = iccs_text ? move_from_iccs(iccs_text) : MOVE_NONE;
    Move got = board_parse_move(b, text);
    if (got != want) {
        char g[5];
        move_to_iccs(got, g);
        fprintf(stderr, "parse \"%s\": got %s, want %s\n", text, g, iccs_text ? iccs_text : "none");
        test_failures++;
    }
}

static void test_iccs(void)
{
    char out[5];
    Move m = move_make(sq_make(7, 2), sq_make(4, 2));
    move_to_iccs(m, out);
    CHECK_EQ_STR(out, "h2e2");
    CHECK_EQ_INT(move_from_iccs("h2e2"), m);
    CHECK_EQ_INT(move_from_iccs("H2E2"), m);
    CHECK_EQ_INT(move_from_iccs("H2-E2"), m);
    CHECK_EQ_INT(move_from_iccs("h2-e2"), m);
    CHECK_EQ_INT(move_from_iccs("h2e2 h9g7"), m);
    move_to_iccs(MOVE_NONE, out);
    CHECK_EQ_STR(out, "0000");
    move_to_iccs(MOVE_NULL, out);
    CHECK_EQ_STR(out, "0000");
    move_to_iccs(move_make(sq_make(0, 0), sq_make(8, 9)), out);
    CHECK_EQ_STR(out, "a0i9");
    CHECK_EQ_INT(move_from_iccs("i9a0"), move_make(89, 0));

    static const char *const bad[] = {
        "", "h", "h2", "h2e", "h2-", "h2-e", "h2--e2", "h2e2e3", "h2e2-", "j2e2", "h2j2",
        "hae2", "h2ee", "h2h2", "b0b0", "a0a0", "0000", "h2e2\xff", "\xe7\x82\xae", "h 2e2",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_EQ_INT(move_from_iccs(bad[i]), MOVE_NONE);
    CHECK_EQ_INT(move_from_iccs(NULL), MOVE_NONE);

    /* Exact-size heap copies of every prefix: ASan flags any read past the NUL. */
    const char *full = "h2-e2";
    for (size_t len = 0; len <= strlen(full); len++) {
        char *p = malloc(len + 1);
        memcpy(p, full, len);
        p[len] = '\0';
        Move r = move_from_iccs(p);
        CHECK(len == strlen(full) ? r == m : r == MOVE_NONE);
        free(p);
    }
}

static void test_piece_names(void)
{
    CHECK_EQ_STR(board_piece_chinese(piece_make(RED, KING)), "帅");
    CHECK_EQ_STR(board_piece_chinese(piece_make(RED, ADVISOR)), "仕");
    CHECK_EQ_STR(board_piece_chinese(piece_make(RED, ELEPHANT)), "相");
    CHECK_EQ_STR(board_piece_chinese(piece_make(RED, HORSE)), "马");
    CHECK_EQ_STR(board_piece_chinese(piece_make(RED, ROOK)), "车");
    CHECK_EQ_STR(board_piece_chinese(piece_make(RED, CANNON)), "炮");
    CHECK_EQ_STR(board_piece_chinese(piece_make(RED, PAWN)), "兵");
    CHECK_EQ_STR(board_piece_chinese(piece_make(BLACK, KING)), "将");
    CHECK_EQ_STR(board_piece_chinese(piece_make(BLACK, ADVISOR)), "士");
    CHECK_EQ_STR(board_piece_chinese(piece_make(BLACK, ELEPHANT)), "象");
    CHECK_EQ_STR(board_piece_chinese(piece_make(BLACK, HORSE)), "马");
    CHECK_EQ_STR(board_piece_chinese(piece_make(BLACK, ROOK)), "车");
    CHECK_EQ_STR(board_piece_chinese(piece_make(BLACK, CANNON)), "炮");
    CHECK_EQ_STR(board_piece_chinese(piece_make(BLACK, PAWN)), "卒");
    CHECK_EQ_STR(board_piece_chinese(PIECE_NONE), "");
    CHECK_EQ_STR(board_piece_chinese(8), "");
    CHECK_EQ_STR(board_piece_chinese(200), "");
}

static void test_known(void)
{
    Board b;
    board_startpos(&b);
    expect_move(&b, "h2e2", "C2.5", "炮二平五");
    expect_move(&b, "h0g2", "H2+3", "马二进三");
    expect_move(&b, "c3c4", "P7+1", "兵七进一");
    expect_move(&b, "g0e2", "E3+5", "相三进五");
    expect_move(&b, "f0e1", "A4+5", "仕四进五");
    expect_move(&b, "i0i1", "R1+1", "车一进一");
    expect_move(&b, "h2h9", "C2+7", "炮二进七");
    expect_move(&b, "e0e1", "K5+1", "帅五进一");
    /* Accepted variants of the same moves. */
    expect_parse(&b, "砲二平五", "h2e2");
    expect_parse(&b, "包２平５", "h2e2");
    expect_parse(&b, "炮2平5", "h2e2");
    expect_parse(&b, "炮 二 平 五", "h2e2");
    expect_parse(&b, "  C2.5\n", "h2e2");
    expect_parse(&b, "c2.5", "h2e2");
    expect_parse(&b, "C2=5", "h2e2");
    expect_parse(&b, "H2-E2", "h2e2");
    expect_parse(&b, "N2+3", "h0g2");
    expect_parse(&b, "傌二進三", "h0g2");
    expect_parse(&b, "俥一進一", "i0i1");
    expect_parse(&b, "帥五进一", "e0e1");
    expect_parse(&b, "B3+5", "g0e2");
    /* Malformed or illegal. */
    expect_parse(&b, "C2+8", NULL);  /* off the board */
    expect_parse(&b, "C2.2", NULL);  /* traverse to its own file */
    expect_parse(&b, "K5+2", NULL);
    expect_parse(&b, "H2.3", NULL);  /* a horse never traverses */
    expect_parse(&b, "P7+2", NULL);
    expect_parse(&b, "h2e3", NULL);  /* ICCS, illegal */
    expect_parse(&b, "h9g7", NULL);  /* Black's move, Red to move */
    expect_parse(&b, "R5+1", NULL);  /* no rook on file 5 */
    expect_parse(&b, "+R+1", NULL);  /* no tandem rooks */

    load(&b, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b");
    expect_move(&b, "h9g7", "H8+7", "马８进７");
    expect_move(&b, "h7e7", "C8.5", "炮８平５");
    expect_move(&b, "a9a8", "R1+1", "车１进１");
    expect_move(&b, "c6c5", "P3+1", "卒３进１");
    expect_parse(&b, "馬８進７", "h9g7");
    expect_parse(&b, "马8进7", "h9g7");
    expect_parse(&b, "马八进七", "h9g7");
    expect_parse(&b, "h8+7", "h9g7");
    expect_parse(&b, "車１進１", "a9a8");
    expect_parse(&b, "砲８平５", "h7e7");
    expect_parse(&b, "C2.5", "b7e7"); /* Black's cannon on its file 2 */
}

static void test_tandem(void)
{
    Board b;
    /* Two red rooks on file 5 (e3 front, e1 rear). */
    load(&b, "3k5/9/9/9/9/9/4R4/9/4R4/5K3 w");
    expect_move(&b, "e3e7", "+R+4", "前车进四");
    expect_move(&b, "e3a3", "+R.9", "前车平九");
    expect_move(&b, "e1e2", "-R+1", "后车进一");
    expect_move(&b, "e1e0", "-R-1", "后车退一");
    expect_move(&b, "e1i1", "-R.1", "后车平一");
    expect_parse(&b, "R+.9", "e3a3");      /* marker after the letter */
    expect_parse(&b, "後車平九", "e1a1");
    expect_parse(&b, "R5+1", NULL);        /* both rooks can: ambiguous */
    expect_parse(&b, "车五进四", "e3e7");  /* plain form, only one rook can */

    /* Two black rooks on file 5 (e6 front: nearer Red). */
    load(&b, "4k4/4r4/9/4r4/9/9/9/9/9/3K5 b");
    expect_move(&b, "e6e0", "+R+6", "前车进６");
    expect_move(&b, "e6a6", "+R.1", "前车平１");
    expect_move(&b, "e8e7", "-R+1", "后车进１");
    expect_parse(&b, "前车进六", "e6e0");

    /* Three red pawns on file 5. */
    load(&b, "4k4/9/4P4/4P4/4P4/9/9/9/9/3K5 w");
    expect_move(&b, "e7e8", "1P+1", "前兵进一");
    expect_move(&b, "e7d7", "1P.6", "前兵平六");
    expect_move(&b, "e6f6", "2P.4", "中兵平四");
    expect_move(&b, "e5d5", "3P.6", "后兵平六");
    expect_parse(&b, "二兵平四", "e6f6");  /* index form is accepted too */
    expect_parse(&b, "+P.6", "e7d7");
    expect_parse(&b, "-P.6", "e5d5");

    /* Red pawns doubled on files 3 and 7, one more on file 9: one index over
     * both files, right to left, front to back. */
    load(&b, "4k4/9/9/P1P3P2/2P3P2/9/9/9/9/3K5 w");
    expect_move(&b, "g6f6", "1P.4", "一兵平四");
    expect_move(&b, "g5h5", "2P.2", "二兵平二");
    expect_move(&b, "c6c7", "3P+1", "三兵进一");
    expect_move(&b, "c5b5", "4P.8", "四兵平八");
    expect_move(&b, "a6a7", "P9+1", "兵九进一");
    expect_parse(&b, "前兵平四", "g6f6");  /* only one front pawn can */
    expect_parse(&b, "前七进一", "c6c7");  /* marker and file, piece left out */
    expect_parse(&b, "前兵进一", NULL);    /* g6 and c6 both can */

    /* Four black pawns on file 5 (e2 is the front one). */
    load(&b, "3k5/9/9/9/4p4/4p4/4p4/4p4/9/5K3 b");
    expect_move(&b, "e2e1", "1P+1", "一卒进１");
    expect_move(&b, "e3d3", "2P.4", "二卒平４");
    expect_move(&b, "e4f4", "3P.6", "三卒平６");
    expect_parse(&b, "１卒进１", "e2e1");

    /* Advisors on one file: the direction tells them apart, no marker. */
    load(&b, "3k5/9/9/9/9/9/9/3A5/9/3AK4 w");
    expect_move(&b, "d0e1", "A6+5", "仕六进五");
    expect_move(&b, "d2e1", "A6-5", "仕六退五");

    /* Two horses on one file. */
    load(&b, "3k5/9/9/9/9/9/4N4/9/4N4/5K3 w");
    expect_move(&b, "e3d5", "+H+6", "前马进六");
    expect_move(&b, "e1c0", "-H-7", "后马退七");
}

/* Every legal move: each notation is produced, fits, and parses back. */
static int roundtrip_failures;

static void roundtrip_position(const Board *b)
{
    MoveList list;
    board_generate(b, GEN_ALL, &list);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        char ic[5], wxf[8], cn[32];
        if (!board_is_legal(b, m)) {
            /* Not a notation bug: the core's generator and legality test disagree. */
            char fen[128];
            board_to_fen(b, fen, sizeof fen);
            move_to_iccs(m, ic);
            fprintf(stderr, "board_generate gave %s, board_is_legal rejects it: %s\n", ic, fen);
            test_failures++;
            continue;
        }
        move_to_iccs(m, ic);
        bool ok = move_from_iccs(ic) == m && board_parse_move(b, ic) == m;
        bool wok = board_move_to_wxf(b, m, wxf, sizeof wxf) && board_parse_move(b, wxf) == m;
        bool cok = board_move_to_chinese(b, m, cn, sizeof cn) && board_parse_move(b, cn) == m;
        if (!ok || !wok || !cok) {
            if (roundtrip_failures < 20) {
                char fen[128];
                board_to_fen(b, fen, sizeof fen);
                fprintf(stderr, "round trip failed: %s move %s wxf \"%s\" chinese \"%s\"\n",
                        fen, ic, wok ? wxf : "?", cok ? cn : "?");
            }
            roundtrip_failures++;
        }
    }
}

static int test_epd_positions(void)
{
    FILE *f = fopen(CHARIOT_DATA_DIR "/perft.epd", "r");
    CHECK(f != NULL);
    if (!f)
        return 0;
    char line[1024];
    int positions = 0;
    Board b;
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\n' || *p == '\r' || *p == '\0')
            continue;
        char *semi = strchr(p, ';');
        if (semi)
            *semi = '\0';
        char err[128];
        if (!board_from_fen(&b, p, err, sizeof err)) {
            fprintf(stderr, "perft.epd: bad FEN %s: %s\n", p, err);
            test_failures++;
            continue;
        }
        roundtrip_position(&b);
        positions++;
    }
    fclose(f);
    CHECK(positions > 20);
    return positions;
}

static int test_random_games(void)
{
    static Board b;
    int positions = 0;
    for (int game = 0; game < 24; game++) {
        board_startpos(&b);
        for (int ply = 0; ply < 120; ply++) {
            roundtrip_position(&b);
            positions++;
            MoveList list;
            board_generate(&b, GEN_ALL, &list);
            if (list.count == 0)
                break;
            board_make(&b, list.moves[rng_next() % (uint64_t)list.count]);
        }
    }
    return positions;
}

/* Positions with tandem pieces of every kind, both colors. */
static void test_tandem_roundtrip(void)
{
    static const char *const fens[] = {
        "3k5/9/9/9/9/9/4R4/9/4R4/5K3 w",
        "4k4/4r4/9/4r4/9/9/9/9/9/3K5 b",
        "4k4/9/4P4/4P4/4P4/9/9/9/9/3K5 w",
        "4k4/9/9/P1P3P2/2P3P2/9/9/9/9/3K5 w",
        "3k5/9/9/9/4p4/4p4/4p4/4p4/9/5K3 b",
        "3k5/9/4P4/4P4/4P4/4P4/4P4/9/9/5K3 w",
        "3k5/9/9/2P1P4/2P1P4/4P4/9/9/9/5K3 w",
        "5k3/9/9/9/9/3p1p3/3p1p3/3p5/9/3K5 b",
        "3k5/9/9/9/9/9/4N4/9/4N4/5K3 w",
        "3k5/9/9/9/9/4C4/9/4C4/9/5K3 w",
        "3akab2/4n4/4n4/9/9/9/9/3A5/9/3AK4 w",
        "2bak4/9/9/9/2b6/6B2/9/9/9/3K2B2 b",
        "2ba1k3/9/9/9/2b6/6B2/9/9/9/4KAB2 w",
    };
    Board b;
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        load(&b, fens[i]);
        roundtrip_position(&b);
    }
}

static void test_garbage(void)
{
    Board b;
    board_startpos(&b);
    char before[128], after[128];
    board_to_fen(&b, before, sizeof before);

    static const char *const bad[] = {
        "", " ", "\t\n", "h", "h2", "h2e", "h2e2e", "z9z9", "0000", "C", "C2", "C2.", "C2.0",
        "C0.5", "C2.5.", "C2..5", "CC.5", "2.5", "C2.55", "+C", "++R+1", "炮", "炮二", "炮二平",
        "炮二平五五", "五平二炮", "炮二二五", "进进进进", "前前车进一", "\xff\xfe", "\xe7\x82",
        "\xc0\xaf", "\xed\xa0\x80", "\xf0\x9f\x98\x80", "炮二平\xe4\xba", "炮二平\xe4",
        "\xe7\x82\xae\x80二平五", "C2.5\x01", "ｃ２．５", "h2e2\xe4\xba\x94",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Move m = board_parse_move(&b, bad[i]);
        if (m != MOVE_NONE) {
            fprintf(stderr, "garbage #%zu parsed as a move\n", i);
            test_failures++;
        }
    }
    CHECK_EQ_INT(board_parse_move(&b, NULL), MOVE_NONE);

    /* Every truncation of valid Chinese text. */
    const char *cn = "炮二平五";
    for (size_t len = 0; len < strlen(cn); len++) {
        char *p = malloc(len + 1);
        memcpy(p, cn, len);
        p[len] = '\0';
        CHECK_EQ_INT(board_parse_move(&b, p), MOVE_NONE);
        free(p);
    }

    /* Long strings. */
    size_t big = 100000;
    char *s = malloc(big + 1);
    memset(s, 'a', big);
    s[big] = '\0';
    CHECK_EQ_INT(board_parse_move(&b, s), MOVE_NONE);
    for (size_t i = 0; i + 3 <= big; i += 3)
        memcpy(s + i, "\xe7\x82\xae", 3);
    s[big - big % 3] = '\0';
    CHECK_EQ_INT(board_parse_move(&b, s), MOVE_NONE);
    memset(s, ' ', big);
    memcpy(s + big / 2, "C2.5", 4);
    CHECK_EQ_INT(board_parse_move(&b, s), move_from_iccs("h2e2")); /* spaces are trimmed */
    free(s);

    /* Random bytes and random token soup: never a crash, never an illegal move. */
    static const char *const pieces[] = {
        "炮", "车", "马", "兵", "前", "后", "中", "进", "退", "平", "二", "五", "８", "7", "+",
        "-", ".", "C", "R", "P", "h", "e", "2", " ", "\xe4", "\xbc",
    };
    for (int i = 0; i < 20000; i++) {
        char buf[80];
        size_t n = 0;
        int parts = (int)(rng_next() % 8);
        bool bytes = rng_next() & 1;
        for (int k = 0; k < parts; k++) {
            if (bytes) {
                unsigned char c = (unsigned char)(rng_next() % 255 + 1);
                buf[n++] = (char)c;
            } else {
                const char *t = pieces[rng_next() % (sizeof pieces / sizeof pieces[0])];
                size_t tl = strlen(t);
                memcpy(buf + n, t, tl);
                n += tl;
            }
        }
        buf[n] = '\0';
        Move m = board_parse_move(&b, buf);
        CHECK(m == MOVE_NONE || board_is_legal(&b, m));
        Move r = move_from_iccs(buf);
        CHECK(r == MOVE_NONE || (move_from(r) < SQ_NB && move_to(r) < SQ_NB));
    }

    board_to_fen(&b, after, sizeof after);
    CHECK_EQ_STR(before, after);

    /* Output buffers that are too small fail cleanly. */
    char small[4];
    Move h2e2 = move_from_iccs("h2e2");
    CHECK(!board_move_to_wxf(&b, h2e2, small, sizeof small));
    CHECK_EQ_STR(small, "");
    CHECK(!board_move_to_chinese(&b, h2e2, small, sizeof small));
    CHECK_EQ_STR(small, "");
    char out[32];
    CHECK(!board_move_to_wxf(&b, move_from_iccs("h9g7"), out, sizeof out)); /* not legal */
    CHECK(!board_move_to_chinese(&b, MOVE_NONE, out, sizeof out));
    CHECK(!board_move_to_wxf(&b, MOVE_NULL, out, sizeof out));
}

int main(void)
{
    board_init();
    test_iccs();
    test_piece_names();
    test_known();
    test_tandem();
    test_tandem_roundtrip();
    int epd = test_epd_positions();
    int games = test_random_games();
    CHECK_EQ_INT(roundtrip_failures, 0);
    test_garbage();
    printf("round trips: %d perft.epd positions, %d random-play positions\n", epd, games);
    TEST_END();
}
