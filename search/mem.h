/* mem.h — large zeroed tables (the TT, the mate prover's table), the search
 * library's one contact with the operating system.
 *
 * Both tables are read at random, so on a system with 4 KB pages nearly
 * every probe misses the TLB as well as the cache. Where the system offers
 * transparent huge pages (Linux with THP in "madvise" mode, the common
 * default), the block is aligned to a huge page and asked for them:
XX
 * with the prover's 64 MB table on huge pages. Elsewhere the block is plain
 * zeroed memory. mem_posix.c and mem_win32.c implement it; CMakeLists.txt
 * picks one. */
#ifndef CHARIOT_MEM_H
#define CHARIOT_MEM_H

#include <stddef.h>

/* What mem_large_alloc mapped, for mem_large_free. */
typedef struct LargeBlock {
    void *base;
    size_t size;
} LargeBlock;

/* A zeroed block of `bytes`, aligned to at least 64 bytes (a cache line);
 * NULL when the system has no room. Pages are not touched here: they are
 * zero-filled on first use. */
void *mem_large_alloc(size_t bytes, LargeBlock *block);

/* Returns the block (a zeroed LargeBlock is a no-op). */
void mem_large_free(LargeBlock *block);

#endif
