/* board.c — tables, FEN in and out, piece placement, make/unmake, invariants. */
#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "tables.h"

const char *const BOARD_START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#define FILES9 0, 1, 2, 3, 4, 5, 6, 7, 8
#define FILES27 FILES9, FILES9, FILES9
const uint8_t BOARD_SQ_FILE[256] = {FILES27, FILES27, FILES27, FILES27, FILES27, FILES27, FILES27,
                                    FILES27, FILES27, FILES9, 0, 1, 2, 3};
#undef FILES27
#undef FILES9
#define RANK9(r) r, r, r, r, r, r, r, r, r
#define RANKS4(r) RANK9(r), RANK9(r + 1), RANK9(r + 2), RANK9(r + 3)
const uint8_t BOARD_SQ_RANK[256] = {RANKS4(0),  RANKS4(4),  RANKS4(8),  RANKS4(12), RANKS4(16),
                                    RANKS4(20), RANKS4(24), 28,         28,         28,         28};
#undef RANKS4
#undef RANK9
_Static_assert(256 == 28 * FILE_NB + 4, "the square tables cover every byte value");

const uint8_t BOARD_SLOT_FIRST[PT_NB] = {0, 0, 1, 3, 5, 7, 9, 11};
const uint8_t BOARD_SLOT_COUNT[PT_NB] = {0, 1, 2, 2, 2, 2, 2, 5};

/* Attacking material: what can still threaten the enemy general. Pawns count
 * little, so "only pawns and advisors left" stays under the null-move margin. */
const int BOARD_MATERIAL[PT_NB] = {0, 0, 0, 0, 400, 900, 450, 100};

const int BOARD_SEE_VALUE[PT_NB] = {0, 5000, 200, 200, 400, 900, 450, 100};

SlideEntry board_rank_slide[FILE_NB][1 << FILE_NB];
SlideEntry board_file_slide[RANK_NB][1 << RANK_NB];
StepList board_king_steps[SQ_NB];
StepList board_advisor_steps[SQ_NB];
StepList board_elephant_steps[SQ_NB];
StepList board_horse_steps[SQ_NB];
StepList board_horse_attackers[SQ_NB];
StepList board_pawn_steps[2][SQ_NB];
StepList board_pawn_attackers[2][SQ_NB];
StepReach board_king_reach[SQ_NB];
StepReach board_advisor_reach[SQ_NB];
StepReach board_elephant_reach[SQ_NB];
StepReach board_horse_reach[SQ_NB];
StepReach board_sq_point[256];
StepReach board_pawn_reach[2][SQ_NB];
BoardCheckFilter board_check_filters[2][SQ_NB];
uint64_t board_zobrist[PIECE_NB][SQ_NB];
uint64_t board_zobrist_side;
uint64_t board_struct_zobrist[PIECE_NB][SQ_NB];
#define STRUCT_OF_SIDE(guards, attackers) -1, guards, guards, guards, attackers, attackers, attackers, BOARD_STRUCT_PAWNS
const int8_t BOARD_STRUCT_OF[PIECE_NB] = {STRUCT_OF_SIDE(BOARD_STRUCT_RED_GUARDS, BOARD_STRUCT_RED_ATTACKERS),
                                          STRUCT_OF_SIDE(BOARD_STRUCT_BLACK_GUARDS, BOARD_STRUCT_BLACK_ATTACKERS)};
#undef STRUCT_OF_SIDE
uint8_t board_in_palace[2][SQ_NB];

/* Until eval installs its table, the incremental score stays 0. */
static const BoardPsqTable ZERO_PSQ;

/* ------------------------------------------------------------------ tables */

static void slide_line(SlideEntry *e, int p, unsigned occ, int n)
{
    e->quiet = e->first = e->second = e->quiet_count = 0;
    for (int dir = -1; dir <= 1; dir += 2) {
        int blockers = 0;
        for (int q = p + dir; q >= 0 && q < n; q += dir) {
            if (!(occ & (1u << q))) {
                if (blockers == 0) {
                    e->quiet |= (uint16_t)(1u << q);
                    e->quiet_count++;
                }
                continue;
            }
            blockers++;
            if (blockers == 1) {
                e->first |= (uint16_t)(1u << q);
            } else {
                e->second |= (uint16_t)(1u << q);
                break;
            }
        }
    }
}

