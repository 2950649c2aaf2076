/* cecp.c — the XBoard/WinBoard protocol (CECP version 2) on the engine side.
 * The main thread reads lines and queues them; a controller thread owns the
 * game (board, move list, clocks, mode) and runs every command and every
 * finished search in arrival order, so the engine can move, ponder and defer
 * a pong by itself. The search thread only prints thinking lines and hands
 * its result over. Moves are ICCS: XBoard counts the ranks of a 10-rank board
 * from 0, so its xiangqi coordinates are the same. */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eval.h"
#include "server_core.h"

enum {
    /* XBoard's mate scores: 100000 + N for a mate in N moves. */
    CECP_MATE_SCORE = 100000,
    /* Clocks before the first `level`: 40 moves in 5 minutes, XBoard's own default. */
    CECP_DEFAULT_MPS = 40,
    CECP_DEFAULT_BASE_MS = 5 * 60 * 1000,
    /* Pongs held back while the engine thinks on its move (XBoard sends one at most). */
    CECP_PONG_MAX = 64,
    CECP_WORD_MAX = 64
};

/* Largest clock reading accepted, in centiseconds (about 30 years). */
#define CECP_CLOCK_MAX 100000000000LL

typedef enum Mode { MODE_FORCE, MODE_PLAY, MODE_ANALYZE } Mode;
typedef enum Kind { SEARCH_NONE, SEARCH_GAME, SEARCH_PONDER, SEARCH_ANALYZE } Kind;

/* One input line on its way from the reader to the controller. */
typedef struct Line {
    struct Line *next;
    bool too_long;
    size_t len;
    char text[];
} Line;

/* The options XBoard lists in its engine dialog, by the names it shows;
 * memory and cores set the hash size and the threads. */
typedef struct CecpOption {
    OptId id;
    const char *name;
} CecpOption;

static const CecpOption CECP_OPTIONS[] = {
    {OPT_MULTIPV, "MultiPV"},          {OPT_SKILL, "Skill Level"},  {OPT_MOVEOVERHEAD, "Move Overhead"},
    {OPT_RESIGN, "Resign"},            {OPT_STYLE, "Style"},        {OPT_RANDOMNESS, "Randomness"},
    {OPT_USEBOOK, "OwnBook"},          {OPT_BOOKFILES, "BookFile"}, {OPT_NEWGAME, "Clear Hash"},
};

typedef struct Cecp {
    Server *sv;
    pthread_t thread;
    pthread_cond_t wake;     /* a line, the end of input or a search result arrived */

    /* Shared with the reader and the search thread: guarded by sv->lock. */
    Line *head, *tail;
    bool eof;
    Kind kind;               /* the running search, SEARCH_NONE when idle */
    bool result_ready;       /* the running search has delivered `result` */
    SearchResult result;
    bool post;               /* thinking output on */
    Move hint;               /* the predicted reply a ponder search assumes */
    int root_moves;          /* legal moves at the root, for stat01 */
    int cur_depth, cur_number;
    Move cur_move;
    uint64_t cur_nodes;
    int64_t cur_time_ms;

    /* The controller's own state. */
    Mode mode;
    int engine_side;         /* the side the engine plays in MODE_PLAY */
    bool ponder_on;          /* hard / easy */
    bool game_over;          /* a result is known: no thinking, no pondering */
    Board *start;            /* the position of new/setboard */
    Move *moves;             /* the moves played since then */
    int nmoves, cap;
    int mps, sd;             /* moves per session (0: all), depth limit (0: none) */
    int64_t base_ms, inc_ms, st_ms;
    int64_t own_ms, opp_ms;  /* clocks from time/otim, or as estimated */
    int64_t think_start_ms;
    int pongs[CECP_PONG_MAX];
    int npongs;
    SearchLimits limits;
} Cecp;

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const char *side_name(int side) { return side == RED ? "Red" : "Black"; }

/* ------------------------------------------------------ search callbacks */

/* XBoard's score: centipawns, or 100000 + N for a mate in N moves. */
static int xboard_score(int s)
{
    if (!score_is_mate(s))
        return s;
    int n = score_mate_moves(s);
    return n > 0 ? CECP_MATE_SCORE + n : -CECP_MATE_SCORE + n;
}

/* Thinking output: `ply score time nodes pv`, time in centiseconds; a
 * trailing ? or ! marks a fail low or high. */
