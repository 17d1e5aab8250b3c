@testable import CastServer
import Foundation
import Testing

/// What `TLSFiles` finds before lws reads the files, and how it words what lws refused.
@Suite struct TLSFilesTests {
    static let certificate = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
    static let key = "-----BEGIN PRIVATE KEY-----\r\nMIGH\r\n-----END PRIVATE KEY-----\r\n"

    /// Writes `files` (name → text) to a fresh folder; the folder.
    private func folder(_ files: [String: String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        return folder.path
    }

    private func failure(_ certificate: String, _ key: String) -> String? {
        do {
            try TLSFiles(certificate: certificate, privateKey: key).check()
            return nil
        } catch {
            return error.description
        }
    }

    @Test func goodFilesPass() throws {
        let dir = try folder(["c.pem": Self.certificate, "k.pem": Self.key,
                              "rsa.pem": "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n"])
        #expect(failure("\(dir)/c.pem", "\(dir)/k.pem") == nil)
        #expect(failure("\(dir)/c.pem", "\(dir)/rsa.pem") == nil, "traditional keys are PEM keys too")
    }

    /// (certificate file, key file, words of the one line)
    static let refusals: [(String, String, [String])] = [
        ("missing.pem", "k.pem", ["TLS certificate", "missing.pem", "no such file"]),
        ("c.pem", "missing.pem", ["TLS private key", "missing.pem", "no such file"]),
        ("sub", "k.pem", ["sub", "not a regular file"]),
        ("empty.pem", "k.pem", ["empty.pem", "not a PEM certificate"]),
        ("c.pem", "text.pem", ["text.pem", "not a PEM private key"]),
        ("k.pem", "c.pem", ["k.pem", "holds a private key", "swapped"]),
        ("c.pem", "c.pem", ["c.pem", "holds a certificate", "swapped"]),
        ("c.pem", "encrypted.pem", ["encrypted.pem", "encrypted", "passphrase"]),
        ("c.pem", "legacy.pem", ["legacy.pem", "encrypted"]),
    ]

    @Test(arguments: refusals)
    func badFilesAreNamedInOneLine(_ certificate: String, _ key: String, _ words: [String]) throws {
        let dir = try folder(["c.pem": Self.certificate, "k.pem": Self.key, "empty.pem": "", "text.pem": "hello\n",
                              "encrypted.pem": "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIF\n-----END ENCRYPTED PRIVATE KEY-----\n",
                              "legacy.pem": "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\nMIIE\n-----END RSA PRIVATE KEY-----\n"])
        try FileManager.default.createDirectory(atPath: "\(dir)/sub", withIntermediateDirectories: false)
        let line = try #require(failure("\(dir)/\(certificate)", "\(dir)/\(key)"))
        #expect(!line.contains("\n"))
        for word in words { #expect(line.contains(word), "'\(word)' missing from: \(line)") }
    }

    /// lws 4.1.6's lines (measured) for a key of another certificate and for damaged files.
    @Test func lwsRefusalsBecomeOneLineSayingWhich() {
        let files = TLSFiles(certificate: "c.pem", privateKey: "k.pem")
        let mismatch = files.contextFailure([
            "libwebsockets: ssl problem getting key 'k.pem' 92274804: error:05800074:x509 certificate routines::key values mismatch",
            "libwebsockets: lws_create_vhost: lws_context_init_server_ssl failed",
        ])
        #expect(mismatch.description == "cannot serve TLS: the private key k.pem does not match the certificate c.pem")
        let key = files.contextFailure(["libwebsockets: ssl problem getting key 'k.pem' 503841036: error:1E08010C:DECODER routines::unsupported"])
        #expect(key.description == "cannot serve TLS: the private key k.pem is damaged (OpenSSL: unsupported)")
        let certificate = files.contextFailure(["libwebsockets: problem getting cert 'c.pem' 75497572: error:04800064:PEM routines::bad base64 decode"])
        #expect(certificate.description == "cannot serve TLS: the certificate c.pem is damaged (OpenSSL: bad base64 decode)")
        #expect(files.contextFailure([]).description.contains("does not match the certificate c.pem, or one of them is damaged"))
    }
}
