/* match_journal.c — a match's progress journal (one JSON line per finished game) and the PGN clean-up that resuming needs. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "match.h"
#include "os.h"

enum { MATCH_JOURNAL_VERSION = 1 };

static const char MATCH_JOURNAL_TAG[] = "chariot-match-journal";

/* Writes a line and makes sure it reached the file before the next game is
 * counted: the journal is what a restart believes. */
static bool match_journal_sync(FILE *f)
{
    if (fflush(f) != 0)
        return false;
    os_sync_file(f);
    return true;
}

FILE *match_journal_create(const char *path, const MatchJournalHeader *h)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    fprintf(f,
            "{\"journal\": \"%s\", \"version\": %d, \"config_hash\": \"%s\", \"games\": %d, \"shard\": %d, "
            "\"shards\": %d, \"pgn\": ",
            MATCH_JOURNAL_TAG, MATCH_JOURNAL_VERSION, h->config_hash, h->games, h->shard_index, h->shard_count);
    if (h->pgn[0])
        match_json_string(f, h->pgn);
    else
        fputs("null", f);
    fprintf(f, ", \"pgn_offset\": %lld}\n", h->pgn_offset);
    if (!match_journal_sync(f)) {
        fclose(f);
        return NULL;
    }
    return f;
}

bool match_journal_append(FILE *f, const MatchSummary *s, const MatchRecord *rec)
{
    match_record_write_json(f, s, rec);
    fputc('\n', f);
    return match_journal_sync(f);
}

static bool match_journal_header(const MatchJson *v, MatchJournalHeader *h)
{
    long long n;
    const char *tag = match_json_str(match_json_get(v, "journal"));
    const char *hash = match_json_str(match_json_get(v, "config_hash"));
    if (!tag || strcmp(tag, MATCH_JOURNAL_TAG) != 0 || !hash || strlen(hash) >= sizeof h->config_hash)
        return false;
    if (!match_json_ll(match_json_get(v, "version"), &n) || n != MATCH_JOURNAL_VERSION)
        return false;
    snprintf(h->config_hash, sizeof h->config_hash, "%s", hash);
    /* Optional: journals written before it lack it, and cannot raise -games. */
    h->games = match_json_ll(match_json_get(v, "games"), &n) && n > 0 && n <= INT_MAX ? (int)n : 0;
    if (!match_json_ll(match_json_get(v, "shard"), &n))
        return false;
    h->shard_index = (int)n;
    if (!match_json_ll(match_json_get(v, "shards"), &n))
        return false;
    h->shard_count = (int)n;
    const char *pgn = match_json_str(match_json_get(v, "pgn"));
    snprintf(h->pgn, sizeof h->pgn, "%s", pgn ? pgn : "");
    if (!match_json_ll(match_json_get(v, "pgn_offset"), &h->pgn_offset))
        return false;
    return true;
}

int match_journal_load(const char *path, int player_count, MatchJournalHeader *h, MatchRecord **recs, int *count,
                       char *err, size_t errlen)
{
    *recs = NULL;
    *count = 0;
    size_t len;
    char *text = match_file_read(path, &len);
    if (!text)
        return 0; /* no journal: a fresh start */
    int rc = -1, cap = 0, line_no = 0;
    size_t pos = 0, good_end = 0;
    bool have_header = false;
    while (pos < len) {
        char *nl = memchr(text + pos, '\n', len - pos);
        if (!nl)
            break; /* a torn last line: the run was killed while writing it */
        size_t end = (size_t)(nl - text);
        line_no++;
        char perr[128];
        MatchJson *v = match_json_parse(text + pos, end - pos, perr, sizeof perr);
        if (!v) {
            snprintf(err, errlen, "%s line %d is corrupt (%s)", path, line_no, perr);
            goto out;
        }
        if (!have_header) {
            bool ok = match_journal_header(v, h);
            match_json_free(v);
            if (!ok) {
                snprintf(err, errlen, "%s is not a chariot match journal", path);
                goto out;
            }
            have_header = true;
        } else {
            if (*count == cap) {
                cap = cap ? cap * 2 : 64;
                MatchRecord *grown = realloc(*recs, (size_t)cap * sizeof *grown);
                if (!grown) {
                    match_json_free(v);
                    snprintf(err, errlen, "out of memory");
                    goto out;
                }
                *recs = grown;
            }
            char rerr[128];
            bool ok = match_record_from_json(v, player_count, &(*recs)[*count], rerr, sizeof rerr);
            match_json_free(v);
            if (!ok) {
                snprintf(err, errlen, "%s line %d: %s", path, line_no, rerr);
                goto out;
            }
            (*count)++;
        }
        pos = end + 1;
        good_end = pos;
    }
    if (!have_header) {
        /* killed before the header was complete: nothing was recorded */
        rc = 0;
        goto out;
    }
    if (good_end < len && !os_truncate_file(path, (long long)good_end)) {
        snprintf(err, errlen, "cannot cut the torn last line of %s", path);
        goto out;
    }
    rc = 1;
out:
    free(text);
    if (rc <= 0) {
        free(*recs);
        *recs = NULL;
        *count = 0;
    }
    return rc;
}