static void cb_info(void *ctx, const SearchInfo *info)
{
    Cecp *c = ctx;
    pthread_mutex_lock(&c->sv->lock);
    c->cur_depth = info->depth;
    c->cur_nodes = info->nodes;
    c->cur_time_ms = info->time_ms;
    if (c->post || c->kind == SEARCH_ANALYZE) {
        OutLine l = {.n = 0};
        sv_outline_add(&l, "%d %d %lld %llu", info->depth, xboard_score(info->score), (long long)(info->time_ms / 10),
                       (unsigned long long)info->nodes);
        for (int i = 0; i < info->pv_len && i < MAX_PLY; i++) {
            char m[5];
            move_to_iccs(info->pv[i], m);
            sv_outline_add(&l, " %s", m);
        }
        if (info->bound != BOUND_EXACT)
            sv_outline_add(&l, "%s", info->bound == BOUND_UPPER ? "?" : "!");
        sv_emit_locked(c->sv, l.buf);
    }
    pthread_mutex_unlock(&c->sv->lock);
}

static void cb_currmove(void *ctx, Move m, int number, int depth)
{
    Cecp *c = ctx;
    pthread_mutex_lock(&c->sv->lock);
    c->cur_move = m;
    c->cur_number = number;
    c->cur_depth = depth;
    pthread_mutex_unlock(&c->sv->lock);
}

static void cb_done(void *ctx, const SearchResult *r)
{
    Cecp *c = ctx;
    pthread_mutex_lock(&c->sv->lock);
    c->result = *r;
    c->result_ready = true;
    pthread_cond_broadcast(&c->wake);
    pthread_mutex_unlock(&c->sv->lock);
}

/* -------------------------------------------------------- search control */

static Kind kind_of(Cecp *c)
{
    pthread_mutex_lock(&c->sv->lock);
    Kind k = c->kind;
    pthread_mutex_unlock(&c->sv->lock);
    return k;
}

static void start_search(Cecp *c, Kind kind, const Board *b, const SearchLimits *l)
{
    Server *sv = c->sv;
    pthread_mutex_lock(&sv->lock);
    c->kind = kind;
    c->result_ready = false;
    c->root_moves = board_count_legal(b);
    c->cur_depth = c->cur_number = 0;
    c->cur_move = MOVE_NONE;
    c->cur_nodes = 0;
    c->cur_time_ms = 0;
    sv->search_ponder = kind == SEARCH_PONDER;
    sv->counted = kind != SEARCH_ANALYZE;
    sv->root_dead = board_insufficient_material(b);
    pthread_mutex_unlock(&sv->lock);
    c->think_start_ms = now_ms();
    SearchCallbacks cb = {.ctx = c, .on_info = cb_info, .on_currmove = cb_currmove, .on_bestmove = cb_done};
    searcher_start(sv->searcher, b, l, &cb);
}

/* Stops the running search, if any, and drops its result. */
static void halt(Cecp *c)
{
    Server *sv = c->sv;
    if (kind_of(c) == SEARCH_NONE)
        return;
    searcher_stop(sv->searcher);
    pthread_mutex_lock(&sv->lock);
    while (!c->result_ready)
        pthread_cond_wait(&c->wake, &sv->lock);
    c->result_ready = false;
    c->kind = SEARCH_NONE;
    c->hint = MOVE_NONE;
    pthread_mutex_unlock(&sv->lock);
    searcher_wait(sv->searcher);
}

/* ------------------------------------------------------------- the game */

/* Moves made by `side` since the start position. */
static int moves_done(const Cecp *c, int side)
{
    return side == c->start->side ? (c->nmoves + 1) / 2 : c->nmoves / 2;
}

/* Plays m on the game board; false (nothing changed) when the history is full. */
static bool push_move(Cecp *c, Move m)
{
    Board *b = c->sv->pos;
    if (b->ply >= PROTO_HIST_LIMIT)
        board_compact_history(b);
    if (b->ply >= PROTO_HIST_LIMIT)
        return false;
    if (c->nmoves == c->cap) {
        int cap = c->cap ? 2 * c->cap : 256;
        Move *p = realloc(c->moves, (size_t)cap * sizeof *p);
        if (!p)
            return false;
        c->moves = p;
        c->cap = cap;
    }
    c->moves[c->nmoves++] = m;
    board_make(b, m);
    return true;
}

/* The game board from the start position and the first n moves. */
static void replay(Cecp *c, int n)
{
    Board *b = c->sv->pos;
    *b = *c->start;
    c->nmoves = 0;
    for (int i = 0; i < n; i++)
        push_move(c, c->moves[i]);
}

/* The search limits of the engine's next move from the time control and
 * the clocks (a ponder search gets the same: its clock starts at the hit). */
static void game_limits(const Cecp *c, SearchLimits *l)
{
    search_limits_init(l);
    if (c->sd > 0)
        l->depth = c->sd < MAX_PLY ? c->sd : MAX_PLY;
    if (c->st_ms > 0) {
        l->movetime_ms = c->st_ms;
    } else {
        l->use_clock = true;
        l->time_ms = c->own_ms > 0 ? c->own_ms : 0;
        l->opptime_ms = c->opp_ms > 0 ? c->opp_ms : 0;
        l->inc_ms = l->oppinc_ms = c->inc_ms;
        if (c->mps > 0)
            l->movestogo = c->mps - moves_done(c, c->engine_side) % c->mps;
    }
}

