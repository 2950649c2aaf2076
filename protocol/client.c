/* client.c — the GUI side of UCCI/UCI: engine processes, pipes, handshakes, `go` and `bestmove`. */
#include "client.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"

/* ------------------------------------------------------------- helpers */

int64_t client_now_ms(void) { return proc_now_ms(); }

static void client_set_error(ClientEngine *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->error, sizeof e->error, fmt, ap);
    va_end(ap);
}

static char *client_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

const char *client_proto_name(ClientProto p)
{
    switch (p) {
    case CLIENT_PROTO_UCCI: return "ucci";
    case CLIENT_PROTO_UCI: return "uci";
    case CLIENT_PROTO_UCI10: return "uci10";
    case CLIENT_PROTO_FSF: return "fsf";
    default: return "auto";
    }
}

bool client_proto_parse(const char *s, ClientProto *out)
{
    static const ClientProto all[] = {CLIENT_PROTO_AUTO, CLIENT_PROTO_UCCI, CLIENT_PROTO_UCI,
                                      CLIENT_PROTO_UCI10, CLIENT_PROTO_FSF};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(s, client_proto_name(all[i])) == 0) {
            *out = all[i];
            return true;
        }
    return false;
}

void client_ignore_sigpipe(void) { proc_ignore_sigpipe(); }

/* ------------------------------------------------------ command splitting */

void client_free_argv(char **argv)
{
    if (!argv)
        return;
    for (char **p = argv; *p; p++)
        free(*p);
    free(argv);
}

char **client_split_command(const char *cmd)
{
    size_t cap = 8, n = 0;
    char **argv = calloc(cap, sizeof *argv);
    size_t len = strlen(cmd);
    char *word = malloc(len + 1);
    if (!argv || !word) {
        free(argv);
        free(word);
        return NULL;
    }
    const char *p = cmd;
    for (;;) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        size_t w = 0;
        char quote = 0;
        while (*p && (quote || !isspace((unsigned char)*p))) {
            if (quote) {
                if (*p == quote)
                    quote = 0;
                else if (*p == '\\' && quote == '"' && p[1])
                    word[w++] = *++p;
                else
                    word[w++] = *p;
            } else if (*p == '"' || *p == '\'') {
                quote = *p;
            } else if (*p == '\\' && p[1]) {
                word[w++] = *++p;
            } else {
                word[w++] = *p;
            }
            p++;
        }
        if (quote) {
            argv[n] = NULL;
            client_free_argv(argv);
            free(word);
            return NULL;
        }
        word[w] = '\0';
        if (n + 2 > cap) {
            cap *= 2;
            char **grown = realloc(argv, cap * sizeof *argv);
            if (!grown) {
                argv[n] = NULL;
                client_free_argv(argv);
                free(word);
                return NULL;
            }
            argv = grown;
        }
        argv[n++] = client_strdup(word);
        argv[n] = NULL;
    }
    free(word);
    if (n == 0) {
        free(argv);
        return NULL;
    }
    return argv;
}

static char **client_copy_argv(char *const argv[])
{
    size_t n = 0;
    while (argv[n])
        n++;
    char **copy = calloc(n + 1, sizeof *copy);
    if (!copy)
        return NULL;
    for (size_t i = 0; i < n; i++)
        copy[i] = client_strdup(argv[i]);
    return copy;
}

/* ---------------------------------------------------------- processes */

static bool client_spawn(ClientEngine *e, int stderr_fd)
{
    if (!proc_spawn(&e->proc, e->argv, e->dir, stderr_fd, e->error, sizeof e->error))
        return false;
    e->eof = false;
    e->buf_len = 0;
    e->reaped = false;
    e->cpu_seconds = 0;
    return true;
}

bool client_start(ClientEngine *e, char *const argv[], const char *dir, int stderr_fd)
{
    FILE *log = e->log;
    const char *tag = e->log_tag;
    memset(e, 0, sizeof *e);
    e->log = log;
    e->log_tag = tag;
    e->proc.to = e->proc.from = -1;
    if (!argv || !argv[0]) {
        client_set_error(e, "empty engine command");
        return false;
    }
    e->argv = client_copy_argv(argv);
    e->dir = dir && *dir ? client_strdup(dir) : NULL;
    e->stderr_fd = stderr_fd;
    if (!e->argv) {
        client_set_error(e, "out of memory");
        return false;
    }
    return client_spawn(e, stderr_fd);
}

