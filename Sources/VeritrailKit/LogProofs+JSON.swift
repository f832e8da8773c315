public import StrictJSON
import Domain

/// The `--json` answers of the proof commands (proofs.md), rendered here so that the command line and the
/// server (server.md §6) give the same bytes.
extension LogKey {
    /// `{"origin", "key"}` (`log key --json`).
    public var json: JSONValue { J.object([("origin", J.string(origin)), ("key", J.string(text))]) }
}

extension LogCheckpoint {
    /// `{"origin", "size", "root", "checkpoint"}` (`log checkpoint --json`).
    public var json: JSONValue {
        J.object([("origin", J.string(origin)), ("size", J.int(size)), ("root", J.string(Hex.encode(root))), ("checkpoint", J.string(note))])
    }
}

extension LogInclusionProof {
    /// `{"seq", "index", "size", "leafHash", "path", "root", "checkpoint"}` (`log prove --json`).
    public var json: JSONValue {
        J.object([
            ("seq", J.int(seq)), ("index", J.int(seq - 1)), ("size", J.int(size)),
            ("leafHash", J.string(Hex.encode(leafHash))), ("path", J.array(path.map { J.string(Hex.encode($0)) })),
            ("root", J.string(Hex.encode(root))), ("checkpoint", J.string(checkpoint)),
        ])
    }
}

extension LogConsistencyProof {
    /// `{"old", "size", "oldRoot", "root", "path", "checkpoint"}` (`log consistency --json`).
    public var json: JSONValue {
        J.object([
            ("old", J.int(old)), ("size", J.int(size)), ("oldRoot", J.string(Hex.encode(oldRoot))),
            ("root", J.string(Hex.encode(root))), ("path", J.array(path.map { J.string(Hex.encode($0)) })),
            ("checkpoint", J.string(checkpoint)),
        ])
    }
}
