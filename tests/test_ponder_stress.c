/* test_ponder_stress.c — pondering under every command order: the real
 * chariot binary, driven through pipes (protocol/proc.h, so it runs under
 * wine too), gets thousands of random GUI-like command sequences in one
 * protocol, at random small delays. Every `go` must get exactly one answer,
 * never before `ponderhit`/`stop` for a ponder or infinite search, and within
 * the clock plus a margin after `ponderhit`; `isready` always gets `readyok`;
 * the engine is idle and responsive after each sequence.
 *
 * Usage: test_ponder_stress CHARIOT PROTOCOL [--count N] [--seed S]
 *        [--first K] [--margin MS] [--verbose]
 * PROTOCOL is ucci, uci or cecp (XBoard). The seed is printed; each
 * sequence draws from (seed, its index), so `--seed S --first K --count 1`
 * replays sequence K's commands and delays (the engine's timing may still
 * differ). The margin bounds every wait: it catches hangs, it is not a
 * timing assertion. */
#include "test_protocol_driver.h"

#include <inttypes.h>
#include <time.h>

#include "board.h"
#include "test.h"

#if defined(__GNUC__)
#define PROTO_TEST_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PROTO_TEST_PRINTF(f, a)
#endif

enum {
    LOG_CAP = 1 << 15,        /* the transcript kept of the current sequence */
    DELAY_MAX_MS = 20,        /* the longest pause a sequence makes between commands */
    DEFAULT_COUNT = 2000,
    DEFAULT_MARGIN_MS = 10000, /* a hang is what it catches (ctest gives sanitizers and wine 30 s) */
    QUEUE_MAX = 4,            /* answers owed at once (a ponder search and the next go) */
    HASH_MB = 4,              /* small: every (re)start clears it */
    MAX_WALK = 4,             /* random plies added after a position that allows it */
    MAX_MATES = 64            /* proven mates read from mate_short.epd */
};

/* ----------------------------------------------------------- positions */

/* Black to move and already mated (two rooks on ranks 9 and 8). */
static const char *const FEN_MATED = "R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1";
/* Black to move, not in check, and no legal move (a loss in xiangqi). */
static const char *const FEN_STALEMATED = "3k5/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1";
/* Black in check with one legal move, e8d9. */
static const char *const FEN_SINGLE = "R3k4/1R2a4/9/9/9/9/9/9/9/3K5 b - - 0 1";
/* Red mates in one with a1a9. */
static const char *const FEN_MATE_IN_1 = "4k4/1R7/9/9/9/9/9/9/R8/3K5 w - - 0 1";
/* Black to move, mated next move whatever it does. */
static const char *const FEN_LOST = "4k4/1R7/9/9/9/9/9/9/R8/3K5 b - - 0 1";
/* Kings and one advisor each: a dead draw. */
static const char *const FEN_BARE = "3k5/4a4/9/9/9/9/9/9/9/4KA3 w - - 0 1";
/* Small endgame-table material: rook against a bare general, horse against an advisor. */
static const char *const FEN_TB_ROOK = "4k4/9/9/9/9/9/9/9/3R5/3K5 w - - 0 1";
static const char *const FEN_TB_HORSE = "3ak4/9/9/9/9/9/9/9/4N4/3K5 w - - 0 1";
static const char *const FEN_MIDDLE = "2bakr3/4a4/n3b4/2p5p/pc5R1/2P2N3/P3P3P/3CB1N1c/9/2BAKA3 w - - 3 18";

typedef struct Spot {
    const char *name;
    const char *fen;   /* NULL: startpos; MATE_SHORT: one of mate_short.epd's */
    const char *moves; /* played from it first */
    bool walk;         /* random plies may follow */
} Spot;

static const char MATE_SHORT[] = "mate_short.epd";

static const Spot SPOTS[] = {
    {"book: start", NULL, "", false},
    {"book: after h2e2 (mirror)", NULL, "h2e2", false},
    {"opening", NULL, "h2e2 h9g7 h0g2 i9h9", true},
    {"middlegame", FEN_MIDDLE, "", true},
    {"tables: rook v general", FEN_TB_ROOK, "", true},
    {"tables: horse v advisor", FEN_TB_HORSE, "", true},
    {"proven mate", MATE_SHORT, "", false},
    {"fast mate", FEN_MATE_IN_1, "", false},
    {"getting mated", FEN_LOST, "", false},
    {"single legal move", FEN_SINGLE, "", false},
    {"mated", FEN_MATED, "", false},
    {"stalemated", FEN_STALEMATED, "", false},
    {"dead draw", FEN_BARE, "", true},
};
enum { SPOT_NB = (int)(sizeof SPOTS / sizeof *SPOTS) };

/* The proven mates: the FEN part of each line of tests/data/mate_short.epd. */
typedef struct Mates {
    char fen[MAX_MATES][128];
    int count;
} Mates;

static bool load_mates(Mates *m)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/mate_short.epd", CHARIOT_DATA_DIR);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return false;
    }
    char line[512];
    while (m->count < MAX_MATES && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *semi = strchr(line, ';');
        if (!semi)
            continue;
        while (semi > line && semi[-1] == ' ')
            semi--;
        size_t n = (size_t)(semi - line);
        if (n >= sizeof m->fen[0])
            continue;
        memcpy(m->fen[m->count], line, n);
        m->fen[m->count++][n] = '\0';
    }
    fclose(f);
    return m->count > 0;
}

/* ----------------------------------------------------------------- rng */

typedef struct Rng {
    uint64_t s;
} Rng;

