/* tt.c — the transposition table shared by all search threads: lockless
 * buckets, depth-preferred replacement with aging, mate scores by ply. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "search_internal.h"

/* The data word's layout: see search_internal.h (TT_GEN_MASK, tt_data_*). */

static uint64_t pack(Move move, int score, int eval, int depth, int bound, unsigned flags, int gen)
{
    return (uint64_t)move | (uint64_t)(uint16_t)(int16_t)score << 16 | (uint64_t)(uint16_t)(int16_t)eval << 32 |
           (uint64_t)(uint8_t)depth << 48 | (uint64_t)(bound & 3) << 56 | (uint64_t)(flags & TT_FLAG_MASK) << 58 |
           (uint64_t)(gen & TT_GEN_MASK) << 60;
}

bool tt_init(TT *tt, int mb)
{
    uint64_t bytes = (uint64_t)mb << 20;
    uint64_t n = 1;
    while (n * 2 * sizeof(TTBucket) <= bytes)
        n *= 2;
#if SIZE_MAX < UINT64_MAX
    if (n * sizeof(TTBucket) > SIZE_MAX)
        return false;
#endif
    /* Zeroed, aligned to a cache line at least (a bucket is one line), and
     * on huge pages where the system has them (see mem.h). */
    TTBucket *p = mem_large_alloc((size_t)(n * sizeof(TTBucket)), &tt->block);
    if (!p)
        return false;
    tt->buckets = p;
    tt->mask = n - 1;
    /* Already zero, but cleared now all the same: the page faults (and the
     * kernel's zeroing of each huge page) are paid when the size is set,
     * not in the first search of a game, on its clock. */
    tt_clear(tt);
    return true;
}

void tt_free(TT *tt)
{
    mem_large_free(&tt->block);
    tt->buckets = NULL;
    tt->mask = 0;
}

void tt_clear(TT *tt)
{
    memset(tt->buckets, 0, (size_t)((tt->mask + 1) * sizeof(TTBucket)));
    tt->generation = 0;
}

void tt_new_search(TT *tt) { tt->generation = (uint8_t)((tt->generation + 1) & TT_GEN_MASK); }

int tt_score_to(int score, int ply)
{
    if (score >= SCORE_MATE_MIN)
        return score + ply;
    if (score <= -SCORE_MATE_MIN)
        return score - ply;
    return score;
}

void tt_store(TT *tt, uint64_t key, int ply, Move move, int score, int eval, int depth, int bound, unsigned flags)
{
    const bool null_cut = (flags & TT_NULL_CUT) != 0;
    TTBucket *bk = &tt->buckets[key & tt->mask];
    int gen = tt->generation;
    TTSlot *victim = NULL;
    int victim_value = 1 << 30;
    if (depth < 0)
        depth = 0;
    if (depth > 255)
        depth = 255;
    /* Rule-verdict scores (perpetual check or chase) depend on the path to
     * the position: keep the move, never the score. */
    if (bound != TT_BOUND_NONE && score > -SCORE_MATE_MIN && score < SCORE_MATE_MIN &&
        (score >= SCORE_RULE_MIN || score <= -SCORE_RULE_MIN))
        bound = TT_BOUND_NONE;
    if (bound == TT_BOUND_NONE)
        score = 0;

    for (int i = 0; i < TT_BUCKET_SIZE; i++) {
        TTSlot *sl = &bk->slot[i];
        uint64_t d = atomic_load_explicit(&sl->data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&sl->check, memory_order_relaxed);
        if (d != 0 && (c ^ d) == key) {
            /* Same position: depth-preferred, but a newer search, an exact
             * score or an entry without a usable score always replace. */
            int old_bound = tt_data_bound(d);
            if (bound != TT_BOUND_EXACT && old_bound != TT_BOUND_NONE && tt_data_gen(d) == gen &&
                depth + 2 < tt_data_depth(d))
                return;
            if (move == MOVE_NONE && !null_cut)
                move = tt_data_move(d);
            /* Once on a principal variation, always: a shallower store
             * (quiescence, a null cut) does not make the position less
             * important. */
            flags |= tt_data_flags(d) & TT_PV;
            victim = sl;
            break;
        }
        int age = (gen - tt_data_gen(d)) & TT_GEN_MASK;
        int value = d == 0 ? -(1 << 20) : tt_data_depth(d) - TT_AGE_WEIGHT * age;
        if (value < victim_value) {
            victim_value = value;
            victim = sl;
        }
    }
    uint64_t data = pack(move, bound == TT_BOUND_NONE ? 0 : tt_score_to(score, ply), eval, depth, bound, flags, gen);
    if (data == 0)
        return; /* nothing worth keeping */
    atomic_store_explicit(&victim->data, data, memory_order_relaxed);
    atomic_store_explicit(&victim->check, key ^ data, memory_order_relaxed);
}

int tt_hashfull(const TT *tt)
{
    uint64_t n = tt->mask + 1 < 250 ? tt->mask + 1 : 250;
    int used = 0;
    for (uint64_t b = 0; b < n; b++)
        for (int i = 0; i < TT_BUCKET_SIZE; i++) {
            uint64_t d = atomic_load_explicit(&tt->buckets[b].slot[i].data, memory_order_relaxed);
            if (d != 0 && tt_data_gen(d) == tt->generation)
                used++;
        }
    return (int)(used * 1000 / (n * TT_BUCKET_SIZE));
}
