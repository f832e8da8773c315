import Domain
import Engine
import Projections
import StrictJSON

/// Builds the events of the writing commands as interchange JSON and decodes them with `EventJSON.decode`,
/// as the command line does, so that a call's event passes exactly the rules an imported line does.
enum EventData {
    static func event(_ type: EventType, actor: String, at: Timestamp, _ data: [(String, JSONValue?)]) throws -> IncomingEvent {
        let object = J.object([
            ("type", .string(type.rawValue)), ("at", .string(at.description)), ("actor", .string(actor)),
            ("data", J.object(data.compactMap { key, value in value.map { (key, $0) } })),
        ])
        return try EventJSON.decode(object)
    }

    /// The `data` of a `passcode.set`.
    static func passcode(_ username: String, _ credential: Credential) -> [(String, JSONValue?)] {
        [("username", .string(username)), ("credential", J.object([
            ("scheme", .string(credential.scheme.rawValue)), ("iterations", J.int(credential.iterations)),
            ("salt", .string(credential.salt)), ("hash", .string(credential.hash)),
        ]))]
    }

    static func string(_ s: String?) -> JSONValue? { s.map(JSONValue.string) }
    static func int(_ i: Int64?) -> JSONValue? { i.map { J.int($0) } }
    static func bool(_ b: Bool?) -> JSONValue? { b.map(JSONValue.bool) }

    /// `pairs` as an object, nil when every value is absent.
    static func object(_ pairs: [(String, JSONValue?)]) -> JSONValue? {
        let present = pairs.compactMap { key, value in value.map { (key, $0) } }
        return present.isEmpty ? nil : J.object(present)
    }
}
