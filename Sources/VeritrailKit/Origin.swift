import Proofs

extension VeritrailStore {
    /// Whether `origin` may name a store's checkpoints (proofs.md §2: 1–100 characters of A–Z a–z 0–9
    /// `. _ / : -`), so that a command can refuse a bad `--origin` before it reads any input.
    public static func isValidOrigin(_ origin: String) -> Bool { Checkpoint.validOrigin(origin) }
}
