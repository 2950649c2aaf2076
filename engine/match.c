/* match.c — `chariot match`: command line, games over worker threads, live score, final table, SPRT, PGN and JSON. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "cli.h"
#include "match.h"
#include "os.h"

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

/* key=value tokens of one -engine (or of -each), kept raw until all are read. */
typedef struct MatchTokens {
    char **tok;
    int count;
} MatchTokens;

typedef struct MatchConfig {
    MatchPlayer players[MATCH_MAX_PLAYERS];
    int player_count;
    char openings_file[512];
    char openings_bookdat[512]; /* -openings book=: lines walked from a BOOK.DAT */
    int book_plies;             /* how deep those lines go */
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
    int shard_index; /* -shard I/N: this run plays the game pairs u with u % N == I */
    int shard_count;
    char journal[600]; /* progress journal; "" derives it from -json or -pgnout */
} MatchConfig;

static void match_usage(FILE *f)
{
    fputs("usage: chariot match -engine name=N cmd=PATH [key=value ...] -engine ... [options]\n"
          "engine keys (also after -each, which applies to every engine; an engine's own keys win):\n"
          "  name=N cmd=CMD [arg=A ...] [dir=D] [proto=ucci|uci|uci10|fsf|auto]\n"
          "  [option.X=Y ...] [tc=10+0.1 | tc=40/60 | st=0.5] [depth=N] [nodes=N] [ponder=true]\n"
          "options:\n"
          "  -openings file=F [order=sequential|random] [seed=S] [start=N]   (default: built-in 60 FENs)\n"
          "  -openings book=BOOK.DAT [plies=N]   every book line N plies deep (default 6)\n"
          "  -games N (per encounter, default 2)  -rounds N (default 1)  -repeat | -norepeat\n"
          "  -concurrency N  -timemargin MS (default 50)  -handshake MS (default 10000)\n"
          "  -resign movecount=K score=X [twosided=true]  -draw movenumber=M movecount=K score=X\n"
          "  -maxplies N  -nobanmoves  -sprt elo0=0 elo1=5 [alpha=0.05] [beta=0.05]\n"
          "  -pgnout FILE  -pgnformat iccs|wxf  -json FILE  -event NAME  -site NAME  -debug\n"
          "  -shard I/N (play shard I of N, 0 <= I < N)  -journal FILE (default: the -json or -pgnout path + .journal)\n"
          "merge shards: chariot match-merge OUT.json SHARD.json... [-pgn OUT.pgn]\n"
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
    } else if (KEY("ponder")) {
        if (strcmp(v, "true") == 0 || strcmp(v, "on") == 0)
            p->ponder = true;
        else if (strcmp(v, "false") == 0 || strcmp(v, "off") == 0)
            p->ponder = false;
        else {
            snprintf(err, errlen, "bad ponder '%s' (true or false)", v);
            return false;
        }
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

/* "I/N": shard I (0-based) of N. */
static bool match_parse_shard(const char *v, int *index, int *count)
{
    long long i, n;
    char first[32];
    const char *slash = v ? strchr(v, '/') : NULL;
    if (slash && (size_t)(slash - v) < sizeof first) {
        snprintf(first, sizeof first, "%.*s", (int)(slash - v), v);
        if (cli_parse_ll(first, 0, MATCH_SHARDS_MAX - 1, &i) && cli_parse_ll(slash + 1, 1, MATCH_SHARDS_MAX, &n) &&
            i < n) {
            *index = (int)i;
            *count = (int)n;
            return true;
        }
    }
    fprintf(stderr, "chariot match: -shard needs I/N with 0 <= I < N <= %d (e.g. -shard 0/4 ... -shard 3/4), got '%s'\n",
            MATCH_SHARDS_MAX, v ? v : "");
    return false;
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
    cfg->book_plies = MATCH_BOOK_PLIES_DEFAULT;
    cfg->shard_count = 1;
    snprintf(cfg->event, sizeof cfg->event, "chariot match");
    os_hostname(cfg->site, sizeof cfg->site);

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
            static const char *const keys[] = {"file", "book", "order", "seed", "start", "format", "plies", NULL};
            if (!match_tokens_known(&t, keys, "-openings"))
                return false;
            const char *v;
            if ((v = match_token_value(&t, "file")))
                snprintf(cfg->openings_file, sizeof cfg->openings_file, "%s", v);
            if ((v = match_token_value(&t, "book")))
                snprintf(cfg->openings_bookdat, sizeof cfg->openings_bookdat, "%s", v);
            if (cfg->openings_file[0] && cfg->openings_bookdat[0]) {
                fprintf(stderr, "chariot match: -openings takes file= or book=, not both\n");
                return false;
            }
            if ((v = match_token_value(&t, "plies"))) {
                if (!cli_parse_ll(v, 1, MATCH_OPENING_MOVES_MAX, &n)) {
                    fprintf(stderr, "chariot match: plies must be 1..%d\n", MATCH_OPENING_MOVES_MAX);
                    return false;
                }
                cfg->book_plies = (int)n;
            }
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
        } else if (strcmp(a, "-shard") == 0) {
            if (!match_parse_shard(i + 1 < argc ? argv[i + 1] : NULL, &cfg->shard_index, &cfg->shard_count))
                return false;
            i++;
        } else if (strcmp(a, "-journal") == 0) {
            if (!match_str_arg(argc, argv, &i, cfg->journal, sizeof cfg->journal))
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
    int unit;    /* what shards split: a pair of colour-swapped games, or a lone game */
} MatchJob;

typedef struct MatchRunner {
    MatchConfig *cfg;
    MatchBook book;
    MatchJob *all;       /* every game of the match, by number */
    int total_games;
    int pair_count;
    bool paired;
    MatchJob *jobs;      /* this run's games still to play */
    int job_count;
    int next_job;
    int shard_games;     /* games of this shard, played before or now */
    pthread_mutex_t lock;
    MatchSummary sum;
    bool fatal;
    char fatal_msg[320];
    FILE *pgn;
    FILE *journal;
    char journal_path[600];
    long long pgn_offset;
    char *config_json;   /* the configuration fingerprint, rendered */
    char config_hash[24];
} MatchRunner;

/* Lays out every game of the match. A pure function of the configuration (and
 * the book, shuffled by its seed): a game's number fixes its players,
 * colours and opening, so a shard plays exactly the games that the
 * unsharded run would give those numbers. */
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
    r->all = calloc((size_t)total, sizeof *r->all);
    if (!r->all)
        return false;
    int opening = cfg->openings_start - 1, count = 0, pair = 0, unit = -1;
    for (int round = 0; round < cfg->rounds; round++)
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                for (int g = 0; g < cfg->games; g++) {
                    MatchJob *job = &r->all[count];
                    bool second = cfg->repeat && (g % 2 == 1);
                    if (!second) {
                        opening++;
                        unit++;
                    }
                    job->number = count + 1;
                    job->opening = opening % r->book.count;
                    job->p[0] = g % 2 == 0 ? i : j;
                    job->p[1] = g % 2 == 0 ? j : i;
                    job->unit = unit;
                    /* a pair needs both games; an odd last game stays unpaired */
                    job->pair = cfg->repeat && n == 2 && (g % 2 == 1 || g + 1 < cfg->games) ? pair : -1;
                    if (second && job->pair >= 0)
                        pair++;
                    count++;
                }
    r->total_games = count;
    r->pair_count = pair;
    r->paired = cfg->repeat && n == 2 && pair > 0;
    r->jobs = calloc((size_t)count + 1, sizeof *r->jobs);
    return r->jobs != NULL;
}

/* With no clock (nodes= or depth= alone), a game is decided by its opening
 * and which engine plays red: a single-threaded engine such as Chariot
 * searches the same tree each time, so a game that repeats an earlier
 * (opening, red, black) is a copy of it. Copies add nothing to the evidence
 * yet move an SPRT's LLR as if they did, so the runner says how many of
 * the match's games are distinct. A warning, not an error: an engine with
 * threads or randomness does vary. */
static void match_warn_replays(const MatchRunner *r)
{
    const MatchConfig *cfg = r->cfg;
    for (int i = 0; i < cfg->player_count; i++) {
        const MatchTc *tc = &cfg->players[i].tc;
        if (tc->base_ms >= 0 || tc->movetime_ms >= 0)
            return;
    }
    const int n = cfg->player_count;
    const size_t cells = (size_t)r->book.count * (size_t)n * (size_t)n;
    unsigned char *seen = calloc(cells, 1);
    if (!seen)
        return;
    long long distinct = 0;
    for (int g = 0; g < r->total_games; g++) {
        const MatchJob *job = &r->all[g];
        size_t cell = ((size_t)job->opening * (size_t)n + (size_t)job->p[0]) * (size_t)n + (size_t)job->p[1];
        if (!seen[cell]) {
            seen[cell] = 1;
            distinct++;
        }
    }
    free(seen);
    if (distinct >= r->total_games)
        return;
    fprintf(stderr,
            "chariot match: warning: with nodes= or depth= and no clock, a game is fixed by its opening and "
            "colours: %d opening(s) give %lld distinct games of the %d, and a single-threaded engine replays the "
            "rest exactly (use more openings or fewer games)\n",
            r->book.count, distinct, r->total_games);
}

static bool match_in_shard(const MatchConfig *cfg, const MatchJob *job)
{
    return job->unit % cfg->shard_count == cfg->shard_index;
}

/* ------------------------------------------------------- the fingerprint */

static void match_config_double(FILE *f, const char *key, double v, bool comma)
{
    fprintf(f, "\"%s\": %.17g%s", key, v, comma ? ", " : "");
}

/* Hash of the openings: the file's bytes, or the built-in lines. */
static bool match_openings_hash(const MatchConfig *cfg, uint64_t *out)
{
    uint64_t h = MATCH_FNV_BASIS;
    if (cfg->openings_file[0] || cfg->openings_bookdat[0]) {
        const char *path = cfg->openings_file[0] ? cfg->openings_file : cfg->openings_bookdat;
        size_t len;
        char *text = match_file_read(path, &len);
        if (!text)
            return false;
        h = match_fnv1a(h, text, len);
        free(text);
    } else {
        for (int i = 0; i < MATCH_DEFAULT_OPENING_COUNT; i++)
            h = match_fnv1a(h, MATCH_DEFAULT_OPENINGS[i], strlen(MATCH_DEFAULT_OPENINGS[i]) + 1);
    }
    *out = h;
    return true;
}

/* Renders everything that decides which games are played and how they are
 * judged, on one line, as if -games were `games`, and hashes it. Left out on
 * purpose: concurrency, file names, -site and -debug, which may differ
 * between the machines of one match without changing a game. The text is
 * malloc'ed into *json (the caller frees it), the hash written to hash. */
static bool match_fingerprint_as(const MatchRunner *r, int games, char **json, char hash[24])
{
    const MatchConfig *cfg = r->cfg;
    /* The game count is pairings * games * rounds. */
    const int total_games = r->total_games / cfg->games * games;
    uint64_t book_hash;
    if (!match_openings_hash(cfg, &book_hash)) {
        fprintf(stderr, "chariot match: cannot read %s\n", cfg->openings_file);
        return false;
    }
    FILE *f = os_temp_file();
    if (!f)
        return false;
    fputs("{\"engines\": [", f);
    for (int i = 0; i < cfg->player_count; i++) {
        const MatchPlayer *p = &cfg->players[i];
        fputs(i ? ", {\"name\": " : "{\"name\": ", f);
        match_json_string(f, p->name);
        fputs(", \"cmd\": ", f);
        match_json_string(f, p->cmd);
        fputs(", \"dir\": ", f);
        match_json_string(f, p->dir);
        fprintf(f, ", \"proto\": \"%s\", \"options\": [", client_proto_name(p->proto));
        for (int o = 0; o < p->option_count; o++) {
            fputs(o ? ", [" : "[", f);
            match_json_string(f, p->options[o].name);
            fputs(", ", f);
            match_json_string(f, p->options[o].value);
            fputc(']', f);
        }
        fprintf(f,
                "], \"limits\": {\"base_ms\": %lld, \"inc_ms\": %lld, \"moves\": %d, \"movetime_ms\": %lld, "
                "\"depth\": %d, \"nodes\": %lld}",
                (long long)p->tc.base_ms, (long long)p->tc.inc_ms, p->tc.moves, (long long)p->tc.movetime_ms,
                p->tc.depth, (long long)p->tc.nodes);
        /* only when on, so that the fingerprints of matches without it stay as they were */
        if (p->ponder)
            fputs(", \"ponder\": true", f);
        fputc('}', f);
    }
    fputs("], \"openings\": {\"file\": ", f);
    if (cfg->openings_file[0])
        match_json_string(f, cfg->openings_file);
    else
        fputs("null", f);
    fprintf(f, ", \"hash\": \"%016llx\", \"count\": %d, \"order\": \"%s\", \"seed\": %llu, \"start\": %d}",
            (unsigned long long)book_hash, r->book.count, cfg->random_order ? "random" : "sequential",
            (unsigned long long)cfg->seed, cfg->openings_start + 1);
    /* Only book openings add fields, so file-based fingerprints stay as they were. */
    if (cfg->openings_bookdat[0]) {
        fputs(", \"book\": ", f);
        match_json_string(f, cfg->openings_bookdat);
        fprintf(f, ", \"plies\": %d", cfg->book_plies);
    }
    fprintf(f, ", \"repeat\": %s, \"games\": %d, \"rounds\": %d, \"total_games\": %d, \"timemargin_ms\": %lld",
            cfg->repeat ? "true" : "false", games, cfg->rounds, total_games, (long long)cfg->timemargin_ms);
    const MatchAdjudication *a = &cfg->adj;
    fprintf(f,
            ", \"adjudication\": {\"resign_movecount\": %d, \"resign_score\": %d, \"resign_twosided\": %s, "
            "\"draw_movenumber\": %d, \"draw_movecount\": %d, \"draw_score\": %d, \"maxplies\": %d}",
            a->resign_movecount, a->resign_score, a->resign_twosided ? "true" : "false", a->draw_movenumber,
            a->draw_movecount, a->draw_score, a->maxplies);
    fprintf(f, ", \"banmoves\": %s, \"sprt\": ", cfg->banmoves ? "true" : "false");
    if (cfg->sprt.on) {
        fputc('{', f);
        match_config_double(f, "elo0", cfg->sprt.elo0, true);
        match_config_double(f, "elo1", cfg->sprt.elo1, true);
        match_config_double(f, "alpha", cfg->sprt.alpha, true);
        match_config_double(f, "beta", cfg->sprt.beta, false);
        fputc('}', f);
    } else {
        fputs("null", f);
    }
    fprintf(f, ", \"pgnformat\": \"%s\", \"event\": ", cfg->pgnformat == MATCH_PGN_WXF ? "wxf" : "iccs");
    match_json_string(f, cfg->event);
    fprintf(f, ", \"shards\": %d}", cfg->shard_count);
    /* Read the text back: a temporary file stands in for a memory stream,
     * which not every C library has. */
    long n = ftell(f);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    size_t len = 0;
    if (buf) {
        rewind(f);
        len = fread(buf, 1, (size_t)n, f);
        buf[len] = '\0';
    }
    if (fclose(f) != 0 || !buf || len != (size_t)n) {
        free(buf);
        return false;
    }
    *json = buf;
    snprintf(hash, sizeof r->config_hash, "%016llx", (unsigned long long)match_fnv1a(MATCH_FNV_BASIS, buf, len));
    return true;
}

static bool match_fingerprint(MatchRunner *r)
{
    return match_fingerprint_as(r, r->cfg->games, &r->config_json, r->config_hash);
}

/* Whether a journal whose configuration differs from this run's was made by
 * the same match with a smaller -games: then this run raises the cap (an
 * SPRT that reached it undecided goes on). Its games must still be this
 * run's games, which match_resume checks one by one. */
static bool match_raises_games(const MatchRunner *r, const MatchJournalHeader *h)
{
    if (h->games <= 0 || h->games >= r->cfg->games)
        return false;
    char *json = NULL, hash[24];
    if (!match_fingerprint_as(r, h->games, &json, hash))
        return false;
    free(json);
    return strcmp(hash, h->config_hash) == 0;
}

/* ------------------------------------------------------------ resuming */

static long long match_file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : 0;
}

