public import Domain
public import StrictJSON

/// The JSON answers that are rendered from the library's results rather than by a query: the same bytes
/// whoever renders them, the command line (`--json`) or the server (server.md §3, §4).
public enum Answers {
    /// What a write answers with `--json`: `{"events": [{"seq", "id", "type"}]}`.
    public static func events(_ appended: [AppendedEvent]) -> JSONValue {
        J.object([("events", .array(appended.map { e in
            J.object([("seq", J.int(e.seq)), ("id", J.string(e.id)), ("type", J.string(e.type.rawValue))])
        }))])
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
