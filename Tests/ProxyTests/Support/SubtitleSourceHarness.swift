import TestSupport

/// Runs `body` against a proxy whose config has `SUBS` replaced by a SubtitleSourceOrigin's base URL.
func withSubtitleSources(
    _ configJSON: String, sources: SubtitleSourceOrigin, _ body: (ProxyHarness) async throws -> Void
) async throws {
    do {
        try await withProxy(configJSON.replacingOccurrences(of: "SUBS", with: sources.baseURL), body)
    } catch {
        await sources.stop()
        throw error
    }
    await sources.stop()
}

/// The media lines of a master's SUBTITLES renditions.
func subtitleRenditions(_ master: RawResponse) -> [Substring] {
    master.text.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-MEDIA:TYPE=SUBTITLES") }
}

/// The URI attribute of an EXT-X-MEDIA line.
func renditionURI(_ line: Substring) -> String? {
    guard let start = line.range(of: "URI=\"") else { return nil }
    return String(line[start.upperBound...].prefix { $0 != "\"" })
}
