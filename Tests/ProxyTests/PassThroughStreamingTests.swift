import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

/// `proxy` mode against an origin that demands a header: streaming, Range, HEAD, playlists, cancellation.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PassThroughStreamingTests {
    @Test func aPlayerWithoutTheHeaderIsRefusedByTheOriginButServedThroughTheProxy() async throws {
        try await withPassThrough { proxy in
            let direct = try await TestClient.get(port: proxy.origin.port, "/obj/1000.ts")
            #expect(direct.status == 403)
            let response = try await proxy.get("/bucket/obj/1000.ts")
            #expect(response.status == 200)
            #expect(response.body == GeneratedOrigin.bytes(0...999))
            #expect(response.header("Content-Length") == "1000")
            #expect(response.header("Content-Type") == "video/mp2t")
            #expect(response.header("ETag") == "\"obj-1000\"")
            #expect(response.header("Last-Modified") == "Tue, 01 Apr 2025 10:00:00 GMT")
            #expect(response.header("Accept-Ranges") == "bytes")
            #expect(response.header("X-HLS-Proxy-Route") == "proxy")
            #expect(response.header("Transfer-Encoding") == nil)
        }
    }

    @Test(arguments: [
        ("bytes=100-199", 100...199), ("bytes=900-", 900...999), ("bytes=-50", 950...999), ("bytes=990-5000", 990...999),
    ])
    func singleRangesAreForwardedAndAnsweredWith206(range: String, expected: ClosedRange<Int>) async throws {
        try await withPassThrough { proxy in
            let response = try await proxy.get("/bucket/obj/1000.ts", headers: [("Range", range)])
            #expect(response.status == 206)
            #expect(response.header("Content-Range") == "bytes \(expected.lowerBound)-\(expected.upperBound)/1000")
            #expect(response.header("Content-Length") == String(expected.count))
            #expect(response.body == GeneratedOrigin.bytes(expected))
            #expect(proxy.origin.requests("/obj/1000.ts").last?.range == range)
        }
    }

    @Test func anUnsatisfiableRangeIs416AndAMultiRangeGetsTheWholeBody() async throws {
        try await withPassThrough { proxy in
            let beyond = try await proxy.get("/bucket/obj/1000.ts", headers: [("Range", "bytes=1000-")])
            #expect(beyond.status == 416)
            #expect(beyond.header("Content-Range") == "bytes */1000")
            let multi = try await proxy.get("/bucket/obj/1000.ts", headers: [("Range", "bytes=0-1,5-6")])
            #expect(multi.status == 200)
            #expect(multi.body == GeneratedOrigin.bytes(0...999))
            #expect(proxy.origin.requests("/obj/1000.ts").last?.range == nil)
        }
    }

    @Test func headGivesTheContentInformationWithoutABody() async throws {
        try await withPassThrough { proxy in
            let head = try await proxy.get("/bucket/obj/5000.ts", method: "HEAD")
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "5000")
            #expect(head.header("ETag") == "\"obj-5000\"")
            #expect(head.body.isEmpty)
            #expect(proxy.origin.requests("/obj/5000.ts").map(\.method) == ["HEAD"])
        }
    }

    @Test func variantPlaylistsComeBackWithAbsoluteOriginURIsOnTheProxy() async throws {
        try await withPassThrough { proxy in
            let playlist = try await proxy.get("/bucket/live/index.m3u8")
            #expect(playlist.status == 200)
            #expect(playlist.text == "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MAP:URI=\"/bucket/obj/100.mp4\"\n#EXTINF:4,\n"
                + "/bucket/obj/1000.ts\n#EXTINF:4,\n../obj/2000.ts\n#EXT-X-ENDLIST\n")
            // Both forms come back through the proxy, which adds the token. A player resolves
            // "../obj/2000.ts" against /bucket/live/index.m3u8 (RFC 3986 §5.2.4) before asking.
            #expect(try await proxy.get("/bucket/obj/1000.ts").status == 200)
            #expect(try await proxy.get("/bucket/obj/2000.ts").status == 200)
        }
    }

    @Test func aLargeSegmentStreamsWithFlatMemory() async throws {
        try await withPassThrough { proxy in
            let size = 48 << 20
            // The process's RSS is shared with the suites running beside this one, which may allocate
            // meanwhile: up to three transfers, each one's peak over the RSS before the first, and the
            // smallest counts. Whole-body buffering would hold the 48 MiB body at every one's peak
            // (measured from the first baseline, memory it freed and kept counts against it too).
            let before = residentBytes()
            var growths: [Int] = []
            for _ in 0..<3 {
                let peak = LockedBox(residentBytes())
                let sampling = LockedBox(true)
                let sampler = Thread {
                    while sampling.withLock({ $0 }) {
                        let now = residentBytes()
                        peak.withLock { $0 = max($0, now) }
                        usleep(2_000)  // the sampling interval, not a wait
                    }
                }
                sampler.start()
                let (status, count, intact) = try await StreamingReader.read(port: proxy.port, "/bucket/obj/\(size).ts")
                sampling.withLock { $0 = false }
                #expect(status == 200)
                #expect(count == size)
                #expect(intact)
                growths.append(peak.withLock { $0 } - before)
                if growths.last ?? 0 < 24 << 20 { break }
            }
            // Streaming holds a few buffers.
            let growth = growths.min() ?? .max
            #expect(growth < 24 << 20, "RSS grew by \(growths.map { $0 >> 20 }) MiB while streaming \(size >> 20) MiB")
        }
    }

    @Test func aClientThatHangsUpCancelsTheOriginTransfer() async throws {
        try await withPassThrough { proxy in
            try await StreamingReader.readPrefixAndHangUp(port: proxy.port, "/bucket/obj/500000000.ts", bytes: 256 * 1024)
            try await eventually { proxy.origin.abortedTransfers == 1 }
        }
    }
}

/// A client that counts and checks a generated body as it arrives instead of keeping it.
enum StreamingReader {
    static func read(port: Int, _ target: String) async throws -> (status: Int, count: Int, intact: Bool) {
        try await onThread { try blockingRead(port: port, target, stopAfter: nil) }
    }

    static func readPrefixAndHangUp(port: Int, _ target: String, bytes: Int) async throws {
        _ = try await onThread { try blockingRead(port: port, target, stopAfter: bytes) }
    }

    private static func blockingRead(port: Int, _ target: String, stopAfter: Int?) throws -> (status: Int, count: Int, intact: Bool) {
        let fd = try RawSocketClient.connect(port: port, timeout: .seconds(20))
        defer { close(fd) }
        let request = Array("GET \(target) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var head: [UInt8] = []
        var status = 0
        var count = 0
        var intact = true
        var inBody = false
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            var start = 0
            if !inBody {
                head += buffer[0..<n]
                guard let end = head.firstRange(of: [13, 10, 13, 10]) else { continue }
                let line = String(decoding: head[..<end.lowerBound], as: UTF8.self).split(separator: " ")
                status = line.count > 1 ? Int(line[1]) ?? 0 : 0
                let bodyBytes = head[end.upperBound...]
                if !bodyBytes.isEmpty {
                    if !bodyBytes.elementsEqual(GeneratedOrigin.bytes(count...(count + bodyBytes.count - 1))) { intact = false }
                    count += bodyBytes.count
                }
                inBody = true
                start = n
            }
            if start < n {
                if !buffer[start..<n].elementsEqual(GeneratedOrigin.bytes(count...(count + n - start - 1))) { intact = false }
                count += n - start
            }
            if let stopAfter, count >= stopAfter { break }
        }
        return (status, count, intact)
    }
}
