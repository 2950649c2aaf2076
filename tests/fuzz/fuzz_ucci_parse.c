/* fuzz_ucci_parse.c — libFuzzer harness for the UCCI/UCI line parser
 * (build with -DCHARIOT_FUZZ=ON and clang; run ./fuzz_ucci_parse [corpus]). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool cstr_ok(const char *s, size_t cap) { return memchr(s, '\0', cap) != NULL; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static UcciCommand cmd;
    ucci_parse_line((const char *)data, size, &cmd);
    /* The invariants the server relies on; a violation aborts the run. */
    if (cmd.type < UCCI_CMD_EMPTY || cmd.type > UCCI_CMD_QUIT)
        abort();
    if (!cstr_ok(cmd.err, sizeof cmd.err) || !cstr_ok(cmd.fen, sizeof cmd.fen) ||
        !cstr_ok(cmd.name, sizeof cmd.name) || !cstr_ok(cmd.value, sizeof cmd.value))
        abort();
    if (cmd.type == UCCI_CMD_ERROR && !cmd.err[0])
        abort();
    for (const char *p = cmd.err; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7F)
            abort();
    if (cmd.move_count < 0 || cmd.move_count > UCCI_LIST_MAX)
        abort();
    for (int i = 0; i < cmd.move_count; i++)
        if (move_from(cmd.moves[i]) >= SQ_NB || move_to(cmd.moves[i]) >= SQ_NB)
            abort();
    if (cmd.type == UCCI_CMD_BANMOVES && cmd.move_count > MAX_MOVES)
        abort();
    return 0;
}
