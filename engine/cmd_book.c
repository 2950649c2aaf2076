/* cmd_book.c — `chariot book show BOOK.DAT FEN|startpos` lists the book moves of
 * a position with their weights, in the order and form the engine uses;
 * `chariot book build GAMES.pgn... -o BOOK.DAT [--plies N] [--min-games K]`
 * writes a book in ElephantEye's format (search/book.c) from games. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "match.h"

#include "board.h"
#include "commands.h"
#include "search.h"

static int book_usage(void)
{
    fprintf(stderr, "usage: chariot book show BOOK.DAT FEN|startpos\n"
                    "       chariot book build GAMES.pgn [more.pgn ...] -o BOOK.DAT [--plies N] [--min-games K]\n");
    return 2;
}

/* Book building: plies of each game that enter the book by default, and the
 * games a move needs before it does. */
enum { BOOK_BUILD_PLIES_DEFAULT = 20, BOOK_BUILD_MIN_GAMES_DEFAULT = 1 };
/* A move's weight: WEIGHT_SCALE x games x (its score rate + WEIGHT_FLOOR /
 * 100), so frequent moves weigh more and moves that scored better more
 * still, and a move that always lost keeps a little weight. */
enum { BOOK_WEIGHT_SCALE = 4, BOOK_WEIGHT_FLOOR_PCT = 25, BOOK_WEIGHT_MAX = 65535 };

typedef struct BookEntry {
    uint32_t lock;
    uint16_t move;     /* on the 16x16 board, as stored */
    int games;
    int half_points;   /* for the side that played the move: 2 win, 1 draw */
} BookEntry;

typedef struct BookBuild {
    BookEntry *e;
    size_t count, cap;
    BookLocks locks;
    int games, positions;
} BookBuild;

static bool book_build_add(BookBuild *bb, uint32_t lock, uint16_t move, int half_points)
{
    /* Entries are merged after sorting; here they are only appended. */
    if (bb->count == bb->cap) {
        size_t ncap = bb->cap ? bb->cap * 2 : 4096;
        BookEntry *grown = realloc(bb->e, ncap * sizeof *grown);
        if (!grown)
            return false;
        bb->e = grown;
        bb->cap = ncap;
    }
    bb->e[bb->count++] = (BookEntry){lock, move, 1, half_points};
    bb->positions++;
    return true;
}

/* Records move m of position b, under the lock of b or of its mirror,
 * whichever is smaller, so a position and its mirror share their moves. */
static bool book_build_move(BookBuild *bb, const Board *b, Move m, int half_points)
{
    uint32_t direct = book_lock(&bb->locks, b, false), mirrored = book_lock(&bb->locks, b, true);
    bool mirror = mirrored < direct;
    uint16_t code = (uint16_t)(book_square(move_from(m), mirror) | book_square(move_to(m), mirror) << 8);
    return book_build_add(bb, mirror ? mirrored : direct, code, half_points);
}

/* Half points for Red from a PGN result, -1 when unknown. */
static int book_result_red(const char *r)
{
    if (strncmp(r, "1-0", 3) == 0)
        return 2;
    if (strncmp(r, "0-1", 3) == 0)
        return 0;
    if (strncmp(r, "1/2-1/2", 7) == 0)
        return 1;
    return -1;
}

/* One game's movetext: numbers, comments, variations, NAGs and the result
 * are skipped; the moves (ICCS, WXF or Chinese) are played from b until one
 * does not parse or the ply limit is reached. */
