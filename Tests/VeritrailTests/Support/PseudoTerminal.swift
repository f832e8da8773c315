import Foundation

/// What a person at a terminal saw of one run of `veritrail`: the screen's rows after the output was played on
/// it (scripts/pty_screen.py: a pseudo-terminal of the given width and a small VT100 screen).
struct ScreenResult {
    var exit: Int32
    /// The screen, one entry per row, trailing blanks cut: a line wider than the terminal takes two rows.
    var rows: [String]
    /// Everything written to the terminal, escape sequences included.
    var raw: String
    /// stdout, when it was a pipe (`pipedStdout`).
    var stdout: String

    var transcript: String { "exit \(exit)\n--- screen ---\n\(rows.joined(separator: "\n"))\n--- stdout ---\n\(stdout)" }
}

enum PseudoTerminal {
    /// Runs `veritrail args…` on a terminal `columns` wide (stdin, stdout and stderr; stdout a pipe with
    /// `pipedStdout`), typing `input`, without the caller's VERITRAIL_* or NO_COLOR, plus `environment`.
    static func run(_ args: [String], columns: Int = 80, input: String? = nil, pipedStdout: Bool = false,
                    environment: [String: String] = [:]) throws -> ScreenResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var helper = ["python3", Stores.packageRoot.appendingPathComponent("scripts/pty_screen.py").path, "--cols", "\(columns)"]
        if let input { helper += ["--input", input] }
        if pipedStdout { helper.append("--stdout-pipe") }
        process.arguments = helper + ["--", try CLI.binary().path] + args
        var env = ProcessInfo.processInfo.environment
        for key in env.keys where key.hasPrefix("VERITRAIL_") || key == "NO_COLOR" || key == "PAGER" { env[key] = nil }
        env["PAGER"] = "cat"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CLI.CLIError(description: "pty_screen.py gave no answer: \(String(decoding: data, as: UTF8.self))")
        }
        return ScreenResult(exit: Int32(object["exit"] as? Int ?? -1), rows: object["rows"] as? [String] ?? [],
                            raw: object["raw"] as? String ?? "", stdout: object["stdout"] as? String ?? "")
    }
}