/* Copies what the process layer learnt when it reaped the engine. */
static void client_note_reaped(ClientEngine *e)
{
    e->reaped = e->proc.reaped;
    e->cpu_seconds = e->proc.cpu_seconds;
}

void client_kill(ClientEngine *e)
{
    proc_kill(&e->proc);
    client_note_reaped(e);
    proc_close_pipes(&e->proc);
}

void client_reap_within(ClientEngine *e, int grace_ms)
{
    int64_t deadline = client_now_ms() + (grace_ms > 0 ? grace_ms : 0);
    while (e->proc.id != 0 && !e->proc.reaped && !proc_has_exited(&e->proc) && client_now_ms() < deadline)
        proc_sleep_ms(2);
    /* Kills it if it is still there, and anything it started; then reaps it
     * (an exited process keeps its own exit status). */
    client_kill(e);
}

void client_exit_text(const ClientEngine *e, char *out, size_t outlen) { proc_exit_text(&e->proc, out, outlen); }

void client_quit(ClientEngine *e, int grace_ms)
{
    if (e->proc.id == 0 || e->proc.reaped) {
        proc_close_pipes(&e->proc);
        return;
    }
    if (!e->eof && e->proc.to >= 0)
        client_send(e, "quit");
    /* Closing its stdin is a second hint for engines that ignore `quit`. */
    proc_close_input(&e->proc);
    int64_t deadline = client_now_ms() + grace_ms;
    char line[256];
    /* Drain its output until EOF (event driven), then give the process a few
     * short moments to exit before the kill. */
    while (!e->eof && client_read_line(e, line, sizeof line, deadline, NULL) == CLIENT_OK) {
    }
    client_reap_within(e, (int)(deadline - client_now_ms()));
}

void client_release(ClientEngine *e)
{
    client_free_argv(e->argv);
    e->argv = NULL;
    free(e->dir);
    e->dir = NULL;
}

/* -------------------------------------------------------------- lines */

bool client_send(ClientEngine *e, const char *fmt, ...)
{
    char line[CLIENT_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return false;
    if ((size_t)n > sizeof line - 2)
        n = (int)sizeof line - 2;
    if (e->log)
        fprintf(e->log, "%s< %s\n", e->log_tag ? e->log_tag : "", line);
    line[n++] = '\n';
    return proc_write_all(&e->proc, line, (size_t)n, e->error, sizeof e->error);
}

/* Takes one complete line out of the buffer, if there is one. A full buffer
 * without a newline is returned as a (cut) line so a babbling engine cannot
 * wedge the reader. */
static bool client_take_line(ClientEngine *e, char *line, size_t cap, bool at_eof)
{
    char *nl = memchr(e->buf, '\n', e->buf_len);
    size_t len;
    size_t used;
    if (nl) {
        len = (size_t)(nl - e->buf);
        used = len + 1;
    } else if (e->buf_len >= CLIENT_LINE_MAX || (at_eof && e->buf_len > 0)) {
        len = e->buf_len < CLIENT_LINE_MAX ? e->buf_len : CLIENT_LINE_MAX;
        used = len;
    } else {
        return false;
    }
    size_t copy = len < cap - 1 ? len : cap - 1;
    memcpy(line, e->buf, copy);
    line[copy] = '\0';
    while (copy > 0 && (line[copy - 1] == '\r' || line[copy - 1] == ' ' || line[copy - 1] == '\t'))
        line[--copy] = '\0';
    memmove(e->buf, e->buf + used, e->buf_len - used);
    e->buf_len -= used;
    if (e->log)
        fprintf(e->log, "%s> %s\n", e->log_tag ? e->log_tag : "", line);
    return true;
}

ClientStatus client_read_line(ClientEngine *e, char *line, size_t cap, int64_t deadline_ms,
                              const volatile sig_atomic_t *stop)
{
    for (;;) {
        if (client_take_line(e, line, cap, e->eof))
            return CLIENT_OK;
        if (e->eof || e->proc.from < 0)
            return CLIENT_EOF;
        if (stop && *stop)
            return CLIENT_STOPPED;
        /* Sleep until output, the deadline, or the next look at the stop
         * flag, whichever comes first. */
        int wait = -1;
        if (deadline_ms >= 0) {
            int64_t left = deadline_ms - client_now_ms();
            if (left <= 0)
                return CLIENT_TIMEOUT;
            wait = left > 3600000 ? 3600000 : (int)left;
        }
        if (stop && (wait < 0 || wait > CLIENT_POLL_SLICE_MS))
            wait = CLIENT_POLL_SLICE_MS;
        int got = proc_read(&e->proc, e->buf + e->buf_len, sizeof e->buf - e->buf_len, wait, e->error,
                            sizeof e->error);
        if (got > 0)
            e->buf_len += (size_t)got;
        else if (got == PROC_READ_EOF)
            e->eof = true;
        else if (got == PROC_READ_ERROR)
            return CLIENT_ERROR;
    }
}

/* --------------------------------------------------------- tokenizing */

/* Returns the next blank-separated token of *s into tok and advances *s. */
static bool client_next_token(const char **s, char *tok, size_t cap)
{
    const char *p = *s;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p) {
        *s = p;
        return false;
    }
    size_t n = 0;
    while (*p && *p != ' ' && *p != '\t') {
        if (n + 1 < cap)
            tok[n++] = *p;
        p++;
    }
    tok[n] = '\0';
    *s = p;
    return true;
}

