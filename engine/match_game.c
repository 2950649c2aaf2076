/* match_game.c — one refereed game between two engine processes: clocks, legality, rules, adjudication. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"

/* How long a dialect probe waits for `ucciok` before trying `uci` (AUTO). */
enum { MATCH_AUTO_PROBE_MS = 2000 };
/* Time an engine gets to leave after `quit` before it is killed. */
enum { MATCH_QUIT_GRACE_MS = 300 };
/* Keep this many history entries free before compacting the board history. */
enum { MATCH_HIST_SLACK = 16 };
/* While one engine thinks, the runner reads the other's ponder output this
 * often, so a talkative ponder search never fills its pipe. */
enum { MATCH_PONDER_DRAIN_MS = 50 };
/* Time a pondering engine gets to answer `stop` once the game is over. */
enum { MATCH_PONDER_END_MS = 1000 };

static const char *const SIDE_NAME[2] = {"Red", "Black"};

/* ------------------------------------------------------------ time controls */

void match_tc_init(MatchTc *tc)
{
    tc->base_ms = -1;
    tc->inc_ms = 0;
    tc->moves = 0;
    tc->movetime_ms = -1;
    tc->depth = 0;
    tc->nodes = 0;
}

/* Parses seconds ("60", "0.5") or minutes:seconds ("1:30") into ms. */
static bool match_parse_seconds(const char *s, size_t len, int64_t *ms)
{
    char buf[32];
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    double minutes = 0;
    char *colon = strchr(buf, ':');
    const char *sec = buf;
    if (colon) {
        *colon = '\0';
        char *end;
        minutes = strtod(buf, &end);
        if (end == buf || *end || minutes < 0)
            return false;
        sec = colon + 1;
    }
    char *end;
    double v = strtod(sec, &end);
    if (end == sec || *end || v < 0 || v > 1e7)
        return false;
    *ms = (int64_t)((minutes * 60 + v) * 1000 + 0.5);
    return true;
}

bool match_tc_parse(const char *s, MatchTc *tc)
{
    if (strcmp(s, "inf") == 0 || strcmp(s, "infinite") == 0) {
        tc->base_ms = -1;
        tc->inc_ms = 0;
        tc->moves = 0;
        return true;
    }
    int moves = 0;
    const char *slash = strchr(s, '/');
    if (slash) {
        char *end;
        long m = strtol(s, &end, 10);
        if (end != slash || m <= 0 || m > 1000)
            return false;
        moves = (int)m;
        s = slash + 1;
    }
    const char *plus = strchr(s, '+');
    int64_t base, inc = 0;
    if (!match_parse_seconds(s, plus ? (size_t)(plus - s) : strlen(s), &base))
        return false;
    if (plus && !match_parse_seconds(plus + 1, strlen(plus + 1), &inc))
        return false;
    if (base <= 0 && inc <= 0)
        return false;
    tc->base_ms = base;
    tc->inc_ms = inc;
    tc->moves = moves;
    return true;
}

static void match_fmt_seconds(int64_t ms, char *out, size_t outlen)
{
    if (ms % 1000 == 0)
        snprintf(out, outlen, "%lld", (long long)(ms / 1000));
    else
        snprintf(out, outlen, "%g", (double)ms / 1000.0);
}

void match_tc_describe(const MatchTc *tc, char *out, size_t outlen)
{
    size_t len = 0;
    out[0] = '\0';
    char a[32], b[32];
    if (tc->base_ms >= 0) {
        match_fmt_seconds(tc->base_ms, a, sizeof a);
        if (tc->moves > 0)
            len += (size_t)snprintf(out + len, outlen - len, "%d/", tc->moves);
        len += (size_t)snprintf(out + len, outlen - len, "%s", a);
        if (tc->inc_ms > 0) {
            match_fmt_seconds(tc->inc_ms, b, sizeof b);
            len += (size_t)snprintf(out + len, outlen - len, "+%s", b);
        }
    } else if (tc->movetime_ms >= 0) {
        match_fmt_seconds(tc->movetime_ms, a, sizeof a);
        len += (size_t)snprintf(out + len, outlen - len, "st=%s", a);
    }
    if (tc->depth > 0 && len < outlen)
        len += (size_t)snprintf(out + len, outlen - len, "%sdepth=%d", len ? " " : "", tc->depth);
    if (tc->nodes > 0 && len < outlen)
        snprintf(out + len, outlen - len, "%snodes=%lld", len ? " " : "", (long long)tc->nodes);
}

