import Glibc

extension TestListener {
    /// The longest request head an origin reads; past it the head is taken as it stands.
    public static let headLimit = 65_536

    /// Reads a request head from a socket (see `readHead(receive:)`).
    public static func readHead(_ fd: Int32) -> [UInt8]? {
        readHead { buffer in recv(fd, buffer.baseAddress, buffer.count, 0) }
    }

    /// Reads until the blank line that ends a head (the clients send no body and never pipeline), or
    /// until `headLimit` bytes came without one; nil when the peer closes or fails first. `receive`
    /// fills the buffer it is given and returns the count, 0 or less at the end.
    public static func readHead(receive: (UnsafeMutableRawBufferPointer) -> Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        while bytes.count < headLimit, bytes.firstRange(of: end) == nil {
            let count = chunk.withUnsafeMutableBytes { receive($0) }
            if count <= 0 { return nil }
            bytes.append(contentsOf: chunk.prefix(count))
        }
        return bytes
    }

    /// Writes all of `bytes` to a socket; false when the peer is gone.
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        writeAll(bytes) { buffer in send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Hands `send` what is left of `bytes` until it has taken all; false when it returns 0 or less.
    /// `send` may take fewer bytes than it is given and returns how many it took.
    @discardableResult
    public static func writeAll(_ bytes: [UInt8], send: (UnsafeRawBufferPointer) -> Int) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { send(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            if written <= 0 { return false }
            offset += min(written, bytes.count - offset)
        }
        return true
    }

    /// Blocks SIGPIPE on the calling thread, so a client that hangs up mid-write cannot take the test
    /// process down (OpenSSL writes without MSG_NOSIGNAL).
    public static func blockBrokenPipeSignal() {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
    }
}
