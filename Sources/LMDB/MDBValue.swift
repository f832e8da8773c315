internal import CLMDB

/// Conversions between LMDB's `MDB_val` and Swift buffers. Neither copies bytes.
extension MDB_val {
    /// Points LMDB at `buffer`. LMDB only reads through the pointer for keys and put values.
    @inline(__always)
    init(_ buffer: UnsafeRawBufferPointer) {
        self.init(mv_size: buffer.count, mv_data: UnsafeMutableRawPointer(mutating: buffer.baseAddress))
    }

    /// The bytes LMDB pointed the value at, usually inside the memory map.
    @inline(__always)
    var buffer: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: mv_data, count: mv_size)
    }
}
