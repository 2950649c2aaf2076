/* test_protocol_fuzz.c — deterministic fuzzing for ctest: a fixed-seed
 * mutator feeds mutated UCCI/UCI lines, random bytes and long lines to the
 * line parser in-process, mutated FENs to board_from_fen, and a smaller
 * stream of mutated lines through the real binary.
 * Usage: test_protocol_fuzz parser [N] | fen [N] | binary CHARIOT [N]. */
#include "test_protocol_driver.h"

#include <ctype.h>

#include "board.h"
#include "server_internal.h"
#include "test.h"

typedef struct Rng {
    uint64_t s;
} Rng;

static uint64_t rng_next(Rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1DULL;
}

static size_t rng_below(Rng *r, size_t n) { return n ? (size_t)(rng_next(r) % n) : 0; }

static const char *const SEEDS[] = {
    "ucci",
    "uci",
    "isready",
    "ucinewgame",
    "setoption usemillisec true",
    "setoption newgame",
    "setoption pruning none",
    "setoption style risky",
    "setoption randomness tiny",
    "setoption multipv 3",
    "setoption resign 800",
    "setoption bookfiles C:\\XQ\\BOOK.DAT;D:\\other.dat",
    "setoption name Move Overhead value 30",
    "setoption name MultiPV value 2",
    "setoption name Ponder value true",
    "position startpos",
    "position startpos moves h2e2 h9g7 h0g2 i9h9",
    "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h7e7",
    "position fen rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r - - 0 1 moves",
    "position fen 4k4/1R7/9/9/9/9/9/9/R8/3K5 w - - 0 1",
    "position fen 3k5/4a4/9/9/9/9/9/9/9/4KA3 w",
    "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b0c2",
    "startpos moves c3c4 g6g5",
    "banmoves h2e2 b2e2",
    "go depth 3",
    "go depth 0",
    "go depth infinite",
    "go nodes 3000",
    "go time 60 increment 1 opptime 60 oppincrement 1",
    "go ponder time 300 movestogo 40 opptime 300 oppmovestogo 40",
    "go draw time 1000 opptime 1000 depth 4",
    "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 20",
    "go movetime 50",
    "go mate 2",
    "go infinite",
    "go searchmoves h2e2 b2e2 depth 3",
    "ponderhit",
    "ponderhit draw",
    "stop",
    "probe startpos moves h2e2",
    "probe fen 4k4/1R7/9/9/9/9/9/9/R8/3K5 w - - 0 1",
    "probe",
    "quit",
    "debug on",
};
enum { SEED_NB = sizeof SEEDS / sizeof *SEEDS };

static const char *const WORDS[] = {
    "position", "fen", "startpos", "moves", "go", "depth", "infinite", "time", "movestogo", "increment",
    "opptime", "oppmovestogo", "oppincrement", "ponder", "draw", "nodes", "mate", "movetime", "wtime",
    "btime", "winc", "binc", "searchmoves", "setoption", "name", "value", "banmoves", "probe",
    "ponderhit", "stop", "isready", "h2e2", "a0a9", "e9e8", "i9i0", "-1", "0", "1.5", "-0.25",
    "99999999999999999999", "2147483648", "9223372036854775807", "  ", "\t", "w", "b", "r", "- - 0 1",
    "9/9/9", "RNBAKABNR", "kK", "", "true", "off", "large",
};
enum { WORD_NB = sizeof WORDS / sizeof *WORDS };

enum { FUZZ_MAX = 80 * 1024 };

