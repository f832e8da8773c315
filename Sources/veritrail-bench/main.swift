// veritrail-bench: measurements that the CLI does not expose as one command.
//
//   veritrail-bench decode --store DIR
//
// Opens the store read-only, reads every stored event back and decodes it to the Swift event types
// (LogReader.forEach), and prints `events seconds events/s` on one line (also as JSON with --json).
import Domain
import Engine
import EventLog
import Projections
import SystemCalls

func fail(_ message: String, code: Int32 = 64) -> Never {
    // Nothing is left to do when stderr can not be written: the exit code still says it failed.
    try? FileDescriptor.standardError.writeAll(Array("veritrail-bench: \(message)\n".utf8))
    CurrentProcess.exit(code)
}

/// `seconds` with three decimals, as `%.3f` writes it.
func threeDecimals(_ seconds: Double) -> String {
    let total = Int((seconds * 1000).rounded())
    let fraction = String(total % 1000)
    return "\(total / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
    fail("usage: veritrail-bench decode --store DIR [--json]")
}
arguments.removeFirst()
var storeDir = CurrentProcess.environment("VERITRAIL_STORE") ?? "./.veritrail"
var json = false
var index = 0
while index < arguments.count {
    switch arguments[index] {
    case "--store":
        guard index + 1 < arguments.count else { fail("--store needs a directory") }
        storeDir = arguments[index + 1]
        index += 2
    case "--json":
        json = true
        index += 1
    default:
        fail("unknown argument \(arguments[index])")
    }
}

switch command {
case "decode":
    do {
        let store = try Store(directory: storeDir)
        let start = SystemClock.monotonicNanoseconds()
        var count = 0
        var scans = 0
        try store.read { reader, _ in
            try reader.forEach { logged in
                count += 1
                if logged.event.type == .scanRecorded { scans += 1 }
                return true
            }
        }
        let seconds = Double(SystemClock.monotonicNanoseconds() - start) / 1e9
        let rate = seconds > 0 ? Double(count) / seconds : 0
        if json {
            print("{\"events\":\(count),\"scans\":\(scans),\"seconds\":\(seconds),\"eventsPerSecond\":\(Int(rate))}")
        } else {
            print("\(count) \(threeDecimals(seconds)) \(Int(rate))")
        }
    } catch {
        fail("\(error)", code: 74)
    }
default:
    fail("unknown command \(command); usage: veritrail-bench decode --store DIR [--json]")
}
