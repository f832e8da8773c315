public import Domain
public import StrictJSON

/// The JSON answers that are rendered from the library's results rather than by a query: the same bytes
/// whoever renders them, the command line (`--json`) or the server (server.md §3, §4).
public enum Answers {
    /// What a write answers with `--json`: `{"events": [{"seq", "id", "type"}]}`.
    ///
    /// A retry (`--id`, `Idempotency-Key`) whose events were all logged already wrote nothing, and says so
    /// whatever the store holds since (a later write may have undone it): `"alreadyRecorded": true` beside
    /// the events, only then.
    public static func events(_ appended: [AppendedEvent]) -> JSONValue {
        var members: [(String, JSONValue)] = [("events", .array(appended.map { e in
            J.object([("seq", J.int(e.seq)), ("id", J.string(e.id)), ("type", J.string(e.type.rawValue))])
        }))]
        if alreadyRecorded(appended) { members.append(("alreadyRecorded", .bool(true))) }
        return J.object(members)
    }

    /// `events(appended)`, with where the write placed an address's city (`CityPlacement.answer(city:)`) as
    /// `placement` when it wrote: `register --json` and `account update --json`, from the command line or the server.
    public static func events(_ appended: [AppendedEvent], placement: JSONValue?) -> JSONValue {
        let answer = events(appended)
        guard let placement, !alreadyRecorded(appended), case .object(var members) = answer else { return answer }
        _ = members.updateValue(placement, forKey: "placement")
        return .object(members)
    }

    /// Whether a write found every one of its events logged already (a retry under its id): it wrote nothing.
    public static func alreadyRecorded(_ appended: [AppendedEvent]) -> Bool {
        !appended.isEmpty && !appended.contains(where: \.isNew)
    }

    /// What `import --json` answers: `{"appended", "existing", "head": {"seq", "hash"}}`.
    public static func imported(_ summary: ImportSummary) -> JSONValue {
        let head = HeadDigest(summary.head)
        return J.object([("appended", J.int(summary.appended)), ("existing", J.int(summary.existing)),
                         ("head", J.object([("seq", J.int(head.seq)), ("hash", J.string(head.hash))]))])
    }

    /// What `log verify --json` answers: `{"ok": true, "events", "head": {"seq", "hash"}}`, or
    /// `{"ok": false, "firstBadSeq", "reason"}` (projections.md §7).
    public static func verification(_ outcome: VerificationOutcome) -> JSONValue {
        switch outcome {
        case let .ok(events, head):
            J.object([("ok", J.bool(true)), ("events", J.int(events)),
                      ("head", J.object([("seq", J.int(head.seq)), ("hash", J.string(Hex.encode(head.hash)))]))])
        case let .broken(seq, reason):
            J.object([("ok", J.bool(false)), ("firstBadSeq", J.int(seq)), ("reason", J.string(reason))])
        }
    }
}
