/* server.c — the engine loop a GUI talks to: UCCI by default, the UCI dialect
 * (ranks 0..9) after `uci`. This thread reads and applies commands; the search
 * thread reports through callbacks; one mutex keeps their output lines whole. */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eval.h"
#include "proc.h"
#include "protocol.h"
#include "search.h"
#include "server_core.h"

/* ------------------------------------------------------------- options */

/* Some adapters (uci2wb) set every combo to its first value, so each list
 * starts with what Chariot would choose by itself. */
static const char *const VARS_LEVEL_DESC[] = {"large", "medium", "small", "none", NULL};
static const char *const VARS_LEVEL_ASC[] = {"none", "small", "medium", "large", NULL};
static const char *const VARS_STYLE[] = {"normal", "solid", "risky", NULL};

const OptionDesc SV_OPTIONS[OPT_NB] = {
    {OPT_USEMILLISEC, "usemillisec", NULL, NULL, OPT_CHECK, 0, 0, NULL, false},
    {OPT_BATCH, "batch", NULL, NULL, OPT_CHECK, 0, 0, NULL, false},
    {OPT_DEBUG, "debug", NULL, NULL, OPT_CHECK, 0, 0, NULL, false},
    {OPT_PONDER, "ponder", "Ponder", NULL, OPT_CHECK, 0, 0, NULL, false},
    {OPT_HASH, "hashsize", "Hash", "hash", OPT_SPIN, 0, PROTO_MAX_HASH_MB, NULL, false},
    {OPT_THREADS, "threads", "Threads", NULL, OPT_SPIN, 0, PROTO_MAX_THREADS, NULL, false},
    {OPT_IDLE, "idle", NULL, NULL, OPT_COMBO, 0, 0, VARS_LEVEL_ASC, false},
    {OPT_PRUNING, "pruning", NULL, NULL, OPT_COMBO, 0, 0, VARS_LEVEL_DESC, false},
    {OPT_KNOWLEDGE, "knowledge", NULL, NULL, OPT_COMBO, 0, 0, VARS_LEVEL_DESC, false},
    {OPT_RANDOMNESS, "randomness", NULL, NULL, OPT_COMBO, 0, 0, VARS_LEVEL_ASC, false},
    {OPT_STYLE, "style", NULL, NULL, OPT_COMBO, 0, 0, VARS_STYLE, false},
    {OPT_MULTIPV, "multipv", "MultiPV", NULL, OPT_SPIN, 1, MAX_MULTIPV, NULL, false},
    {OPT_NEWGAME, "newgame", "Clear Hash", "clearhash", OPT_BUTTON, 0, 0, NULL, false},
    {OPT_BOOKFILES, "bookfiles", "BookFile", "bookfile", OPT_STRING, 0, 0, NULL, false},
    {OPT_USEBOOK, "usebook", "OwnBook", "ownbook", OPT_CHECK, 0, 0, NULL, false},
    {OPT_RESIGN, "resign", NULL, NULL, OPT_SPIN, 0, PROTO_RESIGN_MAX, NULL, false},
    {OPT_MOVEOVERHEAD, "moveoverhead", "Move Overhead", NULL, OPT_SPIN, 0, 5000, NULL, false},
    {OPT_SKILL, "skill", "Skill Level", "skilllevel", OPT_SPIN, 0, SKILL_MAX, NULL, false},
    {OPT_LIMITSTRENGTH, "ucilimitstrength", "UCI_LimitStrength", NULL, OPT_CHECK, 0, 0, NULL, true},
    {OPT_ELO, "ucielo", "UCI_Elo", NULL, OPT_SPIN, SKILL_ELO_MIN, SKILL_ELO_MAX, NULL, true},
};