/* Whether an output path can carry a journal beside it: a regular file, or
 * one not created yet. */
static bool match_journal_base(const char *path)
{
    struct stat st;
    return path[0] && (stat(path, &st) != 0 || S_ISREG(st.st_mode));
}

/* Reads this run's journal back, books its games, trims the PGN to them and
 * leaves in r->jobs the games still to play. The journal is the source of
 * truth: a game counts as played once its line is there (the PGN is written
 * first, so a journaled game is always complete in the PGN). */
static bool match_resume(MatchRunner *r)
{
    MatchConfig *cfg = r->cfg;
    bool *done = calloc((size_t)r->total_games + 1, sizeof *done);
    if (!done) {
        fprintf(stderr, "chariot match: out of memory\n");
        return false;
    }
    bool ok = false;
    MatchRecord *recs = NULL;
    int *numbers = NULL;
    int count = 0, resumed = 0;
    MatchJournalHeader h;
    memset(&h, 0, sizeof h);
    char err[700];
    if (r->journal_path[0]) {
        int rc = match_journal_load(r->journal_path, cfg->player_count, &h, &recs, &count, err, sizeof err);
        if (rc < 0) {
            fprintf(stderr, "chariot match: %s\n", err);
            goto out;
        }
        const bool other_config = rc > 0 && strcmp(h.config_hash, r->config_hash) != 0;
        const bool raised = other_config && match_raises_games(r, &h);
        if (rc > 0 && ((other_config && !raised) || h.shard_index != cfg->shard_index ||
                       h.shard_count != cfg->shard_count)) {
            fprintf(stderr,
                    "chariot match: %s belongs to another match (configuration %s, shard %d/%d; this run: %s, "
                    "shard %d/%d); remove it or choose another -json, -pgnout or -journal (only -games may "
                    "change on a resume, and only upwards)\n",
                    r->journal_path, h.config_hash, h.shard_index, h.shard_count, r->config_hash, cfg->shard_index,
                    cfg->shard_count);
            goto out;
        }
        if (raised)
            printf("Raising -games from %d to %d: the journal's games count toward the new cap\n", h.games,
                   cfg->games);
        numbers = malloc(((size_t)count + 1) * sizeof *numbers);
        if (!numbers) {
            fprintf(stderr, "chariot match: out of memory\n");
            goto out;
        }
        for (int i = 0; i < count; i++) {
            const MatchRecord *rec = &recs[i];
            if (rec->number > r->total_games) {
                fprintf(stderr,
                        "chariot match: %s: game %d is beyond this run's %d game(s); -games may change on a "
                        "resume only upwards\n",
                        r->journal_path, rec->number, r->total_games);
                goto out;
            }
            const MatchJob *job = &r->all[rec->number - 1];
            if (!match_in_shard(cfg, job) || job->p[0] != rec->p[0] || job->p[1] != rec->p[1] ||
                job->opening != rec->opening || job->pair != rec->pair) {
                fprintf(stderr, "chariot match: %s: game %d does not belong to this match or shard\n",
                        r->journal_path, rec->number);
                goto out;
            }
            if (done[rec->number])
                continue; /* written twice: count it once */
            done[rec->number] = true;
            numbers[resumed++] = rec->number;
            if (!match_summary_add(&r->sum, rec)) {
                fprintf(stderr, "chariot match: out of memory\n");
                goto out;
            }
        }
        if (rc > 0) {
            if (!(r->journal = fopen(r->journal_path, "a"))) {
                fprintf(stderr, "chariot match: cannot write %s\n", r->journal_path);
                goto out;
            }
            r->pgn_offset = h.pgn_offset;
            if (cfg->pgnout[0] && strcmp(h.pgn, cfg->pgnout) == 0) {
                int missing = match_pgn_keep_games(cfg->pgnout, h.pgn_offset, numbers, resumed, err, sizeof err);
                if (missing < 0) {
                    fprintf(stderr, "chariot match: %s\n", err);
                    goto out;
                }
                if (missing > 0)
                    fprintf(stderr, "chariot match: warning: %d finished game(s) are missing from %s\n", missing,
                            cfg->pgnout);
            } else if (cfg->pgnout[0] || h.pgn[0]) {
                fprintf(stderr, "chariot match: warning: the journal's games were written to %s, this run writes to %s\n",
                        h.pgn[0] ? h.pgn : "no PGN", cfg->pgnout[0] ? cfg->pgnout : "no PGN");
                r->pgn_offset = cfg->pgnout[0] ? match_file_size(cfg->pgnout) : 0;
            }
        } else {
            snprintf(h.config_hash, sizeof h.config_hash, "%s", r->config_hash);
            h.games = cfg->games;
            h.shard_index = cfg->shard_index;
            h.shard_count = cfg->shard_count;
            snprintf(h.pgn, sizeof h.pgn, "%s", cfg->pgnout);
            h.pgn_offset = r->pgn_offset = cfg->pgnout[0] ? match_file_size(cfg->pgnout) : 0;
            if (!(r->journal = match_journal_create(r->journal_path, &h))) {
                fprintf(stderr, "chariot match: cannot write %s\n", r->journal_path);
                goto out;
            }
        }
    } else if (cfg->pgnout[0]) {
        r->pgn_offset = match_file_size(cfg->pgnout);
    }

    for (int i = 0; i < r->total_games; i++) {
        const MatchJob *job = &r->all[i];
        if (!match_in_shard(cfg, job))
            continue;
        r->shard_games++;
        if (!done[job->number])
            r->jobs[r->job_count++] = *job;
    }
    if (resumed > 0)
        printf("Resuming from %s: %d of %d game(s) already finished\n", r->journal_path, resumed, r->shard_games);
    ok = true;
out:
    free(numbers);
    free(recs);
    free(done);
    return ok;
}

