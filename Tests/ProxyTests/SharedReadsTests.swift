@testable import Proxy
import TestSupport
import Testing

/// One read in flight per key (`SharedReads`): joiners get its answer or its error, and the next
/// caller after it reads again.
@Suite struct SharedReadsTests {
    struct Failure: Error {}

    @Test func callersWhileAReadRunsShareItAndTheTableDrains() async throws {
        let reads = SharedReads<Int>()
        let started = LockedBox(0)
        let gate = Gate()
        async let first = reads.value(for: "k") {
            started.withLock { $0 += 1 }
            await gate.wait()
            return 7
        }
        try await eventually { reads.inFlight == 1 }
        async let second = reads.value(for: "k") {
            started.withLock { $0 += 1 }
            return 8
        }
        try await eventually { reads.joined == 1 }
        // Another key is another read.
        let other = await reads.value(for: "j") { 9 }
        #expect(try other.answer.get() == 9 && !other.joined)
        gate.open()
        let (a, b) = await (first, second)
        #expect(try a.answer.get() == 7 && !a.joined)
        #expect(try b.answer.get() == 7 && b.joined, "joined the read in flight, whose answer it gets")
        #expect(started.withLock { $0 } == 1)
        try await eventually { reads.inFlight == 0 }
    }

    @Test func anErrorReachesEveryWaiterAndTheNextCallerReadsAgain() async throws {
        let reads = SharedReads<Int>()
        let gate = Gate()
        async let first = reads.value(for: "k") {
            await gate.wait()
            throw Failure()
        }
        try await eventually { reads.inFlight == 1 }
        async let second = reads.value(for: "k") { 1 }
        try await eventually { reads.joined == 1 }
        gate.open()
        let (a, b) = await (first, second)
        #expect(throws: Failure.self) { try a.answer.get() }
        #expect(throws: Failure.self) { try b.answer.get() }
        try await eventually { reads.inFlight == 0 }
        let again = await reads.value(for: "k") { 2 }
        #expect(try again.answer.get() == 2 && !again.joined)
    }
}
