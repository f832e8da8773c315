import Domain

/// `history`'s filters checked against one row's header (projections.md §1): its result, its category, its
/// actor and the search. Where a query reads rows rather than the search index's sets: every row of a store
/// without the index (`HistoryQuery.byReadingRows`), and the newest scans the index leaves out of its sets
/// (`IndexedSearch.page`).
struct RowFilter {
    let type: HistoryQuery.ResultFilter
    let category: [UInt8]?
    /// Nil when the rows read are the actor's already (`ScanSequence(actor:)`).
    let actor: [UInt8]?
    let needle: SearchNeedle

    init(type: HistoryQuery.ResultFilter, category: String?, actor: String?, needle: SearchNeedle) {
        self.type = type
        self.category = category.map { Array($0.utf8) }
        self.actor = actor.map { Array($0.utf8) }
        self.needle = needle
    }

    func matches(_ header: ScanRowHeader) -> Bool {
        switch type {
        case .all: break
        case .success: if header.isCounterfeit { return false }
        case .failed: if !header.isCounterfeit { return false }
        }
        if let category, !header.category.elementsEqual(category) { return false }
        if let actor, !header.actor.elementsEqual(actor) { return false }
        return needle.matches(header)
    }
}
