/* ucci_parse.c — turns one UCCI/UCI command line into a UcciCommand. Pure
 * text work (no board, no search), so it can be fuzzed on its own. */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "server_internal.h"

/* Largest accepted numeric value: about 31 years in ms, and still far from
 * int64 overflow after the x1000 fixed-point scaling of clock values. */
#define UCCI_NUM_MAX 1000000000000LL

typedef struct Token {
    const char *s;
    size_t n;
} Token;

typedef struct Lexer {
    const char *p;
    const char *end;
} Lexer;

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

static bool lex_next(Lexer *lx, Token *t)
{
    while (lx->p < lx->end && is_blank(*lx->p))
        lx->p++;
    if (lx->p >= lx->end)
        return false;
    t->s = lx->p;
    while (lx->p < lx->end && !is_blank(*lx->p))
        lx->p++;
    t->n = (size_t)(lx->p - t->s);
    return true;
}

/* Peeks at the next token without consuming it. */
static bool lex_peek(const Lexer *lx, Token *t)
{
    Lexer copy = *lx;
    return lex_next(&copy, t);
}

/* The rest of the line with outer blanks trimmed. */
static Token lex_rest(const Lexer *lx)
{
    const char *s = lx->p, *e = lx->end;
    while (s < e && is_blank(*s))
        s++;
    while (e > s && is_blank(e[-1]))
        e--;
    return (Token){s, (size_t)(e - s)};
}

bool ucci_word_eq(const char *s, size_t n, const char *word)
{
    size_t wn = strlen(word);
    if (n != wn)
        return false;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)s[i]) != tolower((unsigned char)word[i]))
            return false;
    return true;
}

static bool tok_is(Token t, const char *word) { return ucci_word_eq(t.s, t.n, word); }

void ucci_echo(const char *s, size_t n, char *out)
{
    size_t k = n < UCCI_ECHO_MAX ? n : UCCI_ECHO_MAX;
    for (size_t i = 0; i < k; i++) {
        unsigned char c = (unsigned char)s[i];
        out[i] = (c >= 0x20 && c < 0x7F) ? (char)c : '?';
    }
    if (n > k) {
        memcpy(out + k, "...", 3);
        k += 3;
    }
    out[k] = '\0';
}

static void set_err(UcciCommand *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd->err, sizeof cmd->err, fmt, ap);
    va_end(ap);
}

/* Marks the command as failed; the first reason wins. */
static void fail(UcciCommand *cmd, const char *fmt, const Token *t)
{
    if (cmd->type == UCCI_CMD_ERROR)
        return;
    cmd->type = UCCI_CMD_ERROR;
    if (t) {
        char echo[UCCI_ECHO_MAX + 4];
        ucci_echo(t->s, t->n, echo);
        set_err(cmd, fmt, echo);
    } else {
        set_err(cmd, "%s", fmt);
    }
}

/* A non-fatal complaint (the command still runs); the first one wins. */
static void warn(UcciCommand *cmd, const char *fmt, const Token *t)
{
    if (cmd->err[0])
        return;
    char echo[UCCI_ECHO_MAX + 4];
    ucci_echo(t->s, t->n, echo);
    set_err(cmd, fmt, echo);
}

Move ucci_parse_move(const char *s, size_t n)
{
    if (n != 4)
        return MOVE_NONE;
    int ff = tolower((unsigned char)s[0]) - 'a', fr = s[1] - '0';
    int tf = tolower((unsigned char)s[2]) - 'a', tr = s[3] - '0';
    if (ff < 0 || ff >= FILE_NB || tf < 0 || tf >= FILE_NB || fr < 0 || fr >= RANK_NB || tr < 0 ||
        tr >= RANK_NB)
        return MOVE_NONE;
    int from = sq_make(ff, fr), to = sq_make(tf, tr);
    if (from == to)
        return MOVE_NONE;
    return move_make(from, to);
}

/* Reads "[+-]digits[.digits]" into value * 10^scale_digits (fraction digits
 * beyond the scale are dropped). False when malformed or out of range. */