/* How the game stands by the rules after the last move: the result is
 * announced when the side to move is mated or stalemated, or loses by a
 * repetition rule and is the engine (XBoard checks a win claim against its
 * own, simpler repetition rules, so the engine only claims its own loss).
 * A draw by rule is claimed with `offer draw`, which XBoard grants when it
 * agrees. Returns true when the game is over. */
static bool judge(Cecp *c)
{
    Server *sv = c->sv;
    GameReason why;
    GameResult r = board_game_result(sv->pos, &why);
    if (r == RESULT_NONE)
        return false;
    if (r == RESULT_DRAW) {
        sv_emit(sv, "offer draw");
        return false;
    }
    const int loser = r == RESULT_RED_WINS ? BLACK : RED;
    const char *score = r == RESULT_RED_WINS ? "1-0" : "0-1";
    if (why == REASON_CHECKMATE || why == REASON_STALEMATE)
        sv_emit(sv, "%s {%s is %s}", score, side_name(loser), why == REASON_CHECKMATE ? "mated" : "stalemated");
    else if (loser == c->engine_side)
        sv_emit(sv, "%s {%s loses by %s}", score, side_name(loser), board_reason_name(why));
    else
        return false;
    c->game_over = true;
    return true;
}

/* After the engine's move: ponder on the predicted reply, with the limits
 * of the move after it (the clock starts at the hit). */
static void maybe_ponder(Cecp *c, Move reply)
{
    Server *sv = c->sv;
    if (!c->ponder_on || c->mode != MODE_PLAY || c->game_over || reply == MOVE_NONE ||
        !board_is_legal(sv->pos, reply))
        return;
    Board *b = sv->scratch;
    *b = *sv->pos;
    board_make(b, reply);
    if (!board_has_legal_move(b))
        return;
    game_limits(c, &c->limits);
    c->limits.ponder = true;
    pthread_mutex_lock(&sv->lock);
    c->hint = reply;
    bool post = c->post;
    pthread_mutex_unlock(&sv->lock);
    if (post) {
        char m[5];
        move_to_iccs(reply, m);
        sv_emit(sv, "Hint: %s", m);
    }
    start_search(c, SEARCH_PONDER, b, &c->limits);
}

/* The engine plays m (decision: the draw/resign word of its search). */
static void play(Cecp *c, Move m, Move reply, const char *decision)
{
    Server *sv = c->sv;
    if (strcmp(decision, " resign") == 0) {
        sv_emit(sv, "resign");
        c->game_over = true;
        return;
    }
    char ms[5];
    move_to_iccs(m, ms);
    if (!push_move(c, m)) {
        sv_emit(sv, "resign");
        c->game_over = true;
        return;
    }
    /* A draw offer goes before the move, so that it also claims a draw the
     * move brings about. */
    GameReason why;
    const GameResult after = board_game_result(sv->pos, &why);
    if (strcmp(decision, " draw") == 0 || after == RESULT_DRAW)
        sv_emit(sv, "offer draw");
    sv_emit(sv, "move %s", ms);
    pthread_mutex_lock(&sv->lock);
    sv->opp_draw = false;
    pthread_mutex_unlock(&sv->lock);
    /* The own clock as XBoard keeps it, for the ponder search's limits. */
    c->own_ms -= now_ms() - c->think_start_ms;
    c->own_ms += c->inc_ms;
    if (c->mps > 0 && moves_done(c, c->engine_side) % c->mps == 0)
        c->own_ms += c->base_ms;
    if (after != RESULT_NONE && after != RESULT_DRAW && judge(c))
        return;
    maybe_ponder(c, reply);
}

/* The engine is on move: a book move, or a search. */
static void think(Cecp *c)
{
    Server *sv = c->sv;
    c->engine_side = sv->pos->side;
    c->think_start_ms = now_ms();
    game_limits(c, &c->limits);
    BookMove usable[MAX_MOVES];
    int k = sv_book_moves(sv, &c->limits, usable);
    if (k > 0) {
        Move reply;
        Move m = sv_book_draw(sv, usable, k, &reply);
        char ms[5];
        move_to_iccs(m, ms);
        pthread_mutex_lock(&sv->lock);
        bool post = c->post;
        pthread_mutex_unlock(&sv->lock);
        if (post)
            sv_emit(sv, "0 0 0 0 (book %s)", ms);
        play(c, m, reply, "");
        return;
    }
    start_search(c, SEARCH_GAME, sv->pos, &c->limits);
}

