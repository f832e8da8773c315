import Domain
import Engine
import Projections

/// `scan --batch FILE`: every record of the file as one `scan.recorded` in batch mode, all or nothing.
///
/// The events are read and decoded once, before the write, with the progress bar; the write then only stamps
/// them with its time, so building them again (when the store grows, or after the passcode prompt) is cheap
/// and gives the same events. The store is opened with a map sized for the batch, as `import` does, so that a large
/// batch does not grow the map (and run the write again) several times.
struct BatchScans {
    let global: GlobalOptions
    let passcodeStdin: Bool
    /// `--id`, to retry a batch whose commit may have failed.
    let eventID: String?

    /// More than a scan takes in the store with its indexes (about 1 KB): the map is made this large per row.
    static let bytesPerScan = 2_048

    func run(_ path: String) throws {
        let words = CommandWords(type: .scanRecorded, options: [:])
        try runReporting {
            guard let actor = global.actingUser else {
                throw Failure.usage("who is acting? pass --as USER (or set VERITRAIL_USER)")
            }
            let batchId = "b-" + EventID.random().prefix(8)
            let events: [IncomingEvent]
            do {
                // A store opened for reading, closed before the write opens it again (LMDB: once per process).
                let store = try global.openStore()
                let settings = try store.latest {
                    try $0.models.account(actor)?.settings ?? AccountRecord.Settings()
                }
                events = try BatchFile.events(path, BatchFile.Context(
                    actor: actor, at: environmentNow(), batchId: batchId, defaultFlash: settings.flash),
                    showProgress: !global.json && Output.stderrIsTerminal)
            }
            let writer = try WriteCommand(global: global, passcodeStdin: passcodeStdin, eventID: eventID,
                                          mapSize: (64 << 20) + events.count * BatchScans.bytesPerScan)
            let logged = try words.run {
                try writer.append(unlocking: actor) { at, _ in
                    events.map { event in
                        var event = event
                        event.at = at
                        return event
                    }
                }
            }
            writer.report(logged, "recorded \(logged.count) scans in batch \(batchId)")
        }
    }
}
