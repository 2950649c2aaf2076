/* match.h — the tournament runner's parts (one game, openings, statistics, PGN),
 * shared by engine/match*.c and the match tests. */
#ifndef CHARIOT_MATCH_H
#define CHARIOT_MATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "board.h"
#include "client.h"

enum {
    MATCH_MAX_OPTIONS = 32,
    MATCH_MAX_PLAYERS = 16,
    MATCH_NAME_MAX = 64,
    MATCH_FEN_MAX = 128,
    MATCH_OPENING_MOVES_MAX = 64,
    MATCH_REASON_MAX = 160,
    MATCH_SHARDS_MAX = 100000 /* -shard I/N: the largest N */
};

/* ------------------------------------------------------------- players */

typedef struct MatchOption {
    char name[64];
    char value[256];
} MatchOption;

/* A player's limits. A clock (base_ms >= 0) wins over movetime; depth and
 * nodes may be added to either or used alone. */
typedef struct MatchTc {
    int64_t base_ms;     /* clock at the start and of every period; -1: no clock */
    int64_t inc_ms;      /* increment per move */
    int moves;           /* moves per period (tc=40/60), 0: whole game */
    int64_t movetime_ms; /* st=: fixed time per move; -1: none */
    int depth;           /* 0: none */
    int64_t nodes;       /* 0: none */
} MatchTc;

typedef struct MatchPlayer {
    char name[MATCH_NAME_MAX];
    char cmd[1024]; /* command line, split like a shell would (quotes, backslash) */
    char dir[512];  /* working directory, "" for the current one */
    ClientProto proto;
    MatchOption options[MATCH_MAX_OPTIONS];
    int option_count;
    MatchTc tc;
    bool ponder; /* ponder=true: thinks on the opponent's clock (`go ponder`, then `ponderhit` or `stop`) */
} MatchPlayer;

/* Parses "10+0.1", "40/60", "40/60+1", "1:30+1", "inf"; false when malformed.
 * Only touches base_ms, inc_ms and moves. */
bool match_tc_parse(const char *s, MatchTc *tc);
void match_tc_init(MatchTc *tc);
/* "10+0.1", "st=0.5", "depth=8" ... for headers and tables. */
void match_tc_describe(const MatchTc *tc, char *out, size_t outlen);

/* ------------------------------------------------------------ openings */

typedef struct MatchOpening {
    char fen[MATCH_FEN_MAX]; /* the starting FEN of the opening */
    bool startpos;           /* fen is the standard start position */
    int count;               /* book moves played from fen */
    Move moves[MATCH_OPENING_MOVES_MAX];
} MatchOpening;

typedef struct MatchBook {
    MatchOpening *items;
    int count;
} MatchBook;

/* One line of an opening file: a FEN or EPD (extra EPD operations are
 * ignored), optionally followed by `moves m1 m2 ...`, or a list of ICCS moves
 * from the start ("h2e2 h9g7" or "H2-E2 H9-G7"). Every move must be legal. */
bool match_opening_parse(const char *line, MatchOpening *op, char *err, size_t errlen);
/* Loads a file: one opening per line, blank lines and `#` comments skipped.
 * On failure names the line. */
bool match_book_load(MatchBook *book, const char *path, char *err, size_t errlen);
/* Openings walked from an ElephantEye BOOK.DAT: every line of book moves
 * from the start position, `plies` deep or until the book ends, following
 * only moves with at least MATCH_BOOK_MIN_SHARE percent of the heaviest
 * move's weight at their node (rare sidelines are no test of strength). At
 * most MATCH_BOOK_MAX_LINES lines, in a fixed order. */
enum { MATCH_BOOK_PLIES_DEFAULT = 6, MATCH_BOOK_MIN_SHARE = 10, MATCH_BOOK_MAX_LINES = 100000 };
bool match_book_from_bookdat(MatchBook *book, const char *path, int plies, char *err, size_t errlen);
/* The built-in book: the 60 positions of tests/data/openings.fen. */
bool match_book_default(MatchBook *book);
extern const char *const MATCH_DEFAULT_OPENINGS[];
extern const int MATCH_DEFAULT_OPENING_COUNT;
void match_book_shuffle(MatchBook *book, uint64_t seed);
void match_book_free(MatchBook *book);