void sv_outline_add(OutLine *l, const char *fmt, ...)
{
    if (l->n >= sizeof l->buf - 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(l->buf + l->n, sizeof l->buf - l->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        l->n += (size_t)k < sizeof l->buf - l->n ? (size_t)k : sizeof l->buf - 1 - l->n;
}

void sv_emit_locked(Server *sv, const char *text)
{
    char buf[PROTO_OUT_MAX];
    size_t n = 0;
    for (const char *p = text; *p && n < sizeof buf - 1; p++) {
        unsigned char c = (unsigned char)*p;
        buf[n++] = (c >= 0x20 && c < 0x7F) ? (char)c : '?';
    }
    while (n > 0 && buf[n - 1] == ' ')
        n--;
    if (n == 0 || sv->out_broken)
        return;
    buf[n++] = '\n';
    if (fwrite(buf, 1, n, sv->out) != n || fflush(sv->out) != 0)
        sv->out_broken = true;
}

void sv_emit(Server *sv, const char *fmt, ...)
{
    char buf[PROTO_OUT_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&sv->lock);
    sv_emit_locked(sv, buf);
    pthread_mutex_unlock(&sv->lock);
}

void sv_emit_error(Server *sv, const char *fmt, ...)
{
    char msg[PROTO_OUT_MAX / 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char buf[PROTO_OUT_MAX];
    pthread_mutex_lock(&sv->lock);
    if (sv->dialect == DIALECT_CECP)
        snprintf(buf, sizeof buf, "Error (%s): %s", msg, sv->err_cmd);
    else
        snprintf(buf, sizeof buf, "info string error: %s", msg);
    sv_emit_locked(sv, buf);
    pthread_mutex_unlock(&sv->lock);
}

static Dialect dialect_of(Server *sv)
{
    pthread_mutex_lock(&sv->lock);
    Dialect d = sv->dialect;
    pthread_mutex_unlock(&sv->lock);
    return d;
}

static const char *move_str(Move m, char out[5])
{
    move_to_iccs(m, out);
    return out;
}

/* ------------------------------------------------------ search callbacks */

static void cb_info(void *ctx, const SearchInfo *info)
{
    Server *sv = ctx;
    OutLine l = {.n = 0};
    pthread_mutex_lock(&sv->lock);
    sv_outline_add(&l, "info depth %d seldepth %d", info->depth, info->seldepth);
    if (sv->dialect == DIALECT_UCI) {
        sv_outline_add(&l, " multipv %d", info->multipv);
        if (score_is_mate(info->score))
            sv_outline_add(&l, " score mate %d", score_mate_moves(info->score));
        else
            sv_outline_add(&l, " score cp %d", info->score);
        if (info->bound == BOUND_LOWER)
            sv_outline_add(&l, " lowerbound");
        else if (info->bound == BOUND_UPPER)
            sv_outline_add(&l, " upperbound");
        sv_outline_add(&l, " nodes %llu nps %llu hashfull %d time %lld", (unsigned long long)info->nodes,
                    (unsigned long long)info->nps, info->hashfull, (long long)info->time_ms);
    } else {
        /* UCCI: plain `score N` (GUIs read `score cp N` as 0) and pv last. */
        if (sv->settings.value[OPT_MULTIPV] > 1)
            sv_outline_add(&l, " multipv %d", info->multipv);
        sv_outline_add(&l, " score %d time %lld nodes %llu nps %llu", info->score, (long long)info->time_ms,
                    (unsigned long long)info->nodes, (unsigned long long)info->nps);
    }
    if (info->pv_len > 0) {
        sv_outline_add(&l, " pv");
        for (int i = 0; i < info->pv_len && i < MAX_PLY; i++) {
            char m[5];
            sv_outline_add(&l, " %s", move_str(info->pv[i], m));
        }
    }
    sv_emit_locked(sv, l.buf);
    pthread_mutex_unlock(&sv->lock);
}

static void cb_currmove(void *ctx, Move m, int number, int depth)
{
    Server *sv = ctx;
    char ms[5];
    move_str(m, ms);
    char buf[96];
    pthread_mutex_lock(&sv->lock);
    if (sv->dialect == DIALECT_UCI)
        snprintf(buf, sizeof buf, "info depth %d currmove %s currmovenumber %d", depth, ms, number);
    else
        snprintf(buf, sizeof buf, "info currmove %s currmovenumber %d", ms, number);
    sv_emit_locked(sv, buf);
    pthread_mutex_unlock(&sv->lock);
}

/* UCCI only: " draw" to offer or accept a draw, " resign" when hopeless,
 * or "". Updates the streak counters. Caller holds sv->lock. */
const char *sv_draw_or_resign_locked(Server *sv, const SearchResult *r)
{
    /* Analysis, and ponder searches the GUI stopped (a ponder miss), say
     * nothing about the game. */
    if (!sv->counted || sv->search_ponder)
        return sv->opp_draw && r->score <= PROTO_DRAW_ACCEPT_MAX ? " draw" : "";
    int resign_at = sv->settings.value[OPT_RESIGN];
    sv->losing_streak = resign_at > 0 && r->score < -resign_at ? sv->losing_streak + 1 : 0;
    sv->equal_streak = abs(r->score) <= PROTO_DRAW_OFFER_BAND ? sv->equal_streak + 1 : 0;
    if (resign_at > 0 && (r->score <= -SCORE_MATE_MIN || sv->losing_streak >= PROTO_RESIGN_MOVES))
        return " resign";
    /* Style moves the acceptance bar: solid takes a draw a little ahead,
     * risky only when a little behind. */
    int accept = PROTO_DRAW_ACCEPT_MAX;
    const char *style = VARS_STYLE[sv->settings.value[OPT_STYLE]];
    if (strcmp(style, "solid") == 0)
        accept += PROTO_DRAW_STYLE_SHIFT;
    else if (strcmp(style, "risky") == 0)
        accept -= PROTO_DRAW_STYLE_SHIFT;
    if (sv->opp_draw && r->score <= accept)
        return " draw";
    if (sv->equal_streak >= PROTO_DRAW_OFFER_MOVES)
        return " draw";
    if (sv->root_dead && abs(r->score) <= PROTO_DRAW_OFFER_BAND)
        return " draw";
    return "";
}

/* Prints the result and leaves the thinking state. Caller holds sv->lock. */
static void emit_bestmove_locked(Server *sv, const SearchResult *r)
{
    char buf[96];
    if (r->best == MOVE_NONE) {
        sv_emit_locked(sv, sv->dialect == DIALECT_UCI ? "bestmove (none)" : "nobestmove");
    } else {
        char b[5], p[5];
        int k = snprintf(buf, sizeof buf, "bestmove %s", move_str(r->best, b));
        if (r->ponder != MOVE_NONE)
            k += snprintf(buf + k, sizeof buf - (size_t)k, " ponder %s", move_str(r->ponder, p));
        if (sv->dialect == DIALECT_UCCI)
            snprintf(buf + k, sizeof buf - (size_t)k, "%s", sv_draw_or_resign_locked(sv, r));
        sv_emit_locked(sv, buf);
    }
    sv->thinking = false;
    sv->has_pending = false;
    pthread_cond_broadcast(&sv->idle_cond);
}

static void cb_bestmove(void *ctx, const SearchResult *r)
{
    Server *sv = ctx;
    pthread_mutex_lock(&sv->lock);
    /* An infinite or unanswered ponder search must not answer before the GUI
     * says stop or ponderhit, even if it ran out of things to search. */
    if ((sv->search_infinite || sv->search_ponder) && !sv->stop_requested) {
        sv->pending = *r;
        sv->has_pending = true;
    } else {
        emit_bestmove_locked(sv, r);
    }
    pthread_mutex_unlock(&sv->lock);
}

/* Waits until the current search (if any) has answered. */
static void wait_idle(Server *sv)
{
    pthread_mutex_lock(&sv->lock);
    while (sv->thinking)
        pthread_cond_wait(&sv->idle_cond, &sv->lock);
    pthread_mutex_unlock(&sv->lock);
    searcher_wait(sv->searcher);
}

/* Asks the search to stop; a held result is printed at once. */
static void request_stop(Server *sv)
{
    pthread_mutex_lock(&sv->lock);
    bool was_thinking = sv->thinking;
    if (was_thinking) {
        sv->stop_requested = true;
        if (sv->has_pending)
            emit_bestmove_locked(sv, &sv->pending);
    }
    pthread_mutex_unlock(&sv->lock);
    if (was_thinking)
        searcher_stop(sv->searcher);
}

/* True when the engine may change state that a search depends on. A search
 * already told to stop is simply waited for (a GUI may send the next
 * position/go right after stop); a running one makes the command fail. */
static bool ensure_idle(Server *sv, const char *what)
{
    pthread_mutex_lock(&sv->lock);
    bool busy = sv->thinking, stopping = sv->stop_requested;
    pthread_mutex_unlock(&sv->lock);
    if (busy && !stopping) {
        sv_emit_error(sv, "engine is thinking; %s ignored (send stop first)", what);
        return false;
    }
    wait_idle(sv);
    return true;
}

/* ------------------------------------------------------------ settings */

static int online_cores(void)
{
    int n = proc_cpu_count();
    return n > PROTO_MAX_THREADS ? PROTO_MAX_THREADS : n;
}

/* splitmix64: a small, good generator for book draws and noise seeds. */
uint64_t sv_next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static SearchOptions search_options_from(const Server *sv, const Settings *st)
{
    SearchOptions o = sv->search_defaults;
    o.hash_mb = st->value[OPT_HASH] > 0 ? st->value[OPT_HASH] : sv->search_defaults.hash_mb;
    o.threads = st->value[OPT_THREADS] > 0 ? st->value[OPT_THREADS] : online_cores();
    o.multipv = st->value[OPT_MULTIPV];
    o.move_overhead_ms = st->value[OPT_MOVEOVERHEAD];
    /* combos list "large" first: index 0 is level 3 */
    o.pruning = 3 - st->value[OPT_PRUNING];
    o.null_move = o.pruning != 0;
    o.knowledge = 3 - st->value[OPT_KNOWLEDGE];
    o.randomness = st->value[OPT_RANDOMNESS];
    /* UCI_LimitStrength with UCI_Elo overrides the skill level. */
    o.skill = st->value[OPT_LIMITSTRENGTH] ? search_skill_for_elo(st->value[OPT_ELO]) : st->value[OPT_SKILL];
    /* Noise varies from game to game only when asked for (randomness or a
     * lower skill); otherwise searches stay reproducible. */
    o.random_seed = sv->noise_seed;
    return o;
}

static void settings_init(Server *sv, Settings *st)
{
    memset(st, 0, sizeof *st);
    const SearchOptions *d = &sv->search_defaults;
    st->value[OPT_HASH] = 0; /* 0: the search's own default */
    st->value[OPT_THREADS] = 1; /* one thread keeps fixed-depth runs reproducible */
    st->value[OPT_MULTIPV] = d->multipv >= 1 && d->multipv <= MAX_MULTIPV ? d->multipv : 1;
    st->value[OPT_MOVEOVERHEAD] = d->move_overhead_ms >= 0 && d->move_overhead_ms <= 5000 ? d->move_overhead_ms : 0;
    st->value[OPT_PRUNING] = d->pruning >= 0 && d->pruning <= 3 ? 3 - d->pruning : 0;
    st->value[OPT_KNOWLEDGE] = d->knowledge >= 0 && d->knowledge <= 3 ? 3 - d->knowledge : 0;
    st->value[OPT_RANDOMNESS] = d->randomness >= 0 && d->randomness <= 3 ? d->randomness : 0;
    st->value[OPT_RESIGN] = PROTO_RESIGN_DEFAULT;
    st->value[OPT_USEBOOK] = 1; /* as ElephantEye: a book given is a book used */
    st->value[OPT_SKILL] = SKILL_MAX;
    st->value[OPT_ELO] = SKILL_ELO_MAX;
}

static int default_int(const Server *sv, OptId id)
{
    if (id == OPT_HASH && sv->dialect == DIALECT_UCI)
        return sv->search_defaults.hash_mb; /* UCI GUIs expect a real size */
    return sv->defaults.value[id];
}

static void emit_option_list(Server *sv)
{
    bool uci = dialect_of(sv) == DIALECT_UCI;
    for (int i = 0; i < OPT_NB; i++) {
        const OptionDesc *o = &SV_OPTIONS[i];
        if ((uci && !o->uci) || (!uci && o->uci_only))
            continue;
        OutLine l = {.n = 0};
        sv_outline_add(&l, "option %s%s type ", uci ? "name " : "", uci ? o->uci : o->ucci);
        int def = default_int(sv, o->id);
        switch (o->type) {
        case OPT_CHECK:
            sv_outline_add(&l, "check default %s", def ? "true" : "false");
            break;
        case OPT_SPIN: {
            int min = o->min;
            if (uci && (o->id == OPT_HASH || o->id == OPT_THREADS))
                min = 1; /* 0 ("engine decides") is a UCCI convention */
            if (uci)
                sv_outline_add(&l, "spin default %d min %d max %d", def, min, o->max);
            else
                sv_outline_add(&l, "spin min %d max %d default %d", min, o->max, def);
            break;
        }
        case OPT_COMBO:
            sv_outline_add(&l, "combo");
            for (int k = 0; o->vars[k]; k++)
                sv_outline_add(&l, " var %s", o->vars[k]);
            sv_outline_add(&l, " default %s", o->vars[def]);
            break;
        case OPT_STRING:
            sv_outline_add(&l, "string default <empty>");
            break;
        case OPT_BUTTON:
            sv_outline_add(&l, "button");
            break;
        }
        sv_emit(sv, "%s", l.buf);
    }
    /* An SPSA build's search constants (none in a normal build). */
    const SearchTunable *tun;
    const int ntune = search_tunables(&tun);
    SearchOptions compiled;
    search_options_init(&compiled);
    for (int i = 0; i < ntune; i++) {
        if (uci)
            sv_emit(sv, "option name SPSA_%s type spin default %d min %d max %d", tun[i].name, compiled.tune[i],
                 tun[i].min, tun[i].max);
        else
            sv_emit(sv, "option SPSA_%s type spin min %d max %d default %d", tun[i].name, tun[i].min, tun[i].max,
                 compiled.tune[i]);
    }
}

static void emit_handshake(Server *sv, Dialect d)
{
    pthread_mutex_lock(&sv->lock);
    sv->dialect = d;
    pthread_mutex_unlock(&sv->lock);
    if (d == DIALECT_UCI) {
        sv_emit(sv, "id name Chariot %s", CHARIOT_VERSION);
        sv_emit(sv, "id author Chariot developers");
    } else {
        sv_emit(sv, "id name Chariot %s", CHARIOT_VERSION);
        sv_emit(sv, "id version %s", CHARIOT_VERSION);
        sv_emit(sv, "id author Chariot developers");
    }
    emit_option_list(sv);
    sv_emit(sv, "%s", d == DIALECT_UCI ? "uciok" : "ucciok");
}

static const OptionDesc *find_option(const char *name)
{
    for (int i = 0; i < OPT_NB; i++) {
        const OptionDesc *o = &SV_OPTIONS[i];
        if (strcmp(name, o->ucci) == 0 || (o->alias && strcmp(name, o->alias) == 0))
            return o;
    }
    return NULL;
}

static bool parse_bool(const char *v, int *out)
{
    static const char *const yes[] = {"true", "on", "yes", "1"};
    static const char *const no[] = {"false", "off", "no", "0"};
    for (int i = 0; i < 4; i++) {
        if (ucci_word_eq(v, strlen(v), yes[i])) {
            *out = 1;
            return true;
        }
        if (ucci_word_eq(v, strlen(v), no[i])) {
            *out = 0;
            return true;
        }
    }
    return false;
}

static bool parse_spin(const char *v, long long *out)
{
    const char *p = v;
    if (*p == '+' || *p == '-')
        p++;
    if (!isdigit((unsigned char)*p))
        return false;
    int digits = 0;
    for (const char *q = p; *q; q++, digits++)
        if (!isdigit((unsigned char)*q) || digits > 12)
            return false;
    *out = strtoll(v, NULL, 10);
    return true;
}

static int parse_combo(const OptionDesc *o, const char *v)
{
    for (int k = 0; o->vars[k]; k++)
        if (ucci_word_eq(v, strlen(v), o->vars[k]))
            return k;
    /* ElephantEye's randomness levels "tiny" and "huge" */
    if (o->id == OPT_RANDOMNESS) {
        if (ucci_word_eq(v, strlen(v), "tiny"))
            return 1;
        if (ucci_word_eq(v, strlen(v), "huge"))
            return 3;
    }
    return -1;
}

void sv_new_game(Server *sv)
{
    searcher_new_game(sv->searcher);
    pthread_mutex_lock(&sv->lock);
    sv->equal_streak = sv->losing_streak = 0;
    pthread_mutex_unlock(&sv->lock);
}

static bool option_needs_search(OptId id)
{
    return id == OPT_HASH || id == OPT_THREADS || id == OPT_MULTIPV || id == OPT_MOVEOVERHEAD ||
           id == OPT_PRUNING || id == OPT_KNOWLEDGE || id == OPT_RANDOMNESS || id == OPT_NEWGAME || id == OPT_SKILL ||
           id == OPT_LIMITSTRENGTH || id == OPT_ELO;
}

/* A spin option's value, parsed and range-checked; on failure one error
 * names the option (`label`) and the value as echoed, and nothing changes. */
static bool spin_value(Server *sv, const char *label, const char *value, const char *echo, int min, int max, int *out)
{
    long long v;
    if (!parse_spin(value, &v)) {
        sv_emit_error(sv, "option %s: expected a number, got '%s'", label, echo);
        return false;
    }
    if (v < min || v > max) {
        sv_emit_error(sv, "option %s: %s is out of range %d..%d; unchanged", label, echo, min, max);
        return false;
    }
    *out = (int)v;
    return true;
}

/* The tunable whose option name (SPSA_<name>, normalised as option names
 * are) is `name`, or -1. Only an SPSA build has any. */
static int find_tunable(const char *name, const SearchTunable **tun)
{
    const int ntune = search_tunables(tun);
    for (int i = 0; i < ntune; i++) {
        char key[64] = "spsa";
        size_t k = 4;
        for (const char *p = (*tun)[i].name; *p && k + 1 < sizeof key; p++)
            if (*p != '_')
                key[k++] = (char)tolower((unsigned char)*p);
        key[k] = '\0';
        if (strcmp(name, key) == 0)
            return i;
    }
    return -1;
}

/* setoption of an SPSA build's search constant: kept with the search
 * defaults, so that later options, which rebuild the search options from
 * those, keep it. */
static void set_tunable(Server *sv, const UcciCommand *c, int i, const SearchTunable *tun)
{
    char echo[UCCI_ECHO_MAX + 4];
    ucci_echo(c->value, strlen(c->value), echo);
    char label[64];
    snprintf(label, sizeof label, "SPSA_%s", tun[i].name);
    int v;
    if (!spin_value(sv, label, c->value, echo, tun[i].min, tun[i].max, &v))
        return;
    if (!ensure_idle(sv, "setoption"))
        return;
    const int old = sv->search_defaults.tune[i];
    sv->search_defaults.tune[i] = v;
    SearchOptions so = search_options_from(sv, &sv->settings);
    if (!searcher_set_options(sv->searcher, &so)) {
        sv->search_defaults.tune[i] = old;
        sv_emit_error(sv, "option SPSA_%s: value '%s' rejected by the search; unchanged", tun[i].name, echo);
    }
}

void sv_setoption(Server *sv, const UcciCommand *c)
{
    const SearchTunable *tun;
    const int ti = find_tunable(c->name, &tun);
    if (ti >= 0) {
        set_tunable(sv, c, ti, tun);
        return;
    }
    const OptionDesc *o = find_option(c->name);
    if (!o)
        return; /* GUIs send options they never read from us: ignore silently */
    char echo[UCCI_ECHO_MAX + 4];
    ucci_echo(c->value, strlen(c->value), echo);
    /* Errors name the option as this GUI's dialect lists it: a UCI user
     * set "Hash", not "hashsize". */
    const Dialect d = dialect_of(sv);
    const char *label = d != DIALECT_UCCI && o->uci ? o->uci : o->ucci;
    if (option_needs_search(o->id) && !ensure_idle(sv, "setoption"))
        return;

    Settings next = sv->settings;
    switch (o->type) {
    case OPT_BUTTON:
        sv_new_game(sv);
        return;
    case OPT_CHECK: {
        int b;
        if (!parse_bool(c->value, &b)) {
            sv_emit_error(sv, "option %s: expected true or false, got '%s'", label, echo);
            return;
        }
        next.value[o->id] = b;
        break;
    }
    case OPT_SPIN: {
        int v;
        if (!spin_value(sv, label, c->value, echo, o->min, o->max, &v))
            return;
        next.value[o->id] = v;
        break;
    }
    case OPT_COMBO: {
        int k = parse_combo(o, c->value);
        if (k < 0) {
            OutLine l = {.n = 0};
            for (int i = 0; o->vars[i]; i++)
                sv_outline_add(&l, "%s%s", i ? "/" : "", o->vars[i]);
            sv_emit_error(sv, "option %s: '%s' is not one of %s; unchanged", label, echo, l.buf);
            return;
        }
        next.value[o->id] = k;
        break;
    }
    case OPT_STRING: {
        /* bookfiles: the book is read now, so a bad file is reported at once
         * and the previous book (if any) stays. "<empty>" or "" drops it. */
        Book *bk = NULL;
        if (c->value[0] && strcmp(c->value, "<empty>") != 0) {
            char err[UCCI_VALUE_MAX + 160];
            bk = book_open(c->value, err, sizeof err);
            if (!bk) {
                sv_emit_error(sv, "option %s: %s; book unchanged", label, err);
                return;
            }
        }
        book_free(sv->book);
        sv->book = bk;
        snprintf(next.bookfiles, sizeof next.bookfiles, "%s", c->value);
        break;
    }
    }

    if (option_needs_search(o->id)) {
        SearchOptions so = search_options_from(sv, &next);
        if (!searcher_set_options(sv->searcher, &so)) {
            sv_emit_error(sv, "option %s: value '%s' rejected by the search; unchanged", label, echo);
            return;
        }
    }
    pthread_mutex_lock(&sv->lock);
    sv->settings = next;
    pthread_mutex_unlock(&sv->lock);
}

/* ------------------------------------------------------------ positions */

/* Builds the position of a position/probe command into *b. On failure prints
 * one error and returns false. */
static bool build_position(Server *sv, const UcciCommand *c, Board *b)
{
    char err[160];
    if (c->has_fen) {
        if (!board_from_fen(b, c->fen, err, sizeof err)) {
            char echo[UCCI_ECHO_MAX + 4];
            ucci_echo(c->fen, strlen(c->fen), echo);
            sv_emit_error(sv, "bad FEN '%s': %s; position unchanged", echo, err);
            return false;
        }
    } else {
        board_startpos(b);
    }
    board_set_psq(b, eval_psq_table());
    for (int i = 0; i < c->move_count; i++) {
        Move m = c->moves[i];
        char ms[5];
        if (b->ply >= PROTO_HIST_LIMIT)
            board_compact_history(b);
        if (b->ply >= PROTO_HIST_LIMIT) {
            sv_emit_error(sv, "too many moves without a capture (move %d); position unchanged", i + 1);
            return false;
        }
        if (!board_is_legal(b, m)) {
            sv_emit_error(sv, "illegal move %s (move %d); position unchanged", move_str(m, ms), i + 1);
            return false;
        }
        board_make(b, m);
    }
    return true;
}

static void do_position(Server *sv, const UcciCommand *c)
{
    if (!build_position(sv, c, sv->scratch))
        return;
    Board *t = sv->pos;
    sv->pos = sv->scratch;
    sv->scratch = t;
    sv->ban_count = 0;
    if (sv->settings.value[OPT_DEBUG]) {
        char fen[160];
        board_to_fen(sv->pos, fen, sizeof fen);
        sv_emit(sv, "info string position %s (%d moves)", fen, c->move_count);
    }
}

static void do_banmoves(Server *sv, const UcciCommand *c)
{
    int bad = -1;
    for (int i = 0; i < c->move_count; i++) {
        Move m = c->moves[i];
        if (!board_is_legal(sv->pos, m)) {
            if (bad < 0)
                bad = i;
            continue;
        }
        bool dup = false;
        for (int k = 0; k < sv->ban_count; k++)
            dup |= sv->bans[k] == m;
        if (!dup && sv->ban_count < MAX_MOVES)
            sv->bans[sv->ban_count++] = m;
    }
    if (bad >= 0) {
        char ms[5];
        sv_emit_error(sv, "banmoves: %s is not a legal move here; the legal ones are banned",
                   move_str(c->moves[bad], ms));
    }
}

static void do_probe(Server *sv, const UcciCommand *c)
{
    const Board *b = sv->pos;
    if (c->startpos || c->has_fen) {
        if (!build_position(sv, c, sv->scratch))
            return;
        b = sv->scratch;
    }
    TTProbe p;
    if (!searcher_probe(sv->searcher, b, &p)) {
        sv_emit(sv, "pophash");
        return;
    }
    OutLine l = {.n = 0};
    sv_outline_add(&l, "pophash");
    if (p.move != MOVE_NONE && board_is_legal(b, p.move)) {
        char ms[5];
        sv_outline_add(&l, " bestmove %s", move_str(p.move, ms));
    }
    if (p.bound == BOUND_EXACT || p.bound == BOUND_LOWER)
        sv_outline_add(&l, " lowerbound %d depth %d", p.score, p.depth);
    if (p.bound == BOUND_EXACT || p.bound == BOUND_UPPER)
        sv_outline_add(&l, " upperbound %d depth %d", p.score, p.depth);
    sv_emit(sv, "%s", l.buf);
}

/* ------------------------------------------------------------------ go */

/* A UCCI clock value (thousandths of the unit) in ms. */
static int64_t ucci_clock_ms(const Server *sv, int64_t v)
{
    return sv->settings.value[OPT_USEMILLISEC] ? v / 1000 : v;
}

static bool root_move_allowed(const Server *sv, Move m)
{
    for (int k = 0; k < sv->ban_count; k++)
        if (sv->bans[k] == m)
            return false;
    return true;
}

static void build_limits(Server *sv, const UcciCommand *c, SearchLimits *l)
{
    const UcciGo *g = &c->go;
    search_limits_init(l);
    bool bounded = false;
    if (g->depth > 0) {
        l->depth = g->depth < MAX_PLY ? g->depth : MAX_PLY;
        bounded = true;
    }
    if (g->nodes >= 0) {
        l->nodes = g->nodes > 0 ? (uint64_t)g->nodes : 1; /* "nodes 0" still means "as little as possible" */
        bounded = true;
    }
    if (g->mate > 0) {
        l->mate = g->mate < MAX_PLY / 2 ? g->mate : MAX_PLY / 2;
        bounded = true;
    }
    if (g->movetime >= 0) {
        l->movetime_ms = g->movetime > 0 ? g->movetime : 1;
        bounded = true;
    }
    /* Own clock: UCCI keywords (own/opponent) or UCI ones (by colour). Both
     * are accepted in both dialects. */
    bool red = sv->pos->side == RED;
    if (g->time >= 0) {
        l->use_clock = true;
        l->time_ms = ucci_clock_ms(sv, g->time);
        l->inc_ms = g->increment >= 0 ? ucci_clock_ms(sv, g->increment) : 0;
        l->movestogo = g->movestogo > 0 ? g->movestogo : 0;
        l->opptime_ms = g->opptime >= 0 ? ucci_clock_ms(sv, g->opptime) : 0;
        l->oppinc_ms = g->oppincrement >= 0 ? ucci_clock_ms(sv, g->oppincrement) : 0;
    } else if ((red ? g->wtime : g->btime) >= 0) {
        l->use_clock = true;
        l->time_ms = red ? g->wtime : g->btime;
        int64_t inc = red ? g->winc : g->binc, opp = red ? g->btime : g->wtime,
                oppinc = red ? g->binc : g->winc;
        l->inc_ms = inc > 0 ? inc : 0;
        l->opptime_ms = opp > 0 ? opp : 0;
        l->oppinc_ms = oppinc > 0 ? oppinc : 0;
        l->movestogo = g->movestogo > 0 ? g->movestogo : 0;
    }
    bounded |= l->use_clock;
    l->infinite = g->infinite || !bounded;
    l->ponder = g->ponder;

    if (g->searchmoves) {
        for (int i = 0; i < c->move_count && l->searchmoves_count < MAX_MOVES; i++)
            if (board_is_legal(sv->pos, c->moves[i]))
                l->searchmoves[l->searchmoves_count++] = c->moves[i];
    }
    for (int k = 0; k < sv->ban_count; k++)
        l->banmoves[l->banmoves_count++] = sv->bans[k];
}

/* Legal root moves left after banmoves and searchmoves. */
static int playable_moves(Server *sv, const SearchLimits *l)
{
    MoveList list;
    board_generate(sv->pos, GEN_ALL, &list);
    int n = 0;
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        if (!root_move_allowed(sv, m))
            continue;
        bool listed = l->searchmoves_count == 0;
        for (int k = 0; k < l->searchmoves_count; k++)
            listed |= l->searchmoves[k] == m;
        n += listed;
    }
    return n;
}

/* A depth-0 info line in the same shape as the search's, so strict parsers
 * (TCHESS wants nps) read it too. -SCORE_MATE means "mated now". */
static void emit_static_info(Server *sv, Dialect d, int score)
{
    if (d == DIALECT_UCI && score == -SCORE_MATE)
        sv_emit(sv, "info depth 0 seldepth 0 multipv 1 score mate 0 nodes 0 nps 0 hashfull 0 time 0");
    else if (d == DIALECT_UCI)
        sv_emit(sv, "info depth 0 seldepth 0 multipv 1 score cp %d nodes 0 nps 0 hashfull 0 time 0", score);
    else
        sv_emit(sv, "info depth 0 seldepth 0 score %d time 0 nodes 0 nps 0", score);
}

/* The book answers a game move (a clock or movetime search; never analysis,
 * pondering, mate or fixed-depth searches) when it knows the position.
 * Banned moves, moves outside searchmoves and moves that may repeat a
 * position are skipped; with none left, the search runs. */
int sv_book_moves(Server *sv, const SearchLimits *l, BookMove *usable)
{
    if (!sv->book || !sv->settings.value[OPT_USEBOOK] || l->infinite || l->ponder || l->mate > 0 ||
        l->depth > 0 || l->nodes > 0 || !(l->use_clock || l->movetime_ms > 0))
        return 0;
    BookMove all[MAX_MOVES];
    int n = book_probe(sv->book, sv->pos, all, MAX_MOVES), k = 0;
    for (int i = 0; i < n; i++) {
        Move m = all[i].move;
        bool listed = l->searchmoves_count == 0;
        for (int j = 0; j < l->searchmoves_count; j++)
            listed |= l->searchmoves[j] == m;
        if (listed && root_move_allowed(sv, m) && !board_may_repeat_after(sv->pos, m))
            usable[k++] = all[i];
    }
    return k;
}

Move sv_book_draw(Server *sv, const BookMove *usable, int k, Move *ponder)
{
    Move best = usable[book_pick(usable, k, sv_next_random(&sv->rng))].move;
    Board *after = sv->scratch;
    *after = *sv->pos;
    board_make(after, best);
    BookMove replies[MAX_MOVES];
    *ponder = book_probe(sv->book, after, replies, MAX_MOVES) > 0 ? replies[0].move : MOVE_NONE;
    return best;
}

/* A book move: one `info depth 0 score <weight> pv <move>` line per usable
 * move, then a move drawn in proportion to the weights, with the heaviest
 * book reply as the ponder move. */
static bool play_from_book(Server *sv, Dialect d, const SearchLimits *l)
{
    BookMove usable[MAX_MOVES];
    int k = sv_book_moves(sv, l, usable);
    if (k == 0)
        return false;
    char ms[8];
    for (int i = 0; i < k; i++)
        sv_emit(sv, "info depth 0 score %s%d pv %s", d == DIALECT_UCI ? "cp " : "", usable[i].weight,
                move_str(usable[i].move, ms));
    Move ponder;
    Move best = sv_book_draw(sv, usable, k, &ponder);
    char ps[8];
    if (ponder != MOVE_NONE)
        sv_emit(sv, "bestmove %s ponder %s", move_str(best, ms), move_str(ponder, ps));
    else
        sv_emit(sv, "bestmove %s", move_str(best, ms));
    return true;
}

/* No move, known without a search (go depth 0, nothing to play). A ponder
 * or infinite search holds it until ponderhit or stop, as a search would
 * (see cb_bestmove): a GUI that gets an answer before it asked for one
 * takes the next one for the next go. `infinite`: ponderhit leaves it held. */
static void answer_without_search(Server *sv, const UcciCommand *c, bool ponder, bool infinite)
{
    SearchResult r;
    memset(&r, 0, sizeof r);
    r.best = r.ponder = MOVE_NONE;
    r.score = -SCORE_MATE;
    pthread_mutex_lock(&sv->lock);
    if (ponder || infinite) {
        sv->thinking = true;
        sv->stop_requested = false;
        sv->search_ponder = ponder;
        sv->search_infinite = infinite;
        sv->opp_draw = c->go.draw;
        sv->counted = false;
        sv->pending = r;
        sv->has_pending = true;
    } else {
        emit_bestmove_locked(sv, &r);
    }
    pthread_mutex_unlock(&sv->lock);
}

static void do_go(Server *sv, const UcciCommand *c)
{
    pthread_mutex_lock(&sv->lock);
    bool busy = sv->thinking, stopping = sv->stop_requested;
    pthread_mutex_unlock(&sv->lock);
    if (busy && !stopping) {
        sv_emit_error(sv, "already thinking; go ignored");
        return;
    }
    wait_idle(sv);
    if (c->err[0])
        sv_emit_error(sv, "%s", c->err);

    Dialect d = dialect_of(sv);
    SearchLimits *l = &sv->limits;
    build_limits(sv, c, l);

    /* `go depth 0`: the static evaluation and no move; after a ponderhit
     * too, since depth 0 bounds it. */
    if (c->go.depth == 0 && !c->go.infinite) {
        emit_static_info(sv, d, eval_evaluate(sv->pos, 3 - sv->settings.value[OPT_KNOWLEDGE]));
        answer_without_search(sv, c, l->ponder, false);
        return;
    }
    if (playable_moves(sv, l) == 0) {
        /* Mated, stalemated (a loss in xiangqi) or every move banned. */
        emit_static_info(sv, d, -SCORE_MATE);
        answer_without_search(sv, c, l->ponder, l->infinite);
        return;
    }
    if (play_from_book(sv, d, l))
        return;
    if (sv->settings.value[OPT_DEBUG])
        sv_emit(sv, "info string go depth %d nodes %llu movetime %lld clock %d time %lld inc %lld movestogo %d%s%s",
             l->depth, (unsigned long long)l->nodes, (long long)l->movetime_ms, l->use_clock,
             (long long)l->time_ms, (long long)l->inc_ms, l->movestogo, l->infinite ? " infinite" : "",
             l->ponder ? " ponder" : "");

    pthread_mutex_lock(&sv->lock);
    sv->thinking = true;
    sv->stop_requested = false;
    sv->has_pending = false;
    sv->search_ponder = l->ponder;
    sv->search_infinite = l->infinite;
    sv->opp_draw = c->go.draw;
    sv->counted = !l->infinite;
    sv->root_dead = board_insufficient_material(sv->pos);
    pthread_mutex_unlock(&sv->lock);

    SearchCallbacks cb = {.ctx = sv, .on_info = cb_info, .on_currmove = cb_currmove, .on_bestmove = cb_bestmove};
    searcher_start(sv->searcher, sv->pos, l, &cb);

    /* Batch mode reads nothing while a finite search runs, so a script of
     * position/go lines runs in order. */
    if (sv->settings.value[OPT_BATCH] && !l->infinite && !l->ponder)
        wait_idle(sv);
}

static void do_ponderhit(Server *sv, const UcciCommand *c)
{
    pthread_mutex_lock(&sv->lock);
    bool pondering = sv->thinking && sv->search_ponder;
    if (pondering) {
        sv->search_ponder = false;
        if (c->draw)
            sv->opp_draw = true;
        if (sv->has_pending && !sv->search_infinite)
            emit_bestmove_locked(sv, &sv->pending);
    }
    pthread_mutex_unlock(&sv->lock);
    if (pondering)
        searcher_ponderhit(sv->searcher);
}

static void do_stop(Server *sv)
{
    pthread_mutex_lock(&sv->lock);
    bool thinking = sv->thinking;
    Dialect d = sv->dialect;
    pthread_mutex_unlock(&sv->lock);
    if (thinking)
        request_stop(sv);
    else if (d == DIALECT_UCCI)
        sv_emit(sv, "nobestmove");
}

/* ----------------------------------------------------------------- loop */

ReadStatus sv_read_line(Server *sv, size_t *len)
{
    size_t n = 0;
    bool too_long = false, any = false;
    int ch;
    while ((ch = getc(sv->in)) != EOF) {
        any = true;
        if (ch == '\n')
            break;
        if (n < UCCI_LINE_MAX)
            sv->line[n++] = (char)ch;
        else
            too_long = true;
    }
    sv->line[n] = '\0';
    *len = n;
    if (!any)
        return READ_EOF;
    return too_long ? READ_TOO_LONG : READ_LINE;
}

/* Applies one parsed command. Returns false when the loop must end. */
static bool dispatch(Server *sv, const UcciCommand *c)
{
    /* No boot state: whatever comes first is taken as UCCI (unknown words
     * get an error), and `ucci`/`uci` may come at any time. */
    switch (c->type) {
    case UCCI_CMD_EMPTY:
    case UCCI_CMD_IGNORE:
        break;
    case UCCI_CMD_ERROR:
        sv_emit_error(sv, "%s", c->err);
        break;
    case UCCI_CMD_UCCI:
        emit_handshake(sv, DIALECT_UCCI);
        break;
    case UCCI_CMD_UCI:
        emit_handshake(sv, DIALECT_UCI);
        break;
    case UCCI_CMD_ISREADY:
        sv_emit(sv, "readyok");
        break;
    case UCCI_CMD_SETOPTION:
        if (c->err[0])
            sv_emit_error(sv, "%s", c->err);
        else
            sv_setoption(sv, c);
        break;
    case UCCI_CMD_UCINEWGAME:
        if (ensure_idle(sv, "ucinewgame"))
            sv_new_game(sv);
        break;
    case UCCI_CMD_POSITION:
        do_position(sv, c);
        break;
    case UCCI_CMD_BANMOVES:
        do_banmoves(sv, c);
        break;
    case UCCI_CMD_GO:
        do_go(sv, c);
        break;
    case UCCI_CMD_PONDERHIT:
        if (c->err[0])
            sv_emit_error(sv, "%s", c->err);
        do_ponderhit(sv, c);
        break;
    case UCCI_CMD_STOP:
        do_stop(sv);
        break;
    case UCCI_CMD_PROBE:
        do_probe(sv, c);
        break;
    case UCCI_CMD_QUIT:
        request_stop(sv);
        wait_idle(sv);
        if (dialect_of(sv) == DIALECT_UCCI)
            sv_emit(sv, "bye");
        return false;
    }
    return true;
}

bool sv_line_is(const char *line, size_t len, const char *word)
{
    while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
        len--;
    while (len > 0 && (*line == ' ' || *line == '\t'))
        line++, len--;
    return ucci_word_eq(line, len, word);
}

static void server_free(Server *sv)
{
    book_free(sv->book);
    if (sv->searcher)
        searcher_free(sv->searcher);
    free(sv->pos);
    free(sv->scratch);
    free(sv->line);
    free(sv->cmd);
    pthread_cond_destroy(&sv->idle_cond);
    pthread_mutex_destroy(&sv->lock);
    free(sv);
}

int protocol_serve(FILE *in, FILE *out)
{
    /* A GUI that closes our stdout must not kill us mid-write: the write
     * fails instead, and the loop ends. */
    proc_ignore_sigpipe();

    Server *sv = calloc(1, sizeof *sv);
    if (!sv)
        return 1;
    pthread_mutex_init(&sv->lock, NULL);
    pthread_cond_init(&sv->idle_cond, NULL);
    sv->in = in;
    sv->out = out;
    /* calloc: board_from_fen keeps the target's psq table, so it must be valid */
    sv->pos = calloc(1, sizeof *sv->pos);
    sv->scratch = calloc(1, sizeof *sv->scratch);
    sv->line = malloc(UCCI_LINE_MAX + 1);
    sv->cmd = malloc(sizeof *sv->cmd);
    sv->searcher = searcher_new();
    if (!sv->pos || !sv->scratch || !sv->line || !sv->cmd || !sv->searcher) {
        fprintf(stderr, "chariot: out of memory\n");
        server_free(sv);
        return 1;
    }
    search_options_init(&sv->search_defaults);
    /* Book draws and root noise differ from run to run, as a human
     * opponent expects. */
    sv->rng = (uint64_t)time(NULL) ^ (uint64_t)(uintptr_t)sv;
    sv->noise_seed = sv_next_random(&sv->rng);
    settings_init(sv, &sv->defaults);
    sv->settings = sv->defaults;
    SearchOptions so = search_options_from(sv, &sv->settings);
    searcher_set_options(sv->searcher, &so);
    board_startpos(sv->pos);
    board_set_psq(sv->pos, eval_psq_table());

    bool started = false; /* a first command has been read */
    for (;;) {
        size_t len;
        ReadStatus st = sv_read_line(sv, &len);
        if (st == READ_EOF)
            break;
        if (st == READ_TOO_LONG) {
            sv_emit_error(sv, "line longer than %d bytes ignored", (int)UCCI_LINE_MAX);
            continue;
        }
        /* `xboard` as the first command hands the rest of the input to the
         * CECP front end. */
        if (!started && sv_line_is(sv->line, len, "xboard")) {
            cecp_serve(sv);
            break;
        }
        ucci_parse_line(sv->line, len, sv->cmd);
        started |= sv->cmd->type != UCCI_CMD_EMPTY;
        if (!dispatch(sv, sv->cmd))
            break;
        pthread_mutex_lock(&sv->lock);
        bool broken = sv->out_broken;
        pthread_mutex_unlock(&sv->lock);
        if (broken)
            break;
    }
    /* EOF (or a dead GUI) means quit: stop any search and leave cleanly. */
    request_stop(sv);
    wait_idle(sv);
    server_free(sv);
    return 0;
}
