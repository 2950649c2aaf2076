/* book.c — `chariot book show BOOK.DAT FEN|startpos`: lists the book moves of
 * a position with their weights, in the order and form the engine uses. */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "commands.h"
#include "search.h"

static int book_usage(void)
{
    fprintf(stderr, "usage: chariot book show BOOK.DAT FEN|startpos\n");
    return 2;
}

static int book_show(const char *path, const char *where)
{
    Board b;
    char err[512];
    if (strcmp(where, "startpos") == 0) {
        board_startpos(&b);
    } else if (!board_from_fen(&b, where, err, sizeof err)) {
        fprintf(stderr, "chariot book: bad FEN: %s\n", err);
        return 2;
    }
    Book *bk = book_open(path, err, sizeof err);
    if (!bk) {
        fprintf(stderr, "chariot book: %s\n", err);
        return 1;
    }
    BookMove mv[MAX_MOVES];
    int n = book_probe(bk, &b, mv, MAX_MOVES);
    int total = 0;
    for (int i = 0; i < n; i++)
        total += mv[i].weight;
    printf("%zu records; %d book move%s for this position\n", bk->count, n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        char iccs[5], cn[32];
        move_to_iccs(mv[i].move, iccs);
        if (!board_move_to_chinese(&b, mv[i].move, cn, sizeof cn))
            snprintf(cn, sizeof cn, "?");
        printf("%-5s %-12s weight %5d  %5.1f%%\n", iccs, cn, mv[i].weight, 100.0 * mv[i].weight / total);
    }
    book_free(bk);
    return 0;
}

int cmd_book(int argc, char **argv)
{
    /* argv[0] is "book". */
    if (argc == 4 && strcmp(argv[1], "show") == 0)
        return book_show(argv[2], argv[3]);
    return book_usage();
}