/* One mutated line into buf; returns its length. */
static size_t mutate(Rng *r, char *buf)
{
    uint64_t kind = rng_next(r) % 1000;
    if (kind < 50) { /* random bytes */
        size_t n = rng_below(r, 300);
        for (size_t i = 0; i < n; i++)
            buf[i] = (char)rng_next(r);
        return n;
    }
    if (kind < 52) { /* a long line: a valid command repeated past the limit */
        const char *s = SEEDS[rng_below(r, SEED_NB)];
        size_t sl = strlen(s), n = 0, target = 60000 + rng_below(r, 15000);
        while (n + sl + 1 < target) {
            memcpy(buf + n, s, sl);
            n += sl;
            buf[n++] = ' ';
        }
        return n;
    }
    const char *s = SEEDS[rng_below(r, SEED_NB)];
    size_t n = strlen(s);
    memcpy(buf, s, n);
    int rounds = 1 + (int)rng_below(r, 4);
    for (int k = 0; k < rounds; k++) {
        switch (rng_below(r, 9)) {
        case 0: /* flip a bit */
            if (n)
                buf[rng_below(r, n)] ^= (char)(1 << rng_below(r, 8));
            break;
        case 1: /* replace a byte */
            if (n)
                buf[rng_below(r, n)] = (char)rng_next(r);
            break;
        case 2: { /* insert a byte */
            if (n + 1 >= FUZZ_MAX)
                break;
            size_t at = rng_below(r, n + 1);
            memmove(buf + at + 1, buf + at, n - at);
            buf[at] = (char)(rng_below(r, 4) ? "0123456789 abcdefghi-."[rng_below(r, 22)] : (char)rng_next(r));
            n++;
            break;
        }
        case 3: { /* delete a range */
            if (!n)
                break;
            size_t at = rng_below(r, n), len = 1 + rng_below(r, n - at);
            memmove(buf + at, buf + at + len, n - at - len);
            n -= len;
            break;
        }
        case 4: { /* insert a keyword */
            const char *w = WORDS[rng_below(r, WORD_NB)];
            size_t wl = strlen(w) + 1;
            if (n + wl >= FUZZ_MAX)
                break;
            size_t at = rng_below(r, n + 1);
            memmove(buf + at + wl, buf + at, n - at);
            buf[at] = ' ';
            memcpy(buf + at + 1, w, wl - 1);
            n += wl;
            break;
        }
        case 5: { /* duplicate a range */
            if (!n)
                break;
            size_t at = rng_below(r, n), len = 1 + rng_below(r, n - at);
            if (n + len >= FUZZ_MAX)
                break;
            memmove(buf + at + len, buf + at, n - at);
            n += len;
            break;
        }
        case 6: { /* splice: keep a head, append another seed's tail */
            const char *t = SEEDS[rng_below(r, SEED_NB)];
            size_t tl = strlen(t), from = rng_below(r, tl + 1);
            n = rng_below(r, n + 1);
            if (n + tl - from < FUZZ_MAX) {
                memcpy(buf + n, t + from, tl - from);
                n += tl - from;
            }
            break;
        }
        case 7: /* truncate */
            n = rng_below(r, n + 1);
            break;
        default: { /* change case of a few letters */
            for (size_t i = 0; i < n; i += 1 + rng_below(r, 4))
                buf[i] = (char)(isupper((unsigned char)buf[i]) ? tolower((unsigned char)buf[i])
                                                               : toupper((unsigned char)buf[i]));
            break;
        }
        }
    }
    return n;
}

static bool printable_cstr(const char *s, size_t cap)
{
    const char *end = memchr(s, '\0', cap);
    if (!end)
        return false;
    for (; s < end; s++)
        if (((unsigned char)*s < 0x20 && *s != '\t') || (unsigned char)*s == 0x7F)
            return false;
    return true;
}

