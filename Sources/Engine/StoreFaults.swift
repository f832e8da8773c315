import LMDB

/// What a process does when reading a store's file faults (a damaged page, a failing or full disk): see
/// `LMDB.MapFaults`. It ends with a message and an exit code, unless the fault is a page that a file cut while
/// open no longer has, which is mended and refused as an error (every command of `veritrail`, `serve` included).
public enum StoreFaults {
    /// From now on, a fault while a store is open ends the process with `exitCode` and a line on stderr
    /// that starts with `prefix` and names the store.
    public static func exit(withCode exitCode: Int32, prefix: String) {
        MapFaults.install(prefix: prefix, exitCode: exitCode)
    }
}