static void step_add(StepList *l, int to, int block)
{
    l->steps[l->count].to = (uint8_t)to;
    l->steps[l->count].block = (uint8_t)block;
    l->count++;
}

static void reach_of(StepReach *r, const StepList *l)
{
    r->w[0] = r->w[1] = 0;
    for (int i = 0; i < l->count; i++)
        r->w[l->steps[i].to >> 6] |= 1ull << (l->steps[i].to & 63);
}

static bool on_board(int f, int r) { return f >= 0 && f < FILE_NB && r >= 0 && r < RANK_NB; }

static bool palace_of(int c, int f, int r)
{
    if (f < 3 || f > 5 || r < 0 || r >= RANK_NB)
        return false;
    return c == RED ? r <= 2 : r >= 7;
}

/* splitmix64: a fixed seed keeps keys, and so bench counts, identical everywhere. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A 64-bit mixer (multiply-xorshift) for the structure keys' terms. */
static uint64_t struct_mix(uint64_t x)
{
    x *= 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    return x ^ (x >> 32);
}

static void init_tables(void)
{
    for (int p = 0; p < FILE_NB; p++)
        for (unsigned occ = 0; occ < (1u << FILE_NB); occ++)
            slide_line(&board_rank_slide[p][occ], p, occ, FILE_NB);
    for (int p = 0; p < RANK_NB; p++)
        for (unsigned occ = 0; occ < (1u << RANK_NB); occ++)
            slide_line(&board_file_slide[p][occ], p, occ, RANK_NB);

    static const int ORTHO[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    static const int DIAG[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    for (int s = 0; s < SQ_NB; s++) {
        int f = sq_file(s), r = sq_rank(s);
        for (int c = 0; c < 2; c++)
            board_in_palace[c][s] = palace_of(c, f, r);
        int own = r <= 4 ? RED : BLACK; /* the half an elephant on s belongs to */
        for (int d = 0; d < 4; d++) {
            int of = f + ORTHO[d][0], orr = r + ORTHO[d][1];
            int pal = r <= 2 ? RED : BLACK;
            if (palace_of(pal, f, r) && palace_of(pal, of, orr))
                step_add(&board_king_steps[s], sq_make(of, orr), SQ_NONE);
            int df = f + DIAG[d][0], dr = r + DIAG[d][1];
            if (palace_of(pal, f, r) && palace_of(pal, df, dr))
                step_add(&board_advisor_steps[s], sq_make(df, dr), SQ_NONE);
            int ef = f + 2 * DIAG[d][0], er = r + 2 * DIAG[d][1];
            if (on_board(ef, er) && (er <= 4) == (own == RED))
                step_add(&board_elephant_steps[s], sq_make(ef, er), sq_make(df, dr));
        }
        /* Horse: two points one way, one point across; the leg is the point
         * next to the horse in the long direction. */
        for (int d = 0; d < 4; d++) {
            int lf = f + ORTHO[d][0], lr = r + ORTHO[d][1];
            if (!on_board(lf, lr))
                continue;
            for (int side = -1; side <= 1; side += 2) {
                int tf = lf + ORTHO[d][0] + (ORTHO[d][1] ? side : 0);
                int tr = lr + ORTHO[d][1] + (ORTHO[d][0] ? side : 0);
                if (on_board(tf, tr))
                    step_add(&board_horse_steps[s], sq_make(tf, tr), sq_make(lf, lr));
            }
        }
        for (int c = 0; c < 2; c++) {
            int fwd = c == RED ? 1 : -1;
            if (on_board(f, r + fwd))
                step_add(&board_pawn_steps[c][s], sq_make(f, r + fwd), SQ_NONE);
            if (board_pawn_crossed(c, s)) {
                if (f > 0)
                    step_add(&board_pawn_steps[c][s], sq_make(f - 1, r), SQ_NONE);
                if (f < FILE_NB - 1)
                    step_add(&board_pawn_steps[c][s], sq_make(f + 1, r), SQ_NONE);
            }
        }
    }
    for (int s = 0; s < SQ_NB; s++)
        board_sq_point[s].w[s >> 6] = 1ull << (s & 63);
    for (int s = 0; s < SQ_NB; s++) {
        reach_of(&board_king_reach[s], &board_king_steps[s]);
        reach_of(&board_advisor_reach[s], &board_advisor_steps[s]);
        reach_of(&board_elephant_reach[s], &board_elephant_steps[s]);
        reach_of(&board_horse_reach[s], &board_horse_steps[s]);
        for (int c = 0; c < 2; c++)
            reach_of(&board_pawn_reach[c][s], &board_pawn_steps[c][s]);
    }
    /* Reverse tables: who attacks a square from where. */
    for (int s = 0; s < SQ_NB; s++) {
        const StepList *h = &board_horse_steps[s];
        for (int i = 0; i < h->count; i++)
            step_add(&board_horse_attackers[h->steps[i].to], s, h->steps[i].block);
        for (int c = 0; c < 2; c++) {
            const StepList *p = &board_pawn_steps[c][s];
            for (int i = 0; i < p->count; i++)
                step_add(&board_pawn_attackers[c][p->steps[i].to], s, SQ_NONE);
        }
    }
    for (int us = 0; us < 2; us++)
        for (int ks = 0; ks < SQ_NB; ks++) {
            BoardCheckFilter *f = &board_check_filters[us][ks];
            int kr = sq_rank(ks), kf = sq_file(ks);
            for (int x = 0; x < FILE_NB; x++) {
                sqset_add(&f->from, sq_make(x, kr));
                sqset_add(&f->to, sq_make(x, kr));
            }
            for (int x = 0; x < RANK_NB; x++) {
                sqset_add(&f->from, sq_make(kf, x));
                sqset_add(&f->to, sq_make(kf, x));
            }
            const StepList *hl = &board_horse_attackers[ks];
            for (int i = 0; i < hl->count; i++) {
                sqset_add(&f->from, hl->steps[i].block);
                sqset_add(&f->to, hl->steps[i].to);
            }
            const StepList *pl = &board_pawn_attackers[us][ks];
            for (int i = 0; i < pl->count; i++)
                sqset_add(&f->to, pl->steps[i].to);
        }

    uint64_t state = 0x43686172696F7421ull; /* "Chariot!" */
    for (int p = 0; p < PIECE_NB; p++)
        for (int s = 0; s < SQ_NB; s++)
            board_zobrist[p][s] = (p == 0 || (p & 7) == 0) ? 0 : next_random(&state);
    board_zobrist_side = next_random(&state);
    /* Structure terms are a hash of the piece code and the square, so they
     * do not depend on the order the position keys were drawn in. */
    for (int p = 0; p < PIECE_NB; p++)
        for (int s = 0; s < SQ_NB; s++)
            board_struct_zobrist[p][s] =
                BOARD_STRUCT_OF[p] >= 0 ? struct_mix((uint64_t)p << 8 | (uint64_t)(s + 1)) : 0;
}

/* A once-flag and the tables it fills are the accepted exception to "no
 * mutable globals": any thread may call board_init, the tables are filled once. */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

void board_init(void) { pthread_once(&tables_once, init_tables); }

/* -------------------------------------------------------------- placement */

/* The structure keys: piece p appears on or leaves square s, or moves. */
static inline void struct_toggle(Board *b, Piece p, int s)
{
    int k = BOARD_STRUCT_OF[p];
    if (k >= 0)
        b->struct_key[k] ^= board_struct_zobrist[p][s];
}

static inline void struct_move(Board *b, Piece p, int from, int to)
{
    int k = BOARD_STRUCT_OF[p];
    if (k >= 0)
        b->struct_key[k] ^= board_struct_zobrist[p][from] ^ board_struct_zobrist[p][to];
}

static void put_piece(Board *b, Piece p, int s, int slot)
{
    int c = piece_color(p);
    b->sq[s] = p;
    b->slot[s] = (uint8_t)slot;
    b->plist[c][slot] = (uint8_t)s;
    b->rank_occ[sq_rank(s)] |= (uint16_t)(1u << sq_file(s));
    b->file_occ[sq_file(s)] |= (uint16_t)(1u << sq_rank(s));
    b->count[p]++;
    b->material[c] += BOARD_MATERIAL[piece_type(p)];
    b->key ^= board_zobrist[p][s];
    struct_toggle(b, p, s);
    b->psq += (*b->psq_table)[p][s];
}

void board_set_psq(Board *b, const BoardPsqTable *table)
{
    b->psq_table = table ? table : &ZERO_PSQ;
    int32_t sum = 0;
    for (int s = 0; s < SQ_NB; s++)
        if (b->sq[s])
            sum += (*b->psq_table)[b->sq[s]][s];
    b->psq = sum;
    b->hist[b->ply].psq = sum;
}

/* ------------------------------------------------------------------- FEN */

static bool fen_fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return false;
}

static int fen_piece_type(char c)
{
    switch (toupper((unsigned char)c)) {
    case 'K': return KING;
    case 'A': return ADVISOR;
    case 'B': case 'E': return ELEPHANT;
    case 'N': case 'H': return HORSE;
    case 'R': return ROOK;
    case 'C': return CANNON;
    case 'P': return PAWN;
    default: return PT_NONE;
    }
}

static const char *const TYPE_NAME[PT_NB] = {"", "general", "advisor", "elephant", "horse", "rook", "cannon", "pawn"};
static const char *const COLOR_NAME[2] = {"red", "black"};

/* Where a piece of this colour and type can ever stand. */
static bool square_possible(int c, int t, int s)
{
    int f = sq_file(s), r = sq_rank(s);
    int rr = c == RED ? r : 9 - r; /* rank from the owner's side */
    switch (t) {
    case KING: return board_in_palace[c][s];
    case ADVISOR: return board_in_palace[c][s] && ((f + rr) % 2 == 1);
    case ELEPHANT:
        return rr <= 4 && ((rr == 0 || rr == 4) ? (f == 2 || f == 6) : rr == 2 ? (f == 0 || f == 4 || f == 8) : false);
    case PAWN:
        if (rr < 3)
            return false;
        return rr >= 5 || f % 2 == 0;
    default: return true;
    }
}

bool board_from_fen(Board *out, const char *fen, char *err, size_t errlen)
{
    if (!fen)
        return fen_fail(err, errlen, "empty FEN");
    while (*fen == ' ' || *fen == '\t')
        fen++;
    if (strncmp(fen, "startpos", 8) == 0 && (fen[8] == 0 || isspace((unsigned char)fen[8])))
        fen = BOARD_START_FEN;
    if (!*fen)
        return fen_fail(err, errlen, "empty FEN");

    /* Parse into a scratch board so that a bad FEN leaves *out untouched. */
    Board *b = malloc(sizeof *b);
    if (!b)
        return fen_fail(err, errlen, "out of memory");
    memset(b, 0, offsetof(Board, hist) + sizeof(HistEntry));
    memset(b->plist, SQ_NONE, sizeof b->plist);
    /* *out may be uninitialised, so never read it: eval's table is
     * installed afterwards with board_set_psq(). */
    b->psq_table = &ZERO_PSQ;

    int rank = 9, file = 0;
    const char *p = fen;
    bool ok = true;
    for (; *p && *p != ' ' && *p != '\t'; p++) {
        char ch = *p;
        if (ch == '/') {
            if (file != FILE_NB) {
                ok = fen_fail(err, errlen, "rank %d has %d files, expected 9", rank, file);
                break;
            }
            if (--rank < 0) {
                ok = fen_fail(err, errlen, "more than 10 ranks");
                break;
            }
            file = 0;
        } else if (ch >= '1' && ch <= '9') {
            file += ch - '0';
            if (file > FILE_NB) {
                ok = fen_fail(err, errlen, "rank %d has more than 9 files", rank);
                break;
            }
        } else {
            int t = fen_piece_type(ch);
            if (t == PT_NONE) {
                if (isprint((unsigned char)ch))
                    ok = fen_fail(err, errlen, "unknown piece letter '%c' in rank %d", ch, rank);
                else
                    ok = fen_fail(err, errlen, "unexpected byte 0x%02x in the board field", (unsigned char)ch);
                break;
            }
            if (file >= FILE_NB) {
                ok = fen_fail(err, errlen, "rank %d has more than 9 files", rank);
                break;
            }
            int c = isupper((unsigned char)ch) ? RED : BLACK;
            Piece pc = piece_make(c, t);
            int s = sq_make(file, rank);
            if (b->count[pc] >= BOARD_SLOT_COUNT[t]) {
                ok = fen_fail(err, errlen, "too many %s %ss (at most %d)", COLOR_NAME[c], TYPE_NAME[t],
                              BOARD_SLOT_COUNT[t]);
                break;
            }
            if (!square_possible(c, t, s)) {
                ok = fen_fail(err, errlen, "%s %s on %c%d: it can never stand there", COLOR_NAME[c], TYPE_NAME[t],
                              'a' + file, rank);
                break;
            }
            put_piece(b, pc, s, BOARD_SLOT_FIRST[t] + b->count[pc]);
            file++;
        }
    }
    if (ok && (rank != 0 || file != FILE_NB)) {
        if (rank != 0)
            ok = fen_fail(err, errlen, "the board has %d ranks, expected 10", 10 - rank);
        else
            ok = fen_fail(err, errlen, "rank 0 has %d files, expected 9", file);
    }
    for (int c = 0; ok && c < 2; c++)
        if (b->count[piece_make(c, KING)] != 1)
            ok = fen_fail(err, errlen, "missing %s general", COLOR_NAME[c]);

    /* Side to move, then the optional "- -", half-move clock and move number. */
    int rule60 = 0, fullmove = 1;
    b->side = RED;
    if (ok) {
        char tok[6][24];
        int ntok = 0;
        while (ok) {
            while (*p == ' ' || *p == '\t')
                p++;
            if (!*p)
                break;
            size_t n = 0;
            while (p[n] && p[n] != ' ' && p[n] != '\t')
                n++;
            if (ntok == 6 || n >= sizeof tok[0]) {
                ok = fen_fail(err, errlen, "unexpected text after the board: '%.20s'", p);
                break;
            }
            memcpy(tok[ntok], p, n);
            tok[ntok++][n] = 0;
            p += n;
        }
        int ti = 0;
        if (ok && ntok > 0) {
            if (strcmp(tok[0], "w") == 0 || strcmp(tok[0], "r") == 0 || strcmp(tok[0], "W") == 0 ||
                strcmp(tok[0], "R") == 0)
                b->side = RED;
            else if (strcmp(tok[0], "b") == 0 || strcmp(tok[0], "B") == 0)
                b->side = BLACK;
            else
                ok = fen_fail(err, errlen, "side to move must be w, r or b, not '%s'", tok[0]);
            ti = 1;
        }
        int nums = 0;
        for (; ok && ti < ntok; ti++) {
            if (strcmp(tok[ti], "-") == 0 && nums == 0)
                continue;
            char *end;
            long v = strtol(tok[ti], &end, 10);
            if (*end || end == tok[ti] || v < 0 || v > 100000) {
                ok = fen_fail(err, errlen, "bad counter '%s'", tok[ti]);
                break;
            }
            if (nums == 0)
                rule60 = v > 999 ? 999 : (int)v;
            else
                fullmove = v < 1 ? 1 : (int)v;
            nums++;
        }
    }
    if (ok) {
        int them = b->side ^ 1;
        if (board_is_attacked(b, board_king_sq(b, them), b->side))
            ok = fen_fail(err, errlen, "the side to move could capture the enemy general");
    }
    if (!ok) {
        free(b);
        return false;
    }
    b->fullmove = fullmove;
    if (b->side == BLACK)
        b->key ^= board_zobrist_side;
    b->ply = 0;
    HistEntry *h = &b->hist[0];
    memset(h, 0, sizeof *h);
    h->key = b->key;
    h->psq = b->psq;
    h->move = MOVE_NONE;
    h->chased = 0;
    h->rule60 = (uint16_t)rule60;
    h->check = board_is_attacked(b, board_king_sq(b, b->side), b->side ^ 1);
    memcpy(out, b, offsetof(Board, hist) + sizeof(HistEntry));
    free(b);
    return true;
}

void board_startpos(Board *b)
{
    bool ok = board_from_fen(b, BOARD_START_FEN, NULL, 0);
    (void)ok;
}

char board_piece_char(Piece p)
{
    static const char CH[PT_NB] = {'.', 'k', 'a', 'b', 'n', 'r', 'c', 'p'};
    if (p == PIECE_NONE || piece_type(p) == PT_NONE)
        return '.';
    char c = CH[piece_type(p)];
    return piece_color(p) == RED ? (char)toupper((unsigned char)c) : c;
}

void board_to_fen(const Board *b, char *out, size_t outlen)
{
    char buf[128];
    size_t n = 0;
    for (int r = RANK_NB - 1; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < FILE_NB; f++) {
            Piece p = b->sq[sq_make(f, r)];
            if (!p) {
                empty++;
                continue;
            }
            if (empty)
                buf[n++] = (char)('0' + empty);
            empty = 0;
            buf[n++] = board_piece_char(p);
        }
        if (empty)
            buf[n++] = (char)('0' + empty);
        if (r)
            buf[n++] = '/';
    }
    buf[n] = 0;
    snprintf(out, outlen, "%s %c - - %d %d", buf, b->side == RED ? 'w' : 'b', board_rule60(b), b->fullmove);
}