/* ---------------------------------------------------------------- games */

typedef struct MatchAdjudication {
    int resign_movecount; /* 0: off */
    int resign_score;     /* centipawns */
    bool resign_twosided;
    int draw_movenumber;
    int draw_movecount;   /* 0: off */
    int draw_score;
    int maxplies;         /* 0: off */
} MatchAdjudication;

typedef struct MatchGameConfig {
    const MatchPlayer *player[2];  /* [RED], [BLACK] */
    ClientProto proto[2];          /* dialect to use (AUTO: detect) */
    const MatchOpening *opening;   /* NULL: the start position */
    int64_t timemargin_ms;         /* grace before a late answer loses */
    int handshake_ms;              /* limit for start-up and isready */
    MatchAdjudication adj;
    bool banmoves;                 /* tell UCCI engines their losing repetitions */
    FILE *log;                     /* engine I/O copy, or NULL */
    const char *log_tag;           /* e.g. "[3] " */
    const volatile sig_atomic_t *stop;
} MatchGameConfig;

/* How a game ended. */
typedef enum MatchEnd {
    MATCH_END_NONE = 0,
    MATCH_END_RULES,       /* board_game_result: mate, no move, repetition, rule 60, material */
    MATCH_END_TIME,        /* no answer within the clock plus the margin */
    MATCH_END_ILLEGAL,     /* an illegal or malformed move */
    MATCH_END_CRASH,       /* the engine exited or closed its output */
    MATCH_END_NOMOVE,      /* nobestmove / bestmove (none) with legal moves left */
    MATCH_END_RESIGN,      /* bestmove ... resign */
    MATCH_END_ADJ_RESIGN,  /* -resign adjudication */
    MATCH_END_ADJ_DRAW,    /* -draw adjudication */
    MATCH_END_MAXPLIES,    /* -maxplies */
    MATCH_END_AGREED,      /* both engines offered a draw on consecutive moves */
    MATCH_END_START_FAIL,  /* an engine could not be started: the match stops */
    MATCH_END_ABORTED      /* stopped by the user */
} MatchEnd;

typedef struct MatchMoveRecord {
    Move move;
    bool book;
    bool has_score;
    int score;       /* mover's view, centipawns */
    int depth;
    int64_t time_ms; /* wall time the move took */
} MatchMoveRecord;

/* Depths above this count in the last bin of the depth histogram. */
enum { MATCH_DEPTH_BINS = 128 };

typedef struct MatchSideStats {
    int moves;          /* engine moves (not book) */
    int64_t depth_sum;  /* over moves that reported a depth */
    int depth_count;
    int depth_hist[MATCH_DEPTH_BINS]; /* moves per reported depth, for the median */
    int64_t nodes;      /* over moves that reported nodes */
    int64_t node_time_ms; /* wall time of those moves */
    int64_t time_ms;    /* all thinking time */
    double cpu_seconds; /* CPU time of the engine process */
    int ponders;        /* ponder searches that met the opponent's move */
    int ponder_hits;    /* of those, the ones it had guessed */
} MatchSideStats;

typedef struct MatchGame {
    char start_fen[MATCH_FEN_MAX]; /* FEN before the first (book) move */
    bool startpos;
    char name[2][MATCH_NAME_MAX];
    time_t started;
    GameResult result;
    MatchEnd end;
    GameReason rule_reason; /* for MATCH_END_RULES */
    int loser;              /* RED, BLACK, or -1 */
    char reason[MATCH_REASON_MAX];
    MatchMoveRecord *moves;
    int plies;
    int cap;
    MatchSideStats side[2];
    ClientProto proto[2];   /* dialect each engine actually spoke */
} MatchGame;

/* Plays one game under the rules; the result is in *g (free with
 * match_game_free). Returns false only when the game could not be set up
 * (bad opening or an engine that would not start; g->reason says why). */
