/* board.h — the rules of xiangqi: position, moves, legality, game state, notation.
 *
 * board/ depends on nothing else in Chariot. Everything the search, the protocol
 * and the tournament runner know about the game comes through this header.
 *
 * Coordinates: a square is 0..89, sq = rank * 9 + file, file a..i = 0..8 from
 * Red's left, rank 0..9 from Red's back rank (as ICCS and UCCI count them).
 */
#ifndef CHARIOT_BOARD_H
#define CHARIOT_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------- squares */

enum { FILE_NB = 9, RANK_NB = 10, SQ_NB = 90, SQ_NONE = 0xFF };

/* sq % FILE_NB and sq / FILE_NB for every value of a byte (SQ_NONE too):
 * generation, make and the evaluation ask at every node, and a load is
 * cheaper than a division by 9. */
extern const uint8_t BOARD_SQ_FILE[256];
extern const uint8_t BOARD_SQ_RANK[256];

static inline int sq_make(int file, int rank) { return rank * FILE_NB + file; }

/* A set of squares as two words (90 squares). */
typedef struct SqSet {
    uint64_t w[2];
} SqSet;

static inline void sqset_add(SqSet *s, int sq) { s->w[sq >> 6] |= 1ull << (sq & 63); }
static inline bool sqset_has(const SqSet *s, int sq) { return (s->w[sq >> 6] >> (sq & 63)) & 1; }
static inline int sq_file(int sq) { return BOARD_SQ_FILE[sq]; }
static inline int sq_rank(int sq) { return BOARD_SQ_RANK[sq]; }

/* ----------------------------------------------------------------- pieces */

enum { RED = 0, BLACK = 1 };

enum {
    PT_NONE = 0,
    KING = 1,     /* 帅/将 */
    ADVISOR = 2,  /* 仕/士 */
    ELEPHANT = 3, /* 相/象 */
    HORSE = 4,    /* 马 */
    ROOK = 5,     /* 车 */
    CANNON = 6,   /* 炮 */
    PAWN = 7,     /* 兵/卒 */
    PT_NB = 8
};

/* A piece is type | color << 3; 0 is an empty square. Red 1..7, Black 9..15. */
typedef uint8_t Piece;
enum { PIECE_NONE = 0, PIECE_NB = 16 };

static inline Piece piece_make(int color, int type) { return (Piece)(type | (color << 3)); }
static inline int piece_type(Piece p) { return p & 7; }
static inline int piece_color(Piece p) { return p >> 3; }

/* Piece-list slots per side are fixed by type, so a piece keeps its slot for
 * the whole game (the repetition judge uses slots to follow a chased piece):
 * king 0, advisors 1-2, elephants 3-4, horses 5-6, rooks 7-8, cannons 9-10,
 * pawns 11-15. */
enum { SLOT_NB = 16 };
/* The same layout as compile-time constants, for the loops that unroll over
 * a type's slots (BOARD_SLOT_FIRST and BOARD_SLOT_COUNT below hold it for
 * every type; eval_init asserts that the two agree). */
enum {
    SLOT_HORSE = 5, SLOT_ROOK = 7, SLOT_CANNON = 9, SLOT_PAWN = 11,
    SLOTS_PER_PIECE = 2, SLOTS_PAWN = 5
};
extern const uint8_t BOARD_SLOT_FIRST[PT_NB];
extern const uint8_t BOARD_SLOT_COUNT[PT_NB];

/* ------------------------------------------------------------------ moves */

/* A move packs from | to << 7. MOVE_NONE (0) means "no move"; MOVE_NULL is the
 * pass used by null-move pruning. Neither is ever a legal board move. */
typedef uint16_t Move;
enum { MOVE_NONE = 0, MOVE_NULL = 1 | (1 << 7) };

static inline Move move_make(int from, int to) { return (Move)(from | (to << 7)); }
static inline int move_from(Move m) { return m & 0x7F; }
static inline int move_to(Move m) { return (m >> 7) & 0x7F; }

/* More than the largest possible number of pseudo-legal moves (119). */
enum { MAX_MOVES = 144 };

typedef struct MoveList {
    int count;
    Move moves[MAX_MOVES];
} MoveList;

typedef enum GenType {
    GEN_ALL,      /* every legal move */
    GEN_CAPTURES, /* legal captures only */
    GEN_QUIETS,   /* legal non-captures only */
    GEN_EVASIONS, /* legal moves when in check (same set as GEN_ALL then) */
    GEN_QUIET_CHECKS, /* legal non-captures that give check, in GEN_QUIETS order */
    GEN_QUIET_CHECKS_PSEUDO /* the same before the legality test: each may still leave
                               the own general attacked (board_is_legal tells) */
} GenType;

