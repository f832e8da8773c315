#if canImport(Glibc)
import Glibc
#endif

/// The files of a store on disk.
enum StoreFiles {
    /// Removes a store that a refused command created: LMDB's two files, and the directory if the command
    /// made it too.
    static func remove(_ directory: String, directoryToo: Bool) {
        unlink(directory + "/data.mdb")
        unlink(directory + "/lock.mdb")
        if directoryToo { rmdir(directory) }
    }
}
