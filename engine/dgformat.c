/* dgformat.c — datagen's text lines and binary records (dgformat.h). */
#include "dgformat.h"

#include "os.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t DG_MAGIC[4] = {'C', 'X', 'D', 'G'};

/* Bit positions of the flags above the 90 occupancy bits. */
enum { DG_RESULT_BIT = 90, DG_SIDE_BIT = 92, DG_RESERVED_BIT = 93, DG_FULLMOVE_SHIFT = 7 };

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static unsigned get16(const uint8_t *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }

static uint32_t get32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static bool bit_get(const uint8_t *p, int i) { return (p[i >> 3] >> (i & 7)) & 1; }
static void bit_set(uint8_t *p, int i) { p[i >> 3] |= (uint8_t)(1u << (i & 7)); }

bool dg_pack(const Board *b, int score_red, int result, DgRecord *out, char *err, size_t errlen)
{
    const int rule60 = board_rule60(b);
    if (score_red < INT16_MIN || score_red > INT16_MAX) {
        snprintf(err, errlen, "score %d does not fit 16 bits", score_red);
        return false;
    }
    if (result < DG_BLACK_WON || result > DG_RED_WON) {
        snprintf(err, errlen, "bad result code %d", result);
        return false;
    }
    if (rule60 > DG_MAX_HALFMOVE || b->fullmove > DG_MAX_FULLMOVE) {
        snprintf(err, errlen, "counters %d %d above the format's %d %d", rule60, b->fullmove, DG_MAX_HALFMOVE,
                 DG_MAX_FULLMOVE);
        return false;
    }
    memset(out, 0, sizeof *out);
    int k = 0;
    for (int s = 0; s < SQ_NB; s++) {
        if (b->sq[s] == PIECE_NONE)
            continue;
        if (k == DG_MAX_PIECES) {
            snprintf(err, errlen, "more than %d pieces", DG_MAX_PIECES);
            return false;
        }
        bit_set(out->b, s);
        out->b[12 + k / 2] |= (uint8_t)(b->sq[s] << (4 * (k & 1)));
        k++;
    }
    out->b[DG_RESULT_BIT >> 3] |= (uint8_t)(result << (DG_RESULT_BIT & 7));
    if (b->side == BLACK)
        bit_set(out->b, DG_SIDE_BIT);
    put16(out->b + 28, (unsigned)(uint16_t)(int16_t)score_red);
    put16(out->b + 30, (unsigned)rule60 | (unsigned)b->fullmove << DG_FULLMOVE_SHIFT);
    return true;
}

void dg_set_result(DgRecord *rec, int result)
{
    uint8_t *p = &rec->b[DG_RESULT_BIT >> 3];
    *p = (uint8_t)((*p & ~(3u << (DG_RESULT_BIT & 7))) | (unsigned)result << (DG_RESULT_BIT & 7));
}

bool dg_record_pieces(const DgRecord *rec, DgPieces *out)
{
    const uint8_t *p = rec->b;
    if ((p[DG_RESERVED_BIT >> 3] >> (DG_RESERVED_BIT & 7)) != 0)
        return false;
    int k = 0;
    for (int s = 0; s < SQ_NB; s++) {
        if (!bit_get(p, s))
            continue;
        if (k == DG_MAX_PIECES)
            return false;
        const int code = (p[12 + k / 2] >> (4 * (k & 1))) & 15;
        if (piece_type((Piece)code) == PT_NONE)
            return false;
        out->sq[k] = (uint8_t)s;
        out->piece[k] = (uint8_t)code;
        k++;
    }
    for (int j = k; j < DG_MAX_PIECES; j++)
        if ((p[12 + j / 2] >> (4 * (j & 1))) & 15)
            return false;
    out->count = k;
    out->result = (p[DG_RESULT_BIT >> 3] >> (DG_RESULT_BIT & 7)) & 3;
    out->side = bit_get(p, DG_SIDE_BIT) ? BLACK : RED;
    out->score_red = (int16_t)get16(p + 28);
    return out->result <= DG_RED_WON;
}

