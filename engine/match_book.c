/* match_book.c — opening files for `chariot match`: FEN/EPD lines, move lists, order and shuffling. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "search.h"

/* An ICCS token: "h2e2" or "H2-E2". */
static bool match_book_iccs_token(const char *t, size_t len, Move *m)
{
    char c[4];
    if (len == 4) {
        memcpy(c, t, 4);
    } else if (len == 5 && t[2] == '-') {
        c[0] = t[0], c[1] = t[1], c[2] = t[3], c[3] = t[4];
    } else {
        return false;
    }
    int f1 = tolower((unsigned char)c[0]) - 'a', r1 = c[1] - '0';
    int f2 = tolower((unsigned char)c[2]) - 'a', r2 = c[3] - '0';
    if (f1 < 0 || f1 > 8 || f2 < 0 || f2 > 8 || r1 < 0 || r1 > 9 || r2 < 0 || r2 > 9)
        return false;
    *m = move_make(sq_make(f1, r1), sq_make(f2, r2));
    return true;
}

/* Plays the blank-separated moves of s on b into op; false on a bad or illegal move. */
static bool match_book_play(Board *b, const char *s, MatchOpening *op, char *err, size_t errlen)
{
    const char *p = s;
    for (;;) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            return true;
        const char *start = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        size_t len = (size_t)(p - start);
        Move m;
        if (!match_book_iccs_token(start, len, &m)) {
            snprintf(err, errlen, "bad move '%.*s'", (int)(len > 16 ? 16 : len), start);
            return false;
        }
        if (!board_is_legal(b, m)) {
            snprintf(err, errlen, "illegal move '%.*s'", (int)len, start);
            return false;
        }
        if (op->count >= MATCH_OPENING_MOVES_MAX) {
            snprintf(err, errlen, "more than %d opening moves", MATCH_OPENING_MOVES_MAX);
            return false;
        }
        op->moves[op->count++] = m;
        board_make(b, m);
    }
}

static bool match_book_all_moves(const char *s)
{
    const char *p = s;
    bool any = false;
    for (;;) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            return any;
        const char *start = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        Move m;
        if (!match_book_iccs_token(start, (size_t)(p - start), &m))
            return false;
        any = true;
    }
}

bool match_opening_parse(const char *line, MatchOpening *op, char *err, size_t errlen)
{
    char text[1024];
    while (isspace((unsigned char)*line))
        line++;
    snprintf(text, sizeof text, "%s", line);
    size_t n = strlen(text);
    while (n > 0 && isspace((unsigned char)text[n - 1]))
        text[--n] = '\0';
    if (n == 0) {
        snprintf(err, errlen, "empty opening");
        return false;
    }

    Board *b = malloc(sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    MatchOpening tmp;
    memset(&tmp, 0, sizeof tmp);
    bool ok = false;
    const char *moves = NULL;
    if (match_book_all_moves(text)) {
        /* a bare move list from the start */
        board_startpos(b);
        moves = text;
        ok = true;
    } else {
        char *kw = strstr(text, " moves");
        if (kw && (kw[6] == '\0' || isspace((unsigned char)kw[6]))) {
            *kw = '\0';
            moves = kw + 6;
        }
        char ferr[128], epd_err[128];
        ok = board_from_fen(b, text, ferr, sizeof ferr);
        if (!ok) {
            /* EPD: the board and side fields, then operations we ignore. */
            char f0[128], f1[8];
            if (sscanf(text, "%127s %7s", f0, f1) == 2) {
                char fen[160];
                snprintf(fen, sizeof fen, "%s %s - - 0 1", f0, f1);
                ok = board_from_fen(b, fen, epd_err, sizeof epd_err);
            }
        }
        if (!ok)
            snprintf(err, errlen, "bad FEN: %s", ferr);
    }
    if (ok) {
        board_to_fen(b, tmp.fen, sizeof tmp.fen);
        Board *start = malloc(sizeof *start);
        if (start) {
            char sfen[MATCH_FEN_MAX];
            board_startpos(start);
            board_to_fen(start, sfen, sizeof sfen);
            tmp.startpos = strcmp(sfen, tmp.fen) == 0;
            free(start);
        }
        if (moves)
            ok = match_book_play(b, moves, &tmp, err, errlen);
    }
    if (ok && board_count_legal(b) == 0) {
        snprintf(err, errlen, "the opening position has no legal move");
        ok = false;
    }
    free(b);
    if (ok)
        *op = tmp;
    return ok;
}

void match_book_free(MatchBook *book)
{
    free(book->items);
    book->items = NULL;
    book->count = 0;
}

static bool match_book_add(MatchBook *book, int *cap, const MatchOpening *op)
{
    if (book->count == *cap) {
        int ncap = *cap ? *cap * 2 : 64;
        MatchOpening *grown = realloc(book->items, (size_t)ncap * sizeof *grown);
        if (!grown)
            return false;
        book->items = grown;
        *cap = ncap;
    }
    book->items[book->count++] = *op;
    return true;
}

bool match_book_load(MatchBook *book, const char *path, char *err, size_t errlen)
{
    book->items = NULL;
    book->count = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open %s", path);
        return false;
    }
    char line[1024];
    int lineno = 0, cap = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        const char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p || *p == '#')
            continue;
        MatchOpening op;
        char why[160];
        if (!match_opening_parse(p, &op, why, sizeof why)) {
            snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
            fclose(f);
            match_book_free(book);
            return false;
        }
        if (!match_book_add(book, &cap, &op)) {
            snprintf(err, errlen, "out of memory");
            fclose(f);
            match_book_free(book);
            return false;
        }
    }
    fclose(f);
    if (book->count == 0) {
        snprintf(err, errlen, "%s: no openings", path);
        return false;
    }
    return true;
}