/* ------------------------------------------------------- make and unmake */

#ifdef CHARIOT_DEBUG
static void check_invariants(const Board *b)
{
    char err[160];
    if (!board_validate(b, err, sizeof err)) {
        fprintf(stderr, "board invariant broken: %s\n", err);
        abort();
    }
}
#else
static inline void check_invariants(const Board *b) { (void)b; }
#endif

uint64_t board_key_after(const Board *b, Move m)
{
    int from = move_from(m), to = move_to(m);
    Piece p = b->sq[from], cap = b->sq[to];
    uint64_t key = b->key ^ board_zobrist[p][from] ^ board_zobrist[p][to] ^ board_zobrist_side;
    if (cap)
        key ^= board_zobrist[cap][to];
    return key;
}

uint64_t board_key_after_null(const Board *b) { return b->key ^ board_zobrist_side; }

void board_make(Board *b, Move m)
{
    int from = move_from(m), to = move_to(m);
    int us = b->side, them = us ^ 1;
    Piece p = b->sq[from], cap = b->sq[to];
    const BoardPsqTable *t = b->psq_table;
    HistEntry *prev = &b->hist[b->ply];
    HistEntry *h = &b->hist[++b->ply];

    h->captured = cap;
    if (cap) {
        int cs = b->slot[to];
        h->captured_slot = (uint8_t)cs;
        b->plist[them][cs] = SQ_NONE;
        b->count[cap]--;
        b->material[them] -= BOARD_MATERIAL[piece_type(cap)];
        b->key ^= board_zobrist[cap][to];
        struct_toggle(b, cap, to);
        b->psq -= (*t)[cap][to];
        h->rule60 = 0;
    } else {
        b->rank_occ[sq_rank(to)] |= (uint16_t)(1u << sq_file(to));
        b->file_occ[sq_file(to)] |= (uint16_t)(1u << sq_rank(to));
        h->captured_slot = 0;
        h->rule60 = (uint16_t)(prev->rule60 + 1);
    }
    b->rank_occ[sq_rank(from)] &= (uint16_t)~(1u << sq_file(from));
    b->file_occ[sq_file(from)] &= (uint16_t)~(1u << sq_rank(from));
    b->sq[from] = PIECE_NONE;
    b->sq[to] = p;
    int slot = b->slot[from];
    b->slot[to] = (uint8_t)slot;
    b->slot[from] = 0; /* empty squares keep slot 0, so equal positions compare equal */
    b->plist[us][slot] = (uint8_t)to;
    b->key ^= board_zobrist[p][from] ^ board_zobrist[p][to] ^ board_zobrist_side;
    struct_move(b, p, from, to);
    b->psq += (*t)[p][to] - (*t)[p][from];
    b->side = them;
    if (us == BLACK)
        b->fullmove++;

    h->key = b->key;
    h->psq = b->psq;
    h->move = m;
    h->chased = CHASE_UNKNOWN;
    h->check = board_move_gave_check(b, from, to);
    check_invariants(b);
}

