import Engine

extension VeritrailStore {
    /// From now on, a fault while reading a store's mapped file (a damaged page, a failing or full disk)
    /// ends the process with `exitCode` and a line on stderr that starts with `prefix` and names the store,
    /// instead of a crash without a word. A page that a data file cut while open no longer has is not such a
    /// fault: it is mended, and its transaction refused as a store failure, whether or not this was called.
    public static func exitOnStoreFault(withCode exitCode: Int32, prefix: String) {
        StoreFaults.exit(withCode: exitCode, prefix: prefix)
    }
}
