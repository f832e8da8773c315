import Projections

extension VeritrailStore {
    /// For each of `ids`, the shortest start that `show` and `report` take for it at the head (4 characters at
    /// least, no other scan id starting so): what a person reads in a table on a narrow terminal, as `git log
    /// --oneline` shows hashes. An id the store does not hold is given whole.
    public func shortScanIds(_ ids: [String]) throws(VeritrailError) -> [String: String] {
        try answer(asOf: .seq(.max), now: nil) { context in
            var short: [String: String] = [:]
            for id in ids where short[id] == nil {
                short[id] = try context.models.scanOrdinal(id) == nil ? id : try ScanIdPrefix.shortest(id, context.models)
            }
            return short
        }
    }
}
