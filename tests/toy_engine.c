/* toy_engine.c — a fake UCCI/UCI engine for the match tests: random, illegal, crashing, silent, late or scripted play.
 *
 * usage: toy_engine [--proto ucci|uci|both] [--mode MODE] [--after N] [--delay MS]
 *                   [--script m1,m2,...] [--seed S] [--usemillisec] [--log FILE] [--name NAME]
 *                   [--ponder [--ponder-miss K] [--ponder-early] [--ponder-stall] [--ponder-late-stop]]
 * Modes (the first N moves are random, see --after):
 *   random   a random legal move that is not banned (default)
 *   illegal  from move N+1 on, a well-formed but illegal move
 *   crash    at move N+1, dies by SIGKILL
 *   exit     at move N+1, exits with code 3
 *   silent   from move N+1 on, never answers `go`
 *   late     from move N+1 on, sleeps --delay ms before answering
 *   nomove   from move N+1 on, answers `nobestmove` / `bestmove (none)`
 *   resign   from move N+1 on, answers `bestmove m resign`
 *   script   plays the --script moves in order (then random)
 * --proto ucci answers only `ucci`, uci only `uci` (an unknown first command is
 * reported and ignored), both answers either. --log appends every line received.
 * --ponder advertises a ponder option and adds `ponder X` to its answers: X is
 * the move a toy with the same --seed plays in reply (so two such toys always
 * guess right), except every K-th hint with --ponder-miss K, which is another
 * legal move. `go ponder` is answered at `ponderhit` or `stop` (at once with
 * --ponder-early, never to `stop` with --ponder-stall, and with
 * --ponder-late-stop only after the `readyok` of the next `isready`, as an
 * engine whose search thread answers after its input thread). */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "board.h"

typedef struct Toy {
    const char *proto;
    const char *mode;
    int after;
    int delay_ms;
    char script[4096];
    int script_pos;
    uint64_t seed;
    bool usemillisec;
    FILE *log;
    const char *name;
    bool uci;
    int moves_played;
    bool ponder;       /* --ponder */
    int ponder_miss;   /* every K-th hint is wrong; 0 never */
    bool ponder_early; /* answers `go ponder` at once */
    bool ponder_stall; /* never answers `stop` while pondering */
    bool ponder_late_stop; /* answers a stopped ponder search after the next readyok */
    bool stopping;     /* such an answer is due */
    int hints;
    bool pondering;    /* a `go ponder` waits for ponderhit or stop */
    char held[2][256]; /* its answer: an info line and the bestmove */
    Board board;
    Move banned[MAX_MOVES];
    int banned_count;
} Toy;

