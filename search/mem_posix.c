/* mem_posix.c — mem.h on POSIX systems: an anonymous mapping, with huge
 * pages asked for where the system knows MADV_HUGEPAGE (Linux). */
/* MAP_ANONYMOUS and madvise need _DEFAULT_SOURCE, which CMakeLists.txt
 * defines for every file. */
#include "mem.h"

#include <stdint.h>
#include <sys/mman.h>

#if !defined(MAP_ANONYMOUS) && defined(MAP_ANON)
#define MAP_ANONYMOUS MAP_ANON
#endif

/* A huge page on x86-64 and most arm64 kernels: the alignment that lets the
 * kernel back the whole block with them. */
enum { HUGE_PAGE_BYTES = 2 << 20 };

void *mem_large_alloc(size_t bytes, LargeBlock *block)
{
    block->base = NULL;
    block->size = 0;
    if (bytes == 0 || bytes > SIZE_MAX - HUGE_PAGE_BYTES)
        return NULL;
    /* One huge page more than asked, so that an aligned start fits. */
    const size_t size = bytes + HUGE_PAGE_BYTES;
    void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    char *start = (char *)(((uintptr_t)m + HUGE_PAGE_BYTES - 1) & ~(uintptr_t)(HUGE_PAGE_BYTES - 1));
#ifdef MADV_HUGEPAGE
    /* Advice only: refused (THP off, an old kernel), the block still works. */
    (void)madvise(start, bytes, MADV_HUGEPAGE);
#endif
    block->base = m;
    block->size = size;
    return start;
}

void mem_large_free(LargeBlock *block)
{
    if (block->base)
        munmap(block->base, block->size);
    block->base = NULL;
    block->size = 0;
}
