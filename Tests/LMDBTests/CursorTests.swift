import LMDB
import Testing

struct CursorTests {
    /// Keys "a"..."e" with values 0...4.
    private func letters(_ environment: Environment) throws -> Database {
        let db = try environment.openDatabase("letters", flags: .create)
        try environment.write { txn throws in
            for (i, letter) in ["c", "a", "e", "b", "d"].enumerated() {
                try txn.put(db, Array(letter.utf8), [UInt8(i)])
            }
        }
        return db
    }

    private func key(_ entry: Cursor.Entry?) -> String? {
        entry.map { String(decoding: $0.key, as: UTF8.self) }
    }

    @Test func iteratesForwardAndBackward() throws {
        try withTemporaryEnvironment { environment, _ in
            let db = try letters(environment)
            try environment.read { txn throws in
                let cursor = try txn.cursor(db)
                var forward: [String] = []
                var entry = try cursor.first()
                while let current = entry {
                    forward.append(String(decoding: current.key, as: UTF8.self))
                    entry = try cursor.next()
                }
                #expect(forward == ["a", "b", "c", "d", "e"])

                var backward: [String] = []
                entry = try cursor.last()
                while let current = entry {
                    backward.append(String(decoding: current.key, as: UTF8.self))
                    entry = try cursor.prev()
                }
                #expect(backward == ["e", "d", "c", "b", "a"])
            }
        }
    }

    @Test func seeksExactlyAndByRange() throws {
        try withTemporaryEnvironment { environment, _ in
            let db = try letters(environment)
            try environment.read { txn throws in
                let cursor = try txn.cursor(db)
                #expect(try key(cursor.seek(Array("c".utf8))) == "c")
                #expect(try cursor.current()?.value.bytes == [0])
                #expect(try key(cursor.next()) == "d")
                #expect(try cursor.seek(Array("cc".utf8)) == nil)
                #expect(try key(cursor.seek(atLeast: Array("cc".utf8))) == "d")
                #expect(try key(cursor.seek(atLeast: Array("a".utf8))) == "a")
                #expect(try cursor.seek(atLeast: Array("f".utf8)) == nil)
            }
        }
    }

    @Test func writesAndDeletesThroughACursor() throws {
        try withTemporaryEnvironment { environment, _ in
            let db = try letters(environment)
            try environment.write { txn throws in
                let cursor = try txn.cursor(db)
                // Delete every other entry while scanning.
                var entry = try cursor.first()
                var index = 0
                while entry != nil {
                    if index % 2 == 0 { try cursor.delete() }
                    index += 1
                    entry = try cursor.next()
                }
                try [UInt8]("z".utf8).withUnsafeBytes { key in
                    try [UInt8]([9]).withUnsafeBytes { value in try cursor.put(key, value) }
                }
            }
            let keys = try environment.read { txn throws in
                let cursor = try txn.cursor(db)
                var keys: [String] = []
                while let entry = try cursor.next() { keys.append(String(decoding: entry.key, as: UTF8.self)) }
                return keys
            }
            #expect(keys == ["b", "d", "z"])
        }
    }

    @Test func cursorsMayOutliveTheirTransaction() throws {
        try withTemporaryEnvironment { environment, _ in
            let db = try letters(environment)
            // Read-only: the cursor is closed by deinit after the transaction ended.
            let readCursor = try environment.read { try $0.cursor(db) }
            // Write: LMDB freed the cursor at commit; deinit must not free it again.
            let writeCursor = try environment.write { try $0.cursor(db) }
            #expect(throws: LMDBError.badTransaction) { try readCursor.first() }
            #expect(throws: LMDBError.badTransaction) { try writeCursor.first() }
        }
    }

    @Test func bigEndianIntegerKeysIterateInNumericOrder() throws {
        try withTemporaryEnvironment { environment, _ in
            let db = try environment.openDatabase("seq", flags: .create)
            let numbers: [UInt64] = [256, 1, 0, 65_536, 255, 1 << 40, 2, .max, 4_096]
            try environment.write { txn throws in
                for n in numbers {
                    try n.withBigEndianBytes { key in try txn.put(db, key, key) }
                }
            }
            let read = try environment.read { txn throws in
                let cursor = try txn.cursor(db)
                var read: [UInt64] = []
                while let entry = try cursor.next() {
                    read.append(try #require(UInt64(bigEndianBytes: entry.key)))
                }
                return read
            }
            #expect(read == numbers.sorted())
            #expect(UInt32(258).bigEndianBytes == [0, 0, 1, 2])
            #expect(UInt32(bigEndianBytes: UnsafeRawBufferPointer(start: nil, count: 0)) == nil)
        }
    }
}
