/// A JSON object: its members in input order, keys unique.
///
/// Order is kept so that messages and re-emitted text follow the input; it is not part of
/// the value. Equality ignores order (see `JSONValue`), which is well defined because keys
/// are unique: the parser refuses duplicates and every initialiser and mutator keeps them so.
/// Keys are compared by their Unicode scalars, never by Swift's canonical equivalence.
/// Lookups scan linearly, which beats hashing for the dozen-member objects events are.
public struct JSONObject: Equatable, Sendable {
    public private(set) var members: [(key: String, value: JSONValue)]

    init(uniqueMembers: [(key: String, value: JSONValue)]) {
        members = uniqueMembers
    }

    /// An empty object.
    public init() {
        members = []
    }

    /// An object of these members, in this order; nil if a key occurs twice.
    public init?(_ members: [(key: String, value: JSONValue)]) {
        var seen = Set<ScalarKey>(minimumCapacity: members.count)
        for member in members where !seen.insert(ScalarKey(member.key)).inserted { return nil }
        self.members = members
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public var keys: [String] { members.map(\.key) }

    /// The value of the member with exactly this key, or nil.
    public subscript(key: String) -> JSONValue? {
        index(of: key).map { members[$0].value }
    }

    /// Replaces the value of `key` in place, or appends the member; returns the old value.
    @discardableResult
    public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
        guard let i = index(of: key) else {
            members.append((key, value))
            return nil
        }
        defer { members[i].value = value }
        return members[i].value
    }

    /// Removes the member with this key (e.g. `hash` before re-hashing an exported event).
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let i = index(of: key) else { return nil }
        return members.remove(at: i).value
    }

    private func index(of key: String) -> Int? {
        members.firstIndex { sameScalars($0.key, key) }
    }

    /// Order-independent: same keys (by scalars), and equal values under each key.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        var right = [ScalarKey: JSONValue](minimumCapacity: rhs.members.count)
        for member in rhs.members { right[ScalarKey(member.key)] = member.value }
        for member in lhs.members {
            guard let value = right[ScalarKey(member.key)], value == member.value else { return false }
        }
        return true
    }
}

/// A `String` hashed and compared by its UTF-8 bytes, for sets and dictionaries of JSON keys.
struct ScalarKey: Hashable {
    let string: String

    init(_ string: String) {
        self.string = string
    }

    static func == (lhs: ScalarKey, rhs: ScalarKey) -> Bool {
        sameScalars(lhs.string, rhs.string)
    }

    func hash(into hasher: inout Hasher) {
        var s = string
        s.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
