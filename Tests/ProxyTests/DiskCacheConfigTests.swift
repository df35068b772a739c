@testable import Proxy
import Testing

/// The disk cache settings under `cache`: off unless a directory is named.
@Suite struct DiskCacheConfigTests {
    @Test func theDiskCacheIsOffByDefault() throws {
        let config = try ProxyConfig.decode(Array("{}".utf8), environment: [:], baseDirectory: "/etc/proxy")
        #expect(config.cache.diskDirectory == nil)
        #expect(config.cache.diskMaxBytes == 1 << 30)
    }

    @Test func aRelativeDirectoryResolvesAgainstTheConfigFile() throws {
        let json = #"{"cache": {"disk_directory": "cache/segments", "disk_max_bytes": 1048576}}"#
        let config = try ProxyConfig.decode(Array(json.utf8), environment: [:], baseDirectory: "/etc/proxy")
        #expect(config.cache.diskDirectory == "/etc/proxy/cache/segments")
        #expect(config.cache.diskMaxBytes == 1_048_576)
        let absolute = try ProxyConfig.decode(Array(#"{"cache": {"disk_directory": "/var/cache/p"}}"#.utf8), environment: [:], baseDirectory: "/x")
        #expect(absolute.cache.diskDirectory == "/var/cache/p")
    }

    @Test(arguments: [
        (#"{"cache": {"disk_max_bytes": 0}}"#, "cache.disk_max_bytes: must be greater than 0, got 0"),
        (#"{"cache": {"disk_directory": ""}}"#, "cache.disk_directory: must be a directory path"),
        (#"{"cache": {"disk_directory": 5}}"#, "cache.disk_directory: expected a string, got 5"),
    ])
    func badDiskCacheSettingsNameTheirField(json: String, expected: String) {
        #expect(ConfigTestSupport.problems(json) == [expected])
    }
}
