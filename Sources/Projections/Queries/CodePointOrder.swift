/// Code-point order of two strings (UTF-8 byte order is code-point order).
func codePointPrecedes(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}