static bool book_build_game(BookBuild *bb, Board *b, char *text, int red_half, int plies)
{
    int ply = 0, depth = 0;
    char *p = text;
    while (*p && ply < plies) {
        if (*p == '{') {
            char *end = strchr(p, '}');
            p = end ? end + 1 : p + strlen(p);
            continue;
        }
        if (*p == '(') {
            depth++;
            p++;
            continue;
        }
        if (*p == ')') {
            depth -= depth > 0;
            p++;
            continue;
        }
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        char *start = p;
        while (*p && !isspace((unsigned char)*p) && *p != '{' && *p != '(' && *p != ')')
            p++;
        char tok[64];
        size_t n = (size_t)(p - start) < sizeof tok - 1 ? (size_t)(p - start) : sizeof tok - 1;
        memcpy(tok, start, n);
        tok[n] = '\0';
        if (depth > 0 || tok[0] == '$' || book_result_red(tok) >= 0 || strcmp(tok, "*") == 0)
            continue;
        /* "12." or "12..." alone, or glued to the move ("12.h2e2"). */
        char *mv = tok;
        while (isdigit((unsigned char)*mv))
            mv++;
        if (mv != tok && *mv == '.') {
            while (*mv == '.')
                mv++;
        } else {
            mv = tok;
        }
        if (!*mv)
            continue;
        Move m = board_parse_move(b, mv);
        if (m == MOVE_NONE)
            break;
        int half = b->side == RED ? red_half : 2 - red_half;
        if (!book_build_move(bb, b, m, half))
            return false;
        board_make(b, m);
        ply++;
    }
    return true;
}

static int cmp_entry(const void *a, const void *b)
{
    const BookEntry *x = a, *y = b;
    if (x->lock != y->lock)
        return x->lock < y->lock ? -1 : 1;
    return x->move < y->move ? -1 : x->move > y->move;
}

/* Reads every game of a PGN file into the build. */
static bool book_build_file(BookBuild *bb, const char *path, int plies, Board *b)
{
    size_t len;
    char *text = match_file_read(path, &len);
    if (!text) {
        fprintf(stderr, "chariot book: cannot read %s\n", path);
        return false;
    }
    char *p = text;
    char fen[256] = "";
    int red_half = -1;
    bool ok = true;
    while (*p && ok) {
        char *eol = strchr(p, '\n');
        char *next = eol ? eol + 1 : p + strlen(p);
        if (*p == '[') {
            char val[256];
            if (sscanf(p, "[FEN \"%255[^\"]\"", val) == 1)
                snprintf(fen, sizeof fen, "%s", val);
            else if (sscanf(p, "[Result \"%255[^\"]\"", val) == 1)
                red_half = book_result_red(val);
            p = next;
            continue;
        }
        if (isspace((unsigned char)*p)) {
            p = next;
            continue;
        }
        /* Movetext runs to the next blank line or tag. */
        char *end = p;
        while (*end && !(end[0] == '\n' && (end[1] == '\n' || end[1] == '\r' || end[1] == '[')))
            end++;
        char saved = *end;
        *end = '\0';
        char err[160];
        bool start_ok = fen[0] ? board_from_fen(b, fen, err, sizeof err) : (board_startpos(b), true);
        if (start_ok && red_half >= 0) {
            ok = book_build_game(bb, b, p, red_half, plies);
            bb->games++;
        }
        *end = saved;
        p = end;
        fen[0] = '\0';
        red_half = -1;
    }
    free(text);
    return ok;
}

static bool book_write(const char *path, const BookEntry *e, size_t n, int min_games, size_t *written)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    *written = 0;
    for (size_t i = 0; i < n; i++) {
        if (e[i].games < min_games)
            continue;
        long w = (long)BOOK_WEIGHT_SCALE * (e[i].half_points * 50 + e[i].games * BOOK_WEIGHT_FLOOR_PCT) / 100;
        if (w < 1)
            w = 1;
        if (w > BOOK_WEIGHT_MAX)
            w = BOOK_WEIGHT_MAX;
        uint8_t r[8] = {(uint8_t)e[i].lock,        (uint8_t)(e[i].lock >> 8), (uint8_t)(e[i].lock >> 16),
                        (uint8_t)(e[i].lock >> 24), (uint8_t)e[i].move,        (uint8_t)(e[i].move >> 8),
                        (uint8_t)w,                 (uint8_t)(w >> 8)};
        if (fwrite(r, 1, sizeof r, f) != sizeof r) {
            fclose(f);
            return false;
        }
        (*written)++;
    }
    return fclose(f) == 0;
}

