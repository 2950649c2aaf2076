/* matebench.c — `chariot mate-bench`: runs an engine on EPD mate puzzles the
 * way an analysing GUI does (`position fen`, `go infinite`, `stop`), through
 * its pipes, and replays every mate it claims to check that the line mates.
 *
 * The engine is Chariot itself by default, or any UCCI/UCI engine (--engine,
 * --proto; fairy-stockfish with --proto fsf). A puzzle counts as solved when
 * an info line claims a mate in at most N moves (UCCI `score 9991` in the
 * ElephantEye convention, or `score mate N`) and its PV is not refuted by
 * the replay; the engine is then stopped at once, as a user would. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "client.h"
#include "commands.h"
#include "os.h"
#include "solve.h"

enum {
    MB_DEFAULT_MOVETIME_MS = 5000,
    MB_MAX_MOVETIME_MS = 24 * 3600 * 1000,
    MB_HANDSHAKE_MS = 10000,
    MB_AUTO_PROBE_MS = 2000,
    MB_SYNC_MS = 30000,
    MB_STOP_GRACE_MS = 10000, /* an engine that does not answer `stop` by then has hung */
    MB_QUIT_GRACE_MS = 1000,
    MB_MAX_OPTIONS = 32,
    MB_FAST_MS = 1000,        /* "solved within 1 s" */
    MB_UCCI_MATE = 10000,     /* ElephantEye's UCCI mate score: mate in p plies is 10000 - p */
    MB_UCCI_MATE_BAND = 128
};

static const char *const MB_USAGE =
    "usage: chariot mate-bench FILE.epd [options]\n"
    "  --engine CMD      engine command line (default: this chariot)\n"
    "  --proto P         ucci | uci | uci10 | fsf | auto (default ucci; fsf for Debian's fairy-stockfish)\n"
    "  --movetime MS     `stop` after this long when no mate is proven (default 5000)\n"
    "  --option N=V      engine option, repeatable (e.g. threads=2, Hash=64)\n"
    "  --first K         only the first K puzzles\n"
    "  --every S         only every S-th puzzle (a spread-out subset)\n"
    "exit code: 0 all solved and no false mate, 1 otherwise, 2 bad input or a dead engine\n";

/* The verdict of replaying one claimed mate line. */
typedef enum MbCheck {
    MB_CHECK_MATES,   /* legal, and the defender has no legal move within the claimed length */
    MB_CHECK_SHORT,   /* legal, but the line ends before the mate: cannot be confirmed */
    MB_CHECK_ILLEGAL, /* a move of the line is illegal */
    MB_CHECK_FALSE    /* legal and long enough, yet no mate at the claimed length */
} MbCheck;

typedef struct MbCounts {
    int claims;       /* info lines claiming a mate for the side to move */
    int mates, shorts, illegal, falses;
} MbCounts;

typedef struct MbOptionPair {
    char *name, *value;
} MbOptionPair;

/* Reads the score of an info line: true with *moves (signed, for the side to
 * move) when it claims a mate; upper bounds claim nothing. */
static bool mb_parse_mate(const char *line, ClientProto proto, int *moves)
{
    if (strstr(line, " upperbound"))
        return false;
    const char *s = strstr(line, " score ");
    if (!s)
        return false;
    s += 7;
    long v;
    if (strncmp(s, "mate ", 5) == 0) {
        v = strtol(s + 5, NULL, 10);
        if (v == 0)
            return false;
        *moves = (int)v;
        return true;
    }
    if (strncmp(s, "cp ", 3) == 0 || proto == CLIENT_PROTO_UCI || proto == CLIENT_PROTO_UCI10)
        return false;
    char *end;
    v = strtol(s, &end, 10);
    if (end == s)
        return false;
    long a = v < 0 ? -v : v;
    if (a > MB_UCCI_MATE || a < MB_UCCI_MATE - MB_UCCI_MATE_BAND || a == MB_UCCI_MATE)
        return false;
    int plies = (int)(MB_UCCI_MATE - a);
    *moves = v > 0 ? (plies + 1) / 2 : -(plies / 2);
    return *moves != 0;
}

