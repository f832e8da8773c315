#include "CLMDBGuard.h"
#include <setjmp.h>
#include <stddef.h>

/* Where the guarded call under way on this thread returns to (NULL: none). One definition for the process: it
 * is set by the calls below and read by `vt_guard_escape`, which LMDB's assertion handler calls. */
static __thread sigjmp_buf *guard_point = NULL;

/* Runs `call` with a point to return to; the signal mask is not saved (the escape is made from LMDB's assertion
 * handler, never from a signal handler). */
#define GUARDED(call)                                      \
    sigjmp_buf here;                                       \
    sigjmp_buf *outer = guard_point;                       \
    if (sigsetjmp(here, 0) != 0) {                         \
        guard_point = outer;                               \
        return MDB_CORRUPTED;                              \
    }                                                      \
    guard_point = &here;                                   \
    int rc = (call);                                       \
    guard_point = outer;                                   \
    return rc;

int vt_mdb_get(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *data) { GUARDED(mdb_get(txn, dbi, key, data)) }

int vt_mdb_put(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *data, unsigned int flags) {
    GUARDED(mdb_put(txn, dbi, key, data, flags))
}

int vt_mdb_del(MDB_txn *txn, MDB_dbi dbi, MDB_val *key, MDB_val *data) { GUARDED(mdb_del(txn, dbi, key, data)) }

int vt_mdb_drop(MDB_txn *txn, MDB_dbi dbi, int del) { GUARDED(mdb_drop(txn, dbi, del)) }

int vt_mdb_cursor_get(MDB_cursor *cursor, MDB_val *key, MDB_val *data, MDB_cursor_op op) {
    GUARDED(mdb_cursor_get(cursor, key, data, op))
}

int vt_mdb_cursor_put(MDB_cursor *cursor, MDB_val *key, MDB_val *data, unsigned int flags) {
    GUARDED(mdb_cursor_put(cursor, key, data, flags))
}

int vt_mdb_cursor_del(MDB_cursor *cursor, unsigned int flags) { GUARDED(mdb_cursor_del(cursor, flags)) }

void vt_guard_escape(void) {
    if (guard_point != NULL) siglongjmp(*guard_point, 1);
}
