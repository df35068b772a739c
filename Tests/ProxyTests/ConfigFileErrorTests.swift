import Foundation
import HLS
@testable import Proxy
import TestSupport
import Testing

/// What a user sees for a config file that is not what they meant: a truncated file, a key given
/// twice, and a `rewrite` input that is not a master.
@Suite struct ConfigFileErrorTests {
    static let root = RealPlayerTests.repositoryRoot

    // MARK: Truncated files

    @Test func aTruncatedConfigFileNamesTheLineAndColumnWhereItEnds() {
        #expect(ConfigTestSupport.problems("{\n  \"listen\": {\"port\": 80")
            == ["(file): not valid JSON: the file ends inside an object opened at line 2, column 13 (line 2, column 24)"])
        #expect(ConfigTestSupport.problems(#"{"subtitles": [1, 2"#)
            == ["(file): not valid JSON: the file ends inside an array opened at line 1, column 15 (line 1, column 20)"])
        #expect(ConfigTestSupport.problems(#"{"log_level": "deb"#)
            == ["(file): not valid JSON: the file ends inside a string opened at line 1, column 15 (line 1, column 19)"])
        #expect(ConfigTestSupport.problems(#"{"log_level": "#)
            == ["(file): not valid JSON: the file ends where a value should be (line 1, column 15)"])
    }

    @Test func everyTruncationOfTheExampleConfigIsRefusedWithALineAndColumn() throws {
        let example = try Array(Data(contentsOf: URL(fileURLWithPath: Self.root + "/config.example.json")))
        var content = example
        while let last = content.last, [0x20, 0x0A, 0x0D, 0x09].contains(last) { content.removeLast() }
        var unclear: [String] = []
        for length in 0..<content.count {
            let problems: [String]
            do {
                _ = try ProxyConfig.decode(Array(content[..<length]), environment: [:])
                problems = []
            } catch {
                problems = error.problems
            }
            if problems.count != 1 || problems.first?.contains("(line ") != true { unclear.append("byte \(length): \(problems)") }
        }
        #expect(unclear.isEmpty, "\(unclear.count) truncations without one problem naming a line: \(unclear.prefix(3))")
    }

    @Test func aTruncatedConfigFileNamesTheLineAndColumnOverTheCommandLine() async throws {
        let config = try CommandLineDeploymentTests.configFile("{\n  \"mounts\": {\n    \"vod\": { \"origin\": \"http://a\"")
        defer { config.remove() }
        let result = try await RunningProcess.run(["--check-config", "--config", config.path])
        #expect(result.status == 1)
        #expect(result.out.contains("the file ends inside an object opened at line 3, column 12 (line 3, column 34)"), "\(result.out)")
    }

    // MARK: Numbers at the edge of Int64

    @Test func aFractionalNumberEqualToInt64MinIsNamedInTheProblemRatherThanTrapping() throws {
        // -9223372036854775808.0 reads as a Double equal to Int64.min; naming it once took abs(Int64.min).
        let problems = ConfigTestSupport.problems(#"{"listen": -9223372036854775808.0}"#)
        #expect(problems.contains { $0.contains("-9.223372036854776e+18") }, "\(problems)")
    }

    @Test func aFractionalNumberEqualToInt64MinIsRefusedOverTheCommandLine() async throws {
        let config = try CommandLineDeploymentTests.configFile(#"{"listen": -9223372036854775808.0}"#)
        defer { config.remove() }
        let result = try await RunningProcess.run(["--check-config", "--config", config.path])
        #expect(result.status == 1, "\(result.out)")
        #expect(result.out.contains("listen"), "\(result.out)")
    }

    // MARK: Duplicate keys

    @Test func aKeyGivenTwiceIsRefusedByItsFieldPath() {
        #expect(ConfigTestSupport.problems(#"{"listen": {"port": 80}, "listen": {"port": 81}}"#)
            == ["listen: duplicate key (first at line 1, column 2; again at line 1, column 26)"])
        let nested = """
            {
              "mounts": {
                "vod": { "origin": "http://a.example", "origin": "http://b.example" }
              },
              "subtitles": [ { "name": "s", "name": "t", "tracks": [] } ]
            }
            """
        #expect(ConfigTestSupport.problems(nested) == [
            "mounts.vod.origin: duplicate key (first at line 3, column 14; again at line 3, column 44)",
            "subtitles[0].name: duplicate key (first at line 5, column 20; again at line 5, column 33)",
        ])
    }

    @Test func aKeyGivenTwiceIsRefusedOverTheCommandLine() async throws {
        let config = try CommandLineDeploymentTests.configFile(#"{ "listen": { "port": 0, "port": 8080 } }"#)
        defer { config.remove() }
        let check = try await RunningProcess.run(["--check-config", "--config", config.path])
        #expect(check.status == 1)
        #expect(check.out.contains("listen.port: duplicate key"), "\(check.out)")
        let serve = try await RunningProcess.run(["--config", config.path])
        #expect(serve.status == 1)
        #expect(serve.err.contains("listen.port: duplicate key"), "\(serve.err)")
    }

    @Test func keysThatDifferOnlyInCaseOrEscapingAreNotDuplicates() throws {
        // "Listen" is an unknown key, not a duplicate; "\u006Cisten" is "listen" spelled with an escape.
        #expect(ConfigTestSupport.problems(#"{"listen": {}, "Listen": {}}"#).first?.hasPrefix("Listen: unknown key") == true)
        #expect(ConfigTestSupport.problems(#"{"listen": {}, "\u006Cisten": {}}"#)
            == ["listen: duplicate key (first at line 1, column 2; again at line 1, column 16)"])
    }

    // MARK: The parser against JSON

    @Test func theParserReadsWhatJSONSerializationReadsInTheFixtures() throws {
        let files = [Self.root + "/config.example.json"]
            + (try FileManager.default.contentsOfDirectory(atPath: Fixtures.directory.appendingPathComponent("config").path))
            .map { Fixtures.directory.appendingPathComponent("config/\($0)").path }
        for file in files where file.hasSuffix(".json") {
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: file)))
            let ours = try ConfigValue.parse(bytes).get()
            let theirs = try JSONSerialization.jsonObject(with: Data(bytes))
            #expect(Self.same(ours, theirs), "\(file) reads differently")
        }
    }

    @Test func stringsNumbersAndEscapesReadAsJSONDefinesThem() throws {
        let text = #"{"s": "a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00", "i": -12, "d": 1.5e2, "z": 0, "b": [true, false, null]}"#
        let value = try ConfigValue.parse(Array(text.utf8)).get()
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members["s"] == .string("a\"b\\c/d\u{8}\u{c}\n\r\té😀"))
        #expect(members["i"] == .integer(-12))
        #expect(members["d"] == .number(150))
        #expect(members["z"] == .integer(0))
        #expect(members["b"] == .array([.bool(true), .bool(false), .null]))
    }

    @Test(arguments: [
        (#"{"a": 01}"#, "expected ',' or '}' after an object member, found '1' (line 1, column 8)"),
        (#"{"a": "\ud83d"}"#, #"\u escape of a lone high surrogate (line 1, column 8)"#),
        (#"{"a": "\ude00"}"#, #"\u escape of a lone low surrogate (line 1, column 8)"#),
        ("{\"a\": \"\u{1}\"}", "a control character (0x1) inside a string must be escaped (line 1, column 8)"),
        (#"{"a": "\x"}"#, #"'\x' is not a JSON escape (line 1, column 8)"#),
        (#"{"a": tru}"#, "unexpected 't' where a value should be (line 1, column 7)"),
        (#"{"a": 1,}"#, "expected a quoted key, found '}' (line 1, column 9)"),
        (#"{"a": 1} x"#, "unexpected 'x' after the document (line 1, column 10)"),
        (#"{"a": -}"#, "a number needs a digit here, found '}' (line 1, column 8)"),
        (#"{"a": 1.}"#, "a number needs a digit after '.', found '}' (line 1, column 9)"),
    ])
    func malformedJSONIsOneProblemSayingWhatAndWhere(text: String, problem: String) {
        #expect(ConfigTestSupport.problems(text) == ["(file): not valid JSON: \(problem)"])
    }

    @Test func invalidUTF8InAStringIsRefused() {
        let bytes = Array(#"{"log_level": ""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
        #expect(throws: ConfigError.self) { try ProxyConfig.decode(bytes, environment: [:]) }
    }

    @Test func deepNestingIsRefusedRatherThanRecursedInto() {
        let deep = #"{"a": "# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        let problems = ConfigTestSupport.problems(deep)
        #expect(problems.count == 1)
        #expect(problems.first?.contains("nested deeper than \(ConfigJSONParser.maxDepth) levels") == true)
    }

    @Test func mutatedConfigFilesAreAnsweredWithProblemsNeverATrap() throws {
        // Seeded, so a failure replays: each round flips, inserts or deletes a few bytes of the example.
        let example = try Array(Data(contentsOf: URL(fileURLWithPath: Self.root + "/config.example.json")))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(max(bound, 1)))
        }
        let interesting = Array(#"{}[]",:\u0-e."#.utf8) + [0x00, 0x0A, 0xFF, 0xC3, 0xED]
        var refused = 0
        for _ in 0..<2000 {
            var bytes = example
            for _ in 0..<(1 + next(4)) {
                let at = next(bytes.count)
                switch next(3) {
                case 0 where !bytes.isEmpty: bytes[at] = interesting[next(interesting.count)]
                case 1: bytes.insert(interesting[next(interesting.count)], at: at)
                default: if !bytes.isEmpty { bytes.remove(at: at) }
                }
            }
            if case .failure(let error) = ConfigValue.parse(bytes) {
                refused += 1
                #expect(!error.problems.isEmpty)
            }
        }
        #expect(refused > 0)
    }

    @Test func aByteOrderMarkBeforeTheDocumentIsAllowed() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"log_level": "warn"}"#.utf8)
        #expect(try ProxyConfig.decode(bytes, environment: [:]).logLevel == .warn)
    }

    /// Whether our value and JSONSerialization's hold the same data.
    static func same(_ ours: ConfigValue, _ theirs: Any) -> Bool {
        switch ours {
        case .null: return theirs is NSNull
        case .bool(let flag): return theirs as? Bool == flag
        case .integer(let number): return (theirs as? NSNumber)?.int64Value == number
        case .number(let number): return (theirs as? NSNumber)?.doubleValue == number
        case .string(let text): return theirs as? String == text
        case .array(let elements):
            guard let array = theirs as? [Any], array.count == elements.count else { return false }
            return zip(elements, array).allSatisfy { same($0, $1) }
        case .object(let members):
            guard let object = theirs as? [String: Any], object.count == members.count else { return false }
            return members.allSatisfy { key, value in object[key].map { same(value, $0) } ?? false }
        }
    }

    // MARK: rewrite's messages

    @Test func rewriteOfAMediaPlaylistSaysSoWithoutAnInternalName() async throws {
        let result = try await RunningProcess.run([
            "rewrite", "--config", "config.example.json", "--url", "http://127.0.0.1:8080/sample/master.m3u8",
            "Examples/sample-vod/v0/index.m3u8",
        ], currentDirectory: Self.root)
        #expect(result.status == 1)
        #expect(result.err == "hls-subtitle-proxy: input is not a master playlist: it has no #EXT-X-STREAM-INF variant (a media playlist?)\n")
        #expect(!result.err.contains("notAMaster"))
    }

    @Test(arguments: [
        PlaylistError.notAPlaylist, .notAMaster, .notAMediaPlaylist, .invalidTrackValue(track: 0, attribute: "NAME"),
        .invalidAttribute(name: "x"), .malformedAttributeList(line: 3), .invalidSegmentDuration(line: 4),
        .invalidByteRange(line: 5), .missingSegmentDuration(line: 6),
    ])
    func rewriteReasonsNeverNameTheErrorCase(error: PlaylistError) {
        let reason = OfflineRewrite.reason(error)
        let caseName = String(describing: error).prefix { $0 != "(" }
        #expect(!reason.contains(caseName), "\(reason)")
    }
}
