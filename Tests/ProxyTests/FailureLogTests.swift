import Testing

/// A 5xx the proxy gives is also logged with its reason, as nginx logs upstream failures.
@Suite struct FailureLogTests {
    @Test func anUnreachableOriginIsLoggedWithThePathAndReason() async throws {
        let config = """
            { "mounts": { "dead": { "origin": "http://127.0.0.1:9" } },
              "subtitles": [ { "name": "s", "masters": ["/dead/*.m3u8"],
                               "tracks": [ { "name": "English", "language": "en", "source": "/en.vtt" } ] } ] }
            """
        try await withProxy(config) { proxy in
            let response = try await proxy.get("/dead/master.m3u8")
            #expect(response.status == 502)
            let lines = proxy.logLines.filter { $0.contains("\"msg\":\"request failed\"") }
            #expect(lines.count == 1)
            let line = try #require(lines.first)
            #expect(line.contains("\"level\":\"warn\""))
            #expect(line.contains("\"path\":\"/dead/master.m3u8\""))
            #expect(line.contains("\"status\":\"502\""))
            // The reason is the one the client got in the body.
            let reason = try #require(response.text.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(line.contains(reason), "\(line) / \(reason)")
            // Client errors are not logged as failures.
            #expect(try await proxy.get("/nowhere/x").status == 404)
            #expect(proxy.logLines.filter { $0.contains("request failed") }.count == 1)
        }
    }
}
