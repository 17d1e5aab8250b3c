import Foundation

/// `--tls-cert` and `--tls-key`: the PEM files libwebsockets' OpenSSL serves HTTPS and WSS with.
///
/// lws reads them only when it creates its context, and then says no more than that it failed
/// (in lines of its own): `check()` finds what it can beforehand and says it in one line
/// naming the file.
public struct TLSFiles: Sendable, Equatable {
    /// The certificate, or the certificate followed by its chain (Let's Encrypt's `fullchain.pem`).
    public let certificate: String
    /// The private key of that certificate, unencrypted.
    public let privateKey: String

    public init(certificate: String, privateKey: String) {
        self.certificate = certificate
        self.privateKey = privateKey
    }

    /// Throws one line naming the file when either cannot be read, is not a regular file, or
    /// holds no PEM block of its kind (a private key where the certificate should be, and the
    /// reverse, are named as such), or when the key is encrypted (lws has no passphrase to give).
    /// Whether the key matches the certificate only lws can tell: see ``contextFailure(_:)``.
    package func check() throws(ServerError) {
        try checkCertificate()
        try checkPrivateKey()
    }

    private func checkCertificate() throws(ServerError) {
        let text = try Self.read(certificate, as: "certificate")
        guard !PEMMarkers.hasCertificate(text) else { return }
        let hint = PEMMarkers.hasPrivateKey(text) ? "it holds a private key (--tls-cert and --tls-key swapped?)"
            : "no '-----BEGIN CERTIFICATE-----' line"
        throw ServerError(description: "TLS certificate \(certificate) is not a PEM certificate: \(hint)")
    }

    private func checkPrivateKey() throws(ServerError) {
        let text = try Self.read(privateKey, as: "private key")
        if !PEMMarkers.hasPrivateKey(text) {
            let hint = PEMMarkers.hasCertificate(text) ? "it holds a certificate (--tls-cert and --tls-key swapped?)"
                : "no '-----BEGIN … PRIVATE KEY-----' line"
            throw ServerError(description: "TLS private key \(privateKey) is not a PEM private key: \(hint)")
        }
        if PEMMarkers.isEncrypted(text) {
            throw ServerError(description: "TLS private key \(privateKey) is encrypted: FilterCast cannot ask for its passphrase "
                              + "(decrypt it with 'openssl pkey -in \(privateKey) -out key.pem')")
        }
    }

    /// The one line for a context that lws would not create although `check()` passed, from
    /// what lws logged meanwhile (`lines`): which file OpenSSL refused, and its reason. lws 4.1
    /// says "ssl problem getting key '…' …: error:…:key values mismatch" for a key of another
    /// certificate, "problem getting cert '…'" and "ssl problem getting key '…'" for damaged files.
    package func contextFailure(_ lines: [String]) -> ServerError {
        let refusal = lines.first { $0.contains("problem getting") } ?? ""
        let reason = if refusal.contains("mismatch") {
            "the private key \(privateKey) does not match the certificate \(certificate)"
        } else if refusal.contains("getting key") {
            "the private key \(privateKey) is damaged (OpenSSL: \(Self.openSSLReason(refusal)))"
        } else if refusal.contains("getting cert") {
            "the certificate \(certificate) is damaged (OpenSSL: \(Self.openSSLReason(refusal)))"
        } else {
            "the private key \(privateKey) does not match the certificate \(certificate), or one of them is damaged"
        }
        return ServerError(description: "cannot serve TLS: \(reason)")
    }

    /// OpenSSL's reason at the end of an lws line ("…error:04800064:PEM routines::bad base64 decode").
    private static func openSSLReason(_ line: String) -> String {
        let reason = line.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return reason.isEmpty ? "no reason given" : reason
    }

    /// The file's text (at most its first MiB: certificate chains are a few KB), or one line
    /// saying why it cannot be read.
    private static func read(_ path: String, as kind: String) throws(ServerError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(path, kind, errno == ENOENT ? "no such file" : nil) }
        defer { close(descriptor) }
        var status = stat()
        // Regular files only: reading a pipe here would leave lws nothing to read.
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw unreadable(path, kind, "not a regular file")
        }
        var bytes = [UInt8](repeating: 0, count: min(Int(status.st_size), 1 << 20))
        guard let count = readFully(descriptor, into: &bytes) else { throw unreadable(path, kind, nil) }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }

    /// Fills `bytes` from `descriptor` until it is full or the file ends: the count read, or nil
    /// on a read error (in `errno`).
    private static func readFully(_ descriptor: Int32, into bytes: inout [UInt8]) -> Int? {
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got == 0 { break }
            if got < 0 && errno != EINTR { return nil }
            count += max(got, 0)
        }
        return count
    }

    /// "TLS certificate PATH cannot be read: REASON" (by default, `errno`'s).
    private static func unreadable(_ path: String, _ kind: String, _ reason: String?) -> ServerError {
        ServerError(description: "TLS \(kind) \(path) cannot be read: \(reason ?? String(cString: strerror(errno)).lowercased())")
    }
}

/// The armour lines OpenSSL looks for in PEM files.
enum PEMMarkers {
    /// `CERTIFICATE`, and the `TRUSTED` and `X509` variants OpenSSL also reads as one.
    static func hasCertificate(_ text: String) -> Bool {
        ["-----BEGIN CERTIFICATE-----", "-----BEGIN TRUSTED CERTIFICATE-----", "-----BEGIN X509 CERTIFICATE-----"]
            .contains { text.contains($0) }
    }

    /// PKCS#8 (`PRIVATE KEY`, `ENCRYPTED PRIVATE KEY`) or a traditional one (`RSA PRIVATE KEY`, `EC …`).
    static func hasPrivateKey(_ text: String) -> Bool {
        text.split(whereSeparator: \.isNewline).contains { line in
            line.hasPrefix("-----BEGIN ") && line.hasSuffix("PRIVATE KEY-----")
        }
    }

    /// PKCS#8 encryption, or a traditional key's `Proc-Type: 4,ENCRYPTED` header.
    static func isEncrypted(_ text: String) -> Bool {
        text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || text.contains("Proc-Type: 4,ENCRYPTED")
    }
}
