/* match.c — `chariot match`: command line, games over worker threads, live score, final table, SPRT, PGN and JSON. */
#define _XOPEN_SOURCE 700 /* sigaction with SA_RESETHAND, getrusage, gethostname */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "commands.h"
#include "cli.h"
#include "match.h"

/* The runner's one global, as the signal handler can reach nothing else:
 * raised by SIGINT/SIGTERM, and read through MatchGameConfig.stop by every
 * wait of every game, so all games stop within CLIENT_POLL_SLICE_MS, their
 * engines are killed, and the finished games are still summed up and saved. */
static volatile sig_atomic_t match_interrupted;

static void match_on_signal(int sig)
{
    (void)sig;
    match_interrupted = 1;
}

/* ------------------------------------------------------------ configuration */

typedef struct MatchSprt {
    bool on;
    double elo0, elo1, alpha, beta;
} MatchSprt;

/* key=value tokens of one -engine (or of -each), kept raw until all are read. */
typedef struct MatchTokens {
    char **tok;
    int count;
} MatchTokens;

typedef struct MatchConfig {
    MatchPlayer players[MATCH_MAX_PLAYERS];
    int player_count;
    char openings_file[512];
    bool random_order;
    uint64_t seed;
    int openings_start;
    bool repeat;
    int games;
    int rounds;
    int concurrency;
    int64_t timemargin_ms;
    int handshake_ms;
    MatchAdjudication adj;
    bool banmoves;
    MatchSprt sprt;
    char pgnout[512];
    MatchPgnFormat pgnformat;
    char json[512];
    char event[128];
    char site[128];
    bool debug;
} MatchConfig;

static void match_usage(FILE *f)
{
    fputs("usage: chariot match -engine name=N cmd=PATH [key=value ...] -engine ... [options]\n"
          "engine keys (also after -each, which applies to every engine; an engine's own keys win):\n"
          "  name=N cmd=CMD [arg=A ...] [dir=D] [proto=ucci|uci|uci10|fsf|auto]\n"
          "  [option.X=Y ...] [tc=10+0.1 | tc=40/60 | st=0.5] [depth=N] [nodes=N]\n"
          "options:\n"
          "  -openings file=F [order=sequential|random] [seed=S] [start=N]   (default: built-in 60 FENs)\n"
          "  -games N (per encounter, default 2)  -rounds N (default 1)  -repeat | -norepeat\n"
          "  -concurrency N  -timemargin MS (default 50)  -handshake MS (default 10000)\n"
          "  -resign movecount=K score=X [twosided=true]  -draw movenumber=M movecount=K score=X\n"
          "  -maxplies N  -nobanmoves  -sprt elo0=0 elo1=5 [alpha=0.05] [beta=0.05]\n"
          "  -pgnout FILE  -pgnformat iccs|wxf  -json FILE  -event NAME  -site NAME  -debug\n"
          "See docs/MATCH.md.\n",
          f);
}

static bool match_parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v))
        return false;
    *out = v;
    return true;
}

/* Applies one engine key. err gets a message on failure. */
static bool match_player_key(MatchPlayer *p, const char *tok, char *err, size_t errlen)
{
    const char *eq = strchr(tok, '=');
    if (!eq) {
        snprintf(err, errlen, "expected key=value, got '%s'", tok);
        return false;
    }
    size_t klen = (size_t)(eq - tok);
    const char *v = eq + 1;
    long long n;
    double d;
#define KEY(k) (klen == strlen(k) && strncmp(tok, k, klen) == 0)
    if (KEY("name")) {
        snprintf(p->name, sizeof p->name, "%s", v);
    } else if (KEY("cmd")) {
        snprintf(p->cmd, sizeof p->cmd, "%s", v);
    } else if (KEY("arg")) {
        /* quoted, so an argument with blanks stays one argument */
        size_t len = strlen(p->cmd);
        snprintf(p->cmd + len, sizeof p->cmd - len, " '%s'", v);
    } else if (KEY("dir")) {
        snprintf(p->dir, sizeof p->dir, "%s", v);
    } else if (KEY("proto")) {
        if (!client_proto_parse(v, &p->proto)) {
            snprintf(err, errlen, "unknown proto '%s' (ucci, uci, uci10, fsf, auto)", v);
            return false;
        }
    } else if (klen > 7 && strncmp(tok, "option.", 7) == 0) {
        if (p->option_count >= MATCH_MAX_OPTIONS) {
            snprintf(err, errlen, "too many options");
            return false;
        }
        MatchOption *o = &p->options[p->option_count++];
        snprintf(o->name, sizeof o->name, "%.*s", (int)(klen - 7), tok + 7);
        snprintf(o->value, sizeof o->value, "%s", v);
    } else if (KEY("tc")) {
        if (!match_tc_parse(v, &p->tc)) {
            snprintf(err, errlen, "bad time control '%s' (e.g. 10+0.1, 40/60, 1:00+1)", v);
            return false;
        }
    } else if (KEY("st")) {
        if (!match_parse_double(v, &d) || d <= 0 || d > 1e6) {
            snprintf(err, errlen, "bad st '%s' (seconds per move)", v);
            return false;
        }
        p->tc.movetime_ms = (int64_t)(d * 1000 + 0.5);
        p->tc.base_ms = -1;
    } else if (KEY("depth")) {
        if (!cli_parse_ll(v, 1, 1000, &n)) {
            snprintf(err, errlen, "bad depth '%s'", v);
            return false;
        }
        p->tc.depth = (int)n;
    } else if (KEY("nodes")) {
        if (!cli_parse_ll(v, 1, (long long)1e15, &n)) {
            snprintf(err, errlen, "bad nodes '%s'", v);
            return false;
        }
        p->tc.nodes = n;
    } else {
        snprintf(err, errlen, "unknown engine key '%.*s'", (int)klen, tok);
        return false;
    }
#undef KEY
    return true;
}

