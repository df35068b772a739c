import Foundation
import TestSupport
import Testing
@testable import Proxy

/// `"optional": true` tracks over real sockets: listed only when their source exists, probed with
/// HEAD (GET where HEAD is refused), one probe per source however many first requests arrive.
@Suite struct CatalogOptionalTrackRouteTests {
    static func config(optionalSource: String = "SUBS/subs/{asset}/fr.vtt", masterTTL: Int = 2) -> String {
        """
        {
          "mounts": { "origin": { "origin": "ORIGIN" } },
          "cache": { "master_ttl_seconds": \(masterTTL) },
          "subtitles": [
            { "name": "catalog", "masters": ["/origin/{asset}/master.m3u8"],
              "tracks": [
                { "id": "en", "name": "English", "language": "en", "default": true, "source": "SUBS/subs/{asset}/en.vtt" },
                { "id": "de", "name": "Deutsch", "language": "de", "optional": true, "source": "\(optionalSource)" }
              ] }
          ]
        }
        """
    }

    @Test func anOptionalTrackWhoseSourceExistsIsListedAfterAHEAD() async throws {
        let sources = try SubtitleSourceOrigin()
        try await withSubtitleSources(Self.config(), sources: sources) { proxy in
            let master = try await proxy.get("/origin/vod-ts/master.m3u8")
            let renditions = subtitleRenditions(master)
            #expect(renditions.count == 2)
            #expect(renditions.contains { $0.contains("LANGUAGE=\"de\"") })
            #expect(sources.requests() == [SubtitleSourceOrigin.Seen(method: "HEAD", target: "/subs/vod-ts/fr.vtt")])
            let uri = try #require(renditions.first { $0.contains("LANGUAGE=\"de\"") }.flatMap(renditionURI))
            #expect(try await proxy.get(uri).status == 200)
        }
    }

    @Test func anOptionalTrackWhoseSourceIsMissingIsLeftOutAndItsSubtitleURLAnswers404() async throws {
        let sources = try SubtitleSourceOrigin(missing: ["/subs/vod-fmp4/fr.vtt"])
        try await withSubtitleSources(Self.config(), sources: sources) { proxy in
            let master = try await proxy.get("/origin/vod-fmp4/master.m3u8")
            let renditions = subtitleRenditions(master)
            #expect(renditions.count == 1)
            #expect(renditions.first?.contains("LANGUAGE=\"en\"") == true)
            let english = try #require(renditions.first.flatMap(renditionURI))
            let german = english.replacingOccurrences(of: "/catalog/en/", with: "/catalog/de/")
            #expect(german != english)
            #expect(try await proxy.get(german).status == 404)
            #expect(try await proxy.get(german.replacingOccurrences(of: "index.m3u8", with: "0.vtt")).status == 404)
            // The same set lists it for an asset that has it.
            let other = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(subtitleRenditions(other).count == 2)
        }
    }

    @Test(arguments: [405, 501])
    func whereHEADIsRefusedTheProbeIsAGET(status: Int) async throws {
        let sources = try SubtitleSourceOrigin(headStatus: status)
        try await withSubtitleSources(Self.config(), sources: sources) { proxy in
            let master = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(subtitleRenditions(master).count == 2)
            #expect(sources.requests().map(\.method) == ["HEAD", "GET"])
            #expect(Set(sources.requests().map(\.target)) == ["/subs/vod-ts/fr.vtt"])
        }
    }

    @Test func aHEADRefusedAndAGETThatFindsNothingLeavesTheTrackOut() async throws {
        let sources = try SubtitleSourceOrigin(missing: ["/subs/vod-ts/fr.vtt"], headStatus: 405)
        try await withSubtitleSources(Self.config(), sources: sources) { proxy in
            let master = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(subtitleRenditions(master).count == 1)
            #expect(sources.requests().map(\.method) == ["HEAD", "GET"])
        }
    }