bool dg_unpack(const DgRecord *rec, DgEntry *e, char *err, size_t errlen)
{
    DgPieces pc;
    if (!dg_record_pieces(rec, &pc)) {
        snprintf(err, errlen, "corrupt record (bad piece code, result or reserved bits)");
        return false;
    }
    char grid[SQ_NB];
    memset(grid, 0, sizeof grid);
    for (int i = 0; i < pc.count; i++)
        grid[pc.sq[i]] = board_piece_char(pc.piece[i]);
    char fen[DG_LINE_MAX];
    size_t n = 0;
    for (int r = RANK_NB - 1; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < FILE_NB; f++) {
            const char c = grid[sq_make(f, r)];
            if (!c) {
                empty++;
                continue;
            }
            if (empty)
                fen[n++] = (char)('0' + empty);
            empty = 0;
            fen[n++] = c;
        }
        if (empty)
            fen[n++] = (char)('0' + empty);
        if (r)
            fen[n++] = '/';
    }
    const unsigned counters = get16(rec->b + 30);
    snprintf(fen + n, sizeof fen - n, " %c - - %u %u", pc.side == RED ? 'w' : 'b', counters & DG_MAX_HALFMOVE,
             counters >> DG_FULLMOVE_SHIFT);
    char why[128];
    if (!board_from_fen(&e->board, fen, why, sizeof why)) {
        snprintf(err, errlen, "corrupt record: %s", why);
        return false;
    }
    e->score_red = pc.score_red;
    e->result = pc.result;
    return true;
}

void dg_format_line(const DgEntry *e, char *out, size_t outlen)
{
    static const char *const RESULT_TEXT[3] = {"0", "0.5", "1"};
    char fen[DG_LINE_MAX];
    board_to_fen(&e->board, fen, sizeof fen);
    snprintf(out, outlen, "%s | %s | %d", fen, RESULT_TEXT[e->result], e->score_red);
}

bool dg_parse_line(const char *line, DgEntry *e, char *err, size_t errlen)
{
    const char *bar1 = strchr(line, '|');
    const char *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
    if (!bar2 || (size_t)(bar1 - line) >= DG_LINE_MAX) {
        snprintf(err, errlen, "expected 'FEN | RESULT | SCORE'");
        return false;
    }
    char fen[DG_LINE_MAX];
    memcpy(fen, line, (size_t)(bar1 - line));
    fen[bar1 - line] = '\0';
    char why[128];
    if (!board_from_fen(&e->board, fen, why, sizeof why)) {
        snprintf(err, errlen, "bad FEN: %s", why);
        return false;
    }
    const char *r = bar1 + 1;
    while (*r == ' ')
        r++;
    size_t rn = (size_t)(bar2 - r);
    while (rn > 0 && r[rn - 1] == ' ')
        rn--;
    if (rn == 1 && r[0] == '1')
        e->result = DG_RED_WON;
    else if (rn == 1 && r[0] == '0')
        e->result = DG_BLACK_WON;
    else if (rn == 3 && memcmp(r, "0.5", 3) == 0)
        e->result = DG_DRAW;
    else {
        snprintf(err, errlen, "the result must be 1, 0.5 or 0");
        return false;
    }
    char *end;
    errno = 0;
    long score = strtol(bar2 + 1, &end, 10);
    while (*end == ' ' || *end == '\r' || *end == '\n')
        end++;
    if (*end != '\0' || end == bar2 + 1 || errno || score < INT16_MIN || score > INT16_MAX) {
        snprintf(err, errlen, "the score must be a whole number of centipawns in 16 bits");
        return false;
    }
    e->score_red = (int)score;
    return true;
}

void dg_header_encode(const DgHeader *h, uint8_t out[DG_HEADER_SIZE])
{
    memset(out, 0, DG_HEADER_SIZE);
    memcpy(out, DG_MAGIC, sizeof DG_MAGIC);
    put16(out + 4, DG_FORMAT_VERSION);
    put16(out + 6, DG_RECORD_SIZE);
    put64(out + 8, h->seed);
    put32(out + 16, h->config);
    put32(out + 20, h->games);
    put64(out + 24, h->records);
}

bool dg_is_binary(const uint8_t *start, size_t n)
{
    return n >= sizeof DG_MAGIC && memcmp(start, DG_MAGIC, sizeof DG_MAGIC) == 0;
}