static bool client_starts_word(const char *line, const char *word)
{
    size_t n = strlen(word);
    return strncmp(line, word, n) == 0 && (line[n] == '\0' || line[n] == ' ' || line[n] == '\t');
}

/* ------------------------------------------------------------ moves */

bool client_move_from_rank1(const char *in, char out[5])
{
    /* file letter, rank 1..10, file letter, rank 1..10 */
    const char *p = in;
    int f1, r1, f2, r2;
    if (*p < 'a' || *p > 'i')
        return false;
    f1 = *p++ - 'a';
    if (!isdigit((unsigned char)*p))
        return false;
    r1 = *p++ - '0';
    if (isdigit((unsigned char)*p))
        r1 = r1 * 10 + (*p++ - '0');
    if (*p < 'a' || *p > 'i')
        return false;
    f2 = *p++ - 'a';
    if (!isdigit((unsigned char)*p))
        return false;
    r2 = *p++ - '0';
    if (isdigit((unsigned char)*p))
        r2 = r2 * 10 + (*p++ - '0');
    if (*p || r1 < 1 || r1 > 10 || r2 < 1 || r2 > 10)
        return false;
    out[0] = (char)('a' + f1);
    out[1] = (char)('0' + r1 - 1);
    out[2] = (char)('a' + f2);
    out[3] = (char)('0' + r2 - 1);
    out[4] = '\0';
    return true;
}

void client_move_to_rank1(const char *iccs, char out[8])
{
    /* ranks 0..9 become 1..10 */
    size_t n = 0;
    for (int half = 0; half < 2; half++) {
        int rank = iccs[2 * half + 1] - '0' + 1;
        out[n++] = iccs[2 * half];
        if (rank >= 10)
            out[n++] = (char)('0' + rank / 10);
        out[n++] = (char)('0' + rank % 10);
    }
    out[n] = '\0';
}

/* ---------------------------------------------------------- handshake */

static void client_note_id_option(ClientEngine *e, const char *line)
{
    if (client_starts_word(line, "id")) {
        const char *p = line + 2;
        char tok[32];
        if (client_next_token(&p, tok, sizeof tok) && strcmp(tok, "name") == 0) {
            while (*p == ' ')
                p++;
            snprintf(e->name, sizeof e->name, "%s", p);
        }
    } else if (client_starts_word(line, "option")) {
        const char *p = line + 6;
        char tok[64];
        if (!client_next_token(&p, tok, sizeof tok))
            return;
        /* UCCI lists the name directly; UCI says `option name X`. */
        if (strcmp(tok, "name") == 0 && !client_next_token(&p, tok, sizeof tok))
            return;
        if (strcmp(tok, "usemillisec") == 0)
            e->millisec = true; /* remembered as "advertised"; switched on below */
        else if (strcmp(tok, "newgame") == 0)
            e->has_newgame = true;
        else if (strcmp(tok, "ponder") == 0 || strcmp(tok, "Ponder") == 0)
            snprintf(e->ponder_option, sizeof e->ponder_option, "%s", tok[0] == 'P' ? "Ponder" : "ponder");
    }
}

