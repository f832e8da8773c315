import StrictJSON

/// Reads a payload out of JSON (parsed, or scanned in place: `FieldObject`), enforcing every field rule of
/// events.md as it goes: types, lengths, patterns, word lists, ranges, no `null`, and (in `finish`) no
/// unknown keys.
///
/// Nested objects are entered through frames (the object being read, and those it is nested in) so that
/// error paths read like `data.address.city`.
struct JSONFieldSource<Object: FieldObject>: FieldSource {
    private struct Frame {
        var object: Object
        var path: String
        /// How many of the object's keys have been asked for and found; when the payload is read, any
        /// member beyond these is a key the type does not have.
        var found = 0
        /// Which members were found, by index: a bit each for the first 64 (more than any payload has),
        /// a list beyond, which only an object with unknown keys needs. No list per object read.
        var matched: UInt64 = 0
        var matchedBeyond: [Int] = []

        mutating func match(_ index: Int) {
            if index < 64 { matched |= 1 << UInt64(index) } else { matchedBeyond.append(index) }
            found += 1
        }

        func isMatched(_ index: Int) -> Bool {
            index < 64 ? matched & (1 << UInt64(index)) != 0 : matchedBeyond.contains(index)
        }
        /// Where to look for the next key first: after the last one found, since lines usually list keys in
        /// the order they are read (sorted, as the canonical form and `export` write them).
        var next = 0
    }

    /// The object being read. Kept apart from `outer`: every field read changes it, and a frame of an
    /// array would be looked up, checked for being unique, and copied at each read.
    private var frame: Frame
    /// The objects `frame` is nested in, outermost first (none for `data` itself, so no allocation).
    private var outer: [Frame] = []

    private typealias Found = FieldValue<Object>

    init(object: Object, path: String) {
        frame = Frame(object: object, path: path)
    }

    /// Refuses any key of the current object that was not asked for.
    func finish() throws(FieldError) {
        guard frame.found < frame.object.count else { return }
        for index in 0..<frame.object.count where !frame.isMatched(index) {
            throw FieldError(path: join(frame.path, escapedForMessage(frame.object.key(at: index))), rule: "unknown key")
        }
    }

    private mutating func value(_ key: StaticString) throws(FieldError) -> Found? {
        guard let index = find(key) else { return nil }
        return try value(key, at: index)
    }

    /// The index of the member `key`, which is then read.
    private mutating func find(_ key: StaticString) -> Int? {
        guard let index = frame.object.index(of: key, from: frame.next) else { return nil }
        frame.next = index + 1
        frame.match(index)
        return index
    }

    private func value(_ key: StaticString, at index: Int) throws(FieldError) -> Found {
        let value = frame.object.member(at: index)
        if case .value(.null) = value {
            throw FieldError(path: path(key), rule: "must not be null (leave the key out instead)")
        }
        return value
    }

    private func path(_ key: StaticString) -> String { join(frame.path, key.description) }

    private func required(_ key: StaticString, _ v: Found?) throws(FieldError) -> Found {
        guard let v else { throw FieldError(path: path(key), rule: "is required") }
        return v
    }

    private func stringValue(_ key: StaticString, _ v: Found) throws(FieldError) -> String {
        guard case .value(.string(let s)) = v else { throw FieldError(path: path(key), rule: "must be a string, got \(v.kind)") }
        return s
    }

    private func checked(_ key: StaticString, _ raw: String, _ rule: StringRule) throws(FieldError) -> String {
        switch rule.apply(to: raw) {
        case .success(let value): return value
        case .failure(let broken): throw FieldError(path: path(key), rule: broken.text)
        }
    }

    mutating func string(_ key: StaticString, _ rule: StringRule) throws(FieldError) -> String {
        try checked(key, try stringValue(key, try required(key, try value(key))), rule)
    }

    mutating func optionalString(_ key: StaticString, _ rule: StringRule) throws(FieldError) -> String? {
        guard let v = try value(key) else { return nil }
        return try checked(key, try stringValue(key, v), rule)
    }

    private func integerValue(_ key: StaticString, _ v: Found, _ range: ClosedRange<Int64>) throws(FieldError) -> Int64 {
        guard case .value(.number(let n)) = v, n.isInteger else {
            throw FieldError(path: path(key), rule: "must be an integer (no fraction, no exponent), got \(v.kind)")
        }
        guard let i = n.integerValue, range.contains(i) else {
            throw FieldError(path: path(key), rule: "must be \(range.lowerBound)–\(range.upperBound), got \(escapedForMessage(n.text))")
        }
        return i
    }

    mutating func integer(_ key: StaticString, _ range: ClosedRange<Int64>) throws(FieldError) -> Int64 {
        try integerValue(key, try required(key, try value(key)), range)
    }

    mutating func optionalInteger(_ key: StaticString, _ range: ClosedRange<Int64>) throws(FieldError) -> Int64? {
        guard let v = try value(key) else { return nil }
        return try integerValue(key, v, range)
    }

    private func booleanValue(_ key: StaticString, _ v: Found) throws(FieldError) -> Bool {
        guard case .value(.bool(let b)) = v else { throw FieldError(path: path(key), rule: "must be true or false, got \(v.kind)") }
        return b
    }

    mutating func boolean(_ key: StaticString) throws(FieldError) -> Bool {
        try booleanValue(key, try required(key, try value(key)))
    }

    mutating func optionalBoolean(_ key: StaticString) throws(FieldError) -> Bool? {
        guard let v = try value(key) else { return nil }
        return try booleanValue(key, v)
    }

