import Foundation
@testable import Proxy
import TestSupport
import Testing

/// The disk cache's lines in `/metrics`: hits, partial hits, misses, bytes by source, size and evictions.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DiskCachePartialMetricsTests {
    /// The value of the sample line that starts with `name` (labels included), if any.
    static func sample(_ text: String, _ name: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Int(line.dropFirst(name.count + 1))
        }
        return nil
    }

    @Test func theCountersMoveWithEachKindOfAnswer() async throws {
        let origin = try GeneratedOrigin()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: try DiskCacheHarness.makeDirectory(), maxBytes: 5000)
        let start = try await proxy.get("/metrics").text
        _ = try await proxy.get("/bucket/obj/10000.ts", headers: [("Range", "bytes=0-999")])  // miss: 1000 from the origin
        _ = try await proxy.get("/bucket/obj/10000.ts", headers: [("Range", "bytes=0-999")])  // hit: 1000 from disk
        _ = try await proxy.get("/bucket/obj/10000.ts", headers: [("Range", "bytes=500-1999")])  // partial: 500 + 1000
        _ = try await proxy.get("/bucket/obj/10000.ts", headers: [("Range", "bytes=6000-8999")])  // miss: 3000, evicts the oldest
        let text = try await proxy.get("/metrics").text
        let bytes = proxy.diskCache?.totalBytes
        await proxy.stop()
        origin.stop()
        #expect(Self.sample(start, "hls_proxy_disk_cache_hits_total") == 0)
        #expect(Self.sample(text, "hls_proxy_disk_cache_hits_total") == 1)
        #expect(Self.sample(text, "hls_proxy_disk_cache_partial_hits_total") == 1)
        #expect(Self.sample(text, "hls_proxy_disk_cache_misses_total") == 2)
        #expect(Self.sample(text, #"hls_proxy_disk_cache_bytes_served_total{source="disk"}"#) == 1500)
        #expect(Self.sample(text, #"hls_proxy_disk_cache_bytes_served_total{source="origin"}"#) == 5000)
        // Pieces 0-999 and 1000-1999 were stored, then 6000-8999 pushed out the least recently used.
        #expect(Self.sample(text, "hls_proxy_disk_cache_evictions_total") == 1)
        #expect(Self.sample(text, #"hls_proxy_disk_cache_objects{kind="piece"}"#) == 2)
        #expect(Self.sample(text, #"hls_proxy_disk_cache_objects{kind="entry"}"#) == 0)
        #expect(Self.sample(text, "hls_proxy_disk_cache_bytes") == bytes)
        #expect(text.contains("# TYPE hls_proxy_disk_cache_bytes gauge"))
        #expect(origin.requests("/obj/10000.ts").map(\.range) == ["bytes=0-999", "bytes=1000-1999", "bytes=6000-8999"])
    }

    @Test func aCompleteEntryHitCountsAsAHitAndItsBytesAsFromDisk() async throws {
        let origin = try GeneratedOrigin()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: try DiskCacheHarness.makeDirectory())
        _ = try await proxy.get("/bucket/obj/2000.ts")
        let replay = try await proxy.get("/bucket/obj/2000.ts")
        let text = try await proxy.get("/metrics").text
        await proxy.stop()
        origin.stop()
        #expect(replay.header("X-HLS-Proxy-Route") == "cache")
        #expect(Self.sample(text, "hls_proxy_disk_cache_hits_total") == 1)
        #expect(Self.sample(text, "hls_proxy_disk_cache_misses_total") == 1)
        #expect(Self.sample(text, #"hls_proxy_disk_cache_bytes_served_total{source="disk"}"#) == 2000)
        #expect(Self.sample(text, #"hls_proxy_disk_cache_bytes_served_total{source="origin"}"#) == 2000)
        #expect(Self.sample(text, #"hls_proxy_disk_cache_objects{kind="entry"}"#) == 1)
        #expect(text.contains(#"hls_proxy_requests_total{route="cache",status="2xx"} 1"#))
    }

    @Test func noDiskCacheLinesWithoutADiskCache() async throws {
        let origin = try GeneratedOrigin()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: nil)
        let text = try await proxy.get("/metrics").text
        await proxy.stop()
        origin.stop()
        #expect(text.contains("hls_proxy_requests_total"))
        #expect(!text.contains("hls_proxy_disk_cache"))
    }
}
