import VeritrailKit

/// What an event did, as one sentence for the human `log tail` ("ines scanned QR-7F3A (Serum,
/// counterfeit), scan s-0001", "admin moved bret to INPROCESS"): one phrase per event type of events.md §3.
///
/// Secrets stay out: a `passcode.set` says whose passcode was set, never the credential.
enum EventSentence {
    /// The longest scanned code written whole on a terminal; longer ones end in "…" there (a QR code may
    /// hold 2,048 characters). Off a terminal every value is written whole (cli.md §7).
    static let codeWidth = 24

    /// The sentence, escaped for a terminal (`Escaped`): names, notes and messages are whatever someone typed.
    static func of(_ event: Event, shortenCodes: Bool) -> String {
        Escaped.text(sentence(event, shortenCodes: shortenCodes))
    }

    private static func sentence(_ event: Event, shortenCodes: Bool) -> String {
        let actor = event.actor
        switch event.payload {
        case .accountRegistered(let p):
            let subject = p.username == actor ? "registered as a \(p.role.rawValue)" : "registered \(p.username) as \(article(p.role.rawValue)) \(p.role.rawValue)"
            return "\(actor) \(subject) (\(p.name)\(p.address.map { ", " + $0.city } ?? ""))"
        case .accountUpdated(let p):
            let fields = [("name", p.name != nil), ("phone", p.phone != nil), ("website", p.website != nil),
                          ("address", p.address != nil), ("geo", p.geo != nil), ("company", p.company != nil)]
                .filter(\.1).map(\.0)
            return "\(actor) updated \(whose(p.username, actor)) \(list(fields))"
        case .accountDeleted(let p):
            return "\(actor) deleted \(p.username)" + (p.reason.map { " (\($0))" } ?? "")
        case .passcodeSet(let p):
            return p.username == actor ? "\(actor) set their passcode" : "\(actor) set \(p.username)'s passcode"
        case .passcodeAttempted(let p):
            switch p.outcome {
            case .granted: return "\(actor) entered the right passcode (unlocked for 15 min)"
            case .denied: return "\(actor) entered a wrong passcode"
            case .locked: return "\(actor) tried a passcode while locked out"
            }
        case .scanRecorded(let p):
            let code = shortenCodes && p.code.unicodeScalars.count > codeWidth
                ? String(String.UnicodeScalarView(p.code.unicodeScalars.prefix(codeWidth - 1))) + "…" : p.code
            return "\(actor) scanned \(code) (\(p.productName), \(p.result.rawValue)), scan \(p.scanId)"
        case .counterfeitReported(let p):
            let detail = p.message.map { "\(p.reason.rawValue): “\($0)”" } ?? p.reason.rawValue
            return "\(actor) reported scan \(p.scanId) as counterfeit (\(detail))"
        case .settingsChanged(let p):
            var changes: [String] = []
            if let flash = p.flash { changes.append("flash \(flash ? "on" : "off")") }
            if let mode = p.captureMode { changes.append("capture mode \(mode.rawValue)") }
            if let window = p.historyWindow { changes.append("history window \(window.rawValue)") }
            if let color = p.color { changes.append("colour \(color.rawValue)") }
            return "\(actor) changed \(whose(p.username, actor)) settings: \(changes.joined(separator: ", "))"
        case .searchPerformed(let p):
            return "\(actor) searched for “\(p.query)”"
        case .statusChanged(let p):
            return "\(actor) moved \(p.username) to \(p.status.rawValue)" + (p.note.map { " (\($0))" } ?? "")
        case .fitnessUpdated(let p):
            return "\(actor) set \(whose(p.username, actor)) body type \(p.bodyType) and height \(p.heightInches) in"
        case .goalSet(let p):
            let owner = p.username == actor ? "" : " for \(p.username)"
            return p.target == 0
                ? "\(actor) turned off the \(p.metric.rawValue) goal\(owner) for \(p.month)"
                : "\(actor) set a \(p.metric.rawValue) goal of \(p.target)\(owner) for \(p.month)"
        case .sessionRecorded(let p):
            let owner = p.username == actor ? "a session" : "a session of \(p.username)'s"
            return "\(actor) recorded \(owner) at \(p.park) on \(p.date), \(p.startTime)–\(p.endTime): "
                + "\(p.jumps) jumps, \(p.calories) calories"
        }
    }

    /// "their" when the account is the actor's own, else "bret's".
    private static func whose(_ username: String, _ actor: String) -> String {
        username == actor ? "their" : "\(username)'s"
    }

    private static func article(_ word: String) -> String {
        word.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    }

    private static func list(_ fields: [String]) -> String {
        fields.count <= 1 ? fields.joined() : fields.dropLast().joined(separator: ", ") + " and " + (fields.last ?? "")
    }
}