static bool parse_fixed(Token t, int scale_digits, bool allow_negative, int64_t *out)
{
    size_t i = 0;
    bool neg = false;
    if (i < t.n && (t.s[i] == '+' || t.s[i] == '-')) {
        neg = t.s[i] == '-';
        i++;
    }
    if (neg && !allow_negative)
        return false;
    int64_t v = 0;
    size_t digits = 0;
    for (; i < t.n && isdigit((unsigned char)t.s[i]); i++, digits++) {
        v = v * 10 + (t.s[i] - '0');
        if (v > UCCI_NUM_MAX)
            return false;
    }
    int frac_used = 0;
    if (scale_digits > 0 && i < t.n && t.s[i] == '.') {
        i++;
        for (; i < t.n && isdigit((unsigned char)t.s[i]); i++, digits++) {
            if (frac_used < scale_digits) {
                v = v * 10 + (t.s[i] - '0');
                frac_used++;
            }
        }
    }
    if (digits == 0 || i != t.n)
        return false;
    for (; frac_used < scale_digits; frac_used++)
        v *= 10;
    *out = neg ? -v : v;
    return true;
}

/* The value after a keyword, as an integer in [0, max]. */
static bool take_int(Lexer *lx, UcciCommand *cmd, Token key, int64_t max, int64_t *out)
{
    Token v;
    int64_t x;
    if (!lex_next(lx, &v)) {
        warn(cmd, "go: missing value after '%s'", &key);
        return false;
    }
    if (!parse_fixed(v, 0, false, &x) || x > max) {
        warn(cmd, "go: bad number '%s'", &v);
        return false;
    }
    *out = x;
    return true;
}

/* A clock value: may be fractional (seconds) or negative (some UCI GUIs send
 * a negative remaining time when the flag is about to fall); clamped to 0. */
static bool take_clock(Lexer *lx, UcciCommand *cmd, Token key, int scale, int64_t *out)
{
    Token v;
    int64_t x;
    if (!lex_next(lx, &v)) {
        warn(cmd, "go: missing value after '%s'", &key);
        return false;
    }
    if (!parse_fixed(v, scale, true, &x)) {
        warn(cmd, "go: bad time '%s'", &v);
        return false;
    }
    *out = x < 0 ? 0 : x;
    return true;
}

/* Reads move tokens up to the end of the line (or, when stop_at_keywords, up
 * to the next go keyword) into cmd->moves. */
static void parse_moves(Lexer *lx, UcciCommand *cmd, bool fatal, bool stop_at_keywords)
{
    Token t;
    while (lex_peek(lx, &t)) {
        Move m = ucci_parse_move(t.s, t.n);
        if (m == MOVE_NONE && stop_at_keywords)
            return;
        lex_next(lx, &t);
        if (m == MOVE_NONE) {
            if (fatal && cmd->type != UCCI_CMD_ERROR) {
                char echo[UCCI_ECHO_MAX + 4];
                ucci_echo(t.s, t.n, echo);
                cmd->type = UCCI_CMD_ERROR;
                set_err(cmd, "bad move '%s' (move %d)", echo, cmd->move_count + 1);
            } else if (!fatal) {
                warn(cmd, "bad move '%s'", &t);
            }
            return;
        }
        if (cmd->move_count >= UCCI_LIST_MAX) {
            fail(cmd, "too many moves", NULL);
            return;
        }
        cmd->moves[cmd->move_count++] = m;
    }
}

/* `{fen F | startpos} [moves m...]`, shared by position, probe and the bare
 * Cyclone-style lines. The first token has been read into `first`. */
static void parse_position(Lexer *lx, UcciCommand *cmd, Token first)
{
    Token t;
    if (tok_is(first, "startpos")) {
        cmd->startpos = true;
    } else if (tok_is(first, "fen")) {
        size_t len = 0;
        while (lex_peek(lx, &t) && !tok_is(t, "moves")) {
            lex_next(lx, &t);
            if (len + t.n + 1 >= sizeof cmd->fen) {
                fail(cmd, "FEN too long", NULL);
                return;
            }
            if (len)
                cmd->fen[len++] = ' ';
            memcpy(cmd->fen + len, t.s, t.n);
            len += t.n;
        }
        cmd->fen[len] = '\0';
        if (len == 0) {
            fail(cmd, "missing FEN after 'fen'", NULL);
            return;
        }
        cmd->has_fen = true;
    } else {
        fail(cmd, "expected 'fen' or 'startpos', got '%s'", &first);
        return;
    }
    if (!lex_next(lx, &t))
        return;
    if (!tok_is(t, "moves")) {
        fail(cmd, "expected 'moves', got '%s'", &t);
        return;
    }
    parse_moves(lx, cmd, true, false);
}

/* Lower case with blanks, underscores and dashes dropped, so "Move Overhead",
 * "move_overhead" and "moveoverhead" name the same option. */
bool ucci_normalise_name(const char *s, size_t n, char *out, size_t outlen)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == ' ' || c == '\t' || c == '_' || c == '-')
            continue;
        if (k + 1 >= outlen)
            return false;
        out[k++] = (char)tolower(c);
    }
    out[k] = '\0';
    return k > 0;
}

