#ifndef VERITRAIL_CLMDB_GUARD_H
#define VERITRAIL_CLMDB_GUARD_H
#include <lmdb.h>

/*
 * LMDB's calls that walk a database's pages, made so that LMDB's assertion handler can leave them
 * (`vt_guard_escape`) instead of aborting the process. A page of the map that the data file no longer has is
 * replaced by zeros (LMDB.MapFaults), and zeros can fail LMDB's own checks of a page (`mdb_cassert`), after which
 * LMDB aborts. The call then returns MDB_CORRUPTED instead, and its transaction is refused. Nothing LMDB holds
 * across such a call is left behind: a read takes no lock, and a write's transaction is aborted after it.
 */
int vt_mdb_get(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *data);
int vt_mdb_put(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *data, unsigned int flags);
int vt_mdb_del(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *data);
int vt_mdb_drop(MDB_txn *txn, MDB_dbi dbi, int del);
int vt_mdb_cursor_get(MDB_cursor *cursor, MDB_val *key, MDB_val *data, MDB_cursor_op op);
int vt_mdb_cursor_put(MDB_cursor *cursor, MDB_val *key, MDB_val *data, unsigned int flags);
int vt_mdb_cursor_del(MDB_cursor *cursor, unsigned int flags);

/* From LMDB's assertion handler: returns from the guarded call under way on this thread with MDB_CORRUPTED;
 * returns when there is none. */
void vt_guard_escape(void);

#endif
