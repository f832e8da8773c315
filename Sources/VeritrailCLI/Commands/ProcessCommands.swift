public import ArgumentParser
public import VeritrailKit

extension GoalMetric: ExpressibleByArgument {}

/// `customer status USER STATUS [--note N]`: an admin moves a customer to another status.
struct CustomerStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Move a customer to another process status (admin).",
        discussion: "Statuses: AWAITED, FAILEDTOREACH, ONBOARDED, INPROCESS, COMPLETED, DENIED.\nExample:\n  veritrail customer status mlopez ONBOARDED --as admin \\\n      --note \"called back\"")
    @Argument(help: ArgumentHelp("The customer.", valueName: "user"), completion: Completions.users) var user: String
    @Argument(help: ArgumentHelp("The new status, in any case.", valueName: "status")) var argument: StatusArgument
    var status: CustomerStatus { argument.status }
    @Option(parsing: .unconditional, help: "A note.") var note: String?
    @Flag(help: "Read the passcode from stdin if it is asked.") var passcodeStdin = false
    @OptionGroup var global: GlobalOptions
    @OptionGroup var retry: RetryOptions

    func run() throws {
        let words = CommandWords(type: .statusChanged, options: [
            "data.username": "USER", "data.status": "STATUS", "data.note": "--note",
        ])
        try Session.write(global, passcodeStdin: passcodeStdin, retry: retry, words: words,
                          said: { _ in "\(user) is now \(status.rawValue)" },
                          remote: { _ in RemoteWrite("POST", RemoteWrite.path("/v1/customers/", user, "/status"),
                                                     [("status", status.rawValue.json), ("note", note.json)]) }) { session, actor in
            try session.store.changeCustomerStatus(user, to: status, note: note, as: actor, passcode: session.passcode,
                                                   options: session.options)
        }
    }
}

/// The status a person types: any case (`inprocess` is `INPROCESS`); a wrong one is refused naming the valid ones.
struct StatusArgument: ExpressibleByArgument {
    let status: CustomerStatus
    init?(argument: String) {
        guard let status = CustomerStatus(rawValue: argument.uppercased()) else { return nil }
        self.status = status
    }
    static var allValueStrings: [String] { CustomerStatus.choices.map(\.rawValue) }
}

/// `settings set`: your scanner and history settings.
struct SettingsSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change your settings: flash, capture mode, history window, colour.",
        usage: "veritrail settings set [--flash <on|off>] [--capture-mode <mode>] [--history-window <window>] [--scanner-color <color>] [<options>]",
        discussion: "Example:\n  veritrail settings set --flash on --history-window 7d --as ines")
    @Option(help: "on or off: flash always on.") var flash: OnOff?
    @Option(help: "single or batch.") var captureMode: CaptureMode?
    @Option(help: "today, 7d, 30d, 90d or all.") var historyWindow: HistoryWindow?
    /// `--color` is the output's colour on every command (cli.md §8); `settings set --color white` is read as
    /// this option all the same (`CommandLineRepair`), since a scanner colour is never auto, always or never.
    @Option(name: .customLong("scanner-color"), help: "The scanner's colour: white (the only one for now; --color white works too).")
    var color: ScannerColor?
    @Flag(help: "Read the passcode from stdin if it is asked.") var passcodeStdin = false
    @OptionGroup var global: GlobalOptions
    @OptionGroup var retry: RetryOptions

    enum OnOff: String, ExpressibleByArgument { case on, off }

    func validate() throws {
        if flash == nil && captureMode == nil && historyWindow == nil && color == nil {
            throw ValidationError("nothing to set: give --flash, --capture-mode, --history-window or --scanner-color")
        }
    }

    func run() throws {
        let words = CommandWords(type: .settingsChanged, options: [
            "data.flash": "--flash", "data.captureMode": "--capture-mode", "data.historyWindow": "--history-window",
            "data.color": "--scanner-color",
        ])
        try Session.write(global, passcodeStdin: passcodeStdin, retry: retry, words: words,
                          said: { "changed the settings of \($0)" },
                          remote: { RemoteWrite("PATCH", RemoteWrite.path("/v1/settings/", $0), [
                              ("flash", flash.map { $0 == .on }.json), ("captureMode", captureMode?.rawValue.json),
                              ("historyWindow", historyWindow?.rawValue.json), ("color", color?.rawValue.json)]) }) { session, actor in
            try session.store.updateSettings(flash: flash.map { $0 == .on }, captureMode: captureMode, historyWindow: historyWindow,
                                             color: color, as: actor, passcode: session.passcode, options: session.options)
        }
    }
}