/* -------------------------------------------------------- position, state */

/* Longest history a Board holds: game plies plus search plies. Callers that
 * apply long move lists call board_compact_history() to keep room. */
enum { BOARD_HIST_MAX = 1024 };

/* The natural limit: 60 moves (120 plies) without a capture is a draw. */
enum { BOARD_RULE60_PLIES = 120 };

/* The chased-set of a history entry is computed lazily by the repetition
 * judge; this marks "not computed yet". */
enum { CHASE_UNKNOWN = 0xFFFF };

/* One entry per position in the game and the search path. hist[0] is the
 * starting position (move MOVE_NONE); hist[k] the position after the k-th move. */
typedef struct HistEntry {
    uint64_t key;     /* Zobrist key of the position */
    int32_t psq;      /* eval's incremental psq sum of this position */
    Move move;        /* move that led here (MOVE_NONE at hist[0], MOVE_NULL for a pass) */
    Piece captured;   /* piece captured by that move, PIECE_NONE if none */
    uint8_t captured_slot; /* its piece-list slot, to restore it on unmake */
    uint8_t check;    /* the side to move here is in check (the move gave check) */
    uint16_t chased;  /* slots of the opponent's pieces newly chased by the move, or CHASE_UNKNOWN */
    uint16_t rule60;  /* plies since the last capture, for the natural limit */
} HistEntry;

/* The eval module's incremental table: a packed score (see eval/) per piece
 * and square. The board only adds and subtracts entries; it never reads them. */
typedef int32_t BoardPsqTable[PIECE_NB][SQ_NB];

/* Structure keys: besides the position's Zobrist key the board keeps one key
 * of the pawns (both sides), one per side of its guards (general, advisors and
 * elephants) and one per side of its attackers (horses, rooks and
 * cannons), for tables that learn per pawn, king-shelter or attacking
 * structure. A piece's term depends on its code and square only. */
enum {
    BOARD_STRUCT_PAWNS = 0,
    BOARD_STRUCT_RED_GUARDS = 1,
    BOARD_STRUCT_BLACK_GUARDS = 2,
    BOARD_STRUCT_RED_ATTACKERS = 3,
    BOARD_STRUCT_BLACK_ATTACKERS = 4,
    BOARD_STRUCT_NB = 5
};

typedef struct Board {
    Piece sq[SQ_NB];               /* the 9x10 mailbox */
    uint8_t slot[SQ_NB];           /* square -> piece-list slot of the piece on it */
    uint8_t plist[2][SLOT_NB];     /* slot -> square, SQ_NONE when empty */
    uint16_t rank_occ[RANK_NB];    /* bit f set when square (f, r) is occupied */
    uint16_t file_occ[FILE_NB];    /* bit r set when square (f, r) is occupied */
    uint8_t count[PIECE_NB];       /* pieces on the board per piece code */
    int side;                      /* side to move, RED or BLACK */
    int fullmove;                  /* FEN move number (starts at 1, grows after Black moves) */
    uint64_t key;                  /* incremental Zobrist key (includes side) */
    uint64_t struct_key[BOARD_STRUCT_NB]; /* incremental structure keys, see BOARD_STRUCT_PAWNS */
    int material[2];               /* incremental attacking material, BOARD_MATERIAL units */
    int32_t psq;                   /* incremental sum of psq_table entries */
    const BoardPsqTable *psq_table;/* never NULL; all zeros until board_set_psq() */
    int ply;                       /* index of the current entry in hist[] */
    HistEntry hist[BOARD_HIST_MAX];
} Board;

/* Attacking material per piece type, used by the search's NullMoveOkay and
 * NullMoveSafe (advisors, elephants and the king count nothing). */
extern const int BOARD_MATERIAL[PT_NB];

/* Piece values used by SEE and by chase/protection judgements. */
extern const int BOARD_SEE_VALUE[PT_NB];

/* ------------------------------------------------------------- lifecycle */

/* Fills the read-only tables (Zobrist keys, slider and leaper tables).
 * Call before anything else; it is thread-safe and fills them only once. */
void board_init(void);

/* Parses a FEN. On success fills *b (with the all-zero psq table: call
 * board_set_psq() to install eval's) and returns true. On failure leaves *b
 * untouched, writes a one-line reason to err and returns false. Accepts
 * RNBAKCP, the aliases E (elephant) and H (horse), side w/r/b, missing
 * counters, and the word "startpos". */
