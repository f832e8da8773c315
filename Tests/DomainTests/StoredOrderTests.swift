import Domain
import Testing

/// The stored form of a word list (`Choice`) is a value's position: `BinaryFieldSink` writes the case's
/// declaration index (`storedIndex`) and `BinaryFieldSource` reads it back as a position in `choices`. Both
/// orders are written to disk, so they are pinned here, word by word: reordering the cases of an enum or its
/// `choices` (instead of appending) fails this suite rather than silently reading old stores wrong.
@Suite("Stored order of the word lists")
struct StoredOrderTests {
    /// The words in the order stores on disk hold them. Append only: a store written before keeps its
    /// indexes.
    @Test("each list's stored order is pinned", arguments: [
        Pinned(Role.self, ["admin", "inspector", "customer"]),
        Pinned(ScanResult.self, ["authentic", "counterfeit"]),
        Pinned(CaptureMode.self, ["single", "batch"]),
        Pinned(ScanSource.self, ["camera", "gallery", "manual"]),
        Pinned(ReportReason.self, ["packaging", "label", "serial", "price", "seller", "other"]),
        Pinned(HistoryWindow.self, ["today", "7d", "30d", "90d", "all"]),
        Pinned(ScannerColor.self, ["white"]),
        Pinned(CustomerStatus.self, ["AWAITED", "FAILEDTOREACH", "ONBOARDED", "INPROCESS", "COMPLETED", "DENIED"]),
        Pinned(GoalMetric.self, ["jumps", "calories", "scans"]),
        Pinned(AttemptOutcome.self, ["granted", "denied", "locked"]),
        Pinned(CredentialScheme.self, ["pbkdf2-sha256", "pbkdf2-sha256-hmac"]),
        Pinned(EventType.self, ["account.registered", "account.updated", "account.deleted", "passcode.set",
                                "passcode.attempted", "scan.recorded", "counterfeit.reported", "settings.changed",
                                "search.performed", "status.changed", "fitness.updated", "goal.set", "session.recorded"]),
    ])
    func pinned(_ list: Pinned) {
        #expect(list.choicesOrder == list.words, "\(list.name).choices was reordered: stored indexes would change")
        #expect(list.declarationOrder == list.words.map(Optional.some), "\(list.name)'s cases were reordered: stored indexes would change")
    }

    /// One word list and the stored order it must keep.
    struct Pinned: Sendable, CustomTestStringConvertible {
        let name: String
        let words: [String]
        /// The words by position in `choices` (how a stored index is read).
        let choicesOrder: [String]
        /// The words by `storedIndex` (how a value is written).
        let declarationOrder: [String?]

        init<C: Choice>(_ type: C.Type, _ words: [String]) {
            name = "\(type)"
            self.words = words
            choicesOrder = C.choices.map(\.rawValue)
            var byIndex = [String?](repeating: nil, count: C.choices.count)
            for value in C.choices where Int(value.storedIndex) < byIndex.count { byIndex[Int(value.storedIndex)] = value.rawValue }
            declarationOrder = byIndex
        }

        var testDescription: String { name }
    }
}
