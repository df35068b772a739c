/// A subtitle set's backend fields: `tracks_url`, `tracks_headers` and `source_hosts`.
extension SubtitleSetDecoder {
    struct BackendFields {
        /// Whether `tracks_url` was given, valid or not: a set that names one needs no static tracks.
        var hasURL = false
        var tracksURL: String?
        var headers: [Mount.Header] = []
        var sourceHosts: [HostPattern] = []
    }

    /// The three fields, each checked by its path; the headers and hosts mean nothing without a URL, so
    /// giving them alone is reported rather than ignored.
    static func backendFields(_ members: [String: ConfigValue], at path: ConfigPath, in reader: inout ConfigReader) -> BackendFields {
        var fields = BackendFields()
        if let text = reader.string(members["tracks_url"], at: path.key("tracks_url")) {
            if let problem = tracksURLProblem(text) {
                reader.report(path.key("tracks_url"), "\(ConfigReader.quoted(text)) \(problem)")
            } else {
                fields.tracksURL = text
            }
        }
        fields.headers = MountDecoder.injectHeaders(members["tracks_headers"], at: path.key("tracks_headers"), in: &reader)
        fields.sourceHosts = EmbeddedOriginsDecoder.hostPatterns(members["source_hosts"], at: path.key("source_hosts"), in: &reader)
        fields.hasURL = members["tracks_url"].map { $0 != .null } ?? false
        for key in ["tracks_headers", "source_hosts"] where !fields.hasURL && members[key].map({ $0 != .null }) == true {
            reader.report(path.key(key), "applies only to tracks fetched from tracks_url, which this set does not have")
        }
        return fields
    }

    /// Why `text` is not an absolute http(s) URL template, or nil. `{name}` placeholders may stand in the
    /// path and query, never in the authority: a capture from the request path must not pick the host.
    static func tracksURLProblem(_ text: String) -> String? {
        if text.contains("#") { return "must not have a fragment" }
        let beforeQuery = String(text.prefix { $0 != "?" })
        let query = text.dropFirst(beforeQuery.count)
        if query.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            return "contains spaces or control characters"
        }
        let afterScheme = beforeQuery.firstRange(of: "://").map { beforeQuery[$0.upperBound...] } ?? ""
        if afterScheme.prefix(while: { $0 != "/" }).contains(where: { $0 == "{" || $0 == "}" }) {
            return "has a placeholder in its host or port, where a request could choose where the proxy connects"
        }
        if case .failure(let problem) = ConfigReader.httpURLParts(beforeQuery) {
            return problem.message.hasPrefix("must not carry credentials") ? "must not carry credentials; use tracks_headers" : problem.message
        }
        return placeholderProblem(text)
    }

    /// `{` and `}` must pair up around a non-empty name without nesting, as the template substitution reads them.
    private static func placeholderProblem(_ text: String) -> String? {
        var open = false
        var nameLength = 0
        for character in text {
            switch character {
            case "{":
                if open { return "has a '{' inside a placeholder" }
                open = true
                nameLength = 0
            case "}":
                if !open { return "has a '}' that closes no placeholder" }
                if nameLength == 0 { return "has an empty placeholder {}" }
                open = false
            default:
                if open { nameLength += 1 }
            }
        }
        return open ? "has a placeholder that is never closed" : nil
    }
}
