import Crypto
import Domain

/// The hash chain of events.md §2: `hash(n) = SHA-256(hex(hash(n-1)) ++ "\n" ++ canonical(event n))`,
/// starting from 32 zero bytes.
public enum HashChain {
    public static let genesis = [UInt8](repeating: 0, count: 32)

    /// The chain value after an event whose canonical form (without `hash`) is `canonical`, followed by
    /// `rest` when given in two parts.
    public static func next(after previous: some Sequence<UInt8>, canonical: [UInt8], _ rest: [UInt8] = []) -> [UInt8] {
        var hasher = SHA256()
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 65) { hex in
            var i = 0
            for b in previous {
                hex[i] = hexDigits[Int(b >> 4)]
                hex[i + 1] = hexDigits[Int(b & 0x0F)]
                i += 2
            }
            hex[64] = 0x0A
            hasher.update(bufferPointer: UnsafeRawBufferPointer(hex))
        }
        canonical.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        if !rest.isEmpty { rest.withUnsafeBytes { hasher.update(bufferPointer: $0) } }
        return hasher.finalize().withUnsafeBytes { Array($0) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
