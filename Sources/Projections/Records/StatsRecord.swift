public import Domain
import EventLog

/// Running scan counts, over all scans (key "*") or one actor's: what `stats` answers without walking scans.
public struct StatsRecord: Sendable, Equatable {
    public var total = 0
    public var counterfeit = 0
    public var reported = 0
    /// Per category: scans and counterfeit scans, in first-seen order.
    public var categories: [CategoryCount] = []
    public var firstScanAt: Timestamp?
    public var lastScanAt: Timestamp?

    public struct CategoryCount: Sendable, Equatable {
        public var category: String
        public var total: Int
        public var counterfeit: Int
    }

    public var authentic: Int { total - counterfeit }

    mutating func add(category: String, counterfeit isCounterfeit: Bool, at: Timestamp) {
        total += 1
        if isCounterfeit { counterfeit += 1 }
        if firstScanAt == nil { firstScanAt = at }
        lastScanAt = at
        if let i = categories.firstIndex(where: { sameBytes($0.category, category) }) {
            categories[i].total += 1
            if isCounterfeit { categories[i].counterfeit += 1 }
        } else {
            categories.append(CategoryCount(category: category, total: 1, counterfeit: isCounterfeit ? 1 : 0))
        }
    }

    func encoded() -> [UInt8] {
        var s = BinaryFieldSink()
        s.varint(UInt64(total)); s.varint(UInt64(counterfeit)); s.varint(UInt64(reported))
        s.optionalInteger("", firstScanAt?.microseconds); s.optionalInteger("", lastScanAt?.microseconds)
        s.varint(UInt64(categories.count))
        for c in categories { s.raw(c.category); s.varint(UInt64(c.total)); s.varint(UInt64(c.counterfeit)) }
        return s.bytes
    }

    init() {}

    init(decoding bytes: UnsafeRawBufferPointer) throws(FieldError) {
        var s = BinaryFieldSource(bytes: bytes)
        total = Int(try s.varint("total")); counterfeit = Int(try s.varint("counterfeit"))
        reported = Int(try s.varint("reported"))
        firstScanAt = try s.optionalInteger("firstScanAt", 0...0).map(Timestamp.init(microseconds:))
        lastScanAt = try s.optionalInteger("lastScanAt", 0...0).map(Timestamp.init(microseconds:))
        let count = Int(try s.varint("categories"))
        for _ in 0..<count {
            categories.append(CategoryCount(category: try s.raw("category"), total: Int(try s.varint("total")),
                                            counterfeit: Int(try s.varint("counterfeit"))))
        }
    }
}
