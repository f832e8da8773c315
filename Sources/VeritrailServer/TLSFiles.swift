import Foundation
import NIOSSL

/// `--tls-cert` and `--tls-key` read and checked before the server starts, so that a file that is missing,
/// unreadable, not PEM, or a key that is not the certificate's, is refused naming the file and what is wrong
/// with it (exit 64), rather than by NIOSSL's bare `failedToLoadCertificate` once the server is starting.
enum TLSFiles {
    /// The server's TLS configuration from the two files, or the sentence that says what is wrong.
    static func configuration(cert: String, key: String) throws(TLSFileError) -> TLSConfiguration {
        try readable(cert, option: "--tls-cert")
        try readable(key, option: "--tls-key")
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(cert)
        } catch {
            throw TLSFileError("--tls-cert \(cert) holds no PEM certificate (\(error))")
        }
        guard !chain.isEmpty else { throw TLSFileError("--tls-cert \(cert) holds no PEM certificate") }
        let privateKey: NIOSSLPrivateKey
        do {
            privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
        } catch {
            throw TLSFileError("--tls-key \(key) holds no PEM private key (\(error))")
        }
        let tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) },
                                                           privateKey: .privateKey(privateKey))
        do {
            _ = try NIOSSLContext(configuration: tls)
        } catch {
            throw TLSFileError("the key in --tls-key \(key) is not the key of the certificate in --tls-cert \(cert) (\(error))")
        }
        return tls
    }

    private static func readable(_ path: String, option: String) throws(TLSFileError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw TLSFileError("\(option) \(path): no such file")
        }
        guard !isDirectory.boolValue else { throw TLSFileError("\(option) \(path) is a directory, not a PEM file") }
        guard FileManager.default.isReadableFile(atPath: path) else { throw TLSFileError("\(option) \(path) can not be read") }
    }
}

/// What is wrong with `--tls-cert` or `--tls-key`, as a sentence.
struct TLSFileError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
