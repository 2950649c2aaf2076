/* main.c — the chariot program: with no arguments the UCCI/UCI engine loop a
 * GUI starts; otherwise one of the subcommands listed in usage(). */
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "commands.h"
#include "eval.h"
#include "os.h"
#include "protocol.h"

static void usage(FILE *f)
{
    fputs("usage: chariot                         UCCI/UCI engine on stdin/stdout (what a GUI runs)\n"
          "       chariot perft FEN|startpos DEPTH [--divide]\n"
          "       chariot perft-suite FILE [--max-nodes N]\n"
          "       chariot bench [DEPTH] [--stats]\n"
          "       chariot search FEN|startpos [--depth D | --movetime MS | --nodes N] [--multipv K] [--threads T]\n"
          "       chariot solve FEN|FILE.epd [--movetime MS] [--depth D] [--threads T] [--hash MB] [--json OUT] [--quiet]\n"
          "       chariot match -engine ... -engine ... [options] [-shard I/N]   (see README.md)\n"
          "       chariot match-merge OUT.json SHARD.json... [-pgn OUT.pgn]   (see docs/DISTRIBUTED.md)\n"
          "       chariot book show BOOK.DAT FEN|startpos\n"
          "       chariot datagen -o FILE [--format text|bin] [--games N] [--positions N] [--nodes N] [--seed S]\n"
          "       chariot datagen-convert IN... OUT [--format text|bin]\n"
          "       chariot tune DATA.txt... -o WEIGHTS.h [--epochs N] [--lambda L] [--lr X] [--k K] [--threads T]\n"
          "       chariot train DATA... -o NET [--epochs N] [--batch N] [--lr X] [--threads T] [--seed S] [--resume]\n"
          "       chariot mate-bench FILE.epd [--engine CMD] [--proto P] [--movetime MS] [--option N=V]...\n"
          "       chariot --version\n"
          "       chariot help\n",
          f);
}

int main(int argc, char **argv)
{
    board_init();
    eval_init();
    if (argc < 2) {
        os_binary_stdin();
        return protocol_serve(stdin, stdout);
    }

    const char *cmd = argv[1];
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } commands[] = {
        {"perft", cmd_perft},   {"perft-suite", cmd_perft_suite}, {"bench", cmd_bench},
        {"search", cmd_search}, {"solve", cmd_solve},             {"match", cmd_match},
        {"match-merge", cmd_match_merge}, {"book", cmd_book}, {"mate-bench", cmd_mate_bench},
        {"datagen", cmd_datagen}, {"datagen-convert", cmd_datagen_convert}, {"tune", cmd_tune}, {"train", cmd_train},
    };
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("Chariot %s\n", CHARIOT_VERSION);
        return 0;
    }
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "chariot: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
