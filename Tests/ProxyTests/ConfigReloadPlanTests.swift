import Foundation
@testable import Proxy
import Testing

/// What a reload keeps and what it swaps, on decoded configs, without a process.
@Suite struct ConfigReloadPlanTests {
    static func config(_ json: String) throws -> ProxyConfig {
        try ProxyConfig.decode(Array(json.utf8), environment: [:])
    }

    @Test func everySettingFixedAtStartKeepsItsRunningValueAndIsNamed() throws {
        let running = try Self.config(#"{ "mounts": { "m": { "origin": "/tmp" } } }"#)
        let candidate = try Self.config(#"""
            { "listen": { "host": "::1", "port": 9000, "threads": 2 },
              "mounts": { "m": { "origin": "/tmp" } },
              "timeouts": { "connect_seconds": 1, "origin_seconds": 2, "header_seconds": 3, "idle_seconds": 4, "shutdown_seconds": 5 },
              "limits": { "max_connections": 7, "max_origin_exchanges": 8 },
              "cache": { "disk_directory": "/tmp", "disk_max_bytes": 9 },
              "log_level": "debug", "access_log": false }
            """#)
        let reload = ConfigReload(running: running, candidate: candidate)
        let names = reload.keptUntilRestart.map { String($0.prefix { $0 != " " }) }
        #expect(names == [
            "listen.host", "listen.port", "listen.threads", "timeouts.header_seconds", "timeouts.idle_seconds",
            "limits.max_connections", "timeouts.connect_seconds", "timeouts.origin_seconds",
            "limits.max_origin_exchanges", "cache.disk_directory", "cache.disk_max_bytes", "log_level", "access_log",
        ])
        #expect(reload.keptUntilRestart.contains("listen.port 8080 (the file says 9000)"))
        #expect(reload.keptUntilRestart.contains("cache.disk_directory unset (the file says /tmp)"))
        #expect(reload.keptUntilRestart.contains("log_level unset (the file says debug)"))
        let effective = reload.effective
        #expect(effective.listen == running.listen)
        #expect(effective.timeouts.connect == running.timeouts.connect)
        #expect(effective.timeouts.header == running.timeouts.header)
        #expect(effective.limits.maxConnections == running.limits.maxConnections)
        #expect(effective.limits.maxOriginExchanges == nil)
        #expect(effective.cache.diskDirectory == nil)
        #expect(effective.logLevel == nil && effective.accessLog)
        // What is not fixed applies: the drain period is read when the drain starts.
        #expect(effective.timeouts.shutdownGrace == 5)
        #expect(reload.changes == ["timeouts"])
    }

    @Test func theSummaryNamesMountsAndSubtitleSetsAddedRemovedAndChanged() throws {
        let running = try Self.config(#"""
            { "mounts": { "a": { "origin": "/tmp" }, "b": { "origin": "/tmp" } },
              "subtitles": [ { "name": "s", "tracks": [ { "name": "E", "language": "en", "source": "e.vtt" } ] } ] }
            """#)
        let candidate = try Self.config(#"""
            { "mounts": { "b": { "origin": "/var" }, "c": { "origin": "/tmp" } },
              "subtitles": [ { "name": "s", "tracks": [ { "name": "E", "language": "de", "source": "e.vtt" } ] } ],
              "cors": { "allow_origins": ["https://player.example"] } }
            """#)
        let reload = ConfigReload(running: running, candidate: candidate)
        #expect(reload.summary == "mounts +c -a ~b; subtitles ~s; cors")
        #expect(reload.keptUntilRestart.isEmpty)
        #expect(ConfigReload(running: running, candidate: running).summary == "nothing changed")
    }
}