/* ------------------------------------------------------------ the games */

/* Books one finished game: summary, live lines, PGN, then the journal.
 * Called under the lock. */
static void match_record(MatchRunner *r, const MatchJob *job, const MatchGame *g)
{
    MatchConfig *cfg = r->cfg;
    MatchRecord rec;
    match_record_from_game(&rec, job->number, job->p, job->opening, job->pair, g);
    if (!match_summary_add(&r->sum, &rec)) {
        r->fatal = true;
        snprintf(r->fatal_msg, sizeof r->fatal_msg, "out of memory");
        return;
    }
    const char *red = cfg->players[job->p[0]].name, *black = cfg->players[job->p[1]].name;
    printf("Finished game %d (%s vs %s): %s {%s} %d plies\n", job->number, red, black,
           match_result_string(g->result), g->reason, g->plies);
    int a = job->p[0] < job->p[1] ? job->p[0] : job->p[1], b = a == job->p[0] ? job->p[1] : job->p[0];
    const int *v = r->sum.vs[a][b];
    int n = v[0] + v[1] + v[2];
    printf("Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", cfg->players[a].name, cfg->players[b].name, v[0], v[2],
           v[1], n ? (v[0] + 0.5 * v[1]) / n : 0.0, n);
    if (cfg->sprt.on)
        match_summary_print_sprt(&r->sum);

    if (r->pgn) {
        MatchPgnInfo info = {cfg->event, cfg->site, job->number, NULL};
        char tc[160];
        if (strcmp(r->sum.tc_text[job->p[0]], r->sum.tc_text[job->p[1]]) == 0)
            snprintf(tc, sizeof tc, "%s", r->sum.tc_text[job->p[0]]);
        else
            snprintf(tc, sizeof tc, "%s / %s", r->sum.tc_text[job->p[0]], r->sum.tc_text[job->p[1]]);
        info.time_control = tc;
        match_pgn_write(r->pgn, g, &info, cfg->pgnformat);
        fflush(r->pgn);
    }
    /* after the PGN: a kill between the two replays the game, and the replay
     * drops the unjournaled copy from the PGN */
    if (r->journal && !match_journal_append(r->journal, &r->sum, &rec))
        fprintf(stderr, "chariot match: cannot write %s\n", r->journal_path);
    fflush(stdout);
}

