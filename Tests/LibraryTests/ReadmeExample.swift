import VeritrailKit

/// The README's "Using Veritrail from Swift" example, as it is printed there (between the markers;
/// `ReadmeExampleTests` checks that the README holds these lines verbatim and runs them).
func readmeExample(directory: String) throws -> JSONValue {
    // README example begins
    // `directory` is a path, a `String` (not a `URL`): the store's folder, made when missing.
    // The first run makes the store and its first admin (as `veritrail init`); later runs open it.
    let store: VeritrailStore = try VeritrailStore.openOrCreate(at: directory, admin: "admin", name: "Ada Admin",
                                                                email: "admin@example.org", passcode: "2468")
    // Asked only when the gate needs a passcode (not unlocked yet, or the 15 minutes ran out).
    let passcodes: PasscodeProvider = { actor in actor == "admin" ? "2468" : nil }

    // The admin registers an inspector, who sets a passcode (the first time only: usernames are never reused).
    let accounts: [JSONValue] = try store.accounts()["accounts"]?.arrayValue ?? []
    if !accounts.contains(where: { $0["username"]?.stringValue == "ines" }) {
        try store.register(NewAccount(username: "ines", name: "Inès Duval", email: "ines@example.org", role: .inspector),
                           as: "admin", passcode: passcodes)
        try store.setPasscode(to: "1357", as: "ines")
    }
    try store.unlock("ines", passcode: "1357")

    // A scan and its report, then the home screen's numbers (what `veritrail stats --json` prints).
    var scan = NewScan(code: "https://v.example/p/123", productName: "Serum 30 ml", category: "Cosmetics",
                       result: .counterfeit)
    scan.brand = "Lumen"
    let recorded = try store.scan(scan, as: "ines")
    try store.report(scanId: recorded.scanId, reason: .packaging, as: "ines")
    let stats = try store.stats()
    print(stats["total"]?.intValue ?? 0, "scan,", stats["reported"]?.intValue ?? 0, "reported")

    // Errors are typed: a wrong passcode is not allowed, and is recorded all the same.
    do {
        try store.unlock("ines", passcode: "0000")
    } catch {
        // `error` is a `VeritrailError`: the library's calls throw nothing else.
        if case .notAllowed(let reason, let lockedSeconds, _) = error {
            print(reason, lockedSeconds.map { "(locked out for \($0) s)" } ?? "")
        }
    }
    // README example ends
    return stats
}
