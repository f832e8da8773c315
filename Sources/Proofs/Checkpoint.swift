import Domain

/// The body of a C2SP `tlog-checkpoint`: the origin, the tree size and its root, one a line.
public struct Checkpoint: Sendable, Equatable {
    public var origin: String
    public var size: UInt64
    public var root: TreeHash

    public init(origin: String, size: UInt64, root: TreeHash) {
        self.origin = origin
        self.size = size
        self.root = root
    }

    /// The note text: three lines, the last one ending with a newline too.
    public var text: String { "\(origin)\n\(size)\n\(root.base64)\n" }

    /// Parses a note text of exactly three lines (proofs.md §2).
    public init(text: String) throws(NoteError) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 4, lines[3].isEmpty else { throw NoteError("a checkpoint's text is three lines: origin, size, root") }
        guard Checkpoint.validOrigin(String(lines[0])) else { throw NoteError("the checkpoint's origin is not valid") }
        guard lines[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let size = UInt64(lines[1]),
              lines[1] == "0" || !lines[1].hasPrefix("0")
        else { throw NoteError("the checkpoint's size is not a decimal number") }
        guard let bytes = Base64.decode(String(lines[2])), let root = TreeHash(bytes: bytes) else {
            throw NoteError("the checkpoint's root is not 32 bytes of base64")
        }
        self.init(origin: String(lines[0]), size: size, root: root)
    }

    /// Whether `name` is 1–100 characters of `[A-Za-z0-9._/:-]` (proofs.md §2).
    public static func validOrigin(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        return (1...100).contains(bytes.count) && bytes.allSatisfy { b in
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || Array("._/:-".utf8).contains(b)
        }
    }
}