/* ------------------------------------------------------------- records */

const char *match_result_string(GameResult r)
{
    switch (r) {
    case RESULT_RED_WINS: return "1-0";
    case RESULT_BLACK_WINS: return "0-1";
    case RESULT_DRAW: return "1/2-1/2";
    default: return "*";
    }
}

const char *match_end_name(MatchEnd e)
{
    static const char *const names[] = {"none",     "rules",    "time",       "illegal", "crash",
                                        "nomove",   "resign",   "adj-resign", "adj-draw", "maxplies",
                                        "agreed",   "start-fail", "aborted"};
    return (unsigned)e < sizeof names / sizeof names[0] ? names[e] : "?";
}

bool match_game_push(MatchGame *g, const MatchMoveRecord *rec)
{
    if (g->plies == g->cap) {
        int cap = g->cap ? g->cap * 2 : 256;
        MatchMoveRecord *grown = realloc(g->moves, (size_t)cap * sizeof *grown);
        if (!grown)
            return false;
        g->moves = grown;
        g->cap = cap;
    }
    g->moves[g->plies++] = *rec;
    return true;
}

void match_game_free(MatchGame *g)
{
    free(g->moves);
    g->moves = NULL;
    g->plies = g->cap = 0;
}

/* Ends the game with `loser` losing (or a draw for loser < 0). */
static void match_finish(MatchGame *g, MatchEnd end, int loser, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void match_finish(MatchGame *g, MatchEnd end, int loser, const char *fmt, ...)
{
    g->end = end;
    g->loser = loser;
    if (end == MATCH_END_ABORTED || end == MATCH_END_START_FAIL)
        g->result = RESULT_NONE;
    else
        g->result = loser == RED ? RESULT_BLACK_WINS : loser == BLACK ? RESULT_RED_WINS : RESULT_DRAW;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->reason, sizeof g->reason, fmt, ap);
    va_end(ap);
}

/* Words for the arbiter's verdict, naming the side at fault. */
static void match_rules_verdict(MatchGame *g, GameResult r, GameReason why)
{
    int loser = r == RESULT_RED_WINS ? BLACK : r == RESULT_BLACK_WINS ? RED : -1;
    g->rule_reason = why;
    const char *who = loser >= 0 ? SIDE_NAME[loser] : "";
    switch (why) {
    case REASON_CHECKMATE: match_finish(g, MATCH_END_RULES, loser, "%s is checkmated", who); break;
    case REASON_STALEMATE: match_finish(g, MATCH_END_RULES, loser, "%s has no legal move", who); break;
    case REASON_PERPETUAL_CHECK: match_finish(g, MATCH_END_RULES, loser, "perpetual check by %s", who); break;
    case REASON_PERPETUAL_CHASE: match_finish(g, MATCH_END_RULES, loser, "perpetual chase by %s", who); break;
    case REASON_REPETITION: match_finish(g, MATCH_END_RULES, -1, "draw by repetition"); break;
    case REASON_RULE60: match_finish(g, MATCH_END_RULES, -1, "draw by the 60-move rule"); break;
    case REASON_INSUFFICIENT: match_finish(g, MATCH_END_RULES, -1, "draw by insufficient material"); break;
    default:
        if (loser >= 0)
            match_finish(g, MATCH_END_RULES, loser, "%s loses (%s)", who, board_reason_name(why));
        else
            match_finish(g, MATCH_END_RULES, -1, "draw (%s)", board_reason_name(why));
        break;
    }
}

/* ------------------------------------------------------------ repetition */

