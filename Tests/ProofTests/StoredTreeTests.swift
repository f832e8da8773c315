import Crypto
import Foundation
import LMDB
@testable import Proofs
import Testing

/// The tree as LMDB keeps it (one record per leaf) answers like the tree of the RFC, across transactions.
@Suite("The stored tree")
struct StoredTreeTests {
    @Test func storedTreeAnswersLikeTheMemoryTreeAtEverySize() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = try Environment(path: directory.path, mapSize: 16 << 20, maxDatabases: 8)
        let proofs = try ProofStore(environment: environment, directory: directory.path)
        let top = 300
        // Appended in transactions of uneven sizes, so that the frontier is read back from the records.
        var appended = 0
        for batch in [1, 2, 5, 8, 27, 64, 100, 93] {
            try environment.write { (txn: Transaction) throws -> Void in
                let writer = try TreeWriter(tree: proofs.tree(txn))
                #expect(writer.frontier.size == UInt64(appended))
                for i in appended..<(appended + batch) { try writer.append(TreeHash.leaf(oracleLeaf(i))) }
            }
            appended += batch
        }
        #expect(appended == top)
        let memory = MemoryTree(leaves: (0..<top).map(oracleLeaf))
        try environment.read { (txn: Transaction) throws -> Void in
            let tree = proofs.tree(txn)
            #expect(try tree.size() == UInt64(top))
            for n in 0...UInt64(top) {
                #expect(try MerkleMath.root(size: n, tree) == MerkleMath.root(size: n, memory))
                #expect(try tree.frontier(size: n).root == MerkleMath.root(size: n, memory))
            }
            for n in stride(from: UInt64(1), through: UInt64(top), by: 7) {
                for m in 0..<n {
                    #expect(try MerkleMath.inclusionPath(index: m, size: n, tree) == MerkleMath.inclusionPath(index: m, size: n, memory))
                    #expect(try MerkleMath.consistencyProof(old: m, size: n, tree) == MerkleMath.consistencyProof(old: m, size: n, memory))
                }
            }
            // Record i holds 32 bytes per hash: the leaf and the nodes it completes.
            for i in 0..<UInt64(top) {
                #expect(try tree.record(i)?.count == 32 * (1 + (~i).trailingZeroBitCount))
            }
        }
    }

    @Test func signedNotesVerifyOnlyUnderTheirKeyAndUnchanged() throws {
        let key = Curve25519Key()
        let identity = (verifier: VerifierKey(name: "example.org/log", publicKey: Array(key.key.publicKey.rawRepresentation)), ())
        let checkpoint = Checkpoint(origin: "example.org/log", size: 3, root: TreeHash.empty)
        let note = try SignedNote.sign(checkpoint.text, name: "example.org/log", key: key.key)
        #expect(try Checkpoint(text: try SignedNote.open(note, key: identity.verifier)) == checkpoint)
        #expect(try VerifierKey(parsing: identity.verifier.text) == identity.verifier)
        // Changed text, another key of the same name, a key ID that does not match, a broken line.
        #expect(throws: NoteError.self) { try SignedNote.open(note.replacingOccurrences(of: "\n3\n", with: "\n4\n"), key: identity.verifier) }
        let other = VerifierKey(name: "example.org/log", publicKey: Array(Curve25519Key().key.publicKey.rawRepresentation))
        #expect(throws: NoteError.self) { try SignedNote.open(note, key: other) }
        #expect(throws: NoteError.self) { try VerifierKey(parsing: "example.org/log+00000000+" + identity.verifier.text.split(separator: "+", maxSplits: 2)[2]) }
        #expect(throws: NoteError.self) { try SignedNote.open(String(note.dropLast()), key: identity.verifier) }
        #expect(throws: NoteError.self) { try Checkpoint(text: "example.org/log\n03\n\(TreeHash.empty.base64)\n") }
        #expect(throws: NoteError.self) { try Checkpoint(text: "bad origin\n3\n\(TreeHash.empty.base64)\n") }
        #expect(Checkpoint.validOrigin("veritrail.invalid/0123456789abcdef"))
    }

    /// C2SP verifiers refuse anything after the signature lines, and lines that are not signatures.
    @Test func aSignedNoteIsParsedStrictly() throws {
        let key = Curve25519Key()
        let verifier = VerifierKey(name: "example.org/log", publicKey: Array(key.key.publicKey.rawRepresentation))
        let note = try SignedNote.sign(Checkpoint(origin: "example.org/log", size: 3, root: TreeHash.empty).text,
                                       name: "example.org/log", key: key.key)
        _ = try SignedNote.open(note, key: verifier)
        for bad in [note + "trailing text\n", note + "\n", note + "— \n", note + "— example.org/log\n", note + "garbage",
                    note.replacingOccurrences(of: "example.org/log\n3", with: "example.org/log\u{07}\n3")] {
            #expect(throws: NoteError.self) { try SignedNote.open(bad, key: verifier) }
        }
        #expect(!Checkpoint.validOrigin("") && !Checkpoint.validOrigin(String(repeating: "a", count: 101)) && !Checkpoint.validOrigin("a+b"))
    }
}

/// A fresh Ed25519 key, for the note tests.
struct Curve25519Key {
    let key = Curve25519.Signing.PrivateKey()
}
