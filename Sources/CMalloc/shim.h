// glibc's malloc tuning and statistics (mallopt, mallinfo2, malloc_trim): <malloc.h> is not in
// Swift's Glibc module.
#ifndef CMALLOC_SHIM_H
#define CMALLOC_SHIM_H

#include <malloc.h>

#endif
