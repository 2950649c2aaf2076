/* client.h — the GUI side of UCCI and UCI: start an engine process, talk to
 * it through pipes, and read its answers under a deadline (used by `chariot match`).
 *
 * Dialects (ClientProto):
 *   UCCI   `ucci`/`ucciok`, `setoption NAME VALUE`, `go time .. opptime ..`,
 *          banmoves; times in seconds unless the engine advertises usemillisec
 *          (then `setoption usemillisec true` and milliseconds).
 *   UCI    the xiangqi UCI dialect with ranks 0..9 (Pikafish, Chariot):
 *          `setoption name X value Y`, `go wtime .. btime ..`.
 *   UCI10  generic UCI with `UCI_Variant xiangqi` and ranks 1..10 (cutechess
 *          style); moves are translated both ways.
 *   FSF    Debian's fairy-stockfish 11.1: handshake with `uci`, set
 *          `UCI_Variant xiangqi` and the user's options in UCI syntax (so
 *          multi-word names like "Skill Level" work), then switch it with
 *          `setoption name Protocol value ucci`; from then on it speaks UCCI
 *          with ranks 0..9, honours banmoves, and reads `go time` in ms
 *          although it never advertises usemillisec.
 *   AUTO   try `ucci` first, then `uci` (restarting the process if needed).
 *
 * Nothing here prints: the match runner decides what to show. Every wait uses
 * poll() with a deadline, and wakes at least every CLIENT_POLL_SLICE_MS to look
 * at the caller's stop flag, so a waiting runner costs no CPU. */
#ifndef CHARIOT_CLIENT_H
#define CHARIOT_CLIENT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "proc.h"

typedef enum ClientProto {
    CLIENT_PROTO_AUTO = 0,
    CLIENT_PROTO_UCCI,
    CLIENT_PROTO_UCI,
    CLIENT_PROTO_UCI10,
    CLIENT_PROTO_FSF
} ClientProto;

typedef enum ClientStatus {
    CLIENT_OK = 0,
    CLIENT_TIMEOUT, /* the deadline passed */
    CLIENT_EOF,     /* the engine closed its output or exited */
    CLIENT_STOPPED, /* the caller's stop flag was raised */
    CLIENT_ERROR    /* a protocol or system error (see ClientEngine.error) */
} ClientStatus;

/* Longest protocol line kept; longer lines are cut (not an error). */
enum { CLIENT_LINE_MAX = 8192 };
/* How often a blocking wait looks at the stop flag. */
enum { CLIENT_POLL_SLICE_MS = 100 };
/* Scores reported as `mate N` are mapped to +-(CLIENT_MATE_SCORE - N). */
enum { CLIENT_MATE_SCORE = 30000 };

/* Search statistics of one `go`, from the engine's last info lines. */
typedef struct ClientSearchInfo {
    int depth;          /* last `depth`, 0 if never reported */
    bool has_score;
    int score;          /* side to move's view, centipawns */
    int64_t nodes;      /* last `nodes`, -1 if never reported */
    int64_t time_ms;    /* last `time`, -1 if never reported */
    int64_t nps;        /* last `nps`, -1 if never reported */
} ClientSearchInfo;

/* What the engine answered to `go`. */
typedef enum ClientReply {
    CLIENT_REPLY_MOVE = 0, /* bestmove with a move (see text, may still be illegal) */
    CLIENT_REPLY_NOMOVE,   /* nobestmove, bestmove (none), bestmove 0000 */
    CLIENT_REPLY_RESIGN    /* bestmove ... resign */
} ClientReply;

typedef struct ClientBestMove {
    ClientReply reply;
    char text[16];    /* the move as sent, translated to ranks 0..9 (ICCS) */
    char ponder[16];  /* `ponder X`: the reply it expects, translated; "" if none */
    bool offers_draw; /* `bestmove m draw` */
} ClientBestMove;

