public import StrictJSON

/// A JSON object whose members `EventJSON` and `JSONFieldSource` read: a parsed `JSONObject`, or an object
/// of a line that `JSONScanner` read in place (an import's lines), which makes only the values asked for.
///
/// Both kinds go through the same decoding code, so a line is held to the same rules, with the same
/// messages, whichever way it was read.
public protocol FieldObject {
    var count: Int { get }
    /// Whether the key of member `i` is exactly `key`, byte for byte.
    func key(at i: Int, is key: StaticString) -> Bool
    /// The key of member `i`, for messages.
    func key(at i: Int) -> String
    /// The value of member `i` when it is not an object; nil for an object (see `object(at:)`).
    func value(at i: Int) -> JSONValue?
    /// The value of member `i` when it is an object.
    func object(at i: Int) -> Self?
    /// Calls `body` with the UTF-8 of member `i`'s value when it is a string (nil when it is not): for
    /// a reader that compares it without making a `String`.
    func withString<R>(at i: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R?
}

/// A member's value as a reader finds it: a value, or an object (which a `FieldObject` gives apart).
enum FieldValue<Object: FieldObject> {
    case value(JSONValue)
    case object(Object)

    /// What kind of JSON value it is, for messages ("got a number").
    var kind: String {
        switch self {
        case .value(let v): Domain.kind(v)
        case .object: "an object"
        }
    }
}

extension FieldObject {
    /// The value of member `i`.
    func member(at i: Int) -> FieldValue<Self> {
        if let v = value(at: i) { return .value(v) }
        return .object(object(at: i)!)
    }

    /// The index of the member whose key is `key`, looked for from `start` on, then before it: lines
    /// usually list keys in the order they are read.
    func index(of key: StaticString, from start: Int) -> Int? {
        let start = start < count ? start : 0
        for i in start..<count where self.key(at: i, is: key) { return i }
        for i in 0..<start where self.key(at: i, is: key) { return i }
        return nil
    }
}

extension JSONObject: FieldObject {
    public func key(at i: Int, is key: StaticString) -> Bool {
        // Compared in place: a copy of a member retains its key and its value.
        members.withUnsafeBufferPointer { matches($0[i].key, key) }
    }

    public func key(at i: Int) -> String { members[i].key }

    public func value(at i: Int) -> JSONValue? {
        if case .object = members[i].value { return nil }
        return members[i].value
    }

    public func object(at i: Int) -> JSONObject? {
        if case .object(let o) = members[i].value { return o }
        return nil
    }

    public func withString<R>(at i: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R? {
        guard case .string(var s) = members[i].value else { return nil }
        return s.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
}

extension ScannedObject: FieldObject {
    public func key(at i: Int, is key: StaticString) -> Bool {
        let bytes = keyBytes(at: i)
        return bytes.count == key.utf8CodeUnitCount && bytesEqual(bytes.baseAddress!, key.utf8Start, count: bytes.count)
    }

    public func key(at i: Int) -> String {
        String(decoding: keyBytes(at: i), as: UTF8.self)
    }
}
