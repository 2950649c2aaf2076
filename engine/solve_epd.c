/* solve_epd.c — reading puzzles for `chariot solve`: EPD lines and puzzle FENs. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solve.h"

enum {
    EPD_SEGMENTS_MAX = 32,   /* ';'-separated parts of one line */
    EPD_TOKEN_MAX = 64       /* whitespace-separated words of one part */
};

/* A piece of the line being parsed: [begin, end). */
typedef struct Span {
    const char *begin;
    const char *end;
} Span;

static Span span_trim(Span s)
{
    while (s.begin < s.end && isspace((unsigned char)*s.begin))
        s.begin++;
    while (s.end > s.begin && isspace((unsigned char)s.end[-1]))
        s.end--;
    return s;
}

static bool span_eq(Span s, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(s.end - s.begin) == n && strncmp(s.begin, word, n) == 0;
}

/* Copies a span into a NUL-terminated buffer, truncating if needed. */
static void span_copy(Span s, char *out, size_t outlen)
{
    size_t n = (size_t)(s.end - s.begin);
    if (n >= outlen)
        n = outlen - 1;
    memcpy(out, s.begin, n);
    out[n] = '\0';
}

/* Splits s into whitespace-separated words. Returns the count, or -1 when
 * there are more than max. */
static int span_words(Span s, Span *words, int max)
{
    int n = 0;
    const char *c = s.begin;
    for (;;) {
        while (c < s.end && isspace((unsigned char)*c))
            c++;
        if (c == s.end)
            return n;
        if (n == max)
            return -1;
        words[n].begin = c;
        while (c < s.end && !isspace((unsigned char)*c))
            c++;
        words[n++].end = c;
    }
}

/* Splits the line at ';' outside double quotes (an id may contain ';').
 * Returns the number of segments, -1 on an unterminated quote, -2 when
 * there are too many segments. */
static int epd_split(Span line, Span *seg, int max)
{
    int n = 0;
    bool quoted = false;
    const char *start = line.begin;
    for (const char *c = line.begin; c < line.end; c++) {
        if (*c == '"')
            quoted = !quoted;
        else if (*c == ';' && !quoted) {
            if (n == max)
                return -2;
            seg[n].begin = start;
            seg[n++].end = c;
            start = c + 1;
        }
    }
    if (quoted)
        return -1;
    if (n == max)
        return -2;
    seg[n].begin = start;
    seg[n++].end = line.end;
    return n;
}

static bool word_is_number(Span w)
{
    if (w.begin == w.end)
        return false;
    for (const char *c = w.begin; c < w.end; c++)
        if (!isdigit((unsigned char)*c))
            return false;
    return true;
}

bool solve_parse_position(Board *b, const char *fen, char *err, size_t errlen)
{
    Board tmp;
    if (!board_from_fen(&tmp, fen, err, errlen))
        return false;
    // A puzzle where the side not to move is in check is not a position
    // that can arise: the search would start by capturing the king.
    int them = tmp.side ^ 1;
    int ksq = board_king_sq(&tmp, them);
    if (ksq != SQ_NONE && board_is_attacked(&tmp, ksq, tmp.side)) {
        snprintf(err, errlen, "the side not to move (%s) is in check", them == RED ? "red" : "black");
        return false;
    }
    *b = tmp;
    return true;
}

/* Splits the first segment into the FEN fields and, in classic EPD, the
 * first operation that follows them. */
static bool epd_split_fen(Span seg, Span *fen, Span *rest, char *err, size_t errlen)
{
    Span w[EPD_TOKEN_MAX];
    int n = span_words(seg, w, EPD_TOKEN_MAX);
    if (n < 0) {
        snprintf(err, errlen, "too many words before the first ';'");
        return false;
    }
    if (n == 0) {
        snprintf(err, errlen, "missing FEN");
        return false;
    }
    int k = 1;
    if (!span_eq(w[0], "startpos")) {
        // Side to move, then up to four of '-' and counters.
        if (k < n && (span_eq(w[k], "w") || span_eq(w[k], "r") || span_eq(w[k], "b")))
            k++;
        for (int extra = 0; extra < 4 && k < n && (span_eq(w[k], "-") || word_is_number(w[k])); extra++)
            k++;
    }
    fen->begin = w[0].begin;
    fen->end = w[k - 1].end;
    rest->begin = k < n ? w[k].begin : seg.end;
    rest->end = seg.end;
    return true;
}