/* Collects the key=value tokens after a flag (up to the next "-flag"). */
static int match_collect(int argc, char **argv, int i, MatchTokens *t)
{
    t->tok = &argv[i];
    t->count = 0;
    while (i < argc && argv[i][0] != '-') {
        t->count++;
        i++;
    }
    return i;
}

/* Looks up key in key=value tokens. */
static const char *match_token_value(const MatchTokens *t, const char *key)
{
    size_t k = strlen(key);
    for (int i = 0; i < t->count; i++)
        if (strncmp(t->tok[i], key, k) == 0 && t->tok[i][k] == '=')
            return t->tok[i] + k + 1;
    return NULL;
}

static bool match_tokens_known(const MatchTokens *t, const char *const *keys, const char *flag)
{
    for (int i = 0; i < t->count; i++) {
        const char *eq = strchr(t->tok[i], '=');
        bool ok = false;
        for (int k = 0; eq && keys[k]; k++)
            if ((size_t)(eq - t->tok[i]) == strlen(keys[k]) && strncmp(t->tok[i], keys[k], strlen(keys[k])) == 0)
                ok = true;
        if (!ok) {
            fprintf(stderr, "chariot match: %s: unknown argument '%s'\n", flag, t->tok[i]);
            return false;
        }
    }
    return true;
}

static bool match_int_arg(int argc, char **argv, int *i, long long lo, long long hi, long long *out)
{
    if (*i + 1 >= argc || !cli_parse_ll(argv[*i + 1], lo, hi, out)) {
        fprintf(stderr, "chariot match: %s needs a number in %lld..%lld\n", argv[*i], lo, hi);
        return false;
    }
    (*i)++;
    return true;
}

static bool match_str_arg(int argc, char **argv, int *i, char *out, size_t outlen)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "chariot match: %s needs a value\n", argv[*i]);
        return false;
    }
    snprintf(out, outlen, "%s", argv[++*i]);
    return true;
}