static ClientStatus client_wait_word(ClientEngine *e, const char *word, const char *alt, int64_t deadline,
                                     const volatile sig_atomic_t *stop, const char **which)
{
    char line[CLIENT_LINE_MAX];
    for (;;) {
        ClientStatus st = client_read_line(e, line, sizeof line, deadline, stop);
        if (st != CLIENT_OK)
            return st;
        client_note_id_option(e, line);
        if (client_starts_word(line, word)) {
            if (which)
                *which = word;
            return CLIENT_OK;
        }
        if (alt && client_starts_word(line, alt)) {
            if (which)
                *which = alt;
            return CLIENT_OK;
        }
    }
}

static bool client_is_fairy(const ClientEngine *e)
{
    return strstr(e->name, "Fairy-Stockfish") != NULL || strstr(e->name, "fairy-stockfish") != NULL;
}

/* Puts a UCCI engine in its final state after `ucciok`. */
static void client_enter_ucci(ClientEngine *e)
{
    e->proto = CLIENT_PROTO_UCCI;
    e->ucci_mode = true;
    bool advertised = e->millisec;
    e->millisec = false;
    if (advertised) {
        client_send(e, "setoption usemillisec true");
        e->millisec = true;
    } else if (client_is_fairy(e)) {
        /* Fairy-Stockfish reads `go time` in ms without advertising it. */
        e->millisec = true;
    }
}

static void client_describe_failure(ClientEngine *e, ClientStatus st, const char *what)
{
    if (st == CLIENT_TIMEOUT)
        client_set_error(e, "no %s within the handshake timeout", what);
    else if (st == CLIENT_EOF)
        client_set_error(e, "engine exited before %s", what);
    else if (st == CLIENT_STOPPED)
        client_set_error(e, "stopped");
}

ClientStatus client_handshake(ClientEngine *e, ClientProto proto, int timeout_ms, int auto_ms,
                              const volatile sig_atomic_t *stop)
{
    int64_t deadline = client_now_ms() + timeout_ms;
    ClientStatus st;
    const char *which = NULL;
    switch (proto) {
    case CLIENT_PROTO_UCCI:
        client_send(e, "ucci");
        st = client_wait_word(e, "ucciok", NULL, deadline, stop, NULL);
        if (st != CLIENT_OK) {
            client_describe_failure(e, st, "ucciok");
            return st;
        }
        client_enter_ucci(e);
        return CLIENT_OK;
    case CLIENT_PROTO_UCI:
    case CLIENT_PROTO_UCI10:
    case CLIENT_PROTO_FSF:
        client_send(e, "uci");
        st = client_wait_word(e, "uciok", NULL, deadline, stop, NULL);
        if (st != CLIENT_OK) {
            client_describe_failure(e, st, "uciok");
            return st;
        }
        e->proto = proto;
        e->ucci_mode = false;
        e->millisec = true;
        if (proto != CLIENT_PROTO_UCI)
            client_send(e, "setoption name UCI_Variant value xiangqi");
        return CLIENT_OK;
    case CLIENT_PROTO_AUTO:
    default:
        break;
    }
    /* AUTO: UCCI first. A UCI-only engine either ignores `ucci`, complains,
     * or exits; in the last case start it again. */
    client_send(e, "ucci");
    int64_t first = client_now_ms() + auto_ms;
    if (first > deadline)
        first = deadline;
    st = client_wait_word(e, "ucciok", NULL, first, stop, NULL);
    if (st == CLIENT_OK) {
        client_enter_ucci(e);
        return CLIENT_OK;
    }
    if (st == CLIENT_STOPPED || st == CLIENT_ERROR)
        return st;
    if (st == CLIENT_EOF) {
        client_kill(e);
        if (!client_spawn(e, e->stderr_fd))
            return CLIENT_ERROR;
    }
    e->millisec = false;
    e->has_newgame = false;
    e->ponder_option[0] = '\0';
    client_send(e, "uci");
    /* A slow UCCI engine may still answer the first `ucci`. */
    st = client_wait_word(e, "uciok", "ucciok", deadline, stop, &which);
    if (st != CLIENT_OK) {
        client_describe_failure(e, st, "ucciok or uciok");
        return st;
    }
    if (strcmp(which, "ucciok") == 0) {
        client_enter_ucci(e);
        return CLIENT_OK;
    }
    e->proto = CLIENT_PROTO_UCI;
    e->ucci_mode = false;
    e->millisec = true;
    return CLIENT_OK;
}

