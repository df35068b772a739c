import Foundation
import HLS
import Testing
@testable import Proxy

/// Synthesized bodies (rewritten masters, subtitle playlists, WebVTT files) carry a strong ETag made
/// from their bytes and answer If-None-Match with 304, over real sockets (RFC 9110 §13.1.2, §15.4.5).
@Suite struct ConditionalRequestTests {
    static let master = "/origin/vod-ts/master.m3u8"

    /// The three synthesized targets: the master, a segmented track's playlist and its first file.
    static func synthesizedTargets(_ proxy: ProxyHarness) async throws -> [String] {
        let playlist = try await SubtitleRouteTests.trackURI(proxy, master: master, language: "en")
        return [master, playlist, SubtitleRouteTests.sibling(playlist, "0.vtt")]
    }

    static func isStrongTag(_ tag: String?) -> Bool {
        guard let tag else { return false }
        return tag.count == 34 && tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/")
    }

    @Test func everySynthesizedRouteGivesAStrongETagThatStaysTheSameForTheSameBytes() async throws {
        try await withProxy { proxy in
            for target in try await Self.synthesizedTargets(proxy) {
                let first = try await proxy.get(target)
                let second = try await proxy.get(target)
                #expect(first.status == 200 && second.status == 200, "\(target)")
                #expect(Self.isStrongTag(first.header("ETag")), "\(target): \(first.header("ETag") ?? "no ETag")")
                #expect(first.body == second.body)
                #expect(first.header("ETag") == second.header("ETag"), "\(target)")
                #expect(first.header("ETag") == EntityTag.make(for: first.body), "\(target)")
            }
        }
    }

    @Test func aMatchingIfNoneMatchGetsA304WithNoBodyButTheCacheAndCORSFields() async throws {
        try await withProxy { proxy in
            for target in try await Self.synthesizedTargets(proxy) {
                let whole = try await proxy.get(target)
                let tag = try #require(whole.header("ETag"))
                // The master's second request is answered from the rewritten cache without I/O.
                let revalidated = try await proxy.get(target, headers: [("If-None-Match", tag)])
                #expect(revalidated.status == 304, "\(target)")
                #expect(revalidated.body.isEmpty, "\(target)")
                #expect(revalidated.header("Content-Length") == nil, "\(target)")
                #expect(revalidated.header("Content-Type") == nil, "\(target)")
                #expect(revalidated.header("Content-Range") == nil && revalidated.header("Accept-Ranges") == nil)
                #expect(revalidated.header("ETag") == tag)
                #expect(revalidated.header("Cache-Control") == whole.header("Cache-Control"))
                #expect(revalidated.header("X-HLS-Proxy-Route") == whole.header("X-HLS-Proxy-Route"))
                #expect(revalidated.header("Access-Control-Allow-Origin") == "*")
            }
            // The access log keeps the route names and logs the 304 with no bytes.
            let lines = proxy.logLines.filter { $0.contains("\"status\":304") }
            for route in ["\"master\"", "\"subtitle-playlist\"", "\"subtitle\""] {
                #expect(lines.contains { $0.contains(route) }, "no 304 access line for \(route)")
            }
        }
    }

