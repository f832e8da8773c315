import ArgumentParser
import VeritrailKit

/// `login`: opens a session on a server (server.md §8) and keeps its token, so that the commands that
/// follow with `--server` act without asking the passcode until it expires.
struct LoginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to a served store (--server) and keep the session's token for the commands that follow.",
        discussion: """
        The passcode is asked on the terminal with echo off (or read from stdin with --passcode-stdin). The token is
        kept in $XDG_STATE_HOME/veritrail/tokens.json (default ~/.local/state/veritrail/), one per server and user,
        readable by you only; it is never printed.
        Example:
          veritrail login --server https://veritrail.example.org --as ines
        """)
    @Flag(help: "Read the passcode from stdin.") var passcodeStdin = false
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try runReporting {
            guard let server = try ServerConnection.of(global, passcodeStdin: passcodeStdin) else {
                throw Failure.usage("login signs in to a server: pass --server URL (or set VERITRAIL_SERVER)")
            }
            guard let user = global.actingUser else { throw Failure.usage("who logs in? pass --as USER (or set VERITRAIL_USER)") }
            let entry = try server.signIn(user, because: .asked)
            if global.json {
                Output.json(.object(JSONObject([("server", .string(server.server)), ("user", .string(entry.user)),
                                                ("expiresAt", .string(entry.expiresAt))])!))
            } else {
                Output.print("logged in as \(entry.user) on \(server.server) until \(entry.expiresAt)")
            }
        }
    }
}

/// `logout`: ends the session on the server (`DELETE /v1/sessions/current`) and forgets its token.
struct LogoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "End your session on a served store (--server) and forget its token.",
        discussion: "Example:\n  veritrail logout --server https://veritrail.example.org --as ines")
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try runReporting {
            guard let server = try ServerConnection.of(global) else {
                throw Failure.usage("logout ends a session on a server: pass --server URL (or set VERITRAIL_SERVER)")
            }
            let user = try server.actingAccount()
            guard let entry = try server.tokens.find(server: server.server, user: user) else {
                return Output.print("\(user) was not logged in on \(server.server)")
            }
            // Forgotten here whatever the server answers: a token that was refused or could not be sent is no use.
            defer { try? server.tokens.forget(server: server.server, user: user) }
            let reply = try server.send("DELETE", server.url("/v1/sessions/current"),
                                        headers: [("Authorization", "Bearer " + entry.token), ("Accept", "application/json")])
            guard reply.status < 300 || reply.status == 401 else { throw server.problem(reply) }
            if global.json {
                Output.json(.object(JSONObject([("server", .string(server.server)), ("user", .string(user))])!))
            } else {
                Output.print("logged out \(user) from \(server.server)")
            }
        }
    }
}