/* ------------------------------------------------------------------- PGN */

/* The value of [Round "N"] inside a block, or -1. */
static int match_pgn_block_round(const char *s, size_t len)
{
    static const char key[] = "[Round \"";
    size_t k = sizeof key - 1;
    for (size_t i = 0; i + k < len; i++) {
        if ((i == 0 || s[i - 1] == '\n') && strncmp(s + i, key, k) == 0) {
            char *end;
            long v = strtol(s + i + k, &end, 10);
            return end != s + i + k && *end == '"' && v > 0 && v <= INT32_MAX ? (int)v : -1;
        }
        if (s[i] == '\n' && i + 1 < len && s[i + 1] == '\n')
            break; /* end of the tags */
    }
    return -1;
}

int match_pgn_blocks(const char *text, size_t len, MatchPgnBlock **out)
{
    static const char start[] = "[Event ";
    size_t k = sizeof start - 1;
    int count = 0, cap = 0;
    *out = NULL;
    size_t pos = 0;
    /* find the first game */
    while (pos < len && !(strncmp(text + pos, start, k) == 0 && (pos == 0 || text[pos - 1] == '\n')))
        pos++;
    while (pos < len) {
        size_t next = pos + 1;
        while (next < len && !(text[next - 1] == '\n' && strncmp(text + next, start, k) == 0))
            next++;
        if (count == cap) {
            cap = cap ? cap * 2 : 64;
            MatchPgnBlock *grown = realloc(*out, (size_t)cap * sizeof *grown);
            if (!grown) {
                free(*out);
                *out = NULL;
                return -1;
            }
            *out = grown;
        }
        MatchPgnBlock *b = &(*out)[count++];
        b->start = pos;
        b->len = next - pos;
        b->round = match_pgn_block_round(text + pos, b->len);
        /* our writer ends every game with its result and a blank line */
        b->complete = b->len >= 2 && text[next - 1] == '\n' && text[next - 2] == '\n';
        pos = next;
    }
    return count;
}

static int match_int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int match_pgn_keep_games(const char *path, long long offset, const int *numbers, int count, char *err, size_t errlen)
{
    size_t len;
    char *text = match_file_read(path, &len);
    if (!text)
        return count; /* no PGN at all: every game is missing from it */
    if (offset < 0 || (size_t)offset > len) {
        free(text);
        snprintf(err, errlen, "%s is shorter than when this match started; not touching it", path);
        return -1;
    }
    int *sorted = malloc(((size_t)count + 1) * sizeof *sorted);
    bool *kept = calloc((size_t)count + 1, sizeof *kept);
    MatchPgnBlock *blocks = NULL;
    int nblocks = match_pgn_blocks(text + offset, len - (size_t)offset, &blocks);
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = NULL;
    int missing = -1;
    if (!sorted || !kept || nblocks < 0) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    if (count)
        memcpy(sorted, numbers, (size_t)count * sizeof *sorted);
    qsort(sorted, (size_t)count, sizeof *sorted, match_int_cmp);
    f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s", tmp);
        goto out;
    }
    fwrite(text, 1, (size_t)offset, f);
    /* whatever stands before the first game of this run's part is kept too */
    size_t lead = nblocks > 0 ? blocks[0].start : 0;
    fwrite(text + offset, 1, lead, f);
    for (int i = 0; i < nblocks; i++) {
        const MatchPgnBlock *b = &blocks[i];
        int *hit = b->complete && b->round > 0 ? bsearch(&b->round, sorted, (size_t)count, sizeof *sorted, match_int_cmp)
                                               : NULL;
        if (!hit || kept[hit - sorted])
            continue; /* unfinished in the journal, torn, or a duplicate */
        kept[hit - sorted] = true;
        fwrite(text + offset + b->start, 1, b->len, f);
    }
    bool bad = ferror(f) != 0;
    if (fflush(f) != 0 || bad) {
        snprintf(err, errlen, "cannot write %s", tmp);
        goto out;
    }
    os_sync_file(f);
    fclose(f);
    f = NULL;
    if (rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot replace %s", path);
        goto out;
    }
    missing = 0;
    for (int i = 0; i < count; i++)
        missing += !kept[i];
out:
    if (f) {
        fclose(f);
        remove(tmp);
    }
    free(blocks);
    free(kept);
    free(sorted);
    free(text);
    return missing;
}
