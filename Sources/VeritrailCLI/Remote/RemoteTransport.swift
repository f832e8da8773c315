/// The HTTP exchange `--server URL` needs (server.md §8), as the command line sees it: one request, its
/// status, headers and body. The `veritrail` executable supplies it (VeritrailClient, over AsyncHTTPClient)
/// through `Remote.transport`, so that this target links no SwiftNIO and its tests build without it.
public protocol RemoteTransport: Sendable {
    /// Sends `request` and hands the response body to `onBody` chunk by chunk as it arrives, with the
    /// response's head (a stream stays open as long as `onBody` returns true); returns the head once the
    /// body ends. Throws `RemoteTransportError` when the server can not be reached or does not answer in time.
    func exchange(_ request: RemoteRequest,
                  onBody: (_ head: RemoteResponseHead, _ chunk: [UInt8]) throws -> Bool) throws -> RemoteResponseHead
}

/// One request to the server: `url` is whole (server, path, query).
public struct RemoteRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [(String, String)]
    public var body: RemoteBody?
    /// How long to wait for the server to answer, in seconds; nil for a stream that stays open.
    public var timeout: Int64?

    public init(method: String, url: String, headers: [(String, String)], body: RemoteBody?, timeout: Int64?) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// A request's body: bytes in memory, or a file streamed chunk by chunk (`next` gives nil at its end).
public enum RemoteBody: Sendable {
    case bytes([UInt8])
    case stream(@Sendable () throws -> [UInt8]?)
}

public struct RemoteResponseHead: Sendable {
    public var status: Int
    public var headers: [(String, String)]

    public init(status: Int, headers: [(String, String)]) {
        self.status = status
        self.headers = headers
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}

/// Why an exchange did not happen: the server could not be reached, or did not answer in time.
public enum RemoteTransportError: Error, Sendable {
    case unreachable(String)
    case timedOut
    case tls(String)
}

/// Where the executable installs the transport before it runs the command line; without one, `--server`
/// is refused. It is given `--cacert FILE`: the certificates to trust instead of the system's.
public enum Remote {
    nonisolated(unsafe) public static var makeTransport: ((_ caCertificateFile: String?) throws -> any RemoteTransport)?
}