int match_banned_moves(Board *b, Move *out, int cap)
{
    MoveList list;
    board_generate(b, GEN_ALL, &list);
    int n = 0;
    for (int i = 0; i < list.count; i++) {
        board_make(b, list.moves[i]);
        /* After the move the opponent is to move: REP_WIN means the opponent
         * wins the repetition, i.e. the mover is the perpetual offender. The
         * count of 1 bans the move already at its second occurrence, as the
         * xqbase league does, so the engine hears of it before the arbiter's
         * third occurrence. */
        RepVerdict v = board_repetition(b, b->ply + 1, 1);
        board_unmake(b);
        if (v == REP_WIN && n < cap)
            out[n++] = list.moves[i];
    }
    return n == list.count ? 0 : n;
}

/* ------------------------------------------------------------- engines */

/* Starts one engine and brings it to `readyok`. */
static bool match_open_engine(ClientEngine *e, const MatchPlayer *p, ClientProto proto,
                              const MatchGameConfig *cfg, const char *tag, char *err, size_t errlen)
{
    char **argv = client_split_command(p->cmd);
    if (!argv) {
        snprintf(err, errlen, "%s: bad command line '%.60s'", p->name, p->cmd);
        return false;
    }
    memset(e, 0, sizeof *e);
    e->log = cfg->log;
    e->log_tag = tag;
    bool ok = client_start(e, argv, p->dir[0] ? p->dir : NULL, cfg->log ? 2 : -1);
    client_free_argv(argv);
    if (!ok) {
        snprintf(err, errlen, "%s: %s", p->name, e->error);
        client_release(e);
        return false;
    }
    int64_t deadline = client_now_ms() + cfg->handshake_ms;
    ClientStatus st = client_handshake(e, proto, cfg->handshake_ms, MATCH_AUTO_PROBE_MS, cfg->stop);
    if (st == CLIENT_OK) {
        /* before the user's options, so that option.Ponder=false still wins */
        if (p->ponder)
            client_enable_ponder(e);
        for (int i = 0; i < p->option_count; i++)
            client_set_option(e, p->options[i].name, p->options[i].value);
        client_finish_options(e);
        client_new_game(e);
        st = client_sync(e, deadline + cfg->handshake_ms, cfg->stop);
    }
    if (st != CLIENT_OK) {
        snprintf(err, errlen, "%s: %s", p->name, st == CLIENT_STOPPED ? "stopped" : e->error);
        client_kill(e);
        client_release(e);
        return false;
    }
    return true;
}

static void match_close_engine(ClientEngine *e, MatchSideStats *s)
{
    if (e->proc.id != 0) {
        client_quit(e, MATCH_QUIT_GRACE_MS);
        s->cpu_seconds = e->cpu_seconds;
    }
    client_release(e);
}

/* Describes why an engine's output ended, after reaping it. */
static void match_describe_exit(ClientEngine *e, char *out, size_t outlen)
{
    client_reap_within(e, MATCH_QUIT_GRACE_MS);
    if (!e->reaped)
        snprintf(out, outlen, "disconnected");
    else
        client_exit_text(e, out, outlen);
}

/* --------------------------------------------------------------- the game */

typedef struct MatchClock {
    bool on;
    int64_t left;    /* ms */
    int moves_left;  /* in the current period, when the tc has periods */
} MatchClock;

static void match_clock_init(MatchClock *c, const MatchTc *tc)
{
    c->on = tc->base_ms >= 0;
    c->left = tc->base_ms;
    c->moves_left = tc->moves;
}

static void match_clock_after_move(MatchClock *c, const MatchTc *tc, int64_t elapsed)
{
    c->left -= elapsed;
    c->left += tc->inc_ms;
    if (tc->moves > 0 && --c->moves_left == 0) {
        c->left += tc->base_ms;
        c->moves_left = tc->moves;
    }
}

/* Adjudication bookkeeping across moves. */
typedef struct MatchAdjState {
    int low[2];   /* consecutive own moves at or below -resign_score */
    int high[2];  /* consecutive own moves at or above +resign_score */
    int quiet;    /* consecutive plies with |score| <= draw_score */
    bool offered[2];
} MatchAdjState;