/* Finds a case-insensitive " value " keyword in [s, e); returns its start or NULL. */
static const char *find_value_keyword(const char *s, const char *e)
{
    for (const char *p = s; p + 5 <= e; p++) {
        if (!ucci_word_eq(p, 5, "value"))
            continue;
        bool left = p == s || is_blank(p[-1]);
        bool right = p + 5 == e || is_blank(p[5]);
        if (left && right)
            return p;
    }
    return NULL;
}

/* UCCI `setoption <name> [<value>]` or UCI `setoption name <N> [value <V>]`. */
static void parse_setoption(Lexer *lx, UcciCommand *cmd)
{
    Token t;
    if (!lex_next(lx, &t)) {
        fail(cmd, "setoption: missing option name", NULL);
        return;
    }
    Token name = t, value = {NULL, 0};
    Token rest = lex_rest(lx);
    if (tok_is(t, "name") && rest.n > 0) {
        /* UCI form: the name runs up to the word "value" and may hold blanks. */
        const char *v = find_value_keyword(rest.s, rest.s + rest.n);
        const char *name_end = v ? v : rest.s + rest.n;
        while (name_end > rest.s && is_blank(name_end[-1]))
            name_end--;
        name = (Token){rest.s, (size_t)(name_end - rest.s)};
        if (v) {
            Lexer vl = {v + 5, rest.s + rest.n};
            value = lex_rest(&vl);
            cmd->has_value = true;
        }
    } else {
        value = rest;
        cmd->has_value = rest.n > 0;
    }
    if (!ucci_normalise_name(name.s, name.n, cmd->name, sizeof cmd->name)) {
        fail(cmd, "setoption: bad option name '%s'", &name);
        return;
    }
    if (value.n >= sizeof cmd->value) {
        fail(cmd, "setoption: value too long", NULL);
        return;
    }
    if (value.n)
        memcpy(cmd->value, value.s, value.n);
    cmd->value[value.n] = '\0';
}

static void parse_go(Lexer *lx, UcciCommand *cmd)
{
    UcciGo *g = &cmd->go;
    Token t;
    int64_t v;
    while (lex_next(lx, &t)) {
        if (tok_is(t, "ponder")) {
            g->ponder = true;
        } else if (tok_is(t, "draw")) {
            g->draw = true;
        } else if (tok_is(t, "infinite")) {
            g->infinite = true;
        } else if (tok_is(t, "depth")) {
            Token d;
            if (lex_peek(lx, &d) && tok_is(d, "infinite")) {
                lex_next(lx, &d);
                g->infinite = true;
            } else if (take_int(lx, cmd, t, INT_MAX, &v)) {
                g->depth = (int)v;
            }
        } else if (tok_is(t, "nodes")) {
            if (take_int(lx, cmd, t, UCCI_NUM_MAX, &v))
                g->nodes = v;
        } else if (tok_is(t, "mate")) {
            /* A mate takes one move or more: "mate 0" asks for nothing, so
             * it is refused rather than read as "no mate limit". */
            if (take_int(lx, cmd, t, INT_MAX, &v)) {
                if (v >= 1)
                    g->mate = (int)v;
                else
                    warn(cmd, "go: '%s 0' ignored: a mate takes 1 move or more", &t);
            }
        } else if (tok_is(t, "movetime")) {
            if (take_int(lx, cmd, t, UCCI_NUM_MAX, &v))
                g->movetime = v;
        } else if (tok_is(t, "movestogo")) {
            if (take_int(lx, cmd, t, INT_MAX, &v))
                g->movestogo = (int)v;
        } else if (tok_is(t, "oppmovestogo")) {
            if (take_int(lx, cmd, t, INT_MAX, &v))
                g->oppmovestogo = (int)v;
        } else if (tok_is(t, "time")) {
            take_clock(lx, cmd, t, 3, &g->time);
        } else if (tok_is(t, "increment")) {
            take_clock(lx, cmd, t, 3, &g->increment);
        } else if (tok_is(t, "opptime")) {
            take_clock(lx, cmd, t, 3, &g->opptime);
        } else if (tok_is(t, "oppincrement")) {
            take_clock(lx, cmd, t, 3, &g->oppincrement);
        } else if (tok_is(t, "wtime")) {
            take_clock(lx, cmd, t, 0, &g->wtime);
        } else if (tok_is(t, "btime")) {
            take_clock(lx, cmd, t, 0, &g->btime);
        } else if (tok_is(t, "winc")) {
            take_clock(lx, cmd, t, 0, &g->winc);
        } else if (tok_is(t, "binc")) {
            take_clock(lx, cmd, t, 0, &g->binc);
        } else if (tok_is(t, "searchmoves")) {
            g->searchmoves = true;
            cmd->move_count = 0;
            parse_moves(lx, cmd, false, true);
        } else {
            warn(cmd, "go: unknown keyword '%s' ignored", &t);
        }
    }
    if (cmd->type == UCCI_CMD_ERROR) /* only "too many moves" gets here */
        cmd->type = UCCI_CMD_GO;
}

