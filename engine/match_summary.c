/* match_summary.c — a match's statistics from its game records: totals, pairs, SPRT, the final table and the JSON summary. */
#include <stdlib.h>
#include <string.h>

#include "match.h"

/* cpu_seconds is written with this many significant digits so that a journal
 * or shard file reads back the very same double. */
enum { MATCH_DOUBLE_DIGITS = 17 };

bool match_summary_init(MatchSummary *s, int pair_count)
{
    memset(s, 0, sizeof *s);
    s->pair_count = pair_count;
    s->pair_points = calloc((size_t)pair_count + 1, sizeof *s->pair_points);
    s->pair_games = calloc((size_t)pair_count + 1, sizeof *s->pair_games);
    return s->pair_points && s->pair_games;
}

void match_summary_free(MatchSummary *s)
{
    free(s->pair_points);
    free(s->pair_games);
    free(s->records);
    s->pair_points = s->pair_games = NULL;
    s->records = NULL;
}

int match_totals_median_depth(const MatchTotals *t)
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

/* Points (in half points) of the red player. */
static int match_red_halfpoints(GameResult res)
{
    return res == RESULT_RED_WINS ? 2 : res == RESULT_DRAW ? 1 : 0;
}

static void match_summary_sprt(MatchSummary *s)
{
    const MatchSprt *sp = &s->sprt;
    int w = s->totals[0].wins, d = s->totals[0].draws, l = s->totals[0].losses;
    double lower, upper;
    match_sprt_bounds(sp->alpha, sp->beta, &lower, &upper);
    if (s->paired)
        s->llr = match_sprt_llr_pentanomial(s->penta, sp->elo0, sp->elo1);
    else
        s->llr = match_sprt_llr_trinomial(w, d, l, sp->elo0, sp->elo1);
    if (s->sprt_done || (s->llr < upper && s->llr > lower))
        return;
    s->sprt_done = true;
    snprintf(s->sprt_verdict, sizeof s->sprt_verdict, s->llr >= upper ? "H1 accepted" : "H0 accepted");
    s->llr_at_decision = s->llr;
    s->decided_after = s->paired ? s->pairs_done : w + d + l;
}

void match_summary_print_sprt(const MatchSummary *s)
{
    const MatchSprt *sp = &s->sprt;
    double lower, upper;
    match_sprt_bounds(sp->alpha, sp->beta, &lower, &upper);
    const MatchTotals *t = &s->totals[0];
    printf("SPRT: llr %.3f (%.3f, %.3f) [%g, %g] %s, %d %s%s%s\n", s->llr, lower, upper, sp->elo0, sp->elo1,
           s->paired ? "pentanomial" : "trinomial", s->paired ? s->pairs_done : t->wins + t->draws + t->losses,
           s->paired ? "game pairs" : "games", s->sprt_done ? ": " : "", s->sprt_done ? s->sprt_verdict : "");
}

void match_record_from_game(MatchRecord *rec, int number, const int p[2], int opening, int pair, const MatchGame *g)
{
    memset(rec, 0, sizeof *rec);
    rec->number = number;
    rec->p[0] = p[0];
    rec->p[1] = p[1];
    rec->opening = opening;
    rec->pair = pair;
    rec->result = g->result;
    rec->end = g->end;
    rec->loser = g->loser;
    rec->plies = g->plies;
    snprintf(rec->reason, sizeof rec->reason, "%s", g->reason);
    for (int c = 0; c < 2; c++) {
        rec->side[c] = g->side[c];
        rec->proto[c] = g->proto[c];
    }
}

