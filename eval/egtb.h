/* egtb.h — exact values of a few small endgames, built in memory on demand.
 *
 * The tables cover one attacking piece against the guards: a general with a
 * rook, a horse or a cannon, against a general with up to two advisors and
 * two elephants, and nothing else on the board (KR v KAABB and its smaller
 * cousins). Such endings are common at the end of games and in mate puzzles,
 * and their wins are long quiet manoeuvres, 20 to 30 moves deep, that a
 * search or a proof-number prover rarely finishes: a table answers them at
 * once.
 *
 * A table holds the distance to mate of every position, in plies, for the
 * side to move: a win or a loss in n plies, or a draw. It knows nothing of
 * the repetition rules or the natural limit; callers check the limit (see
 * egtb_probe), and a draw here is a draw under the plain rules.
 *
 * An Egtb is owned by one searcher. Each table is built the first time a
 * probe that may build it meets its material (KR v KAABB with the smaller
 * tables it reads: about 1.5 s, 21 MB while building, 3 MB kept). Probes
 * from several threads are safe: one builds, the others see no table until
 * it is ready.
 */
#ifndef CHARIOT_EGTB_H
#define CHARIOT_EGTB_H

#include <stdatomic.h>
#include <stdbool.h>

#include "board.h"

typedef struct Egtb Egtb;

/* A build looks at *abort now and then (every 65536 positions) and gives up
 * when it is set, leaving the table to a later build: a GUI's `stop` need
 * not wait for it. NULL: builds always finish. */
Egtb *egtb_new(const atomic_bool *abort);
void egtb_free(Egtb *tb);

/* True when b's material is one the tables cover (built or not). Cheap:
 * the search asks at every node. */
bool egtb_covers(const Board *b);

typedef enum EgtbWdl { EGTB_LOSS = -1, EGTB_DRAW = 0, EGTB_WIN = 1 } EgtbWdl;

typedef struct EgtbValue {
    EgtbWdl wdl;  /* for the side to move */
    int plies;    /* plies to mate with best play (0 when mated now); 0 for a draw */
} EgtbValue;

/* Looks b up. Returns false when its material is not covered, or its table
 * is not built and `build` is false (or another thread is building it).
 * With `build`, a missing table is built now, in the calling thread. */
bool egtb_probe(Egtb *tb, const Board *b, bool build, EgtbValue *out);

/* The move that keeps the table's value: the fastest mate for a win, the
 * longest defence for a loss, any move that keeps the draw. MOVE_NONE when b
 * is not covered, its table is not built, or b has no legal move. */
Move egtb_best_move(Egtb *tb, const Board *b);

/* For tests: the legal moves of b as the tables' own generator sees them,
 * in the board's orientation. Returns -1 when b is not covered. */
int egtb_test_moves(const Egtb *tb, const Board *b, Move *out);

#endif
