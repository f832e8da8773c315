extension JSONValue {
    /// Deepest nesting of arrays and objects that `parse` accepts.
    public static var maxDepth: Int { JSONParser.maxDepth }

    /// Parses exactly one JSON text (RFC 8259, strictly; see `JSONParser`) from raw bytes.
    ///
    /// This is the fast path for NDJSON: hand it each line's bytes without copying.
    /// Error offsets are relative to the start of `bytes`.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSONValue {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw JSONSyntaxError(offset: 0, message: "unexpected end of input")
        }
        var parser = JSONParser(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        return try parser.parseDocument()
    }

    /// Parses bytes held in any collection: `[UInt8]`, `ArraySlice<UInt8>`, `Data`, ...
    /// Contiguous storage is read in place; anything else is copied once.
    public static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(JSONSyntaxError) -> JSONValue {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONSyntaxError) in try parse(UnsafeRawBufferPointer(buffer)) }
        } ?? Array(bytes).withUnsafeBytes { buffer in
            Result { () throws(JSONSyntaxError) in try parse(buffer) }
        }
        return try result.get()
    }

    /// Parses the UTF-8 of a string.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var text = text
        return try text.withUTF8 { buffer in
            Result { () throws(JSONSyntaxError) in try parse(UnsafeRawBufferPointer(buffer)) }
        }.get()
    }

    /// Parses the UTF-8 of a substring (e.g. one line of a file); offsets are relative to it.
    public static func parse(_ text: Substring) throws(JSONSyntaxError) -> JSONValue {
        var text = text
        return try text.withUTF8 { buffer in
            Result { () throws(JSONSyntaxError) in try parse(UnsafeRawBufferPointer(buffer)) }
        }.get()
    }
}
