public import Domain
public import StrictJSON

/// `history` (projections.md §1): the scan list with its filters and search, newest first. The filters
/// are Domain's `HistoryQuery`.
extension HistoryQuery {
    /// The answer over `context`'s events; without a window, `viewer` sees their history-window setting.
    public func answer(_ context: QueryContext, viewer: String?) throws -> JSONValue {
        let models = context.models
        var window = self.window ?? .all
        if self.window == nil, let viewer { window = try context.activeAccount(viewer).settings.historyWindow }
        if let by { _ = try context.knownAccount(by) }
        let scans = try ScanSequence(models: models, actor: by)
        let first = try scans.firstPosition(in: window, now: context.now)
        let needle = search.map(SearchNeedle.init)
        let categoryBytes = category.map { Array($0.utf8) }
        let filtered = type != .all || category != nil || needle != nil

        var total = 0
        var items: [JSONValue] = []
        if !filtered {
            // Every position in the window matches: count it, and read only the page.
            total = Int(scans.count + 1 - first)
            var position = Int64(scans.count) - Int64(offset)
            while position >= Int64(first) && items.count < limit {
                items.append(try models.scanRow(try scans.ordinal(at: UInt32(position))).json)
                position -= 1
            }
        } else {
            var position = scans.count
            while position >= first && position > 0 {
                let ordinal = try scans.ordinal(at: position)
                let take = try models.withScanHeader(ordinal) { header in
                    switch type {
                    case .all: break
                    case .success: if header.isCounterfeit { return false }
                    case .failed: if !header.isCounterfeit { return false }
                    }
                    if let categoryBytes, !header.category.elementsEqual(categoryBytes) { return false }
                    if let needle, !needle.matches(header) { return false }
                    return true
                }
                if take {
                    if total >= offset && items.count < limit { items.append(try models.scanRow(ordinal).json) }
                    total += 1
                }
                position -= 1
            }
        }
        let categories = try models.stats(.all).categories.map(\.category).sorted(by: codePointPrecedes)
        return J.object(["total": J.int(total), "items": J.array(items), "categories": J.array(categories.map(J.string))])
    }
}

/// `show SCAN_ID`: one scan as the history shows it.
public func showScan(_ scanId: String, _ context: QueryContext) throws -> JSONValue {
    guard let ordinal = try context.models.scanOrdinal(scanId) else { throw QueryError.refused("no such scan \"\(scanId)\"") }
    return try context.models.scanRow(ordinal).json
}