bool board_from_fen(Board *b, const char *fen, char *err, size_t errlen);
void board_startpos(Board *b);
/* Canonical FEN, with the rule60 counter as half-move clock. */
void board_to_fen(const Board *b, char *out, size_t outlen);
extern const char *const BOARD_START_FEN;

/* Installs eval's incremental table and recomputes b->psq from scratch. */
void board_set_psq(Board *b, const BoardPsqTable *table);

/* Recomputes everything incremental from the mailbox and checks it.
 * Returns true when consistent; otherwise writes the first problem to err. */
bool board_validate(const Board *b, char *err, size_t errlen);

/* ------------------------------------------------------- make and unmake */

/* Plays a legal move (the caller guarantees legality). */
void board_make(Board *b, Move m);
void board_unmake(Board *b);
void board_make_null(Board *b);
void board_unmake_null(Board *b);
/* Drops the oldest history entries that no rule can need any more (those
 * before the last capture or null move), keeping b->hist[b->ply] current. */
void board_compact_history(Board *b);

/* ------------------------------------------------------------- queries */

static inline int board_king_sq(const Board *b, int color) { return b->plist[color][0]; }
static inline bool board_in_check(const Board *b) { return b->hist[b->ply].check != 0; }
static inline Move board_last_move(const Board *b) { return b->hist[b->ply].move; }
static inline int board_rule60(const Board *b) { return b->hist[b->ply].rule60; }

/* True when a piece of color `by` attacks square sq (the flying general
 * counts only when sq holds the other general). */
bool board_is_attacked(const Board *b, int sq, int by);
/* The points the side not to move attacks with its cheaper pieces, for
 * move ordering: `below_minor` by its pawns, advisors and elephants (any of
 * them trades down against a horse or cannon), `below_rook` by those and its
 * horses and cannons. A cannon attacks every point past its screen up to
 * the next piece, so an empty point there counts. The sets are read off
 * the board as it stands; a move that opens or closes a line changes them,
 * which move ordering can ignore. */
typedef struct BoardThreats {
    SqSet below_minor, below_rook;
} BoardThreats;
void board_threats(const Board *b, BoardThreats *t);
/* True when the legal move m gives check. */
bool board_gives_check(const Board *b, Move m);
/* For testing many moves of one position for check: the squares a move must
 * leave (`from`) or reach (`to`) to have any chance of checking the general
 * of the side not to move. A move that touches neither gives no check;
 * one that does still needs board_gives_check(). */
typedef struct BoardCheckFilter {
    SqSet from, to;
} BoardCheckFilter;
void board_check_filter(const Board *b, BoardCheckFilter *f);
/* The same filter cut down to this position: `from` holds only the squares
 * whose piece would uncover a check by leaving, `to` only the points from
 * which some piece checks (or becomes a cannon's screen), by the
 * occupancy of the general's lines. For quiet moves only, and it costs a
 * scan of those lines: for testing many quiet moves of one position. */
void board_check_filter_quiet(const Board *b, BoardCheckFilter *f);
static inline bool board_may_give_check(const BoardCheckFilter *f, Move m)
{
    return sqset_has(&f->from, move_from(m)) || sqset_has(&f->to, move_to(m));
}
/* True when m is a legal move in this position, whatever its source
 * (hash table, killer slot, user input). */
bool board_is_legal(const Board *b, Move m);
/* Static exchange evaluation of a capture (or quiet move) on its to-square,
 * in BOARD_SEE_VALUE units, from the mover's point of view. */
int board_see(const Board *b, Move m);
/* A floor under board_see: the mover wins its victim (none: 0) and can lose
 * no more than itself, since it may stop after any recapture. Where the
 * floor settles a comparison, the exchange need not be computed. */
static inline int board_see_floor(const Board *b, Move m)
{
    return BOARD_SEE_VALUE[piece_type(b->sq[move_to(m)])] - BOARD_SEE_VALUE[piece_type(b->sq[move_from(m)])];
}
/* board_see(b, m) >= threshold, by an exchange that stops once the answer
 * is known (board_see_ge's slow path). */
bool board_see_reaches(const Board *b, Move m, int threshold);
/* Whether board_see(b, m) >= threshold, computing the exchange only where
 * the floor leaves the answer open. */
static inline bool board_see_ge(const Board *b, Move m, int threshold)
{
    return board_see_floor(b, m) >= threshold || board_see_reaches(b, m, threshold);
}
/* board_see_ge(before, m, threshold) for the move m just made (b is the
 * board after it, m not a null move), without unmaking it. */
