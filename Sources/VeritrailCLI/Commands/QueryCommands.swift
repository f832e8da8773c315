public import ArgumentParser
public import VeritrailKit

/// Answers one projection through the library, which settles the clock and the kept events
/// (projections.md §0) and checks the viewer, and prints the JSON (`--json`) or the human form.
func answer(_ global: GlobalOptions, _ clock: ClockOptions, _ query: Query,
            human: (Answer) -> String = { Human.render($0.json, now: $0.now) }) throws {
    try runReporting {
        let answer: Answer
        var store: VeritrailStore?
        if let server = try ServerConnection.of(global) {
            answer = try server.answer(query, clock, human: !global.json)
        } else {
            let local = try global.open()
            local.mapOnlyTouchedPages()
            store = local
            answer = try local.answer(query, viewer: global.actingUser, asOf: clock.asOfValue, now: clock.nowValue)
        }
        Human.absoluteTimes = clock.utc
        // On a terminal a scan id is shown as the shortest start `show` takes (issue #23.4), whole elsewhere
        // (and against a server, which knows the other ids).
        if !global.json, Terminal.cutWidth != nil, let store { Human.shortScanIds = try store.shortScanIds(scanIds(in: answer.json)) }
        if global.json { Output.json(answer.json) } else {
            Pager.page(human(answer))
            if answer.hiddenByClock > 0 { Output.note(ClockNote.hidden(answer.hiddenByClock, now: answer.now, clock: clock)) }
        }
    }
}

/// Every `scanId` of an answer, at most 1,000 (a page of the history at most).
func scanIds(in json: JSONValue) -> [String] {
    var ids: [String] = []
    func walk(_ value: JSONValue) {
        guard ids.count < 1000 else { return }
        switch value {
        case .object(let o):
            for (key, member) in o.members {
                if key == "scanId", case .string(let id) = member { ids.append(id) } else { walk(member) }
            }
        case .array(let a): a.forEach(walk)
        default: break
        }
    }
    walk(json)
    return ids
}

extension HistoryWindow: ExpressibleByArgument {}
/// A status in any case, as `customer status` takes it (`StatusArgument`); a wrong one is refused naming the
/// valid ones.
extension CustomerStatus: ExpressibleByArgument {
    /// In any case, as `customer status USER onboarded` takes it.
    public init?(argument: String) { self.init(rawValue: argument.uppercased()) }
}
extension HistoryQuery.ResultFilter: ExpressibleByArgument {}
extension GoalRing.View: ExpressibleByArgument {}

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "The scan list, newest first, with filters and search.",
        usage: "veritrail history [--type <type>] [--window <window>] [--search <text>] [--category <category>] [--by <user>] [--limit <limit>] [--offset <offset>] [<options>]",
        discussion: """
        Without --window, a viewer (--as) sees their history window setting (30 days unless changed).
        Examples:
          veritrail history --type failed --window all --search serum
          veritrail history --as ines --window 7d --limit 10
        """
    )
    @Option(help: "all, success (authentic) or failed (counterfeit).") var type: HistoryQuery.ResultFilter = .all
    @Option(help: "today, 7d, 30d, 90d or all (default: the viewer's setting, else all).") var window: HistoryWindow?
    @Option(parsing: .unconditional, help: "Only this category (exact).") var category: String?
    @Option(parsing: .unconditional, help: "Text to look for in the scan's fields, case-insensitively.") var search: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("Only this user's scans.", valueName: "user"), completion: Completions.users) var by: String?
    @Option(help: "How many scans (1–1000).") var limit: Int = 50
    @Option(help: "How many to skip (0 or more).") var offset: Offset = Offset(0)
    @OptionGroup var clock: ClockOptions
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard (1...1000).contains(limit) else { throw ValidationError("--limit must be 1–1000, got \(limit)") }
    }

    func run() throws {
        var query = HistoryQuery()
        query.type = type; query.window = window; query.category = category; query.search = search
        query.by = by; query.limit = limit; query.offset = offset.value
        try answer(global, clock, .history(query)) { Human.history($0.json, now: $0.now, viewerWindow: $0.viewerWindow) }
    }
}