    @Test func concurrentFirstRequestsForOneAssetMakeOneProbePerOptionalTrack() async throws {
        // Answers wait, so the first requests all arrive while the first probe is still out.
        let sources = try SubtitleSourceOrigin(delay: .milliseconds(400))
        try await withSubtitleSources(Self.config(), sources: sources) { proxy in
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { subtitleRenditions(try await proxy.get("/origin/vod-ts/master.m3u8")).count } }
                var counts: [Int] = []
                for try await count in group { counts.append(count) }
                return counts
            }
            #expect(counts == Array(repeating: 2, count: 8))
            #expect(sources.requests(method: "HEAD").count == 1)
        }
    }

    @Test func requestsForAssetsTheOriginDoesNotHaveMakeNoProbeAndAnExistingAssetStillGetsOne() async throws {
        let sources = try SubtitleSourceOrigin()
        try await withSubtitleSources(Self.config(), sources: sources) { proxy in
            for index in 0..<5 {
                #expect(try await proxy.get("/origin/invented-\(index)/master.m3u8").status == 404)
                // The subtitle route resolves the same tracks: no probe for an invented asset either.
                let subtitle = SubtitleURL(setName: "catalog", trackID: "de", masterTarget: "/origin/invented-\(index)/master.m3u8", resource: .playlist)
                #expect(try await proxy.get(subtitle.path).status == 404)
            }
            #expect(sources.requests(method: "HEAD").isEmpty)
            let existing = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(subtitleRenditions(existing).count == 2)
            #expect(sources.requests(method: "HEAD").count == 1)
        }
    }

    @Test func aProbeAnswerIsKeptForTheTracksTTLNotTheMasterTTL() async throws {
        let sources = try SubtitleSourceOrigin()
        try await withSubtitleSources(Self.config(masterTTL: 0), sources: sources) { proxy in
            for _ in 0..<3 {
                let master = try await proxy.get("/origin/vod-ts/master.m3u8")
                #expect(subtitleRenditions(master).count == 2)
            }
            // One more for the first request: its probe waited for the master to answer, and a TTL of 0 keeps nothing.
            #expect(proxy.origin.hits("/vod-ts/master.m3u8") == 4)
            #expect(sources.requests(method: "HEAD").count == 1)
        }
    }

    @Test func aProbeThatCannotConnectCountsAsAbsentWithAWarnLine() async throws {
        let closed = LoopbackPort.refusing
        let sources = try SubtitleSourceOrigin()
        try await withSubtitleSources(Self.config(optionalSource: "http://127.0.0.1:\(closed)/subs/fr.vtt"), sources: sources) { proxy in
            let master = try await proxy.get("/origin/vod-ts/master.m3u8")
            #expect(master.status == 200)
            #expect(subtitleRenditions(master).count == 1)
            #expect(proxy.logLines.contains { $0.contains("optional track source probe failed") && $0.contains("\"track\":\"de\"") })
        }
    }

    @Test func onADirectoryMountAnOptionalTrackIsListedOnlyWhenItsFileExists() async throws {
        let config = """
            {
              "mounts": { "files": { "origin": "FIXTURES" } },
              "subtitles": [
                { "name": "dir", "masters": ["/files/{asset}/master.m3u8"],
                  "tracks": [
                    { "id": "fr", "name": "French", "language": "fr", "optional": true, "source": "/subtitles/fr.vtt" },
                    { "id": "de", "name": "Deutsch", "language": "de", "optional": true, "source": "/subtitles/{asset}-de.vtt" }
                  ] }
              ]
            }
            """
        try await withProxy(config) { proxy in
            let master = try await proxy.get("/files/vod-ts/master.m3u8")
            #expect(master.status == 200)
            let renditions = subtitleRenditions(master)
            #expect(renditions.count == 1)
            #expect(renditions.first?.contains("LANGUAGE=\"fr\"") == true)
            #expect(proxy.logLines.contains { $0.contains("resolved tracks") && $0.contains("\"tracks\":\"fr\"") })
        }
    }
}
