/* solve_report.c — what `chariot solve` prints: the board diagram, the main
 * line in three notations, result columns, the summary and the JSON report. */
#include <stdlib.h>
#include <string.h>

#include "solve.h"

/* Black counts files from its own right (Red's left, file a) in full-width
 * digits; Red counts from its right (file i) in Chinese numerals. */
static const char *const BLACK_FILE_NAMES[FILE_NB] = {"１", "２", "３", "４", "５", "６", "７", "８", "９"};
static const char *const RED_FILE_NAMES[FILE_NB] = {"九", "八", "七", "六", "五", "四", "三", "二", "一"};

/* An empty point: a centred full-width dot, which cannot be mistaken for 士. */
static const char *const EMPTY_POINT = "・";

static const char *const ANSI_RED = "\033[31m";
static const char *const ANSI_BOLD = "\033[1m";
static const char *const ANSI_RESET = "\033[0m";

void solve_format_score(int score, char *out, size_t outlen)
{
    if (score_is_mate(score)) {
        int n = score_mate_moves(score);
        if (n > 0)
            snprintf(out, outlen, "mate in %d", n);
        else
            snprintf(out, outlen, "mated in %d", -n);
    } else if (score >= SCORE_RULE_MIN) {
        snprintf(out, outlen, "rule win in %d plies", SCORE_RULE_WIN - score);
    } else if (score <= -SCORE_RULE_MIN) {
        snprintf(out, outlen, "rule loss in %d plies", SCORE_RULE_WIN + score);
    } else {
        snprintf(out, outlen, "%+d cp", score);
    }
}

void solve_format_seconds(int64_t ms, char *out, size_t outlen)
{
    snprintf(out, outlen, "%lld.%03llds", (long long)(ms / 1000), (long long)(ms % 1000));
}

void solve_print_board(FILE *f, const Board *b, bool color)
{
    // Every point is 4 columns wide: a full-width glyph between two markers,
    // "(车)" for Red and "[车]" for Black, since 马车炮 are written alike.
    fputs("   ", f);
    for (int file = 0; file < FILE_NB; file++)
        fprintf(f, " %s ", BLACK_FILE_NAMES[file]);
    fputc('\n', f);
    for (int rank = RANK_NB - 1; rank >= 0; rank--) {
        if (rank == 4)
            fputs("   ----------- 楚 河  汉 界 -----------\n", f);
        fprintf(f, "%2d ", rank);
        for (int file = 0; file < FILE_NB; file++) {
            Piece pc = b->sq[sq_make(file, rank)];
            if (pc == PIECE_NONE) {
                fprintf(f, " %s ", EMPTY_POINT);
                continue;
            }
            bool red = piece_color(pc) == RED;
            const char *on = color ? (red ? ANSI_RED : ANSI_BOLD) : "";
            fprintf(f, "%s%c%s%c%s", on, red ? '(' : '[', board_piece_chinese(pc), red ? ')' : ']',
                    color ? ANSI_RESET : "");
        }
        fprintf(f, " %d\n", rank);
    }
    fputs("   ", f);
    for (int file = 0; file < FILE_NB; file++)
        fprintf(f, " %s ", RED_FILE_NAMES[file]);
    fputc('\n', f);
    fputs("   ", f);
    for (int file = 0; file < FILE_NB; file++)
        fprintf(f, "  %c ", 'a' + file);
    fputs("\n   Red (帅) below, Black [将] above\n", f);
}

void solve_print_line(FILE *f, const Board *root, const Move *pv, int pv_len)
{
    // Board is large (its history); one copy serves the whole line.
    Board *b = malloc(sizeof *b);
    if (!b)
        return;
    *b = *root;
    int number = 1;
    for (int i = 0; i < pv_len; i++) {
        char iccs[5], wxf[8] = "?", chinese[32] = "?", num[16];
        move_to_iccs(pv[i], iccs);
        board_move_to_wxf(b, pv[i], wxf, sizeof wxf);
        board_move_to_chinese(b, pv[i], chinese, sizeof chinese);
        snprintf(num, sizeof num, "%d.%s", number, b->side == BLACK ? ".." : "");
        fprintf(f, "  %-6s %-5s %-7s %s\n", num, iccs, wxf, chinese);
        if (b->side == BLACK)
            number++;
        board_make(b, pv[i]);
    }
    free(b);
}

void solve_format_expected(const SolvePuzzle *p, char *out, size_t outlen)
{
    if (p->mate > 0) {
        snprintf(out, outlen, "mate %d", p->mate);
        return;
    }
    if (p->bm_count == 0) {
        snprintf(out, outlen, "-");
        return;
    }
    size_t len = (size_t)snprintf(out, outlen, "bm");
    for (int i = 0; i < p->bm_count && len + 6 < outlen; i++) {
        char iccs[5];
        move_to_iccs(p->bm[i], iccs);
        len += (size_t)snprintf(out + len, outlen - len, " %s", iccs);
    }
}

void solve_format_found(const SolveOutcome *o, char *out, size_t outlen)
{
    const SearchResult *r = &o->result;
    if (r->best == MOVE_NONE) {
        snprintf(out, outlen, "no move");
        return;
    }
    char iccs[5], score[24];
    move_to_iccs(r->best, iccs);
    if (score_is_mate(r->score))
        snprintf(score, sizeof score, "%smate %d", r->score > 0 ? "" : "-", abs(score_mate_moves(r->score)));
    else if (r->score >= SCORE_RULE_MIN || r->score <= -SCORE_RULE_MIN)
        snprintf(score, sizeof score, "rule %s", r->score > 0 ? "win" : "loss");
    else
        snprintf(score, sizeof score, "%+dcp", r->score);
    snprintf(out, outlen, "%s %s", score, iccs);
}

