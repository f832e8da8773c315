import Foundation
import VeritrailKit

/// One question file of `check` (README, "Writing projection tests"), read and checked whole before any
/// question is asked: a file that is not a question, or that has a key it does not know, is refused
/// (exit 65) with its name and the key.
struct Question {
    static let keys = ["args", "now", "asOf", "as", "exit", "expect"]

    let path: String
    let name: String
    let object: JSONObject
    let args: [String]
    let exit: Int64
    let expect: JSONValue?

    /// Every `*.json` of `folder`, by name.
    static func load(folder: String) throws -> [Question] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Failure.refused("no such folder: \(folder) (give the folder of question files, *.json)")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        } catch {
            throw Failure.refused("can not read the folder \(folder): \(error.localizedDescription)")
        }
        guard !names.isEmpty else { throw Failure.refused("no question files (*.json) in \(folder)") }
        return try names.map { try Question(path: folder + "/" + $0, name: $0) }
    }

    init(path: String, name: String) throws {
        self.path = path
        self.name = name
        func refuse(_ why: String) -> Failure { Failure.refused("\(path): \(why)") }
        guard let data = FileManager.default.contents(atPath: path) else { throw refuse("can not be read") }
        let parsed: JSONValue
        do { parsed = try JSONValue.parse(Array(data)) } catch { throw refuse("not JSON: \(error)") }
        guard case .object(let o) = parsed else { throw refuse("a question file is one JSON object") }
        object = o
        if let unknown = o.keys.first(where: { !Question.keys.contains($0) }) {
            throw refuse("unknown key \"\(unknown)\" (a question file has only \(Question.keys.joined(separator: ", ")))")
        }
        guard case .array(let values)? = o["args"], !values.isEmpty else { throw refuse("\"args\" must be a non-empty list of strings") }
        args = try values.map { value in
            guard case .string(let s) = value else { throw refuse("\"args\" must be a non-empty list of strings") }
            return s
        }
        for key in ["now", "asOf", "as"] {
            switch o[key] {
            case nil, .string?: break
            default: throw refuse("\"\(key)\" must be a string")
            }
        }
        switch o["exit"] {
        case nil: exit = 0
        case .number(let n)?:
            guard let e = n.integerValue, (0...255).contains(e) else { throw refuse("\"exit\" must be an exit code (0–255)") }
            exit = e
        default: throw refuse("\"exit\" must be an exit code (0–255)")
        }
        expect = o["expect"]
        if expect != nil && exit != 0 { throw refuse("\"expect\" is only for exit 0 (an answer is checked only when the command succeeds)") }
    }

    /// The command line that asks it of `store`.
    func arguments(store: String) -> [String] {
        var args = self.args + ["--json", "--store", store]
        if case .string(let now)? = object["now"] { args += ["--now", now] }
        if case .string(let asOf)? = object["asOf"] { args += ["--as-of", asOf] }
        if case .string(let viewer)? = object["as"] { args += ["--as", viewer] }
        return args
    }

    /// The file's text with `exit` and `expect` (only for exit 0) set to an answer; the other members stay
    /// as they were, in their order.
    func updated(exit: Int32, expect: JSONValue?) -> String {
        var members = object.members.filter { $0.key != "exit" && $0.key != "expect" }
        members.append((key: "exit", value: .number(JSONNumber(Int64(exit)))))
        if exit == 0, let expect { members.append((key: "expect", value: expect)) }
        return PrettyJSON.text(JSONObject(members).map(JSONValue.object) ?? .object(object))
    }
}