/* Parses the whole command line into cfg; prints the reason on failure. */
static bool match_parse_args(int argc, char **argv, MatchConfig *cfg)
{
    MatchTokens engines[MATCH_MAX_PLAYERS], each = {NULL, 0};
    int engine_count = 0;
    memset(cfg, 0, sizeof *cfg);
    cfg->repeat = true;
    cfg->games = 2;
    cfg->rounds = 1;
    cfg->concurrency = 1;
    cfg->timemargin_ms = 50;
    cfg->handshake_ms = 10000;
    cfg->banmoves = true;
    cfg->pgnformat = MATCH_PGN_ICCS;
    snprintf(cfg->event, sizeof cfg->event, "chariot match");
    if (gethostname(cfg->site, sizeof cfg->site) != 0)
        snprintf(cfg->site, sizeof cfg->site, "?");
    cfg->site[sizeof cfg->site - 1] = '\0';

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long long n;
        if (strcmp(a, "-engine") == 0) {
            if (engine_count >= MATCH_MAX_PLAYERS) {
                fprintf(stderr, "chariot match: at most %d engines\n", MATCH_MAX_PLAYERS);
                return false;
            }
            i = match_collect(argc, argv, i + 1, &engines[engine_count++]) - 1;
        } else if (strcmp(a, "-each") == 0) {
            if (each.count > 0) {
                fprintf(stderr, "chariot match: -each given twice\n");
                return false;
            }
            i = match_collect(argc, argv, i + 1, &each) - 1;
        } else if (strcmp(a, "-openings") == 0) {
            MatchTokens t;
            i = match_collect(argc, argv, i + 1, &t) - 1;
            static const char *const keys[] = {"file", "order", "seed", "start", "format", "plies", NULL};
            if (!match_tokens_known(&t, keys, "-openings"))
                return false;
            const char *v;
            if ((v = match_token_value(&t, "file")))
                snprintf(cfg->openings_file, sizeof cfg->openings_file, "%s", v);
            if ((v = match_token_value(&t, "order"))) {
                if (strcmp(v, "random") == 0)
                    cfg->random_order = true;
                else if (strcmp(v, "sequential") != 0) {
                    fprintf(stderr, "chariot match: order must be sequential or random\n");
                    return false;
                }
            }
            if ((v = match_token_value(&t, "seed"))) {
                if (!cli_parse_ll(v, 0, INT64_MAX, &n)) {
                    fprintf(stderr, "chariot match: bad seed '%s'\n", v);
                    return false;
                }
                cfg->seed = (uint64_t)n;
            }
            if ((v = match_token_value(&t, "start"))) {
                if (!cli_parse_ll(v, 1, 1000000000, &n)) {
                    fprintf(stderr, "chariot match: bad start '%s'\n", v);
                    return false;
                }
                cfg->openings_start = (int)n - 1;
            }
        } else if (strcmp(a, "-repeat") == 0) {
            cfg->repeat = true;
        } else if (strcmp(a, "-norepeat") == 0) {
            cfg->repeat = false;
        } else if (strcmp(a, "-games") == 0) {
            if (!match_int_arg(argc, argv, &i, 1, 10000000, &n))
                return false;
            cfg->games = (int)n;
        } else if (strcmp(a, "-rounds") == 0) {
            if (!match_int_arg(argc, argv, &i, 1, 10000000, &n))
                return false;
            cfg->rounds = (int)n;
        } else if (strcmp(a, "-concurrency") == 0) {
            if (!match_int_arg(argc, argv, &i, 1, 256, &n))
                return false;
            cfg->concurrency = (int)n;
        } else if (strcmp(a, "-timemargin") == 0) {
            if (!match_int_arg(argc, argv, &i, 0, 3600000, &n))
                return false;
            cfg->timemargin_ms = n;
        } else if (strcmp(a, "-handshake") == 0) {
            if (!match_int_arg(argc, argv, &i, 1, 3600000, &n))
                return false;
            cfg->handshake_ms = (int)n;
        } else if (strcmp(a, "-maxplies") == 0) {
            if (!match_int_arg(argc, argv, &i, 1, 100000, &n))
                return false;
            cfg->adj.maxplies = (int)n;
        } else if (strcmp(a, "-resign") == 0 || strcmp(a, "-draw") == 0) {
            bool resign = a[1] == 'r';
            MatchTokens t;
            i = match_collect(argc, argv, i + 1, &t) - 1;
            static const char *const rkeys[] = {"movecount", "score", "twosided", NULL};
            static const char *const dkeys[] = {"movenumber", "movecount", "score", NULL};
            if (!match_tokens_known(&t, resign ? rkeys : dkeys, a))
                return false;
            const char *mc = match_token_value(&t, "movecount"), *sc = match_token_value(&t, "score");
            long long count, score, number = 0;
            if (!mc || !sc || !cli_parse_ll(mc, 1, 10000, &count) || !cli_parse_ll(sc, 0, 100000, &score)) {
                fprintf(stderr, "chariot match: %s needs movecount=K score=X\n", a);
                return false;
            }
            if (resign) {
                const char *ts = match_token_value(&t, "twosided");
                cfg->adj.resign_movecount = (int)count;
                cfg->adj.resign_score = (int)score;
                cfg->adj.resign_twosided = ts && (strcmp(ts, "true") == 0 || strcmp(ts, "on") == 0);
            } else {
                const char *mn = match_token_value(&t, "movenumber");
                if (mn && !cli_parse_ll(mn, 0, 100000, &number)) {
                    fprintf(stderr, "chariot match: bad movenumber '%s'\n", mn);
                    return false;
                }
                cfg->adj.draw_movecount = (int)count;
                cfg->adj.draw_score = (int)score;
                cfg->adj.draw_movenumber = (int)number;
            }
        } else if (strcmp(a, "-sprt") == 0) {
            MatchTokens t;
            i = match_collect(argc, argv, i + 1, &t) - 1;
            static const char *const keys[] = {"elo0", "elo1", "alpha", "beta", NULL};
            if (!match_tokens_known(&t, keys, "-sprt"))
                return false;
            cfg->sprt.on = true;
            cfg->sprt.elo0 = 0;
            cfg->sprt.elo1 = 5;
            cfg->sprt.alpha = cfg->sprt.beta = 0.05;
            double *dst[4] = {&cfg->sprt.elo0, &cfg->sprt.elo1, &cfg->sprt.alpha, &cfg->sprt.beta};
            for (int k = 0; k < 4; k++) {
                const char *v = match_token_value(&t, keys[k]);
                if (v && !match_parse_double(v, dst[k])) {
                    fprintf(stderr, "chariot match: -sprt: bad %s '%s'\n", keys[k], v);
                    return false;
                }
            }
            if (cfg->sprt.elo1 <= cfg->sprt.elo0 || cfg->sprt.alpha <= 0 || cfg->sprt.alpha >= 0.5 ||
                cfg->sprt.beta <= 0 || cfg->sprt.beta >= 0.5) {
                fprintf(stderr, "chariot match: -sprt needs elo0 < elo1 and 0 < alpha, beta < 0.5\n");
                return false;
            }
        } else if (strcmp(a, "-pgnout") == 0) {
            if (!match_str_arg(argc, argv, &i, cfg->pgnout, sizeof cfg->pgnout))
                return false;
        } else if (strcmp(a, "-pgnformat") == 0) {
            char v[16];
            if (!match_str_arg(argc, argv, &i, v, sizeof v))
                return false;
            if (strcmp(v, "wxf") == 0)
                cfg->pgnformat = MATCH_PGN_WXF;
            else if (strcmp(v, "iccs") == 0)
                cfg->pgnformat = MATCH_PGN_ICCS;
            else {
                fprintf(stderr, "chariot match: -pgnformat is iccs or wxf\n");
                return false;
            }
        } else if (strcmp(a, "-json") == 0) {
            if (!match_str_arg(argc, argv, &i, cfg->json, sizeof cfg->json))
                return false;
        } else if (strcmp(a, "-event") == 0) {
            if (!match_str_arg(argc, argv, &i, cfg->event, sizeof cfg->event))
                return false;
        } else if (strcmp(a, "-site") == 0) {
            if (!match_str_arg(argc, argv, &i, cfg->site, sizeof cfg->site))
                return false;
        } else if (strcmp(a, "-nobanmoves") == 0) {
            cfg->banmoves = false;
        } else if (strcmp(a, "-debug") == 0) {
            cfg->debug = true;
        } else if (strcmp(a, "-help") == 0 || strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            match_usage(stdout);
            exit(0);
        } else {
            fprintf(stderr, "chariot match: unknown option '%s'\n", a);
            match_usage(stderr);
            return false;
        }
    }

    if (engine_count < 2) {
        fprintf(stderr, "chariot match: needs at least two -engine\n");
        match_usage(stderr);
        return false;
    }
    cfg->player_count = engine_count;
    for (int e = 0; e < engine_count; e++) {
        MatchPlayer *p = &cfg->players[e];
        memset(p, 0, sizeof *p);
        match_tc_init(&p->tc);
        p->proto = CLIENT_PROTO_AUTO;
        char err[160];
        /* -each first, so that the engine's own keys override it; cmd= before
         * everything, so that arg= from either place appends to the final one */
        for (int pass = 0; pass < 4; pass++) {
            const MatchTokens *t = pass % 2 == 0 ? &each : &engines[e];
            for (int k = 0; k < t->count; k++)
                if ((strncmp(t->tok[k], "cmd=", 4) == 0) == (pass < 2) &&
                    !match_player_key(p, t->tok[k], err, sizeof err)) {
                    fprintf(stderr, "chariot match: engine %d: %s\n", e + 1, err);
                    return false;
                }
        }
        if (!p->cmd[0]) {
            fprintf(stderr, "chariot match: engine %d has no cmd=\n", e + 1);
            return false;
        }
        if (p->tc.base_ms < 0 && p->tc.movetime_ms < 0 && p->tc.depth == 0 && p->tc.nodes == 0) {
            fprintf(stderr, "chariot match: engine %d has no limit (tc=, st=, depth= or nodes=)\n", e + 1);
            return false;
        }
        if (!p->name[0]) {
            char **argv0 = client_split_command(p->cmd);
            const char *base = argv0 ? strrchr(argv0[0], '/') : NULL;
            snprintf(p->name, sizeof p->name, "%s", base ? base + 1 : argv0 ? argv0[0] : "engine");
            client_free_argv(argv0);
        }
    }
    /* Names identify engines in the tables and PGN: make them unique. */
    for (int e = 1; e < engine_count; e++)
        for (int o = 0; o < e; o++)
            if (strcmp(cfg->players[e].name, cfg->players[o].name) == 0) {
                size_t len = strlen(cfg->players[e].name);
                if (len > MATCH_NAME_MAX - 4)
                    len = MATCH_NAME_MAX - 4;
                snprintf(cfg->players[e].name + len, MATCH_NAME_MAX - len, "-%d", e + 1);
                o = -1;
            }
    if (cfg->sprt.on && engine_count != 2) {
        fprintf(stderr, "chariot match: -sprt needs exactly two engines\n");
        return false;
    }
    return true;
}

