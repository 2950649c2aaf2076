/* perft.c — `chariot perft` and `chariot perft-suite`: move-generator counts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "cli.h"
#include "commands.h"

/* Deepest perft a user can ask for; deeper would run for days. */
enum { PERFT_MAX_DEPTH = 12 };

int cmd_perft(int argc, char **argv)
{
    const char *fen = NULL, *depth_text = NULL;
    bool divide = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--divide") == 0)
            divide = true;
        else if (!fen)
            fen = argv[i];
        else if (!depth_text)
            depth_text = argv[i];
        else {
            fprintf(stderr, "chariot perft: unexpected argument '%.80s'\n", argv[i]);
            return 2;
        }
    }
    if (!fen || !depth_text) {
        fprintf(stderr, "usage: chariot perft \"<FEN>\"|startpos DEPTH [--divide]\n");
        return 2;
    }
    long long depth;
    if (!cli_parse_ll(depth_text, 0, PERFT_MAX_DEPTH, &depth)) {
        fprintf(stderr, "chariot perft: bad depth '%.40s' (expected 0..%d)\n", depth_text, PERFT_MAX_DEPTH);
        return 2;
    }
    static Board b;
    char err[160];
    if (!board_from_fen(&b, fen, err, sizeof err)) {
        fprintf(stderr, "chariot perft: bad FEN: %s\n", err);
        return 2;
    }
    double t0 = cli_now_seconds();
    uint64_t total = 0;
    if (divide && depth > 0) {
        MoveList l;
        board_generate(&b, GEN_ALL, &l);
        for (int i = 0; i < l.count; i++) {
            board_make(&b, l.moves[i]);
            uint64_t n = board_perft(&b, (int)depth - 1);
            board_unmake(&b);
            char mv[5];
            move_to_iccs(l.moves[i], mv);
            printf("%s: %llu\n", mv, (unsigned long long)n);
            total += n;
        }
    } else {
        total = board_perft(&b, (int)depth);
    }
    double dt = cli_now_seconds() - t0;
    printf("Nodes: %llu\n", (unsigned long long)total);
    printf("Time: %.3f s\n", dt);
    printf("NPS: %.0f\n", dt > 0 ? (double)total / dt : 0.0);
    return 0;
}

/* One parsed line of a perft EPD file. */
typedef struct PerftLine {
    char fen[256];
    int depths;
    uint64_t expected[PERFT_MAX_DEPTH + 1];
} PerftLine;

/* "<FEN> ;D1 n ;D2 n ..." -> PerftLine. Returns false on a malformed line. */
static bool parse_perft_line(const char *line, PerftLine *out, char *err, size_t errlen)
{
    const char *semi = strchr(line, ';');
    if (!semi) {
        snprintf(err, errlen, "no ';D<depth> <count>' fields");
        return false;
    }
    size_t n = (size_t)(semi - line);
    while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
        n--;
    if (n == 0 || n >= sizeof out->fen) {
        snprintf(err, errlen, "missing or overlong FEN");
        return false;
    }
    memcpy(out->fen, line, n);
    out->fen[n] = 0;
    out->depths = 0;
    for (const char *p = semi; p && *p == ';'; p = strchr(p + 1, ';')) {
        int d;
        unsigned long long cnt;
        if (sscanf(p + 1, " D%d %llu", &d, &cnt) != 2 || d < 1 || d > PERFT_MAX_DEPTH || d != out->depths + 1) {
            snprintf(err, errlen, "bad depth field '%.30s'", p);
            return false;
        }
        out->expected[d] = cnt;
        out->depths = d;
    }
    return true;
}

int cmd_perft_suite(int argc, char **argv)
{
    const char *path = NULL;
    long long max_nodes = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--max-nodes") == 0) {
            if (i + 1 >= argc || !cli_parse_ll(argv[i + 1], 1, 1000000000000LL, &max_nodes)) {
                fprintf(stderr, "chariot perft-suite: --max-nodes needs a positive number\n");
                return 2;
            }
            i++;
        } else if (!path) {
            path = argv[i];
        } else {
            fprintf(stderr, "chariot perft-suite: unexpected argument '%.80s'\n", argv[i]);
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: chariot perft-suite FILE [--max-nodes N]\n");
        return 2;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "chariot perft-suite: cannot open '%s': %s\n", path, strerror(errno));
        return 2;
    }
    static Board b;
    char line[1024], err[160];
    int lineno = 0, positions = 0, checked = 0, skipped = 0, failed = 0, malformed = 0;
    double t_all = cli_now_seconds();
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        const char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || *s == '#')
            continue;
        PerftLine pl;
        if (!parse_perft_line(s, &pl, err, sizeof err)) {
            fprintf(stderr, "line %d: malformed: %s\n", lineno, err);
            malformed++;
            continue;
        }
        if (!board_from_fen(&b, pl.fen, err, sizeof err)) {
            fprintf(stderr, "line %d: bad FEN: %s\n", lineno, err);
            malformed++;
            continue;
        }
        positions++;
        bool ok = true;
        int deepest = 0;
        double t0 = cli_now_seconds();
        for (int d = 1; d <= pl.depths; d++) {
            if (max_nodes && pl.expected[d] > (uint64_t)max_nodes) {
                skipped++;
                continue;
            }
            uint64_t got = board_perft(&b, d);
            checked++;
            deepest = d;
            if (got != pl.expected[d]) {
                printf("FAIL #%d (line %d) D%d expected %llu got %llu  %s\n", positions, lineno, d,
                       (unsigned long long)pl.expected[d], (unsigned long long)got, pl.fen);
                ok = false;
                failed++;
            }
        }
        if (ok)
            printf("ok   #%d (line %d) up to D%d = %llu in %.2fs  %s\n", positions, lineno, deepest,
                   (unsigned long long)(deepest ? pl.expected[deepest] : 0), cli_now_seconds() - t0, pl.fen);
        fflush(stdout);
    }
    fclose(f);
    printf("perft-suite: %d positions, %d depths checked, %d skipped over --max-nodes, %d failed, %d malformed, "
           "%.2fs\n",
           positions, checked, skipped, failed, malformed, cli_now_seconds() - t_all);
    if (failed)
        return 1;
    return malformed || positions == 0 ? 2 : 0;
}
