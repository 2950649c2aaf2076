/* match_merge.c — `chariot match-merge`: one summary (and PGN) from the JSON files of a match's shards. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "match.h"

/* What the merge keeps of one shard once its document is read. */
typedef struct MergeShard {
    const char *path;
    int index;
    int expected;     /* games of this shard */
    int finished;
    bool partial;
    char pgn[1024];   /* where its games are, "" for none */
    long long pgn_offset;
    int *numbers;     /* its finished games */
} MergeShard;

/* A game's text in its shard's PGN, to be written in game order. */
typedef struct MergePgnGame {
    int number;
    char *text;
    size_t len;
} MergePgnGame;

typedef struct MergeState {
    MatchSummary sum;
    MergeShard *shards;
    int shard_count_given;
    int shard_count;     /* N of the match */
    int total_games;
    char config_hash[24];
    char *config;        /* the first shard's configuration, verbatim */
    char event[256];
    MatchJson *first_config;
    char *first_text;
    const char *first_path;
    MatchRecord *records;
    int record_count, record_cap;
    int aborted;
    bool interrupted;
    double runner_cpu;
} MergeState;

static void merge_usage(FILE *f)
{
    fputs("usage: chariot match-merge OUT.json SHARD.json... [-pgn OUT.pgn]\n"
          "  Combines the JSON summaries of the shards of one match (chariot match ... -shard I/N -json F)\n"
          "  into OUT.json and prints the final table, as if the games had been played in one run.\n"
          "  -pgn OUT.pgn  also writes every game in game order, read from the PGN file each shard\n"
          "                recorded (or, if that path does not exist here, the file of that name next\n"
          "                to the shard's JSON).\n"
          "See docs/DISTRIBUTED.md.\n",
          f);
}

static int merge_int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int merge_record_cmp(const void *a, const void *b)
{
    const MatchRecord *x = a, *y = b;
    return (x->number > y->number) - (x->number < y->number);
}

static int merge_shard_cmp(const void *a, const void *b)
{
    const MergeShard *x = a, *y = b;
    return (x->index > y->index) - (x->index < y->index);
}

static int merge_pgn_cmp(const void *a, const void *b)
{
    const MergePgnGame *x = a, *y = b;
    return (x->number > y->number) - (x->number < y->number);
}

static bool merge_ll(const MatchJson *obj, const char *key, long long *out)
{
    return match_json_ll(match_json_get(obj, key), out);
}

/* Names the first member in which two configurations differ. */
static const char *merge_config_diff(const MatchJson *a, const MatchJson *b)
{
    const MatchJson *x = a->child, *y = b->child;
    for (; x && y; x = x->next, y = y->next)
        if (strcmp(x->key, y->key) != 0 || !match_json_equal(x, y))
            return x->key;
    return x ? x->key : y ? y->key : "?";
}

/* Sets up the summary from the first shard: players, SPRT, pairs. */
static bool merge_setup(MergeState *st, const MatchJson *doc, const MatchJson *config, const MatchJson *shard)
{
    const MatchJson *engines = match_json_get(config, "engines"), *results = match_json_get(doc, "engines");
    long long pair_count;
    if (!merge_ll(shard, "pair_count", &pair_count) || pair_count < 0 || pair_count > 10000000)
        return false;
    if (!match_summary_init(&st->sum, (int)pair_count))
        return false;
    MatchSummary *s = &st->sum;
    const MatchJson *paired = match_json_get(shard, "paired");
    s->paired = paired && paired->type == MATCH_JSON_BOOL && paired->boolean;
    int n = 0;
    for (const MatchJson *e = engines ? engines->child : NULL; e; e = e->next, n++) {
        if (n >= MATCH_MAX_PLAYERS)
            return false;
        const char *name = match_json_str(match_json_get(e, "name"));
        const char *cmd = match_json_str(match_json_get(e, "cmd"));
        const char *proto = match_json_str(match_json_get(e, "proto"));
        const char *tc = match_json_str(match_json_get(match_json_at(results, n), "tc"));
        if (!name || !cmd || !proto || !tc || !client_proto_parse(proto, &s->proto[n]))
            return false;
        snprintf(s->name[n], sizeof s->name[n], "%s", name);
        snprintf(s->cmd[n], sizeof s->cmd[n], "%s", cmd);
        snprintf(s->tc_text[n], sizeof s->tc_text[n], "%s", tc);
    }
    if (n < 2)
        return false;
    s->player_count = n;
    const MatchJson *sprt = match_json_get(config, "sprt");
    if (sprt && sprt->type == MATCH_JSON_OBJECT) {
        s->sprt.on = match_json_double(match_json_get(sprt, "elo0"), &s->sprt.elo0) &&
                     match_json_double(match_json_get(sprt, "elo1"), &s->sprt.elo1) &&
                     match_json_double(match_json_get(sprt, "alpha"), &s->sprt.alpha) &&
                     match_json_double(match_json_get(sprt, "beta"), &s->sprt.beta);
        if (!s->sprt.on)
            return false;
    }
    const char *event = match_json_str(match_json_get(doc, "event"));
    snprintf(st->event, sizeof st->event, "%s", event ? event : "?");
    return true;
}