/* ------------------------------------------------------------ the runner */

typedef struct MatchJob {
    int number;  /* 1-based game number */
    int p[2];    /* player index playing red, black */
    int opening; /* index in the book */
    int pair;    /* game pair (same opening, colours swapped) for two players, -1 if unpaired */
} MatchJob;

typedef struct MatchTotals {
    int games, wins, draws, losses;
    int time_losses, illegal, crashes, nomoves;
    int64_t depth_sum, depth_count, nodes, node_time_ms, think_ms, moves;
    int64_t depth_hist[MATCH_DEPTH_BINS];
    double cpu_seconds;
} MatchTotals;

/* Median of the depths reported per move (the lower median), 0 if none. */
static int totals_median_depth(const MatchTotals *t)
{
    if (t->depth_count == 0)
        return 0;
    int64_t seen = 0, half = (t->depth_count + 1) / 2;
    for (int d = 0; d < MATCH_DEPTH_BINS; d++) {
        seen += t->depth_hist[d];
        if (seen >= half)
            return d;
    }
    return MATCH_DEPTH_BINS - 1;
}

typedef struct MatchRow {
    bool done;
    int p[2];
    int opening;
    GameResult result;
    MatchEnd end;
    int plies;
    char reason[MATCH_REASON_MAX];
} MatchRow;

typedef struct MatchRunner {
    MatchConfig *cfg;
    MatchBook book;
    MatchJob *jobs;
    int job_count;
    int next_job;
    pthread_mutex_t lock;
    MatchRow *rows;
    MatchTotals totals[MATCH_MAX_PLAYERS];
    int vs[MATCH_MAX_PLAYERS][MATCH_MAX_PLAYERS][3]; /* [i][j]: wins, draws, losses of i against j */
    ClientProto resolved[MATCH_MAX_PLAYERS];
    int finished;
    int aborted;
    int *pair_points; /* half points of player 0 per pair */
    int *pair_games;
    int pair_count;
    int penta[5];
    int pairs_done;
    bool paired;     /* games come in colour-swapped pairs: pentanomial statistics */
    bool sprt_done;
    double llr;
    char sprt_verdict[32];
    bool fatal;
    char fatal_msg[320];
    FILE *pgn;
    char tc_text[MATCH_MAX_PLAYERS][64];
} MatchRunner;

