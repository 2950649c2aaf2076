/* server_core.h — what the UCCI/UCI server (server.c) and the CECP front end
 * (cecp.c) share: the server state, the options table and its settings, the
 * output functions, setoption, the book draw and the draw/resign decision.
 * Internal to protocol/. */
#ifndef CHARIOT_SERVER_CORE_H
#define CHARIOT_SERVER_CORE_H

#include <pthread.h>
#include <stdio.h>

#include "search.h"
#include "server_internal.h"

enum { PROTO_OUT_MAX = 4096, PROTO_MAX_THREADS = 256, PROTO_MAX_HASH_MB = 65536 };

/* UCCI, the UCI dialect (ranks 0..9), or CECP (XBoard protocol 2, protocol/cecp.c). */
typedef enum Dialect { DIALECT_UCCI = 0, DIALECT_UCI, DIALECT_CECP } Dialect;

/* ------------------------------------------------------------- options */

typedef enum OptId {
    OPT_USEMILLISEC,
    OPT_BATCH,
    OPT_DEBUG,
    OPT_PONDER,
    OPT_HASH,
    OPT_THREADS,
    OPT_IDLE,
    OPT_PRUNING,
    OPT_KNOWLEDGE,
    OPT_RANDOMNESS,
    OPT_STYLE,
    OPT_MULTIPV,
    OPT_NEWGAME,
    OPT_BOOKFILES,
    OPT_USEBOOK,
    OPT_RESIGN,
    OPT_MOVEOVERHEAD,
    OPT_SKILL,
    OPT_LIMITSTRENGTH,
    OPT_ELO,
    OPT_NB
} OptId;

typedef enum OptType { OPT_CHECK, OPT_SPIN, OPT_COMBO, OPT_STRING, OPT_BUTTON } OptType;

typedef struct OptionDesc {
    OptId id;
    const char *ucci;          /* UCCI name, also its normalised lookup key */
    const char *uci;           /* UCI display name; NULL: not advertised in UCI */
    const char *alias;         /* one more normalised name accepted, or NULL */
    OptType type;
    int min, max;              /* spin range */
    const char *const *vars;   /* combo values, the engine's preferred one first */
    bool uci_only;             /* a UCI convention, not listed to UCCI GUIs */
} OptionDesc;

/* Every option value; spins as ints, checks as 0/1, combos as an index into
 * the option's vars. */
typedef struct Settings {
    int value[OPT_NB];
    char bookfiles[UCCI_VALUE_MAX];
} Settings;

/* ------------------------------------------------------------- server */

typedef struct Server {
    FILE *in, *out;
    Searcher *searcher;
    SearchOptions search_defaults;
    /* Written by this thread only, under lock, since the search thread's
     * callbacks read multipv, resign and style. */
    Settings settings, defaults;
    Board *pos;              /* the current position (always valid) */
    Board *scratch;          /* where a new position is built before it replaces pos */
    int ban_count;
    Move bans[MAX_MOVES];
    char *line;
    UcciCommand *cmd;
    SearchLimits limits;
    Book *book;              /* the opening book of bookfiles, NULL when none */
    uint64_t rng;            /* the book's random draws (splitmix64 state) */
    uint64_t noise_seed;     /* seed of the root noise (randomness, skill) */

    /* Everything below is shared with the search thread: guarded by lock. */
    pthread_mutex_t lock;
    pthread_cond_t idle_cond;
    Dialect dialect;
    bool out_broken;         /* writing to out failed: the GUI is gone */
    bool thinking;           /* from `go` until bestmove/nobestmove is printed */
    bool stop_requested;
    bool search_ponder;      /* a ponder search not yet hit */
    bool search_infinite;
    bool counted;            /* the result counts for draw/resign decisions */
    bool opp_draw;           /* the opponent offers a draw */
    bool has_pending;        /* a result held until stop/ponderhit */
    SearchResult pending;
    bool root_dead;          /* no attacking piece left at the root */
    int equal_streak, losing_streak;
    /* CECP only: the command being run, echoed after an error's reason. */
    char err_cmd[UCCI_ECHO_MAX + 4];
} Server;

/* ------------------------------------------------------------- output */

typedef struct OutLine {
    char buf[PROTO_OUT_MAX];
    size_t n;
} OutLine;

#if defined(__GNUC__)
#define PROTO_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PROTO_PRINTF(f, a)
#endif



/* The options, in OptId order (server.c). */
extern const OptionDesc SV_OPTIONS[OPT_NB];

void sv_outline_add(OutLine *l, const char *fmt, ...) PROTO_PRINTF(2, 3);
/* Writes one line: ASCII only, never blank, flushed. Caller holds sv->lock. */
void sv_emit_locked(Server *sv, const char *text);
void sv_emit(Server *sv, const char *fmt, ...) PROTO_PRINTF(2, 3);
/* One error line: `info string error: ...` (UCCI/UCI) or
 * `Error (...): <command>` (CECP). */
void sv_emit_error(Server *sv, const char *fmt, ...) PROTO_PRINTF(2, 3);

/* splitmix64 step: the book's draws and the noise seeds. */
uint64_t sv_next_random(uint64_t *state);
/* Clears the hash and learned tables and the draw/resign streaks. */
void sv_new_game(Server *sv);
/* setoption with a normalised name and a raw value; errors name the option
 * as the dialect lists it. The caller makes sure no search runs. */
void sv_setoption(Server *sv, const UcciCommand *c);
/* The draw and resign decision after a search: " draw" (offer or accept),
 * " resign" or "". Updates the streaks. Caller holds sv->lock. */
const char *sv_draw_or_resign_locked(Server *sv, const SearchResult *r);
/* The book's answer to a game move under limits l: fills usable[] (at most
 * MAX_MOVES) and returns their count; 0 when the book has nothing to say. */
int sv_book_moves(Server *sv, const SearchLimits *l, BookMove *usable);
/* Draws one of the usable moves by weight; *ponder gets the heaviest book
 * reply to it, or MOVE_NONE. */
Move sv_book_draw(Server *sv, const BookMove *usable, int k, Move *ponder);

typedef enum ReadStatus { READ_EOF, READ_LINE, READ_TOO_LONG } ReadStatus;

/* Reads one line into sv->line (NUL bytes kept, length in *len). Longer lines
 * are consumed to their end and reported as READ_TOO_LONG. */
ReadStatus sv_read_line(Server *sv, size_t *len);
/* The line is `word` alone (blanks and a CR around it allowed). */
bool sv_line_is(const char *line, size_t len, const char *word);

/* The CECP front end: runs the game after the first line `xboard`, with the
 * rest of the input still to read. Returns when the GUI quits or leaves. */
void cecp_serve(Server *sv);

#endif