/* Replays the `pv` of an info line claiming mate in `moves` from root. */
static MbCheck mb_check_line(const Board *root, const char *line, ClientProto proto, int moves)
{
    const char *pv = strstr(line, " pv ");
    if (!pv)
        return MB_CHECK_SHORT;
    Board *b = malloc(sizeof *b);
    if (!b)
        return MB_CHECK_SHORT;
    *b = *root;
    const int limit = 2 * moves - 1;
    MbCheck verdict = MB_CHECK_SHORT;
    int ply = 0;
    char tok[16];
    int used;
    for (const char *p = pv + 4; sscanf(p, "%15s%n", tok, &used) == 1; p += used) {
        char iccs[5];
        if (proto == CLIENT_PROTO_UCI10) {
            if (!client_move_from_rank1(tok, iccs)) {
                verdict = MB_CHECK_ILLEGAL;
                break;
            }
        } else {
            snprintf(iccs, sizeof iccs, "%.4s", tok); /* longer tokens are refused below */
        }
        Move m = strlen(tok) == 4 || proto == CLIENT_PROTO_UCI10 ? move_from_iccs(iccs) : MOVE_NONE;
        if (m == MOVE_NONE || !board_is_legal(b, m)) {
            verdict = MB_CHECK_ILLEGAL;
            break;
        }
        board_make(b, m);
        ply++;
        if (ply % 2 == 1 && !board_has_legal_move(b)) {
            verdict = ply <= limit ? MB_CHECK_MATES : MB_CHECK_FALSE;
            break;
        }
        if (ply >= limit) {
            verdict = MB_CHECK_FALSE;
            break;
        }
    }
    free(b);
    return verdict;
}

static int compare_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Starts the engine and brings it to the ready state. */
static bool mb_start(ClientEngine *e, char **argv, ClientProto proto, const MbOptionPair *opts, int nopts)
{
    memset(e, 0, sizeof *e);
    if (!client_start(e, argv, NULL, -1)) {
        fprintf(stderr, "mate-bench: cannot start '%s': %s\n", argv[0], e->error);
        return false;
    }
    ClientStatus st = client_handshake(e, proto, MB_HANDSHAKE_MS, MB_AUTO_PROBE_MS, NULL);
    if (st == CLIENT_OK) {
        for (int i = 0; i < nopts; i++)
            client_set_option(e, opts[i].name, opts[i].value);
        client_finish_options(e);
        st = client_sync(e, client_now_ms() + MB_SYNC_MS, NULL);
    }
    if (st != CLIENT_OK) {
        fprintf(stderr, "mate-bench: no handshake with '%s' (%s)\n", argv[0], e->error);
        client_kill(e);
        client_release(e);
        return false;
    }
    return true;
}

/* One puzzle: returns the time to the first accepted mate claim (ms since
 * `go` was sent), -1 when not solved, -2 when the engine failed. */