static int compare_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

void solve_summarize(const SolveOutcome *o, int n, SolveSummary *s)
{
    memset(s, 0, sizeof *s);
    s->median_ms = -1;
    s->p90_ms = -1;
    int64_t *times = malloc(sizeof *times * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++) {
        s->time_ms += o[i].time_ms;
        s->nodes += o[i].result.nodes;
        if (!o[i].scored) {
            s->unscored++;
            continue;
        }
        s->total++;
        if (!o[i].solved)
            continue;
        if (times)
            times[s->solved] = o[i].solve_ms;
        s->solved++;
        if (o[i].solve_ms <= 1000)
            s->within_1s++;
    }
    if (times && s->solved > 0) {
        qsort(times, (size_t)s->solved, sizeof *times, compare_i64);
        int h = s->solved / 2;
        s->median_ms = s->solved % 2 ? times[h] : (times[h - 1] + times[h]) / 2;
        /* Nearest rank: the smallest time that 90% of the solved reach. */
        s->p90_ms = times[(9 * s->solved + 9) / 10 - 1];
    }
    free(times);
}

/* ------------------------------------------------------------------ JSON */

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            fprintf(f, "\\%c", *c);
        else if (*c < 0x20)
            fprintf(f, "\\u%04x", *c);
        else
            fputc(*c, f); // UTF-8 passes through unchanged
    }
    fputc('"', f);
}

static void json_moves(FILE *f, const Move *m, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++) {
        char iccs[5];
        move_to_iccs(m[i], iccs);
        fprintf(f, "%s\"%s\"", i ? ", " : "", iccs);
    }
    fputc(']', f);
}

static void json_ms_or_null(FILE *f, int64_t ms)
{
    if (ms < 0)
        fputs("null", f);
    else
        fprintf(f, "%lld", (long long)ms);
}

static void json_puzzle(FILE *f, const SolvePuzzle *p, const SolveOutcome *o)
{
    const SearchResult *r = &o->result;
    fputs("    {\"id\": ", f);
    json_string(f, p->id);
    fprintf(f, ", \"line\": %d, \"fen\": ", p->line);
    json_string(f, p->fen);
    fputs(",\n     \"expected_mate\": ", f);
    if (p->mate > 0)
        fprintf(f, "%d", p->mate);
    else
        fputs("null", f);
    fputs(", \"bm\": ", f);
    json_moves(f, p->bm, p->bm_count);
    fputs(",\n     \"found_move\": ", f);
    if (r->best != MOVE_NONE) {
        char iccs[5];
        move_to_iccs(r->best, iccs);
        fprintf(f, "\"%s\"", iccs);
    } else {
        fputs("null", f);
    }
    fprintf(f, ", \"score\": %d, \"found_mate\": ", r->score);
    if (score_is_mate(r->score))
        fprintf(f, "%d", score_mate_moves(r->score));
    else
        fputs("null", f);
    fprintf(f, ", \"in_bm\": %s, \"depth\": %d, \"seldepth\": %d, \"nodes\": %llu, \"time_ms\": %lld,\n",
            o->best_in_bm ? "true" : "false", r->depth, r->seldepth, (unsigned long long)r->nodes,
            (long long)o->time_ms);
    fputs("     \"solve_ms\": ", f);
    json_ms_or_null(f, o->solved ? o->solve_ms : -1);
    fprintf(f, ", \"solved\": %s, \"pv_mates\": %s, \"pv\": ", o->scored ? (o->solved ? "true" : "false") : "null",
            o->pv_mates ? "true" : "false");
    json_moves(f, r->pv, o->pv_legal);
    fputc('}', f);
}

bool solve_write_json(FILE *f, const SolveSettings *s, const SolvePuzzle *p, const SolveOutcome *o, int n,
                      const SolveSkipped *skipped, int skipped_count)
{
    SolveSummary sum;
    solve_summarize(o, n, &sum);
    fprintf(f,
            "{\n  \"settings\": {\"movetime_ms\": %lld, \"depth\": %d, \"nodes\": %llu, \"threads\": %d, "
            "\"hash_mb\": %d},\n",
            (long long)s->movetime_ms, s->depth, (unsigned long long)s->nodes, s->threads, s->hash_mb);
    fputs("  \"puzzles\": [\n", f);
    for (int i = 0; i < n; i++) {
        json_puzzle(f, &p[i], &o[i]);
        fputs(i + 1 < n ? ",\n" : "\n", f);
    }
    fputs("  ],\n  \"skipped\": [", f);
    for (int i = 0; i < skipped_count; i++) {
        fprintf(f, "%s{\"line\": %d, \"error\": ", i ? ", " : "", skipped[i].line);
        json_string(f, skipped[i].error);
        fputc('}', f);
    }
    fprintf(f,
            "],\n  \"summary\": {\"total\": %d, \"solved\": %d, \"failed\": %d, \"unscored\": %d, \"skipped_lines\": %d,"
            " \"solved_within_1s\": %d, \"median_solve_ms\": ",
            sum.total, sum.solved, sum.total - sum.solved, sum.unscored, skipped_count, sum.within_1s);
    json_ms_or_null(f, sum.median_ms);
    fputs(", \"p90_solve_ms\": ", f);
    json_ms_or_null(f, sum.p90_ms);
    fprintf(f, ", \"time_ms\": %lld, \"nodes\": %llu}\n}\n", (long long)sum.time_ms, (unsigned long long)sum.nodes);
    return !ferror(f);
}
