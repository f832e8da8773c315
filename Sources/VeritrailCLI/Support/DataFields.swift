import Domain
import Projections
import StrictJSON

/// The `data` of an event a command writes, built field by field; absent options stay absent.
struct DataFields {
    private(set) var pairs: [(String, JSONValue)] = []

    mutating func set(_ key: String, _ value: String?) {
        if let value { pairs.append((key, .string(value))) }
    }

    mutating func set(_ key: String, _ value: Int64?) {
        if let value { pairs.append((key, J.int(value))) }
    }

    mutating func set(_ key: String, _ value: Bool?) {
        if let value { pairs.append((key, .bool(value))) }
    }

    mutating func set(_ key: String, _ value: JSONValue?) {
        if let value { pairs.append((key, value)) }
    }

    mutating func set(_ key: String, object: DataFields) {
        if !object.pairs.isEmpty { pairs.append((key, J.object(object.pairs))) }
    }
}