static bool match_build_jobs(MatchRunner *r)
{
    MatchConfig *cfg = r->cfg;
    int n = cfg->player_count;
    int pairings = n * (n - 1) / 2;
    long long total = (long long)pairings * cfg->games * cfg->rounds;
    if (total > 10000000) {
        fprintf(stderr, "chariot match: too many games (%lld)\n", total);
        return false;
    }
    r->jobs = calloc((size_t)total, sizeof *r->jobs);
    r->rows = calloc((size_t)total, sizeof *r->rows);
    r->pair_points = calloc((size_t)total / 2 + 1, sizeof *r->pair_points);
    r->pair_games = calloc((size_t)total / 2 + 1, sizeof *r->pair_games);
    if (!r->jobs || !r->rows || !r->pair_points || !r->pair_games)
        return false;
    int opening = cfg->openings_start - 1, count = 0, pair = 0;
    for (int round = 0; round < cfg->rounds; round++)
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                for (int g = 0; g < cfg->games; g++) {
                    MatchJob *job = &r->jobs[count];
                    bool second = cfg->repeat && (g % 2 == 1);
                    if (!second)
                        opening++;
                    job->number = count + 1;
                    job->opening = opening % r->book.count;
                    job->p[0] = g % 2 == 0 ? i : j;
                    job->p[1] = g % 2 == 0 ? j : i;
                    /* a pair needs both games; an odd last game stays unpaired */
                    job->pair = cfg->repeat && n == 2 && (g % 2 == 1 || g + 1 < cfg->games) ? pair : -1;
                    if (second && job->pair >= 0)
                        pair++;
                    count++;
                }
    r->job_count = count;
    r->pair_count = pair;
    r->paired = cfg->repeat && n == 2 && pair > 0;
    return true;
}

/* Points (in half points) of the red player. */
static int match_red_halfpoints(GameResult res)
{
    return res == RESULT_RED_WINS ? 2 : res == RESULT_DRAW ? 1 : 0;
}

static void match_sprt_update(MatchRunner *r)
{
    const MatchSprt *s = &r->cfg->sprt;
    int w = r->totals[0].wins, d = r->totals[0].draws, l = r->totals[0].losses;
    double lower, upper;
    match_sprt_bounds(s->alpha, s->beta, &lower, &upper);
    if (r->paired)
        r->llr = match_sprt_llr_pentanomial(r->penta, s->elo0, s->elo1);
    else
        r->llr = match_sprt_llr_trinomial(w, d, l, s->elo0, s->elo1);
    if (!r->sprt_done && r->llr >= upper) {
        r->sprt_done = true;
        snprintf(r->sprt_verdict, sizeof r->sprt_verdict, "H1 accepted");
    } else if (!r->sprt_done && r->llr <= lower) {
        r->sprt_done = true;
        snprintf(r->sprt_verdict, sizeof r->sprt_verdict, "H0 accepted");
    }
    printf("SPRT: llr %.3f (%.3f, %.3f) [%g, %g] %s, %d %s%s%s\n", r->llr, lower, upper, s->elo0, s->elo1,
           r->paired ? "pentanomial" : "trinomial", r->paired ? r->pairs_done : w + d + l,
           r->paired ? "game pairs" : "games", r->sprt_done ? ": " : "", r->sprt_done ? r->sprt_verdict : "");
}

/* Books one finished game: totals, live lines, PGN, SPRT. Called under the lock. */
static void match_record(MatchRunner *r, const MatchJob *job, const MatchGame *g)
{
    MatchConfig *cfg = r->cfg;
    MatchRow *row = &r->rows[job->number - 1];
    row->done = true;
    row->p[0] = job->p[0];
    row->p[1] = job->p[1];
    row->opening = job->opening;
    row->result = g->result;
    row->end = g->end;
    row->plies = g->plies;
    snprintf(row->reason, sizeof row->reason, "%s", g->reason);
    r->finished++;

    for (int c = 0; c < 2; c++) {
        int pi = job->p[c];
        MatchTotals *t = &r->totals[pi];
        const MatchSideStats *s = &g->side[c];
        t->games++;
        bool won = (c == RED && g->result == RESULT_RED_WINS) || (c == BLACK && g->result == RESULT_BLACK_WINS);
        bool lost = (c == RED && g->result == RESULT_BLACK_WINS) || (c == BLACK && g->result == RESULT_RED_WINS);
        int *vs = r->vs[pi][job->p[!c]];
        if (won)
            t->wins++, vs[0]++;
        else if (lost)
            t->losses++, vs[2]++;
        else
            t->draws++, vs[1]++;
        if (g->loser == c) {
            t->time_losses += g->end == MATCH_END_TIME;
            t->illegal += g->end == MATCH_END_ILLEGAL;
            t->crashes += g->end == MATCH_END_CRASH;
            t->nomoves += g->end == MATCH_END_NOMOVE;
        }
        t->depth_sum += s->depth_sum;
        t->depth_count += s->depth_count;
        for (int d = 0; d < MATCH_DEPTH_BINS; d++)
            t->depth_hist[d] += s->depth_hist[d];
        t->nodes += s->nodes;
        t->node_time_ms += s->node_time_ms;
        t->think_ms += s->time_ms;
        t->moves += s->moves;
        t->cpu_seconds += s->cpu_seconds;
        if (cfg->players[pi].proto == CLIENT_PROTO_AUTO && g->proto[c] != CLIENT_PROTO_AUTO)
            r->resolved[pi] = g->proto[c];
    }

    const char *red = cfg->players[job->p[0]].name, *black = cfg->players[job->p[1]].name;
    printf("Finished game %d (%s vs %s): %s {%s} %d plies\n", job->number, red, black,
           match_result_string(g->result), g->reason, g->plies);
    int a = job->p[0] < job->p[1] ? job->p[0] : job->p[1], b = a == job->p[0] ? job->p[1] : job->p[0];
    const int *v = r->vs[a][b];
    int n = v[0] + v[1] + v[2];
    printf("Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", cfg->players[a].name, cfg->players[b].name, v[0], v[2],
           v[1], n ? (v[0] + 0.5 * v[1]) / n : 0.0, n);

    if (job->pair >= 0) {
        /* player 0's half points in this pair */
        int hp = match_red_halfpoints(g->result);
        r->pair_points[job->pair] += job->p[0] == 0 ? hp : 2 - hp;
        if (++r->pair_games[job->pair] == 2) {
            r->penta[r->pair_points[job->pair]]++;
            r->pairs_done++;
        }
    }
    if (cfg->sprt.on)
        match_sprt_update(r);

    if (r->pgn) {
        MatchPgnInfo info = {cfg->event, cfg->site, job->number, NULL};
        char tc[160];
        if (strcmp(r->tc_text[job->p[0]], r->tc_text[job->p[1]]) == 0)
            snprintf(tc, sizeof tc, "%s", r->tc_text[job->p[0]]);
        else
            snprintf(tc, sizeof tc, "%s / %s", r->tc_text[job->p[0]], r->tc_text[job->p[1]]);
        info.time_control = tc;
        match_pgn_write(r->pgn, g, &info, cfg->pgnformat);
        fflush(r->pgn);
    }
    fflush(stdout);
}

