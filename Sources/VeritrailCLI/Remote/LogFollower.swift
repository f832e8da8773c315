import Foundation
import VeritrailKit

/// `log tail --follow` (server.md §5, cli.md): after the last events, each new event as it commits, with
/// `log tail`'s filters and rendering (`--json`: NDJSON, one out-form line each), until interrupted. On a
/// local store it asks the store for a new head every 50 ms; against a server it reads
/// `GET /v1/events?follow=true`, and after a dropped connection asks again from the seq after the last one
/// it saw, so that no event is missed or printed twice.
struct LogFollower {
    let filter: LogFilterOptions
    let json: Bool
    let style: TimeStyle
    let shortenCodes: Bool

    /// Whether the event passes `log tail`'s filters (the seq range, times, actors and types).
    private func matches(_ seq: UInt64, _ event: Event) -> Bool {
        if seq < filter.from { return false }
        if let to = filter.to, seq > to { return false }
        if let since = filter.since.flatMap({ Timestamp($0) }), event.at < since { return false }
        if let until = filter.until.flatMap({ Timestamp($0) }), event.at > until { return false }
        if !filter.actors.isEmpty, !filter.actors.contains(event.actor) { return false }
        if !filter.types.isEmpty, !filter.types.contains(event.type.rawValue) { return false }
        return true
    }

    /// Prints one event at once, as `log tail` prints it.
    private func show(_ line: [UInt8], _ seq: UInt64, _ event: Event) {
        if json { return Output.write(line.last == 0x0A ? line : line + [0x0A]) }
        Output.print("\(seq)  \(style.show(event.at))  \(EventSentence.of(event, shortenCodes: shortenCodes))")
    }

    /// Follows a local store from the event after `head`.
    func follow(_ store: VeritrailStore, after head: UInt64) throws -> Never {
        var last = head
        while true {
            if let to = filter.to, last >= to { exit(0) }
            let now = try store.head(asOf: nil).seq
            if now > last {
                var range = filter.filter(last: nil)
                range.from = max(last + 1, filter.from)
                range.through = min(now, filter.to ?? .max)
                if range.from <= range.through {
                    try store.tail(range) { line in
                        let (seq, event) = try ServerConnection.logged(line)
                        show(line, seq, event)
                    }
                }
                last = now
            }
            usleep(50_000)
        }
    }

    /// Follows a server from the event after `head`, again after every dropped connection.
    func follow(_ server: ServerConnection, after head: UInt64) throws -> Never {
        var last = head
        var told = false
        while true {
            do {
                try server.streamLines("/v1/events", [("follow", "true"), ("from", String(last + 1))], timeout: 45) { line in
                    // The stream's checkpoints and heartbeats are for clients that check them; the events are printed.
                    guard !line.starts(with: Array(#"{"checkpoint""#.utf8)), !line.starts(with: Array(#"{"heartbeat""#.utf8)) else { return }
                    let (seq, event) = try ServerConnection.logged(line)
                    guard seq > last else { return }
                    if matches(seq, event) { show(line, seq, event) }
                    last = seq
                    told = false
                    if let to = filter.to, seq >= to { exit(0) }
                }
            } catch let failure as Failure where failure.code == Failure.storeFailed {
                if !told { Output.note("veritrail: \(failure.message); following again from seq \(last + 1)") }
                told = true
                usleep(500_000)
                continue
            }
            usleep(200_000)
        }
    }
}
