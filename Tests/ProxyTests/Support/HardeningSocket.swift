import Foundation
import Glibc

/// A blocking client socket for hostile-client tests: arbitrary bytes, tiny writes, half-close, and
/// reads until the server closes. Use from a detached thread (`onThread`), never the async pool.
final class HardeningSocket: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible { var description: String }

    let fd: Int32

    /// Connects to 127.0.0.1:`port`; reads give up after `timeout`.
    init(port: Int, timeout: Duration = .seconds(10)) throws {
        do {
            fd = try TestClient.connectLoopback(port: port, timeout: timeout)
        } catch {
            throw Failure(description: "\(error)")
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { Glibc.close(fd) }

    /// Sends everything; false if the server already closed (EPIPE/ECONNRESET), which a refusal may do.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Ends our direction: the server reads end of stream.
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads until the server closes or the timeout passes; `closed` tells which.
    func readUntilClose() -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[0..<count]
            } else {
                // 0 is an orderly close; ECONNRESET also means the server is done with us.
                return (received, count == 0 || errno == ECONNRESET)
            }
        }
    }

    /// Reads at least `count` bytes or until close/timeout.
    func read(atLeast count: Int) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while received.count < count {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            received += buffer[0..<n]
        }
        return received
    }
}

/// Runs blocking socket work on its own thread so the cooperative pool stays free for the server.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

/// How many responses a byte stream holds, counted by lines starting `HTTP/1.1 ` (the bodies in these
/// tests end in a newline and never start a line that way).
func statusLineCount(_ bytes: [UInt8]) -> Int {
    bytes.split(separator: 0x0A, omittingEmptySubsequences: false).filter { $0.starts(with: Array("HTTP/1.1 ".utf8)) }.count
}
