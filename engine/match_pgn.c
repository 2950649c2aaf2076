/* match_pgn.c — PGN of refereed games (ICCS "H2-E2" or WXF), a reader for that PGN, and JSON strings. */
#define _POSIX_C_SOURCE 200809L /* localtime_r, strtok_r */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"

/* ------------------------------------------------------------------ JSON */

void match_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\t')
            fputs("\\t", f);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* ---------------------------------------------------------------- writing */

static void match_pgn_write_tag(FILE *f, const char *name, const char *value)
{
    fprintf(f, "[%s \"", name);
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', f);
        fputc(*p == '\n' ? ' ' : *p, f);
    }
    fputs("\"]\n", f);
}

static const char *match_pgn_termination(MatchEnd e)
{
    switch (e) {
    case MATCH_END_TIME: return "time forfeit";
    case MATCH_END_ILLEGAL: return "illegal move";
    case MATCH_END_CRASH:
    case MATCH_END_NOMOVE: return "abandoned";
    case MATCH_END_ADJ_RESIGN:
    case MATCH_END_ADJ_DRAW:
    case MATCH_END_MAXPLIES: return "adjudication";
    case MATCH_END_ABORTED:
    case MATCH_END_START_FAIL: return "unterminated";
    default: return "normal";
    }
}

/* Movetext is wrapped at this width. */
enum { MATCH_PGN_WIDTH = 79 };

typedef struct MatchPgnLine {
    FILE *f;
    int col;
} MatchPgnLine;

static void match_pgn_word(MatchPgnLine *l, const char *w)
{
    int n = (int)strlen(w);
    if (l->col > 0 && l->col + 1 + n > MATCH_PGN_WIDTH) {
        fputc('\n', l->f);
        l->col = 0;
    } else if (l->col > 0) {
        fputc(' ', l->f);
        l->col++;
    }
    fputs(w, l->f);
    l->col += n;
}

/* Comments may be longer than a line; they are written word by word. */
static void match_pgn_comment(MatchPgnLine *l, const char *text)
{
    char buf[MATCH_REASON_MAX + 8];
    snprintf(buf, sizeof buf, "{%s}", text);
    for (char *p = buf; *p; p++)
        if (*p == '}' && p[1] != '\0')
            *p = ')'; /* a '}' inside would end the comment early */
    char *save = NULL;
    for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
        match_pgn_word(l, w);
}

static void match_pgn_score(const MatchMoveRecord *r, char *out, size_t outlen)
{
    char t[24];
    snprintf(t, sizeof t, "%.3fs", (double)r->time_ms / 1000.0);
    if (!r->has_score) {
        snprintf(out, outlen, "%s", t);
        return;
    }
    int s = r->score;
    if (abs(s) >= CLIENT_MATE_SCORE - 1000)
        snprintf(out, outlen, "%sM%d/%d %s", s > 0 ? "+" : "-", CLIENT_MATE_SCORE - abs(s), r->depth, t);
    else
        snprintf(out, outlen, "%+.2f/%d %s", s / 100.0, r->depth, t);
}

bool match_pgn_write(FILE *f, const MatchGame *g, const MatchPgnInfo *info, MatchPgnFormat fmt)
{
    Board *b = malloc(sizeof *b);
    if (!b)
        return false;
    char err[128];
    if (!board_from_fen(b, g->start_fen, err, sizeof err)) {
        free(b);
        return false;
    }
    char buf[64];
    struct tm tm;
    localtime_r(&g->started, &tm);
    strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
    match_pgn_write_tag(f, "Event", info && info->event ? info->event : "?");
    match_pgn_write_tag(f, "Site", info && info->site ? info->site : "?");
    match_pgn_write_tag(f, "Date", buf);
    snprintf(buf, sizeof buf, "%d", info ? info->round : 1);
    match_pgn_write_tag(f, "Round", buf);
    match_pgn_write_tag(f, "Red", g->name[RED]);
    match_pgn_write_tag(f, "Black", g->name[BLACK]);
    match_pgn_write_tag(f, "Result", match_result_string(g->result));
    match_pgn_write_tag(f, "Game", "Chinese Chess");
    if (!g->startpos)
        match_pgn_write_tag(f, "FEN", g->start_fen);
    match_pgn_write_tag(f, "Format", fmt == MATCH_PGN_WXF ? "WXF" : "ICCS");
    if (info && info->time_control)
        match_pgn_write_tag(f, "TimeControl", info->time_control);
    snprintf(buf, sizeof buf, "%d", g->plies);
    match_pgn_write_tag(f, "PlyCount", buf);
    match_pgn_write_tag(f, "Termination", match_pgn_termination(g->end));
    fputc('\n', f);

    MatchPgnLine line = {f, 0};
    int number = 1;
    for (int i = 0; i < g->plies; i++) {
        const MatchMoveRecord *r = &g->moves[i];
        if (b->side == RED) {
            snprintf(buf, sizeof buf, "%d.", number);
            match_pgn_word(&line, buf);
        } else if (i == 0) {
            snprintf(buf, sizeof buf, "%d...", number);
            match_pgn_word(&line, buf);
        }
        char text[16];
        if (fmt == MATCH_PGN_WXF) {
            if (!board_move_to_wxf(b, r->move, text, sizeof text)) {
                free(b);
                return false;
            }
        } else {
            char iccs[5];
            move_to_iccs(r->move, iccs);
            snprintf(text, sizeof text, "%c%c-%c%c", toupper((unsigned char)iccs[0]), iccs[1],
                     toupper((unsigned char)iccs[2]), iccs[3]);
        }
        match_pgn_word(&line, text);
        if (r->book) {
            match_pgn_comment(&line, "book");
        } else {
            match_pgn_score(r, buf, sizeof buf);
            match_pgn_comment(&line, buf);
        }
        if (b->side == BLACK)
            number++;
        if (b->ply >= BOARD_HIST_MAX - 4)
            board_compact_history(b);
        board_make(b, r->move);
    }
    if (g->reason[0])
        match_pgn_comment(&line, g->reason);
    match_pgn_word(&line, match_result_string(g->result));
    fputs("\n\n", f);
    free(b);
    return !ferror(f);
}