    @Test func aRevalidationFromAnAllowedBrowserOriginKeepsVaryAndItsCORSFields() async throws {
        let config = ProxyHarness.standardConfig.replacingOccurrences(
            of: #""timeouts":"#, with: #""cors": { "allow_origins": ["https://player.example"] }, "timeouts":"#)
        try await withProxy(config) { proxy in
            for target in try await Self.synthesizedTargets(proxy) {
                let origin = ("Origin", "https://player.example")
                let tag = try #require(try await proxy.get(target, headers: [origin]).header("ETag"))
                let revalidated = try await proxy.get(target, headers: [origin, ("If-None-Match", tag)])
                #expect(revalidated.status == 304, "\(target)")
                #expect(revalidated.header("Vary") == "Origin")
                #expect(revalidated.header("Access-Control-Allow-Origin") == "https://player.example")
            }
        }
    }

    @Test func anIfNoneMatchForOtherBytesGetsTheWholeBody() async throws {
        try await withProxy { proxy in
            for target in try await Self.synthesizedTargets(proxy) {
                let whole = try await proxy.get(target)
                let other = try await proxy.get(target, headers: [("If-None-Match", "\"00000000000000000000000000000000\"")])
                #expect(other.status == 200, "\(target)")
                #expect(other.body == whole.body)
                let unquoted = try await proxy.get(target, headers: [("If-None-Match", String((whole.header("ETag") ?? "").dropFirst().dropLast()))])
                #expect(unquoted.status == 200, "an unquoted tag is not an entity-tag: \(target)")
            }
        }
    }

    @Test func aStarAListContainingTheTagAndAWeakFormOfItAllGet304() async throws {
        try await withProxy { proxy in
            for target in try await Self.synthesizedTargets(proxy) {
                let tag = try #require(try await proxy.get(target).header("ETag"))
                for condition in ["*", "\"a\", \(tag) , \"b\"", "W/\(tag)", "W/\"x\",W/\(tag)"] {
                    let response = try await proxy.get(target, headers: [("If-None-Match", condition)])
                    #expect(response.status == 304, "\(target) with If-None-Match: \(condition)")
                }
                // Two If-None-Match fields are one list (RFC 9110 §5.3).
                let split = try await proxy.get(target, headers: [("If-None-Match", "\"a\""), ("If-None-Match", tag)])
                #expect(split.status == 304, "\(target) with the tag in a second field")
            }
        }
    }

    @Test func headGetsTheETagAndIsAnswered304Too() async throws {
        try await withProxy { proxy in
            for target in try await Self.synthesizedTargets(proxy) {
                let get = try await proxy.get(target)
                let head = try await proxy.get(target, method: "HEAD")
                #expect(head.status == 200)
                #expect(head.header("ETag") == get.header("ETag"), "\(target)")
                let conditional = try await proxy.get(target, method: "HEAD", headers: [("If-None-Match", get.header("ETag") ?? "")])
                #expect(conditional.status == 304, "\(target)")
            }
        }
    }

    @Test func rangesKeepWorkingAndIfRangeWithTheETagIsHonoured() async throws {
        try await withProxy { proxy in
            for target in try await Self.synthesizedTargets(proxy) {
                let whole = try await proxy.get(target)
                let tag = try #require(whole.header("ETag"))
                let part = try await proxy.get(target, headers: [("Range", "bytes=0-6")])
                #expect(part.status == 206, "\(target)")
                #expect(part.body == Array(whole.body.prefix(7)))
                #expect(part.header("ETag") == tag)
                let matching = try await proxy.get(target, headers: [("Range", "bytes=0-6"), ("If-Range", tag)])
                #expect(matching.status == 206, "\(target) with a matching If-Range")
                let stale = try await proxy.get(target, headers: [("Range", "bytes=0-6"), ("If-Range", "\"0000\"")])
                #expect(stale.status == 200, "\(target) with a stale If-Range")
                #expect(stale.body == whole.body)
                // RFC 9110 §13.2.2: If-None-Match is evaluated before Range.
                let both = try await proxy.get(target, headers: [("Range", "bytes=0-6"), ("If-None-Match", tag)])
                #expect(both.status == 304, "\(target)")
            }
        }
    }

    /// Any instance can answer any subtitle URL, so the tag is a pure function of the bytes: a CDN
    /// revalidating against another instance behind the balancer still gets its 304.
    @Test func twoProxyInstancesGiveTheSameBytesTheSameETag() async throws {
        try await withProxy { first in
            try await withProxy { second in
                for target in try await Self.synthesizedTargets(first) {
                    let fromFirst = try await first.get(target)
                    let fromSecond = try await second.get(target)
                    #expect(fromFirst.body == fromSecond.body, "\(target)")
                    let tag = try #require(fromFirst.header("ETag"))
                    #expect(fromSecond.header("ETag") == tag)
                    let revalidated = try await second.get(target, headers: [("If-None-Match", tag)])
                    #expect(revalidated.status == 304, "\(target)")
                }
            }
        }
    }

    @Test func passThroughResponsesAreNotAnsweredWithTheProxysOwn304() async throws {
        try await withProxy { proxy in
            // A media playlist under the proxied mount: the origin's body, not one the proxy made.
            let response = try await proxy.get("/proxied/vod-ts/v0/index.m3u8", headers: [("If-None-Match", "*")])
            #expect(response.status == 200)
        }
    }

    // MARK: - Files kept with their document

    @Test func aSubtitleFileIsMadeOncePerDocumentAndAgainWhenTheTimelineMovesItsBoundaries() {
        let document = WebVTTDocument(cues: [
            WebVTTCue(start: 500, end: 2_500, payload: ["one"]), WebVTTCue(start: 4_500, end: 5_500, payload: ["two"]),
        ])
        let cues = SubtitleTrackCues(document: document, isFallback: false)
        let whole = cues.wholeFile()
        #expect(whole.bytes == document.serialized())
        #expect(whole.etag == EntityTag.make(for: whole.bytes))
        #expect(cues.wholeFile().etag == whole.etag)
        let first = cues.segmentFile(0, boundaries: [0, 4_000, 8_000])
        #expect(first?.bytes == document.segment(0, boundaries: [0, 4_000, 8_000])?.serialized())
        // Another timeline cuts segment 0 elsewhere: the kept file is not served for it.
        let moved = cues.segmentFile(0, boundaries: [0, 6_000])
        #expect(moved?.bytes == document.segment(0, boundaries: [0, 6_000])?.serialized())
        #expect(moved?.etag != first?.etag)
        #expect(cues.segmentFile(5, boundaries: [0, 4_000, 8_000]) == nil)
    }

    // MARK: - The If-None-Match reader

    @Test func theTagIsTheFirst128BitsOfTheSHA256InHex() {
        #expect(EntityTag.make(for: []) == "\"e3b0c44298fc1c149afbf4c8996fb924\"")
        #expect(EntityTag.make(for: Array("abc".utf8)) == "\"ba7816bf8f01cfea414140de5dae2223\"")
    }

    @Test(arguments: [
        ("\"abc\"", true), ("W/\"abc\"", true), ("*", true), (" \"x\" ,\t\"abc\"", true), ("\"a,b\", \"abc\"", true),
        ("\"abcd\"", false), ("abc", false), ("", false), (",,, ", false), ("\"abc", false), ("w/\"abc\"", false),
        ("\"x\", junk, \"abc\"", false), ("W/", false), ("W", false), ("\"", false),
    ])
    func ifNoneMatchIsReadAsAListOfTagsComparedWeakly(header: String, matches: Bool) {
        #expect(EntityTag.noneMatchNames(header, tag: "\"abc\"") == matches, "\(header)")
    }
}