static bool command_sane(const UcciCommand *c)
{
    bool ok = c->type >= UCCI_CMD_EMPTY && c->type <= UCCI_CMD_QUIT;
    ok = ok && printable_cstr(c->err, sizeof c->err);
    for (const char *p = c->err; ok && *p; p++)
        ok = (unsigned char)*p < 0x7F; /* errors are ASCII */
    ok = ok && (c->type != UCCI_CMD_ERROR || c->err[0]);
    ok = ok && printable_cstr(c->fen, sizeof c->fen) && printable_cstr(c->name, sizeof c->name) &&
         printable_cstr(c->value, sizeof c->value);
    ok = ok && c->move_count >= 0 && c->move_count <= UCCI_LIST_MAX;
    for (int i = 0; ok && i < c->move_count; i++)
        ok = move_from(c->moves[i]) < SQ_NB && move_to(c->moves[i]) < SQ_NB && c->moves[i] != MOVE_NONE;
    if (ok && c->type == UCCI_CMD_POSITION)
        ok = c->startpos != c->has_fen;
    if (ok && c->type == UCCI_CMD_BANMOVES)
        ok = c->move_count <= MAX_MOVES;
    if (ok && c->type == UCCI_CMD_SETOPTION && !c->err[0])
        ok = c->name[0] != '\0';
    return ok;
}

static void fuzz_parser(long count)
{
    static char buf[FUZZ_MAX + 16];
    static UcciCommand cmd;
    Rng r = {0x5EEDC0FFEE123457ULL};
    long types[UCCI_CMD_QUIT + 1] = {0};
    /* every seed parses cleanly first */
    for (int i = 0; i < SEED_NB; i++) {
        ucci_parse_line(SEEDS[i], strlen(SEEDS[i]), &cmd);
        if (cmd.type == UCCI_CMD_ERROR || cmd.err[0])
            fprintf(stderr, "  seed '%s': %s\n", SEEDS[i], cmd.err);
        CHECK(cmd.type != UCCI_CMD_ERROR && cmd.type != UCCI_CMD_EMPTY && !cmd.err[0]);
    }
    int insane = 0;
    for (long i = 0; i < count; i++) {
        size_t n = mutate(&r, buf);
        ucci_parse_line(buf, n, &cmd);
        if (!command_sane(&cmd) && insane++ < 5) {
            char echo[UCCI_ECHO_MAX + 4];
            ucci_echo(buf, n, echo);
            fprintf(stderr, "  insane result for '%s' (type %d)\n", echo, (int)cmd.type);
        }
        types[cmd.type]++;
    }
    CHECK_EQ_INT(insane, 0);
    printf("parser: %ld lines:", count);
    for (int t = 0; t <= UCCI_CMD_QUIT; t++)
        printf(" %ld", types[t]);
    printf(" (by command type)\n");
}

static const char *const FEN_SEEDS[] = {
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r - - 0 1",
    "4k4/1R7/9/9/9/9/9/9/R8/3K5 w - - 0 1",
    "3k5/4a4/9/9/9/9/9/9/9/4KA3 b - - 12 40",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w",
    "3akab2/9/4b4/p3p3p/2p6/6P2/P3P3P/4B4/4A4/2BAK4 b - - 0 1",
};

static void fuzz_fen(long count)
{
    static char buf[FUZZ_MAX + 16];
    Board *b = calloc(1, sizeof *b), *b2 = calloc(1, sizeof *b2);
    Rng r = {0xFE11FE11ABCDEF01ULL};
    long accepted = 0;
    int bad = 0;
    for (long i = 0; i < count; i++) {
        const char *s = FEN_SEEDS[rng_below(&r, sizeof FEN_SEEDS / sizeof *FEN_SEEDS)];
        size_t n = strlen(s);
        memcpy(buf, s, n);
        int rounds = 1 + (int)rng_below(&r, 3);
        for (int k = 0; k < rounds; k++) {
            size_t at = rng_below(&r, n + 1);
            switch (rng_below(&r, 4)) {
            case 0:
                if (at < n)
                    buf[at] = "0123456789/ kKaAbBeEnNhHrRcCpPwbr-x"[rng_below(&r, 35)];
                break;
            case 1:
                if (at < n) {
                    memmove(buf + at, buf + at + 1, n - at - 1);
                    n--;
                }
                break;
            case 2:
                memmove(buf + at + 1, buf + at, n - at);
                buf[at] = "123456789/kKaAbBnNrRcCpP"[rng_below(&r, 24)];
                n++;
                break;
            default:
                if (at < n)
                    buf[at] = (char)rng_next(&r);
                break;
            }
        }
        buf[n] = '\0';
        char err[128] = "";
        if (board_from_fen(b, buf, err, sizeof err)) {
            accepted++;
            char verr[128] = "", fen[128];
            bool valid = board_validate(b, verr, sizeof verr);
            board_to_fen(b, fen, sizeof fen);
            bool again = board_from_fen(b2, fen, NULL, 0) && b2->key == b->key;
            if ((!valid || !again) && bad++ < 5)
                fprintf(stderr, "  accepted '%s' but %s\n", buf, !valid ? verr : "the FEN round trip differs");
        } else if (!err[0] || !memchr(err, '\0', sizeof err)) {
            if (bad++ < 5)
                fprintf(stderr, "  rejected '%s' without a reason\n", buf);
        }
    }
    CHECK_EQ_INT(bad, 0);
    printf("fen: %ld mutated FENs, %ld accepted\n", count, accepted);
    free(b);
    free(b2);
}

