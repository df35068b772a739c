import Foundation
import Glibc
@testable import Proxy
import TestSupport
import Testing

/// The disk cache under disk faults and hostile clients: a write that fails (a full file system) stops
/// caching that object and never the response; fills reserve their declared length against the budget;
/// keys keep objects fetched with a mount's credential away from requests that do not carry it.
@Suite(.serialized, .timeLimit(.minutes(3))) struct HardeningDiskCacheTests {
    /// The value of an unlabelled or labelled sample in `/metrics` text, nil when absent.
    static func sample(_ metrics: String, _ name: String) -> Int? {
        metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ").last ?? "") }
    }

    @Test func aFailedCacheWriteStopsCachingThatObjectAndTheClientStillGetsTheWholeBody() async throws {
        let origin = try GeneratedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: directory)
        // Every fill fails once its body passes 100 kB, as on a file system that is full.
        proxy.diskCache?.fills.simulatedFullAfter.store(100_000, ordering: .relaxed)
        let size = 1_000_000
        let first = try await proxy.get("/bucket/obj/\(size).ts")
        // Several at once share one fill: each of them must get the whole body from memory too.
        let together = try await withThrowingTaskGroup(of: RawResponse.self) { group in
            for _ in 0..<4 { group.addTask { try await proxy.get("/bucket/obj/\(size).ts") } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let metrics = try await proxy.get("/metrics").text
        let logs = proxy.logLines
        await proxy.stop()
        origin.stop()
        let expected = GeneratedOrigin.bytes(0...(size - 1))
        for response in [first] + together {
            #expect(response.status == 200)
            #expect(response.header("Content-Length") == String(size))
            #expect(response.body.count == size)
            let intact = response.body == expected
            #expect(intact, "the body's bytes differ from the origin's")
        }
        #expect((Self.sample(metrics, #"hls_proxy_disk_cache_errors_total{operation="write"}"#) ?? 0) >= 2, "\(metrics)")
        let warnings = logs.filter { $0.contains("disk cache error") }
        #expect(warnings.count == 1, "one line per kind of error, not one per request: \(logs)")
        #expect(warnings.first?.contains("No space left on device") == true, "\(warnings)")
        #expect(DiskCacheHarness.files(directory).isEmpty, "nothing half-written is left: \(DiskCacheHarness.files(directory))")
    }

    @Test func aFullDiskCacheFileSystemStillServesEveryResponseWhole() async throws {
        let directory = try DiskCacheHarness.makeDirectory()
        guard Self.mountTmpfs(directory, size: "2m") else {
            print("SKIP aFullDiskCacheFileSystemStillServesEveryResponseWhole: cannot mount a tmpfs here (needs root); the simulated-ENOSPC test covers the same path")
            return
        }
        defer { _ = umount(directory) }
        let origin = try GeneratedOrigin()
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: directory)
        var responses: [(size: Int, response: RawResponse)] = []
        // 6 objects of 700 kB into 2 MB: the third onwards meets a full file system.
        for index in 0..<6 {
            let size = 700_000 + index
            responses.append((size, try await proxy.get("/bucket/obj/\(size).ts")))
        }
        // Those that were stored are replayed from disk, the rest come from the origin again: all whole.
        for index in 0..<6 {
            let size = 700_000 + index
            responses.append((size, try await proxy.get("/bucket/obj/\(size).ts")))
        }
        let metrics = try await proxy.get("/metrics").text
        let logs = proxy.logLines
        await proxy.stop()
        origin.stop()
        for (size, response) in responses {
            #expect(response.status == 200)
            #expect(response.header("Content-Length") == String(size))
            #expect(response.body.count == size, "object of \(size) bytes came \(response.body.count) bytes long")
            let intact = response.body == GeneratedOrigin.bytes(0...(size - 1))
            #expect(intact, "the body's bytes differ from the origin's")
        }
        let errors = ["create", "write", "sync"].compactMap { Self.sample(metrics, "hls_proxy_disk_cache_errors_total{operation=\"\($0)\"}") }
        #expect(errors.reduce(0, +) > 0, "\(metrics)")
        #expect(logs.contains { $0.contains("disk cache error") }, "\(logs)")
    }

    @Test func fortyClientsThatHangUpAfterTheHeadCannotPushTheCacheOverItsBudget() async throws {
        let origin = try GeneratedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        let budget = 4_000_000
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: directory, maxBytes: budget)
        // Watches the bytes in the directory (temp files of running fills included) until told to stop.
        // On a thread of its own: a polling loop on the task pool would starve the proxy under test.
        let watching = LockedBox(true)
        let largestSeen = LockedBox<Int?>(nil)
        Thread.detachNewThread {
            var largest = 0
            while watching.withLock({ $0 }) {
                largest = max(largest, Self.bytesIn(directory))
                usleep(500)  // the sampling interval, not a wait
            }
            let last = max(largest, Self.bytesIn(directory))
            largestSeen.withLock { $0 = last }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask {
                    try await StreamingReader.readPrefixAndHangUp(port: proxy.service.port, "/bucket/obj/\(1_000_000 + index).ts", bytes: 1)
                }
            }
            try await group.waitForAll()
        }
        // Waits (bounded) for the fills to end; how long they take is not what is tested.
        try await eventually("fills still running: \(proxy.diskCache?.fillsRunning ?? -1)") { proxy.diskCache?.fillsRunning == 0 }
        watching.withLock { $0 = false }
        try await eventually("the directory watcher never stopped") { largestSeen.withLock { $0 } != nil }
        let largest = largestSeen.withLock { $0 } ?? 0
        let metrics = try await proxy.get("/metrics").text
        let held = proxy.diskCache?.totalBytes ?? 0
        await proxy.stop()
        origin.stop()
        #expect(largest <= budget, "the directory held \(largest) bytes, over the budget of \(budget)")
        #expect(held <= budget)
        #expect(Self.sample(metrics, "hls_proxy_disk_cache_reserved_bytes") == 0, "\(metrics)")
        #expect(Self.sample(metrics, "hls_proxy_disk_cache_fills_running") == 0)
    }

    @Test func anObjectCachedThroughACredentialedMountIsNotServedThroughAMountWithoutTheCredential() async throws {
        let origin = try GeneratedOrigin()
        let directory = try DiskCacheHarness.makeDirectory()
        // `bucket` injects the bearer token the origin requires; `open` is the same origin without it.
        let proxy = try DiskCacheHarness(originURL: origin.baseURL, directory: directory,
                                         otherMounts: [#""open": { "origin": "ORIGIN", "segments": "proxy" }"#])
        let credentialed = try await proxy.get("/bucket/obj/5000.ts")
        let stored = DiskCacheHarness.files(directory)
        let uncredentialed = try await proxy.get("/open/obj/5000.ts")
        let ranged = try await proxy.get("/open/obj/5000.ts", headers: [("Range", "bytes=0-99")])
        await proxy.stop()
        origin.stop()
        #expect(credentialed.status == 200)
        #expect(stored.count == 1)
        #expect(uncredentialed.status == 403, "served \(uncredentialed.body.count) bytes fetched with another mount's credential")
        #expect(ranged.status == 403)
        #expect(origin.requests("/obj/5000.ts").count == 3)
        // The key written to disk stands for the token; it does not hold it.
        let files = DiskCacheHarness.files(directory).map { directory + "/" + $0 }
        for file in files {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
            let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
            #expect(!text.contains("secret-token") && !text.contains(Self.hex("secret-token")))
        }
    }

    /// Sum of the sizes of the regular files in `directory`.
    static func bytesIn(_ directory: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.reduce(0) { total, name in
            var status = stat()
            guard stat(directory + "/" + name, &status) == 0 else { return total }
            return total + Int(status.st_size)
        }
    }

    /// Mounts a tmpfs of `size` on `directory`; false when that is not allowed here.
    static func mountTmpfs(_ directory: String, size: String) -> Bool {
        mount("tmpfs", directory, "tmpfs", 0, "size=" + size) == 0
    }

    static func hex(_ text: String) -> String { text.utf8.map { String(format: "%02x", $0) }.joined() }
}

extension HardeningDiskCacheTests {
    /// FIPS 180-4 examples: the digest that stands for injected headers in disk cache keys.
    @Test func theDigestInDiskCacheKeysIsSHA256() {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }
}

extension HardeningDiskCacheTests {
    @Test func clientsSharingAFillThatHitsADiskErrorEachGetTheirWholeAnswer() async throws {
        let body = (0..<1500).map { UInt8($0 % 251) }
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: video/mp2t\r\nContent-Length: 1500\r\nConnection: close\r\n\r\n".utf8)
        // The origin sends a byte every 2 ms, so the later requests join the fill while it runs.
        let origin = try TestOrigin(routes: ["/slow.ts": .drip(head + body, interval: .milliseconds(2))])
        let directory = try DiskCacheHarness.makeDirectory()
        let proxy = try DiskCacheHarness(originURL: "http://127.0.0.1:\(origin.port)", directory: directory)
        proxy.diskCache?.fills.simulatedFullAfter.store(700, ordering: .relaxed)
        async let first = proxy.get("/bucket/slow.ts")
        try await eventually { proxy.diskCache?.fillsRunning == 1 }
        async let second = proxy.get("/bucket/slow.ts")
        async let tail = proxy.get("/bucket/slow.ts", headers: [("Range", "bytes=1400-")])
        async let early = proxy.get("/bucket/slow.ts", headers: [("Range", "bytes=0-99")])
        let responses = try await [first, second, tail, early]
        await proxy.stop()
        origin.stop()
        #expect(responses.map(\.status) == [200, 200, 206, 206])
        #expect(responses[0].body == body)
        #expect(responses[1].body == body)
        #expect(responses[2].body == Array(body[1400...]))
        #expect(responses[3].body == Array(body[0...99]))
        #expect(origin.requests(path: "/slow.ts").count == 1, "one origin transfer, shared")
        #expect(DiskCacheHarness.files(directory).isEmpty)
    }
}