bool match_play_game(const MatchGameConfig *cfg, MatchGame *g);
void match_game_free(MatchGame *g);
/* Appends a move to the record (used by the game loop and the tests). */
bool match_game_push(MatchGame *g, const MatchMoveRecord *rec);

const char *match_result_string(GameResult r); /* "1-0", "0-1", "1/2-1/2", "*" */
const char *match_end_name(MatchEnd e);        /* short machine name, e.g. "time" */

/* Moves a UCCI engine must not play: each would repeat a position where the
 * mover is the one perpetually checking or chasing. Never all moves. */
int match_banned_moves(Board *b, Move *out, int cap);

/* ---------------------------------------------------------- statistics */

typedef struct MatchElo {
    double score;  /* mean score, 0..1 */
    double elo;    /* logistic Elo difference */
    double error;  /* half width of the 95% interval, in Elo */
    double lo, hi; /* the 95% interval */
    bool valid;    /* false with no games or an all-win/all-loss record */
} MatchElo;

/* Elo from W/D/L (trinomial: game by game). */
MatchElo match_elo_trinomial(int wins, int draws, int losses);
/* Elo from game pairs: penta[k] pairs scored k/2 points (k = 0..4). */
MatchElo match_elo_pentanomial(const int penta[5]);
/* Likelihood of superiority, 0..1. */
double match_los(int wins, int losses);
/* Generalized SPRT log-likelihood ratio for H1: elo1 against H0: elo0
 * (logistic Elo), from the MLE of the result distribution constrained to each
 * hypothesis' mean score (empty cells get a tiny count, as fishtest does). */
double match_sprt_llr_trinomial(int wins, int draws, int losses, double elo0, double elo1);
double match_sprt_llr_pentanomial(const int penta[5], double elo0, double elo1);
/* Wald bounds: lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha). */
void match_sprt_bounds(double alpha, double beta, double *lower, double *upper);
double match_elo_to_score(double elo);
double match_score_to_elo(double score);

/* ------------------------------------------------------------------ PGN */

typedef enum MatchPgnFormat { MATCH_PGN_ICCS = 0, MATCH_PGN_WXF } MatchPgnFormat;

typedef struct MatchPgnInfo {
    const char *event;
    const char *site;
    int round;
    const char *time_control; /* NULL: no tag */
} MatchPgnInfo;

/* Writes one game. Moves come with {score/depth time} comments; the last
 * comment says how the game ended. */
bool match_pgn_write(FILE *f, const MatchGame *g, const MatchPgnInfo *info, MatchPgnFormat fmt);

enum { MATCH_PGN_TAGS_MAX = 24, MATCH_PGN_MOVES_MAX = 4096 };

typedef struct MatchPgnGame {
    int tag_count;
    char tag_name[MATCH_PGN_TAGS_MAX][32];
    char tag_value[MATCH_PGN_TAGS_MAX][256];
    char fen[MATCH_FEN_MAX]; /* from [FEN], else the start position */
    int count;
    Move moves[MATCH_PGN_MOVES_MAX];
    char result[16];         /* the game termination marker */
    char last_comment[MATCH_REASON_MAX];
} MatchPgnGame;

/* Reads the next game of our own PGN (ICCS "H2-E2" or WXF moves), replaying
 * every move on a board: returns 1 for a game, 0 at the end of the file, -1 on
 * a malformed game or an illegal move (err says where). */
int match_pgn_read(FILE *f, MatchPgnGame *out, char *err, size_t errlen);
const char *match_pgn_tag(const MatchPgnGame *g, const char *name);

/* --------------------------------------------------------------- JSON */

/* Writes s as a JSON string literal (with quotes). */
void match_json_string(FILE *f, const char *s);

/* ------------------------------------------------------------ JSON reader */

typedef enum MatchJsonType {
    MATCH_JSON_NULL = 0,
    MATCH_JSON_BOOL,
    MATCH_JSON_NUMBER,
    MATCH_JSON_STRING,
    MATCH_JSON_ARRAY,
    MATCH_JSON_OBJECT
} MatchJsonType;

/* One value of a parsed document. Containers keep their items as a list
 * (child, then next); object members carry their key. Numbers keep their
 * text, so integers and doubles read back exactly as written. */
