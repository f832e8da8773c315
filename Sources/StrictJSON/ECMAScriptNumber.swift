/// ECMAScript's Number::toString(x), which RFC 8785 prescribes for numbers: the shortest
/// digits that round-trip, plain decimal for 1e-6 ≤ |x| < 1e21 (`48.137154`, `48`,
/// `0.000001`, `123456789012345680000`), exponent form otherwise (`1e-7`, `1.5e+21`), and
/// `0` for both zeros.
///
/// Total like its ECMAScript model: NaN and the infinities give `NaN`, `Infinity` and
/// `-Infinity`, which are not JSON; `CanonicalJSONWriter.double(_:)` refuses them.
public func ecmaScriptNumberString(_ value: Double) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    appendECMAScriptNumber(value, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

/// Appends `ecmaScriptNumberString(value)` as UTF-8, without making a `String` of it.
///
/// The digits come from Swift's `description`, which is already the shortest round-trip,
/// closest-to-the-value digit string (as ECMAScript requires); only its layout is
/// redone here, because Swift switches to exponent form at other thresholds (`1e+16`,
/// `1e-05`) and writes `48.0` for integral values.
func appendECMAScriptNumber(_ value: Double, to out: inout [UInt8]) {
    if value.isNaN {
        out.append(contentsOf: "NaN".utf8)
        return
    }
    if value.isInfinite {
        out.append(contentsOf: (value < 0 ? "-Infinity" : "Infinity").utf8)
        return
    }
    if value == 0 {
        out.append(UInt8(ascii: "0"))
        return
    }

    // Decompose the description into digits d1…dk and n with value = 0.d1…dk × 10^n.
    var digits: [UInt8] = []
    digits.reserveCapacity(20)
    var digitsBeforePoint: Int? = nil
    var exponent = 0
    var exponentSign = 1
    var inExponent = false
    for byte in value.magnitude.description.utf8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            if inExponent {
                exponent = exponent * 10 + Int(byte - UInt8(ascii: "0"))
            } else {
                digits.append(byte)
            }
        case UInt8(ascii: "."):
            digitsBeforePoint = digits.count
        case UInt8(ascii: "e"), UInt8(ascii: "E"):
            digitsBeforePoint = digitsBeforePoint ?? digits.count
            inExponent = true
        case UInt8(ascii: "-"):
            exponentSign = -1
        default:
            break  // "+" of the exponent
        }
    }
    let leadingZeros = digits.prefix { $0 == UInt8(ascii: "0") }.count
    let n = (digitsBeforePoint ?? digits.count) - leadingZeros + exponentSign * exponent
    var end = digits.count
    while digits[end - 1] == UInt8(ascii: "0") { end -= 1 }  // stops: value ≠ 0 has a non-zero digit
    let significant = digits[leadingZeros..<end]
    let k = significant.count

    if value < 0 { out.append(UInt8(ascii: "-")) }
    if k <= n && n <= 21 {
        out.append(contentsOf: significant)
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: n - k))
    } else if 0 < n && n <= 21 {
        out.append(contentsOf: significant.prefix(n))
        out.append(UInt8(ascii: "."))
        out.append(contentsOf: significant.dropFirst(n))
    } else if -6 < n && n <= 0 {
        out.append(contentsOf: "0.".utf8)
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -n))
        out.append(contentsOf: significant)
    } else {
        out.append(significant[leadingZeros])
        if k > 1 {
            out.append(UInt8(ascii: "."))
            out.append(contentsOf: significant.dropFirst())
        }
        out.append(contentsOf: (n - 1 < 0 ? "e-" : "e+").utf8)
        out.append(contentsOf: String((n - 1).magnitude).utf8)
    }
}