/* The limits of one `go`. Clock fields are in milliseconds and belong to the
 * side to move ("own") and its opponent; a field < 0 is not sent. */
typedef struct ClientGo {
    int side;               /* 0 red, 1 black: picks wtime/btime in UCI */
    int64_t own_time;       /* remaining clock, or -1 without a clock */
    int64_t opp_time;
    int64_t own_inc;
    int64_t opp_inc;
    int own_movestogo;      /* moves to the next time control, 0 = none */
    int opp_movestogo;
    int64_t movetime;       /* fixed time per move, or -1 */
    int depth;              /* 0 = none */
    int64_t nodes;          /* 0 = none */
    bool ponder;            /* `go ponder`: the clocks hold until `ponderhit` */
} ClientGo;

typedef struct ClientEngine {
    Proc proc;            /* the process and its pipes (proc.id 0: none running) */
    bool eof;             /* its stdout is closed */
    ClientProto proto;    /* the dialect actually spoken (never AUTO after a handshake) */
    bool ucci_mode;       /* UCCI syntax for position/setoption/go (UCCI and FSF) */
    bool millisec;        /* UCCI `go time` in ms */
    bool has_newgame;     /* the engine advertised `option newgame` (UCCI) */
    char ponder_option[16]; /* the name of its advertised ponder option ("ponder", "Ponder"), or "" */
    char name[128];       /* from `id name`, else empty */
    char error[256];      /* the last error, for the caller's messages */
    FILE *log;            /* if set, every line in and out is copied here */
    const char *log_tag;  /* prefix for log lines */
    /* argv and working directory, kept so AUTO can restart the process */
    char **argv;
    char *dir;
    int stderr_fd;
    /* line buffer */
    char buf[CLIENT_LINE_MAX * 2];
    size_t buf_len;
    /* resources used by the process, filled when it is reaped */
    bool reaped;
    double cpu_seconds;   /* user + system CPU of the process */
} ClientEngine;

/* Milliseconds on the monotonic clock. */
int64_t client_now_ms(void);

/* Splits a command line into argv (whitespace separated; single and double
 * quotes group, backslash escapes). Returns a NULL-terminated array to free
 * with client_free_argv, or NULL on an unbalanced quote. */
char **client_split_command(const char *cmd);
void client_free_argv(char **argv);

/* Starts argv[0] with argv (searched in PATH when it holds no '/'), in
 * directory dir (NULL: current), with stdin/stdout as pipes. The engine's
 * stderr goes to stderr_fd (-1: /dev/null). The child runs in its own process
 * group so a terminal Ctrl-C reaches only the runner, which then kills it.
 * The caller must have set SIGPIPE to ignore (client_ignore_sigpipe). */
bool client_start(ClientEngine *e, char *const argv[], const char *dir, int stderr_fd);
void client_ignore_sigpipe(void);