/* A finished game search: its move, then pondering. */
static void on_result(Cecp *c, const SearchResult *r)
{
    Server *sv = c->sv;
    if (r->best == MOVE_NONE || !board_is_legal(sv->pos, r->best)) {
        judge(c);
        return;
    }
    pthread_mutex_lock(&sv->lock);
    const char *decision = sv_draw_or_resign_locked(sv, r);
    pthread_mutex_unlock(&sv->lock);
    play(c, r->best, r->ponder, decision);
}

/* Takes the finished game search's result and plays it. Called with
 * sv->lock held and the result ready; returns with the lock released. */
static void play_result_unlock(Cecp *c)
{
    SearchResult r = c->result;
    c->result_ready = false;
    c->kind = SEARCH_NONE;
    pthread_mutex_unlock(&c->sv->lock);
    searcher_wait(c->sv->searcher);
    on_result(c, &r);
}

/* The engine's turn in a game: think unless the game is over. */
static void maybe_think(Cecp *c)
{
    if (c->mode == MODE_PLAY && !c->game_over && c->sv->pos->side == c->engine_side && !judge(c))
        think(c);
}

static void start_analysis(Cecp *c)
{
    if (c->mode != MODE_ANALYZE || !board_has_legal_move(c->sv->pos))
        return;
    search_limits_init(&c->limits);
    c->limits.infinite = true;
    start_search(c, SEARCH_ANALYZE, c->sv->pos, &c->limits);
}

/* Before an option changes: a running game search moves now (the protocol
 * allows a move on any command, the command running right after it), and
 * pondering or analysis stops. */
static void settle(Cecp *c)
{
    Server *sv = c->sv;
    if (kind_of(c) == SEARCH_GAME) {
        searcher_stop(sv->searcher);
        pthread_mutex_lock(&sv->lock);
        while (!c->result_ready)
            pthread_cond_wait(&c->wake, &sv->lock);
        play_result_unlock(c);
    }
    halt(c);
}

/* ------------------------------------------------------------- commands */

typedef struct Args {
    const char *p; /* the rest of the line after the command word */
} Args;

static bool next_word(Args *a, char *out, size_t cap)
{
    while (*a->p == ' ' || *a->p == '\t')
        a->p++;
    if (!*a->p)
        return false;
    size_t n = 0;
    while (*a->p && *a->p != ' ' && *a->p != '\t') {
        if (n + 1 < cap)
            out[n++] = *a->p;
        a->p++;
    }
    out[n] = '\0';
    return true;
}

/* A whole-word integer in [min, max]. */
static bool parse_int(const char *s, long long min, long long max, long long *out)
{
    char *end;
    errno = 0;
    const long long v = strtoll(s, &end, 10);
    const bool ok = end != s && *end == '\0' && errno == 0 && v >= min && v <= max;
    if (ok)
        *out = v;
    return ok;
}

/* "SEC" or "SEC.FRAC" in ms; false when malformed or negative. */
static bool parse_seconds(const char *s, int64_t *ms)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v >= 0) || v > 1e9)
        return false;
    *ms = (int64_t)(v * 1000 + 0.5);
    return true;
}

/* level BASE: minutes, or minutes:seconds; anything after is ignored. */
static bool parse_base(const char *s, int64_t *ms)
{
    char *end;
    long min = strtol(s, &end, 10);
    if (end == s || min < 0 || min > 100000)
        return false;
    long sec = 0;
    if (*end == ':') {
        const char *q = end + 1;
        sec = strtol(q, &end, 10);
        if (end == q || sec < 0 || sec > 100000)
            return false;
    }
    *ms = ((int64_t)min * 60 + sec) * 1000;
    return true;
}

static void emit_features(Cecp *c)
{
    Server *sv = c->sv;
    sv_emit(sv, "feature done=0");
    sv_emit(sv,
            "feature ping=1 setboard=1 playother=1 usermove=1 time=1 draw=1 sigint=0 sigterm=0 reuse=1 "
            "analyze=1 san=0 colors=0 name=1 nps=0 memory=1 smp=1 myname=\"Chariot %s\" variants=\"xiangqi\"",
            CHARIOT_VERSION);
    const Settings *st = &sv->settings;
    for (size_t i = 0; i < sizeof CECP_OPTIONS / sizeof *CECP_OPTIONS; i++) {
        const OptionDesc *o = &SV_OPTIONS[CECP_OPTIONS[i].id];
        const char *name = CECP_OPTIONS[i].name;
        int v = st->value[o->id];
        OutLine l = {.n = 0};
        switch (o->type) {
        case OPT_CHECK:
            sv_outline_add(&l, "%s -check %d", name, v);
            break;
        case OPT_SPIN:
            sv_outline_add(&l, "%s -spin %d %d %d", name, v, o->min, o->max);
            break;
        case OPT_COMBO:
            sv_outline_add(&l, "%s -combo", name);
            for (int k = 0; o->vars[k]; k++)
                sv_outline_add(&l, "%s %s%s", k ? " ///" : "", k == v ? "*" : "", o->vars[k]);
            break;
        case OPT_STRING:
            sv_outline_add(&l, "%s -file %s", name, st->bookfiles);
            break;
        case OPT_BUTTON:
            sv_outline_add(&l, "%s -button", name);
            break;
        }
        sv_emit(sv, "feature option=\"%s\"", l.buf);
    }
    sv_emit(sv, "feature done=1");
}