/* Returns true when an adjudication rule ends the game after `side` moved. */
static bool match_adjudicate(MatchGame *g, const MatchAdjudication *adj, MatchAdjState *st, int side,
                             const MatchMoveRecord *rec, int fullmoves)
{
    if (!rec->has_score) {
        st->low[side] = st->high[side] = 0;
        st->quiet = 0;
        return false;
    }
    st->low[side] = rec->score <= -adj->resign_score ? st->low[side] + 1 : 0;
    st->high[side] = rec->score >= adj->resign_score ? st->high[side] + 1 : 0;
    st->quiet = abs(rec->score) <= adj->draw_score ? st->quiet + 1 : 0;
    if (adj->resign_movecount > 0 && st->low[side] >= adj->resign_movecount &&
        (!adj->resign_twosided || st->high[!side] >= adj->resign_movecount)) {
        match_finish(g, MATCH_END_ADJ_RESIGN, side, "%s's engine scores below -%d for %d moves: adjudicated loss",
                     SIDE_NAME[side], adj->resign_score, adj->resign_movecount);
        return true;
    }
    if (adj->draw_movecount > 0 && fullmoves >= adj->draw_movenumber && st->quiet >= 2 * adj->draw_movecount) {
        match_finish(g, MATCH_END_ADJ_DRAW, -1, "draw by adjudication (scores within %d for %d moves)",
                     adj->draw_score, adj->draw_movecount);
        return true;
    }
    return false;
}

/* One engine's ponder search: started after its own move on the reply it
 * expects, resolved at its next turn by `ponderhit` or `stop`. */
typedef struct MatchPonder {
    char hint[5];          /* the `ponder` move of its last answer; "" for none */
    bool active;           /* a `go ponder` runs */
    Move guess;            /* the opponent's move it ponders on */
    int64_t started_ms;    /* when `go ponder` went out */
    bool answered;         /* it answered before `ponderhit` or `stop` */
    bool gone;             /* its output ended while it pondered */
    ClientBestMove early;  /* that early answer */
    ClientSearchInfo info; /* what the ponder search reported so far */
} MatchPonder;

typedef struct MatchPlayState {
    Board *board;
    char base_fen[MATCH_FEN_MAX]; /* position after the last capture (or the start) */
    bool base_startpos;
    int base_ply;                 /* index in g->moves of the first move after it */
    char (*iccs)[5];              /* the game's moves as text */
    int iccs_cap;
    MatchPonder ponder[2];
} MatchPlayState;

static const ClientSearchInfo MATCH_NO_INFO = {.depth = 0, .has_score = false, .score = 0, .nodes = -1,
                                               .time_ms = -1, .nps = -1};

static bool match_state_push_text(MatchPlayState *ps, int index, Move m)
{
    if (index >= ps->iccs_cap) {
        int cap = ps->iccs_cap ? ps->iccs_cap * 2 : 256;
        char(*grown)[5] = realloc(ps->iccs, (size_t)cap * sizeof *grown);
        if (!grown)
            return false;
        ps->iccs = grown;
        ps->iccs_cap = cap;
    }
    move_to_iccs(m, ps->iccs[index]);
    return true;
}

/* Plays m on the board and in the record; moves the position base after a capture. */
static bool match_apply(MatchGame *g, MatchPlayState *ps, const MatchMoveRecord *rec)
{
    bool capture = board_is_capture(ps->board, rec->move);
    if (!match_state_push_text(ps, g->plies, rec->move) || !match_game_push(g, rec))
        return false;
    if (ps->board->ply >= BOARD_HIST_MAX - MATCH_HIST_SLACK)
        board_compact_history(ps->board);
    board_make(ps->board, rec->move);
    if (capture) {
        board_to_fen(ps->board, ps->base_fen, sizeof ps->base_fen);
        ps->base_startpos = false;
        ps->base_ply = g->plies;
    }
    return true;
}

/* `position`: the FEN after the last capture and the moves since (every
 * position a repetition can involve, and a short line), plus `extra` if given. */
static void match_send_position(ClientEngine *e, const MatchGame *g, const MatchPlayState *ps, const char *extra)
{
    const char *moves[MATCH_PGN_MOVES_MAX + 1];
    int count = 0;
    for (int i = ps->base_ply; i < g->plies && count < MATCH_PGN_MOVES_MAX; i++)
        moves[count++] = ps->iccs[i];
    if (extra)
        moves[count++] = extra;
    client_position(e, ps->base_startpos ? NULL : ps->base_fen, moves, count);
}

