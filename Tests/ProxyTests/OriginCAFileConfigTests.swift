import Foundation
@testable import Proxy
import TestSupport
import Testing

/// `origin_ca_file`: checked readable at load, relative to the config file, handed to the origin client.
@Suite struct OriginCAFileConfigTests {
    @Test func aReadableCAFileIsKeptAsAnAbsolutePath() throws {
        let path = Fixtures.directory.appendingPathComponent("tls/ca.pem").path
        let config = try ConfigTestSupport.decode(#"{"origin_ca_file": "\#(path)"}"#)
        #expect(config.originCAFile == path)
    }

    @Test func aRelativeCAFileResolvesAgainstTheConfigFilesDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ca-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: Fixtures.directory.appendingPathComponent("tls/ca.pem"), to: directory.appendingPathComponent("ca.pem"))
        let file = directory.appendingPathComponent("config.json")
        try Data(#"{"origin_ca_file": "ca.pem"}"#.utf8).write(to: file)
        let config = try ProxyConfig.load(contentsOf: file.path, environment: [:])
        #expect(config.originCAFile == directory.standardizedFileURL.path + "/ca.pem")
    }

    @Test func aMissingOrDirectoryCAFileStopsTheLoadNamingTheField() {
        #expect(ConfigTestSupport.problems(#"{"origin_ca_file": "/nonexistent/ca.pem"}"#)
            == [#"origin_ca_file: "/nonexistent/ca.pem" is not a readable file"#])
        #expect(ConfigTestSupport.problems(#"{"origin_ca_file": "/tmp"}"#) == [#"origin_ca_file: "/tmp" is not a readable file"#])
        #expect(ConfigTestSupport.problems(#"{"origin_ca_file": ""}"#) == ["origin_ca_file: must be a file path"])
    }

    @Test func noCAFileIsTheDefault() throws {
        #expect(try ConfigTestSupport.decode("{}").originCAFile == nil)
    }

    @Test func onlyAnHTTPSMountOrSubtitleSourceMakesStartUpCheckForOpenSSL() throws {
        let plain = try ConfigTestSupport.decode(#"{"mounts": {"m": {"origin": "http://example.com"}}}"#)
        #expect(!plain.namesHTTPSURL)
        let mount = try ConfigTestSupport.decode(#"{"mounts": {"m": {"origin": "HTTPS://example.com"}}}"#)
        #expect(mount.namesHTTPSURL)
        let source = try ConfigTestSupport.decode(ConfigTestSupport.setJSON(tracks: #"{"name": "English", "language": "en", "source": "https://example.com/en.vtt"}"#))
        #expect(source.namesHTTPSURL)
    }
}