static void *match_worker(void *arg)
{
    MatchRunner *r = arg;
    MatchConfig *cfg = r->cfg;
    for (;;) {
        pthread_mutex_lock(&r->lock);
        /* a shard sees only its part of the evidence, so only a whole match stops on the SPRT */
        bool sprt_stop = r->sum.sprt_done && cfg->shard_count == 1;
        if (match_interrupted || sprt_stop || r->fatal || r->next_job >= r->job_count) {
            pthread_mutex_unlock(&r->lock);
            break;
        }
        MatchJob job = r->jobs[r->next_job++];
        MatchGameConfig gc;
        memset(&gc, 0, sizeof gc);
        for (int c = 0; c < 2; c++) {
            gc.player[c] = &cfg->players[job.p[c]];
            gc.proto[c] = r->sum.proto[job.p[c]];
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
            r->sum.aborted++;
            /* not counted, but its engines did burn CPU */
            for (int c = 0; c < 2; c++)
                r->sum.totals[job.p[c]].cpu_seconds += g.side[c].cpu_seconds;
        } else {
            match_record(r, &job, &g);
        }
        pthread_mutex_unlock(&r->lock);
        match_game_free(&g);
    }
    return NULL;
}

/* ------------------------------------------------------------- reports */

static double match_cpu_self(void) { return os_cpu_self(); }