bool client_set_option(ClientEngine *e, const char *name, const char *value)
{
    bool button = !value || !*value;
    if (e->ucci_mode)
        return button ? client_send(e, "setoption %s", name) : client_send(e, "setoption %s %s", name, value);
    return button ? client_send(e, "setoption name %s", name)
                  : client_send(e, "setoption name %s value %s", name, value);
}

bool client_finish_options(ClientEngine *e)
{
    if (e->proto != CLIENT_PROTO_FSF || e->ucci_mode)
        return true;
    /* Checked by experiment on Debian's 11.1: after this switch it keeps the
     * xiangqi variant and the options, and speaks UCCI with ranks 0..9. */
    bool ok = client_send(e, "setoption name Protocol value ucci");
    e->ucci_mode = true;
    e->millisec = true;
    return ok;
}

bool client_enable_ponder(ClientEngine *e)
{
    return e->ponder_option[0] && client_set_option(e, e->ponder_option, "true");
}

bool client_new_game(ClientEngine *e)
{
    if (e->ucci_mode)
        return e->has_newgame ? client_send(e, "setoption newgame") : true;
    return client_send(e, "ucinewgame");
}

ClientStatus client_sync(ClientEngine *e, int64_t deadline_ms, const volatile sig_atomic_t *stop)
{
    if (!client_send(e, "isready"))
        return CLIENT_EOF;
    ClientStatus st = client_wait_word(e, "readyok", NULL, deadline_ms, stop, NULL);
    if (st != CLIENT_OK)
        client_describe_failure(e, st, "readyok");
    return st;
}

ClientStatus client_stop_sync(ClientEngine *e, bool send_stop, int64_t deadline_ms,
                              const volatile sig_atomic_t *stop)
{
    if ((send_stop && !client_send(e, "stop")) || !client_send(e, "isready"))
        return CLIENT_EOF;
    bool answered = !send_stop, ready = false;
    char line[CLIENT_LINE_MAX];
    while (!answered || !ready) {
        ClientStatus st = client_read_line(e, line, sizeof line, deadline_ms, stop);
        if (st != CLIENT_OK)
            return st;
        if (client_starts_word(line, "readyok"))
            ready = true;
        else if (client_starts_word(line, "bestmove") || client_starts_word(line, "nobestmove"))
            answered = true;
    }
    return CLIENT_OK;
}

/* ------------------------------------------------------------- playing */

static bool client_rank1(const ClientEngine *e)
{
    return e->proto == CLIENT_PROTO_UCI10;
}

/* A move as the engine wrote it, in ICCS ranks 0..9. */
static void client_move_text(const ClientEngine *e, const char *tok, char *out, size_t cap)
{
    char iccs[5];
    if (client_rank1(e) && client_move_from_rank1(tok, iccs))
        snprintf(out, cap, "%s", iccs);
    else
        snprintf(out, cap, "%.15s", tok);
}

/* Appends the moves, translated when needed, to a line being built. */
static void client_append_moves(const ClientEngine *e, char *line, size_t cap, size_t *len,
                                const char *const *moves, int count)
{
    for (int i = 0; i < count; i++) {
        char m[8];
        if (client_rank1(e))
            client_move_to_rank1(moves[i], m);
        else
            snprintf(m, sizeof m, "%.4s", moves[i]);
        int n = snprintf(line + *len, cap - *len, " %s", m);
        if (n < 0 || (size_t)n >= cap - *len)
            return;
        *len += (size_t)n;
    }
}

bool client_position(ClientEngine *e, const char *fen, const char *const *moves, int count)
{
    char line[CLIENT_LINE_MAX];
    size_t len;
    if (fen)
        len = (size_t)snprintf(line, sizeof line, "position fen %s", fen);
    else
        len = (size_t)snprintf(line, sizeof line, "position startpos");
    if (count > 0) {
        len += (size_t)snprintf(line + len, sizeof line - len, " moves");
        client_append_moves(e, line, sizeof line, &len, moves, count);
    }
    return client_send(e, "%s", line);
}

bool client_banmoves(ClientEngine *e, const char *const *moves, int count)
{
    if (!e->ucci_mode || count <= 0)
        return true;
    char line[CLIENT_LINE_MAX];
    size_t len = (size_t)snprintf(line, sizeof line, "banmoves");
    client_append_moves(e, line, sizeof line, &len, moves, count);
    return client_send(e, "%s", line);
}

/* UCCI counts in seconds unless usemillisec is on; never send 0 s for a
 * clock that still has time, an engine would read it as "flag fallen". */
