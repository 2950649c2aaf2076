/* solve.h — the pieces of `chariot solve` shared by engine/solve*.c: puzzles
 * read from EPD lines, per-puzzle outcomes, and the report writers. */
#ifndef CHARIOT_SOLVE_H
#define CHARIOT_SOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "board.h"
#include "search.h"

enum {
    SOLVE_FEN_MAX = 128,           /* a canonical FEN is at most ~110 bytes */
    SOLVE_ID_MAX = 96,             /* longer ids are truncated */
    SOLVE_BM_MAX = 32,             /* listed best moves per puzzle */
    SOLVE_MATE_MAX = (MAX_PLY - 1) / 2 /* longest mate the search can express */
};

/* One puzzle: a position and what a correct answer looks like. */
typedef struct SolvePuzzle {
    int line;                 /* 1-based line in the EPD file; 0 for a command-line FEN */
    char fen[SOLVE_FEN_MAX];  /* canonical FEN (board_to_fen of the parsed position) */
    char id[SOLVE_ID_MAX];    /* the `id` field, or "line N" / "fen" when there is none */
    int mate;                 /* `mate N` (or `dm N`): the side to move mates in N; 0 when absent */
    int bm_count;             /* `bm` moves, already checked legal */
    Move bm[SOLVE_BM_MAX];
} SolvePuzzle;

typedef enum SolveLineKind {
    SOLVE_LINE_PUZZLE,        /* *p is filled */
    SOLVE_LINE_SKIP,          /* blank line or # comment */
    SOLVE_LINE_BAD            /* malformed: err holds the reason, *p is unspecified */
} SolveLineKind;

/* Parses one EPD line: `<FEN> ; mate N ; bm m1 m2 ; id "x"`, the operations in
 * any order, unknown opcodes ignored. The classic EPD form with the first
 * operation right after the four FEN fields (`... w - - bm h2e2; id "x";`) is
 * accepted too. Moves may be ICCS, WXF or Chinese. */
SolveLineKind solve_epd_parse(const char *line, int lineno, SolvePuzzle *p, char *err, size_t errlen);

/* Parses the position part alone (used for the FEN on the command line and by
 * solve_epd_parse): board_from_fen plus the checks a puzzle needs (the side
 * not to move must not be in check). */
bool solve_parse_position(Board *b, const char *fen, char *err, size_t errlen);

/* What the search made of one puzzle. */
typedef struct SolveOutcome {
    SearchResult result;
    int64_t time_ms;          /* wall time of the whole search */
    int64_t solve_ms;         /* when a correct answer first appeared; -1 if not solved */
    bool scored;              /* the puzzle has a `mate` or `bm` target */
    bool solved;
    bool best_in_bm;          /* the root move is one of the listed bm moves */
    int pv_legal;             /* how many PV moves replay legally from the root */
    bool pv_mates;            /* the PV reaches a position where the loser has no legal move */
} SolveOutcome;

/* Run-wide settings echoed into the reports. */
typedef struct SolveSettings {
    int64_t movetime_ms;      /* 0: none */
    int depth;                /* 0: none */
    uint64_t nodes;           /* 0: none */
    int threads;
    int hash_mb;
} SolveSettings;

/* ---- solve_report.c: text and JSON output */

/* Formats a score: "mate in 3", "mated in 2", "rule win in 5 plies", "+35 cp". */
void solve_format_score(int score, char *out, size_t outlen);
/* The board diagram with Chinese pieces, file numbers on both sides and rank labels. */
void solve_print_board(FILE *f, const Board *b, bool color);
/* The main line in ICCS, WXF and Chinese, one ply per line, replayed on a copy of *root. */
void solve_print_line(FILE *f, const Board *root, const Move *pv, int pv_len);
/* The text after the expected/found columns of a file run. */
void solve_format_expected(const SolvePuzzle *p, char *out, size_t outlen);
void solve_format_found(const SolveOutcome *o, char *out, size_t outlen);
/* Milliseconds as "1.234s". */
void solve_format_seconds(int64_t ms, char *out, size_t outlen);

/* Totals over a run. Only puzzles with a target count as solved or failed. */
typedef struct SolveSummary {
    int total;                /* puzzles with a target */
    int solved;
    int within_1s;            /* solved with a solve time <= 1000 ms */
    int unscored;             /* puzzles without a target (analysed only) */
    int64_t median_ms;        /* median solve time of the solved ones; -1 when none */
    int64_t p90_ms;           /* 90th percentile (nearest rank) of the same; -1 when none */
    int64_t time_ms;          /* summed search time */
    uint64_t nodes;
} SolveSummary;

void solve_summarize(const SolveOutcome *o, int n, SolveSummary *s);

/* A malformed line that was skipped, for the JSON report. */
typedef struct SolveSkipped {
    int line;
    char error[160];
} SolveSkipped;

/* Writes the JSON report. Returns false (with errno set by stdio) on a write error. */
bool solve_write_json(FILE *f, const SolveSettings *s, const SolvePuzzle *p, const SolveOutcome *o, int n,
                      const SolveSkipped *skipped, int skipped_count);

#endif
