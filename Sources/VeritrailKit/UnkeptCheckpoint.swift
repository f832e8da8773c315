/// A write whose events were committed but whose signed checkpoint could not be kept afterwards (no space, an
/// I/O error at fsync or rename, a lock or permission refused): said as a failed commit is said
/// (`UncertainCommit`), with the id to retry under, so that the retry writes nothing twice and signs the
/// checkpoint.
public struct UnkeptCheckpoint: Error, CustomStringConvertible {
    /// The id the write's first event was given: retry with it (`WriteOptions.eventID`).
    public var eventID: String
    /// The size of the checkpoint that was not kept (the log's head after the write).
    public var size: UInt64
    /// Why, naming the file.
    public var reason: String

    public init(eventID: String, size: UInt64, reason: String) {
        self.eventID = eventID
        self.size = size
        self.reason = reason
    }

    /// Says what to do, in the command line's words.
    public var description: String {
        """
        the signed checkpoint could not be kept after the commit (\(reason)): the write may have been recorded all the \
        same: check with `veritrail log tail`; to retry it safely, run the same command again with --id \(eventID)
        """
    }
}