typedef struct MatchJson {
    MatchJsonType type;
    char *key;
    char *str; /* a string's text, a number's text */
    bool boolean;
    struct MatchJson *child, *next;
    size_t start, end; /* the value's bytes in the source text */
} MatchJson;

/* Parses a whole document; NULL with err set (and the offset) on bad input. */
MatchJson *match_json_parse(const char *text, size_t len, char *err, size_t errlen);
void match_json_free(MatchJson *v);
const MatchJson *match_json_get(const MatchJson *obj, const char *key);
const MatchJson *match_json_at(const MatchJson *arr, int index);
bool match_json_ll(const MatchJson *v, long long *out);
bool match_json_double(const MatchJson *v, double *out);
const char *match_json_str(const MatchJson *v);
/* Same type and value; object members must come in the same order. */
bool match_json_equal(const MatchJson *a, const MatchJson *b);
/* The whole file, NUL-terminated (malloc'ed), or NULL. */
char *match_file_read(const char *path, size_t *len);

/* ------------------------------------------------------------ summaries */

typedef struct MatchSprt {
    bool on;
    double elo0, elo1, alpha, beta;
} MatchSprt;

/* One finished game with everything the statistics need, so that a summary
 * can be rebuilt from records alone: after a restart (from the journal) and
 * when shards are merged. */
typedef struct MatchRecord {
    int number;  /* 1-based game number in the whole (unsharded) match */
    int p[2];    /* player index playing red, black */
    int opening; /* 0-based index in the (possibly shuffled) book */
    int pair;    /* colour-swapped game pair of two players, -1 if unpaired */
    GameResult result;
    MatchEnd end;
    int loser;   /* RED, BLACK or -1 */
    int plies;
    char reason[MATCH_REASON_MAX];
    MatchSideStats side[2];
    ClientProto proto[2]; /* dialect each engine spoke */
} MatchRecord;

typedef struct MatchTotals {
    int games, wins, draws, losses;
    int time_losses, illegal, crashes, nomoves;
    int64_t depth_sum, depth_count, nodes, node_time_ms, think_ms, moves;
    int64_t depth_hist[MATCH_DEPTH_BINS];
    double cpu_seconds;
    int64_t ponders, ponder_hits;
} MatchTotals;

/* Everything the final table, the SPRT and the JSON are computed from. A live
 * run, a resumed run and a merge all fill it through match_summary_add, in
 * that one order of operations, so equal records give equal figures. */
typedef struct MatchSummary {
    int player_count;
    char name[MATCH_MAX_PLAYERS][MATCH_NAME_MAX];
    char cmd[MATCH_MAX_PLAYERS][1024];
    char tc_text[MATCH_MAX_PLAYERS][64];
    ClientProto proto[MATCH_MAX_PLAYERS]; /* as configured; AUTO until a game shows the dialect */
    MatchSprt sprt;
    bool paired;     /* games come in colour-swapped pairs: pentanomial statistics */
    int pair_count;
    int *pair_points; /* half points of player 0 per pair */
    int *pair_games;
    MatchTotals totals[MATCH_MAX_PLAYERS];
    int vs[MATCH_MAX_PLAYERS][MATCH_MAX_PLAYERS][3]; /* [i][j]: wins, draws, losses of i against j */
    int penta[5];
    int pairs_done;
    int finished;
    int aborted;
    double llr;
    bool sprt_done;  /* a bound was crossed (latched at the first crossing) */
    char sprt_verdict[32];
    /* The LLR and the count (pairs, or games when unpaired) at that
     * crossing: games already in flight are still booked afterwards, and
     * may pull the final LLR back inside the bounds. */
    double llr_at_decision;
    int decided_after;
    MatchRecord *records; /* in the order they were added */
    int record_count, record_cap;
} MatchSummary;

