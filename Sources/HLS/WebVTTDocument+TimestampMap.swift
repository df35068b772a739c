extension WebVTTDocument {
    /// The `X-TIMESTAMP-MAP` header line's value, if the header holds a well-formed one.
    public var timestampMap: TimestampMap? {
        headerLines.lazy.compactMap { TimestampMap(headerLine: $0) }.first
    }

    /// The document with `map` as its `X-TIMESTAMP-MAP`; with `keepExisting`, a well-formed map already
    /// in the header wins (the origin knows its own timeline best). Malformed map lines are replaced.
    public func settingTimestampMap(_ map: TimestampMap, keepExisting: Bool) -> WebVTTDocument {
        if keepExisting, timestampMap != nil { return self }
        var updated = self
        // RFC 8216 §3.5: the map is a header line; one per file, so earlier ones go.
        updated.headerLines.removeAll { $0.hasPrefix("X-TIMESTAMP-MAP") }
        updated.headerLines.insert(map.headerLine, at: 0)
        return updated
    }

    /// The document without any `X-TIMESTAMP-MAP` header line.
    public func removingTimestampMap() -> WebVTTDocument {
        var updated = self
        updated.headerLines.removeAll { $0.hasPrefix("X-TIMESTAMP-MAP") }
        return updated
    }
}