extension ScannerColor: ExpressibleByArgument {}

/// `search QUERY`: records the search, then answers like `history --search`. Needs no passcode.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search your history (the search is remembered in `searches`).",
        discussion: "Example:\n  veritrail search serum --as ines")
    @Argument(help: ArgumentHelp("The text to look for.", valueName: "query")) var query: String
    @Option(help: "today, 7d, 30d, 90d or all (default: your setting).") var window: HistoryWindow?
    @Option(help: "How many scans (1–1000).") var limit: Int = 50
    @OptionGroup var global: GlobalOptions
    @OptionGroup var retry: RetryOptions

    func validate() throws {
        guard (1...1000).contains(limit) else { throw ValidationError("--limit must be 1–1000, got \(limit)") }
    }

    func run() throws {
        try runReporting {
            if let server = try ServerConnection.of(global) {
                return try server.search(query, window: window, limit: limit, eventID: retry.id, json: global.json)
            }
            let session = try Session(global: global, eventID: retry.id)
            let actor = try session.actor()
            let result = try session.store.search(query, window: window, limit: limit, as: actor, options: session.options)
            if global.json {
                Output.json(result)
            } else {
                // Without --window the viewer's own window narrowed the answer: the human output says so.
                let setting = window == nil ? try session.store.settings(actor)["historyWindow"]?.stringValue : nil
                let narrowed = setting.flatMap(HistoryWindow.init)
                Output.print(Human.history(result, now: session.store.clock(), viewerWindow: narrowed))
            }
        }
    }
}

/// `fitness set`: body type and height, which a calorie goal needs.
struct FitnessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fitness", abstract: "Your fitness profile.",
        discussion: "Example:\n  veritrail fitness set --body-type 1 --height-inches 70 --as tom", subcommands: [Set.self])

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set your body type (0 smallest … 2 largest) and height in inches (36–96).",
            discussion: "Example:\n  veritrail fitness set --body-type 1 --height-inches 70 --as tom")
        @Option(help: "0, 1 or 2.") var bodyType: Int64
        @Option(help: "36–96.") var heightInches: Int64
        @Flag(help: "Read the passcode from stdin if it is asked.") var passcodeStdin = false
        @OptionGroup var global: GlobalOptions
        @OptionGroup var retry: RetryOptions

        func run() throws {
            let words = CommandWords(type: .fitnessUpdated, options: [
                "data.bodyType": "--body-type", "data.heightInches": "--height-inches",
            ])
            try Session.write(global, passcodeStdin: passcodeStdin, retry: retry, words: words,
                              said: { "updated the fitness profile of \($0)" },
                              remote: { RemoteWrite("PUT", RemoteWrite.path("/v1/fitness/", $0),
                                                    [("bodyType", Optional(bodyType).json), ("heightInches", Optional(heightInches).json)]) }) { session, actor in
                try session.store.setFitness(bodyType: bodyType, heightInches: heightInches, as: actor, passcode: session.passcode,
                                             options: session.options)
            }
        }
    }
}

/// `goal set`: a monthly goal for one metric (0 turns it off for the month).
struct GoalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goal", abstract: "Your monthly goals.",
        discussion: "Example:\n  veritrail goal set --metric jumps --target 30000 --as tom", subcommands: [Set.self])

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set a monthly goal: jumps, calories or scans (a target of 0 turns the metric off).",
            discussion: "Example:\n  veritrail goal set --metric jumps --target 30000 --month 2026-11 --as tom")
        @Option(help: "jumps, calories or scans.") var metric: GoalMetric
        @Option(help: "0–100000000.") var target: Int64
        @Option(help: ArgumentHelp("The month (default: this month).", valueName: "YYYY-MM")) var month: String?
        @Flag(help: "Read the passcode from stdin if it is asked.") var passcodeStdin = false
        @OptionGroup var global: GlobalOptions
        @OptionGroup var retry: RetryOptions

        func validate() throws {
            if let month, Month(month) == nil { throw ValidationError("--month must be YYYY-MM, got \"\(month)\"") }
        }

        func run() throws {
            let words = CommandWords(type: .goalSet, options: [
                "data.month": "--month", "data.metric": "--metric", "data.target": "--target",
            ])
            try Session.write(global, passcodeStdin: passcodeStdin, retry: retry, words: words,
                              said: { "set the \(metric.rawValue) goal of \($0) to \(target)" },
                              remote: { RemoteWrite("PUT", RemoteWrite.path("/v1/goals/", $0),
                                                    [("metric", metric.rawValue.json), ("target", Optional(target).json), ("month", month.json)]) }) { session, actor in
                try session.store.setGoal(metric, target: target, month: month.flatMap(Month.init), as: actor,
                                          passcode: session.passcode, options: session.options)
            }
        }
    }
}