void board_unmake(Board *b)
{
    HistEntry *h = &b->hist[b->ply];
    Move m = h->move;
    int from = move_from(m), to = move_to(m);
    int them = b->side, us = them ^ 1;
    Piece p = b->sq[to], cap = h->captured;

    b->sq[from] = p;
    int slot = b->slot[to];
    b->slot[from] = (uint8_t)slot;
    b->plist[us][slot] = (uint8_t)from;
    b->rank_occ[sq_rank(from)] |= (uint16_t)(1u << sq_file(from));
    b->file_occ[sq_file(from)] |= (uint16_t)(1u << sq_rank(from));
    struct_move(b, p, from, to);
    if (cap) {
        struct_toggle(b, cap, to);
        b->sq[to] = cap;
        b->slot[to] = h->captured_slot;
        b->plist[them][h->captured_slot] = (uint8_t)to;
        b->count[cap]++;
        b->material[them] += BOARD_MATERIAL[piece_type(cap)];
    } else {
        b->sq[to] = PIECE_NONE;
        b->slot[to] = 0;
        b->rank_occ[sq_rank(to)] &= (uint16_t)~(1u << sq_file(to));
        b->file_occ[sq_file(to)] &= (uint16_t)~(1u << sq_rank(to));
    }
    b->side = us;
    if (us == BLACK)
        b->fullmove--;
    b->ply--;
    b->key = b->hist[b->ply].key;
    b->psq = b->hist[b->ply].psq;
    check_invariants(b);
}