/* `banmoves`: the moves that would lose by perpetual check or chase in b. */
static void match_send_banmoves(const MatchGameConfig *cfg, ClientEngine *e, Board *b)
{
    if (!cfg->banmoves || !e->ucci_mode)
        return;
    Move banned[MAX_MOVES];
    int n = match_banned_moves(b, banned, MAX_MOVES);
    if (n == 0)
        return;
    char text[MAX_MOVES][5];
    const char *ptr[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        move_to_iccs(banned[i], text[i]);
        ptr[i] = text[i];
    }
    client_banmoves(e, ptr, n);
}

/* The limits of side's next search and its clocks; returns its budget in ms
 * (the clock or the fixed time), or -1 when only depth or nodes limit it. */
static int64_t match_limits(const MatchGameConfig *cfg, const MatchClock clock[2], int side, ClientGo *go)
{
    const MatchTc *tc = &cfg->player[side]->tc;
    memset(go, 0, sizeof *go);
    go->side = side;
    go->own_time = go->opp_time = -1;
    go->movetime = -1;
    int64_t budget = -1;
    if (clock[side].on) {
        const MatchTc *otc = &cfg->player[!side]->tc;
        go->own_time = clock[side].left > 0 ? clock[side].left : 0;
        go->own_inc = tc->inc_ms;
        go->own_movestogo = tc->moves > 0 ? clock[side].moves_left : 0;
        if (clock[!side].on) {
            go->opp_time = clock[!side].left > 0 ? clock[!side].left : 0;
            go->opp_inc = otc->inc_ms;
            go->opp_movestogo = otc->moves > 0 ? clock[!side].moves_left : 0;
        } else {
            go->opp_time = go->own_time;
            go->opp_inc = go->own_inc;
            go->opp_movestogo = go->own_movestogo;
        }
        budget = clock[side].left;
    } else if (tc->movetime_ms >= 0) {
        go->movetime = tc->movetime_ms;
        budget = tc->movetime_ms;
    }
    go->depth = tc->depth;
    go->nodes = tc->nodes;
    return budget;
}

/* Reads what a pondering engine said meanwhile: an early answer is kept for
 * its turn, a closed output noted. */
static void match_ponder_drain(MatchPonder *p, ClientEngine *e)
{
    if (!p->active || p->answered || p->gone)
        return;
    ClientBestMove best;
    ClientStatus st = client_poll_bestmove(e, &best, &p->info);
    if (st == CLIENT_OK) {
        p->answered = true;
        p->early = best;
    } else if (st == CLIENT_EOF || st == CLIENT_ERROR) {
        p->gone = true;
    }
}

/* Waits for e's answer; meanwhile drains the other engine if it ponders. */
static ClientStatus match_wait_answer(const MatchGameConfig *cfg, ClientEngine *e, int64_t deadline,
                                      ClientBestMove *best, ClientSearchInfo *info, ClientEngine *other,
                                      MatchPonder *op)
{
    for (;;) {
        match_ponder_drain(op, other);
        if (!op->active || op->answered || op->gone)
            return client_wait_bestmove(e, deadline, cfg->stop, best, info);
        int64_t slice = client_now_ms() + MATCH_PONDER_DRAIN_MS;
        bool last = deadline >= 0 && deadline <= slice;
        ClientStatus st = client_wait_bestmove(e, last ? deadline : slice, cfg->stop, best, info);
        if (st != CLIENT_TIMEOUT || last)
            return st;
    }
}

/* After side's move, when the game goes on: if side ponders and named a
 * legal reply that does not end the game, it searches the position after
 * that reply with `go ponder` and the clocks it will have then (its own
 * stands still while the opponent thinks). */
