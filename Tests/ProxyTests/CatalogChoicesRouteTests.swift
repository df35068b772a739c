import Foundation
import TestSupport
import Testing

/// Per-request choices over real sockets: `hls_proxy_subtitles` picks the tracks, `hls_proxy_default`
/// the DEFAULT one; unknown values are ignored, and no origin ever sees either parameter.
@Suite struct CatalogChoicesRouteTests {
    private static func languages(_ master: RawResponse) -> [String] {
        subtitleRenditions(master).compactMap { line in
            guard let start = line.range(of: "LANGUAGE=\"") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != "\"" })
        }
    }

    private static func defaults(_ master: RawResponse) -> [String] {
        subtitleRenditions(master).filter { $0.contains("DEFAULT=YES") }.compactMap { line in
            guard let start = line.range(of: "LANGUAGE=\"") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != "\"" })
        }
    }

    @Test func aSubsetIsListedInTheSetsOrder() async throws {
        try await withProxy { proxy in
            let master = try await proxy.get("/origin/vod-ts/master.m3u8?hls_proxy_subtitles=es,fr")
            #expect(master.status == 200)
            #expect(Self.languages(master) == ["fr", "es"])
            #expect(Self.defaults(master).isEmpty)
        }
    }

    @Test func theChosenDefaultIsTheOnlyDefaultAndIsAutoselected() async throws {
        try await withProxy { proxy in
            let master = try await proxy.get("/origin/vod-ts/master.m3u8?hls_proxy_default=fr")
            #expect(Self.languages(master) == ["en", "fr", "es"])
            #expect(Self.defaults(master) == ["fr"])
            #expect(subtitleRenditions(master).contains { $0.contains("LANGUAGE=\"fr\"") && $0.contains("DEFAULT=YES,AUTOSELECT=YES") })
        }
    }

    @Test func aTrackIdNamesATrackToo() async throws {
        try await withProxy { proxy in
            let master = try await proxy.get("/origin/vod-ts/master.m3u8?hls_proxy_subtitles=es&hls_proxy_default=es")
            #expect(Self.languages(master) == ["es"])
            #expect(Self.defaults(master) == ["es"])
        }
    }

    @Test func unknownLanguagesAreIgnored() async throws {
        try await withProxy { proxy in
            let some = try await proxy.get("/origin/vod-ts/master.m3u8?hls_proxy_subtitles=xx,fr&hls_proxy_default=zz")
            #expect(some.status == 200)
            #expect(Self.languages(some) == ["fr"])
            let none = try await proxy.get("/origin/vod-ts/master.m3u8?hls_proxy_subtitles=xx")
            #expect(none.status == 200)
            #expect(Self.languages(none) == ["en", "fr", "es"])
            #expect(Self.defaults(none) == ["en"])
        }
    }

    @Test func eachChoiceHasItsOwnMasterAndSubtitleURLsThatServe() async throws {
        try await withProxy { proxy in
            let plain = try await proxy.get("/origin/vod-ts/master.m3u8")
            let chosen = try await proxy.get("/origin/vod-ts/master.m3u8?hls_proxy_default=fr")
            #expect(plain.body != chosen.body)
            #expect(Self.defaults(plain) == ["en"])
            // One origin fetch: the choice is not part of what is fetched.
            #expect(proxy.origin.hits("/vod-ts/master.m3u8") == 1)
            let french = try #require(subtitleRenditions(chosen).first { $0.contains("LANGUAGE=\"fr\"") }.flatMap(renditionURI))
            #expect(!subtitleRenditions(plain).compactMap(renditionURI).contains(french))
            #expect(try await proxy.get(french).status == 200)
        }
    }

    @Test func theChoiceParametersNeverReachAnOrigin() async throws {
        let origin = try SubtitleSourceOrigin()
        let config = """
            {
              "mounts": { "rec": { "origin": "SUBS", "segments": "proxy" }, "redir": { "origin": "SUBS" } },
              "subtitles": [ { "name": "vod", "masters": ["*/master.m3u8"],
                "tracks": [ { "id": "en", "name": "English", "language": "en", "source": "/subs/en.vtt" },
                            { "id": "fr", "name": "French", "language": "fr", "source": "/subs/fr.vtt" } ] } ]
            }
            """
        try await withSubtitleSources(config, sources: origin) { proxy in
            let master = try await proxy.get("/rec/vod-ts/master.m3u8?session=1&hls_proxy_subtitles=fr&hls_proxy_default=fr")
            #expect(Self.languages(master) == ["fr"])
            let uri = try #require(subtitleRenditions(master).first.flatMap(renditionURI))
            #expect(try await proxy.get(uri.replacingOccurrences(of: "index.m3u8", with: "0.vtt")).status == 200)
            let variant = try await proxy.get("/rec/vod-ts/v0/index.m3u8?hls_proxy_default=fr")
            #expect(variant.status == 200)
            let redirect = try await proxy.get("/redir/vod-ts/v0/seg000.ts?a=1&hls_proxy_subtitles=en")
            #expect(redirect.status == 302)
            #expect(redirect.header("Location")?.hasSuffix("/vod-ts/v0/seg000.ts?a=1") == true)
            let targets = origin.requests().map(\.target)
            #expect(targets.contains("/vod-ts/master.m3u8?session=1"))
            #expect(targets.contains("/vod-ts/v0/index.m3u8"))
            #expect(!targets.isEmpty)
            #expect(targets.allSatisfy { !$0.contains("hls_proxy_") }, "\(targets)")
        }
    }
}
