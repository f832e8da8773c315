/// A write whose events were committed but whose signed checkpoint could not be put in place afterwards (an
/// I/O error at fsync or rename, a permission refused; a full disk refuses the write before its commit instead): the
/// events are in the log. Said with the id the write was given, so that a retry under it writes nothing
/// twice; the next write keeps the checkpoint first, and is refused while it can not.
public struct UnkeptCheckpoint: Error, CustomStringConvertible {
    /// The id the write's first event was given: a retry with it (`WriteOptions.eventID`) writes nothing twice.
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

    /// Says what happened and what to do, in the command line's words.
    public var description: String {
        """
        the write was recorded (the log holds \(size) events) but its signed checkpoint could not be kept (\(reason)): \
        do not run it again (with --id \(eventID) it writes nothing twice); the next write keeps the checkpoint first, \
        and is refused while it can not
        """
    }
}