/* Runs setoption on the shared options table (name in any spelling). */
static void set_option(Cecp *c, const char *name, size_t n, const char *value)
{
    Server *sv = c->sv;
    UcciCommand *cmd = sv->cmd;
    if (!ucci_normalise_name(name, n, cmd->name, sizeof cmd->name) || strlen(value) >= sizeof cmd->value) {
        sv_emit_error(sv, "bad option");
        return;
    }
    snprintf(cmd->value, sizeof cmd->value, "%s", value);
    cmd->has_value = value[0] != '\0';
    cmd->err[0] = '\0';
    settle(c);
    sv_setoption(sv, cmd);
    start_analysis(c);
}

/* option NAME[=VALUE] */
static void do_option(Cecp *c, const char *rest)
{
    while (*rest == ' ')
        rest++;
    const char *eq = strchr(rest, '=');
    size_t n = eq ? (size_t)(eq - rest) : strlen(rest);
    bool known = false;
    char key[UCCI_NAME_MAX], want[UCCI_NAME_MAX];
    if (ucci_normalise_name(rest, n, key, sizeof key))
        for (size_t i = 0; i < sizeof CECP_OPTIONS / sizeof *CECP_OPTIONS; i++)
            known |= ucci_normalise_name(CECP_OPTIONS[i].name, strlen(CECP_OPTIONS[i].name), want, sizeof want) &&
                     strcmp(key, want) == 0;
    if (!known) {
        sv_emit_error(c->sv, "unknown option");
        return;
    }
    set_option(c, rest, n, eq ? eq + 1 : "");
}

static void do_usermove(Cecp *c, const char *text)
{
    Server *sv = c->sv;
    char echo[UCCI_ECHO_MAX + 4];
    ucci_echo(text, strlen(text), echo);
    Kind k = kind_of(c);
    if (k == SEARCH_GAME) {
        sv_emit(sv, "Error (command not legal now): usermove %s", echo);
        return;
    }
    Move m = ucci_parse_move(text, strlen(text));
    if (m == MOVE_NONE) {
        sv_emit(sv, "Illegal move (not a move in coordinates such as h2e2): %s", echo);
        return;
    }
    if (!board_is_legal(sv->pos, m)) {
        Piece p = sv->pos->sq[move_from(m)];
        sv_emit(sv, "Illegal move (%s): %s",
                p == PIECE_NONE || piece_color(p) != sv->pos->side ? "no piece of the side to move there"
                                                                   : "not a legal move",
                echo);
        return;
    }
    pthread_mutex_lock(&sv->lock);
    bool hit = k == SEARCH_PONDER && m == c->hint;
    pthread_mutex_unlock(&sv->lock);
    if (hit) {
        /* The predicted reply: the ponder search becomes this move's search,
         * its clock starting now. */
        if (!push_move(c, m)) {
            sv_emit(sv, "Illegal move (too many moves without a capture): %s", echo);
            return;
        }
        pthread_mutex_lock(&sv->lock);
        c->kind = SEARCH_GAME;
        c->hint = MOVE_NONE;
        sv->search_ponder = false;
        pthread_mutex_unlock(&sv->lock);
        c->think_start_ms = now_ms();
        searcher_ponderhit(sv->searcher);
        if (judge(c))
            halt(c);
        return;
    }
    halt(c);
    if (!push_move(c, m)) {
        sv_emit(sv, "Illegal move (too many moves without a capture): %s", echo);
        return;
    }
    if (c->mode == MODE_ANALYZE)
        start_analysis(c);
    else
        maybe_think(c);
}

/* undo (n = 1) or remove (n = 2). */
static void take_back(Cecp *c, int n, const char *what)
{
    halt(c);
    if (c->nmoves < n) {
        sv_emit(c->sv, "Error (command not legal now): %s", what);
        return;
    }
    replay(c, c->nmoves - n);
    c->game_over = false;
    start_analysis(c);
}

static void do_setboard(Cecp *c, const char *fen)
{
    Server *sv = c->sv;
    Board *b = sv->scratch;
    char err[160];
    bool ok = board_from_fen(b, fen, err, sizeof err);
    if (ok && board_is_attacked(b, board_king_sq(b, b->side ^ 1), b->side)) {
        snprintf(err, sizeof err, "the side not to move is in check");
        ok = false;
    }
    if (!ok) {
        sv_emit(sv, "tellusererror Illegal position: %s", err);
        sv_emit_error(sv, "illegal position: %s", err);
        return;
    }
    halt(c);
    board_set_psq(b, eval_psq_table());
    *c->start = *b;
    replay(c, 0);
    c->game_over = false;
    start_analysis(c);
}