static void *match_worker(void *arg)
{
    MatchRunner *r = arg;
    MatchConfig *cfg = r->cfg;
    for (;;) {
        pthread_mutex_lock(&r->lock);
        if (match_interrupted || r->sprt_done || r->fatal || r->next_job >= r->job_count) {
            pthread_mutex_unlock(&r->lock);
            break;
        }
        MatchJob job = r->jobs[r->next_job++];
        MatchGameConfig gc;
        memset(&gc, 0, sizeof gc);
        for (int c = 0; c < 2; c++) {
            gc.player[c] = &cfg->players[job.p[c]];
            gc.proto[c] = r->resolved[job.p[c]];
        }
        pthread_mutex_unlock(&r->lock);

        char tag[32];
        snprintf(tag, sizeof tag, "[%d] ", job.number);
        gc.opening = &r->book.items[job.opening];
        gc.timemargin_ms = cfg->timemargin_ms;
        gc.handshake_ms = cfg->handshake_ms;
        gc.adj = cfg->adj;
        gc.banmoves = cfg->banmoves;
        gc.log = cfg->debug ? stderr : NULL;
        gc.log_tag = tag;
        gc.stop = &match_interrupted;
        MatchGame g;
        bool ok = match_play_game(&gc, &g);

        pthread_mutex_lock(&r->lock);
        if (!ok) {
            if (!r->fatal) {
                r->fatal = true;
                snprintf(r->fatal_msg, sizeof r->fatal_msg, "game %d: %s", job.number, g.reason);
            }
        } else if (g.end == MATCH_END_ABORTED) {
            r->aborted++;
            /* not counted, but its engines did burn CPU */
            for (int c = 0; c < 2; c++)
                r->totals[job.p[c]].cpu_seconds += g.side[c].cpu_seconds;
        } else {
            match_record(r, &job, &g);
        }
        pthread_mutex_unlock(&r->lock);
        match_game_free(&g);
    }
    return NULL;
}

/* ------------------------------------------------------------- reports */

