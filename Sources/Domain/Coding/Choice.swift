/// A field whose value is one of a few words (`result`, `mode`, `role`, …).
///
/// Stored as its position in `choices` (one byte), written and read as its word.
public protocol Choice: RawRepresentable, Hashable, Sendable where RawValue == String {
    /// Every value, in declaration order: the stored form is the position in this list, so append only.
    static var choices: [Self] { get }
}

extension Choice {
    /// The position in `choices`: an enum without payloads is laid out as its case's declaration index
    /// (one byte, or none for a single case), which `choices` lists in order. Looking the value up in
    /// `choices` instead costs a generic array search on every field written.
    @inline(__always)
    public var storedIndex: UInt8 {
        MemoryLayout<Self>.size == 0 ? 0 : unsafeBitCast(self, to: UInt8.self)
    }

    static var words: [String] { choices.map(\.rawValue) }
}