    mutating func number(_ key: StaticString, _ range: ClosedRange<Double>) throws(FieldError) -> Double {
        let v = try required(key, try value(key))
        guard case .value(.number(let n)) = v else { throw FieldError(path: path(key), rule: "must be a number, got \(v.kind)") }
        let d = n.doubleValue
        guard d.isFinite, range.contains(d) else {
            throw FieldError(path: path(key), rule: "must be \(ecmaText(range.lowerBound))…\(ecmaText(range.upperBound)), got \(escapedForMessage(n.text))")
        }
        return d == 0 ? 0 : d
    }

    private func choiceValue<C: Choice>(_ key: StaticString, _ v: Found) throws(FieldError) -> C {
        let raw = try stringValue(key, v)
        guard let c = C.choices.first(where: { sameBytes($0.rawValue, raw) }) else {
            throw FieldError(path: path(key), rule: "must be \(listing(C.words)), got \(quoted(raw))")
        }
        return c
    }

    /// A word is looked for among the choices in the member's bytes, without a `String` made of them;
    /// anything else (not a string, not a word) goes the common way, which names what is wrong.
    private func choice<C: Choice>(_ key: StaticString, at index: Int) throws(FieldError) -> C {
        let word = frame.object.withString(at: index) { bytes in
            C.choices.first { choice in
                var word = choice.rawValue
                return word.withUTF8 { $0.count == bytes.count && bytesEqual($0.baseAddress!, bytes.baseAddress!, count: $0.count) }
            }
        }
        if case .some(.some(let c)) = word { return c }
        return try choiceValue(key, try value(key, at: index))
    }

    mutating func choice<C: Choice>(_ key: StaticString, _ type: C.Type) throws(FieldError) -> C {
        guard let index = find(key) else { throw FieldError(path: path(key), rule: "is required") }
        return try choice(key, at: index)
    }

    mutating func optionalChoice<C: Choice>(_ key: StaticString, _ type: C.Type) throws(FieldError) -> C? {
        guard let index = find(key) else { return nil }
        return try choice(key, at: index) as C
    }

    mutating func date(_ key: StaticString) throws(FieldError) -> CalendarDate {
        let raw = try stringValue(key, try required(key, try value(key)))
        guard let d = CalendarDate(raw) else {
            throw FieldError(path: path(key), rule: "must be a date YYYY-MM-DD, got \(quoted(raw))")
        }
        return d
    }

    mutating func month(_ key: StaticString) throws(FieldError) -> Month {
        let raw = try stringValue(key, try required(key, try value(key)))
        guard let m = Month(raw) else { throw FieldError(path: path(key), rule: "must be a month YYYY-MM, got \(quoted(raw))") }
        return m
    }

    mutating func time(_ key: StaticString) throws(FieldError) -> ClockTime {
        let raw = try stringValue(key, try required(key, try value(key)))
        guard let t = ClockTime(raw) else { throw FieldError(path: path(key), rule: "must be a time HH:MM (24 h), got \(quoted(raw))") }
        return t
    }

    private mutating func nested<T>(_ key: StaticString, _ v: Found,
                                    _ body: (inout JSONFieldSource) throws(FieldError) -> T) throws(FieldError) -> T {
        guard case .object(let o) = v else { throw FieldError(path: path(key), rule: "must be an object, got \(v.kind)") }
        outer.append(frame)
        frame = Frame(object: o, path: path(key))
        defer { frame = outer.removeLast() }
        let result = try body(&self)
        try finish()
        return result
    }

    mutating func object<T>(_ key: StaticString, _ body: (inout JSONFieldSource) throws(FieldError) -> T) throws(FieldError) -> T {
        try nested(key, try required(key, try value(key)), body)
    }

    mutating func optionalObject<T>(_ key: StaticString, _ body: (inout JSONFieldSource) throws(FieldError) -> T) throws(FieldError) -> T? {
        guard let v = try value(key) else { return nil }
        return try nested(key, v, body)
    }

    mutating func has(_ key: StaticString) -> Bool {
        frame.object.index(of: key, from: 0) != nil
    }
}

/// Whether a JSON key is exactly the field name `key`, byte for byte, without making a `String` of it.
@inline(__always)
func matches(_ text: String, _ key: StaticString) -> Bool {
    guard text.utf8.count == key.utf8CodeUnitCount else { return false }
    return text.utf8.withContiguousStorageIfAvailable { bytesEqual($0.baseAddress!, key.utf8Start, count: $0.count) }
        ?? text.utf8.elementsEqual(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
}

/// `data.address` from `data` and `address`.
func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

/// What kind of JSON value `v` is, for error messages ("got a number").
func kind(_ v: JSONValue) -> String {
    switch v {
    case .null: "null"
    case .bool(let b): "\(b)"
    case .number(let n): escapedForMessage(n.text)
    case .string(let s): quoted(s)
    case .array: "an array"
    case .object: "an object"
    }
}

func ecmaText(_ d: Double) -> String { ecmaScriptNumberString(d) }

/// Byte-for-byte equality of two strings: JSON and the spec compare text by scalars, while Swift's `==`
/// merges canonically equivalent strings (`é` and `e` + U+0301).
@inline(__always)
public func sameBytes(_ a: String, _ b: String) -> Bool {
    guard a.utf8.count == b.utf8.count else { return false }
    var a = a, b = b
    return a.withUTF8 { x in b.withUTF8 { y in x.isEmpty || bytesEqual(x.baseAddress!, y.baseAddress!, count: x.count) } }
}
