import Foundation

/// The `--token` secret and the one way to check a client's guess against it.
///
/// Contract: `accepts` has no early exit: it looks at every byte of both the guess and the
/// secret, and its branches depend only on their lengths, so the time it takes does not reveal
/// how long a correct prefix the guess has.
struct AccessToken: Sendable {
    private let secret: [UInt8]

    /// nil for no secret or an empty one (then nothing is ever accepted).
    init?(_ secret: String?) {
        guard let secret, !secret.isEmpty else { return nil }
        self.secret = Array(secret.utf8)
    }

    /// Whether `guess` is the secret; nil (no token given) is never accepted.
    func accepts(_ guess: String?) -> Bool {
        guard let guess else { return false }
        let given = Array(guess.utf8)
        var difference = UInt(bitPattern: given.count ^ secret.count)
        for index in 0..<max(given.count, secret.count) {
            let offered = index < given.count ? given[index] : 0
            let expected = index < secret.count ? secret[index] : 0
            difference |= UInt(offered ^ expected)
        }
        return difference == 0
    }

    /// The credentials of an `Authorization: Bearer TOKEN` value (RFC 6750; the scheme in any
    /// case, spaces around the token ignored), nil for another scheme or no token.
    static func bearerCredentials(in authorization: String) -> String? {
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let credentials = parts[1].trimmingCharacters(in: .whitespaces)
        return credentials.isEmpty ? nil : credentials
    }
}