/* Reads one shard file into st. Returns false (after saying why) on any error. */
static bool merge_load(MergeState *st, const char *path)
{
    size_t len;
    char *text = match_file_read(path, &len);
    if (!text) {
        fprintf(stderr, "chariot match-merge: cannot read %s\n", path);
        return false;
    }
    char err[200];
    MatchJson *doc = match_json_parse(text, len, err, sizeof err);
    MergeShard *sh = NULL;
    bool ok = false, keep_doc = false;
    if (!doc) {
        fprintf(stderr, "chariot match-merge: %s is not valid JSON (%s)\n", path, err);
        goto out;
    }
    const char *format = match_json_str(match_json_get(doc, "format"));
    const char *hash = match_json_str(match_json_get(doc, "config_hash"));
    const MatchJson *config = match_json_get(doc, "config"), *shard = match_json_get(doc, "shard");
    const MatchJson *games = match_json_get(doc, "games");
    long long index, count, total, expected, n;
    if (!format || strcmp(format, MATCH_JSON_FORMAT) != 0 || !hash || !config || config->type != MATCH_JSON_OBJECT ||
        !shard || !games || games->type != MATCH_JSON_ARRAY) {
        fprintf(stderr, "chariot match-merge: %s is not the JSON of a chariot match run with -shard (or of a recent one)\n",
                path);
        goto out;
    }
    if (!merge_ll(shard, "index", &index)) {
        fprintf(stderr, "chariot match-merge: %s is already a merged summary; merge the shards' own files\n", path);
        goto out;
    }
    if (!merge_ll(shard, "count", &count) || !merge_ll(shard, "total_games", &total) ||
        !merge_ll(shard, "expected_games", &expected) || count < 1 || count > MATCH_SHARDS_MAX || index < 0 ||
        index >= count) {
        fprintf(stderr, "chariot match-merge: %s: bad \"shard\" entry\n", path);
        goto out;
    }
    /* the hash covers the configuration's exact bytes: a hand-edited file shows */
    char check[24];
    snprintf(check, sizeof check, "%016llx",
             (unsigned long long)match_fnv1a(MATCH_FNV_BASIS, text + config->start, config->end - config->start));
    if (strcmp(check, hash) != 0) {
        fprintf(stderr, "chariot match-merge: %s: config_hash %s does not match its configuration (%s)\n", path, hash,
                check);
        goto out;
    }
    if (st->shard_count_given == 0) {
        snprintf(st->config_hash, sizeof st->config_hash, "%s", hash);
        st->shard_count = (int)count;
        st->total_games = (int)total;
        st->config = malloc(config->end - config->start + 1);
        if (!st->config || !merge_setup(st, doc, config, shard)) {
            fprintf(stderr, "chariot match-merge: %s: cannot read its players or SPRT settings\n", path);
            goto out;
        }
        memcpy(st->config, text + config->start, config->end - config->start);
        st->config[config->end - config->start] = '\0';
        st->first_config = doc;
        st->first_text = text;
        st->first_path = path;
        keep_doc = true;
    } else if (strcmp(hash, st->config_hash) != 0) {
        fprintf(stderr,
                "chariot match-merge: %s comes from a different match configuration than %s "
                "(config_hash %s vs %s; first difference in \"%s\"); refusing to merge\n",
                path, st->first_path, hash, st->config_hash,
                merge_config_diff(config, match_json_get(st->first_config, "config")));
        goto out;
    }
    for (int i = 0; i < st->shard_count_given; i++)
        if (st->shards[i].index == index) {
            fprintf(stderr, "chariot match-merge: shard %lld/%d given twice (%s and %s); refusing to merge\n", index,
                    st->shard_count, st->shards[i].path, path);
            goto out;
        }

    sh = &st->shards[st->shard_count_given];
    memset(sh, 0, sizeof *sh);
    sh->path = path;
    sh->index = (int)index;
    sh->expected = (int)expected;
    const MatchJson *partial = match_json_get(doc, "partial"), *interrupted = match_json_get(doc, "interrupted");
    sh->partial = partial && partial->type == MATCH_JSON_BOOL && partial->boolean;
    st->interrupted |= interrupted && interrupted->type == MATCH_JSON_BOOL && interrupted->boolean;
    const char *pgn = match_json_str(match_json_get(doc, "pgn"));
    snprintf(sh->pgn, sizeof sh->pgn, "%s", pgn ? pgn : "");
    if (!merge_ll(doc, "pgn_offset", &sh->pgn_offset))
        sh->pgn_offset = 0;
    if (merge_ll(doc, "games_aborted", &n))
        st->aborted += (int)n;
    double cpu;
    if (match_json_double(match_json_get(doc, "runner_cpu_seconds"), &cpu))
        st->runner_cpu += cpu;
    int game_count = 0;
    for (const MatchJson *g = games->child; g; g = g->next)
        game_count++;
    sh->numbers = malloc(((size_t)game_count + 1) * sizeof *sh->numbers);
    if (!sh->numbers) {
        fprintf(stderr, "chariot match-merge: out of memory\n");
        goto out;
    }
    for (const MatchJson *g = games->child; g; g = g->next) {
        if (st->record_count == st->record_cap) {
            int cap = st->record_cap ? st->record_cap * 2 : 256;
            MatchRecord *grown = realloc(st->records, (size_t)cap * sizeof *grown);
            if (!grown) {
                fprintf(stderr, "chariot match-merge: out of memory\n");
                goto out;
            }
            st->records = grown;
            st->record_cap = cap;
        }
        MatchRecord *rec = &st->records[st->record_count];
        if (!match_record_from_json(g, st->sum.player_count, rec, err, sizeof err)) {
            fprintf(stderr, "chariot match-merge: %s: game %d: %s\n", path, sh->finished + 1, err);
            goto out;
        }
        if (rec->number > st->total_games || (rec->pair >= st->sum.pair_count)) {
            fprintf(stderr, "chariot match-merge: %s: game %d is not part of this match\n", path, rec->number);
            goto out;
        }
        sh->numbers[sh->finished++] = rec->number;
        st->record_count++;
    }
    st->shard_count_given++;
    ok = true;
out:
    if (!ok && sh) {
        free(sh->numbers);
        sh->numbers = NULL;
    }
    if (!keep_doc) {
        match_json_free(doc);
        free(text);
    }
    return ok;
}