static void reset(UcciCommand *cmd)
{
    cmd->type = UCCI_CMD_EMPTY;
    cmd->err[0] = '\0';
    cmd->startpos = cmd->has_fen = cmd->draw = cmd->has_value = false;
    cmd->fen[0] = cmd->name[0] = cmd->value[0] = '\0';
    cmd->move_count = 0;
    cmd->go = (UcciGo){
        .depth = -1, .nodes = -1, .mate = -1, .movetime = -1,
        .time = -1, .increment = -1, .opptime = -1, .oppincrement = -1,
        .movestogo = -1, .oppmovestogo = -1,
        .wtime = -1, .btime = -1, .winc = -1, .binc = -1,
    };
}

void ucci_parse_line(const char *line, size_t len, UcciCommand *cmd)
{
    reset(cmd);
    /* Control bytes (NUL included) never occur in a real command: reject the
     * whole line as garbage rather than guess. Tabs and CR are blanks. */
    size_t n = len;
    while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == '\n'))
        n--;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)line[i];
        if ((c < 0x20 && c != '\t') || c == 0x7F) {
            cmd->type = UCCI_CMD_ERROR;
            set_err(cmd, "binary data in command line (byte 0x%02x at %zu), ignored", c, i);
            return;
        }
    }

    Lexer lx = {line, line + n};
    Token t;
    if (!lex_next(&lx, &t))
        return; /* blank line */

    if (tok_is(t, "ucci")) {
        cmd->type = UCCI_CMD_UCCI;
    } else if (tok_is(t, "uci")) {
        cmd->type = UCCI_CMD_UCI;
    } else if (tok_is(t, "isready")) {
        cmd->type = UCCI_CMD_ISREADY;
    } else if (tok_is(t, "setoption")) {
        cmd->type = UCCI_CMD_SETOPTION;
        parse_setoption(&lx, cmd);
        return;
    } else if (tok_is(t, "ucinewgame")) {
        cmd->type = UCCI_CMD_UCINEWGAME;
    } else if (tok_is(t, "position") || tok_is(t, "probe")) {
        bool probe = tok_is(t, "probe");
        cmd->type = probe ? UCCI_CMD_PROBE : UCCI_CMD_POSITION;
        Token first;
        if (!lex_next(&lx, &first)) {
            if (!probe)
                fail(cmd, "position: expected 'fen' or 'startpos'", NULL);
            return; /* bare probe: the current position */
        }
        parse_position(&lx, cmd, first);
        return;
    } else if (tok_is(t, "fen") || tok_is(t, "startpos")) {
        cmd->type = UCCI_CMD_POSITION;
        parse_position(&lx, cmd, t);
        return;
    } else if (tok_is(t, "banmoves")) {
        cmd->type = UCCI_CMD_BANMOVES;
        parse_moves(&lx, cmd, true, false);
        if (cmd->type != UCCI_CMD_ERROR && cmd->move_count > MAX_MOVES)
            fail(cmd, "banmoves: too many moves", NULL);
        return;
    } else if (tok_is(t, "go")) {
        cmd->type = UCCI_CMD_GO;
        parse_go(&lx, cmd);
        return;
    } else if (tok_is(t, "ponderhit")) {
        cmd->type = UCCI_CMD_PONDERHIT;
        Token d;
        if (lex_next(&lx, &d)) {
            if (tok_is(d, "draw"))
                cmd->draw = true;
            else
                warn(cmd, "ponderhit: unexpected '%s' ignored", &d);
        }
        return;
    } else if (tok_is(t, "stop")) {
        cmd->type = UCCI_CMD_STOP;
    } else if (tok_is(t, "quit") || tok_is(t, "exit")) {
        cmd->type = UCCI_CMD_QUIT;
    } else if (tok_is(t, "debug") || tok_is(t, "register")) {
        cmd->type = UCCI_CMD_IGNORE;
        return;
    } else {
        fail(cmd, "unknown command '%s'", &t);
        return;
    }
    /* Commands without arguments ignore trailing words: GUIs send none, and
     * a human typing into an engine console should not be scolded for them. */
}