static int64_t client_ucci_time(const ClientEngine *e, int64_t ms)
{
    if (e->millisec)
        return ms;
    int64_t s = ms / 1000;
    return s == 0 && ms > 0 ? 1 : s;
}

static void client_appendf(char *out, size_t cap, size_t *len, const char *fmt, ...)
{
    if (*len >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out + *len, cap - *len, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len += (size_t)n < cap - *len ? (size_t)n : cap - *len - 1;
}

void client_format_go(const ClientEngine *e, const ClientGo *go, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    client_appendf(out, cap, &len, go->ponder ? "go ponder" : "go");
    const size_t bare = len;
    if (e->ucci_mode) {
        if (go->own_time >= 0) {
            client_appendf(out, cap, &len, " time %lld", (long long)client_ucci_time(e, go->own_time));
            if (go->own_movestogo > 0)
                client_appendf(out, cap, &len, " movestogo %d", go->own_movestogo);
            else
                client_appendf(out, cap, &len, " increment %lld",
                               (long long)(e->millisec ? go->own_inc : go->own_inc / 1000));
            if (go->opp_time >= 0) {
                client_appendf(out, cap, &len, " opptime %lld", (long long)client_ucci_time(e, go->opp_time));
                if (go->opp_movestogo > 0)
                    client_appendf(out, cap, &len, " oppmovestogo %d", go->opp_movestogo);
                else
                    client_appendf(out, cap, &len, " oppincrement %lld",
                                   (long long)(e->millisec ? go->opp_inc : go->opp_inc / 1000));
            }
        } else if (go->movetime >= 0) {
            /* UCCI has no movetime: a whole clock for one move says nearly
             * the same to any engine, and the trailing `movetime` (ms, as
             * TCHESS sends it) makes engines that know it (Chariot,
             * Fairy-Stockfish) search exactly that long; ElephantEye-style
             * parsers stop reading after the clock and ignore it. */
            long long t = (long long)client_ucci_time(e, go->movetime);
            client_appendf(out, cap, &len, " time %lld movestogo 1 opptime %lld oppmovestogo 1 movetime %lld", t, t,
                           (long long)go->movetime);
        }
    } else {
        if (go->own_time >= 0) {
            int64_t wt = go->side == 0 ? go->own_time : go->opp_time;
            int64_t bt = go->side == 0 ? go->opp_time : go->own_time;
            int64_t wi = go->side == 0 ? go->own_inc : go->opp_inc;
            int64_t bi = go->side == 0 ? go->opp_inc : go->own_inc;
            if (wt < 0)
                wt = 0;
            if (bt < 0)
                bt = 0;
            client_appendf(out, cap, &len, " wtime %lld btime %lld", (long long)wt, (long long)bt);
            if (wi > 0 || bi > 0)
                client_appendf(out, cap, &len, " winc %lld binc %lld", (long long)wi, (long long)bi);
            if (go->own_movestogo > 0)
                client_appendf(out, cap, &len, " movestogo %d", go->own_movestogo);
        } else if (go->movetime >= 0) {
            client_appendf(out, cap, &len, " movetime %lld", (long long)go->movetime);
        }
    }
    if (go->depth > 0)
        client_appendf(out, cap, &len, " depth %d", go->depth);
    if (go->nodes > 0)
        client_appendf(out, cap, &len, " nodes %lld", (long long)go->nodes);
    if (len == bare) /* nothing to limit the search: let the engine decide */
        client_appendf(out, cap, &len, " infinite");
}

bool client_go(ClientEngine *e, const ClientGo *go)
{
    char line[512];
    client_format_go(e, go, line, sizeof line);
    return client_send(e, "%s", line);
}

static bool client_parse_int64(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno)
        return false;
    *out = v;
    return true;
}

