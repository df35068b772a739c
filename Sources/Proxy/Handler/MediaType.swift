import HTTPWire

/// The media types the proxy writes.
enum MediaType {
    /// RFC 8216 §4: playlists.
    static let playlist = "application/vnd.apple.mpegurl"
    static let webVTT = "text/vtt; charset=utf-8"

    /// Content-Type by file extension, for file mounts and pass-through without an origin type.
    static func forPath(_ path: String) -> String {
        URLReference.matchingExtension(path, in: byExtension).map { types[$0] } ?? "application/octet-stream"
    }

    /// A directory-mount file's Content-Type and whether its extension names a playlist (one of
    /// `PassThroughResponder.isPlaylistPath`'s), from one look at the extension of its absolute path
    /// (`URLReference.matchingFileExtension`: the path is a file's, not a URL).
    static func forFile(_ path: String) -> (type: String, isPlaylist: Bool) {
        guard let index = URLReference.matchingFileExtension(path, in: byExtension) else { return ("application/octet-stream", false) }
        return (types[index], index == 0)
    }

    /// A directory-mount file's response fields (Content-Type, `Cache-Control: max-age=60`,
    /// `Accept-Ranges: bytes`, in that order) and whether its extension names a playlist, as `forFile`
    /// reads the path. The lists are made once per type and shared, so a request adds no field.
    static func fileFields(_ path: String) -> (fields: HTTPHeaders, isPlaylist: Bool) {
        guard let index = URLReference.matchingFileExtension(path, in: byExtension) else { return (octetStreamFileFields, false) }
        return (fileFieldsByType[index], index == 0)
    }

    private static func fileFields(type: String) -> HTTPHeaders {
        var fields = HTTPHeaders(reservingCapacity: 3)
        fields.add(.contentType, type)
        fields.add(.cacheControl, "max-age=60")
        fields.add(.acceptRanges, "bytes")
        return fields
    }

    private static let fileFieldsByType = types.map { fileFields(type: $0) }
    private static let octetStreamFileFields = fileFields(type: "application/octet-stream")

    /// The extensions of each type in `types`, lowercase; the first are the playlists'.
    private static let byExtension: [[String]] = [
        ["m3u8", "m3u"], ["ts"], ["m4s", "mp4", "m4v", "cmfv"], ["m4a", "cmfa"], ["aac"], ["vtt", "webvtt"], ["srt"], ["json"],
        ["key"], ["html", "htm"], ["txt"],
    ]
    private static let types = [
        playlist, "video/mp2t", "video/mp4", "audio/mp4", "audio/aac", webVTT, "application/x-subrip", "application/json",
        "application/octet-stream", "text/html; charset=utf-8", "text/plain; charset=utf-8",
    ]
}