static uint64_t rng_next(Rng *r)
{
    uint64_t z = (r->s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static int rng_int(Rng *r, int n) { return n > 0 ? (int)(rng_next(r) % (uint64_t)n) : 0; }
static bool rng_pct(Rng *r, int pct) { return rng_int(r, 100) < pct; }

/* A GUI's pause: none a third of the time, else 1..DELAY_MAX_MS ms. */
static int rng_delay(Rng *r) { return rng_int(r, 3) == 0 ? 0 : 1 + rng_int(r, DELAY_MAX_MS); }

/* ----------------------------------------------------------------- gui */

typedef struct Gui Gui;

/* One protocol: how a GUI starts the engine, and one random sequence of
 * commands that begins and ends with the engine idle. */
typedef struct Protocol {
    const char *name;
    bool (*open)(Gui *g, Rng *r);
    void (*sequence)(Gui *g, Rng *r);
    /* Classifies one engine line (updating the counters below); false for
     * a line the protocol never prints. */
    bool (*on_line)(Gui *g, const char *line);
} Protocol;

/* An answer owed for one `go`. */
typedef struct Owed {
    Board *pos;          /* the position searched */
    bool none_only;      /* `go depth 0`: no move at all */
    int ban_count;
    Move bans[4];
} Owed;

struct Gui {
    const Protocol *proto;
    const char *path;
    const Mates *mates;
    Engine e;
    bool open;
    bool millisec;        /* UCCI: usemillisec true */
    int threads;
    int64_t margin_ms;
    /* What the engine owes. */
    Owed owed[QUEUE_MAX];
    int owed_head, owed_n;
    bool held;            /* the oldest owed answer must not come yet */
    int stray_ok;         /* UCCI: `nobestmove` lines an idle `stop` may print */
    /* Counters of lines seen. */
    long readyok, errors, byes, answers, pong;
    /* Answers that came after the whole clock had run out: reported, not
     * failed (a loaded machine or a sanitizer slows the engine). */
    long timed, late;
    int64_t late_max_ms;
    /* The GUI's view of the engine's position, and its banned moves. */
    Board *pos;
    int ban_count;
    Move bans[4];
    /* CECP: pings not yet answered, each with the answers owed before it. */
    int ping_n, next_ping;
    long ping_due[QUEUE_MAX * 2];
    int ping_id[QUEUE_MAX * 2];
    long pongs;
    Move hint;            /* the engine's last `Hint:` */
    bool game_over;       /* a result or resign was announced */
    int game_plies;       /* plies played since new/setboard */
    /* The current sequence, for the report. */
    uint64_t seed;
    long index;
    const char *what;
    char log[LOG_CAP];
    size_t log_len;
    int64_t log_t0;
    bool failed;
    bool verbose;
};

static void glog(Gui *g, const char *dir, const char *line)
{
    if (g->verbose)
        fprintf(stderr, "%s %s\n", dir, line);
    /* Search output is long and says nothing about the order of answers. */
    if (strncmp(line, "info ", 5) == 0 && strncmp(line, "info string", 11) != 0)
        return;
    if (g->log_len + 200 >= sizeof g->log)
        return;
    int k = snprintf(g->log + g->log_len, sizeof g->log - g->log_len, "  %6lld ms %s %.160s\n",
                     (long long)(drv_now_ms() - g->log_t0), dir, line);
    if (k > 0)
        g->log_len += (size_t)k;
}

static void fail(Gui *g, const char *fmt, ...) PROTO_TEST_PRINTF(2, 3);

static void fail(Gui *g, const char *fmt, ...)
{
    if (g->failed)
        return;
    g->failed = true;
    test_failures++;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "FAIL %s, seed %" PRIu64 ", sequence %ld (%s): %s\n", g->proto->name, g->seed, g->index,
            g->what ? g->what : "start", msg);
    fprintf(stderr, "transcript of the sequence (search info lines left out):\n%s", g->log);
    fprintf(stderr, "replay: test_ponder_stress CHARIOT %s --seed %" PRIu64 " --first %ld --count 1\n",
            g->proto->name, g->seed, g->index);
}

static bool gsend(Gui *g, const char *fmt, ...) PROTO_TEST_PRINTF(2, 3);

static bool gsend(Gui *g, const char *fmt, ...)
{
    char line[DRV_LINE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    glog(g, ">>", line);
    if (!drv_send(&g->e, "%s", line)) {
        fail(g, "cannot write '%s': the engine is gone", line);
        return false;
    }
    return true;
}

static void gsleep(Gui *g, int ms)
{
    if (ms > 0)
        drv_sleep_ms(ms);
    (void)g;
}

/* Reads one line and accounts for it: 1 got one, 0 none in time, -1 EOF. */
static int gread(Gui *g, int timeout_ms)
{
    char line[DRV_LINE];
    int r = drv_getline(&g->e, line, sizeof line, timeout_ms);
    if (r <= 0)
        return r;
    glog(g, "<<", line);
    /* Every line whole and known: interleaved output from two threads
     * would show up here. */
    if (!g->proto->on_line(g, line))
        fail(g, "a line the protocol does not have: '%.80s'", line);
    drv_mark(&g->e);
    return 1;
}

/* Reads what is already there, without waiting. */
static void gpoll(Gui *g)
{
    while (!g->failed && gread(g, 0) > 0) {
    }
}

static int64_t now_ms(void) { return drv_now_ms(); }

/* Reads lines until *counter reaches target, for at most wait_ms. */
static bool gwait(Gui *g, const long *counter, long target, int64_t wait_ms, const char *what)
{
    int64_t deadline = now_ms() + wait_ms;
    while (!g->failed && *counter < target) {
        int64_t left = deadline - now_ms();
        if (left < 0) {
            fail(g, "no %s within %lld ms", what, (long long)wait_ms);
            return false;
        }
        int r = gread(g, (int)left);
        if (r < 0) {
            fail(g, "the engine ended its output while a %s was due", what);
            return false;
        }
    }
    return !g->failed;
}

/* Waits until every owed answer has come. */
static bool gwait_answers(Gui *g, int64_t wait_ms, const char *what)
{
    long target = g->answers + g->owed_n;
    return gwait(g, &g->answers, target, wait_ms, what);
}

/* Waits for the answers of a timed search whose whole clock is budget_ms,
 * noting one that comes after it. */
static bool gwait_timed(Gui *g, int64_t budget_ms, const char *what)
{
    int64_t t0 = now_ms();
    bool ok = gwait_answers(g, budget_ms + g->margin_ms, what);
    int64_t over = now_ms() - t0 - budget_ms;
    g->timed++;
    if (ok && over > 0) {
        if (g->late < 10)
            printf("late: sequence %ld (%s), %s %lld ms after a clock of %lld ms\n", g->index, g->what, what,
                   (long long)over, (long long)budget_ms);
        g->late++;
        if (over > g->late_max_ms)
            g->late_max_ms = over;
    }
    return ok;
}

/* ------------------------------------------------------------- answers */

static void owe(Gui *g, bool none_only)
{
    if (g->owed_n == QUEUE_MAX) {
        fail(g, "test bug: too many answers owed");
        return;
    }
    Owed *o = &g->owed[(g->owed_head + g->owed_n++) % QUEUE_MAX];
    *o->pos = *g->pos;
    o->none_only = none_only;
    o->ban_count = g->ban_count;
    memcpy(o->bans, g->bans, sizeof o->bans);
}

static bool banned(const Owed *o, Move m)
{
    for (int i = 0; i < o->ban_count; i++)
        if (o->bans[i] == m)
            return true;
    return false;
}

/* Legal moves of the owed position that are not banned. */
static int playable(const Owed *o)
{
    MoveList list;
    board_generate(o->pos, GEN_ALL, &list);
    int n = 0;
    for (int i = 0; i < list.count; i++)
        n += !banned(o, list.moves[i]);
    return n;
}

/* An answer arrived: move is the ICCS text (4 chars) or NULL for "no
 * move"; ponder is the suggested reply or NULL. */
static void answered(Gui *g, const char *move, const char *ponder, bool idle_stop_word, bool any_end)
{
    if (g->owed_n == 0) {
        if (idle_stop_word && g->stray_ok > 0) {
            g->stray_ok--;
            return;
        }
        fail(g, "an answer that no go asked for");
        return;
    }
    if (g->held) {
        fail(g, "an answer before ponderhit/stop");
        return;
    }
    Owed *o = &g->owed[g->owed_head];
    g->owed_head = (g->owed_head + 1) % QUEUE_MAX;
    g->owed_n--;
    g->answers++;
    int n = playable(o);
    if (!move) {
        if (n > 0 && !o->none_only && !any_end)
            fail(g, "no move, with %d legal moves to play", n);
        return;
    }
    if (o->none_only) {
        fail(g, "a move for go depth 0");
        return;
    }
    Move m = move_from_iccs(move);
    if (m == MOVE_NONE || !board_is_legal(o->pos, m) || banned(o, m)) {
        fail(g, "move %.4s is not legal (or banned) in the position searched", move);
        return;
    }
    if (ponder) {
        Move p = move_from_iccs(ponder);
        board_make(o->pos, m);
        bool ok = p != MOVE_NONE && board_is_legal(o->pos, p);
        board_unmake(o->pos);
        if (!ok)
            fail(g, "ponder move %.4s is not legal after %.4s", ponder, move);
    }
}

/* --------------------------------------------------------- positions */

/* Plays a space-separated ICCS list; false on an illegal move. */
static bool play_moves(Board *b, const char *moves)
{
    for (const char *p = moves; *p;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        Move m = move_from_iccs(p);
        if (m == MOVE_NONE || !board_is_legal(b, m))
            return false;
        board_make(b, m);
        while (*p && *p != ' ')
            p++;
    }
    return true;
}

/* Chooses a position (a Spot, maybe a few random plies on) and writes the
 * command's text after "position " into out; g->pos becomes it. */
static void pick_position(Gui *g, Rng *r, char *out, size_t cap, const char **name)
{
    const Spot *s = &SPOTS[rng_int(r, SPOT_NB)];
    *name = s->name;
    const char *fen = s->fen == MATE_SHORT ? g->mates->fen[rng_int(r, g->mates->count)] : s->fen;
    if (!board_from_fen(g->pos, fen ? fen : BOARD_START_FEN, NULL, 0) || !play_moves(g->pos, s->moves)) {
        fail(g, "test bug: bad position %s", s->name);
        return;
    }
    char moves[256];
    snprintf(moves, sizeof moves, "%s", s->moves);
    int walk = s->walk ? rng_int(r, MAX_WALK + 1) : 0;
    for (int i = 0; i < walk; i++) {
        MoveList list;
        board_generate(g->pos, GEN_ALL, &list);
        if (list.count == 0)
            break;
        Move m = list.moves[rng_int(r, list.count)];
        char ms[5];
        move_to_iccs(m, ms);
        size_t k = strlen(moves);
        snprintf(moves + k, sizeof moves - k, "%s%s", k ? " " : "", ms);
        board_make(g->pos, m);
    }
    if (fen)
        snprintf(out, cap, "fen %s%s%s", fen, moves[0] ? " moves " : "", moves);
    else
        snprintf(out, cap, "startpos%s%s", moves[0] ? " moves " : "", moves);
    g->ban_count = 0;
}

/* ------------------------------------------------- UCCI and UCI (one family) */

static bool is_uci(const Gui *g) { return strcmp(g->proto->name, "uci") == 0; }

static bool iccs_token(const char *s)
{
    return s[0] >= 'a' && s[0] <= 'i' && s[1] >= '0' && s[1] <= '9' && s[2] >= 'a' && s[2] <= 'i' && s[3] >= '0' &&
           s[3] <= '9' && (s[4] == '\0' || s[4] == ' ');
}

static bool uf_on_line(Gui *g, const char *line)
{
    if (drv_is(line, "readyok")) {
        g->readyok++;
        return true;
    }
    if (drv_is(line, "nobestmove")) {
        answered(g, NULL, NULL, true, false);
        return !is_uci(g);
    }
    if (drv_is(line, "bestmove")) {
        if (line[8] == '\0')
            return false;
        const char *m = line + 9;
        if (strcmp(m, "(none)") == 0) {
            answered(g, NULL, NULL, false, false);
            return is_uci(g);
        }
        if (!iccs_token(m))
            return false;
        const char *rest = m + 4, *ponder = NULL;
        if (strncmp(rest, " ponder ", 8) == 0 && iccs_token(rest + 8)) {
            ponder = rest + 8;
            rest += 12;
        }
        /* UCCI adds a draw offer or a resignation. */
        if (*rest && !(!is_uci(g) && (strcmp(rest, " draw") == 0 || strcmp(rest, " resign") == 0)))
            return false;
        answered(g, m, ponder, false, false);
        return true;
    }
    if (drv_is(line, "info")) {
        if (strncmp(line, "info string error", 17) == 0)
            g->errors++;
        return true;
    }
    if (drv_is(line, "bye")) {
        g->byes++;
        return !is_uci(g);
    }
    return drv_is(line, "id") || drv_is(line, "option") || drv_is(line, "ucciok") || drv_is(line, "uciok");
}

static bool uf_setoption(Gui *g, const char *ucci_name, const char *uci_name, const char *value)
{
    if (is_uci(g))
        return gsend(g, "setoption name %s value %s", uci_name, value);
    return gsend(g, "setoption %s %s", ucci_name, value);
}

static bool uf_sync(Gui *g, const char *what)
{
    return gsend(g, "isready") && gwait(g, &g->readyok, g->readyok + 1, g->margin_ms, what);
}

static bool uf_open(Gui *g, Rng *r)
{
    if (!drv_start(&g->e, g->path)) {
        fail(g, "cannot start %s", g->path);
        return false;
    }
    g->open = true;
    g->owed_n = g->owed_head = 0;
    g->held = false;
    g->stray_ok = 0;
    bool uci = is_uci(g);
    if (!gsend(g, uci ? "uci" : "ucci"))
        return false;
    /* The handshake's last line; counted through a local flag. */
    int64_t deadline = now_ms() + g->margin_ms;
    char line[DRV_LINE];
    for (;;) {
        int left = (int)(deadline - now_ms());
        int k = left > 0 ? drv_getline(&g->e, line, sizeof line, left) : 0;
        if (k <= 0) {
            fail(g, "no %s", uci ? "uciok" : "ucciok");
            return false;
        }
        if (!drv_is(line, "option"))
            glog(g, "<<", line);
        if (strcmp(line, uci ? "uciok" : "ucciok") == 0)
            break;
    }
    drv_mark(&g->e);
    char v[1100];
    snprintf(v, sizeof v, "%d", HASH_MB);
    uf_setoption(g, "hashsize", "Hash", v);
    /* Mostly one search thread (the machine is shared); two now and then,
     * for the helper threads' share of races. */
    g->threads = rng_pct(r, 25) ? 2 : 1;
    snprintf(v, sizeof v, "%d", g->threads);
    uf_setoption(g, "threads", "Threads", v);
    uf_setoption(g, "ponder", "Ponder", "true");
    if (rng_pct(r, 80)) {
        snprintf(v, sizeof v, "%s/book_small.dat", CHARIOT_DATA_DIR);
        uf_setoption(g, "bookfiles", "BookFile", v);
    }
    g->millisec = !uci && rng_pct(r, 50);
    if (g->millisec)
        gsend(g, "setoption usemillisec true");
    if (uci)
        gsend(g, "ucinewgame");
    return uf_sync(g, "readyok after the options");
}

/* The engine's end: `quit`, then (UCCI) `bye`, end of output, exit code 0.
 * An answer still owed may come first or not at all. */
static void gclose(Gui *g, bool send_quit)
{
    if (!g->open)
        return;
    if (send_quit)
        gsend(g, "quit");
    else
        proc_close_input(&g->e.proc);
    g->held = false;
    long byes = g->byes;
    int64_t deadline = now_ms() + g->margin_ms;
    /* Owed answers are optional now: the GUI has left. */
    while (!g->failed) {
        int left = (int)(deadline - now_ms());
        if (left <= 0) {
            fail(g, "no end of output within %lld ms of quit", (long long)g->margin_ms);
            break;
        }
        if (gread(g, left) < 0)
            break;
    }
    if (send_quit && strcmp(g->proto->name, "ucci") == 0 && g->byes != byes + 1)
        fail(g, "quit: %ld bye lines", g->byes - byes);
    int code = drv_wait_exit(&g->e, (int)g->margin_ms);
    if (code != 0)
        fail(g, "exit code %d after quit (a sanitizer report exits non-zero)", code);
    g->open = false;
    g->owed_n = g->owed_head = 0;
}

typedef struct Clock {
    char text[160];
    int64_t budget_ms;   /* the most a timed search may take after ponderhit */
    bool infinite;       /* no limit: after ponderhit it still waits for stop */
} Clock;

/* A clock the way a GUI sends it, in this dialect: mostly a short game
 * clock, sometimes movetime, a depth or a node count, or nothing. */
static void uf_clock(Gui *g, Rng *r, Clock *c)
{
    int k = rng_int(r, 10);
    c->infinite = false;
    if (k == 0) {
        c->text[0] = '\0';
        c->infinite = true;
        c->budget_ms = 0;
        return;
    }
    if (k == 3 && rng_pct(r, 50)) {
        /* fixed depth or nodes: ends by itself, held until ponderhit/stop */
        if (rng_pct(r, 50))
            snprintf(c->text, sizeof c->text, "depth %d", 1 + rng_int(r, 3));
        else
            snprintf(c->text, sizeof c->text, "nodes %d", 100 + rng_int(r, 5000));
        c->budget_ms = 0;
        return;
    }
    if (k <= 2) {
        int mt = 5 + rng_int(r, 60);
        snprintf(c->text, sizeof c->text, "movetime %d", mt);
        c->budget_ms = mt;
        return;
    }
    int t = 150 + rng_int(r, 850), inc = rng_pct(r, 50) ? rng_int(r, 20) : 0;
    if (is_uci(g)) {
        snprintf(c->text, sizeof c->text, "wtime %d btime %d winc %d binc %d", t, t, inc, inc);
    } else if (g->millisec) {
        snprintf(c->text, sizeof c->text, "time %d increment %d opptime %d oppincrement %d", t, inc, t, inc);
    } else {
        snprintf(c->text, sizeof c->text, "time %d.%03d increment 0.%03d opptime %d.%03d oppincrement 0.%03d",
                 t / 1000, t % 1000, inc, t / 1000, t % 1000, inc);
    }
    c->budget_ms = t + inc;
}

/* Waits for an answer owed to a search that may take the clock's budget. */
static bool uf_wait_answer(Gui *g, const Clock *c, const char *what)
{
    if (c->budget_ms > 0)
        return gwait_timed(g, c->budget_ms, what);
    return gwait_answers(g, g->margin_ms, what);
}

/* After the sequence: isready answered, nothing owed, and an idle `stop`
 * (UCCI: nobestmove) printed by now. */
static void uf_settle(Gui *g)
{
    if (g->failed)
        return;
    if (uf_sync(g, "readyok at the end of the sequence") && g->owed_n != 0)
        fail(g, "%d answer(s) still owed at the end of the sequence", g->owed_n);
    g->stray_ok = 0;
}

/* A GUI's `stop`; when the engine may already be idle, UCCI answers it with
 * nobestmove. */
static void uf_stop(Gui *g, bool maybe_idle)
{
    gsend(g, "stop");
    g->held = false;
    if (maybe_idle && !is_uci(g))
        g->stray_ok++;
}

/* go ponder (or go infinite) and then what GUIs do while it runs. */
static void uf_held_search(Gui *g, Rng *r, bool ponder, bool depth0)
{
    Clock c;
    uf_clock(g, r, &c);
    if (depth0) {
        snprintf(c.text, sizeof c.text, "depth 0");
        c.budget_ms = 0;
        c.infinite = false;
    }
    bool draw = !is_uci(g) && rng_pct(r, 10);
    if (ponder)
        gsend(g, "go ponder%s %s", draw ? " draw" : "", c.text);
    else
        gsend(g, "go infinite");
    owe(g, depth0);
    g->held = true;
    bool hit = !ponder; /* an infinite search has nothing to hit */
    for (int step = 0; step < 8 && !g->failed && g->owed_n > 0; step++) {
        gsleep(g, rng_delay(r));
        gpoll(g);
        int a = rng_int(r, 100);
        if (a < 20) {
            /* isready: readyok now, no answer */
            uf_sync(g, "readyok while pondering");
        } else if (a < 45 && hit) {
            /* A stray ponderhit (after one, or in analysis) changes nothing. */
            gsend(g, "ponderhit");
            uf_sync(g, "readyok after a stray ponderhit");
        } else if (a < 45) {
            gsend(g, "ponderhit%s", !is_uci(g) && rng_pct(r, 10) ? " draw" : "");
            hit = true;
            if (!c.infinite) {
                g->held = false;
                if (rng_pct(r, 15)) {
                    /* a GUI's stop racing the answer */
                    uf_stop(g, true);
                }
                uf_wait_answer(g, &c, "answer after ponderhit");
            }
        } else if (a < 65) {
            uf_stop(g, false);
            gwait_answers(g, g->margin_ms, "answer after stop");
        } else if (a < 75) {
            /* A ponder miss: stop, then at once the next position and go. */
            char pos[600];
            const char *name;
            uf_stop(g, false);
            pick_position(g, r, pos, sizeof pos, &name);
            gsend(g, "position %s", pos);
            Clock c2;
            uf_clock(g, r, &c2);
            if (c2.infinite)
                snprintf(c2.text, sizeof c2.text, "depth 1");
            gsend(g, "go %s", c2.text);
            owe(g, false);
            uf_wait_answer(g, &c2, "answers after stop + position + go");
        } else if (a < 85) {
            /* A GUI that forgets stop: the go (or a new game) is refused
             * with an error, the search goes on, and a new position waits
             * for the next go. */
            long errors = g->errors;
            if (rng_pct(r, 70)) {
                char pos[600];
                const char *name;
                pick_position(g, r, pos, sizeof pos, &name);
                gsend(g, "position %s", pos);
                gsend(g, rng_pct(r, 50) ? "go ponder %s" : "go %s", c.text);
            } else if (is_uci(g)) {
                gsend(g, "ucinewgame");
            } else {
                gsend(g, "setoption newgame");
            }
            if (uf_sync(g, "readyok after a refused command") && g->errors != errors + 1)
                fail(g, "a command refused while thinking: %ld error lines, expected 1", g->errors - errors);
        } else if (a < 87 && rng_pct(r, 25)) {
            /* Now and then (an engine start is slow under TSan and wine):
             * quit, or the GUI dies and input ends. */
            gclose(g, rng_pct(r, 70));
            return;
        }
    }
    if (!g->failed && g->owed_n > 0) {
        uf_stop(g, false);
        gwait_answers(g, g->margin_ms, "answer after the closing stop");
    }
}

/* A plain timed go, maybe stopped early. */
static void uf_timed_search(Gui *g, Rng *r)
{
    Clock c;
    uf_clock(g, r, &c);
    if (c.infinite)
        snprintf(c.text, sizeof c.text, "depth %d", 1 + rng_int(r, 3));
    gsend(g, "go%s %s", !is_uci(g) && rng_pct(r, 10) ? " draw" : "", c.text);
    owe(g, false);
    if (rng_pct(r, 40)) {
        gsleep(g, rng_delay(r));
        if (rng_pct(r, 30))
            uf_sync(g, "readyok while searching");
        uf_stop(g, true);
    }
    uf_wait_answer(g, &c, "answer to a timed go");
}

static void uf_sequence(Gui *g, Rng *r)
{
    char pos[600];
    pick_position(g, r, pos, sizeof pos, &g->what);
    if (g->failed)
        return;
    gsend(g, "position %s", pos);
    if (rng_pct(r, 10)) {
        /* ban a random legal move (or the only one) */
        MoveList list;
        board_generate(g->pos, GEN_ALL, &list);
        if (list.count > 0) {
            Move m = list.moves[rng_int(r, list.count)];
            char ms[5];
            move_to_iccs(m, ms);
            gsend(g, "banmoves %s", ms);
            g->bans[g->ban_count++] = m;
        }
    }
    int k = rng_int(r, 100);
    if (k < 60)
        uf_held_search(g, r, true, false);
    else if (k < 65)
        uf_held_search(g, r, true, true);
    else if (k < 75)
        uf_held_search(g, r, false, false);
    else if (k < 80) {
        gsend(g, "go depth 0");
        owe(g, true);
        gwait_answers(g, g->margin_ms, "answer to go depth 0");
    } else {
        uf_timed_search(g, r);
    }
    if (g->open)
        uf_settle(g);
}

/* ------------------------------------------------------- CECP (XBoard) */

/* XBoard plays a game: the engine answers its own turns with `move X` (or
 * a result or `resign`), and with `hard` ponders on the opponent's time;
 * the GUI's `usermove` is the predicted reply (a hit) or another move (a
 * miss). Nothing but an engine turn may bring a `move`. */

static bool cecp_on_line(Gui *g, const char *line)
{
    if (strncmp(line, "move ", 5) == 0) {
        if (!iccs_token(line + 5) || line[9] != '\0')
            return false;
        if (g->owed_n > 0) {
            answered(g, line + 5, NULL, false, false);
            if (!g->failed) {
                board_make(g->pos, move_from_iccs(line + 5));
                g->game_plies++;
                g->hint = MOVE_NONE;
            }
        } else {
            fail(g, "a move when it was not the engine's turn");
        }
        return true;
    }
    if (drv_is(line, "pong")) {
        long n = strtol(line + 5, NULL, 10);
        if (g->ping_n == 0 || g->ping_id[0] != n)
            fail(g, "pong %ld: not the oldest ping unanswered", n);
        else if (g->answers < g->ping_due[0])
            fail(g, "pong %ld before the move owed by an earlier command", n);
        if (g->ping_n > 0) {
            g->ping_n--;
            memmove(g->ping_id, g->ping_id + 1, (size_t)g->ping_n * sizeof *g->ping_id);
            memmove(g->ping_due, g->ping_due + 1, (size_t)g->ping_n * sizeof *g->ping_due);
        }
        g->pongs++;
        return true;
    }
    if (strncmp(line, "Hint: ", 6) == 0) {
        g->hint = iccs_token(line + 6) ? move_from_iccs(line + 6) : MOVE_NONE;
        return true;
    }
    bool resign = drv_is(line, "resign");
    if (resign || drv_is(line, "1-0") || drv_is(line, "0-1") || drv_is(line, "1/2-1/2")) {
        /* A rule verdict or a resignation ends the game whatever the
         * moves; "is mated"/"is stalemated" needs a side without moves. */
        bool rule = resign || strstr(line, "loses by") != NULL || drv_is(line, "1/2-1/2");
        if (g->owed_n > 0) {
            answered(g, NULL, NULL, false, rule);
        } else if (!rule && board_has_legal_move(g->pos)) {
            fail(g, "a result with legal moves on the board");
        }
        g->game_over = true;
        return true;
    }
    if (strncmp(line, "Error", 5) == 0 || strncmp(line, "Illegal move", 12) == 0 ||
        strncmp(line, "tellusererror", 13) == 0) {
        g->errors++;
        return true;
    }
    /* Thinking output starts with the depth. */
    if ((line[0] >= '0' && line[0] <= '9') || line[0] == '#')
        return true;
    return drv_is(line, "feature") || drv_is(line, "offer") || drv_is(line, "telluser") || drv_is(line, "stat01:") ||
           drv_is(line, "tellics") || drv_is(line, "tellopponent");
}

static bool cecp_ping(Gui *g)
{
    if (g->ping_n == (int)(sizeof g->ping_id / sizeof *g->ping_id)) {
        fail(g, "test bug: too many pings");
        return false;
    }
    int id = ++g->next_ping;
    g->ping_id[g->ping_n] = id;
    g->ping_due[g->ping_n++] = g->answers + g->owed_n;
    return gsend(g, "ping %d", id);
}

/* Sends ping and waits for its pong (and the moves owed before it). */
static bool cecp_sync(Gui *g, int64_t wait_ms, const char *what)
{
    long target = g->pongs + g->ping_n + 1;
    return cecp_ping(g) && gwait(g, &g->pongs, target, wait_ms, what);
}

static bool cecp_open(Gui *g, Rng *r)
{
    if (!drv_start(&g->e, g->path)) {
        fail(g, "cannot start %s", g->path);
        return false;
    }
    g->open = true;
    g->owed_n = g->owed_head = 0;
    g->held = false;
    g->ping_n = 0;
    gsend(g, "xboard");
    gsend(g, "protover 2");
    int64_t deadline = now_ms() + g->margin_ms;
    char line[DRV_LINE];
    for (;;) {
        int left = (int)(deadline - now_ms());
        int k = left > 0 ? drv_getline(&g->e, line, sizeof line, left) : 0;
        if (k <= 0) {
            fail(g, "no feature done=1");
            return false;
        }
        if (strstr(line, "done=1"))
            break;
    }
    drv_mark(&g->e);
    gsend(g, "accepted usermove");
    gsend(g, "new");
    gsend(g, "variant xiangqi");
    gsend(g, "memory %d", HASH_MB);
    g->threads = rng_pct(r, 25) ? 2 : 1;
    gsend(g, "cores %d", g->threads);
    if (rng_pct(r, 80))
        gsend(g, "option BookFile=%s/book_small.dat", CHARIOT_DATA_DIR);
    gsend(g, "force");
    return cecp_sync(g, g->margin_ms, "pong after the set-up");
}

/* The clocks XBoard sends before an engine turn; the most the move may take. */
static int64_t cecp_clock(Gui *g, Rng *r)
{
    int t = 10 + rng_int(r, 40); /* centiseconds: short turns, some below the engine reserve */
    gsend(g, "time %d", t);
    gsend(g, "otim %d", t);
    return (int64_t)t * 10;
}

/* Waits for the engine's move (or result), now and then with a ping or a
 * `?` (move now) while it thinks. */
static void cecp_await_turn(Gui *g, Rng *r, int64_t budget_ms)
{
    if (rng_pct(r, 15))
        cecp_ping(g);
    if (rng_pct(r, 15)) {
        gsleep(g, rng_delay(r));
        gsend(g, "?");
    } else if (rng_pct(r, 5)) {
        /* an engine setting from the GUI's dialog mid-search: moves now */
        gsleep(g, rng_delay(r));
        if (rng_pct(r, 50))
            gsend(g, "memory %d", HASH_MB);
        else
            gsend(g, "cores %d", g->threads);
    }
    gwait_timed(g, budget_ms, "move on the engine's turn");
}

/* A random legal move of the side to move, or the engine's hint. */
static bool cecp_user_move(Gui *g, Rng *r, char ms[5])
{
    MoveList list;
    board_generate(g->pos, GEN_ALL, &list);
    if (list.count == 0)
        return false;
    Move m = list.moves[rng_int(r, list.count)];
    if (g->hint != MOVE_NONE && board_is_legal(g->pos, g->hint) && rng_pct(r, 60))
        m = g->hint;
    move_to_iccs(m, ms);
    return true;
}

/* Analysis mode: `analyze`, moves, `.`, `undo`, `exit`: never a move. */
static void cecp_analyze(Gui *g, Rng *r)
{
    gsend(g, "post");
    gsend(g, "analyze");
    int plies = 0;
    for (int step = 0; step < 5 && !g->failed; step++) {
        gsleep(g, rng_delay(r));
        gpoll(g);
        int a = rng_int(r, 100);
        char ms[5];
        if (a < 40 && cecp_user_move(g, r, ms)) {
            gsend(g, "usermove %s", ms);
            board_make(g->pos, move_from_iccs(ms));
            plies++;
        } else if (a < 55 && plies > 0) {
            gsend(g, "undo");
            board_unmake(g->pos);
            plies--;
        } else if (a < 75) {
            gsend(g, ".");
        } else {
            cecp_sync(g, g->margin_ms, "pong while analysing");
        }
    }
    gsend(g, "exit");
    cecp_sync(g, g->margin_ms, "pong after exit");
}

static void cecp_sequence(Gui *g, Rng *r)
{
    char pos[600];
    pick_position(g, r, pos, sizeof pos, &g->what);
    if (g->failed)
        return;
    /* XBoard's way to a position: new, force, setboard, then the moves. */
    gsend(g, "new");
    gsend(g, "variant xiangqi");
    gsend(g, "force");
    const char *moves = strstr(pos, " moves ");
    if (strncmp(pos, "fen ", 4) == 0) {
        int n = moves ? (int)(moves - pos) - 4 : (int)strlen(pos) - 4;
        gsend(g, "setboard %.*s", n, pos + 4);
    }
    for (const char *p = moves ? moves + 7 : ""; *p; p += p[4] ? 5 : 4)
        gsend(g, "usermove %.4s", p);
    g->game_over = false;
    g->game_plies = 0;
    g->hint = MOVE_NONE;
    if (rng_pct(r, 8)) {
        cecp_analyze(g, r);
        if (g->open && !g->failed) {
            gsend(g, "force");
            cecp_sync(g, g->margin_ms, "pong at the end of the sequence");
        }
        return;
    }
    gsend(g, rng_pct(r, 80) ? "hard" : "easy");
    gsend(g, rng_pct(r, 70) ? "post" : "nopost");
    gsend(g, rng_pct(r, 50) ? "level 0 0:01 0" : "level 40 0:02 0");
    if (rng_pct(r, 20))
        gsend(g, "sd %d", 1 + rng_int(r, 4));
    int64_t budget = cecp_clock(g, r);
    gsend(g, "go");
    owe(g, false);
    int turns = 1 + rng_int(r, 3);
    for (int turn = 0; turn < turns && !g->failed; turn++) {
        cecp_await_turn(g, r, budget);
        if (g->failed || g->game_over || !board_has_legal_move(g->pos))
            break;
        /* The engine ponders now (with hard); nothing may come from it
         * but thinking output until the GUI's move. */
        bool user_moved = false;
        for (int step = 0; step < 4 && !g->failed && !user_moved; step++) {
            gsleep(g, rng_delay(r));
            gpoll(g);
            int a = rng_int(r, 100);
            if (a < 55) {
                char ms[5];
                if (!cecp_user_move(g, r, ms))
                    break;
                budget = cecp_clock(g, r);
                gsend(g, "usermove %s", ms);
                board_make(g->pos, move_from_iccs(ms));
                g->game_plies++;
                owe(g, false);
                user_moved = true;
            } else if (a < 63) {
                cecp_sync(g, g->margin_ms, "pong while pondering");
            } else if (a < 67) {
                gsend(g, "?"); /* nothing to move now: ignored */
                cecp_sync(g, g->margin_ms, "pong after ? while pondering");
            } else if (a < 71) {
                gsend(g, "easy");
                cecp_sync(g, g->margin_ms, "pong after easy");
            } else if (a < 73) {
                gsend(g, "hint");
                cecp_sync(g, g->margin_ms, "pong after hint");
            } else if (a < 75) {
                gsend(g, "memory %d", HASH_MB);
                cecp_sync(g, g->margin_ms, "pong after memory while pondering");
            } else if (a < 81 && g->game_plies >= 1) {
                /* WinBoard's take-back of the engine's move, then "move now" */
                gsend(g, "force");
                gsend(g, "undo");
                board_unmake(g->pos);
                g->game_plies--;
                g->hint = MOVE_NONE;
                budget = cecp_clock(g, r);
                gsend(g, "go");
                owe(g, false);
                user_moved = true;
            } else if (a < 86 && g->game_plies >= 2) {
                /* take back the engine's move and the one before it */
                gsend(g, "remove");
                board_unmake(g->pos);
                board_unmake(g->pos);
                g->game_plies -= 2;
                g->hint = MOVE_NONE;
                cecp_sync(g, g->margin_ms, "pong after remove");
            } else if (a < 92) {
                gsend(g, "force");
                turn = turns;
                break;
            } else if (a < 97 || !rng_pct(r, 25)) {
                gsend(g, "new");
                turn = turns;
                break;
            } else {
                gclose(g, rng_pct(r, 80));
                return;
            }
        }
        if (!user_moved)
            break;
    }
    if (g->open && !g->failed) {
        if (g->owed_n > 0)
            gwait_answers(g, budget + g->margin_ms, "move on the engine's turn");
        gsend(g, "force");
        cecp_sync(g, g->margin_ms, "pong at the end of the sequence");
    }
}

static const Protocol PROTOCOLS[] = {
    {"ucci", uf_open, uf_sequence, uf_on_line},
    {"uci", uf_open, uf_sequence, uf_on_line},
    {"cecp", cecp_open, cecp_sequence, cecp_on_line},
};

/* ----------------------------------------------------------------- main */

static uint64_t seq_seed(uint64_t seed, long index)
{
    Rng r = {seed ^ (UINT64_C(0xD1B54A32D192ED03) * (uint64_t)(index + 1))};
    return rng_next(&r);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_ponder_stress CHARIOT ucci|uci|cecp [--count N] [--seed S] [--first K] "
                        "[--margin MS] [--verbose]\n");
        return 2;
    }
    const Protocol *proto = NULL;
    for (size_t i = 0; i < sizeof PROTOCOLS / sizeof *PROTOCOLS; i++)
        if (strcmp(argv[2], PROTOCOLS[i].name) == 0)
            proto = &PROTOCOLS[i];
    if (!proto) {
        fprintf(stderr, "unknown protocol %s\n", argv[2]);
        return 2;
    }
    long count = DEFAULT_COUNT, first = 0;
    int64_t margin = DEFAULT_MARGIN_MS;
    uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)proc_now_ms() << 20);
    bool verbose = false;
    for (int i = 3; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--verbose") == 0) {
            verbose = true;
            continue;
        }
        if (!v) {
            fprintf(stderr, "%s needs a value\n", a);
            return 2;
        }
        i++;
        if (strcmp(a, "--count") == 0)
            count = strtol(v, NULL, 10);
        else if (strcmp(a, "--seed") == 0)
            seed = strtoull(v, NULL, 10);
        else if (strcmp(a, "--first") == 0)
            first = strtol(v, NULL, 10);
        else if (strcmp(a, "--margin") == 0)
            margin = strtoll(v, NULL, 10);
        else {
            fprintf(stderr, "unknown argument %s\n", a);
            return 2;
        }
    }
    board_init();
    Mates *mates = calloc(1, sizeof *mates);
    if (!mates || !load_mates(mates))
        return 2;
    printf("ponder stress: %s, %ld sequences from %ld, seed %" PRIu64 ", margin %lld ms\n", proto->name, count,
           first, seed, (long long)margin);
    fflush(stdout);

    Gui *g = calloc(1, sizeof *g);
    g->proto = proto;
    g->path = argv[1];
    g->mates = mates;
    g->margin_ms = margin;
    g->seed = seed;
    g->verbose = verbose;
    g->pos = calloc(1, sizeof *g->pos);
    for (int i = 0; i < QUEUE_MAX; i++)
        g->owed[i].pos = calloc(1, sizeof(Board));
    int64_t t0 = now_ms();
    long done = 0, restarts = 0;
    for (long i = first; i < first + count && !g->failed; i++) {
        Rng r = {seq_seed(seed, i)};
        g->index = i;
        g->what = NULL;
        g->log_len = 0;
        g->log[0] = '\0';
        g->log_t0 = now_ms();
        if (!g->open) {
            /* its own draws, so that a replay from --first K matches */
            Rng ro = {seq_seed(seed ^ UINT64_C(0x5bd1e995), i)};
            restarts++;
            if (!proto->open(g, &ro))
                break;
        }
        proto->sequence(g, &r);
        done++;
    }
    if (!g->failed) {
        g->what = "final quit";
        gclose(g, true);
    } else if (g->open) {
        proc_kill(&g->e.proc);
        proc_close_pipes(&g->e.proc);
    }
    printf("%ld sequences, %ld engine starts, %ld answers, %.1f s\n", done, restarts, g->answers,
           (double)(now_ms() - t0) / 1000.0);
    printf("timed answers: %ld, after the whole clock: %ld (at most %lld ms after)\n", g->timed, g->late,
           (long long)g->late_max_ms);
    drv_mark(&g->e);
    for (int i = 0; i < QUEUE_MAX; i++)
        free(g->owed[i].pos);
    free(g->pos);
    free(g);
    free(mates);
    TEST_END();
}
