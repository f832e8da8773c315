public import StrictJSON

/// Reading the queries' answers without a decoder: a member, an element, a number or a string, nil when
/// the value is not of that kind.
extension JSONValue {
    /// The member `key` of an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The elements of an array.
    public var arrayValue: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// An integer.
    public var intValue: Int64? {
        guard case .number(let number) = self else { return nil }
        return number.integerValue
    }

    /// A string.
    public var stringValue: String? {
        guard case .string(let string) = self else { return nil }
        return string
    }

    /// A boolean.
    public var boolValue: Bool? {
        guard case .bool(let bool) = self else { return nil }
        return bool
    }

    /// The value as RFC 8785 canonical JSON: one line, keys sorted.
    public var canonicalText: String { canonicalJSONString(self) }
}