bool match_summary_add(MatchSummary *s, const MatchRecord *rec)
{
    if (s->record_count == s->record_cap) {
        int cap = s->record_cap ? s->record_cap * 2 : 64;
        MatchRecord *grown = realloc(s->records, (size_t)cap * sizeof *grown);
        if (!grown)
            return false;
        s->records = grown;
        s->record_cap = cap;
    }
    s->records[s->record_count++] = *rec;
    s->finished++;

    for (int c = 0; c < 2; c++) {
        int pi = rec->p[c];
        MatchTotals *t = &s->totals[pi];
        const MatchSideStats *st = &rec->side[c];
        t->games++;
        bool won = (c == RED && rec->result == RESULT_RED_WINS) || (c == BLACK && rec->result == RESULT_BLACK_WINS);
        bool lost = (c == RED && rec->result == RESULT_BLACK_WINS) || (c == BLACK && rec->result == RESULT_RED_WINS);
        int *vs = s->vs[pi][rec->p[!c]];
        if (won)
            t->wins++, vs[0]++;
        else if (lost)
            t->losses++, vs[2]++;
        else
            t->draws++, vs[1]++;
        if (rec->loser == c) {
            t->time_losses += rec->end == MATCH_END_TIME;
            t->illegal += rec->end == MATCH_END_ILLEGAL;
            t->crashes += rec->end == MATCH_END_CRASH;
            t->nomoves += rec->end == MATCH_END_NOMOVE;
        }
        t->depth_sum += st->depth_sum;
        t->depth_count += st->depth_count;
        for (int d = 0; d < MATCH_DEPTH_BINS; d++)
            t->depth_hist[d] += st->depth_hist[d];
        t->nodes += st->nodes;
        t->node_time_ms += st->node_time_ms;
        t->think_ms += st->time_ms;
        t->moves += st->moves;
        t->cpu_seconds += st->cpu_seconds;
        t->ponders += st->ponders;
        t->ponder_hits += st->ponder_hits;
        if (s->proto[pi] == CLIENT_PROTO_AUTO && rec->proto[c] != CLIENT_PROTO_AUTO)
            s->proto[pi] = rec->proto[c];
    }

    if (rec->pair >= 0 && rec->pair < s->pair_count) {
        /* player 0's half points in this pair */
        int hp = match_red_halfpoints(rec->result);
        s->pair_points[rec->pair] += rec->p[0] == 0 ? hp : 2 - hp;
        if (++s->pair_games[rec->pair] == 2) {
            s->penta[s->pair_points[rec->pair]]++;
            s->pairs_done++;
        }
    }
    if (s->sprt.on)
        match_summary_sprt(s);
    return true;
}

/* ------------------------------------------------------------- the table */

static void match_print_elo(const char *label, const MatchElo *e)
{
    if (!e->valid)
        printf("%s: score %.1f%%, Elo not defined yet\n", label, 100 * e->score);
    else
        printf("%s: %.1f +/- %.1f (95%% interval %.1f .. %.1f), score %.1f%%\n", label, e->elo, e->error, e->lo,
               e->hi, 100 * e->score);
}