/* The shard's PGN: as recorded, else the file of that name beside its JSON
 * (the case of outputs collected from many machines into one folder). */
static char *merge_read_pgn(const MergeShard *sh, size_t *len, char *used, size_t usedlen)
{
    snprintf(used, usedlen, "%s", sh->pgn);
    char *text = match_file_read(sh->pgn, len);
    if (text)
        return text;
    const char *base = strrchr(sh->pgn, '/');
    base = base ? base + 1 : sh->pgn;
    const char *slash = strrchr(sh->path, '/');
    int dirlen = slash ? (int)(slash - sh->path) + 1 : 0;
    snprintf(used, usedlen, "%.*s%s", dirlen, sh->path, base);
    return match_file_read(used, len);
}

static bool merge_write_pgn(MergeState *st, const char *out)
{
    MergePgnGame *games = calloc((size_t)st->record_count + 1, sizeof *games);
    int count = 0;
    bool ok = false;
    char **texts = calloc((size_t)st->shard_count_given + 1, sizeof *texts);
    if (!games || !texts) {
        fprintf(stderr, "chariot match-merge: out of memory\n");
        goto out;
    }
    for (int i = 0; i < st->shard_count_given; i++) {
        const MergeShard *sh = &st->shards[i];
        if (sh->finished == 0)
            continue;
        if (!sh->pgn[0]) {
            fprintf(stderr, "chariot match-merge: %s was run without -pgnout; cannot write %s\n", sh->path, out);
            goto out;
        }
        size_t len;
        char used[2200];
        char *text = merge_read_pgn(sh, &len, used, sizeof used);
        if (!text) {
            fprintf(stderr, "chariot match-merge: cannot read %s, the PGN of %s\n", sh->pgn, sh->path);
            goto out;
        }
        texts[i] = text;
        if (sh->pgn_offset < 0 || (size_t)sh->pgn_offset > len) {
            fprintf(stderr, "chariot match-merge: %s is shorter than %s says\n", used, sh->path);
            goto out;
        }
        MatchPgnBlock *blocks;
        int nblocks = match_pgn_blocks(text + sh->pgn_offset, len - (size_t)sh->pgn_offset, &blocks);
        if (nblocks < 0) {
            fprintf(stderr, "chariot match-merge: out of memory\n");
            goto out;
        }
        /* a game of the shard's JSON is taken from its first complete copy */
        int *sorted = malloc(((size_t)sh->finished + 1) * sizeof *sorted);
        bool *found = calloc((size_t)sh->finished + 1, sizeof *found);
        if (!sorted || !found) {
            free(sorted);
            free(found);
            free(blocks);
            fprintf(stderr, "chariot match-merge: out of memory\n");
            goto out;
        }
        memcpy(sorted, sh->numbers, (size_t)sh->finished * sizeof *sorted);
        qsort(sorted, (size_t)sh->finished, sizeof *sorted, merge_int_cmp);
        for (int b = 0; b < nblocks; b++) {
            int *hit = blocks[b].complete && blocks[b].round > 0
                           ? bsearch(&blocks[b].round, sorted, (size_t)sh->finished, sizeof *sorted, merge_int_cmp)
                           : NULL;
            if (!hit || found[hit - sorted])
                continue;
            found[hit - sorted] = true;
            games[count++] = (MergePgnGame){blocks[b].round, text + sh->pgn_offset + blocks[b].start, blocks[b].len};
        }
        int missing = -1;
        for (int k = 0; k < sh->finished; k++)
            if (!found[k]) {
                missing = sorted[k];
                break;
            }
        free(sorted);
        free(found);
        free(blocks);
        if (missing > 0) {
            fprintf(stderr, "chariot match-merge: game %d of %s is not in %s\n", missing, sh->path, used);
            goto out;
        }
    }
    qsort(games, (size_t)count, sizeof *games, merge_pgn_cmp);
    FILE *f = fopen(out, "w");
    if (!f) {
        fprintf(stderr, "chariot match-merge: cannot write %s\n", out);
        goto out;
    }
    for (int i = 0; i < count; i++)
        fwrite(games[i].text, 1, games[i].len, f);
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "chariot match-merge: cannot write %s\n", out);
        goto out;
    }
    ok = true;