/* Depth-first walk of the book from b; each leaf becomes an opening. */
static bool match_book_walk(const Book *bk, Board *b, MatchOpening *line, int plies, MatchBook *book, int *cap)
{
    BookMove mv[MAX_MOVES];
    int n = line->count < plies ? book_probe(bk, b, mv, MAX_MOVES) : 0;
    if (n == 0)
        return line->count == 0 || book->count >= MATCH_BOOK_MAX_LINES || match_book_add(book, cap, line);
    for (int i = 0; i < n && book->count < MATCH_BOOK_MAX_LINES; i++) {
        /* mv is sorted heaviest first. */
        if (mv[i].weight * 100 < mv[0].weight * MATCH_BOOK_MIN_SHARE)
            break;
        line->moves[line->count++] = mv[i].move;
        board_make(b, mv[i].move);
        bool ok = match_book_walk(bk, b, line, plies, book, cap);
        board_unmake(b);
        line->count--;
        if (!ok)
            return false;
    }
    return true;
}

bool match_book_from_bookdat(MatchBook *book, const char *path, int plies, char *err, size_t errlen)
{
    book->items = NULL;
    book->count = 0;
    Book *bk = book_open(path, err, errlen);
    if (!bk)
        return false;
    Board *b = malloc(sizeof *b);
    MatchOpening *line = calloc(1, sizeof *line);
    bool ok = b && line;
    int cap = 0;
    if (ok) {
        board_startpos(b);
        snprintf(line->fen, sizeof line->fen, "%s", BOARD_START_FEN);
        line->startpos = true;
        ok = match_book_walk(bk, b, line, plies, book, &cap);
    }
    free(b);
    free(line);
    book_free(bk);
    if (!ok) {
        snprintf(err, errlen, "out of memory");
        match_book_free(book);
        return false;
    }
    if (book->count == 0) {
        snprintf(err, errlen, "%s: the start position is not in the book", path);
        return false;
    }
    return true;
}

bool match_book_default(MatchBook *book)
{
    book->items = NULL;
    book->count = 0;
    int cap = 0;
    for (int i = 0; i < MATCH_DEFAULT_OPENING_COUNT; i++) {
        MatchOpening op;
        char err[160];
        if (!match_opening_parse(MATCH_DEFAULT_OPENINGS[i], &op, err, sizeof err) ||
            !match_book_add(book, &cap, &op)) {
            match_book_free(book);
            return false;
        }
    }
    return true;
}

/* splitmix64: a small, well-mixed generator, so a seed gives the same order everywhere. */
static uint64_t match_book_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void match_book_shuffle(MatchBook *book, uint64_t seed)
{
    uint64_t state = seed;
    for (int i = book->count - 1; i > 0; i--) {
        int j = (int)(match_book_next(&state) % (uint64_t)(i + 1));
        MatchOpening t = book->items[i];
        book->items[i] = book->items[j];
        book->items[j] = t;
    }
}
