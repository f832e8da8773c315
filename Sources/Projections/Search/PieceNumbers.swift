/// The numbers of a chunk's pieces (`[chunk, pieceList]`, `PieceVocabulary`): sorted, the first as it is and
/// each after it as its gap from the one before, each a LEB128 varint. A list of more than `stride` numbers
/// starts with marks, so that a query looking for a few numbers reads from the mark before each, not the
/// whole list: `[0, 0]` (which no list without marks starts with: a gap of 0 past the first number is no
/// list), the marks' count, then per mark the number before the `stride`·k-th (k from 1) and where that one's
/// gap starts among the gaps' bytes, each a varint.
///
/// Why: a query of 4 bytes or more walked each chunk's list up to the largest number it matched, 200,000 to
/// 590,000 numbers at ten million scans (~1,000 a chunk), a fifth of some needles' CPU time.
enum PieceNumbers {
    /// Numbers from one mark to the next: 64, ~75 bytes of gaps, for ~6 % more bytes in the list.
    static let stride = 64

    static func encoded(_ sorted: [UInt32]) -> [UInt8] {
        var gaps: [UInt8] = []
        gaps.reserveCapacity(sorted.count * 2)
        var marks: [UInt8] = []
        var previous: UInt32 = 0
        for (i, number) in sorted.enumerated() {
            if i > 0 && i % stride == 0 {
                Varint.append(UInt64(previous), to: &marks)
                Varint.append(UInt64(gaps.count), to: &marks)
            }
            Varint.append(UInt64(i == 0 ? number : number - previous), to: &gaps)
            previous = number
        }
        guard !marks.isEmpty else { return gaps }
        var bytes: [UInt8] = [0, 0]
        Varint.append(UInt64((sorted.count - 1) / stride), to: &bytes)
        return bytes + marks + gaps
    }

    /// Calls `body` with each number, in order; false when the bytes are not such a list (a varint cut short
    /// or past 32 bits, a gap of 0, more than `ChunkValues.maxListed`, marks that are not the list's), after
    /// the numbers read before the damage.
    @discardableResult
    static func forEach(_ list: UnsafeRawBufferPointer, _ body: (UInt32) throws -> Void) rethrows -> Bool {
        guard let base = list.baseAddress, let marked = Marks(list) else { return list.isEmpty }
        let end = list.count
        var reader = Reader(at: marked.gaps)
        var mark = marked.first, k = 0
        while reader.at < end {
            if reader.count > 0 && reader.count % stride == 0 {
                // The mark of this number: the one before it, and where its gap starts.
                guard k < marked.count, let (before, offset) = marked.read(base, at: &mark, end: end),
                      before == reader.previous, offset == reader.at - marked.gaps else { return false }
                k += 1
            }
            guard let number = reader.next(base, end: end) else { return false }
            try body(number)
        }
        return k == marked.count
    }

    /// Calls `body` with the place in `wanted` (sorted) of each number the list holds, reading from the mark
    /// before each; false when what it read is not such a list. Damage it does not read through (a mark whose
    /// number or place is not the list's) `log verify` finds (`forEach`).
    @discardableResult
    static func forEachHeld(_ wanted: [UInt32], in list: UnsafeRawBufferPointer, _ body: (_ place: Int) -> Void) -> Bool {
        guard !wanted.isEmpty else { return true }
        guard let base = list.baseAddress, let marked = Marks(list) else { return list.isEmpty }
        let end = list.count
        var reader = Reader(at: marked.gaps)
        var mark = marked.first, k = 0
        var current: UInt64?
        for (place, target) in wanted.enumerated() {
            let target = UInt64(target)
            // Past the marks whose number before is below the target: from the last one ahead of the reader.
            while k < marked.count {
                var next = mark
                guard let (before, offset) = marked.read(base, at: &next, end: end) else { return false }
                guard before < target else { break }
                let index = (k + 1) * stride
                if index > reader.count {
                    guard offset < end - marked.gaps else { return false }
                    reader = Reader(at: marked.gaps + offset, count: index, previous: before)
                    current = nil
                }
                mark = next
                k += 1
            }
            while current.map({ $0 < target }) ?? true {
                guard reader.at < end else { return true }
                guard let number = reader.next(base, end: end) else { return false }
                current = UInt64(number)
            }
            if current == target { body(place) }
        }
        return true
    }

    /// Where a list's marks and gaps begin.
    private struct Marks {
        /// The offset of the first mark, and of the first gap.
        let first: Int, gaps: Int
        let count: Int

        /// Nil when the marks' count does not read.
        init?(_ list: UnsafeRawBufferPointer) {
            guard list.count >= 2, list[0] == 0, list[1] == 0 else {
                (first, gaps, count) = (0, 0, 0)
                return
            }
            guard let base = list.baseAddress else { return nil }
            var at = 2
            guard at < list.count, let count = Varint.read(base, at: &at, end: list.count, maxBytes: 3), count > 0 else { return nil }
            first = at
            self.count = Int(count)
            for _ in 0..<count {
                guard at < list.count, Varint.read(base, at: &at, end: list.count, maxBytes: 5) != nil,
                      at < list.count, Varint.read(base, at: &at, end: list.count, maxBytes: 3) != nil else { return nil }
            }
            gaps = at
        }

        /// The mark at `at` (moved past it): the number before its own, and where its gap starts.
        func read(_ base: UnsafeRawPointer, at: inout Int, end: Int) -> (before: UInt64, offset: Int)? {
            guard at < gaps, let before = Varint.read(base, at: &at, end: gaps, maxBytes: 5),
                  at < gaps, let offset = Varint.read(base, at: &at, end: gaps, maxBytes: 3) else { return nil }
            return (before, Int(offset))
        }
    }

    /// Reads the gaps, from the first or from a mark. A gap of one byte is read as such (`Varint`).
    private struct Reader {
        var at: Int
        /// Numbers before `at`, and the last of them.
        var count = 0
        var previous: UInt64 = 0

        init(at: Int, count: Int = 0, previous: UInt64 = 0) {
            (self.at, self.count, self.previous) = (at, count, previous)
        }

        /// The next number, `at` moved past it; nil when the bytes are not a list's. Requires `at < end`.
        mutating func next(_ base: UnsafeRawPointer, end: Int) -> UInt32? {
            guard let gap = Varint.read(base, at: &at, end: end, maxBytes: 5), count == 0 || gap > 0,
                  count < ChunkValues.maxListed else { return nil }
            let number = count == 0 ? gap : previous + gap
            guard number <= UInt64(UInt32.max) else { return nil }
            previous = number
            count += 1
            return UInt32(number)
        }
    }
}
