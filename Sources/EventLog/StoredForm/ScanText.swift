public import Domain
import StrictJSON

/// A scan's text fields as UTF-8 bytes, without a `String` each: what its row in the history is made of.
/// The bytes are lent: by the memory map for a stored scan (`StoredEvent.storedScan`), or by a buffer
/// for the length of a call (`with(_:_:)`).
///
/// Why a type of its own: the row's header (`ScanRow.encodedHeader`) is made one way from a stored scan and
/// from a decoded one (`ScanRecorded`), so that the two can not disagree; this is the shape both can lend.
public struct ScanText {
    public var scanId = UnsafeRawBufferPointer(start: nil, count: 0)
    public var code = UnsafeRawBufferPointer(start: nil, count: 0)
    public var productName = UnsafeRawBufferPointer(start: nil, count: 0)
    public var category = UnsafeRawBufferPointer(start: nil, count: 0)
    public var brand: UnsafeRawBufferPointer?
    public var location: UnsafeRawBufferPointer?
    public var batchId: UnsafeRawBufferPointer?
    public var notes: UnsafeRawBufferPointer?

    public init() {}

    /// Keeps `bytes` as the field of `ScanRecorded` named `key`; another key is ignored.
    mutating func record(_ key: StaticString, _ bytes: UnsafeRawBufferPointer) {
        if ScanText.same(key, "scanId") { scanId = bytes }
        else if ScanText.same(key, "code") { code = bytes }
        else if ScanText.same(key, "productName") { productName = bytes }
        else if ScanText.same(key, "category") { category = bytes }
        else if ScanText.same(key, "brand") { brand = bytes }
        else if ScanText.same(key, "location") { location = bytes }
        else if ScanText.same(key, "batchId") { batchId = bytes }
        else if ScanText.same(key, "notes") { notes = bytes }
    }

    /// Whether two keys are the same (`bytesEqual`, without a `String`: this runs for every field of a million scans).
    static func same(_ a: StaticString, _ b: StaticString) -> Bool {
        a.utf8CodeUnitCount == b.utf8CodeUnitCount && bytesEqual(a.utf8Start, b.utf8Start, count: a.utf8CodeUnitCount)
    }

    /// Calls `body` with the text of `scan`, copied into one buffer that lives for the call.
    public static func with<R>(_ scan: ScanRecorded, _ body: (ScanText) throws -> R) rethrows -> R {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(256)
        func add(_ field: String?) -> Range<Int>? {
            guard let field else { return nil }
            let start = buffer.count
            buffer.append(contentsOf: field.utf8)
            return start..<buffer.count
        }
        let scanId = add(scan.scanId)!, code = add(scan.code)!, productName = add(scan.productName)!
        let category = add(scan.category)!, brand = add(scan.brand), location = add(scan.location)
        let batchId = add(scan.batchId), notes = add(scan.notes)
        return try buffer.withUnsafeBytes { base in
            var text = ScanText()
            text.scanId = UnsafeRawBufferPointer(rebasing: base[scanId])
            text.code = UnsafeRawBufferPointer(rebasing: base[code])
            text.productName = UnsafeRawBufferPointer(rebasing: base[productName])
            text.category = UnsafeRawBufferPointer(rebasing: base[category])
            text.brand = brand.map { UnsafeRawBufferPointer(rebasing: base[$0]) }
            text.location = location.map { UnsafeRawBufferPointer(rebasing: base[$0]) }
            text.batchId = batchId.map { UnsafeRawBufferPointer(rebasing: base[$0]) }
            text.notes = notes.map { UnsafeRawBufferPointer(rebasing: base[$0]) }
            return try body(text)
        }
    }
}