void board_make_null(Board *b)
{
    HistEntry *prev = &b->hist[b->ply];
    HistEntry *h = &b->hist[++b->ply];
    b->key ^= board_zobrist_side;
    if (b->side == BLACK)
        b->fullmove++;
    b->side ^= 1;
    h->key = b->key;
    h->psq = b->psq;
    h->move = MOVE_NULL;
    h->captured = PIECE_NONE;
    h->captured_slot = 0;
    h->check = 0; /* a null move is never made in check, so the opponent is not in check either */
    h->chased = 0;
    h->rule60 = prev->rule60;
}

void board_unmake_null(Board *b)
{
    b->side ^= 1;
    if (b->side == BLACK)
        b->fullmove--;
    b->ply--;
    b->key = b->hist[b->ply].key;
}

void board_compact_history(Board *b)
{
    /* Keep plenty of room for a search on top of the game. */
    if (b->ply < BOARD_HIST_MAX / 2)
        return;
    /* Nothing before the last capture can repeat, so the window since it is all
     * the rules need; keep at most the natural-limit window plus a margin. */
    int keep = b->hist[b->ply].rule60 + 1;
    if (keep > BOARD_RULE60_PLIES + 8)
        keep = BOARD_RULE60_PLIES + 8;
    if (keep > b->ply + 1)
        keep = b->ply + 1;
    int first = b->ply + 1 - keep;
    memmove(&b->hist[0], &b->hist[first], (size_t)keep * sizeof(HistEntry));
    b->ply = keep - 1;
}

