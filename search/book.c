/* book.c — reading ElephantEye's opening book (BOOK.DAT):
 * flat 8-byte records (lock, move, weight) sorted by a 32-bit lock drawn
 * from an RC4 stream; positions stored once for a position and its mirror. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

/* One record on disk: uint32 lock, uint16 move, uint16 weight, little endian. */
enum { BOOK_RECORD_BYTES = 8 };
/* The format's board is 16x16 with the 9x10 board at offset (3, 3). */
enum { BOOK_BOARD_OFFSET = 3, BOOK_BOARD_WIDTH = 16 };

/* The RC4 key stream with the all-zero 4-byte key. */
typedef struct Rc4 {
    uint8_t s[256];
    int i, j;
} Rc4;

static void rc4_init(Rc4 *r)
{
    for (int k = 0; k < 256; k++)
        r->s[k] = (uint8_t)k;
    int j = 0;
    for (int k = 0; k < 256; k++) {
        j = (j + r->s[k] + 0) & 255; /* every key byte is 0 */
        uint8_t t = r->s[k];
        r->s[k] = r->s[j];
        r->s[j] = t;
    }
    r->i = r->j = 0;
}

static uint8_t rc4_byte(Rc4 *r)
{
    r->i = (r->i + 1) & 255;
    r->j = (r->j + r->s[r->i]) & 255;
    uint8_t t = r->s[r->i];
    r->s[r->i] = r->s[r->j];
    r->s[r->j] = t;
    return r->s[(r->s[r->i] + r->s[r->j]) & 255];
}

/* A word is four stream bytes, the first the least significant. */
static uint32_t rc4_word(Rc4 *r)
{
    uint32_t w = 0;
    for (int k = 0; k < 4; k++)
        w |= (uint32_t)rc4_byte(r) << (8 * k);
    return w;
}

void book_locks_init(BookLocks *bl)
{
    Rc4 r;
    rc4_init(&r);
    /* Triples (key, lock0, lock1): the side to move first, then every piece
     * type and square of the 16x16 board. Only lock1 makes the book's lock. */
    rc4_word(&r);
    rc4_word(&r);
    bl->side = rc4_word(&r);
    for (int t = 0; t < BOOK_PIECE_TYPES; t++)
        for (int s = 0; s < BOOK_SQUARES; s++) {
            rc4_word(&r);
            rc4_word(&r);
            bl->piece[t][s] = rc4_word(&r);
        }
}

int book_square(int sq, bool mirror)
{
    int file = sq_file(sq), rank = sq_rank(sq);
    if (mirror)
        file = FILE_NB - 1 - file;
    return (BOOK_BOARD_OFFSET + file) + BOOK_BOARD_WIDTH * (BOOK_BOARD_OFFSET + (RANK_NB - 1 - rank));
}

/* The format's piece types: general, advisor, elephant, horse, rook,
 * cannon, pawn; Black's seven follow Red's. */
static int book_piece_type(Piece p)
{
    static const int BY_TYPE[PT_NB] = {-1, 0, 1, 2, 3, 4, 5, 6};
    return BY_TYPE[piece_type(p)] + (piece_color(p) == BLACK ? 7 : 0);
}

uint32_t book_lock(const BookLocks *bl, const Board *b, bool mirror)
{
    uint32_t lock = 0;
    for (int sq = 0; sq < SQ_NB; sq++)
        if (b->sq[sq] != PIECE_NONE)
            lock ^= bl->piece[book_piece_type(b->sq[sq])][book_square(sq, mirror)];
    if (b->side == BLACK)
        lock ^= bl->side;
    return lock;
}

/* Board square of a 16x16 square, or -1 off the board. */
static int board_square(int s, bool mirror)
{
    int x = s % BOOK_BOARD_WIDTH - BOOK_BOARD_OFFSET, y = s / BOOK_BOARD_WIDTH - BOOK_BOARD_OFFSET;
    if (x < 0 || x >= FILE_NB || y < 0 || y >= RANK_NB)
        return -1;
    if (mirror)
        x = FILE_NB - 1 - x;
    return sq_make(x, RANK_NB - 1 - y);
}

static uint32_t read_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t read_u16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