void match_summary_print(const MatchSummary *s, double runner_cpu)
{
    if (s->player_count == 2) {
        const MatchTotals *t = &s->totals[0];
        printf("Results of %s vs %s (%d games): %d - %d - %d (W - L - D)\n", s->name[0], s->name[1], t->games,
               t->wins, t->losses, t->draws);
        MatchElo tri = match_elo_trinomial(t->wins, t->draws, t->losses);
        match_print_elo("Elo difference (trinomial)", &tri);
        if (s->paired && s->pairs_done > 0) {
            MatchElo pen = match_elo_pentanomial(s->penta);
            match_print_elo("Elo difference (pentanomial)", &pen);
            printf("Game pairs [0, 0.5, 1, 1.5, 2 points]: %d %d %d %d %d\n", s->penta[0], s->penta[1], s->penta[2],
                   s->penta[3], s->penta[4]);
        }
        printf("LOS: %.1f%%\n", 100 * match_los(t->wins, t->losses));
        if (s->sprt.on) {
            double lower, upper;
            match_sprt_bounds(s->sprt.alpha, s->sprt.beta, &lower, &upper);
            printf("SPRT (%s, logistic Elo [%g, %g], alpha %g, beta %g): llr %.3f (%.3f, %.3f) %s\n",
                   s->paired ? "pentanomial over game pairs" : "trinomial", s->sprt.elo0, s->sprt.elo1,
                   s->sprt.alpha, s->sprt.beta, s->llr, lower, upper,
                   s->sprt_done ? s->sprt_verdict : "- no decision");
            if (s->sprt_done)
                printf("SPRT decided at llr %.3f after %d %s\n", s->llr_at_decision, s->decided_after,
                       s->paired ? "game pairs" : "games");
        }
    }
    printf("\n%-20s %6s %5s %5s %5s %6s %7s %5s %5s %5s %6s %8s %8s %9s %9s %8s\n", "Engine", "Games", "W", "D", "L",
           "Score", "Elo", "TimeL", "Illeg", "Crash", "NoMove", "AvgDepth", "MedDepth", "kNPS", "Think(s)", "CPU(s)");
    double engines_cpu = 0;
    for (int i = 0; i < s->player_count; i++) {
        const MatchTotals *t = &s->totals[i];
        MatchElo e = match_elo_trinomial(t->wins, t->draws, t->losses);
        char elo[16], depth[16], median[16], knps[16];
        if (e.valid)
            snprintf(elo, sizeof elo, "%+.0f", e.elo);
        else
            snprintf(elo, sizeof elo, "-");
        if (t->depth_count) {
            snprintf(depth, sizeof depth, "%.1f", (double)t->depth_sum / (double)t->depth_count);
            snprintf(median, sizeof median, "%d", match_totals_median_depth(t));
        } else {
            snprintf(depth, sizeof depth, "-");
            snprintf(median, sizeof median, "-");
        }
        if (t->node_time_ms > 0)
            snprintf(knps, sizeof knps, "%.1f", (double)t->nodes / (double)t->node_time_ms);
        else
            snprintf(knps, sizeof knps, "-");
        printf("%-20s %6d %5d %5d %5d %5.1f%% %7s %5d %5d %5d %6d %8s %8s %9s %9.1f %8.2f\n", s->name[i], t->games,
               t->wins, t->draws, t->losses, t->games ? 100.0 * (t->wins + 0.5 * t->draws) / t->games : 0.0, elo,
               t->time_losses, t->illegal, t->crashes, t->nomoves, depth, median, knps, (double)t->think_ms / 1000.0,
               t->cpu_seconds);
        engines_cpu += t->cpu_seconds;
    }
    for (int i = 0; i < s->player_count; i++) {
        const MatchTotals *t = &s->totals[i];
        if (t->ponders > 0)
            printf("%s pondered %lld times: %lld hits (%.1f%%)\n", s->name[i], (long long)t->ponders,
                   (long long)t->ponder_hits, 100.0 * (double)t->ponder_hits / (double)t->ponders);
    }
    printf("\nRunner CPU %.2f s, engines CPU %.2f s (runner = %.2f%% of engines)\n", runner_cpu, engines_cpu,
           engines_cpu > 0 ? 100.0 * runner_cpu / engines_cpu : 0.0);
    fflush(stdout);
}

/* --------------------------------------------------------------- records */

void match_record_write_json(FILE *f, const MatchSummary *s, const MatchRecord *rec)
{
    fprintf(f, "{\"number\": %d, \"red\": ", rec->number);
    match_json_string(f, s->name[rec->p[0]]);
    fputs(", \"black\": ", f);
    match_json_string(f, s->name[rec->p[1]]);
    fprintf(f, ", \"opening\": %d, \"result\": \"%s\", \"end\": \"%s\", \"plies\": %d, \"reason\": ", rec->opening + 1,
            match_result_string(rec->result), match_end_name(rec->end), rec->plies);
    match_json_string(f, rec->reason);
    fprintf(f, ", \"pair\": %d, \"players\": [%d, %d], \"loser\": \"%s\", \"proto\": [\"%s\", \"%s\"], \"stats\": [",
            rec->pair, rec->p[0], rec->p[1], rec->loser == RED ? "red" : rec->loser == BLACK ? "black" : "none",
            client_proto_name(rec->proto[0]), client_proto_name(rec->proto[1]));
    for (int c = 0; c < 2; c++) {
        const MatchSideStats *st = &rec->side[c];
        fprintf(f,
                "%s{\"moves\": %d, \"depth_sum\": %lld, \"depth_count\": %d, \"nodes\": %lld, \"node_time_ms\": %lld, "
                "\"time_ms\": %lld, \"cpu_seconds\": %.*g, \"depth_hist\": [",
                c ? ", " : "", st->moves, (long long)st->depth_sum, st->depth_count, (long long)st->nodes,
                (long long)st->node_time_ms, (long long)st->time_ms, MATCH_DOUBLE_DIGITS, st->cpu_seconds);
        /* sparse: [depth, moves] for the depths that occurred */
        bool first = true;
        for (int d = 0; d < MATCH_DEPTH_BINS; d++)
            if (st->depth_hist[d]) {
                fprintf(f, "%s[%d, %d]", first ? "" : ", ", d, st->depth_hist[d]);
                first = false;
            }
        fputc(']', f);
        /* only for engines that pondered, so that other records stay as they were */
        if (st->ponders > 0)
            fprintf(f, ", \"ponders\": %d, \"ponder_hits\": %d", st->ponders, st->ponder_hits);
        fputc('}', f);
    }
    fputs("]}", f);
}

