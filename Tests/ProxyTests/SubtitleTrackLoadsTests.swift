import HLS
import Testing
@testable import Proxy

/// One load per subtitle track while its document is held, a new one once nobody holds it.
@Suite struct SubtitleTrackLoadsTests {
    static func load() async -> SubtitleTrackCues {
        SubtitleTrackCues(document: WebVTTDocument(cues: [WebVTTCue(start: 0, end: 1, payload: ["x"])]), isFallback: false)
    }

    @Test func aDocumentStillHeldByARequestIsSharedWithTheNextOne() async throws {
        let loads = SubtitleTrackLoads()
        let held = try await loads.cues(for: "k", load: Self.load)
        let again = try await loads.cues(for: "k", load: Self.load)
        #expect(held === again)
        #expect(loads.loadsStarted == 1)
        let other = try await loads.cues(for: "other", load: Self.load)
        #expect(other !== held)
        #expect(loads.loadsStarted == 2)
    }

    @Test func aDocumentNobodyHoldsIsLoadedAgain() async throws {
        let loads = SubtitleTrackLoads()
        var held: SubtitleTrackCues? = try await loads.cues(for: "k", load: Self.load)
        #expect(held != nil)
        held = nil
        _ = try await loads.cues(for: "k", load: Self.load)
        #expect(loads.loadsStarted == 2)
    }

    @Test func concurrentRequestsWaitForTheOneLoadInFlight() async throws {
        let loads = SubtitleTrackLoads()
        let gate = AsyncGate()
        let results = try await withThrowingTaskGroup(of: SubtitleTrackCues.self) { group in
            for _ in 0..<16 {
                group.addTask { try await loads.cues(for: "k") { await gate.wait(); return await Self.load() } }
            }
            // Requests that join after the load finished still find the document the others hold.
            for _ in 0..<100 { await Task.yield() }
            await gate.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 === results[0] })
        #expect(loads.loadsStarted == 1)
    }
}

/// A one-shot gate the load waits on.
actor AsyncGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

/// A load that is shed (the only way one throws) leaves no slot behind: the next request loads afresh.
@Suite struct SubtitleTrackLoadsShedTests {
    struct Shed: Error {}

    @Test func aShedLoadIsNotRememberedAndTheNextRequestLoadsAgain() async throws {
        let loads = SubtitleTrackLoads()
        await #expect(throws: Shed.self) { try await loads.cues(for: "k") { throw Shed() } }
        let cues = try await loads.cues(for: "k", load: SubtitleTrackLoadsTests.load)
        #expect(cues.document.cues.count == 1)
        #expect(loads.loadsStarted == 2)
    }
}
