import Domain
import SystemCalls

/// The scans a query looks at, in log order: all scans, or one actor's. Position `i` (1-based) maps to a
/// scan ordinal; since time never runs backwards in the log, `at` never decreases with the position, so a
/// time window is a range of positions found by binary search.
struct ScanSequence {
    let models: Models
    let actor: String?
    let count: UInt32

    init(models: Models, actor: String?) throws {
        self.models = models
        self.actor = actor
        count = try actor.map { try models.scanCount(actor: $0) } ?? models.scanCount()
    }

    func ordinal(at position: UInt32) throws -> UInt32 {
        guard let actor else { return position }
        return try models.scanOrdinal(actor: actor, position)
    }

    func at(_ position: UInt32) throws -> Timestamp {
        try models.scanAt(try ordinal(at: position))
    }

    /// The first position whose scan is at or after `bound` (`strictly`: after it); `count + 1` if none.
    func firstPosition(after bound: Timestamp, strictly: Bool) throws -> UInt32 {
        var low: UInt32 = 1, high = count + 1
        while low < high {
            let mid = low + (high - low) / 2
            let t = try at(mid)
            if strictly ? t > bound : t >= bound { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// The first position inside `window` at `now` (projections.md §0): `today` is the UTC date of `now`,
    /// `7d`/`30d`/`90d` are `now − N days < at`. Every kept scan is at or before `now`.
    func firstPosition(in window: HistoryWindow, now: Timestamp) throws -> UInt32 {
        switch window {
        case .all: return 1
        case .today: return try firstPosition(after: now.date.start, strictly: false)
        case .sevenDays: return try firstPosition(after: now.adding(seconds: -7 * 86_400), strictly: true)
        case .thirtyDays: return try firstPosition(after: now.adding(seconds: -30 * 86_400), strictly: true)
        case .ninetyDays: return try firstPosition(after: now.adding(seconds: -90 * 86_400), strictly: true)
        }
    }

    /// How many scans fall in `window` at `now`.
    func count(in window: HistoryWindow, now: Timestamp) throws -> Int {
        Int(count + 1 - (try firstPosition(in: window, now: now)))
    }
}

/// A substring search over a row's lower-cased search text (see `ScanRow`).
struct SearchNeedle {
    let bytes: [UInt8]
    /// Whether the needle holds a 0 byte (the fields' separator), found once rather than for every row.
    private let spansFields: Bool

    init(_ text: String) {
        bytes = CaseFolding.lowercasedUTF8(text)
        spansFields = bytes.contains(0)
    }

    init(lowercased bytes: [UInt8]) {
        self.bytes = bytes
        spansFields = bytes.contains(0)
    }

    /// Whether any search field of the row contains the needle. Fields are separated by 0 bytes, so a
    /// needle without a 0 byte can only match inside one field and one search of the whole text does; a
    /// needle with one is looked for field by field.
    func matches(_ header: ScanRowHeader) -> Bool {
        if bytes.isEmpty { return true }
        return bytes.withUnsafeBytes { needle in
            if !spansFields { return SearchNeedle.contains(header.searchText, needle) }
            return header.searchFields.contains { SearchNeedle.contains($0, needle) }
        }
    }

    /// Whether `haystack` contains `needle` (non-empty), by `ByteSearch.firstIndex(of:in:)`: the C library's
    /// `memchr` to each candidate first byte, then the needle's last byte compared in place, and only then
    /// `memcmp` for the bytes between (vectorised, faster than a Swift loop over every scan's text). The last
    /// byte weeds out most candidates without a call: a search typed letter by letter is mostly needles of 1
    /// to 3 bytes whose first byte is common, and a `memcmp` per candidate was a quarter of a served search's
    /// time.
    static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        ByteSearch.firstIndex(of: needle, in: haystack) != nil
    }
}
