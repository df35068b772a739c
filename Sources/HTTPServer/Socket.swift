import CSystem
import Glibc
import HTTPWire

/// A non-blocking socket descriptor and the system calls the event loop makes on it.
struct Socket {
    /// The file descriptor.
    let fd: Int32

    /// The outcome of one non-blocking call.
    enum IOResult {
        /// The call succeeded; the count it returned (bytes, or a new descriptor).
        case done(Int)
        /// EAGAIN: wait for readiness.
        case wouldBlock
        /// Any other failure, with call name and errno.
        case failed(HTTPServerError)
    }

    /// Runs a system call through the one errno loop, naming the call in a failure.
    @inline(__always)
    static func perform(_ call: StaticString, _ body: () -> Int) -> IOResult {
        switch SystemCall.perform(body) {
        case .done(let count): return .done(count)
        case .wouldBlock: return .wouldBlock
        case .failed(let code): return .failed(.system("\(call)", errno: code))
        }
    }

    /// Reads into `buffer`; `.done(0)` is end of stream.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        Socket.perform("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// The same, into all of `buffer`: the array's memory is reached only for the read(2) call.
    func read(into buffer: inout [UInt8]) -> IOResult {
        buffer.withUnsafeMutableBytes { read(into: $0) }
    }

    /// Writes the unsent part of `head` then `body` in one writev; `offset` counts bytes already sent.
    func write(head: [UInt8], body: [UInt8], from offset: Int) -> IOResult {
        head.withUnsafeBytes { write(head: $0, body: body, from: offset) }
    }

    /// The same, with the head the first `count` bytes of `head`.
    func write(head: [UInt8], count: Int, body: [UInt8], from offset: Int) -> IOResult {
        head.withUnsafeBytes { write(head: UnsafeRawBufferPointer(rebasing: $0[..<Swift.min(Swift.max(0, count), $0.count)]), body: body, from: offset) }
    }

    /// The same, with the head in memory the caller owns.
    func write(head headBytes: UnsafeRawBufferPointer, body: [UInt8], from offset: Int) -> IOResult {
            body.withUnsafeBytes { bodyBytes in
                var vectors = (iovec(), iovec())
                var count: Int32 = 0
                if offset < headBytes.count, let base = headBytes.baseAddress {
                    vectors.0 = iovec(iov_base: UnsafeMutableRawPointer(mutating: base + offset), iov_len: headBytes.count - offset)
                    count = 1
                }
                let bodyOffset = Swift.max(0, offset - headBytes.count)
                if bodyOffset < bodyBytes.count, let base = bodyBytes.baseAddress {
                    let vector = iovec(iov_base: UnsafeMutableRawPointer(mutating: base + bodyOffset), iov_len: bodyBytes.count - bodyOffset)
                    if count == 0 { vectors.0 = vector } else { vectors.1 = vector }
                    count += 1
                }
                if count == 0 { return .done(0) }
                return withUnsafePointer(to: &vectors) { pointer in
                    pointer.withMemoryRebound(to: iovec.self, capacity: 2) { iov in
                        Socket.perform("writev") { Glibc.writev(fd, iov, count) }
                    }
                }
            }
    }

    /// Sends up to `count` bytes of `file` from `offset` with sendfile(2); `.done(0)` means the file
    /// ended before `offset`.
    func sendFile(_ file: HTTPFile, offset: Int, count: Int) -> IOResult {
        var position = off_t(offset)
        return Socket.perform("sendfile") { Glibc.sendfile(fd, file.descriptor, &position, count) }
    }

    /// Best-effort single write of a short canned response; a short or failed write just loses it.
    func writeCanned(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { raw in
            Socket.perform("write") { Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// Sends FIN so the peer sees the end of the response while we still drain what it sends.
    func shutdownWrite() {
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    /// Releases the descriptor. Linux frees it even when close reports EINTR, so it is never retried.
    func close() {
        _ = Glibc.close(fd)
    }

    /// Disables Nagle so a response written in one call leaves at once.
    func setNoDelay() {
        var on: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Accepts one pending connection, non-blocking and close-on-exec, with the peer's address.
    func accept() -> (IOResult, String) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                Socket.perform("accept4") {
                    Int(csystem_accept4(fd, address, &length, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)))
                }
            }
        }
        guard case .done = result else { return (result, "") }
        return (result, SocketAddress(storage: storage).description)
    }
}