/* Lines that would end the run or make it slow on purpose are skipped:
 * quit/exit, batch mode, big hash tables and many threads. */
static bool binary_safe(const char *buf, size_t n)
{
    char low[256];
    size_t k = n < sizeof low - 1 ? n : sizeof low - 1;
    for (size_t i = 0; i < k; i++)
        low[i] = (char)tolower((unsigned char)buf[i]);
    low[k] = '\0';
    for (size_t i = 0; i < k; i++)
        if (low[i] == '\0')
            low[i] = ' ';
    static const char *const deny[] = {"quit", "exit", "batch", "hash", "thread", "multipv"};
    for (size_t i = 0; i < sizeof deny / sizeof *deny; i++)
        if (strstr(low, deny[i]))
            return false;
    return true;
}

static void fuzz_binary(const char *path, long count)
{
    static char buf[FUZZ_MAX + 16];
    Engine *e = calloc(1, sizeof *e);
    if (!drv_start(e, path)) {
        CHECK(false);
        return;
    }
    drv_send(e, "ucci");
    CHECK(drv_expect(e, "ucciok", NULL, 0, DRV_TIMEOUT));
    Rng r = {0xB1A2C3D4E5F60718ULL};
    long sent = 0, syncs = 0;
    int64_t t0 = drv_now_ms();
    while (sent < count) {
        size_t n = mutate(&r, buf);
        if (memchr(buf, '\n', n) || !binary_safe(buf, n))
            continue;
        buf[n++] = '\n';
        if (!drv_send_raw(e, buf, n)) {
            fprintf(stderr, "  engine stopped reading after %ld lines\n", sent);
            CHECK(false);
            break;
        }
        sent++;
        if (sent % 25 == 0) {
            drv_mark(e);
            drv_send(e, "stop");
            bool alive = drv_sync(e);
            if (!alive) {
                fprintf(stderr, "  engine died or hung after %ld lines\n", sent);
                CHECK(false);
                break;
            }
            syncs++;
        }
    }
    drv_send(e, "stop");
    CHECK(drv_sync(e));
    drv_send(e, "quit");
    int st = drv_wait_exit(e, DRV_TIMEOUT);
    CHECK_EQ_INT(st, 0);
    printf("binary: %ld mutated lines, %ld syncs, %lld ms\n", sent, syncs, (long long)(drv_now_ms() - t0));
    free(e);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "parser") == 0) {
        fuzz_parser(argc >= 3 ? atol(argv[2]) : 100000);
    } else if (argc >= 2 && strcmp(argv[1], "fen") == 0) {
        board_init();
        fuzz_fen(argc >= 3 ? atol(argv[2]) : 20000);
    } else if (argc >= 3 && strcmp(argv[1], "binary") == 0) {
        fuzz_binary(argv[2], argc >= 4 ? atol(argv[3]) : 2000);
    } else {
        fprintf(stderr, "usage: test_protocol_fuzz parser [N] | fen [N] | binary CHARIOT [N]\n");
        return 2;
    }
    TEST_END();
}
