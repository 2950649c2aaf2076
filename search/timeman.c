/* timeman.c — the clock: how long one move may take (soft and hard limits)
 * from movetime or time/increment/movestogo, and a monotonic millisecond clock. */
#define _POSIX_C_SOURCE 200809L

#include <time.h>

#include "search_internal.h"

int64_t tm_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void tm_init(TimeManager *tm, const SearchLimits *l, int move_overhead_ms, int fullmove)
{
    tm->soft_ms = tm->hard_ms = 0;
    tm->timed = false;
    if (l->movetime_ms > 0) {
        /* "Search exactly this long": one limit, minus the transport overhead. */
        int64_t t = l->movetime_ms - move_overhead_ms;
        if (t < 1)
            t = 1;
        tm->soft_ms = tm->hard_ms = t;
        tm->timed = true;
    }
    if (l->use_clock) {
        /* Leave the overhead and a reserve for a host that stalls the
         * engine aside (TM_RESERVE_MS), and never plan with less than 1 ms. */
        int64_t avail = l->time_ms - move_overhead_ms - TM_RESERVE_MS;
        if (avail < 1)
            avail = 1;
        int mtg = l->movestogo;
        if (mtg <= 0) {
            mtg = TM_GAME_MOVES - fullmove;
            mtg = mtg < TM_SUDDEN_MIN ? TM_SUDDEN_MIN : mtg > TM_SUDDEN_MAX ? TM_SUDDEN_MAX : mtg;
        }
        if (mtg > TM_MOVES_MAX)
            mtg = TM_MOVES_MAX;
        int64_t inc = l->inc_ms > 0 ? l->inc_ms : 0;
        int64_t soft = avail / mtg + inc * TM_INC_PERCENT / 100;
        int64_t hard = soft * TM_HARD_FACTOR;
        /* The increment arrives only after the move: cap by what is left now. */
        int64_t cap = avail * TM_HARD_MAX_PERCENT / 100;
        if (l->movestogo == 1)
            cap = avail * 9 / 10;
        if (hard > cap)
            hard = cap;
        if (soft > hard)
            soft = hard;
        if (hard < 1)
            hard = 1;
        if (soft < 1)
            soft = 1;
        if (!tm->timed || hard < tm->hard_ms) {
            tm->hard_ms = hard;
            tm->soft_ms = tm->timed && soft > tm->soft_ms ? tm->soft_ms : soft;
        }
        tm->timed = true;
    }
}

int64_t tm_soft_scaled(const TimeManager *tm, const TmSignals *sig)
{
    /* Each factor in percent, applied in turn (int64_t: no overflow). */
    int64_t unstable = 100 + (int64_t)TM_UNSTABLE_PERCENT * sig->changes_x100 / 100;
    int64_t stable = sig->stable_iters >= TM_STABLE_ITERS ? TM_STABLE_PERCENT : 100;
    int64_t trend = 100 + (int64_t)TM_TREND_PER_CP * sig->score_drop;
    if (trend < TM_TREND_MIN)
        trend = TM_TREND_MIN;
    if (trend > TM_TREND_MAX)
        trend = TM_TREND_MAX;
    int64_t effort = sig->best_share_pct >= TM_EFFORT_SHARE ? TM_EFFORT_CUT_PERCENT : 100;
    int64_t t = tm->soft_ms * TM_SOFT_PERCENT / 100 * unstable / 100 * stable / 100 * trend / 100 * effort / 100;
    return t < tm->hard_ms ? t : tm->hard_ms;
}
