/// The media types the proxy writes.
enum MediaType {
    /// RFC 8216 §4: playlists.
    static let playlist = "application/vnd.apple.mpegurl"
    static let webVTT = "text/vtt; charset=utf-8"

    /// Content-Type by file extension, for file mounts and pass-through without an origin type.
    static func forPath(_ path: String) -> String {
        switch URLReference.pathExtension(of: path) {
        case "m3u8", "m3u": return playlist
        case "ts": return "video/mp2t"
        case "m4s", "mp4", "m4v", "cmfv": return "video/mp4"
        case "m4a", "cmfa": return "audio/mp4"
        case "aac": return "audio/aac"
        case "vtt", "webvtt": return "text/vtt; charset=utf-8"
        case "srt": return "application/x-subrip"
        case "json": return "application/json"
        case "key": return "application/octet-stream"
        case "html", "htm": return "text/html; charset=utf-8"
        case "txt": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
