import Testing
@testable import Proxy

/// The `signing` section and the reserved `signed` set name, each mistake named by field path.
@Suite struct SigningConfigTests {
    static let key = "example-key-do-not-use-0123456789abcdef"

    @Test func keysComeFromTheEnvironmentWithTheDefaultGracePeriod() throws {
        let config = try ConfigTestSupport.decode(#"{"signing": {"keys": {"k1": "${KEY}", "k-2_b": "${OLD}"}}}"#,
                                                  environment: ["KEY": Self.key, "OLD": Self.key + "-old"])
        #expect(config.signing.keys == ["k1": Self.key, "k-2_b": Self.key + "-old"])
        #expect(config.signing.graceSeconds == 21_600)
        #expect(config.signing.isEnabled)
    }

    @Test func withoutTheSectionSigningIsOff() throws {
        let config = try ConfigTestSupport.decode("{}")
        #expect(!config.signing.isEnabled)
        #expect(config.signing.graceSeconds == 21_600)
    }

    @Test func graceSecondsIsRead() throws {
        let config = try ConfigTestSupport.decode(#"{"signing": {"keys": {"k1": "\#(Self.key)"}, "grace_seconds": 0}}"#)
        #expect(config.signing.graceSeconds == 0)
    }

    @Test func aKeyShorterThan32BytesIsAnErrorThatDoesNotQuoteIt() {
        let problems = ConfigTestSupport.problems(#"{"signing": {"keys": {"k1": "short-secret"}}}"#)
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("signing.keys.k1: is 12 bytes; a signing key needs at least 32") == true, "\(problems)")
        #expect(problems.first?.contains("short-secret") == false)
    }

    @Test(arguments: [
        (#"{"signing": {}}"#, "signing.keys: is required"),
        (#"{"signing": {"keys": {}}}"#, "signing.keys: lists no keys"),
        (#"{"signing": {"keys": []}}"#, "signing.keys: expected an object"),
        (#"{"signing": {"keys": {"k.1": "example-key-do-not-use-0123456789abcdef"}}}"#, #"signing.keys["k.1"]: key id"#),
        (#"{"signing": {"keys": {"k1": 5}}}"#, "signing.keys.k1: expected a string"),
        (#"{"signing": {"keys": {"k1": null}}}"#, "signing.keys.k1: expected a string, got null"),
        (#"{"signing": {"keys": {"k1": "${UNSET_SIGNING_KEY}"}}}"#, "signing.keys.k1: "),
        (#"{"signing": {"keys": {"k1": "example-key-do-not-use-0123456789abcdef"}, "grace_seconds": -1}}"#, "signing.grace_seconds: must be between 0"),
        (#"{"signing": {"keys": {"k1": "example-key-do-not-use-0123456789abcdef"}, "grace_seconds": 1.5}}"#, "signing.grace_seconds: expected an integer"),
        (#"{"signing": {"keys": {"k1": "example-key-do-not-use-0123456789abcdef"}, "grace": 1}}"#, "signing.grace: unknown key"),
        (#"{"signing": "on"}"#, "signing: expected an object"),
    ])
    func eachMistakeIsNamedByFieldPath(json: String, expected: String) {
        let problems = ConfigTestSupport.problems(json)
        #expect(problems.contains { $0.hasPrefix(expected) }, "\(problems)")
    }

    @Test func signedIsAReservedSubtitleSetName() {
        let problems = ConfigTestSupport.problems(
            #"{"subtitles": [{"name": "signed", "tracks": [{"language": "en", "name": "E", "source": "https://s.test/en.vtt"}]}]}"#)
        #expect(problems == [#"subtitles[0].name: set name "signed" is reserved for signed playback URLs"#])
    }
}
