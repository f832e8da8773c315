/// Big-endian encoding of integer keys.
///
/// LMDB orders keys by their bytes, compared left to right. Unsigned integers
/// written most significant byte first therefore sort in numeric order,
/// which is what makes sequence numbers usable as keys for range scans.
extension FixedWidthInteger {
    /// Calls `body` with this integer's big-endian bytes, without allocating.
    @inlinable
    public func withBigEndianBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        var bigEndian = self.bigEndian
        return try withUnsafeBytes(of: &bigEndian, body)
    }

    /// This integer's big-endian bytes as an array (allocates; prefer
    /// `withBigEndianBytes` on hot paths).
    @inlinable
    public var bigEndianBytes: [UInt8] {
        withBigEndianBytes { Array($0) }
    }

    /// Appends the big-endian bytes to `bytes` (a key built of parts).
    public func appendBigEndianBytes(to bytes: inout [UInt8]) {
        withBigEndianBytes { bytes.append(contentsOf: $0) }
    }

    /// Reads an integer written by `withBigEndianBytes`; `nil` when `bytes`
    /// is not exactly `MemoryLayout<Self>.size` long.
    @inlinable
    public init?(bigEndianBytes bytes: UnsafeRawBufferPointer) {
        guard bytes.count == MemoryLayout<Self>.size else { return nil }
        self.init(bigEndian: bytes.loadUnaligned(as: Self.self))
    }
}
