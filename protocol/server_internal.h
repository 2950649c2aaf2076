/* server_internal.h — the engine-side protocol pieces shared by the server loop,
 * the line parser and the tests/fuzzers: the command struct, the parser API and
 * the server's tuning values. Not part of the public protocol.h contract. */
#ifndef CHARIOT_SERVER_INTERNAL_H
#define CHARIOT_SERVER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"

/* The version comes from project() in CMakeLists.txt, the one place it is set. */
#ifndef CHARIOT_VERSION
#error "CHARIOT_VERSION is set by the build (project VERSION in CMakeLists.txt)"
#endif

/* ------------------------------------------------------------- limits */

enum {
    /* Longest accepted command line. A whole game from the start position is a
     * few KB (5 bytes a move); anything past this is consumed and rejected. */
    UCCI_LINE_MAX = 65536,
    /* Longest FEN text (a real one is under 100 bytes). */
    UCCI_FEN_MAX = 256,
    /* Most moves one command may list (bounded by the line length). */
    UCCI_LIST_MAX = UCCI_LINE_MAX / 5 + 1,
    UCCI_NAME_MAX = 64,
    UCCI_VALUE_MAX = 1024,
    UCCI_ERR_MAX = 200,
    /* How much of a user's token an error message echoes back. */
    UCCI_ECHO_MAX = 40
};

/* ------------------------------------------------- server tuning values */

enum {
    /* Draw offer: our score stayed within +/-DRAW_OFFER_BAND for this many
     * counted searches in a row (the game is dead equal). */
    PROTO_DRAW_OFFER_BAND = 10,
    PROTO_DRAW_OFFER_MOVES = 30,
    /* Accepting the opponent's offer: our score must be at most this
     * (style solid adds PROTO_DRAW_STYLE_SHIFT, risky subtracts it). */
    PROTO_DRAW_ACCEPT_MAX = 0,
    PROTO_DRAW_STYLE_SHIFT = 30,
    /* Resign: below -threshold for this many counted searches in a row. */
    PROTO_RESIGN_MOVES = 4,
    PROTO_RESIGN_DEFAULT = 1500,
    PROTO_RESIGN_MAX = 10000,
    /* The history kept for the search: leave room for its plies and nulls. */
    PROTO_HIST_LIMIT = BOARD_HIST_MAX - 2 * 128
};

/* ------------------------------------------------------------ commands */

typedef enum UcciCmdType {
    UCCI_CMD_EMPTY = 0,   /* blank line: nothing to do, nothing to say */
    UCCI_CMD_ERROR,       /* malformed: print err, change nothing */
    UCCI_CMD_IGNORE,      /* known but meaningless here (UCI debug/register) */
    UCCI_CMD_UCCI,
    UCCI_CMD_UCI,
    UCCI_CMD_ISREADY,
    UCCI_CMD_SETOPTION,
    UCCI_CMD_UCINEWGAME,
    UCCI_CMD_POSITION,    /* also the bare `fen ...` / `startpos ...` lines */
    UCCI_CMD_BANMOVES,
    UCCI_CMD_GO,
    UCCI_CMD_PONDERHIT,
    UCCI_CMD_STOP,
    UCCI_CMD_PROBE,
    UCCI_CMD_QUIT
} UcciCmdType;

/* A `go` command as written; units are converted by the server, which knows
 * the dialect, the usemillisec setting and the side to move. */
typedef struct UcciGo {
    bool ponder, draw, infinite;
    int depth;               /* -1: not given */
    int64_t nodes;           /* -1: not given */
    int mate;                /* -1: not given */
    int64_t movetime;        /* ms, -1: not given */
    /* UCCI clock, in thousandths of the unit (seconds or ms), -1: not given. */
    int64_t time, increment, opptime, oppincrement;
    int movestogo, oppmovestogo; /* -1: not given */
    /* UCI clock, ms, -1: not given. */
    int64_t wtime, btime, winc, binc;
    bool searchmoves;        /* cmd->moves holds the UCI searchmoves list */
} UcciGo;

typedef struct UcciCommand {
    UcciCmdType type;
    /* For ERROR the reason; for GO and SETOPTION a non-fatal complaint (the
     * command still runs); "" otherwise. ASCII, one line. */
    char err[UCCI_ERR_MAX];
    /* POSITION / PROBE: startpos or fen[] (probe with neither: current position). */
    bool startpos;
    bool has_fen;
    char fen[UCCI_FEN_MAX];
    /* PONDERHIT draw */
    bool draw;
    /* SETOPTION: name normalised (lower case, no blanks/underscores/dashes), raw value. */
    char name[UCCI_NAME_MAX];
    bool has_value;
    char value[UCCI_VALUE_MAX];
    UcciGo go;
    /* POSITION/PROBE moves, BANMOVES, GO searchmoves: syntax-checked ICCS moves. */
    int move_count;
    Move moves[UCCI_LIST_MAX];
} UcciCommand;

/* Parses one line (len bytes, need not be NUL-terminated, may hold any byte)
 * into *cmd. Never fails: bad input yields UCCI_CMD_ERROR with a reason. */
void ucci_parse_line(const char *line, size_t len, UcciCommand *cmd);

/* Parses a 4-character ICCS move ("h2e2", also upper case); MOVE_NONE if bad. */
Move ucci_parse_move(const char *s, size_t n);

/* Copies at most UCCI_ECHO_MAX bytes of s into out (size >= UCCI_ECHO_MAX + 4)
 * with anything outside printable ASCII replaced by '?', for error messages. */
void ucci_echo(const char *s, size_t n, char *out);

/* An option name in lookup form: lower case with blanks, underscores and
 * dashes dropped. False when empty or longer than outlen - 1. */
bool ucci_normalise_name(const char *s, size_t n, char *out, size_t outlen);

/* Case-insensitive equality of a counted token and a C string. */
bool ucci_word_eq(const char *s, size_t n, const char *word);

#endif
