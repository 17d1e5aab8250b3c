@testable import CastServer
import Testing

@Suite struct AccessTokenTests {
    let token = AccessToken("s3cret-Ünïcode")!

    @Test func acceptsExactlyTheSecret() {
        #expect(token.accepts("s3cret-Ünïcode"))
    }

    /// Every position counts: a guess wrong only in its first, a middle or its last byte (the
    /// last byte of a multi-byte character included) is refused, so no byte is skipped.
    @Test func refusesAGuessThatDiffersInAnySingleByte() {
        let secret = Array("s3cret-Ünïcode".utf8)
        for index in secret.indices {
            var guess = secret
            guess[index] ^= 0x01
            #expect(!token.accepts(String(decoding: guess, as: UTF8.self)), "byte \(index) flipped")
        }
    }

    @Test func refusesPrefixesExtensionsAndNothing() {
        #expect(!token.accepts("s3cret-Ünïcod"))
        #expect(!token.accepts("s3cret-Ünïcodee"))
        #expect(!token.accepts("s3cret-Ünïcode\0"))
        #expect(!token.accepts(""))
        #expect(!token.accepts(nil))
    }

    @Test func noOrAnEmptySecretIsNoToken() {
        #expect(AccessToken(nil) == nil)
        #expect(AccessToken("") == nil)
    }
}

@Suite struct BearerCredentialsTests {
    @Test(arguments: [
        ("Bearer s3cret", "s3cret"), ("bearer s3cret", "s3cret"), ("BEARER  s3cret ", "s3cret"),
        ("Bearer a b", "a b"),
    ])
    func readsTheToken(_ header: String, _ expected: String) {
        #expect(AccessToken.bearerCredentials(in: header) == expected)
    }

    @Test(arguments: ["", "Bearer", "Bearer ", "Basic czNjcmV0", "Bearers3cret", "s3cret", "Token s3cret"])
    func refusesOtherSchemesAndNoToken(_ header: String) {
        #expect(AccessToken.bearerCredentials(in: header) == nil, "\(header)")
    }
}