Book *book_load(const uint8_t *data, size_t size, char *err, size_t errlen)
{
    if (size == 0 || size % BOOK_RECORD_BYTES != 0) {
        snprintf(err, errlen, "not a BOOK.DAT file (%zu bytes is not a whole number of 8-byte records)", size);
        return NULL;
    }
    Book *bk = calloc(1, sizeof *bk);
    if (!bk) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    bk->count = size / BOOK_RECORD_BYTES;
    bk->records = malloc(bk->count * sizeof *bk->records);
    if (!bk->records) {
        free(bk);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < bk->count; i++) {
        const uint8_t *p = data + i * BOOK_RECORD_BYTES;
        bk->records[i].lock = read_u32(p);
        bk->records[i].move = read_u16(p + 4);
        bk->records[i].weight = read_u16(p + 6);
        /* The lookup is a binary search: an unsorted file is corrupt. */
        if (i > 0 && bk->records[i].lock < bk->records[i - 1].lock) {
            snprintf(err, errlen, "corrupt book: records not sorted by lock at record %zu", i);
            book_free(bk);
            return NULL;
        }
    }
    book_locks_init(&bk->locks);
    return bk;
}

Book *book_open(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open book %s", path);
        return NULL;
    }
    size_t cap = 1 << 16, size = 0;
    uint8_t *data = malloc(cap);
    size_t got;
    while (data && (got = fread(data + size, 1, cap - size, f)) > 0) {
        size += got;
        if (size == cap) {
            uint8_t *grown = cap < BOOK_MAX_BYTES ? realloc(data, cap * 2) : NULL;
            if (!grown) {
                free(data);
                data = NULL;
                break;
            }
            data = grown;
            cap *= 2;
        }
    }
    bool read_error = ferror(f) != 0;
    fclose(f);
    if (!data || read_error) {
        free(data);
        snprintf(err, errlen, read_error ? "cannot read book %s" : "book %s is too large", path);
        return NULL;
    }
    char why[160];
    Book *bk = book_load(data, size, why, sizeof why);
    free(data);
    if (!bk)
        snprintf(err, errlen, "%s: %s", path, why);
    return bk;
}

void book_free(Book *bk)
{
    if (!bk)
        return;
    free(bk->records);
    free(bk);
}

/* Collects the legal moves stored under lock; moves are mirrored back when
 * the position was found through its mirror. */
static int book_collect(const Book *bk, const Board *b, uint32_t lock, bool mirror, BookMove *out, int max)
{
    size_t lo = 0, hi = bk->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (bk->records[mid].lock < lock)
            lo = mid + 1;
        else
            hi = mid;
    }
    int n = 0;
    for (size_t i = lo; i < bk->count && bk->records[i].lock == lock && n < max; i++) {
        int from = board_square(bk->records[i].move & 0xFF, mirror);
        int to = board_square(bk->records[i].move >> 8, mirror);
        if (from < 0 || to < 0 || bk->records[i].weight == 0)
            continue;
        Move m = move_make(from, to);
        /* A 32-bit lock can collide: only legal moves count. */
        if (!board_is_legal(b, m))
            continue;
        bool dup = false;
        for (int k = 0; k < n; k++)
            dup |= out[k].move == m;
        if (dup)
            continue;
        out[n].move = m;
        out[n].weight = bk->records[i].weight;
        n++;
    }
    return n;
}

int book_probe(const Book *bk, const Board *b, BookMove *out, int max)
{
    if (!bk)
        return 0;
    int n = book_collect(bk, b, book_lock(&bk->locks, b, false), false, out, max);
    if (n == 0)
        n = book_collect(bk, b, book_lock(&bk->locks, b, true), true, out, max);
    /* Heaviest first: the order the info lines and the ponder choice use. */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && out[j].weight > out[j - 1].weight; j--) {
            BookMove t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

int book_pick(const BookMove *moves, int n, uint64_t random)
{
    uint64_t total = 0;
    for (int i = 0; i < n; i++)
        total += moves[i].weight;
    if (total == 0)
        return -1;
    uint64_t r = random % total;
    for (int i = 0; i < n; i++) {
        if (r < (uint64_t)moves[i].weight)
            return i;
        r -= (uint64_t)moves[i].weight;
    }
    return n - 1;
}
