/* tt.c — the transposition table shared by all search threads: allocation,
 * clearing, aging and the fill estimate. Probing and storing (lockless
 * buckets, depth-preferred replacement with aging, mate scores by ply) are
 * inline in search_internal.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "search_internal.h"

/* The data word's layout: see search_internal.h (TT_GEN_MASK, tt_data_*). */

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