static void toy_out(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static void toy_out(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

static void toy_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static Move toy_parse(const char *s)
{
    if (strlen(s) < 4 || s[0] < 'a' || s[0] > 'i' || s[2] < 'a' || s[2] > 'i' || s[1] < '0' || s[1] > '9' ||
        s[3] < '0' || s[3] > '9')
        return MOVE_NONE;
    return move_make(sq_make(s[0] - 'a', s[1] - '0'), sq_make(s[2] - 'a', s[3] - '0'));
}

/* `position startpos|fen FEN [moves ...]` */
static void toy_position(Toy *t, char *line)
{
    char *p = line + strlen("position");
    while (*p == ' ')
        p++;
    char *moves = strstr(p, " moves");
    if (moves) {
        *moves = '\0';
        moves += 6;
    }
    char err[128];
    if (strncmp(p, "startpos", 8) == 0)
        board_startpos(&t->board);
    else if (strncmp(p, "fen ", 4) == 0) {
        if (!board_from_fen(&t->board, p + 4, err, sizeof err)) {
            toy_out("info string error: %s", err);
            return;
        }
    }
    t->banned_count = 0;
    if (!moves)
        return;
    for (char *tok = strtok(moves, " "); tok; tok = strtok(NULL, " ")) {
        Move m = toy_parse(tok);
        if (m == MOVE_NONE || !board_is_legal(&t->board, m)) {
            toy_out("info string error: illegal move %s", tok);
            return;
        }
        if (t->board.ply >= BOARD_HIST_MAX - 4)
            board_compact_history(&t->board);
        board_make(&t->board, m);
    }
}

static uint64_t toy_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static Move toy_random_move(Toy *t)
{
    MoveList list, allowed;
    board_generate(&t->board, GEN_ALL, &list);
    allowed.count = 0;
    for (int i = 0; i < list.count; i++) {
        bool ban = false;
        for (int k = 0; k < t->banned_count; k++)
            ban |= t->banned[k] == list.moves[i];
        if (!ban)
            allowed.moves[allowed.count++] = list.moves[i];
    }
    const MoveList *from = allowed.count ? &allowed : &list;
    if (from->count == 0)
        return MOVE_NONE;
    uint64_t s = t->seed ^ t->board.key;
    return from->moves[toy_rand(&s) % (uint64_t)from->count];
}

/* A well-formed move that is not legal here. */
static Move toy_illegal_move(const Toy *t)
{
    for (int from = 0; from < SQ_NB; from++)
        for (int to = 0; to < SQ_NB; to++)
            if (from != to && !board_is_legal(&t->board, move_make(from, to)))
                return move_make(from, to);
    return move_make(0, 1);
}

static bool toy_script_next(Toy *t, char out[5])
{
    const char *p = t->script + t->script_pos;
    while (*p == ',' || *p == ' ')
        p++;
    if (strlen(p) < 4)
        return false;
    memcpy(out, p, 4);
    out[4] = '\0';
    t->script_pos = (int)(p + 4 - t->script);
    return true;
}

/* The `ponder` hint after playing m: the reply a toy with the same seed
 * would choose, or another legal move for every ponder_miss-th hint. */
static Move toy_hint(Toy *t, Move m)
{
    int banned = t->banned_count;
    t->banned_count = 0; /* bans belong to this position, not the next */
    board_make(&t->board, m);
    Move hint = toy_random_move(t);
    t->hints++;
    if (hint != MOVE_NONE && t->ponder_miss > 0 && t->hints % t->ponder_miss == 0) {
        MoveList list;
        board_generate(&t->board, GEN_ALL, &list);
        for (int i = 0; i < list.count; i++)
            if (list.moves[i] == hint) {
                hint = list.moves[(i + 1) % list.count];
                break;
            }
    }
    board_unmake(&t->board);
    t->banned_count = banned;
    return hint;
}

/* Prints the held answer of a ponder search. */
static void toy_release(Toy *t)
{
    t->pondering = false;
    for (int i = 0; i < 2; i++)
        if (t->held[i][0])
            toy_out("%s", t->held[i]);
}

static void toy_go(Toy *t, const char *line)
{
    bool ponder = strncmp(line, "go ponder", 9) == 0;
    bool hold = ponder && !t->ponder_early;
    int k = t->moves_played++;
    bool special = !ponder && k >= t->after;
    const char *mode = t->mode;
    char text[8];
    if (special && strcmp(mode, "silent") == 0)
        return;
    if (special && strcmp(mode, "crash") == 0)
        kill(getpid(), SIGKILL);
    if (special && strcmp(mode, "exit") == 0)
        exit(3);
    if (special && strcmp(mode, "late") == 0)
        toy_sleep_ms(t->delay_ms);
    if (special && strcmp(mode, "nomove") == 0) {
        toy_out(t->uci ? "bestmove (none)" : "nobestmove");
        return;
    }
    Move m;
    if (special && strcmp(mode, "illegal") == 0)
        m = toy_illegal_move(t);
    else if (strcmp(mode, "script") == 0 && toy_script_next(t, text))
        m = toy_parse(text);
    else
        m = toy_random_move(t);
    t->held[0][0] = t->held[1][0] = '\0';
    if (m == MOVE_NONE) {
        snprintf(t->held[1], sizeof t->held[1], "%s", t->uci ? "bestmove (none)" : "nobestmove");
    } else {
        move_to_iccs(m, text);
        snprintf(t->held[0], sizeof t->held[0],
                 t->uci ? "info depth %d score cp %d nodes %d time 1 nps 1000 pv %s"
                        : "info depth %d score %d nodes %d time 1 nps 1000 pv %s",
                 3 + k % 3, (int)(k % 7) - 3, 100 + k, text);
        char hint[16] = "";
        Move h = t->ponder ? toy_hint(t, m) : MOVE_NONE;
        if (h != MOVE_NONE) {
            char ht[5];
            move_to_iccs(h, ht);
            snprintf(hint, sizeof hint, " ponder %s", ht);
        }
        snprintf(t->held[1], sizeof t->held[1], "bestmove %s%s%s", text, hint,
                 special && strcmp(mode, "resign") == 0 ? " resign" : "");
    }
    if (hold)
        t->pondering = true;
    else
        toy_release(t);
}

int main(int argc, char **argv)
{
    board_init();
    static Toy toy;
    Toy *t = &toy;
    t->proto = "both";
    t->mode = "random";
    t->after = 0;
    t->delay_ms = 1000;
    t->seed = 1;
    t->name = "toy";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : "";
        if (strcmp(a, "--proto") == 0)
            t->proto = v, i++;
        else if (strcmp(a, "--mode") == 0)
            t->mode = v, i++;
        else if (strcmp(a, "--after") == 0)
            t->after = atoi(v), i++;
        else if (strcmp(a, "--delay") == 0)
            t->delay_ms = atoi(v), i++;
        else if (strcmp(a, "--script") == 0)
            snprintf(t->script, sizeof t->script, "%s", v), i++;
        else if (strcmp(a, "--seed") == 0)
            t->seed = strtoull(v, NULL, 10), i++;
        else if (strcmp(a, "--usemillisec") == 0)
            t->usemillisec = true;
        else if (strcmp(a, "--log") == 0)
            t->log = fopen(v, "a"), i++;
        else if (strcmp(a, "--name") == 0)
            t->name = v, i++;
        else if (strcmp(a, "--ponder") == 0)
            t->ponder = true;
        else if (strcmp(a, "--ponder-miss") == 0)
            t->ponder_miss = atoi(v), i++;
        else if (strcmp(a, "--ponder-early") == 0)
            t->ponder_early = true;
        else if (strcmp(a, "--ponder-stall") == 0)
            t->ponder_stall = true;
        else if (strcmp(a, "--ponder-late-stop") == 0)
            t->ponder_late_stop = true;
        else {
            fprintf(stderr, "toy_engine: unknown argument %s\n", a);
            return 2;
        }
    }
    board_startpos(&t->board);
    char line[16384];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (t->log) {
            fprintf(t->log, "%s\n", line);
            fflush(t->log);
        }
        if (strcmp(line, "ucci") == 0) {
            if (strcmp(t->proto, "uci") == 0) {
                toy_out("info string unknown command ucci");
                continue;
            }
            t->uci = false;
            toy_out("id name %s", t->name);
            if (t->usemillisec)
                toy_out("option usemillisec type check default false");
            toy_out("option newgame type button");
            if (t->ponder)
                toy_out("option ponder type check default false");
            toy_out("ucciok");
        } else if (strcmp(line, "uci") == 0) {
            if (strcmp(t->proto, "ucci") == 0) {
                toy_out("info string unknown command uci");
                continue;
            }
            t->uci = true;
            toy_out("id name %s", t->name);
            if (t->ponder)
                toy_out("option name Ponder type check default false");
            toy_out("uciok");
        } else if (strcmp(line, "isready") == 0) {
            toy_out("readyok");
            if (t->stopping) {
                t->stopping = false;
                toy_release(t);
            }
        } else if (strncmp(line, "position ", 9) == 0) {
            toy_position(t, line);
        } else if (strncmp(line, "banmoves", 8) == 0) {
            t->banned_count = 0;
            for (char *tok = strtok(line + 8, " "); tok && t->banned_count < MAX_MOVES; tok = strtok(NULL, " "))
                t->banned[t->banned_count++] = toy_parse(tok);
        } else if (strncmp(line, "go", 2) == 0) {
            toy_go(t, line);
        } else if (strcmp(line, "ponderhit") == 0) {
            if (t->pondering)
                toy_release(t);
        } else if (strcmp(line, "stop") == 0) {
            if (t->pondering && t->ponder_late_stop)
                t->stopping = true;
            else if (t->pondering && !t->ponder_stall)
                toy_release(t);
            else if (!t->pondering && !t->uci)
                toy_out("nobestmove"); /* UCCI: a stop in the idle state */
        } else if (strcmp(line, "quit") == 0) {
            if (!t->uci)
                toy_out("bye");
            break;
        }
    }
    if (t->log)
        fclose(t->log);
    return 0;
}
