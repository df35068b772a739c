import Foundation
import Testing
@testable import Proxy

/// `hls-subtitle-proxy sign` through the built binary: the path it prints verifies, and each mistake
/// exits 2 (usage) or 1 (the input), with its reason on stderr.
@Suite struct SignCommandLineTests {
    static let key = "example-key-do-not-use-0123456789abcdef"
    static let tracksJSON = #"[{"language":"en","name":"English","source":"https://subs.example.com/films/42/en.vtt","default":true},{"language":"fr","name":"Français","source":"https://subs.example.com/films/42/fr.vtt"}]"#

    /// Writes a file in a fresh temporary directory and returns its path.
    static func file(_ name: String, _ text: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sign-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static func config(keys: String = #"{"k1": "${SIGNING_KEY}"}"#) throws -> String {
        try file("config.json", #"{"mounts": {"sample": {"origin": "http://origin.test/vod"}}, "signing": {"keys": \#(keys)}}"#)
    }

    static let environment = ["SIGNING_KEY": key]

    @Test func signPrintsAPathThatVerifiesWithTheDefaultHourOfValidity() async throws {
        let before = Int64(Date().timeIntervalSince1970)
        let result = try await RunningProcess.run(
            ["sign", "--config", try Self.config(), "--master", "/sample/master.m3u8?x=1", "--tracks", try Self.file("t.json", Self.tracksJSON),
             "--subtitles", "en,fr", "--default", "fr"], environment: Self.environment)
        #expect(result.status == 0, "\(result.err)")
        let path = result.out.trimmingCharacters(in: .newlines)
        #expect(path.hasPrefix("/_hls-proxy/v1/signed/k1."))
        #expect(path.hasSuffix("/master.m3u8"))
        let token = String(path.dropFirst("/_hls-proxy/v1/signed/".count).dropLast("/master.m3u8".count))
        let verifier = SignedTokenVerifier(signing: ProxyConfig.Signing(keys: ["k1": Self.key]))
        let verified = try verifier.verify(token, now: before, graceSeconds: 0).get()
        #expect(verified.master == "/sample/master.m3u8?x=1")
        #expect(verified.tracks.map(\.id) == ["en", "fr"])
        #expect(verified.subtitles == ["en", "fr"])
        #expect(verified.defaultTrack == "fr")
        #expect((before + 3600...before + 3600 + 120).contains(verified.expiry), "\(verified.expiry)")
    }

    @Test func signReadsTracksFromStandardInputAndTakesTheTracksObjectForm() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RunningProcess.executablePath)
        process.arguments = ["sign", "--config", try Self.config(), "--master", "/sample/master.m3u8", "--tracks", "-", "--expires-in", "60"]
        process.environment = Self.environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(#"{"tracks": \#(Self.tracksJSON)}"#.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: data, as: UTF8.self).hasPrefix("/_hls-proxy/v1/signed/k1."))
    }

    @Test(arguments: [
        ["sign", "--master", "/sample/master.m3u8", "--tracks", "x.json"],
        ["sign", "--config", "c.json", "--tracks", "x.json"],
        ["sign", "--config", "c.json", "--master", "/sample/master.m3u8"],
        ["sign", "--config", "c.json", "--master", "/m", "--tracks", "x", "--expires-in", "soon"],
        ["sign", "--config", "c.json", "--master", "/m", "--tracks", "x", "--expires-in", "0"],
        ["sign", "--config", "c.json", "--master", "/m", "--tracks", "x", "--subtitles", "en,,fr"],
        ["sign", "--config", "c.json", "--master", "/m", "--tracks", "x", "--bogus"],
        ["sign", "--config", "c.json", "--master"],
    ])
    func usageErrorsExit2WithOneLine(arguments: [String]) async throws {
        let result = try await RunningProcess.run(arguments)
        #expect(result.status == 2, "\(result.err)")
        #expect(result.err.split(separator: "\n").count == 1, "\(result.err)")
    }

    /// `--expires-in` is range-checked when parsed, but the expiry is now plus it: on a clock near the
    /// end of year 9999 a valid number of seconds lands past the latest expiry a token may carry.
    /// That is the flag's mistake (exit 2), and the last second that still fits is signed.
    @Test func anExpiryPastYear9999IsAUsageErrorAndTheLastSecondIsSigned() throws {
        let config = try ProxyConfig.decode(
            Array(#"{"mounts": {"sample": {"origin": "http://origin.test/vod"}}, "signing": {"keys": {"k1": "\#(Self.key)"}}}"#.utf8),
            environment: [:])
        let latest = SignedPayloadDecoder.latestExpiry
        let request = CommandLineOptions.SignRequest(master: "/sample/master.m3u8", tracks: "t.json", expiresIn: 3600)
        let tracks = Array(Self.tracksJSON.utf8)
        guard case .failure(let failure) = SignCommand.playbackPath(request, tracksJSON: tracks, config: config, now: latest - 3599) else {
            Issue.record("an expiry one second past year 9999 was signed")
            return
        }
        #expect(failure.status == 2)
        #expect(failure.messages.count == 1)
        #expect(failure.messages.first?.hasPrefix("--expires-in 3600: ") == true, "\(failure.messages)")
        #expect(failure.messages.first?.contains("year 9999") == true, "\(failure.messages)")
        // Overflowing Int64 is the same mistake.
        let overflowing = SignCommand.playbackPath(request, tracksJSON: tracks, config: config, now: .max - 10)
        #expect((try? overflowing.get()) == nil)
        if case .failure(let failure) = overflowing { #expect(failure.status == 2) }
        let path = try SignCommand.playbackPath(request, tracksJSON: tracks, config: config, now: latest - 3600).get()
        let token = String(path.dropFirst("/_hls-proxy/v1/signed/".count).dropLast("/master.m3u8".count))
        let verified = try SignedTokenVerifier(signing: config.signing).verify(token, now: latest - 3600, graceSeconds: 0).get()
        #expect(verified.expiry == latest)
    }

    @Test func aKeyIdIsRequiredWhenSeveralKeysAreConfiguredAndMustBeOneOfThem() async throws {
        let config = try Self.config(keys: #"{"k1": "${SIGNING_KEY}", "k2": "${SIGNING_KEY}-2"}"#)
        let tracks = try Self.file("t.json", Self.tracksJSON)
        let missing = try await RunningProcess.run(["sign", "--config", config, "--master", "/sample/m.m3u8", "--tracks", tracks],
                                                   environment: Self.environment)
        #expect(missing.status == 2)
        #expect(missing.err.contains("--key-id is required"), "\(missing.err)")
        let unknown = try await RunningProcess.run(["sign", "--config", config, "--master", "/sample/m.m3u8", "--tracks", tracks, "--key-id", "k3"],
                                                   environment: Self.environment)
        #expect(unknown.status == 2)
        #expect(unknown.err.contains("k3"))
        let chosen = try await RunningProcess.run(["sign", "--config", config, "--master", "/sample/m.m3u8", "--tracks", tracks, "--key-id", "k2"],
                                                  environment: Self.environment)
        #expect(chosen.status == 0, "\(chosen.err)")
        #expect(chosen.out.hasPrefix("/_hls-proxy/v1/signed/k2."))
    }

    @Test func anInvalidTrackExits1WithEachProblemByFieldPath() async throws {
        let tracks = try Self.file("t.json", #"[{"name": "English", "source": "ftp://x/en.vtt"}, {"language": "fr", "name": "F", "source": "https://s.test/fr.vtt", "colour": 1}]"#)
        let result = try await RunningProcess.run(["sign", "--config", try Self.config(), "--master", "/sample/m.m3u8", "--tracks", tracks],
                                                  environment: Self.environment)
        #expect(result.status == 1)
        #expect(result.out.isEmpty)
        #expect(result.err.contains("tracks[0].language: is required"), "\(result.err)")
        #expect(result.err.contains("tracks[0].source"), "\(result.err)")
        #expect(result.err.contains("tracks[1].colour: unknown key"), "\(result.err)")
    }

    @Test func aMasterTheProxyDoesNotServeExits1() async throws {
        let result = try await RunningProcess.run(
            ["sign", "--config", try Self.config(), "--master", "/elsewhere/m.m3u8", "--tracks", try Self.file("t.json", Self.tracksJSON)],
            environment: Self.environment)
        #expect(result.status == 1)
        #expect(result.err.contains("invalid master"), "\(result.err)")
    }

    @Test func aConfigWithoutSigningKeysExits1() async throws {
        let config = try Self.file("config.json", #"{"mounts": {"sample": {"origin": "http://origin.test/vod"}}}"#)
        let result = try await RunningProcess.run(["sign", "--config", config, "--master", "/sample/m.m3u8", "--tracks", try Self.file("t.json", Self.tracksJSON)])
        #expect(result.status == 1)
        #expect(result.err.contains("signing.keys"), "\(result.err)")
    }

    @Test func helpDescribesSign() async throws {
        let result = try await RunningProcess.run(["--help"])
        for word in ["sign --config PATH --master PATH --tracks FILE|-", "--expires-in", "--key-id", "--subtitles", "--default"] {
            #expect(result.out.contains(word), "--help does not mention \(word)")
        }
    }
}