out:
    for (int i = 0; texts && i < st->shard_count_given; i++)
        free(texts[i]);
    free(texts);
    free(games);
    return ok;
}

/* "[0, 1, 3]": the listed shard indices (present or not). */
static char *merge_index_list(const MergeState *st, bool present)
{
    size_t cap = 16 + (size_t)st->shard_count * 8, len = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    len += (size_t)snprintf(out, cap, "[");
    int j = 0;
    bool first = true;
    for (int i = 0; i < st->shard_count; i++) {
        while (j < st->shard_count_given && st->shards[j].index < i)
            j++;
        bool given = j < st->shard_count_given && st->shards[j].index == i;
        if (given != present)
            continue;
        len += (size_t)snprintf(out + len, cap - len, "%s%d", first ? "" : ", ", i);
        first = false;
    }
    snprintf(out + len, cap - len, "]");
    return out;
}

int cmd_match_merge(int argc, char **argv)
{
    const char *out = NULL, *pgn_out = NULL;
    const char **inputs = calloc(argc > 0 ? (size_t)argc + 1 : 1, sizeof *inputs);
    MergeState *st = calloc(1, sizeof *st);
    int rc = 2, input_count = 0;
    char *merged = NULL, *missing = NULL;
    if (!inputs || !st) {
        fprintf(stderr, "chariot match-merge: out of memory\n");
        rc = 1;
        goto out;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-pgn") == 0 || strcmp(argv[i], "--pgn") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "chariot match-merge: -pgn needs a file name\n");
                goto out;
            }
            pgn_out = argv[++i];
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "-help") == 0 || strcmp(argv[i], "--help") == 0) {
            merge_usage(stdout);
            rc = 0;
            goto out;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "chariot match-merge: unknown option '%s'\n", argv[i]);
            merge_usage(stderr);
            goto out;
        } else if (!out) {
            out = argv[i];
        } else {
            inputs[input_count++] = argv[i];
        }
    }
    if (!out || input_count == 0) {
        fprintf(stderr, "chariot match-merge: needs OUT.json and at least one SHARD.json\n");
        merge_usage(stderr);
        goto out;
    }
    for (int i = 0; i < input_count; i++)
        if (strcmp(inputs[i], out) == 0) {
            fprintf(stderr, "chariot match-merge: the output %s is also an input\n", out);
            goto out;
        }
    st->shards = calloc(argc > 0 ? (size_t)argc : 1, sizeof *st->shards); /* at least one per input */
    if (!st->shards) {
        fprintf(stderr, "chariot match-merge: out of memory\n");
        rc = 1;
        goto out;
    }
    for (int i = 0; i < input_count; i++)
        if (!merge_load(st, inputs[i]))
            goto out;

    /* the games in game order, as a one-run summary adds them when played one at a time */
    qsort(st->records, (size_t)st->record_count, sizeof *st->records, merge_record_cmp);
    for (int i = 0; i < st->record_count; i++) {
        if (i > 0 && st->records[i].number == st->records[i - 1].number) {
            fprintf(stderr, "chariot match-merge: game %d appears in two shards; refusing to merge\n",
                    st->records[i].number);
            goto out;
        }
        if (!match_summary_add(&st->sum, &st->records[i])) {
            fprintf(stderr, "chariot match-merge: out of memory\n");
            rc = 1;
            goto out;
        }
    }
    st->sum.aborted = st->aborted;
    qsort(st->shards, (size_t)st->shard_count_given, sizeof *st->shards, merge_shard_cmp);
    merged = merge_index_list(st, true);
    missing = merge_index_list(st, false);
    if (!merged || !missing) {
        fprintf(stderr, "chariot match-merge: out of memory\n");
        rc = 1;
        goto out;
    }
    bool partial = st->shard_count_given < st->shard_count;
    for (int i = 0; i < st->shard_count_given; i++)
        partial |= st->shards[i].partial;

    if (pgn_out && !merge_write_pgn(st, pgn_out)) {
        rc = 2;
        goto out;
    }

    printf("Merged %d of %d shard(s) of configuration %s: %d of %d games\n", st->shard_count_given, st->shard_count,
           st->config_hash, st->sum.finished, st->total_games);
    if (partial) {
        printf("PARTIAL result:");
        if (st->shard_count_given < st->shard_count)
            printf(" missing shard(s) %s of 0..%d;", missing, st->shard_count - 1);
        for (int i = 0; i < st->shard_count_given; i++) {
            const MergeShard *sh = &st->shards[i];
            if (sh->partial)
                printf(" shard %d (%s) finished %d of its %d games;", sh->index, sh->path, sh->finished,
                       sh->expected);
        }
        printf(" the figures cover the games present only\n");
    }
    printf("\n");
    match_summary_print(&st->sum, st->runner_cpu);

    MatchJsonMeta m = {
        .event = st->event,
        .config = st->config,
        .config_hash = st->config_hash,
        .shard_index = -1,
        .shard_count = st->shard_count,
        .total_games = st->total_games,
        .expected_games = st->total_games,
        .shards_merged = merged,
        .shards_missing = missing,
        .partial = partial,
        .interrupted = st->interrupted,
        .pgn = pgn_out,
        .pgn_offset = 0,
        .runner_cpu = st->runner_cpu,
    };
    if (!match_summary_write_json(&st->sum, &m, out)) {
        fprintf(stderr, "chariot match-merge: cannot write %s\n", out);
        rc = 1;
        goto out;
    }
    rc = 0;
out:
    if (st) {
        for (int i = 0; st->shards && i < st->shard_count_given; i++)
            free(st->shards[i].numbers);
        free(st->shards);
        free(st->records);
        free(st->config);
        match_json_free(st->first_config);
        free(st->first_text);
        match_summary_free(&st->sum);
    }
    free(st);
    free(inputs);
    free(merged);
    free(missing);
    return rc;
}
