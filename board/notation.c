/* notation.c — move text: ICCS coordinates, WXF and Chinese notation, out and in. */
#include "board.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Conventions (docs/COMMANDS.md, "Notation", documents the same rules):
 *
 * - File numbers are counted from the mover's right: Red file i (a..i = 0..8)
 *   is 9 - i, Black file i is i + 1. Red writes them as Chinese numerals
 *   (一..九), Black as full-width digits (１..９); WXF uses ASCII digits.
 * - Action: advance (+, 进) toward the enemy, retreat (-, 退), traverse (., 平).
 *   Pieces that move along lines (K, R, C, P) give the number of ranks moved on
 *   a vertical move; the diagonal movers (A, E, H) always give the destination
 *   file; a traverse gives the destination file.
 * - Tandem pieces (two or more of the same piece on the mover's file):
 *     * two on the only such file: WXF "+R.1" / "-R.1", Chinese 前车 / 后车;
 *     * three on the only such file: Chinese 前 / 中 / 后, WXF index digits
 *       "1P", "2P", "3P" counted from the front;
 *     * four or five on one file: index from the front, Chinese 一..五 (the
 *       same numerals for both sides), WXF "1P".."5P";
 *     * pawns doubled on two files: every pawn on those files gets one index,
 *       files taken from the mover's right to left (ascending file number),
 *       front to back inside a file: Chinese 一兵..五兵, WXF "1P".."5P".
 *   Advisors and elephants on one file keep the plain form ("仕六进五"):
 *   the direction alone tells them apart (a tandem form is used only if it
 *   would not, which needs an impossible placement).
 *
 * Parsing is by meaning, not by string comparison: the text is turned into a
 * query (piece, which one, action, number) and matched against every legal
 * move; exactly one match is the answer. So non-canonical but unambiguous text
 * ("马二进三" for a horse with a twin on its file) is accepted as well.
 */

/* ------------------------------------------------------------- ICCS */

void move_to_iccs(Move m, char out[5])
{
    int from = move_from(m), to = move_to(m);
    /* No move, the null move and out-of-board squares print as UCI's "0000". */
    if (m == MOVE_NONE || m == MOVE_NULL || from >= SQ_NB || to >= SQ_NB) {
        memcpy(out, "0000", 5);
        return;
    }
    out[0] = (char)('a' + sq_file(from));
    out[1] = (char)('0' + sq_rank(from));
    out[2] = (char)('a' + sq_file(to));
    out[3] = (char)('0' + sq_rank(to));
    out[4] = '\0';
}

static int iccs_file(char c)
{
    if (c >= 'a' && c <= 'i')
        return c - 'a';
    if (c >= 'A' && c <= 'I')
        return c - 'A';
    return -1;
}

static int iccs_rank(char c)
{
    return (c >= '0' && c <= '9') ? c - '0' : -1;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

Move move_from_iccs(const char *s)
{
    if (!s)
        return MOVE_NONE;
    /* Each character is tested before the next is read, so a short string
     * stops at its NUL. */
    int ff = iccs_file(s[0]);
    if (ff < 0)
        return MOVE_NONE;
    int fr = iccs_rank(s[1]);
    if (fr < 0)
        return MOVE_NONE;
    int i = 2;
    if (s[i] == '-')
        i++;
    int tf = iccs_file(s[i]);
    if (tf < 0)
        return MOVE_NONE;
    int tr = iccs_rank(s[i + 1]);
    if (tr < 0)
        return MOVE_NONE;
    /* The token must end here: "h2e2e3" is not a move. */
    char end = s[i + 2];
    if (end != '\0' && !is_space(end))
        return MOVE_NONE;
    int from = sq_make(ff, fr), to = sq_make(tf, tr);
    if (from == to) /* never a move; also keeps "b0b0" from becoming MOVE_NULL */
        return MOVE_NONE;
    return move_make(from, to);
}

/* -------------------------------------------------------- piece names */

static const char *const CN_PIECE[PIECE_NB] = {
    "", "帅", "仕", "相", "马", "车", "炮", "兵",
    "", "将", "士", "象", "马", "车", "炮", "卒",
};

const char *board_piece_chinese(Piece p)
{
    return p < PIECE_NB ? CN_PIECE[p] : "";
}

static const char *const CN_NUM_RED[10] = {
    "", "一", "二", "三", "四", "五", "六", "七", "八", "九",
};
static const char *const CN_NUM_BLACK[10] = {
    "", "１", "２", "３", "４", "５", "６", "７", "８", "９",
};

static const char WXF_LETTER[PT_NB] = {'?', 'K', 'A', 'E', 'H', 'R', 'C', 'P'};

/* ----------------------------------------------------- move description */

enum { ACT_ADVANCE = 0, ACT_RETREAT = 1, ACT_TRAVERSE = 2 };
static const char WXF_ACT[3] = {'+', '-', '.'};
static const char *const CN_ACT[3] = {"进", "退", "平"};

/* How the moving piece is named. */
enum { ID_FILE, ID_FRONT, ID_MID, ID_REAR, ID_INDEX };
static const char *const CN_MARK[4] = {"", "前", "中", "后"};

static int file_number(int color, int file)
{
    return color == RED ? 9 - file : file + 1;
}

static int file_of_number(int color, int num)
{
    return color == RED ? 9 - num : num - 1;
}

static bool moves_on_lines(int type)
{
    return type == KING || type == ROOK || type == CANNON || type == PAWN;
}

/* Where each piece of the side to move stands among its twins. Built once
 * per call so that describing a move is O(1). */
typedef struct NotationCtx {
    int8_t stack_n[SQ_NB];    /* pieces of this kind on the square's file */
    int8_t stack_pos[SQ_NB];  /* 0 = the one nearest the enemy */
    int8_t seq[SQ_NB];        /* index among all pieces on tandem files, -1 if none */
    int8_t tandem[PT_NB];     /* files holding two or more of this piece type */
} NotationCtx;

static void ctx_build(const Board *b, NotationCtx *c)
{
    int side = b->side;
    memset(c->stack_n, 0, sizeof c->stack_n);
    memset(c->stack_pos, 0, sizeof c->stack_pos);
    memset(c->seq, -1, sizeof c->seq);
    memset(c->tandem, 0, sizeof c->tandem);
    for (int type = KING; type < PT_NB; type++) {
        Piece p = piece_make(side, type);
        int seqlen = 0;
        /* Files from the mover's right to left, so the tandem sequence reads
         * in the documented order. */
        for (int num = 1; num <= 9; num++) {
            int f = file_of_number(side, num);
            int sqs[RANK_NB], k = 0;
            for (int i = 0; i < RANK_NB; i++) {
                int r = side == RED ? RANK_NB - 1 - i : i; /* front first */
                int sq = sq_make(f, r);
                if (b->sq[sq] == p)
                    sqs[k++] = sq;
            }
            for (int j = 0; j < k; j++) {
                c->stack_n[sqs[j]] = (int8_t)k;
                c->stack_pos[sqs[j]] = (int8_t)j;
            }
            if (k >= 2) {
                c->tandem[type]++;
                for (int j = 0; j < k; j++)
                    c->seq[sqs[j]] = (int8_t)seqlen++;
            }
        }
    }
}

typedef struct MoveDesc {
    int type;
    int file;   /* from-file number, mover's count */
    int act;    /* ACT_* */
    int num;    /* ranks moved or destination file number */
    int n;      /* twins on the from-file, the mover included */
    int pos;    /* 0 = front */
    int seq;    /* tandem sequence index, -1 if not on a tandem file */
} MoveDesc;

static void describe(const Board *b, const NotationCtx *c, Move m, MoveDesc *d)
{
    int from = move_from(m), to = move_to(m);
    Piece p = b->sq[from];
    int color = piece_color(p);
    int fwd = color == RED ? sq_rank(to) - sq_rank(from) : sq_rank(from) - sq_rank(to);
    d->type = piece_type(p);
    d->file = file_number(color, sq_file(from));
    d->act = fwd > 0 ? ACT_ADVANCE : fwd < 0 ? ACT_RETREAT : ACT_TRAVERSE;
    if (moves_on_lines(d->type) && d->act != ACT_TRAVERSE)
        d->num = abs(fwd);
    else
        d->num = file_number(color, sq_file(to));
    d->n = c->stack_n[from];
    d->pos = c->stack_pos[from];
    d->seq = c->seq[from];
}

/* What a text asks for. */
typedef struct MoveQuery {
    int type;     /* PT_NONE = any piece */
    int id;       /* ID_* */
    int id_value; /* file number (ID_FILE) or index 1.. (ID_INDEX) */
    int file;     /* with a marker: the from-file number as well, 0 = not given */
    int act;
    int num;
} MoveQuery;

static bool query_matches(const MoveQuery *q, const MoveDesc *d)
{
    if (q->type != PT_NONE && q->type != d->type)
        return false;
    if (q->act != d->act || q->num != d->num)
        return false;
    if (q->file && q->file != d->file)
        return false;
    switch (q->id) {
    case ID_FILE:
        return d->file == q->id_value;
    case ID_FRONT:
        return d->n >= 2 && d->pos == 0;
    case ID_REAR:
        return d->n >= 2 && d->pos == d->n - 1;
    case ID_MID:
        return d->n >= 3 && d->pos > 0 && d->pos < d->n - 1;
    case ID_INDEX:
        return d->seq >= 0 && d->seq + 1 == q->id_value;
    }
    return false;
}

/* Number of legal moves matching q; the last one found goes to *found. */
static int count_matches(const Board *b, const NotationCtx *c, const MoveQuery *q, Move *found)
{
    MoveList list;
    board_generate(b, GEN_ALL, &list);
    int hits = 0;
    for (int i = 0; i < list.count; i++) {
        MoveDesc d;
        describe(b, c, list.moves[i], &d);
        if (query_matches(q, &d)) {
            hits++;
            *found = list.moves[i];
        }
    }
    return hits;
}

/* Picks how to name the moving piece (see the conventions at the top). */
static int pick_identity(const Board *b, const NotationCtx *c, const MoveDesc *d, bool chinese)
{
    if (d->n <= 1)
        return ID_FILE;
    if (d->type == ADVISOR || d->type == ELEPHANT) {
        MoveQuery q = {d->type, ID_FILE, d->file, 0, d->act, d->num};
        Move dummy;
        if (count_matches(b, c, &q, &dummy) == 1)
            return ID_FILE;
    }
    int tandem_files = c->tandem[d->type];
    if (tandem_files == 1 && d->n == 2)
        return d->pos == 0 ? ID_FRONT : ID_REAR;
    if (chinese && tandem_files == 1 && d->n == 3)
        return d->pos == 0 ? ID_FRONT : d->pos == 1 ? ID_MID : ID_REAR;
    return ID_INDEX;
}

/* Copies a finished string out, or reports that it does not fit. */
static bool emit(const char *text, char *out, size_t outlen)
{
    size_t len = strlen(text);
    if (len + 1 > outlen) {
        if (outlen > 0)
            out[0] = '\0';
        return false;
    }
    memcpy(out, text, len + 1);
    return true;
}

static bool notation_prepare(const Board *b, Move m, char *out, size_t outlen,
                             NotationCtx *c, MoveDesc *d)
{
    if (!out || outlen == 0)
        return false;
    out[0] = '\0';
    if (!b || !board_is_legal(b, m))
        return false;
    ctx_build(b, c);
    describe(b, c, m, d);
    return true;
}

bool board_move_to_wxf(const Board *b, Move m, char *out, size_t outlen)
{
    NotationCtx c;
    MoveDesc d;
    if (!notation_prepare(b, m, out, outlen, &c, &d))
        return false;
    char buf[16];
    char letter = WXF_LETTER[d.type];
    char act = WXF_ACT[d.act];
    int id = pick_identity(b, &c, &d, false);
    if (id == ID_FILE)
        snprintf(buf, sizeof buf, "%c%d%c%d", letter, d.file, act, d.num);
    else if (id == ID_FRONT || id == ID_REAR)
        snprintf(buf, sizeof buf, "%c%c%c%d", id == ID_FRONT ? '+' : '-', letter, act, d.num);
    else if (d.seq >= 0 && d.seq < 9)
        snprintf(buf, sizeof buf, "%d%c%c%d", d.seq + 1, letter, act, d.num);
    else
        return false;
    return emit(buf, out, outlen);
}

bool board_move_to_chinese(const Board *b, Move m, char *out, size_t outlen)
{
    NotationCtx c;
    MoveDesc d;
    if (!notation_prepare(b, m, out, outlen, &c, &d))
        return false;
    int color = b->side;
    const char *const *nums = color == RED ? CN_NUM_RED : CN_NUM_BLACK;
    const char *name = CN_PIECE[piece_make(color, d.type)];
    if (d.num < 1 || d.num > 9)
        return false;
    char buf[48];
    int id = pick_identity(b, &c, &d, true);
    if (id == ID_FILE)
        snprintf(buf, sizeof buf, "%s%s%s%s", name, nums[d.file], CN_ACT[d.act], nums[d.num]);
    else if (id == ID_INDEX && d.seq >= 0 && d.seq < 9)
        /* The index is a position marker, not a file: Chinese numerals for both sides. */
        snprintf(buf, sizeof buf, "%s%s%s%s", CN_NUM_RED[d.seq + 1], name, CN_ACT[d.act], nums[d.num]);
    else if (id != ID_INDEX)
        snprintf(buf, sizeof buf, "%s%s%s%s", CN_MARK[id], name, CN_ACT[d.act], nums[d.num]);
    else
        return false;
    return emit(buf, out, outlen);
}

/* ------------------------------------------------------------- parsing */

enum { TOK_PIECE, TOK_NUM, TOK_MARK, TOK_ACT, TOK_SIGN };

typedef struct Token {
    int kind;
    int value; /* piece type, number 1..9, ID_FRONT/MID/REAR, ACT_*, or +1/-1 for a sign */
} Token;

/* Decodes one UTF-8 character from a NUL-terminated string. Returns its
 * length, or 0 on a malformed or truncated sequence (a NUL is never a
 * continuation byte, so the decoder cannot run past the end). */
static int utf8_decode(const unsigned char *s, unsigned *cp)
{
    unsigned c = s[0];
    int len;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if ((c & 0xE0) == 0xC0) {
        len = 2;
        *cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3;
        *cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
        len = 4;
        *cp = c & 0x07;
    } else {
        return 0;
    }
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        *cp = (*cp << 6) | (s[i] & 0x3F);
    }
    return len;
}

typedef struct CharToken {
    unsigned cp;
    int kind;
    int value;
} CharToken;

/* Every character the parser understands, ASCII and CJK, for either side. */
static const CharToken CHAR_TOKENS[] = {
    /* pieces: simplified, traditional and variant forms, WXF letters */
    {0x5E05, TOK_PIECE, KING},     /* 帅 */
    {0x5E25, TOK_PIECE, KING},     /* 帥 */
    {0x5C06, TOK_PIECE, KING},     /* 将 */
    {0x5C07, TOK_PIECE, KING},     /* 將 */
    {'K', TOK_PIECE, KING},
    {'k', TOK_PIECE, KING},
    {0x4ED5, TOK_PIECE, ADVISOR},  /* 仕 */
    {0x58EB, TOK_PIECE, ADVISOR},  /* 士 */
    {'A', TOK_PIECE, ADVISOR},
    {'a', TOK_PIECE, ADVISOR},
    {0x76F8, TOK_PIECE, ELEPHANT}, /* 相 */
    {0x8C61, TOK_PIECE, ELEPHANT}, /* 象 */
    {'E', TOK_PIECE, ELEPHANT},
    {'e', TOK_PIECE, ELEPHANT},
    {'B', TOK_PIECE, ELEPHANT},    /* FEN letter */
    {'b', TOK_PIECE, ELEPHANT},
    {0x9A6C, TOK_PIECE, HORSE},    /* 马 */
    {0x99AC, TOK_PIECE, HORSE},    /* 馬 */
    {0x508C, TOK_PIECE, HORSE},    /* 傌 */
    {'H', TOK_PIECE, HORSE},
    {'h', TOK_PIECE, HORSE},
    {'N', TOK_PIECE, HORSE},       /* FEN letter */
    {'n', TOK_PIECE, HORSE},
    {0x8F66, TOK_PIECE, ROOK},     /* 车 */
    {0x8ECA, TOK_PIECE, ROOK},     /* 車 */
    {0x4FE5, TOK_PIECE, ROOK},     /* 俥 */
    {'R', TOK_PIECE, ROOK},
    {'r', TOK_PIECE, ROOK},
    {0x70AE, TOK_PIECE, CANNON},   /* 炮 */
    {0x7832, TOK_PIECE, CANNON},   /* 砲 */
    {0x5305, TOK_PIECE, CANNON},   /* 包 */
    {'C', TOK_PIECE, CANNON},
    {'c', TOK_PIECE, CANNON},
    {0x5175, TOK_PIECE, PAWN},     /* 兵 */
    {0x5352, TOK_PIECE, PAWN},     /* 卒 */
    {'P', TOK_PIECE, PAWN},
    {'p', TOK_PIECE, PAWN},
    /* Chinese numerals (ASCII and full-width digits are handled by range) */
    {0x4E00, TOK_NUM, 1}, /* 一 */
    {0x4E8C, TOK_NUM, 2}, /* 二 */
    {0x4E09, TOK_NUM, 3}, /* 三 */
    {0x56DB, TOK_NUM, 4}, /* 四 */
    {0x4E94, TOK_NUM, 5}, /* 五 */
    {0x516D, TOK_NUM, 6}, /* 六 */
    {0x4E03, TOK_NUM, 7}, /* 七 */
    {0x516B, TOK_NUM, 8}, /* 八 */
    {0x4E5D, TOK_NUM, 9}, /* 九 */
    /* tandem markers */
    {0x524D, TOK_MARK, ID_FRONT}, /* 前 */
    {0x4E2D, TOK_MARK, ID_MID},   /* 中 */
    {0x540E, TOK_MARK, ID_REAR},  /* 后 */
    {0x5F8C, TOK_MARK, ID_REAR},  /* 後 */
    /* actions; ASCII '+' and '-' are signs, resolved by position */
    {0x8FDB, TOK_ACT, ACT_ADVANCE},  /* 进 */
    {0x9032, TOK_ACT, ACT_ADVANCE},  /* 進 */
    {0x9000, TOK_ACT, ACT_RETREAT},  /* 退 */
    {0x5E73, TOK_ACT, ACT_TRAVERSE}, /* 平 */
    {'.', TOK_ACT, ACT_TRAVERSE},
    {'=', TOK_ACT, ACT_TRAVERSE},
    {'+', TOK_SIGN, 1},
    {'-', TOK_SIGN, -1},
};

static bool classify(unsigned cp, Token *t)
{
    if (cp >= '1' && cp <= '9') {
        t->kind = TOK_NUM;
        t->value = (int)(cp - '0');
        return true;
    }
    if (cp >= 0xFF11 && cp <= 0xFF19) { /* full-width １..９ */
        t->kind = TOK_NUM;
        t->value = (int)(cp - 0xFF10);
        return true;
    }
    for (size_t i = 0; i < sizeof CHAR_TOKENS / sizeof CHAR_TOKENS[0]; i++) {
        if (CHAR_TOKENS[i].cp == cp) {
            t->kind = CHAR_TOKENS[i].kind;
            t->value = CHAR_TOKENS[i].value;
            return true;
        }
    }
    return false;
}

/* Splits text into exactly four tokens; spaces (ASCII or U+3000) between
 * them are allowed. */
static bool tokenize(const char *text, Token tok[4])
{
    const unsigned char *s = (const unsigned char *)text;
    int n = 0;
    while (*s) {
        unsigned cp;
        int len = utf8_decode(s, &cp);
        if (len == 0)
            return false;
        s += len;
        if (cp < 0x80 && is_space((char)cp))
            continue;
        if (cp == 0x3000)
            continue;
        if (n == 4 || !classify(cp, &tok[n]))
            return false;
        n++;
    }
    return n == 4;
}

static bool tok_is_act(const Token *t, int *act)
{
    if (t->kind == TOK_ACT) {
        *act = t->value;
        return true;
    }
    if (t->kind == TOK_SIGN) {
        *act = t->value > 0 ? ACT_ADVANCE : ACT_RETREAT;
        return true;
    }
    return false;
}

static bool tok_is_mark(const Token *t, int *id)
{
    if (t->kind == TOK_MARK) {
        *id = t->value;
        return true;
    }
    if (t->kind == TOK_SIGN) {
        *id = t->value > 0 ? ID_FRONT : ID_REAR;
        return true;
    }
    return false;
}

/* The accepted shapes (X = piece, n = number, M = marker or sign, a = action):
 *   X n a n   "炮二平五", "C2.5"          plain
 *   M X a n   "前车进一", "+R.1"          tandem
 *   n X a n   "一兵平四", "2P.4"          tandem index
 *   X M a n   "R+.1"                     WXF with the marker after the letter
 *   M n a n   "前七进一", "+7+1"          marker and file, piece left out */
static bool build_query(const Token t[4], MoveQuery *q)
{
    memset(q, 0, sizeof *q);
    if (!tok_is_act(&t[2], &q->act) || t[3].kind != TOK_NUM)
        return false;
    q->num = t[3].value;
    int id;
    if (t[0].kind == TOK_PIECE && t[1].kind == TOK_NUM) {
        q->type = t[0].value;
        q->id = ID_FILE;
        q->id_value = t[1].value;
    } else if (t[1].kind == TOK_PIECE && t[0].kind == TOK_NUM) {
        q->type = t[1].value;
        q->id = ID_INDEX;
        q->id_value = t[0].value;
    } else if (t[1].kind == TOK_PIECE && tok_is_mark(&t[0], &id)) {
        q->type = t[1].value;
        q->id = id;
    } else if (t[0].kind == TOK_PIECE && tok_is_mark(&t[1], &id)) {
        q->type = t[0].value;
        q->id = id;
    } else if (t[1].kind == TOK_NUM && tok_is_mark(&t[0], &id)) {
        q->type = PT_NONE;
        q->id = id;
        q->file = t[1].value;
    } else {
        return false;
    }
    return true;
}

Move board_parse_move(const Board *b, const char *text)
{
    if (!b || !text)
        return MOVE_NONE;
    /* Trim, and refuse anything longer than any notation could be. */
    while (is_space(*text))
        text++;
    size_t len = strlen(text);
    while (len > 0 && is_space(text[len - 1]))
        len--;
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return MOVE_NONE;
    memcpy(buf, text, len);
    buf[len] = '\0';

    /* ICCS first: its third character is a file letter or '-' + letter, which
     * no WXF or Chinese text has, so the two never compete. */
    Move m = move_from_iccs(buf);
    if (m != MOVE_NONE)
        return board_is_legal(b, m) ? m : MOVE_NONE;

    Token tok[4];
    MoveQuery q;
    if (!tokenize(buf, tok) || !build_query(tok, &q))
        return MOVE_NONE;
    NotationCtx c;
    ctx_build(b, &c);
    Move found = MOVE_NONE;
    return count_matches(b, &c, &q, &found) == 1 ? found : MOVE_NONE;
}
