/* mem_win32.c — mem.h on Windows: committed, zeroed pages from VirtualAlloc.
 * Large pages there need the "lock pages in memory" privilege, which a GUI
 * user's account rarely holds, so the block uses normal pages. */
#include "mem.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

void *mem_large_alloc(size_t bytes, LargeBlock *block)
{
    block->base = NULL;
    block->size = 0;
    if (bytes == 0)
        return NULL;
    /* Page-aligned (64 KB granularity) and zero-filled by the system. */
    void *m = VirtualAlloc(NULL, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    if (!m)
        return NULL;
    block->base = m;
    block->size = bytes;
    return m;
}

void mem_large_free(LargeBlock *block)
{
    if (block->base)
        VirtualFree(block->base, 0, MEM_RELEASE);
    block->base = NULL;
    block->size = 0;
}