static int64_t mb_run_puzzle(ClientEngine *e, const SolvePuzzle *pz, int64_t movetime_ms, MbCounts *counts,
                             char *found, size_t found_len)
{
    Board root;
    char err[160];
    if (!solve_parse_position(&root, pz->fen, err, sizeof err))
        return -2;
    client_new_game(e);
    if (client_sync(e, client_now_ms() + MB_SYNC_MS, NULL) != CLIENT_OK)
        return -2;
    if (!client_position(e, pz->fen, NULL, 0) || !client_send(e, "go infinite"))
        return -2;
    const int64_t t0 = client_now_ms();
    int64_t solved_ms = -1;
    bool stopped = false;
    int best_claim = 0;
    snprintf(found, found_len, "no mate");
    char *line = malloc(CLIENT_LINE_MAX);
    if (!line)
        return -2;
    for (;;) {
        int64_t deadline = stopped ? client_now_ms() + MB_STOP_GRACE_MS : t0 + movetime_ms;
        ClientStatus st = client_read_line(e, line, CLIENT_LINE_MAX, deadline, NULL);
        if (st == CLIENT_TIMEOUT && !stopped) {
            client_send(e, "stop");
            stopped = true;
            continue;
        }
        if (st != CLIENT_OK) {
            solved_ms = -2;
            break;
        }
        if (strncmp(line, "bestmove", 8) == 0 || strncmp(line, "nobestmove", 10) == 0)
            break;
        int moves;
        if (strncmp(line, "info", 4) != 0 || !mb_parse_mate(line, e->proto, &moves) || moves < 0)
            continue;
        counts->claims++;
        MbCheck c = mb_check_line(&root, line, e->proto, moves);
        counts->mates += c == MB_CHECK_MATES;
        counts->shorts += c == MB_CHECK_SHORT;
        counts->illegal += c == MB_CHECK_ILLEGAL;
        counts->falses += c == MB_CHECK_FALSE;
        if (c == MB_CHECK_ILLEGAL || c == MB_CHECK_FALSE) {
            fprintf(stderr, "mate-bench: %s: FALSE MATE (%s): %s\n", pz->id,
                    c == MB_CHECK_ILLEGAL ? "illegal move" : "no mate at the end", line);
            continue;
        }
        if (best_claim == 0 || moves < best_claim) {
            best_claim = moves;
            snprintf(found, found_len, "mate %d%s", moves, c == MB_CHECK_SHORT ? " (short pv)" : "");
        }
        if (moves <= pz->mate && solved_ms < 0) {
            solved_ms = client_now_ms() - t0;
            if (!stopped) {
                client_send(e, "stop");
                stopped = true;
            }
        }
    }
    free(line);
    return solved_ms;
}

