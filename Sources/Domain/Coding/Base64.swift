/// RFC 4648 base64 (standard alphabet, `=` padding, no white space): just what the credential rules need.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The number of bytes `text` decodes to, or nil if it is not canonical padded base64.
    static func decodedCount(_ text: String) -> Int? {
        decode(text)?.count
    }

    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = Array(bytes)[...]
        while !iterator.isEmpty {
            let chunk = Array(iterator.prefix(3))
            iterator = iterator.dropFirst(3)
            let b0 = chunk[0], b1 = chunk.count > 1 ? chunk[1] : 0, b2 = chunk.count > 2 ? chunk[2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(chunk.count > 1 ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : 0x3D)
            out.append(chunk.count > 2 ? alphabet[Int(b2 & 0x3F)] : 0x3D)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes canonical padded base64 (unused bits must be zero), or nil.
    public static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 4 * 3)
        var i = 0
        while i < chars.count {
            let isLast = i + 4 == chars.count
            var values = [UInt8](repeating: 0, count: 4)
            var padding = 0
            for j in 0..<4 {
                let c = chars[i + j]
                if c == 0x3D {
                    guard isLast, j >= 2 else { return nil }
                    padding += 1
                } else {
                    guard padding == 0, let v = value(of: c) else { return nil }
                    values[j] = v
                }
            }
            out.append(values[0] << 2 | values[1] >> 4)
            if padding < 2 { out.append(values[1] << 4 | values[2] >> 2) }
            if padding < 1 { out.append(values[2] << 6 | values[3]) }
            if padding == 2, values[1] & 0x0F != 0 { return nil }
            if padding == 1, values[2] & 0x03 != 0 { return nil }
            i += 4
        }
        return out
    }

    private static func value(of c: UInt8) -> UInt8? {
        switch c {
        case 0x41...0x5A: return c - 0x41
        case 0x61...0x7A: return c - 0x61 + 26
        case 0x30...0x39: return c - 0x30 + 52
        case 0x2B: return 62
        case 0x2F: return 63
        default: return nil
        }
    }
}
