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