static void match_ponder_start(const MatchGameConfig *cfg, const MatchGame *g, MatchPlayState *ps,
                               ClientEngine eng[2], const MatchClock clock[2], int side)
{
    MatchPonder *p = &ps->ponder[side];
    Move guess = p->hint[0] ? move_from_iccs(p->hint) : MOVE_NONE;
    p->hint[0] = '\0';
    Board *b = ps->board;
    if (!cfg->player[side]->ponder || guess == MOVE_NONE || !board_is_legal(b, guess))
        return;
    char text[5];
    move_to_iccs(guess, text);
    ClientEngine *e = &eng[side];
    board_make(b, guess);
    GameReason why;
    bool over = board_game_result(b, &why) != RESULT_NONE;
    if (!over) {
        match_send_position(e, g, ps, text);
        match_send_banmoves(cfg, e, b);
    }
    board_unmake(b);
    if (over)
        return;
    ClientGo go;
    match_limits(cfg, clock, side, &go);
    go.ponder = true;
    client_go(e, &go);
    p->active = true;
    p->guess = guess;
    p->started_ms = client_now_ms();
    p->answered = p->gone = false;
    p->info = MATCH_NO_INFO;
}

/* A missed ponder search: `stop` and `isready`, and its answer and all
 * before `readyok` discarded, so that nothing it said reaches the next
 * search. An engine that answered early needs no stop. */
static ClientStatus match_ponder_cancel(const MatchGameConfig *cfg, ClientEngine *e, const MatchPonder *p,
                                        int64_t deadline)
{
    if (p->gone)
        return CLIENT_EOF;
    return client_stop_sync(e, !p->answered, deadline, cfg->stop);
}

/* The game is over: a ponder search still running is stopped and its answer
 * read, before the engine is told to quit. */
static void match_ponder_end(ClientEngine *e, MatchPonder *p)
{
    if (!p->active || p->answered || p->gone || e->proc.id == 0 || e->eof)
        return;
    p->active = false;
    client_stop_sync(e, true, client_now_ms() + MATCH_PONDER_END_MS, NULL);
}

/* One engine move: position, banmoves, go, wait, judge (or, for an engine
 * that pondered, ponderhit or stop first). Returns false when the game ended. */
