/* protocol.h — both sides of UCCI and the UCI dialect (ranks 0..9).
 * Server side: the engine loop a GUI talks to. Client side: driving an
 * external engine process (used by `chariot match`). */
#ifndef CHARIOT_PROTOCOL_H
#define CHARIOT_PROTOCOL_H

#include <stdio.h>

/* Runs the engine loop on in/out until `quit` or EOF. Returns the exit code. */
int protocol_serve(FILE *in, FILE *out);

#endif