static void do_new(Cecp *c)
{
    halt(c);
    board_startpos(c->start);
    board_set_psq(c->start, eval_psq_table());
    replay(c, 0);
    if (c->mode != MODE_ANALYZE)
        c->mode = MODE_PLAY;
    c->engine_side = BLACK;
    c->game_over = false;
    c->sd = 0;
    c->own_ms = c->opp_ms = c->base_ms;
    sv_new_game(c->sv);
    pthread_mutex_lock(&c->sv->lock);
    c->sv->opp_draw = false;
    pthread_mutex_unlock(&c->sv->lock);
    start_analysis(c);
}

static void do_level(Cecp *c, Args *a)
{
    char w1[CECP_WORD_MAX], w2[CECP_WORD_MAX], w3[CECP_WORD_MAX];
    long long mps;
    int64_t base, inc;
    if (!next_word(a, w1, sizeof w1) || !next_word(a, w2, sizeof w2) || !next_word(a, w3, sizeof w3) ||
        !parse_int(w1, 0, 100000, &mps) || !parse_base(w2, &base) || !parse_seconds(w3, &inc)) {
        sv_emit_error(c->sv, "expected level MPS BASE INC");
        return;
    }
    c->mps = (int)mps;
    c->base_ms = base;
    c->inc_ms = inc;
    c->st_ms = 0;
    c->own_ms = c->opp_ms = base;
}

static void do_stat(Cecp *c)
{
    Server *sv = c->sv;
    pthread_mutex_lock(&sv->lock);
    if (c->kind == SEARCH_ANALYZE) {
        char m[5] = "";
        if (c->cur_move != MOVE_NONE)
            move_to_iccs(c->cur_move, m);
        int left = c->root_moves - c->cur_number;
        char buf[160];
        snprintf(buf, sizeof buf, "stat01: %lld %llu %d %d %d %s", (long long)((now_ms() - c->think_start_ms) / 10),
                 (unsigned long long)c->cur_nodes, c->cur_depth, left > 0 ? left : 0, c->root_moves, m);
        sv_emit_locked(sv, buf);
    }
    pthread_mutex_unlock(&sv->lock);
}

static void do_hint(Cecp *c)
{
    Server *sv = c->sv;
    pthread_mutex_lock(&sv->lock);
    Move m = c->hint;
    pthread_mutex_unlock(&sv->lock);
    TTProbe p;
    if (m == MOVE_NONE && kind_of(c) == SEARCH_NONE && searcher_probe(sv->searcher, sv->pos, &p))
        m = p.move;
    if (m != MOVE_NONE && board_is_legal(sv->pos, m)) {
        char ms[5];
        move_to_iccs(m, ms);
        sv_emit(sv, "Hint: %s", ms);
    }
}

static void set_post(Cecp *c, bool on)
{
    pthread_mutex_lock(&c->sv->lock);
    c->post = on;
    pthread_mutex_unlock(&c->sv->lock);
}

/* A number argument (centiseconds, MB, cores, plies); one error when absent. */
static bool int_arg(Cecp *c, Args *a, long long min, long long max, long long *v)
{
    char w[CECP_WORD_MAX];
    if (next_word(a, w, sizeof w) && parse_int(w, min, max, v))
        return true;
    sv_emit_error(c->sv, "expected a number from %lld to %lld", min, max);
    return false;
}

/* Words that need no answer: accepted, or ignored as the protocol allows. */
static const char *const SILENT[] = {
    "xboard", "accepted", "rejected", "random", "computer", "name", "rating", "ics", "white", "black", NULL,
};

static bool is_silent(const char *w)
{
    for (int i = 0; SILENT[i]; i++)
        if (strcmp(w, SILENT[i]) == 0)
            return true;
    return false;
}

