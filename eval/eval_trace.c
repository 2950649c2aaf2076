/* eval_trace.c — eval.c compiled again with every weight counted in an
 * EvalTrace, for the tuner (tune.h). Not used by the search. */
#define EVAL_TRACE 1
#include <string.h>

#include "eval.c"

int eval_trace_evaluate(const Board *b, EvalTrace *tr)
{
    memset(tr, 0, sizeof *tr);
    return eval_trace_evaluate_level(b, KNOW_FULL, tr);
}