/// `session record`: one jump session.
struct SessionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session", abstract: "Jump sessions.",
        discussion: "Example:\n  veritrail session record --park Plainfield --start 13:00 --end 14:00 \\\n      --jumps 8798 --calories 521 --as tom",
        subcommands: [Record.self])

    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "record",
            abstract: "Record a jump session (yours, or anyone's as an admin).",
            discussion: "Example:\n  veritrail session record --park Plainfield --start 13:00 --end 14:00 \\\n      --jumps 8798 --calories 521 --as tom")
        @Option(help: ArgumentHelp("Whose session (default: yours).", valueName: "user")) var user: String?
        @Option(help: "The session id (default: a new one).") var sessionId: String?
        @Option(help: ArgumentHelp("The date (default: today).", valueName: "YYYY-MM-DD")) var date: String?
        @Option(parsing: .unconditional, help: "The park.") var park: String
        @Option(help: ArgumentHelp("Start time.", valueName: "HH:MM")) var start: String
        @Option(help: ArgumentHelp("End time.", valueName: "HH:MM")) var end: String
        @Option(help: "Jumps.") var jumps: Int64
        @Option(help: "Calories.") var calories: Int64
        @Flag(help: "Read the passcode from stdin if it is asked.") var passcodeStdin = false
        @OptionGroup var global: GlobalOptions
        @OptionGroup var retry: RetryOptions

        /// A value of the wrong form is a usage error (64), as `goal set --month 2026-13` is; the rules on the
        /// values (the end after the start, counts of 0 or more) are the event's (65).
        func validate() throws {
            for (name, value) in [("--start", start), ("--end", end)] where ClockTime(value) == nil {
                throw ValidationError("\(name) must be a time of day HH:MM (24 h, e.g. 18:00), got \"\(value)\"")
            }
            if let date, CalendarDate(date) == nil { throw ValidationError("--date must be YYYY-MM-DD, got \"\(date)\"") }
        }

        func run() throws {
            let words = CommandWords(type: .sessionRecorded, options: [
                "data.username": "--user", "data.sessionId": "--session-id", "data.date": "--date", "data.park": "--park",
                "data.startTime": "--start", "data.endTime": "--end", "data.jumps": "--jumps", "data.calories": "--calories",
            ])
            try runReporting {
                if let server = try ServerConnection.of(global, passcodeStdin: passcodeStdin) {
                    let id = sessionId ?? retry.id.map { "ses-" + $0 } ?? ServerConnection.newSessionId()
                    let whose = try user ?? server.actingAccount()
                    let appended = try words.run { try server.write(RemoteWrite("POST", RemoteWrite.path("/v1/fitness/", whose, "/sessions"), [
                        ("sessionId", id.json), ("date", date.json), ("park", park.json), ("startTime", start.json),
                        ("endTime", end.json), ("jumps", Optional(jumps).json), ("calories", Optional(calories).json)]), eventID: retry.id) }
                    return Session.report(global, appended, "recorded session \(id)")
                }
                let session = try Session(global: global, passcodeStdin: passcodeStdin, eventID: retry.id)
                let actor = try session.actor()
                let recorded = try words.run {
                    try session.store.recordSession(park: park, start: start, end: end, jumps: jumps, calories: calories, date: date,
                                                    sessionId: sessionId, for: user, as: actor, passcode: session.passcode,
                                                    options: session.options)
                }
                session.report(recorded.events, "recorded session \(recorded.sessionId)")
            }
        }
    }
}