/* Runs one command line. Returns false on quit. */
static bool run_line(Cecp *c, const Line *ln)
{
    Server *sv = c->sv;
    char echo[UCCI_ECHO_MAX + 4];
    size_t n = ln->len;
    while (n > 0 && (ln->text[n - 1] == '\r' || ln->text[n - 1] == ' ' || ln->text[n - 1] == '\t'))
        n--;
    ucci_echo(ln->text, n, echo);
    pthread_mutex_lock(&sv->lock);
    memcpy(sv->err_cmd, echo, sizeof echo);
    pthread_mutex_unlock(&sv->lock);
    if (ln->too_long) {
        sv_emit_error(sv, "line longer than %d bytes ignored", (int)UCCI_LINE_MAX);
        return true;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)ln->text[i];
        if ((ch < 0x20 && ch != '\t') || ch == 0x7F) {
            sv_emit_error(sv, "binary data in command line, ignored");
            return true;
        }
    }
    char *text = malloc(n + 1);
    if (!text)
        return true;
    memcpy(text, ln->text, n);
    text[n] = '\0';
    Args a = {text};
    char cmd[CECP_WORD_MAX];
    bool go_on = true;
    long long v;
    if (!next_word(&a, cmd, sizeof cmd)) {
        free(text);
        return true;
    }
    for (char *p = cmd; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    const char *rest = a.p;
    while (*rest == ' ' || *rest == '\t')
        rest++;

    if (strcmp(cmd, "protover") == 0) {
        emit_features(c);
    } else if (strcmp(cmd, "new") == 0) {
        do_new(c);
    } else if (strcmp(cmd, "variant") == 0) {
        if (!ucci_word_eq(rest, strlen(rest), "xiangqi"))
            sv_emit(sv, "Error (unsupported variant): %s", echo);
    } else if (strcmp(cmd, "force") == 0) {
        halt(c);
        if (c->mode != MODE_ANALYZE)
            c->mode = MODE_FORCE;
    } else if (strcmp(cmd, "go") == 0) {
        halt(c);
        c->mode = MODE_PLAY;
        c->engine_side = sv->pos->side;
        c->game_over = false;
        maybe_think(c);
    } else if (strcmp(cmd, "playother") == 0) {
        halt(c);
        c->mode = MODE_PLAY;
        c->engine_side = sv->pos->side ^ 1;
    } else if (strcmp(cmd, "level") == 0) {
        do_level(c, &a);
    } else if (strcmp(cmd, "st") == 0) {
        char w[CECP_WORD_MAX];
        int64_t ms;
        if (next_word(&a, w, sizeof w) && parse_seconds(w, &ms) && ms > 0)
            c->st_ms = ms;
        else
            sv_emit_error(sv, "expected st SECONDS");
    } else if (strcmp(cmd, "sd") == 0) {
        if (int_arg(c, &a, 1, MAX_PLY, &v))
            c->sd = (int)v;
    } else if (strcmp(cmd, "time") == 0 || strcmp(cmd, "otim") == 0) {
        /* Centiseconds; a clock past its flag reads as nothing left. */
        if (int_arg(c, &a, -CECP_CLOCK_MAX, CECP_CLOCK_MAX, &v))
            *(strcmp(cmd, "time") == 0 ? &c->own_ms : &c->opp_ms) = v > 0 ? v * 10 : 0;
    } else if (strcmp(cmd, "usermove") == 0) {
        do_usermove(c, rest);
    } else if (strcmp(cmd, "?") == 0) {
        if (kind_of(c) == SEARCH_GAME)
            searcher_stop(sv->searcher);
    } else if (strcmp(cmd, "ping") == 0) {
        if (int_arg(c, &a, -2147483647LL, 2147483647LL, &v)) {
            /* Not before the move the engine is thinking about. */
            if (kind_of(c) == SEARCH_GAME && c->npongs < CECP_PONG_MAX)
                c->pongs[c->npongs++] = (int)v;
            else
                sv_emit(sv, "pong %lld", v);
        }
    } else if (strcmp(cmd, "draw") == 0) {
        pthread_mutex_lock(&sv->lock);
        sv->opp_draw = true;
        pthread_mutex_unlock(&sv->lock);
    } else if (strcmp(cmd, "result") == 0) {
        halt(c);
        c->game_over = true;
    } else if (strcmp(cmd, "setboard") == 0) {
        do_setboard(c, rest);
    } else if (strcmp(cmd, "undo") == 0) {
        take_back(c, 1, "undo");
    } else if (strcmp(cmd, "remove") == 0) {
        take_back(c, 2, "remove");
    } else if (strcmp(cmd, "hard") == 0) {
        c->ponder_on = true;
    } else if (strcmp(cmd, "easy") == 0) {
        c->ponder_on = false;
        if (kind_of(c) == SEARCH_PONDER)
            halt(c);
    } else if (strcmp(cmd, "post") == 0 || strcmp(cmd, "nopost") == 0) {
        set_post(c, cmd[0] == 'p');
    } else if (strcmp(cmd, "analyze") == 0) {
        halt(c);
        c->mode = MODE_ANALYZE;
        start_analysis(c);
    } else if (strcmp(cmd, "exit") == 0) {
        if (c->mode == MODE_ANALYZE) {
            halt(c);
            c->mode = MODE_FORCE;
        }
    } else if (strcmp(cmd, ".") == 0) {
        do_stat(c);
    } else if (strcmp(cmd, "hint") == 0) {
        do_hint(c);
    } else if (strcmp(cmd, "memory") == 0) {
        if (int_arg(c, &a, 1, SV_OPTIONS[OPT_HASH].max, &v)) {
            char value[24];
            snprintf(value, sizeof value, "%lld", v);
            set_option(c, "hashsize", 8, value);
        }
    } else if (strcmp(cmd, "cores") == 0) {
        if (int_arg(c, &a, 1, SV_OPTIONS[OPT_THREADS].max, &v)) {
            char value[24];
            snprintf(value, sizeof value, "%lld", v);
            set_option(c, "threads", 7, value);
        }
    } else if (strcmp(cmd, "option") == 0) {
        do_option(c, rest);
    } else if (strcmp(cmd, "quit") == 0) {
        halt(c);
        go_on = false;
    } else if (is_silent(cmd)) {
        /* nothing to do */
    } else if (ucci_parse_move(cmd, strlen(cmd)) != MOVE_NONE) {
        do_usermove(c, cmd); /* a move without `usermove` (feature rejected) */
    } else {
        char w[UCCI_ECHO_MAX + 4];
        ucci_echo(cmd, strlen(cmd), w);
        sv_emit(sv, "Error (unknown command): %s", w);
    }
    free(text);
    return go_on;
}

