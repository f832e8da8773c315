import Foundation

/// Small builders for NDJSON event lines, written as text so that tests can also make them wrong. Shared by
/// the end-to-end tests (which import the lines through the real binary) and the in-process tests of the pure
/// layers (which decode them with `Ev.decoded`).
public enum Ev {
    public static let salt = "AAECAwQFBgcICQoLDA0ODw=="
    public static let hash = "ayf3tcDVah5kRZWydsw6bJ//4aRAeOWgSOaDtH/B5Lg="
    public static let credential = #""credential":{"scheme":"pbkdf2-sha256","iterations":100000,"salt":"\#(salt)","hash":"\#(hash)"}"#

    /// One line: `data` is the text inside the data object's braces.
    public static func line(_ type: String, _ actor: String, at: String, id: String? = nil, _ data: String) -> String {
        let idPart = id.map { #""id":"\#($0)","# } ?? ""
        return #"{\#(idPart)"type":"\#(type)","at":"\#(at)","actor":"\#(actor)","data":{\#(data)}}"#
    }

    public static func register(_ username: String, role: String, by actor: String, at: String, id: String? = nil,
                         name: String? = nil, email: String? = nil, extra: String = "") -> String {
        let address = role == "customer" && !extra.contains("\"address\"")
            ? #","address":{"street":"1 Main St","city":"Lyon","zipcode":"69001"}"# : ""
        return line("account.registered", actor, at: at, id: id,
                    #""username":"\#(username)","role":"\#(role)","name":"\#(name ?? username.capitalized)","email":"\#(email ?? username + "@vt.example")"\#(address)\#(extra)"#)
    }

    public static func passcodeSet(_ username: String, by actor: String, at: String, id: String? = nil) -> String {
        line("passcode.set", actor, at: at, id: id, #""username":"\#(username)",\#(credential)"#)
    }

    public static func attempt(_ username: String, _ outcome: String, by actor: String? = nil, at: String, id: String? = nil) -> String {
        line("passcode.attempted", actor ?? username, at: at, id: id, #""username":"\#(username)","outcome":"\#(outcome)""#)
    }

    /// A valid scan; `extra` adds fields (starting with a comma).
    public static func scan(_ scanId: String, by actor: String, at: String, id: String? = nil, code: String? = nil,
                     productName: String = "Widget", category: String = "Tools", result: String = "authentic",
                     mode: String = "single", extra: String = "") -> String {
        line("scan.recorded", actor, at: at, id: id,
             #""scanId":"\#(scanId)","code":"\#(code ?? "C-" + scanId)","productName":"\#(productName)","category":"\#(category)","result":"\#(result)","mode":"\#(mode)","source":"camera","flash":false\#(extra)"#)
    }

    public static func report(_ scanId: String, reason: String, by actor: String, at: String, extra: String = "") -> String {
        line("counterfeit.reported", actor, at: at, #""scanId":"\#(scanId)","reason":"\#(reason)"\#(extra)"#)
    }

    public static func session(_ username: String, _ sessionId: String, by actor: String, at: String, date: String,
                        start: String = "10:00", end: String = "11:00", jumps: String = "100", calories: String = "10") -> String {
        line("session.recorded", actor, at: at,
             #""username":"\#(username)","sessionId":"\#(sessionId)","date":"\#(date)","park":"Central","startTime":"\#(start)","endTime":"\#(end)","jumps":\#(jumps),"calories":\#(calories)"#)
    }

    public static func goal(_ username: String, month: String, metric: String, target: String, by actor: String? = nil, at: String) -> String {
        line("goal.set", actor ?? username, at: at, #""username":"\#(username)","month":"\#(month)","metric":"\#(metric)","target":\#(target)"#)
    }

    public static func fitness(_ username: String, by actor: String? = nil, at: String, height: String = "70") -> String {
        line("fitness.updated", actor ?? username, at: at, #""username":"\#(username)","bodyType":1,"heightInches":\#(height)"#)
    }
}
