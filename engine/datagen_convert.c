/* datagen_convert.c — `chariot datagen-convert`: datagen files from text
 * lines to binary records and back (dgformat.h), and several files into one. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "dgformat.h"

#define DGC_USAGE                                                                                               \
    "usage: chariot datagen-convert IN [IN ...] OUT [--format text|bin]\n"                                     \
    "Reads datagen files of either format (told apart by their first bytes) and writes their\n"              \
    "positions, in order, to OUT: binary records when OUT ends in .bin or --format bin is given,\n"          \
    "'FEN | RESULT | SCORE' lines otherwise (docs/NNUE.md, \"Data format\").\n"

static bool dgc_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Copies every entry of one input to out. False with the reason printed. */
static bool dgc_copy(const char *path, FILE *out, bool binary, DgEntry *e, uint64_t *count)
{
    DgReader r;
    char err[320];
    if (!dg_reader_open(&r, path, err, sizeof err)) {
        fprintf(stderr, "datagen-convert: %s\n", err);
        return false;
    }
    bool ok = true;
    int got;
    while ((got = dg_reader_next(&r, e, err, sizeof err)) > 0) {
        if (binary) {
            DgRecord rec;
            char why[160];
            if (!dg_pack(&e->board, e->score_red, e->result, &rec, why, sizeof why)) {
                fprintf(stderr, "datagen-convert: %s: entry %" PRIu64 ": %s\n", path, r.index, why);
                ok = false;
                break;
            }
            ok = fwrite(rec.b, 1, DG_RECORD_SIZE, out) == DG_RECORD_SIZE;
        } else {
            char line[DG_LINE_MAX + 32];
            dg_format_line(e, line, sizeof line);
            ok = fprintf(out, "%s\n", line) > 0;
        }
        if (!ok) {
            fprintf(stderr, "datagen-convert: write error: %s\n", strerror(errno));
            break;
        }
        (*count)++;
    }
    if (got < 0) {
        fprintf(stderr, "datagen-convert: %s\n", err);
        ok = false;
    }
    dg_reader_close(&r);
    return ok;
}

int cmd_datagen_convert(int argc, char **argv)
{
    const char *paths[256];
    int npaths = 0;
    const char *format = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--format") == 0) {
            format = i + 1 < argc ? argv[++i] : NULL;
            if (!format || (strcmp(format, "text") != 0 && strcmp(format, "bin") != 0)) {
                fputs("datagen-convert: --format needs text or bin\n", stderr);
                return 2;
            }
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(DGC_USAGE, stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "datagen-convert: unknown argument '%s'\n%s", argv[i], DGC_USAGE);
            return 2;
        } else if (npaths == (int)(sizeof paths / sizeof paths[0])) {
            fputs("datagen-convert: too many files\n", stderr);
            return 2;
        } else {
            paths[npaths++] = argv[i];
        }
    }
    if (npaths < 2) {
        fputs("datagen-convert: needs an input and an output file\n" DGC_USAGE, stderr);
        return 2;
    }
    const char *out_path = paths[npaths - 1];
    for (int i = 0; i < npaths - 1; i++)
        if (strcmp(paths[i], out_path) == 0) {
            fprintf(stderr, "datagen-convert: %s is both an input and the output\n", out_path);
            return 2;
        }
    const bool binary = format ? strcmp(format, "bin") == 0 : dgc_ends_with(out_path, ".bin");
    FILE *out = fopen(out_path, "wb");
    if (!out) {
        fprintf(stderr, "datagen-convert: cannot write %s: %s\n", out_path, strerror(errno));
        return 1;
    }
    DgEntry *e = malloc(sizeof *e);
    uint8_t head[DG_HEADER_SIZE];
    DgHeader h;
    memset(&h, 0, sizeof h);
    dg_header_encode(&h, head); /* the count is filled in at the end */
    bool ok = e && (!binary || fwrite(head, 1, sizeof head, out) == sizeof head);
    uint64_t count = 0;
    for (int i = 0; ok && i < npaths - 1; i++)
        ok = dgc_copy(paths[i], out, binary, e, &count);
    if (ok && binary) {
        h.records = count;
        dg_header_encode(&h, head);
        ok = fseek(out, 0, SEEK_SET) == 0 && fwrite(head, 1, sizeof head, out) == sizeof head;
    }
    if (fclose(out) != 0)
        ok = false;
    free(e);
    if (!ok) {
        remove(out_path);
        fprintf(stderr, "datagen-convert: %s not written\n", out_path);
        return 1;
    }
    fprintf(stderr, "datagen-convert: %" PRIu64 " positions to %s (%s)\n", count, out_path, binary ? "binary" : "text");
    return 0;
}