int cmd_mate_bench(int argc, char **argv)
{
    const char *epd = NULL, *engine_cmd = NULL;
    ClientProto proto = CLIENT_PROTO_UCCI;
    long long movetime = MB_DEFAULT_MOVETIME_MS, first = 0, every = 1;
    MbOptionPair opts[MB_MAX_OPTIONS];
    int nopts = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true;
        if (strcmp(a, "--engine") == 0 && v) {
            engine_cmd = v;
        } else if (strcmp(a, "--proto") == 0 && v) {
            ok = client_proto_parse(v, &proto);
        } else if (strcmp(a, "--movetime") == 0 && v) {
            ok = cli_parse_ll(v, 1, MB_MAX_MOVETIME_MS, &movetime);
        } else if (strcmp(a, "--first") == 0 && v) {
            ok = cli_parse_ll(v, 1, 1000000, &first);
        } else if (strcmp(a, "--every") == 0 && v) {
            ok = cli_parse_ll(v, 1, 1000000, &every);
        } else if (strcmp(a, "--option") == 0 && v) {
            char *eq = strchr(v, '=');
            ok = eq && eq != v && nopts < MB_MAX_OPTIONS;
            if (ok) {
                opts[nopts].name = argv[i + 1];
                *strchr(opts[nopts].name, '=') = '\0';
                opts[nopts].value = eq + 1;
                nopts++;
            }
        } else if (a[0] != '-' && !epd) {
            epd = a;
            continue;
        } else {
            ok = false;
        }
        if (!ok) {
            fprintf(stderr, "mate-bench: bad argument '%s%s%s'\n%s", a, v ? " " : "", v ? v : "", MB_USAGE);
            return 2;
        }
        i++;
    }
    if (!epd) {
        fputs(MB_USAGE, stderr);
        return 2;
    }
    FILE *f = fopen(epd, "r");
    if (!f) {
        fprintf(stderr, "mate-bench: cannot read '%s': %s\n", epd, strerror(errno));
        return 2;
    }

    /* Default engine: this very binary, as a GUI would start it. */
    char self[4096];
    char **eargv;
    if (engine_cmd) {
        eargv = client_split_command(engine_cmd);
    } else {
        os_self_path(self, sizeof self);
        eargv = calloc(2, sizeof *eargv);
        if (eargv)
            eargv[0] = strdup(self);
    }
    if (!eargv || !eargv[0]) {
        fprintf(stderr, "mate-bench: bad engine command\n");
        fclose(f);
        return 2;
    }
    client_ignore_sigpipe();
    ClientEngine e;
    if (!mb_start(&e, eargv, proto, opts, nopts)) {
        client_free_argv(eargv);
        fclose(f);
        return 2;
    }

    int64_t *times = NULL;
    int total = 0, solved = 0, fast = 0, index = 0, rc = 0;
    MbCounts counts = {0};
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0;
    printf("%-24s %-8s %-20s %9s  %s\n", "id", "expected", "found", "solved at", "result");
    while (cli_read_line(f, &line, &cap)) {
        lineno++;
        SolvePuzzle pz;
        char err[160];
        SolveLineKind k = solve_epd_parse(line, lineno, &pz, err, sizeof err);
        if (k == SOLVE_LINE_BAD) {
            fprintf(stderr, "mate-bench: %s:%d: %s; skipped\n", epd, lineno, err);
            rc = 2;
        }
        if (k != SOLVE_LINE_PUZZLE || pz.mate <= 0)
            continue;
        if (index++ % every != 0)
            continue;
        if (first && total >= first)
            break;
        total++;
        char found[64];
        int64_t ms = mb_run_puzzle(&e, &pz, movetime, &counts, found, sizeof found);
        if (ms == -2) {
            fprintf(stderr, "mate-bench: the engine failed on %s (%s)\n", pz.id, e.error);
            rc = 2;
            break;
        }
        char at[32] = "-";
        if (ms >= 0) {
            int64_t *grown = realloc(times, sizeof *times * (size_t)(solved + 1));
            if (grown) {
                times = grown;
                times[solved] = ms;
            }
            solved++;
            fast += ms <= MB_FAST_MS;
            solve_format_seconds(ms, at, sizeof at);
        }
        char expected[16];
        snprintf(expected, sizeof expected, "mate %d", pz.mate);
        printf("%-24s %-8s %-20s %9s  %s\n", pz.id, expected, found, at, ms >= 0 ? "ok" : "FAIL");
        fflush(stdout);
        fprintf(stderr, "\r[%d] solved %d", total, solved);
    }
    fputc('\n', stderr);
    free(line);
    fclose(f);
    client_quit(&e, MB_QUIT_GRACE_MS);
    client_release(&e);
    client_free_argv(eargv);

    char median[32] = "-", p90[32] = "-";
    if (solved > 0 && times) {
        qsort(times, (size_t)solved, sizeof *times, compare_i64);
        int h = solved / 2;
        solve_format_seconds(solved % 2 ? times[h] : (times[h - 1] + times[h]) / 2, median, sizeof median);
        /* Nearest rank: the smallest time that 90% of the solved reach. */
        int r = (9 * solved + 9) / 10;
        solve_format_seconds(times[r - 1], p90, sizeof p90);
    }
    free(times);
    printf("\nSolved %d/%d (go infinite, stop at %lld ms), within 1 s: %d, median time-to-solve %s, p90 %s\n", solved,
           total, movetime, fast, median, p90);
    printf("Mate lines checked: %d: %d mate on replay, %d legal but shorter than the mate (unconfirmed), "
           "%d with an illegal move, %d with no mate at the end\n",
           counts.claims, counts.mates, counts.shorts, counts.illegal, counts.falses);
    if (rc == 0 && (solved < total || counts.illegal + counts.falses > 0))
        rc = 1;
    return rc;
}