bool dg_header_decode(const uint8_t in[DG_HEADER_SIZE], DgHeader *h, char *err, size_t errlen)
{
    if (!dg_is_binary(in, DG_HEADER_SIZE)) {
        snprintf(err, errlen, "not a binary datagen file (no CXDG header)");
        return false;
    }
    if (get16(in + 4) != DG_FORMAT_VERSION || get16(in + 6) != DG_RECORD_SIZE) {
        snprintf(err, errlen, "format version %u with %u-byte records; this build reads version %d, %d bytes",
                 get16(in + 4), get16(in + 6), DG_FORMAT_VERSION, DG_RECORD_SIZE);
        return false;
    }
    h->seed = get64(in + 8);
    h->config = get32(in + 16);
    h->games = get32(in + 20);
    h->records = get64(in + 24);
    return true;
}

bool dg_reader_open(DgReader *r, const char *path, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->f = fopen(path, "rb");
    if (!r->f) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return false;
    }
    uint8_t head[DG_HEADER_SIZE];
    const size_t got = fread(head, 1, sizeof head, r->f);
    if (!dg_is_binary(head, got)) {
        rewind(r->f);
        return true; /* text */
    }
    r->binary = true;
    DgHeader h;
    char why[160];
    bool ok = got == DG_HEADER_SIZE && dg_header_decode(head, &h, why, sizeof why);
    if (got != DG_HEADER_SIZE)
        snprintf(why, sizeof why, "truncated header");
    if (ok) {
        const long long size = os_file_size(r->f);
        const long long whole = size < DG_HEADER_SIZE ? 0 : (size - DG_HEADER_SIZE) / DG_RECORD_SIZE;
        if (size < 0 || (uint64_t)whole < h.records) {
            snprintf(why, sizeof why, "truncated: the header counts %llu records, the file holds %lld",
                     (unsigned long long)h.records, whole);
            ok = false;
        } else if (fseek(r->f, DG_HEADER_SIZE, SEEK_SET) != 0) {
            snprintf(why, sizeof why, "cannot seek: %s", strerror(errno));
            ok = false;
        }
    }
    if (!ok) {
        snprintf(err, errlen, "%s: %s", path, why);
        fclose(r->f);
        r->f = NULL;
        return false;
    }
    r->records = h.records;
    return true;
}

int dg_reader_next_record(DgReader *r, DgRecord *rec, char *err, size_t errlen)
{
    if (r->index >= r->records)
        return 0;
    if (fread(rec->b, 1, DG_RECORD_SIZE, r->f) != DG_RECORD_SIZE) {
        snprintf(err, errlen, "%s: truncated at record %llu", r->path, (unsigned long long)r->index);
        return -1;
    }
    r->index++;
    return 1;
}

int dg_reader_next(DgReader *r, DgEntry *e, char *err, size_t errlen)
{
    char why[200];
    if (r->binary) {
        DgRecord rec;
        const int got = dg_reader_next_record(r, &rec, err, errlen);
        if (got <= 0)
            return got;
        if (!dg_unpack(&rec, e, why, sizeof why)) {
            snprintf(err, errlen, "%s: record %llu: %s", r->path, (unsigned long long)(r->index - 1), why);
            return -1;
        }
        return 1;
    }
    char line[DG_LINE_MAX + 64];
    for (;;) {
        if (!fgets(line, sizeof line, r->f))
            return 0;
        r->line++;
        const size_t len = strlen(line);
        if (len + 1 == sizeof line && line[len - 1] != '\n') {
            snprintf(err, errlen, "%s:%lld: line too long", r->path, r->line);
            return -1;
        }
        if (line[0] == '\n' || (line[0] == '\r' && line[1] == '\n'))
            continue; /* blank */
        if (!memchr(line, '\n', len) && !feof(r->f)) {
            snprintf(err, errlen, "%s:%lld: unreadable line", r->path, r->line);
            return -1;
        }
        if (!dg_parse_line(line, e, why, sizeof why)) {
            snprintf(err, errlen, "%s:%lld: %s", r->path, r->line, why);
            return -1;
        }
        r->index++;
        return 1;
    }
}

void dg_reader_close(DgReader *r)
{
    if (r->f)
        fclose(r->f);
    r->f = NULL;
}
