public import ArgumentParser
public import VeritrailKit

/// The values a shell completes (issue #23.2): every word list of the catalogue, and the user names and scan
/// ids of the store the command line names (`--store`, else `VERITRAIL_STORE`, else `./.veritrail`).
extension ExpressibleByArgument where Self: Choice {
    public static var allValueStrings: [String] { choices.map(\.rawValue) }
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

enum Completions {
    /// The usernames of the store, deleted ones left out.
    static let users = CompletionKind.custom { words, _, _ in
        guard let store = open(words), case .array(let accounts)? = try? store.accounts()["accounts"] else { return [] }
        return accounts.compactMap { account in
            guard account["deleted"] != .bool(true), case .string(let name)? = account["username"] else { return nil }
            return name
        }
    }

    /// The ids of the store's newest 1,000 scans.
    static let scanIds = CompletionKind.custom { words, _, _ in
        var query = HistoryQuery()
        query.window = .all
        query.limit = 1000
        guard let store = open(words), case .array(let scans)? = try? store.history(query)["items"] else { return [] }
        return scans.compactMap { if case .string(let id)? = $0["scanId"] { id } else { nil } }
    }

    /// The event types, for `--type`.
    static let eventTypes = CompletionKind.list(EventType.choices.map(\.rawValue))

    /// The store the words being completed name, opened for reading; nil when there is none.
    private static func open(_ words: [String]) -> VeritrailStore? {
        var directory = environment("VERITRAIL_STORE") ?? "./.veritrail"
        for (i, word) in words.enumerated() {
            if word == "--store", i + 1 < words.count { directory = words[i + 1] }
            if word.hasPrefix("--store=") { directory = String(word.dropFirst(8)) }
        }
        return try? VeritrailStore.open(at: directory)
    }
}
