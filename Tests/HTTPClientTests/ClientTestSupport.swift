/// Waits (without asserting on time) until `condition` holds, or gives up after about five seconds.
/// The same wait as HTTPServerTests' `eventually`, which this target cannot see.
func eventually(_ condition: () -> Bool) async throws -> Bool {
    for _ in 0..<500 {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// A test origin that could not open its socket.
struct OriginSetupFailure: Error, CustomStringConvertible {
    var description: String
}
