/// A field whose value is one of a few words (`result`, `mode`, `role`, …).
///
/// Stored as its position in `choices` (one byte), written and read as its word.
public protocol Choice: RawRepresentable, Hashable, Sendable where RawValue == String {
    /// Every value, in a fixed order: the stored form is the position in this list, so append only.
    static var choices: [Self] { get }
}

extension Choice {
    public var storedIndex: UInt8 { UInt8(Self.choices.firstIndex(of: self)!) }

    static var words: [String] { choices.map(\.rawValue) }
}
