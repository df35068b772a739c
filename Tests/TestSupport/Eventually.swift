/// A wait for observable state that never came.
public struct WaitTimedOut: Error, CustomStringConvertible {
    public var description: String
}

/// Polls `condition` until it holds, and throws `WaitTimedOut` (naming the call site and `message`)
/// when `timeout` passes first. The deadline only bounds a wait for a state; nothing is timed by it,
/// so it is generous: a loaded machine can stall a thread for seconds. The condition may await (a
/// request, say) and may throw, which ends the wait with its error.
public func eventually(
    _ message: @autoclosure () -> String = "", timeout: Duration = .seconds(20),
    fileID: String = #fileID, line: Int = #line, _ condition: () async throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while try await !condition() {
        guard clock.now < deadline else {
            let detail = message()
            throw WaitTimedOut(description: "\(fileID):\(line): still false after \(timeout)\(detail.isEmpty ? "" : ": " + detail)")
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