static void match_write_json(MatchRunner *r, double runner_cpu)
{
    MatchConfig *cfg = r->cfg;
    bool sprt_stopped = r->sum.sprt_done && cfg->shard_count == 1;
    MatchJsonMeta m = {
        .event = cfg->event,
        .config = r->config_json,
        .config_hash = r->config_hash,
        .shard_index = cfg->shard_index,
        .shard_count = cfg->shard_count,
        .total_games = r->total_games,
        .expected_games = r->shard_games,
        .partial = r->sum.finished < r->shard_games && !sprt_stopped,
        .interrupted = match_interrupted != 0,
        .pgn = cfg->pgnout[0] ? cfg->pgnout : NULL,
        .pgn_offset = r->pgn_offset,
        .runner_cpu = runner_cpu,
    };
    if (!match_summary_write_json(&r->sum, &m, cfg->json))
        fprintf(stderr, "chariot match: cannot write %s\n", cfg->json);
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
    if (cfg->openings_bookdat[0]) {
        if (!match_book_from_bookdat(&r->book, cfg->openings_bookdat, cfg->book_plies, err, sizeof err)) {
            fprintf(stderr, "chariot match: %s\n", err);
            goto out;
        }
    } else if (cfg->openings_file[0]) {
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
    if (!match_build_jobs(r) || !match_summary_init(&r->sum, r->pair_count)) {
        fprintf(stderr, "chariot match: out of memory\n");
        goto out;
    }
    if (!match_fingerprint(r))
        goto out;
    match_warn_replays(r);
    MatchSummary *sum = &r->sum;
    sum->player_count = cfg->player_count;
    sum->sprt = cfg->sprt;
    sum->paired = r->paired;
    for (int i = 0; i < cfg->player_count; i++) {
        snprintf(sum->name[i], sizeof sum->name[i], "%s", cfg->players[i].name);
        snprintf(sum->cmd[i], sizeof sum->cmd[i], "%s", cfg->players[i].cmd);
        sum->proto[i] = cfg->players[i].proto;
        match_tc_describe(&cfg->players[i].tc, sum->tc_text[i], sizeof sum->tc_text[i]);
    }
    /* The journal goes next to a file output; never next to a device or a
     * pipe (-pgnout /dev/stdout), where a resume would make no sense. */
    const char *journal_base = match_journal_base(cfg->json) ? cfg->json
                               : match_journal_base(cfg->pgnout) ? cfg->pgnout
                                                                 : NULL;
    if (cfg->journal[0])
        snprintf(r->journal_path, sizeof r->journal_path, "%s", cfg->journal);
    else if (journal_base)
        snprintf(r->journal_path, sizeof r->journal_path, "%s.journal", journal_base);
    if (!match_resume(r))
        goto out;
    if (cfg->pgnout[0] && !(r->pgn = fopen(cfg->pgnout, "a"))) {
        fprintf(stderr, "chariot match: cannot write %s\n", cfg->pgnout);
        goto out;
    }

    client_ignore_sigpipe();
    os_stop_signals_catch(match_on_signal); /* a second Ctrl-C kills the runner outright */
    match_interrupted = 0;

    printf("Match: %d engines, %d games, %d openings (%s), concurrency %d\n", cfg->player_count, r->total_games,
           r->book.count,
           cfg->openings_file[0]     ? cfg->openings_file
           : cfg->openings_bookdat[0] ? cfg->openings_bookdat
                                      : "built-in",
           cfg->concurrency);
    if (cfg->shard_count > 1)
        printf("Shard %d/%d: %d of the %d games, %d to play (configuration %s)\n", cfg->shard_index,
               cfg->shard_count, r->shard_games, r->total_games, r->job_count, r->config_hash);
    for (int i = 0; i < cfg->player_count; i++)
        printf("  %s: %s [%s, %s%s]\n", cfg->players[i].name, cfg->players[i].cmd,
               client_proto_name(cfg->players[i].proto), sum->tc_text[i], cfg->players[i].ponder ? ", ponder" : "");
    if (cfg->sprt.on && sum->finished > 0)
        match_summary_print_sprt(sum);
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
    printf("\n");
    if (match_interrupted)
        printf("Interrupted: %d game(s) finished, %d aborted and not counted.\n", sum->finished, sum->aborted);
    if (r->fatal)
        printf("Stopped: %s\n", r->fatal_msg);
    if (cfg->shard_count > 1)
        printf("Shard %d/%d: %d of its %d games finished; merge the shards with chariot match-merge\n",
               cfg->shard_index, cfg->shard_count, sum->finished, r->shard_games);
    match_summary_print(sum, runner_cpu);
    if (cfg->json[0])
        match_write_json(r, runner_cpu);
    if (r->pgn)
        fclose(r->pgn);
    os_stop_signals_default();
    rc = r->fatal ? 1 : match_interrupted ? 130 : 0;
    if (r->fatal)
        fprintf(stderr, "chariot match: %s\n", r->fatal_msg);

out:
    if (r->journal)
        fclose(r->journal);
    match_book_free(&r->book);
    match_summary_free(&r->sum);
    free(r->config_json);
    free(r->all);
    free(r->jobs);
    free(r);
    free(cfg);
    return rc;
}