/* Sends one line (a '\n' is added). False if the engine is gone. */
bool client_send(ClientEngine *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Reads the next line (without its newline). deadline_ms is on the
 * client_now_ms() clock; < 0 means no deadline. stop may be NULL. */
ClientStatus client_read_line(ClientEngine *e, char *line, size_t cap, int64_t deadline_ms,
                              const volatile sig_atomic_t *stop);

/* Protocol handshake in the given dialect (`ucci`/`uci` up to `ucciok`/`uciok`,
 * plus `setoption usemillisec true` or `UCI_Variant xiangqi` where needed).
 * On success e->proto is the dialect spoken. timeout_ms bounds the exchange.
 * For AUTO, a `ucci` that gets no `ucciok` within auto_ms falls back to `uci`
 * (restarting the process if it exited). Then set options, call
 * client_finish_options, client_new_game and client_sync. */
ClientStatus client_handshake(ClientEngine *e, ClientProto proto, int timeout_ms, int auto_ms,
                              const volatile sig_atomic_t *stop);

/* Sets an option in the dialect's syntax; a NULL or empty value sends a button. */
bool client_set_option(ClientEngine *e, const char *name, const char *value);
/* Options that must follow all user options: the FSF switch to UCCI. */
bool client_finish_options(ClientEngine *e);
/* Turns on the engine's advertised ponder option (UCCI `setoption ponder
 * true`, UCI `setoption name Ponder value true`); false when it has none. */
bool client_enable_ponder(ClientEngine *e);
/* `setoption newgame` (UCCI, if advertised) or `ucinewgame`. */
bool client_new_game(ClientEngine *e);
/* Sends `isready` and waits for `readyok`. */
ClientStatus client_sync(ClientEngine *e, int64_t deadline_ms, const volatile sig_atomic_t *stop);
/* Ends a search that is not wanted (a missed ponder search): `stop` (when
 * send_stop) and `isready` in one go, then reads until both its answer and
 * `readyok` have come, in either order (an engine may say readyok before
 * the stopped search's bestmove), and discards them and all between. */
ClientStatus client_stop_sync(ClientEngine *e, bool send_stop, int64_t deadline_ms,
                              const volatile sig_atomic_t *stop);

/* `position startpos|fen FEN [moves ...]`; moves in ICCS (ranks 0..9), they
 * are translated for UCI10. fen NULL means startpos. */
bool client_position(ClientEngine *e, const char *fen, const char *const *moves, int count);
/* `banmoves m1 m2 ...` (UCCI dialects only; a no-op for UCI). */
bool client_banmoves(ClientEngine *e, const char *const *moves, int count);
/* Formats and sends the `go` line. */
bool client_go(ClientEngine *e, const ClientGo *go);
/* Formats the `go` line without sending it (exposed for tests). */
void client_format_go(const ClientEngine *e, const ClientGo *go, char *out, size_t outlen);

/* Waits for `bestmove`/`nobestmove`, collecting info lines into *info. */
ClientStatus client_wait_bestmove(ClientEngine *e, int64_t deadline_ms, const volatile sig_atomic_t *stop,
                                  ClientBestMove *best, ClientSearchInfo *info);

/* Reads what the engine has already said, without waiting: CLIENT_OK with
 * *best when a bestmove/nobestmove was among it (info lines go into *info),
 * CLIENT_TIMEOUT when none was, CLIENT_EOF or CLIENT_ERROR. Used to drain a
 * pondering engine while the runner waits on its opponent. */
ClientStatus client_poll_bestmove(ClientEngine *e, ClientBestMove *best, ClientSearchInfo *info);

/* Parses one `info` line into *info (fields not present are left alone).
 * Exposed for tests. */
void client_parse_info(const char *line, ClientSearchInfo *info);
/* Translates a UCI10 move (ranks 1..10) to ICCS ranks 0..9; false if malformed. */
bool client_move_from_rank1(const char *in, char out[5]);
void client_move_to_rank1(const char *iccs, char out[8]);

/* Says `quit`, gives the engine grace_ms to exit, then kills its process
 * group, reaps it and records its CPU time. Safe to call twice. */
void client_quit(ClientEngine *e, int grace_ms);
/* Kills at once (no `quit`), reaps, records CPU time. */
void client_kill(ClientEngine *e);
/* Gives a process that is on its way out (its output ended) grace_ms to exit
 * by itself, so its own exit status is recorded, then kills and reaps it. */
void client_reap_within(ClientEngine *e, int grace_ms);

/* How a reaped engine ended: "exited (code N)", "crashed (signal N)" or,
 * on Windows, "crashed (exception 0x...)". */
void client_exit_text(const ClientEngine *e, char *out, size_t outlen);

/* Frees argv/dir copies. Call after client_quit/kill. */
void client_release(ClientEngine *e);

const char *client_proto_name(ClientProto p);
/* Parses ucci|uci|uci10|fsf|auto; false if unknown. */
bool client_proto_parse(const char *s, ClientProto *out);

#endif
