import Domain
import EventLog
public import LMDB
import Projections
import SystemCalls

extension Store {
    /// The damage `auditPages` found in the store's databases.
    public struct PageDamage: Error, Sendable, CustomStringConvertible {
        /// Where and what (`PageAudit`): the first damage of each damaged database.
        public var damage: [DamagedPage]
        /// The read models' tables: every table of `ModelTable`, so a table added there is one too.
        let readModels: Set<String>

        /// Whether `rebuild` repairs the store: only read models are damaged, which it makes again from the
        /// log, and the rebuild can free their pages (it drops the tables: `DamagedPage.Extent`) and read what it
        /// reads of them first (the scan list, whose entries it sums to keep it when it is right).
        public var rebuildRepairs: Bool {
            damage.allSatisfy { damage in
                guard readModels.contains(damage.database) else { return false }
                switch damage.extent {
                case .records: return true
                case .leafPage: return !Models.scanListTables.map(\.name).contains(damage.database)
                case .tree: return false
                }
            }
        }

        public var description: String {
            let first = damage[0]
            if rebuildRepairs {
                return "the store's read models are damaged (table \(first)); the log is sound and they are made from it: "
                    + "run `veritrail rebuild` to make them again"
            }
            if damage.allSatisfy({ readModels.contains($0.database) }) {
                return "the store's read models are damaged (table \(first)) where a rebuild can not safely read or free them; "
                    + "the log is sound: export it (`veritrail export`) and import it into a new store"
            }
            let outside = damage.first { !readModels.contains($0.database) } ?? first
            return "the store is damaged: its database \(outside): restore it from a backup, or import an export into a new store"
        }
    }

    /// Walks every database of the store page by page (`PageAudit`: LMDB's own, the log's, the Merkle
    /// tree's, the store's meta, and every read model's, whatever the main database names), so that a store
    /// `log verify` calls ok answers every read and takes every write; the read models' records are decoded
    /// as the queries decode them (`ModelTable.recordCheck`). Runs in a read transaction of its own,
    /// so it can run on a thread of its own beside the chain's check. The damage found, or nil.
    public func auditPages() throws -> PageDamage? {
        let models = Set(ModelTable.allCases.map(\.name))
        for _ in 0..<8 {
            do {
                let damage = try log.environment.read { txn in
                    let head = try LogReader(log: log, transaction: txn).head().seq
                    return try PageAudit.run(txn) { name in ModelTable.recordCheck(forTableNamed: name, head: head) }
                }
                return damage.isEmpty ? nil : PageDamage(damage: damage, readModels: models)
            } catch is SnapshotMoved {
                continue
            }
        }
        throw StoreError("the store changed too fast to be checked: try again")
    }

    /// The page audit of one `log verify` (`auditPages`), run once by whichever asks first: the log's sweep,
    /// as its first job (`CheckpointCheck`'s `beside`), a thread of the caller's, or the caller when it needs
    /// the answer and neither ran it. A second caller waits for the first's answer.
    public final class PageAuditRun: @unchecked Sendable {
        private let store: Store
        /// Held while the audit runs.
        private let lock = ConditionLock()
        private var result: Result<PageDamage?, any Error>?

        public init(_ store: Store) { self.store = store }

        /// Runs the audit unless it ran; its answer.
        @discardableResult
        public func run() -> Result<PageDamage?, any Error> {
            lock.lock()
            defer { lock.unlock() }
            if let result { return result }
            let answer = Result { try store.auditPages() }
            result = answer
            return answer
        }

        /// The damage the audit found (running it now unless it ran), or nil.
        public func damage() throws -> PageDamage? { try run().get() }
    }
}