static double match_cpu_self(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

static void match_print_elo(const char *label, const MatchElo *e)
{
    if (!e->valid)
        printf("%s: score %.1f%%, Elo not defined yet\n", label, 100 * e->score);
    else
        printf("%s: %.1f +/- %.1f (95%% interval %.1f .. %.1f), score %.1f%%\n", label, e->elo, e->error, e->lo,
               e->hi, 100 * e->score);
}

static void match_report(MatchRunner *r, double runner_cpu)
{
    MatchConfig *cfg = r->cfg;
    printf("\n");
    if (match_interrupted)
        printf("Interrupted: %d game(s) finished, %d aborted and not counted.\n", r->finished, r->aborted);
    if (r->fatal)
        printf("Stopped: %s\n", r->fatal_msg);
    if (cfg->player_count == 2) {
        const MatchTotals *t = &r->totals[0];
        printf("Results of %s vs %s (%d games): %d - %d - %d (W - L - D)\n", cfg->players[0].name,
               cfg->players[1].name, t->games, t->wins, t->losses, t->draws);
        MatchElo tri = match_elo_trinomial(t->wins, t->draws, t->losses);
        match_print_elo("Elo difference (trinomial)", &tri);
        if (r->paired && r->pairs_done > 0) {
            MatchElo pen = match_elo_pentanomial(r->penta);
            match_print_elo("Elo difference (pentanomial)", &pen);
            printf("Game pairs [0, 0.5, 1, 1.5, 2 points]: %d %d %d %d %d\n", r->penta[0], r->penta[1], r->penta[2],
                   r->penta[3], r->penta[4]);
        }
        printf("LOS: %.1f%%\n", 100 * match_los(t->wins, t->losses));
        if (cfg->sprt.on) {
            double lower, upper;
            match_sprt_bounds(cfg->sprt.alpha, cfg->sprt.beta, &lower, &upper);
            printf("SPRT (%s, logistic Elo [%g, %g], alpha %g, beta %g): llr %.3f (%.3f, %.3f) %s\n",
                   r->paired ? "pentanomial over game pairs" : "trinomial", cfg->sprt.elo0, cfg->sprt.elo1,
                   cfg->sprt.alpha, cfg->sprt.beta, r->llr, lower, upper,
                   r->sprt_done ? r->sprt_verdict : "- no decision");
        }
    }
    printf("\n%-20s %6s %5s %5s %5s %6s %7s %5s %5s %5s %6s %8s %8s %9s %9s %8s\n", "Engine", "Games", "W", "D", "L",
           "Score", "Elo", "TimeL", "Illeg", "Crash", "NoMove", "AvgDepth", "MedDepth", "kNPS", "Think(s)", "CPU(s)");
    double engines_cpu = 0;
    for (int i = 0; i < cfg->player_count; i++) {
        const MatchTotals *t = &r->totals[i];
        MatchElo e = match_elo_trinomial(t->wins, t->draws, t->losses);
        char elo[16], depth[16], median[16], knps[16];
        if (e.valid)
            snprintf(elo, sizeof elo, "%+.0f", e.elo);
        else
            snprintf(elo, sizeof elo, "-");
        if (t->depth_count) {
            snprintf(depth, sizeof depth, "%.1f", (double)t->depth_sum / (double)t->depth_count);
            snprintf(median, sizeof median, "%d", totals_median_depth(t));
        } else {
            snprintf(depth, sizeof depth, "-");
            snprintf(median, sizeof median, "-");
        }
        if (t->node_time_ms > 0)
            snprintf(knps, sizeof knps, "%.1f", (double)t->nodes / (double)t->node_time_ms);
        else
            snprintf(knps, sizeof knps, "-");
        printf("%-20s %6d %5d %5d %5d %5.1f%% %7s %5d %5d %5d %6d %8s %8s %9s %9.1f %8.2f\n", cfg->players[i].name,
               t->games, t->wins, t->draws, t->losses,
               t->games ? 100.0 * (t->wins + 0.5 * t->draws) / t->games : 0.0, elo, t->time_losses, t->illegal,
               t->crashes, t->nomoves, depth, median, knps, (double)t->think_ms / 1000.0, t->cpu_seconds);
        engines_cpu += t->cpu_seconds;
    }
    printf("\nRunner CPU %.2f s, engines CPU %.2f s (runner = %.2f%% of engines)\n", runner_cpu, engines_cpu,
           engines_cpu > 0 ? 100.0 * runner_cpu / engines_cpu : 0.0);
    fflush(stdout);
}

static void match_write_json(MatchRunner *r, double runner_cpu)
{
    MatchConfig *cfg = r->cfg;
    FILE *f = fopen(cfg->json, "w");
    if (!f) {
        fprintf(stderr, "chariot match: cannot write %s\n", cfg->json);
        return;
    }
    fputs("{\n  \"event\": ", f);
    match_json_string(f, cfg->event);
    fprintf(f, ",\n  \"games_played\": %d,\n  \"games_aborted\": %d,\n  \"interrupted\": %s,\n", r->finished,
            r->aborted, match_interrupted ? "true" : "false");
    fputs("  \"engines\": [\n", f);
    double engines_cpu = 0;
    for (int i = 0; i < cfg->player_count; i++) {
        const MatchTotals *t = &r->totals[i];
        const MatchPlayer *p = &cfg->players[i];
        fputs("    {\"name\": ", f);
        match_json_string(f, p->name);
        fputs(", \"cmd\": ", f);
        match_json_string(f, p->cmd);
        fprintf(f, ", \"proto\": \"%s\", \"tc\": ",
                client_proto_name(p->proto == CLIENT_PROTO_AUTO ? r->resolved[i] : p->proto));
        match_json_string(f, r->tc_text[i]);
        fprintf(f,
                ", \"games\": %d, \"wins\": %d, \"draws\": %d, \"losses\": %d, \"score\": %.4f, \"time_losses\": %d, "
                "\"illegal_moves\": %d, \"crashes\": %d, \"no_moves\": %d, \"avg_depth\": %.2f, \"median_depth\": %d, \"knps\": %.1f, "
                "\"think_seconds\": %.3f, \"cpu_seconds\": %.3f}%s\n",
                t->games, t->wins, t->draws, t->losses, t->games ? (t->wins + 0.5 * t->draws) / t->games : 0.0,
                t->time_losses, t->illegal, t->crashes, t->nomoves,
                t->depth_count ? (double)t->depth_sum / (double)t->depth_count : 0.0, totals_median_depth(t),
                t->node_time_ms ? (double)t->nodes / (double)t->node_time_ms : 0.0, (double)t->think_ms / 1000.0,
                t->cpu_seconds, i + 1 < cfg->player_count ? "," : "");
        engines_cpu += t->cpu_seconds;
    }
    fputs("  ],\n", f);
    if (cfg->player_count == 2) {
        const MatchTotals *t = &r->totals[0];
        MatchElo e = match_elo_trinomial(t->wins, t->draws, t->losses);
        fprintf(f, "  \"elo\": {\"model\": \"trinomial\", \"valid\": %s, \"elo\": %.2f, \"error\": %.2f, \"los\": %.4f},\n",
                e.valid ? "true" : "false", e.valid ? e.elo : 0.0, e.valid ? e.error : 0.0,
                match_los(t->wins, t->losses));
        if (r->paired) {
            MatchElo p = match_elo_pentanomial(r->penta);
            fprintf(f,
                    "  \"pentanomial\": {\"pairs\": [%d, %d, %d, %d, %d], \"valid\": %s, \"elo\": %.2f, \"error\": %.2f},\n",
                    r->penta[0], r->penta[1], r->penta[2], r->penta[3], r->penta[4], p.valid ? "true" : "false",
                    p.valid ? p.elo : 0.0, p.valid ? p.error : 0.0);
        }
        if (cfg->sprt.on) {
            double lower, upper;
            match_sprt_bounds(cfg->sprt.alpha, cfg->sprt.beta, &lower, &upper);
            fprintf(f,
                    "  \"sprt\": {\"model\": \"%s\", \"elo0\": %g, \"elo1\": %g, \"alpha\": %g, \"beta\": %g, "
                    "\"llr\": %.4f, \"lower\": %.4f, \"upper\": %.4f, \"result\": \"%s\"},\n",
                    r->paired ? "pentanomial" : "trinomial", cfg->sprt.elo0, cfg->sprt.elo1, cfg->sprt.alpha,
                    cfg->sprt.beta, r->llr, lower, upper,
                    !r->sprt_done ? "none" : r->llr > 0 ? "H1" : "H0");
        }
    }
    fprintf(f, "  \"runner_cpu_seconds\": %.3f,\n  \"engines_cpu_seconds\": %.3f,\n  \"games\": [", runner_cpu,
            engines_cpu);
    bool first = true;
    for (int i = 0; i < r->job_count; i++) {
        const MatchRow *row = &r->rows[i];
        if (!row->done)
            continue;
        fprintf(f, "%s\n    {\"number\": %d, \"red\": ", first ? "" : ",", i + 1);
        match_json_string(f, cfg->players[row->p[0]].name);
        fputs(", \"black\": ", f);
        match_json_string(f, cfg->players[row->p[1]].name);
        fprintf(f, ", \"opening\": %d, \"result\": \"%s\", \"end\": \"%s\", \"plies\": %d, \"reason\": ",
                row->opening + 1, match_result_string(row->result), match_end_name(row->end), row->plies);
        match_json_string(f, row->reason);
        fputc('}', f);
        first = false;
    }
    fputs("\n  ]\n}\n", f);
    fclose(f);
}

/* ------------------------------------------------------------- entry */

int cmd_match(int argc, char **argv)
{
    MatchConfig *cfg = calloc(1, sizeof *cfg);
    MatchRunner *r = calloc(1, sizeof *r);
    if (!cfg || !r) {
        free(cfg);
        free(r);
        fprintf(stderr, "chariot match: out of memory\n");
        return 1;
    }
    int rc = 2;
    if (!match_parse_args(argc, argv, cfg))
        goto out;
    r->cfg = cfg;

    char err[320];
    if (cfg->openings_file[0]) {
        if (!match_book_load(&r->book, cfg->openings_file, err, sizeof err)) {
            fprintf(stderr, "chariot match: %s\n", err);
            goto out;
        }
    } else if (!match_book_default(&r->book)) {
        fprintf(stderr, "chariot match: the built-in opening book does not load\n");
        goto out;
    }
    if (cfg->random_order)
        match_book_shuffle(&r->book, cfg->seed);
    if (!match_build_jobs(r)) {
        fprintf(stderr, "chariot match: out of memory\n");
        goto out;
    }
    for (int i = 0; i < cfg->player_count; i++) {
        r->resolved[i] = cfg->players[i].proto;
        match_tc_describe(&cfg->players[i].tc, r->tc_text[i], sizeof r->tc_text[i]);
    }
    if (cfg->pgnout[0] && !(r->pgn = fopen(cfg->pgnout, "a"))) {
        fprintf(stderr, "chariot match: cannot write %s\n", cfg->pgnout);
        goto out;
    }

    client_ignore_sigpipe();
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = match_on_signal;
    sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C kills the runner outright */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    match_interrupted = 0;

    printf("Match: %d engines, %d games, %d openings (%s), concurrency %d\n", cfg->player_count, r->job_count,
           r->book.count, cfg->openings_file[0] ? cfg->openings_file : "built-in", cfg->concurrency);
    for (int i = 0; i < cfg->player_count; i++)
        printf("  %s: %s [%s, %s]\n", cfg->players[i].name, cfg->players[i].cmd,
               client_proto_name(cfg->players[i].proto), r->tc_text[i]);
    fflush(stdout);

    pthread_mutex_init(&r->lock, NULL);
    int workers = cfg->concurrency < r->job_count ? cfg->concurrency : r->job_count;
    pthread_t threads[256];
    int started = 0;
    for (int i = 0; i < workers; i++)
        if (pthread_create(&threads[i], NULL, match_worker, r) == 0)
            started++;
    if (started == 0)
        match_worker(r);
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    pthread_mutex_destroy(&r->lock);

    double runner_cpu = match_cpu_self();
    match_report(r, runner_cpu);
    if (cfg->json[0])
        match_write_json(r, runner_cpu);
    if (r->pgn)
        fclose(r->pgn);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    rc = r->fatal ? 1 : match_interrupted ? 130 : 0;
    if (r->fatal)
        fprintf(stderr, "chariot match: %s\n", r->fatal_msg);

out:
    match_book_free(&r->book);
    free(r->jobs);
    free(r->rows);
    free(r->pair_points);
    free(r->pair_games);
    free(r);
    free(cfg);
    return rc;
}
