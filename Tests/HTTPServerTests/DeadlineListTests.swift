@testable import HTTPServer
import TestSupport
import Testing

/// The loop's deadline lists against a plain model: for each kind, the armed descriptors in the order
/// they were armed (each kind has one duration, so that is deadline order).
@Suite struct DeadlineListTests {
    @Test func randomArmingAndDisarmingMatchesAPlainModel() {
        var lists = DeadlineLists()
        var model: [TimerKind: [(fd: Int32, deadline: Int64)]] = [:]
        var generator = SeededGenerator()
        var clock: Int64 = 0
        for _ in 0..<4000 {
            clock += 1
            // Descriptors past the first block (64) make it grow while others are armed.
            let fd = Int32.random(in: 0..<300, using: &generator)
            for kind in TimerKind.armable { model[kind]?.removeAll { $0.fd == fd } }
            if Bool.random(using: &generator) {
                let kind = TimerKind.armable.randomElement(using: &generator) ?? .idle
                lists.arm(fd, kind, until: clock)
                model[kind, default: []].append((fd, clock))
            } else {
                lists.disarm(fd)
            }
            for kind in TimerKind.armable {
                let expected = model[kind]?.first
                let actual = lists.first(kind)
                #expect(actual?.fd == expected?.fd && actual?.deadline == expected?.deadline)
            }
            let expectedKind = TimerKind.armable.first { kind in model[kind]?.contains { $0.fd == fd } ?? false } ?? .none
            #expect(lists.kind(of: fd) == expectedKind)
        }
        // Draining each list from its head gives the model's order.
        for kind in TimerKind.armable {
            var drained: [Int32] = []
            while let (fd, _) = lists.first(kind) {
                drained.append(fd)
                lists.disarm(fd)
            }
            #expect(drained == (model[kind] ?? []).map(\.fd))
        }
    }

    @Test func descriptorsOutsideTheTableAreIgnored() {
        var lists = DeadlineLists()
        lists.arm(-1, .idle, until: 5)
        lists.disarm(-1)
        lists.disarm(1_000_000)
        #expect(lists.kind(of: -1) == .none)
        #expect(lists.kind(of: 1_000_000) == .none)
        #expect(lists.first(.idle) == nil)
        lists.arm(3, .none, until: 5)
        #expect(lists.kind(of: 3) == .none)
    }
}