/* ---------------------------------------------------------------- reading */

const char *match_pgn_tag(const MatchPgnGame *g, const char *name)
{
    for (int i = 0; i < g->tag_count; i++)
        if (strcmp(g->tag_name[i], name) == 0)
            return g->tag_value[i];
    return NULL;
}

static int match_pgn_skip_space(FILE *f)
{
    int c;
    while ((c = fgetc(f)) != EOF && isspace(c)) {
    }
    return c;
}

/* Reads a tag after its '['. */
static bool match_pgn_read_tag(FILE *f, MatchPgnGame *g)
{
    char name[32];
    size_t n = 0;
    int c = match_pgn_skip_space(f);
    while (c != EOF && !isspace(c) && c != '"' && c != ']') {
        if (n + 1 < sizeof name)
            name[n++] = (char)c;
        c = fgetc(f);
    }
    name[n] = '\0';
    if (isspace(c))
        c = match_pgn_skip_space(f);
    if (c != '"')
        return false;
    char value[256];
    n = 0;
    while ((c = fgetc(f)) != EOF && c != '"') {
        if (c == '\\')
            c = fgetc(f);
        if (c == EOF)
            return false;
        if (n + 1 < sizeof value)
            value[n++] = (char)c;
    }
    value[n] = '\0';
    if (c != '"')
        return false;
    while ((c = fgetc(f)) != EOF && c != ']') {
    }
    if (c != ']')
        return false;
    if (g->tag_count < MATCH_PGN_TAGS_MAX) {
        snprintf(g->tag_name[g->tag_count], sizeof g->tag_name[0], "%s", name);
        snprintf(g->tag_value[g->tag_count], sizeof g->tag_value[0], "%s", value);
        g->tag_count++;
    }
    return true;
}

static bool match_pgn_is_result(const char *t)
{
    return strcmp(t, "1-0") == 0 || strcmp(t, "0-1") == 0 || strcmp(t, "1/2-1/2") == 0 || strcmp(t, "*") == 0;
}

int match_pgn_read(FILE *f, MatchPgnGame *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    Board *b = NULL;
    int c;
    bool in_moves = false;
    int ret = -1;
    for (;;) {
        c = match_pgn_skip_space(f);
        if (c == EOF) {
            if (!in_moves && g->tag_count == 0) {
                ret = 0;
            } else {
                snprintf(err, errlen, "game without a result");
            }
            break;
        }
        if (c == '[' && !in_moves) {
            if (!match_pgn_read_tag(f, g)) {
                snprintf(err, errlen, "malformed tag");
                break;
            }
            continue;
        }
        if (c == ';') {
            while ((c = fgetc(f)) != EOF && c != '\n') {
            }
            continue;
        }
        if (!in_moves) {
            /* First movetext token: set up the board from [FEN]. */
            in_moves = true;
            b = malloc(sizeof *b);
            if (!b) {
                snprintf(err, errlen, "out of memory");
                break;
            }
            const char *fen = match_pgn_tag(g, "FEN");
            char ferr[128];
            if (fen) {
                if (!board_from_fen(b, fen, ferr, sizeof ferr)) {
                    snprintf(err, errlen, "bad FEN tag: %s", ferr);
                    break;
                }
                snprintf(g->fen, sizeof g->fen, "%s", fen);
            } else {
                board_startpos(b);
                board_to_fen(b, g->fen, sizeof g->fen);
            }
        }
        if (c == '{') {
            size_t n = 0;
            while ((c = fgetc(f)) != EOF && c != '}')
                if (n + 1 < sizeof g->last_comment)
                    g->last_comment[n++] = (char)(c == '\n' ? ' ' : c);
            g->last_comment[n] = '\0';
            if (c != '}') {
                snprintf(err, errlen, "unterminated comment");
                break;
            }
            continue;
        }
        char tok[64];
        size_t n = 0;
        while (c != EOF && !isspace(c) && c != '{' && c != ';') {
            if (n + 1 < sizeof tok)
                tok[n++] = (char)c;
            c = fgetc(f);
        }
        tok[n] = '\0';
        if (c == '{' || c == ';')
            ungetc(c, f);
        if (match_pgn_is_result(tok)) {
            snprintf(g->result, sizeof g->result, "%.15s", tok);
            ret = 1;
            break;
        }
        /* Move numbers: "12." "12..." and a lone "...". */
        size_t digits = 0;
        while (isdigit((unsigned char)tok[digits]))
            digits++;
        if (tok[digits] == '.' && strspn(tok + digits, ".") == strlen(tok + digits))
            continue;
        Move m = move_from_iccs(tok);
        if (m == MOVE_NONE)
            m = board_parse_move(b, tok);
        if (m == MOVE_NONE || !board_is_legal(b, m)) {
            snprintf(err, errlen, "illegal or unreadable move '%s' at ply %d", tok, g->count + 1);
            break;
        }
        if (g->count >= MATCH_PGN_MOVES_MAX) {
            snprintf(err, errlen, "too many moves");
            break;
        }
        g->moves[g->count++] = m;
        if (b->ply >= BOARD_HIST_MAX - 4)
            board_compact_history(b);
        board_make(b, m);
    }
    free(b);
    return ret;
}
