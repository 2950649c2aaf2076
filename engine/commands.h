/* commands.h — the subcommands of the chariot program, one entry point each.
 * Each returns the process exit code: 0 success, 1 failure, 2 bad input. */
#ifndef CHARIOT_COMMANDS_H
#define CHARIOT_COMMANDS_H

int cmd_perft(int argc, char **argv);
int cmd_perft_suite(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_search(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_match_merge(int argc, char **argv);
int cmd_book(int argc, char **argv);
int cmd_mate_bench(int argc, char **argv);
int cmd_datagen(int argc, char **argv);
int cmd_datagen_convert(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_train(int argc, char **argv);

#endif