/* Sets up an empty summary; false when out of memory. */
bool match_summary_init(MatchSummary *s, int pair_count);
void match_summary_free(MatchSummary *s);
/* Books one finished game: totals, pairs, SPRT. */
bool match_summary_add(MatchSummary *s, const MatchRecord *rec);
/* Builds the record of a finished game. */
void match_record_from_game(MatchRecord *rec, int number, const int p[2], int opening, int pair, const MatchGame *g);
/* The final table (results, Elo, pairs, LOS, SPRT, per-engine rows). */
void match_summary_print(const MatchSummary *s, double runner_cpu);
/* The live SPRT line printed after each game. */
void match_summary_print_sprt(const MatchSummary *s);
/* Median of the depths reported per move (the lower median), 0 if none. */
int match_totals_median_depth(const MatchTotals *t);

/* The "format" of our JSON summaries; match-merge reads only this one. */
#define MATCH_JSON_FORMAT "chariot-match 2"

/* What a JSON summary says besides the statistics: where it comes from. */
typedef struct MatchJsonMeta {
    const char *event;
    const char *config;      /* the configuration object, rendered on one line */
    const char *config_hash; /* 16 hex digits of its FNV-1a hash */
    int shard_index;         /* -1 for a merge */
    int shard_count;
    int total_games;         /* games of the whole match */
    int expected_games;      /* games this file should hold (its shard, or all) */
    const char *shards_merged;  /* merge: "[0, 1, 3]" */
    const char *shards_missing; /* merge: "[2]" */
    bool partial;
    bool interrupted;
    const char *pgn;         /* the PGN file, or NULL */
    long long pgn_offset;    /* where this run's games start in it */
    double runner_cpu;
} MatchJsonMeta;

bool match_summary_write_json(const MatchSummary *s, const MatchJsonMeta *meta, const char *path);
/* One record as a JSON object on one line (no newline): the journal's lines and
 * the "games" items. */
void match_record_write_json(FILE *f, const MatchSummary *s, const MatchRecord *rec);
/* Reads a record back; players are checked against player_count. */
bool match_record_from_json(const MatchJson *v, int player_count, MatchRecord *rec, char *err, size_t errlen);
/* 64-bit FNV-1a, for the configuration fingerprint and the openings file. */
uint64_t match_fnv1a(uint64_t h, const void *data, size_t len);
#define MATCH_FNV_BASIS UINT64_C(0xcbf29ce484222325)

/* ------------------------------------------------------- journal, shards */

/* The first line of a progress journal: which match and shard it belongs to,
 * and where this run's games start in the PGN. */
typedef struct MatchJournalHeader {
    char config_hash[24];
    int games;              /* the -games the hash was made with; 0 in journals older than the field */
    int shard_index, shard_count;
    char pgn[512];          /* "" without -pgnout */
    long long pgn_offset;   /* size of the PGN file when the journal was made */
} MatchJournalHeader;

/* Starts a journal (truncating any old one) with its header line. */
FILE *match_journal_create(const char *path, const MatchJournalHeader *h);
/* Appends one finished game as a line, flushed and synced. */
bool match_journal_append(FILE *f, const MatchSummary *s, const MatchRecord *rec);
/* Reads a journal back: 0 no journal (or not even a whole header), 1 read
 * (records malloc'ed in *recs), -1 corrupt (err says where). A torn last
 * line, left by a kill in the middle of a write, is cut off the file. */
int match_journal_load(const char *path, int player_count, MatchJournalHeader *h, MatchRecord **recs, int *count,
                       char *err, size_t errlen);

/* One game's text in a PGN file: from its [Event] line to the next one. */
typedef struct MatchPgnBlock {
    size_t start, len;
    int round;     /* [Round], which the runner sets to the game number; -1 if none */
    bool complete; /* ends with the blank line our writer puts after every game */
} MatchPgnBlock;

/* Splits PGN text into games; returns the count (blocks malloc'ed), -1 when out of memory. */
int match_pgn_blocks(const char *text, size_t len, MatchPgnBlock **out);
/* Rewrites path so that from offset on it holds exactly one complete copy of
 * each listed game (by Round), in file order, and nothing else: drops torn,
 * unjournaled and duplicate games. Returns how many listed games it lacks,
 * or -1 on error. */
int match_pgn_keep_games(const char *path, long long offset, const int *numbers, int count, char *err, size_t errlen);

#endif