static bool match_engine_turn(const MatchGameConfig *cfg, MatchGame *g, MatchPlayState *ps, ClientEngine eng[2],
                              MatchClock clock[2], MatchAdjState *adj)
{
    Board *b = ps->board;
    int side = b->side;
    ClientEngine *e = &eng[side];
    const MatchTc *tc = &cfg->player[side]->tc;
    MatchPonder *pd = &ps->ponder[side], *op = &ps->ponder[!side];

    /* 1. The limits and the clocks. The clock runs from t0 on. */
    ClientGo go;
    int64_t budget = match_limits(cfg, clock, side, &go);
    ClientSearchInfo info = MATCH_NO_INFO;
    ClientBestMove best;
    memset(&best, 0, sizeof best);
    ClientStatus st = CLIENT_OK;
    int64_t t0 = client_now_ms();
    int64_t node_t0 = t0;
    int64_t deadline = budget >= 0 ? t0 + budget + cfg->timemargin_ms : -1;
    bool searched = false;

    /* 2. A ponder search meets the move played: a hit goes on as this
     *    move's search, its time counted from the ponderhit; a miss is
     *    stopped, on this move's clock, and a new search starts. */
    if (pd->active) {
        pd->active = false;
        g->side[side].ponders++;
        match_ponder_drain(pd, e);
        if (g->moves[g->plies - 1].move == pd->guess) {
            g->side[side].ponder_hits++;
            searched = true;
            info = pd->info;
            node_t0 = pd->started_ms;
            if (pd->gone) {
                st = CLIENT_EOF;
            } else if (pd->answered) {
                best = pd->early;
            } else {
                client_send(e, "ponderhit");
                st = match_wait_answer(cfg, e, deadline, &best, &info, &eng[!side], op);
            }
        } else {
            int64_t stop_deadline = deadline >= 0 ? deadline : t0 + cfg->handshake_ms;
            st = match_ponder_cancel(cfg, e, pd, stop_deadline);
            if (st == CLIENT_TIMEOUT) {
                int64_t waited = client_now_ms() - t0;
                g->side[side].time_ms += waited;
                if (deadline >= 0)
                    match_finish(g, MATCH_END_TIME, side, "%s loses on time (no answer to stop after %lld ms)",
                                 SIDE_NAME[side], (long long)waited);
                else
                    match_finish(g, MATCH_END_TIME, side, "%s's engine stalls (no answer to stop within %lld ms)",
                                 SIDE_NAME[side], (long long)waited);
                return false;
            }
            /* the engine learns what the stop cost its clock */
            int64_t used = client_now_ms() - t0;
            if (go.own_time >= 0)
                go.own_time = go.own_time > used ? go.own_time - used : 0;
            else if (go.movetime >= 0)
                go.movetime = go.movetime > used ? go.movetime - used : 1;
        }
    }

    /* 3. Otherwise the position, the moves that would lose by perpetual
     *    check or chase, and go. The deadline is the budget plus the margin. */
    if (!searched && st == CLIENT_OK) {
        match_send_position(e, g, ps, NULL);
        match_send_banmoves(cfg, e, b);
        client_go(e, &go);
        st = match_wait_answer(cfg, e, deadline, &best, &info, &eng[!side], op);
    }
    int64_t now = client_now_ms();
    int64_t elapsed = now - t0;
    g->side[side].time_ms += elapsed;

    if (st == CLIENT_STOPPED) {
        match_finish(g, MATCH_END_ABORTED, -1, "stopped by the user");
        return false;
    }
    if (st == CLIENT_TIMEOUT) {
        match_finish(g, MATCH_END_TIME, side, "%s loses on time (no move after %lld ms)", SIDE_NAME[side],
                     (long long)elapsed);
        return false;
    }
    if (st != CLIENT_OK) {
        char how[64];
        match_describe_exit(e, how, sizeof how);
        match_finish(g, MATCH_END_CRASH, side, "%s's engine %s", SIDE_NAME[side], how);
        return false;
    }
    if (budget >= 0 && elapsed > budget + cfg->timemargin_ms) {
        match_finish(g, MATCH_END_TIME, side, "%s loses on time (%lld ms used, %lld allowed)", SIDE_NAME[side],
                     (long long)elapsed, (long long)budget);
        return false;
    }
    if (clock[side].on)
        match_clock_after_move(&clock[side], tc, elapsed);

    /* 4. Judge the answer. */
    if (best.reply == CLIENT_REPLY_RESIGN) {
        match_finish(g, MATCH_END_RESIGN, side, "%s resigns", SIDE_NAME[side]);
        return false;
    }
    if (best.reply == CLIENT_REPLY_NOMOVE) {
        match_finish(g, MATCH_END_NOMOVE, side, "%s's engine returned no move", SIDE_NAME[side]);
        return false;
    }
    Move m = move_from_iccs(best.text);
    if (m == MOVE_NONE || !board_is_legal(b, m)) {
        match_finish(g, MATCH_END_ILLEGAL, side, "%s plays an illegal move: %s", SIDE_NAME[side], best.text);
        return false;
    }

    MatchMoveRecord rec = {m, false, info.has_score, info.score, info.depth, elapsed};
    MatchSideStats *s = &g->side[side];
    s->moves++;
    if (info.depth > 0) {
        s->depth_sum += info.depth;
        s->depth_count++;
        s->depth_hist[info.depth < MATCH_DEPTH_BINS ? info.depth : MATCH_DEPTH_BINS - 1]++;
    }
    if (info.nodes >= 0) {
        /* a ponder hit's nodes were searched since its `go ponder` */
        s->nodes += info.nodes;
        s->node_time_ms += now - node_t0;
    }
    if (!match_apply(g, ps, &rec)) {
        match_finish(g, MATCH_END_ABORTED, -1, "out of memory");
        return false;
    }
    snprintf(pd->hint, sizeof pd->hint, "%.4s", best.ponder);

    /* 5. Agreements and adjudication. */
    if (best.offers_draw && adj->offered[!side]) {
        match_finish(g, MATCH_END_AGREED, -1, "draw by agreement");
        return false;
    }
    adj->offered[side] = best.offers_draw;
    return !match_adjudicate(g, &cfg->adj, adj, side, &rec, (g->plies + 1) / 2);
}