/// A count of 0 or more given on the command line: any number of digits, a value past `Int.max` taken as
/// `Int.max` (an offset past the end is an empty page, not a usage error).
struct Offset: ExpressibleByArgument {
    let value: Int
    init(_ value: Int) { self.value = value }
    init?(argument: String) {
        guard !argument.isEmpty, argument.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        value = Int(argument) ?? Int.max
    }
    var defaultValueDescription: String { "\(value)" }
}

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "One scan as the history shows it.",
        discussion: """
        A scan id may be shortened to any 4 or more of its first characters that no other scan id starts with.
        Example:
          veritrail show s-0001
        """)
    @Argument(help: ArgumentHelp("The scan id, or its start.", valueName: "scan-id"), completion: Completions.scanIds) var scanId: String
    @OptionGroup var clock: ClockOptions
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try answer(global, clock, .show(scanId: scanId)) { Human.scan($0.json, now: $0.now) }
    }
}

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "The home screen's numbers: totals, windows, categories and the recent scans.",
        discussion: "Example:\n  veritrail stats --by ines")
    @Option(help: ArgumentHelp("Only this user's scans.", valueName: "user"), completion: Completions.users) var by: String?
    @OptionGroup var clock: ClockOptions
    @OptionGroup var global: GlobalOptions

    func run() throws { try answer(global, clock, .stats(by: by)) { Human.stats($0.json, now: $0.now) } }
}

struct LockoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lockout", abstract: "The passcode gate of one account, or of every account.",
        discussion: "Example:\n  veritrail lockout ines")
    @Argument(help: ArgumentHelp("The account (default: every account).", valueName: "user"), completion: Completions.users) var user: String?
    @OptionGroup var clock: ClockOptions
    @OptionGroup var global: GlobalOptions

    func run() throws { try answer(global, clock, .lockout(user)) { Human.lockout($0.json, now: $0.now) } }
}

struct CustomersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "customers", abstract: "The customers and their process status, with the status colours.",
        discussion: "Example:\n  veritrail customers --status ONBOARDED")
    @Option(help: "Only customers with this status.") var status: CustomerStatus?
    @OptionGroup var clock: ClockOptions
    @OptionGroup var global: GlobalOptions

    func run() throws { try answer(global, clock, .customers(status: status)) { Human.customers($0.json, now: $0.now) } }
}

struct CustomerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "customer", abstract: "One customer: show it, or move it to another status.",
        discussion: "Examples:\n  veritrail customer show mlopez\n  veritrail customer status mlopez ONBOARDED --as admin",
        subcommands: [Show.self, CustomerStatusCommand.self])

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Every registered detail of a customer, with its status history.",
            discussion: "Example:\n  veritrail customer show mlopez")
        @Argument(help: ArgumentHelp("The customer.", valueName: "user"), completion: Completions.users) var user: String
        @OptionGroup var clock: ClockOptions
        @OptionGroup var global: GlobalOptions

        func run() throws { try answer(global, clock, .customer(user)) { Human.customer($0.json, now: $0.now) } }
    }
}

struct GoalsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goals", abstract: "Monthly goal progress with the goal ring.",
        discussion: "Example:\n  veritrail goals tom --month 2026-10")
    @Argument(help: ArgumentHelp("The account.", valueName: "user"), completion: Completions.users) var user: String
    @Option(help: ArgumentHelp("The month (default: the month of now).", valueName: "YYYY-MM")) var month: String?
    @Option(help: "The ring to draw: progress, last-session or remaining.") var view: GoalRing.View = .progress
    @OptionGroup var clock: ClockOptions
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if let month, Month(month) == nil { throw ValidationError("--month must be YYYY-MM, got \"\(month)\"") }
    }

    func run() throws {
        try answer(global, clock, .goals(user, month: month.flatMap { Month($0) })) {
            GoalRing.render($0.json, view: view, now: $0.now)
        }
    }
}

struct AccountsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts", abstract: "Every account, deleted ones too.", discussion: "Example:\n  veritrail accounts")
    @OptionGroup var clock: ClockOptions
    @OptionGroup var global: GlobalOptions

    func run() throws { try answer(global, clock, .accounts) { Human.accounts($0.json, now: $0.now) } }
}

struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "An account's scanner and history settings: show them, or set yours.",
        discussion: "Examples:\n  veritrail settings ines\n  veritrail settings set --history-window 7d --as ines",
        subcommands: [Show.self, SettingsSetCommand.self], defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "An account's scanner and history settings.",
            discussion: "Example:\n  veritrail settings ines")
        @Argument(help: ArgumentHelp("The account.", valueName: "user"), completion: Completions.users) var user: String
        @OptionGroup var clock: ClockOptions
        @OptionGroup var global: GlobalOptions

        func run() throws { try answer(global, clock, .settings(user)) { Human.settings($0.json, now: $0.now) } }
    }
}

struct SearchesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "searches", abstract: "An account's last 10 distinct searches, newest first.",
        discussion: "Example:\n  veritrail searches ines")
    @Argument(help: ArgumentHelp("The account.", valueName: "user"), completion: Completions.users) var user: String
    @OptionGroup var clock: ClockOptions
    @OptionGroup var global: GlobalOptions

    func run() throws { try answer(global, clock, .searches(user)) { Human.searches($0.json, now: $0.now) } }
}