/* ------------------------------------------------------------- invariants */

bool board_validate(const Board *b, char *err, size_t errlen)
{
    uint16_t rank_occ[RANK_NB] = {0}, file_occ[FILE_NB] = {0};
    uint8_t count[PIECE_NB] = {0};
    int material[2] = {0, 0};
    int32_t psq = 0;
    uint64_t key = b->side == BLACK ? board_zobrist_side : 0;
    uint64_t struct_key[BOARD_STRUCT_NB] = {0};

    if (b->side != RED && b->side != BLACK)
        return fen_fail(err, errlen, "bad side to move %d", b->side);
    for (int s = 0; s < SQ_NB; s++) {
        Piece p = b->sq[s];
        if (!p)
            continue;
        int c = piece_color(p), t = piece_type(p);
        if (t == PT_NONE || p >= PIECE_NB)
            return fen_fail(err, errlen, "bad piece code %d on square %d", p, s);
        int slot = b->slot[s];
        if (slot < BOARD_SLOT_FIRST[t] || slot >= BOARD_SLOT_FIRST[t] + BOARD_SLOT_COUNT[t])
            return fen_fail(err, errlen, "square %d: slot %d does not fit piece type %d", s, slot, t);
        if (b->plist[c][slot] != s)
            return fen_fail(err, errlen, "square %d: piece list slot %d points to %d", s, slot, b->plist[c][slot]);
        rank_occ[sq_rank(s)] |= (uint16_t)(1u << sq_file(s));
        file_occ[sq_file(s)] |= (uint16_t)(1u << sq_rank(s));
        count[p]++;
        material[c] += BOARD_MATERIAL[t];
        psq += (*b->psq_table)[p][s];
        key ^= board_zobrist[p][s];
        if (BOARD_STRUCT_OF[p] >= 0)
            struct_key[BOARD_STRUCT_OF[p]] ^= board_struct_zobrist[p][s];
    }
    for (int c = 0; c < 2; c++)
        for (int slot = 0; slot < SLOT_NB; slot++) {
            int s = b->plist[c][slot];
            if (s == SQ_NONE)
                continue;
            if (s >= SQ_NB || !b->sq[s] || piece_color(b->sq[s]) != c || b->slot[s] != slot)
                return fen_fail(err, errlen, "piece list %d slot %d names square %d wrongly", c, slot, s);
        }
    for (int r = 0; r < RANK_NB; r++)
        if (rank_occ[r] != b->rank_occ[r])
            return fen_fail(err, errlen, "rank %d occupancy mask drifted", r);
    for (int f = 0; f < FILE_NB; f++)
        if (file_occ[f] != b->file_occ[f])
            return fen_fail(err, errlen, "file %d occupancy mask drifted", f);
    if (memcmp(count, b->count, sizeof count) != 0)
        return fen_fail(err, errlen, "piece counts drifted");
    if (material[0] != b->material[0] || material[1] != b->material[1])
        return fen_fail(err, errlen, "material drifted");
    if (psq != b->psq)
        return fen_fail(err, errlen, "incremental psq drifted (%d vs %d)", (int)b->psq, (int)psq);
    if (key != b->key || b->hist[b->ply].key != key)
        return fen_fail(err, errlen, "Zobrist key drifted");
    if (memcmp(struct_key, b->struct_key, sizeof struct_key) != 0)
        return fen_fail(err, errlen, "structure keys drifted");
    for (int c = 0; c < 2; c++)
        if (b->plist[c][0] == SQ_NONE || b->sq[b->plist[c][0]] != piece_make(c, KING))
            return fen_fail(err, errlen, "%s general missing", COLOR_NAME[c]);
    if (board_is_attacked(b, board_king_sq(b, b->side ^ 1), b->side))
        return fen_fail(err, errlen, "the side not to move is in check");
    bool chk = board_is_attacked(b, board_king_sq(b, b->side), b->side ^ 1);
    if (chk != (b->hist[b->ply].check != 0))
        return fen_fail(err, errlen, "cached check flag drifted");
    return true;
}
