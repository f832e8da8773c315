import LMDB

/// What a process does when reading a store's file faults (a damaged page, a failing or full disk): see
/// `LMDB.MapFaults`. A command-line tool ends with a message and an exit code; a long-running server would
/// rather not install this and let such a fault crash it, to be restarted.
public enum StoreFaults {
    /// From now on, a fault while a store is open ends the process with `exitCode` and a line on stderr
    /// that starts with `prefix` and names the store.
    public static func exit(withCode exitCode: Int32, prefix: String) {
        MapFaults.install(prefix: prefix, exitCode: exitCode)
    }
}