static bool match_json_int_field(const MatchJson *obj, const char *key, long long lo, long long hi, long long *out,
                                 char *err, size_t errlen)
{
    if (!match_json_ll(match_json_get(obj, key), out) || *out < lo || *out > hi) {
        snprintf(err, errlen, "bad or missing \"%s\"", key);
        return false;
    }
    return true;
}

bool match_record_from_json(const MatchJson *v, int player_count, MatchRecord *rec, char *err, size_t errlen)
{
    memset(rec, 0, sizeof *rec);
    long long n;
    if (!v || v->type != MATCH_JSON_OBJECT) {
        snprintf(err, errlen, "a game record is not an object");
        return false;
    }
    if (!match_json_int_field(v, "number", 1, 100000000, &n, err, errlen))
        return false;
    rec->number = (int)n;
    if (!match_json_int_field(v, "opening", 1, 1000000000, &n, err, errlen))
        return false;
    rec->opening = (int)n - 1;
    if (!match_json_int_field(v, "plies", 0, 100000000, &n, err, errlen))
        return false;
    rec->plies = (int)n;
    if (!match_json_int_field(v, "pair", -1, 100000000, &n, err, errlen))
        return false;
    rec->pair = (int)n;
    const MatchJson *players = match_json_get(v, "players");
    for (int c = 0; c < 2; c++) {
        if (!match_json_ll(match_json_at(players, c), &n) || n < 0 || n >= player_count) {
            snprintf(err, errlen, "bad \"players\"");
            return false;
        }
        rec->p[c] = (int)n;
    }
    const char *res = match_json_str(match_json_get(v, "result"));
    static const GameResult results[] = {RESULT_RED_WINS, RESULT_BLACK_WINS, RESULT_DRAW};
    bool found = false;
    for (size_t i = 0; res && i < sizeof results / sizeof results[0]; i++)
        if (strcmp(res, match_result_string(results[i])) == 0) {
            rec->result = results[i];
            found = true;
        }
    if (!found) {
        snprintf(err, errlen, "bad \"result\"");
        return false;
    }
    const char *end = match_json_str(match_json_get(v, "end"));
    found = false;
    for (int e = MATCH_END_NONE; end && e <= MATCH_END_ABORTED; e++)
        if (strcmp(end, match_end_name((MatchEnd)e)) == 0) {
            rec->end = (MatchEnd)e;
            found = true;
        }
    if (!found) {
        snprintf(err, errlen, "bad \"end\"");
        return false;
    }
    const char *loser = match_json_str(match_json_get(v, "loser"));
    if (!loser || (strcmp(loser, "red") && strcmp(loser, "black") && strcmp(loser, "none"))) {
        snprintf(err, errlen, "bad \"loser\"");
        return false;
    }
    rec->loser = strcmp(loser, "red") == 0 ? RED : strcmp(loser, "black") == 0 ? BLACK : -1;
    const char *reason = match_json_str(match_json_get(v, "reason"));
    snprintf(rec->reason, sizeof rec->reason, "%s", reason ? reason : "");
    const MatchJson *proto = match_json_get(v, "proto"), *stats = match_json_get(v, "stats");
    for (int c = 0; c < 2; c++) {
        const char *pn = match_json_str(match_json_at(proto, c));
        if (!pn || !client_proto_parse(pn, &rec->proto[c])) {
            snprintf(err, errlen, "bad \"proto\"");
            return false;
        }
        const MatchJson *st = match_json_at(stats, c);
        MatchSideStats *side = &rec->side[c];
        if (!match_json_int_field(st, "moves", 0, 100000000, &n, err, errlen))
            return false;
        side->moves = (int)n;
        if (!match_json_int_field(st, "depth_sum", 0, INT64_MAX, &n, err, errlen))
            return false;
        side->depth_sum = n;
        if (!match_json_int_field(st, "depth_count", 0, 100000000, &n, err, errlen))
            return false;
        side->depth_count = (int)n;
        if (!match_json_int_field(st, "nodes", 0, INT64_MAX, &n, err, errlen))
            return false;
        side->nodes = n;
        if (!match_json_int_field(st, "node_time_ms", 0, INT64_MAX, &n, err, errlen))
            return false;
        side->node_time_ms = n;
        if (!match_json_int_field(st, "time_ms", 0, INT64_MAX, &n, err, errlen))
            return false;
        side->time_ms = n;
        if (!match_json_double(match_json_get(st, "cpu_seconds"), &side->cpu_seconds)) {
            snprintf(err, errlen, "bad \"cpu_seconds\"");
            return false;
        }
        /* absent when the engine did not ponder */
        if (match_json_get(st, "ponders")) {
            if (!match_json_int_field(st, "ponders", 0, 100000000, &n, err, errlen))
                return false;
            side->ponders = (int)n;
            if (!match_json_int_field(st, "ponder_hits", 0, side->ponders, &n, err, errlen))
                return false;
            side->ponder_hits = (int)n;
        }
        const MatchJson *hist = match_json_get(st, "depth_hist");
        if (!hist || hist->type != MATCH_JSON_ARRAY) {
            snprintf(err, errlen, "bad \"depth_hist\"");
            return false;
        }
        for (const MatchJson *h = hist->child; h; h = h->next) {
            long long d, count;
            if (!match_json_ll(match_json_at(h, 0), &d) || !match_json_ll(match_json_at(h, 1), &count) || d < 0 ||
                d >= MATCH_DEPTH_BINS || count < 0 || count > 100000000) {
                snprintf(err, errlen, "bad \"depth_hist\"");
                return false;
            }
            side->depth_hist[d] = (int)count;
        }
    }
    return true;
}