bool board_see_ge_made(const Board *b, int threshold);
static inline bool board_is_capture(const Board *b, Move m) { return b->sq[move_to(m)] != PIECE_NONE; }
/* The Zobrist key the position would have after m, without making it. */
uint64_t board_key_after(const Board *b, Move m);
/* The Zobrist key after a null move (the side to move passes). */
uint64_t board_key_after_null(const Board *b);
/* The natural-limit counter after m: 0 after a capture, one more otherwise. */
static inline int board_rule60_after(const Board *b, Move m) { return board_is_capture(b, m) ? 0 : board_rule60(b) + 1; }

/* ----------------------------------------------------------- generation */

/* Appends the legal moves of the given kind to list (list->count is reset). */
void board_generate(const Board *b, GenType type, MoveList *list);
/* Number of legal moves; cheaper than generating. */
int board_count_legal(const Board *b);
/* Whether the side to move has any legal move (stops at the first). */
bool board_has_legal_move(const Board *b);
uint64_t board_perft(Board *b, int depth);

/* ----------------------------------------------------------- game state */

typedef enum RepVerdict {
    REP_NONE = 0, /* no repetition */
    REP_DRAW,     /* repetition, nobody (or both) at fault */
    REP_WIN,      /* the side to move wins: the opponent checked or chased perpetually */
    REP_LOSS      /* the side to move loses: it checked or chased perpetually */
} RepVerdict;

/* Judges a repetition of the current position under the Asian rules:
 * perpetual check loses, perpetual chase (of an unprotected piece, or of a
 * rook by a horse or cannon) loses, check outranks chase, both or neither at
 * fault is a draw. A repetition counts when the position occurred once at or
 * after ply `root_ply` (inside a search tree), or `before_root_count` times
 * before it. The arbiter uses root_ply = b->ply + 1 and a count of 2
 * (third occurrence). Takes a non-const board because it replays the cycle
 * to find chases; the board is restored exactly. */
RepVerdict board_repetition(Board *b, int root_ply, int before_root_count);
/* False when the position after m cannot repeat an earlier one (its key is
 * not among the same-side positions since the last capture), so that
 * board_repetition would say REP_NONE there: lets callers skip making m. */
bool board_may_repeat_after(const Board *b, Move m);
/* The same, for callers that already hold board_key_after(b, m) and
 * board_rule60_after(b, m). */
bool board_may_repeat_key(const Board *b, uint64_t key_after, int rule60_after);

/* Neither side has a rook, horse, cannon or pawn. */
bool board_insufficient_material(const Board *b);

typedef enum GameResult {
    RESULT_NONE = 0, /* game goes on */
    RESULT_RED_WINS,
    RESULT_BLACK_WINS,
    RESULT_DRAW
} GameResult;

typedef enum GameReason {
    REASON_NONE = 0,
    REASON_CHECKMATE,
    REASON_STALEMATE,        /* no legal move while not in check: a loss */
    REASON_PERPETUAL_CHECK,
    REASON_PERPETUAL_CHASE,
    REASON_REPETITION,       /* plain repetition: draw */
    REASON_RULE60,
    REASON_INSUFFICIENT
} GameReason;

/* The arbiter's verdict on the current position of a game (third occurrence
 * for repetitions). Restores the board exactly. */
GameResult board_game_result(Board *b, GameReason *reason);
const char *board_reason_name(GameReason r);

/* ------------------------------------------------------------- notation */

/* ICCS coordinates: "h2e2". out needs 5 bytes. */
void move_to_iccs(Move m, char out[5]);
/* Parses 4 ICCS characters (also "H2-E2"); syntax only, no legality. */
Move move_from_iccs(const char *s);

/* WXF ("C2.5", "H8+7", "+R.1" for tandem pieces). out needs 8 bytes. */
bool board_move_to_wxf(const Board *b, Move m, char *out, size_t outlen);
/* Chinese, UTF-8 ("炮二平五", "马８进７", "前车进一"). out needs 32 bytes. */
bool board_move_to_chinese(const Board *b, Move m, char *out, size_t outlen);
/* Parses ICCS, WXF or Chinese; returns the legal move or MOVE_NONE when the
 * text is malformed, illegal or ambiguous. */
Move board_parse_move(const Board *b, const char *text);

/* Chinese name of a piece, UTF-8 ("帅", "卒"); "" for none. */
const char *board_piece_chinese(Piece p);
/* FEN letter of a piece ('R', 'n', ...); '.' for none. */
char board_piece_char(Piece p);

#endif
