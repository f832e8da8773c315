import Testing
@testable import VeritrailCLI

/// How a table is cut on a terminal (cli.md §7 leaves it to the project): prose columns shrink, widest first;
/// an id or a short status never does, so a cut can not hide a fact such as a deleted account.
@Suite struct TableTests {
    func accounts() -> Table {
        var table = Table("USERNAME", "ROLE", "NAME", "E-MAIL", "REGISTERED", cuttable: ["NAME", "E-MAIL"])
        table.add("leopoldo_corkery (deleted)", "customer", "Mrs. Dennis Schulist the Third", "Karley_Dach@jasper.info.example.org", "83 days ago")
        table.add("amelie.durand", "admin", "Amélie Durand", "amelie.durand@veritrail.example", "83 days ago")
        return table
    }

    @Test func offATerminalNothingIsCut() {
        let text = accounts().render(width: nil)
        #expect(!text.contains("…"))
        #expect(text.contains("Karley_Dach@jasper.info.example.org"))
    }

    @Test func atEightyColumnsOnlyProseIsCut() {
        let lines = accounts().render(width: 80).split(separator: "\n")
        #expect(lines.allSatisfy { displayWidth(String($0)) <= 80 })
        #expect(lines[1].hasPrefix("leopoldo_corkery (deleted)  customer  "))
        #expect(lines[1].contains("…"))
        #expect(lines[1].hasSuffix("83 days ago"))
    }

    @Test func controlCharactersAreEscaped() {
        var table = Table("NAME", cuttable: [])
        table.add("a\u{1B}[31mb\tc\u{202E}d")
        #expect(table.render(width: nil) == "NAME\n" + #"a\u001b[31mb\tc\u202ed"#)
        #expect(Escaped.text("plain") == "plain")
    }
}