bool match_play_game(const MatchGameConfig *cfg, MatchGame *g)
{
    memset(g, 0, sizeof *g);
    g->loser = -1;
    g->started = time(NULL);
    for (int c = 0; c < 2; c++)
        snprintf(g->name[c], sizeof g->name[c], "%s", cfg->player[c]->name);

    MatchPlayState ps;
    memset(&ps, 0, sizeof ps);
    ps.board = malloc(sizeof *ps.board);
    if (!ps.board) {
        match_finish(g, MATCH_END_START_FAIL, -1, "out of memory");
        return false;
    }
    Board *b = ps.board;
    char err[160];

    /* 1. The opening: its FEN, then its book moves. */
    const MatchOpening *op = cfg->opening;
    if (!op || op->startpos)
        board_startpos(b);
    else if (!board_from_fen(b, op->fen, err, sizeof err)) {
        match_finish(g, MATCH_END_START_FAIL, -1, "bad opening FEN: %s", err);
        free(b);
        return false;
    }
    board_to_fen(b, g->start_fen, sizeof g->start_fen);
    g->startpos = !op || op->startpos;
    snprintf(ps.base_fen, sizeof ps.base_fen, "%s", g->start_fen);
    ps.base_startpos = g->startpos;
    for (int i = 0; op && i < op->count; i++) {
        if (!board_is_legal(b, op->moves[i])) {
            char t[5];
            move_to_iccs(op->moves[i], t);
            match_finish(g, MATCH_END_START_FAIL, -1, "illegal opening move %s", t);
            free(ps.iccs);
            free(b);
            return false;
        }
        MatchMoveRecord rec = {op->moves[i], true, false, 0, 0, 0};
        match_apply(g, &ps, &rec);
    }

    /* 2. The engines, both fresh processes for this game. */
    ClientEngine eng[2];
    memset(eng, 0, sizeof eng);
    char tags[2][48];
    for (int c = 0; c < 2; c++) {
        snprintf(tags[c], sizeof tags[c], "%s%s ", cfg->log_tag ? cfg->log_tag : "", c == RED ? "red" : "black");
        if (!match_open_engine(&eng[c], cfg->player[c], cfg->proto[c], cfg, tags[c], err, sizeof err)) {
            if (c == 1)
                match_close_engine(&eng[0], &g->side[0]);
            if (cfg->stop && *cfg->stop)
                match_finish(g, MATCH_END_ABORTED, -1, "stopped by the user");
            else
                match_finish(g, MATCH_END_START_FAIL, -1, "cannot start %s", err);
            free(ps.iccs);
            free(b);
            return g->end == MATCH_END_ABORTED;
        }
        g->proto[c] = eng[c].proto;
    }

    /* 3. Play until the arbiter, a clock or an engine ends it. */
    MatchClock clock[2];
    for (int c = 0; c < 2; c++)
        match_clock_init(&clock[c], &cfg->player[c]->tc);
    MatchAdjState adj;
    memset(&adj, 0, sizeof adj);
    for (;;) {
        if (cfg->stop && *cfg->stop) {
            match_finish(g, MATCH_END_ABORTED, -1, "stopped by the user");
            break;
        }
        GameReason why = REASON_NONE;
        GameResult r = board_game_result(b, &why);
        if (r != RESULT_NONE) {
            match_rules_verdict(g, r, why);
            break;
        }
        if (cfg->adj.maxplies > 0 && g->plies >= cfg->adj.maxplies) {
            match_finish(g, MATCH_END_MAXPLIES, -1, "draw: %d plies reached", cfg->adj.maxplies);
            break;
        }
        /* the side that just moved ponders on the reply it expects */
        match_ponder_start(cfg, g, &ps, eng, clock, !b->side);
        if (!match_engine_turn(cfg, g, &ps, eng, clock, &adj))
            break;
    }

    /* 4. Say goodbye; an engine that lost on time or crashed is killed, a
     *    ponder search still running is stopped first. */
    for (int c = 0; c < 2; c++) {
        if (!(g->end == MATCH_END_TIME && g->loser == c))
            match_ponder_end(&eng[c], &ps.ponder[c]);
        if (g->end == MATCH_END_TIME && g->loser == c)
            client_kill(&eng[c]);
        match_close_engine(&eng[c], &g->side[c]);
        g->side[c].cpu_seconds = eng[c].cpu_seconds;
    }
    free(ps.iccs);
    free(b);
    return true;
}
