#ifndef VERITRAIL_CMALLOC_SHIM_H
#define VERITRAIL_CMALLOC_SHIM_H
#include <malloc.h>
#endif
