import Engine

extension VeritrailStore {
    /// From now on, a fault while reading a store's mapped file (a damaged page, a failing or full disk)
    /// ends the process with `exitCode` and a line on stderr that starts with `prefix` and names the store,
    /// instead of a crash without a word. For a command-line tool, which ends anyway; a long-running server
    /// would rather not call this and let such a fault crash it, to be restarted.
    public static func exitOnStoreFault(withCode exitCode: Int32, prefix: String) {
        StoreFaults.exit(withCode: exitCode, prefix: prefix)
    }
}