/* --------------------------------------------------------------- threads */

/* Pongs wait until the engine is no longer thinking on its move. */
static void flush_pongs(Cecp *c)
{
    if (c->npongs == 0 || kind_of(c) == SEARCH_GAME)
        return;
    for (int i = 0; i < c->npongs; i++)
        sv_emit(c->sv, "pong %d", c->pongs[i]);
    c->npongs = 0;
}

static void *controller(void *arg)
{
    Cecp *c = arg;
    Server *sv = c->sv;
    for (;;) {
        pthread_mutex_lock(&sv->lock);
        /* A game search's result comes before the lines after it, so the
         * move is out before any later command runs. */
        while (!c->head && !c->eof && !(c->result_ready && c->kind == SEARCH_GAME))
            pthread_cond_wait(&c->wake, &sv->lock);
        bool broken = sv->out_broken;
        if (c->result_ready && c->kind == SEARCH_GAME) {
            play_result_unlock(c);
            flush_pongs(c);
            continue;
        }
        Line *ln = c->head;
        if (ln) {
            c->head = ln->next;
            if (!c->head)
                c->tail = NULL;
        }
        pthread_mutex_unlock(&sv->lock);
        if (!ln || broken)
            break; /* end of input, or the GUI is gone */
        bool go_on = run_line(c, ln);
        free(ln);
        flush_pongs(c);
        if (!go_on)
            break;
    }
    halt(c);
    return NULL;
}

void cecp_serve(Server *sv)
{
    Cecp *c = calloc(1, sizeof *c);
    Board *start = calloc(1, sizeof *start);
    if (!c || !start || pthread_cond_init(&c->wake, NULL) != 0) {
        free(c);
        free(start);
        return;
    }
    c->sv = sv;
    c->start = start;
    c->mode = MODE_PLAY;
    c->engine_side = BLACK;
    c->mps = CECP_DEFAULT_MPS;
    c->base_ms = c->own_ms = c->opp_ms = CECP_DEFAULT_BASE_MS;
    board_startpos(start);
    board_set_psq(start, eval_psq_table());
    *sv->pos = *start;
    pthread_mutex_lock(&sv->lock);
    sv->dialect = DIALECT_CECP;
    pthread_mutex_unlock(&sv->lock);

    bool running = pthread_create(&c->thread, NULL, controller, c) == 0;
    while (running) {
        size_t len;
        ReadStatus st = sv_read_line(sv, &len);
        if (st == READ_EOF)
            break;
        Line *ln = malloc(sizeof *ln + len + 1);
        if (!ln)
            break;
        ln->next = NULL;
        ln->too_long = st == READ_TOO_LONG;
        ln->len = len;
        memcpy(ln->text, sv->line, len);
        ln->text[len] = '\0';
        bool quit = sv_line_is(ln->text, len, "quit");
        pthread_mutex_lock(&sv->lock);
        if (c->tail)
            c->tail->next = ln;
        else
            c->head = ln;
        c->tail = ln;
        bool broken = sv->out_broken;
        pthread_cond_broadcast(&c->wake);
        pthread_mutex_unlock(&sv->lock);
        if (quit || broken)
            break;
    }
    pthread_mutex_lock(&sv->lock);
    c->eof = true;
    pthread_cond_broadcast(&c->wake);
    pthread_mutex_unlock(&sv->lock);
    if (running)
        pthread_join(c->thread, NULL);
    while (c->head) {
        Line *next = c->head->next;
        free(c->head);
        c->head = next;
    }
    pthread_cond_destroy(&c->wake);
    free(c->moves);
    free(c->start);
    free(c);
}
