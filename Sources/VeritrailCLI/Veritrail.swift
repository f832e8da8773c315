import ArgumentParser

/// `veritrail`: the event-sourced engine's command line (cli.md).
public struct Veritrail: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "veritrail",
        abstract: "An event-sourced log of scans, customers, passcodes and goals, kept in LMDB.",
        discussion: """
        Every action is an event appended to a hash-chained log; every answer is computed from it.
        Examples:
          veritrail init --admin admin --name "Ada Admin" --email ada@example.org
          veritrail import Events/demo.ndjson --store /tmp/demo
          veritrail stats --store /tmp/demo --now 2026-11-20T18:00:00Z
          veritrail log verify --store /tmp/demo
        """,
        subcommands: [
            InitCommand.self, ImportCommand.self, ExportCommand.self, LogCommand.self,
            HistoryCommand.self, ShowCommand.self, StatsCommand.self, LockoutCommand.self, CustomersCommand.self,
            CustomerCommand.self, GoalsCommand.self, AccountsCommand.self, SettingsCommand.self, SearchesCommand.self,
            ReplayCommand.self, RebuildCommand.self, CheckCommand.self, VerifyCommand.self,
            RegisterCommand.self, AccountCommand.self, PasscodeCommand.self, UnlockCommand.self, ScanCommand.self,
            ReportCommand.self, SearchCommand.self, FitnessCommand.self, GoalCommand.self, SessionCommand.self,
        ]
    )

    public init() {}
}
