internal import SystemCalls

/// The sizes the data file's current meta page claims, read from the file itself and checked against the
/// file's real size before LMDB is let to trust them.
///
/// LMDB sizes its map from the meta page: at least `(last page + 1) × page size`. One flipped bit there (bit
/// 31 of `mm_last_pg`) asks for an 8 TiB map, which LMDB `ftruncate`s and this wrapper would then allocate
/// (`FileSpace.reserve`), filling the disk. A committed store never names a page past the end of its file.
/// The meta page's map size is not trusted at all: a map grown by another process is adopted from the file's
/// size (`Environment.resize`), and a new store's file is cut below the map size its meta page keeps
/// (`Environment.trimToPagesInUse`).
///
/// The layout is LMDB 0.9's on 64-bit machines: a 16-byte page header (`mp_pgno` 8, pad 2, `mp_flags` 2,
/// lower 2, upper 2), then `MDB_meta` — `mm_magic` (4), `mm_version` (4), `mm_address` (8), `mm_mapsize` (8),
/// two 48-byte `MDB_db` (`md_pad` 4, which the first one uses for the page size, `md_flags` 2, `md_depth` 2,
/// four counts of 8, `md_root` 8), `mm_last_pg` (8), `mm_txnid` (8); meta page 0 at offset 0, meta page 1 at
/// one page.
struct MetaPage: Equatable {
    var pageSize: Int
    var mapSize: Int
    var lastPage: UInt64
    var txnid: UInt64
    /// The page header's page number, and whether its flags say it is a meta page (`P_META`).
    var pageNumber: UInt64
    var isMetaPage: Bool
    /// `mm_address`: 0 unless the map is fixed (`MDB_FIXEDMAP`, which no store uses).
    var address: UInt64
    /// LMDB's two databases' flags, depths and roots: the free pages' (`FREE_DBI`) and the main one's.
    var flags: (free: UInt16, main: UInt16)
    var depths: (free: UInt16, main: UInt16)
    var roots: (free: UInt64, main: UInt64)
    /// Whether the other meta page's header and address, which LMDB writes once when it makes the file and
    /// never again, are as it wrote them (`current(ofFileAt:)` sets it). The next write makes that page
    /// current without rewriting them: a flipped byte there passed `log verify`, and after one write no
    /// command could open the store.
    var otherIntact = true

    static func == (a: MetaPage, b: MetaPage) -> Bool {
        a.pageSize == b.pageSize && a.mapSize == b.mapSize && a.lastPage == b.lastPage && a.txnid == b.txnid
            && a.pageNumber == b.pageNumber && a.isMetaPage == b.isMetaPage && a.address == b.address
            && a.flags == b.flags && a.depths == b.depths && a.roots == b.roots
    }

    static let magic: UInt32 = 0xBEEF_C0DE

    /// The meta page LMDB would pick (the valid one with the larger txnid) of the data file at `path`, and
    /// the file's size; nil when the file is absent or too short to hold two pages (a new store, or one
    /// LMDB refuses by itself).
    static func current(ofFileAt path: String) -> (page: MetaPage, fileSize: Int)? {
        guard let fd = try? FileDescriptor.open(path, .readOnly, options: .closeOnExec) else { return nil }
        defer { fd.close() }
        guard let size = try? fd.status().size, let first = read(fd, 152), let page0 = MetaPage(first) else { return nil }
        guard page0.pageSize >= 152, size >= 2 * page0.pageSize,
              read(fd, page0.pageSize - 152) != nil, let second = read(fd, 152) else { return nil }
        let page1 = MetaPage(second)
        // A page with another magic or version is refused by LMDB itself.
        guard let page1 else { return (page0, size) }
        let (newer, other, otherNumber) = page1.txnid > page0.txnid ? (page1, page0, 0) : (page0, page1, 1)
        var current = newer
        current.otherIntact = other.isMetaPage && other.pageNumber == otherNumber && other.address == 0
        return (current, size)
    }

    /// Refuses (`DamagedMetaPage`) a meta page that names a page past the end of a file of `fileSize` bytes,
    /// or whose fields LMDB trusts without a check
    /// are not what LMDB itself writes: its header and a fixed map's address (and the other meta page's:
    /// `otherIntact`), the free pages' database with other flags than `MDB_INTEGERKEY` (one flipped flag
    /// makes every write read the free list as another kind of tree), a main database with flags (Veritrail
    /// never sets any), a tree deeper than a cursor can hold (32) or rooted past the last page.
    func check(fileSize: Int, path: String) throws(DamagedMetaPage) {
        let integerKey: UInt16 = 0x08, noPage = UInt64.max
        guard isMetaPage, pageNumber <= 1, address == 0, otherIntact, flags.free == integerKey, flags.main == 0,
              depths.free <= 32, depths.main <= 32,
              roots.free == noPage || roots.free <= lastPage, roots.main == noPage || roots.main <= lastPage
        else {
            throw DamagedMetaPage(path: path, reason: "holds fields LMDB never writes")
        }
        let (pages, overflow) = lastPage.addingReportingOverflow(1)
        let (needs, tooLarge) = pages.multipliedReportingOverflow(by: UInt64(pageSize))
        if overflow || tooLarge || needs > UInt64(fileSize) {
            throw DamagedMetaPage(path: path, reason: "names page \(lastPage) of a file of \(fileSize / pageSize) pages")
        }
    }

    /// The meta fields of the page whose first 152 bytes are `b`, or nil when it is not a meta page of
    /// LMDB's version 1 format.
    private init?(_ b: [UInt8]) {
        func int(_ offset: Int, _ count: Int) -> UInt64 {
            (0..<count).reduce(UInt64(0)) { $0 | UInt64(b[offset + $1]) << (8 * UInt64($1)) }
        }
        guard UInt32(int(16, 4)) == MetaPage.magic, int(20, 4) == 1 else { return nil }
        let mapSize = int(32, 8), pageSize = int(40, 4)
        guard mapSize <= UInt64(Int.max), pageSize.nonzeroBitCount == 1 else { return nil }
        self.pageSize = Int(pageSize)
        self.mapSize = Int(mapSize)
        lastPage = int(136, 8)
        txnid = int(144, 8)
        pageNumber = int(0, 8)
        isMetaPage = int(10, 2) & 0x08 != 0
        address = int(24, 8)
        flags = (UInt16(int(44, 2)), UInt16(int(92, 2)))
        depths = (UInt16(int(46, 2)), UInt16(int(94, 2)))
        roots = (int(80, 8), int(128, 8))
    }

    /// The next `count` bytes of `fd`, or nil when the file ends first.
    private static func read(_ fd: FileDescriptor, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = (try? bytes.withUnsafeMutableBytes { buffer throws(SystemError) in
                try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            }) ?? 0
            guard n > 0 else { return nil }
            filled += n
        }
        return bytes
    }
}
