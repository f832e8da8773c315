/// The RFC 8785 (JCS) canonical form of a value, as UTF-8 bytes: what the hash chain hashes.
///
/// Object members are sorted by their keys' UTF-16 code units, as RFC 8785 §3.2.3 says.
/// The spec says "by code point"; the two orders differ only between a key character above
/// U+FFFF and one in U+E000…U+FFFF, which event keys never hold, and JCS is the contract.
public func canonicalJSON(_ value: JSONValue) -> [UInt8] {
    var writer = CanonicalJSONWriter()
    writer.value(value)
    return writer.bytes
}

/// `canonicalJSON(_:)` as a `String`, for messages and tests.
public func canonicalJSONString(_ value: JSONValue) -> String {
    String(decoding: canonicalJSON(value), as: UTF8.self)
}

extension CanonicalJSONWriter {
    /// Writes any value canonically, sorting each object's members (see `canonicalJSON(_:)`).
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let object):
            beginObject()
            let members = object.members
            withUnsafeTemporaryAllocation(of: SortEntry.self, capacity: members.count) { buffer in
                var order = buffer
                for (index, member) in members.enumerated() {
                    order.initializeElement(at: index, to: SortEntry(key: member.key, index: index))
                }
                let precedes = { (a: SortEntry, b: SortEntry) in a.precedes(b, members) }
                // Objects already in order, such as re-imported exports, skip the sort.
                if !order.indices.dropFirst().allSatisfy({ precedes(order[$0 - 1], order[$0]) }) {
                    order.sort(by: precedes)
                }
                for entry in order {
                    key(members[entry.index].key)
                    self.value(members[entry.index].value)
                }
            }
            endObject()
        }
    }
}

/// A member's place in the sort: its index and its key's first 8 UTF-8 bytes, big-endian and
/// zero-padded, which order most keys with one integer comparison and no string access.
private struct SortEntry {
    let prefix: UInt64
    let index: Int

    init(key: String, index: Int) {
        var key = key
        self.prefix = key.withUTF8 { utf8 in
            var prefix: UInt64 = 0
            for (position, byte) in utf8.prefix(8).enumerated() {
                prefix |= UInt64(byte) << (56 - 8 * position)
            }
            return prefix
        }
        self.index = index
    }

    /// The prefixes decide when they differ and are ASCII: at the first differing byte both
    /// keys have a byte, or the shorter one ends there and its padding 0 sorts first, as the
    /// shorter key must (a key byte 0 there would not differ). Otherwise compare in full.
    func precedes(_ other: SortEntry, _ members: [(key: String, value: JSONValue)]) -> Bool {
        if prefix != other.prefix && (prefix | other.prefix) & 0x8080_8080_8080_8080 == 0 {
            return prefix < other.prefix
        }
        return utf16Precedes(members[index].key, members[other.index].key)
    }
}
/// Whether `a` sorts before `b` by UTF-16 code units, computed on their UTF-8 without
/// transcoding.
///
/// UTF-8 byte order is code point order. At the first differing byte both strings are at the
/// same place in a scalar (their prefixes are equal), and the orders disagree only when one
/// scalar is above U+FFFF (lead byte F0…F4, a surrogate D800…DBFF in UTF-16) and the other is
/// in U+E000…U+FFFF (lead byte EE or EF): UTF-16 puts the surrogate first.
func utf16Precedes(_ a: String, _ b: String) -> Bool {
    var a = a
    var b = b
    return a.withUTF8 { x in
        b.withUTF8 { y in
            let common = min(x.count, y.count)
            var index = 0
            while index < common && x[index] == y[index] { index += 1 }
            if index == common { return x.count < y.count }
            let (p, q) = (x[index], y[index])
            if p >= 0xF0 && (0xEE...0xEF).contains(q) { return true }
            if q >= 0xF0 && (0xEE...0xEF).contains(p) { return false }
            return p < q
        }
    }
}
