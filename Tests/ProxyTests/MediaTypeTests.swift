import Testing
import TestSupport
@testable import Proxy

/// Content-Type by extension is found in one pass over the path's bytes; it must give what a switch over
/// the lowercased extension gives.
@Suite struct MediaTypeTests {
    static func reference(_ path: String) -> String {
        switch URLReference.pathExtension(of: path) {
        case "m3u8", "m3u": return MediaType.playlist
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

    @Test(arguments: [
        "/a/master.m3u8", "/a/INDEX.M3U8", "/v0/seg000.ts", "/x.Ts", "/x.m4s", "/x.cmfv", "/x.m4a", "/x.aac", "/s/en.vtt", "/s/en.WebVTT",
        "/s/es.srt", "/t.json", "/k.key", "/i.HTML", "/r.txt", "/none", "/dir.m3u8/file", "/a.b.ts", "/x.ts?y=1.m3u8", "/seg%2Ets",
        "/caf%C3%A9.vtt", "/x.", "/.ts", "", "http://h/p.m3u8?q", "/x.mp4#f.ts", "/x.tsx", "/x.t",
    ])
    func theTypeIsTheLowercasedExtensionsType(path: String) {
        #expect(MediaType.forPath(path) == Self.reference(path), "\(path)")
    }

    @Test func seededPathsGetTheReferenceType() {
        var generator = SeededGenerator()
        let pieces = ["/", ".", "ts", "TS", "m3u8", "vtt", "Vtt", "a", "%2E", "?", "#", "webvtt", "m3u", "é"]
        for _ in 0..<2_000 {
            let path = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }.joined()
            #expect(MediaType.forPath(path) == Self.reference(path), "\(path) (seed \(generator.seed))")
        }
    }
}
