/* fuzz_fen.c — libFuzzer harness for board_from_fen: whatever it accepts must
 * validate and survive a FEN round trip; a rejection must say why. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool ready;
    static Board b, b2;
    static char text[4096];
    if (!ready) {
        board_init();
        ready = true;
    }
    if (size >= sizeof text)
        size = sizeof text - 1;
    memcpy(text, data, size);
    text[size] = '\0';
    char err[128] = "";
    if (!board_from_fen(&b, text, err, sizeof err)) {
        if (!err[0])
            abort();
        return 0;
    }
    char verr[128], fen[128];
    if (!board_validate(&b, verr, sizeof verr))
        abort();
    board_to_fen(&b, fen, sizeof fen);
    if (!board_from_fen(&b2, fen, err, sizeof err) || b2.key != b.key)
        abort();
    /* a few legal moves must keep the board consistent */
    MoveList list;
    board_generate(&b, GEN_ALL, &list);
    for (int i = 0; i < list.count && i < 8; i++) {
        board_make(&b, list.moves[i]);
        if (!board_validate(&b, verr, sizeof verr))
            abort();
        board_unmake(&b);
    }
    return 0;
}