/* ------------------------------------------------------------------ JSON */

static int match_record_cmp(const void *a, const void *b)
{
    const MatchRecord *x = *(const MatchRecord *const *)a, *y = *(const MatchRecord *const *)b;
    return (x->number > y->number) - (x->number < y->number);
}

bool match_summary_write_json(const MatchSummary *s, const MatchJsonMeta *m, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    const MatchRecord **sorted = malloc(((size_t)s->record_count + 1) * sizeof *sorted);
    if (!sorted) {
        fclose(f);
        return false;
    }
    for (int i = 0; i < s->record_count; i++)
        sorted[i] = &s->records[i];
    qsort(sorted, (size_t)s->record_count, sizeof *sorted, match_record_cmp);

    fputs("{\n  \"event\": ", f);
    match_json_string(f, m->event);
    fprintf(f, ",\n  \"format\": \"%s\",\n  \"config_hash\": \"%s\",\n  \"config\": %s,\n", MATCH_JSON_FORMAT,
            m->config_hash, m->config);
    if (m->shard_index >= 0)
        fprintf(f, "  \"shard\": {\"index\": %d, \"count\": %d, ", m->shard_index, m->shard_count);
    else
        fprintf(f, "  \"shard\": {\"merged\": %s, \"missing\": %s, \"count\": %d, ", m->shards_merged,
                m->shards_missing, m->shard_count);
    fprintf(f, "\"total_games\": %d, \"expected_games\": %d, \"pair_count\": %d, \"paired\": %s},\n",
            m->total_games, m->expected_games, s->pair_count, s->paired ? "true" : "false");
    fprintf(f, "  \"partial\": %s,\n", m->partial ? "true" : "false");
    fputs("  \"pgn\": ", f);
    if (m->pgn)
        match_json_string(f, m->pgn);
    else
        fputs("null", f);
    fprintf(f, ",\n  \"pgn_offset\": %lld,\n", m->pgn_offset);
    fprintf(f, "  \"games_played\": %d,\n  \"games_aborted\": %d,\n  \"interrupted\": %s,\n", s->finished, s->aborted,
            m->interrupted ? "true" : "false");
    fputs("  \"engines\": [\n", f);
    double engines_cpu = 0;
    for (int i = 0; i < s->player_count; i++) {
        const MatchTotals *t = &s->totals[i];
        fputs("    {\"name\": ", f);
        match_json_string(f, s->name[i]);
        fputs(", \"cmd\": ", f);
        match_json_string(f, s->cmd[i]);
        fprintf(f, ", \"proto\": \"%s\", \"tc\": ", client_proto_name(s->proto[i]));
        match_json_string(f, s->tc_text[i]);
        fprintf(f,
                ", \"games\": %d, \"wins\": %d, \"draws\": %d, \"losses\": %d, \"score\": %.4f, \"time_losses\": %d, "
                "\"illegal_moves\": %d, \"crashes\": %d, \"no_moves\": %d, \"avg_depth\": %.2f, \"median_depth\": %d, "
                "\"knps\": %.1f, \"think_seconds\": %.3f, \"cpu_seconds\": %.3f",
                t->games, t->wins, t->draws, t->losses, t->games ? (t->wins + 0.5 * t->draws) / t->games : 0.0,
                t->time_losses, t->illegal, t->crashes, t->nomoves,
                t->depth_count ? (double)t->depth_sum / (double)t->depth_count : 0.0, match_totals_median_depth(t),
                t->node_time_ms ? (double)t->nodes / (double)t->node_time_ms : 0.0, (double)t->think_ms / 1000.0,
                t->cpu_seconds);
        if (t->ponders > 0)
            fprintf(f, ", \"ponders\": %lld, \"ponder_hits\": %lld", (long long)t->ponders,
                    (long long)t->ponder_hits);
        fprintf(f, "}%s\n", i + 1 < s->player_count ? "," : "");
        engines_cpu += t->cpu_seconds;
    }
    fputs("  ],\n", f);
    if (s->player_count == 2) {
        const MatchTotals *t = &s->totals[0];
        MatchElo e = match_elo_trinomial(t->wins, t->draws, t->losses);
        fprintf(f, "  \"elo\": {\"model\": \"trinomial\", \"valid\": %s, \"elo\": %.2f, \"error\": %.2f, \"los\": %.4f},\n",
                e.valid ? "true" : "false", e.valid ? e.elo : 0.0, e.valid ? e.error : 0.0,
                match_los(t->wins, t->losses));
        if (s->paired) {
            MatchElo p = match_elo_pentanomial(s->penta);
            fprintf(f,
                    "  \"pentanomial\": {\"pairs\": [%d, %d, %d, %d, %d], \"valid\": %s, \"elo\": %.2f, \"error\": %.2f},\n",
                    s->penta[0], s->penta[1], s->penta[2], s->penta[3], s->penta[4], p.valid ? "true" : "false",
                    p.valid ? p.elo : 0.0, p.valid ? p.error : 0.0);
        }
        if (s->sprt.on) {
            double lower, upper;
            match_sprt_bounds(s->sprt.alpha, s->sprt.beta, &lower, &upper);
            fprintf(f,
                    "  \"sprt\": {\"model\": \"%s\", \"elo0\": %g, \"elo1\": %g, \"alpha\": %g, \"beta\": %g, "
                    "\"llr\": %.4f, \"lower\": %.4f, \"upper\": %.4f, \"result\": \"%s\", "
                    "\"decision_llr\": %.4f, \"decided_after\": %d},\n",
                    s->paired ? "pentanomial" : "trinomial", s->sprt.elo0, s->sprt.elo1, s->sprt.alpha, s->sprt.beta,
                    s->llr, lower, upper, !s->sprt_done ? "none" : s->llr_at_decision > 0 ? "H1" : "H0",
                    s->sprt_done ? s->llr_at_decision : 0.0, s->sprt_done ? s->decided_after : 0);
        }
    }
    fprintf(f, "  \"runner_cpu_seconds\": %.3f,\n  \"engines_cpu_seconds\": %.3f,\n  \"pairs\": [", m->runner_cpu,
            engines_cpu);
    /* a pair's two games have consecutive numbers, so they are neighbours here */
    bool first = true;
    for (int i = 0; i + 1 < s->record_count; i++) {
        const MatchRecord *a = sorted[i], *b = sorted[i + 1];
        if (a->pair < 0 || a->pair != b->pair)
            continue;
        fprintf(f, "%s\n    {\"pair\": %d, \"games\": [%d, %d], \"results\": [\"%s\", \"%s\"], \"points\": %.1f}",
                first ? "" : ",", a->pair, a->number, b->number, match_result_string(a->result),
                match_result_string(b->result), s->pair_points[a->pair] / 2.0);
        first = false;
        i++;
    }
    fputs(first ? "],\n  \"games\": [" : "\n  ],\n  \"games\": [", f);
    for (int i = 0; i < s->record_count; i++) {
        fputs(i ? ",\n    " : "\n    ", f);
        match_record_write_json(f, s, sorted[i]);
    }
    fputs("\n  ]\n}\n", f);
    free(sorted);
    bool ok = !ferror(f);
    return fclose(f) == 0 && ok;
}

uint64_t match_fnv1a(uint64_t h, const void *data, size_t len)
{
    /* 64-bit FNV-1a: a fingerprint, not a defence against forgery */
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}
