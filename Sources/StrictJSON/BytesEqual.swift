/// Whether the `count` bytes at `a` and at `b` are the same: the comparison of a JSON key or a word with
/// a field name, a few bytes long, made in Swift (eight bytes at a time) rather than by a call to the C
/// library's `memcmp`, which keeps this module free of system imports and is as fast for such lengths.
@inlinable @inline(__always)
public func bytesEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
    var offset = 0
    while count - offset >= 8 {
        guard a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        else { return false }
        offset += 8
    }
    while offset < count {
        guard a.load(fromByteOffset: offset, as: UInt8.self) == b.load(fromByteOffset: offset, as: UInt8.self) else { return false }
        offset += 1
    }
    return true
}