/* Applies one operation ("mate 3", "bm h2e2 h0g2", "id \"x\"") to p. */
static bool epd_operation(Span op, const Board *b, SolvePuzzle *p, bool *seen_mate, bool *seen_bm,
                          char *err, size_t errlen)
{
    Span w[EPD_TOKEN_MAX];
    char text[SOLVE_ID_MAX];
    int n = span_words(op, w, EPD_TOKEN_MAX);
    if (n == 0)
        return true;
    if (n < 0) {
        snprintf(err, errlen, "too many words in one field");
        return false;
    }
    span_copy(w[0], text, sizeof text);
    if (!isalpha((unsigned char)text[0])) {
        snprintf(err, errlen, "unexpected '%s' where a field name (mate, bm, id) should be", text);
        return false;
    }
    if (span_eq(w[0], "mate") || span_eq(w[0], "dm")) {
        if (*seen_mate) {
            snprintf(err, errlen, "'mate' given twice");
            return false;
        }
        *seen_mate = true;
        // At most three digits, so strtol cannot overflow.
        char num[4] = "";
        bool ok = n == 2 && word_is_number(w[1]) && w[1].end - w[1].begin < (long)sizeof num;
        if (ok)
            span_copy(w[1], num, sizeof num);
        long v = ok ? strtol(num, NULL, 10) : 0;
        if (v < 1 || v > SOLVE_MATE_MAX) {
            snprintf(err, errlen, "'mate' needs one number from 1 to %d", SOLVE_MATE_MAX);
            return false;
        }
        p->mate = (int)v;
        return true;
    }
    if (span_eq(w[0], "bm")) {
        if (*seen_bm) {
            snprintf(err, errlen, "'bm' given twice");
            return false;
        }
        *seen_bm = true;
        if (n < 2 || n - 1 > SOLVE_BM_MAX) {
            snprintf(err, errlen, "'bm' needs 1 to %d moves", SOLVE_BM_MAX);
            return false;
        }
        for (int i = 1; i < n; i++) {
            char mv[40];
            span_copy(w[i], mv, sizeof mv);
            Move m = board_parse_move(b, mv);
            if (m == MOVE_NONE) {
                snprintf(err, errlen, "bm move '%s' is not a legal move here", mv);
                return false;
            }
            p->bm[p->bm_count++] = m;
        }
        return true;
    }
    if (span_eq(w[0], "id")) {
        Span v = span_trim((Span){w[0].end, op.end});
        if (v.begin < v.end && *v.begin == '"') {
            const char *close = memchr(v.begin + 1, '"', (size_t)(v.end - v.begin - 1));
            if (!close || close + 1 != v.end) {
                snprintf(err, errlen, "'id' needs one quoted string");
                return false;
            }
            v.begin++;
            v.end = close;
        }
        if (v.begin == v.end) {
            snprintf(err, errlen, "empty 'id'");
            return false;
        }
        span_copy(v, p->id, sizeof p->id);
        return true;
    }
    // Other EPD opcodes (c0, acd, ...) carry nothing a solver checks.
    return true;
}

SolveLineKind solve_epd_parse(const char *line, int lineno, SolvePuzzle *p, char *err, size_t errlen)
{
    Span all = span_trim((Span){line, line + strlen(line)});
    if (all.begin == all.end || *all.begin == '#')
        return SOLVE_LINE_SKIP;

    // 1. Cut the line into ';' segments; the first holds the FEN.
    Span seg[EPD_SEGMENTS_MAX];
    int nseg = epd_split(all, seg, EPD_SEGMENTS_MAX);
    if (nseg == -1) {
        snprintf(err, errlen, "unterminated quote");
        return SOLVE_LINE_BAD;
    }
    if (nseg < 0) {
        snprintf(err, errlen, "too many ';' fields");
        return SOLVE_LINE_BAD;
    }
    Span fen, first_op;
    if (!epd_split_fen(seg[0], &fen, &first_op, err, errlen))
        return SOLVE_LINE_BAD;

    // 2. The position.
    char fenbuf[256];
    if ((size_t)(fen.end - fen.begin) >= sizeof fenbuf) {
        snprintf(err, errlen, "FEN too long");
        return SOLVE_LINE_BAD;
    }
    span_copy(fen, fenbuf, sizeof fenbuf);
    Board b;
    char why[128];
    if (!solve_parse_position(&b, fenbuf, why, sizeof why)) {
        snprintf(err, errlen, "bad FEN: %s", why);
        return SOLVE_LINE_BAD;
    }
    memset(p, 0, sizeof *p);
    p->line = lineno;
    board_to_fen(&b, p->fen, sizeof p->fen);

    // 3. The operations, in any order.
    bool seen_mate = false, seen_bm = false;
    if (!epd_operation(first_op, &b, p, &seen_mate, &seen_bm, err, errlen))
        return SOLVE_LINE_BAD;
    for (int i = 1; i < nseg; i++)
        if (!epd_operation(seg[i], &b, p, &seen_mate, &seen_bm, err, errlen))
            return SOLVE_LINE_BAD;
    if (p->id[0] == '\0') {
        if (lineno > 0)
            snprintf(p->id, sizeof p->id, "line %d", lineno);
        else
            snprintf(p->id, sizeof p->id, "fen");
    }
    return SOLVE_LINE_PUZZLE;
}
