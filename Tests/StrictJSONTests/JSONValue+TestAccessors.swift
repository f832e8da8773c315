import StrictJSON

/// Optional views of a value, so tests can `try #require(value.object)`.
extension JSONValue {
    var object: JSONObject? {
        if case .object(let object) = self { object } else { nil }
    }

    var number: JSONNumber? {
        if case .number(let number) = self { number } else { nil }
    }
}
