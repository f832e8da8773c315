public import ArgumentParser

/// `veritrail`: the event-sourced engine's command line (cli.md).
public struct Veritrail: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "veritrail",
        abstract: "An event-sourced log of scans, customers, passcodes and goals, kept in LMDB.",
        discussion: """
        Every action is an event appended to a hash-chained log; every answer is computed from it.
        Examples:
          veritrail init --admin ada --name "Ada Admin" --email ada@example.org
          veritrail import Events/demo.ndjson --store demo-store
          veritrail stats --store demo-store
          veritrail log verify --store demo-store
        """,
        version: "veritrail \(Veritrail.version)",
        subcommands: [
            InitCommand.self, ImportCommand.self, ExportCommand.self, LogCommand.self,
            HistoryCommand.self, ShowCommand.self, StatsCommand.self, LockoutCommand.self, CustomersCommand.self,
            CustomerCommand.self, GoalsCommand.self, AccountsCommand.self, SettingsCommand.self, SearchesCommand.self,
            ReplayCommand.self, RebuildCommand.self, CheckCommand.self, VerifyCommand.self, DiffCommand.self,
            RegisterCommand.self, AccountCommand.self, PasscodeCommand.self, UnlockCommand.self, ScanCommand.self,
            ReportCommand.self, SearchCommand.self, FitnessCommand.self, GoalCommand.self, SessionCommand.self,
            LoginCommand.self, LogoutCommand.self,
        ]
    )

    /// The version `--version` prints (cli.md §7).
    public static let version = "0.2.0"

    public init() {}
}