void client_parse_info(const char *line, ClientSearchInfo *info)
{
    const char *p = line;
    char tok[64];
    if (!client_next_token(&p, tok, sizeof tok) || strcmp(tok, "info") != 0)
        return;
    while (client_next_token(&p, tok, sizeof tok)) {
        int64_t v;
        char val[64];
        if (strcmp(tok, "pv") == 0 || strcmp(tok, "string") == 0 || strcmp(tok, "message") == 0)
            return; /* the rest is free text or moves */
        if (strcmp(tok, "depth") == 0 || strcmp(tok, "nodes") == 0 || strcmp(tok, "time") == 0 ||
            strcmp(tok, "nps") == 0) {
            if (!client_next_token(&p, val, sizeof val) || !client_parse_int64(val, &v))
                continue;
            if (tok[0] == 'd')
                info->depth = (int)v;
            else if (tok[0] == 'n' && tok[1] == 'o')
                info->nodes = v;
            else if (tok[0] == 't')
                info->time_ms = v;
            else
                info->nps = v;
        } else if (strcmp(tok, "score") == 0) {
            if (!client_next_token(&p, val, sizeof val))
                return;
            bool mate = false;
            if (strcmp(val, "cp") == 0 || strcmp(val, "mate") == 0) {
                mate = val[0] == 'm';
                if (!client_next_token(&p, val, sizeof val))
                    return;
            }
            if (!client_parse_int64(val, &v))
                continue;
            if (mate)
                v = v > 0 ? CLIENT_MATE_SCORE - v : -CLIENT_MATE_SCORE - v;
            if (v > CLIENT_MATE_SCORE)
                v = CLIENT_MATE_SCORE;
            if (v < -CLIENT_MATE_SCORE)
                v = -CLIENT_MATE_SCORE;
            info->score = (int)v;
            info->has_score = true;
        }
    }
}

/* Takes one line of the answer to `go`: info lines go into *info; true
 * when the line was the answer (bestmove or nobestmove), filled into *best. */
static bool client_bestmove_line(const ClientEngine *e, const char *line, ClientBestMove *best,
                                 ClientSearchInfo *info)
{
    if (client_starts_word(line, "info")) {
        client_parse_info(line, info);
        return false;
    }
    memset(best, 0, sizeof *best);
    if (client_starts_word(line, "nobestmove")) {
        best->reply = CLIENT_REPLY_NOMOVE;
        return true;
    }
    if (!client_starts_word(line, "bestmove"))
        return false;
    const char *p = line + 8;
    char tok[64];
    if (!client_next_token(&p, tok, sizeof tok) || strcmp(tok, "(none)") == 0 || strcmp(tok, "0000") == 0 ||
        strcmp(tok, "none") == 0) {
        best->reply = CLIENT_REPLY_NOMOVE;
        return true;
    }
    best->reply = CLIENT_REPLY_MOVE;
    if (strcmp(tok, "resign") == 0) {
        best->reply = CLIENT_REPLY_RESIGN;
        return true;
    }
    client_move_text(e, tok, best->text, sizeof best->text);
    char rest[64];
    while (client_next_token(&p, rest, sizeof rest)) {
        if (strcmp(rest, "draw") == 0)
            best->offers_draw = true;
        else if (strcmp(rest, "resign") == 0)
            best->reply = CLIENT_REPLY_RESIGN;
        else if (strcmp(rest, "ponder") == 0 && client_next_token(&p, rest, sizeof rest))
            client_move_text(e, rest, best->ponder, sizeof best->ponder);
    }
    return true;
}

ClientStatus client_wait_bestmove(ClientEngine *e, int64_t deadline_ms, const volatile sig_atomic_t *stop,
                                  ClientBestMove *best, ClientSearchInfo *info)
{
    char line[CLIENT_LINE_MAX];
    memset(best, 0, sizeof *best);
    for (;;) {
        ClientStatus st = client_read_line(e, line, sizeof line, deadline_ms, stop);
        if (st != CLIENT_OK)
            return st;
        if (client_bestmove_line(e, line, best, info))
            return CLIENT_OK;
    }
}

ClientStatus client_poll_bestmove(ClientEngine *e, ClientBestMove *best, ClientSearchInfo *info)
{
    char line[CLIENT_LINE_MAX];
    memset(best, 0, sizeof *best);
    for (;;) {
        while (client_take_line(e, line, sizeof line, e->eof))
            if (client_bestmove_line(e, line, best, info))
                return CLIENT_OK;
        if (e->eof || e->proc.from < 0)
            return CLIENT_EOF;
        int got = proc_read(&e->proc, e->buf + e->buf_len, sizeof e->buf - e->buf_len, 0, e->error,
                            sizeof e->error);
        if (got > 0)
            e->buf_len += (size_t)got;
        else if (got == PROC_READ_EOF)
            e->eof = true;
        else if (got == PROC_READ_ERROR)
            return CLIENT_ERROR;
        else
            return CLIENT_TIMEOUT;
    }
}
