/// The scans that hold a needle by sets a query reads once for the four chunks of a group
/// (`SearchIndex.chunksPerGroup`), whose keys lie together: from just past a head (`HeadSets`) or just before
/// a tail (`TailSets`). Asked only for a chunk with candidates no piece proves (after its trigrams are read,
/// or between them, `likelyProven`), and only for a needle some piece of the vocabulary gives that shape
/// (`ProofSets.mayProve`, looked up the first time), so that other needles pay nothing.
final class GroupProofs<Sets: ProofSets> {
    private let needle: [UInt8]
    private let tables: any ModelTables
    private var sets: Sets?
    private var group: UInt32?
    private var proofs: [ChunkBits?] = []
    /// Whether the group read last proved a scan: a needle whose sets prove nothing there (one in scan ids,
    /// `s-27625`) does not read the next group's before its trigrams do not settle it (`likelyProven`).
    private var provedLately = true

    init(needle: [UInt8], tables: any ModelTables) {
        self.needle = needle
        self.tables = tables
    }

    /// The scans of `chunk` proven so; nil: none.
    func proven(chunk: UInt32) throws -> ChunkBits? {
        // A shorter needle's sets are exact: nothing to prove, and the vocabulary is not read for it.
        guard needle.count >= ChunkValues.shortest else { return nil }
        let sets = try self.sets ?? Sets(needle: needle, tables: tables)
        self.sets = sets
        guard sets.mayProve else { return nil }
        if group != SearchIndex.group(of: chunk) {
            group = SearchIndex.group(of: chunk)
            proofs = try sets.read(groupOf: chunk, in: tables)
            provedLately = proofs.contains { $0.map { !$0.isEmpty } ?? false }
        }
        return proofs[Int(SearchIndex.place(chunk))]
    }

    /// `proven(chunk:)` when its group is read already or the group read before proved a scan; else nil.
    func likelyProven(chunk: UInt32) throws -> ChunkBits? {
        guard provedLately || hasRead(chunk: chunk) else { return nil }
        return try proven(chunk: chunk)
    }

    /// Whether `chunk`'s group is read already.
    func hasRead(chunk: UInt32) -> Bool { group == SearchIndex.group(of: chunk) }
}

/// One kind of sets `GroupProofs` reads for a needle (4 bytes or more).
protocol ProofSets {
    /// Looks up in the vocabulary the pieces that give the needle this shape.
    init(needle: [UInt8], tables: any ModelTables) throws
    /// Whether some piece does: else no set is read.
    var mayProve: Bool { get }
    /// Per chunk of the group of `chunk`, in order of place, the scans proven (nil: none).
    func read(groupOf chunk: UInt32, in tables: any ModelTables) throws -> [ChunkBits?]
}

/// What proves a needle's matches at a piece's edges, past a head (`HeadProofs`) or before a tail
/// (`TailProofs`), asked together by `IndexedSearch`.
struct EdgeProofs {
    let heads: HeadProofs
    let tails: TailProofs

    init(needle: [UInt8], tables: any ModelTables) {
        heads = HeadProofs(needle: needle, tables: tables)
        tails = TailProofs(needle: needle, tables: tables)
    }

    func proven(chunk: UInt32) throws -> ChunkBits? {
        EdgeProofs.union(try heads.proven(chunk: chunk), try tails.proven(chunk: chunk))
    }

    func likelyProven(chunk: UInt32) throws -> ChunkBits? {
        EdgeProofs.union(try heads.likelyProven(chunk: chunk), try tails.likelyProven(chunk: chunk))
    }

    /// Whether the sets of `chunk`'s group were read already (by `likelyProven`).
    func haveRead(chunk: UInt32) -> Bool { heads.hasRead(chunk: chunk) || tails.hasRead(chunk: chunk) }

    private static func union(_ a: ChunkBits?, _ b: ChunkBits?) -> ChunkBits? {
        guard var a else { return b }
        if let b { a.formUnion(b) }
        return a
    }
}