static int book_build(int argc, char **argv)
{
    const char *out = NULL;
    long long plies = BOOK_BUILD_PLIES_DEFAULT, min_games = BOOK_BUILD_MIN_GAMES_DEFAULT;
    int nfiles = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (strcmp(argv[i], "--plies") == 0 && i + 1 < argc) {
            if (!cli_parse_ll(argv[++i], 1, 200, &plies)) {
                fprintf(stderr, "chariot book: bad --plies '%s' (1..200)\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--min-games") == 0 && i + 1 < argc) {
            if (!cli_parse_ll(argv[++i], 1, 1000000, &min_games)) {
                fprintf(stderr, "chariot book: bad --min-games '%s'\n", argv[i]);
                return 2;
            }
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "chariot book: unknown option %s\n", argv[i]);
            return book_usage();
        } else {
            nfiles++;
        }
    }
    if (!out || nfiles == 0)
        return book_usage();
    BookBuild *bb = calloc(1, sizeof *bb);
    Board *b = malloc(sizeof *b);
    int rc = 0;
    if (!bb || !b) {
        fprintf(stderr, "chariot book: out of memory\n");
        rc = 1;
        goto done;
    }
    book_locks_init(&bb->locks);
    for (int i = 0; i < argc && rc == 0; i++) {
        if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--plies") == 0 || strcmp(argv[i], "--min-games") == 0) {
            i++;
            continue;
        }
        if (!book_build_file(bb, argv[i], (int)plies, b))
            rc = 1;
    }
    if (rc == 0) {
        /* Sort, then merge equal (lock, move) pairs into one entry. */
        qsort(bb->e, bb->count, sizeof *bb->e, cmp_entry);
        size_t n = 0;
        for (size_t i = 0; i < bb->count; i++) {
            if (n > 0 && bb->e[n - 1].lock == bb->e[i].lock && bb->e[n - 1].move == bb->e[i].move) {
                bb->e[n - 1].games++;
                bb->e[n - 1].half_points += bb->e[i].half_points;
            } else {
                bb->e[n++] = bb->e[i];
            }
        }
        size_t written;
        if (!book_write(out, bb->e, n, (int)min_games, &written)) {
            fprintf(stderr, "chariot book: cannot write %s\n", out);
            rc = 1;
        } else {
            printf("%d games, %d book moves played, %zu distinct; %zu records written to %s\n", bb->games,
                   bb->positions, n, written, out);
        }
    }
done:
    if (bb)
        free(bb->e);
    free(bb);
    free(b);
    return rc;
}

static int book_show(const char *path, const char *where)
{
    Board b;
    char err[512];
    if (strcmp(where, "startpos") == 0) {
        board_startpos(&b);
    } else if (!board_from_fen(&b, where, err, sizeof err)) {
        fprintf(stderr, "chariot book: bad FEN: %s\n", err);
        return 2;
    }
    Book *bk = book_open(path, err, sizeof err);
    if (!bk) {
        fprintf(stderr, "chariot book: %s\n", err);
        return 1;
    }
    BookMove mv[MAX_MOVES];
    int n = book_probe(bk, &b, mv, MAX_MOVES);
    int total = 0;
    for (int i = 0; i < n; i++)
        total += mv[i].weight;
    printf("%zu records; %d book move%s for this position\n", bk->count, n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        char iccs[5], cn[32];
        move_to_iccs(mv[i].move, iccs);
        if (!board_move_to_chinese(&b, mv[i].move, cn, sizeof cn))
            snprintf(cn, sizeof cn, "?");
        printf("%-5s %-12s weight %5d  %5.1f%%\n", iccs, cn, mv[i].weight, 100.0 * mv[i].weight / total);
    }
    book_free(bk);
    return 0;
}

int cmd_book(int argc, char **argv)
{
    /* argv[0] is "book". */
    if (argc == 4 && strcmp(argv[1], "show") == 0)
        return book_show(argv[2], argv[3]);
    if (argc >= 3 && strcmp(argv[1], "build") == 0)
        return book_build(argc - 2, argv + 2);
    return book_usage();
}
