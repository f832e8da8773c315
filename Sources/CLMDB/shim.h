#ifndef VERITRAIL_CLMDB_SHIM_H
#define VERITRAIL_CLMDB_SHIM_H
#include <lmdb.h>
#endif
