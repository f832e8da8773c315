public import Domain
public import StrictJSON

/// `history` (projections.md §1): the scan list with its filters and search, newest first. The filters
/// are Domain's `HistoryQuery`.
extension HistoryQuery {
    /// The answer over `context`'s events; without a window, `viewer` sees their history-window setting.
    public func answer(_ context: QueryContext, viewer: String?) throws -> JSONValue {
        try answer(context, viewer: viewer, path: nil)
    }

    /// How the matching scans are found: from the search index, or by reading every row in the window
    /// (a store without the index, a needle holding a 0 byte, and the tests' oracle for the index).
    enum Path { case index, rows }

    /// The answer, found by `path` (nil: the index whenever it can answer).
    func answer(_ context: QueryContext, viewer: String?, path: Path?) throws -> JSONValue {
        let models = context.models
        var window = self.window ?? .all
        if self.window == nil, let viewer { window = try context.activeAccount(viewer).settings.historyWindow }
        if let by { _ = try context.knownAccount(by) }
        let needle = search.map(SearchNeedle.init)
        let filtered = type != .all || category != nil || needle != nil
        let (total, ordinals): (Int, [UInt32])
        if !filtered {
            (total, ordinals) = try unfiltered(models, window: window, now: context.now)
        } else if try path ?? ((needle?.bytes.contains(0) ?? false) || !models.searchIndexIsReady() ? .rows : .index) == .index {
            let all = try ScanSequence(models: models, actor: nil)
            let search = IndexedSearch(models: models, needle: needle?.bytes ?? [], type: type, category: category, actor: by)
            let first = try all.firstPosition(in: window, now: context.now)
            // Labels alone over every scan: the count is the stats' (kept from the same scans), and only the
            // newest chunks are read, for the page.
            let counted = (needle?.bytes.isEmpty ?? true) && first <= 1 ? try countedByStats(models) : nil
            (total, ordinals) = try search.page(first: first, last: all.count, offset: offset, limit: limit, knownTotal: counted)
        } else {
            (total, ordinals) = try byReadingRows(models, window: window, now: context.now, needle: needle)
        }
        let items = try ordinals.map { try models.scanRow($0).json }
        let categories = try models.stats(.all).categories.map(\.category).sorted(by: codePointPrecedes)
        return J.object(["total": J.int(total), "items": J.array(items), "categories": J.array(categories.map(J.string))])
    }

    /// Every position in the window matches: count it, and read only the page.
    private func unfiltered(_ models: Models, window: HistoryWindow, now: Timestamp) throws -> (Int, [UInt32]) {
        let scans = try ScanSequence(models: models, actor: by)
        let first = try scans.firstPosition(in: window, now: now)
        var ordinals: [UInt32] = []
        var position = Int64(scans.count) - Int64(offset)
        while position >= Int64(first) && ordinals.count < limit {
            ordinals.append(try scans.ordinal(at: UInt32(position)))
            position -= 1
        }
        return (Int(scans.count + 1 - first), ordinals)
    }

    /// How many scans `type`, `category` and `by` let through, from the stats (overall, or the actor's).
    private func countedByStats(_ models: Models) throws -> Int {
        let stats = try models.stats(by.map { .actor($0) } ?? .all)
        var scans = stats.total, counterfeit = stats.counterfeit
        if let category {
            let counts = stats.categories.first { sameBytes($0.category, category) }
            scans = counts?.total ?? 0
            counterfeit = counts?.counterfeit ?? 0
        }
        switch type {
        case .all: return scans
        case .failed: return counterfeit
        case .success: return scans - counterfeit
        }
    }

    /// Reads the header of every row in the window, newest first.
    private func byReadingRows(_ models: Models, window: HistoryWindow, now: Timestamp, needle: SearchNeedle?) throws -> (Int, [UInt32]) {
        let scans = try ScanSequence(models: models, actor: by)
        let first = try scans.firstPosition(in: window, now: now)
        // The rows are the actor's already.
        let filter = RowFilter(type: type, category: category, actor: nil, needle: needle ?? SearchNeedle(lowercased: []))
        var total = 0
        var ordinals: [UInt32] = []
        var position = scans.count
        while position >= first && position > 0 {
            let ordinal = try scans.ordinal(at: position)
            if try models.withScanHeader(ordinal, filter.matches) {
                if total >= offset && ordinals.count < limit { ordinals.append(ordinal) }
                total += 1
            }
            position -= 1
        }
        return (total, ordinals)
    }
}

/// `show SCAN_ID`: one scan as the history shows it.
public func showScan(_ scanId: String, _ context: QueryContext) throws -> JSONValue {
    guard let ordinal = try context.models.scanOrdinal(scanId) else { throw QueryError.refused("no such scan \"\(escapedForMessage(scanId, quotes: true))\"") }
    return try context.models.scanRow(ordinal).json
}
